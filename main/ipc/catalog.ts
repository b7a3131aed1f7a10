import { createExpense, duplicateProbe, expenseLocalId, listExpenses, listSuppliers, payExpense } from '../local/expenses';
import { listCurrencies, listSupplierBills, listVatRates } from '../local/catalog';
import { toBani } from '../../shared/money';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

type CatalogChannels =
  | 'catalog.currencies' | 'catalog.vatRates' | 'catalog.workPoints' | 'purchases.expenses' | 'purchases.suppliers' | 'purchases.supplierBills'
  | 'purchases.supplierBillPdf' | 'expenses.checkDuplicate' | 'expenses.create' | 'expenses.pay';

export function catalogHandlers(s: MainServices): HandlerGroup<CatalogChannels> {
  return {
    'catalog.currencies': () => listCurrencies(s.ctx),
    'catalog.vatRates': () => listVatRates(s.ctx),
    'catalog.workPoints': () => s.engine.workPoints(),
    'purchases.expenses': (input) => listExpenses(s.ctx, input),
    'purchases.suppliers': (input) => listSuppliers(s.ctx, input),
    'purchases.supplierBills': (input) => listSupplierBills(s.ctx, input),
    'purchases.supplierBillPdf': async ({ id }) => {
      const file = await s.engine.supplierBillPdf(id);
      if (s.host.saveFile) {
        const saved = await s.host.saveFile(file.bytes, file.fileName);
        return { ...saved, file_name: file.fileName, pdf_base64: null };
      }
      // The web host cannot write to the user's disk: the browser saves what it is given.
      return { saved: false, path: null, file_name: file.fileName, pdf_base64: Buffer.from(file.bytes).toString('base64') };
    },
    'expenses.checkDuplicate': async (input) => {
      const reply = await s.engine.checkExpenseDuplicate(duplicateProbe(s.ctx, input));
      const d = reply.duplicate;
      return {
        duplicate: d
          ? { id: expenseLocalId(s.store.reader, d.id), reference: d.reference, date: d.date, amount_bani: toBani(d.amount), currency: d.currency, match_type: d.match_type }
          : null,
      };
    },
    'expenses.create': (input) => {
      const expense = createExpense(s.ctx, input);
      s.changed();
      return expense;
    },
    'expenses.pay': (input) => {
      const expense = payExpense(s.ctx, input);
      s.changed();
      return expense;
    },
  };
}
