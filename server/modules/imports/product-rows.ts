import { fromBani } from '../../../shared/money';
import type { ProductsTable } from '../catalog/tables';
import { bpToPercent, fromFlag, percentToBp, toFlag } from '../catalog/common';
import { cellText, columnConvention, parseFlag, parsePrice, parseVatRate, type DecimalConvention } from './cell-values';
import type { Cell, Grid } from './file-reader';
import type { EvaluatedRow, Mapping, RowProblem } from './rows';
import { cellOf, problem } from './rows';

/** What a product row of the file says; absent members were not in the file (an update keeps them). */
export interface ProductCandidate {
  name: string;
  code: string | null;
  /** Absent when no barcode column is mapped (an update then keeps the product's barcode). */
  barcode?: string | null;
  unit?: string;
  unit_code?: string;
  price_bani?: number;
  price_includes_vat?: boolean;
  vat_rate?: number;
  currency?: string;
  is_service?: boolean;
}

/** UN/ECE rec. 20 codes of the units Romanian shops write, for e-Factura; others are pieces (H87). */
const UNIT_CODES: Record<string, string> = {
  buc: 'H87', bucata: 'H87', bucati: 'H87', 'buc.': 'H87', pcs: 'H87', piece: 'H87', bc: 'H87',
  kg: 'KGM', kilogram: 'KGM', g: 'GRM', gr: 'GRM', gram: 'GRM', t: 'TNE', tona: 'TNE',
  l: 'LTR', litru: 'LTR', litri: 'LTR', ml: 'MLT',
  m: 'MTR', metru: 'MTR', metri: 'MTR', m2: 'MTK', mp: 'MTK', m3: 'MTQ', mc: 'MTQ', km: 'KMT',
  ora: 'HUR', ore: 'HUR', h: 'HUR', zi: 'DAY', zile: 'DAY', luna: 'MON', luni: 'MON', an: 'ANN',
  set: 'SET', pereche: 'PR', per: 'PR', pachet: 'PK', pac: 'PK', cutie: 'BX', bax: 'CT', sac: 'SA', rola: 'RO',
  serviciu: 'C62', prestatie: 'C62', kwh: 'KWH',
};

export function unitCodeOf(unit: string): string {
  const folded = unit.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, '');
  return UNIT_CODES[folded] ?? UNIT_CODES[folded.replace(/\.$/, '')] ?? 'H87';
}

export interface ProductContext {
  allowedRates: readonly number[];
  enabledCurrencies: ReadonlySet<string>;
  /** The firm's products, to match rows: by code, and by name among those without a code. */
  byCode: ReadonlyMap<string, ProductsTable>;
  byNameWithoutCode: ReadonlyMap<string, ProductsTable>;
  byBarcode: ReadonlyMap<string, ProductsTable>;
  defaults: { vat_rate?: number | undefined; unit?: string | undefined; currency?: string | undefined };
}

const nameKey = (name: string) => name.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ');

export function indexProducts(rows: readonly ProductsTable[]) {
  const byCode = new Map<string, ProductsTable>();
  const byNameWithoutCode = new Map<string, ProductsTable>();
  const byBarcode = new Map<string, ProductsTable>();
  for (const p of rows) {
    if (p.barcode !== null) byBarcode.set(p.barcode, p);
    if (p.code !== null) byCode.set(p.code, p);
    else if (!byNameWithoutCode.has(nameKey(p.name))) byNameWithoutCode.set(nameKey(p.name), p);
  }
  return { byCode, byNameWithoutCode, byBarcode };
}

/**
 * Every data row of the file as a product, or its problems. Within the file a code (or, without a
 * code, a name) may appear once: the second row naming it is an error that names the first.
 */
