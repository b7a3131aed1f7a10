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
} as const;
