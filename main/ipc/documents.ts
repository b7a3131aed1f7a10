import { AppError } from '../errors';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function documentHandlers(s: MainServices): HandlerGroup<'documents.savePdf'> {
  return {
    'documents.savePdf': async ({ html, file_name }) => {
      if (!s.host.savePdf) {
        throw new AppError('unavailable', 'not_supported_in_host', 'PDF export is only available in the desktop app: use the browser\'s print');
      }
      return s.host.savePdf(html, file_name);
    },
  };
}
