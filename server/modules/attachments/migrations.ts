import type { MigrationModule } from '../../db/migrations/index';
import * as m0850 from './migrations/0850_document_attachments';

/** Migrations of the attachments module, range 0850-0859. */
export const attachmentsMigrations: Record<string, MigrationModule> = {
  '0850_document_attachments': m0850,
};
