import { StockBadge } from './stock/StockBadge';
import { partyCodeOnScreen } from '../lib/party-code';
import { useCallback, useMemo, useState } from 'react';
import { ActionDialog } from '../components/ActionDialog';
import type { ClientView, ProductView } from '../../shared/ipc';
import { computeLine, percentToBp, STANDARD_VAT_RATES_BP } from '../../shared/invoice-math';
import { navigate } from '../app/router';
import { SyncBadge } from '../components/Badges';
import { ClientFormModal } from '../components/ClientForm';
import { Field } from '../components/Field';
import { useToast } from '../components/Toasts';
import { usePagedList, VirtualList, type Column } from '../components/VirtualList';
import { useIpcMutation, useIpcQuery } from '../data/hooks';
import { useI18n } from '../i18n/I18nProvider';
import { fieldErrors } from '../lib/errors';
import { formatBani, formatMoney, formatPercent, parseAmountInput } from '../lib/format';
import { useDebounced } from '../lib/use-debounced';

export function ClientsScreen({ id }: { id?: string }) {
  const t = useI18n().t;
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [pages, setPages] = useState<number[]>([0]);
  const [creating, setCreating] = useState(false);
  const debounced = useDebounced(search, 120);
  const input = useMemo(() => (debounced.trim() ? { search: debounced.trim().replace(/^ro(?=\d)/i, '') } : {}), [debounced]);
  const list = usePagedList('clients.list', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const editing = useIpcQuery('clients.get', { id: id ?? '' }, { enabled: !!id });
  const columns: Column[] = [
    { key: 'name', header: t('clients.name'), width: 'minmax(200px, 1fr)' },
    { key: 'cui', header: t('clients.cuiCnp'), width: '130px' },
    { key: 'reg', header: t('clients.regCom'), width: '140px' },
    { key: 'city', header: t('clients.city'), width: '150px' },
    { key: 'phone', header: t('clients.phone'), width: '130px' },
    { key: 'sync', header: t('invoices.col.sync'), width: '118px' },
  ];
  return (
    <div className="content fill" data-testid="clients-screen">
      <div className="toolbar">
        <input className="input" type="search" style={{ width: 280 }} data-testid="clients-search" placeholder={t('clients.searchPlaceholder')} value={search} onChange={(e) => setSearch(e.target.value)} />
        <span className="spacer" />
        <button type="button" className="btn" data-testid="clients-import" onClick={() => navigate({ screen: 'imports', id: 'clients' })}>
          {t('imports.openFromClients')}
        </button>
        <button type="button" className="btn primary" data-testid="clients-new" onClick={() => setCreating(true)}>
          + {t('clients.new')}
        </button>
      </div>
      <VirtualList<ClientView>
        testId="client-list"
        total={list.total ?? 0}
        columns={columns}
        itemAt={list.itemAt}
        rowKey={(c, i) => c?.id ?? `c${i}`}
        onVisiblePages={onVisiblePages}
        onOpen={(c) => navigate({ screen: 'clients', id: c.id })}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : t('clients.none')}</div>}
        renderCell={(c, key) => {
          switch (key) {
            case 'name':
              return (
                <>
                  <strong>{c.name}</strong> {c.type === 'person' ? <span className="badge">{t('clients.type.person')}</span> : null}
                </>
              );
            case 'cui':
              return partyCodeOnScreen(c);
            case 'reg':
              return c.reg_com ?? '';
            case 'city':
              return c.city ?? '';
            case 'phone':
              return c.phone ?? '';
            case 'sync':
              return <SyncBadge sync={c.sync} />;
            default:
              return null;
          }
        }}
      />
      <div className="vlist-foot">{t('clients.count', { count: list.total ?? 0 })}</div>
      {creating ? (
        <ClientFormModal
          client={null}
          onClose={() => setCreating(false)}
          onSaved={() => {
            setCreating(false);
            toast(t('common.saved'), 'ok');
          }}
        />
      ) : null}
      {id && editing.data ? (
        <ClientFormModal
          client={editing.data}
          onClose={() => navigate({ screen: 'clients' })}
          onSaved={() => {
            toast(t('common.saved'), 'ok');
            navigate({ screen: 'clients' });
          }}
        />
      ) : null}
    </div>
  );
}

