//! The test kit through a toy ruleset, "Sealed bids": two players each bid 1 to 3 in secret, and
//! once both have bid the bids are revealed and the higher wins. A sound version keeps every
//! law; versions with one planted fault (a view that shows the other's bid, a listed command the
//! rules refuse, narration with a seat id, a position that swaps the bids) each break the law
//! that names it. (A refusal cannot change the state through the kernel, whose `execute` applies
//! nothing when `decide` refuses, so that law has no faulty version here.)

use clash_core::testkit::{self, Laws};
use clash_core::{Randomness, RuleError, Ruleset, Seat, Status, Viewer, ensure};
use serde::{Deserialize, Serialize};

const P1: Seat = Seat::Player(1);
const P2: Seat = Seat::Player(2);

/// Which fault a version of the game has.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    LeakyView,
    OverListed,
    SeatIdInNarration,
    SwappingPosition,
}

trait Version: 'static {
    const FAULT: Fault;
}

macro_rules! version {
    ($name:ident, $fault:expr) => {
        struct $name;
        impl Version for $name {
            const FAULT: Fault = $fault;
        }
    };
}
version!(Sound, Fault::None);
version!(Leaky, Fault::LeakyView);
version!(Greedy, Fault::OverListed);
version!(Raw, Fault::SeatIdInNarration);
version!(Swapping, Fault::SwappingPosition);

struct Sealed<V>(std::marker::PhantomData<V>);

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
struct Table {
    bids: [Option<u32>; 2],
    revealed: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Bid {
    amount: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Event {
    /// `amount` is shown to its bidder alone until the reveal.
    BidMade {
        seat: Seat,
        amount: Option<u32>,
    },
    Revealed {
        bids: [u32; 2],
    },
}

fn slot(seat: Seat) -> Option<usize> {
    match seat {
        Seat::Player(n @ 1..=2) => Some(usize::from(n) - 1),
        _ => None,
    }
}

fn name(seat: Seat) -> &'static str {
    if seat == P1 { "Ann" } else { "Bob" }
}

impl<V: Version> Ruleset for Sealed<V> {
    const ID: &'static str = "sealed-bids";
    type Setup = Table;
    type State = Table;
    type Command = Bid;
    type Event = Event;
    type View = Table;

    fn setup(setup: &Table) -> Result<Table, RuleError> {
        Ok(setup.clone())
    }

    fn opening(_state: &Table) -> Vec<Event> {
        Vec::new()
    }

    fn seats(_state: &Table) -> Vec<Seat> {
        vec![P1, P2]
    }

    fn seat_name(_state: &Table, seat: Seat) -> String {
        name(seat).into()
    }

    fn status(state: &Table) -> Status {
        if state.revealed {
            return Status::over("The bids are in the open.");
        }
        Status::waiting(
            [P1, P2]
                .into_iter()
                .filter(|s| slot(*s).is_some_and(|i| state.bids[i].is_none())),
        )
    }

    fn decide(
        state: &Table,
        seat: Seat,
        bid: &Bid,
        _rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        let i =
            slot(seat).ok_or_else(|| RuleError::not_your_call("SB-1", seat, "only players bid"))?;
        ensure(state.bids[i].is_none(), "SB-2", || {
            "each player bids once".into()
        })?;
        ensure((1..=3).contains(&bid.amount), "SB-3", || {
            "a bid is 1 to 3".into()
        })?;
        let mut events = vec![Event::BidMade {
            seat,
            amount: Some(bid.amount),
        }];
        if let [Some(a), None] | [None, Some(a)] = state.bids {
            let mut bids = [a, a];
            bids[i] = bid.amount;
            events.push(Event::Revealed { bids });
        }
        Ok(events)
    }

    fn apply(state: &mut Table, event: &Event) {
        match event {
            Event::BidMade { seat, amount } => {
                if let Some(i) = slot(*seat) {
                    state.bids[i] = *amount;
                }
            }
            Event::Revealed { .. } => state.revealed = true,
        }
    }

    fn view(state: &Table, viewer: Viewer) -> Table {
        let mut seen = state.clone();
        for seat in [P1, P2] {
            let hidden = !state.revealed && !viewer.is(seat) && V::FAULT != Fault::LeakyView;
            if let (true, Some(i)) = (hidden, slot(seat)) {
                seen.bids[i] = seen.bids[i].map(|_| 0);
            }
        }
        seen
    }

    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        Some(match event {
            Event::BidMade { seat, amount } if !viewer.is(*seat) => Event::BidMade {
                seat: *seat,
                amount: amount.map(|_| 0),
            },
            other => other.clone(),
        })
    }

    fn narrate(_state: &Table, event: &Event) -> String {
        match event {
            Event::BidMade { seat, .. } if V::FAULT == Fault::SeatIdInNarration => {
                format!("{seat} bids.")
            }
            Event::BidMade { seat, .. } => format!("{} bids.", name(*seat)),
            Event::Revealed { bids } => format!("Ann bid {}, Bob bid {}.", bids[0], bids[1]),
        }
    }

    fn render(state: &Table, _viewer: Viewer) -> String {
        if state.revealed {
            "The bids are revealed.".into()
        } else {
            "Bidding.".into()
        }
    }

    fn legal_commands(state: &Table, seat: Seat) -> Vec<Bid> {
        match slot(seat) {
            Some(i) if state.bids[i].is_none() => {
                let most = if V::FAULT == Fault::OverListed { 4 } else { 3 };
                (1..=most).map(|amount| Bid { amount }).collect()
            }
            _ => Vec::new(),
        }
    }

    fn position(state: &Table, viewer: Viewer) -> Option<Table> {
        let mut p = Self::view(state, viewer);
        if p != *state {
            return None; // it would show the viewer a secret
        }
        if V::FAULT == Fault::SwappingPosition {
            p.bids.swap(0, 1);
        }
        Some(p)
    }

    fn secret_pending(state: &Table, seat: Seat) -> bool {
        !state.revealed && slot(seat).is_some_and(|i| state.bids[i].is_some())
    }
}

fn laws<V: Version>() -> Laws<Sealed<V>> {
    Laws {
        probes: |_, _| vec![(Seat::Gm, Bid { amount: 2 }), (P1, Bid { amount: 9 })],
        ..Laws::new(vec![Table::default()])
    }
}

fn broken<V: Version>() -> String {
    (0..8)
        .find_map(|seed| testkit::check(&laws::<V>(), seed).err())
        .unwrap_or_else(|| "no law broken".into())
}

#[test]
fn a_sound_ruleset_keeps_every_law() {
    for seed in 0..16 {
        testkit::check(&laws::<Sound>(), seed).unwrap();
    }
}

#[test]
fn a_view_showing_another_seats_secret_breaks_the_secrets_law() {
    let e = broken::<Leaky>();
    assert!(e.contains("views never show another seat's secret"), "{e}");
}

#[test]
fn narration_with_a_seat_id_breaks_the_text_law() {
    let e = broken::<Raw>();
    assert!(e.contains("narration has no raw tokens"), "{e}");
    assert!(e.contains("p1") || e.contains("p2"), "{e}");
}

#[test]
fn a_position_that_swaps_the_bids_breaks_the_positions_law() {
    let e = broken::<Swapping>();
    assert!(e.contains("positions round-trip"), "{e}");
}

#[test]
fn a_listed_command_the_rules_refuse_breaks_the_legal_commands_law() {
    let e = broken::<Greedy>();
    assert!(e.contains("every legal command is accepted"), "{e}");
    assert!(e.contains("SB-3"), "{e}");
}
