import { BillNirDialog } from './stock/BillNirDialog';
import { saveBase64InBrowser } from '../lib/save-download';
import { useCallback, useMemo, useState } from 'react';
import type { ChannelInput, ChannelOutput, ExpenseView } from '../../shared/ipc';
import { todayInBucharest } from '../../shared/dates';
import { SyncBadge } from '../components/Badges';
import { ActionDialog } from '../components/ActionDialog';
import { DateRangeFilter } from '../components/DateRangeFilter';
import { Field } from '../components/Field';
import { useToast } from '../components/Toasts';
import { usePagedList, VirtualList, type Column } from '../components/VirtualList';
import { callIpc, useIpcMutation, useIpcQuery } from '../data/hooks';
import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n';
import { describeError, errorOf, inLanguage } from '../lib/errors';
import { formatDate, formatMoney, parseAmountInput } from '../lib/format';
import { useDebounced } from '../lib/use-debounced';
import { taxCodeAsWritten } from '../../shared/ro/cui';

type ExpenseRow = ChannelOutput<'purchases.expenses'>['items'][number];
type BillRow = ChannelOutput<'purchases.supplierBills'>['items'][number];
type SupplierRow = ChannelOutput<'purchases.suppliers'>['items'][number];
type Duplicate = NonNullable<ChannelOutput<'expenses.checkDuplicate'>['duplicate']>;
type ExpenseInput = ChannelInput<'expenses.create'>;

function StatusBadge({ status }: { status: string }) {
  const t = useI18n().t;
  // What the firm owes its suppliers: paid or not (an invoice of ours is collected, "încasată").
  if (status === 'paid') return <span className="badge ok">{t('expenses.status.paid')}</span>;
  if (status === 'overdue') return <span className="badge bad">{t('expenses.overdue')}</span>;
  return <span className="badge warn">{t('expenses.status.unpaid')}</span>;
}

const VAT_CHOICES = ['21', '19', '11', '9', '5', '0', 'mix'] as const;
const PAYMENT_TYPES = [1, 2, 3, 4, 5, 6, 7] as const;

/**
 * Expenses: the list as the host keeps it, a new expense (the service is asked for a possible
 * duplicate BEFORE it is saved, and the match is shown), and marking one paid. Both writes work
 * offline (they wait in the outbox); only the duplicate check needs the service.
 */
export function ExpensesScreen() {
  const { t, language } = useI18n();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [pages, setPages] = useState<number[]>([0]);
  const [creating, setCreating] = useState(false);
  const [paying, setPaying] = useState<ExpenseView | null>(null);
  const input = useMemo(() => ({ ...(from ? { from } : {}), ...(to ? { to } : {}) }), [from, to]);
  const list = usePagedList('purchases.expenses', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const columns: Column[] = [
    { key: 'reference', header: t('expenses.col.reference'), width: '110px' },
    { key: 'date', header: t('invoices.col.date'), width: '92px' },
    { key: 'supplier', header: t('expenses.col.supplier'), width: 'minmax(140px, 1fr)' },
    { key: 'description', header: t('expenses.col.description'), width: 'minmax(110px, 1fr)' },
    { key: 'due', header: t('invoices.dueDate'), width: '92px' },
    { key: 'total', header: t('invoices.col.total'), width: '118px', className: 'num' },
    { key: 'status', header: t('invoices.col.status'), width: '98px' },
    { key: 'sync', header: t('invoices.col.sync'), width: '118px' },
    { key: 'actions', header: '', width: '140px' },
  ];
  return (
    <div className="content fill" data-testid="expenses-screen">
      <div className="banner info small">{t('expenses.duplicateInfo')}</div>
      <div className="toolbar">
        <DateRangeFilter from={from} to={to} onFrom={setFrom} onTo={setTo} />
        <span className="spacer" />
        <button type="button" className="btn primary" data-testid="expense-new" onClick={() => setCreating(true)}>
          + {t('expenses.new')}
        </button>
      </div>
      <VirtualList<ExpenseRow>
        testId="expense-list"
        total={list.total ?? 0}
        columns={columns}
        itemAt={list.itemAt}
        rowKey={(r, i) => r?.id ?? `e${i}`}
        onVisiblePages={onVisiblePages}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : t('expenses.none')}</div>}
        renderCell={(r, key) => {
          switch (key) {
            case 'reference':
              return <strong>{r.reference}</strong>;
            case 'date':
              return formatDate(r.date);
            case 'supplier':
              return r.supplier_name ?? '—';
            case 'description':
              return r.description;
            case 'due':
              return formatDate(r.due_date);
            case 'total':
              return formatMoney(r.total_bani, r.currency, language);
            case 'status':
              return (
                <span title={r.paid_date ? t('expenses.paidOn', { date: formatDate(r.paid_date) }) : undefined}>
                  <StatusBadge status={r.status} />
                </span>
              );
            case 'sync':
              return <SyncBadge sync={r.sync} />;
            case 'actions':
              return r.status !== 'paid' ? (
                <button type="button" className="btn small" data-testid="expense-pay" onClick={() => setPaying(r)}>
                  {t('expenses.markPaid')}
                </button>
              ) : null;
            default:
              return null;
          }
        }}
      />
      <div className="vlist-foot">{t('expenses.count', { count: list.total ?? 0 })}</div>
      {creating ? <ExpenseForm onClose={() => setCreating(false)} /> : null}
      {paying ? <PayExpense expense={paying} onClose={() => setPaying(null)} /> : null}
    </div>
  );
}

