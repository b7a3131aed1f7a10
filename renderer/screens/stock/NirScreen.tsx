import { useState } from 'react';
import type { ProductView } from '../../../shared/ipc';
import type { NirView } from '../../../shared/ipc/contract-stock';
import { toBani } from '../../../shared/money';
import { Field } from '../../components/Field';
import { SuggestionList } from '../../components/SuggestionList';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { describeError, errorOf, fieldErrors, inLanguage } from '../../lib/errors';
import { formatMoney, parseQuantityInput } from '../../lib/format';
import { useDebounced } from '../../lib/use-debounced';
import { renderNirHtml } from '../../../shared/print/nir-template';
import { printHtml } from '../../print/print-document';
import { currentSeller } from '../../print/print-invoice';
import { StockLinesTable, StockSaveBar } from './StockLinesTable';

/**
 * "Recepție (NIR)": goods received from a supplier, typed from the supplier's invoice, posted to the
 * service (which numbers the NIR, books the goods in at their cost and recomputes the average cost);
 * then printed on form 14-3-1A. Online only: a NIR takes its number from the service, so offline it
 * is refused, with nothing saved, rather than queued.
 */

interface Line {
  key: number;
  product: ProductView | null;
  invoiced: string;
  received: string;
  cost: string;
}

/** A typed price with up to 5 decimals ('30,5', '12.34567'), in lei; null when it is not one. */
export function parseUnitCost(text: string): number | null {
  const cleaned = text.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,5})?$/.test(cleaned)) return null;
  return Number(cleaned);
}

let nextKey = 1;
const emptyLine = (): Line => ({ key: nextKey++, product: null, invoiced: '', received: '', cost: '' });

export function ProductPicker(props: { value: ProductView | null; onPick(p: ProductView): void; index: number; testId?: string }) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const query = useDebounced(text.trim(), 100);
  const { data } = useIpcQuery('products.list', { search: query, limit: 8, offset: 0 }, { enabled: open && query.length > 0 });
  const goods = (data?.items ?? []).filter((p) => !p.is_service);
  const pick = (p: ProductView) => {
    props.onPick(p);
    setText('');
    setOpen(false);
  };
  return (
    <div className="search" style={{ position: 'relative' }}>
      <input
        className="input"
        data-testid={`${props.testId ?? 'nir-product'}-${props.index}`}
        placeholder={props.value ? props.value.name : t('nir.line.pick')}
        value={open ? text : (props.value?.name ?? '')}
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive((i) => Math.min(goods.length - 1, i + 1));
          else if (e.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
          else if (e.key === 'Enter' && goods[active]) {
            e.preventDefault();
            pick(goods[active]);
          }
        }}
        style={{ width: '100%' }}
      />
      {open && goods.length > 0 ? (
        <SuggestionList items={goods} active={active} testId={`${props.testId ?? 'nir-product'}-suggestions-${props.index}`} onPick={pick}>
          {(p) => (
            <>
              <span>{p.name}</span>
              <span className="code">{p.code ?? ''}</span>
              <span className="muted small">{p.unit}</span>
            </>
          )}
        </SuggestionList>
      ) : null}
    </div>
  );
}

