import type { Cell, GridRow } from './file-reader';

/** target → 0-based column (null or absent: not imported). */
export type Mapping = Record<string, number | null>;

/** A problem of a row; `message` is `English|Română`, picked in the caller's language on the way out. */
export interface RowProblem {
  field: string | null;
  column: string | null;
  message: string;
}

export const problem = (field: string | null, column: string | null, message: string): RowProblem => ({ field, column, message });

/** A data row, read: the record it makes (null when it has problems) and the existing one it matches. */
export interface EvaluatedRow<C, R> {
  row: number;
  problems: RowProblem[];
  candidate: C | null;
  match: R | null;
}

export function cellOf(row: GridRow, mapping: Mapping, target: string): Cell {
  const index = mapping[target];
  if (index === undefined || index === null) return null;
  return row.cells[index] ?? null;
}
