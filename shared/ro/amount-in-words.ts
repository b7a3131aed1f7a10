/**
 * An amount in bani written out in Romanian words, as a chitanță (receipt) prints it:
 *   123450 -> 'o mie două sute treizeci și patru de lei și cincizeci de bani'.
 *
 * Grammar applied:
 *   - Numerals agree with the noun they count. Lei and bani are masculine ('un leu', 'doi lei');
 *     'mie' is feminine ('o mie', 'două mii', 'douăzeci și una de mii'); 'milion', 'miliard',
 *     'bilion' are neuter, masculine in the singular and feminine in the plural ('un milion',
 *     'două milioane', 'douăzeci și unu de milioane'). 'sută' is feminine ('două sute').
 *   - One alone before a noun is the article 'un' / 'o'; at the end of a compound it is the
 *     numeral 'unu' / 'una' ('o sută unu lei', 'douăzeci și unu de lei').
 *   - 'de' joins numeral and noun when the number's last two digits are 00 or 20-99 ('douăzeci de
 *     lei', 'o sută de lei', 'un milion de lei', 'o sută unu lei', 'o mie doisprezece lei').
 *   - Groups follow one another without 'și' ('o mie două sute'); 'și' only inside 21-99 and
 *     between the lei and the bani.
 *   - Zero bani are left out; zero lei with some bani prints only the bani ('cincizeci de bani');
 *     zero is 'zero lei'. Negative amounts (storno) start with 'minus'.
 * Romanian uses the long scale: bilion = 10^12. The largest safe amount (about 90 thousand billion
 * lei) stays below 10^15, so 'bilion' is the largest noun needed.
 */

type Gender = 'm' | 'f' | 'n';

export interface AmountInWordsOptions {
  /**
   * Leave out the 'de' between numeral and noun ('douăzeci lei', 'o mie două sute treizeci și
   * patru lei și cincizeci bani'), the abbreviated form some printed receipt books use. It is not
   * standard grammar, so it is off by default.
   */
  omitDe?: boolean;
}

const UNITS = ['', 'unu', 'doi', 'trei', 'patru', 'cinci', 'șase', 'șapte', 'opt', 'nouă'] as const;
const TEENS = [
  'zece',
  'unsprezece',
  'doisprezece',
  'treisprezece',
  'paisprezece',
  'cincisprezece',
  'șaisprezece',
  'șaptesprezece',
  'optsprezece',
  'nouăsprezece',
] as const;
const TENS = ['', '', 'douăzeci', 'treizeci', 'patruzeci', 'cincizeci', 'șaizeci', 'șaptezeci', 'optzeci', 'nouăzeci'] as const;

/** Masculine singular and neuter singular behave alike; feminine and neuter plural alike. */
function unitWord(digit: number, gender: Gender, alone: boolean): string {
  if (digit === 1) {
    if (alone) return gender === 'f' ? 'o' : 'un';
    return gender === 'f' ? 'una' : 'unu';
  }
  if (digit === 2) return gender === 'm' ? 'doi' : 'două';
  return UNITS[digit]!;
}

/**
 * Words for a count 1..999 placed before a noun of the given gender. `alone` says the count is
 * the whole number (so a lone 1 is the article 'un'/'o', not the numeral 'unu'/'una').
 */
function countWords(count: number, gender: Gender, alone: boolean): string {
  const hundreds = Math.floor(count / 100);
  const rest = count % 100;
  const words: string[] = [];
  if (hundreds > 0) words.push(hundreds === 1 ? 'o sută' : `${unitWord(hundreds, 'f', false)} sute`);
  if (rest >= 20) {
    const units = rest % 10;
    const tens = TENS[Math.floor(rest / 10)]!;
    words.push(units === 0 ? tens : `${tens} și ${unitWord(units, gender, false)}`);
  } else if (rest >= 10) {
    words.push(rest === 12 && gender !== 'm' ? 'douăsprezece' : TEENS[rest - 10]!);
  } else if (rest > 0) {
    words.push(unitWord(rest, gender, alone && hundreds === 0));
  }
  return words.join(' ');
}

/** 'de' is needed when the last two digits are 00 (and the number is not 0) or 20..99. */
function needsDe(n: number): boolean {
  const lastTwo = n % 100;
  return lastTwo === 0 ? n > 0 : lastTwo >= 20;
}

const SCALES = [
  { value: 1e12, singular: 'bilion', plural: 'bilioane', gender: 'n' },
  { value: 1e9, singular: 'miliard', plural: 'miliarde', gender: 'n' },
  { value: 1e6, singular: 'milion', plural: 'milioane', gender: 'n' },
  { value: 1e3, singular: 'mie', plural: 'mii', gender: 'f' },
] as const;

function nounPhrase(count: number, singular: string, plural: string, omitDe: boolean): string {
  if (count === 1) return singular;
  return needsDe(count) && !omitDe ? `de ${plural}` : plural;
}

/** A positive integer below 10^15 counting a masculine noun: 'douăzeci și unu de lei'. */
function countedNoun(n: number, singular: string, plural: string, omitDe: boolean): string {
  const words: string[] = [];
  let higher = false;
  for (const scale of SCALES) {
    const count = Math.floor(n / scale.value) % 1000;
    if (count === 0) continue;
    words.push(countWords(count, scale.gender, true), nounPhrase(count, scale.singular, scale.plural, omitDe));
    higher = true;
  }
  const units = n % 1000;
  if (units > 0) words.push(countWords(units, 'm', !higher));
  words.push(nounPhrase(n, singular, plural, omitDe));
  return words.join(' ');
}

export function amountInWords(bani: number, options: AmountInWordsOptions = {}): string {
  if (!Number.isSafeInteger(bani)) throw new RangeError(`Bani must be a safe integer, got ${String(bani)}`);
  const omitDe = options.omitDe === true;
  const abs = Math.abs(bani);
  const lei = Math.floor(abs / 100);
  const rest = abs % 100;
  let text: string;
  if (abs === 0) text = 'zero lei';
  else if (rest === 0) text = countedNoun(lei, 'leu', 'lei', omitDe);
  else if (lei === 0) text = countedNoun(rest, 'ban', 'bani', omitDe);
  else text = `${countedNoun(lei, 'leu', 'lei', omitDe)} și ${countedNoun(rest, 'ban', 'bani', omitDe)}`;
  return bani < 0 ? `minus ${text}` : text;
}
