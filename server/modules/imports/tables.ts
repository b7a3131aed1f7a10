/**
 * Tables of the imports module. An upload is kept between its preview and its commit as the grid of
 * cells read from it (JSON), not as the file: preview and commit then never parse the file again,
 * and a committed import keeps only its hash, counts and mapping (the grid is dropped).
 */
export interface ImportsTable {
  id: string;
  company_id: string;
  kind: 'products' | 'clients';
  status: 'pending' | 'committed';
  file_name: string | null;
  format: 'csv' | 'xlsx';
  encoding: string | null;
  delimiter: string | null;
  sheet: string | null;
  file_size: number;
  /** Hex SHA-256 of the file's bytes: the same file imported again is recognised by it. */
  file_sha256: string;
  header_row: number;
  /** JSON: the headers and first values of each column. */
  columns_json: string;
  /** JSON: the data rows (`{ row, cells }[]`); null once committed. */
  grid_json: string | null;
  /** JSON: target → column, as last previewed (the proposed one at first). */
  mapping_json: string;
  defaults_json: string;
  /** JSON: `{ created, updated, unchanged, skipped }` once committed. */
  result_json: string | null;
  created_at: number;
  committed_at: number | null;
}

export interface ImportsTables {
  imports: ImportsTable;
}
