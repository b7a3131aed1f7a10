import type { AnyRoute } from '../../platform/route';
import { oauthRoutes } from './oauth-routes';
import { companyProfileRoutes } from './company-profile';
import { submissionRoutes } from './submission-routes';
import { supplierBillRoutes } from './supplier-bill-routes';
import { fiscalRoutes } from './fiscal-routes';
import { balanceSheetRoutes } from './balance-sheet-routes';
import './messages';

export const efacturaSpvRoutes: AnyRoute[] = [
  ...oauthRoutes,
  ...companyProfileRoutes,
  ...submissionRoutes,
  ...supplierBillRoutes,
  ...fiscalRoutes,
  ...balanceSheetRoutes,
];
