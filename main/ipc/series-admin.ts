import { listBankAccounts, createBankAccount } from '../api/series-admin-endpoints';
import { ApiHttpError } from '../api/errors';
import { AppError } from '../errors';
import { readSetup, writeSetup } from '../local/setup';
import { API_KEY_SECRET } from '../local/settings';
import { createSeries, setPrimarySeries, updateSeries } from '../sync/series-admin';
import type { SeriesAdminChannel } from '../../shared/ipc/contract-series-admin';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

/** Series administration and the setup wizard (issue 12); see shared/ipc/contract-series-admin.ts. */
export function seriesAdminHandlers(s: MainServices): HandlerGroup<SeriesAdminChannel> {
  const hasKey = () => s.secrets.get(API_KEY_SECRET) !== null;
  return {
    'series.create': (input) => s.engine.withService((deps) => createSeries(deps, input), ['series']),
    'series.update': (input) => s.engine.withService((deps) => updateSeries(deps, input), ['series']),
    'series.setPrimary': ({ id }) => s.engine.withService((deps) => setPrimarySeries(deps, id), ['series']),
    'bankAccounts.list': () => s.engine.withService(async (deps) => (await listBankAccounts(deps.api)).data),
    'bankAccounts.create': (input) =>
      s.engine.withService(async (deps) => {
        try {
          return await createBankAccount(deps.api, input, deps.ctx.uuid());
        } catch (error) {
          if (error instanceof ApiHttpError && error.code === 'duplicate_iban') {
            throw new AppError('conflict', 'duplicate_iban', error.message, {
              iban: 'The firm already has this account|Firma are deja acest cont',
            });
          }
          if (error instanceof ApiHttpError && error.status === 422) {
            throw new AppError('validation_error', error.code, error.message, error.fields ?? { iban: 'Not a valid IBAN|IBAN nevalid' });
          }
          throw error;
        }
      }),
    'setup.get': () => readSetup(s.store.reader, hasKey()),
    'setup.update': (patch) => {
      s.store.write((db) => writeSetup(db, hasKey(), patch));
      s.engine.emitChanged(['settings']);
      return readSetup(s.store.reader, hasKey());
    },
  };
}
