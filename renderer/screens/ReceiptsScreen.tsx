import { useCallback, useMemo, useState } from 'react';
import { ActionDialog } from '../components/ActionDialog';
import { DateRangeFilter } from '../components/DateRangeFilter';
import { Field } from '../components/Field';
import type { ReceiptView, Settings } from '../../shared/ipc';
import { todayInBucharest } from '../../shared/dates';
import { navigate } from '../app/router';
import { SyncBadge } from '../components/Badges';
import { ClientSelect, type PickedClient } from '../components/ClientSelect';
import { Modal } from '../components/Modal';
import { useToast } from '../components/Toasts';
import { usePagedList, VirtualList, type Column } from '../components/VirtualList';
import { useIpcMutation, useIpcQuery } from '../data/hooks';
import { useI18n } from '../i18n/I18nProvider';
import { describeIpcError, fieldErrors } from '../lib/errors';
import { formatBani, formatDate, formatMoney, parseAmountInput } from '../lib/format';
import { useDebounced } from '../lib/use-debounced';
import { receiptHtml } from '../print/print-invoice';
import { printHtml } from '../print/print-document';

/** Chitanțe: every cash receipt, standalone or paying an invoice; print, correct, or write a new one. */
export function ReceiptsScreen({ id, settings }: { id?: string; settings: Settings | undefined }) {
  const { t, language } = useI18n();
  const [search, setSearch] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [pages, setPages] = useState<number[]>([0]);
  const [creating, setCreating] = useState(false);
  const debounced = useDebounced(search, 120);
  const input = useMemo(() => ({ ...(debounced.trim() ? { search: debounced.trim() } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) }), [debounced, from, to]);
  const list = usePagedList('receipts.list', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const columns: Column[] = [
    { key: 'number', header: t('receipts.col.number'), width: '130px' },
    { key: 'date', header: t('invoices.col.date'), width: '92px' },
    { key: 'client', header: t('receipts.col.payer'), width: 'minmax(160px, 1fr)' },
    { key: 'invoice', header: t('receipts.col.invoice'), width: '150px' },
    { key: 'amount', header: t('receipts.amount'), width: '130px', className: 'num' },
    { key: 'sync', header: t('invoices.col.sync'), width: '118px' },
  ];
  return (
    <div className="content fill" data-testid="receipts-screen">
      <div className="toolbar">
        <input className="input" type="search" style={{ width: 240 }} placeholder={t('receipts.searchPlaceholder')} value={search} onChange={(e) => setSearch(e.target.value)} />
        <DateRangeFilter from={from} to={to} onFrom={setFrom} onTo={setTo} />
        <span className="spacer" />
        <button type="button" className="btn primary" data-testid="receipt-new" onClick={() => setCreating(true)}>
          + {t('receipts.new')}
        </button>
      </div>
      <VirtualList<ReceiptView>
        testId="receipt-list"
        total={list.total ?? 0}
        columns={columns}
        itemAt={list.itemAt}
        rowKey={(r, i) => r?.id ?? `r${i}`}
        onVisiblePages={onVisiblePages}
        onOpen={(r) => navigate({ screen: 'receipts', id: r.id })}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : t('receipts.none')}</div>}
        renderCell={(r, key) => {
          switch (key) {
            case 'number':
              return r.receipt_number ? <strong>{r.receipt_number}</strong> : <span className="muted">{t('receipts.numberPending')}</span>;
            case 'date':
              return formatDate(r.date);
            case 'client':
              return (
                <>
                  {r.client_name} {r.is_deleted ? <span className="badge bad">{t('receipts.deleted')}</span> : null}
                </>
              );
            case 'invoice':
              return r.invoice_full_number ?? '';
            case 'amount':
              return formatMoney(r.amount_bani, r.currency, language);
            case 'sync':
              return <SyncBadge sync={r.sync} />;
            default:
              return null;
          }
        }}
      />
      <div className="vlist-foot">{t('receipts.count', { count: list.total ?? 0 })}</div>
      {creating ? <ReceiptForm receipt={null} onClose={() => setCreating(false)} /> : null}
      {id ? <ReceiptDetail id={id} settings={settings} onClose={() => navigate({ screen: 'receipts' })} /> : null}
    </div>
  );
}

