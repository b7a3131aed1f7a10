import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectError, firm, VALID, type Firm } from '../catalog/helpers';
import { csv, upload, xlsx } from './helpers';

const PRODUCT_HEADER = ['Nr. crt.', 'Denumire', 'Cod', 'UM', 'Preț cu TVA', 'Cota TVA'];

describe.each(DIALECTS)('imports on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  // Sorted here, by code point: the two dialects collate Ș differently.
  const byName = <T extends { name: string }>(rows: T[]) => rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const productsOf = async (f: Firm) =>
    byName(await server.storage.db.selectFrom('products').selectAll().where('company_id', '=', f.companyId).execute());
  const clientsOf = async (f: Firm) =>
    byName(await server.storage.db.selectFrom('clients').selectAll().where('company_id', '=', f.companyId).execute());
  const ro = (path: string) => `${path}${path.includes('?') ? '&' : '?'}locale=ro`;

  it('imports a Romanian CSV with ; and decimal commas, all prices to the bani', async () => {
    const f = await firm(server);
    const file = csv([
      PRODUCT_HEADER,
      [1, 'Șosete bumbac', 'SOS-1', 'pereche', '12,99', '21%'],
      [2, 'Pâine albă', 'PAI-1', 'buc', '4,5', '11'],
      [3, 'Televizor', 'TV-55', 'buc', '1.299,00', '21'],
      [4, 'Consultanță', 'CONS', 'ora', '1 500', '21'],
    ]);
    const up = await upload(f, 'products', file);
    expect(up.status, up.text).toBe(201);
    const imp = up.body.data;
    expect(imp).toMatchObject({
      object: 'import', kind: 'products', status: 'pending', format: 'csv', delimiter: ';', encoding: 'utf-8', header_row: 1,
      mapping: { name: 1, code: 2, unit: 3, price_with_vat: 4, vat_rate: 5 },
      counts: { rows: 4, valid: 4, invalid: 0, new: 4, existing: 0 },
      errors: [], previously_imported: null, result: null,
    });
    expect(imp.columns[1]).toEqual({ index: 1, header: 'Denumire', samples: ['Șosete bumbac', 'Pâine albă', 'Televizor'] });
    expect(imp.preview[2]).toEqual({
      row: 4, status: 'new',
      values: { name: 'Televizor', code: 'TV-55', unit: 'buc', unit_code: 'H87', price: 1299, price_includes_vat: true, vat_rate: 21, currency: 'RON', is_service: false },
    });
    // Nothing is written before the commit.
    expect(await productsOf(f)).toHaveLength(0);

    const done = await f.call('POST', `/products/imports/${imp.id}/commit`, {});
    expect(done.status, done.text).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'committed', committed_at: server.clock.now(), result: { created: 4, updated: 0, unchanged: 0, skipped: 0 } });
    const rows = await productsOf(f);
    expect(rows.map((r) => [r.name, r.code, r.unit, r.unit_code, Number(r.price), r.price_includes_vat, r.vat_rate_bp])).toEqual([
      ['Consultanță', 'CONS', 'ora', 'HUR', 150_000, 1, 2100],
      ['Pâine albă', 'PAI-1', 'buc', 'H87', 450, 1, 1100],
      ['Televizor', 'TV-55', 'buc', 'H87', 129_900, 1, 2100],
      ['Șosete bumbac', 'SOS-1', 'pereche', 'PR', 1299, 1, 2100],
    ]);
    // The desktop pulls them like any product.
    const listed = await f.ok('GET', '/products?sort=updated_at&order=asc&updated_since=0');
    expect(listed.body.data.total).toBe(4);
  });

  it('imports a CSV with , and decimal points, quoted fields, net prices', async () => {
    const f = await firm(server);
    const file = csv(
      [
        ['Denumire', 'Cod', 'Preț fără TVA', 'TVA'],
        ['Pere, galbene', 'P-1', '3.50', '9'],
        ['Ulei "Floarea"', 'U-1', '1,299.00', '21'],
        ['Mere', 'M-1', '1,299', '21'],
      ],
      ',',
    );
    const up = await upload(f, 'products', file);
    expect(up.status, up.text).toBe(201);
    // The column writes its decimals with a point (3.50, 1,299.00): 1,299 is one thousand two hundred ninety-nine lei.
    expect(up.body.data).toMatchObject({ delimiter: ',', mapping: { name: 0, code: 1, price: 2, vat_rate: 3 }, errors: [] });
    await f.ok('POST', `/products/imports/${up.body.data.id}/commit`, {}, 200);
    const rows = await productsOf(f);
    expect(rows.map((r) => [r.name, Number(r.price), r.price_includes_vat, r.vat_rate_bp])).toEqual([
      ['Mere', 129_900, 0, 2100],
      ['Pere, galbene', 350, 0, 900],
      ['Ulei "Floarea"', 129_900, 0, 2100],
    ]);
  });

  it('imports an XLSX: numbers, percentage cells, a title row, a barcode column standing in for the code', async () => {
    const f = await firm(server);
    const file = await xlsx([
      ['Export produse SmartBill', null, null, null],
      [null, null, null, null],
      ['Denumire produs', 'Cod de bare', 'Preț', 'Cota TVA', 'U.M.'],
      ['Apă minerală 2L', 5941234567890, 3.99, 0.21, 'buc'],
      ['Zahăr', '5940000000017', 5, 0.11, 'kg'],
    ]);
    const up = await upload(f, 'products', file, { format: 'xlsx', file_name: 'produse.xlsx' });
    expect(up.status, up.text).toBe(201);
    expect(up.body.data).toMatchObject({ format: 'xlsx', sheet: 'Produse', header_row: 3, mapping: { name: 0, barcode: 1, price: 2, vat_rate: 3, unit: 4 } });
    expect(up.body.data.errors).toEqual([]);
    expect(up.body.data.preview.map((p: { row: number }) => p.row)).toEqual([4, 5]);
    await f.ok('POST', `/products/imports/${up.body.data.id}/commit`, {}, 200);
    const rows = await productsOf(f);
    expect(rows.map((r) => [r.name, r.code, Number(r.price), r.vat_rate_bp, r.unit_code])).toEqual([
      ['Apă minerală 2L', '5941234567890', 399, 2100, 'H87'],
      ['Zahăr', '5940000000017', 500, 1100, 'KGM'],
    ]);
  });

  it('reads a Windows-1250 CSV of clients with the right diacritics, and a CUI/CNP column', async () => {
    const f = await firm(server);
    const file = csv(
      [
        ['Denumire', 'CUI/CNP', 'Reg. Com.', 'Adresa', 'Localitate', 'Judeţ', 'IBAN', 'Email'],
        ['Ştefăneşti Trans SRL', `RO${VALID.cui}`, 'J40/123/2010', 'Str. Ţepeş nr. 3', 'Piteşti', 'Argeş', VALID.ibanBtrl, 'office@trans.ro'],
        ['Ion Popescu', VALID.cnp, null, null, 'Iaşi', 'Iaşi', null, null],
        ['Maria Ionescu', null, null, null, 'Cluj-Napoca', 'Cluj', null, null],
      ],
      ';',
      'windows-1250',
    );
    const up = await upload(f, 'clients', file);
    expect(up.status, up.text).toBe(201);
    expect(up.body.data).toMatchObject({ encoding: 'windows-1250', mapping: { name: 0, cui: 1, reg_com: 2, address: 3, city: 4, county: 5, iban: 6, email: 7 } });
    expect(up.body.data.columns[5].header).toBe('Județ');
    expect(up.body.data.errors).toEqual([]);
    await f.ok('POST', `/clients/imports/${up.body.data.id}/commit`, {}, 200);
    const rows = await clientsOf(f);
    expect(rows.map((r) => [r.name, r.type, r.cui, r.cnp, r.vat_payer, r.city, r.county, r.bank])).toEqual([
      ['Ion Popescu', 'person', null, VALID.cnp, 0, 'Iași', 'Iași', null],
      ['Maria Ionescu', 'person', null, null, 0, 'Cluj-Napoca', 'Cluj', null],
      ['Ștefănești Trans SRL', 'company', VALID.cui, null, 1, 'Pitești', 'Argeș', 'Banca Transilvania'],
    ]);
    expect(rows[2]!.address).toBe('Str. Țepeș nr. 3');
  });

  it('names every bad row with its number and a Romanian reason, and a commit writes nothing', async () => {
    const f = await firm(server);
    const file = csv([
      PRODUCT_HEADER,
      [1, 'Bun', 'A-1', 'buc', '10', '21'],
      [2, 'Ambiguu', 'A-2', 'buc', '1.299', '21'],
      [3, 'Cotă greșită', 'A-3', 'buc', '5', '20'],
      [4, 'Repetat', 'A-1', 'buc', '5', '21'],
      [5, null, 'A-5', 'buc', '5', '21'],
      [6, 'Fără preț', 'A-6', 'buc', null, '21'],
    ]);
    const up = await f.call('POST', ro('/products/imports'), { content: file.toString('base64') });
    expect(up.status, up.text).toBe(201);
    expect(up.body.data.counts).toEqual({ rows: 6, valid: 1, invalid: 5, new: 1, existing: 0 });
    expect(up.body.data.errors).toEqual([
      { row: 3, field: 'price_with_vat', column: 'Preț cu TVA', message: expect.stringMatching(/^„1\.299” este ambiguu: 1299 lei sau 1,299 lei\?/) },
      { row: 4, field: 'vat_rate', column: 'Cota TVA', message: '„20” nu este o cotă de TVA a firmei (21, 19, 11, 9, 5, 0)' },
      { row: 5, field: 'code', column: 'Cod', message: 'Codul „A-1” apare deja pe rândul 2' },
      { row: 6, field: 'name', column: 'Denumire', message: 'Denumirea lipsește' },
      { row: 7, field: 'price_with_vat', column: 'Preț cu TVA', message: 'Prețul lipsește' },
    ]);
    expect(up.body.data.preview.map((p: { status: string }) => p.status)).toEqual(['new', 'invalid', 'invalid', 'invalid', 'invalid', 'invalid']);
    expect(up.body.data.preview[1].values).toMatchObject({ name: 'Ambiguu', price_with_vat: '1.299' });

    const refused = await f.call('POST', ro(`/products/imports/${up.body.data.id}/commit`), {});
    const error = expectError(refused, 422, 'import_rows_invalid');
    expect(error.message).toBe('Rânduri cu probleme: 5. Nu s-a importat nimic. Corectați-le în fișier sau schimbați asocierea coloanelor.');
    expect(error.fields).toMatchObject({ 'rows.3.price_with_vat': expect.stringContaining('ambiguu'), 'rows.6.name': 'Denumirea lipsește' });
    // All or nothing: not even the good row, and the import can still be committed once corrected.
    expect(await productsOf(f)).toHaveLength(0);
    expect((await f.ok('GET', `/products/imports/${up.body.data.id}`)).body.data.status).toBe('pending');
  });

  it('is all or nothing when one row among many fails, and a new mapping can fix the file', async () => {
    const f = await firm(server);
    const rows: Array<Array<string | number | null>> = [['Denumire', 'Cod', 'Preț', 'Cod vechi']];
    for (let i = 1; i <= 300; i++) rows.push([`Produs ${i}`, `C-${i}`, i === 250 ? 'zece' : `${i},50`, `V-${i}`]);
    const up = await upload(f, 'products', csv(rows));
    expect(up.body.data.errors).toEqual([{ row: 251, field: 'price', column: 'Preț', message: expect.stringContaining('zece') }]);
    expectError(await f.call('POST', `/products/imports/${up.body.data.id}/commit`, {}), 422, 'import_rows_invalid');
    expect(await productsOf(f)).toHaveLength(0);
    // Another column for the code: the preview follows the mapping, and is kept.
    const remapped = await f.ok('POST', `/products/imports/${up.body.data.id}/preview`, { mapping: { name: 0, code: 3, price: 2 } }, 200);
    expect(remapped.body.data.mapping).toEqual({ name: 0, code: 3, price: 2 });
    expect(remapped.body.data.preview[0].values).toMatchObject({ code: 'V-1', price: 1.5 });
    const badTarget = await f.call('POST', `/products/imports/${up.body.data.id}/preview`, { mapping: { nume: 0, price: 9 } });
    expect(expectError(badTarget, 422, 'validation_error').fields).toEqual({
      'mapping.nume': expect.stringContaining('name, code, barcode'),
      'mapping.price': 'The file has 4 columns (0 to 3)',
    });
  });

  it('rolls back every write when the database fails in the middle of the commit', async () => {
    const f = await firm(server);
    await f.ok('POST', '/products', { name: 'Vechi', code: 'C-1', price: 1 });
    const rows: Array<Array<string | number | null>> = [['Denumire', 'Cod', 'Preț']];
    for (let i = 1; i <= 450; i++) rows.push([i === 420 ? 'Bombă' : `Produs ${i}`, `C-${i}`, `${i},00`]);
    const up = await upload(f, 'products', csv(rows));
    expect(up.body.data.counts).toMatchObject({ valid: 450, new: 449, existing: 1, invalid: 0 });
    // A failure the checks cannot foresee (a disk, a constraint), after the update and the first batches of inserts.
    const db = server.storage.db;
    if (dialect === 'sqlite') {
      await sql`CREATE TRIGGER import_bomb BEFORE INSERT ON products WHEN NEW.name = 'Bombă' BEGIN SELECT RAISE(ABORT, 'boom'); END`.execute(db);
    } else {
      await sql`CREATE FUNCTION import_bomb() RETURNS trigger AS $$ BEGIN IF NEW.name = 'Bombă' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(db);
      await sql`CREATE TRIGGER import_bomb BEFORE INSERT ON products FOR EACH ROW EXECUTE FUNCTION import_bomb()`.execute(db);
    }
    try {
      const failed = await f.call('POST', `/products/imports/${up.body.data.id}/commit`, {});
      expectError(failed, 500, 'api_error');
      expect(failed.text).not.toMatch(/boom|trigger|INSERT/i);
    } finally {
      await sql`DROP TRIGGER import_bomb${sql.raw(dialect === 'postgres' ? ' ON products' : '')}`.execute(db);
      if (dialect === 'postgres') await sql`DROP FUNCTION import_bomb()`.execute(db);
    }
    const after = await productsOf(f);
    expect(after.map((p) => [p.name, p.code, Number(p.price)])).toEqual([['Vechi', 'C-1', 100]]);
    expect((await f.ok('GET', `/products/imports/${up.body.data.id}`)).body.data.status).toBe('pending');
    // The same import goes through once the fault is gone.
    const done = await f.ok('POST', `/products/imports/${up.body.data.id}/commit`, {}, 200);
    expect(done.body.data.result).toEqual({ created: 449, updated: 1, unchanged: 0, skipped: 0 });
    expect(await productsOf(f)).toHaveLength(450);
  });

  it('fills new products from the defaults, and skips existing ones when asked', async () => {
    const f = await firm(server);
    await f.ok('POST', '/products', { name: 'Existent', code: 'E-1', price: 3, vat_rate: 21 });
    const up = await upload(f, 'products', csv([['Denumire', 'Cod', 'Preț'], ['Existent', 'E-1', '9,99'], ['Carte', 'K-1', '45']]));
    const previewed = await f.ok('POST', `/products/imports/${up.body.data.id}/preview`, { mapping: up.body.data.mapping, defaults: { vat_rate: 5, unit: 'set' } }, 200);
    expect(previewed.body.data.preview.map((p: { status: string; values: { vat_rate: number; unit: string } }) => [p.status, p.values.vat_rate, p.values.unit])).toEqual([
      ['existing', 21, 'buc'],
      ['new', 5, 'set'],
    ]);
    const badDefault = await f.call('POST', `/products/imports/${up.body.data.id}/preview`, { mapping: up.body.data.mapping, defaults: { vat_rate: 20 } });
    expect(Object.keys(expectError(badDefault, 422, 'validation_error').fields ?? {})).toEqual(['defaults.vat_rate']);
    const done = await f.ok('POST', `/products/imports/${up.body.data.id}/commit`, { existing: 'skip', defaults: { vat_rate: 5, unit: 'set' } }, 200);
    expect(done.body.data.result).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: 1 });
    expect((await productsOf(f)).map((p) => [p.name, Number(p.price), p.vat_rate_bp, p.unit, p.unit_code])).toEqual([
      ['Carte', 4500, 500, 'set', 'SET'],
      ['Existent', 300, 2100, 'buc', 'H87'],
    ]);
  });

  it('does not duplicate the same file imported twice, and updates what changed', async () => {
    const f = await firm(server);
    const rows = [PRODUCT_HEADER, [1, 'Lapte', 'L-1', 'l', '7,49', '11'], [2, 'Unt', 'U-1', 'buc', '12,00', '11'], [3, 'Pungă', null, 'buc', '0,50', '21']];
    const first = await upload(f, 'products', csv(rows));
    await f.ok('POST', `/products/imports/${first.body.data.id}/commit`, {}, 200);
    const before = await productsOf(f);
    expect(before).toHaveLength(3);

    const again = await upload(f, 'products', csv(rows));
    expect(again.body.data.previously_imported).toEqual({ import_id: first.body.data.id, committed_at: server.clock.now() });
    expect(again.body.data.counts).toMatchObject({ valid: 3, new: 0, existing: 3 });
    server.clock.advance(60);
    const second = await f.ok('POST', `/products/imports/${again.body.data.id}/commit`, {}, 200);
    expect(second.body.data.result).toEqual({ created: 0, updated: 0, unchanged: 3, skipped: 0 });
    expect(await productsOf(f)).toEqual(before);

    // A price list of the next month: the product matched by code gets the new price, nothing else moves.
    const changed = csv([PRODUCT_HEADER, [1, 'Lapte', 'L-1', 'l', '7,99', '11'], [2, 'Unt', 'U-1', 'buc', '12,00', '11'], [3, 'Pungă', null, 'buc', '0,50', '21']]);
    const third = await upload(f, 'products', changed);
    expect(third.body.data.previously_imported).toBeNull();
    const res = await f.ok('POST', `/products/imports/${third.body.data.id}/commit`, { existing: 'update' }, 200);
    expect(res.body.data.result).toEqual({ created: 0, updated: 1, unchanged: 2, skipped: 0 });
    const after = await productsOf(f);
    expect(after.find((p) => p.code === 'L-1')).toMatchObject({ price: 799, updated_at: server.clock.now() });
    expect(after.map((p) => p.id).sort()).toEqual(before.map((p) => p.id).sort());
  });

  it('answers a repeated commit with its first result, and refuses another mapping', async () => {
    const f = await firm(server);
    const up = await upload(f, 'products', csv([['Denumire', 'Preț'], ['Cafea', '20']]));
    const first = await f.ok('POST', `/products/imports/${up.body.data.id}/commit`, {}, 200);
    const repeat = await f.call('POST', `/products/imports/${up.body.data.id}/commit`, {});
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body.data).toEqual(first.body.data);
    expectError(await f.call('POST', `/products/imports/${up.body.data.id}/commit`, { mapping: { name: 0 } }), 409, 'import_already_committed');
    expect(await productsOf(f)).toHaveLength(1);
    // Idempotency-Key works as on every create.
    const up2 = await upload(f, 'products', csv([['Denumire', 'Preț'], ['Ceai', '10']]));
    const keyed = await f.call('POST', `/products/imports/${up2.body.data.id}/commit`, {}, { 'idempotency-key': 'imp-1' });
    const keyedAgain = await f.call('POST', `/products/imports/${up2.body.data.id}/commit`, {}, { 'idempotency-key': 'imp-1' });
    expect([keyed.status, keyedAgain.status, keyedAgain.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(await productsOf(f)).toHaveLength(2);
  });

  it('matches clients by CUI and CNP, and refuses bad identifiers and duplicates by row', async () => {
    const f = await firm(server);
    await f.ok('POST', '/clients', { name: 'Vechi SRL', cui: VALID.cui2, city: 'Brăila', email: 'vechi@firma.ro' });
    const file = csv([
      ['Denumire', 'CIF', 'CNP', 'Oraș', 'E-mail'],
      ['Nou Nume SRL', VALID.cui2, null, 'Galați', null],
      ['Greșit SRL', '18378744', null, null, null],
      ['Dublu SRL', VALID.cui3, null, null, null],
      ['Dublu bis SRL', `RO${VALID.cui3}`, null, null, null],
      ['Ana Pop', null, '1900101400013', null, 'ana@'],
    ]);
    const up = await f.call('POST', ro('/clients/imports'), { content: file.toString('base64') });
    expect(up.status, up.text).toBe(201);
    expect(up.body.data.errors).toEqual([
      { row: 3, field: 'cui', column: 'CIF', message: expect.stringContaining('Cifra de control a CUI-ului') },
      { row: 5, field: 'cui', column: 'CIF', message: `CUI-ul ${VALID.cui3} apare deja pe rândul 4` },
      { row: 6, field: 'email', column: 'E-mail', message: '„ana@” nu este o adresă de e-mail' },
      { row: 6, field: 'cnp', column: 'CNP', message: expect.stringContaining('Cifra de control a CNP-ului') },
    ]);
    expect(up.body.data.preview[0]).toMatchObject({ status: 'existing', values: { name: 'Nou Nume SRL', city: 'Galați', email: 'vechi@firma.ro' } });
    const fixed = csv([['Denumire', 'CIF', 'Oraș'], ['Nou Nume SRL', VALID.cui2, 'Galați'], ['Dublu SRL', VALID.cui3, null]]);
    const up2 = await upload(f, 'clients', fixed);
    const done = await f.ok('POST', `/clients/imports/${up2.body.data.id}/commit`, {}, 200);
    expect(done.body.data.result).toEqual({ created: 1, updated: 1, unchanged: 0, skipped: 0 });
    const rows = await clientsOf(f);
    // Matched by CUI: renamed and moved, its e-mail (not in the file) kept.
    expect(rows.map((r) => [r.name, r.cui, r.city, r.email])).toEqual([
      ['Dublu SRL', VALID.cui3, null, null],
      ['Nou Nume SRL', VALID.cui2, 'Galați', 'vechi@firma.ro'],
    ]);
  });

  it('refuses what is not a CSV or XLSX with a Romanian message', async () => {
    const f = await firm(server);
    const cases: Array<[Buffer, string, RegExp]> = [
      [Buffer.from('%PDF-1.7\n\x00\x00binary', 'latin1'), 'import_not_spreadsheet', /nu este un tabel CSV sau XLSX/],
      [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'import_xls_legacy', /\.xls, Excel 97-2003/],
      [Buffer.from('PK\x03\x04\x14\x00\x00\x00not really a zip', 'latin1'), 'import_not_spreadsheet', /nu este un tabel/],
      [Buffer.from('Dragă client,\nvă mulțumim pentru comandă.\n'), 'import_not_spreadsheet', /nu este un tabel/],
      [csv([['Denumire', 'Preț']]), 'import_empty', /niciun rând de date/],
    ];
    for (const [bytes, code, message] of cases) {
      const res = await f.call('POST', ro('/products/imports'), { content: bytes.toString('base64') });
      expect(expectError(res, 422, code).message, code).toMatch(message);
    }
    expectError(await f.call('POST', '/products/imports', { content: 'not base64!' }), 422, 'validation_error');
    const mismatch = await f.call('POST', '/products/imports', { content: csv([['Denumire', 'Preț'], ['a', '1']]).toString('base64'), format: 'xlsx' });
    expect(expectError(mismatch, 422, 'validation_error').fields).toEqual({ format: 'The file is CSV, not XLSX' });
  });

  it('refuses a workbook that claims to unpack to far more than a catalogue, before inflating it', async () => {
    const f = await firm(server);
    const book = await xlsx([['Denumire', 'Preț'], ['Cafea', 12.5]]);
    // The central directory's "uncompressed size" of every entry set to 1 GiB: what a zip bomb declares.
    for (let at = book.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = book.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
      book.writeUInt32LE(1024 * 1024 * 1024, at + 24);
    }
    const res = await f.call('POST', ro('/products/imports'), { content: book.toString('base64') });
    expect(expectError(res, 422, 'import_workbook_too_large').message).toMatch(/^Registrul de lucru are peste 256 MB după dezarhivare/);
  });

  it('never answers a 5xx to damaged or random files', async () => {
    const f = await firm(server);
    const good = await xlsx([['Denumire', 'Preț'], ['Cafea', 12.5]]);
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const files: Buffer[] = [Buffer.from(''), Buffer.from('\r\n\r\n'), Buffer.from('"'), Buffer.from('a;"b\nc;d')];
    for (let i = 0; i < 12; i++) {
      // Truncated and bit-flipped workbooks, and random bytes.
      const damaged = Buffer.from(good.subarray(0, Math.floor(good.length * (0.3 + random() * 0.7))));
      for (let k = 0; k < 20; k++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
      files.push(damaged, Buffer.from(Array.from({ length: 64 + Math.floor(random() * 4000) }, () => Math.floor(random() * 256))));
    }
    for (const file of files) {
      const res = await f.call('POST', '/products/imports', { content: file.toString('base64') || 'AA==' });
      expect([201, 422], res.text).toContain(res.status);
    }
  }, 60_000);

  it('refuses a file over 20 MB with a clear message, and a 50 MB one before reading it', async () => {
    const f = await firm(server);
    const justOver = Buffer.alloc(20 * 1024 * 1024 + 10, 0x41);
    const over = await f.call('POST', ro('/products/imports'), { content: justOver.toString('base64') });
    expect(expectError(over, 413, 'import_file_too_large').message).toBe(
      'Fișierul este prea mare (aproximativ 20 MB): un import primește cel mult 20 MB. Împărțiți-l în fișiere mai mici sau ștergeți coloanele de care nu aveți nevoie.',
    );
    const huge = Buffer.alloc(50 * 1024 * 1024, 0x41);
    const res = await f.call('POST', ro('/products/imports'), { content: huge.toString('base64') });
    expect(expectError(res, 413, 'import_file_too_large').message).toMatch(/^Fișierul este prea mare \(aproximativ 50 MB\)/);
    // Other routes keep the service's 1 MiB limit.
    expectError(await f.call('POST', '/products', { name: 'x'.repeat(2 * 1024 * 1024), price: 1 }), 413, 'body_too_large');
  }, 60_000);

  it('keeps imports within the firm and its scopes', async () => {
    const owner = await firm(server);
    const stranger = await firm(server);
    const up = await upload(owner, 'products', csv([['Denumire', 'Preț'], ['Secret', '1']]));
    const id = up.body.data.id as string;
    for (const [method, path, body] of [
      ['GET', `/products/imports/${id}`, undefined],
      ['POST', `/products/imports/${id}/preview`, { mapping: { name: 0, price: 1 } }],
      ['POST', `/products/imports/${id}/commit`, {}],
      ['GET', `/clients/imports/${id}`, undefined],
    ] as const) {
      const foreign = await stranger.call(method, path, body);
      const missing = await stranger.call(method, path.replace(id, 'imp_00000000000000000000'), body);
      expect(expectError(foreign, 404, 'resource_missing').param).toBe('id');
      expect(foreign.body.error).toEqual(missing.body.error);
    }
    expect((await owner.ok('GET', `/products/imports/${id}`)).body.data.status).toBe('pending');
    const reader = await firm(server, ['products:read']);
    expectError(await upload(reader, 'products', csv([['Denumire', 'Preț'], ['a', '1']])), 403, 'insufficient_permissions');
    const clientsOnly = await firm(server, ['clients:write']);
    expectError(await upload(clientsOnly, 'products', csv([['Denumire', 'Preț'], ['a', '1']])), 403, 'insufficient_permissions');
  });
});
