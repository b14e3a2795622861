CREATE TABLE notify_targets (
    table_id TEXT NOT NULL REFERENCES tables(id),
    id TEXT NOT NULL,
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    format TEXT NOT NULL,
    address TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    failures BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    last_error_at BIGINT,
    last_ok_at BIGINT,
    PRIMARY KEY (table_id, id)
);
CREATE TABLE notify_log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    id TEXT NOT NULL,
    at BIGINT NOT NULL,
    target TEXT NOT NULL,
    seat TEXT NOT NULL,
    kinds TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (table_id, id)
);
CREATE INDEX notify_log_by_time ON notify_log(table_id, at);
CREATE TABLE notify_waits (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat TEXT NOT NULL,
    since_pos BIGINT NOT NULL,
    since_at BIGINT,
    spent_ms BIGINT NOT NULL DEFAULT 0,
    remind_at BIGINT,
    expire_at BIGINT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE notify_fired (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat TEXT NOT NULL,
    since_pos BIGINT NOT NULL,
    what TEXT NOT NULL,
    PRIMARY KEY (table_id, seat, since_pos, what)
);
