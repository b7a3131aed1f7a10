import { useEffect, useState } from 'react';
import type { ProductView } from '../../../shared/ipc';
import type { StockDocumentView } from '../../../shared/ipc/contract-stock';
import { Field } from '../../components/Field';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { describeError, errorOf, fieldErrors, inLanguage } from '../../lib/errors';
import { formatQuantity, parseQuantityInput } from '../../lib/format';
import { ProductPicker } from './NirScreen';
import { StockLinesTable, StockSaveBar } from './StockLinesTable';

/**
 * "Transfer între gestiuni": goods moved from one warehouse of the work point to another, at the
 * source's average cost (the service books both movements). The same warehouse on both sides is
 * refused here, before anything is sent, and again by the service. Online only, as a NIR.
 */

interface Line {
  key: number;
  product: ProductView | null;
  quantity: string;
  /** In the source warehouse, from the cache; null when the product never moved there. */
  available: number | null;
}

let nextKey = 1;
const emptyLine = (): Line => ({ key: nextKey++, product: null, quantity: '', available: null });

export function TransferScreen() {
  const { t, language } = useI18n();
  const warehouses = useIpcQuery('stock.warehouses', undefined);
  const list = warehouses.data ?? [];
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [lines, setLines] = useState<Line[]>(() => [emptyLine()]);
  const [requestId, setRequestId] = useState(() => globalThis.crypto.randomUUID());
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<StockDocumentView | null>(null);
  const source = from || list[0]?.id || '';
  const target = to || list.find((w) => w.id !== source)?.id || '';

  const ids = lines.flatMap((l) => (l.product ? [l.product.id] : [])).join(',');
  useEffect(() => {
    if (!source || !ids) return;
    void callIpc('stock.bookLevels', { warehouse_id: source, product_ids: ids.split(',') }).then((levels) => {
      const by = new Map(levels.map((l) => [l.product_id, l.book_quantity]));
      setLines((ls) => ls.map((l) => (l.product ? { ...l, available: by.get(l.product.id) ?? null } : l)));
    });
  }, [source, ids]);

  const set = (key: number, patch: Partial<Line>) => setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const fieldMessage = (path: string) => (fields[path] ? inLanguage(fields[path], language) : undefined);

  async function save(): Promise<void> {
    setError(null);
    setFields({});
    if (source === target) {
      setFields({ to_warehouse_id: t('transfer.sameWarehouse') });
      setError(t('transfer.sameWarehouse'));
      return;
    }
    const filled = lines.filter((l) => l.product || l.quantity.trim());
    if (!filled.length) {
      setError(t('nir.needLine'));
      return;
    }
    const bad: Record<string, string> = {};
    const payload = filled.map((l, i) => {
      const milli = parseQuantityInput(l.quantity);
      if (!l.product) bad[`lines.${i}.product_id`] = t('nir.line.pick');
      if (milli === null || milli <= 0) bad[`lines.${i}.quantity`] = t('nir.badNumber');
      return { product_id: l.product?.id ?? '', quantity: (milli ?? 0) / 1000 };
    });
    if (Object.keys(bad).length) {
      setFields(bad);
      return;
    }
    setBusy(true);
    try {
      setDone(await callIpc('stock.createTransfer', { request_id: requestId, from_warehouse_id: source, to_warehouse_id: target, ...(note.trim() ? { note: note.trim() } : {}), lines: payload }));
    } catch (err) {
      setFields(fieldErrors(err));
      setError(errorOf(err)?.code === 'offline' ? t('transfer.offline') : describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <div className="content" data-testid="transfer-screen">
        <div className="banner ok" data-testid="transfer-done">
          {t('transfer.done', { from: done.warehouse_name, to: done.to_warehouse_name ?? '', count: done.lines.length })}
        </div>
        <ul>
          {done.lines.map((l, i) => (
            <li key={i}>
              {l.name}: {formatQuantity(l.quantity, language)} {l.unit}
            </li>
          ))}
        </ul>
        <div className="toolbar">
          <button
            className="btn primary"
            data-testid="transfer-again"
            onClick={() => {
              setDone(null);
              setLines([emptyLine()]);
              setNote('');
              setRequestId(globalThis.crypto.randomUUID());
            }}
          >
            {t('transfer.again')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="content" data-testid="transfer-screen" style={{ overflowY: 'auto' }}>
      <div className="banner info small">{t('transfer.intro')}</div>
      {warehouses.data && list.length < 2 ? <div className="banner warn small" data-testid="transfer-one-warehouse">{t('transfer.oneWarehouse')}</div> : null}
      <div className="form-grid" style={{ gridTemplateColumns: '1fr 1fr 2fr', maxWidth: 1000 }}>
        <Field label={t('transfer.from')} error={fieldMessage('from_warehouse_id')}>
          <select className="input" data-testid="transfer-from" value={source} onChange={(e) => setFrom(e.target.value)}>
            {list.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('transfer.to')} error={fieldMessage('to_warehouse_id')}>
          <select className="input" data-testid="transfer-to" value={target} onChange={(e) => setTo(e.target.value)}>
            {list.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('transfer.note')}>
          <input className="input" data-testid="transfer-note" value={note} onChange={(e) => setNote(e.target.value)} />
        </Field>
      </div>
      <StockLinesTable
        testId="transfer-lines"
        style={{ maxWidth: 900, marginTop: 8 }}
        headers={
          <>
            <th style={{ width: '50%' }}>{t('nir.line.product')}</th>
            <th className="num">{t('transfer.available')}</th>
            <th className="num">{t('transfer.quantity')}</th>
          </>
        }
        lines={lines}
        setLines={setLines}
        emptyLine={emptyLine}
        addTestId="transfer-add-line"
        cells={(l, i) => {
          const err = fieldMessage(`lines.${i}.product_id`) ?? fieldMessage(`lines.${i}.quantity`);
          return (
            <>
              <td>
                <ProductPicker value={l.product} index={i} testId="transfer-product" onPick={(p) => set(l.key, { product: p, available: null })} />
                {err ? <span className="error-text small">{err}</span> : null}
              </td>
              <td className="num" data-testid={`transfer-available-${i}`}>
                {l.product ? (l.available === null ? '—' : `${formatQuantity(l.available, language)} ${l.product.unit}`) : ''}
              </td>
              <td className="num">
                <input className="input num" data-testid={`transfer-qty-${i}`} aria-label={t('transfer.quantity')} style={{ width: 100 }} value={l.quantity} onChange={(e) => set(l.key, { quantity: e.target.value })} />
              </td>
            </>
          );
        }}
      />
      <StockSaveBar error={error} errorTestId="transfer-error" saveTestId="transfer-save" busy={busy} disabled={list.length === 0} label={t('transfer.save')} onSave={() => void save()} />
    </div>
  );
}
