import { z } from 'zod';
import { isValidCui } from '../ro/cui';
import { isValidCnp } from '../ro/cnp';

/**
 * The e-Factura input: what the invoicing module maps an issued invoice (or storno) to before we
 * write UBL. Every amount is already computed by the caller (integer bani, quantities in
 * thousandths, VAT rates in basis points); this module only checks that the numbers agree with
 * each other the way EN 16931 and CIUS-RO will check them, so a bad document fails here with a
 * field path instead of at ANAF days later.
 */

/** BT-24. CIUS-RO 1.0.9 artifacts still expect the 1.0.1 specification identifier (BR-RO-001). */
export const CIUS_RO_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.1';

export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

/** ISO 3166-2:RO, the list BR-RO-110/111 check CountrySubentity against. */
export const RO_COUNTY_CODES = [
  'RO-AB', 'RO-AG', 'RO-AR', 'RO-B', 'RO-BC', 'RO-BH', 'RO-BN', 'RO-BR', 'RO-BT', 'RO-BV', 'RO-BZ',
  'RO-CJ', 'RO-CL', 'RO-CS', 'RO-CT', 'RO-CV', 'RO-DB', 'RO-DJ', 'RO-GJ', 'RO-GL', 'RO-GR', 'RO-HD',
  'RO-HR', 'RO-IF', 'RO-IL', 'RO-IS', 'RO-MH', 'RO-MM', 'RO-MS', 'RO-NT', 'RO-OT', 'RO-PH', 'RO-SB',
  'RO-SJ', 'RO-SM', 'RO-SV', 'RO-TL', 'RO-TM', 'RO-TR', 'RO-VL', 'RO-VN', 'RO-VS',
] as const;

/**
 * ANAF's placeholder for a natural-person buyer who does not give a CNP (OUG 138/2024): thirteen
 * zeros in the buyer legal registration identifier (BT-47).
 */
export const CNP_NOT_GIVEN = '0000000000000';

export const CREDIT_NOTE_TYPE_CODE = 381;

/**
 * In Bucharest (RO-B) the city must be one of SECTOR1..SECTOR6 (BR-RO-100/101). People type
 * "Sector 3", "sectorul 3", "București, sector 3", "Sect. 3": take the sector digit from any of those.
 * Returns null when the text names no sector.
 */
export function bucharestSectorCode(city: string): string | null {
  // ANAF's own register writes "Mun. Bucureşti, Sect. 1": the abbreviation counts too.
  const m = /sect(?:or(?:ul)?|\.)?\s*([1-6])(?![0-9])/i.exec(city.normalize('NFC'));
  return m ? `SECTOR${m[1]}` : null;
}

// Characters XML 1.0 cannot carry at all (escaping does not help): C0 controls except tab, LF,
// CR, the two non-characters U+FFFE/U+FFFF, and unpaired surrogates.
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text that ends up in the XML: trimmed, not blank, within the CIUS-RO length limit. */
function text(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `at most ${max} characters (CIUS-RO limit)`)
    .refine((s) => !XML_FORBIDDEN.test(s), 'contains control characters that XML cannot carry');
}

function isRealDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
  .refine(isRealDate, 'is not a real calendar date');

const bani = z.int();

const vatIdSchema = z
  .string()
  .trim()
  .transform((s) => s.replace(/\s+/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}[0-9A-Z+*.]{2,13}$/, 'VAT id must be a 2-letter country prefix and 2-13 characters'))
  .refine((s) => !s.startsWith('RO') || isValidCui(s.slice(2)), 'Romanian VAT id must be RO + a valid CUI (control digit)');

const cuiSchema = z
  .string()
  .trim()
  .regex(/^\d{2,10}$/, 'CUI must be 2 to 10 digits, without the RO prefix')
  .refine(isValidCui, 'CUI control digit does not match');

const cnpSchema = z
  .string()
  .trim()
  .refine((s) => s === CNP_NOT_GIVEN || isValidCnp(s), `CNP must be a valid 13-digit CNP or ${CNP_NOT_GIVEN} (buyer did not give one)`);

