export * from './cui';
export * from './cnp';
export * from './iban';
export * from './amount-in-words';
