//! What seats may ask for (commands) and what happens (events).

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};
use crate::state::{CharId, PartyId, RoundKind};

/// A command. `party` names the acting party when the seat plays several (the GM); for `bid`
/// and `pass` it defaults to the party whose turn it is.
///
/// Unknown fields are refused, so a command says exactly what it means.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// GM: draw the non-player Reserves (ND-10) and open round 1 (or, for a position, deal the
    /// Reserve cards its writer could not see and resume play).
    Start {},
    /// ND-11: a party's tactics for this round (narrative only).
    DeclareTactics {
        #[serde(default)]
        party: Option<String>,
        text: String,
    },
    /// Draw one card and place it (ND-14, ND-15). `character` chooses who draws (ND-28).
    Bid {
        #[serde(default)]
        party: Option<String>,
        #[serde(default)]
        character: Option<String>,
    },
    /// ND-15: pass this turn (not final).
    Pass {
        #[serde(default)]
        party: Option<String>,
    },
    /// ND-19: reject the card the drawer just drew, using one of the drawer's face-up Losses.
    Reject {
        #[serde(default)]
        party: Option<String>,
    },
    /// ND-19 / D-14: as the drawer whose card was rejected, spend this face-up Loss card.
    SpendLoss {
        #[serde(default)]
        party: Option<String>,
        card: Card,
    },
    /// ND-18: the Dominant pays a token to turn the card just placed.
    Turn {},
    /// ND-20: lay a Reserve card over the card just placed or turned, citing a trait.
    Cover {
        #[serde(default)]
        party: Option<String>,
        #[serde(default)]
        character: Option<String>,
        card: Card,
        /// The Aspect, Weakness or Loss whose narration justifies the cover.
        #[serde(default)]
        cite: Option<Citation>,
        /// The table validated the narration (input).
        #[serde(default)]
        accepted: bool,
    },
    /// D-4: the party whose turn it is to react to the card just placed does not react; the
    /// next party in line gets its chance. `party` defaults to the party to react now.
    LetItStand {
        #[serde(default)]
        party: Option<String>,
    },
    /// A standing choice (D-4): which of the party's chances to react pass by themselves from
    /// now on. `asking`: `own_cards` (asked only to save its own reversed cards) or `every`
    /// (asked at every chance), unsaid keeps what it was; `rejections`: never asked to reject;
    /// `this_round`: every chance passes until the round ends.
    AutoPass {
        #[serde(default)]
        party: Option<String>,
        #[serde(default)]
        rejections: bool,
        #[serde(default)]
        this_round: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        asking: Option<crate::state::Asking>,
    },
    /// ND-24, ND-31: at end-of-round step 4, a party (or one of its characters) concedes.
    Concede {
        #[serde(default)]
        party: Option<String>,
        #[serde(default)]
        character: Option<String>,
    },
    /// GM: accept a Reframe (ND-25) at step 4 (D-17); `confirmed` = goals and means changed.
    Reframe {
        #[serde(default)]
        confirmed: bool,
    },
    /// ND-21: at step 4, a party that took a Loss this round chooses which of its reversed
    /// cards mark it (1 for a Temporary Loss, 3 for a Lasting one) instead of the earliest.
    KeepLossCards {
        #[serde(default)]
        party: Option<String>,
        cards: Vec<Card>,
    },
    /// GM: end-of-round steps 5–7 (reshuffle, refill, next round).
    NextRound {},
}

/// The trait a cover's narration rests on (ND-20).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Citation {
    Aspect(String),
    Weakness(String),
    /// A card on one of the relevant party's Loss lines.
    Loss(Card),
}

/// Why a Reserve card was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReserveReason {
    /// ND-10: a non-player party's Reserve, before the Conflict.
    Npc,
    /// ND-26: the round winner's refill.
    Refill,
    /// ND-24: a conceding character's draw at Conflict end.
    Concession,
    /// A Reserve card the setup does not name, dealt from the deck at `start`: one the writer
    /// of a position could not see, or a player sheet's Reserve made in session zero (S4).
    Unseen,
}

/// ND-21.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossKind {
    Temporary,
    Lasting,
}

