import type { RecordSync } from '../../shared/ipc';
import { useT } from '../i18n/I18nProvider';

export function InvoiceStatusBadge({ status, documentType }: { status: string; documentType?: string }) {
  const t = useT();
  const tone = status === 'issued' ? 'ok' : status === 'draft' ? '' : status === 'voided' ? 'bad' : 'warn';
  const label =
    status === 'draft' ? t('status.draft') : status === 'issued' ? (documentType === 'proforma' ? t('status.proforma') : t('status.issued')) : status === 'voided' ? t('status.voided') : t('status.storno');
  return <span className={`badge ${tone}`}>{label}</span>;
}

export function PaidBadge({ state }: { state: string }) {
  const t = useT();
  if (state === 'paid') return <span className="badge ok">{t('paid.paid')}</span>;
  if (state === 'partially_paid') return <span className="badge warn">{t('paid.partially_paid')}</span>;
  return <span className="badge">{t('paid.unpaid')}</span>;
}

/** Where a record stands with the server; a failed one says so in red. */
export function SyncBadge({ sync }: { sync: RecordSync }) {
  const t = useT();
  switch (sync.state) {
    case 'synced':
      return <span className="badge ok" title={sync.server_id ?? ''}>✓ {t('sync.state.synced')}</span>;
    case 'pending':
      return <span className="badge info">⟳ {t('sync.state.pending')}</span>;
    case 'in_flight':
      return <span className="badge info">⇡ {t('sync.state.in_flight')}</span>;
    case 'failed':
      return (
        <span className="badge bad" title={sync.error?.message ?? ''}>
          ! {t('sync.state.failed')}
        </span>
      );
  }
}

export function EfacturaBadge({ status }: { status: string }) {
  const t = useT();
  if (status === 'accepted') return <span className="badge ok">{t('efactura.accepted')}</span>;
  if (status === 'rejected') return <span className="badge bad">{t('efactura.rejected')}</span>;
  if (status === 'pending') return <span className="badge info">{t('efactura.pending')}</span>;
  return <span className="badge">{t('efactura.not_sent')}</span>;
}
