//! The schema versions, numbered once for both backends, and the one runner that brings a
//! database up to date through a backend's [`Schema`].
//!
//! A database records the version it is at: SQLite in its `user_version`, PostgreSQL in the
//! one-row `clash_schema` table. Version n is `STEPS[n - 1]`. The runner reads the version and
//! applies each later step in a transaction of its own, which also records the step's number,
//! so a database is always at one version and an upgrade that stopped part way resumes.

use std::future::Future;

use super::StoreError;

/// One schema version: its SQL in each backend's dialect, and the data that SQL alone cannot
/// carry over (run after the SQL, in the same transaction).
pub(crate) struct Step {
    pub sqlite: &'static str,
    pub postgres: &'static str,
    pub data: Option<Data>,
}

/// A data step, named here and carried out by each backend in its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Data {
    /// Give every table from before the table log a secret and a log: a `created` entry (chance
    /// `legacy`) followed by its stored events, chained.
    LegacyLog,
    /// Carry the odds switches over from the side table `odds_switches` (made outside the
    /// versioned schema by older servers), if there is one.
    OddsSwitches,
    /// Append `odds_switched {enabled: true}` to the log of every table whose `odds` column is
    /// on, chained after its last entry, then drop the column.
    OddsToLog,
    /// Add `notify_waits.warn_at` unless the table has it already (a file whose recorded
    /// version was set back): SQLite has no `ADD COLUMN IF NOT EXISTS`.
    WarnAt,
}

/// The number of schema versions; both backends have the same numbered steps.
pub const SCHEMA_VERSIONS: usize = STEPS.len();

/// Every schema version, oldest first.
pub(crate) const STEPS: [Step; 7] = [
    // 1: tables, links, commands and the old event rows. On SQLite, `IF NOT EXISTS` lets a
    // database made before migrations were versioned (user_version 0, tables present) pass
    // through unchanged. PostgreSQL numbers links in the order they were made (`made`), as
    // SQLite's rowid does.
    Step {
        sqlite: include_str!("sql/sqlite_1.sql"),
        postgres: include_str!("sql/postgres_1.sql"),
        data: None,
    },
    // 2: the hash-chained table log, the server secret, link states and command ids.
    //
    // * `tables.secret` (hex) is the server secret; `tables.chance` says how chance is made
    //   (`clash-chance-v1`, or `legacy` for tables from before: their `seed` goes on being used).
    // * `links.status`: `active`, `invite` (not yet claimed), `suspended` (a player's key while
    //   the GM plays the seat) or `npc` (the GM plays the seat; the row's key is never handed
    //   out). Seat keys from before were shown to the GM, so they become invites: the player's
    //   next visit claims a fresh key only they hold.
    // * `log` holds every entry of the table log with its chain hash; the events of older
    //   tables are copied into it after a `created` entry. `events` is no longer written.
    // * `commands.command_id` makes a client's retry findable after a restart.
    Step {
        sqlite: include_str!("sql/sqlite_2.sql"),
        postgres: include_str!("sql/postgres_2.sql"),
        data: Some(Data::LegacyLog),
    },
    // 3: the GM's odds-in-play switch is a column of the table (`odds`).
    Step {
        sqlite: "ALTER TABLE tables ADD COLUMN odds INTEGER NOT NULL DEFAULT 0;",
        postgres: "ALTER TABLE tables ADD COLUMN odds BOOLEAN NOT NULL DEFAULT FALSE;",
        data: Some(Data::OddsSwitches),
    },
    // 4: the odds switch is a table event in the log (`odds_switched`), so it replays, exports
    // and verifies with the table; the column goes. SQLite's data step drops the column itself,
    // since the column must be read before it goes.
    Step {
        sqlite: "",
        postgres: "ALTER TABLE tables DROP COLUMN odds;",
        data: Some(Data::OddsToLog),
    },
    // 5: notifications and clocks (issue 31), kept outside the hash-chained log, since the log
    // is handed to everyone once the table ends and these are private to their owners:
    // * `notify_targets`: where a key wants to hear of the table (a webhook, an email address,
    //   the GM's table channel, a player's handle there), with its delivery state; removed
    //   with the key (see `rows.rs`).
    // * `notify_log`: the latest deliveries, for the GM.
    // * `notify_waits`: since when the game waits on each seat, the time it has spent, and when
    //   its reminder and its clock are due (times in milliseconds since the Unix epoch), so
    //   timers are derived from stored times after a restart; `notify_fired` claims each due
    //   timer once, whichever node sees it first.
    // On SQLite, `IF NOT EXISTS` lets a file whose recorded version was set back pass through.
    Step {
        sqlite: include_str!("sql/sqlite_5.sql"),
        postgres: include_str!("sql/postgres_5.sql"),
        data: None,
    },
    // 6: what is kept beside the log (issue 37), none of it chained:
    // * `table_keeping`: a table's housekeeping once its record is final (the secret revealed):
    //   its name and whether it is archived, which override what the log says;
    // * `seat_claims`: for each claim made with a request id, a proof of the invite and that id
    //   (SHA-256, never the id itself) and the key it gave, so a retry gets the same key;
    // * `mail_consent`: each email address this server was asked to write to, whether its owner
    //   confirmed it (double opt-in) or asked for no more mail, with the token of its links;
    // * `mail_sent`: how many messages went to each address each day, across all tables.
    Step {
        sqlite: include_str!("sql/sqlite_6.sql"),
        postgres: include_str!("sql/postgres_6.sql"),
        data: None,
    },
    // 7: when each seat is warned that its clock is running out (`notify_waits.warn_at`, ms
    // since the Unix epoch), claimed once like the other timers.
    Step {
        sqlite: "",
        postgres: "ALTER TABLE notify_waits ADD COLUMN IF NOT EXISTS warn_at BIGINT;",
        data: Some(Data::WarnAt),
    },
];

