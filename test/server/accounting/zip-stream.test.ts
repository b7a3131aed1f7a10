import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileChunks, zipStream, type ZipEntry } from '../../../server/modules/accounting/zip-stream';

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

  it('copies each chunk before asking for the next: a producer may hand out one buffer again and again (fileChunks)', async () => {
    // Were a chunk kept by reference until its block is full instead of copied, an entry made of small
    // pieces of one reused buffer would hold the last piece's bytes over and over.
    const bytes = randomBytes(3 * 64 * 1024 + 12_345);
    async function* reused(): AsyncGenerator<Uint8Array> {
      const one = Buffer.alloc(1000);
      for (let at = 0; at < bytes.length; at += one.length) {
        const n = bytes.copy(one, 0, at, at + one.length);
        yield one.subarray(0, n);
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'tejghea-zipfile-'));
    try {
      writeFileSync(join(dir, 'a.bin'), bytes);
      const reads = new Set<ArrayBufferLike>();
      async function* watched(): AsyncGenerator<Uint8Array> {
        for await (const c of fileChunks(join(dir, 'a.bin'))) {
          reads.add(c.buffer);
          yield c;
        }
      }
      const chunks: Buffer[] = [];
      for await (const c of zipStream((async function* () {
        yield { name: 'reused.bin', data: reused() };
        yield { name: 'file.bin', data: watched() };
      })())) chunks.push(c as Buffer);
      const back = unzipSync(new Uint8Array(Buffer.concat(chunks)));
      expect(Buffer.from(back['reused.bin']!).equals(bytes)).toBe(true);
      expect(Buffer.from(back['file.bin']!).equals(bytes)).toBe(true);
      // The file was read into one buffer, not a fresh one per read.
      expect(reads.size).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
