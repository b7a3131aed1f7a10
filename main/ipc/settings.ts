import { API_KEY_SECRET, companyProfile, readSettings, updateSettings } from '../local/settings';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function settingsHandlers(s: MainServices): HandlerGroup<'settings.get' | 'settings.update' | 'settings.setApiKey' | 'settings.clearApiKey' | 'company.profile'> {
  return {
    'settings.get': () => readSettings(s.settings),
    'settings.update': (input) => {
      const settings = updateSettings(s.settings, input);
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
    'settings.clearApiKey': () => {
      s.secrets.delete(API_KEY_SECRET);
      return readSettings(s.settings);
    },
  };
}

