import type { Migration } from './types';

/**
 * Discounts and charges on the whole invoice (BG-20/BG-21: JSON of the integers and the VAT each moved,
 * as the service's `allowances_charges_json`) and the references (order, contract, delivery note...,
 * JSON with every kind). Null when none; older rows have none.
 */
export const migration0015: Migration = {
  id: 15,
  name: 'invoice_allowances_references',
  up: (exec) =>
    exec(`
ALTER TABLE invoices ADD COLUMN allowances_charges TEXT;
ALTER TABLE invoices ADD COLUMN references_json TEXT;
`),
};
