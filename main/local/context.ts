import { randomUUID } from 'node:crypto';
import { todayInBucharest } from '../../shared/dates';
import type { Store } from '../db/store';

export interface Device {
  id: string;
  name: string;
  platform: string;
}

/** Time as the app sees it; tests and benchmarks pass their own. */
export interface Clock {
  /** Unix seconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };

/** What every local operation needs: the database, this device, time and fresh ids. */
export interface LocalContext {
  store: Store;
  device: Device;
  clock: Clock;
  uuid(): string;
  /** Today's date in Bucharest at the context's clock. */
  today(): string;
}

export function createLocalContext(store: Store, device: Device, clock: Clock = systemClock, uuid: () => string = randomUUID): LocalContext {
  return {
    store,
    device,
    clock,
    uuid,
    today: () => todayInBucharest(new Date(clock.now() * 1000)),
  };
}
