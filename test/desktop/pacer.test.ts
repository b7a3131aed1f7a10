import { describe, expect, it } from 'vitest';
import { RatePacer } from '../../main/api/pacer';
import { virtualClock } from './support/clocks';

const headers = (remaining: number, resetSeconds: number, limit = 1000) =>
  new Headers({ 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetSeconds) });

/** A request through the pacer that gets a reply with these counters. */
async function send(pacer: RatePacer, h: Headers, create = false, priority: 'bulk' | 'interactive' = 'bulk'): Promise<void> {
  const ticket = await pacer.acquire(create, priority);
  ticket.observe(h);
}

describe('rate pacer', () => {
  it('spends exactly what the server says is left, then waits for its reset', async () => {
    const clock = virtualClock();
    const pacer = new RatePacer({ clock, requestsPerHour: 10, interactiveReserve: 0 });
    const reset = Math.floor(clock.now() / 1000) + 600;
    await send(pacer, headers(3, reset, 10));
    for (let i = 0; i < 3; i++) await send(pacer, headers(2 - i, reset, 10));
    expect(clock.slept).toEqual([]);
    const before = clock.now();
    await pacer.acquire(false);
    // Waited until the server's window closed (plus the skew margin), not a moment less.
    expect(clock.now()).toBeGreaterThanOrEqual(reset * 1000 + 1000);
    expect(clock.now() - before).toBeLessThanOrEqual(reset * 1000 + 1000 - before + 1);
  });

  it('keeps a reserve of the hourly budget for interactive calls while bulk traffic drains', async () => {
    const clock = virtualClock();
    const pacer = new RatePacer({ clock, requestsPerHour: 100, interactiveReserve: 5 });
    const reset = Math.floor(clock.now() / 1000) + 3600;
    await send(pacer, headers(5, reset, 100));
    // Bulk must wait (5 left = the reserve); the user's own call goes at once.
    await send(pacer, headers(4, reset, 100), false, 'interactive');
    expect(clock.slept).toEqual([]);
    await pacer.acquire(false, 'bulk');
    expect(clock.slept.length).toBeGreaterThan(0);
    expect(clock.now()).toBeGreaterThanOrEqual(reset * 1000);
  });

  it('never lets more than createsPerMinute creates into one server minute, counting from their replies', async () => {
    const clock = virtualClock();
    const pacer = new RatePacer({ clock, createsPerMinute: 3, createMarginSeconds: 1 });
    const sent: number[] = [];
    for (let i = 0; i < 7; i++) {
      const ticket = await pacer.acquire(true);
      sent.push(clock.now());
      clock.advance(100); // latency: the reply comes 100 ms later
      ticket.observe(headers(900 - i, Math.floor(clock.now() / 1000) + 3600));
    }
    // The 4th create leaves a minute (+ margin) after the 1st one's REPLY, not its sending.
    for (let i = 3; i < sent.length; i++) expect(sent[i]! - sent[i - 3]!).toBeGreaterThanOrEqual(61_100);
    // Plain reads are not held back by the creates budget.
    const t = clock.now();
    await pacer.acquire(false);
    expect(clock.now()).toBe(t);
  });

  it('a create still in flight always counts: slow replies cannot let a burst through', async () => {
    const clock = virtualClock();
    const pacer = new RatePacer({ clock, createsPerMinute: 2 });
    // A first reply tells the hourly window (before it, requests go one at a time).
    await send(pacer, headers(999, Math.floor(clock.now() / 1000) + 3600));
    const first = await pacer.acquire(true);
    const second = await pacer.acquire(true);
    let thirdAt: number | null = null;
    const waiting = pacer.acquire(true).then(() => {
      thirdAt = clock.now();
    });
    // Two minutes pass with both replies outstanding: the third must still wait.
    clock.advance(120_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(thirdAt).toBeNull();
    const replyAt = clock.now();
    first.observe(headers(998, Math.floor(replyAt / 1000) + 3600));
    second.abandon();
    await waiting;
    expect(thirdAt).not.toBeNull();
    expect(thirdAt!).toBeGreaterThanOrEqual(replyAt + 61_000);
  });

  it('pauses everything after a 429 for the time the server asked', async () => {
    const clock = virtualClock();
    const pacer = new RatePacer({ clock });
    pacer.pauseFor(7000);
    const t = clock.now();
    await pacer.acquire(false);
    expect(clock.now() - t).toBe(7000);
  });

  it('a new window in the headers refills the bucket at once', async () => {
    const clock = virtualClock();
    const pacer = new RatePacer({ clock, interactiveReserve: 0 });
    const reset = Math.floor(clock.now() / 1000) + 10;
    await send(pacer, headers(1, reset));
    await send(pacer, headers(999, reset + 3600));
    await pacer.acquire(false);
    expect(clock.slept.every((ms) => ms <= 5)).toBe(true);
    expect(pacer.snapshot().remaining).toBe(998);
  });
});
