//! Notifications, reminders and clocks: a table a group can play across a week (issue 31).
//!
//! * [`target`]: where each key wants to hear of its table (a webhook, an email address, the
//!   GM's table channel, a player's handle there), checked when set and stored beside the table
//!   (never in its log, which everyone reads after the end), gone with the key that set it.
//! * [`guard`]: the addresses a webhook may not reach (loopback, private, link-local, CGNAT,
//!   metadata…), unless the host allows a LAN.
//! * [`message`]: what each target is told, built from its own seat's view alone (a channel from
//!   what a spectator sees); no message ever carries a key. [`escape`]: the text people wrote,
//!   made safe for the app it goes to (no mention or link the table did not set).
//! * [`deliver`]: per-target queues with digests, throttling, retries with backoff, and the
//!   record of each delivery for the target's owner and the GM.
//! * [`consent`] and [`mail`]: email only to addresses whose owners confirmed them, with a
//!   one-click unsubscribe in every message and a cap per address per day.
//! * [`clock`] and [`rule`]: the GM's reminders and clocks, derived from stored times so they
//!   survive a restart, and what the table does when one runs out.
//!
//! The executor tells the notifier of every committed change ([`Tables::notify_committed`]),
//! under the table's lock and at once (it only queues); the notifier's own task then works out
//! who is told what, off the request path. The person whose action made the change is not told
//! of it. A change is told by the node that committed it. Messages link to the server's public
//! address, or without one to the address it printed when it started ([`deliver::Outbox::base`]).

pub mod clock;
pub mod consent;
pub mod deliver;
pub mod escape;
pub mod guard;
pub mod mail;
pub mod message;
pub mod rule;
pub mod target;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use clash_core::Seat;
use tokio::sync::mpsc;

use crate::links::Role;
use crate::ops::Actor;
use crate::play::{Access, Play};
use crate::snapshot::Snapshot;
use crate::store::{LinkStatus, Store};
use crate::table::Table;
use crate::tables::Tables;
use deliver::Outbox;
use message::Message;
use target::Kind;

/// The host's SMTP relay.
#[derive(Debug, Clone)]
pub struct Smtp {
    /// `smtps://user:password@host:465`, `smtp://host:587?tls=required`, or `smtp://host:25`.
    pub url: String,
    /// The sender's address.
    pub from: String,
}

/// How the host lets the server notify.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The server's public address (`https://clash.example.org`), for the links in messages.
    pub public_url: Option<String>,
    /// Webhooks may reach loopback and private addresses, and use `http` (a LAN host).
    pub allow_private: bool,
    pub smtp: Option<Smtp>,
    /// How long the first event waits for others to go with it.
    pub gather: Duration,
    /// The least time between two messages to one target.
    pub throttle: Duration,
    /// The first retry's wait; each next one waits twice as long.
    pub retry_base: Duration,
    /// Retries after a first failed attempt.
    pub retries: u32,
    /// The longest a webhook request or a mail may take.
    pub timeout: Duration,
    /// How often due reminders and clocks are looked for.
    pub tick: Duration,
    /// Messages one email address receives from this server in a day at most, across all
    /// tables (see [`consent`]).
    pub mail_per_day: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            public_url: None,
            allow_private: false,
            smtp: None,
            gather: Duration::from_secs(5),
            throttle: Duration::from_secs(60),
            retry_base: Duration::from_secs(5),
            retries: 4,
            timeout: Duration::from_secs(10),
            tick: Duration::from_secs(15),
            mail_per_day: 20,
        }
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Changes waiting to be looked at; past this many, news is dropped (and logged).
const BACKLOG: usize = 4096;

/// A committed change, as the notifier needs it.
pub(crate) struct Committed {
    pub table: String,
    pub before: Arc<Snapshot>,
    pub after: Arc<Snapshot>,
    /// Every working key of the GM or a seat, with its rights after the change.
    pub keys: HashMap<String, Access>,
    /// The key whose request made the change (none for a bot or the server's clock).
    pub actor_key: Option<String>,
    pub actor_seat: Option<Seat>,
    pub clock: rule::ClockRule,
    pub bots: Vec<Seat>,
    pub deleted: bool,
}

/// The notifier of one server: its queue of changes and its outbox.
pub struct Notifier {
    settings: Arc<Settings>,
    outbox: Arc<Outbox>,
    news: OnceLock<mpsc::Sender<Committed>>,
    ticking: OnceLock<()>,
}

