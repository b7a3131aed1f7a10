import type { AnyRoute } from '../../platform/route';

export const catalogRoutes: AnyRoute[] = [];
