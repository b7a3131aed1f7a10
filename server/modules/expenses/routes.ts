import type { AnyRoute } from '../../platform/route';

export const expensesRoutes: AnyRoute[] = [];
