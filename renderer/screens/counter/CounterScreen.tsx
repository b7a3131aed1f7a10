import { useDeferredValue, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { InvoiceView, ReceiptView, SeriesView, Settings } from '../../../shared/ipc';
import { PAYMENT_METHOD_TYPES, type PaymentMethodType } from '../../../shared/schemas/common';
import { navigate } from '../../app/router';
import { SyncBadge } from '../../components/Badges';
import { useToast } from '../../components/Toasts';
import { percentToBp, toMilli } from '../../../shared/invoice-math';
import {
  cartAdjustmentInputs, cartIssueBuyer, cartItems, cartProblems, cartReducer, cartReferences, cartTender, cartTotals, emptyCart, newCartId,
  type Cart, type CartAction, type CartProblem, type CartReferences,
} from '../../counter/cart';
import { DocumentAdjustments, DocumentReferences, reasonKey } from './DocumentExtras';
import { DEFAULT_WEIGHED_RULES, type WeighedRule } from '../../counter/barcode';
import { ParkedCarts } from './ParkedCarts';
import { TenderBox } from './TenderBox';
import { todayInBucharest } from '../../../shared/dates';
import { callIpc, useIpcMutation, useIpcQuery } from '../../data/hooks';
import { cartStockWarnings } from '../../counter/stock-warning';
import { useI18n } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n';
import { describeSaleError, errorOf } from '../../lib/errors';
import { formatBani, formatMoney, formatScaled } from '../../lib/format';
import { invoiceHtml, receiptHtml } from '../../print/print-invoice';
import { pdfFileName, printHtml, savePdf } from '../../print/print-document';
import { ClientPicker, toCartClient, type ClientPickerHandle } from './ClientPicker';
import { LinesTable } from './LinesTable';
import { ProductSearch, type ProductSearchHandle } from './ProductSearch';
import { SaleRefusal, useWatchedSync } from './SaleRefusal';
import { CashCeiling } from './CashCeiling';

const PAYMENT_KEYS: Record<PaymentMethodType, MessageKey> = {
  receipt: 'payment.receipt',
  card: 'payment.card',
  bank_order: 'payment.bank_order',
  fiscal_receipt: 'payment.fiscal_receipt',
  other: 'payment.other',
};

const PROBLEM_KEYS: Record<CartProblem, MessageKey> = {
  no_lines: 'counter.problem.no_lines',
  client_required: 'counter.problem.client_required',
  exemption_missing: 'counter.problem.exemption_missing',
  intra_community_buyer: 'counter.problem.intra_community_buyer',
  intra_community_vat_id: 'counter.problem.intra_community_vat_id',
  intra_community_region: 'counter.problem.intra_community_region',
  due_before_issue: 'counter.problem.due_before_issue',
  zero_total: 'till.problem.zero_total',
  card_part_too_large: 'till.problem.card_part_too_large',
  adjustment_rate: 'counter.problem.adjustment_rate',
  adjustment_amount: 'counter.problem.adjustment_amount',
};

function pickSeries(series: readonly SeriesView[], settings: Settings | undefined): SeriesView | undefined {
  const fiscal = series.filter((s) => s.kind === 'invoice' && s.document_type === 'fiscal');
  return fiscal.find((s) => s.id === settings?.default_series_id) ?? fiscal.find((s) => s.is_primary) ?? fiscal[0];
}

interface Issued {
  invoice: InvoiceView;
  receipt: ReceiptView | null;
  /** Cash to give back, from what the customer handed over. */
  change_bani: number;
}

/**
 * The counter: a new invoice in a few keystrokes. Everything completes locally at once; the number
 * comes from this device's lock or reservation pool, so it is final even offline. Keys: F2 product,
 * F3 client, F7 new client, F4 quantity, F5 unit price, F6 discount, F8 payment method, F9 issue, Ctrl+S draft,
 * Ctrl+P print, Esc new invoice after issuing.
 */
export function CounterScreen({ settings, draftId }: { settings: Settings | undefined; draftId?: string }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const [cart, dispatch] = useReducer(cartReducer, undefined, () => emptyCart('receipt'));
  const [issued, setIssued] = useState<Issued | null>(null);
  // The carts kept on this device: loaded once, then written at every change (a crash loses nothing).
  const [loaded, setLoaded] = useState(false);
  const [parked, setParked] = useState<Cart[]>([]);
  const [defaultPayment, setDefaultPayment] = useState<PaymentMethodType>('receipt');
  const [barcodeRules, setBarcodeRules] = useState<WeighedRule[] | null>(null);
  // Set synchronously when a sale starts: a second F9 or click before React re-renders does nothing.
  const selling = useRef(false);
  const [seriesId, setSeriesId] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const search = useRef<ProductSearchHandle>(null);
  const clientPicker = useRef<ClientPickerHandle>(null);
  const problemsBox = useRef<HTMLDivElement>(null);
  const seriesQuery = useIpcQuery('series.list', undefined);
  const syncStatus = useIpcQuery('sync.status', undefined);
    const saveDraft = useIpcMutation('invoices.saveDraft');
  const createReceipt = useIpcMutation('receipts.create');
  const sell = useIpcMutation('counter.sell');
  const issueDraft = useIpcMutation('invoices.issueDraft');
  const [editingDraft, setEditingDraft] = useState<string | null>(null);

  // The cart left on the counter (by leaving the screen, a restart or a crash) comes back as it was.
  useEffect(() => {
    let cancelled = false;
    void callIpc('counter.carts', undefined)
      .then((carts) => {
        if (cancelled) return;
        setDefaultPayment(carts.default_payment);
        setBarcodeRules(carts.barcode_rules);
        setParked(carts.parked);
        if (carts.current && carts.current.lines.length > 0 && !draftId) dispatch({ type: 'restore', cart: carts.current });
        else dispatch({ type: 'clear', id: newCartId(), payment_method: carts.default_payment });
        setLoaded(true);
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        toast(describeSaleError(error, t, language), 'bad');
        setLoaded(true);
      });
    return () => {
      cancelled = true;
    };
    // Once per visit of the counter: later changes are this screen's own.
  }, []);

  useEffect(() => {
    if (!loaded) return;
    // Sent in the task after the change, not inside it: a scan's line reaches the screen first. Every
    // change is still written, in order (timers of equal delay run in the order they were set).
    setTimeout(() => {
      callIpc('counter.saveCarts', { current: cart.lines.length > 0 ? cart : null, parked }).catch((error: unknown) => toast(describeSaleError(error, t, language), 'bad'));
    }, 0);
  }, [loaded, cart, parked, t, toast]);

  // A draft opened from the invoice list comes back to the counter to be finished and issued.
  useEffect(() => {
    if (!draftId) return;
    let cancelled = false;
    void (async () => {
      try {
        const draft = await callIpc('invoices.get', { id: draftId });
        if (cancelled || draft.status !== 'draft') return;
        const client = draft.client_id ? await callIpc('clients.get', { id: draft.client_id }).catch(() => null) : null;
        dispatch({
          type: 'load',
          lines: draft.lines.map((l) => ({
            product_id: l.product_id,
            code: null,
            description: l.description,
            unit: l.unit,
            unit_code: l.unit_code,
            quantity_milli: toMilli(l.quantity),
            unit_price_bani: l.unit_price_bani,
            // Kept exactly: a draft priced with 4 decimals (or per 1 000 units) is saved back unchanged.
            unit_price_e4: l.unit_price_e4,
            base_quantity_milli: toMilli(l.base_quantity),
            price_includes_vat: l.price_includes_vat,
            vat_rate_bp: percentToBp(l.vat_rate),
            discount_bp: percentToBp(l.discount_percent),
            vat_exemption_reason: l.vat_exemption_reason,
            vat_category: l.vat_category,
            return_of: null,
          })),
          client: client ? toCartClient(client) : null,
          payment_method: draft.payment_method,
          reverse_charge: draft.reverse_charge,
          observations: draft.observations ?? '',
          due_date: draft.due_date ?? '',
          delivery_date: draft.delivery_date ?? '',
          // A draft's discounts and charges come back as the amounts they were saved at.
          adjustments: draft.allowances_charges.map((a) => ({
            charge: a.charge, percent_bp: null, amount_bani: a.amount_bani, vat_rate_bp: percentToBp(a.vat_rate), vat_category: a.vat_category,
            reason_code: a.reason_code ?? '', reason: a.reason ?? '',
          })),
          references: Object.fromEntries(Object.entries(draft.references).filter(([, v]) => v !== null)) as CartReferences,
        });
        setEditingDraft(draft.id);
      } catch (error) {
        toast(describeSaleError(error, t, language), 'bad');
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [draftId, t, toast]);

  const allSeries = seriesQuery.data ?? [];
  const series = allSeries.find((s) => s.id === seriesId) ?? pickSeries(allSeries, settings);
  const totals = useMemo(() => cartTotals(cart), [cart]);
  // The cart's products against the cached stock (the same figure as the search's badge), and the firm's rule.
  const cartProductIds = useMemo(() => [...new Set(cart.lines.flatMap((l) => (l.product_id ? [l.product_id] : [])))].sort(), [cart.lines]);
  // Asked in a render of its own after the line is shown (a deferred value), not in the scan's commit.
  const stockProductIds = useDeferredValue(cartProductIds);
  const cartStock = useIpcQuery('stock.cartStock', { product_ids: stockProductIds }, { enabled: stockProductIds.length > 0, keepPrevious: true });
  const stockWarnings = useMemo(() => cartStockWarnings(cart.lines, cartStock.data), [cart.lines, cartStock.data]);
  const problems = cartProblems(cart, todayInBucharest());
  const online = syncStatus.data?.mode === 'online';

  // After the render the keyboard goes back to the product box, unless the cashier has already moved
  // it (F6 pressed right after the Enter that committed a quantity must keep the discount cell).
  // A function key pressed before the timer runs is that move even when it lands on the cell that
  // had the focus (Escape then F4 on the same line): it cancels the return, see onKey below.
  const pendingFocus = useRef<ReturnType<typeof setTimeout> | null>(null);
  const focusSearch = () => {
    const from = document.activeElement;
    if (pendingFocus.current !== null) clearTimeout(pendingFocus.current);
    pendingFocus.current = setTimeout(() => {
      pendingFocus.current = null;
      const now = document.activeElement;
      if (now === from || now === null || now === document.body || !now.isConnected) search.current?.focus();
    }, 0);
  };
  const cancelFocusSearch = () => {
    if (pendingFocus.current !== null) clearTimeout(pendingFocus.current);
    pendingFocus.current = null;
  };

  const newInvoice = () => {
    if (draftId) navigate({ screen: 'counter' });
    setIssued(null);
    setAttempted(false);
    dispatch({ type: 'clear', id: newCartId(), payment_method: defaultPayment });
    focusSearch();
  };

  /** "Pune în așteptare": the cart steps aside, kept on this device; the counter serves the next customer. */
  const park = () => {
    if (cart.lines.length === 0) return;
    setParked((list) => [...list, { ...cart, parked_at: Math.floor(Date.now() / 1000) }]);
    dispatch({ type: 'clear', id: newCartId(), payment_method: defaultPayment });
    setAttempted(false);
    toast(t('till.parked'), 'ok');
    focusSearch();
  };

  /** A parked cart comes back; the cart on the counter, if it has lines, takes its place in the waiting list. */
  const resume = (id: string) => {
    const chosen = parked.find((c) => c.id === id);
    if (!chosen) return;
    setParked((list) => [...list.filter((c) => c.id !== id), ...(cart.lines.length > 0 ? [{ ...cart, parked_at: Math.floor(Date.now() / 1000) }] : [])]);
    dispatch({ type: 'restore', cart: { ...chosen, parked_at: null } });
    setIssued(null);
    setAttempted(false);
    focusSearch();
  };

  async function doIssue(): Promise<void> {
    // One sale at a time: the flag is set before anything awaits, so F9 pressed again (or the button
    // clicked) while this one runs does nothing.
    if (selling.current) return;
    // A line's cell left holding a refused value (a price with 5 decimals): the cart still has the old
    // one, which is not what the cashier meant to sell. Back to the cell, its reason beside it.
    const refused = document.querySelector<HTMLInputElement>('[data-testid=cart-lines] input[aria-invalid=true]');
    if (refused) {
      refused.focus();
      return;
    }
    setAttempted(true);
    if (problems.length > 0) {
      // On a 768- or 800-pixel screen the panel scrolls: what blocks issuing must come into sight.
      setTimeout(() => problemsBox.current?.scrollIntoView({ block: 'nearest' }), 0);
      return;
    }
    if (!series) {
      toast(t('counter.noSeries'), 'bad');
      return;
    }
    // No client chosen: a walk-in sale, issued to "Persoană fizică" (cartIssueBuyer).
    selling.current = true;
    const sold = cart;
    const env = settings?.efactura_environment ?? 'test';
    const body = {
      ...cartIssueBuyer(sold),
      lines: cartItems(sold),
      payment_method: sold.payment_method,
      reverse_charge: sold.reverse_charge,
      observations: sold.observations.trim() || null,
      due_date: sold.due_date || null,
      delivery_date: sold.delivery_date || null,
      allowances_charges: cartAdjustmentInputs(sold, (code) => t(reasonKey(code))),
      references: cartReferences(sold),
      language: 'ro',
      spv_environment: env,
    };
    try {
      if (editingDraft) {
        await saveDraft.mutateAsync({ ...body, id: editingDraft });
        const invoice = await issueDraft.mutateAsync({ id: editingDraft, series_id: series.id });
        setEditingDraft(null);
        let receipt: ReceiptView | null = null;
        if (sold.payment_method === 'receipt') {
          receipt = await createReceipt.mutateAsync({
            invoice_id: invoice.id, client_id: invoice.client_id ?? undefined, amount_bani: invoice.totals.total_bani, type: 'receipt', language: 'ro',
          });
        }
        setIssued({ invoice, receipt, change_bani: 0 });
      } else {
        // The cart's id is the sale's key: whatever failed before, this never makes a second document.
        const { card_bani: card, change_bani: change } = cartTender(sold, totals.total_bani);
        const sale = await sell.mutateAsync({ ...body, series_id: series.id, cart_id: sold.id, card_bani: sold.payment_method === 'receipt' ? card : 0 });
        setIssued({ invoice: sale.invoice, receipt: sale.receipt, change_bani: change });
      }
      dispatch({ type: 'clear', id: newCartId(), payment_method: defaultPayment });
      setAttempted(false);
    } catch (error) {
      // The cart stays as it was, with its id: fixing the cause and pressing F9 again sells it once.
      toast(describeSaleError(error, t, language), 'bad');
    } finally {
      selling.current = false;
      focusSearch();
    }
  }

  async function doDraft(): Promise<void> {
    if (cart.lines.length === 0) return;
    try {
      const draft = await saveDraft.mutateAsync({
        ...(editingDraft ? { id: editingDraft } : {}),
        client_id: cart.client?.id ?? null,
        lines: cartItems(cart),
        payment_method: cart.payment_method,
        reverse_charge: cart.reverse_charge,
        observations: cart.observations.trim() || null,
        due_date: cart.due_date || null,
        delivery_date: cart.delivery_date || null,
        allowances_charges: cartAdjustmentInputs(cart, (code) => t(reasonKey(code))),
        references: cartReferences(cart),
      });
      toast(t('counter.draftSaved'), 'ok');
      dispatch({ type: 'clear', id: newCartId(), payment_method: defaultPayment });
      setEditingDraft(null);
      navigate({ screen: 'invoices', id: draft.id });
    } catch (error) {
      toast(describeSaleError(error, t, language), 'bad');
    }
  }

  // After printing, the scan box has the keyboard again (never the hidden print frame).
  const backToScan = () => {
    window.focus();
    search.current?.focus();
  };
  const printInvoice = (invoice: InvoiceView) => void invoiceHtml(invoice, settings).then(printHtml).then(backToScan, backToScan);
  const printReceipt = (receipt: ReceiptView) => void receiptHtml(receipt, settings).then(printHtml).then(backToScan, backToScan);

  // Keyboard: the counter's function keys, and a scanner typing while the focus is elsewhere.
  const state = useRef({ cart, issued, doIssue, doDraft, newInvoice, printInvoice, cancelFocusSearch });
  state.current = { cart, issued, doIssue, doDraft, newInvoice, printInvoice, cancelFocusSearch };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = state.current;
      const target = e.target as HTMLElement | null;
      const inField = !!target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT');
      // The counter's price key, never the browser's reload (a web window would lose an open form).
      if (e.key === 'F5') e.preventDefault();
      if (document.querySelector('.overlay')) return;
      // Whatever has the focus (a button, the page), a typed character belongs to the product box:
      // moving the focus during keydown lets the character land there. This is what makes a
      // scanner work from anywhere on the counter, however slowly it types.
      if (!inField && e.key.length === 1 && !e.ctrlKey && !e.altKey && !e.metaKey && e.key !== '+' && e.key !== '-') {
        search.current?.focus();
        return;
      }
      const key = e.key;
      if (key === 'F2' || key === 'F3' || key === 'F4' || key === 'F5' || key === 'F6' || key === 'F7') s.cancelFocusSearch();
      if (key === 'F2') {
        e.preventDefault();
        search.current?.focus();
      } else if (key === 'F3') {
        e.preventDefault();
        clientPicker.current?.focus();
      } else if (key === 'F7') {
        e.preventDefault();
        clientPicker.current?.createNew();
      } else if (key === 'F4' || key === 'F5' || key === 'F6') {
        // Focused here, synchronously, so the digits typed right after F4 land in the cell. F5 must
        // never reach the browser either: in a web window it would reload the page.
        e.preventDefault();
        const cells = document.querySelectorAll<HTMLInputElement>(`[data-testid=${key === 'F4' ? 'line-quantity' : key === 'F5' ? 'line-price-input' : 'line-discount'}]`);
        const cell = cells[s.cart.selected] ?? cells[cells.length - 1];
        cell?.focus();
        cell?.select();
      } else if (key === 'F8') {
        e.preventDefault();
        const i = PAYMENT_METHOD_TYPES.indexOf(s.cart.payment_method);
        dispatch({ type: 'setPayment', payment_method: PAYMENT_METHOD_TYPES[(i + 1) % PAYMENT_METHOD_TYPES.length]! });
      } else if (key === 'F9' || (key === 'Enter' && e.ctrlKey)) {
        e.preventDefault();
        if (!s.issued) void s.doIssue();
      } else if (key.toLowerCase() === 's' && e.ctrlKey) {
        e.preventDefault();
        void s.doDraft();
      } else if (key.toLowerCase() === 'p' && e.ctrlKey && s.issued) {
        e.preventDefault();
        s.printInvoice(s.issued.invoice);
      } else if (key === 'Escape' && s.issued) {
        e.preventDefault();
        s.newInvoice();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    search.current?.focus();
  }, []);


  return (
    <div className="counter" data-testid="counter">
      <div className="left">
        <ProductSearch
          ref={search}
          onAdd={(product, quantity) => {
            dispatch({ type: 'addProduct', product, quantity_milli: quantity });
            if (issued) setIssued(null);
          }}
          onRefused={(message) => toast(message, 'bad')}
          barcodeRules={barcodeRules ?? DEFAULT_WEIGHED_RULES}
          onEmptyKey={(key) => {
            if (key === 'ArrowUp') dispatch({ type: 'select', index: cart.selected - 1 });
            else if (key === 'ArrowDown') dispatch({ type: 'select', index: cart.selected + 1 });
            else if (key === '+') dispatch({ type: 'nudgeQuantity', delta_milli: 1000 });
            else if (key === '-') dispatch({ type: 'nudgeQuantity', delta_milli: -1000 });
            else if (key === 'Delete') dispatch({ type: 'remove', index: cart.selected });
            else return false;
            return true;
          }}
        />
        <div className="keys-help" aria-hidden="true">
          <span><kbd>F2</kbd> {t('counter.key.search')}</span>
          <span><kbd>3*</kbd> {t('counter.key.multiply')}</span>
          <span><kbd>↑</kbd><kbd>↓</kbd> {t('counter.key.select')}</span>
          <span><kbd>+</kbd><kbd>-</kbd> {t('counter.key.nudge')}</span>
          <span><kbd>F4</kbd> {t('counter.key.quantity')}</span>
          <span><kbd>F5</kbd> {t('counter.key.price')}</span>
          <span><kbd>F6</kbd> {t('counter.key.discount')}</span>
          <span><kbd>Del</kbd> {t('counter.key.remove')}</span>
          <span><kbd>Ctrl</kbd>+<kbd>S</kbd> {t('counter.key.draft')}</span>
        </div>
        <ParkedCarts carts={parked} onResume={resume} />
        {editingDraft ? (
          <div className="banner info small" data-testid="editing-draft">
            {t('counter.editingDraft')}
          </div>
        ) : null}
        {issued ? (
          <IssuedPanel
            issued={issued}
            cashLimits={settings?.cash_limits}
            onPrint={() => printInvoice(issued.invoice)}
            onSavePdf={() =>
              void invoiceHtml(issued.invoice, settings)
                .then((html) => savePdf(html, pdfFileName('Factura', issued.invoice.full_number)))
                .then((outcome) => {
                  if (outcome === 'unsupported') printInvoice(issued.invoice);
                  else if (outcome === 'saved') toast(t('common.pdfSaved'), 'ok');
                })
                .catch((error: unknown) => toast(describeSaleError(error, t, language), 'bad'))
            }
            onPrintReceipt={issued.receipt ? () => printReceipt(issued.receipt!) : undefined}
            onNew={newInvoice}
          />
        ) : null}
        <div className="card lines-card">
          <div className="scroll">
            <LinesTable
              lines={cart.lines}
              amounts={totals.lines}
              selected={cart.selected}
              dispatch={dispatch}
              onDone={focusSearch}
              reverseCharge={cart.reverse_charge}
              stockWarnings={stockWarnings}
            />
          </div>
        </div>
      </div>
      <aside className="summary">
        <ClientPicker ref={clientPicker} client={cart.client} onPick={(client) => dispatch({ type: 'setClient', client })} onDone={focusSearch} onScan={(code) => search.current?.tryProduct(code) ?? Promise.resolve(false)} />
        <div className="card totals-box" data-testid="counter-totals">
          <table>
            <tbody>
              <tr>
                <td>{t('counter.net')}</td>
                <td className="num" data-testid="total-net">{formatBani(totals.net_bani, language)}</td>
              </tr>
              {totals.discount_bani !== 0 ? (
                <tr className="vat-row">
                  <td>{t('counter.discounts')}</td>
                  <td className="num">-{formatBani(totals.discount_bani, language)}</td>
                </tr>
              ) : null}
              {totals.allowance_total_bani !== 0 ? (
                <tr className="vat-row" data-testid="total-allowances">
                  <td>{t('print.allowance')}</td>
                  <td className="num">-{formatBani(totals.allowance_total_bani, language)}</td>
                </tr>
              ) : null}
              {totals.charge_total_bani !== 0 ? (
                <tr className="vat-row" data-testid="total-charges">
                  <td>{t('print.charge')}</td>
                  <td className="num">{formatBani(totals.charge_total_bani, language)}</td>
                </tr>
              ) : null}
              {totals.breakdown.map((b) => (
                <tr key={`${b.vat_rate_bp}-${b.vat_category ?? ''}`} className="vat-row" data-testid="vat-row">
                  <td>
                    {cart.reverse_charge ? t('counter.reverseCharge') : `${t('counter.vat')} ${formatScaled(b.vat_rate_bp, 2, language, 0)}%`}
                    {b.vat_category && !cart.reverse_charge ? ` ${t(`counter.vatCategory.${b.vat_category}`)}` : ''}
                    <span className="small"> · {t('counter.base')} {formatBani(b.net_bani, language)}</span>
                  </td>
                  <td className="num">{formatBani(b.vat_bani, language)}</td>
                </tr>
              ))}
              <tr>
                <td>{t('counter.vatTotal')}</td>
                <td className="num" data-testid="total-vat">{formatBani(totals.vat_bani, language)}</td>
              </tr>
              <tr className="grand">
                {/* One cell: the big amount must not set the width of the amounts column above it. */}
                <td colSpan={2}>
                  <div className="grand-row">
                    <span className="label">{t('counter.total')}</span>
                    <span className="amount num" data-testid="total-grand">{formatMoney(totals.total_bani, 'RON', language)}</span>
                  </div>
                </td>
              </tr>
            </tbody>
          </table>
        </div>
        <div className="card issue-box">
          <div className="row">
            <strong>{t('counter.payment')}</strong>
            <kbd>F8</kbd>
          </div>
          <div className="pay-methods" role="radiogroup" aria-label={t('counter.payment')}>
            {PAYMENT_METHOD_TYPES.map((m) => (
              <button key={m} type="button" role="radio" aria-checked={cart.payment_method === m} aria-pressed={cart.payment_method === m} data-testid={`pay-${m}`} onClick={() => dispatch({ type: 'setPayment', payment_method: m })}>
                {t(PAYMENT_KEYS[m])}
              </button>
            ))}
          </div>
          <TenderBox cart={cart} totalBani={totals.total_bani} dispatch={dispatch} onDone={focusSearch} />
          <label className="field small">
            {t('till.defaultPayment')}
            <select
              value={defaultPayment}
              data-testid="default-payment"
              onChange={(e) => {
                const method = e.target.value as PaymentMethodType;
                setDefaultPayment(method);
                void callIpc('counter.setDefaultPayment', { method }).catch((error: unknown) => toast(describeSaleError(error, t, language), 'bad'));
              }}
            >
              {PAYMENT_METHOD_TYPES.map((m) => (
                <option key={m} value={m}>
                  {t(PAYMENT_KEYS[m])}
                </option>
              ))}
            </select>
          </label>
          {cart.client?.vat_payer ? (
            <label className="check small">
              <input type="checkbox" checked={cart.reverse_charge} data-testid="reverse-charge" onChange={(e) => dispatch({ type: 'setReverseCharge', value: e.target.checked })} />
              {t('counter.reverseChargeToggle')}
            </label>
          ) : null}
          <label className="field">
            {t('counter.series')}
            <select value={series?.id ?? ''} data-testid="series-select" onChange={(e) => setSeriesId(e.target.value)}>
              {allSeries
                .filter((s) => s.kind === 'invoice' && s.document_type === 'fiscal')
                .map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} — {s.description || s.example_full_number}
                  </option>
                ))}
            </select>
            <span className="hint" data-testid="next-number">
              {series
                ? series.next_full_number
                  ? `${t('counter.nextNumber')}: ${series.next_full_number}${series.mode === 'shared' ? ` · ${t('counter.reserved', { count: series.pool.available })}` : series.mode === 'exclusive' ? ` · ${t('counter.exclusive')}` : ''}`
                  : t('counter.noNumberOffline')
                : t('counter.noSeries')}
            </span>
          </label>
          <InvoiceDetails cart={cart} dispatch={dispatch} />
          {!online && syncStatus.data ? <div className="banner info small">{t('counter.offlineNote')}</div> : null}
          {cart.payment_method === 'receipt' && seriesQuery.data && !allSeries.some((x) => x.kind === 'receipt' && !!x.next_full_number) ? (
            <div className="banner warn small" data-testid="receipt-no-number">
              {t('till.receiptNoNumber')}
            </div>
          ) : null}
          <CashCeiling buyer={cart.client} cashBani={cartTender(cart, totals.total_bani).cash_bani} limits={settings?.cash_limits} testId="cash-limit" />
          {attempted && problems.length > 0 ? (
            <div ref={problemsBox} className="banner bad small col" data-testid="cart-problems">
              {problems.map((p) => (
                <div key={p}>{t(PROBLEM_KEYS[p])}</div>
              ))}
            </div>
          ) : null}
          {sell.error && errorOf(sell.error)?.code === 'no_number_available' ? (
            <button type="button" className="btn" onClick={() => void doDraft()}>
              {t('counter.saveDraftInstead')}
            </button>
          ) : null}
          <button type="button" className="btn primary big" data-testid="issue" disabled={sell.isPending || issueDraft.isPending || cart.lines.length === 0} onClick={() => void doIssue()}>
            {t('counter.issue')} <kbd>F9</kbd>
          </button>
          <div className="row">
            <button type="button" className="btn grow" data-testid="save-draft" disabled={cart.lines.length === 0 || saveDraft.isPending} onClick={() => void doDraft()}>
              {t('counter.saveDraft')} <kbd>Ctrl+S</kbd>
            </button>
            <button type="button" className="btn grow" data-testid="park-cart" disabled={cart.lines.length === 0 || !!editingDraft} onClick={park}>
              {t('till.park')}
            </button>
          </div>
        </div>
      </aside>
    </div>
  );
}

/**
 * What a counter sale rarely needs and a B2B invoice often does: a due date, a delivery date before the
 * issue date (art. 319 (20) d), observations printed on the invoice. Folded away unless one is set.
 */
function InvoiceDetails(props: { cart: Cart; dispatch: (action: CartAction) => void }) {
  const { t } = useI18n();
  const { cart, dispatch } = props;
  const set = cart.due_date !== '' || cart.delivery_date !== '' || cart.observations.trim() !== '' || cart.adjustments.length > 0 || cartReferences(cart) !== null;
  return (
    <details className="invoice-details" data-testid="invoice-details" open={set || undefined}>
      <summary>
        {t('counter.details')}
        {set ? ' •' : ''}
      </summary>
      <div className="col">
        <label className="field">
          {t('counter.dueDate')}
          <input className="input" type="date" data-testid="due-date" value={cart.due_date} onChange={(e) => dispatch({ type: 'setDates', due_date: e.target.value })} />
        </label>
        <label className="field">
          {t('counter.deliveryDate')}
          <input className="input" type="date" data-testid="delivery-date" value={cart.delivery_date} onChange={(e) => dispatch({ type: 'setDates', delivery_date: e.target.value })} />
        </label>
        <label className="field">
          {t('counter.observations')}
          <textarea className="input" rows={2} maxLength={2000} data-testid="observations" value={cart.observations} onChange={(e) => dispatch({ type: 'setObservations', value: e.target.value })} />
        </label>
        <DocumentAdjustments cart={cart} dispatch={dispatch} />
        <DocumentReferences cart={cart} dispatch={dispatch} />
      </div>
    </details>
  );
}

function IssuedPanel(props: { issued: Issued; cashLimits: Settings['cash_limits'] | undefined; onPrint(): void; onSavePdf(): void; onPrintReceipt?: () => void; onNew(): void }) {
  const { t, language } = useI18n();
  const { invoice, receipt } = props.issued;
  // The sale as it goes up to the service: the badge and, if refused, the reason follow it.
  const sync = useWatchedSync(invoice.id) ?? invoice.sync;
  return (
    <div className="banner ok issued" data-testid="issued-panel" role="status">
      <div className="grow col" style={{ gap: 6 }}>
        <div style={{ fontSize: 16 }}>
          {t('counter.issued')} <strong data-testid="issued-number">{invoice.full_number}</strong> · {formatMoney(invoice.totals.total_bani, invoice.currency, language)}
        </div>
        <div className="row wrap small">
          <SyncBadge sync={sync} />
          {invoice.numbering === 'reservation' ? <span>{t('counter.numberFromReservation')}</span> : invoice.numbering === 'lock' ? <span>{t('counter.numberFromLock')}</span> : null}
          {receipt ? <span>· {receipt.receipt_number ? t('counter.receiptNumber', { number: receipt.receipt_number }) : t('counter.receiptPending')}</span> : null}
          {props.issued.change_bani > 0 ? (
            <strong data-testid="issued-change">· {t('till.issuedChange', { amount: formatMoney(props.issued.change_bani, 'RON', language) })}</strong>
          ) : null}
        </div>
        <SaleRefusal sync={sync} number={invoice.full_number ?? ''} />
        {receipt ? <CashCeiling buyer={invoice.client_id ? { id: invoice.client_id, cui: invoice.buyer?.cui ?? null } : null} cashBani={receipt.amount_bani} limits={props.cashLimits} excludeReceiptId={receipt.id} testId="issued-cash-limit" /> : null}
        <div className="row wrap">
          <button type="button" className="btn primary" data-testid="print-invoice" onClick={props.onPrint}>
            {t('common.print')} <kbd>Ctrl+P</kbd>
          </button>
          <button type="button" className="btn" onClick={props.onSavePdf}>
            {t('common.savePdf')}
          </button>
          {props.onPrintReceipt ? (
            <button type="button" className="btn" data-testid="print-receipt" disabled={!receipt?.receipt_number} title={receipt?.receipt_number ? '' : t('counter.receiptPending')} onClick={props.onPrintReceipt}>
              {t('counter.printReceipt')}
            </button>
          ) : null}
          <button type="button" className="btn" data-testid="new-invoice" onClick={props.onNew}>
            {t('counter.newInvoice')} <kbd>Esc</kbd>
          </button>
        </div>
      </div>
    </div>
  );
}
