import { z } from 'zod';
import { zListPage } from '../../shared/api/envelope';
import { zClient } from '../../shared/schemas/client';
import { zCurrencyList } from '../../shared/schemas/currency';
import { zExpense, zExpenseActionReply } from '../../shared/schemas/expense';
import { zDuplicateCheckReply, type DuplicateCheckInput } from '../../shared/schemas/duplicate-candidate';
import { zSupplier } from '../../shared/schemas/supplier';
import { zDeletedRecord, type TombstonedResource } from '../../shared/schemas/deleted-record';
import { zWorkPoint } from '../../shared/schemas/work-point';
import { zSupplierBill, zSupplierBillEnvelope } from '../../shared/schemas/supplier-bill';
import { zInvoice } from '../../shared/schemas/invoice';
import { zProduct } from '../../shared/schemas/product';
import { zPayment, zReceipt } from '../../shared/schemas/receipt';
import { zInvoiceSeries, zNumberGap, zNumberReservation } from '../../shared/schemas/series';
import { zReceiptSeries } from '../../shared/schemas/receipt-series';
import { zVatRate } from '../../shared/schemas/vat-rate';
import { zNir, zStockDocument, zStockLevel, zStockMovement, zStockSettings, zWarehouse } from '../../shared/schemas/stock';
import { zCompanyLookup } from '../../shared/schemas/company-lookup';
import { zCompanyProfile, zSendToSpvResult, type CompanyProfileUpdate } from '../../shared/schemas/efactura';
import type { ApiClient } from './client';
import type { Priority } from './pacer';

/** GET /me (our design): checks a key and tells its company and work point; also the connectivity probe. */
export const zMe = z.object({
  object: z.literal('api_key'),
  key_id: z.string(),
  company: z.object({ id: z.string(), name: z.string(), cui: z.string() }),
  work_point: z.object({ id: z.string(), name: z.string() }),
  work_points: z.array(z.object({ id: z.string(), name: z.string() })),
  scopes: z.array(z.string()),
});
export type Me = z.infer<typeof zMe>;

/** `{ success, object, id, deleted: true, meta }` of the DELETE routes. */
export const zDeleted = z.object({ object: z.string(), id: z.string(), deleted: z.literal(true) });

/**
 * A stock level has no id of its own: its warehouse and product make one, and its last change stands
 * for its creation, so the generic pull (main/sync/pull.ts) walks it like any other resource.
 */
export const zPulledStockLevel = zStockLevel.transform((l) => ({ ...l, id: `${l.warehouse_id}:${l.product_id}`, created_at: l.updated_at }));

/** Resources pulled into the local cache, with the schema of one item. */
export const PULLED = {
  clients: { path: '/clients', item: zClient, query: { include_deleted: 'true' } },
  products: { path: '/products', item: zProduct, query: {} },
  invoices: { path: '/invoices', item: zInvoice, query: { 'expand[]': ['lines'] } },
  receipts: { path: '/receipts', item: zReceipt, query: { include_deleted: 'true' } },
  payments: { path: '/payments', item: zPayment, query: {} },
  suppliers: { path: '/suppliers', item: zSupplier, query: {} },
  expenses: { path: '/expenses', item: zExpense, query: {} },
  supplier_bills: { path: '/supplier-bills', item: zSupplierBill, query: { expand: 'supplier' } },
  stock_levels: { path: '/stock', item: zPulledStockLevel, query: {} },
} as const;
export type PulledResource = keyof typeof PULLED;

export type ListQuery = Record<string, string | number | boolean | readonly string[] | undefined>;

export function listPage<R extends PulledResource>(api: ApiClient, resource: R, query: ListQuery, priority: Priority = 'bulk') {
  const spec = PULLED[resource];
  return api.request({
    method: 'GET',
    path: spec.path,
    query: { ...spec.query, ...query },
    schema: zListPage(spec.item as (typeof PULLED)[R]['item']),
    priority,
  });
}

/** GET /deleted-records of one resource (tombstones, oldest first); 403 when the key may not read it. */
export const listDeletedRecords = (api: ApiClient, resource: TombstonedResource, query: ListQuery) =>
  api.request({
    method: 'GET',
    path: '/deleted-records',
    query: { ...query, resource },
    schema: zListPage(zDeletedRecord),
    priority: 'bulk',
  });

