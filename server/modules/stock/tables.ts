import type { Generated } from 'kysely';

export interface StockSettingsTable {
  company_id: string;
  valuation: 'cmp' | 'fifo';
  negative_stock: 'allow' | 'block';
  /** Hundredths of a percent added to the purchase cost for the proposed sale price. */
  markup_bp: number;
  nir_next_number: number;
  nir_prefix: string;
  created_at: number;
  updated_at: number;
}

export interface WarehousesTable {
  id: string;
  company_id: string;
  work_point_id: string;
  name: string;
  is_default: number;
  default_of: string | null;
  created_at: number;
  updated_at: number;
}

export interface StockLevelsTable {
  warehouse_id: string;
  product_id: string;
  company_id: string;
  quantity_milli: number;
  value_bani: number;
  unit_cost_milli: number;
  updated_at: number;
  /** Last FIFO lot number used in this level (0 under CMP). */
  lot_seq: Generated<number>;
}

export type StockDocumentType = 'invoice' | 'storno' | 'nir' | 'count' | 'transfer';

export interface StockMovementsTable {
  id: string;
  company_id: string;
  warehouse_id: string;
  product_id: string;
  quantity_milli: number;
  unit_cost_milli: number;
  value_bani: number;
  document_type: StockDocumentType;
  document_id: string;
  date: string;
  created_at: number;
}

export interface SupplierItemMapTable {
  company_id: string;
  supplier_key: string;
  item_key: string;
  product_id: string;
  updated_at: number;
}

export interface NirsTable {
  id: string;
  company_id: string;
  work_point_id: string;
  warehouse_id: string;
  number: number;
  full_number: string;
  date: string;
  supplier_bill_id: string | null;
  supplier_name: string;
  supplier_cui: string | null;
  document_number: string | null;
  total_cost_bani: number;
  created_at: number;
}

export interface NirLinesTable {
  id: string;
  nir_id: string;
  position: number;
  product_id: string;
  supplier_item: string;
  quantity_invoiced_milli: number;
  quantity_received_milli: number;
  unit_cost_milli: number;
  value_bani: number;
  sale_price_bani: number;
}

export interface StockDocumentsTable {
  id: string;
  company_id: string;
  kind: 'count' | 'transfer';
  warehouse_id: string;
  to_warehouse_id: string | null;
  date: string;
  note: string | null;
  lines_json: string;
  created_at: number;
}

export interface StockLotsTable {
  id: string;
  company_id: string;
  warehouse_id: string;
  product_id: string;
  received_date: string;
  seq: number;
  unit_cost_milli: number;
  quantity_milli: number;
  remaining_milli: number;
  remaining_value_bani: number;
  movement_id: string;
  created_at: number;
}

export interface StockLotUsesTable {
  id: string;
  company_id: string;
  movement_id: string;
  lot_id: string;
  position: number;
  quantity_milli: number;
  value_bani: number;
  returned_milli: number;
  returned_value_bani: number;
}

export interface StockTables {
  stock_settings: StockSettingsTable;
  warehouses: WarehousesTable;
  stock_levels: StockLevelsTable;
  stock_movements: StockMovementsTable;
  supplier_item_map: SupplierItemMapTable;
  nirs: NirsTable;
  nir_lines: NirLinesTable;
  stock_documents: StockDocumentsTable;
  stock_lots: StockLotsTable;
  stock_lot_uses: StockLotUsesTable;
}
