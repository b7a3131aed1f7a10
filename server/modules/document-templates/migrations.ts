import type { MigrationModule } from '../../db/migrations/index';
import * as m0851 from './migrations/0851_document_templates';

/** Migrations of the document templates module, in the range 0850-0859 it shares with attachments. */
export const documentTemplatesMigrations: Record<string, MigrationModule> = {
  '0851_document_templates': m0851,
};
