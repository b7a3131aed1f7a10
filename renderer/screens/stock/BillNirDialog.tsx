import { useState } from 'react';
import type { ProductView } from '../../../shared/ipc';
import type { NirView } from '../../../shared/ipc/contract-stock';
import { toBani } from '../../../shared/money';
import { renderNirHtml } from '../../../shared/print/nir-template';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Modal } from '../../components/Modal';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { describeError, errorOf, fieldErrors, inLanguage } from '../../lib/errors';
import { formatMoney, formatQuantity, parseQuantityInput } from '../../lib/format';
import { printHtml } from '../../print/print-document';
import { currentSeller } from '../../print/print-invoice';
import { ProductPicker } from './NirScreen';

/**
 * "Recepție (NIR)" of a supplier bill from the SPV inbox: the bill's lines as the service holds them,
 * the received quantity of each (the invoiced one unless typed), and the NIR made on the service.
 * The service maps each line to a product from what it remembers of that supplier's items; the
 * lines it cannot map come back (422, one field per line) and only those ask for a product here,
 * once: the service remembers the choice for the supplier's next bills.
 */
export function BillNirDialog(props: { billId: string; onClose(): void }) {
  const { t, language } = useI18n();
  const settings = useIpcQuery('settings.get', undefined);
  const bill = useIpcQuery('stock.billForNir', { bill_id: props.billId });
  const [requestId] = useState(() => globalThis.crypto.randomUUID());
  const [received, setReceived] = useState<Record<string, string>>({});
  const [picked, setPicked] = useState<Record<string, ProductView>>({});
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<NirView | null>(null);
  const lines = bill.data?.lines ?? [];

  async function save(): Promise<void> {
    setError(null);
    const bad: Record<string, string> = {};
    const payload = lines.map((l, i) => {
      const text = received[l.line_id];
      const milli = text === undefined || text.trim() === '' ? undefined : parseQuantityInput(text);
      if (milli === null || (milli !== undefined && milli < 0)) bad[`lines.${i}.quantity_received`] = t('nir.badNumber');
      return {
        line_id: l.line_id,
        ...(picked[l.line_id] ? { product_id: picked[l.line_id]!.id } : {}),
        ...(milli !== undefined && milli !== null ? { quantity_received: milli / 1000 } : {}),
      };
    });
    if (Object.keys(bad).length) {
      setFields(bad);
      return;
    }
    setBusy(true);
    try {
      setSaved(await callIpc('stock.nirFromBill', { request_id: requestId, bill_id: props.billId, lines: payload }));
      setFields({});
    } catch (err) {
      // The lines the service could not map keep asking (a product picked since then clears its own).
      setFields(fieldErrors(err));
      const e = errorOf(err);
      setError(e?.code === 'offline' ? t('nir.offline') : Object.keys(fieldErrors(err)).some((k) => k.endsWith('.product_id')) ? t('billNir.askProducts') : describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  async function print(view: NirView): Promise<void> {
    const seller = await currentSeller(settings.data);
    await printHtml(renderNirHtml(view, seller));
  }

  const fieldMessage = (path: string) => (fields[path] ? inLanguage(fields[path], language) : undefined);
  const title = bill.data ? t('billNir.title', { number: bill.data.invoice_number, supplier: bill.data.supplier_name }) : t('billNir.titleLoading');

  if (saved) {
    return (
      <Modal
        title={title}
        onClose={props.onClose}
        wide
        testId="bill-nir-dialog"
        footer={
          <button className="btn primary" data-testid="bill-nir-print" onClick={() => void print(saved)}>
            {t('nir.print')}
          </button>
        }
      >
        <div className="banner ok" data-testid="bill-nir-saved">
          {t('nir.saved', { number: saved.nir.full_number })}
        </div>
        <ul data-testid="bill-nir-mapped">
          {(saved.nir.lines ?? []).map((l, i) => (
            <li key={l.position}>
              {l.supplier_item} → <strong>{saved.lines[i]?.name ?? ''}</strong>: {formatQuantity(l.quantity_received, language)} · {formatMoney(toBani(l.value), 'RON', language)}
            </li>
          ))}
        </ul>
        <p>
          <strong>{t('nir.total', { amount: formatMoney(toBani(saved.nir.total_cost), 'RON', language) })}</strong>
        </p>
      </Modal>
    );
  }

  return (
    <Modal
      title={title}
      onClose={props.onClose}
      wide
      testId="bill-nir-dialog"
      footer={
        <button className="btn primary" data-testid="bill-nir-save" disabled={busy || !bill.data || !!bill.data.nir_number || lines.length === 0} onClick={() => void save()}>
          {busy ? t('nir.saving') : t('nir.save')}
        </button>
      }
    >
      {bill.error ? <ErrorMessage error={bill.error} /> : null}
      {bill.data?.nir_number ? (
        <div className="banner warn small" data-testid="bill-nir-already">
          {t('billNir.already', { number: bill.data.nir_number })}
        </div>
      ) : (
        <div className="banner info small">{t('billNir.intro')}</div>
      )}
      {bill.data ? (
        <div style={{ maxHeight: 400, overflow: 'auto' }}>
          <table className="grid" data-testid="bill-nir-lines">
            <thead>
              <tr>
                <th>{t('billNir.col.item')}</th>
                <th className="num">{t('nir.line.invoiced')}</th>
                <th className="num">{t('nir.line.received')}</th>
                <th className="num">{t('billNir.col.net')}</th>
                <th style={{ width: '32%' }}>{t('nir.line.product')}</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l, i) => {
                const asked = fieldMessage(`lines.${i}.product_id`);
                const qtyError = fieldMessage(`lines.${i}.quantity_received`);
                return (
                  <tr key={l.line_id} data-testid="bill-nir-line">
                    <td>{l.name}</td>
                    <td className="num">{formatQuantity(l.quantity, language)}</td>
                    <td className="num">
                      <input
                        className={`input num${qtyError ? ' invalid' : ''}`}
                        data-testid={`bill-nir-received-${i}`}
                        aria-label={t('nir.line.received')}
                        style={{ width: 90 }}
                        placeholder={formatQuantity(l.quantity, language)}
                        value={received[l.line_id] ?? ''}
                        onChange={(e) => setReceived((r) => ({ ...r, [l.line_id]: e.target.value }))}
                      />
                    </td>
                    <td className="num">{formatMoney(toBani(l.net), 'RON', language)}</td>
                    <td>
                      {asked || picked[l.line_id] ? (
                        <>
                          <ProductPicker
                            value={picked[l.line_id] ?? null}
                            index={i}
                            testId="bill-nir-product"
                            onPick={(p) => {
                              setPicked((m) => ({ ...m, [l.line_id]: p }));
                              const rest = Object.fromEntries(Object.entries(fields).filter(([k]) => k !== `lines.${i}.product_id`));
                              setFields(rest);
                              // Every line asked has its product now: the request to choose is answered.
                              if (!Object.keys(rest).some((k) => k.endsWith('.product_id'))) setError(null);
                            }}
                          />
                          {asked && !picked[l.line_id] ? <span className="error-text small" data-testid={`bill-nir-ask-${i}`}>{asked}</span> : null}
                        </>
                      ) : (
                        <span className="muted small">{t('billNir.auto')}</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {error ? (
        <div className="banner bad small" role="alert" data-testid="bill-nir-error">
          {error}
        </div>
      ) : null}
    </Modal>
  );
}
