import { createClient, getClient, listClients, updateClient } from '../local/clients';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function clientHandlers(s: MainServices): HandlerGroup<'clients.list' | 'clients.get' | 'clients.create' | 'clients.update' | 'clients.lookupCui'> {
  return {
    'clients.list': (input) => listClients(s.ctx, input),
    'clients.get': ({ id }) => getClient(s.ctx, id),
    'clients.create': (input) => {
      const client = createClient(s.ctx, input);
      s.changed();
      return client;
    },
    'clients.lookupCui': ({ cui }) => s.engine.lookupCui(cui),
    'clients.update': ({ id, patch }) => {
      const client = updateClient(s.ctx, id, patch);
      s.changed();
      return client;
    },
  };
}