export function evaluateProducts(grid: Grid, mapping: Mapping, ctx: ProductContext): EvaluatedRow<ProductCandidate, ProductsTable>[] {
  const header = (target: string) => {
    const index = mapping[target];
    return index === undefined || index === null ? null : (grid.headers[index] ?? null);
  };
  const has = (target: string) => mapping[target] !== undefined && mapping[target] !== null;
  // A barcode column stands in for the code only when no code column is mapped.
  const codeTarget = has('code') ? 'code' : has('barcode') ? 'barcode' : null;
  const conventions: Record<string, DecimalConvention> = {};
  for (const target of ['price', 'price_with_vat']) {
    const index = mapping[target];
    conventions[target] = index === undefined || index === null ? 'unknown' : columnConvention(grid.rows.map((r) => r.cells[index] ?? null));
  }
  const seenCodes = new Map<string, number>();
  const seenBarcodes = new Map<string, number>();
  const seenNames = new Map<string, number>();
  const defaultRate = ctx.defaults.vat_rate ?? 21;

  return grid.rows.map((gridRow) => {
    const problems: RowProblem[] = [];
    const cell = (target: string): Cell => cellOf(gridRow, mapping, target);
    const fail = (target: string | null, message: string) => problems.push(problem(target, target ? header(target) : null, message));

    const name = cellText(cell('name'));
    if (!has('name')) fail(null, 'No column is mapped to the name|Nicio coloană nu este aleasă pentru denumire');
    else if (name === null) fail('name', 'The name is missing|Denumirea lipsește');
    else if (name.length > 200) fail('name', 'The name is longer than 200 characters|Denumirea are mai mult de 200 de caractere');

    const code = codeTarget ? cellText(cell(codeTarget)) : null;
    if (code !== null && code.length > 64) fail(codeTarget, 'The code is longer than 64 characters|Codul are mai mult de 64 de caractere');

    const candidate: ProductCandidate = { name: name ?? '', code };
    // The barcode column fills the product's barcode (and stands in for its code when no code column is mapped).
    const barcode = has('barcode') ? cellText(cell('barcode')) : undefined;
    if (barcode !== undefined) {
      if (barcode !== null && barcode.length > 64) fail('barcode', 'The barcode is longer than 64 characters|Codul de bare are mai mult de 64 de caractere');
      candidate.barcode = barcode;
    }

    const gross = has('price_with_vat') ? cell('price_with_vat') : null;
    const net = has('price') ? cell('price') : null;
    const blank = (c: Cell) => c === null || c === '';
    if (!has('price') && !has('price_with_vat')) {
      fail(null, 'No column is mapped to the price|Nicio coloană nu este aleasă pentru preț');
    } else if (!blank(gross)) {
      // The price a shop charges wins when the file has both: the counter sells at that price.
      const parsed = parsePrice(gross, conventions.price_with_vat);
      if (parsed.ok) {
        candidate.price_bani = parsed.value;
        candidate.price_includes_vat = true;
      } else fail('price_with_vat', parsed.message);
    } else if (!blank(net)) {
      const parsed = parsePrice(net, conventions.price);
      if (parsed.ok) {
        candidate.price_bani = parsed.value;
        candidate.price_includes_vat = false;
      } else fail('price', parsed.message);
    } else {
      fail(has('price_with_vat') ? 'price_with_vat' : 'price', 'The price is missing|Prețul lipsește');
    }

    if (has('vat_rate') && !blank(cell('vat_rate'))) {
      const parsed = parseVatRate(cell('vat_rate'), ctx.allowedRates);
      if (parsed.ok) candidate.vat_rate = parsed.value;
      else fail('vat_rate', parsed.message);
    }

    if (has('unit') && !blank(cell('unit'))) {
      const unit = cellText(cell('unit'))!;
      if (unit.length > 20) fail('unit', 'The unit is longer than 20 characters|Unitatea de măsură are mai mult de 20 de caractere');
      else {
        candidate.unit = unit;
        candidate.unit_code = unitCodeOf(unit);
      }
    }

    if (has('currency') && !blank(cell('currency'))) {
      const currency = cellText(cell('currency'))!.toUpperCase().replace(/^LEI$/, 'RON');
      if (!ctx.enabledCurrencies.has(currency)) {
        fail('currency', `“${currency}” is not a currency enabled for the firm|„${currency}” nu este o monedă activată pentru firmă`);
      } else candidate.currency = currency;
    }

    if (has('is_service')) {
      const parsed = parseFlag(cell('is_service'));
      if (parsed.ok) {
        if (parsed.value !== null) candidate.is_service = parsed.value;
      } else fail('is_service', parsed.message);
    }

    // Duplicates inside the file: the code, or the name of a product without a code.
    if (code !== null) {
      const first = seenCodes.get(code);
      if (first !== undefined) fail(codeTarget, `The code “${code}” is already on row ${first}|Codul „${code}” apare deja pe rândul ${first}`);
      else seenCodes.set(code, gridRow.row);
    } else if (name !== null) {
      const first = seenNames.get(nameKey(name));
      if (first !== undefined) {
        fail('name', `A product named “${name}” without a code is already on row ${first}|Produsul „${name}” fără cod apare deja pe rândul ${first}`);
      } else seenNames.set(nameKey(name), gridRow.row);
    }

    if (barcode) {
      const first = seenBarcodes.get(barcode);
      if (first !== undefined) fail('barcode', `The barcode “${barcode}” is already on row ${first}|Codul de bare „${barcode}” apare deja pe rândul ${first}`);
      else seenBarcodes.set(barcode, gridRow.row);
    }

    const match = code !== null ? ctx.byCode.get(code) : name !== null ? ctx.byNameWithoutCode.get(nameKey(name)) : undefined;
    // A barcode belongs to one product of the firm: another product already carrying it is a row error, not a failed commit.
    const holder = barcode ? ctx.byBarcode.get(barcode) : undefined;
    if (holder && holder.id !== match?.id) {
      fail('barcode', `The barcode “${barcode}” already belongs to the product “${holder.name}”|Codul de bare „${barcode}” aparține deja produsului „${holder.name}”`);
    }
    if (!match) {
      // A new product takes the defaults for what the file leaves out.
      candidate.vat_rate ??= defaultRate;
      if (candidate.unit === undefined) {
        candidate.unit = ctx.defaults.unit ?? 'buc';
        candidate.unit_code = unitCodeOf(candidate.unit);
      }
      candidate.currency ??= ctx.defaults.currency ?? 'RON';
      candidate.is_service ??= false;
      if (!ctx.allowedRates.some((r) => Math.abs(r - candidate.vat_rate!) < 1e-9)) {
        fail('vat_rate', `${candidate.vat_rate} is not a VAT rate of the firm|${candidate.vat_rate} nu este o cotă de TVA a firmei`);
      }
    }
    return { row: gridRow.row, problems, candidate: problems.length ? null : candidate, match: match ?? null };
  });
}

