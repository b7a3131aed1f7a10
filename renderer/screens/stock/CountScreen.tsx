import { useEffect, useRef, useState } from 'react';
import type { StockDocumentView } from '../../../shared/ipc/contract-stock';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { describeError, errorOf, fieldErrors, inLanguage } from '../../lib/errors';
import { formatQuantity, parseQuantityInput } from '../../lib/format';

/**
 * "Inventar": the storekeeper picks a warehouse and scans the shelf. Each scan (a barcode typed by
 * the scanner, then Enter) adds the product or counts one more; the counted quantity can be typed.
 * Beside each line: the book level (the cache, less this counter's unsynced sales) and the
 * difference. Booking sends the count to the service, which books each difference as a movement at
 * the average cost; online only, since the service decides the book level at that moment.
 */

interface CountLine {
  product_id: string;
  name: string;
  code: string | null;
  unit: string;
  /** null: the product never moved in this warehouse (the service refuses it there). */
  book: number | null;
  /** Counted, as typed. */
  counted: string;
}

/** Counted minus book, in units; null when either is unknown. */
export function countDifference(line: Pick<CountLine, 'book' | 'counted'>): number | null {
  const milli = parseQuantityInput(line.counted);
  if (milli === null || milli < 0 || line.book === null) return null;
  return (milli - Math.round(line.book * 1000)) / 1000;
}

/** One more of a counted text ('2' → '3', '1,5' → '2,5'); an unreadable text starts again at 1. */
export function countOneMore(counted: string): string {
  const milli = parseQuantityInput(counted);
  if (milli === null || milli < 0) return '1';
  return String((milli + 1000) / 1000).replace('.', ',');
}

