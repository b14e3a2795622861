CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    title TEXT NOT NULL,
    setup TEXT NOT NULL,
    seed BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE links (
    key TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    role TEXT NOT NULL,
    npc BOOLEAN NOT NULL DEFAULT FALSE,
    made BIGSERIAL
);
CREATE INDEX links_by_table ON links(table_id, made);
CREATE TABLE commands (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n BIGINT NOT NULL,
    seat TEXT NOT NULL,
    command TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx BIGINT NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
