import type { AnyRoute } from '../../platform/route';
import './messages';
import { journalRoutes } from './journal-routes';
import { cashRoutes } from './cash-routes';
import { exportRoutes } from './export-routes';
import { exportJobRoutes } from './export-job-routes';

/** The accountant's month: VAT journals, cash register, exports for accounting programs, the monthly archive. */
export const accountingRoutes: AnyRoute[] = [...journalRoutes, ...cashRoutes, ...exportRoutes, ...exportJobRoutes];
