import { z } from 'zod';
import { zDate, zQuantity } from '../schemas/common';
import { STOCK_DOCUMENT_TYPES, zNir, zUnitCost } from '../schemas/stock';
import type { ChannelSpec } from './contract';

/**
 * The "Stoc" and "Recepție (NIR)" screens' channels (issue 15), spread into the contract map
 * (shared/ipc/contract.ts). Levels are read from the device's cache (offline too); a product's
 * movements and a NIR need the service (ONLINE). Product ids are the device's local ids; main swaps
 * them for the service's.
 */

const zLocalId = z.string().min(1).max(64);

export const zStockLevelRow = z.object({
  /** The local product, or null when the service moved a product this device has not pulled yet. */
  product_id: zLocalId.nullable(),
  product_name: z.string(),
  product_code: z.string().nullable(),
  unit: z.string(),
  warehouse_id: z.string(),
  warehouse_name: z.string(),
  /** On hand as the counter sees it: the service's level less this device's sales not counted there yet. */
  quantity: z.number(),
  /** This device's sales not yet counted by the service (in the default warehouse's row). */
  unsynced: z.number(),
  unit_cost: z.number(),
  value_bani: z.number().int(),
});
export type StockLevelRow = z.infer<typeof zStockLevelRow>;

export const zStockMovementRow = z.object({
  id: z.string(),
  date: z.string(),
  document_type: z.enum(STOCK_DOCUMENT_TYPES),
  /** The document's number when this device holds it (an invoice), else null. */
  document_label: z.string().nullable(),
  warehouse_name: z.string(),
  quantity: z.number(),
  unit_cost: z.number(),
  value: z.number(),
});

const zNonNegative = zQuantity.refine((q) => q >= 0, 'Must not be negative|Nu poate fi negativă');

export const zNirInput = z.object({
  /** One per form: a second press (or a resend after a lost reply) makes no second NIR. */
  request_id: z.string().uuid(),
  supplier_name: z.string().trim().min(1, 'Required|Obligatoriu').max(200),
  supplier_cui: z.string().trim().max(20).optional(),
  document_number: z.string().trim().min(1, 'Required|Obligatoriu').max(50),
  date: zDate.optional(),
  lines: z.array(z.object({
    product_id: zLocalId,
    quantity_invoiced: zNonNegative,
    /** Default: the invoiced quantity. */
    quantity_received: zNonNegative.optional(),
    unit_cost: zUnitCost,
  })).min(1, 'At least one line|Cel puțin o linie').max(500),
});

/** The NIR as the service recorded it, with what the printed form needs of each product. */
export const zNirView = z.object({
  nir: zNir,
  warehouse_name: z.string(),
  lines: z.array(z.object({ name: z.string(), unit: z.string(), vat_rate: z.number(), price_bani: z.number().int(), price_includes_vat: z.boolean() })),
});
export type NirView = z.infer<typeof zNirView>;

/** A warehouse (gestiune) of the work point, from the device's cache. */
export const zWarehouseRow = z.object({ id: z.string(), name: z.string(), is_default: z.boolean() });
export type WarehouseRow = z.infer<typeof zWarehouseRow>;

/** A product found by the count's scan box, with the book level of the chosen warehouse. */
export const zStockScanResult = z.object({
  product_id: zLocalId,
  name: z.string(),
  code: z.string().nullable(),
  barcode: z.string().nullable(),
  unit: z.string(),
  /** Book quantity in that warehouse (the cache, less this device's unsynced sales in the default one); null: never moved there. */
  book_quantity: z.number().nullable(),
});
export type StockScanResult = z.infer<typeof zStockScanResult>;

const zPositive = zQuantity.refine((q) => q > 0, 'Must be greater than zero|Trebuie să fie mai mare decât zero');

export const zStockCountInput = z.object({
  request_id: z.string().uuid(),
  warehouse_id: z.string().min(1).max(64),
  note: z.string().trim().max(500).optional(),
  lines: z.array(z.object({ product_id: zLocalId, quantity: zNonNegative })).min(1, 'At least one line|Cel puțin o linie').max(5000),
});

export const zStockTransferInput = z
  .object({
    request_id: z.string().uuid(),
    from_warehouse_id: z.string().min(1).max(64),
    to_warehouse_id: z.string().min(1).max(64),
    note: z.string().trim().max(500).optional(),
    lines: z.array(z.object({ product_id: zLocalId, quantity: zPositive })).min(1, 'At least one line|Cel puțin o linie').max(5000),
  })
  .refine((t) => t.from_warehouse_id !== t.to_warehouse_id, {
    path: ['to_warehouse_id'],
    message: 'The destination must differ from the source warehouse|Gestiunea de destinație trebuie să difere de cea de proveniență',
  });

/** A booked count or transfer, its lines named for the screen. */
export const zStockDocumentView = z.object({
  id: z.string(),
  kind: z.enum(['count', 'transfer']),
  date: z.string(),
  warehouse_name: z.string(),
  to_warehouse_name: z.string().nullable(),
  lines: z.array(z.object({
    name: z.string(),
    unit: z.string(),
    quantity: z.number(),
    expected: z.number().nullable(),
    difference: z.number().nullable(),
  })),
});
export type StockDocumentView = z.infer<typeof zStockDocumentView>;