export function ProductsScreen({ id }: { id?: string }) {
  const { t, language } = useI18n();
  const [search, setSearch] = useState('');
  const [pages, setPages] = useState<number[]>([0]);
  const [creating, setCreating] = useState(false);
  const debounced = useDebounced(search, 120);
  const input = useMemo(() => (debounced.trim() ? { search: debounced.trim() } : {}), [debounced]);
  const list = usePagedList('products.list', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const editing = useIpcQuery('products.get', { id: id ?? '' }, { enabled: !!id });
  const columns: Column[] = [
    { key: 'name', header: t('products.name'), width: 'minmax(200px, 1fr)' },
    { key: 'code', header: t('products.code'), width: '150px' },
    { key: 'unit', header: t('products.unit'), width: '70px' },
    { key: 'price', header: t('products.price'), width: '140px', className: 'num' },
    { key: 'vat', header: t('counter.col.vat'), width: '70px', className: 'num' },
    { key: 'stock', header: t('nav.stock'), width: '120px' },
    { key: 'sync', header: t('invoices.col.sync'), width: '118px' },
  ];
  return (
    <div className="content fill" data-testid="products-screen">
      <div className="toolbar">
        <input className="input" type="search" style={{ width: 280 }} placeholder={t('products.searchPlaceholder')} value={search} onChange={(e) => setSearch(e.target.value)} />
        <span className="spacer" />
        <button type="button" className="btn" data-testid="products-import" onClick={() => navigate({ screen: 'imports', id: 'products' })}>
          {t('imports.openFromProducts')}
        </button>
        <button type="button" className="btn primary" data-testid="products-new" onClick={() => setCreating(true)}>
          + {t('products.new')}
        </button>
      </div>
      <VirtualList<ProductView>
        testId="product-list"
        total={list.total ?? 0}
        columns={columns}
        itemAt={list.itemAt}
        rowKey={(p, i) => p?.id ?? `p${i}`}
        onVisiblePages={onVisiblePages}
        onOpen={(p) => navigate({ screen: 'products', id: p.id })}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : t('products.none')}</div>}
        renderCell={(p, key) => {
          switch (key) {
            case 'name':
              return (
                <>
                  <strong>{p.name}</strong> {p.is_service ? <span className="badge">{t('products.service')}</span> : null}
                </>
              );
            case 'code':
              return <span style={{ fontFamily: 'ui-monospace, Menlo, Consolas, monospace' }}>{p.code ?? ''}</span>;
            case 'unit':
              return p.unit;
            case 'price':
              return (
                <>
                  {formatMoney(p.price_bani, p.currency, language)} <span className="muted small">{p.price_includes_vat ? t('products.gross') : t('products.net')}</span>
                </>
              );
            case 'vat':
              return formatPercent(p.vat_rate, language);
            case 'stock':
              return <StockBadge stock={p.stock} unit={p.unit} />;
            case 'sync':
              return <SyncBadge sync={p.sync} />;
            default:
              return null;
          }
        }}
      />
      <div className="vlist-foot">{t('products.count', { count: list.total ?? 0 })}</div>
      {creating ? <ProductForm product={null} onClose={() => setCreating(false)} /> : null}
      {id && editing.data ? <ProductForm product={editing.data} onClose={() => navigate({ screen: 'products' })} /> : null}
    </div>
  );
}

/**
 * What one piece costs on the receipt, from the same shared computation the invoice uses: for a shelf
 * price its net and VAT inside it, for a net price the VAT added and what the customer pays.
 */
function priceSplit(priceBani: number, gross: boolean, vatRate: number, t: ReturnType<typeof useI18n>['t'], language: 'ro' | 'en'): string {
  const line = computeLine({ quantity_milli: 1000, unit_price_bani: priceBani, vat_rate_bp: percentToBp(vatRate), price_includes_vat: gross });
  const vars = { net: formatBani(line.net_bani, language), vat: formatBani(line.vat_bani, language), total: formatBani(line.total_bani, language) };
  return gross ? t('shelf.splitGross', vars) : t('shelf.splitNet', vars);
}

