import type { Migration } from './types';

/** An invoice's delivery (or service) date when it is not the issue date, as the service keeps it. Null on every existing row. */
export const migration0009: Migration = {
  id: 9,
  name: 'invoice_delivery_date',
  up: (exec) =>
    exec(`
ALTER TABLE invoices ADD COLUMN delivery_date TEXT;
`),
};
