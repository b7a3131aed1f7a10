import { z } from 'zod';

/**
 * Warnings of a request that succeeded anyway (a sale that took stock below zero). The handler's
 * context holds the list (`ctx.warnings`) and code deep in a transaction is handed it explicitly; the
 * envelope carries it in `meta.warnings`. Not an AsyncLocalStorage: on Node 20 one `enterWith` turns
 * on a hook for every promise of the process from then on, and that hook cost a third of the CPU of a
 * plain GET (issue 17, bench/server.ts).
 */
export interface ApiWarning {
  code: string;
  message: string;
  param?: string;
  [detail: string]: string | number | undefined;
}

export const zApiWarning = z.object({ code: z.string(), message: z.string(), param: z.string().optional() }).passthrough();
