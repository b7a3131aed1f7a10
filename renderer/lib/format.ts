/** Moved to shared/format.ts: the service prints invoices with the same formats (issue 18). */
export * from '../../shared/format';
