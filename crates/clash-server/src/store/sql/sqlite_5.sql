CREATE TABLE IF NOT EXISTS notify_targets (
    table_id TEXT NOT NULL REFERENCES tables(id),
    id TEXT NOT NULL,
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    format TEXT NOT NULL,
    address TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    last_error_at INTEGER,
    last_ok_at INTEGER,
    PRIMARY KEY (table_id, id)
);
CREATE TABLE IF NOT EXISTS notify_log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    id TEXT NOT NULL,
    at INTEGER NOT NULL,
    target TEXT NOT NULL,
    seat TEXT NOT NULL,
    kinds TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (table_id, id)
);
CREATE INDEX IF NOT EXISTS notify_log_by_time ON notify_log(table_id, at);
CREATE TABLE IF NOT EXISTS notify_waits (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat TEXT NOT NULL,
    since_pos INTEGER NOT NULL,
    since_at INTEGER,
    spent_ms INTEGER NOT NULL DEFAULT 0,
    remind_at INTEGER,
    expire_at INTEGER,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS notify_fired (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat TEXT NOT NULL,
    since_pos INTEGER NOT NULL,
    what TEXT NOT NULL,
    PRIMARY KEY (table_id, seat, since_pos, what)
);
