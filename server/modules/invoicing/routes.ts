import type { AnyRoute } from '../../platform/route';

export const invoicingRoutes: AnyRoute[] = [];
