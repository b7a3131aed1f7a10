/**
 * Public-data fixtures of the ANAF simulator: fictitious companies (valid CUI check digits, not
 * real registrations) in the shapes of PlatitorTvaRest v9 and the `bilant` service.
 * 12345674 and 76543210 are the seller and buyer of shared/validators/ubl/samples/ro-minimal.xml.
 */
export interface CompanyFixture {
  cui: number;
  denumire: string;
  adresa: string;
  nrRegCom: string;
  telefon: string;
  codPostal: string;
  stare_inregistrare: string;
  data_inregistrare: string;
  cod_CAEN: string;
  forma_juridica: string;
  organFiscalCompetent: string;
  vatPeriods: Array<{ start: string; end?: string; cancelled?: string; message?: string }>;
  vatOnCollectionFrom?: string;
  inactiveSince?: string;
  splitVatFrom?: string;
  eFacturaRegisteredOn?: string;
  sediu: {
    strada: string;
    numar: string;
    localitate: string;
    codLocalitate: string;
    judet: string;
    codJudet: string;
    judetAuto: string;
    detalii: string;
    codPostal: string;
  };
}

export const SIM_SELLER_CUI = 12345674;
export const SIM_BUYER_CUI = 76543210;
export const SIM_INACTIVE_CUI = 39012345;
export const SIM_INSURER_CUI = 44710212;
/** Valid check digit, but no firm behind it: ANAF lists it under `notFound`. */
export const SIM_UNKNOWN_CUI = 12345607;

export const companyFixtures: CompanyFixture[] = [
  {
    cui: SIM_SELLER_CUI,
    denumire: 'EXEMPLU FURNIZOR SRL',
    adresa: 'MUN. BUCUREŞTI, SECT. 1, STR. EXEMPLU, NR.1',
    nrRegCom: 'J40/1234/2020',
    telefon: '0211234567',
    codPostal: '010011',
    stare_inregistrare: 'INREGISTRAT din data 02.03.2020',
    data_inregistrare: '2020-03-02',
    cod_CAEN: '6201',
    forma_juridica: 'SOCIETATE COMERCIALĂ CU RĂSPUNDERE LIMITATĂ',
    organFiscalCompetent: 'Administraţia Sector 1 a Finanţelor Publice',
    vatPeriods: [{ start: '2020-03-02' }],
    eFacturaRegisteredOn: '2022-01-10',
    sediu: {
      strada: 'Str. Exemplu',
      numar: '1',
      localitate: 'Mun. Bucureşti, Sect. 1',
      codLocalitate: '179141',
      judet: 'MUNICIPIUL BUCUREŞTI',
      codJudet: '40',
      judetAuto: 'B',
      detalii: '',
      codPostal: '010011',
    },
  },
  {
    cui: SIM_BUYER_CUI,
    denumire: 'EXEMPLU CLIENT SRL',
    adresa: 'JUD. CLUJ, MUN. CLUJ-NAPOCA, STR. CLIENTULUI, NR.2, ET.1',
    nrRegCom: 'J12/567/2015',
    telefon: '0264123456',
    codPostal: '400001',
    stare_inregistrare: 'INREGISTRAT din data 11.05.2015',
    data_inregistrare: '2015-05-11',
    cod_CAEN: '4690',
    forma_juridica: 'SOCIETATE COMERCIALĂ CU RĂSPUNDERE LIMITATĂ',
    organFiscalCompetent: 'Administraţia Judeţeană a Finanţelor Publice Cluj',
    vatPeriods: [{ start: '2015-06-01' }],
    vatOnCollectionFrom: '2023-02-01',
    sediu: {
      strada: 'Str. Clientului',
      numar: '2',
      localitate: 'Mun. Cluj-Napoca',
      codLocalitate: '54984',
      judet: 'CLUJ',
      codJudet: '12',
      judetAuto: 'CJ',
      detalii: 'ET.1',
      codPostal: '400001',
    },
  },
  {
    cui: SIM_INACTIVE_CUI,
    denumire: 'MICRO FARA TVA SRL',
    adresa: 'JUD. IAŞI, MUN. IAŞI, STR. PĂCURARI, NR.7',
    nrRegCom: 'J22/890/2018',
    telefon: '',
    codPostal: '700511',
    stare_inregistrare: 'INREGISTRAT din data 19.02.2018',
    data_inregistrare: '2018-02-19',
    cod_CAEN: '7022',
    forma_juridica: 'SOCIETATE COMERCIALĂ CU RĂSPUNDERE LIMITATĂ',
    organFiscalCompetent: 'Administraţia Judeţeană a Finanţelor Publice Iaşi',
    vatPeriods: [
      {
        start: '2018-03-01',
        end: '2024-05-10',
        cancelled: '2024-05-10',
        message: 'anulare inregistrare in scopuri de TVA conform art. 316 alin. (11) lit. a) din Codul fiscal',
      },
    ],
    inactiveSince: '2024-05-10',
    sediu: {
      strada: 'Str. Păcurari',
      numar: '7',
      localitate: 'Mun. Iaşi',
      codLocalitate: '95079',
      judet: 'IAŞI',
      codJudet: '22',
      judetAuto: 'IS',
      detalii: '',
      codPostal: '700511',
    },
  },
  {
    cui: SIM_INSURER_CUI,
    denumire: 'ASIGURARI DEMO SA',
    adresa: 'MUN. BUCUREŞTI, SECT. 2, BD. EXEMPLULUI, NR.10',
    nrRegCom: 'J40/4471/2001',
    telefon: '0219876543',
    codPostal: '020331',
    stare_inregistrare: 'INREGISTRAT din data 14.06.2001',
    data_inregistrare: '2001-06-14',
    cod_CAEN: '6512',
    forma_juridica: 'SOCIETATE COMERCIALĂ PE ACŢIUNI',
    organFiscalCompetent: 'Administraţia Fiscală pentru Contribuabili Mijlocii Bucureşti',
    vatPeriods: [],
    splitVatFrom: '2018-01-01',
    sediu: {
      strada: 'Bd. Exemplului',
      numar: '10',
      localitate: 'Mun. Bucureşti, Sect. 2',
      codLocalitate: '179178',
      judet: 'MUNICIPIUL BUCUREŞTI',
      codJudet: '40',
      judetAuto: 'B',
      detalii: '',
      codPostal: '020331',
    },
  },
];

