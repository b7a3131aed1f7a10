import { sql, type Kysely } from 'kysely';

// FIFO valuation (issue 15): each entry of goods is a lot with its unit cost; an exit takes the oldest
// lots first and records which lots it took, so a storno puts back exactly what went out and a transfer
// carries the lots with their costs. Under CMP (the default) these tables stay empty.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The order of lots made in one level: the level row is locked whenever its lots change, so a counter
  // in it orders entries made in the same millisecond without another query.
  await db.schema.alterTable('stock_levels').addColumn('lot_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('stock_lots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('warehouse_id', 'text', (c) => c.notNull().references('warehouses.id'))
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    /** The date the goods entered the firm (a transfer keeps the source lot's): FIFO's "oldest". */
    .addColumn('received_date', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('unit_cost_milli', 'bigint', (c) => c.notNull())
    .addColumn('quantity_milli', 'bigint', (c) => c.notNull())
    /** What is left of the lot; negative only on the lot that records a sale below zero. */
    .addColumn('remaining_milli', 'bigint', (c) => c.notNull())
    /** Value of what is left, bani: an exit takes from it, so the lots' values sum to the level's value exactly. */
    .addColumn('remaining_value_bani', 'bigint', (c) => c.notNull())
    .addColumn('movement_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The open lots of a level in FIFO order; empty lots drop out of the index, so it stays as small as the shelf.
  await sql`create index stock_lots_open on stock_lots (warehouse_id, product_id, received_date, seq) where remaining_milli <> 0`.execute(db);

  await db.schema
    .createTable('stock_lot_uses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('movement_id', 'text', (c) => c.notNull())
    .addColumn('lot_id', 'text', (c) => c.notNull().references('stock_lots.id'))
    /** Order of the take within its movement: a storno puts back in the reverse order. */
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('quantity_milli', 'bigint', (c) => c.notNull())
    .addColumn('value_bani', 'bigint', (c) => c.notNull())
    /** How much of this take a storno already put back, so a take is never restored twice. */
    .addColumn('returned_milli', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('returned_value_bani', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('stock_lot_uses_movement').on('stock_lot_uses').columns(['movement_id', 'position']).execute();
}
