import { describe, expect, it } from 'vitest';
import { renderInvoiceHtml } from '../../shared/print/invoice-template';
import { renderThermalInvoiceHtml } from '../../shared/print/thermal-invoice-template';
import { makeInvoice, SELLER } from '../e2e/support/documents';

/**
 * The printout of an invoice with discounts and charges on the whole of it lists, between the lines
 * and the taxable total, what the JSON and the XML say: the lines' sum, each discount or charge, then
 * the total without VAT (the taxable amount), so paper, JSON and e-Factura agree.
 */
describe('printed discounts and charges on the whole invoice', () => {
  it('lists the lines sum, each discount and charge, and the taxable total', () => {
    const base = makeInvoice([{ description: 'Laptop', quantity: 3, price: 1000, vat_rate: 21 }]);
    const invoice = {
      ...base,
      totals: { net: 2885, vat: 605.85, total: 3490.85, discount: 0, lines_net: 3000, allowances: 150, charges: 35 },
      allowances_charges: [
        { charge: false, amount: 150, vat_rate: 21, vat_category: null, reason: 'Discount volum', reason_code: '95', vat: -31.5 },
        { charge: true, amount: 35, vat_rate: 21, vat_category: null, reason: 'Transport', reason_code: 'FC', vat: 7.35 },
      ],
    };
    const text = renderInvoiceHtml(invoice, SELLER).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toMatch(/Valoare linii fără TVA 3\.000,00 lei Reducere pe factură: Discount volum \(21%\) -150,00 lei Majorare pe factură: Transport \(21%\) 35,00 lei Total fără TVA 2\.885,00 lei/);
    // The 80 mm roll lists the same, one per row.
    const roll = renderThermalInvoiceHtml({ ...invoice, references: { order: 'CMD 77', contract: null, buyer: null, despatch: 'AVZ 12' } }, SELLER).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(roll).toMatch(/Valoare linii fără TVA 3\.000,00 lei Reducere pe factură: Discount volum \(21%\) -150,00 lei Majorare pe factură: Transport \(21%\) 35,00 lei Total fără TVA 2\.885,00 lei/);
    expect(roll).toContain('Comanda nr. CMD 77');
    expect(roll).toContain('Aviz de însoțire nr. AVZ 12');
    // A storno reverses them: the discount raises, the charge lowers the (negative) taxable total.
    const storno = { ...invoice, status: 'storno' as const, totals: { net: -2885, vat: -605.85, total: -3490.85, discount: 0, lines_net: -3000, allowances: -150, charges: -35 },
      allowances_charges: invoice.allowances_charges.map((a) => ({ ...a, amount: -a.amount, vat: -a.vat })) };
    expect(renderInvoiceHtml(storno, SELLER).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')).toMatch(/Discount volum \(21%\) 150,00 lei Majorare pe factură: Transport \(21%\) -35,00 lei/);
    // Without any, the printout is as before.
    const plain = renderInvoiceHtml(base, SELLER).replace(/<[^>]+>/g, ' ');
    expect(plain).not.toMatch(/Valoare linii|pe factură/);
  });
});
