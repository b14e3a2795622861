//! `clash db`: bring a database's schema up to date, or copy every table to another database.

use std::process::ExitCode;

use clash_server::store::Db;

use crate::output::{Outcome, finish, say};

#[derive(clap::Args)]
pub struct DbArgs {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(clap::Subcommand)]
enum DbCommand {
    /// Bring the database's schema to this build's version (`clash serve` does it too when it
    /// starts); creates the database's tables when there are none.
    Migrate {
        /// A SQLite file, or a PostgreSQL URL (postgres://user@host/db).
        #[arg(long, env = "CLASH_DB", default_value = "clash.db")]
        db: String,
    },
    /// Copy every table from one database to another, row for row (logs, secrets and links
    /// unchanged, so records still verify). Tables the target already has are left alone, so a
    /// copy that stopped part way can be run again. Stop the servers of `--from` first.
    Copy {
        /// Where the tables are now, e.g. clash.db.
        #[arg(long)]
        from: String,
        /// Where they go, e.g. postgres://clash@db-host/clash.
        #[arg(long)]
        to: String,
    },
}

pub fn db(args: DbArgs) -> ExitCode {
    finish("db", run(args))
}

fn run(args: DbArgs) -> Outcome {
    match args.command {
        DbCommand::Migrate { db } => {
            let version =
                clash_server::migrate_blocking(&Db::parse(&db)).map_err(|e| e.to_string())?;
            say!("the database is at schema version {version}");
        }
        DbCommand::Copy { from, to } => {
            let (copied, skipped) = clash_server::copy_blocking(&Db::parse(&from), &Db::parse(&to))
                .map_err(|e| e.to_string())?;
            say!("copied {copied} table(s); {skipped} were there already");
        }
    }
    Ok(())
}
