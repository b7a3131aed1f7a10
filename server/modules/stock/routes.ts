import type { AnyRoute } from '../../platform/route';
import { warehouseRoutes } from './warehouse-routes';
import { stockViewRoutes } from './view-routes';
import { nirRoutes } from './nir-routes';
import { countTransferRoutes } from './count-transfer-routes';
import './messages';

export const stockRoutes: AnyRoute[] = [...warehouseRoutes, ...stockViewRoutes, ...nirRoutes, ...countTransferRoutes];