/**
 * A probe gives up fast when offline, but tries twice: the first failure is often a pooled connection
 * that died. `ofKey`: about the key itself, without the selected work point (checking a new key).
 */
export const getMe = (api: ApiClient, ofKey = false) =>
  api.request({ method: 'GET', path: '/me', schema: zMe, priority: 'interactive', retry: { maxAttempts: 2, maxDelayMs: 250 }, ...(ofKey ? { workPoint: false as const } : {}) });

export const listWorkPoints = (api: ApiClient, page = 1) =>
  api.request({ method: 'GET', path: '/work-points', query: { page, per_page: 100, sort: 'name' }, schema: zListPage(zWorkPoint), workPoint: false });

export const updateCompanyProfile = (api: ApiClient, body: CompanyProfileUpdate) =>
  api.request({ method: 'PUT', path: '/company/profile', body, schema: zCompanyProfile });

/** The probe body; the amount is the net (the API compares nets). */
export const checkExpenseDuplicate = (api: ApiClient, body: DuplicateCheckInput) =>
  api.request({ method: 'POST', path: '/expenses/check-duplicate', body, schema: zDuplicateCheckReply, envelope: 'top' });

export const downloadSupplierBillPdf = (api: ApiClient, billServerId: string) =>
  api.download({ method: 'GET', path: `/supplier-bills/${encodeURIComponent(billServerId)}/efactura-pdf` });

export const listSeries = (api: ApiClient, page = 1) =>
  api.request({ method: 'GET', path: '/invoice-series', query: { page, per_page: 100 }, schema: zListPage(zInvoiceSeries), priority: 'bulk' });

export const listReceiptSeries = (api: ApiClient, page = 1) =>
  api.request({ method: 'GET', path: '/receipt-series', query: { page, per_page: 100 }, schema: zListPage(zReceiptSeries), priority: 'bulk' });

export const lockReceiptSeries = (api: ApiClient, id: string, body: { device_id: string; device_name: string; device_platform: string }) =>
  api.request({ method: 'POST', path: `/receipt-series/${encodeURIComponent(id)}/lock`, body, schema: zReceiptSeries });

export const unlockReceiptSeries = (api: ApiClient, id: string, deviceId: string) =>
  api.request({ method: 'POST', path: `/receipt-series/${encodeURIComponent(id)}/unlock`, body: { device_id: deviceId }, schema: zReceiptSeries });

export const getSeries = (api: ApiClient, id: string) =>
  api.request({ method: 'GET', path: `/invoice-series/${encodeURIComponent(id)}`, schema: zInvoiceSeries });

export const lockSeries = (api: ApiClient, id: string, body: { device_id: string; device_name: string; device_platform: string }) =>
  api.request({ method: 'POST', path: `/invoice-series/${encodeURIComponent(id)}/lock`, body, schema: zInvoiceSeries });

export const unlockSeries = (api: ApiClient, id: string, deviceId: string) =>
  api.request({ method: 'POST', path: `/invoice-series/${encodeURIComponent(id)}/unlock`, body: { device_id: deviceId }, schema: zInvoiceSeries });

/** Reserves numbers of an invoice series or of a receipt series (the same protocol under each one's path). */
export const reserveNumbers = (
  api: ApiClient,
  kind: 'invoice' | 'receipt',
  id: string,
  body: { device_id: string; count: number; ttl_seconds?: number },
  idempotencyKey: string,
  priority: Priority = 'bulk',
) =>
  api.request({
    method: 'POST',
    path: `${kind === 'receipt' ? '/receipt-series' : '/invoice-series'}/${encodeURIComponent(id)}/reservations`,
    body,
    create: true,
    idempotencyKey,
    schema: zListPage(zNumberReservation),
    priority,
  });

export const listReservations = (api: ApiClient, seriesId: string, query: ListQuery) =>
  api.request({
    method: 'GET',
    path: `/invoice-series/${encodeURIComponent(seriesId)}/reservations`,
    query,
    schema: zListPage(zNumberReservation),
    priority: 'bulk',
  });

export const listGaps = (api: ApiClient, seriesId: string, page = 1, kind: 'invoice' | 'receipt' = 'invoice') =>
  api.request({
    method: 'GET',
    path: `/${kind === 'invoice' ? 'invoice-series' : 'receipt-series'}/${encodeURIComponent(seriesId)}/gaps`,
    query: { page, per_page: 100 },
    schema: zListPage(zNumberGap),
  });

