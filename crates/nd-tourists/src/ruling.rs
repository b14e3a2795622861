//! A ruling in progress: the events decided so far and the table they lead to.
//!
//! Deciding a command often chains several steps (a rejection, a replacement draw, the Excuse,
//! the end of the round, Losses, victory). Each step reads the table as the previous events
//! left it. The ruling copies the state only when a step needs to read past an event, so a
//! plain bid (the hot path) decides without copying anything.

use std::cell::RefCell;

use clash_core::{Randomness, RandomnessError};

use crate::cards::{Card, CardSet, EXCUSE};
use crate::command::{Event, apply};
use crate::state::State;

pub struct Ruling<'a> {
    base: &'a State,
    owned: Option<State>,
    /// Events emitted but not yet folded into `owned`.
    pending: usize,
    pub events: Vec<Event>,
}

thread_local! {
    /// States left over from earlier rulings, reused so that copying allocates nothing.
    static SCRATCH: RefCell<Option<State>> = const { RefCell::new(None) };
}

fn scratch_copy(base: &State) -> State {
    match SCRATCH.with(|s| s.borrow_mut().take()) {
        Some(mut s) => {
            s.clone_from(base);
            s
        }
        None => base.clone(),
    }
}

impl Drop for Ruling<'_> {
    fn drop(&mut self) {
        if let Some(s) = self.owned.take() {
            SCRATCH.with(|cell| *cell.borrow_mut() = Some(s));
        }
    }
}

/// A card and its orientation, as drawn (ND-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drawn {
    pub card: Card,
    pub reversed: bool,
}

const ORIENTATIONS: [&str; 2] = ["upright", "reversed"];

/// Draw uniformly from `deck`: the card (label: its name), then the orientation at 1/2.
pub fn draw_from(deck: CardSet, rng: &mut dyn Randomness) -> Result<Drawn, RandomnessError> {
    let i = rng.choose(deck.len(), &|i| {
        deck.nth(i)
            .map_or_else(String::new, |c| c.name().to_string())
    })?;
    let card = deck.nth(i).ok_or(RandomnessError::NothingToChoose)?;
    let o = rng.choose(2, &|i| {
        ORIENTATIONS.get(i).copied().unwrap_or("").to_string()
    })?;
    Ok(Drawn {
        card,
        reversed: o == 1,
    })
}

impl<'a> Ruling<'a> {
    pub fn new(base: &'a State) -> Self {
        Ruling {
            base,
            owned: None,
            pending: 0,
            events: Vec::new(),
        }
    }

    /// The table after every event emitted so far.
    pub fn state(&mut self) -> &State {
        if self.pending > 0 {
            let base = self.base;
            let owned = self.owned.get_or_insert_with(|| scratch_copy(base));
            let start = self.events.len() - self.pending;
            for e in &self.events[start..] {
                apply(owned, e);
            }
            self.pending = 0;
        }
        self.owned.as_ref().unwrap_or(self.base)
    }

    pub fn emit(&mut self, e: Event) {
        self.events.push(e);
        self.pending += 1;
    }

    /// Draw a card for play, reshuffling this round's discards if the deck is empty (D-3).
    /// `None` when no card is left anywhere. The Excuse is left out when `no_excuse`.
    pub fn draw(
        &mut self,
        rng: &mut dyn Randomness,
        no_excuse: bool,
    ) -> Result<Option<Drawn>, RandomnessError> {
        let st = self.state();
        let strip = |s: CardSet| {
            if no_excuse {
                s.minus([EXCUSE].into_iter().collect())
            } else {
                s
            }
        };
        let mut deck = strip(st.deck);
        if deck.is_empty() {
            let back = strip(st.discard);
            if back.is_empty() {
                return Ok(None);
            }
            self.emit(Event::DeckReshuffled { cards: back });
            deck = back;
        }
        draw_from(deck, rng).map(Some)
    }
}
