CREATE TABLE IF NOT EXISTS table_keeping (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    title TEXT,
    archived INTEGER
);
CREATE TABLE IF NOT EXISTS seat_claims (
    table_id TEXT NOT NULL REFERENCES tables(id),
    proof TEXT NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (table_id, proof)
);
CREATE TABLE IF NOT EXISTS mail_consent (
    address TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    asked_at INTEGER NOT NULL,
    answered_at INTEGER
);
CREATE TABLE IF NOT EXISTS mail_sent (
    address TEXT NOT NULL,
    day INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (address, day)
);
