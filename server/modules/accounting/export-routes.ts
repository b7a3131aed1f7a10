import { z } from 'zod';
import { defineRoute, binaryReply } from '../../platform/route';
import { zMonthParam, zPeriodQuery } from '../../../shared/schemas/accounting';
import { monthlyArchive } from './archive';
import { checkedPeriod } from './journal-routes';
import { sagaZip } from './saga';
import { winMentorZip } from './winmentor';
import { documentsCsv, documentsXlsx } from './documents-export';
import './messages';

/** An accounting program's import files for a period, in one streamed ZIP. */
const programExport = (program: 'saga' | 'winmentor', operationId: string, summary: string, description: string, zip: typeof sagaZip) =>
  defineRoute({
    method: 'GET',
    path: `/accounting/exports/${program}`,
    operationId,
    summary,
    description,
    tags: ['accounting'],
    scope: 'accounting:read',
    query: zPeriodQuery,
    response: z.unknown(),
    produces: 'application/zip',
    handler: async (ctx) => {
      const q = checkedPeriod(ctx.query);
      return binaryReply('application/zip', zip(ctx.db, ctx.companyId, q), `${program}-${q.start_date}-${q.end_date}.zip`);
    },
  });

export const getSagaExport = programExport(
  'saga',
  'getSagaExport',
  'The period for Saga C: its DBF import files in one ZIP',
  "Our design. A ZIP of Saga C's import files (Fișier > Import date): `Clienti_…dbf`, `Furnizori_…dbf`, `Articole_…dbf`, `IE_…dbf` (issued invoices " +
    'and stornos, one record per line) and `IN_…dbf` (expenses and received invoices, one record per line), Windows-1250, amounts in RON at each ' +
    "document's rate, adding up to the VAT journals to the ban. Layouts: docs/exports-saga.md. Streamed.",
  sagaZip,
);

export const getWinMentorExport = programExport(
  'winmentor',
  'getWinMentorExport',
  'The period for WinMENTOR: its text import files of invoices in one ZIP',
  "Our design. A ZIP of WinMENTOR's text import files (Interne > Import date din alte aplicații): `Parteneri.txt` (`[ParteneriNoi_<cod>]`), " +
    '`Articole.txt` (`[ArticoleNoi_<cod>]`), and per month of the period `FacturiIesire_<AAAA-LL>.txt` (issued invoices and stornos) and ' +
    '`FacturiIntrare_<AAAA-LL>.txt` (expenses and received invoices): `[InfoPachet]`, then `[Factura_k]`/`[Items_k]` per document. Windows-1250, ' +
    "CRLF, dot decimals, amounts in RON at each document's rate, adding up to the VAT journals to the ban. Layout: docs/exports-winmentor.md. Streamed.",
  winMentorZip,
);

const documentsRoute = (format: 'csv' | 'xlsx') =>
  defineRoute({
    method: 'GET',
    path: `/accounting/exports/documents/${format}`,
    operationId: format === 'csv' ? 'getDocumentsCsv' : 'getDocumentsXlsx',
    summary: `Every document of the period as ${format.toUpperCase()}`,
    description:
      'Our design. One row per document: issued invoices and stornos, expenses and received invoices, chitanțe; base, VAT and total in RON (the journals\' amounts). ' +
      (format === 'csv' ? 'UTF-8 with a BOM, comma-separated, dot decimals.' : 'Streamed row by row; dates are Excel dates (dd.mm.yyyy), amounts and the exchange rate numbers (amounts with two decimals).'),
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

export const getMonthlyArchive = defineRoute({
  method: 'GET',
  path: '/accounting/archive',
  operationId: 'getMonthlyArchive',
  summary: 'The monthly archive: every document of a month in one ZIP, with an index of SHA-256 fingerprints',
  description:
    'Our design. `month` is `YYYY-MM`. Every issued fiscal invoice and storno as e-Factura XML (as sent to ANAF when it was sent, else as it would be ' +
    'sent), ANAF\'s signed answer ZIP where there is one, every chitanță (JSON), every supplier bill as received (the SPV XML and ANAF\'s signature, or ' +
    'the data entered by hand), the VAT journals and the cash registers (HTML), and `index.csv`/`index.json` listing every other file with its size ' +
    'and SHA-256. Made again from the same documents it is the same bytes (fixed entry times, fixed order; each PDF dated with its invoice\'s issue date). ' +
    'Each invoice also as PDF, printed with the desktop app\'s template, when the service has a PDF renderer (else the readme says they are missing). Streamed.',
  tags: ['accounting'],
  scope: 'accounting:read',
  query: z.object({ month: zMonthParam }),
  response: z.unknown(),
  produces: 'application/zip',
  handler: async (ctx) =>
    binaryReply('application/zip', monthlyArchive(ctx.db, ctx.companyId, ctx.query.month, ctx.services.pdf ?? null), `arhiva-${ctx.query.month}.zip`),
});

export const exportRoutes = [getSagaExport, getWinMentorExport, documentsRoute('csv'), documentsRoute('xlsx'), getMonthlyArchive];
