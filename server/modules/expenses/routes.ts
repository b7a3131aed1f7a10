import type { AnyRoute } from '../../platform/route';
import './messages';
import { supplierRoutes } from './suppliers';
import { categoryRoutes } from './categories';
import { checkDuplicate } from './duplicates';
import { expenseCrudRoutes } from './expense-routes';
import { listExpenseEvents, payExpense } from './pay';
import { periodRoutes } from './periods';

/**
 * Suppliers, expense categories, expenses (with payment, duplicate probe and audit trail) and the
 * accounting periods that lock them. `check-duplicate` comes before `/expenses/:id` routes only for
 * the reader: Fastify prefers static segments over parameters whatever the order.
 */
export const expensesRoutes: AnyRoute[] = [
  ...supplierRoutes,
  ...categoryRoutes,
  checkDuplicate,
  ...expenseCrudRoutes,
  payExpense,
  listExpenseEvents,
  ...periodRoutes,
];
