import { addMessages } from '../../platform/messages';

/** Error codes of the accounting module (journals, cash register, exports, archive), in English and Romanian. */
addMessages({
  cash_day_closed: {
    en: 'The cash register day {date} is closed: record a correcting entry on an open day instead.',
    ro: 'Ziua {date} din registrul de casă este închisă: înregistrați o corecție într-o zi deschisă.',
  },
  cash_day_already_closed: {
    en: 'The cash register day {date} was already closed.',
    ro: 'Ziua {date} din registrul de casă a fost deja închisă.',
  },
  export_job_not_ready: {
    en: 'The export job has no file yet (it is still running, or it failed): ask the job for its state.',
    ro: 'Exportarea nu are încă un fișier (încă rulează sau a eșuat): cereți starea ei.',
  },
  export_job_file_gone: {
    en: 'The file of this export job is no longer kept: start the export again.',
    ro: 'Fișierul acestei exportări nu mai este păstrat: porniți exportarea din nou.',
  },
  export_job_interrupted: {
    en: 'The export stopped when the service stopped: start it again.',
    ro: 'Exportarea s-a oprit odată cu serviciul: porniți-o din nou.',
  },
  export_job_failed: {
    en: 'The export could not be completed: start it again; if it fails again, tell us.',
    ro: 'Exportarea nu a putut fi terminată: porniți-o din nou; dacă eșuează iar, anunțați-ne.',
  },
  export_jobs_busy: {
    en: 'Three exports of this company are already running: wait for one of them to finish.',
    ro: 'Trei exportări ale acestei firme rulează deja: așteptați să se termine una dintre ele.',
  },
  cash_register_negative: {
    en: 'This payment of {amount} would leave the cash register at {balance} on {date}: there is not that much cash.',
    ro: 'Această plată de {amount} ar lăsa registrul de casă la {balance} pe {date}: nu există atâta numerar în casă.',
  },
});

/** Romanian (and English) texts of journal warnings. */
export const WARNING_TEXT: Record<string, { en: string; ro: string }> = {
  missing_exchange_rate: {
    en: 'A received invoice in a foreign currency without an exchange rate: left out of the journal; record it as an expense with its rate.',
    ro: 'Factură primită în valută fără curs de schimb: nu este inclusă în jurnal; înregistrați-o ca cheltuială cu cursul ei.',
  },
};
