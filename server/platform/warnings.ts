import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod';

/**
 * Warnings of a request that succeeded anyway (a sale that took stock below zero): code deep in a
 * transaction adds them, and the envelope carries them in `meta.warnings`, without every caller
 * between having to pass them up.
 */
export interface ApiWarning {
  code: string;
  message: string;
  param?: string;
  [detail: string]: string | number | undefined;
}

export const zApiWarning = z.object({ code: z.string(), message: z.string(), param: z.string().optional() }).passthrough();

const scope = new AsyncLocalStorage<ApiWarning[]>();

/** Opens the warning list of the current request (called once at the start of every route handler). */
export function openWarnings(): void {
  scope.enterWith([]);
}

export function addWarning(warning: ApiWarning): void {
  scope.getStore()?.push(warning);
}

/** The warnings of the current request; empty outside one. */
export function currentWarnings(): ApiWarning[] {
  return scope.getStore() ?? [];
}
