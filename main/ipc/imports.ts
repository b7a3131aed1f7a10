import { commitImport, previewImport, uploadImport } from '../local/imports/index';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function importHandlers(s: MainServices): HandlerGroup<'imports.upload' | 'imports.preview' | 'imports.commit'> {
  return {
    'imports.upload': (input) => uploadImport(s.engine, input),
    'imports.preview': (input) => previewImport(s.engine, input),
    'imports.commit': (input) => commitImport(s.engine, input),
  };
}
