//! The table during a Conflict: parties, bid lines, Loss lines, Reserves, the deck, Control.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};
use crate::setup::Table;

/// A party's place in the seating order (D-21), from 0.
pub type PartyId = u8;
/// A character's place in its party's list, from 0.
pub type CharId = u8;

/// Where the Conflict stands.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before the first round: the NPC Reserves are not drawn yet (ND-10).
    Preparing,
    /// Cards are being drawn (ND-14, ND-15).
    Bidding,
    /// End of round, step 4: parties may concede or the GM may accept a Reframe (ND-22).
    Aftermath,
    /// The Conflict is over (ND-23, ND-25, ND-27).
    Ended,
}

/// ND-11: which kind of round is being played.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundKind {
    BalanceBreaker,
    Unbalanced,
}

/// D-4: the kinds of reaction to a placed card, in the order they are offered.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReactionStep {
    /// ND-19: another party rejects the card using one of the drawer's face-up Losses.
    Reject,
    /// ND-18: the Dominant pays a token to turn the card.
    Turn,
    /// ND-20: a party lays one of its own Reserve cards over the card.
    Cover,
}

impl ReactionStep {
    pub const ALL: [ReactionStep; 3] = [
        ReactionStep::Reject,
        ReactionStep::Turn,
        ReactionStep::Cover,
    ];

    /// The reaction in a player's words.
    pub fn verb(self) -> &'static str {
        match self {
            ReactionStep::Reject => "reject",
            ReactionStep::Turn => "turn",
            ReactionStep::Cover => "cover",
        }
    }
}

/// Which chances to react a party is asked about (D-4 for play at a distance, see
/// [`crate::reactions`]): a chance it is not asked about passes by itself.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Asking {
    /// Only when a reaction could spare one of the party's own cards: a reversed card it just
    /// placed, to cover with a Reserve card, or, as the Dominant with a token, to turn. What
    /// tables made since issue 38 start with.
    OwnCards,
    /// At every chance: reject, turn and cover any card (D-4 in full). What a setup that says
    /// nothing means, so tables made before keep replaying as they were played.
    #[default]
    Every,
}

impl Asking {
    pub fn is_every(&self) -> bool {
        *self == Asking::Every
    }
}

/// A party's standing choice of which chances to react pass by themselves (D-4 made lighter
/// for a long evening). It answers for the party exactly as `let_it_stand` would: the order of
/// chances and what each party may do are unchanged. Who gets a chance, and whether it is
/// about a reversed card of the party's own, follows from what is on the table for all to see
/// (a face-up Loss, a token, a Reserve's size, the card's orientation), so it shows nobody
/// anything hidden.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoPass {
    /// Every chance to reject passes: the party is asked only to turn or cover.
    #[serde(default)]
    pub rejections: bool,
    /// Every chance passes until round `round` ends ("no reactions this round").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u16>,
    /// Which chances the party is asked about at all.
    #[serde(default, skip_serializing_if = "Asking::is_every")]
    pub asking: Asking,
}

impl AutoPass {
    /// Whether this choice lets a chance to `step` pass by itself in round `round`; `saves` is
    /// whether the reaction could spare one of the party's own cards.
    pub fn passes(self, step: ReactionStep, round: u16, saves: bool) -> bool {
        self.round == Some(round)
            || (step == ReactionStep::Reject && self.rejections)
            || (self.asking == Asking::OwnCards && !saves)
    }

    fn is_off(&self) -> bool {
        *self == AutoPass::default()
    }
}

/// ND-12 / D-4: whose turn it is to react to the card in the window, and with what.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reacting {
    pub step: ReactionStep,
    pub party: PartyId,
}

