/** The stock screens' channel names (plain strings: the preload imports them through channels.ts). */
export const STOCK_CHANNELS = ['stock.levels', 'stock.movements', 'stock.createNir'] as const;
