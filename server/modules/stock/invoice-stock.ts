import type { Db } from '../../db/types';
import type { ApiWarning } from '../../platform/warnings';
import type { InvoiceLinesTable, InvoicesTable } from '../invoicing/tables';
import { applyMoves, defaultWarehouse, type MoveRequest } from './ledger';

type DocumentFacts = Pick<InvoicesTable, 'id' | 'company_id' | 'work_point_id' | 'document_type' | 'status' | 'storno_of' | 'issue_date'>;
type LineFacts = Pick<InvoiceLinesTable, 'product_id' | 'quantity_milli'>;

/**
 * What an issued document does to stock, in the transaction that issues it. Only fiscal invoices
 * move goods (a proforma is an offer, a draft is nothing yet), and only lines of stocked products
 * (is_service false); free-text lines name no product. A sale takes from the default warehouse of
 * its work point at the average cost; a storno puts the goods back where the original took them, at
 * the cost they left at (under FIFO into the lots they left), so a sale and its storno leave quantity
 * and value as they were.
 */
export async function moveStockForInvoice(trx: Db, doc: DocumentFacts, lines: readonly LineFacts[] | null, now: number, warnings: ApiWarning[]): Promise<void> {
  if (doc.document_type !== 'fiscal' || doc.status === 'draft') return;
  const rows = lines ?? (await trx.selectFrom('invoice_lines').select(['product_id', 'quantity_milli']).where('invoice_id', '=', doc.id).execute());
  const productIds = [...new Set(rows.map((l) => l.product_id).filter((id): id is string => id !== null))];
  if (!productIds.length) return;
  // The goods among the lines and, in the same round trip, the work point's default warehouse (null until its first use).
  const found = await trx.selectFrom('products').select('id')
    .select((eb) => eb.selectFrom('warehouses').select('id').where('default_of', '=', doc.work_point_id).where('company_id', '=', doc.company_id).as('home'))
    .where('company_id', '=', doc.company_id).where('id', 'in', productIds).where('is_service', '=', 0).execute();
  const goods = new Set(found.map((p) => p.id));
  if (!goods.size) return;
  const original = new Map<string, { warehouseId: string; unitCostMilli: number }>();
  if (doc.storno_of) {
    const moved = await trx.selectFrom('stock_movements').select(['product_id', 'warehouse_id', 'unit_cost_milli'])
      .where('document_id', '=', doc.storno_of).where('company_id', '=', doc.company_id).execute();
    for (const m of moved) original.set(m.product_id, { warehouseId: m.warehouse_id, unitCostMilli: Number(m.unit_cost_milli) });
  }
  let home: string | undefined = found[0]?.home ?? undefined;
  const moves: MoveRequest[] = [];
  for (const line of rows) {
    if (!line.product_id || !goods.has(line.product_id)) continue;
    const from = original.get(line.product_id);
    const quantity = -Number(line.quantity_milli);
    moves.push({
      warehouseId: from?.warehouseId ?? (home ??= await defaultWarehouse(trx, doc.company_id, doc.work_point_id, now)),
      productId: line.product_id,
      quantityMilli: quantity,
      // CMP puts the goods back at the cost they left at; FIFO back into the very lots they left.
      ...(quantity > 0 && from ? { unitCostMilli: from.unitCostMilli, restoreOf: doc.storno_of! } : {}),
    });
  }
  await applyMoves(trx, {
    companyId: doc.company_id, documentType: doc.status === 'storno' ? 'storno' : 'invoice', documentId: doc.id, date: doc.issue_date, now, warnings,
  }, moves);
}
