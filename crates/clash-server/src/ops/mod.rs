//! Table operations: the closed set of things that change a table.
//!
//! Each operation is a small type in a file of its own that says who may run it, when, and what
//! it does: from the table as it stands and the actor who asks, it decides the log entries and
//! link changes to commit ([`Decision`]), or refuses with a [`TableError`]. It never locks,
//! stores, publishes or checks a key itself. Everything around the decision is done once, for
//! every operation, by the executor ([`crate::executor`]): loading and locking the table,
//! resolving the key to an [`Actor`], refusing after the table has ended or while it is
//! archived, the client's expected revision and command id, the secret guard on every change of
//! who holds a seat, appending to the store (deciding again after a race lost to another node),
//! and waking every stream.
//!
//! The set is closed: [`Operation`] can only be implemented in this module's children.

use std::future::Future;
use std::sync::Arc;

use clash_core::{AnyGame, RulesetEntry, Seat};

use crate::error::{Conflict, TableError};
use crate::log::{Entry, TableEvent};
use crate::store::Store;
use crate::store::{LinkChange, StoredCommand};
use crate::table::Table;
use crate::table::play::{Access, Play, Sent};

/// Who may run an operation, with the key it came with.
#[derive(Debug, Clone, Copy)]
pub enum Who<'a> {
    /// The GM's link only; any other valid key is refused with `refusal`.
    Gm { key: &'a str, refusal: &'static str },
    /// Any valid key, acting as `as_seat` if it asks (the operation checks what it needs).
    Key { key: &'a str, as_seat: Option<Seat> },
    /// A key that acts for a seat now (as `as_seat`, if it asks): a player, or the GM for
    /// their own seat, an NPC or a bot's seat.
    Seat { key: &'a str, as_seat: Option<Seat> },
    /// An unused invite, or a link a seat's player made to move the seat to another device.
    Invite { key: &'a str },
    /// The bot seated in `seat`, run by the server itself.
    Bot(Seat),
}

/// Who is asking, as the executor resolved it under the table's lock.
#[derive(Debug, Clone)]
pub enum Actor {
    /// A link key and what it may do now.
    Key { key: String, access: Access },
    /// An unused invite for `seat`, or (`moving`) a link its player made to move the seat to
    /// another device; or (`used`) one already exchanged, which only a retry of the request
    /// that exchanged it may present (see [`claim`]).
    Invite {
        key: String,
        seat: Seat,
        moving: bool,
        used: bool,
    },
    /// The bot seated in this seat.
    Bot(Seat),
}

impl Actor {
    /// What the actor may do, for a key; a bot and an invite have no such rights.
    pub fn access(&self) -> Option<&Access> {
        match self {
            Actor::Key { access, .. } => Some(access),
            _ => None,
        }
    }
}

/// When an operation may run.
#[derive(Debug, Clone, Copy)]
pub struct When {
    /// Refused once the table has ended, with this message; `None` runs at any time.
    pub ended: Option<&'static str>,
    /// Refused while the GM has archived the table.
    pub in_play: bool,
}

impl When {
    /// At any time, even after the end.
    pub const ANY: When = When {
        ended: None,
        in_play: false,
    };
    /// Until the table ends.
    pub const OPEN: When = When {
        ended: Some("this table has ended"),
        in_play: false,
    };
    /// Until the table ends, and not while it is archived.
    pub const PLAYING: When = When {
        ended: Some("this table has ended"),
        in_play: true,
    };
}

/// The table as an operation sees it: everything it may decide from.
pub struct At<'a> {
    /// The table's ruleset.
    pub entry: RulesetEntry,
    /// Where the table is stored (for the rows kept beside its log).
    pub store: &'a Store,
    pub table: &'a Arc<Table>,
    pub play: &'a Play,
    pub actor: &'a Actor,
}

impl At<'_> {
    /// The name the table knows `seat` by ("Ada", "the GM").
    pub fn name(&self, seat: Seat) -> String {
        self.play.game.seat_name(seat)
    }
}