/** One `found[]` entry as PlatitorTvaRest v9 answers it for `date`. */
export function tvaRecord(c: CompanyFixture, date: string) {
  const inForce = (from?: string, to?: string) => from !== undefined && from <= date && (to === undefined || date < to);
  const scpTVA = c.vatPeriods.some((p) => inForce(p.start, p.end));
  return {
    date_generale: {
      cui: c.cui,
      data: date,
      denumire: c.denumire,
      adresa: c.adresa,
      nrRegCom: c.nrRegCom,
      telefon: c.telefon,
      fax: '',
      codPostal: c.codPostal,
      act: '',
      stare_inregistrare: c.stare_inregistrare,
      data_inregistrare: c.data_inregistrare,
      cod_CAEN: c.cod_CAEN,
      iban: '',
      statusRO_e_Factura: inForce(c.eFacturaRegisteredOn),
      data_inreg_Reg_RO_e_Factura: c.eFacturaRegisteredOn ?? '',
      organFiscalCompetent: c.organFiscalCompetent,
      forma_de_proprietate: 'PROPR.PRIVATA-CAPITAL PRIVAT AUTOHTON',
      forma_organizare: 'PERSOANA JURIDICA',
      forma_juridica: c.forma_juridica,
    },
    inregistrare_scop_Tva: {
      scpTVA,
      perioade_TVA: c.vatPeriods.map((p) => ({
        data_inceput_ScpTVA: p.start,
        data_sfarsit_ScpTVA: p.end ?? '',
        data_anul_imp_ScpTVA: p.cancelled ?? '',
        mesaj_ScpTVA: p.message ?? '',
      })),
    },
    inregistrare_RTVAI: {
      dataInceputTvaInc: c.vatOnCollectionFrom ?? '',
      dataSfarsitTvaInc: '',
      dataActualizareTvaInc: c.vatOnCollectionFrom ?? '',
      dataPublicareTvaInc: c.vatOnCollectionFrom ?? '',
      tipActTvaInc: c.vatOnCollectionFrom ? 'Inregistrare' : '',
      statusTvaIncasare: inForce(c.vatOnCollectionFrom),
    },
    stare_inactiv: {
      dataInactivare: c.inactiveSince ?? '',
      dataReactivare: '',
      dataPublicare: c.inactiveSince ?? '',
      dataRadiere: '',
      statusInactivi: inForce(c.inactiveSince),
    },
    inregistrare_SplitTVA: {
      dataInceputSplitTVA: c.splitVatFrom ?? '',
      dataAnulareSplitTVA: '',
      statusSplitTVA: inForce(c.splitVatFrom),
    },
    adresa_sediu_social: {
      sdenumire_Strada: c.sediu.strada,
      snumar_Strada: c.sediu.numar,
      sdenumire_Localitate: c.sediu.localitate,
      scod_Localitate: c.sediu.codLocalitate,
      sdenumire_Judet: c.sediu.judet,
      scod_Judet: c.sediu.codJudet,
      scod_JudetAuto: c.sediu.judetAuto,
      stara: 'ROMANIA',
      sdetalii_Adresa: c.sediu.detalii,
      scod_Postal: c.sediu.codPostal,
    },
    adresa_domiciliu_fiscal: {
      ddenumire_Strada: c.sediu.strada,
      dnumar_Strada: c.sediu.numar,
      ddenumire_Localitate: c.sediu.localitate,
      dcod_Localitate: c.sediu.codLocalitate,
      ddenumire_Judet: c.sediu.judet,
      dcod_Judet: c.sediu.codJudet,
      dcod_JudetAuto: c.sediu.judetAuto,
      dtara: 'ROMANIA',
      ddetalii_Adresa: c.sediu.detalii,
      dcod_Postal: c.sediu.codPostal,
    },
  };
}