/** The product row a candidate makes (new) or leaves (existing: only what the file says changes). */
export function productRow(
  c: ProductCandidate,
  base: ProductsTable | null,
  fresh: { id: string; companyId: string; now: number; createdOn: string },
): ProductsTable {
  if (base === null) {
    return {
      id: fresh.id,
      company_id: fresh.companyId,
      name: c.name,
      code: c.code,
      barcode: c.barcode ?? null,
      unit: c.unit ?? 'buc',
      unit_code: c.unit_code ?? 'H87',
      price: c.price_bani ?? 0,
      price_includes_vat: toFlag(c.price_includes_vat ?? false),
      vat_rate_bp: percentToBp(c.vat_rate ?? 21),
      currency: c.currency ?? 'RON',
      is_service: toFlag(c.is_service ?? false),
      created_at: fresh.now,
      created_on: fresh.createdOn,
      updated_at: null,
    };
  }
  return {
    ...base,
    name: c.name,
    barcode: c.barcode === undefined ? base.barcode : c.barcode,
    unit: c.unit ?? base.unit,
    unit_code: c.unit_code ?? base.unit_code,
    price: c.price_bani ?? base.price,
    price_includes_vat: c.price_includes_vat === undefined ? base.price_includes_vat : toFlag(c.price_includes_vat),
    vat_rate_bp: c.vat_rate === undefined ? base.vat_rate_bp : percentToBp(c.vat_rate),
    currency: c.currency ?? base.currency,
    is_service: c.is_service === undefined ? base.is_service : toFlag(c.is_service),
  };
}

export function productChanged(a: ProductsTable, b: ProductsTable): boolean {
  return (
    a.name !== b.name || a.barcode !== b.barcode || a.unit !== b.unit || a.unit_code !== b.unit_code || Number(a.price) !== Number(b.price) ||
    fromFlag(a.price_includes_vat) !== fromFlag(b.price_includes_vat) || a.vat_rate_bp !== b.vat_rate_bp ||
    a.currency !== b.currency || fromFlag(a.is_service) !== fromFlag(b.is_service)
  );
}

/** A candidate as the preview shows it (wire form: lei, percent). */
export function productPreview(c: ProductCandidate | null, row: ProductsTable | null): Record<string, string | number | boolean | null> {
  if (row) {
    return {
      name: row.name, code: row.code, ...(row.barcode !== null ? { barcode: row.barcode } : {}), unit: row.unit, unit_code: row.unit_code, price: fromBani(Number(row.price)),
      price_includes_vat: fromFlag(row.price_includes_vat), vat_rate: bpToPercent(row.vat_rate_bp), currency: row.currency,
      is_service: fromFlag(row.is_service),
    };
  }
  if (!c) return {};
  return {
    name: c.name, code: c.code, ...(c.barcode !== undefined ? { barcode: c.barcode } : {}), unit: c.unit ?? null, price: c.price_bani === undefined ? null : fromBani(c.price_bani),
    price_includes_vat: c.price_includes_vat ?? null, vat_rate: c.vat_rate ?? null, currency: c.currency ?? null, is_service: c.is_service ?? null,
  };
}
