import type { Kysely } from 'kysely';

// Stock (issue 15): warehouses, one ledger of movements, the levels kept beside it, receptions (NIR),
// counts and transfers. Quantities are thousandths of the product's unit (as invoice lines'
// quantity_milli); unit costs are thousandths of a ban, values are bani.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stock_settings')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('valuation', 'text', (c) => c.notNull().defaultTo('cmp'))
    .addColumn('negative_stock', 'text', (c) => c.notNull().defaultTo('allow'))
    .addColumn('markup_bp', 'integer', (c) => c.notNull().defaultTo(3000))
    .addColumn('nir_next_number', 'bigint', (c) => c.notNull().defaultTo(1))
    .addColumn('nir_prefix', 'text', (c) => c.notNull().defaultTo('NIR'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('warehouses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text', (c) => c.notNull().references('work_points.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    /** Non-null only on the default warehouse: a unique index then allows one per work point on both dialects. */
    .addColumn('default_of', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('warehouses_company_wp_name', ['company_id', 'work_point_id', 'name'])
    .execute();

  await db.schema
    .createTable('stock_levels')
    .addColumn('warehouse_id', 'text', (c) => c.notNull().references('warehouses.id'))
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('quantity_milli', 'bigint', (c) => c.notNull())
    .addColumn('value_bani', 'bigint', (c) => c.notNull())
    /** The weighted average cost (CMP) per unit, thousandths of a ban; kept when the quantity reaches zero. */
    .addColumn('unit_cost_milli', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stock_levels_pk', ['warehouse_id', 'product_id'])
    .execute();
  await db.schema.createIndex('stock_levels_company_product').on('stock_levels').columns(['company_id', 'product_id']).execute();

  await db.schema
    .createTable('stock_movements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('warehouse_id', 'text', (c) => c.notNull().references('warehouses.id'))
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    /** Signed: in positive, out negative. */
    .addColumn('quantity_milli', 'bigint', (c) => c.notNull())
    .addColumn('unit_cost_milli', 'bigint', (c) => c.notNull())
    /** Signed value that moved, bani: the level's value is exactly the sum of these. */
    .addColumn('value_bani', 'bigint', (c) => c.notNull())
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_movements_product').on('stock_movements').columns(['company_id', 'product_id', 'date']).execute();
  await db.schema.createIndex('stock_movements_document').on('stock_movements').columns(['document_id']).execute();
  await db.schema.createIndex('stock_movements_company_date').on('stock_movements').columns(['company_id', 'date']).execute();

  await db.schema
    .createTable('supplier_item_map')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('supplier_key', 'text', (c) => c.notNull())
    .addColumn('item_key', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('supplier_item_map_pk', ['company_id', 'supplier_key', 'item_key'])
    .execute();

  await db.schema
    .createTable('nirs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text', (c) => c.notNull().references('work_points.id'))
    .addColumn('warehouse_id', 'text', (c) => c.notNull().references('warehouses.id'))
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('full_number', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('supplier_bill_id', 'text')
    .addColumn('supplier_name', 'text', (c) => c.notNull())
    .addColumn('supplier_cui', 'text')
    .addColumn('document_number', 'text')
    .addColumn('total_cost_bani', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('nirs_company_number', ['company_id', 'number'])
    // One reception per supplier bill; NULLs (typed-in NIRs) never collide.
    .addUniqueConstraint('nirs_company_bill', ['company_id', 'supplier_bill_id'])
    .execute();

  await db.schema
    .createTable('nir_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('nir_id', 'text', (c) => c.notNull().references('nirs.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('supplier_item', 'text', (c) => c.notNull())
    .addColumn('quantity_invoiced_milli', 'bigint', (c) => c.notNull())
    .addColumn('quantity_received_milli', 'bigint', (c) => c.notNull())
    .addColumn('unit_cost_milli', 'bigint', (c) => c.notNull())
    .addColumn('value_bani', 'bigint', (c) => c.notNull())
    .addColumn('sale_price_bani', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('nir_lines_nir').on('nir_lines').columns(['nir_id', 'position']).execute();

  // Counts and transfers: the header only; what they moved is in the ledger under their id.
  await db.schema
    .createTable('stock_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('warehouse_id', 'text', (c) => c.notNull().references('warehouses.id'))
    .addColumn('to_warehouse_id', 'text', (c) => c.references('warehouses.id'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('lines_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_documents_company').on('stock_documents').columns(['company_id', 'kind', 'created_at']).execute();
}
