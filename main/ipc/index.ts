import { accountingHandlers } from './accounting';
import { appHandlers } from './app';
import { catalogHandlers } from './catalog';
import { clientHandlers } from './clients';
import { counterHandlers } from './counter';
import { dashboardHandlers } from './dashboard';
import { documentHandlers } from './documents';
import { importHandlers } from './imports';
import { invoiceHandlers } from './invoices';
import { productHandlers } from './products';
import { receiptHandlers } from './receipts';
import { IpcRouter, type Handlers, type SenderCheck } from './router';
import { seriesHandlers } from './series';
import { seriesAdminHandlers } from './series-admin';
import type { MainServices } from './services';
import { settingsHandlers } from './settings';
import { setupHandlers } from './setup';
import { stockHandlers } from './stock';
import { syncHandlers } from './sync';

/** Every channel of the contract, one file per domain. The type makes a missing channel a compile error. */
export function allHandlers(s: MainServices): Handlers {
  return {
    ...appHandlers(s),
    ...settingsHandlers(s),
    ...syncHandlers(s),
    ...invoiceHandlers(s),
    ...clientHandlers(s),
    ...productHandlers(s),
    ...receiptHandlers(s),
    ...counterHandlers(s),
    ...seriesHandlers(s),
    ...catalogHandlers(s),
    ...dashboardHandlers(s),
    ...documentHandlers(s),
    ...importHandlers(s),
    ...seriesAdminHandlers(s),
    ...setupHandlers(s),
    ...accountingHandlers(s),
    ...stockHandlers(s),
  };
}

export function createRouter(s: MainServices, senderAllowed: SenderCheck): IpcRouter {
  return new IpcRouter(allHandlers(s), senderAllowed);
}

export { IpcRouter, type SenderInfo, type SenderCheck } from './router';
