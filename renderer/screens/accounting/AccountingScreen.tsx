import { saveBase64InBrowser } from '../../lib/save-download';
import { useState } from 'react';
import { isJobFile, type AccountingFile } from '../../../shared/ipc/contract-accounting';
import { callIpc } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n';
import { useToast } from '../../components/Toasts';
import { describeError } from '../../lib/errors';
import { formatDate } from '../../lib/format';

/**
 * "Contabilitate": the accountant's month. Pick a period (a month by default), get each file the
 * service makes of it: the VAT journals, the cash register, Saga's import files, every document as a
 * table, the monthly archive. Files are made on the service (online). The long ones (spreadsheets, the
 * programs' exports, the archive) are export jobs: the bar shows the documents written of the total, read
 * from the service every few hundred milliseconds, and the file is saved once the job is ready.
 */

/** How often the job's progress is asked for (ms). */
const POLL_MS = 400;

interface Progress { done: number; total: number; saving: boolean }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Percent of a job, 0 when nothing is counted yet, 100 when there was nothing to write. */
export function percentOf(done: number, total: number): number {
  if (total <= 0) return done > 0 ? 100 : 0;
  return Math.min(100, Math.floor((done * 100) / total));
}

interface FileItem {
  file: AccountingFile;
  label: MessageKey;
  hint: MessageKey;
}

const GROUPS: { title: MessageKey; items: FileItem[] }[] = [
  {
    title: 'accounting.group.registers',
    items: [
      { file: 'sales_journal_pdf', label: 'accounting.file.salesJournalPdf', hint: 'accounting.hint.salesJournal' },
      { file: 'sales_journal_xlsx', label: 'accounting.file.salesJournalXlsx', hint: 'accounting.hint.salesJournal' },
      { file: 'purchase_journal_pdf', label: 'accounting.file.purchaseJournalPdf', hint: 'accounting.hint.purchaseJournal' },
      { file: 'purchase_journal_xlsx', label: 'accounting.file.purchaseJournalXlsx', hint: 'accounting.hint.purchaseJournal' },
      { file: 'cash_register_pdf', label: 'accounting.file.cashRegisterPdf', hint: 'accounting.hint.cashRegister' },
    ],
  },
  {
    title: 'accounting.group.exports',
    items: [
      { file: 'saga_zip', label: 'accounting.file.saga', hint: 'accounting.hint.saga' },
      { file: 'winmentor_zip', label: 'accounting.file.winmentor', hint: 'accounting.hint.winmentor' },
      { file: 'documents_csv', label: 'accounting.file.documentsCsv', hint: 'accounting.hint.documents' },
      { file: 'documents_xlsx', label: 'accounting.file.documentsXlsx', hint: 'accounting.hint.documents' },
    ],
  },
  {
    title: 'accounting.group.archive',
    items: [{ file: 'archive_zip', label: 'accounting.file.archive', hint: 'accounting.hint.archive' }],
  },
];