type Check = { state: 'idle' } | { state: 'checking' } | { state: 'found'; duplicate: Duplicate } | { state: 'offline' };

/**
 * A new expense. "Check and save" asks the service first; a match stops the save and is shown with
 * what it matched on, and the cashier decides. Offline the check cannot run: the form says so and
 * offers to save without it.
 */
function ExpenseForm({ onClose }: { onClose(): void }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const create = useIpcMutation('expenses.create');
  const suppliers = useIpcQuery('purchases.suppliers', { limit: 500, offset: 0 });
  const [supplierText, setSupplierText] = useState('');
  const [supplierCui, setSupplierCui] = useState('');
  const [reference, setReference] = useState('');
  const [description, setDescription] = useState('');
  const [date, setDate] = useState(todayInBucharest());
  const [dueDate, setDueDate] = useState('');
  const [amountText, setAmountText] = useState('');
  const [vat, setVat] = useState<(typeof VAT_CHOICES)[number]>('21');
  const [withVat, setWithVat] = useState(true);
  const [vatManualText, setVatManualText] = useState('');
  const [touched, setTouched] = useState(false);
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const [checkError, setCheckError] = useState<unknown>(null);

  const known = (suppliers.data?.items ?? []).find((s) => s.name.localeCompare(supplierText.trim(), 'ro', { sensitivity: 'base' }) === 0);
  const amount = parseAmountInput(amountText);
  const amountOk = amount !== null && amount > 0;
  const vatManual = vat === 'mix' ? parseAmountInput(vatManualText) : null;
  const supplierOk = supplierText.trim() !== '';
  const fields = errorOf(create.error)?.fields ?? errorOf(checkError)?.fields ?? {};

  const body = (): ExpenseInput | null => {
    if (!supplierOk || !amountOk || (vat === 'mix' && vatManual === null)) return null;
    return {
      ...(known ? { supplier_id: known.id } : { supplier_name: supplierText.trim(), ...(supplierCui.trim() ? { supplier_cui: supplierCui.trim() } : {}) }),
      reference: reference.trim() || null,
      description: description.trim() || null,
      date,
      due_date: dueDate || null,
      amount_bani: amount,
      vat_percent: vat === 'mix' ? 'mix' : Number(vat),
      with_vat: withVat,
      ...(vat === 'mix' && vatManual !== null ? { amount_vat_manual_bani: vatManual } : {}),
      currency: 'RON',
    };
  };

  const save = async (input: ExpenseInput) => {
    await create.mutateAsync(input);
    toast(t('expenses.created'), 'ok');
    onClose();
  };

  const checkThenSave = async () => {
    setTouched(true);
    const input = body();
    if (!input) return;
    setCheckError(null);
    setCheck({ state: 'checking' });
    try {
      const reply = await callIpc('expenses.checkDuplicate', input);
      if (reply.duplicate) {
        setCheck({ state: 'found', duplicate: reply.duplicate });
        return;
      }
    } catch (error) {
      const e = errorOf(error);
      if (e?.type === 'unavailable') {
        setCheck({ state: 'offline' });
        return;
      }
      setCheck({ state: 'idle' });
      setCheckError(error);
      return;
    }
    setCheck({ state: 'idle' });
    await save(input);
  };

  const saveAnyway = () => {
    const input = body();
    if (input) void save(input).catch(() => undefined);
  };

  const fieldError = (name: string) => (fields[name] ? inLanguage(fields[name], language) : null);
  const matchKey = (m: Duplicate['match_type']): MessageKey => `expenses.match.${m}`;

  return (
    <ActionDialog
      title={t('expenses.new')}
      onClose={onClose}
      wide
      testId="expense-form"
      error={create.error ?? checkError}
      extraActions={
        check.state === 'found' || check.state === 'offline' ? (
          <button type="button" className="btn danger" data-testid="expense-save-anyway" disabled={create.isPending} onClick={saveAnyway}>
            {check.state === 'found' ? t('expenses.saveAnyway') : t('expenses.saveUnchecked')}
          </button>
        ) : null
      }
      confirmTestId="expense-save"
      confirmLabel={check.state === 'checking' ? t('expenses.checking') : t('expenses.checkAndSave')}
      confirmDisabled={create.isPending || check.state === 'checking'}
      onConfirm={checkThenSave}
    >
      {check.state === 'found' ? (
        <div className="banner warn" data-testid="expense-duplicate" data-match={check.duplicate.match_type}>
          <div>
            <strong>{t('expenses.duplicateFound')}</strong> {t(matchKey(check.duplicate.match_type))}.
            <br />
            {t('expenses.existing', {
              reference: check.duplicate.reference ?? '—',
              date: formatDate(check.duplicate.date),
              amount: formatMoney(check.duplicate.amount_bani, check.duplicate.currency, language),
            })}
          </div>
        </div>
      ) : null}
      {check.state === 'offline' ? (
        <div className="banner info small" data-testid="expense-check-offline">
          {t('expenses.checkOffline')}
        </div>
      ) : null}
      <div className="form-grid">
        <label className="field span2">
          {t('expenses.supplier')}
          <input
            className={`input${touched && !supplierOk ? ' invalid' : ''}`}
            data-testid="expense-supplier"
            list="expense-suppliers"
            placeholder={t('expenses.supplierHint')}
            value={supplierText}
            onChange={(e) => {
              setSupplierText(e.target.value);
              setCheck({ state: 'idle' });
            }}
          />
          <datalist id="expense-suppliers">
            {(suppliers.data?.items ?? []).map((s) => (
              <option key={s.id} value={s.name}>
                {s.cui ?? ''}
              </option>
            ))}
          </datalist>
          {touched && !supplierOk ? <span className="error">{t('expenses.err.supplier')}</span> : fieldError('supplier_id') ? <span className="error">{fieldError('supplier_id')}</span> : null}
          {supplierOk && !known ? <span className="hint">{t('expenses.newSupplier')}</span> : null}
        </label>
        {!known ? (
          <Field label={t('expenses.supplierCui')} error={fieldError('supplier_cui')}>
            <input className="input" data-testid="expense-supplier-cui" value={supplierCui} onChange={(e) => setSupplierCui(e.target.value)} placeholder="RO…" />
          </Field>
        ) : null}
        <Field label={t('expenses.reference')}>
          <input className="input" data-testid="expense-reference" value={reference} onChange={(e) => { setReference(e.target.value); setCheck({ state: 'idle' }); }} />
        </Field>
        <Field label={t('expenses.description')} span2>
          <input className="input" data-testid="expense-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <Field label={t('expenses.date')}>
          <input className="input" type="date" data-testid="expense-date" value={date} onChange={(e) => { setDate(e.target.value); setCheck({ state: 'idle' }); }} />
        </Field>
        <Field label={t('invoices.dueDate')} error={fieldError('due_date')}>
          <input className="input" type="date" data-testid="expense-due" value={dueDate} onChange={(e) => setDueDate(e.target.value)} />
        </Field>
        <Field label={t('expenses.amount')} error={touched && !amountOk ? t('expenses.err.amount') : null}>
          <input
            className={`input num${touched && !amountOk ? ' invalid' : ''}`}
            data-testid="expense-amount"
            value={amountText}
            placeholder="0,00"
            onChange={(e) => {
              setAmountText(e.target.value);
              setCheck({ state: 'idle' });
            }}
          />
        </Field>
        <Field label={t('expenses.vat')}>
          <select data-testid="expense-vat" value={vat} onChange={(e) => setVat(e.target.value as (typeof VAT_CHOICES)[number])}>
            {VAT_CHOICES.map((v) => (
              <option key={v} value={v}>
                {v === 'mix' ? t('expenses.vatMix') : `${v}%`}
              </option>
            ))}
          </select>
        </Field>
        {vat === 'mix' ? (
          <Field label={t('expenses.vatManual')} error={fieldError('amount_vat_manual_bani')}>
            <input className={`input num${touched && vatManual === null ? ' invalid' : ''}`} data-testid="expense-vat-manual" value={vatManualText} onChange={(e) => setVatManualText(e.target.value)} />
            <span className="hint">{t('expenses.mixHelp')}</span>
          </Field>
        ) : (
          <label className="check">
            <input type="checkbox" data-testid="expense-with-vat" checked={withVat} onChange={(e) => setWithVat(e.target.checked)} />
            {t('expenses.withVat')}
          </label>
        )}
      </div>
    </ActionDialog>
  );
}

