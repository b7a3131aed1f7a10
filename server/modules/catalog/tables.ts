/** Tables of the catalog module (Kysely row types). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in as the module grows
export interface CatalogTables {}
