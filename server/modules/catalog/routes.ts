import type { AnyRoute } from '../../platform/route';
import './messages';
import { clientRoutes } from './clients';
import { productRoutes } from './products';
import { bankAccountRoutes } from './bank-accounts';
import { vatRateRoutes } from './vat-rates';
import { currencyRoutes } from './currencies';
import { languageRoutes } from './languages';

export const catalogRoutes: AnyRoute[] = [
  ...clientRoutes,
  ...productRoutes,
  ...bankAccountRoutes,
  ...vatRateRoutes,
  ...currencyRoutes,
  ...languageRoutes,
];
