import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import { getSetting, setSetting } from '../db/queries/settings';
import type { Store } from '../db/store';
import type { Device } from '../local/context';

const zDeviceSetting = z.object({ id: z.string().min(1).max(64), name: z.string().min(1).max(100), platform: z.string().min(1).max(40) });

/**
 * This installation's identity: made once, kept in the database. The id is what the server records
 * on reservations and locks, so it must never change (a new id would orphan this device's pool).
 */
export function loadDevice(store: Store, defaults: { name?: string; platform?: string } = {}): Device {
  const existing = getSetting(store.reader, 'device', zDeviceSetting);
  if (existing) return existing;
  const device: Device = {
    id: randomUUID(),
    name: (defaults.name ?? hostname()).slice(0, 100) || 'Tejghea',
    platform: (defaults.platform ?? process.platform).slice(0, 40),
  };
  return store.write((db) => {
    // Another process may have written it first (two windows starting together): keep theirs.
    const again = getSetting(db, 'device', zDeviceSetting);
    if (again) return again;
    setSetting(db, 'device', device);
    return device;
  });
}

export function renameDevice(store: Store, device: Device, name: string): Device {
  const renamed = { ...device, name };
  store.write((db) => setSetting(db, 'device', renamed));
  return renamed;
}