function PayExpense({ expense, onClose }: { expense: ExpenseView; onClose(): void }) {
  const { t } = useI18n();
  const toast = useToast();
  const pay = useIpcMutation('expenses.pay');
  const [date, setDate] = useState(todayInBucharest());
  const [type, setType] = useState<number>(2);
  return (
    <ActionDialog
      title={t('expenses.payTitle', { reference: expense.reference ?? expense.supplier_name ?? '' })}
      onClose={onClose}
      testId="expense-pay-dialog"
      error={pay.error}
      confirmLabel={t('expenses.markPaid')}
      confirmDisabled={pay.isPending}
      onConfirm={() =>
        pay.mutateAsync({ id: expense.id, paid_date: date, payment_type: type }).then(() => {
          toast(t('expenses.paid'), 'ok');
          onClose();
        })
      }
    >
      <div className="form-grid">
        <Field label={t('expenses.paidDate')}>
          <input className="input" type="date" data-testid="expense-paid-date" value={date} max={todayInBucharest()} onChange={(e) => setDate(e.target.value)} />
        </Field>
        <Field label={t('expenses.paymentType')}>
          <select data-testid="expense-payment-type" value={type} onChange={(e) => setType(Number(e.target.value))}>
            {PAYMENT_TYPES.map((p) => (
              <option key={p} value={p}>
                {t(`expenses.payType.${p}` as MessageKey)}
              </option>
            ))}
          </select>
        </Field>
      </div>
    </ActionDialog>
  );
}