/// What the runner needs of a backend's database.
pub(crate) trait Schema {
    /// The version the database is at (0: none yet).
    fn version(&mut self) -> impl Future<Output = Result<usize, StoreError>> + Send;
    /// In one transaction: apply `step` (its SQL, then its data step) and record the database
    /// as at version `number`.
    fn apply(
        &mut self,
        number: usize,
        step: &'static Step,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// Bring `db` to the latest version; answers it. A database newer than this build is refused.
pub(crate) async fn upgrade(db: &mut impl Schema) -> Result<usize, StoreError> {
    let version = db.version().await?;
    if version > STEPS.len() {
        return Err(StoreError::new(format!(
            "the database is at schema version {version}, newer than this build knows ({}): upgrade clash",
            STEPS.len()
        )));
    }
    for (done, step) in STEPS.iter().enumerate().skip(version) {
        db.apply(done + 1, step).await?;
    }
    Ok(STEPS.len())
}

#[cfg(test)]
mod tests {
    use futures_util::FutureExt;

    use super::*;

    /// A database that only counts: at `at`, with the steps applied to it.
    struct Counted {
        at: usize,
        applied: Vec<usize>,
    }

    impl Schema for Counted {
        async fn version(&mut self) -> Result<usize, StoreError> {
            Ok(self.at)
        }

        async fn apply(&mut self, number: usize, _step: &'static Step) -> Result<(), StoreError> {
            self.applied.push(number);
            self.at = number;
            Ok(())
        }
    }

    fn run(at: usize) -> (Result<usize, StoreError>, Vec<usize>) {
        let mut db = Counted {
            at,
            applied: Vec::new(),
        };
        let done = upgrade(&mut db).now_or_never().unwrap();
        (done, db.applied)
    }

    #[test]
    fn each_later_step_is_applied_once_in_order() {
        let (done, applied) = run(0);
        assert_eq!((done.unwrap(), applied), (7, vec![1, 2, 3, 4, 5, 6, 7]));
        let (done, applied) = run(2);
        assert_eq!((done.unwrap(), applied), (7, vec![3, 4, 5, 6, 7]));
        let (done, applied) = run(SCHEMA_VERSIONS);
        assert_eq!((done.unwrap(), applied), (7, vec![]));
    }

    #[test]
    fn a_database_newer_than_this_build_is_refused() {
        let (done, applied) = run(SCHEMA_VERSIONS + 1);
        assert!(done.unwrap_err().message.contains("newer than this build"));
        assert!(applied.is_empty());
    }
}
