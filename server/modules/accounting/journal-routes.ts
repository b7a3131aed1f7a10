import { z } from 'zod';
import { defineRoute, binaryReply } from '../../platform/route';
import { JOURNAL_KINDS, type JournalKind, periodProblem, zJournal, zPeriodQuery } from '../../../shared/schemas/accounting';
import { validationFailed } from '../../platform/errors';
import { buildJournal } from './journal-build';
import { firmOf, journalHtml, journalXlsx, JOURNAL_TITLES } from './journal-files';
import './messages';

const journalQuery = zPeriodQuery.extend({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(100),
});

/** The period of a request, checked: a 422 naming `end_date` in the caller's language. */
export function checkedPeriod<P extends { start_date: string; end_date: string }>(q: P): P {
  const problem = periodProblem(q);
  if (problem) throw validationFailed({ end_date: problem });
  return q;
}

const JOURNAL_DOC =
  'Our design (the contract has no journals). `sales`: issued fiscal invoices dated in the period (a storno is a negative row in its own month; ' +
  'a voided original stays in its month), and for a firm under TVA la încasare the payments cashed in the period. `purchases`: expenses dated ' +
  'in the period and supplier bills received in it that no expense records. Company-wide (every work point). Amounts in lei, in RON at the ' +
  "document's own exchange rate; one pair of columns per rate (21/11 and, for documents of before 1 August 2025, 19/9/5), one per regime. " +
  '`totals` are the sums of every row, to the ban.';

const getJournal = (kind: JournalKind) => defineRoute({
  method: 'GET',
  path: `/accounting/journals/${kind}`,
  operationId: `get${Kind[kind]}Journal`,
  summary: `${JOURNAL_TITLES[kind]} for a period`,
  description: `${JOURNAL_DOC} The rows are paginated (\`page\`, \`per_page\` up to 1000); the totals always cover the whole period.`,
  tags: ['accounting'],
  scope: 'accounting:read',
  query: journalQuery,
  response: zJournal,
  handler: async (ctx) => {
    const q = checkedPeriod(ctx.query);
    return buildJournal(ctx.db, ctx.companyId, kind, q, q.page, q.per_page, ctx.locale);
  },
});

const fileName = (kind: string, q: { start_date: string; end_date: string }, ext: string) =>
  `jurnal-${kind === 'sales' ? 'vanzari' : 'cumparari'}-${q.start_date}-${q.end_date}.${ext}`;

const getJournalXlsx = (kind: JournalKind) => defineRoute({
  method: 'GET',
  path: `/accounting/journals/${kind}/xlsx`,
  operationId: `get${Kind[kind]}JournalXlsx`,
  summary: `${JOURNAL_TITLES[kind]} as an XLSX spreadsheet`,
  description: `${JOURNAL_DOC} Streamed as it is written, a row read only when the previous bytes have gone out: memory stays flat however long the period. Dates are Excel dates (dd.mm.yyyy), amounts numbers with two decimals.`,
  tags: ['accounting'],
  scope: 'accounting:read',
  query: zPeriodQuery,
  response: z.unknown(),
  produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  handler: async (ctx) => {
    const q = checkedPeriod(ctx.query);
    const firm = await firmOf(ctx.db, ctx.companyId);
    return binaryReply(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      journalXlsx(ctx.db, ctx.companyId, kind, q, firm),
      fileName(kind, q, 'xlsx'),
    );
  },
});

const getJournalHtml = (kind: JournalKind) => defineRoute({
  method: 'GET',
  path: `/accounting/journals/${kind}/html`,
  operationId: `get${Kind[kind]}JournalHtml`,
  summary: `${JOURNAL_TITLES[kind]} as a printable page (A4 landscape)`,
  description: `${JOURNAL_DOC} The HTML the desktop app prints to PDF, as it prints invoices.`,
  tags: ['accounting'],
  scope: 'accounting:read',
  query: zPeriodQuery,
  response: z.unknown(),
  produces: 'text/html',
  handler: async (ctx) => {
    const q = checkedPeriod(ctx.query);
    const firm = await firmOf(ctx.db, ctx.companyId);
    return binaryReply('text/html; charset=utf-8', journalHtml(ctx.db, ctx.companyId, kind, q, firm), fileName(kind, q, 'html'));
  },
});

const Kind: Record<JournalKind, string> = { sales: 'Sales', purchases: 'Purchase' };

export const journalRoutes = JOURNAL_KINDS.flatMap((kind) => [getJournal(kind), getJournalXlsx(kind), getJournalHtml(kind)]);
