import { z } from 'zod';
import { zDate, zId, zQuantity } from './common';

/** Unit costs travel in lei with up to 5 decimals: thousandths of a ban, exact. */
export const zUnitCost = z
  .number()
  .finite()
  .min(0, 'Must not be negative|Nu poate fi negativ')
  .max(1e9)
  .refine((n) => Math.abs(Math.round(n * 100_000) - n * 100_000) < 1e-6, 'At most 5 decimals|Cel mult 5 zecimale');
export const unitCostToMilli = (lei: number): number => Math.round(lei * 100_000);
export const unitCostFromMilli = (milli: number): number => milli / 100_000;

export const zStockSettings = z.object({
  object: z.literal('stock_settings'),
  valuation: z.enum(['cmp', 'fifo']),
  negative_stock: z.enum(['allow', 'block']),
  markup_percent: z.number(),
  nir_prefix: z.string(),
});
export const zStockSettingsUpdate = z.object({
  valuation: z.enum(['cmp', 'fifo']).optional(),
  negative_stock: z.enum(['allow', 'block']).optional(),
  markup_percent: z.number().min(0).max(1000).refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'At most 2 decimals|Cel mult 2 zecimale').optional(),
  nir_prefix: z.string().trim().min(1).max(10).optional(),
}).strict();

export const zWarehouse = z.object({
  id: zId,
  object: z.literal('warehouse'),
  work_point_id: z.string(),
  name: z.string(),
  is_default: z.boolean(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Warehouse = z.infer<typeof zWarehouse>;
export const zWarehouseCreate = z.object({ name: z.string().trim().min(1).max(100) }).strict();

export const zStockLevel = z.object({
  object: z.literal('stock_level'),
  warehouse_id: z.string(),
  product_id: z.string(),
  product_name: z.string(),
  product_code: z.string().nullable(),
  unit: z.string(),
  quantity: z.number(),
  unit_cost: z.number(),
  value: z.number(),
  updated_at: z.number().int(),
});

export const STOCK_DOCUMENT_TYPES = ['invoice', 'storno', 'nir', 'count', 'transfer'] as const;
export const zStockMovement = z.object({
  id: zId,
  object: z.literal('stock_movement'),
  warehouse_id: z.string(),
  product_id: z.string(),
  quantity: z.number(),
  unit_cost: z.number(),
  value: z.number(),
  document_type: z.enum(STOCK_DOCUMENT_TYPES),
  document_id: z.string(),
  date: z.string(),
  created_at: z.number().int(),
});

export const zStockValue = z.object({
  object: z.literal('stock_value'),
  date: z.string(),
  value: z.number(),
  warehouses: z.array(z.object({ warehouse_id: z.string(), value: z.number() })),
});

const zNonNegativeQuantity = zQuantity.refine((q) => q >= 0, 'Must not be negative|Nu poate fi negativă');
const zPositiveQuantity = zQuantity.refine((q) => q > 0, 'Must be greater than zero|Trebuie să fie mai mare decât zero');

/** A NIR line: typed in (supplier_item, quantity_invoiced, unit_cost), or naming a line of the bill (line_id). */
export const zNirLineInput = z.object({
  line_id: z.string().max(64).optional(),
  supplier_item: z.string().trim().min(1).max(300).optional(),
  supplier_code: z.string().trim().min(1).max(100).optional(),
  product_id: zId.optional(),
  quantity_invoiced: zNonNegativeQuantity.optional(),
  /** Default: the invoiced quantity. */
  quantity_received: zNonNegativeQuantity.optional(),
  unit_cost: zUnitCost.optional(),
}).strict();

export const zNirCreate = z.object({
  supplier_bill_id: zId.optional(),
  supplier: z.object({ name: z.string().trim().min(1).max(200), cui: z.string().trim().max(20).optional() }).strict().optional(),
  document_number: z.string().trim().min(1).max(50).optional(),
  warehouse_id: zId.optional(),
  date: zDate.optional(),
  lines: z.array(zNirLineInput).max(500).default([]),
}).strict();

export const zNirLine = z.object({
  object: z.literal('nir_line'),
  position: z.number().int(),
  product_id: z.string(),
  supplier_item: z.string(),
  quantity_invoiced: z.number(),
  quantity_received: z.number(),
  difference: z.number(),
  unit_cost: z.number(),
  value: z.number(),
  proposed_sale_price: z.number(),
});

export const zNir = z.object({
  id: zId,
  object: z.literal('nir'),
  work_point_id: z.string(),
  warehouse_id: z.string(),
  number: z.number().int(),
  full_number: z.string(),
  date: z.string(),
  supplier_bill_id: z.string().nullable(),
  supplier_name: z.string(),
  supplier_cui: z.string().nullable(),
  document_number: z.string().nullable(),
  total_cost: z.number(),
  created_at: z.number().int(),
  lines: z.array(zNirLine).optional(),
});

export const zStockLineInput = z.object({ product_id: zId, quantity: zNonNegativeQuantity }).strict();

export const zStockCountCreate = z.object({
  warehouse_id: zId.optional(),
  date: zDate.optional(),
  note: z.string().max(500).optional(),
  lines: z.array(zStockLineInput).min(1).max(5000),
}).strict();

export const zStockTransferCreate = z.object({
  from_warehouse_id: zId,
  to_warehouse_id: zId,
  date: zDate.optional(),
  note: z.string().max(500).optional(),
  lines: z.array(z.object({ product_id: zId, quantity: zPositiveQuantity }).strict()).min(1).max(5000),
}).strict();

export const zStockDocument = z.object({
  id: zId,
  object: z.enum(['stock_count', 'stock_transfer']),
  warehouse_id: z.string(),
  to_warehouse_id: z.string().nullable(),
  date: z.string(),
  note: z.string().nullable(),
  lines: z.array(z.object({
    product_id: z.string(),
    quantity: z.number(),
    expected: z.number().optional(),
    difference: z.number().optional(),
  })),
  created_at: z.number().int(),
});