/// The current round.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub number: u16,
    pub kind: RoundKind,
    /// Whose bid (or draw) it is; `None` once bidding is over.
    pub turn: Option<PartyId>,
    /// Consecutive passes since the last bid (D-6).
    pub passes: u8,
    /// The party whose just-placed card awaits reactions (ND-12).
    pub window: Option<PartyId>,
    /// D-4: while the window is open, the party whose turn it is to react (or let it stand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reacting: Option<Reacting>,
    /// D-14: the party that rejected the card in the window while the drawer chooses which
    /// face-up Loss card pays for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejection: Option<PartyId>,
    /// Who drew the Excuse this round, if anyone did (ND-14, ND-16a).
    pub excuse: Option<PartyId>,
    /// Winners, losers and narration order once the round is resolved (D-10).
    pub result: Option<RoundResult>,
}

/// How a round came out (D-10) and who narrates in which order (ND-22 step 2).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    pub winners: Vec<PartyId>,
    pub losers: Vec<PartyId>,
    pub narration: Vec<PartyId>,
}

/// Whether a party is still in the Conflict.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    InPlay,
    /// ND-16b, in round `round`.
    WipedOut {
        round: u16,
    },
    /// ND-24.
    Conceded,
}

/// A card in a bid line.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidCard {
    pub card: Card,
    pub reversed: bool,
    /// Turned with a Control token (ND-18): at most once.
    #[serde(default)]
    pub turned: bool,
    /// A Reserve card laid over a placed card (ND-20): never turned or rejected.
    #[serde(default)]
    pub cover: bool,
    /// Drawn after the Excuse, for narration (ND-16a).
    #[serde(default)]
    pub narrative: bool,
    /// The character who drew the card this one stands for (ND-28, ND-30).
    pub drawer: CharId,
}

/// A Reserve card: kept with the orientation it was drawn with (D-11).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReserveCard {
    pub card: Card,
    pub reversed: bool,
}

/// A Temporary Loss: one card on the Temporary line (ND-21).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemporaryLoss {
    pub card: Card,
    pub character: CharId,
}

/// A card of a Lasting Loss; a face-down one cannot be used again (ND-19).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LossCard {
    pub card: Card,
    pub face_up: bool,
}

/// ND-21 gravity of a party's k-th Lasting Loss in this Conflict (D-15: five levels).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gravity {
    Trivial,
    FairlyEasy,
    Hard,
    VeryHard,
    Permanent,
}

impl Gravity {
    pub fn of_kth(k: u8) -> Gravity {
        match k {
            0 | 1 => Gravity::Trivial,
            2 => Gravity::FairlyEasy,
            3 => Gravity::Hard,
            4 => Gravity::VeryHard,
            _ => Gravity::Permanent,
        }
    }
}

/// A Lasting Loss: three cards on the Lasting line (ND-21).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastingLoss {
    pub cards: Vec<LossCard>,
    pub character: CharId,
    pub gravity: Gravity,
}

/// One character's changing state.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterState {
    pub reserve: Vec<ReserveCard>,
    /// Times an opponent covered a card this character drew (D-12, ND-30).
    pub tally: u8,
    pub conceded: bool,
    /// Weaknesses gained when a Reframe turned Lasting Losses into Weaknesses (ND-25).
    #[serde(default)]
    pub new_weaknesses: Vec<String>,
    /// Reserve cards held that the setup could not name, still to be dealt at `start`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unseen: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// One party's changing state.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartyState {
    #[serde(flatten)]
    pub status: Status,
    pub bid_line: Vec<BidCard>,
    pub temporary: Vec<TemporaryLoss>,
    pub lasting: Vec<LastingLoss>,
    /// Lasting Losses taken in this Conflict, for gravity (D-15).
    pub lasting_taken: u8,
    pub characters: Vec<CharacterState>,
    /// Who drew the party's last card this round (ND-29).
    pub last_drawer: Option<CharId>,
    /// The Loss taken at the end of this round, while its cards may still be re-chosen (ND-21).
    #[serde(default)]
    pub loss_this_round: Option<crate::command::LossKind>,
    /// ND-11: the tactics the party declared this round (narrative only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tactics: Option<String>,
    /// Which chances to react pass by themselves ([`AutoPass`]).
    #[serde(default, skip_serializing_if = "AutoPass::is_off")]
    pub auto_pass: AutoPass,
}

