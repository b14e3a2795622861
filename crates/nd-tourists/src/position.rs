//! Positions: a Conflict already under way, written as a setup (issue 18), so that a table or
//! a scenario can start in the middle of play.
//!
//! A position is an ordinary [`Setup`] with a `position` block. The sheets and the Reserves
//! stay where a setup keeps them (each character's `reserve`); the block says everything
//! else on the table: the round, Control and tokens, whose turn it is, the card awaiting
//! reactions and who is to react (D-4), each party's bid and Loss lines, standing and tallies,
//! and this round's discards. Every card not named anywhere is in the deck; the order of the
//! deck is never part of a position (it is drawn fresh, ND-4).
//!
//! # Hidden cards
//!
//! Reserves are hidden from everyone but their owner. [`export`] writes, for one viewer, the
//! Reserves that viewer may see and, for every other character, only how many cards it holds
//! (`reserve_unseen`). A position with unseen cards starts waiting for the GM's `start`,
//! which deals that many cards fresh from the deck and resumes play: the viewer's view of the
//! new table is the view it had of the old one. A position with every Reserve named starts
//! exactly where it stands, with no `start` needed.
//!
//! A Conflict that is over has no position (start a new Conflict instead), and neither does a
//! table before its `start` other than as its plain setup.

use std::collections::HashMap;

use clash_core::{RuleError, Seat, Viewer};
use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardSet};
use crate::command::LossKind;
use crate::setup::{CharacterSetup, PartySetup, ReserveSpec, Setup};
use crate::state::{
    BidCard, CharId, Gravity, LastingLoss, LossCard, PartyId, Phase, Reacting, ReactionStep,
    RoundKind, RoundResult, State, Status, TemporaryLoss,
};

/// Where a resumed Conflict stands: bidding, or the end of a round (ND-22 step 4).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionPhase {
    Bidding,
    Aftermath,
}

/// Everything on the table besides the sheets and Reserves. Parties and characters are named.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// The round under way (from 1).
    pub round: u16,
    pub kind: RoundKind,
    pub phase: PositionPhase,
    /// The Dominant, or none when Balanced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dominant: Option<String>,
    #[serde(default)]
    pub control: u8,
    /// Control tokens left this round (ND-9).
    #[serde(default)]
    pub tokens: u8,
    /// Whose bid it is (while bidding).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// Consecutive passes since the last bid (D-6).
    #[serde(default)]
    pub passes: u8,
    /// The party whose last placed card awaits reactions (ND-12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
    /// D-4: who is to react to that card now, and how.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reacting: Option<ReactingSpec>,
    /// D-14: the party whose rejection waits for the drawer to choose a Loss card to spend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejection: Option<String>,
    /// Who drew the Excuse this round (ND-14, ND-16a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excuse: Option<String>,
    /// At the end of a round: who won, who lost, who narrates when (D-10, ND-22).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultSpec>,
    /// This round's discards (ND-4).
    #[serde(default)]
    pub discard: Vec<Card>,
    /// One entry per party, in seating order.
    pub parties: Vec<PartyPosition>,
}

/// D-4: a party to react, and the kind of reaction it is asked for.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactingSpec {
    pub step: ReactionStep,
    pub party: String,
}

/// How a round came out, by party names.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultSpec {
    #[serde(default)]
    pub winners: Vec<String>,
    #[serde(default)]
    pub losers: Vec<String>,
    #[serde(default)]
    pub narration: Vec<String>,
}

/// Whether a party is still in the Conflict: `"in_play"`, `"conceded"` or
/// `{"wiped_out": {"round": 2}}`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StatusSpec {
    #[default]
    InPlay,
    Conceded,
    WipedOut {
        round: u16,
    },
}

