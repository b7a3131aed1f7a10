import fc from 'fast-check';
import type { Dialect } from '../../server/db/types';
import { startTestServer, type TestServer } from './server';
import { databaseFingerprint, operationsOf, requestArb, type FuzzRequest, type IdPool, type OpenApiDoc } from './openapi-fuzz';

export interface FuzzOptions {
  dialect: Dialect;
  /** Requests per operation. */
  runsPerOperation: number;
  seed: number;
  /** Only operations whose id matches (all when absent). */
  only?: RegExp;
  log?: (line: string) => void;
}

export interface FuzzReport {
  operations: number;
  requests: number;
  statuses: Record<string, number>;
  failures: string[];
}

/** A firm with one of everything, whose ids the path parameters draw from. */
async function seedFirm(server: TestServer, key: string): Promise<IdPool> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await server.api(key, method, path, body);
    if (res.status >= 300) throw new Error(`seeding: ${method} ${path} answered ${res.status}: ${res.text}`);
    return res.body.data ?? res.body;
  };
  const series = await ok('POST', '/invoice-series', { name: 'FZ', is_primary: true });
  const client = await ok('POST', '/clients', { type: 'person', name: 'Ștefan Fuzz' });
  const product = await ok('POST', '/products', { name: 'Pâine', price: 5, vat_rate: 11 });
  const invoice = await ok('POST', '/invoices', { client_id: client.id, items: [{ description: 'Pâine', quantity: 2, price: 5, vat_rate: 11 }] });
  const draft = await ok('POST', '/invoices', { client_id: client.id, is_draft: true, items: [{ description: 'Ciornă', quantity: 1, price: 10, vat_rate: 21 }] });
  const payment = await ok('POST', '/payments', { invoice_id: invoice.id, amount: 1 });
  const receiptSeries = await ok('POST', '/receipt-series', {});
  const receipt = await ok('POST', '/receipts', { client_name: 'Ion Trecător', amount: 3 });
  const reservation = await ok('POST', `/invoice-series/${series.id}/reservations`, { device_id: 'fuzz', count: 2 });
  const supplier = await ok('POST', '/suppliers', { name: 'Furnizor Fuzz SRL' });
  const category = await ok('POST', '/expense-categories', { name: 'Chirie' });
  const expense = await ok('POST', '/expenses', { supplier_id: supplier.id, amount: 10, vat: 0 });
  const bill = await ok('POST', '/supplier-bills', {
    supplier: { name: 'Furnizor Fuzz SRL', cui: 'RO18547290' }, invoice_number: 'F-1', issue_date: '2026-11-05', tax_exclusive: 100, tax: 21,
  });
  const bank = await ok('POST', '/bank-accounts', { iban: 'RO49AAAA1B31007593840000' });
  const rate = await ok('POST', '/vat-rates', { rate: 9.5 });
  const currency = await ok('POST', '/currencies', { code: 'EUR' });
  const language = await ok('POST', '/languages', { code: 'en' });
  const workPoint = await ok('POST', '/work-points', { name: 'Punct fuzz' });
  const token = (reservation.data ?? reservation)[0]?.token as string;
  return {
    'clients:id': [client.id],
    'products:id': [product.id],
    'invoices:id': [invoice.id, draft.id],
    'payments:id': [payment.id],
    'receipts:id': [receipt.id],
    'receipt-series:id': [receiptSeries.id],
    'invoice-series:id': [series.id],
    'invoice-series:token': [token],
    'suppliers:id': [supplier.id],
    'expense-categories:id': [String(category.id)],
    'expenses:id': [expense.id],
    'supplier-bills:id': [bill.supplier_bill.id],
    'bank-accounts:id': [bank.id],
    'vat-rates:id': [rate.id],
    'currencies:id': [currency.id],
    'languages:id': [language.id, 'lang_ro'],
    'work-points:id': [workPoint.id],
    year: ['2024', '2025'],
  };
}

/** What is wrong with one exchange, or null: never a 5xx (but a server not configured for ANAF), always the envelope on errors. */
function problemOf(req: FuzzRequest, status: number, headers: Headers, text: string): string | null {
  if (req.unknownMember !== undefined && status < 400) return `${status}: the unknown member \`${req.unknownMember}\` was accepted`;
  if (status >= 500) {
    // The server's own configuration (no ANAF clients in tests) is not the input's doing.
    if (status === 503 && /"type":"configuration_error"/.test(text)) return null;
    return `${status}: ${text.slice(0, 300)}`;
  }
  if (status < 400) return null;
  let body: {
    success?: unknown;
    error?: { code?: unknown; message?: unknown; status?: unknown; type?: unknown; fields?: Record<string, unknown> };
    meta?: { request_id?: unknown };
  };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return `${status} without a JSON envelope: ${text.slice(0, 200)}`;
  }
  if (body.success !== false || typeof body.error?.code !== 'string' || typeof body.error.message !== 'string' || body.error.status !== status) {
    return `${status} without the error envelope: ${text.slice(0, 300)}`;
  }
  if (typeof body.meta?.request_id !== 'string' || body.meta.request_id !== headers.get('x-request-id')) {
    return `${status} whose meta.request_id is not its X-Request-Id`;
  }
  if (req.unknownMember !== undefined) return unknownMemberProblem(req.unknownMember, status, body.error, req.path);
  return null;
}