impl Notifier {
    pub fn new(settings: Settings, store: Store) -> Notifier {
        let settings = Arc::new(settings);
        Notifier {
            outbox: Arc::new(Outbox::new(settings.clone(), store)),
            settings,
            news: OnceLock::new(),
            ticking: OnceLock::new(),
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub(crate) fn outbox(&self) -> &Arc<Outbox> {
        &self.outbox
    }
}

/// The working keys of the GM and of the seats, with their rights now.
pub(crate) fn keys(play: &Play) -> HashMap<String, Access> {
    play.links
        .iter()
        .filter(|l| matches!(l.status, LinkStatus::Active | LinkStatus::Suspended))
        .filter(|l| l.role.parse::<Role>().is_ok_and(|r| r != Role::Spectator))
        .filter_map(|l| Some((l.key.clone(), play.access(&l.key, None).ok()?)))
        .collect()
}

impl Tables {
    /// Start the notifier's timers (reminders and clocks); once, and a restarted server's
    /// first call picks up every timer from the database.
    pub fn start_notify(self: &Arc<Self>) {
        let notifier = self.notifier();
        if notifier.ticking.set(()).is_ok() {
            tokio::spawn(clock::tick(Arc::downgrade(self), notifier.settings.tick));
        }
    }

    /// The executor's hook: `table` changed from `before` to `play` by `actor`'s request.
    /// Only queues; never waits.
    pub(crate) fn notify_committed(
        self: &Arc<Self>,
        table: &Table,
        before: Arc<Snapshot>,
        play: &Play,
        actor: &Actor,
    ) {
        let news = self.notifier().news.get_or_init(|| {
            let (tx, rx) = mpsc::channel(BACKLOG);
            tokio::spawn(work(Arc::downgrade(self), rx));
            tx
        });
        self.start_notify();
        let (actor_key, actor_seat) = match actor {
            Actor::Key { key, access } => (Some(key.clone()), access.seat),
            Actor::Bot(_) | Actor::Invite { .. } => (None, None),
        };
        let committed = Committed {
            table: table.id.clone(),
            before,
            after: play.snapshot.clone(),
            keys: keys(play),
            actor_key,
            actor_seat,
            clock: play.clock,
            bots: play.bots.keys().copied().collect(),
            deleted: play.deleted,
        };
        crate::metrics::COST.handoffs.inc();
        if news.try_send(committed).is_err() {
            tracing::warn!(table = %table.id, "too many changes waiting: some are not notified");
        }
    }
}

/// The notifier's task: each committed change, in order.
async fn work(tables: Weak<Tables>, mut news: mpsc::Receiver<Committed>) {
    while let Some(change) = news.recv().await {
        let Some(tables) = tables.upgrade() else {
            return;
        };
        clock::track(&tables, &change).await;
        tell(&tables, &change).await;
    }
}

/// Queue what each target of the table is told of `change`.
async fn tell(tables: &Arc<Tables>, change: &Committed) {
    let outbox = tables.notifier().outbox();
    let stopped = change.deleted || change.after.archived();
    outbox.stop(&change.table, stopped);
    if stopped {
        return;
    }
    let targets = match load(tables, &change.table).await {
        Ok(t) => t,
        Err(e) => return tracing::warn!(table = %change.table, error = %e, "targets unreadable"),
    };
    let handles = handles(&targets, &change.keys);
    let now_waiting = message::waiting(&change.after);
    let moved: Vec<Seat> = message::waiting(&change.before)
        .into_iter()
        .filter(|s| !now_waiting.contains(s))
        .collect();
    for t in targets {
        let (to, items) = match t.kind {
            Kind::Handle => continue,
            Kind::Channel => {
                for seat in &moved {
                    outbox.withdraw(&change.table, &t.id, Some(*seat));
                }
                let items =
                    message::channel(&change.before, &change.after, change.actor_seat, &handles);
                ("the table".to_string(), items)
            }
            Kind::Webhook | Kind::Email => {
                let Some(access) = change.keys.get(&t.key) else {
                    continue;
                };
                let told = message::personal(&change.before, &change.after, access);
                if told.moved {
                    outbox.withdraw(&change.table, &t.id, None);
                }
                if change.actor_key.as_deref() == Some(t.key.as_str()) {
                    continue;
                }
                (name(&change.after, access), told.items)
            }
        };
        let message = Message {
            table: change.table.clone(),
            title: change.after.title().to_string(),
            to,
            items,
            more: 0,
        };
        outbox.push(t, message);
    }
}

/// The name a key goes by at the table.
pub(crate) fn name(snapshot: &Snapshot, access: &Access) -> String {
    match access.role {
        Role::Seat(s) => snapshot.game().seat_name(s),
        _ => "the GM".into(),
    }
}

/// Each seat's handle for the table channel, from its player's key.
pub(crate) fn handles(
    targets: &[target::Target],
    keys: &HashMap<String, Access>,
) -> HashMap<Seat, String> {
    targets
        .iter()
        .filter(|t| t.kind == Kind::Handle)
        .filter_map(|t| {
            let access = keys.get(&t.key)?;
            let seat = match access.role {
                Role::Seat(s) => s,
                _ => access.seat?,
            };
            Some((seat, t.address.clone()))
        })
        .collect()
}

/// Every target of a table.
pub(crate) async fn load(
    tables: &Tables,
    table: &str,
) -> Result<Vec<target::Target>, crate::store::StoreError> {
    let rows = tables.store().select(target::select_all(table)).await?;
    Ok(rows.iter().filter_map(target::read).collect())
}
