import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import type { ClientView } from '../../../shared/ipc';
import { ClientFormModal } from '../../components/ClientForm';
import { SuggestionList } from '../../components/SuggestionList';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useT } from '../../i18n/I18nProvider';
import type { CartClient } from '../../counter/cart';
import { taxCodeAsWritten } from '../../../shared/ro/cui';
import { partyCodeOnScreen } from '../../lib/party-code';
import { describeError } from '../../lib/errors';
import { useToast } from '../../components/Toasts';
import { WedgeDetector } from '../../counter/scanner';
import { gs1CheckDigitOk } from '../../counter/barcode';
import { isValidCnp } from '../../../shared/ro/cnp';
import { foldForSearch } from '../../../shared/text/search-fold';

export interface ClientPickerHandle {
  focus(): void;
  createNew(): void;
}

export function toCartClient(c: ClientView): CartClient {
  return { id: c.id, name: c.name, cui: c.cui, vat_payer: c.vat_payer, country: c.country, county: c.county };
}

/**
 * The buyer: search by name or CUI (F3), Enter to take the highlighted one, or create one on the
 * spot (F7) with what was typed. Without a buyer the invoice goes to an end consumer.
 */
export const ClientPicker = forwardRef<
  ClientPickerHandle,
  { client: CartClient | null; onPick(client: CartClient | null): void; onDone(): void; /** A scanner's burst typed here: added as a product when one carries it (true). */ onScan(code: string): Promise<boolean> }
>(
  function ClientPicker(props, ref) {
    const t = useT();
    const toast = useToast();
    const input = useRef<HTMLInputElement>(null);
    const [text, setText] = useState('');
    const [open, setOpen] = useState(false);
    const [active, setActive] = useState(0);
    const wedge = useRef(new WedgeDetector());
    /** The client form, open: `client` null makes a new one from what was typed, else edits that one. */
    const [form, setForm] = useState<{ client: ClientView | null } | null>(null);
    const createNew = () => setForm({ client: null });
    useImperativeHandle(ref, () => ({ focus: () => input.current?.focus(), createNew }), []);
    const query = text.trim().replace(/^ro(?=\d)/i, '');
    const { data, isPlaceholderData } = useIpcQuery('clients.list', { search: query, limit: 8, offset: 0 }, { enabled: open && query.length > 0, keepPrevious: true });
    const options = query.length > 0 ? (data?.items ?? []) : [];

    /**
     * Enter takes the highlighted client, but only from a list that answers what is typed now: a
     * fast typist's Enter can arrive before the last keystroke's results, and must not pick a client
     * from an older, broader search.
     */
    const choose = async () => {
      const shown = open ? options[active] : undefined;
      const folded = foldForSearch(query);
      // The highlighted row is taken when the list answers what is typed now, or when it matches it anyway.
      if (shown && (!isPlaceholderData || foldForSearch(`${shown.name} ${shown.cui ?? ''}`).includes(folded))) {
        pick(shown);
        return;
      }
      const chosen = (await callIpc('clients.list', { search: query, limit: 8, offset: 0 })).items[0];
      if (chosen) pick(chosen);
      else if (query) createNew();
    };

    /**
     * The buyer's record opened from the counter: what an invoice needs of it (an intra-community
     * buyer's VAT id or region) is completed without leaving the sale, and the cart takes the saved
     * client back.
     */
    const edit = async (id: string) => {
      try {
        setForm({ client: await callIpc('clients.get', { id }) });
      } catch (error) {
        toast(describeError(error, t), 'bad');
      }
    };

    const pick = (c: ClientView) => {
      props.onPick(toCartClient(c));
      setText('');
      setOpen(false);
      props.onDone();
    };

    return (
      <div className="card client-box">
        <div className="row">
          <strong>{t('counter.client')}</strong>
          <kbd>F3</kbd>
          <span className="spacer" />
          <button type="button" className="btn small ghost" data-testid="client-new" onClick={createNew}>
            + {t('counter.newClient')} <kbd>F7</kbd>
          </button>
        </div>
        {props.client ? (
          <div className="row" style={{ marginTop: 6 }} data-testid="counter-client">
            <div className="grow">
              <div className="name">{props.client.name}</div>
              <div className="muted small">{props.client.cui ? `${t('clients.cui')}: ${taxCodeAsWritten(props.client.cui, props.client.vat_payer, props.client.country)}` : t('counter.person')}</div>
            </div>
            {props.client.id ? (
              <button type="button" className="btn ghost" data-testid="client-edit" aria-label={t('clients.edit')} title={t('clients.edit')} onClick={() => void edit(props.client!.id!)}>
                ✎
              </button>
            ) : null}
            <button type="button" className="btn ghost" aria-label={t('counter.removeClient')} title={t('counter.removeClient')} onClick={() => props.onPick(null)}>
              ✕
            </button>
          </div>
        ) : (
          <div className="muted small" style={{ marginTop: 4 }}>
            {t('counter.noClient')}
          </div>
        )}
        <div className="search" style={{ marginTop: 8, position: 'relative' }}>
          <input
            ref={input}
            className="input"
            style={{ width: '100%' }}
            data-testid="client-search"
            aria-label={t('counter.searchClient')}
            placeholder={t('counter.searchClientPlaceholder')}
            value={text}
            autoComplete="off"
            onChange={(e) => {
              setText(e.target.value);
              setOpen(true);
              setActive(0);
            }}
            onBlur={() => setTimeout(() => document.activeElement !== input.current && setOpen(false), 150)}
            onKeyDown={(e) => {
              const scan = wedge.current.key(e.key, e.timeStamp);
              // Digits and Enter, however fast they came (a loaded machine slows a scanner's burst down).
              const typedCode = text.trim();
              if (e.key === 'Enter' && /^\d{6,14}$/.test(typedCode)) {
                // A burst of digits while this box had the focus: a product's barcode goes to the cart;
                // a barcode of no product is refused, never made a client's name; anything else (a CUI
                // typed fast) is searched as usual.
                e.preventDefault();
                const code = typedCode;
                const burst = scan !== null && scan.code === typedCode;
                void props.onScan(code).then((added) => {
                  if (added) {
                    setText('');
                    setOpen(false);
                    props.onDone();
                  } else if ((burst || gs1CheckDigitOk(code)) && code.length >= 12 && !isValidCnp(code)) {
                    setText('');
                    setOpen(false);
                    toast(t('till.scan.unknown', { code }), 'bad');
                    props.onDone();
                  } else {
                    void choose();
                  }
                });
                return;
              }
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                setActive((i) => (e.key === 'ArrowDown' ? Math.min(options.length - 1, i + 1) : Math.max(0, i - 1)));
              } else if (e.key === 'Enter') {
                e.preventDefault();
                if (query) void choose();
              } else if (e.key === 'Escape') {
                e.preventDefault();
                e.stopPropagation();
                setText('');
                props.onDone();
              }
            }}
          />
          {open && options.length > 0 ? (
            <SuggestionList items={options} active={active} onPick={pick} testId="client-suggestions">
              {(c) => (
                <>
                  <span>{c.name}</span>
                  <span className="code">{partyCodeOnScreen(c)}</span>
                  <span className="muted small">{c.city ?? ''}</span>
                </>
              )}
            </SuggestionList>
          ) : null}
        </div>
        {form ? (
          <ClientFormModal
            client={form.client}
            {...(form.client ? {} : { presetName: text })}
            onClose={() => {
              setForm(null);
              props.onDone();
            }}
            onSaved={(c) => {
              setForm(null);
              pick(c);
            }}
          />
        ) : null}
      </div>
    );
  },
);
