/**
 * The document schema (document.ts) states its rules in English, with the EN 16931 / CIUS-RO rule id.
 * Before numbering a cashier must read them in Romanian at the field: this gives the "English|Română"
 * pair the service's 422 `fields` and the desktop's input errors carry.
 */

const BY_RULE: Record<string, string> = {
  'BR-CO-10': 'Totalul fără TVA diferă de suma liniilor (BR-CO-10).',
  'BR-CO-14': 'TVA totală diferă de suma TVA pe cote (BR-CO-14).',
  'BR-CO-15': 'Totalul de plată nu este valoarea fără TVA plus TVA (BR-CO-15).',
  'BR-CO-16': 'Suma de plată nu este totalul minus avansurile (BR-CO-16).',
  'BR-CO-17':
    'TVA pe această cotă, adunată linie cu linie, se abate cu 1 leu sau mai mult de la cota aplicată bazei impozabile (BR-CO-17): împărțiți factura sau rotunjiți TVA pe total.',
  'BR-CO-25': 'O factură cu sumă de plată cere scadența sau condițiile de plată (BR-CO-25).',
  'BR-RO-010': 'Numărul facturii trebuie să conțină cel puțin o cifră (BR-RO-010).',
  'BR-RO-020': 'Tipul documentului nu este acceptat de e-Factura (BR-RO-020).',
  'BR-RO-030': 'O factură în valută trebuie să declare TVA în lei: completați cursul de schimb (BR-RO-030).',
  'BR-RO-065': 'Vânzătorul are nevoie de codul de TVA sau de CUI (BR-RO-065).',
  'BR-RO-100': 'În București localitatea trebuie să fie sectorul, de ex. „Sector 4” (BR-RO-100).',
  'BR-RO-110': 'Județul nu este un cod ISO 3166-2:RO (de ex. RO-CJ) (BR-RO-110).',
  'BR-RO-120': 'Cumpărătorul are nevoie de un cod de TVA, de un CUI sau, pentru o persoană fizică, de CNP (BR-RO-120).',
  'BR-RO-211': 'Adresa de livrare cere regiunea (județul), și în străinătate (BR-RO-211).',
  'BR-S-05': 'O linie cu TVA standard cere o cotă mai mare de 0 (BR-S-05).',
  'BR-S-02': 'Un vânzător care aplică TVA (sau o scutire, cota 0, taxarea inversă) are nevoie de codul de TVA (BR-S-02).',
  'BR-O-02': 'Un neplătitor de TVA nu poate declara codul de TVA al cumpărătorului (BR-O-02).',
  'BR-AE-02': 'Taxarea inversă și livrarea intracomunitară cer codul de TVA al cumpărătorului (BR-AE-02, BR-IC-02).',
  'BR-IC-11': 'O livrare intracomunitară cere data livrării (BR-IC-11).',
  'BR-IC-12': 'O livrare intracomunitară cere adresa de livrare (BR-IC-12).',
  'BR-Z-10': 'O linie cu cota zero (Z) nu are motiv de scutire (BR-Z-10); pentru o scutire alegeți categoria E.',
  'BR-E-10': 'O linie scutită cere motivul scutirii (BR-E-10).',
  'BR-27': 'Prețul unitar nu poate fi negativ (BR-27): pe o stornare se negativează cantitatea.',
  'BR-61': 'Plata prin transfer bancar cere IBAN-ul vânzătorului (BR-61).',
  'BR-CO-18': 'Factura are nevoie de cel puțin o cotă de TVA (BR-CO-18).',
};

/** What the schema's own (rule-less) messages say, in Romanian, by a phrase they contain. */
const BY_PHRASE: [RegExp, string][] = [
  [/CIUS-RO limit/, 'Textul depășește lungimea admisă de e-Factura.'],
  [/control characters/, 'Textul conține caractere de control pe care XML nu le poate purta.'],
  [/must not be empty/, 'Câmpul este obligatoriu pentru e-Factura.'],
  [/VAT id must be a 2-letter country prefix/, 'Codul de TVA trebuie să înceapă cu prefixul țării (2 litere), urmat de 2–13 caractere.'],
  [/Romanian VAT id must be RO/, 'Codul de TVA românesc este RO urmat de un CUI valid (cifra de control).'],
  [/CUI control digit|CUI must be/, 'CUI nevalid (verificați cifra de control).'],
  [/CNP must be/, 'CNP nevalid: 13 cifre cu cifra de control corectă, sau 0000000000000 dacă persoana nu îl comunică.'],
  [/not a valid e-mail/, 'Adresă de e-mail nevalidă.'],
  [/phone number/, 'Numărul de telefon are prea puține cifre.'],
  [/ISO 3166-1 alpha-2/, 'Țara trebuie scrisă cu codul de două litere (de ex. RO, DE).'],
  [/quantity must not be zero/, 'Cantitatea nu poate fi zero.'],
  [/does not match quantity/, 'Valoarea liniei nu este cantitatea înmulțită cu prețul.'],
  [/UN\/ECE rec. 20 unit code/, 'Unitatea de măsură trebuie să fie un cod UN/ECE (de ex. H87 bucată, KGM kilogram).'],
  [/is used twice/, 'Același număr de linie apare de două ori.'],
  [/exemption reason/, 'Motivul scutirii de TVA lipsește sau nu este permis pentru această categorie.'],
  [/must have a 0% rate|carries no VAT/, 'Această categorie de TVA are cota 0%.'],
  [/exchange rate/, 'Cursul de schimb trebuie să fie un număr zecimal pozitiv, de ex. 4,9763.'],
  [/not an IBAN/, 'IBAN nevalid.'],
  [/YYYY-MM-DD|calendar date/, 'Dată nevalidă.'],
  [/category O \(not subject to VAT\)/, 'Un neplătitor de TVA (categoria O) nu poate avea alte categorii sau coduri de TVA pe factură (BR-O-02, BR-O-11..14).'],
  [/breakdown row|breakdown/, 'Defalcarea TVA pe cote nu corespunde liniilor.'],
];

/** "English|Română" for one schema issue. */
export function romanianIssue(path: string, message: string): string {
  const rule = /\b(BR-[A-Z]+(?:-[A-Z]+)?-?\d+|BR-\d+)\b/.exec(message)?.[1];
  const ro = (rule && BY_RULE[rule]) ?? BY_PHRASE.find(([re]) => re.test(message))?.[1] ?? `Documentul nu respectă regulile e-Factura la „${path}”: ${message}`;
  return `${message}|${ro}`;
}