export const addressSchema = z
  .object({
    street: text(150),
    city: text(50),
    /** ISO 3166-2:RO (RO-CJ, RO-B) for Romania; free text (a region) elsewhere, optional. */
    county_code: text(50).optional(),
    postal_zone: text(20).optional(),
    country_code: z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2, upper case'),
  })
  .superRefine((a, ctx) => {
    if (a.country_code !== 'RO') return;
    if (!a.county_code) {
      ctx.addIssue({ code: 'custom', path: ['county_code'], message: 'a Romanian address needs its county code (ISO 3166-2:RO, e.g. RO-CJ) (BR-RO-110)' });
    } else if (!(RO_COUNTY_CODES as readonly string[]).includes(a.county_code)) {
      ctx.addIssue({ code: 'custom', path: ['county_code'], message: `"${a.county_code}" is not an ISO 3166-2:RO county code (BR-RO-110)` });
    } else if (a.county_code === 'RO-B' && !bucharestSectorCode(a.city)) {
      ctx.addIssue({ code: 'custom', path: ['city'], message: 'in Bucharest (RO-B) the city must name the sector, e.g. "Sector 3" (BR-RO-100)' });
    }
  });
export type EInvoiceAddress = z.infer<typeof addressSchema>;

export const partySchema = z.object({
  name: text(200),
  /** BT-31/BT-48, with the country prefix (RO12345674). Only when VAT-registered. */
  vat_id: vatIdSchema.optional(),
  /** Romanian company tax code without RO; for a non-VAT-registered firm this is its only tax id. */
  cui: cuiSchema.optional(),
  /** Natural-person buyer (B2C): CNP, or 13 zeros when the person did not give one. */
  cnp: cnpSchema.optional(),
  /** Trade register number (J40/1234/2020); written for the seller only (BT-30). */
  reg_com: text(100).optional(),
  address: addressSchema,
  email: z.email('not a valid e-mail address').max(100).optional(),
  phone: text(100).refine((s) => (s.match(/\d/g) ?? []).length >= 3, 'a phone number needs at least 3 digits').optional(),
});
export type EInvoiceParty = z.infer<typeof partySchema>;

const vatCategorySchema = z.enum(VAT_CATEGORIES);
const rateBp = z.int().min(0).max(10_000);

export const lineSchema = z
  .object({
    id: text(50),
    name: text(100),
    description: text(200).optional(),
    /** Thousandths; negative on a storno invoice (380 with negative quantities). */
    quantity_milli: z.int().refine((q) => q !== 0, 'quantity must not be zero'),
    /** UN/ECE Recommendation 20 (H87 piece, C62 unit, KGM, HUR, ...). */
    unit_code: z.string().regex(/^[A-Z0-9]{1,3}$/, 'UN/ECE rec. 20 unit code, e.g. H87'),
    /** Net unit price, never negative (BR-27): a storno negates the quantity, not the price. */
    unit_price_bani: z.int().min(0, 'unit price must not be negative (BR-27); negate the quantity instead'),
    /**
     * The same net price with more decimals than the ban, a decimal of the currency unit ("9.257"):
     * a VAT-included line's net price (shared/invoice-math lineNetUnitPrice). When given it is what
     * PriceAmount says (BR-DEC limits amounts to 2 decimals, not the price) and what the line is checked against.
     */
    unit_price_decimal: z.string().regex(/^\d{1,15}\.\d{2,12}$/, 'a decimal with 2 to 12 decimals, e.g. "9.257"').optional(),
    /**
     * BT-149, the quantity the price is for, in thousandths (absent: 1 unit). Written as cbc:BaseQuantity
     * with the line's unit code; the line net is then quantity x price / base quantity.
     */
    base_quantity_milli: z.int().min(1, 'base quantity must be above 0').optional(),
    /** quantity x price / base quantity - allowance, rounded to the ban. */
    line_net_bani: bani,
    /** Line discount (BT-136), same sign as the line. */
    allowance_bani: bani.optional(),
    allowance_reason: text(100).optional(),
    vat_category: vatCategorySchema,
    vat_rate_bp: rateBp,
  })
  .superRefine((l, ctx) => {
    const allowance = l.allowance_bani ?? 0;
    const base = l.base_quantity_milli ?? 1000;
    const matches = l.unit_price_decimal !== undefined || base !== 1000
      ? decimalPriceMatches(l.quantity_milli, l.unit_price_decimal ?? banText(l.unit_price_bani), l.line_net_bani + allowance, base)
      : banPriceMatches(l.quantity_milli, l.unit_price_bani, l.line_net_bani + allowance);
    if (!matches) {
      ctx.addIssue({
        code: 'custom',
        path: ['line_net_bani'],
        message: `line net ${l.line_net_bani} + allowance ${allowance} does not match quantity ${l.quantity_milli / 1000} x price ${l.unit_price_decimal ?? `${l.unit_price_bani} bani`}${base !== 1000 ? ` / base quantity ${base / 1000}` : ''}`,
      });
    }
    checkCategoryRate(l.vat_category, l.vat_rate_bp, ctx, ['vat_rate_bp']);
  });
