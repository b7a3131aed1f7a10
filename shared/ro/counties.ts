/**
 * ISO 3166-2:RO county codes (what the company profile and e-Factura carry) and the names printed on
 * documents. Bucharest's code is RO-B.
 */
const COUNTIES: Readonly<Record<string, string>> = {
  AB: 'Alba', AR: 'Arad', AG: 'Argeș', BC: 'Bacău', BH: 'Bihor', BN: 'Bistrița-Năsăud', BT: 'Botoșani', BV: 'Brașov',
  BR: 'Brăila', B: 'București', BZ: 'Buzău', CS: 'Caraș-Severin', CL: 'Călărași', CJ: 'Cluj', CT: 'Constanța', CV: 'Covasna',
  DB: 'Dâmbovița', DJ: 'Dolj', GL: 'Galați', GR: 'Giurgiu', GJ: 'Gorj', HR: 'Harghita', HD: 'Hunedoara', IL: 'Ialomița',
  IS: 'Iași', IF: 'Ilfov', MM: 'Maramureș', MH: 'Mehedinți', MS: 'Mureș', NT: 'Neamț', OT: 'Olt', PH: 'Prahova',
  SM: 'Satu Mare', SJ: 'Sălaj', SB: 'Sibiu', SV: 'Suceava', TR: 'Teleorman', TM: 'Timiș', TL: 'Tulcea', VS: 'Vaslui',
  VL: 'Vâlcea', VN: 'Vrancea',
};

/** 'RO-CJ' or 'CJ' -> 'Cluj'; anything else is returned as given. */
export function countyName(code: string | null | undefined): string | null {
  if (!code) return null;
  const key = code.trim().toUpperCase().replace(/^RO-/, '');
  return COUNTIES[key] ?? code;
}