/** `YYYY-MM` of the month before `today` (the month an accountant usually asks for). */
export function previousMonth(today: Date): string {
  const d = new Date(Date.UTC(today.getFullYear(), today.getMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

export function monthBounds(month: string): { start: string; end: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start: `${month}-01`, end: `${month}-${String(last).padStart(2, '0')}` };
}

export function AccountingScreen() {
  const { t } = useI18n();
  const toast = useToast();
  const [month, setMonth] = useState(() => previousMonth(new Date()));
  const bounds = monthBounds(month);
  const [start, setStart] = useState(bounds.start);
  const [end, setEnd] = useState(bounds.end);
  const [busy, setBusy] = useState<AccountingFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);

  const pickMonth = (value: string) => {
    if (!/^\d{4}-\d{2}$/.test(value)) return;
    setMonth(value);
    const b = monthBounds(value);
    setStart(b.start);
    setEnd(b.end);
  };
  const periodError = end < start ? t('accounting.endBeforeStart') : null;

  const get = (item: FileItem) => {
    if (periodError) return;
    setBusy(item.file);
    setError(null);
    setProgress(null);
    const file = item.file;
    const run = async () => {
      if (!isJobFile(file)) return callIpc('accounting.export', { file, start_date: start, end_date: end });
      // A job on the service: documents written of the total, then the file.
      let job = await callIpc('accounting.jobStart', { file, start_date: start, end_date: end, request_id: crypto.randomUUID() });
      setProgress({ done: job.done, total: job.total, saving: false });
      while (job.state === 'running') {
        await sleep(POLL_MS);
        job = await callIpc('accounting.jobStatus', { job_id: job.job_id });
        setProgress({ done: job.done, total: job.total, saving: false });
      }
      if (job.state === 'failed') throw new Error(t('accounting.jobFailed', { reason: job.error_message ?? '' }));
      setProgress({ done: job.done, total: job.total, saving: true });
      return callIpc('accounting.jobSave', { job_id: job.job_id });
    };
    void run()
      .then((r) => {
        if (r.base64) {
          saveBase64InBrowser(r.base64, r.file_name, r.content_type);
          toast(t('accounting.downloaded', { name: r.file_name }), 'ok');
        } else if (r.saved) toast(t('accounting.saved', { path: r.path ?? r.file_name }), 'ok');
      })
      .catch((e: unknown) => {
        const message = describeError(e, t);
        setError(message);
        toast(message, 'bad');
      })
      .finally(() => {
        setBusy(null);
        setProgress(null);
      });
  };

  return (
    <div className="content" data-testid="accounting-screen">
      <div className="card col" style={{ maxWidth: 920 }}>
        <div className="row wrap" style={{ gap: 16, alignItems: 'flex-end' }}>
          <label className="col" style={{ gap: 4 }}>
            <span className="muted small">{t('accounting.month')}</span>
            <input className="input" type="month" value={month} onChange={(e) => pickMonth(e.target.value)} data-testid="accounting-month" />
          </label>
          <label className="col" style={{ gap: 4 }}>
            <span className="muted small">{t('accounting.from')}</span>
            <input className="input" type="date" value={start} onChange={(e) => setStart(e.target.value)} data-testid="accounting-start" />
          </label>
          <label className="col" style={{ gap: 4 }}>
            <span className="muted small">{t('accounting.to')}</span>
            <input className="input" type="date" value={end} onChange={(e) => setEnd(e.target.value)} data-testid="accounting-end" aria-invalid={periodError ? true : undefined} />
          </label>
          <span className="muted">{t('accounting.period', { start: formatDate(start), end: formatDate(end) })}</span>
        </div>
        {periodError ? <div className="error-text" role="alert">{periodError}</div> : null}
        <div className="muted small">{t('accounting.online')}</div>
      </div>
      {busy ? (
        <div className="card col" style={{ maxWidth: 920, marginTop: 12 }} data-testid="accounting-progress">
          <span>{t('accounting.making', { name: t(GROUPS.flatMap((g) => g.items).find((i) => i.file === busy)!.label) })}</span>
          {progress ? (
            <>
              <progress
                style={{ width: '100%' }}
                aria-label={t('accounting.progress')}
                max={Math.max(progress.total, 1)}
                value={progress.total > 0 ? progress.done : progress.saving ? 1 : 0}
                data-testid="accounting-progress-bar"
                data-done={progress.done}
                data-total={progress.total}
              />
              <span className="muted small" data-testid="accounting-progress-text">
                {t('accounting.progressCount', { done: progress.done, total: progress.total, percent: percentOf(progress.done, progress.total) })}
                {progress.saving ? ` · ${t('accounting.savingFile')}` : ''}
              </span>
            </>
          ) : (
            <>
              {/* Before the job answers (or for a register printed in one call): no count yet to show. */}
              <progress style={{ width: '100%' }} aria-label={t('accounting.progress')} />
              {isJobFile(busy) ? <span className="muted small">{t('accounting.counting')}</span> : null}
            </>
          )}
        </div>
      ) : null}
      {error ? <div className="card" role="alert" style={{ maxWidth: 920, marginTop: 12, color: 'var(--bad)' }}>{error}</div> : null}
      {GROUPS.map((group) => (
        <div key={group.title} className="card col" style={{ maxWidth: 920, marginTop: 12 }}>
          <h2 style={{ margin: 0, fontSize: 15 }}>{t(group.title)}</h2>
          {group.items.map((item) => (
            <div key={item.file} className="row" style={{ justifyContent: 'space-between', borderTop: '1px solid var(--line)', paddingTop: 8 }}>
              <div className="col" style={{ gap: 2 }}>
                <strong>{t(item.label)}</strong>
                <span className="muted small">{t(item.hint)}</span>
              </div>
              <button type="button" className="btn" disabled={busy !== null || periodError !== null} onClick={() => get(item)} data-testid={`accounting-get-${item.file}`}>
                {busy === item.file ? t('accounting.working') : t('accounting.get')}
              </button>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