export interface BilantFixture {
  an: number;
  cui: number;
  deni: string;
  caen: number;
  den_caen: string;
  i: Array<{ indicator: string; val_indicator: number; val_den_indicator: string }>;
}

/** The abridged balance sheet of a commercial company, descriptions spelled as ANAF spells them (spaces included). */
function commercialSheet(
  an: number,
  cui: number,
  deni: string,
  caen: number,
  den_caen: string,
  v: Record<'I1' | 'I2' | 'I3' | 'I4' | 'I5' | 'I6' | 'I7' | 'I8' | 'I9' | 'I10' | 'I11' | 'I13' | 'I14' | 'I15' | 'I16' | 'I17' | 'I18' | 'I19' | 'I20', number>,
  spelling: 'plain' | 'diacritics' = 'plain',
): BilantFixture {
  const d = spelling === 'diacritics';
  const names: Array<[keyof typeof v | 'I12', string]> = [
    ['I1', d ? 'ACTIVE IMOBILIZATE - TOTAL ' : 'ACTIVE IMOBILIZATE - TOTAL'],
    ['I2', 'ACTIVE CIRCULANTE - TOTAL, din care:'],
    ['I3', 'Stocuri (materii prime, materiale, productie in curs de executie, semifabricate, produse finite, marfuri etc.)'],
    ['I4', 'Creante'],
    ['I5', d ? 'Casa şi conturi la bănci' : 'Casa si conturi la banci'],
    ['I6', 'CHELTUIELI IN AVANS'],
    ['I7', d ? 'DATORII ' : 'DATORII'],
    ['I8', 'VENITURI IN AVANS'],
    ['I9', 'PROVIZIOANE'],
    ['I10', 'CAPITALURI - TOTAL, din care:'],
    ['I11', 'Capital subscris varsat'],
    ['I12', 'Patrimoniul regiei '],
    ['I13', 'Cifra de afaceri neta'],
    ['I14', 'VENITURI TOTALE'],
    ['I15', 'CHELTUIELI TOTALE'],
    ['I16', 'Profit brut'],
    ['I17', 'Pierdere bruta'],
    ['I18', 'Profit net'],
    ['I19', d ? 'Pierdere  neta' : 'Pierdere neta'],
    ['I20', 'Numar mediu de salariati'],
  ];
  return {
    an,
    cui,
    deni,
    caen,
    den_caen,
    i: names.map(([code, name]) => ({ indicator: code, val_indicator: code === 'I12' ? 0 : v[code], val_den_indicator: name })),
  };
}

