import { CLIENT_TARGETS, PRODUCT_TARGETS, type ImportKind } from '../../../shared/schemas/import';

/**
 * Which column fills which member, proposed from the headers other programs write (SmartBill, Oblio,
 * Saga, Excel lists made by hand). Headers are compared folded: no diacritics, no case, no spaces
 * or punctuation, so "Preț cu TVA", "PRET CU T.V.A." and "pret_cu_tva" are one header.
 */

export function foldHeader(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9%]/g, '');
}

const PRODUCT_HEADERS: Record<(typeof PRODUCT_TARGETS)[number], string[]> = {
  name: ['denumire', 'denumireprodus', 'denumirearticol', 'denumiremarfa', 'denumireserviciu', 'produs', 'articol', 'nume', 'numeprodus', 'name', 'productname', 'descriere', 'description'],
  code: ['cod', 'codprodus', 'codarticol', 'codintern', 'sku', 'code', 'cod produs', 'codsku', 'referinta', 'productcode'],
  barcode: ['coddebare', 'codbare', 'codulDeBare', 'ean', 'ean13', 'codean', 'barcode', 'gtin'],
  unit: ['um', 'unitatedemasura', 'unitatemasura', 'unitate', 'unit', 'uom', 'measuringunit'],
  price: ['pret', 'pretfaratva', 'pretunitar', 'pretunitarfaratva', 'pretfaratvaron', 'pretvanzare', 'pretvanzarefaratva', 'pretlista', 'price', 'pricewithoutvat', 'netprice'],
  price_with_vat: ['pretcutva', 'pretunitarcutva', 'pretcutvaron', 'pretvanzarecutva', 'pretamanunt', 'pretfinal', 'pricewithvat', 'grossprice'],
  vat_rate: ['cotatva', 'tva', 'tva%', 'cotatva%', 'cota', 'procenttva', 'vat', 'vatrate', 'vat%', 'taxa'],
  currency: ['moneda', 'valuta', 'currency'],
  is_service: ['serviciu', 'tip', 'tiparticol', 'tipprodus', 'esteserviciu', 'isservice', 'service'],
};

const CLIENT_HEADERS: Record<(typeof CLIENT_TARGETS)[number], string[]> = {
  name: ['denumire', 'denumireclient', 'nume', 'numeclient', 'client', 'firma', 'companie', 'partener', 'denumirepartener', 'numesiprenume', 'name', 'company'],
  cui: ['cui', 'cif', 'cuicif', 'cifcui', 'codfiscal', 'codidentificarefiscala', 'cuicnp', 'cifcnp', 'cod fiscal', 'vatnumber', 'taxid', 'vatid'],
  cnp: ['cnp', 'codnumericpersonal'],
  reg_com: ['regcom', 'nrregcom', 'nrregcomert', 'registrulcomertului', 'nrordregcom', 'nrinmatriculare', 'nrreg', 'regcomert', 'registrationnumber'],
  vat_payer: ['platitortva', 'platitordetva', 'vatpayer', 'inregistrattva'],
  address: ['adresa', 'adresasediu', 'sediu', 'strada', 'address', 'adresacompleta'],
  city: ['localitate', 'oras', 'orasul', 'localitatea', 'municipiu', 'city', 'town'],
  county: ['judet', 'judetul', 'judetsector', 'county', 'region'],
  country: ['tara', 'taracod', 'codtara', 'country'],
  postal_code: ['codpostal', 'postalcode', 'zip', 'zipcode'],
  email: ['email', 'mail', 'adresaemail', 'emailaddress'],
  phone: ['telefon', 'tel', 'nrtelefon', 'mobil', 'phone', 'telefonmobil'],
  iban: ['iban', 'cont', 'contbancar', 'contiban', 'bankaccount'],
  bank: ['banca', 'bank', 'numebanca'],
  notes: ['observatii', 'note', 'notes', 'mentiuni', 'comentarii'],
};

const TABLES: Record<ImportKind, Record<string, string[]>> = { products: PRODUCT_HEADERS, clients: CLIENT_HEADERS };

/** Folded header → target, per kind (built once). */
const LOOKUP: Record<ImportKind, Map<string, string>> = {
  products: new Map(),
  clients: new Map(),
};
for (const kind of ['products', 'clients'] as const) {
  for (const [target, names] of Object.entries(TABLES[kind])) {
    for (const name of names) {
      const folded = foldHeader(name);
      if (!LOOKUP[kind].has(folded)) LOOKUP[kind].set(folded, target);
    }
  }
}

export function targetsOf(kind: ImportKind): readonly string[] {
  return kind === 'products' ? PRODUCT_TARGETS : CLIENT_TARGETS;
}

/** The target a header names, if it is one we know. */
export function targetOfHeader(kind: ImportKind, header: string): string | undefined {
  return LOOKUP[kind].get(foldHeader(header));
}

/** Whether a header is one of either kind's: used to find the header row. */
export function isKnownHeader(kind: ImportKind, header: string): boolean {
  return LOOKUP[kind].has(foldHeader(header));
}

/**
 * target → column, from the headers: each target takes the first column that names it, and each column
 * serves one target. Targets no header names are absent (not imported).
 */
export function proposeMapping(kind: ImportKind, headers: readonly string[]): Record<string, number> {
  const mapping: Record<string, number> = {};
  headers.forEach((header, index) => {
    const target = targetOfHeader(kind, header);
    if (target !== undefined && mapping[target] === undefined) mapping[target] = index;
  });
  return mapping;
}
