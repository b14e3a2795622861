CREATE TABLE table_keeping (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    title TEXT,
    archived BIGINT
);
CREATE TABLE seat_claims (
    table_id TEXT NOT NULL REFERENCES tables(id),
    proof TEXT NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (table_id, proof)
);
CREATE TABLE mail_consent (
    address TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    asked_at BIGINT NOT NULL,
    answered_at BIGINT
);
CREATE TABLE mail_sent (
    address TEXT NOT NULL,
    day BIGINT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (address, day)
);
