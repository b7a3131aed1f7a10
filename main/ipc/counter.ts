import { getCarts, saveCarts, sellAtCounter, setBarcodeRules, setDefaultPayment } from '../local/counter';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

type CounterChannels = 'counter.sell' | 'counter.carts' | 'counter.saveCarts' | 'counter.setDefaultPayment' | 'counter.setBarcodeRules';

export function counterHandlers(s: MainServices): HandlerGroup<CounterChannels> {
  return {
    'counter.sell': (input) => {
      const sale = sellAtCounter(s.ctx, input);
      // A replayed sale queued nothing new: no push to start.
      if (!sale.replayed) s.changed();
      return sale;
    },
    'counter.carts': () => getCarts(s.ctx),
    'counter.saveCarts': (input) => saveCarts(s.ctx, input),
    'counter.setDefaultPayment': ({ method }) => setDefaultPayment(s.ctx, method),
    'counter.setBarcodeRules': ({ rules }) => setBarcodeRules(s.ctx, rules),
  };
}