/// How bidding ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// ND-14.3: this party's card beats every other.
    BalanceBroken { party: PartyId },
    /// ND-14.4: nobody's card beats all the others.
    BalanceHeld,
    /// ND-14.2, ND-16a: the Excuse came out; no evaluation.
    Excuse { party: PartyId },
    /// ND-17: these Contenders broke the Dominant.
    DominantBroken { breakers: Vec<PartyId> },
    /// ND-17: nobody broke the Dominant.
    DominantHeld,
    /// D-9: the Dominant was Wiped Out.
    DominantWipedOut,
}

/// Something that happened. Every outcome of chance is recorded here (ND-2: card and
/// orientation of each draw), so applying events never needs randomness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A card from the deck into a Reserve. Hidden (`card: null`) from everyone but its owner.
    ReserveDrawn {
        party: PartyId,
        character: CharId,
        /// The seat that speaks for the party: the only one that sees the card.
        seat: clash_core::Seat,
        card: Option<Card>,
        reversed: Option<bool>,
        reason: ReserveReason,
    },
    RoundStarted {
        number: u16,
        kind: RoundKind,
        dominant: Option<PartyId>,
        control: u8,
    },
    TacticsDeclared {
        party: PartyId,
        text: String,
    },
    /// D-3: the deck ran out; these discards went back into it.
    DeckReshuffled {
        cards: CardSet,
    },
    /// A drawn card placed in a bid line. `window`: reactions are possible (ND-12); when false
    /// the placement is final at once and the turn moves on.
    CardPlaced {
        party: PartyId,
        character: CharId,
        card: Card,
        reversed: bool,
        window: bool,
        #[serde(default)]
        narrative: bool,
    },
    /// ND-16a / D-8: the Excuse was drawn and discarded.
    ExcuseDrawn {
        party: PartyId,
        character: CharId,
    },
    /// ND-19: `by` rejects `party`'s card; `party` shows several face-up Loss cards and chooses
    /// the one to spend (D-14).
    RejectionClaimed {
        by: PartyId,
        party: PartyId,
    },
    /// ND-19: `by` rejected `party`'s card, spending `spent` from a Loss line.
    CardRejected {
        by: PartyId,
        party: PartyId,
        card: Card,
        spent: Card,
        /// The spent card was a Lasting Loss card, now face down (else a Temporary one, gone).
        lasting: bool,
    },
    /// D-4: `by` did not make reaction `step` to `party`'s `card` when its turn came.
    LetStand {
        by: PartyId,
        party: PartyId,
        step: crate::state::ReactionStep,
        card: Card,
    },
    /// D-4: the parties in `by` let `party`'s `card` stand, one chance after another (the first
    /// may be answered by hand, the others by standing choices). `then` is the next chance to
    /// react; none closes the window. `turned`: the card was turned in this window.
    LeftStanding {
        party: PartyId,
        card: Card,
        by: Vec<PartyId>,
        then: Option<crate::state::Reacting>,
        #[serde(default)]
        turned: bool,
    },
    /// A party's standing choice of which chances to react pass by themselves.
    AutoPassSet {
        party: PartyId,
        #[serde(flatten)]
        choice: crate::state::AutoPass,
    },
    /// ND-18: the Dominant turned `party`'s card.
    CardTurned {
        party: PartyId,
        reversed: bool,
    },
    /// ND-20: `by` laid `cover` from its Reserve over `party`'s card.
    CardCovered {
        by: PartyId,
        character: CharId,
        party: PartyId,
        cover: Card,
        reversed: bool,
        covered: Card,
        cite: Citation,
    },
    /// The reaction window closed; the turn moves on.
    WindowClosed {
        party: PartyId,
    },
    Passed {
        party: PartyId,
    },
    /// ND-16b.
    WipedOut {
        party: PartyId,
    },
    BiddingEnded {
        #[serde(flatten)]
        outcome: Outcome,
    },
    ControlChanged {
        dominant: Option<PartyId>,
        control: u8,
    },
    /// ND-21: `cards` leave the bid line for a Loss line of `character`.
    LossTaken {
        party: PartyId,
        character: CharId,
        kind: LossKind,
        cards: Vec<Card>,
    },
    /// ND-21: the party re-chose the cards marking this round's Loss.
    LossCardsChosen {
        party: PartyId,
        cards: Vec<Card>,
    },
    /// ND-22 steps 1–3 done: who won, who lost, who narrates when.
    RoundResolved {
        winners: Vec<PartyId>,
        losers: Vec<PartyId>,
        narration: Vec<PartyId>,
    },
    /// ND-24, ND-31. `party_out`: every character of the party has conceded.
    Conceded {
        party: PartyId,
        character: CharId,
        party_out: bool,
    },
    /// ND-25: Losses settled; `weaknesses` lists each new Weakness.
    Reframed {
        weaknesses: Vec<NewWeakness>,
    },
    /// ND-4 / ND-22 step 5: bid lines and discards back into the deck.
    CardsReturned,
    /// ND-23, ND-25, ND-27.
    ConflictEnded {
        victor: Option<PartyId>,
        reason: crate::state::EndReason,
    },
    /// A position's unseen Reserve cards are dealt: play resumes where the position stands.
    Resumed,
}

