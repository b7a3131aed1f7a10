import type { MigrationModule } from '../../db/migrations/index';
import * as m0800 from './migrations/0800_webhooks';

/** Migrations of the webhooks module, range 0800-0809. */
export const webhooksMigrations: Record<string, MigrationModule> = {
  '0800_webhooks': m0800,
};