export const zNirSummary = z.object({
  id: z.string(),
  full_number: z.string(),
  date: z.string(),
  supplier_name: z.string(),
  document_number: z.string().nullable(),
  total_cost: z.number(),
  from_bill: z.boolean(),
});
export type NirSummary = z.infer<typeof zNirSummary>;

/** A supplier bill's lines as the service holds them, for its reception. */
export const zBillForNir = z.object({
  bill_id: z.string(),
  invoice_number: z.string(),
  supplier_name: z.string(),
  issue_date: z.string().nullable(),
  /** The NIR already made from this bill, if any. */
  nir_number: z.string().nullable(),
  lines: z.array(z.object({
    line_id: z.string(),
    name: z.string(),
    quantity: z.number(),
    unit_code: z.string().nullable(),
    net: z.number(),
  })),
});
export type BillForNir = z.infer<typeof zBillForNir>;

export const zNirFromBillInput = z.object({
  /** One per dialog; each different body gets its own key derived from it (a retry after choosing products is a new request). */
  request_id: z.string().uuid(),
  bill_id: z.string().min(1).max(64),
  lines: z.array(z.object({
    line_id: z.string().min(1).max(64),
    /** Chosen on this device for a line the service could not map; remembered by the service afterwards. */
    product_id: zLocalId.optional(),
    quantity_received: zNonNegative.optional(),
  })).max(500),
});

/** The counter's cart lines against the cached stock, and the firm's rule for selling below zero. */
export const zCartStock = z.object({
  /** null: not known yet (never read from the service); the service's default is `allow`. */
  negative_stock: z.enum(['allow', 'block']).nullable(),
  levels: z.array(z.object({ product_id: zLocalId, quantity: z.number().nullable() })),
});
export type CartStock = z.infer<typeof zCartStock>;

const spec = <I extends z.ZodType, O extends z.ZodType>(s: ChannelSpec<I, O>) => s;

export const stockContract = {
  /** Levels per product and warehouse from the cache, with this device's unsynced sales taken off. */
  'stock.levels': spec({
    input: z.object({
      search: z.string().max(200).optional(),
      limit: z.number().int().min(1).max(500).default(50),
      offset: z.number().int().min(0).default(0),
    }),
    output: z.object({ items: z.array(zStockLevelRow), total: z.number().int() }),
  }),
  /** ONLINE. Which document moved what, newest first. */
  'stock.movements': spec({
    input: z.object({ product_id: zLocalId, page: z.number().int().min(1).default(1) }),
    output: z.object({ items: z.array(zStockMovementRow), has_more: z.boolean() }),
    online: true,
  }),
  /** ONLINE. Goods received (NIR) posted to the service; the levels are pulled again at once. */
  'stock.createNir': spec({ input: zNirInput, output: zNirView, mutates: ['products'], online: true }),
  /** The work point's warehouses from the cache (offline too). */
  'stock.warehouses': spec({ input: z.object({}).strict().optional(), output: z.array(zWarehouseRow) }),
  /** A scanned barcode or typed code: the product and its book quantity in the warehouse; null when no product has it. */
  'stock.scan': spec({
    input: z.object({ warehouse_id: z.string().min(1).max(64), code: z.string().trim().min(1).max(100) }),
    output: zStockScanResult.nullable(),
  }),
  /** Book levels of some products in one warehouse (after a change of warehouse). */
  'stock.bookLevels': spec({
    input: z.object({ warehouse_id: z.string().min(1).max(64), product_ids: z.array(zLocalId).max(5000) }),
    output: z.array(z.object({ product_id: zLocalId, book_quantity: z.number().nullable() })),
  }),
  /** ONLINE. An inventory count booked on the service (differences as movements); the levels are pulled again. */
  'stock.createCount': spec({ input: zStockCountInput, output: zStockDocumentView, mutates: ['products'], online: true }),
  /** ONLINE. Goods moved between two warehouses; the levels are pulled again. */
  'stock.createTransfer': spec({ input: zStockTransferInput, output: zStockDocumentView, mutates: ['products'], online: true }),
  /** ONLINE. The work point's NIRs, newest first. */
  'stock.nirs': spec({
    input: z.object({ page: z.number().int().min(1).default(1), search: z.string().trim().max(100).optional() }),
    output: z.object({ items: z.array(zNirSummary), has_more: z.boolean() }),
    online: true,
  }),
  /** ONLINE. One NIR with what its printed form needs. */
  'stock.nir': spec({ input: z.object({ id: z.string().min(1).max(64) }), output: zNirView, online: true }),
  /** ONLINE. A supplier bill's lines, for its reception. */
  'stock.billForNir': spec({ input: z.object({ bill_id: z.string().min(1).max(64) }), output: zBillForNir, online: true }),
  /** ONLINE. A NIR made on the service from a supplier bill; lines it cannot map answer 422 per line (`lines.N.product_id`, N the bill's line index). */
  'stock.nirFromBill': spec({ input: zNirFromBillInput, output: zNirView, mutates: ['products', 'purchases'], online: true }),
  /** The cached stock of the cart's products and the firm's rule for selling below zero. */
  'stock.cartStock': spec({ input: z.object({ product_ids: z.array(zLocalId).max(500) }), output: zCartStock }),
} as const;
