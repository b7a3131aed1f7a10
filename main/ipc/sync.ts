import { discardItem, listOutbox, retryItem } from '../local/outbox-actions';
import { efacturaDeadlines } from '../local/efactura-clock/deadlines';
import { markNegativeRuleStale } from '../local/stock/negative-rule';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

type SyncChannels = 'sync.status' | 'sync.now' | 'sync.pause' | 'sync.resume' | 'outbox.list' | 'outbox.retry' | 'outbox.discard' | 'efactura.deadlines';

export function syncHandlers(s: MainServices): HandlerGroup<SyncChannels> {
  return {
    'sync.status': () => s.engine.status(),
    'sync.now': () => {
      // A sync asked for by hand also reads the firm's stock rule again (main/local/stock/negative-rule.ts).
      s.store.write((db) => markNegativeRuleStale(db));
      return s.engine.syncNow();
    },
    'sync.pause': () => s.engine.pause(),
    'sync.resume': () => s.engine.resume(),
    'efactura.deadlines': () => efacturaDeadlines(s.ctx),
    'outbox.list': (input) => listOutbox(s.ctx, { states: input?.states, limit: input?.limit ?? 50, offset: input?.offset ?? 0 }),
    'outbox.retry': ({ id }) => {
      const item = retryItem(s.ctx, id);
      s.changed();
      return item;
    },
    'outbox.discard': ({ id }) => {
      const result = discardItem(s.ctx, id);
      s.changed();
      return result;
    },
  };
}
