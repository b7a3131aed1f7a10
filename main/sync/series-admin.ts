import type { z } from 'zod';
import type { SeriesView } from '../../shared/ipc/contract';
import type { zSeriesCreateInput, zSeriesUpdateInput } from '../../shared/ipc/contract-series-admin';
import { ApiHttpError } from '../api/errors';
import { getSeries } from '../api/endpoints';
import {
  createInvoiceSeries, createReceiptSeries, getReceiptSeries, updateInvoiceSeries, updateReceiptSeries,
} from '../api/series-admin-endpoints';
import { sql } from '../db/sql';
import { AppError, invalidInput, notFound } from '../errors';
import { getSeriesRow, seriesView } from '../local/series';
import { applyReceiptSeries, applySeries } from './apply';
import type { NumberingDeps } from './numbering';

/**
 * Creating and editing series from the app (issue 12): the service decides, the answer is kept as
 * the local copy at once so the counter can use the series without waiting for a pull. Refusals the
 * user can act on come back as field errors ("English|Română", shown at the field).
 */

const DUPLICATE = 'Another series of the firm already has this name: choose another|Numele este folosit deja de altă serie a firmei: alegeți altul';
const START_LOCKED =
  'Numbers were already issued from this series, so its start can no longer change: create a new series to continue from another number' +
  '|Din această serie s-au emis deja numere, deci începutul ei nu se mai poate schimba: creați o serie nouă pentru a continua de la alt număr';

function asFieldError(error: unknown): unknown {
  if (!(error instanceof ApiHttpError)) return error;
  if (error.code === 'duplicate_series') return new AppError('conflict', 'duplicate_series', error.message, { name: DUPLICATE });
  if (error.code === 'in_use') return new AppError('conflict', 'in_use', error.message, { start_number: START_LOCKED });
  return error;
}

function viewOf(deps: NumberingDeps, id: string): SeriesView {
  const row = getSeriesRow(deps.store.reader, id);
  if (!row) throw notFound('Series');
  return seriesView(deps.store.reader, row, deps.device.id);
}

export async function createSeries(deps: NumberingDeps, input: z.output<typeof zSeriesCreateInput>): Promise<SeriesView> {
  const key = deps.ctx.uuid();
  try {
    if (input.kind === 'invoice') {
      const series = await createInvoiceSeries(deps.api, {
        name: input.name, document_type: input.document_type, description: input.description, start_number: input.start_number, is_primary: input.is_primary,
      }, key);
      deps.store.write((db) => applySeries(db, series, deps.device.id, deps.clock.now()));
      return viewOf(deps, series.id);
    }
    const series = await createReceiptSeries(deps.api, { prefix: input.name, description: input.description, start_number: input.start_number }, key);
    deps.store.write((db) => applyReceiptSeries(db, series, deps.device.id, deps.clock.now()));
    return viewOf(deps, series.id);
  } catch (error) {
    throw asFieldError(error);
  }
}

export async function updateSeries(deps: NumberingDeps, input: z.output<typeof zSeriesUpdateInput>): Promise<SeriesView> {
  const cached = getSeriesRow(deps.store.reader, input.id);
  if (!cached) throw notFound('Series');
  // The last number issued is the service's (other counters issue too): read it now, not from the cache.
  if (cached.kind === 'invoice') {
    const fresh = await getSeries(deps.api, cached.id);
    deps.store.write((db) => applySeries(db, fresh, deps.device.id, deps.clock.now()));
  } else {
    const fresh = await getReceiptSeries(deps.api, cached.id);
    deps.store.write((db) => applyReceiptSeries(db, fresh, deps.device.id, deps.clock.now()));
  }
  const row = getSeriesRow(deps.store.reader, input.id)!;
  if (input.start_number !== undefined && row.is_used === 1 && input.start_number < row.next_number) {
    const last = row.next_number - 1;
    throw invalidInput({
      start_number: `Below the last number issued (${last}): the series continues from ${row.next_number}|Mai mic decât ultimul număr emis (${last}): seria continuă de la ${row.next_number}`,
    });
  }
  try {
    if (row.kind === 'invoice') {
      const series = await updateInvoiceSeries(deps.api, row.id, { name: input.name, description: input.description, start_number: input.start_number });
      deps.store.write((db) => applySeries(db, series, deps.device.id, deps.clock.now()));
    } else {
      const series = await updateReceiptSeries(deps.api, row.id, { prefix: input.name, description: input.description, start_number: input.start_number });
      deps.store.write((db) => applyReceiptSeries(db, series, deps.device.id, deps.clock.now()));
    }
  } catch (error) {
    throw asFieldError(error);
  }
  return viewOf(deps, row.id);
}

export async function setPrimarySeries(deps: NumberingDeps, id: string): Promise<SeriesView> {
  const row = getSeriesRow(deps.store.reader, id);
  if (!row) throw notFound('Series');
  if (row.kind === 'receipt') {
    throw invalidInput({ id: 'Receipts use the work point\'s first receipt series|Chitanțele folosesc prima serie de chitanțe a punctului de lucru' });
  }
  const series = await updateInvoiceSeries(deps.api, id, { is_primary: true });
  deps.store.write((db) => {
    applySeries(db, series, deps.device.id, deps.clock.now());
    // One primary per document type: the others' copies follow now rather than at the next pull.
    db.run(sqlClearOtherPrimaries(series.id, series.document_type));
  });
  return viewOf(deps, id);
}

function sqlClearOtherPrimaries(id: string, documentType: string) {
  return sql`UPDATE series SET is_primary = 0 WHERE kind = 'invoice' AND document_type = ${documentType} AND id <> ${id}`;
}
