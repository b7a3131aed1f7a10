import { Fragment, useState } from 'react';
import { ActionDialog } from '../../components/ActionDialog';
import type { InvoiceView, Settings } from '../../../shared/ipc';
import { navigate } from '../../app/router';
import { EfacturaBadge, InvoiceStatusBadge, PaidBadge, SyncBadge } from '../../components/Badges';
import { Field } from '../../components/Field';
import { useToast } from '../../components/Toasts';
import { useIpcMutation, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { describeError, describeIpcError } from '../../lib/errors';
import { todayInBucharest } from '../../../shared/dates';
import { formatBani, formatDate, formatMoney, formatPercent, formatPriceE4, formatQuantity, formatTimestamp, parseAmountInput } from '../../lib/format';
import { invoiceHtml, receiptHtml } from '../../print/print-invoice';
import { pdfFileName, printHtml, savePdf } from '../../print/print-document';
import { partyCodeOnScreen } from '../../lib/party-code';
import { taxCodeAsWritten } from '../../../shared/ro/cui';
import { INVOICE_REFERENCE_KINDS, isWalkInBuyer } from '../../../shared/schemas/invoice';
import { efacturaUploadDeadline } from '../../../shared/ro/working-days';

type Dialog = null | 'issue' | 'storno' | 'discard' | 'receipt' | 'payment' | 'convert' | 'spv';

/** One invoice: what was printed, where it stands (payment, e-Factura, sync), and what can be done next. */
export function InvoiceDetail({ id, settings }: { id: string; settings: Settings | undefined }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const [dialog, setDialog] = useState<Dialog>(null);
  const query = useIpcQuery('invoices.get', { id });
  const receipts = useIpcQuery('receipts.list', { invoice_id: id, limit: 50, offset: 0 });
  const payments = useIpcQuery('payments.list', { invoice_id: id });
  const invoice = query.data;

  if (query.error) {
    return (
      <div className="content">
        <div className="banner bad">{describeError(query.error, t)}</div>
        <button type="button" className="btn" onClick={() => navigate({ screen: 'invoices' })}>
          ← {t('nav.invoices')}
        </button>
      </div>
    );
  }
  if (!invoice) return <div className="content empty">{t('common.loading')}</div>;

  const isDraft = invoice.status === 'draft';
  // A walk-in draft names no client and is issued to "Persoană fizică".
  const hasBuyer = Boolean(invoice.client_id) || isWalkInBuyer(invoice.buyer);
  const onServer = invoice.sync.state === 'synced';
  const canStorno = invoice.status === 'issued' && invoice.document_type === 'fiscal' && !invoice.storno_id;
  const canDiscard = isDraft || (!onServer && invoice.status !== 'voided');
  const canCollect = !isDraft && invoice.document_type === 'fiscal' && invoice.status === 'issued' && invoice.amount_due_bani > 0;
  const canConvert = invoice.document_type === 'proforma' && invoice.status === 'issued';
  const canSend = invoice.document_type === 'fiscal' && (invoice.status === 'issued' || invoice.status === 'storno') && invoice.efactura_status !== 'accepted' && invoice.efactura_status !== 'pending';
  const bankPayments = (payments.data?.items ?? []).filter((p) => !p.receipt_id);

  const print = async () => printHtml(await invoiceHtml(invoice, settings));
  const pdf = async () => {
    const outcome = await savePdf(await invoiceHtml(invoice, settings), pdfFileName('Factura', invoice.full_number));
    if (outcome === 'unsupported') await print();
    else if (outcome === 'saved') toast(t('common.pdfSaved'), 'ok');
  };

  return (
    <div className="content" data-testid="invoice-detail" data-invoice-id={invoice.id}>
      <div className="toolbar">
        <button type="button" className="btn ghost" onClick={() => navigate({ screen: 'invoices' })}>
          ← {t('nav.invoices')}
        </button>
        <h2 style={{ fontSize: 20 }} data-testid="detail-number">
          {invoice.full_number ?? (invoice.document_type === 'proforma' ? t('status.proforma') : t('status.draft'))}
        </h2>
        <InvoiceStatusBadge status={invoice.status} documentType={invoice.document_type} />
        {!isDraft ? <PaidBadge state={invoice.paid_state} /> : null}
        <SyncBadge sync={invoice.sync} />
      </div>
      {invoice.sync.state === 'failed' && invoice.sync.error ? (
        <div className="banner bad" data-testid="detail-sync-error">
          <div className="grow">
            <strong>{t('invoices.syncFailed')}</strong> {describeIpcError(invoice.sync.error, t)}
          </div>
          <button type="button" className="btn" onClick={() => navigate({ screen: 'sync' })}>
            {t('nav.sync')}
          </button>
        </div>
      ) : null}
      <div className="detail">
        <div className="cards">
          <div className="card">
            <div className="body split">
              <dl className="facts">
                <dt>{t('invoices.issueDate')}</dt>
                <dd>{formatDate(invoice.issue_date)}</dd>
                {invoice.due_date ? (
                  <>
                    <dt>{t('invoices.dueDate')}</dt>
                    <dd>{formatDate(invoice.due_date)}</dd>
                  </>
                ) : null}
                {invoice.delivery_date && invoice.delivery_date !== invoice.issue_date ? (
                  <>
                    <dt>{t('invoices.deliveryDate')}</dt>
                    <dd data-testid="detail-delivery-date">{formatDate(invoice.delivery_date)}</dd>
                  </>
                ) : null}
                <dt>{t('invoices.series')}</dt>
                <dd>{invoice.series_name ?? '—'}</dd>
                <dt>{t('invoices.numbering')}</dt>
                <dd>{invoice.numbering ? t(`invoices.numbering.${invoice.numbering}`) : '—'}</dd>
                <dt>{t('counter.payment')}</dt>
                <dd>{invoice.payment_method ? t(`payment.${invoice.payment_method}`) : '—'}</dd>
                {INVOICE_REFERENCE_KINDS.filter((k) => invoice.references[k]).map((k) => (
                  <Fragment key={k}>
                    <dt>{t(`print.ref.${k}`)}</dt>
                    <dd data-testid={`detail-reference-${k}`}>{invoice.references[k]}</dd>
                  </Fragment>
                ))}
                {invoice.issued_at ? (
                  <>
                    <dt>{t('invoices.issuedAt')}</dt>
                    <dd>{formatTimestamp(invoice.issued_at)}</dd>
                  </>
                ) : null}
              </dl>
              <dl className="facts">
                <dt>{t('invoices.col.client')}</dt>
                <dd>
                  <strong>{invoice.buyer?.name ?? invoice.client_name ?? t('counter.endConsumer')}</strong>
                </dd>
                {invoice.buyer?.cui ? (
                  <>
                    <dt>{t('clients.cui')}</dt>
                    <dd>{taxCodeAsWritten(invoice.buyer.cui, invoice.buyer.vat_payer, invoice.buyer.country)}</dd>
                  </>
                ) : null}
                {invoice.buyer && !invoice.buyer.cui && invoice.buyer.cnp && !isWalkInBuyer(invoice.buyer) ? (
                  <>
                    <dt>{t('print.cnp')}</dt>
                    <dd data-testid="buyer-cnp">{partyCodeOnScreen(invoice.buyer)}</dd>
                  </>
                ) : null}
                {invoice.buyer?.reg_com ? (
                  <>
                    <dt>{t('clients.regCom')}</dt>
                    <dd>{invoice.buyer.reg_com}</dd>
                  </>
                ) : null}
                {invoice.buyer?.address ? (
                  <>
                    <dt>{t('clients.address')}</dt>
                    <dd>{[invoice.buyer.address, invoice.buyer.city, invoice.buyer.county].filter(Boolean).join(', ')}</dd>
                  </>
                ) : null}
                <dt>e-Factura</dt>
                <dd>
                  <EfacturaBadge status={invoice.efactura_status} /> <span className="muted small">{invoice.spv_environment === 'test' ? t('settings.efactura.test') : t('settings.efactura.live')}</span>
                  {canSend ? (
                    <div className="small" data-testid="efactura-upload-deadline">
                      {t('efacturaClock.uploadBy', { date: formatDate(efacturaUploadDeadline(invoice.issue_date)) })}
                    </div>
                  ) : null}
                </dd>
              </dl>
            </div>
          </div>
          <div className="card">
            <table className="grid" data-testid="detail-lines">
              <thead>
                <tr>
                  <th>#</th>
                  <th>{t('counter.col.product')}</th>
                  <th className="num">{t('counter.col.quantity')}</th>
                  <th className="num">{t('counter.col.price')}</th>
                  <th className="num">{t('counter.col.discount')}</th>
                  <th className="num">{t('counter.col.vat')}</th>
                  <th className="num">{t('counter.col.total')}</th>
                </tr>
              </thead>
              <tbody>
                {invoice.lines.map((l) => (
                  <tr key={l.position}>
                    <td className="muted">{l.position}</td>
                    <td>
                      {l.description}
                      {l.vat_category && l.vat_category !== 'E' && !invoice.reverse_charge ? (
                        <div className="muted small" data-testid="detail-line-vat-category">
                          {t(`counter.vatCategory.${l.vat_category}`)}
                        </div>
                      ) : null}
                      {l.vat_exemption_reason ? <div className="muted small">{l.vat_exemption_reason}</div> : null}
                    </td>
                    <td className="num">
                      {formatQuantity(l.quantity, language)} <span className="muted small">{l.unit}</span>
                    </td>
                    <td className="num">{formatPriceE4(l.unit_price_e4, language)}{l.base_quantity !== 1 ? ` / ${formatQuantity(l.base_quantity, language)} ${l.unit}` : ''}</td>
                    <td className="num">{l.discount_percent ? formatPercent(l.discount_percent, language) : ''}</td>
                    <td className="num">
                      {invoice.reverse_charge ? 'TI' : formatPercent(l.vat_rate, language)} <span className="muted small">{formatBani(l.vat_bani, language)}</span>
                    </td>
                    <td className="num">
                      <strong>{formatBani(l.total_bani, language)}</strong>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="body row" style={{ justifyContent: 'flex-end' }}>
              <table style={{ minWidth: 320 }}>
                <tbody>
                  {invoice.allowances_charges.map((a, i) => (
                    <tr key={`adj-${i}`} className="muted small" data-testid="detail-adjustment">
                      <td>
                        {t(a.charge ? 'print.charge' : 'print.allowance')}
                        {a.reason ? `: ${a.reason}` : ''} ({formatPercent(a.vat_rate, language)})
                      </td>
                      <td className="num">{formatBani(a.charge ? a.amount_bani : -a.amount_bani, language)}</td>
                    </tr>
                  ))}
                  <tr>
                    <td className="muted">{t('counter.net')}</td>
                    <td className="num">{formatMoney(invoice.totals.net_bani, invoice.currency, language)}</td>
                  </tr>
                  {invoice.vat_breakdown.map((b) => (
                    <tr key={`${b.vat_rate}-${b.vat_category ?? ''}`} className="muted small" data-testid="detail-vat-row">
                      <td>
                        {invoice.reverse_charge ? t('counter.reverseCharge') : `${t('counter.vat')} ${formatPercent(b.vat_rate, language)}`}
                        {b.vat_category && !invoice.reverse_charge ? ` ${t(`counter.vatCategory.${b.vat_category}`)}` : ''} · {t('counter.base')} {formatBani(b.net_bani, language)}
                      </td>
                      <td className="num">{formatBani(b.vat_bani, language)}</td>
                    </tr>
                  ))}
                  <tr>
                    <td className="muted">{t('counter.vatTotal')}</td>
                    <td className="num">{formatMoney(invoice.totals.vat_bani, invoice.currency, language)}</td>
                  </tr>
                  <tr>
                    <td>
                      <strong>{t('counter.total')}</strong>
                    </td>
                    <td className="num" style={{ fontSize: 20 }} data-testid="detail-total">
                      <strong>{formatMoney(invoice.totals.total_bani, invoice.currency, language)}</strong>
                    </td>
                  </tr>
                  {!isDraft ? (
                    <tr>
                      <td className="muted">{t('invoices.amountDue')}</td>
                      <td className="num">{formatMoney(invoice.amount_due_bani, invoice.currency, language)}</td>
                    </tr>
                  ) : null}
                </tbody>
              </table>
            </div>
          </div>
          <div className="card">
            <header>
              <h2>{t('invoices.receiptsAndPayments')}</h2>
            </header>
            {bankPayments.length > 0 ? (
              <table className="grid" data-testid="detail-payments">
                <tbody>
                  {bankPayments.map((p) => (
                    <tr key={p.id}>
                      <td>{t(`payment.${(['receipt', 'bank_order', 'card', 'fiscal_receipt', 'other'] as const).find((x) => x === p.type) ?? 'other'}`)}</td>
                      <td>{formatDate(p.date)}</td>
                      <td className="num">{formatMoney(p.amount_bani, p.currency, language)}</td>
                      <td>
                        <SyncBadge sync={p.sync} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {receipts.data && receipts.data.items.length > 0 ? (
              <table className="grid" data-testid="detail-receipts">
                <tbody>
                  {receipts.data.items.map((r) => (
                    <tr key={r.id} className="clickable" onClick={() => navigate({ screen: 'receipts', id: r.id })}>
                      <td>{r.receipt_number ?? <span className="muted">{t('receipts.numberPending')}</span>}</td>
                      <td>{formatDate(r.date)}</td>
                      <td>{t(`payment.${r.type}`)}</td>
                      <td className="num">{formatMoney(r.amount_bani, r.currency, language)}</td>
                      <td>
                        <SyncBadge sync={r.sync} />
                      </td>
                      <td>
                        <button
                          type="button"
                          className="btn ghost"
                          disabled={!r.receipt_number}
                          onClick={(e) => {
                            e.stopPropagation();
                            void receiptHtml(r, settings).then(printHtml);
                          }}
                        >
                          {t('common.print')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              bankPayments.length === 0 ? <div className="body muted">{t('invoices.noPayments')}</div> : null
            )}
          </div>
        </div>
        <div className="card actions" data-testid="detail-actions">
          <button type="button" className="btn primary" data-testid="detail-print" onClick={() => void print()}>
            {t('common.print')}
          </button>
          <button type="button" className="btn" onClick={() => void pdf().catch((e: unknown) => toast(describeError(e, t), 'bad'))}>
            {t('common.savePdf')}
          </button>
          {isDraft ? (
            <>
              <button type="button" className="btn primary" data-testid="detail-continue" onClick={() => navigate({ screen: 'counter', id: invoice.id })}>
                {t('invoices.continueDraft')}
              </button>
              <button
                type="button"
                className="btn"
                data-testid="detail-issue"
                disabled={!hasBuyer}
                title={hasBuyer ? '' : t('counter.problem.client_required')}
                onClick={() => setDialog('issue')}
              >
                {t('invoices.issueDraft')}
              </button>
              {!hasBuyer ? <span className="muted small">{t('invoices.draftNeedsClient')}</span> : null}
            </>
          ) : null}
          {canCollect ? (
            <button type="button" className="btn" data-testid="detail-collect" onClick={() => setDialog('receipt')}>
              {t('invoices.collectCash')}
            </button>
          ) : null}
          {canCollect ? (
            <button type="button" className="btn" data-testid="detail-payment" onClick={() => setDialog('payment')}>
              {t('invoices.recordPayment')}
            </button>
          ) : null}
          {canConvert ? (
            <button type="button" className="btn primary" data-testid="detail-convert" onClick={() => setDialog('convert')}>
              {t('invoices.convertProforma')}
            </button>
          ) : null}
          {canSend ? (
            <button type="button" className="btn" data-testid="detail-spv" onClick={() => setDialog('spv')}>
              {t('invoices.sendSpv')}
            </button>
          ) : null}
          {canStorno ? (
            <button type="button" className="btn danger" data-testid="detail-storno" onClick={() => setDialog('storno')}>
              {t('invoices.storno')}
            </button>
          ) : null}
          {canDiscard ? (
            <button type="button" className="btn danger" data-testid="detail-discard" onClick={() => setDialog('discard')}>
              {isDraft ? t('invoices.deleteDraft') : t('invoices.discardUnsynced')}
            </button>
          ) : null}
          {invoice.storno_of ? (
            <button type="button" className="btn ghost" onClick={() => navigate({ screen: 'invoices', id: invoice.storno_of! })}>
              {t('invoices.openOriginal')}
            </button>
          ) : null}
          {invoice.storno_id ? (
            <button type="button" className="btn ghost" data-testid="detail-open-storno" onClick={() => navigate({ screen: 'invoices', id: invoice.storno_id! })}>
              {t('invoices.openStorno')}
            </button>
          ) : null}
        </div>
      </div>
      {dialog === 'issue' ? <IssueDraftDialog invoice={invoice} settings={settings} onClose={() => setDialog(null)} /> : null}
      {dialog === 'storno' ? <StornoDialog invoice={invoice} onClose={() => setDialog(null)} /> : null}
      {dialog === 'discard' ? <DiscardDialog invoice={invoice} onClose={() => setDialog(null)} /> : null}
      {dialog === 'receipt' ? <CollectDialog invoice={invoice} onClose={() => setDialog(null)} /> : null}
      {dialog === 'payment' ? <PaymentDialog invoice={invoice} onClose={() => setDialog(null)} /> : null}
      {dialog === 'convert' ? <ConvertDialog invoice={invoice} settings={settings} onClose={() => setDialog(null)} /> : null}
      {dialog === 'spv' ? <SendSpvDialog invoice={invoice} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

function SeriesField(props: { value: string; onChange(id: string): void; documentType: 'fiscal' | 'proforma' }) {
  const t = useI18n().t;
  const series = useIpcQuery('series.list', undefined);
  const options = (series.data ?? []).filter((s) => s.kind === 'invoice' && s.document_type === props.documentType);
  const current = options.find((s) => s.id === props.value);
  return (
    <Field label={t('counter.series')} error={current && !current.next_full_number ? t('counter.noNumberOffline') : null}>
      <select value={props.value} data-testid="dialog-series" onChange={(e) => props.onChange(e.target.value)}>
        {options.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} — {s.next_full_number ?? t('counter.noNumberOffline')}
          </option>
        ))}
      </select>
    </Field>
  );
}

function IssueDraftDialog({ invoice, settings, onClose }: { invoice: InvoiceView; settings: Settings | undefined; onClose(): void }) {
  const t = useI18n().t;
  const toast = useToast();
  const series = useIpcQuery('series.list', undefined);
  const mutation = useIpcMutation('invoices.issueDraft');
  const fallback = (series.data ?? []).find((s) => s.document_type === invoice.document_type && (s.id === settings?.default_series_id || s.is_primary)) ?? (series.data ?? []).find((s) => s.document_type === invoice.document_type);
  const [seriesId, setSeriesId] = useState<string>('');
  const chosen = seriesId || fallback?.id || '';
  return (
    <ActionDialog
      title={t('invoices.issueDraft')}
      onClose={onClose}
      error={mutation.error}
      confirmLabel={t('invoices.issueDraft')}
      confirmDisabled={!chosen || mutation.isPending}
      onConfirm={() =>
        mutation.mutateAsync({ id: invoice.id, series_id: chosen }).then((issued) => {
          toast(t('invoices.issuedToast', { number: issued.full_number ?? '' }), 'ok');
          onClose();
        })
      }
    >
      <p className="muted" style={{ marginBottom: 10 }}>
        {t('invoices.issueDraftHelp')}
      </p>
      <SeriesField value={chosen} onChange={setSeriesId} documentType={invoice.document_type} />
    </ActionDialog>
  );
}

function StornoDialog({ invoice, onClose }: { invoice: InvoiceView; onClose(): void }) {
  const t = useI18n().t;
  const toast = useToast();
  const mutation = useIpcMutation('invoices.storno');
  const [seriesId, setSeriesId] = useState(invoice.series_id ?? '');
  return (
    <ActionDialog
      title={t('invoices.stornoTitle', { number: invoice.full_number ?? '' })}
      onClose={onClose}
      testId="storno-dialog"
      error={mutation.error}
      tone="danger"
      confirmLabel={t('invoices.storno')}
      confirmDisabled={mutation.isPending}
      onConfirm={() =>
        mutation.mutateAsync({ id: invoice.id, ...(seriesId ? { series_id: seriesId } : {}) }).then((storno) => {
          toast(t('invoices.stornoDone', { number: storno.full_number ?? '' }), 'ok');
          onClose();
          navigate({ screen: 'invoices', id: storno.id });
        })
      }
    >
      <p style={{ marginBottom: 10 }}>{t('invoices.stornoHelp')}</p>
      <SeriesField value={seriesId} onChange={setSeriesId} documentType="fiscal" />
    </ActionDialog>
  );
}

function DiscardDialog({ invoice, onClose }: { invoice: InvoiceView; onClose(): void }) {
  const t = useI18n().t;
  const toast = useToast();
  const mutation = useIpcMutation('invoices.discard');
  const isDraft = invoice.status === 'draft';
  return (
    <ActionDialog
      title={isDraft ? t('invoices.deleteDraft') : t('invoices.discardUnsynced')}
      onClose={onClose}
      error={mutation.error}
      tone="danger"
      confirmLabel={t('common.confirm')}
      confirmDisabled={mutation.isPending}
      onConfirm={() =>
        mutation.mutateAsync({ id: invoice.id }).then((r) => {
          toast(r.released_full_number ? t('invoices.discardedGap', { number: r.released_full_number }) : t('invoices.deleted'), 'ok');
          onClose();
          navigate({ screen: 'invoices' });
        })
      }
    >
      <p>{isDraft ? t('invoices.deleteDraftHelp') : t('invoices.discardHelp', { number: invoice.full_number ?? '' })}</p>
    </ActionDialog>
  );
}

/** An amount taken against what the invoice still owes: typed in the cashier's locale, never more than is due. */
function useAmountAgainstDue(invoice: InvoiceView) {
  const { language } = useI18n();
  const [text, setText] = useState(formatBani(invoice.amount_due_bani, language));
  const amount = parseAmountInput(text);
  const valid = amount !== null && amount > 0 && amount <= invoice.amount_due_bani;
  return { text, setText, amount, valid };
}

function AmountAgainstDueField({ invoice, entry, big, testId }: { invoice: InvoiceView; entry: ReturnType<typeof useAmountAgainstDue>; big?: boolean; testId: string }) {
  const { t, language } = useI18n();
  return (
    <Field label={t('receipts.amount')}>
      <input className={`input${big ? ' big' : ''} num${entry.valid ? '' : ' invalid'}`} data-testid={testId} value={entry.text} onChange={(e) => entry.setText(e.target.value)} />
      <span className="hint">
        {t('invoices.amountDue')}: {formatMoney(invoice.amount_due_bani, invoice.currency, language)}
      </span>
    </Field>
  );
}

function CollectDialog({ invoice, onClose }: { invoice: InvoiceView; onClose(): void }) {
  const t = useI18n().t;
  const toast = useToast();
  const mutation = useIpcMutation('receipts.create');
  const entry = useAmountAgainstDue(invoice);
  return (
    <ActionDialog
      title={t('invoices.collectCash')}
      onClose={onClose}
      testId="collect-dialog"
      error={mutation.error}
      confirmLabel={t('receipts.issue')}
      confirmDisabled={!entry.valid || mutation.isPending}
      onConfirm={() =>
        mutation
          .mutateAsync({
            invoice_id: invoice.id,
            client_id: invoice.client_id ?? undefined,
            client_name: invoice.client_id ? undefined : (invoice.client_name ?? t('counter.endConsumer')),
            amount_bani: entry.amount ?? 0,
            currency: invoice.currency,
            type: 'receipt',
          })
          .then(() => {
            toast(t('receipts.created'), 'ok');
            onClose();
          })
      }
    >
      <AmountAgainstDueField invoice={invoice} entry={entry} big testId="collect-amount" />
    </ActionDialog>
  );
}

function PaymentDialog({ invoice, onClose }: { invoice: InvoiceView; onClose(): void }) {
  const t = useI18n().t;
  const toast = useToast();
  const mutation = useIpcMutation('payments.create');
  const entry = useAmountAgainstDue(invoice);
  const [type, setType] = useState<'bank_order' | 'card' | 'other'>('bank_order');
  const [date, setDate] = useState(todayInBucharest());
  return (
    <ActionDialog
      title={t('invoices.recordPayment')}
      onClose={onClose}
      testId="payment-dialog"
      error={mutation.error}
      confirmLabel={t('common.save')}
      confirmDisabled={!entry.valid || mutation.isPending}
      onConfirm={() =>
        mutation.mutateAsync({ invoice_id: invoice.id, amount_bani: entry.amount ?? 0, type, date }).then(() => {
          toast(t('invoices.paymentRecorded'), 'ok');
          onClose();
        })
      }
    >
      <div className="form-grid">
        <AmountAgainstDueField invoice={invoice} entry={entry} testId="payment-amount" />
        <Field label={t('counter.payment')}>
          <select value={type} data-testid="payment-type" onChange={(e) => setType(e.target.value as 'bank_order' | 'card' | 'other')}>
            <option value="bank_order">{t('payment.bank_order')}</option>
            <option value="card">{t('payment.card')}</option>
            <option value="other">{t('payment.other')}</option>
          </select>
        </Field>
        <Field label={t('invoices.col.date')}>
          <input className="input" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </Field>
      </div>
    </ActionDialog>
  );
}

function ConvertDialog({ invoice, settings, onClose }: { invoice: InvoiceView; settings: Settings | undefined; onClose(): void }) {
  const t = useI18n().t;
  const toast = useToast();
  const series = useIpcQuery('series.list', undefined);
  const mutation = useIpcMutation('invoices.convert');
  const fiscal = (series.data ?? []).filter((s) => s.kind === 'invoice' && s.document_type === 'fiscal');
  const fallback = fiscal.find((s) => s.id === settings?.default_series_id) ?? fiscal.find((s) => s.is_primary) ?? fiscal[0];
  const [seriesId, setSeriesId] = useState('');
  const chosen = seriesId || fallback?.id || '';
  return (
    <ActionDialog
      title={t('invoices.convertProforma')}
      onClose={onClose}
      testId="convert-dialog"
      error={mutation.error}
      confirmLabel={t('invoices.convertProforma')}
      confirmDisabled={!chosen || mutation.isPending}
      onConfirm={() =>
        mutation.mutateAsync({ id: invoice.id, series_id: chosen }).then((fiscalInvoice) => {
          toast(t('invoices.issuedToast', { number: fiscalInvoice.full_number ?? '' }), 'ok');
          onClose();
          navigate({ screen: 'invoices', id: fiscalInvoice.id });
        })
      }
    >
      <p className="muted" style={{ marginBottom: 10 }}>
        {t('invoices.convertHelp')}
      </p>
      <SeriesField value={chosen} onChange={setSeriesId} documentType="fiscal" />
    </ActionDialog>
  );
}

/**
 * Sending to e-Factura. A live submission cannot be withdrawn (spec, general rule 8): the dialog
 * says which environment the invoice goes to, in red when it is the live one.
 */
function SendSpvDialog({ invoice, onClose }: { invoice: InvoiceView; onClose(): void }) {
  const t = useI18n().t;
  const toast = useToast();
  const mutation = useIpcMutation('invoices.sendToSpv');
  const live = invoice.spv_environment === 'live';
  return (
    <ActionDialog
      title={t('invoices.sendSpvTitle', { number: invoice.full_number ?? '' })}
      onClose={onClose}
      testId="spv-dialog"
      error={mutation.error}
      tone={live ? 'danger' : 'primary'}
      confirmLabel={t('invoices.sendSpv')}
      confirmDisabled={mutation.isPending || invoice.sync.state !== 'synced'}
      onConfirm={() =>
        mutation.mutateAsync({ id: invoice.id }).then((r) => {
          toast(`${t('invoices.spvSent')} ${r.message}`, 'ok');
          onClose();
        })
      }
    >
      {live ? <div className="warning-live">{t('settings.efactura.irreversible')}</div> : <p>{t('settings.efactura.testHelp')}</p>}
      {invoice.sync.state !== 'synced' ? <p className="error-text" style={{ marginTop: 10 }}>{t('invoices.spvNeedsSync')}</p> : null}
    </ActionDialog>
  );
}
