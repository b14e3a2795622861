ALTER TABLE tables ADD COLUMN secret TEXT;
ALTER TABLE tables ADD COLUMN chance TEXT NOT NULL DEFAULT 'legacy';
ALTER TABLE links ADD COLUMN status TEXT NOT NULL DEFAULT 'active';
UPDATE links SET status = 'npc' WHERE npc = 1;
UPDATE links SET status = 'invite' WHERE npc = 0 AND role NOT IN ('owner', 'spectator');
ALTER TABLE commands ADD COLUMN command_id TEXT;
CREATE UNIQUE INDEX commands_by_id ON commands(table_id, command_id) WHERE command_id IS NOT NULL;
CREATE TABLE log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    pos INTEGER NOT NULL,
    entry TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (table_id, pos)
);
