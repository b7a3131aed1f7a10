import { listCurrencies, listExpenses, listSupplierBills, listVatRates } from '../local/catalog';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function catalogHandlers(s: MainServices): HandlerGroup<'catalog.currencies' | 'catalog.vatRates' | 'purchases.expenses' | 'purchases.supplierBills'> {
  return {
    'catalog.currencies': () => listCurrencies(s.ctx),
    'catalog.vatRates': () => listVatRates(s.ctx),
    'purchases.expenses': (input) => listExpenses(s.ctx, input),
    'purchases.supplierBills': (input) => listSupplierBills(s.ctx, input),
  };
}
