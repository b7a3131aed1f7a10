import { z } from 'zod';
import { defineRoute, binaryReply } from '../../platform/route';
import { zPeriodQuery } from '../../../shared/schemas/accounting';
import { checkedPeriod } from './journal-routes';
import { sagaZip } from './saga';
import { documentsCsv, documentsXlsx } from './documents-export';
import './messages';

export const getSagaExport = defineRoute({
  method: 'GET',
  path: '/accounting/exports/saga',
  operationId: 'getSagaExport',
  summary: 'The period for Saga C: its DBF import files in one ZIP',
  description:
    "Our design. A ZIP of Saga C's import files (Fișier > Import date): `Clienti_…dbf`, `Furnizori_…dbf`, `Articole_…dbf`, `IE_…dbf` (issued invoices " +
    'and stornos, one record per line) and `IN_…dbf` (expenses and received invoices, one record per line), Windows-1250, amounts in RON at each ' +
    "document's rate, adding up to the VAT journals to the ban. Layouts: docs/exports-saga.md. Streamed.",
  tags: ['accounting'],
  scope: 'accounting:read',
  query: zPeriodQuery,
  response: z.unknown(),
  produces: 'application/zip',
  handler: async (ctx) => {
    const q = checkedPeriod(ctx.query);
    return binaryReply('application/zip', sagaZip(ctx.db, ctx.companyId, q), `saga-${q.start_date}-${q.end_date}.zip`);
  },
});

const documentsRoute = (format: 'csv' | 'xlsx') =>
  defineRoute({
    method: 'GET',
    path: `/accounting/exports/documents/${format}`,
    operationId: format === 'csv' ? 'getDocumentsCsv' : 'getDocumentsXlsx',
    summary: `Every document of the period as ${format.toUpperCase()}`,
    description:
      'Our design. One row per document: issued invoices and stornos, expenses and received invoices, chitanțe; base, VAT and total in RON (the journals\' amounts). ' +
      (format === 'csv' ? 'UTF-8 with a BOM, comma-separated, dot decimals.' : 'Streamed with exceljs.'),
    tags: ['accounting'],
    scope: 'accounting:read',
    query: zPeriodQuery,
    response: z.unknown(),
    produces: format === 'csv' ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    handler: async (ctx) => {
      const q = checkedPeriod(ctx.query);
      return format === 'csv'
        ? binaryReply('text/csv; charset=utf-8', documentsCsv(ctx.db, ctx.companyId, q), `documente-${q.start_date}-${q.end_date}.csv`)
        : binaryReply('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', documentsXlsx(ctx.db, ctx.companyId, q), `documente-${q.start_date}-${q.end_date}.xlsx`);
    },
  });

export const exportRoutes = [getSagaExport, documentsRoute('csv'), documentsRoute('xlsx')];
