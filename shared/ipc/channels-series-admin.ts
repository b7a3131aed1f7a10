/**
 * Channel names of series administration and of the setup wizard (issue 12), kept apart from
 * channels.ts so the preload's list grows by one spread line. No zod here: the preload imports it.
 */
export const SERIES_ADMIN_CHANNELS = [
  'series.create',
  'series.update',
  'series.setPrimary',
  'bankAccounts.list',
  'bankAccounts.create',
  'setup.get',
  'setup.update',
] as const;
