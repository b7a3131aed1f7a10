import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes from the CSPRNG, drawn a few kilobytes at a time: an issued invoice needs an id for
 * itself and each line, and one call into the generator per id cost more than the id. Every byte
 * is used once.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** Random base62 text. Rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** Opaque, random, typed identifiers (`inv_…`, `cli_…`): never sequential, so they leak no volume. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}
