import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import { zipStream, type ZipEntry } from '../../../server/modules/accounting/zip-stream';

/**
 * The streamed entries of our ZIP writer are deflated in 64 KB blocks laid end to end (zlib, sync flush):
 * read back by another library (fflate), every entry must be its bytes again, at block edges too.
 */

async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe('zip-stream', () => {
  it('gives back every streamed entry byte for byte: small chunks, whole blocks, random data, nothing', async () => {
    const text = Buffer.from(Array.from({ length: 6000 }, (_, i) => `<row r="${i}"><c><v>${i * 7}</v></c></row>`).join(''));
    const entries: Record<string, Uint8Array> = {
      'rows.xml': text,
      'exact.bin': Buffer.alloc(128 * 1024, 0x41),
      'random.bin': randomBytes(200_000),
      'empty.txt': new Uint8Array(0),
    };
    async function* all(): AsyncGenerator<ZipEntry> {
      yield { name: 'rows.xml', data: pieces(entries['rows.xml']!, 100) };
      yield { name: 'exact.bin', data: pieces(entries['exact.bin']!, 64 * 1024) };
      yield { name: 'random.bin', data: pieces(entries['random.bin']!, 7_000) };
      yield { name: 'empty.txt', data: pieces(entries['empty.txt']!, 1) };
      yield { name: 'whole.txt', data: Buffer.from('întreg') };
    }
    const chunks: Buffer[] = [];
    for await (const c of zipStream(all())) chunks.push(c as Buffer);
    const zip = Buffer.concat(chunks);
    const back = unzipSync(new Uint8Array(zip));
    expect(Object.keys(back)).toEqual(['rows.xml', 'exact.bin', 'random.bin', 'empty.txt', 'whole.txt']);
    for (const [name, bytes] of Object.entries(entries)) expect(Buffer.from(back[name]!).equals(Buffer.from(bytes)), name).toBe(true);
    expect(Buffer.from(back['whole.txt']!).toString()).toBe('întreg');
  });

  it('compresses chunks of a few bytes as well as whole blocks (they are gathered before deflating)', async () => {
    const text = Buffer.from(Array.from({ length: 6000 }, (_, i) => `<row r="${i}"><c><v>${i * 7}</v></c></row>`).join(''));
    const size = async (chunk: number) => {
      let bytes = 0;
      for await (const c of zipStream((async function* () { yield { name: 'rows.xml', data: pieces(text, chunk) }; })())) bytes += (c as Buffer).length;
      return bytes;
    };
    const [small, whole] = [await size(100), await size(text.length)];
    expect(small).toBeLessThan(text.length / 4);
    // Only the block edges differ (each block starts a fresh window).
    expect(Math.abs(small - whole)).toBeLessThan(whole / 10);
  });
});