/// One party's place on the table.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartyPosition {
    pub name: String,
    #[serde(default)]
    pub status: StatusSpec,
    #[serde(default)]
    pub bid_line: Vec<BidCardSpec>,
    #[serde(default)]
    pub temporary: Vec<TemporarySpec>,
    #[serde(default)]
    pub lasting: Vec<LastingSpec>,
    /// Who drew the party's last card this round (ND-29).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_drawer: Option<String>,
    /// The Loss taken at the end of this round, while its cards may be re-chosen (ND-21).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_this_round: Option<LossKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tactics: Option<String>,
    /// Tallies and concessions, per character (omitted ones: none).
    #[serde(default)]
    pub characters: Vec<CharacterPosition>,
}

/// A card in a bid line. `drawer` names the character it was drawn for (default: the first).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BidCardSpec {
    pub card: Card,
    #[serde(default)]
    pub reversed: bool,
    #[serde(default)]
    pub turned: bool,
    #[serde(default)]
    pub cover: bool,
    #[serde(default)]
    pub narrative: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawer: Option<String>,
}

/// A Temporary Loss card and the character who bears it (default: the first).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemporarySpec {
    pub card: Card,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<String>,
}

/// A Lasting Loss: its three cards (face up unless said otherwise) and who bears it. Its
/// gravity follows from its place among the party's Lasting Losses (ND-21, D-15).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LastingSpec {
    pub cards: Vec<LossCardSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<String>,
}

/// A Lasting Loss card; a face-down one has been used (ND-19).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LossCardSpec {
    pub card: Card,
    #[serde(default = "yes")]
    pub face_up: bool,
}

fn yes() -> bool {
    true
}

/// A character's tally of covers by opponents (D-12) and whether it conceded (ND-31).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterPosition {
    pub name: String,
    #[serde(default)]
    pub tally: u8,
    #[serde(default)]
    pub conceded: bool,
}

fn bad(rule: &'static str, why: impl Into<String>) -> RuleError {
    RuleError::setup(rule, why)
}

/// Party and character names, as the table knows them.
struct Names<'a> {
    st: &'a State,
}

impl Names<'_> {
    fn party(&self, name: &str) -> Result<PartyId, RuleError> {
        self.st.table.find_party(name).ok_or_else(|| {
            bad(
                "ND-5",
                format!("the position names {name}, who has no sheet"),
            )
        })
    }

    fn character(&self, p: PartyId, name: &Option<String>) -> Result<CharId, RuleError> {
        let sheet = &self.st.table.parties[p as usize];
        match name {
            None => Ok(0),
            Some(n) => sheet
                .characters
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(n))
                .map(|k| k as CharId)
                .ok_or_else(|| {
                    bad(
                        "ND-28",
                        format!("{} has no character called {n}", sheet.name),
                    )
                }),
        }
    }

    fn party_opt(&self, name: &Option<String>) -> Result<Option<PartyId>, RuleError> {
        name.as_deref().map(|n| self.party(n)).transpose()
    }

    fn parties(&self, names: &[String]) -> Result<Vec<PartyId>, RuleError> {
        names.iter().map(|n| self.party(n)).collect()
    }
}

/// Put `state` (freshly built from the sheets and Reserves) where `pos` says, checking the
/// position against the rules.
pub fn resume(state: &mut State, pos: &Position) -> Result<(), RuleError> {
    if pos.parties.len() != state.parties.len() {
        return Err(bad(
            "ND-5",
            "the position lists each party at the table once, in seating order",
        ));
    }
    place_round(state, pos)?;
    place_parties(state, pos)?;
    account_for_cards(state, pos)?;
    check_round(state)?;
    check_window(state)?;
    let unseen = state
        .parties
        .iter()
        .any(|p| p.characters.iter().any(|c| c.unseen > 0));
    if unseen {
        // Play waits for the GM's `start` to deal the unseen Reserve cards.
        state.resume = Some(state.phase);
        state.phase = Phase::Preparing;
    }
    Ok(())
}