/** The insurer form from ANAF's own bilant instructions: same service, different codes. */
function insurerSheet(an: number, cui: number): BilantFixture {
  const rows: Array<[string, number, string]> = [
    ['I1', 1_250_000, 'Imobilizari necorporale'],
    ['I2', 48_000_000, 'Plasamente - Total'],
    ['I9', 6_500_000, 'Creante'],
    ['I10', 900_000, 'Imobilizări corporale si stocuri'],
    ['I11', 2_100_000, 'Casa si conturi la banci'],
    ['I12', 150_000, 'Cheltuieli in avans'],
    ['I13', 21_000_000, 'Capital şi rezerve - Total'],
    ['I14', 15_000_000, 'Capital social'],
    ['I18', 30_500_000, 'Rezerve tehnice'],
    ['I19', 400_000, 'Provizioane  '],
    ['I20', 7_300_000, 'Datorii  '],
    ['I27', 33_000_000, 'Venituri totale'],
    ['I28', 29_400_000, 'Cheltuieli totale'],
    ['I29', 3_600_000, 'Profit brut'],
    ['I30', 0, 'Pierdere bruta'],
    ['I31', 3_024_000, 'Profit net'],
    ['I32', 0, 'Pierdere neta'],
    ['I33', 112, 'Numar mediu de salariati'],
  ];
  return {
    an,
    cui,
    deni: 'ASIGURARI DEMO SA',
    caen: 6512,
    den_caen: 'Alte activitati de asigurari (exceptand asigurarile de viata)',
    i: rows.map(([indicator, val_indicator, val_den_indicator]) => ({ indicator, val_indicator, val_den_indicator })),
  };
}

export const bilantFixtures: BilantFixture[] = [
  commercialSheet(2023, SIM_SELLER_CUI, 'EXEMPLU FURNIZOR SRL', 6201, 'Activitati de realizare a soft-ului la comanda (software orientat client)', {
    I1: 180_000, I2: 940_000, I3: 0, I4: 610_000, I5: 330_000, I6: 12_000, I7: 410_000, I8: 0, I9: 0, I10: 722_000,
    I11: 200, I13: 2_450_000, I14: 2_470_000, I15: 2_010_000, I16: 460_000, I17: 0, I18: 386_000, I19: 0, I20: 14,
  }),
  commercialSheet(2024, SIM_SELLER_CUI, 'EXEMPLU FURNIZOR SRL', 6201, 'Activitati de realizare a soft-ului la comanda (software orientat client)', {
    I1: 210_000, I2: 1_120_000, I3: 0, I4: 700_000, I5: 420_000, I6: 15_000, I7: 455_000, I8: 2_000, I9: 0, I10: 888_000,
    I11: 200, I13: 2_980_000, I14: 3_005_000, I15: 2_810_000, I16: 195_000, I17: 0, I18: 166_000, I19: 0, I20: 17,
  }),
  commercialSheet(
    2024,
    SIM_BUYER_CUI,
    'EXEMPLU CLIENT SRL',
    4690,
    'Comert cu ridicata nespecializat',
    {
      I1: 1_400_000, I2: 2_300_000, I3: 900_000, I4: 1_100_000, I5: 300_000, I6: 40_000, I7: 3_050_000, I8: 0, I9: 30_000,
      I10: 660_000, I11: 45_000, I13: 6_200_000, I14: 6_260_000, I15: 6_480_000, I16: 0, I17: 220_000, I18: 0, I19: 220_000, I20: 23,
    },
    'diacritics',
  ),
  insurerSheet(2024, SIM_INSURER_CUI),
];
