//! `clash`: play, serve and analyse tabletop conflict systems.

mod db;
mod families;
mod output;
mod review;
mod run;
mod serve;
mod solve;
mod verify;
mod workbench;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use clash_core::cli::Family;

/// mimalloc instead of the system allocator: the server builds and drops many small JSON values
/// from several threads, where glibc's allocator spent about 40% of the server's CPU (measured
/// with perf under the load benchmark).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "clash",
    version,
    about = "Play and analyse tabletop conflict systems together"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a scenario file (setup + commands) and narrate it; see docs/scenarios.md.
    ///
    /// Exits 0 when every step behaves as the scenario says, 2 when a command is refused
    /// unexpectedly, and 1 for any other mismatch.
    Run {
        /// The scenario file, e.g. one of examples/<ruleset>/*.json
        file: PathBuf,
        /// Print one JSON object (events, final state, every seat's view) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the rulesets this build can play.
    Rulesets,
    /// Exact odds of dice and draws, as fractions and decimals (see `clash odds --help`).
    Odds(families::OddsArgs),
    /// Exact equilibria: the games' own solvers (turns, whole conflicts), any zero-sum matrix
    /// game.
    Solve(solve::SolveArgs),
    /// Long analyses written to files, resumable (a game's balance tables).
    Analyse(families::AnalyseArgs),
    /// Play many bot-against-bot games in parallel and summarise them.
    Simulate(families::SimulateArgs),
    /// A designer's workbench: change a rule's numbers and compare what the game becomes,
    /// side by side, with every figure's 95% interval (see `clash workbench --help`).
    Workbench(workbench::WorkbenchArgs),
    /// Check a table's record (downloaded from its page): the secret behind the dice, the hash
    /// chain, and every roll, draw and event replayed through the rules.
    ///
    /// Exits 0 when everything was checked and holds; 1 when something does not hold (or the
    /// file is not a readable record); 3 when what could be checked holds but the rest could not
    /// be: a record taken before the table ended (the secret is not out yet) has its hash chain
    /// checked, not its rolls, draws and events. docs/verification.md specifies every check.
    Verify(verify::VerifyArgs),
    /// Review an ended table from its record: the skill of every decision and the luck of
    /// every roll and draw, per conflict and per player (checked first as `clash verify` does).
    ///
    /// Exits 0 with the review; 1 when the record does not verify, was taken before the table
    /// ended, or holds a game that has no review. docs/review.md explains every number.
    Review(review::ReviewArgs),
    /// Run the table server: create tables in a browser, invite players, play live.
    ///
    /// Tables live in an SQLite file (created on first start) and survive restarts; with a
    /// `postgres://` URL, in a PostgreSQL database that any number of servers share (see
    /// docs/deploy.md).
    Serve {
        /// Address to listen on (port 0 picks a free port and prints it).
        #[arg(long, env = "CLASH_ADDR", default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// The database: a SQLite file, or a PostgreSQL URL (postgres://user@host/db).
        #[arg(long, env = "CLASH_DB", default_value = "clash.db")]
        db: String,
        #[command(flatten)]
        // Boxed: the limits are most of the command line, and only `serve` carries them.
        limits: Box<serve::LimitArgs>,
    },
    /// Look after the database: bring its schema up to date, or copy every table to another
    /// database (from a SQLite file to PostgreSQL, say).
    Db(db::DbArgs),
}

fn main() -> ExitCode {
    // mimalloc reads MIMALLOC_PURGE_DELAY when it first gives memory back to the system; at 0 it
    // gives it back at once, which keeps a busy server's resident memory about a fifth lower
    // (measured with the load benchmark) for no measurable CPU.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: this runs first thing in `main`, before any other thread exists.
        unsafe { std::env::set_var("MIMALLOC_PURGE_DELAY", "0") };
    }
    let catalogue = clash_catalogue::rulesets();
    let matches = families::augment(Cli::command(), &catalogue).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let family = |family: Family| {
        let r = families::run(family, &matches, &catalogue);
        output::finish(family.name(), r.unwrap_or(Ok(())))
    };
    match cli.command {
        Command::Run { file, json } => run::run(&file, json),
        Command::Serve { addr, db, limits } => serve::serve(addr, &db, *limits),
        Command::Db(args) => db::db(args),
        Command::Odds(_) => family(Family::Odds),
        Command::Solve(args) => match solve::solve(&args) {
            Some(r) => output::finish("solve", r),
            None => family(Family::Solve),
        },
        Command::Simulate(_) => family(Family::Simulate),
        Command::Analyse(_) => family(Family::Analyse),
        Command::Verify(args) => verify::verify(args),
        Command::Workbench(args) => {
            output::finish("workbench", workbench::workbench(&args, &catalogue))
        }
        Command::Review(args) => review::review(args),
        Command::Rulesets => output::finish("rulesets", rulesets(&catalogue)),
    }
}

fn rulesets(catalogue: &[clash_core::RulesetEntry]) -> output::Outcome {
    for entry in catalogue {
        output::say!("{}", entry.id);
    }
    Ok(())
}