export type EInvoiceLine = z.infer<typeof lineSchema>;

/** quantity_milli x unit_price_bani is in milli-bani; allow the half ban a rounding can leave. */
function banPriceMatches(quantityMilli: number, priceBani: number, netBeforeAllowance: number): boolean {
  const gross = quantityMilli * priceBani;
  return Number.isSafeInteger(gross) && Math.abs(gross - netBeforeAllowance * 1000) <= 500;
}

/** Bani as a decimal of lei: 1234 -> "12.34". */
function banText(priceBani: number): string {
  return `${Math.trunc(priceBani / 100)}.${String(Math.abs(priceBani) % 100).padStart(2, '0')}`;
}

/**
 * The same for a price with more decimals and a base quantity: |quantity x price / base - net| at most
 * half a ban, exactly in BigInt. In bani, quantity x price / base is q x units x 100 / (10^f x base)
 * (q and base in thousandths, the price in 10^-f lei); both sides are multiplied by 10^f x base.
 */
function decimalPriceMatches(quantityMilli: number, price: string, netBeforeAllowance: number, baseMilli = 1000): boolean {
  const [whole = '0', fraction = ''] = price.split('.');
  const units = BigInt(whole + fraction);
  const denominator = 10n ** BigInt(fraction.length) * BigInt(baseMilli);
  const diff = BigInt(Math.abs(quantityMilli)) * units * 100n - BigInt(Math.abs(netBeforeAllowance)) * denominator;
  const sameSign = netBeforeAllowance === 0 || (quantityMilli < 0) === (netBeforeAllowance < 0);
  return sameSign && 2n * (diff < 0n ? -diff : diff) <= denominator;
}

function checkCategoryRate(category: VatCategory, rate: number, ctx: z.RefinementCtx, path: (string | number)[]): void {
  if (category === 'S' && rate === 0) {
    ctx.addIssue({ code: 'custom', path, message: 'standard-rated (S) needs a rate above 0 (BR-S-05)' });
  } else if (category !== 'S' && rate !== 0) {
    ctx.addIssue({ code: 'custom', path, message: `category ${category} must have a 0% rate` });
  }
}

export const vatBreakdownSchema = z.object({
  category: vatCategorySchema,
  vat_rate_bp: rateBp,
  taxable_bani: bani,
  vat_bani: bani,
  /** BT-120; required (this or the code) for E, AE, K, G, O; forbidden for Z (BR-Z-10). */
  exemption_reason: text(100).optional(),
  /** BT-121, CEF VATEX list: VATEX-EU-132-1C, VATEX-EU-AE, VATEX-EU-IC, VATEX-EU-G, VATEX-EU-O ... */
  exemption_reason_code: z.string().regex(/^VATEX-[A-Z0-9-]+$/i, 'must be a VATEX code, e.g. VATEX-EU-AE').transform((s) => s.toUpperCase()).optional(),
});
export type EInvoiceVatBreakdown = z.infer<typeof vatBreakdownSchema>;

/** UNTDID 5189, the allowance reason codes EN 16931 accepts (BR-CL-19). */
export const ALLOWANCE_REASON_CODES = ['41', '42', '60', '62', '63', '64', '65', '66', '67', '68', '70', '71', '88', '95', '100', '102', '103', '104', '105'] as const;
/** UNTDID 7161, the charge reason codes a Romanian firm uses (a subset of BR-CL-20's list): freight, packing, handling, ... */
export const CHARGE_REASON_CODES = ['AA', 'ABK', 'ABL', 'ADR', 'ADT', 'FC', 'FI', 'LA', 'PC', 'SH'] as const;

/**
 * Document-level allowance (BG-20) or, with `charge`, charge (BG-21); needs its own VAT category so
 * the breakdown can be checked. A reason text or code is required (BR-33/BR-CO-21, BR-38/BR-CO-22).
 */
