import type { Migration } from './types';

/**
 * Why a 0% line carries no VAT, as the server stores it (shared/schemas/invoice.ts
 * LINE_VAT_CATEGORIES: E exempt, Z zero-rated, K intra-community supply, G export). Nullable and
 * read as E on a 0% line, so every line written before it stays what it was. The list is spelled
 * out rather than taken from the constant: a shipped migration must not change when the constant does.
 */
export const migration0007: Migration = {
  id: 7,
  name: 'line_vat_category',
  up: (exec) =>
    exec(`
ALTER TABLE invoice_lines ADD COLUMN vat_category TEXT CHECK (vat_category IN ('E', 'Z', 'K', 'G'));
`),
};