/**
 * A request carrying a member the operation does not know must be refused naming it, unless a check
 * made before any member is read refused it first (its form: 400/413/415; a NUL in the path or query).
 */
function unknownMemberProblem(member: string, status: number, error: { code?: unknown; fields?: Record<string, unknown> }, path: string): string | null {
  // A `..` path parameter is resolved by the URL itself (`/webhooks/0/deliveries/..` is `/webhooks/0/`): no route of ours was asked.
  if (status === 404 && error.code === 'route_not_found' && /\/(\.\.|%2e%2e)(\/|\?|$)/i.test(path)) return null;
  if (error.code === 'unknown_parameter') {
    return status === 422 && error.fields?.[member] !== undefined ? null : `unknown_parameter ${status} without \`${member}\` in fields`;
  }
  // Refused before any member is read: the request's form (media type, charset, JSON, size, URL, Idempotency-Key).
  if (status === 400 || status === 413 || status === 415) return null;
  // A garbage id `..` is resolved by the URL itself (`/documents/templates/..` is `/documents/`): no route, so no members to know.
  if (status === 404 && error.code === 'route_not_found') return null;
  if (status === 422 && error.code === 'validation_error' && Object.values(error.fields ?? {}).some((m) => /NUL/.test(String(m)))) return null;
  return `the unknown member \`${member}\` was not refused as unknown_parameter (${status} ${String(error.code)})`;
}

/**
 * Starts the service over a fresh database of `dialect`, seeds a firm, and sends every operation of
 * the served OpenAPI document `runsPerOperation` generated requests. A refused request (4xx) must leave
 * the database as it was: its fingerprint is compared before and after.
 */
export async function fuzzService(options: FuzzOptions): Promise<FuzzReport> {
  const server = await startTestServer(options.dialect, {
    rateLimits: { requestsPerHour: 100_000_000, createsPerMinute: 100_000_000 },
    // A 500 must be seen by the property, not only in the log.
    reportError: () => undefined,
  });
  const report: FuzzReport = { operations: 0, requests: 0, statuses: {}, failures: [] };
  try {
    const key = (await server.key()).api_key;
    const pool = await seedFirm(server, key);
    const doc = (await (await fetch(`${server.base}/openapi.json`)).json()) as OpenApiDoc;
    const operations = operationsOf(doc).filter((op) => !options.only || options.only.test(op.operationId));
    report.operations = operations.length;
    let fingerprint = await databaseFingerprint(server.storage);
    for (const [index, op] of operations.entries()) {
      await fc.assert(
        fc.asyncProperty(requestArb(op, doc, pool), async (req) => {
          report.requests += 1;
          const res = await fetch(`${server.base}${req.path}`, {
            method: req.method,
            headers: { authorization: `Bearer ${key}`, ...req.headers },
            ...(req.body !== undefined ? { body: typeof req.body === 'string' ? req.body : new Uint8Array(req.body) } : {}),
          });
          const text = await res.text();
          report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1;
          const where = `${req.method} ${req.path.slice(0, 200)} (${op.operationId}; ${req.modes})`;
          const problem = problemOf(req, res.status, res.headers, text);
          if (problem) throw new Error(`${where}: ${problem}`);
          const after = await databaseFingerprint(server.storage);
          if (res.status >= 400 && after !== fingerprint) {
            fingerprint = after;
            throw new Error(`${where}: refused with ${res.status} but changed the database`);
          }
          fingerprint = after;
        }),
        // One seed per operation, derived from the run's: a failure names the seed that replays it.
        { numRuns: options.runsPerOperation, seed: options.seed + index, endOnFailure: true },
      ).catch((error: unknown) => {
        // fast-check's message: the seed and path that replay it and the counterexample; ours is its cause.
        const message = error instanceof Error ? error.message.split('\n').filter(Boolean).slice(0, 3).join(' ') : String(error);
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
        report.failures.push(`${cause} [${message}]`.slice(0, 2000));
      });
      options.log?.(`${op.method} ${op.path}: done`);
    }
    return report;
  } finally {
    await server.close();
  }
}