function ReceiptDetail({ id, settings, onClose }: { id: string; settings: Settings | undefined; onClose(): void }) {
  const { t, language } = useI18n();
  const [editing, setEditing] = useState(false);
  const query = useIpcQuery('receipts.get', { id });
  const r = query.data;
  if (editing && r) return <ReceiptForm receipt={r} onClose={() => setEditing(false)} />;
  return (
    <Modal
      title={r ? `${t('print.receipt.title')} ${r.receipt_number ?? ''}` : t('common.loading')}
      onClose={onClose}
      testId="receipt-detail"
      footer={
        r ? (
          <>
            <button type="button" className="btn" disabled={r.is_deleted} onClick={() => setEditing(true)}>
              {t('common.edit')}
            </button>
            {r.invoice_id ? (
              <button type="button" className="btn" onClick={() => navigate({ screen: 'invoices', id: r.invoice_id! })}>
                {t('receipts.openInvoice')}
              </button>
            ) : null}
            <button type="button" className="btn primary" data-testid="receipt-print" disabled={!r.receipt_number} title={r.receipt_number ? '' : t('counter.receiptPending')} onClick={() => void receiptHtml(r, settings).then(printHtml)}>
              {t('common.print')}
            </button>
          </>
        ) : null
      }
    >
      {r ? (
        <dl className="facts">
          <dt>{t('receipts.col.number')}</dt>
          <dd>{r.receipt_number ?? t('receipts.numberPending')}</dd>
          <dt>{t('invoices.col.date')}</dt>
          <dd>{formatDate(r.date)}</dd>
          <dt>{t('receipts.col.payer')}</dt>
          <dd>{r.client_name}</dd>
          <dt>{t('receipts.amount')}</dt>
          <dd>
            <strong>{formatMoney(r.amount_bani, r.currency, language)}</strong>
          </dd>
          <dt>{t('receipts.col.invoice')}</dt>
          <dd>{r.invoice_full_number ?? '—'}</dd>
          <dt>{t('receipts.observations')}</dt>
          <dd>{r.observations ?? '—'}</dd>
          <dt>{t('invoices.col.sync')}</dt>
          <dd>
            <SyncBadge sync={r.sync} /> {r.sync.error ? <span className="error-text small">{describeIpcError(r.sync.error, t)}</span> : null}
          </dd>
        </dl>
      ) : null}
    </Modal>
  );
}

/** A new standalone receipt, or the correction of one (same shape; the server keeps its number). */
function ReceiptForm({ receipt, onClose }: { receipt: ReceiptView | null; onClose(): void }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const create = useIpcMutation('receipts.create');
  const update = useIpcMutation('receipts.update');
  const mutation = receipt ? update : create;
  const [client, setClient] = useState<PickedClient | null>(receipt?.client_id ? { id: receipt.client_id, name: receipt.client_name } : null);
  const [payer, setPayer] = useState(receipt && !receipt.client_id ? receipt.client_name : '');
  const [amountText, setAmountText] = useState(receipt ? formatBani(receipt.amount_bani, language) : '');
  const [date, setDate] = useState(receipt?.date ?? todayInBucharest());
  const [observations, setObservations] = useState(receipt?.observations ?? '');
  const [touched, setTouched] = useState(false);
  const amount = parseAmountInput(amountText);
  const amountOk = amount !== null && amount > 0;
  const payerOk = !!client || payer.trim() !== '' || !!receipt?.invoice_id;
  const fields = fieldErrors(mutation.error);

  const save = async () => {
    setTouched(true);
    if (!amountOk || !payerOk) return;
    if (receipt) {
      await update.mutateAsync({
        id: receipt.id,
        patch: { amount_bani: amount, date, observations: observations || undefined, ...(client ? { client_id: client.id } : {}) },
      });
    } else {
      await create.mutateAsync({
        ...(client ? { client_id: client.id } : { client_name: payer.trim() }),
        amount_bani: amount,
        date,
        observations: observations || undefined,
        type: 'receipt',
      });
    }
    toast(receipt ? t('common.saved') : t('receipts.created'), 'ok');
    onClose();
  };

  return (
    <ActionDialog
      title={receipt ? t('receipts.edit') : t('receipts.new')}
      onClose={onClose}
      testId="receipt-form"
      error={mutation.error}
      confirmTestId="receipt-save"
      confirmLabel={t('common.save')}
      confirmDisabled={mutation.isPending}
      onConfirm={save}
    >
      <div className="form-grid">
        <Field label={t('receipts.col.payer')} error={touched && !payerOk ? t('receipts.err.payer') : fields.client_name} span2>
          <div className="row">
            <ClientSelect value={client} onChange={setClient} placeholder={t('receipts.pickClient')} />
            {!client ? <input className={`input grow${touched && !payerOk ? ' invalid' : ''}`} data-testid="receipt-payer" placeholder={t('receipts.walkIn')} value={payer} onChange={(e) => setPayer(e.target.value)} /> : null}
          </div>
        </Field>
        <Field label={t('receipts.amount')} error={touched && !amountOk ? t('receipts.err.amount') : null}>
          <input className={`input num${touched && !amountOk ? ' invalid' : ''}`} data-testid="receipt-amount" value={amountText} onChange={(e) => setAmountText(e.target.value)} placeholder="0,00" />
        </Field>
        <Field label={t('invoices.col.date')}>
          <input className="input" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </Field>
        <Field label={t('receipts.observations')} span2>
          <input className="input" data-testid="receipt-observations" placeholder={t('receipts.observationsHint')} value={observations} onChange={(e) => setObservations(e.target.value)} />
        </Field>
      </div>
    </ActionDialog>
  );
}