/** Supplier bills received through the SPV inbox (e-Factura), with what is still unpaid and ANAF's PDF. */
export function SupplierBillsScreen() {
  const { t, language } = useI18n();
  const toast = useToast();
  const [unpaidOnly, setUnpaidOnly] = useState(false);
  const [pages, setPages] = useState<number[]>([0]);
  const [busy, setBusy] = useState<string | null>(null);
  const [receiving, setReceiving] = useState<string | null>(null);
  const input = useMemo(() => (unpaidOnly ? { unpaid_only: true } : {}), [unpaidOnly]);
  const list = usePagedList('purchases.supplierBills', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const openPdf = (bill: BillRow) => {
    setBusy(bill.id);
    void callIpc('purchases.supplierBillPdf', { id: bill.id })
      .then((r) => {
        if (r.pdf_base64) {
          saveBase64InBrowser(r.pdf_base64, r.file_name, 'application/pdf');
          toast(t('bills.pdfDownloaded', { name: r.file_name }), 'ok');
        } else if (r.saved) toast(t('bills.pdfSaved', { path: r.path ?? r.file_name }), 'ok');
      })
      .catch((e: unknown) => toast(describeError(e, t), 'bad'))
      .finally(() => setBusy(null));
  };
  const columns: Column[] = [
    // Sized for a 1280-pixel window with the reception button: the supplier's name gives way first.
    { key: 'number', header: t('bills.col.number'), width: '100px' },
    { key: 'supplier', header: t('bills.col.supplier'), width: 'minmax(100px, 1fr)' },
    { key: 'date', header: t('invoices.col.date'), width: '86px' },
    { key: 'due', header: t('invoices.dueDate'), width: '90px' },
    { key: 'total', header: t('invoices.col.total'), width: '108px', className: 'num' },
    { key: 'unpaid', header: t('bills.col.unpaid'), width: '108px', className: 'num' },
    { key: 'status', header: t('invoices.col.status'), width: '88px' },
    { key: 'pdf', header: '', width: '112px' },
    { key: 'nir', header: '', width: '132px' },
  ];
  return (
    <div className="content fill" data-testid="bills-screen">
      <div className="toolbar">
        <label className="check">
          <input type="checkbox" checked={unpaidOnly} onChange={(e) => setUnpaidOnly(e.target.checked)} />
          {t('bills.unpaidOnly')}
        </label>
        <span className="spacer" />
        <span className="muted small">{t('bills.fromSpv')}</span>
      </div>
      <VirtualList<BillRow>
        testId="bill-list"
        total={list.total ?? 0}
        columns={columns}
        itemAt={list.itemAt}
        rowKey={(r, i) => r?.id ?? `b${i}`}
        onVisiblePages={onVisiblePages}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : t('bills.none')}</div>}
        renderCell={(r, key) => {
          switch (key) {
            case 'number':
              return <strong>{r.invoice_number}</strong>;
            case 'supplier':
              return r.supplier_name;
            case 'date':
              return formatDate(r.issue_date);
            case 'due':
              return formatDate(r.due_date);
            case 'total':
              return formatMoney(r.tax_inclusive_bani, r.currency, language);
            case 'unpaid':
              return r.unpaid_bani > 0 ? <strong>{formatMoney(r.unpaid_bani, r.currency, language)}</strong> : '—';
            case 'status':
              return <StatusBadge status={r.unpaid_bani > 0 ? (r.due_date && r.due_date < todayInBucharest() ? 'overdue' : 'unpaid') : 'paid'} />;
            case 'pdf':
              return r.has_efactura_pdf ? (
                <button type="button" className="btn small" data-testid="bill-pdf" title={t('bills.pdfHint')} disabled={busy === r.id} onClick={() => openPdf(r)}>
                  ⇩ {t('bills.pdf')}
                </button>
              ) : null;
            case 'nir':
              // Goods on the bill enter stock through a NIR made on the service from the bill's own lines.
              return (
                <button type="button" className="btn small" data-testid="bill-nir" title={t('billNir.hint')} onClick={() => setReceiving(r.id)}>
                  {t('billNir.button')}
                </button>
              );
            default:
              return null;
          }
        }}
      />
      <div className="vlist-foot">{t('bills.count', { count: list.total ?? 0 })}</div>
      {receiving ? <BillNirDialog billId={receiving} onClose={() => setReceiving(null)} /> : null}
    </div>
  );
}

