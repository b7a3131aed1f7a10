import { addMessages } from '../../platform/messages';

/** Error codes of the imports module. */
export const IMPORT_MESSAGES = {
  import_file_too_large: {
    en: 'The file is too large (about {size_mb} MB): an import takes at most {limit_mb} MB. Split it into smaller files, or delete the columns you do not need.',
    ro: 'Fișierul este prea mare (aproximativ {size_mb} MB): un import primește cel mult {limit_mb} MB. Împărțiți-l în fișiere mai mici sau ștergeți coloanele de care nu aveți nevoie.',
  },
  import_not_spreadsheet: {
    en: 'The file is not a CSV or XLSX spreadsheet. In Excel, save it as “Excel Workbook (.xlsx)” or “CSV”.',
    ro: 'Fișierul nu este un tabel CSV sau XLSX. În Excel, salvați-l ca „Registru de lucru Excel (.xlsx)” sau „CSV”.',
  },
  import_xls_legacy: {
    en: 'Old Excel files (.xls, Excel 97-2003) are not read. Open it in Excel and save it as .xlsx or CSV.',
    ro: 'Fișierele Excel vechi (.xls, Excel 97-2003) nu pot fi citite. Deschideți-l în Excel și salvați-l ca .xlsx sau CSV.',
  },
  import_empty: {
    en: 'The file has no data rows under its header.',
    ro: 'Fișierul nu are niciun rând de date sub capul de tabel.',
  },
  import_too_many_rows: {
    en: 'The file has more than {max} rows. Split it into smaller files.',
    ro: 'Fișierul are mai mult de {max} de rânduri. Împărțiți-l în fișiere mai mici.',
  },
  import_workbook_too_large: {
    en: 'The workbook unpacks to more than {max_mb} MB: it holds far more than a catalogue. Save only the sheet you import, or split it.',
    ro: 'Registrul de lucru are peste {max_mb} MB după dezarhivare: conține mult mai mult decât un catalog. Salvați doar foaia de importat sau împărțiți-l.',
  },
  import_csv_malformed: {
    en: 'The CSV file cannot be read: a quote is not closed near line {line}.',
    ro: 'Fișierul CSV nu poate fi citit: ghilimele neînchise în jurul rândului {line}.',
  },
  import_rows_invalid: {
    en: 'Rows with problems: {count}. Nothing was imported. Correct them in the file, or change which column goes where.',
    ro: 'Rânduri cu probleme: {count}. Nu s-a importat nimic. Corectați-le în fișier sau schimbați asocierea coloanelor.',
  },
  import_already_committed: {
    en: 'This import was already made, with another choice of columns. Upload the file again to import it anew.',
    ro: 'Acest import a fost deja făcut, cu altă asociere a coloanelor. Încărcați din nou fișierul pentru un import nou.',
  },
  import_conflict: {
    en: 'The catalogue changed while importing (a code or CUI was used in the meantime). Nothing was imported; try again.',
    ro: 'Catalogul s-a schimbat în timpul importului (un cod sau un CUI a fost folosit între timp). Nu s-a importat nimic; reîncercați.',
  },
};

addMessages(IMPORT_MESSAGES);