function ProductForm({ product, onClose }: { product: ProductView | null; onClose(): void }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const create = useIpcMutation('products.create');
  const update = useIpcMutation('products.update');
  const mutation = product ? update : create;
  const [name, setName] = useState(product?.name ?? '');
  const [code, setCode] = useState(product?.code ?? '');
  const [barcode, setBarcode] = useState(product?.barcode ?? '');
  const [unit, setUnit] = useState(product?.unit ?? 'buc');
  const [priceText, setPriceText] = useState(product ? formatBani(product.price_bani, language) : '');
  const [gross, setGross] = useState(product?.price_includes_vat ?? true);
  const [vat, setVat] = useState(product?.vat_rate ?? 21);
  const [service, setService] = useState(product?.is_service ?? false);
  const [touched, setTouched] = useState(false);
  // '8,999' is three decimals, not 8 999 lei: a price has bani, two decimals at most (a dot before three digits stays a thousands mark).
  const priceDecimals = /,\d{3,}$|[.,]\d{4,}$/.test(priceText.trim());
  const price = priceDecimals ? null : parseAmountInput(priceText);
  const fields = fieldErrors(mutation.error);
  const ok = name.trim() !== '' && price !== null && price >= 0 && unit.trim() !== '';
  const save = async () => {
    setTouched(true);
    if (!ok || price === null) return;
    const body = {
      name: name.trim(),
      code: code.trim() || null,
      barcode: barcode.trim() || null,
      unit: unit.trim(),
      unit_code: unit.trim() === 'kg' ? 'KGM' : unit.trim() === 'l' ? 'LTR' : service ? 'C62' : 'H87',
      price_bani: price,
      price_includes_vat: gross,
      vat_rate: vat,
      currency: 'RON',
      is_service: service,
    };
    if (product) await update.mutateAsync({ id: product.id, patch: body });
    else await create.mutateAsync(body);
    toast(t('common.saved'), 'ok');
    onClose();
  };
  return (
    <ActionDialog
      title={product ? t('products.edit') : t('products.new')}
      onClose={onClose}
      testId="product-form"
      error={mutation.error}
      confirmTestId="product-save"
      confirmLabel={t('common.save')}
      confirmDisabled={mutation.isPending}
      onConfirm={save}
    >
      <div className="form-grid">
        <Field label={t('products.name')} error={fields.name} span2>
          <input className={`input${touched && !name.trim() ? ' invalid' : ''}`} data-testid="product-name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('products.code')} error={fields.code}>
          <input className="input" data-testid="product-code" value={code} onChange={(e) => setCode(e.target.value)} placeholder="5941234567890" />
          {fields.code ? null : <span className="hint">{t('products.codeHint')}</span>}
        </Field>
        <Field label={t('till.barcode')} error={fields.barcode}>
          <input className="input" data-testid="product-barcode" value={barcode} maxLength={64} onChange={(e) => setBarcode(e.target.value)} placeholder="5941234567890" />
          {fields.barcode ? null : <span className="hint">{t('till.barcodeHint')}</span>}
        </Field>
        <Field label={t('products.unit')}>
          <input className="input" data-testid="product-unit" value={unit} onChange={(e) => setUnit(e.target.value)} list="units" />
          <datalist id="units">
            {['buc', 'kg', 'l', 'm', 'ore', 'set', 'pachet'].map((u) => (
              <option key={u} value={u} />
            ))}
          </datalist>
        </Field>
        <Field label={t('products.price')} error={priceDecimals ? t('till.price.too_many_decimals') : touched && price === null ? t('till.price.not_a_number') : undefined}>
          <input className={`input num${(touched && price === null) || priceDecimals ? ' invalid' : ''}`} data-testid="product-price" value={priceText} onChange={(e) => setPriceText(e.target.value)} placeholder="0,00" />
        </Field>
        <Field label={t('counter.col.vat')}>
          <select value={vat} data-testid="product-vat" onChange={(e) => setVat(Number(e.target.value))}>
            {STANDARD_VAT_RATES_BP.map((bp) => (
              <option key={bp} value={bp / 100}>
                {bp / 100}%
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="span2 shelf-price-kind" data-testid="product-price-kind" style={{ border: 0, padding: 0, margin: 0, display: 'grid', gap: 4 }}>
          <legend className="small">{t('shelf.priceKind')}</legend>
          <label className="check">
            <input type="radio" name="price-kind" data-testid="product-price-gross" checked={gross} onChange={() => setGross(true)} />
            {t('shelf.gross')}
          </label>
          <label className="check">
            <input type="radio" name="price-kind" data-testid="product-price-net" checked={!gross} onChange={() => setGross(false)} />
            {t('shelf.net')}
          </label>
          {price !== null && price > 0 ? <span className="hint" data-testid="product-price-split">{priceSplit(price, gross, vat, t, language)}</span> : null}
        </fieldset>
        <label className="check">
          <input type="checkbox" checked={service} onChange={(e) => setService(e.target.checked)} />
          {t('products.service')}
        </label>
      </div>
    </ActionDialog>
  );
}
