import { z } from 'zod';
import {
  CLIENT_TARGETS, IMPORT_MAX_FILE_BYTES, PRODUCT_TARGETS, zImport, zImportCommitBody, zImportPreviewBody, zImportUpload, type ImportKind,
} from '../../../shared/schemas/import';
import type { AnyRoute } from '../../platform/route';
import { defineRoute } from '../../platform/route';
import { zIdParams } from '../catalog/common';
import './messages';
import { commit, createImport, fileTooLarge, findImport, remap, viewOf } from './service';

/**
 * The file travels base64 inside JSON (the contract's bodies are JSON, and so is Contazen's own
 * `importCsv`): 4 characters per 3 bytes, so a 20 MiB file is a body of about 26.7 MiB. The route's
 * own limit leaves room for the other members; the service's 1 MiB limit stays for every other route.
 */
export const IMPORT_BODY_LIMIT = Math.ceil((IMPORT_MAX_FILE_BYTES * 4) / 3) + 1024 * 1024;

const ERRORS = {
  import_file_too_large: 413,
  import_not_spreadsheet: 422,
  import_xls_legacy: 422,
  import_empty: 422,
  import_too_many_rows: 422,
  import_csv_malformed: 422,
  import_workbook_too_large: 422,
};

function routesFor(kind: ImportKind): AnyRoute[] {
  const noun = kind === 'products' ? 'Product' : 'Client';
  const scope = kind === 'products' ? ('products:write' as const) : ('clients:write' as const);
  const readScope = kind === 'products' ? ('products:read' as const) : ('clients:read' as const);
  const base = `/${kind}/imports`;
  const targets = (kind === 'products' ? PRODUCT_TARGETS : CLIENT_TARGETS).join('`, `');
  const matching =
    kind === 'products'
      ? 'A row matches an existing product by `code` (or, without a code, by name among the products without one).'
      : 'A row matches an existing client (not deleted) by CUI for a company, by CNP for a person, or by name for a person without a CNP.';
  return [
    defineRoute({
      method: 'POST',
      path: base,
      operationId: `create${noun}Import`,
      summary: `Upload a file of ${kind} to import`,
      description:
        `Body: \`content\` (the file, base64; at most ${IMPORT_MAX_FILE_BYTES / 1024 / 1024} MiB decoded, else 413 ` +
        '`import_file_too_large`), optional `format` (`csv` or `xlsx`; the bytes decide) and `file_name`. CSV: `;`, `,` or tab, ' +
        'UTF-8 (with or without BOM), UTF-16 with BOM, or Windows-1250. XLSX: the first sheet with data. The header row is ' +
        'found among the first rows. Nothing is imported yet: the reply is the import with its columns, a proposed `mapping` ' +
        `(target → column index; targets \`${targets}\`), the first rows as they would be written, and every row's problems. ` +
        'An upload not committed within 24 hours is dropped.',
      tags: ['imports'],
      scope,
      create: true,
      body: zImportUpload,
      response: zImport,
      bodyLimit: IMPORT_BODY_LIMIT,
      bodyTooLarge: (length) => fileTooLarge(Math.floor((length * 3) / 4)),
      errors: ERRORS,
      handler: async (ctx) => {
        const row = await createImport(ctx.db, ctx.companyId, kind, ctx.body, ctx.now);
        return viewOf(ctx.db, row, ctx.locale, ctx.now);
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/:id`,
      operationId: `get${noun}Import`,
      summary: `Retrieve an import of ${kind}`,
      description: 'A pending import is read again under its current mapping (its rows checked against the catalogue as it is now).',
      tags: ['imports'],
      scope: readScope,
      params: zIdParams,
      response: zImport,
      errors: { resource_missing: 404 },
      handler: async (ctx) => viewOf(ctx.db, await findImport(ctx.db, ctx.companyId, kind, ctx.params.id), ctx.locale, ctx.now),
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/:id/preview`,
      operationId: `preview${noun}Import`,
      summary: `Preview an import of ${kind} under another mapping`,
      description:
        'Body: `mapping` (target → 0-based column, null to leave a target out) and optional `defaults` (`vat_rate`, `unit`, ' +
        '`currency`, `country`: used for new records whose cell is empty). Kept as the import\'s mapping; writes nothing else. ' +
        'A target the kind does not have, or a column the file does not have, is a 422 on `mapping.<target>`.',
      tags: ['imports'],
      scope,
      params: zIdParams,
      body: zImportPreviewBody,
      response: zImport,
      errors: { resource_missing: 404, import_already_committed: 409 },
      handler: async (ctx) => {
        const row = await findImport(ctx.db, ctx.companyId, kind, ctx.params.id);
        return remap(ctx.db, row, ctx.body.mapping, ctx.body.defaults, ctx.locale, ctx.now);
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/:id/commit`,
      operationId: `commit${noun}Import`,
      summary: `Import the rows of an uploaded file of ${kind}`,
      description:
        'All or nothing, in one transaction. Body: optional `mapping` and `defaults` (default: the last previewed), and ' +
        '`existing`: `update` (default; only the members the file maps change) or `skip`. ' + matching +
        ' Any row with a problem answers 422 `import_rows_invalid`, its `fields` naming each as `rows.<row>.<member>`, and nothing ' +
        'is written. The reply is the import with `result` (`created`, `updated`, `unchanged`, `skipped`). Committing it again with ' +
        'the same mapping answers the same result (200, `Idempotent-Replayed: true`); with another mapping, 409 ' +
        '`import_already_committed`. The same file uploaded again is recognised (`previously_imported`) and, matched as above, ' +
        'duplicates nothing.',
      tags: ['imports'],
      scope,
      create: true,
      successStatus: 200,
      params: zIdParams,
      body: zImportCommitBody,
      response: zImport,
      errors: { resource_missing: 404, import_rows_invalid: 422, import_already_committed: 409, import_conflict: 409 },
      handler: async (ctx) => {
        const row = await findImport(ctx.db, ctx.companyId, kind, ctx.params.id);
        const { view, replayed } = await commit(ctx.db, row, ctx.body, ctx.locale, ctx.now);
        if (replayed) ctx.replayed();
        return view;
      },
    }),
  ];
}

export const importsRoutes: AnyRoute[] = [...routesFor('products'), ...routesFor('clients')];

/** Exported for tests: what a body's `mapping` may name, per kind. */
export const IMPORT_TARGETS = { products: PRODUCT_TARGETS, clients: CLIENT_TARGETS } satisfies Record<ImportKind, readonly string[]>;
export const zImportReply = z.object({ success: z.literal(true), data: zImport });