export function CountScreen() {
  const { t, language } = useI18n();
  const warehouses = useIpcQuery('stock.warehouses', undefined);
  const [warehouseId, setWarehouseId] = useState('');
  const [scan, setScan] = useState('');
  const [lines, setLines] = useState<CountLine[]>([]);
  const [requestId, setRequestId] = useState(() => globalThis.crypto.randomUUID());
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [booked, setBooked] = useState<StockDocumentView | null>(null);
  const scanRef = useRef<HTMLInputElement>(null);
  const list = warehouses.data ?? [];
  const chosen = warehouseId || list[0]?.id || '';

  // Another warehouse: the book levels of the lines already scanned are that warehouse's.
  const productIds = lines.map((l) => l.product_id).join(',');
  useEffect(() => {
    if (!chosen || !productIds) return;
    void callIpc('stock.bookLevels', { warehouse_id: chosen, product_ids: productIds.split(',') }).then((levels) => {
      const by = new Map(levels.map((l) => [l.product_id, l.book_quantity]));
      setLines((ls) => ls.map((l) => ({ ...l, book: by.has(l.product_id) ? (by.get(l.product_id) ?? null) : l.book })));
    });
    // Only a change of warehouse reloads (not each scan: a scan brings its own book level).
  }, [chosen]);

  async function onScan(): Promise<void> {
    const code = scan.trim();
    setMessage(null);
    setError(null);
    if (!code || !chosen) return;
    // Cleared at once: a scanner types the next code without waiting for this one's answer.
    setScan('');
    try {
      const found = await callIpc('stock.scan', { warehouse_id: chosen, code });
      if (!found) {
        setError(t('count.unknownCode', { code }));
        return;
      }
      setLines((ls) => {
        const at = ls.findIndex((l) => l.product_id === found.product_id);
        if (at >= 0) return ls.map((l, i) => (i === at ? { ...l, counted: countOneMore(l.counted) } : l));
        return [...ls, { product_id: found.product_id, name: found.name, code: found.barcode ?? found.code, unit: found.unit, book: found.book_quantity, counted: '1' }];
      });
      setMessage(t('count.scanned', { name: found.name }));
    } catch (err) {
      // Main's own refusals (a service has no stock) are written `English|Română`.
      const text = describeError(err, t);
      setError(text.includes('|') ? inLanguage(text, language) : text);
    } finally {
      scanRef.current?.focus();
    }
  }

  async function book(): Promise<void> {
    setError(null);
    setFields({});
    const bad: Record<string, string> = {};
    const payload = lines.map((l, i) => {
      const milli = parseQuantityInput(l.counted);
      if (milli === null || milli < 0) bad[`lines.${i}.quantity`] = t('nir.badNumber');
      return { product_id: l.product_id, quantity: (milli ?? 0) / 1000 };
    });
    if (!payload.length) {
      setError(t('count.needLine'));
      return;
    }
    if (Object.keys(bad).length) {
      setFields(bad);
      return;
    }
    setBusy(true);
    try {
      setBooked(await callIpc('stock.createCount', { request_id: requestId, warehouse_id: chosen, lines: payload }));
    } catch (err) {
      setFields(fieldErrors(err));
      setError(errorOf(err)?.code === 'offline' ? t('count.offline') : describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  function again(): void {
    setBooked(null);
    setLines([]);
    setRequestId(globalThis.crypto.randomUUID());
    setMessage(null);
  }

  if (booked) {
    const changed = booked.lines.filter((l) => l.difference !== null && l.difference !== 0);
    return (
      <div className="content" data-testid="count-screen">
        <div className="banner ok" data-testid="count-booked">
          {t('count.booked', { warehouse: booked.warehouse_name, count: booked.lines.length, changed: changed.length })}
        </div>
        <table className="grid" data-testid="count-result" style={{ maxWidth: 900 }}>
          <thead>
            <tr>
              <th>{t('count.col.product')}</th>
              <th className="num">{t('count.col.book')}</th>
              <th className="num">{t('count.col.counted')}</th>
              <th className="num">{t('count.col.difference')}</th>
            </tr>
          </thead>
          <tbody>
            {booked.lines.map((l, i) => (
              <tr key={i}>
                <td>{l.name}</td>
                <td className="num">{l.expected === null ? '—' : formatQuantity(l.expected, language)}</td>
                <td className="num">{formatQuantity(l.quantity, language)}</td>
                <td className={`num${l.difference ? ' bad-text' : ''}`}>{l.difference === null ? '—' : signed(l.difference, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="toolbar">
          <button className="btn primary" data-testid="count-again" onClick={again}>
            {t('count.again')}
          </button>
        </div>
      </div>
    );
  }

  const fieldMessage = (path: string) => (fields[path] ? inLanguage(fields[path], language) : undefined);
  return (
    <div className="content" data-testid="count-screen" style={{ overflowY: 'auto' }}>
      <div className="banner info small">{t('count.intro')}</div>
      <div className="toolbar">
        <label className="row" style={{ gap: 6 }}>
          {t('count.warehouse')}
          <select className="input" data-testid="count-warehouse" value={chosen} onChange={(e) => setWarehouseId(e.target.value)} disabled={!list.length}>
            {list.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <input
          ref={scanRef}
          className="input"
          data-testid="count-scan"
          style={{ width: 300 }}
          placeholder={t('count.scan')}
          aria-label={t('count.scan')}
          value={scan}
          disabled={!chosen}
          autoFocus
          onChange={(e) => setScan(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void onScan();
            }
          }}
        />
        {message ? <span className="muted small" data-testid="count-message">{message}</span> : null}
      </div>
      {!list.length && warehouses.data ? <div className="banner warn small">{t('count.noWarehouse')}</div> : null}
      {lines.length === 0 ? (
        <div className="empty">{t('count.empty')}</div>
      ) : (
        <table className="grid" data-testid="count-lines" style={{ maxWidth: 1000 }}>
          <thead>
            <tr>
              <th>{t('count.col.product')}</th>
              <th>{t('count.col.code')}</th>
              <th className="num">{t('count.col.book')}</th>
              <th className="num">{t('count.col.counted')}</th>
              <th className="num">{t('count.col.difference')}</th>
              <th aria-label={t('common.actions')} />
            </tr>
          </thead>
          <tbody>
            {lines.map((l, i) => {
              const diff = countDifference(l);
              const err = fieldMessage(`lines.${i}.quantity`) ?? fieldMessage(`lines.${i}.product_id`);
              return (
                <tr key={l.product_id} data-testid="count-line">
                  <td>
                    <strong>{l.name}</strong>
                    {l.book === null ? <div className="small bad-text">{t('count.notStockedHere')}</div> : null}
                    {err ? <div className="small bad-text">{err}</div> : null}
                  </td>
                  <td style={{ fontFamily: 'ui-monospace, Menlo, Consolas, monospace' }}>{l.code ?? ''}</td>
                  <td className="num" data-testid="count-book">
                    {l.book === null ? '—' : formatQuantity(l.book, language)} <span className="muted small">{l.unit}</span>
                  </td>
                  <td className="num">
                    <input
                      className="input num"
                      data-testid={`count-qty-${i}`}
                      aria-label={t('count.col.counted')}
                      style={{ width: 100 }}
                      value={l.counted}
                      onChange={(e) => setLines((ls) => ls.map((x, j) => (j === i ? { ...x, counted: e.target.value } : x)))}
                    />
                  </td>
                  <td className={`num${diff ? ' bad-text' : ''}`} data-testid="count-diff">
                    <strong>{diff === null ? '—' : signed(diff, language)}</strong>
                  </td>
                  <td>
                    <button className="btn ghost" aria-label={t('nir.removeLine')} title={t('nir.removeLine')} onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}>
                      ×
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {error ? (
        <div className="banner bad" role="alert" data-testid="count-error">
          {error}
        </div>
      ) : null}
      <div className="toolbar">
        <span className="muted small">{t('count.summary', { count: lines.length })}</span>
        <span className="spacer" />
        <button className="btn primary" data-testid="count-book-button" disabled={busy || !lines.length} onClick={() => void book()}>
          {busy ? t('nir.saving') : t('count.book')}
        </button>
      </div>
    </div>
  );
}

/** A difference with its sign: +2, −1,5, 0. */
function signed(q: number, language: 'ro' | 'en'): string {
  return q > 0 ? `+${formatQuantity(q, language)}` : q < 0 ? `−${formatQuantity(-q, language)}` : '0';
}
