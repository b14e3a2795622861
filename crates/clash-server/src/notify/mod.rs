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
//! The executor tells the notifier of every committed change ([`crate::server::Server::notify_committed`]),
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
pub mod news;
pub mod now;
pub mod rule;
pub mod settings;
pub mod target;

use std::sync::{Arc, Weak};

use clash_core::Seat;
use tokio::sync::mpsc;

use crate::ops::Actor;
use crate::server::Server;
use crate::table::Table;
use crate::table::play::Play;
use crate::view::snapshot::Snapshot;
use message::Message;
pub use news::Notifier;
use news::{BACKLOG, Committed, handles, keys, load, name};
pub use now::now_ms;
pub use settings::{Settings, Smtp};
use target::Kind;

impl Server {
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
async fn work(server: Weak<Server>, mut news: mpsc::Receiver<Committed>) {
    while let Some(change) = news.recv().await {
        let Some(server) = server.upgrade() else {
            return;
        };
        clock::track(&server, &change).await;
        tell(&server, &change).await;
    }
}

/// Queue what each target of the table is told of `change`.
async fn tell(server: &Arc<Server>, change: &Committed) {
    let outbox = server.notifier().outbox();
    let stopped = change.deleted || change.after.archived();
    outbox.stop(&change.table, stopped);
    if stopped {
        return;
    }
    let targets = match load(server.store(), &change.table).await {
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