impl PartyState {
    pub fn in_play(&self) -> bool {
        self.status == Status::InPlay
    }

    /// ND-13: reversed cards currently in the bid line.
    pub fn reversed_count(&self) -> u8 {
        self.bid_line.iter().filter(|c| c.reversed).count() as u8
    }

    /// ND-19: a face-up Loss card another party could use.
    pub fn has_face_up_loss(&self) -> bool {
        self.spendable_losses().next().is_some()
    }

    /// ND-19: the face-up Loss cards a rejection may spend, with `true` for a Lasting one:
    /// Temporary cards first, then Lasting ones, each oldest first (the D-14 default order).
    pub fn spendable_losses(&self) -> impl Iterator<Item = (Card, bool)> + '_ {
        let temporary = self.temporary.iter().map(|t| (t.card, false));
        let lasting = self
            .lasting
            .iter()
            .flat_map(|l| l.cards.iter())
            .filter(|c| c.face_up)
            .map(|c| (c.card, true));
        temporary.chain(lasting)
    }

    /// Cards on the table in front of this party: bid line and both Loss lines.
    pub fn cards_on_table(&self) -> CardSet {
        let mut s: CardSet = self.bid_line.iter().map(|b| b.card).collect();
        s = s.union(self.temporary.iter().map(|t| t.card).collect());
        for l in &self.lasting {
            s = s.union(l.cards.iter().map(|c| c.card).collect());
        }
        s
    }

    pub fn reserve_cards(&self) -> usize {
        self.characters.iter().map(|c| c.reserve.len()).sum()
    }
}

/// Why the Conflict ended.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// At most one party is left (ND-23, D-16, D-20).
    LastPartyStanding,
    /// ND-25.
    Reframed,
    /// A variant's Control that wins (D-16 changed): the Dominant ended a round holding it.
    ControlVictory,
}

/// The whole Conflict. Holds hidden information (the deck, every Reserve): show players a
/// [`crate::view::View`] instead.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The parties' sheets, fixed at setup (ND-5, ND-6).
    pub table: Arc<Table>,
    pub phase: Phase,
    pub round: Round,
    /// The Dominant party (ND-7, §1); `None` when Balanced.
    pub dominant: Option<PartyId>,
    pub control: u8,
    /// Control tokens left this round (ND-9).
    pub tokens: u8,
    /// Cards in the deck: drawn uniformly at draw time, so no order exists (ND-4).
    pub deck: CardSet,
    /// This round's discards: rejected and covered cards, the Excuse, spent Temporary Losses.
    pub discard: CardSet,
    pub parties: Vec<PartyState>,
    /// The last party left, once the Conflict is over (ND-23).
    pub victor: Option<PartyId>,
    pub ended: Option<EndReason>,
    /// A position whose writer could not see some Reserve cards waits in `Preparing` until the
    /// GM's `start` deals them; play then resumes in this phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Phase>,
}

impl State {
    pub fn party(&self, p: PartyId) -> Option<&PartyState> {
        self.parties.get(p as usize)
    }

