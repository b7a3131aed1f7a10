/**
 * The e-Factura check before numbering on a 1,000-line invoice: how long the check (the document built
 * and held to every EN 16931 / CIUS-RO rule of shared/efactura) plus the XML take, against generating
 * the XML alone (the baseline, measured in the same run). The check runs in the issuing transaction
 * on the service and on the desktop, so it must stay a small fraction of an issue.
 *
 *   npx tsx bench/efactura-check.ts
 *   BENCH_LINES=1000 BENCH_ROUNDS=30 npx tsx bench/efactura-check.ts
 */
import { performance } from 'node:perf_hooks';
import { buildEInvoiceDocument, pricedLineFacts, NUMBER_NOT_YET_ASSIGNED, type InvoiceFacts } from '../shared/efactura/invoice-document';
import { computeTotals } from '../shared/invoice-math';
import { toUblXml } from '../server/efactura/ubl-write';

const LINES = Number(process.env.BENCH_LINES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const RATES = [2100, 1100, 2100, 0, 2100];

function facts(): InvoiceFacts {
  const lines = Array.from({ length: LINES }, (_, i) => {
    const rate = RATES[i % RATES.length]!;
    return {
      description: `Articol ${i + 1} — piesă de schimb`, quantity_milli: 1000 + (i % 7) * 250, unit_code: 'H87', price_bani: 1999 + i * 13,
      discount_bp: i % 10 === 0 ? 500 : 0, vat_rate_bp: rate, vat_category: null, vat_exemption_reason: rate === 0 ? 'art. 292 alin. (2) lit. a) Cod fiscal' : null,
    };
  });
  const totals = computeTotals(lines.map((l) => ({ ...l, unit_price_bani: l.price_bani })), { reverse_charge: false });
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

const input = facts();
const prepared = buildEInvoiceDocument(input);
if (Object.keys(prepared.problems).length) throw new Error(`the bench invoice is refused: ${JSON.stringify(prepared.problems)}`);
const generationOnly: number[] = [];
const checkedAndGenerated: number[] = [];
let bytes = 0;
for (let round = 0; round < ROUNDS + 3; round += 1) {
  // Baseline: the XML of the already-built document (toUblXml parses it once, as it always does).
  let t = performance.now();
  bytes = toUblXml({ ...prepared.document, number: 'F-2026-00001' }).length;
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
const g = median(generationOnly);
const c = median(checkedAndGenerated);
console.log(`efactura-check: ${LINES} lines, ${(bytes / 1024).toFixed(0)} KiB of XML, median of ${ROUNDS} rounds`);
console.log(`  XML generation alone (baseline):        ${g.toFixed(1)} ms`);
console.log(`  check before numbering + XML:           ${c.toFixed(1)} ms`);
console.log(`  ratio to generation alone:              ${(c / g).toFixed(2)}x`);