export const getCurrencies = (api: ApiClient) =>
  api.request({ method: 'GET', path: '/currencies', schema: zCurrencyList, envelope: 'top', priority: 'bulk' });

export const listVatRates = (api: ApiClient) =>
  api.request({ method: 'GET', path: '/vat-rates', query: { per_page: 100 }, schema: zListPage(zVatRate), priority: 'bulk' });

export const getCompanyProfile = (api: ApiClient) =>
  api.request({ method: 'GET', path: '/company/profile', schema: zCompanyProfile, priority: 'bulk' });

export const lookupCompany = (api: ApiClient, cui: string) =>
  api.request({ method: 'GET', path: '/fiscal/company-lookup', query: { cui }, schema: zCompanyLookup });

export const sendToSpv = (api: ApiClient, invoiceServerId: string, testMode: boolean | undefined) =>
  api.request({
    method: 'POST',
    path: `/invoices/${encodeURIComponent(invoiceServerId)}/send-to-spv`,
    body: testMode === undefined ? {} : { test_mode: testMode },
    schema: zSendToSpvResult,
  });

/** GET of one record, used to refresh a local copy whose edit was discarded. */
export const getOne = <S extends z.ZodType>(api: ApiClient, path: string, schema: S) =>
  api.request({ method: 'GET', path, schema, priority: 'bulk' });

export { zClient, zInvoice, zProduct, zReceipt, zPayment, zNumberReservation, zInvoiceSeries, zExpense, zExpenseActionReply, zSupplier };

/** GET /warehouses: the work point's warehouses (gestiuni), a handful. */
export const listWarehouses = (api: ApiClient) =>
  api.request({ method: 'GET', path: '/warehouses', query: { per_page: 100 }, schema: zListPage(zWarehouse), priority: 'bulk' });

/** GET /stock/movements of one product (the service's id), newest first. */
export const listStockMovements = (api: ApiClient, productId: string, page: number) =>
  api.request({
    method: 'GET', path: '/stock/movements', query: { product_id: productId, page, per_page: 50 }, schema: zListPage(zStockMovement), priority: 'interactive',
  });

/** POST /nirs: goods received (typed in on the desktop); the key makes a resend after a lost reply harmless. */
export const createNir = (api: ApiClient, body: Record<string, unknown>, idempotencyKey: string) =>
  api.request({ method: 'POST', path: '/nirs', body, create: true, idempotencyKey, schema: zNir, priority: 'interactive' });

/** POST /stock-counts: an inventory count; the key makes a resend after a lost reply harmless. */
export const createStockCount = (api: ApiClient, body: Record<string, unknown>, idempotencyKey: string) =>
  api.request({ method: 'POST', path: '/stock-counts', body, create: true, idempotencyKey, schema: zStockDocument, priority: 'interactive' });

/** POST /stock-transfers: goods moved between two warehouses of the firm. */
export const createStockTransfer = (api: ApiClient, body: Record<string, unknown>, idempotencyKey: string) =>
  api.request({ method: 'POST', path: '/stock-transfers', body, create: true, idempotencyKey, schema: zStockDocument, priority: 'interactive' });

/** GET /nirs of the work point, newest number first. */
export const listNirs = (api: ApiClient, page: number, search?: string) =>
  api.request({
    method: 'GET', path: '/nirs', query: { page, per_page: 50, ...(search ? { search } : {}) }, schema: zListPage(zNir), priority: 'interactive',
  });

/** GET /nirs/{id}: one NIR with its lines. */
export const getNir = (api: ApiClient, id: string) =>
  api.request({ method: 'GET', path: `/nirs/${encodeURIComponent(id)}`, schema: zNir, priority: 'interactive' });

/** GET /supplier-bills/{id} with its lines (the reception of an SPV bill). */
export const getSupplierBillWithLines = (api: ApiClient, id: string) =>
  api.request({
    method: 'GET', path: `/supplier-bills/${encodeURIComponent(id)}`, query: { expand: 'supplier,lines' }, schema: zSupplierBillEnvelope, priority: 'interactive',
  });

/** GET /stock/settings: the firm's rule for selling below zero (read for the counter's warning). */
export const getStockSettings = (api: ApiClient) =>
  api.request({ method: 'GET', path: '/stock/settings', schema: zStockSettings, priority: 'interactive' });