fn place_parties(state: &mut State, pos: &Position) -> Result<(), RuleError> {
    for (i, pp) in pos.parties.iter().enumerate() {
        let sheet_name = state.table.parties[i].name.clone();
        if !pp.name.eq_ignore_ascii_case(&sheet_name) {
            return Err(bad(
                "ND-5",
                format!(
                    "the position lists {} where the seating order has {sheet_name}",
                    pp.name
                ),
            ));
        }
        let p = i as PartyId;
        let names = Names { st: state };
        let bid_line = pp
            .bid_line
            .iter()
            .map(|b| {
                Ok(BidCard {
                    card: b.card,
                    reversed: b.reversed,
                    turned: b.turned,
                    cover: b.cover,
                    narrative: b.narrative,
                    drawer: names.character(p, &b.drawer)?,
                })
            })
            .collect::<Result<Vec<_>, RuleError>>()?;
        let temporary = pp
            .temporary
            .iter()
            .map(|t| {
                Ok(TemporaryLoss {
                    card: t.card,
                    character: names.character(p, &t.character)?,
                })
            })
            .collect::<Result<Vec<_>, RuleError>>()?;
        let mut lasting = Vec::new();
        for (k, l) in pp.lasting.iter().enumerate() {
            if l.cards.len() != 3 {
                return Err(bad(
                    "ND-21",
                    format!(
                        "a Lasting Loss of {sheet_name} has 3 cards, not {}",
                        l.cards.len()
                    ),
                ));
            }
            lasting.push(LastingLoss {
                cards: l
                    .cards
                    .iter()
                    .map(|c| LossCard {
                        card: c.card,
                        face_up: c.face_up,
                    })
                    .collect(),
                character: names.character(p, &l.character)?,
                gravity: Gravity::of_kth((k + 1).min(255) as u8),
            });
        }
        let last_drawer = pp
            .last_drawer
            .as_ref()
            .map(|n| names.character(p, &Some(n.clone())))
            .transpose()?;
        let mut tallies = Vec::new();
        for c in &pp.characters {
            let k = names.character(p, &Some(c.name.clone()))?;
            tallies.push((k, c.tally, c.conceded));
        }
        if let Some(t) = &pp.tactics {
            crate::limits::TABLE.setup_text("tactics", t)?;
        }
        let status = match pp.status {
            StatusSpec::InPlay => Status::InPlay,
            StatusSpec::Conceded => Status::Conceded,
            StatusSpec::WipedOut { round } => Status::WipedOut { round },
        };
        let party = &mut state.parties[i];
        party.status = status;
        party.lasting_taken = lasting.len().min(255) as u8;
        party.bid_line = bid_line;
        party.temporary = temporary;
        party.lasting = lasting;
        party.last_drawer = last_drawer;
        party.loss_this_round = pp.loss_this_round;
        party.tactics = pp.tactics.clone();
        for (k, tally, conceded) in tallies {
            let c = &mut party.characters[k as usize];
            c.tally = tally;
            c.conceded = conceded;
        }
        check_party(state, p)?;
    }
    Ok(())
}

/// ND-31, ND-16b, ND-21, D-5: a party's standing agrees with its cards.
fn check_party(state: &State, p: PartyId) -> Result<(), RuleError> {
    let party = &state.parties[p as usize];
    let name = &state.table.parties[p as usize].name;
    let all_conceded = party.characters.iter().all(|c| c.conceded);
    match party.status {
        Status::Conceded if !all_conceded => Err(bad(
            "ND-31",
            format!("{name} conceded, so every one of its characters did"),
        )),
        Status::InPlay if all_conceded => Err(bad(
            "ND-31",
            format!("every character of {name} conceded, so the party did"),
        )),
        Status::WipedOut { round } if round == 0 || round > state.round.number => Err(bad(
            "ND-16",
            format!("{name} was Wiped Out in a round that has not been played"),
        )),
        _ => match party.loss_this_round {
            Some(LossKind::Temporary) if party.temporary.is_empty() => Err(bad(
                "ND-21",
                format!("{name} took a Temporary Loss this round but shows none"),
            )),
            Some(LossKind::Lasting) if party.lasting.is_empty() => Err(bad(
                "ND-21",
                format!("{name} took a Lasting Loss this round but shows none"),
            )),
            _ => Ok(()),
        },
    }
}

