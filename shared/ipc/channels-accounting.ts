/** The accounting screen's channel names (plain strings: the preload imports them through channels.ts). */
export const ACCOUNTING_CHANNELS = ['accounting.export', 'accounting.jobStart', 'accounting.jobStatus', 'accounting.jobSave'] as const;
