import type { AnyRoute } from '../platform/route';
import { metaRoutes } from './meta/routes';

/** Every route of the service. A module exports its list and is added here. */
export const allRoutes: AnyRoute[] = [...metaRoutes];