fn place_round(state: &mut State, pos: &Position) -> Result<(), RuleError> {
    if pos.round == 0 {
        return Err(bad("ND-22", "rounds are numbered from 1"));
    }
    let names = Names { st: state };
    let dominant = names.party_opt(&pos.dominant)?;
    let turn = names.party_opt(&pos.turn)?;
    let window = names.party_opt(&pos.window)?;
    let rejection = names.party_opt(&pos.rejection)?;
    let excuse = names.party_opt(&pos.excuse)?;
    let reacting = match &pos.reacting {
        Some(r) => Some(Reacting {
            step: r.step,
            party: names.party(&r.party)?,
        }),
        None => None,
    };
    let result = match &pos.result {
        Some(r) => Some(RoundResult {
            winners: names.parties(&r.winners)?,
            losers: names.parties(&r.losers)?,
            narration: names.parties(&r.narration)?,
        }),
        None => None,
    };
    state.dominant = dominant;
    state.control = pos.control;
    state.tokens = pos.tokens;
    let round = &mut state.round;
    round.number = pos.round;
    round.kind = pos.kind;
    round.turn = turn;
    round.passes = pos.passes;
    round.window = window;
    round.reacting = reacting;
    round.rejection = rejection;
    round.excuse = excuse;
    round.result = result;
    state.phase = match pos.phase {
        PositionPhase::Bidding => Phase::Bidding,
        PositionPhase::Aftermath => Phase::Aftermath,
    };
    Ok(())
}

/// ND-1, ND-4, D-1, D-8: every card is in one place at most, and the deck holds the rest.
fn account_for_cards(state: &mut State, pos: &Position) -> Result<(), RuleError> {
    let full = state.table.rules.deck(state.table.blanks);
    let mut seen: HashMap<Card, String> = HashMap::new();
    let mut put = |card: Card, place: String| -> Result<(), RuleError> {
        if !full.contains(card) {
            return Err(bad(
                "D-1",
                format!(
                    "{card} is not in this deck (the suit blanks are out unless \"blanks\" is on)"
                ),
            ));
        }
        if let Some(before) = seen.insert(card, place.clone()) {
            return Err(bad(
                "ND-1",
                format!("{card} cannot be in two places: {before} and {place}"),
            ));
        }
        Ok(())
    };
    for (sheet, party) in state.table.parties.iter().zip(&state.parties) {
        let n = &sheet.name;
        for c in &party.characters {
            for r in &c.reserve {
                put(r.card, format!("a Reserve of {n}"))?;
            }
        }
        for b in &party.bid_line {
            if b.card.is_excuse() {
                return Err(bad(
                    "D-8",
                    "the Excuse never stays in a bid line: it is discarded at once",
                ));
            }
            put(b.card, format!("{n}'s bid line"))?;
        }
        for t in &party.temporary {
            put(t.card, format!("{n}'s Temporary Losses"))?;
        }
        for l in &party.lasting {
            for c in &l.cards {
                put(c.card, format!("{n}'s Lasting Losses"))?;
            }
        }
        if party.temporary.iter().any(|t| t.card.is_excuse())
            || party
                .lasting
                .iter()
                .flat_map(|l| &l.cards)
                .any(|c| c.card.is_excuse())
        {
            return Err(bad("D-8", "the Excuse never marks a Loss"));
        }
    }
    for card in &pos.discard {
        put(*card, "the discards".to_string())?;
    }
    let placed: CardSet = seen.keys().copied().collect();
    state.discard = pos.discard.iter().copied().collect();
    state.deck = full.minus(placed);
    Ok(())
}

