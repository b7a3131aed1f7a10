import type { AccountingFile } from '../../shared/ipc/contract-accounting';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

/** Where each file of the "Contabilitate" screen comes from on the service, and what it is called here. */
function source(file: AccountingFile, start: string, end: string): { path: string; query: Record<string, string>; name: string; print: boolean } {
  const period = { start_date: start, end_date: end };
  const span = `${start}_${end}`;
  switch (file) {
    case 'sales_journal_pdf': return { path: '/accounting/journals/sales/html', query: period, name: `Jurnal-vanzari_${span}.pdf`, print: true };
    case 'sales_journal_xlsx': return { path: '/accounting/journals/sales/xlsx', query: period, name: `Jurnal-vanzari_${span}.xlsx`, print: false };
    case 'purchase_journal_pdf': return { path: '/accounting/journals/purchases/html', query: period, name: `Jurnal-cumparari_${span}.pdf`, print: true };
    case 'purchase_journal_xlsx': return { path: '/accounting/journals/purchases/xlsx', query: period, name: `Jurnal-cumparari_${span}.xlsx`, print: false };
    case 'cash_register_pdf': return { path: '/accounting/cash-register/html', query: period, name: `Registru-casa_${span}.pdf`, print: true };
    case 'saga_zip': return { path: '/accounting/exports/saga', query: period, name: `Saga_${span}.zip`, print: false };
    case 'winmentor_zip': return { path: '/accounting/exports/winmentor', query: period, name: `WinMentor_${span}.zip`, print: false };
    case 'documents_csv': return { path: '/accounting/exports/documents/csv', query: period, name: `Documente_${span}.csv`, print: false };
    case 'documents_xlsx': return { path: '/accounting/exports/documents/xlsx', query: period, name: `Documente_${span}.xlsx`, print: false };
    case 'archive_zip': return { path: '/accounting/archive', query: { month: start.slice(0, 7) }, name: `Arhiva_${start.slice(0, 7)}.zip`, print: false };
  }
}

export function accountingHandlers(s: MainServices): HandlerGroup<'accounting.export'> {
  return {
    'accounting.export': async ({ file, start_date, end_date }) => {
      const src = source(file, start_date, end_date);
      const got = await s.engine.downloadFile(src.path, src.query);
      if (src.print && s.host.savePdf) {
        // The register is HTML from the service: printed to PDF here, as the app prints its invoices.
        const saved = await s.host.savePdf(Buffer.from(got.bytes).toString('utf8'), src.name);
        return { ...saved, file_name: src.name, content_type: 'application/pdf', base64: null, bytes: got.bytes.length };
      }
      const name = src.print ? src.name.replace(/\.pdf$/, '.html') : src.name;
      if (s.host.saveFile) {
        const saved = await s.host.saveFile(got.bytes, name);
        return { ...saved, file_name: name, content_type: got.contentType, base64: null, bytes: got.bytes.length };
      }
      // The web host cannot write to the user's disk: the browser saves (or, for a register, opens to print) what it is given.
      return { saved: false, path: null, file_name: name, content_type: got.contentType, base64: Buffer.from(got.bytes).toString('base64'), bytes: got.bytes.length };
    },
  };
}
