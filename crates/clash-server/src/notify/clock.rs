//! Reminders and clocks, derived from stored times so they survive a restart.
//!
//! For each seat the table keeps, beside its log, since when the game has waited on it (and at
//! which log position that wait began), the time it has spent waiting in all, and when its
//! reminder, the warning that its clock is running out (a quarter of the clock left) and its
//! clock are due (`notify_waits`). The node that commits a change updates
//! these ([`track`]); every node looks for due timers every [`super::Settings::tick`]
//! ([`tick`]) and claims each one in the database before acting on it (`notify_fired`), so a
//! timer fires once however many nodes share the database, and a server that was down fires
//! what fell due meanwhile as soon as it is back. The log itself carries no times: its hashes
//! and `docs/verification.md` are unchanged.
//!
//! A seat waits only while the table is open and not archived; a seat a bot plays does not
//! wait. Time spent counts towards a budget clock only while the seat waits. When a clock runs
//! out its player is told whatever the table then does (reminded, a bot moving for them, the
//! GM deciding).

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use clash_core::{Budget, Seat, SeededRandomness, Strength};

use super::message::{Item, Message, What, while_waiting};
use super::news::{Committed, handles, keys, load, name};
use super::now::now_ms;
use super::rule::{Clock, ClockRule, Expiry, roughly, span};
use super::target::Kind;
use crate::log::TableEvent;
use crate::ops::clock_move::ClockMove;
use crate::server::Server;
use crate::store::notify::{self as rows, Timer};
use crate::table::links::Role;
use crate::table::play::Access;
use crate::table::presence::Presence;
use crate::view::snapshot::Snapshot;
use crate::work::{self, Pool};

/// The seats the game waits on while the table is open, less those a bot plays.
pub fn waiting(s: &Snapshot, bots: &[Seat]) -> Vec<Seat> {
    let open = s.status().over.is_none() && !s.closed() && !s.archived();
    let all = if open {
        s.status().waiting_for.clone()
    } else {
        Vec::new()
    };
    all.into_iter()
        .filter(|seat| !bots.contains(seat))
        .collect()
}

pub use crate::store::notify::Wait;

/// When a wait that began at `since` (with `spent` already used) is due each timer.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Due {
    remind: Option<i64>,
    warn: Option<i64>,
    expire: Option<i64>,
}

fn due(rule: &ClockRule, since: i64, spent: i64) -> Due {
    let remind = rule.remind_after.map(|s| since + s as i64 * 1000);
    let expire = rule.clock.map(|c| match c {
        Clock::Budget { seconds } => since + (seconds as i64 * 1000 - spent).max(0),
        Clock::Deadline { seconds } => since + seconds as i64 * 1000,
    });
    // With less than the warning's time left already, the warning goes at once.
    let warn = expire
        .zip(rule.warn_before_ms())
        .map(|(e, before)| (e - before).max(since))
        .filter(|w| Some(*w) < expire);
    Due {
        remind,
        warn,
        expire,
    }
}

impl Wait {
    fn time(&mut self, due: Due) {
        (self.remind_at, self.warn_at, self.expire_at) = (due.remind, due.warn, due.expire);
    }
}

/// Each seat's stored wait at `table`.
pub async fn waits(server: &Server, table: &str) -> HashMap<String, Wait> {
    rows::waits(server.store(), table).await.unwrap_or_default()
}

