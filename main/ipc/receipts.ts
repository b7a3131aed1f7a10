import { createReceipt, getReceipt, listReceipts, updateReceipt } from '../local/receipts';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function receiptHandlers(s: MainServices): HandlerGroup<'receipts.list' | 'receipts.get' | 'receipts.create' | 'receipts.update'> {
  return {
    'receipts.list': (input) => listReceipts(s.ctx, input),
    'receipts.get': ({ id }) => getReceipt(s.ctx, id),
    'receipts.create': async (input) => {
      // Without a series named, a receipt the device cannot number is numbered by the service at sync.
      if (input.series_id) await s.engine.ensureNumberSource(input.series_id);
      const receipt = createReceipt(s.ctx, input);
      s.changed();
      return receipt;
    },
    'receipts.update': ({ id, patch }) => {
      const receipt = updateReceipt(s.ctx, id, patch);
      s.changed();
      return receipt;
    },
  };
}
