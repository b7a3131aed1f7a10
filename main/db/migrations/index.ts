import type { Migration } from './types';
import { migration0001 } from './0001_core';
import { migration0002 } from './0002_catalog';
import { migration0003 } from './0003_invoicing';
import { migration0004 } from './0004_purchases';

/** Every migration this build knows, in order. Ids are 1..n with no hole. */
export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004];

export type { Migration };
