/**
 * Maps the indicators of ANAF's `bilant` service to the contract's balance-sheet fields.
 *
 * The indicator codes (I1, I2, ...) mean different things per statement form: I13 is the net
 * turnover of a commercial company's abridged balance sheet but "Capital si rezerve - Total" for an
 * insurer. Only the description (`val_den_indicator`) is stable, and even that varies in case,
 * diacritics (s/ş/ș), doubled or trailing spaces and a trailing ", din care:". So descriptions are
 * normalised and matched against patterns, never codes.
 */
export interface BilantIndicator {
  indicator: string;
  val_indicator: number | null;
  val_den_indicator: string;
}

export type BalanceSheetAmountField =
  | 'cifra_afaceri'
  | 'venituri_total'
  | 'cheltuieli_total'
  | 'profit_brut'
  | 'pierdere_bruta'
  | 'profit_net'
  | 'pierdere_neta'
  | 'capitaluri_proprii'
  | 'datorii_total'
  | 'active_imobilizate'
  | 'active_circulante'
  | 'active_total';

export type BalanceSheetField = BalanceSheetAmountField | 'nr_salariati';

/** Lowercase ASCII, single spaces, no trailing ", din care:" or punctuation. */
export function normalizeIndicatorName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[şș]/gi, 's')
    .replace(/[ţț]/gi, 't')
    .toLowerCase()
    .replace(/[–—]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/[\s,:;.]*din care[\s:.]*$/, '')
    .replace(/[\s,:;.]+$/, '')
    .trim();
}

// Each field lists the descriptions seen across the statement forms, in order of preference.
const PATTERNS: Record<BalanceSheetField, RegExp[]> = {
  cifra_afaceri: [/^cifra (de )?afaceri( neta)?$/, /^cifra de afaceri neta/],
  venituri_total: [/^venituri totale$/, /^total venituri$/, /^venituri - total$/],
  cheltuieli_total: [/^cheltuieli totale$/, /^total cheltuieli$/, /^cheltuieli - total$/],
  profit_brut: [/^profit(ul)? brut$/, /^rezultatul brut - profit$/],
  pierdere_bruta: [/^pierdere(a)? bruta$/, /^rezultatul brut - pierdere$/],
  profit_net: [/^profit(ul)? net$/, /^rezultatul net - profit$/],
  pierdere_neta: [/^pierdere(a)? neta$/, /^rezultatul net - pierdere$/],
  capitaluri_proprii: [
    /^capitaluri proprii( - total)?$/,
    /^capitaluri - total$/,
    /^total capitaluri( proprii)?$/,
    /^capital si rezerve( - total)?$/,
  ],
  datorii_total: [/^datorii( - total)?$/, /^total datorii$/, /^datorii totale$/],
  active_imobilizate: [/^active imobilizate( - total)?$/, /^total active imobilizate$/],
  active_circulante: [/^active circulante( - total)?$/, /^total active circulante$/],
  active_total: [/^total active$/, /^active - total$/, /^active totale$/, /^total activ$/],
  nr_salariati: [/^numar(ul)? mediu de salariati/, /^efectiv(ul)? mediu de personal/],
};

const PREPAID_EXPENSES = /^cheltuieli in avans$/;

export interface MappedIndicators {
  values: Record<BalanceSheetField, number | null>;
  /** Fields computed rather than read (active_total = fixed + current assets + prepaid expenses). */
  derived: BalanceSheetField[];
  /** Descriptions that matched no field, kept so a new form shows up in logs rather than silently. */
  unmapped: string[];
}

export function mapBalanceSheetIndicators(indicators: BilantIndicator[]): MappedIndicators {
  const values = Object.fromEntries(Object.keys(PATTERNS).map((k) => [k, null])) as Record<BalanceSheetField, number | null>;
  const rank = new Map<BalanceSheetField, number>();
  const unmapped: string[] = [];
  let prepaid: number | null = null;

  for (const ind of indicators) {
    const name = normalizeIndicatorName(ind.val_den_indicator);
    let matched = false;
    for (const [field, patterns] of Object.entries(PATTERNS) as [BalanceSheetField, RegExp[]][]) {
      const at = patterns.findIndex((re) => re.test(name));
      if (at < 0) continue;
      matched = true;
      const previous = rank.get(field);
      if (previous === undefined || at < previous) {
        rank.set(field, at);
        values[field] = ind.val_indicator;
      }
      break;
    }
    if (!matched && PREPAID_EXPENSES.test(name)) {
      prepaid = ind.val_indicator;
      matched = true;
    }
    if (!matched) unmapped.push(ind.val_den_indicator.trim());
  }

  const derived: BalanceSheetField[] = [];
  // The abridged balance sheet has no "total assets" line; by its own structure it is A + B + C.
  if (values.active_total === null && values.active_imobilizate !== null && values.active_circulante !== null) {
    values.active_total = values.active_imobilizate + values.active_circulante + (prepaid ?? 0);
    derived.push('active_total');
  }
  if (values.nr_salariati !== null) values.nr_salariati = Math.round(values.nr_salariati);
  return { values, derived, unmapped };
}
