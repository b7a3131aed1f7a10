import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function appHandlers(s: MainServices): HandlerGroup<'app.info'> {
  return {
    'app.info': () => ({ app_version: s.appVersion, host: s.host.kind, device: s.ctx.device }),
  };
}
