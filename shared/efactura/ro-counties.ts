/**
 * Romanian counties as free text (client records say "Cluj", "jud. Iași", "București", "CJ") to the
 * ISO 3166-2:RO code that CIUS-RO wants in CountrySubentity (BR-RO-110). Vehicle-plate letters are
 * the suffix of the ISO code for every county.
 */
const COUNTIES: Record<string, string> = {
  AB: 'alba', AG: 'arges', AR: 'arad', B: 'bucuresti', BC: 'bacau', BH: 'bihor', BN: 'bistrita nasaud', BR: 'braila',
  BT: 'botosani', BV: 'brasov', BZ: 'buzau', CJ: 'cluj', CL: 'calarasi', CS: 'caras severin', CT: 'constanta',
  CV: 'covasna', DB: 'dambovita', DJ: 'dolj', GJ: 'gorj', GL: 'galati', GR: 'giurgiu', HD: 'hunedoara', HR: 'harghita',
  IF: 'ilfov', IL: 'ialomita', IS: 'iasi', MH: 'mehedinti', MM: 'maramures', MS: 'mures', NT: 'neamt', OT: 'olt',
  PH: 'prahova', SB: 'sibiu', SJ: 'salaj', SM: 'satu mare', SV: 'suceava', TL: 'tulcea', TM: 'timis', TR: 'teleorman',
  VL: 'valcea', VN: 'vrancea', VS: 'vaslui',
};

const BY_NAME = new Map(Object.entries(COUNTIES).map(([code, name]) => [name, code]));

function plain(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[-_.,]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `RO-CJ` for "Cluj", "jud. Cluj", "CJ", "RO-CJ"; `RO-B` for București in any spelling; null otherwise. */
export function countyCode(input: string | null | undefined): string | null {
  if (!input) return null;
  const raw = input.trim().toUpperCase();
  const iso = /^RO-([A-Z]{1,2})$/.exec(raw);
  if (iso && iso[1]! in COUNTIES) return `RO-${iso[1]}`;
  if (/^[A-Z]{1,2}$/.test(raw) && raw in COUNTIES) return `RO-${raw}`;
  let name = plain(input).replace(/^(judetul|judet|jud|municipiul|mun)\s+/, '');
  if (/^bucuresti\b/.test(name) || /^sector(ul)?\s*[1-6]$/.test(name)) name = 'bucuresti';
  const code = BY_NAME.get(name);
  return code ? `RO-${code}` : null;
}
