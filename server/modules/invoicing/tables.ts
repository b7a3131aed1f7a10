/** Tables of the invoicing module (Kysely row types). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in as the module grows
export interface InvoicingTables {}