/// A Lasting Loss that became a Weakness at a Reframe (ND-25).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewWeakness {
    pub party: PartyId,
    pub character: CharId,
    pub name: String,
}

use crate::state::{
    BidCard, EndReason, Gravity, LastingLoss, LossCard, Phase, Reacting, ReserveCard, Round,
    RoundResult, State, Status, TemporaryLoss,
};

/// Fold one event into the state. Never fails and never draws: every choice is in the event.
/// Malformed events (indices out of range) are ignored rather than panicking.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::ReserveDrawn {
            party,
            character,
            card: Some(card),
            reversed,
            reason,
            ..
        } => {
            if let Some(ch) = char_mut(s, *party, *character) {
                ch.reserve.push(ReserveCard {
                    card: *card,
                    reversed: reversed.unwrap_or(false),
                });
                if *reason == ReserveReason::Unseen {
                    ch.unseen = ch.unseen.saturating_sub(1);
                }
                s.deck.remove(*card);
            }
        }
        Event::ReserveDrawn { .. } => {}
        Event::TacticsDeclared { party, text } => {
            if let Some(p) = s.parties.get_mut(*party as usize) {
                p.tactics = Some(text.clone());
            }
        }
        Event::RoundStarted {
            number,
            kind,
            dominant,
            control,
        } => {
            s.phase = Phase::Bidding;
            s.dominant = *dominant;
            s.control = *control;
            s.tokens = if *kind == RoundKind::Unbalanced {
                s.table.rules.tokens_for(*control)
            } else {
                0
            }; // ND-9
            s.round = Round {
                number: *number,
                kind: *kind,
                turn: None,
                passes: 0,
                window: None,
                reacting: None,
                rejection: None,
                excuse: None,
                result: None,
            };
            s.round.turn = s.first_actor(*kind);
            for p in &mut s.parties {
                p.last_drawer = None;
                p.loss_this_round = None;
                p.tactics = None;
            }
        }
        Event::DeckReshuffled { cards } => {
            let cards = cards.intersection(s.discard);
            s.discard = s.discard.minus(cards);
            s.deck = s.deck.union(cards);
        }
        Event::CardPlaced {
            party,
            character,
            card,
            reversed,
            window,
            narrative,
        } => {
            s.deck.remove(*card);
            s.round.passes = 0;
            if let Some(p) = s.parties.get_mut(*party as usize) {
                p.bid_line.push(BidCard {
                    card: *card,
                    reversed: *reversed,
                    turned: false,
                    cover: false,
                    narrative: *narrative,
                    drawer: *character,
                });
                p.last_drawer = Some(*character);
            }
            if *window {
                s.round.window = Some(*party);
                s.round.reacting = crate::reactions::first(s, *party);
            } else {
                s.round.window = None;
                advance(s, *party);
            }
        }
        Event::ExcuseDrawn { party, character } => {
            s.deck.remove(crate::cards::EXCUSE);
            s.discard.insert(crate::cards::EXCUSE);
            s.round.excuse = Some(*party);
            s.round.passes = 0;
            if let Some(p) = s.parties.get_mut(*party as usize) {
                p.last_drawer = Some(*character);
            }
        }
        Event::RejectionClaimed { by, .. } => s.round.rejection = Some(*by),
        Event::LetStand {
            by, party, step, ..
        } => {
            let slot = Reacting {
                step: *step,
                party: *by,
            };
            s.round.reacting = crate::reactions::after(s, *party, slot);
        }
        Event::LeftStanding { party, then, .. } => match then {
            Some(next) => s.round.reacting = Some(*next),
            None => {
                s.round.window = None;
                s.round.reacting = None;
                advance(s, *party);
            }
        },
        Event::AutoPassSet { party, choice } => {
            if let Some(p) = s.parties.get_mut(*party as usize) {
                p.auto_pass = *choice;
            }
        }
        Event::CardRejected {
            party,
            card,
            spent,
            lasting,
            ..
        } => {
            s.round.rejection = None;
            s.round.reacting = None;
            s.discard.insert(*card);
            let Some(p) = s.parties.get_mut(*party as usize) else {
                return;
            };
            if let Some(at) = p.bid_line.iter().rposition(|b| b.card == *card) {
                p.bid_line.remove(at);
            }
            if *lasting {
                for c in p.lasting.iter_mut().flat_map(|l| l.cards.iter_mut()) {
                    if c.card == *spent {
                        c.face_up = false;
                    }
                }
            } else if let Some(at) = p.temporary.iter().position(|t| t.card == *spent) {
                p.temporary.remove(at);
                s.discard.insert(*spent);
            }
        }
        Event::CardTurned { party, reversed } => {
            s.tokens = s.tokens.saturating_sub(1);
            if let Some(b) = s
                .parties
                .get_mut(*party as usize)
                .and_then(|p| p.bid_line.last_mut())
            {
                b.reversed = *reversed;
                b.turned = true;
            }
            s.round.reacting = crate::reactions::first(s, *party);
        }
        Event::CardCovered {
            by,
            character,
            party,
            cover,
            reversed,
            covered,
            ..
        } => {
            if let Some(ch) = char_mut(s, *by, *character)
                && let Some(at) = ch.reserve.iter().position(|r| r.card == *cover)
            {
                ch.reserve.remove(at);
            }
            s.discard.insert(*covered);
            let Some(p) = s.parties.get_mut(*party as usize) else {
                return;
            };
            let Some(b) = p.bid_line.last_mut() else {
                return;
            };
            let drawer = b.drawer;
            *b = BidCard {
                card: *cover,
                reversed: *reversed,
                turned: false,
                cover: true,
                narrative: false,
                drawer,
            };
            if by != party {
                // D-12 / ND-30: the tally is charged to whoever drew the covered card.
                if let Some(ch) = p.characters.get_mut(drawer as usize) {
                    ch.tally = ch.tally.saturating_add(1);
                }
            }
        }
        Event::WindowClosed { party } => {
            s.round.window = None;
            s.round.reacting = None;
            advance(s, *party);
        }
        Event::Passed { party } => {
            s.round.passes = s.round.passes.saturating_add(1);
            advance(s, *party);
        }
        Event::WipedOut { party } => {
            let round = s.round.number;
            if let Some(p) = s.parties.get_mut(*party as usize) {
                p.status = Status::WipedOut { round };
            }
            if s.round.turn == Some(*party) {
                advance(s, *party);
            }
        }
        Event::BiddingEnded { .. } => {
            s.round.turn = None;
            s.round.window = None;
            s.round.reacting = None;
        }
        Event::ControlChanged { dominant, control } => {
            s.dominant = *dominant;
            s.control = *control;
        }
        Event::LossTaken {
            party,
            character,
            kind,
            cards,
        } => take_loss(s, *party, *character, *kind, cards),
        Event::LossCardsChosen { party, cards } => rechoose_loss(s, *party, cards),
        Event::RoundResolved {
            winners,
            losers,
            narration,
        } => {
            s.phase = Phase::Aftermath;
            s.round.result = Some(RoundResult {
                winners: winners.clone(),
                losers: losers.clone(),
                narration: narration.clone(),
            });
        }
        Event::Conceded {
            party,
            character,
            party_out,
        } => {
            let Some(p) = s.parties.get_mut(*party as usize) else {
                return;
            };
            if let Some(ch) = p.characters.get_mut(*character as usize) {
                ch.conceded = true;
            }
            if *party_out {
                p.status = Status::Conceded;
            }
        }
        Event::Reframed { weaknesses } => reframe(s, weaknesses),
        Event::CardsReturned => {
            s.deck = s.deck.union(s.discard);
            s.discard = crate::cards::CardSet::EMPTY;
            for p in &mut s.parties {
                for b in p.bid_line.drain(..) {
                    s.deck.insert(b.card);
                }
            }
        }
        Event::Resumed => {
            if let Some(phase) = s.resume.take() {
                s.phase = phase;
            }
        }
        Event::ConflictEnded { victor, reason } => {
            // ND-27: table cards return; Reserves and Lasting Losses stay.
            apply(s, &Event::CardsReturned);
            for p in &mut s.parties {
                for t in p.temporary.drain(..) {
                    s.deck.insert(t.card);
                }
            }
            s.phase = Phase::Ended;
            s.victor = *victor;
            s.ended = Some(*reason);
            s.round.turn = None;
            s.round.window = None;
            s.round.reacting = None;
            if *reason == EndReason::Reframed {
                s.dominant = None;
                s.control = 0;
            }
        }
    }
}

