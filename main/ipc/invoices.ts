import { convertProforma, discardInvoice, getInvoice, issueDraft, issueInvoice, listInvoices, saveDraft, stornoInvoice } from '../local/invoices';
import { createPayment, listPayments } from '../local/payments';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

type InvoiceChannels =
  | 'invoices.list' | 'invoices.get' | 'invoices.saveDraft' | 'invoices.issue' | 'invoices.issueDraft' | 'invoices.discard' | 'invoices.storno'
  | 'invoices.convert' | 'invoices.sendToSpv' | 'payments.list' | 'payments.create';

/** Every write here is one local transaction (record + outbox row); the engine is told to push after it. */
export function invoiceHandlers(s: MainServices): HandlerGroup<InvoiceChannels> {
  const write = <T>(value: T): T => {
    s.changed();
    return value;
  };
  return {
    'invoices.list': (input) => listInvoices(s.ctx, input),
    'invoices.get': ({ id }) => getInvoice(s.ctx, id),
    'invoices.saveDraft': (input) => write(saveDraft(s.ctx, input)),
    'invoices.issue': async (input) => {
      await s.engine.ensureNumberSource(input.series_id);
      return write(issueInvoice(s.ctx, input));
    },
    'invoices.issueDraft': async (input) => {
      await s.engine.ensureNumberSource(input.series_id);
      return write(issueDraft(s.ctx, input));
    },
    'invoices.discard': ({ id }) => write(discardInvoice(s.ctx, id)),
    'invoices.storno': async (input) => {
      if (input.series_id) await s.engine.ensureNumberSource(input.series_id);
      return write(stornoInvoice(s.ctx, input));
    },
    'invoices.convert': async (input) => {
      await s.engine.ensureNumberSource(input.series_id);
      return write(convertProforma(s.ctx, input));
    },
    'invoices.sendToSpv': ({ id, test_mode }) => s.engine.sendToSpv(id, test_mode),
    'payments.list': ({ invoice_id }) => listPayments(s.ctx, invoice_id),
    'payments.create': (input) => write(createPayment(s.ctx, input)),
  };
}
