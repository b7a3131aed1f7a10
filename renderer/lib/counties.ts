/** Moved to shared/ro/counties.ts: the service prints the same county names (issue 18). */
export * from '../../shared/ro/counties';