/// ND-7, ND-9, ND-11, ND-14, ND-15, D-6, ND-22: Control, tokens, the round kind and the turn.
fn check_round(st: &State) -> Result<(), RuleError> {
    let in_play = |p: PartyId| st.party(p).is_some_and(|x| x.in_play());
    let name = |p: PartyId| st.table.parties[p as usize].name.as_str();
    match st.dominant {
        Some(d) if st.control == 0 => {
            return Err(bad(
                "ND-7",
                format!("{} cannot be Dominant with Control 0", name(d)),
            ));
        }
        None if st.control > 0 => {
            return Err(bad("ND-7", "Control above 0 is held by a Dominant party"));
        }
        Some(d) if !in_play(d) => {
            return Err(bad(
                "D-9",
                format!(
                    "{} left the Conflict, so it no longer holds Control",
                    name(d)
                ),
            ));
        }
        _ => {}
    }
    let bidding = st.phase == Phase::Bidding;
    // Unspent tokens only matter while bidding: they expire when the round ends (ND-9).
    if bidding && st.tokens > st.table.rules.tokens_for(st.control) {
        return Err(bad(
            "ND-9",
            "the Dominant starts a round with as many tokens as its Control gives, and never gains more",
        ));
    }
    if bidding && st.round.kind == RoundKind::BalanceBreaker && st.tokens > 0 {
        return Err(bad("ND-14", "no Control tokens exist in a Balance Breaker"));
    }
    if bidding && (st.round.kind == RoundKind::BalanceBreaker) != (st.control == 0) {
        return Err(bad(
            "ND-11",
            "while bidding, the round is a Balance Breaker exactly when Control is 0",
        ));
    }
    if bidding {
        check_bidding(st)
    } else {
        check_aftermath(st)
    }
}

fn check_bidding(st: &State) -> Result<(), RuleError> {
    let r = &st.round;
    let turn = r
        .turn
        .filter(|t| st.party(*t).is_some_and(|p| p.in_play()))
        .ok_or_else(|| {
            bad(
                "ND-15",
                "while bidding, it is the turn of a party still in play",
            )
        })?;
    if r.result.is_some() || st.parties.iter().any(|p| p.loss_this_round.is_some()) {
        return Err(bad(
            "ND-22",
            "Losses and winners are settled only when bidding ends",
        ));
    }
    if r.kind == RoundKind::Unbalanced && r.passes as usize >= st.in_play_count() {
        return Err(bad(
            "D-6",
            "as many passes in a row as parties in play end the bidding",
        ));
    }
    if r.kind == RoundKind::Unbalanced && r.excuse.is_some() {
        return Err(bad("ND-16", "the Excuse ends an Unbalanced round at once"));
    }
    for (i, p) in st.parties.iter().enumerate() {
        let name = &st.table.parties[i].name;
        let took_part = p.in_play() || p.status == (Status::WipedOut { round: r.number });
        if !took_part && !p.bid_line.is_empty() {
            return Err(bad(
                "ND-4",
                format!("{name} is out of the Conflict, so its bid line went back into the deck"),
            ));
        }
        if r.kind == RoundKind::BalanceBreaker {
            let drawn_before = (i as PartyId) < turn;
            if p.bid_line.len() > 1
                || (!drawn_before && i as PartyId != turn && !p.bid_line.is_empty())
            {
                return Err(bad(
                    "ND-14",
                    format!(
                        "in a Balance Breaker each party draws one card in seating order ({name})"
                    ),
                ));
            }
        }
        let awaiting = r.window == Some(i as PartyId);
        if p.in_play() && p.reversed_count() >= st.table.rules.wipe_out && !awaiting {
            return Err(bad(
                "ND-16",
                format!(
                    "{name} shows {} reversed cards and would be Wiped Out",
                    p.reversed_count()
                ),
            ));
        }
    }
    Ok(())
}

