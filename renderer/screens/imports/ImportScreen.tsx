import { maskCnp } from '../../../shared/ro/cnp';
import { useState } from 'react';
import type { ChannelOutput } from '../../../shared/ipc';
import { STANDARD_VAT_RATES_BP } from '../../../shared/invoice-math';
import { CLIENT_TARGETS, IMPORT_MAX_FILE_BYTES, PRODUCT_TARGETS, type ImportKind } from '../../../shared/schemas/import';
import { navigate } from '../../app/router';
import { Field } from '../../components/Field';
import { useIpcMutation } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import type { MessageKey, Translate } from '../../i18n';
import { describeError, errorOf } from '../../lib/errors';
import { formatPercent, formatTimestamp, formatWireMoney } from '../../lib/format';

type ImportView = ChannelOutput<'imports.upload'>;
type Mapping = Record<string, number | null>;

const MIB = 1024 * 1024;
/** Shown at once; a file with more problems says how many more (the service names every one). */
const ERRORS_SHOWN = 1000;
const ACCEPTED = /\.(csv|xlsx|txt)$/i;

const targetsOf = (kind: ImportKind): readonly string[] => (kind === 'products' ? PRODUCT_TARGETS : CLIENT_TARGETS);
const targetLabel = (t: Translate, target: string) => t(`imports.target.${target}` as MessageKey);

/** The file's bytes as base64, read by the browser (no copy through a JS string of bytes). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*;base64,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

function problemText(error: unknown, t: Translate): string {
  const e = errorOf(error);
  if (e && (e.code === 'offline' || e.code === 'not_configured')) return t('imports.offline');
  return describeError(error, t);
}

/**
 * Import of products or clients from a CSV or XLSX file: pick the file, see how its columns are read
 * (and change it), see every bad row with its reason, import all or nothing, see what was done.
 */
