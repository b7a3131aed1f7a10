import type { Migration } from './types';

/**
 * Issued means frozen: the seller (company profile) copied into an invoice when it is issued, JSON of
 * zSellerSnapshot. Null on drafts and on invoices issued before it was kept (they print the current profile).
 */
export const migration0011: Migration = {
  id: 11,
  name: 'invoice_seller_snapshot',
  up: (exec) =>
    exec(`
ALTER TABLE invoices ADD COLUMN seller TEXT;
`),
};
