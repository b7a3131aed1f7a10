import type { Kysely } from 'kysely';
import type { PlatformTables } from '../platform/tables';
import type { CatalogTables } from '../modules/catalog/tables';
import type { InvoicingTables } from '../modules/invoicing/tables';
import type { ExpensesTables } from '../modules/expenses/tables';
import type { EfacturaSpvTables } from '../modules/efactura-spv/tables';
import type { ImportsTables } from '../modules/imports/tables';
import type { AccountingTables } from '../modules/accounting/tables';
import type { StockTables } from '../modules/stock/tables';
import type { InvoiceEmailTables } from '../modules/invoice-email/tables';
import type { CompatTables } from '../modules/compat/tables';
import type { AttachmentsTables } from '../modules/attachments/tables';
import type { DocumentTemplatesTables } from '../modules/document-templates/tables';
import type { WebhooksTables } from '../modules/webhooks/tables';

/**
 * Every table of the service. Each module declares its own tables beside its code, so that one
 * Kysely type covers every query.
 */
export interface Database extends PlatformTables, CatalogTables, InvoicingTables, ExpensesTables, EfacturaSpvTables, ImportsTables, AccountingTables, StockTables, InvoiceEmailTables, CompatTables, WebhooksTables, AttachmentsTables, DocumentTemplatesTables {}

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';
