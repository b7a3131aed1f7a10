import { randomUUID } from 'node:crypto';
import type { ChannelOutput, ChannelParsedInput } from '../../../shared/ipc/contract';
import { IMPORT_MAX_FILE_BYTES, zImport } from '../../../shared/schemas/import';
import { AppError } from '../../errors';
import { toAppError, type SyncEngine } from '../../sync/engine';

/**
 * The catalogue and clients import, on the desktop's side: the service does the reading, checking and
 * writing (one transaction); this sends the file, relays the previews, and after the commit pulls the
 * imported records with the ordinary sync pull, so they are in the local cache at once.
 */

async function online<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toAppError(error);
  }
}

export async function uploadImport(engine: SyncEngine, input: ChannelParsedInput<'imports.upload'>): Promise<ChannelOutput<'imports.upload'>> {
  // The size is known from the base64 length: a file over the limit never leaves the device.
  const bytes = Math.floor((input.content_base64.length * 3) / 4);
  if (bytes > IMPORT_MAX_FILE_BYTES + 2) {
    throw new AppError('validation_error', 'import_file_too_large', 'The file is larger than 20 MB', {
      content_base64: 'The file is larger than 20 MB|Fișierul are mai mult de 20 MB',
    });
  }
  return online(() =>
    engine.api.request({
      method: 'POST',
      path: `/${input.kind}/imports`,
      body: { content: input.content_base64, file_name: input.file_name },
      create: true,
      idempotencyKey: randomUUID(),
      schema: zImport,
      priority: 'interactive',
    }),
  );
}

export function previewImport(engine: SyncEngine, input: ChannelParsedInput<'imports.preview'>): Promise<ChannelOutput<'imports.preview'>> {
  return online(() =>
    engine.api.request({
      method: 'POST',
      path: `/${input.kind}/imports/${encodeURIComponent(input.id)}/preview`,
      body: { mapping: input.mapping, ...(input.defaults ? { defaults: input.defaults } : {}) },
      schema: zImport,
      priority: 'interactive',
    }),
  );
}

export async function commitImport(engine: SyncEngine, input: ChannelParsedInput<'imports.commit'>): Promise<ChannelOutput<'imports.commit'>> {
  const result = await online(() =>
    engine.api.request({
      method: 'POST',
      path: `/${input.kind}/imports/${encodeURIComponent(input.id)}/commit`,
      body: { mapping: input.mapping, existing: input.existing, ...(input.defaults ? { defaults: input.defaults } : {}) },
      create: true,
      // One key per commit attempt: the client's own retries of this request reuse it, so a reply lost
      // on the way back is answered from the first commit instead of importing again.
      idempotencyKey: randomUUID(),
      schema: zImport,
      priority: 'interactive',
    }),
  );
  // Imported: the records reach the local cache now. Should the pull fail (the network went), the
  // next sync pass brings them; the import itself is done either way.
  const pulled = await engine.pullNow([input.kind]).catch(() => 0);
  return { import: result, pulled };
}
