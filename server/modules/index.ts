import type { AnyRoute } from '../platform/route';
import { metaRoutes } from './meta/routes';
import { catalogRoutes } from './catalog/routes';
import { invoicingRoutes } from './invoicing/routes';
import { expensesRoutes } from './expenses/routes';
import { efacturaSpvRoutes } from './efactura-spv/routes';
import { importsRoutes } from './imports/routes';
import { accountingRoutes } from './accounting/routes';
import { stockRoutes } from './stock/routes';
import { webhooksRoutes } from './webhooks/routes';

/** Every route of the service, module by module. */
export const allRoutes: AnyRoute[] = [...metaRoutes, ...catalogRoutes, ...invoicingRoutes, ...expensesRoutes, ...efacturaSpvRoutes, ...importsRoutes, ...accountingRoutes, ...stockRoutes, ...webhooksRoutes];
