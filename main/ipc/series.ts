import { getSeries, listSeries } from '../local/series';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function seriesHandlers(s: MainServices): HandlerGroup<'series.list' | 'series.setMode' | 'series.refill' | 'series.gaps'> {
  return {
    'series.list': () => listSeries(s.ctx),
    'series.setMode': async ({ id, mode, pool_target, low_water }) => {
      await s.engine.setSeriesMode(id, mode, { pool_target, low_water });
      return getSeries(s.ctx, id);
    },
    'series.refill': async ({ id }) => {
      await s.engine.refill(id);
      return getSeries(s.ctx, id);
    },
    'series.gaps': async ({ id }) =>
      (await s.engine.gaps(id)).map((g) => ({
        number: g.number, full_number: g.full_number, reason: g.reason, device_id: g.device_id, recorded_at: g.recorded_at,
      })),
  };
}
