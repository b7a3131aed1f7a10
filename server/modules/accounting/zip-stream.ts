import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate } from 'fflate';

/**
 * A ZIP written as its entries come, never whole in memory. Every entry carries the same fixed
 * modification time, so the same entries give the same bytes (the monthly archive is made again
 * byte for byte).
 */

/** 1 January 2000, 00:00 local time: a DOS timestamp needs a date after 1980; any fixed one will do. */
export const FIXED_MTIME = new Date(2000, 0, 1, 0, 0, 0);

export interface ZipEntry {
  name: string;
  /** Whole bytes, or chunks as they are made (a file written to disk, read back in pieces). */
  data: Uint8Array | AsyncIterable<Uint8Array>;
}

/** Waits while the reader is behind; a reader gone (the client hung up) stops the writing. */
async function drained(out: PassThrough): Promise<void> {
  if (out.writableNeedDrain) {
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done);
      out.on('close', done);
    });
  }
  if (out.destroyed) throw new Error('the reader of the ZIP went away');
}

export function zipStream(entries: AsyncIterable<ZipEntry>): Readable {
  const out = new PassThrough();
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      out.destroy(err);
      return;
    }
    out.write(Buffer.from(chunk));
    if (final) out.end();
  });
  void (async () => {
    for await (const entry of entries) {
      const file = new ZipDeflate(entry.name, { level: 6 });
      file.mtime = FIXED_MTIME;
      zip.add(file);
      if (entry.data instanceof Uint8Array) {
        file.push(entry.data, true);
        // Many small entries (one per document) must not pile up ahead of a slow reader either.
        await drained(out);
      } else {
        for await (const chunk of entry.data) {
          file.push(chunk, false);
          // Let the reader drain what was written before making more.
          await drained(out);
        }
        file.push(new Uint8Array(0), true);
      }
    }
    zip.end();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
