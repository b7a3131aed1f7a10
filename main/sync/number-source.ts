import { AppError } from '../errors';
import { getSeriesRow, poolAvailable } from '../local/series';
import { refillPool, setNumberingMode, type NumberingDeps } from './numbering';

/**
 * Before a sale online: makes sure this device holds a number of the series it is about to issue from.
 *
 * A series made elsewhere (on the service, in the wizard of another counter, by an administrator) reaches
 * this device with no numbering mode: the device neither holds its lock nor any reserved number, so the
 * purely local `takeNumber` had nothing to give and the sale failed with "go online" although the
 * device was online (issue 12). Online, such a series is now set up for shared numbering on the spot
 * (a small pool of reserved numbers): it never takes a lock another counter might need, and a number
 * left unused becomes a documented gap, as for any shared series. An exhausted pool is refilled the
 * same way. Offline nothing can be reserved: the error then says which series is not set up here.
 *
 * `online` runs a request the way the engine runs user actions (failures become AppErrors, the sync
 * mode follows what the network said).
 */
export async function ensureNumberSource(
  deps: NumberingDeps,
  seriesId: string,
  online: <T>(fn: () => Promise<T>) => Promise<T>,
  /** The engine last reached the service: an empty pool is only refilled then (offline, the sale fails at once as before). */
  lastSeenOnline = true,
): Promise<boolean> {
  const row = getSeriesRow(deps.store.reader, seriesId);
  if (!row || row.numbering_mode === 'exclusive') return false;
  if (row.numbering_mode === 'shared' && (poolAvailable(deps.store.reader, seriesId) > 0 || !lastSeenOnline)) return false;
  try {
    if (row.numbering_mode === null) await online(() => setNumberingMode(deps, seriesId, 'shared', {}));
    else await online(() => refillPool(deps, seriesId, true));
    return true;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const unreachable = error.code === 'offline' || error.code === 'not_configured';
    if (!unreachable) {
      // The service refused (locked by another counter, series deleted...): its words say what is wrong.
      throw new AppError(error.type, error.code, `Series ${row.name} cannot number on this device: ${error.message}`, error.fields);
    }
    if (row.numbering_mode === null) {
      throw new AppError(
        'conflict',
        'series_not_set_up',
        `Series ${row.name} is not set up on this device and the service cannot be reached to set it up: save a draft, or choose a series this device numbers from`,
      );
    }
    // A shared series with an empty pool offline: `takeNumber` says so (no_number_available).
    return false;
  }
}
