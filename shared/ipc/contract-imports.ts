import { z } from 'zod';
import { IMPORT_KINDS, IMPORT_MAX_FILE_BYTES, zImport, zImportDefaults, zImportMapping } from '../schemas/import';

/**
 * IPC channels of the catalogue and clients import (spread into `contract` in contract.ts). All three
 * are ONLINE: the service reads the file and writes the rows (one transaction); the desktop then pulls
 * the imported rows into its local cache with the ordinary sync pull. The import itself (`zImport`) is
 * the service's object, ids included: it is not a local record.
 */

const zKind = z.enum(IMPORT_KINDS);
/** base64 of at most IMPORT_MAX_FILE_BYTES (the renderer refuses a bigger file before reading it). */
const MAX_BASE64 = Math.ceil(IMPORT_MAX_FILE_BYTES / 3) * 4;

export const importChannels = {
  /** ONLINE. Sends the file to the service; answers its columns, proposed mapping, first rows and every bad row. */
  'imports.upload': {
    input: z.object({
      kind: zKind,
      file_name: z.string().trim().min(1).max(255),
      content_base64: z
        .string()
        .min(1, 'The file is empty|Fișierul este gol')
        .max(MAX_BASE64, 'The file is larger than 20 MB|Fișierul are mai mult de 20 MB'),
    }),
    output: zImport,
    online: true,
  },
  /** ONLINE. The same upload read under another mapping (and defaults for empty cells). */
  'imports.preview': {
    input: z.object({ kind: zKind, id: z.string().min(1).max(64), mapping: zImportMapping, defaults: zImportDefaults.optional() }),
    output: zImport,
    online: true,
  },
  /**
   * ONLINE. Imports every row (all or nothing), then pulls the new and changed records into the local
   * cache. `pulled`: records applied locally. A bad row answers `import_rows_invalid` with `fields`
   * `rows.<row>.<member>`.
   */
  'imports.commit': {
    input: z.object({
      kind: zKind,
      id: z.string().min(1).max(64),
      mapping: zImportMapping,
      defaults: zImportDefaults.optional(),
      existing: z.enum(['update', 'skip']).default('update'),
    }),
    output: z.object({ import: zImport, pulled: z.number().int() }),
    mutates: ['products', 'clients'],
    online: true,
  },
} as const;
