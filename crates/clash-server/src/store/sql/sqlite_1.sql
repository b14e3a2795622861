CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    title TEXT NOT NULL,
    setup TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS links (
    key TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    role TEXT NOT NULL,
    npc INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS links_by_table ON links(table_id);
CREATE TABLE IF NOT EXISTS commands (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat TEXT NOT NULL,
    command TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
