import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectError, firm, type Firm } from './helpers';

describe.each(DIALECTS)('POST /expenses/check-duplicate on %s', (dialect) => {
  let server: TestServer;
  let f: Firm;
  let alfa: string;
  let beta: string;
  let e1: string;
  let e2: string;
  let e3: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    f = await firm(server);
    alfa = await f.supplier({ name: 'Alfa Distribuție SRL', cui: 'RO1590082' });
    beta = await f.supplier({ name: 'Beta SRL', cui: '14399840' });
    e1 = (await f.expense({ supplier_id: alfa, reference: 'FCT-100', date: '2026-11-10', amount: 121, vat: 21 })).id;
    e2 = (await f.expense({ supplier_id: alfa, reference: 'BON 7', date: '2026-11-12', amount: 50, vat: 0 })).id;
    e3 = (await f.expense({ supplier_id: beta, reference: 'XYZ-9', date: '2026-11-01', amount: 10, vat: 0, currency: 'EUR', exchange_rate: 5 })).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const probe = (body: unknown, key = f.key, headers: Record<string, string> = {}) => server.api(key, 'POST', '/expenses/check-duplicate', body, headers);
  const duplicate = async (body: unknown) => {
    const res = await probe(body);
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body).not.toHaveProperty('data');
    expect(res.body.meta.version).toBe('v1');
    return res.body.duplicate as { id: string; match_type: string } | null;
  };

  it('exact: same supplier (by id) and same reference, compared without spaces or case', async () => {
    expect(await duplicate({ supplier_id: alfa, reference: 'FCT-100' })).toEqual({
      id: e1,
      reference: 'FCT-100',
      date: '2026-11-10',
      amount: 100,
      currency: 'RON',
      match_type: 'exact',
    });
    expect(await duplicate({ supplier_id: alfa, reference: ' fct-100 ' })).toMatchObject({ id: e1, match_type: 'exact' });
    expect(await duplicate({ supplier_id: alfa, reference: 'bon7' })).toMatchObject({ id: e2, match_type: 'exact' });
  });

  it('resolves supplier_data by CUI with or without RO, then by exact name', async () => {
    for (const cui of ['RO1590082', '1590082', 'ro 1590082']) {
      expect(await duplicate({ supplier_data: { name: 'Nume de pe bon', cui }, reference: 'FCT-100' })).toMatchObject({ id: e1, match_type: 'exact' });
    }
    expect(await duplicate({ supplier_data: { name: 'Alfa Distribuție SRL' }, reference: 'FCT-100' })).toMatchObject({ id: e1, match_type: 'exact' });
    // An unknown supplier_id falls back to supplier_data.
    expect(await duplicate({ supplier_id: 'sup_unknown', supplier_data: { name: 'Alfa Distribuție SRL' }, reference: 'FCT-100' })).toMatchObject({ match_type: 'exact' });
    // Not the exact name: no supplier, so the same reference is only a likely match.
    expect(await duplicate({ supplier_data: { name: 'ALFA DISTRIBUȚIE' }, reference: 'FCT-100' })).toMatchObject({ id: e1, match_type: 'likely' });
    expect(await duplicate({ supplier_data: { name: 'Nimeni', cui: 'RO18547290' }, reference: 'FCT-100' })).toMatchObject({ id: e1, match_type: 'likely' });
  });

  it('strong: same supplier, same date, net amount within +/-0.02 (inclusive), same currency', async () => {
    const base = { supplier_id: alfa, date: '2026-11-12' };
    expect(await duplicate({ ...base, amount: 50 })).toEqual({ id: e2, reference: 'BON 7', date: '2026-11-12', amount: 50, currency: 'RON', match_type: 'strong' });
    expect(await duplicate({ ...base, amount: 50.02 })).toMatchObject({ id: e2, match_type: 'strong' });
    expect(await duplicate({ ...base, amount: 49.98 })).toMatchObject({ id: e2, match_type: 'strong' });
    expect(await duplicate({ ...base, amount: 50.03 })).toBeNull();
    expect(await duplicate({ ...base, amount: 49.97 })).toBeNull();
    expect(await duplicate({ ...base, amount: 50, currency: 'EUR' })).toBeNull();
    expect(await duplicate({ supplier_id: alfa, date: '2026-11-13', amount: 50 })).toBeNull();
    expect(await duplicate({ supplier_id: beta, date: '2026-11-12', amount: 50 })).toBeNull();
    // The amount is the net: e1's total is 121.00, its net 100.00.
    expect(await duplicate({ supplier_id: alfa, date: '2026-11-10', amount: 121 })).toBeNull();
    expect(await duplicate({ supplier_id: alfa, date: '2026-11-10', amount: '100.00' })).toMatchObject({ id: e1, match_type: 'strong' });
    expect(await duplicate({ supplier_id: beta, date: '2026-11-01', amount: 10, currency: 'EUR' })).toMatchObject({ id: e3, match_type: 'strong', currency: 'EUR' });
  });

  it('likely: the same reference under a different supplier', async () => {
    expect(await duplicate({ supplier_id: alfa, reference: 'XYZ-9' })).toEqual({ id: e3, reference: 'XYZ-9', date: '2026-11-01', amount: 10, currency: 'EUR', match_type: 'likely' });
    expect(await duplicate({ supplier_id: beta, reference: 'NOPE' })).toBeNull();
  });

  it('precedence: exact before strong before likely', async () => {
    // e1 matches exactly, e2 strongly: exact wins.
    expect(await duplicate({ supplier_id: alfa, reference: 'FCT-100', date: '2026-11-12', amount: 50 })).toMatchObject({ id: e1, match_type: 'exact' });
    // e2 strongly, e3 likely (its reference, another supplier): strong wins.
    expect(await duplicate({ supplier_id: alfa, reference: 'XYZ-9', date: '2026-11-12', amount: 50 })).toMatchObject({ id: e2, match_type: 'strong' });
  });

  it('answers duplicate: null at top level when nothing matches', async () => {
    const res = await probe({ supplier_id: alfa });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, duplicate: null, meta: expect.objectContaining({ version: 'v1' }) });
  });

  it('never modifies state and never creates a supplier', async () => {
    const count = async (table: 'suppliers' | 'expenses' | 'expense_events') =>
      Number((await server.storage.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = [await count('suppliers'), await count('expenses'), await count('expense_events')];
    expect(await duplicate({ supplier_data: { name: 'Furnizor Nou SRL', cui: 'RO6859662' }, reference: 'NEW-1', date: '2026-11-20', amount: 10 })).toBeNull();
    expect(await duplicate({ supplier_data: { name: 'Alt Furnizor' }, reference: 'FCT-100' })).toMatchObject({ match_type: 'likely' });
    expect([await count('suppliers'), await count('expenses'), await count('expense_events')]).toEqual(before);
    const named = await server.storage.db.selectFrom('suppliers').select('id').where('name', 'in', ['Furnizor Nou SRL', 'Alt Furnizor']).execute();
    expect(named).toEqual([]);
  });

  it('answers 400 for invalid JSON, and for neither supplier_id nor supplier_data.name', async () => {
    expectError(await probe('{"supplier_id": '), 400, 'invalid_json', 'invalid_request_error');
    for (const body of [{}, { reference: 'FCT-100' }, { supplier_data: { cui: 'RO1590082' } }, { supplier_data: { name: '  ' } }, { supplier_id: '' }]) {
      const error = expectError(await probe(body), 400, 'parameter_missing', 'invalid_request_error');
      expect(error.param).toBe('supplier_id');
    }
    const empty = expectError(await server.api(f.key, 'POST', '/expenses/check-duplicate'), 400, 'parameter_missing');
    expect(empty.message).toBe('A required parameter is missing: `supplier_id | supplier_data.name`.');
    const ro = expectError(await probe({}, f.key, { 'accept-language': 'ro' }), 400, 'parameter_missing');
    expect(ro.message).toMatch(/^Lipsește un parametru obligatoriu/);
    const malformed = expectError(await probe({ supplier_id: alfa, date: '12.11.2026', amount: 'zece', supplier_data: 'Alfa' }), 400, 'validation_error', 'validation_error');
    expect(Object.keys(malformed.fields!).sort()).toEqual(['amount', 'date', 'supplier_data']);
    expectError(await probe([1, 2]), 400, 'validation_error');
  });

  it('answers 401 without a valid key and 403 when the key lacks read permission on expenses', async () => {
    expectError(await probe({ supplier_id: alfa }, ''), 401, 'missing_api_key', 'authentication_error');
    expectError(await probe({ supplier_id: alfa }, 'sk_live_AAAAAAAAAAAAAAAAAAAAAAAA'), 401, 'invalid_api_key', 'authentication_error');
    const noExpenses = await firm(server, { cui: f.cui, scopes: ['suppliers:read', 'expense_categories:write', 'accounting:read'] });
    const denied = expectError(await probe({ supplier_id: alfa, reference: 'FCT-100' }, noExpenses.key), 403, 'insufficient_permissions', 'permission_error');
    expect(denied.message).toContain('expenses:read');
    const readOnly = await firm(server, { cui: f.cui, scopes: ['expenses:read'] });
    const res = await probe({ supplier_id: alfa, reference: 'FCT-100' }, readOnly.key);
    expect(res.status).toBe(200);
    expect(res.body.duplicate.match_type).toBe('exact');
  });

  it('sees only the company of the key', async () => {
    const other = await firm(server);
    await other.supplier({ name: 'Alfa Distribuție SRL', cui: 'RO1590082' });
    const res = await probe({ supplier_data: { name: 'Alfa Distribuție SRL', cui: 'RO1590082' }, reference: 'FCT-100', date: '2026-11-12', amount: 50 }, other.key);
    expect(res.status).toBe(200);
    expect(res.body.duplicate).toBeNull();
    expect((await probe({ supplier_id: alfa, reference: 'FCT-100' }, other.key)).body.duplicate).toBeNull();
  });

  it('searches every work point of the company', async () => {
    const branch = await firm(server, { cui: f.cui, workPointName: 'Depozit' });
    const res = await probe({ supplier_id: alfa, reference: 'FCT-100' }, branch.key);
    expect(res.body.duplicate).toMatchObject({ id: e1, match_type: 'exact' });
  });
});