fn char_mut(
    s: &mut State,
    party: PartyId,
    character: CharId,
) -> Option<&mut crate::state::CharacterState> {
    s.parties
        .get_mut(party as usize)?
        .characters
        .get_mut(character as usize)
}

fn advance(s: &mut State, from: PartyId) {
    s.round.turn = s.next_actor(from);
}

fn take_loss(s: &mut State, party: PartyId, character: CharId, kind: LossKind, cards: &[Card]) {
    let Some(p) = s.parties.get_mut(party as usize) else {
        return;
    };
    p.loss_this_round = Some(kind);
    for card in cards {
        if let Some(at) = p.bid_line.iter().position(|b| b.card == *card) {
            p.bid_line.remove(at);
        }
    }
    match kind {
        LossKind::Temporary => {
            p.temporary.extend(cards.iter().map(|card| TemporaryLoss {
                card: *card,
                character,
            }));
        }
        LossKind::Lasting => {
            p.lasting_taken = p.lasting_taken.saturating_add(1);
            p.lasting.push(LastingLoss {
                cards: cards
                    .iter()
                    .map(|card| LossCard {
                        card: *card,
                        face_up: true,
                    })
                    .collect(),
                character,
                gravity: Gravity::of_kth(p.lasting_taken),
            });
        }
    }
}

