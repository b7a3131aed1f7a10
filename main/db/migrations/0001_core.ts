import type { Migration } from './types';

/**
 * Settings, the sync state and the outbox. The outbox row id is a UUID that doubles as the
 * `Idempotency-Key` of the request it becomes; `seq` is this device's order of mutations.
 */
export const migration0001: Migration = {
  id: 1,
  name: 'core',
  up: (exec) =>
    exec(`
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE sync_state (
  resource TEXT PRIMARY KEY,
  cursor TEXT,
  last_pull_at INTEGER,
  last_error TEXT
) STRICT;

CREATE TABLE outbox (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'in_flight', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  -- What the last failed attempt tells about the server: 'not_applied' (it answered with an error, so
  -- nothing was created and the body may still change) or 'unknown' (no answer: it may have been).
  last_outcome TEXT CHECK (last_outcome IN ('not_applied', 'unknown')),
  result_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  done_at INTEGER
) STRICT;
CREATE INDEX outbox_open ON outbox (state, seq) WHERE state <> 'done';
CREATE INDEX outbox_entity ON outbox (entity_type, entity_id, state);

CREATE TABLE outbox_deps (
  item_id TEXT NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
  depends_on TEXT NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
  PRIMARY KEY (item_id, depends_on)
) STRICT, WITHOUT ROWID;
CREATE INDEX outbox_deps_reverse ON outbox_deps (depends_on);

-- Records whose local copy must be replaced by the server's at the next pull (an edit was discarded).
CREATE TABLE refresh_queue (
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  PRIMARY KEY (entity_type, entity_id)
) STRICT, WITHOUT ROWID;
`),
};
