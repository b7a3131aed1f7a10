import type { Migration } from './types';

/**
 * Whether a line sells a service, as the service keeps it (server migration 0280): taken from the
 * product when the line is written, then kept, so a K or G line prints and writes the same legal
 * ground after the product is edited. Every existing line reads as goods, which is what it printed.
 */
export const migration0016: Migration = {
  id: 16,
  name: 'line_is_service',
  up: (exec) =>
    exec(`
ALTER TABLE invoice_lines ADD COLUMN is_service INTEGER NOT NULL DEFAULT 0;
`),
};