/// Bring the stored waits up to date after `change`: waits that ended add to the time spent,
/// waits that began are timed from now, and a new clock re-times the waits under way.
pub(crate) async fn track(server: &Server, change: &Committed) {
    let before = waiting(&change.before, &change.bots);
    let after = waiting(&change.after, &change.bots);
    let newly_set = change
        .after
        .table_event_since(change.before.revision(), |e| {
            matches!(e, TableEvent::ClockSet { .. })
        });
    let ended: Vec<Seat> = before
        .iter()
        .filter(|s| !after.contains(s))
        .copied()
        .collect();
    let began: Vec<Seat> = after
        .iter()
        .filter(|s| !before.contains(s))
        .copied()
        .collect();
    if change.deleted || (ended.is_empty() && began.is_empty() && !newly_set) {
        return;
    }
    let stored = waits(server, &change.table).await;
    let now = now_ms();
    let mut statements = Vec::new();
    let rule = &change.clock;
    for seat in change.after.game().seats() {
        let mut w = stored.get(&seat.to_string()).cloned().unwrap_or_default();
        if ended.contains(&seat) {
            w.spent_ms += w.since_at.map_or(0, |at| (now - at).max(0));
            w.since_at = None;
            w.time(Due {
                remind: None,
                warn: None,
                expire: None,
            });
        } else if began.contains(&seat) {
            (w.since_pos, w.since_at) = (change.after.revision() as i64, Some(now));
            w.time(due(rule, now, w.spent_ms));
        } else if newly_set && after.contains(&seat) {
            let since = w.since_at.unwrap_or(now);
            w.since_at = Some(since);
            w.time(due(rule, since, w.spent_ms));
        } else {
            continue;
        }
        // A wait that begins or is re-timed may fire again: earlier claims go.
        statements.push((seat.to_string(), w, !ended.contains(&seat)));
    }
    if let Err(e) = rows::store_waits(server.store(), &change.table, &statements).await {
        tracing::warn!(table = %change.table, error = %e, "a seat's clock was not stored");
    }
}

/// Look for due timers every `every`, for as long as the server runs.
pub(crate) async fn tick(server: Weak<Server>, every: Duration) {
    let mut timer = tokio::time::interval(every);
    timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        timer.tick().await;
        let Some(server) = server.upgrade() else {
            return;
        };
        fire_due(&server).await;
    }
}

/// Due timers, each claimed once in the database, then acted on.
async fn fire_due(server: &Arc<Server>) {
    let now = now_ms();
    let Ok(due) = rows::due(server.store(), now).await else {
        return;
    };
    for row in due {
        let (table, seat, pos) = (row.table, row.seat, row.since_pos);
        let timers = [
            (Timer::Remind, row.remind_at),
            (Timer::Warn, row.warn_at),
            (Timer::Expire, row.expire_at),
        ];
        for (timer, at) in timers {
            if at.is_some_and(|at| at <= now) && claim(server, &table, &seat, pos, timer).await {
                let Ok(seat) = seat.parse::<Seat>() else {
                    continue;
                };
                if let Err(e) = fire(server, &table, seat, timer).await {
                    tracing::warn!(table, %seat, error = %e, "a timer could not act");
                }
            }
        }
    }
}

/// Claim a due timer: true for the one node that gets it.
async fn claim(server: &Server, table: &str, seat: &str, pos: i64, timer: Timer) -> bool {
    rows::claim_timer(server.store(), table, seat, pos, timer).await
}

/// A timer of `seat` at `table` is due: remind, warn that the clock is running out, or tell
/// that it ran out and do what the GM chose.
async fn fire(
    server: &Arc<Server>,
    table_id: &str,
    seat: Seat,
    timer: Timer,
) -> Result<(), crate::error::TableError> {
    let table = server.table(table_id).await?;
    let expire_at = waits(server, table_id)
        .await
        .get(&seat.to_string())
        .and_then(|w| w.expire_at);
    let (snapshot, keys, rule, bots) = {
        let play = table.lock_current().await?;
        let bots: Vec<Seat> = play.bots.keys().copied().collect();
        (play.snapshot.clone(), keys(&play), play.clock, bots)
    };
    if !waiting(&snapshot, &bots).contains(&seat) {
        return Ok(());
    }
    let name = snapshot.game().seat_name(seat);
    let (kind, text) = match (timer, rule.on_expiry) {
        (Timer::Remind, _) => (
            What::Reminder,
            format!(
                "A reminder: the game has waited on {name} for {}.",
                waiting_for(&rule)
            ),
        ),
        (Timer::Warn, _) => {
            let left = expire_at.map_or(0, |at| at - now_ms());
            (
                What::ClockWarning,
                format!("{name}'s clock is running out: {} left.", roughly(left)),
            )
        }
        (Timer::Expire, Expiry::Bot) if bot_move(server, &table, seat).await => (
            What::ClockOut,
            format!("{name}'s clock has run out: a bot made a casual move for {name}."),
        ),
        (Timer::Expire, Expiry::Remind) => (What::ClockOut, format!("{name}'s clock has run out.")),
        (Timer::Expire, _) => {
            let text = format!("{name}'s clock has run out: the GM decides what happens.");
            alert_gm(server, table_id, &snapshot, &keys, text.clone()).await;
            (What::ClockOut, text)
        }
    };
    // Once the bot has moved, the wait is over: the line says what happened, not what is asked.
    let item = match kind {
        What::ClockOut if rule.on_expiry == Expiry::Bot => super::message::item(kind, &text),
        _ => while_waiting(kind, &text, seat),
    };
    remind(server, table_id, &snapshot, &keys, seat, item).await;
    Ok(())
}

