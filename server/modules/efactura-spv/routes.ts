import type { AnyRoute } from '../../platform/route';

export const efacturaSpvRoutes: AnyRoute[] = [];