export const documentAllowanceSchema = z.object({
  charge: z.boolean().optional(),
  amount_bani: bani,
  reason: text(100).optional(),
  reason_code: z.string().optional(),
  vat_category: vatCategorySchema,
  vat_rate_bp: rateBp,
}).superRefine((a, ctx) => {
  if (!a.reason && !a.reason_code) {
    ctx.addIssue({ code: 'custom', path: ['reason'], message: `a document-level ${a.charge ? 'charge needs its reason or reason code (BR-38, BR-CO-22)' : 'allowance needs its reason or reason code (BR-33, BR-CO-21)'}` });
  }
  const codes: readonly string[] = a.charge ? CHARGE_REASON_CODES : ALLOWANCE_REASON_CODES;
  if (a.reason_code !== undefined && !codes.includes(a.reason_code)) {
    ctx.addIssue({ code: 'custom', path: ['reason_code'], message: `${a.reason_code} is not a ${a.charge ? 'UNTDID 7161 charge' : 'UNTDID 5189 allowance'} reason code (${a.charge ? 'BR-CL-20' : 'BR-CL-19'}): one of ${codes.join(', ')}` });
  }
  checkCategoryRate(a.vat_category, a.vat_rate_bp, ctx, ['vat_rate_bp']);
});

const exchangeRateSchema = z
  .union([z.string().trim(), z.number().positive().transform((n) => String(n))])
  .pipe(z.string().regex(/^\d{1,6}(\.\d{1,8})?$/, 'exchange rate must be a positive decimal, e.g. "4.9763"'))
  .refine((s) => Number(s) > 0, 'exchange rate must be above 0');

const documentFieldsSchema = z
  .object({
    kind: z.enum(['invoice', 'credit_note']),
    number: text(200).refine((s) => /\d/.test(s), 'invoice number must contain at least one digit (BR-RO-010)'),
    issue_date: isoDate,
    due_date: isoDate.optional(),
    /** BR-RO-020: 380 invoice, 384 corrected, 389 self-billed; 381 credit note (751, accounting-only, is not ours). */
    type_code: z.union([z.literal(380), z.literal(381), z.literal(384), z.literal(389)]).optional(),
    /**
     * BT-8, UNTDID 2005 as CIUS-RO restricts it (BR-RO-040): 3 issue date, 35 delivery date, 432 the
     * date VAT is paid ("TVA la încasare", art. 282 Cod fiscal).
     */
    tax_point_code: z.enum(['3', '35', '432']).optional(),
    currency: z.string().regex(/^[A-Z]{3}$/, 'ISO 4217 code, upper case'),
    /** RON per 1 unit of `currency` (BNR rate); used for the RON VAT total when not given. */
    exchange_rate_to_ron: exchangeRateSchema.optional(),
    note: text(300).optional(),
    seller: partySchema,
    buyer: partySchema,
    payment: z
      .object({
        /** UNTDID 4461: 10 cash, 30 credit transfer, 42 payment to bank account, 48 card, 97 clearing. */
        means_code: z.union([z.string().regex(/^[0-9A-Z]{1,3}$/), z.int().min(1).max(999).transform(String)]),
        iban: z.string().trim().transform((s) => s.replace(/\s+/g, '').toUpperCase()).pipe(z.string().regex(/^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/, 'not an IBAN')).optional(),
        account_name: text(200).optional(),
      })
      .optional(),
    /** BT-20, free text; an alternative to due_date for BR-CO-25. */
    payment_terms: text(300).optional(),
    /** BT-13, the buyer's purchase order number. */
    order_reference: text(200).optional(),
    /** BT-12, the contract. */
    contract_reference: text(200).optional(),
    /** BT-10, the buyer's reference (a public buyer's commitment number, a cost centre). */
    buyer_reference: text(200).optional(),
    /** BT-16, the despatch advice (delivery note). */
    despatch_reference: text(200).optional(),
    /** BT-15, the receiving advice. */
    receipt_reference: text(200).optional(),
    /** BT-11, the project (a CreditNote carries it as an AdditionalDocumentReference of type 50). */
    project_reference: text(200).optional(),
    /** BT-17, the tender or lot. */
    tender_reference: text(200).optional(),
    /** BT-18, the invoiced object (AdditionalDocumentReference of type 130). */
    invoiced_object: text(200).optional(),
    /** The invoice this one corrects or reverses (BG-3). */
    billing_reference: z.object({ number: text(200), issue_date: isoDate.optional() }).optional(),
    /** BG-13; needed for intra-community supplies (K): BR-IC-11/12. */
    delivery: z.object({ date: isoDate.optional(), address: addressSchema.optional() }).optional(),
    allowances: z.array(documentAllowanceSchema).optional(),
    lines: z.array(lineSchema).min(1, 'an invoice needs at least one line'),
    totals: z.object({
      /** BT-106: sum of line net amounts (after line discounts). */
      net_bani: bani,
      /** BT-110: VAT total in the document currency. */
      vat_bani: bani,
      /** BT-112: net - document allowances + document charges + VAT. */
      total_bani: bani,
      /** BT-107: document-level allowances only (line discounts are already in the line nets). */
      allowance_total_bani: bani.optional(),
      /** BT-108: document-level charges. */
      charge_total_bani: bani.optional(),
      /** BT-113 */
      prepaid_bani: bani.optional(),
      /** BT-115: total - prepaid. */
      payable_bani: bani,
      /** BT-111: VAT total in RON when the currency is not RON; computed from the rate when absent. */
      vat_ron_bani: bani.optional(),
    }),
    vat_breakdown: z.array(vatBreakdownSchema).min(1, 'at least one VAT breakdown row (BR-CO-18)'),
  });

