import type { Migration } from './types';

/**
 * Unit prices with up to 4 decimals and a base quantity, as the service keeps them (server migration
 * 0270): `price_e4` in ten-thousandths of a leu, `base_quantity_milli` in thousandths. Null on every
 * existing line, which reads as `price_bani` x 100 for 1 unit; `price_bani` keeps the price rounded to the ban.
 */
export const migration0014: Migration = {
  id: 14,
  name: 'line_price_decimals',
  up: (exec) =>
    exec(`
ALTER TABLE invoice_lines ADD COLUMN price_e4 INTEGER;
ALTER TABLE invoice_lines ADD COLUMN base_quantity_milli INTEGER;
`),
};
