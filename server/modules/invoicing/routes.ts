import type { AnyRoute } from '../../platform/route';
import { seriesRoutes } from './series-routes';
import { reservationRoutes } from './reservation-routes';
import { invoiceRoutes } from './invoice-routes';
import { invoiceActionRoutes } from './invoice-actions';
import { paymentRoutes } from './payment-routes';
import { receiptSeriesRoutes } from './receipt-series-routes';
import { receiptRoutes } from './receipt-routes';
import './messages';

export { assertEinvoicingReady } from './einvoicing-ready';

export const invoicingRoutes: AnyRoute[] = [
  ...seriesRoutes,
  ...reservationRoutes,
  ...invoiceRoutes,
  ...invoiceActionRoutes,
  ...paymentRoutes,
  ...receiptSeriesRoutes,
  ...receiptRoutes,
];
