//! Bots at the table: the GM seats a bot in an NPC seat or an empty player seat, and the bot
//! plays that seat like a person would, until the GM takes the seat back.
//!
//! Where the game gives the GM a seat of its own for the NPCs (the `gm` seat), a
//! bot can sit there too: it then plays the NPCs' part (stances, moves, windows), while the GM
//! keeps what bots never do — starting and ending conflicts, narration, the campaign — and may
//! still act for the seat themselves.
//!
//! Seating and unseating are table events in the log ([`crate::log::TableEvent::BotSeated`],
//! [`crate::log::TableEvent::BotUnseated`]), so everyone reads them, and a table read back after a restart
//! knows its bots and lets them go on where they were.
//!
//! A table with bots has a runner: a task of its own that wakes on every change of the table,
//! and when the game waits on a bot's seat, asks the catalogue's bot for that seat
//! ([`clash_core::BotFn`]) with the game as it stood. The bot sees the seat's own view and
//! nothing else ([`clash_core::play_seat`] builds it, through the ruleset's view), thinks on the
//! blocking pool within its budget with no lock held, and its command then goes through the
//! same checks and rules as any player's, as `bot` in the log. Secret choices stay secret as
//! any player's do: the rules hide them. The runner also waits a human-like moment
//! ([`crate::Limits::bot_pause`]) before sending.
//!
//! What a bot never does (table business, words, giving up) stays with the GM, whose link may
//! act as any seat a bot plays, as for an NPC.
//!
//! If the game moved on while the bot thought, it thinks again. If the bot fails, runs out of
//! time, or the rules refuse what it chose, it sends a casual move (a random one of its legal
//! commands) instead, and the server's log says why.
//!
//! The runner holds the table only while a bot is acting, so an idle table still leaves memory;
//! its next reader starts the runner again.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use clash_core::{AnyGame, BotFn, Budget, Seat, SeededRandomness, Strength};
use serde_json::Value;

use crate::error::TableError;
use crate::ops::bot_move::BotMove;
use crate::server::Server;
use crate::table::Table;
use crate::work::{self, Pool};

/// How much longer than its budget a bot may take before it is given up on.
const GRACE: Duration = Duration::from_millis(500);

impl Server {
    /// Start `table`'s bot runner unless it runs already or the table has no bots.
    pub(crate) fn run_bots(self: &Arc<Self>, table: &Arc<Table>) {
        if table.bots_running.swap(true, Ordering::AcqRel) {
            return;
        }
        let changed = table.watch();
        let (server, table) = (Arc::downgrade(self), Arc::downgrade(table));
        tokio::spawn(runner(server, table, changed));
    }
}

/// What a runner's pass over its table came to.
#[derive(Debug, PartialEq, Eq)]
enum Pass {
    /// A bot sent a command, or the game moved on while it thought: look again at once.
    Again,
    /// No bot has anything to do: wait for the next change.
    Idle,
    /// No bot sits at the table any more: the runner ends.
    Done,
}

async fn runner(
    server: Weak<Server>,
    table: Weak<Table>,
    mut changed: tokio::sync::watch::Receiver<u64>,
) {
    loop {
        changed.borrow_and_update();
        let (Some(server), Some(table)) = (server.upgrade(), table.upgrade()) else {
            return;
        };
        let pass = one_pass(&server, &table).await;
        drop((server, table));
        match pass {
            Pass::Again => continue,
            Pass::Done => return,
            // The table leaving memory ends the wait (its sender is gone).
            Pass::Idle => {
                if changed.changed().await.is_err() {
                    return;
                }
            }
        }
    }
}

/// A bot the game waits on, and the game as it stood when it was asked.
struct BotTurn {
    seat: Seat,
    strength: Strength,
    game: Arc<dyn AnyGame>,
}

/// Let the first bot that has something to do act.
async fn one_pass(server: &Arc<Server>, table: &Arc<Table>) -> Pass {
    let Some(bots) = server.entry(table.ruleset).and_then(|e| e.bots) else {
        table.bots_running.store(false, Ordering::Release);
        return Pass::Done;
    };
    let turns = match waiting_bots(table).await {
        Ok(Some(turns)) => turns,
        Ok(None) => return Pass::Done,
        Err(_) => return Pass::Idle,
    };
    let limits = server.limits().clone();
    for turn in turns {
        let started = Instant::now();
        let thought = think(bots, &turn, turn.strength, limits.bot_think).await;
        if matches!(thought, Ok(None)) {
            continue;
        }
        // A human-like moment, thinking included, before anything is sent.
        tokio::time::sleep(limits.bot_pause.saturating_sub(started.elapsed())).await;
        let why = match thought {
            Ok(None) => continue,
            Ok(Some(command)) => match send(server, table, &turn, command).await {
                BotSent::Done | BotSent::Moved => return Pass::Again,
                BotSent::Refused(why) => why,
            },
            Err(why) => why,
        };
        tracing::warn!(
            table = %table.id, seat = %turn.seat, strength = %turn.strength, reason = %why,
            "a bot falls back to a casual move"
        );
        return fall_back(server, table, bots, turn.seat, limits.bot_think).await;
    }
    Pass::Idle
}

