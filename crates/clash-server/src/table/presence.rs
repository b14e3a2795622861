//! Who has a table open right now: the GM, each seat's player, and how many spectators.
//!
//! A page is "here" while its live stream is open. Each stream holds a [`Here`](crate::view::stream::Here) guard for as
//! long as it lives; dropping it (the page closed, the connection broke) counts the person out
//! and wakes every other stream, so everyone's seat list shows who is connected within the
//! stream's keep-alive interval. Presence is about connections, not the game: it is kept in
//! memory only and never logged. Each change bumps a version, so a picture that shows presence
//! is computed again when it changes (see [`crate::view::snapshot`]).
//!
//! With several nodes on one database, each node tells the others who has the table open on it
//! (at every change, and again every sweep while anyone is there); what another node told is
//! counted too, and forgotten when it is not repeated in time (a node that died).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Pages open per person (`gm`, `p1`, …, `spectator`).
pub type Counts = HashMap<String, usize>;

/// What another node last told, and when.
type Told = HashMap<String, (Counts, Instant)>;

/// Open streams per person at one table (`gm`, `p1`, …, `spectator`).
#[derive(Default)]
pub struct Presence {
    open: Mutex<HashMap<String, usize>>,
    /// Pages open through other nodes, by node: their counts and when that node last told them.
    elsewhere: Mutex<Told>,
    version: AtomicU64,
}

impl Presence {
    fn counts(&self) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
        // A count is a plain number: a panic elsewhere cannot leave it half-written.
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn others(&self) -> std::sync::MutexGuard<'_, Told> {
        self.elsewhere.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `who` has at least one page open (through any node).
    pub fn is_here(&self, who: &str) -> bool {
        self.count(who) > 0
    }

    /// How many pages `who` has open (through any node).
    pub fn count(&self, who: &str) -> usize {
        let here = self.counts().get(who).copied().unwrap_or(0);
        let elsewhere: usize = self
            .others()
            .values()
            .filter_map(|(counts, _)| counts.get(who))
            .sum();
        here + elsewhere
    }

    /// The pages open through this node, by person.
    pub fn local(&self) -> HashMap<String, usize> {
        self.counts().clone()
    }

    /// What another node says is open through it now.
    pub fn set_elsewhere(&self, node: &str, counts: HashMap<String, usize>) {
        self.others()
            .insert(node.to_string(), (counts, Instant::now()));
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    /// Forget what other nodes have not repeated within `within`; true when something went.
    pub fn forget_quiet(&self, within: Duration) -> bool {
        let gone = {
            let mut others = self.others();
            let before = others.len();
            others.retain(|_, (_, told)| told.elapsed() < within);
            before != others.len()
        };
        if gone {
            self.version.fetch_add(1, Ordering::AcqRel);
        }
        gone
    }

    /// Changes with every arrival and departure.
    /// Count the picture as changed though nobody came or went: a finished table's
    /// housekeeping changes what every page shows without adding to the log (see
    /// [`crate::table::keeping`]).
    pub fn touch(&self) {
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    pub(crate) fn change(&self, who: &str, arriving: bool) {
        {
            let mut counts = self.counts();
            let n = counts.entry(who.to_string()).or_insert(0);
            if arriving {
                *n += 1;
            } else {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    counts.remove(who);
                }
            }
        }
        self.version.fetch_add(1, Ordering::AcqRel);
    }
}