fn check_aftermath(st: &State) -> Result<(), RuleError> {
    let r = &st.round;
    if r.turn.is_some() || r.window.is_some() {
        return Err(bad("ND-22", "at the end of a round nobody bids or reacts"));
    }
    if r.result.is_none() {
        return Err(bad(
            "ND-22",
            "the end of a round says who won, who lost and who narrates (\"result\")",
        ));
    }
    if let Some(p) = st
        .parties
        .iter()
        .position(|p| p.in_play() && p.reversed_count() >= st.table.rules.wipe_out)
    {
        return Err(bad(
            "ND-21",
            format!(
                "{} shows 5 reversed cards and would be Wiped Out",
                st.table.parties[p].name
            ),
        ));
    }
    Ok(())
}

/// ND-12, D-4, D-14: a card awaiting reactions, whose turn it is to react, a rejection waiting.
fn check_window(st: &State) -> Result<(), RuleError> {
    let r = &st.round;
    let Some(drawer) = r.window else {
        if r.reacting.is_some() || r.rejection.is_some() {
            return Err(bad(
                "ND-12",
                "only a card awaiting reactions can be reacted to",
            ));
        }
        return Ok(());
    };
    let name = |p: PartyId| st.table.parties[p as usize].name.as_str();
    let card = st
        .party(drawer)
        .filter(|p| p.in_play())
        .and_then(|p| p.bid_line.last())
        .ok_or_else(|| {
            bad(
                "ND-12",
                format!("{} has no card awaiting reactions", name(drawer)),
            )
        })?;
    if card.narrative || card.cover {
        return Err(bad(
            "ND-12",
            "a narrative card or a cover is never reacted to",
        ));
    }
    let now = r.reacting.ok_or_else(|| {
        bad(
            "D-4",
            "a card awaiting reactions names who is to react (\"reacting\")",
        )
    })?;
    let slot_open = crate::reactions::first(st, drawer).is_some_and(|first| {
        first == now
            || std::iter::successors(Some(first), |s| crate::reactions::after(st, drawer, *s))
                .any(|s| s == now)
    });
    if !slot_open {
        return Err(bad(
            "D-4",
            format!(
                "{} cannot {} {}'s {} now",
                name(now.party),
                now.step.verb(),
                name(drawer),
                card.card
            ),
        ));
    }
    if let Some(by) = r.rejection {
        let face_up = st.parties[drawer as usize].spendable_losses().count();
        if now.step != ReactionStep::Reject || now.party != by || face_up < 2 {
            return Err(bad(
                "D-14",
                "a rejection waits for the drawer's choice only when the rejecting party is the one to react and the drawer shows several face-up Loss cards",
            ));
        }
    }
    Ok(())
}

/// The position of `state` as `viewer` may know it: Reserves the viewer cannot see are left
/// out and counted as `reserve_unseen`. `None` once the Conflict is over.
pub fn export(state: &State, viewer: Viewer) -> Option<Setup> {
    export_with(state, |seat| viewer.is(seat))
}

/// The whole position, every Reserve named: what a table holds, for tests and tools that may
/// see everything.
pub fn export_all(state: &State) -> Option<Setup> {
    export_with(state, |_| true)
}