/// The bots the game waits on now, with the game; `None` once no bot sits at the table (the
/// runner is then marked stopped under the lock, so a bot seated next starts a new one).
async fn waiting_bots(table: &Table) -> Result<Option<Vec<BotTurn>>, TableError> {
    let play = table.lock().await?;
    if play.bots.is_empty() || play.closed {
        table.bots_running.store(false, Ordering::Release);
        return Ok(None);
    }
    if play.archived {
        return Ok(Some(Vec::new()));
    }
    let waiting = play.snapshot.status().waiting_for.clone();
    Ok(Some(
        play.bots
            .iter()
            .filter(|(seat, _)| waiting.contains(seat))
            .map(|(&seat, &strength)| BotTurn {
                seat,
                strength,
                game: play.game.clone(),
            })
            .collect(),
    ))
}

/// Ask the bot of `strength` for `turn.seat`'s command, on the blocking pool and within the
/// time limit. `Err` says why it gave no usable answer.
async fn think(
    bots: BotFn,
    turn: &BotTurn,
    strength: Strength,
    time: Duration,
) -> Result<Option<Value>, String> {
    let (game, seat) = (turn.game.clone(), turn.seat);
    let budget = Budget {
        time,
        work: Budget::TABLE.work,
    };
    let job = work::run(Pool::Think, move || {
        let mut rng = SeededRandomness::new(getrandom::u64().unwrap_or_default());
        bots(game.as_ref(), seat, strength, budget, &mut rng)
    });
    match tokio::time::timeout(time + GRACE, job).await {
        Err(_) => Err(format!(
            "it was still thinking after {:.1} s",
            (time + GRACE).as_secs_f64()
        )),
        Ok(Err(e)) => Err(e.to_string()),
        Ok(Ok(Err(e))) => Err(e.to_string()),
        Ok(Ok(Ok(command))) => Ok(command),
    }
}

/// How sending a bot's command went.
enum BotSent {
    Done,
    /// The game changed while the bot thought (or the bot got up): nothing was sent.
    Moved,
    /// The rules (or the table) refused it, for this reason.
    Refused(String),
}

/// Send `command` for `turn.seat` as its bot, if the game is still the one the bot saw and the
/// bot still sits there.
async fn send(server: &Arc<Server>, table: &Arc<Table>, turn: &BotTurn, command: Value) -> BotSent {
    let bot_move = BotMove {
        seat: turn.seat,
        command,
        game: turn.game.clone(),
    };
    match server.execute(table, bot_move).await {
        Ok(done) if done.answer => {
            server.tables().touch(table);
            server.metrics().commands.inc();
            BotSent::Done
        }
        Ok(_) => BotSent::Moved,
        // Another node stored a command first (its runner may play the same bot): look again.
        Err(e) if e.raced() => BotSent::Moved,
        Err(e) => BotSent::Refused(e.to_string()),
    }
}

/// A casual move for `seat` on the game as it stands now, after its bot failed.
async fn fall_back(
    server: &Arc<Server>,
    table: &Arc<Table>,
    bots: BotFn,
    seat: Seat,
    time: Duration,
) -> Pass {
    let turn = match waiting_bots(table).await {
        Ok(Some(turns)) => turns.into_iter().find(|t| t.seat == seat),
        Ok(None) => return Pass::Done,
        Err(_) => None,
    };
    let Some(turn) = turn else {
        return Pass::Again;
    };
    let why = match think(bots, &turn, Strength::Casual, time).await {
        Ok(None) => return Pass::Idle,
        Ok(Some(command)) => match send(server, table, &turn, command).await {
            BotSent::Done | BotSent::Moved => return Pass::Again,
            BotSent::Refused(why) => why,
        },
        Err(why) => why,
    };
    // Nothing more to try until the table changes: the GM can take the seat back.
    tracing::error!(
        table = %table.id, seat = %seat, reason = %why,
        "a bot's casual move failed too; it waits for the table to change"
    );
    Pass::Idle
}