/** The supplier register (GET /suppliers, kept by the host) with what is owed on this work point's bills. */
export function SuppliersScreen() {
  const { t, language } = useI18n();
  const [search, setSearch] = useState('');
  const [pages, setPages] = useState<number[]>([0]);
  const debounced = useDebounced(search, 120);
  const input = useMemo(() => (debounced.trim() ? { search: debounced.trim() } : {}), [debounced]);
  const list = usePagedList('purchases.suppliers', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const columns: Column[] = [
    { key: 'name', header: t('bills.col.supplier'), width: 'minmax(200px, 1fr)' },
    { key: 'cui', header: t('clients.cui'), width: '130px' },
    { key: 'bills', header: t('suppliers.bills'), width: '80px', className: 'num' },
    { key: 'unpaid', header: t('bills.col.unpaid'), width: '200px', className: 'num' },
    { key: 'sync', header: t('invoices.col.sync'), width: '112px' },
  ];
  return (
    <div className="content fill" data-testid="suppliers-screen">
      <div className="banner info small">{t('suppliers.register')}</div>
      <div className="toolbar">
        <input className="input" type="search" data-testid="suppliers-search" style={{ width: 260 }} placeholder={t('suppliers.search')} value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <VirtualList<SupplierRow>
        testId="supplier-list"
        total={list.total ?? 0}
        columns={columns}
        itemAt={list.itemAt}
        rowKey={(r, i) => r?.id ?? `s${i}`}
        onVisiblePages={onVisiblePages}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : t('suppliers.none')}</div>}
        renderCell={(r, key) => {
          switch (key) {
            case 'name':
              return <strong>{r.name}</strong>;
            case 'cui':
              // Suppliers come from ANAF's register and the SPV inbox: Romanian firms.
              return taxCodeAsWritten(r.cui, r.vat_payer, 'RO') ?? '—';
            case 'bills':
              return r.bills;
            case 'unpaid':
              return r.unpaid.length ? <strong>{r.unpaid.map((u) => formatMoney(u.amount_bani, u.currency, language)).join(' + ')}</strong> : '—';
            case 'sync':
              return <SyncBadge sync={r.sync} />;
            default:
              return null;
          }
        }}
      />
      <div className="vlist-foot">{t('suppliers.count', { count: list.total ?? 0 })}</div>
    </div>
  );
}
