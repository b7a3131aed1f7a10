import { API_KEY_SECRET, companyProfile, readSettings, updateSettings } from '../local/settings';
import { readSetup, writeSetup } from '../local/setup';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function settingsHandlers(s: MainServices): HandlerGroup<'settings.get' | 'settings.update' | 'settings.setApiKey' | 'settings.clearApiKey' | 'company.profile' | 'company.updateProfile'> {
  return {
    'settings.get': () => readSettings(s.settings),
    'settings.update': async ({ work_point_id, ...rest }) => {
      // The work point first: when it cannot change (documents waiting, offline with numbers held), nothing does.
      if (work_point_id !== undefined) {
        // The wizard's "done" is inferred from the cached series; the other work point's cache may have
        // none yet. What was settled for the firm stays settled: the switch never sends the owner back through it.
        const hasKey = s.secrets.get(API_KEY_SECRET) !== null;
        s.store.write((db) => writeSetup(db, hasKey, { onboarding_done: readSetup(db, hasKey).onboarding_done }));
        await s.engine.switchWorkPoint(work_point_id);
      }
      const settings = updateSettings(s.settings, rest);
      s.engine.emitChanged(['settings']);
      return settings;
    },
    'settings.setApiKey': async ({ api_key }) => {
      const previous = s.secrets.get(API_KEY_SECRET);
      s.secrets.set(API_KEY_SECRET, api_key);
      const check = await s.engine.verifyKey();
      if (!check.ok && check.error.code !== 'offline') {
        // The server refused it: keep the key that was there before.
        if (previous === null) s.secrets.delete(API_KEY_SECRET);
        else s.secrets.set(API_KEY_SECRET, previous);
        return { verified: false, stored: false, error: check.error.toIpc(), settings: readSettings(s.settings) };
      }
      s.engine.nudge('full');
      return {
        verified: check.ok,
        stored: true,
        error: check.ok ? null : check.error.toIpc(),
        settings: readSettings(s.settings),
      };
    },
    'company.profile': () => companyProfile(s.store.reader),
    'company.updateProfile': (patch) => s.engine.updateCompanyProfile(patch),
    'settings.clearApiKey': () => {
      s.secrets.delete(API_KEY_SECRET);
      return readSettings(s.settings);
    },
  };
}

