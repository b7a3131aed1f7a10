import { mulDivRound } from '../../../shared/money';


export const bool = (v: unknown): boolean => Boolean(Number(v));

/**
 * An exchange rate as an integer of millionths: BNR publishes 4 decimals and divides some rates by a
 * multiplier of 100, so 6 decimals keep every published rate exact and the conversion integer-only.
 */
export function rateMicro(rate: number): number {
  return Math.round(rate * 1_000_000);
}

/** Bani of another currency -> bani of RON at `rate`, rounded half away from zero. */
export function toRonBani(bani: number, rate: number): number {
  return mulDivRound(bani, rateMicro(rate), 1_000_000);
}
