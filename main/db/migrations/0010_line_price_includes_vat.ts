import type { Migration } from './types';

/** Whether a line's price includes VAT (a shelf price, docs/shelf-prices.md), as the service keeps it. 0 on every existing line: they were priced net. */
export const migration0010: Migration = {
  id: 10,
  name: 'line_price_includes_vat',
  up: (exec) =>
    exec(`
ALTER TABLE invoice_lines ADD COLUMN price_includes_vat INTEGER NOT NULL DEFAULT 0;
`),
};