/// Work the executor starts once an operation's change is committed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    Nothing,
    /// Run the table's bots (one was just seated).
    RunBots,
}

/// What an operation decided: a change to commit (or none: it is already as asked), and its
/// answer to the caller.
pub struct Decision<A> {
    pub change: Option<Change>,
    pub answer: A,
}

impl<A> Decision<A> {
    /// Commit `change`, then answer `answer`.
    pub fn change(change: Change, answer: A) -> Self {
        Decision {
            change: Some(change),
            answer,
        }
    }

    /// Nothing to commit: the table is already as asked.
    pub fn nothing(answer: A) -> Self {
        Decision {
            change: None,
            answer,
        }
    }
}

impl Decision<()> {
    /// Record these table events, with these link changes.
    pub fn table(events: Vec<TableEvent>, links: Vec<LinkChange>) -> Self {
        Decision::change(Change::table(events, links), ())
    }
}

/// A change to commit: log entries, the command row behind them, link changes, and the game
/// after the command (if it was one, or one taken back).
pub enum Change {
    Append {
        entries: Vec<Entry>,
        command: Option<StoredCommand>,
        links: Vec<LinkChange>,
        game: Option<Box<dyn AnyGame>>,
    },
    /// A finished table's housekeeping, beside its final log (the executor makes it from an
    /// `Append` once the secret is revealed: see [`crate::table::keeping`]).
    Keep(crate::store::Keeping),
    /// The table and everything stored about it goes.
    Delete,
}

impl Change {
    /// Whether it adds to the log: then a change decided on a table another node has since
    /// changed loses the race for the log's next position when it is written.
    pub fn appends(&self) -> bool {
        matches!(self, Change::Append { entries, .. } if !entries.is_empty())
    }

    /// Table events with their link changes.
    pub fn table(events: Vec<TableEvent>, links: Vec<LinkChange>) -> Change {
        Change::Append {
            entries: events
                .into_iter()
                .map(|event| Entry::Table { event })
                .collect(),
            command: None,
            links,
            game: None,
        }
    }
}

mod sealed {
    pub trait Sealed {}
}

/// What the GM's link is told when another key tries a seat or link change.
const SEATS_ARE_THE_GMS: &str =
    "only the GM's link (the table's creator) can manage seats and links";
/// … or a change to the table itself.
const THE_TABLE_IS_THE_GMS: &str =
    "only the GM's link (the table's creator) can rename, archive, end or delete the table";

/// The one implementation of [`Operation`] behind [`key_operation`] and [`gm_operation`]:
/// `operation!(Type => Answer, |op| who, when[, doing][; more of the trait's methods])`.
macro_rules! operation {
    ($op:ty => $answer:ty, |$this:ident| $who:expr, $when:expr $(, $doing:literal)? $(; $($extra:tt)*)?) => {
        impl $crate::ops::sealed::Sealed for $op {}

        impl $crate::ops::Operation for $op {
            type Answer = $answer;

            fn who(&self) -> $crate::ops::Who<'_> {
                let $this = self;
                $who
            }

            fn when(&self) -> $crate::ops::When {
                $when
            }

            $(fn doing(&self) -> &'static str {
                $doing
            })?

            fn decide(
                &self,
                at: &$crate::ops::At<'_>,
            ) -> impl std::future::Future<
                Output = Result<$crate::ops::Decision<$answer>, $crate::error::TableError>,
            > + Send {
                self.decided(at)
            }

            $($($extra)*)?
        }
    };
}

/// An operation any valid key may ask for (the operation checks what it needs):
/// `key_operation!(Type => Answer, when)`, as [`gm_operation`] does for the GM's.
macro_rules! key_operation {
    ($op:ty => $answer:ty, $when:expr) => {
        operation!($op => $answer, |op| $crate::ops::Who::Key { key: &op.key, as_seat: None }, $when);
    };
}