fn export_with(state: &State, sees: impl Fn(Seat) -> bool) -> Option<Setup> {
    let started = match state.phase {
        Phase::Ended => return None,
        Phase::Preparing => state.resume.is_some(),
        Phase::Bidding | Phase::Aftermath => true,
    };
    let parties = state
        .table
        .parties
        .iter()
        .zip(&state.parties)
        .map(|(sheet, party)| {
            let visible = sees(sheet.seat);
            PartySetup {
                name: sheet.name.clone(),
                seat: sheet.seat,
                goal: sheet.goal.clone(),
                reserve_draws: sheet.npc.then_some(sheet.reserve_draws),
                characters: sheet
                    .characters
                    .iter()
                    .zip(&party.characters)
                    .map(|(cs, c)| CharacterSetup {
                        name: cs.name.clone(),
                        attribute: cs.attribute.clone(),
                        aspects: cs.aspects.clone(),
                        weaknesses: cs.weaknesses.clone(),
                        reserve_size: Some(cs.reserve_size),
                        reserve: if visible {
                            c.reserve
                                .iter()
                                .map(|r| ReserveSpec::Oriented {
                                    card: r.card,
                                    reversed: r.reversed,
                                })
                                .collect()
                        } else {
                            Vec::new()
                        },
                        reserve_unseen: c.unseen.saturating_add(if visible {
                            0
                        } else {
                            c.reserve.len() as u8
                        }),
                    })
                    .collect(),
            }
        })
        .collect();
    Some(Setup {
        parties,
        blanks: state.table.blanks,
        position: started.then(|| table_position(state)),
        reactions: state.table.reactions,
        variant: state.table.variant.clone(),
    })
}

fn table_position(st: &State) -> Position {
    let name = |p: PartyId| st.table.parties[p as usize].name.clone();
    let char_name = |p: PartyId, k: CharId| {
        st.table.parties[p as usize]
            .characters
            .get(k as usize)
            .map(|c| c.name.clone())
    };
    let r = &st.round;
    let phase = match st.resume.unwrap_or(st.phase) {
        Phase::Aftermath => PositionPhase::Aftermath,
        _ => PositionPhase::Bidding,
    };
    Position {
        round: r.number,
        kind: r.kind,
        phase,
        dominant: st.dominant.map(name),
        control: st.control,
        tokens: st.tokens,
        turn: r.turn.map(name),
        passes: r.passes,
        window: r.window.map(name),
        reacting: r.reacting.map(|x| ReactingSpec {
            step: x.step,
            party: name(x.party),
        }),
        rejection: r.rejection.map(name),
        excuse: r.excuse.map(name),
        result: r.result.as_ref().map(|x| ResultSpec {
            winners: x.winners.iter().map(|p| name(*p)).collect(),
            losers: x.losers.iter().map(|p| name(*p)).collect(),
            narration: x.narration.iter().map(|p| name(*p)).collect(),
        }),
        discard: st.discard.iter().collect(),
        parties: st
            .parties
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let i = i as PartyId;
                PartyPosition {
                    name: name(i),
                    status: match p.status {
                        Status::InPlay => StatusSpec::InPlay,
                        Status::Conceded => StatusSpec::Conceded,
                        Status::WipedOut { round } => StatusSpec::WipedOut { round },
                    },
                    bid_line: p
                        .bid_line
                        .iter()
                        .map(|b| BidCardSpec {
                            card: b.card,
                            reversed: b.reversed,
                            turned: b.turned,
                            cover: b.cover,
                            narrative: b.narrative,
                            drawer: char_name(i, b.drawer),
                        })
                        .collect(),
                    temporary: p
                        .temporary
                        .iter()
                        .map(|t| TemporarySpec {
                            card: t.card,
                            character: char_name(i, t.character),
                        })
                        .collect(),
                    lasting: p
                        .lasting
                        .iter()
                        .map(|l| LastingSpec {
                            cards: l
                                .cards
                                .iter()
                                .map(|c| LossCardSpec {
                                    card: c.card,
                                    face_up: c.face_up,
                                })
                                .collect(),
                            character: char_name(i, l.character),
                        })
                        .collect(),
                    last_drawer: p.last_drawer.and_then(|k| char_name(i, k)),
                    loss_this_round: p.loss_this_round,
                    tactics: p.tactics.clone(),
                    characters: p
                        .characters
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c.tally > 0 || c.conceded)
                        .filter_map(|(k, c)| {
                            Some(CharacterPosition {
                                name: char_name(i, k as CharId)?,
                                tally: c.tally,
                                conceded: c.conceded,
                            })
                        })
                        .collect(),
                }
            })
            .collect(),
    }
}
