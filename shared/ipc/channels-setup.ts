/** The first-run and embedded-service channels (their schemas: contract-setup.ts). Plain names only: the preload imports this. */
export const SETUP_CHANNELS = [
  'setup.status',
  'setup.lookupCompany',
  'setup.createEmbedded',
  'setup.connectService',
  'setup.setNetworkOpen',
  'setup.keys.list',
  'setup.keys.create',
  'setup.keys.revoke',
] as const;
