/**
 * One numbered migration. `up` receives a function that runs a multi-statement script inside the
 * migration's own transaction. Migrations are append-only: a shipped one is never edited, because a
 * device that already applied it would never see the change.
 */
export interface Migration {
  id: number;
  name: string;
  up: (exec: (script: string) => void) => void;
}