/// An operation only the GM's link runs: `gm_operation!(Type => Answer, when, refusal[, doing]
/// [; more of the trait's methods])` implements [`Operation`] for `Type` (which has a `key`
/// field and an inherent
/// `async fn decided(&self, at: &At<'_>) -> Result<Decision<Answer>, TableError>`), so each
/// operation's file says only what is its own.
macro_rules! gm_operation {
    ($op:ty => $answer:ty, $when:expr, $refusal:expr $(, $doing:literal)? $(; $($extra:tt)*)?) => {
        operation!(
            $op => $answer,
            |op| $crate::ops::Who::Gm { key: &op.key, refusal: $refusal },
            $when $(, $doing)? $(; $($extra)*)?
        );
    };
}

pub mod add_seed;
pub mod archive;
pub mod bot_move;
pub mod claim;
pub mod clock_move;
pub mod command;
pub mod delete;
pub mod end;
pub mod hand_back;
pub mod invite;
pub mod move_seat;
pub mod rename;
pub mod replace_link;
pub mod revoke;
pub mod say;
pub mod seat_bot;
pub mod set_clock;
pub mod set_odds;
pub mod take_over;
pub mod undo;
pub mod unseat_bot;

/// One kind of change to a table. Implemented only by the operations in this module.
pub trait Operation: sealed::Sealed + Send + Sync + 'static {
    /// What the caller is told once the change is committed.
    type Answer: Send + 'static;

    /// Who may run it.
    fn who(&self) -> Who<'_>;

    /// When it may run.
    fn when(&self) -> When;

    /// What it does to the table as it stands, for the actor.
    fn decide(
        &self,
        at: &At<'_>,
    ) -> impl Future<Output = Result<Decision<Self::Answer>, TableError>> + Send;

    /// What the guard says it would do to a seat with a secret pending ("give the seat a new
    /// link"), in a refusal: "you can … once the rules reveal it".
    fn doing(&self) -> &'static str {
        "change who holds the seat"
    }

    /// Whether the change keeps the actor's own seat with the same person: exchanging an invite
    /// for a key of one's own (the guard looked when the invite was issued, and nobody can act
    /// for a seat while its invite is out), or a player moving their seat to another device of
    /// theirs. The secret guard still looks at the change, and lets only that one seat's own
    /// pending choice go with it; any other seat the change touched would be refused.
    fn same_person(&self) -> bool {
        false
    }

    /// The client's id for this request: a retry with the same id is answered again, not
    /// applied twice.
    fn id(&self) -> Option<&str> {
        None
    }

    /// The answer to a retry of the request the table already took as `sent`, or a refusal
    /// when the id was used for something else.
    fn again(&self, sent: &Sent, seat: Seat) -> Result<Self::Answer, TableError> {
        let _ = (sent, seat);
        Err(TableError::conflict(
            Conflict::IdReused,
            "this request's id was already used",
        ))
    }

    /// The table revision the client last saw: refused if the actor's seat acted since.
    fn seen(&self) -> Option<usize> {
        None
    }

    /// Work the executor starts once the change is committed (a bot runner for a new bot).
    fn after(&self) -> After {
        After::Nothing
    }
}

/// The seat a key acts for, or why it may not send commands.
pub fn acting_seat(actor: &Actor) -> Result<Seat, TableError> {
    match actor {
        Actor::Bot(seat) => Ok(*seat),
        Actor::Invite { .. } => Err(TableError::Invite),
        Actor::Key { access, .. } => access.seat.ok_or_else(|| match access.suspended {
            true => TableError::forbidden(
                "the GM plays your seat for now; you can watch until it is handed back",
            ),
            false => TableError::forbidden("this link can only watch; it cannot send commands"),
        }),
    }
}

/// A player seat the GM may manage (not the GM's own), one the game has.
pub fn manageable(play: &Play, seat: Seat) -> Result<(), TableError> {
    if seat == Seat::Gm {
        return Err(TableError::malformed(
            "the gm seat belongs to the GM link itself; invite players to p1, p2, …",
        ));
    }
    play.known_seat(seat)
}
