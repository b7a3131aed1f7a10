import type { AnyRoute } from '../platform/route';
import { metaRoutes } from './meta/routes';
import { catalogRoutes } from './catalog/routes';
import { invoicingRoutes } from './invoicing/routes';
import { expensesRoutes } from './expenses/routes';
import { efacturaSpvRoutes } from './efactura-spv/routes';
import { importsRoutes } from './imports/routes';
import { accountingRoutes } from './accounting/routes';
import { stockRoutes } from './stock/routes';
import { documentsPdfRoutes } from './documents-pdf/routes';
import { invoiceEmailRoutes } from './invoice-email/routes';
import { webhooksRoutes } from './webhooks/routes';
import { compatRoutes } from './compat/routes';
import { attachmentsRoutes } from './attachments/routes';
import { efacturaSdkRoutes } from './compat/efactura-sdk';
import { documentTemplatesRoutes } from './document-templates/routes';
import { patchTwins } from './compat/alias';

const moduleRoutes: AnyRoute[] = [
  ...metaRoutes, ...catalogRoutes, ...invoicingRoutes, ...expensesRoutes, ...efacturaSpvRoutes, ...importsRoutes, ...accountingRoutes, ...stockRoutes,
  ...documentsPdfRoutes, ...invoiceEmailRoutes, ...webhooksRoutes, ...compatRoutes, ...attachmentsRoutes, ...efacturaSdkRoutes, ...documentTemplatesRoutes,
];

/**
 * Every route of the service, module by module, and a `PATCH` twin of every `PUT` (Contazen's SDK
 * updates with PATCH; our PUTs already change only the members sent): see server/modules/compat/alias.ts.
 */
export const allRoutes: AnyRoute[] = [...moduleRoutes, ...patchTwins(moduleRoutes)];