/// ND-25: Temporary Losses discarded, Lasting ones become Weaknesses and their cards are
/// discarded, the gravity count restarts.
fn reframe(s: &mut State, weaknesses: &[NewWeakness]) {
    for p in &mut s.parties {
        for t in p.temporary.drain(..) {
            s.discard.insert(t.card);
        }
        for l in p.lasting.drain(..) {
            for c in l.cards {
                s.discard.insert(c.card);
            }
        }
        p.lasting_taken = 0;
    }
    for w in weaknesses {
        if let Some(ch) = char_mut(s, w.party, w.character) {
            ch.new_weaknesses.push(w.name.clone());
        }
    }
}

/// ND-21: put this round's Loss cards back in the bid line and mark the Loss with `cards`.
fn rechoose_loss(s: &mut State, party: PartyId, cards: &[Card]) {
    let Some(p) = s.parties.get_mut(party as usize) else {
        return;
    };
    let back = |card: Card, drawer: CharId| BidCard {
        card,
        reversed: true,
        turned: false,
        cover: false,
        narrative: false,
        drawer,
    };
    let (kind, character, gravity) = match p.loss_this_round {
        Some(LossKind::Temporary) => {
            let Some(t) = p.temporary.pop() else { return };
            p.bid_line.push(back(t.card, t.character));
            (LossKind::Temporary, t.character, None)
        }
        Some(LossKind::Lasting) => {
            let Some(l) = p.lasting.pop() else { return };
            p.bid_line
                .extend(l.cards.iter().map(|c| back(c.card, l.character)));
            (LossKind::Lasting, l.character, Some(l.gravity))
        }
        None => return,
    };
    for card in cards {
        if let Some(at) = p.bid_line.iter().position(|b| b.card == *card) {
            p.bid_line.remove(at);
        }
    }
    match (kind, gravity) {
        (LossKind::Lasting, Some(gravity)) => p.lasting.push(LastingLoss {
            cards: cards
                .iter()
                .map(|card| LossCard {
                    card: *card,
                    face_up: true,
                })
                .collect(),
            character,
            gravity,
        }),
        _ => p.temporary.extend(cards.iter().map(|card| TemporaryLoss {
            card: *card,
            character,
        })),
    }
}