export const eInvoiceDocumentSchema = documentFieldsSchema.superRefine(checkDocument);

export type EInvoiceDocument = z.input<typeof eInvoiceDocumentSchema>;
export type ParsedEInvoiceDocument = z.output<typeof eInvoiceDocumentSchema>;

const VAT_ID_CATEGORIES: readonly VatCategory[] = ['S', 'Z', 'E', 'AE', 'K', 'G'];

function key(category: string, rate: number): string {
  return `${category}@${rate}`;
}

function checkDocument(d: z.output<typeof documentFieldsSchema>, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });

  const typeCode = d.type_code ?? (d.kind === 'credit_note' ? CREDIT_NOTE_TYPE_CODE : 380);
  if (d.kind === 'credit_note' && typeCode !== CREDIT_NOTE_TYPE_CODE) issue(['type_code'], 'a credit note has type code 381 (BR-RO-020)');
  if (d.kind === 'invoice' && typeCode === CREDIT_NOTE_TYPE_CODE) issue(['type_code'], '381 is a credit note: use kind "credit_note"');

  // Parties (BR-RO-065, BR-RO-120, BR-CO-26).
  if (!d.seller.vat_id && !d.seller.cui) issue(['seller'], 'the seller needs a VAT id or a CUI (BR-RO-065)');
  if (d.seller.cnp) issue(['seller', 'cnp'], 'the seller is a business: give its CUI, not a CNP');
  if (!d.buyer.vat_id && !d.buyer.cui && !d.buyer.cnp && !d.buyer.reg_com) {
    issue(['buyer'], `the buyer needs a VAT id, a CUI, or for a person a CNP (${CNP_NOT_GIVEN} when not given) (BR-RO-120)`);
  }
  for (const who of ['seller', 'buyer'] as const) {
    const p = d[who];
    if (p.vat_id?.startsWith('RO') && p.cui && p.vat_id.slice(2) !== p.cui) issue([who, 'cui'], `CUI ${p.cui} does not match VAT id ${p.vat_id}`);
  }

  const lineCategories = new Set(d.lines.map((l) => l.vat_category));
  const allCategories = new Set([...lineCategories, ...d.vat_breakdown.map((b) => b.category), ...(d.allowances ?? []).map((a) => a.vat_category)]);

  if ([...allCategories].some((c) => VAT_ID_CATEGORIES.includes(c)) && !d.seller.vat_id) {
    issue(['seller', 'vat_id'], 'a seller charging VAT (or applying an exemption, 0% or reverse charge) needs its VAT id (BR-S-02 and related)');
  }
  if (allCategories.has('O')) {
    if (allCategories.size > 1) issue(['vat_breakdown'], 'category O (not subject to VAT) cannot be mixed with other categories (BR-O-11..14)');
    if (d.seller.vat_id) issue(['seller', 'vat_id'], 'category O (not subject to VAT) means the seller is not VAT-registered: drop its VAT id (BR-O-02)');
    if (d.buyer.vat_id) issue(['buyer', 'vat_id'], 'category O (not subject to VAT) forbids the buyer VAT id (BR-O-02); give the CUI instead');
  }
  if ((allCategories.has('AE') || allCategories.has('K')) && !d.buyer.vat_id) {
    issue(['buyer', 'vat_id'], 'reverse charge (AE) and intra-community supply (K) need the buyer VAT id (BR-AE-02, BR-IC-02)');
  }
  if (d.delivery?.address && !d.delivery.address.county_code) {
    issue(['delivery', 'address', 'county_code'], 'a deliver-to address needs its country subdivision, abroad too (BR-RO-211)');
  }
  const lineIds = new Set<string>();
  d.lines.forEach((l, i) => {
    if (lineIds.has(l.id)) issue(['lines', i, 'id'], `line id "${l.id}" is used twice`);
    lineIds.add(l.id);
  });
  if (allCategories.has('K')) {
    if (!d.delivery?.date) issue(['delivery', 'date'], 'an intra-community supply (K) needs the actual delivery date (BR-IC-11)');
    if (!d.delivery?.address) issue(['delivery', 'address'], 'an intra-community supply (K) needs the deliver-to address (BR-IC-12)');
  }

  // Totals (BR-CO-10, -11, -13, -15, -16).
  const sumLines = d.lines.reduce((s, l) => s + l.line_net_bani, 0);
  if (sumLines !== d.totals.net_bani) issue(['totals', 'net_bani'], `net ${d.totals.net_bani} differs from the sum of line nets ${sumLines} (BR-CO-10)`);
  const sumAllowances = (d.allowances ?? []).reduce((s, a) => s + (a.charge ? 0 : a.amount_bani), 0);
  const sumCharges = (d.allowances ?? []).reduce((s, a) => s + (a.charge ? a.amount_bani : 0), 0);
  if ((d.totals.allowance_total_bani ?? 0) !== sumAllowances) {
    issue(['totals', 'allowance_total_bani'], sumAllowances
      ? `allowance total ${d.totals.allowance_total_bani ?? 0} differs from the sum of document allowances ${sumAllowances} (BR-CO-11)`
      : 'a document-level allowance needs its VAT category: list it in `allowances` (BR-CO-11)');
  }
  if ((d.totals.charge_total_bani ?? 0) !== sumCharges) {
    issue(['totals', 'charge_total_bani'], `charge total ${d.totals.charge_total_bani ?? 0} differs from the sum of document charges ${sumCharges} (BR-CO-12)`);
  }
  const taxExclusive = d.totals.net_bani - sumAllowances + sumCharges;
  if (taxExclusive + d.totals.vat_bani !== d.totals.total_bani) {
    issue(['totals', 'total_bani'], `total ${d.totals.total_bani} is not net ${d.totals.net_bani} - allowances ${sumAllowances} + charges ${sumCharges} + VAT ${d.totals.vat_bani} (BR-CO-13, BR-CO-15)`);
  }
  if (d.totals.total_bani - (d.totals.prepaid_bani ?? 0) !== d.totals.payable_bani) {
    issue(['totals', 'payable_bani'], `payable ${d.totals.payable_bani} is not total ${d.totals.total_bani} - prepaid ${d.totals.prepaid_bani ?? 0} (BR-CO-16)`);
  }
  const sumVat = d.vat_breakdown.reduce((s, b) => s + b.vat_bani, 0);
  if (sumVat !== d.totals.vat_bani) issue(['totals', 'vat_bani'], `VAT total ${d.totals.vat_bani} differs from the breakdown sum ${sumVat} (BR-CO-14)`);

  // Breakdown rows against lines and allowances (BR-S-08, BR-AE-08, ...; BR-CO-17).
  const expected = new Map<string, number>();
  for (const l of d.lines) expected.set(key(l.vat_category, l.vat_rate_bp), (expected.get(key(l.vat_category, l.vat_rate_bp)) ?? 0) + l.line_net_bani);
  for (const a of d.allowances ?? []) expected.set(key(a.vat_category, a.vat_rate_bp), (expected.get(key(a.vat_category, a.vat_rate_bp)) ?? 0) + (a.charge ? a.amount_bani : -a.amount_bani));
  const seen = new Set<string>();
  d.vat_breakdown.forEach((b, i) => {
    const k = key(b.category, b.vat_rate_bp);
    if (seen.has(k)) issue(['vat_breakdown', i], `two breakdown rows for ${b.category} ${b.vat_rate_bp / 100}%`);
    seen.add(k);
    checkCategoryRate(b.category, b.vat_rate_bp, ctx, ['vat_breakdown', i, 'vat_rate_bp']);
    const want = expected.get(k);
    if (want === undefined) issue(['vat_breakdown', i], `no line or allowance has ${b.category} ${b.vat_rate_bp / 100}%`);
    else if (want !== b.taxable_bani) issue(['vat_breakdown', i, 'taxable_bani'], `taxable ${b.taxable_bani} differs from the lines' ${want} for ${b.category} ${b.vat_rate_bp / 100}%`);
    if (b.category === 'S') {
      // Same tolerance as BR-CO-17: under one currency unit, so per-line rounding still passes.
      const exact = Math.round((Math.abs(b.taxable_bani) * b.vat_rate_bp) / 10_000) * Math.sign(b.taxable_bani);
      if (Math.abs(b.vat_bani - exact) >= 100) issue(['vat_breakdown', i, 'vat_bani'], `VAT ${b.vat_bani} is not ${b.vat_rate_bp / 100}% of ${b.taxable_bani} (BR-CO-17)`);
    } else if (b.vat_bani !== 0) {
      issue(['vat_breakdown', i, 'vat_bani'], `category ${b.category} carries no VAT`);
    }
    const hasReason = Boolean(b.exemption_reason || b.exemption_reason_code);
    if (b.category === 'Z' && hasReason) issue(['vat_breakdown', i], 'zero-rated (Z) must not have an exemption reason (BR-Z-10); use E for an exemption');
    if (!['S', 'Z'].includes(b.category) && !hasReason) issue(['vat_breakdown', i], `category ${b.category} needs an exemption reason text or VATEX code (BR-${b.category === 'K' ? 'IC' : b.category}-10)`);
    if (b.category === 'S' && hasReason) issue(['vat_breakdown', i], 'standard-rated (S) has no exemption reason');
  });
  for (const k of expected.keys()) {
    if (!seen.has(k)) issue(['vat_breakdown'], `missing a breakdown row for ${k.replace('@', ' ')} bp`);
  }

  // Payment (BR-61, BR-CO-25 as ANAF 1.0.9 still checks it for invoices).
  if (d.payment && ['30', '58'].includes(d.payment.means_code) && !d.payment.iban) {
    issue(['payment', 'iban'], 'credit transfer (30/58) needs the payee IBAN (BR-61)');
  }
  if (d.kind === 'invoice' && d.totals.payable_bani > 0 && !d.due_date && !d.payment_terms) {
    issue(['due_date'], 'an invoice with an amount due needs a due date or payment terms (BR-CO-25)');
  }

  if (d.currency !== 'RON' && d.totals.vat_ron_bani === undefined && d.exchange_rate_to_ron === undefined) {
    issue(['exchange_rate_to_ron'], 'a foreign-currency invoice must state its VAT in RON (BR-RO-030, BR-53): give exchange_rate_to_ron or totals.vat_ron_bani');
  }
}

export class EInvoiceDocumentError extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super(`e-Factura document is invalid:\n${issues.map((i) => `  ${i.path.join('.') || '(document)'}: ${i.message}`).join('\n')}`);
    this.name = 'EInvoiceDocumentError';
  }
}

/** Checks an input document; throws EInvoiceDocumentError listing every problem with its path. */
export function parseEInvoiceDocument(input: unknown): ParsedEInvoiceDocument {
  const r = eInvoiceDocumentSchema.safeParse(input);
  if (!r.success) throw new EInvoiceDocumentError(r.error.issues);
  return r.data;
}

/**
 * BT-111: VAT in RON, from the document-currency VAT and the BNR rate, rounded half away from zero.
 * BigInt because a large VAT times an 8-decimal rate can pass 2^53.
 */
export function vatInRon(vatBani: number, rate: string): number {
  const [whole = '0', frac = ''] = rate.split('.');
  const scale = 10n ** BigInt(frac.length);
  const r = BigInt(whole) * scale + BigInt(frac || '0');
  const v = BigInt(vatBani);
  const abs = (v < 0n ? -v : v) * r;
  const rounded = (abs + scale / 2n) / scale;
  return Number(v < 0n ? -rounded : rounded);
}
