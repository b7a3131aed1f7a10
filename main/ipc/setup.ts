import type { SETUP_CHANNELS } from '../../shared/ipc/channels-setup';
import type { SetupStatus } from '../../shared/ipc/contract-setup';
import { embeddedChoice, lanAddresses, listenAndRemember, needsFirstRun, serviceMode, type SetupDeps } from '../local/embedded-service/choice';
import { lookupCompanyAtAnaf } from '../local/embedded-service/company-lookup';
import { createCounterKey, listCounterKeys, revokeCounterKey } from '../local/embedded-service/counter-keys';
import { connectRemoteService, createEmbeddedCompany, type FirstRunDeps } from '../local/embedded-service/first-run';
import { AppError } from '../errors';
import { writeSetup } from '../local/setup';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

function deps(s: MainServices): FirstRunDeps {
  return { store: s.store, secrets: s.secrets, embedded: s.embedded, presetService: s.presetService, ctx: s.ctx, engine: s.engine };
}

export function setupStatus(d: SetupDeps): SetupStatus {
  const address = d.embedded.address;
  const choice = embeddedChoice(d.store.reader);
  const networkOpen = address ? address.host !== '127.0.0.1' : (choice?.lan ?? false);
  return {
    needs_first_run: needsFirstRun(d),
    mode: serviceMode(d.store.reader),
    embedded: {
      running: d.embedded.running,
      port: address?.port ?? choice?.port ?? null,
      network_open: networkOpen,
      addresses: address && networkOpen ? lanAddresses(address.port) : [],
    },
  };
}

export function setupHandlers(s: MainServices): HandlerGroup<(typeof SETUP_CHANNELS)[number]> {
  return {
    'setup.status': () => setupStatus(deps(s)),
    'setup.lookupCompany': ({ cui }) => lookupCompanyAtAnaf(s.embedded.anafServices(), cui),
    'setup.createEmbedded': async ({ cui, name, ...profile }) => {
      await createEmbeddedCompany(deps(s), { cui, name, profile });
      // A firm made this minute has nothing to sell from yet: the setup wizard follows at once,
      // rather than after the first sync finds no series.
      s.store.write((db) => writeSetup(db, true, { onboarding_done: false }));
      s.engine.emitChanged(['settings']);
      return setupStatus(deps(s));
    },
    'setup.connectService': async (input) => {
      const check = await connectRemoteService(deps(s), input);
      if (!check.ok) return check;
      s.engine.emitChanged(['settings']);
      return { problem: 'none' as const, base_url: check.base_url, company: check.me.company };
    },
    'setup.setNetworkOpen': async ({ open }) => {
      if (serviceMode(s.store.reader) !== 'embedded') {
        throw new AppError('conflict', 'invalid_state', 'This computer does not run the service|Acest calculator nu rulează serviciul');
      }
      const port = s.embedded.address?.port ?? embeddedChoice(s.store.reader)?.port ?? 0;
      await listenAndRemember(deps(s), { port, lan: open });
      return setupStatus(deps(s));
    },
    'setup.keys.list': () => listCounterKeys(s.embedded, s.store.reader),
    'setup.keys.create': ({ name }) => createCounterKey(s.embedded, s.store.reader, name),
    'setup.keys.revoke': async ({ id }) => ({ revoked: await revokeCounterKey(s.embedded, s.store.reader, id) }),
  };
}
