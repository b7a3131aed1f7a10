/**
 * The e-Factura check before numbering on a 1,000-line and a 5,000-line invoice: how long the check
 * (the document built and held to every EN 16931 / CIUS-RO rule of shared/efactura) plus the XML take,
 * against generating the XML alone (the baseline, measured in the same run). The check runs in the
 * issuing transaction on the service and on the desktop, so it must stay a small fraction of an issue,
 * and grow linearly: the per-line cost of 5,000 lines is printed beside that of 1,000. Prices carry up
 * to 4 decimals and every third line a base quantity, as a courier's or telecom's statement does.
 * It also prints the XML size of the longest line our writer can make (name and description at their
 * CIUS-RO limits, in diacritics), from which the invoice line cap follows (docs/api-decisions.md).
 * BENCH_VALIDATE=1 also times the official Java validators (../shared/validators/ubl) on each XML.
 *
 *   npx tsx bench/efactura-check.ts
 *   BENCH_LINES=1000,5000 BENCH_ROUNDS=30 npx tsx bench/efactura-check.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildEInvoiceDocument, pricedLineFacts, NUMBER_NOT_YET_ASSIGNED, type InvoiceFacts } from '../shared/efactura/invoice-document';
import { computeTotals } from '../shared/invoice-math';
import { roundHalfAwayFromZero } from '../shared/money';
import { toUblXml } from '../server/efactura/ubl-write';
import { validateUblFiles } from '../server/efactura/validator';

const SIZES = (process.env.BENCH_LINES ?? '1000,5000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const VALIDATE = process.env.BENCH_VALIDATE === '1';
const RATES = [2100, 1100, 2100, 0, 2100];

function facts(count: number, longest = false): InvoiceFacts {
  const lines = Array.from({ length: count }, (_, i) => {
    const rate = RATES[i % RATES.length]!;
    // 0,0125 .. 199,9999 lei with up to 4 decimals; every third line priced per 1 000 units.
    const priceE4 = 125 + ((i * 7919) % 1_999_875);
    const base = i % 3 === 0 ? 1_000_000 : 1000;
    return {
      description: longest ? `${'Ă'.repeat(195)}${String(i).padStart(5, '0')}` : `Articol ${i + 1} — piesă de schimb`,
      quantity_milli: base === 1000 ? 1000 + (i % 7) * 250 : 2_500_000 + i, unit_code: 'H87',
      price_bani: roundHalfAwayFromZero(priceE4, 100), price_e4: priceE4, base_quantity_milli: base,
      discount_bp: i % 10 === 0 ? 500 : 0, vat_rate_bp: rate, vat_category: null, vat_exemption_reason: rate === 0 ? 'art. 292 alin. (2) lit. a) Cod fiscal' : null,
    };
  });
  const totals = computeTotals(lines.map((l) => ({ ...l, unit_price_bani: l.price_bani, unit_price_e4: l.price_e4 })), { reverse_charge: false });
  return {
    number: NUMBER_NOT_YET_ASSIGNED, storno: false, issue_date: '2026-11-25', due_date: '2026-12-25', delivery_date: null, currency: 'RON',
    exchange_rate: null, reverse_charge: false, payment_method: 'bank_order', observations: null, buyer_name: null, original: null,
    buyer: { name: 'Curierat Rapid SRL', cui: 'RO14186770', vat_payer: true, reg_com: 'J22/987/2019', cnp: null, address: 'Bd. Independenței 5', city: 'Iași', county: 'Iași', country: 'RO', postal_code: '700001' },
    seller: {
      name: 'Magazinul Exemplu SRL', cui: '18547290', vat_payer: true, vat_id: 'RO18547290', reg_com: 'J12/1234/2020', street: 'Str. Memorandumului 28',
      city: 'Cluj-Napoca', county_code: 'RO-CJ', postal_code: '400114', country_code: 'RO', iban: 'RO49AAAA1B31007593840000', bank: null, email: null,
      phone: null, capital_social_bani: null, vat_on_collection: false, logo_ref: null,
    },
    lines: pricedLineFacts(lines, totals.lines),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function run(count: number): { g: number; c: number; bytes: number; xml: string } {
  const input = facts(count);
  const prepared = buildEInvoiceDocument(input);
  if (Object.keys(prepared.problems).length) throw new Error(`the bench invoice is refused: ${JSON.stringify(prepared.problems).slice(0, 500)}`);
  const generationOnly: number[] = [];
  const checkedAndGenerated: number[] = [];
  let xml = '';
  for (let round = 0; round < ROUNDS + 3; round += 1) {
    // Baseline: the XML of the already-built document (toUblXml parses it once, as it always does).
    let t = performance.now();
    xml = toUblXml({ ...prepared.document, number: 'F-2026-00001' });
    const gen = performance.now() - t;
    // Measured: the check before numbering, then the XML of the numbered invoice.
    t = performance.now();
    const { document, problems } = buildEInvoiceDocument(input);
    if (Object.keys(problems).length) throw new Error('refused');
    toUblXml({ ...document, number: 'F-2026-00001' });
    const both = performance.now() - t;
    if (round >= 3) {
      generationOnly.push(gen);
      checkedAndGenerated.push(both);
    }
  }
  return { g: median(generationOnly), c: median(checkedAndGenerated), bytes: Buffer.byteLength(xml), xml };
}

const results = new Map<number, ReturnType<typeof run>>();
for (const count of SIZES) {
  const r = run(count);
  results.set(count, r);
  console.log(`efactura-check: ${count} lines, ${(r.bytes / 1024).toFixed(0)} KiB of XML, median of ${ROUNDS} rounds`);
  console.log(`  XML generation alone (baseline):        ${r.g.toFixed(1)} ms`);
  console.log(`  check before numbering + XML:           ${r.c.toFixed(1)} ms`);
  console.log(`  ratio to generation alone:              ${(r.c / r.g).toFixed(2)}x`);
}
if (SIZES.length > 1) {
  const [a, b] = [SIZES[0]!, SIZES[SIZES.length - 1]!];
  const ra = results.get(a)!;
  const rb = results.get(b)!;
  // Linear work gives a per-line ratio near 1; quadratic work would give about b/a.
  console.log(`  per-line cost, ${b} lines against ${a}:  check+XML ${((rb.c / b) / (ra.c / a)).toFixed(2)}x, XML alone ${((rb.g / b) / (ra.g / a)).toFixed(2)}x (quadratic would be ${(b / a).toFixed(0)}x)`);
}
const longest = buildEInvoiceDocument(facts(200, true));
if (Object.keys(longest.problems).length) throw new Error(`the longest lines are refused: ${JSON.stringify(longest.problems).slice(0, 300)}`);
const oneLine = Buffer.byteLength(toUblXml({ ...buildEInvoiceDocument(facts(201, true)).document, number: 'F-2026-00001' })) - Buffer.byteLength(toUblXml({ ...longest.document, number: 'F-2026-00001' }));
console.log(`  XML of the longest line our writer makes: ${oneLine} bytes; 10 MB (ANAF's upload limit) holds ${Math.floor(10 * 1024 * 1024 / oneLine)} of them`);
if (VALIDATE) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-efactura-'));
  try {
    for (const [count, r] of results) {
      const file = join(dir, `f${count}.xml`);
      writeFileSync(file, r.xml);
      const t = performance.now();
      const v = await validateUblFiles([file], 'strict');
      const fatal = v.available ? v.files.reduce((n, f) => n + f.fatal.length, 0) : -1;
      console.log(`  official validators on ${count} lines:     ${((performance.now() - t) / 1000).toFixed(1)} s, ${fatal} fatal (${(((performance.now() - t) / r.c)).toFixed(0)}x our check)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
