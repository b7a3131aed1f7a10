import type { ro } from './ro';

/** Every message key; Romanian is the reference language. */
export type MessageKey = keyof typeof ro;
export type Messages = { readonly [K in MessageKey]: string };
export type Language = 'ro' | 'en';