    pub fn in_play(&self) -> impl Iterator<Item = PartyId> + '_ {
        self.parties
            .iter()
            .enumerate()
            .filter(|(_, p)| p.in_play())
            .map(|(i, _)| i as PartyId)
    }

    pub fn in_play_count(&self) -> usize {
        self.parties.iter().filter(|p| p.in_play()).count()
    }

    /// ND-15 / D-21: Contenders in seating order, then the Dominant.
    fn acting_order(&self) -> impl Iterator<Item = PartyId> + '_ {
        let d = self.dominant;
        let n = self.parties.len() as PartyId;
        let contenders = (0..n).filter(move |i| Some(*i) != d);
        let dominant = d.into_iter();
        contenders.chain(dominant)
    }

    /// The first party to act in a fresh round.
    pub fn first_actor(&self, kind: RoundKind) -> Option<PartyId> {
        match kind {
            RoundKind::BalanceBreaker => self.in_play().next(),
            RoundKind::Unbalanced => self
                .acting_order()
                .find(|p| self.parties[*p as usize].in_play()),
        }
    }

    /// Who acts after `from`: in a Balance Breaker the next party in seating order that has
    /// not drawn yet (none after the last), in an Unbalanced round the next party in play in
    /// the repeating order of ND-15.
    pub fn next_actor(&self, from: PartyId) -> Option<PartyId> {
        match self.round.kind {
            RoundKind::BalanceBreaker => ((from + 1)..self.parties.len() as PartyId)
                .find(|p| self.parties[*p as usize].in_play()),
            RoundKind::Unbalanced => {
                let n = self.parties.len();
                let at = self.order_position(from);
                (1..=n)
                    .map(|k| self.order_at((at + k) % n))
                    .find(|p| self.parties[*p as usize].in_play())
            }
        }
    }

    /// Position of `p` in the ND-15 order (Contenders in seating order, then the Dominant).
    fn order_position(&self, p: PartyId) -> usize {
        match self.dominant {
            Some(d) if p == d => self.parties.len() - 1,
            Some(d) if p > d => p as usize - 1,
            _ => p as usize,
        }
    }

    /// The party at position `k` of the ND-15 order.
    fn order_at(&self, k: usize) -> PartyId {
        match self.dominant {
            Some(d) if k + 1 == self.parties.len() => d,
            Some(d) if k >= d as usize => (k + 1) as PartyId,
            _ => k as PartyId,
        }
    }

    /// Every card location, for the conservation invariant (ND-1, ND-4).
    pub fn card_count(&self) -> usize {
        let on_table: usize = self
            .parties
            .iter()
            .map(|p| {
                p.bid_line.len()
                    + p.temporary.len()
                    + p.lasting.iter().map(|l| l.cards.len()).sum::<usize>()
                    + p.reserve_cards()
            })
            .sum();
        self.deck.len() + self.discard.len() + on_table
    }

    /// Every card somewhere, as a set (duplicates would shrink it below [`State::card_count`]).
    pub fn all_cards(&self) -> CardSet {
        let mut s = self.deck.union(self.discard);
        for p in &self.parties {
            s = s.union(p.cards_on_table());
            for ch in &p.characters {
                s = s.union(ch.reserve.iter().map(|r| r.card).collect());
            }
        }
        s
    }
}

/// `Clone` by hand so that `clone_from` reuses every buffer: deciding a command that chains
/// several steps copies the state into a recycled scratch state without allocating.
macro_rules! clone_fields {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                $t { $($f: self.$f.clone()),* }
            }
            fn clone_from(&mut self, o: &Self) {
                $(self.$f.clone_from(&o.$f);)*
            }
        }
    };
}

clone_fields!(Round {
    number,
    kind,
    turn,
    passes,
    window,
    reacting,
    rejection,
    excuse,
    result
});
clone_fields!(RoundResult {
    winners,
    losers,
    narration
});
clone_fields!(LastingLoss {
    cards,
    character,
    gravity
});
clone_fields!(CharacterState {
    reserve,
    tally,
    conceded,
    new_weaknesses,
    unseen
});
clone_fields!(PartyState {
    status,
    bid_line,
    temporary,
    lasting,
    lasting_taken,
    characters,
    last_drawer,
    loss_this_round,
    tactics,
    auto_pass
});
clone_fields!(State {
    table,
    phase,
    round,
    dominant,
    control,
    tokens,
    deck,
    discard,
    parties,
    victor,
    ended,
    resume
});
