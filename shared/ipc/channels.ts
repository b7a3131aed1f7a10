import { SERIES_ADMIN_CHANNELS } from './channels-series-admin';

/**
 * The names of every IPC channel and event, as plain strings with no dependency. The preload imports
 * only this file (it must stay tiny: no zod in the sandboxed preload bundle), and `contract.ts`
 * proves at compile time and in tests that its maps have exactly these keys.
 */
import { IMPORT_CHANNELS } from './channels-imports';
import { SETUP_CHANNELS } from './channels-setup';
import { ACCOUNTING_CHANNELS } from './channels-accounting';
import { STOCK_CHANNELS } from './channels-stock';

export const CHANNELS = [
  'app.info',
  'settings.get',
  'settings.update',
  'settings.setApiKey',
  'settings.clearApiKey',
  'company.profile',
  'company.updateProfile',
  'sync.status',
  'sync.now',
  'sync.pause',
  'sync.resume',
  'outbox.list',
  'outbox.retry',
  'outbox.discard',
  'efactura.deadlines',
  'invoices.list',
  'invoices.get',
  'invoices.saveDraft',
  'invoices.issue',
  'invoices.issueDraft',
  'invoices.discard',
  'invoices.storno',
  'invoices.convert',
  'invoices.sendToSpv',
  'payments.list',
  'payments.create',
  'clients.list',
  'clients.get',
  'clients.create',
  'clients.update',
  'clients.lookupCui',
  'products.list',
  'products.get',
  'products.byCode',
  'products.create',
  'products.update',
  'receipts.list',
  'receipts.get',
  'receipts.create',
  'receipts.update',
  'counter.sell',
  'counter.carts',
  'counter.saveCarts',
  'counter.setDefaultPayment',
  'counter.setBarcodeRules',
  'series.list',
  'series.setMode',
  'series.refill',
  'series.gaps',
  'catalog.currencies',
  'catalog.vatRates',
  'catalog.workPoints',
  'purchases.expenses',
  'expenses.checkDuplicate',
  'expenses.create',
  'expenses.pay',
  'purchases.suppliers',
  'purchases.supplierBills',
  'purchases.supplierBillPdf',
  'dashboard.summary',
  'documents.savePdf',
  ...IMPORT_CHANNELS,
  ...SERIES_ADMIN_CHANNELS,
  ...SETUP_CHANNELS,
  ...ACCOUNTING_CHANNELS,
  ...STOCK_CHANNELS,
] as const;

export type ChannelName = (typeof CHANNELS)[number];

export const EVENTS = ['sync.status', 'sync.progress', 'outbox.changed', 'data.changed'] as const;

export type EventName = (typeof EVENTS)[number];

const channelSet: ReadonlySet<string> = new Set(CHANNELS);
const eventSet: ReadonlySet<string> = new Set(EVENTS);

export function isChannelName(value: unknown): value is ChannelName {
  return typeof value === 'string' && channelSet.has(value);
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && eventSet.has(value);
}

/** Transport names: one invoke channel and one event channel carry every call and every event. */
export const IPC_INVOKE = 'tejghea:invoke';
export const IPC_EVENT = 'tejghea:event';
