import { dashboardSummary } from '../local/dashboard';
import { readSettings } from '../local/settings';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function dashboardHandlers(s: MainServices): HandlerGroup<'dashboard.summary'> {
  return {
    'dashboard.summary': (input) => dashboardSummary(s.ctx, readSettings(s.settings).cash_limits, input?.date),
  };
}