export function NirScreen() {
  const { t, language } = useI18n();
  const settings = useIpcQuery('settings.get', undefined);
  const [requestId, setRequestId] = useState(() => globalThis.crypto.randomUUID());
  const [supplier, setSupplier] = useState('');
  const [cui, setCui] = useState('');
  const [document, setDocument] = useState('');
  const [date, setDate] = useState('');
  const [lines, setLines] = useState<Line[]>(() => [emptyLine()]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<NirView | null>(null);

  const set = (key: number, patch: Partial<Line>) => setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const valueOf = (l: Line): number | null => {
    const qty = parseQuantityInput(l.received || l.invoiced);
    const cost = parseUnitCost(l.cost);
    return qty === null || cost === null ? null : toBani((qty / 1000) * cost);
  };
  const total = lines.reduce((s, l) => s + (valueOf(l) ?? 0), 0);
  const fieldMessage = (path: string) => (fields[path] ? inLanguage(fields[path], language) : undefined);

  async function save(): Promise<void> {
    setError(null);
    setFields({});
    const bad: Record<string, string> = {};
    const filled = lines.filter((l) => l.product || l.invoiced || l.cost);
    if (!filled.length) {
      setError(t('nir.needLine'));
      return;
    }
    const payload = filled.map((l, i) => {
      const invoiced = parseQuantityInput(l.invoiced);
      const received = l.received.trim() ? parseQuantityInput(l.received) : invoiced;
      const cost = parseUnitCost(l.cost);
      if (!l.product) bad[`lines.${i}.product_id`] = t('nir.line.pick');
      if (invoiced === null || invoiced < 0) bad[`lines.${i}.quantity_invoiced`] = t('nir.badNumber');
      if (received === null || received < 0) bad[`lines.${i}.quantity_received`] = t('nir.badNumber');
      if (cost === null) bad[`lines.${i}.unit_cost`] = t('nir.badNumber');
      return { product_id: l.product?.id ?? '', quantity_invoiced: (invoiced ?? 0) / 1000, quantity_received: (received ?? 0) / 1000, unit_cost: cost ?? 0 };
    });
    if (Object.keys(bad).length) {
      setFields(bad);
      return;
    }
    setBusy(true);
    try {
      const view = await callIpc('stock.createNir', {
        request_id: requestId, supplier_name: supplier, ...(cui.trim() ? { supplier_cui: cui.trim() } : {}), document_number: document,
        ...(date ? { date } : {}), lines: payload,
      });
      setSaved(view);
    } catch (err) {
      const e = errorOf(err);
      setFields(fieldErrors(err));
      setError(e?.code === 'offline' ? t('nir.offline') : describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  async function print(view: NirView): Promise<void> {
    const seller = await currentSeller(settings.data);
    await printHtml(renderNirHtml(view, seller));
  }

  function again(): void {
    setSaved(null);
    setRequestId(globalThis.crypto.randomUUID());
    setSupplier('');
    setCui('');
    setDocument('');
    setDate('');
    setLines([emptyLine()]);
  }

  if (saved) {
    return (
      <div className="content" data-testid="nir-screen">
        <div className="banner ok" data-testid="nir-saved">
          {t('nir.saved', { number: saved.nir.full_number })}
        </div>
        <p>
          {saved.nir.supplier_name} · {saved.nir.document_number ?? ''} · {formatMoney(toBani(saved.nir.total_cost), 'RON', language)}
        </p>
        <div className="toolbar">
          <button className="btn primary" data-testid="nir-print" onClick={() => void print(saved)}>
            {t('nir.print')}
          </button>
          <button className="btn" data-testid="nir-again" onClick={again}>
            {t('nir.again')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="content" data-testid="nir-screen" style={{ overflowY: 'auto' }}>
      <div className="banner info small">{t('nir.intro')}</div>
      <div className="form-grid" style={{ gridTemplateColumns: '2fr 1fr 1fr 1fr', maxWidth: 1000 }}>
        <Field label={t('nir.supplier')} error={fieldMessage('supplier_name')}>
          <input className="input" data-testid="nir-supplier" value={supplier} onChange={(e) => setSupplier(e.target.value)} />
        </Field>
        <Field label={t('nir.supplierCui')}>
          <input className="input" data-testid="nir-supplier-cui" value={cui} onChange={(e) => setCui(e.target.value)} />
        </Field>
        <Field label={t('nir.documentNumber')} error={fieldMessage('document_number')}>
          <input className="input" data-testid="nir-document" value={document} onChange={(e) => setDocument(e.target.value)} />
        </Field>
        <Field label={t('nir.date')}>
          <input className="input" type="date" data-testid="nir-date" value={date} onChange={(e) => setDate(e.target.value)} />
        </Field>
      </div>
      <h3 style={{ margin: '12px 0 6px' }}>{t('nir.lines')}</h3>
      <StockLinesTable
        testId="nir-lines"
        style={{ maxWidth: 1100 }}
        headers={
          <>
            <th style={{ width: '34%' }}>{t('nir.line.product')}</th>
            <th className="num">{t('nir.line.invoiced')}</th>
            <th className="num">{t('nir.line.received')}</th>
            <th className="num">{t('nir.line.unitCost')}</th>
            <th className="num">{t('nir.line.value')}</th>
          </>
        }
        lines={lines}
        setLines={setLines}
        emptyLine={emptyLine}
        addTestId="nir-add-line"
        aside={
          <>
            <span className="spacer" />
            <strong data-testid="nir-total">{t('nir.total', { amount: formatMoney(total, 'RON', language) })}</strong>
          </>
        }
        cells={(l, i) => {
          const value = valueOf(l);
          const err = (k: string) => fieldMessage(`lines.${i}.${k}`);
          return (
            <>
              <td>
                <ProductPicker value={l.product} index={i} onPick={(p) => set(l.key, { product: p })} />
                {err('product_id') ? <span className="error">{err('product_id')}</span> : null}
              </td>
              <td>
                <input className={`input num${err('quantity_invoiced') ? ' invalid' : ''}`} data-testid={`nir-invoiced-${i}`} style={{ width: 100 }} value={l.invoiced} onChange={(e) => set(l.key, { invoiced: e.target.value })} />
                {l.product ? <span className="muted small"> {l.product.unit}</span> : null}
              </td>
              <td>
                <input className={`input num${err('quantity_received') ? ' invalid' : ''}`} data-testid={`nir-received-${i}`} style={{ width: 100 }} placeholder={l.invoiced} value={l.received} onChange={(e) => set(l.key, { received: e.target.value })} />
              </td>
              <td>
                <input className={`input num${err('unit_cost') ? ' invalid' : ''}`} data-testid={`nir-cost-${i}`} style={{ width: 110 }} value={l.cost} onChange={(e) => set(l.key, { cost: e.target.value })} />
              </td>
              <td className="num">{value === null ? '—' : formatMoney(value, 'RON', language)}</td>
            </>
          );
        }}
      />
      <StockSaveBar error={error} errorTestId="nir-error" saveTestId="nir-save" busy={busy} label={t('nir.save')} onSave={() => void save()} />
    </div>
  );
}
