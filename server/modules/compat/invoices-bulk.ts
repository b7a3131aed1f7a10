import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { eachOf } from '../../platform/aliases';
import { zInvoice, zInvoiceCreate, type Invoice } from '../../../shared/schemas/invoice';
import { invoicingRoutes } from '../invoicing/routes';
import { INVOICE_CREATE_ALIASES } from '../invoicing/aliases';
import { callRoute, routeNamed } from './alias';
import { asItem } from './prefixed';

/**
 * Issue 18: Contazen's `POST /invoices/bulk` (its SDK's `createBulk`). Every invoice is made by our
 * `POST /invoices` as a draft first, so that a refusal of any of them (a member, a client, a price)
 * leaves nothing behind; only then are the ones asked issued, in order, by `POST /invoices/{id}/issue`.
 */

const route = (operationId: string) => routeNamed(invoicingRoutes, operationId);

const MAX_INVOICES = 100;

/** The members of `POST /invoices` but the offline ones: a bulk call is online, and takes its numbers in order. */
const zBulkInvoice = zInvoiceCreate.omit({ reservation_token: true, number: true, device_id: true, client_local_uuid: true });

const createBulk = defineRoute({
  method: 'POST', path: '/invoices/bulk', operationId: 'createInvoicesBulk', summary: 'Create many invoices in one call',
  description:
    `Contazen's \`POST /invoices/bulk\`. \`invoices\`: up to ${MAX_INVOICES} invoices with the members of \`POST /invoices\` (and its ` +
    'aliases: `date`, `due_days`, `client_data`, line `name`...), but `reservation_token`, `number`, `device_id` and `client_local_uuid`. ' +
    'First every one is created as a draft (no number); a refusal of any names its member under `invoices.<n>`, and the drafts already ' +
    'made are deleted, so nothing is left (a new client given inline stays, as it would after a refused `POST /invoices`). Then those ' +
    'not sent as `is_draft: true` are issued in the order sent, each taking the next number of its series, with its own ' +
    '`issue_date` (default today). Should issuing one be refused (an e-Factura check, a locked series), the invoices issued before ' +
    'it keep their numbers (a number is never taken back), every draft of the call is deleted, and the error names `invoices.<n>`. ' +
    'The reply lists the invoices made, in the order sent.',
  tags: ['invoices', 'compat'], scope: 'invoices:write', create: true,
  body: z.object({ invoices: z.array(zBulkInvoice).min(1).max(MAX_INVOICES) }),
  aliases: { body: [eachOf('invoices', INVOICE_CREATE_ALIASES.body)] },
  response: z.array(zInvoice),
  errors: route('createInvoice').errors,
  handler: async (ctx) => {
    const made: Invoice[] = [];
    const dropDrafts = async () => {
      for (const invoice of made) {
        if (invoice.status === 'draft') await callRoute(route('deleteInvoice'), ctx, { params: { id: invoice.id } });
      }
    };
    try {
      for (const [i, item] of ctx.body.invoices.entries()) {
        made.push(await asItem(`invoices.${i}`, () => callRoute<Invoice>(route('createInvoice'), ctx, { body: { ...item, is_draft: true } })));
      }
      for (const [i, item] of ctx.body.invoices.entries()) {
        if (item.is_draft) continue;
        made[i] = await asItem(`invoices.${i}`, () => callRoute<Invoice>(route('issueInvoice'), ctx, {
          params: { id: made[i]!.id }, body: item.issue_date ? { issue_date: item.issue_date } : {},
        }));
      }
    } catch (error) {
      await dropDrafts();
      throw error;
    }
    // The drafts asked as drafts, with their lines as POST /invoices answers them; the issued ones as issuing answered.
    return made;
  },
});

export const invoicesBulkRoutes: AnyRoute[] = [createBulk];
