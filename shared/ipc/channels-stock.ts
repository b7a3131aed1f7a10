/** The stock screens' channel names (plain strings: the preload imports them through channels.ts). */
export const STOCK_CHANNELS = ['stock.levels', 'stock.movements', 'stock.createNir', 'stock.warehouses', 'stock.scan', 'stock.bookLevels', 'stock.createCount',
  'stock.createTransfer', 'stock.nirs', 'stock.nir', 'stock.billForNir', 'stock.nirFromBill', 'stock.cartStock'] as const;
