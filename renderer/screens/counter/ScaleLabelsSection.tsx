import { useEffect, useState } from 'react';
import { DEFAULT_WEIGHED_RULES, type WeighedKind, type WeighedRule } from '../../counter/barcode';
import { useToast } from '../../components/Toasts';
import { callIpc } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { describeSaleError } from '../../lib/errors';

const PREFIXES = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29'];

/**
 * Settings: how this counter reads the scale's labels (EAN-13 with prefix 20-29 and a weight or a
 * price inside). Each prefix carries a weight, a price or nothing; the article code has a number of
 * digits the scale is set to (5 by default).
 */
export function ScaleLabelsSection() {
  const { t, language } = useI18n();
  const toast = useToast();
  const [rules, setRules] = useState<WeighedRule[] | null>(null);
  useEffect(() => {
    void callIpc('counter.carts', undefined).then((c) => setRules(c.barcode_rules ?? [...DEFAULT_WEIGHED_RULES]));
  }, []);
  if (!rules) return null;
  const digits = rules[0]?.item_digits ?? 5;
  const kindOf = (prefix: string): WeighedKind | '' => rules.find((r) => r.prefix === prefix)?.kind ?? '';
  const setKind = (prefix: string, kind: WeighedKind | '') => {
    const others = rules.filter((r) => r.prefix !== prefix);
    setRules(kind ? [...others, { prefix, kind, item_digits: digits }].sort((a, b) => a.prefix.localeCompare(b.prefix)) : others);
  };
  const save = (next: WeighedRule[] | null) =>
    void callIpc('counter.setBarcodeRules', { rules: next })
      .then((c) => {
        setRules(c.barcode_rules ?? [...DEFAULT_WEIGHED_RULES]);
        toast(t('common.saved'), 'ok');
      })
      .catch((error: unknown) => toast(describeSaleError(error, t, language), 'bad'));
  return (
    <div className="card" data-testid="scale-labels">
      <header>
        <h2>{t('till.scale.title')}</h2>
        <span className="muted small">{t('till.scale.help')}</span>
      </header>
      <div className="body col">
        <div className="scale-grid">
          {PREFIXES.map((prefix) => (
            <label key={prefix} className="field small">
              {prefix}
              <select value={kindOf(prefix)} data-testid={`scale-${prefix}`} onChange={(e) => setKind(prefix, e.target.value as WeighedKind | '')}>
                <option value="">{t('till.scale.none')}</option>
                <option value="weight">{t('till.scale.weight')}</option>
                <option value="price">{t('till.scale.price')}</option>
              </select>
            </label>
          ))}
        </div>
        <label className="field small">
          {t('till.scale.itemDigits')}
          <input
            className="input num"
            type="number"
            min={1}
            max={9}
            value={digits}
            data-testid="scale-item-digits"
            onChange={(e) => {
              const n = Math.max(1, Math.min(9, Number(e.target.value) || 5));
              setRules(rules.map((r) => ({ ...r, item_digits: n })));
            }}
          />
        </label>
        <div className="row">
          <button type="button" className="btn" data-testid="scale-save" onClick={() => save(rules)}>
            {t('common.save')}
          </button>
          <button type="button" className="btn ghost" onClick={() => save(null)}>
            {t('till.scale.reset')}
          </button>
        </div>
      </div>
    </div>
  );
}
