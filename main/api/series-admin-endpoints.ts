import { zListPage } from '../../shared/api/envelope';
import { zBankAccount, type BankAccountCreate } from '../../shared/schemas/bank-account';
import { zReceiptSeries } from '../../shared/schemas/receipt-series';
import { zInvoiceSeries } from '../../shared/schemas/series';
import type { ApiClient } from './client';

/** The service calls of series administration and of the setup wizard (issue 12). */

export interface InvoiceSeriesBody {
  name?: string;
  document_type?: 'fiscal' | 'proforma';
  description?: string;
  start_number?: number;
  is_primary?: boolean;
}

export const createInvoiceSeries = (api: ApiClient, body: InvoiceSeriesBody, idempotencyKey: string) =>
  api.request({ method: 'POST', path: '/invoice-series', body, create: true, idempotencyKey, schema: zInvoiceSeries });

export const updateInvoiceSeries = (api: ApiClient, id: string, body: InvoiceSeriesBody) =>
  api.request({ method: 'PUT', path: `/invoice-series/${encodeURIComponent(id)}`, body, schema: zInvoiceSeries });

export interface ReceiptSeriesBody {
  prefix?: string;
  description?: string;
  start_number?: number;
}

export const createReceiptSeries = (api: ApiClient, body: ReceiptSeriesBody, idempotencyKey: string) =>
  api.request({ method: 'POST', path: '/receipt-series', body, create: true, idempotencyKey, schema: zReceiptSeries });

export const updateReceiptSeries = (api: ApiClient, id: string, body: ReceiptSeriesBody) =>
  api.request({ method: 'PUT', path: `/receipt-series/${encodeURIComponent(id)}`, body, schema: zReceiptSeries });

export const listBankAccounts = (api: ApiClient) =>
  api.request({ method: 'GET', path: '/bank-accounts', query: { per_page: 100 }, schema: zListPage(zBankAccount) });

export const createBankAccount = (api: ApiClient, body: BankAccountCreate, idempotencyKey: string) =>
  api.request({ method: 'POST', path: '/bank-accounts', body, create: true, idempotencyKey, schema: zBankAccount });

export const getReceiptSeries = (api: ApiClient, id: string) =>
  api.request({ method: 'GET', path: `/receipt-series/${encodeURIComponent(id)}`, schema: zReceiptSeries });