export function ImportScreen({ kind: routeKind }: { kind?: string }) {
  const { t, language } = useI18n();
  const kind: ImportKind = routeKind === 'clients' ? 'clients' : 'products';
  const upload = useIpcMutation('imports.upload');
  const preview = useIpcMutation('imports.preview');
  const commit = useIpcMutation('imports.commit');
  const [imp, setImp] = useState<ImportView | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [existing, setExisting] = useState<'update' | 'skip'>('update');
  const [result, setResult] = useState<ChannelOutput<'imports.commit'> | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const busy = upload.isPending || preview.isPending || commit.isPending;

  const reset = () => {
    setImp(null);
    setResult(null);
    setProblem(null);
    setFileError(null);
  };

  const onFile = async (file: File | undefined) => {
    reset();
    if (!file) return;
    const limit = IMPORT_MAX_FILE_BYTES / MIB;
    if (file.size > IMPORT_MAX_FILE_BYTES) {
      const size = new Intl.NumberFormat(language === 'ro' ? 'ro-RO' : 'en-GB', { maximumFractionDigits: 1 }).format(file.size / MIB);
      setFileError(t('imports.tooLarge', { name: file.name, size, limit }));
      return;
    }
    if (!ACCEPTED.test(file.name)) {
      setFileError(t('imports.wrongType', { name: file.name }));
      return;
    }
    try {
      const content = await readBase64(file);
      setImp(await upload.mutateAsync({ kind, file_name: file.name, content_base64: content }));
    } catch (error) {
      setFileError(problemText(error, t));
    }
  };

  const remap = async (mapping: Mapping, defaults = imp?.defaults) => {
    if (!imp) return;
    setProblem(null);
    try {
      setImp(await preview.mutateAsync({ kind, id: imp.id, mapping, ...(defaults ? { defaults } : {}) }));
    } catch (error) {
      setProblem(problemText(error, t));
    }
  };

  const run = async () => {
    if (!imp) return;
    setProblem(null);
    try {
      setResult(await commit.mutateAsync({ kind, id: imp.id, mapping: imp.mapping, defaults: imp.defaults, existing }));
    } catch (error) {
      setProblem(problemText(error, t));
    }
  };

  return (
    <div className="content" data-testid="imports-screen">
      <div className="cards">
        <div className="card">
          <div className="body col">
            <div className="row wrap" role="radiogroup" aria-label={t('imports.kind')}>
              <strong>{t('imports.kind')}:</strong>
              {(['products', 'clients'] as const).map((k) => (
                <label key={k} className="row">
                  <input
                    type="radio"
                    name="import-kind"
                    data-testid={`imports-kind-${k}`}
                    checked={kind === k}
                    disabled={busy}
                    onChange={() => {
                      reset();
                      navigate({ screen: 'imports', id: k });
                    }}
                  />
                  {t(`imports.kind.${k}`)}
                </label>
              ))}
            </div>
            <Field label={t('imports.file')} error={fileError}>
              {/* The browser's own file button speaks the browser's language: ours speaks the app's. */}
              <span className="row">
                <label className={`btn${busy ? ' disabled' : ''}`}>
                  {t('imports.choose')}
                  <input
                    key={`${kind}-${imp?.id ?? 'none'}-${result ? 'done' : ''}`}
                    type="file"
                    hidden
                    data-testid="imports-file"
                    accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                    disabled={busy}
                    onChange={(e) => {
                      setChosen(e.target.files?.[0]?.name ?? null);
                      void onFile(e.target.files?.[0]);
                    }}
                  />
                </label>
                <span className="muted">{chosen ?? t('imports.noFile')}</span>
              </span>
            </Field>
            {fileError ? null : <p className="muted small">{t('imports.fileHelp', { limit: IMPORT_MAX_FILE_BYTES / MIB })}</p>}
            {upload.isPending ? <p className="muted">{t('imports.reading')}</p> : null}
          </div>
        </div>

        {result ? <ResultCard kind={kind} result={result} onAgain={reset} /> : null}

        {imp && !result ? (
          <>
            <div className="card">
              <header>
                <h2>{imp.file_name ?? ''}</h2>
                <span className="muted small" data-testid="imports-facts">
                  {[
                    t('imports.fileFacts', { format: imp.format.toUpperCase(), rows: imp.counts.rows, header: imp.header_row }),
                    imp.encoding ? t('imports.encoding', { encoding: imp.encoding }) : null,
                    imp.delimiter ? t('imports.delimiter', { delimiter: imp.delimiter === '\t' ? 'Tab' : imp.delimiter }) : null,
                    imp.sheet ? t('imports.sheet', { sheet: imp.sheet }) : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </header>
              <div className="body col">
                {imp.previously_imported ? (
                  <div className="banner warn" data-testid="imports-previously">
                    {t('imports.previously', { date: formatTimestamp(imp.previously_imported.committed_at) })}
                  </div>
                ) : null}
                <MappingEditor imp={imp} kind={kind} disabled={busy} onChange={(m, d) => void remap(m, d)} />
              </div>
            </div>
            <PreviewCard imp={imp} kind={kind} language={language} />
            {imp.errors.length ? <ErrorsCard imp={imp} /> : null}
            <div className="card">
              <div className="body col">
                <div data-testid="imports-summary">{t('imports.summary', imp.counts)}</div>
                <div className="row wrap">
                  {(['update', 'skip'] as const).map((policy) => (
                    <label key={policy} className="row">
                      <input type="radio" name="import-existing" checked={existing === policy} onChange={() => setExisting(policy)} />
                      {t(`imports.existing.${policy}`)}
                    </label>
                  ))}
                </div>
                {problem ? (
                  <div className="banner bad" role="alert" data-testid="imports-problem">
                    {problem}
                  </div>
                ) : null}
                <div className="row">
                  <button
                    type="button"
                    className="btn primary big"
                    data-testid="imports-commit"
                    disabled={busy || imp.counts.invalid > 0 || imp.counts.valid === 0}
                    onClick={() => void run()}
                  >
                    {commit.isPending ? t('imports.committing') : t('imports.commit', { count: imp.counts.valid })}
                  </button>
                  <button type="button" className="btn" disabled={busy} onClick={reset}>
                    {t('imports.cancel')}
                  </button>
                </div>
              </div>
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}

function MappingEditor(props: { imp: ImportView; kind: ImportKind; disabled: boolean; onChange: (mapping: Mapping, defaults?: ImportView['defaults']) => void }) {
  const { t, language } = useI18n();
  const { imp, kind } = props;
  const mapping = imp.mapping;
  const set = (target: string, value: string) => {
    const next: Mapping = { ...mapping };
    if (value === '') delete next[target];
    else next[target] = Number(value);
    props.onChange(next);
  };
  const mapped = (target: string) => mapping[target] !== undefined && mapping[target] !== null;
  return (
    <div className="col">
      <h3 style={{ fontSize: 14 }}>{t('imports.mapping')}</h3>
      <p className="muted small">{t('imports.mappingHelp')}</p>
      <div className="form-grid" data-testid="imports-mapping">
        {targetsOf(kind).map((target) => (
          <Field key={target} label={targetLabel(t, target)}>
            <select data-testid={`imports-map-${target}`} value={mapped(target) ? String(mapping[target]) : ''} disabled={props.disabled} onChange={(e) => set(target, e.target.value)}>
              <option value="">{t('imports.notImported')}</option>
              {imp.columns.map((c) => (
                <option key={c.index} value={String(c.index)}>
                  {t('imports.column', { n: c.index + 1, header: c.header || '—' })}
                  {c.samples.length ? ` (${c.samples.slice(0, 2).join(', ')})` : ''}
                </option>
              ))}
            </select>
          </Field>
        ))}
        {kind === 'products' ? (
          <Field label={t('imports.defaultVat')}>
            <select
              data-testid="imports-default-vat"
              value={String(imp.defaults.vat_rate ?? 21)}
              disabled={props.disabled}
              onChange={(e) => props.onChange(mapping, { ...imp.defaults, vat_rate: Number(e.target.value) })}
            >
              {STANDARD_VAT_RATES_BP.map((bp) => (
                <option key={bp} value={String(bp / 100)}>
                  {formatPercent(bp / 100, language)}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
      </div>
      {kind === 'products' && !mapped('code') && mapped('barcode') ? <p className="muted small">{t('imports.barcodeAsCode')}</p> : null}
    </div>
  );
}

function cellShown(target: string, value: string | number | boolean | null | undefined, currency: string, language: 'ro' | 'en', t: Translate): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? (language === 'ro' ? 'Da' : 'Yes') : language === 'ro' ? 'Nu' : 'No';
  if (typeof value === 'number' && (target === 'price' || target === 'price_with_vat')) return formatWireMoney(value, currency, language);
  // An Excel percentage cell holds a fraction (0.21): shown as the percent it stands for.
  if (typeof value === 'number' && target === 'vat_rate') return formatPercent(value > 0 && value < 1 ? Math.round(value * 10_000) / 100 : value, language);
  if (target === 'type') return value === 'person' ? t('imports.kind.clients') : String(value);
  // The file's CNPs are the clients' own: a preview is a screen, so they are masked (shared/ro/cnp.ts).
  if (target === 'cnp') return maskCnp(String(value)) ?? '';
  return String(value);
}

function PreviewCard({ imp, kind, language }: { imp: ImportView; kind: ImportKind; language: 'ro' | 'en' }) {
  const { t } = useI18n();
  // What each row will be: the members written (a valid row), or the cells as the file has them.
  const shown =
    kind === 'products'
      ? ['name', 'code', 'unit', 'price', 'vat_rate']
      : ['name', 'cui', 'cnp', 'reg_com', 'city', 'county', 'email'];
  const valueOf = (row: ImportView['preview'][number], target: string) => {
    if (row.status !== 'invalid' && target === 'price' && kind === 'products') return row.values.price;
    if (row.status === 'invalid' && target === 'price') return row.values.price_with_vat ?? row.values.price;
    if (row.status === 'invalid' && target === 'code') return row.values.code ?? row.values.barcode;
    return row.values[target];
  };
  const header = (target: string) => {
    if (target !== 'price') return targetLabel(t, target);
    const gross = imp.mapping.price_with_vat !== undefined && imp.mapping.price_with_vat !== null;
    return targetLabel(t, gross ? 'price_with_vat' : 'price');
  };
  return (
    <div className="card">
      <header>
        <h2>{t('imports.preview')}</h2>
      </header>
      <div className="body" style={{ overflowX: 'auto' }}>
        <table className="grid" data-testid="imports-preview">
          <thead>
            <tr>
              <th className="num">{t('imports.col.row')}</th>
              <th>{t('imports.col.status')}</th>
              {shown.map((target) => (
                <th key={target} className={target === 'price' || target === 'vat_rate' ? 'num' : undefined}>
                  {header(target)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {imp.preview.map((row) => (
              <tr key={row.row} data-testid="imports-preview-row">
                <td className="num">{row.row}</td>
                <td>
                  <span className={`badge ${row.status === 'invalid' ? 'bad' : row.status === 'existing' ? 'info' : 'ok'}`}>{t(`imports.status.${row.status}`)}</span>
                </td>
                {shown.map((target) => (
                  <td key={target} className={target === 'price' || target === 'vat_rate' ? 'num' : undefined}>
                    {cellShown(target, valueOf(row, target), String(row.values.currency ?? 'RON'), language, t)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ErrorsCard({ imp }: { imp: ImportView }) {
  const { t } = useI18n();
  const rows = new Set(imp.errors.map((e) => e.row)).size;
  return (
    <div className="card">
      <header>
        <h2 className="error-text">{t('imports.errors', { count: rows })}</h2>
      </header>
      <div className="body col">
        <p className="muted small">{t('imports.errorsHelp')}</p>
        <div style={{ maxHeight: 320, overflow: 'auto' }}>
          <table className="grid" data-testid="imports-errors">
            <thead>
              <tr>
                <th className="num">{t('imports.col.row')}</th>
                <th>{t('imports.col.column')}</th>
                <th>{t('imports.col.problem')}</th>
              </tr>
            </thead>
            <tbody>
              {imp.errors.slice(0, ERRORS_SHOWN).map((e, i) => (
                <tr key={`${e.row}-${i}`} data-testid="imports-error-row">
                  <td className="num">{e.row}</td>
                  <td>{e.column ?? (e.field ? targetLabel(t, e.field) : '')}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {imp.errors.length > ERRORS_SHOWN ? <p className="muted small">{t('imports.moreErrors', { count: imp.errors.length - ERRORS_SHOWN })}</p> : null}
      </div>
    </div>
  );
}

function ResultCard({ kind, result, onAgain }: { kind: ImportKind; result: ChannelOutput<'imports.commit'>; onAgain: () => void }) {
  const { t } = useI18n();
  const r = result.import.result ?? { created: 0, updated: 0, unchanged: 0, skipped: 0 };
  return (
    <div className="card">
      <div className="body col">
        <div className="banner ok" role="status" data-testid="imports-result">
          {t('imports.done', r)}
        </div>
        <p className="muted small">{t('imports.pulled', { count: result.pulled })}</p>
        <div className="row">
          <button type="button" className="btn primary" onClick={() => navigate({ screen: kind })}>
            {kind === 'products' ? t('imports.seeProducts') : t('imports.seeClients')}
          </button>
          <button type="button" className="btn" onClick={onAgain}>
            {t('imports.again')}
          </button>
        </div>
      </div>
    </div>
  );
}
