//! What the notifier is told and keeps: each committed change ([`Committed`]), the notifier's
//! queue and outbox ([`Notifier`]), and what it reads of a table to tell it (its targets, its
//! keys, their names and handles).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use clash_core::Seat;
use tokio::sync::mpsc;

use super::deliver::Outbox;
use super::rule;
use super::settings::Settings;
use super::target::{self, Kind};
use crate::store::{LinkStatus, Store};
use crate::table::links::Role;
use crate::table::play::{Access, Play};
use crate::view::snapshot::Snapshot;

/// Changes waiting to be looked at; past this many, news is dropped (and logged).
pub(super) const BACKLOG: usize = 4096;

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
    pub(super) settings: Arc<Settings>,
    outbox: Arc<Outbox>,
    pub(super) news: OnceLock<mpsc::Sender<Committed>>,
    pub(super) ticking: OnceLock<()>,
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
    store: &Store,
    table: &str,
) -> Result<Vec<target::Target>, crate::store::StoreError> {
    let rows = crate::store::notify::targets(store, table).await?;
    Ok(rows.into_iter().filter_map(target::read).collect())
}