fn waiting_for(rule: &ClockRule) -> String {
    rule.remind_after.map_or_else(|| "a while".into(), span)
}

/// Tell the seat's player (or the GM, for a seat it plays) and the table channel.
async fn remind(
    server: &Arc<Server>,
    table_id: &str,
    snapshot: &Snapshot,
    keys: &HashMap<String, Access>,
    seat: Seat,
    item: Item,
) {
    let Ok(targets) = load(server.store(), table_id).await else {
        return;
    };
    let handles = handles(&targets, keys);
    let players: Vec<&String> = keys
        .iter()
        .filter(|(_, a)| a.seat == Some(seat) && a.role == Role::Seat(seat))
        .map(|(k, _)| k)
        .collect();
    let told = |key: &String| match players.is_empty() {
        true => keys.get(key).is_some_and(|a| a.role == Role::Owner),
        false => players.contains(&key),
    };
    for t in targets {
        let mut item = item.clone();
        let to = match t.kind {
            Kind::Webhook | Kind::Email if told(&t.key) => {
                let access = &keys[&t.key];
                if item.waiting.is_some() {
                    let turn = crate::view::room::view(snapshot, &Presence::default(), access).turn;
                    let asked = snapshot.game().asked(seat);
                    let line = super::message::asked_line(&turn.text, asked);
                    item.text = format!("{} {line}", item.text);
                }
                name(snapshot, access)
            }
            Kind::Channel => {
                let who = handles
                    .get(&seat)
                    .cloned()
                    .unwrap_or_else(|| snapshot.game().seat_name(seat));
                item.text = format!("{who}: {}", item.text);
                "the table".into()
            }
            _ => continue,
        };
        send(server, t, snapshot, table_id, to, vec![item]);
    }
}

fn send(
    server: &Server,
    t: super::target::Target,
    snapshot: &Snapshot,
    table: &str,
    to: String,
    items: Vec<Item>,
) {
    let message = Message {
        table: table.into(),
        title: snapshot.title().into(),
        to,
        items,
        more: 0,
    };
    server.notifier().outbox().push(t, message);
}

/// Tell the GM's own targets.
async fn alert_gm(
    server: &Arc<Server>,
    table_id: &str,
    snapshot: &Snapshot,
    keys: &HashMap<String, Access>,
    text: String,
) {
    let targets = load(server.store(), table_id).await.unwrap_or_default();
    for t in targets {
        let gm = keys.get(&t.key).is_some_and(|a| a.role == Role::Owner);
        if gm && matches!(t.kind, Kind::Webhook | Kind::Email) {
            let item = super::message::item(What::Alert, &text);
            send(server, t, snapshot, table_id, "the GM".into(), vec![item]);
        }
    }
}

/// A casual move for `seat` from the catalogue's bot, through the executor; false when the
/// rules have no bots or none could be made (the GM is then alerted).
async fn bot_move(server: &Arc<Server>, table: &Arc<crate::table::Table>, seat: Seat) -> bool {
    let Some(bots) = server.entry(table.ruleset).and_then(|e| e.bots) else {
        return false;
    };
    let Ok(game) = table.lock_current().await.map(|p| p.game.clone()) else {
        return false;
    };
    let thinking = game.clone();
    let budget = Budget {
        time: server.limits().bot_think,
        work: Budget::TABLE.work,
    };
    let thought = work::run(Pool::Think, move || {
        let mut rng = SeededRandomness::new(getrandom::u64().unwrap_or_default());
        bots(thinking.as_ref(), seat, Strength::Casual, budget, &mut rng)
    })
    .await;
    let Ok(Ok(Some(command))) = thought else {
        return false;
    };
    let op = ClockMove {
        seat,
        command,
        game,
    };
    matches!(server.execute(table, op).await, Ok(done) if done.answer)
}
