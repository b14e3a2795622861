//! What each seat sees: the table, plus the Reserves of the parties it speaks for. Nobody sees
//! which cards are in the deck (only how many), and no randomness state exists to see.

use std::fmt::Write;

use clash_core::Viewer;
use serde::Serialize;

use crate::cards::Card;
use crate::command::{Citation, Event, LossKind, Outcome, ReserveReason};
use crate::state::{
    Asking, AutoPass, BidCard, CharId, EndReason, LastingLoss, PartyId, Phase, ReactionStep,
    ReserveCard, Round, RoundKind, State, Status, TemporaryLoss,
};

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub phase: Phase,
    pub round: Round,
    pub dominant: Option<u8>,
    pub control: u8,
    pub tokens: u8,
    /// ND-8 flag.
    pub large_gap: bool,
    pub deck_count: usize,
    /// This round's discards: they were face up on the table.
    pub discard: Vec<Card>,
    pub parties: Vec<PartyView>,
    pub victor: Option<u8>,
    pub ended: Option<EndReason>,
    /// D-4: while a card awaits reactions, who is to react now and how, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reaction: Option<ReactionView>,
    /// Who the table waits on, in words ("Waiting for US to reject TMDF's card or let it
    /// stand"); none outside bidding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<String>,
    /// Everything this viewer knows of the table as a position ([`crate::position::export`]):
    /// the sheets, what lies on the table, the viewer's own Reserves card by card and the
    /// others' only counted. Programs that look ahead (the bots) start a game from it, dealing
    /// the unseen cards at random as the GM's `start` would. Before the Conflict starts it is
    /// the plain setup; once it is over, `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<crate::setup::Setup>,
}

/// The reaction a party is asked for now (D-4).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Serialize)]
pub struct ReactionView {
    /// The party to react, by seating place (for commands) and by name (for people).
    pub party: u8,
    pub name: String,
    pub step: ReactionStep,
    /// Whose card it is, by name, and the card.
    pub drawer: String,
    pub card: Card,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Serialize)]
pub struct PartyView {
    pub name: String,
    pub seat: clash_core::Seat,
    pub goal: String,
    pub total: i32,
    #[serde(flatten)]
    pub status: Status,
    pub bid_line: Vec<BidCard>,
    pub reversed: u8,
    pub temporary: Vec<TemporaryLoss>,
    pub lasting: Vec<LastingLoss>,
    pub characters: Vec<CharacterView>,
    /// The party's standing choice of which chances to react pass by themselves.
    pub auto_pass: AutoPass,
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "nd-tourists/"))]
#[derive(Debug, Clone, Serialize)]
pub struct CharacterView {
    pub name: String,
    pub reserve_count: usize,
    /// Only for the seat that speaks for this party.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserve: Option<Vec<ReserveCard>>,
    pub tally: u8,
    pub conceded: bool,
    /// The sheet's Aspects and Weaknesses by name (the Weaknesses gained in play too): public,
    /// and the traits a cover's narration may rest on (ND-20).
    pub aspects: Vec<String>,
    pub weaknesses: Vec<String>,
}

pub fn view(st: &State, viewer: Viewer) -> View {
    let parties = st
        .parties
        .iter()
        .zip(&st.table.parties)
        .map(|(p, sheet)| {
            let mine = viewer.is(sheet.seat);
            PartyView {
                name: sheet.name.clone(),
                seat: sheet.seat,
                goal: sheet.goal.clone(),
                total: sheet.total,
                status: p.status,
                bid_line: p.bid_line.clone(),
                reversed: p.reversed_count(),
                temporary: p.temporary.clone(),
                lasting: p.lasting.clone(),
                auto_pass: p.auto_pass,
                characters: p
                    .characters
                    .iter()
                    .zip(&sheet.characters)
                    .map(|(c, cs)| CharacterView {
                        name: cs.name.clone(),
                        reserve_count: c.reserve.len(),
                        reserve: mine.then(|| c.reserve.clone()),
                        tally: c.tally,
                        conceded: c.conceded,
                        aspects: cs.aspects.iter().map(|t| t.name().to_string()).collect(),
                        weaknesses: cs
                            .weaknesses
                            .iter()
                            .map(|t| t.name().to_string())
                            .chain(c.new_weaknesses.iter().cloned())
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect();
    View {
        phase: st.phase,
        round: st.round.clone(),
        dominant: st.dominant,
        control: st.control,
        tokens: st.tokens,
        large_gap: st.table.large_gap,
        deck_count: st.deck.len(),
        discard: st.discard.iter().collect(),
        parties,
        victor: st.victor,
        ended: st.ended,
        reaction: reaction_view(st),
        waiting: waiting_line(st),
        position: crate::position::export(st, viewer),
    }
}

fn reaction_view(st: &State) -> Option<ReactionView> {
    let now = st.round.reacting.filter(|_| st.round.rejection.is_none())?;
    let drawer = st.round.window?;
    Some(ReactionView {
        party: now.party,
        name: party_name(st, now.party).to_string(),
        step: now.step,
        drawer: party_name(st, drawer).to_string(),
        card: st.party(drawer)?.bid_line.last()?.card,
    })
}

/// Reserve draws show their card only to the seat that speaks for the party.
pub fn event_view(e: &Event, viewer: Viewer) -> Event {
    match e {
        Event::ReserveDrawn {
            party,
            character,
            seat,
            reason,
            ..
        } if !viewer.is(*seat) => Event::ReserveDrawn {
            party: *party,
            character: *character,
            seat: *seat,
            card: None,
            reversed: None,
            reason: *reason,
        },
        other => other.clone(),
    }
}

fn face(card: Card, reversed: bool) -> String {
    format!("{}{}", card.name(), if reversed { "↓" } else { "↑" })
}

/// The name of party `p` (names never change once given, so any later state will do).
pub fn party_name(st: &State, p: PartyId) -> &str {
    st.table
        .parties
        .get(p as usize)
        .map_or("a party that left the table", |s| s.name.as_str())
}

/// Party `p`'s character `k` as people say it: the party's name alone when the character is
/// the whole party or shares its name, else "Bob of the Crew".
fn who(st: &State, p: PartyId, k: CharId) -> String {
    let party = party_name(st, p);
    match st
        .table
        .parties
        .get(p as usize)
        .and_then(|s| (s.characters.len() > 1).then(|| s.characters.get(k as usize)))
        .flatten()
    {
        Some(c) if !c.name.eq_ignore_ascii_case(party) => format!("{} of {party}", c.name),
        _ => party.to_string(),
    }
}

/// A name as an owner: "TMDF's", "The Smugglers'" (a plural word ending in s takes the
/// apostrophe alone; an acronym such as "US" keeps "'s").
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// "its own" when `by` speaks of its own card, else "TMDF's".
pub fn whose(st: &State, by: PartyId, owner: PartyId) -> String {
    if by == owner {
        "its own".to_string()
    } else {
        possessive(party_name(st, owner))
    }
}

fn names(st: &State, parties: &[PartyId]) -> String {
    let v: Vec<&str> = parties.iter().map(|p| party_name(st, *p)).collect();
    match v.as_slice() {
        [] => "nobody".to_string(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn card_names(cards: &[Card]) -> String {
    let v: Vec<&str> = cards.iter().map(|c| c.name()).collect();
    v.join(", ")
}

fn kind_words(kind: RoundKind) -> &'static str {
    match kind {
        RoundKind::BalanceBreaker => "a Balance Breaker",
        RoundKind::Unbalanced => "an Unbalanced round",
    }
}

fn loss_words(kind: LossKind) -> &'static str {
    match kind {
        LossKind::Temporary => "Temporary",
        LossKind::Lasting => "Lasting",
    }
}

fn reason_words(reason: ReserveReason) -> &'static str {
    match reason {
        ReserveReason::Npc => "before the Conflict",
        ReserveReason::Refill => "a round winner's refill",
        ReserveReason::Concession => "drawn on conceding",
        ReserveReason::Unseen => "dealt from the deck as the Conflict starts",
    }
}

fn cite_words(cite: &Citation) -> String {
    match cite {
        Citation::Aspect(n) => format!("the Aspect “{n}”"),
        Citation::Weakness(n) => format!("the Weakness “{n}”"),
        Citation::Loss(c) => format!("the Loss card {c}"),
    }
}

/// How the Conflict ended, naming the victor.
pub fn ending(st: &State) -> String {
    match (st.victor, st.ended) {
        (Some(v), _) => format!("{} won the Conflict", party_name(st, v)),
        (None, Some(EndReason::Reframed)) => "The Conflict was reframed: nobody won".to_string(),
        _ => "The Conflict ended with no victor".to_string(),
    }
}

/// D-4: one line for a run of chances that let `party`'s `card` stand; the run that closes the
/// window says that nobody (else, after a turn) reacts.
fn stood_words(
    st: &State,
    party: PartyId,
    card: Card,
    by: &[PartyId],
    closes: bool,
    turned: bool,
) -> String {
    let owner = possessive(party_name(st, party));
    match (closes, turned, by) {
        (true, false, _) => format!("Nobody reacts to {owner} {card}"),
        (true, true, _) => format!("Nobody else reacts to {owner} {card}"),
        (false, _, [one]) => format!(
            "{} lets {} {card} stand",
            party_name(st, *one),
            whose(st, *one, party)
        ),
        (false, _, _) => format!("{} let {owner} {card} stand", names(st, by)),
    }
}

/// A party's standing choice of the chances that pass by themselves, in words.
fn auto_pass_words(party: &str, choice: AutoPass) -> String {
    match (choice.round.is_some(), choice.asking, choice.rejections) {
        (true, _, _) => format!("{party} lets every card stand for the rest of this round"),
        (false, Asking::OwnCards, _) => {
            format!("{party} will be asked to react only to save its own reversed cards")
        }
        (false, Asking::Every, true) => {
            format!("{party} will be asked only to turn or cover, never to reject")
        }
        (false, Asking::Every, false) => format!("{party} will be asked at every chance to react"),
    }
}

/// One line telling what `e` means, with every party and character named.
pub fn narrate(st: &State, e: &Event) -> String {
    let n = |p: &PartyId| party_name(st, *p);
    match e {
        Event::ReserveDrawn {
            party,
            character,
            card,
            reversed,
            reason,
            ..
        } => {
            let who = who(st, *party, *character);
            match card {
                Some(c) => format!(
                    "{who} puts {} in the Reserve ({})",
                    face(*c, reversed.unwrap_or(false)),
                    reason_words(*reason)
                ),
                None => format!("{who} draws a Reserve card ({})", reason_words(*reason)),
            }
        }
        Event::RoundStarted {
            number,
            kind,
            dominant,
            control,
        } => match dominant {
            Some(d) => format!(
                "Round {number}, {}: {} is Dominant with Control {control}",
                kind_words(*kind),
                n(d)
            ),
            None => format!(
                "Round {number}, {}: the Conflict is Balanced",
                kind_words(*kind)
            ),
        },
        Event::TacticsDeclared { party, text } => format!("{} declares tactics: {text}", n(party)),
        Event::DeckReshuffled { cards } => format!(
            "The deck ran out: {} discarded cards are shuffled back in",
            cards.len()
        ),
        Event::CardPlaced {
            party,
            character,
            card,
            reversed,
            narrative,
            ..
        } => {
            let what = if *narrative {
                "draws a narrative card:"
            } else {
                "places"
            };
            format!(
                "{} {what} {}",
                who(st, *party, *character),
                face(*card, *reversed)
            )
        }
        Event::ExcuseDrawn { party, character } => {
            format!("{} draws the Excuse", who(st, *party, *character))
        }
        Event::RejectionClaimed { by, party } => format!(
            "{} rejects {} card; {} chooses which face-up Loss card pays for it",
            n(by),
            possessive(n(party)),
            n(party)
        ),
        Event::CardRejected {
            by,
            party,
            card,
            spent,
            lasting,
        } => {
            let how = if *lasting {
                "turning a Lasting Loss card face down"
            } else {
                "discarding a Temporary Loss"
            };
            format!(
                "{} rejects {} {card} using {spent} ({how}); {} draws a replacement",
                n(by),
                possessive(n(party)),
                n(party)
            )
        }
        // Logs written before standing choices existed: one line a chance.
        Event::LetStand {
            by, party, card, ..
        } => format!("{} lets {} {card} stand", n(by), whose(st, *by, *party)),
        Event::LeftStanding {
            party,
            card,
            by,
            then,
            turned,
        } => stood_words(st, *party, *card, by, then.is_none(), *turned),
        Event::AutoPassSet { party, choice } => auto_pass_words(n(party), *choice),
        Event::CardTurned { party, reversed } => format!(
            "The Dominant spends a token to turn {} card {}",
            possessive(n(party)),
            if *reversed { "reversed" } else { "upright" }
        ),
        Event::CardCovered {
            by,
            character,
            party,
            cover,
            reversed,
            covered,
            cite,
        } => format!(
            "{} covers {} {covered} with {} from the Reserve, citing {}",
            who(st, *by, *character),
            possessive(n(party)),
            face(*cover, *reversed),
            cite_words(cite)
        ),
        Event::WindowClosed { party } => {
            format!("Reactions to {} card are over", possessive(n(party)))
        }
        Event::Passed { party } => format!("{} passes", n(party)),
        Event::WipedOut { party } => format!("{} is Wiped Out", n(party)),
        Event::BiddingEnded { outcome } => match outcome {
            Outcome::BalanceBroken { party } => {
                format!(
                    "Bidding is over: {} card beats every other",
                    possessive(n(party))
                )
            }
            Outcome::BalanceHeld => "Bidding is over: no card beats all the others".to_string(),
            Outcome::Excuse { party } => format!("Bidding is over: {} drew the Excuse", n(party)),
            Outcome::DominantBroken { breakers } => {
                format!(
                    "Bidding is over: {} break the Dominant",
                    names(st, breakers)
                )
            }
            Outcome::DominantHeld => "Bidding is over: nobody breaks the Dominant".to_string(),
            Outcome::DominantWipedOut => "Bidding is over: the Dominant is Wiped Out".to_string(),
        },
        Event::ControlChanged { dominant, control } => match dominant {
            Some(d) => format!("{} now holds Control {control}", n(d)),
            None => "The Conflict is Balanced: nobody holds Control".to_string(),
        },
        Event::LossTaken {
            party,
            character,
            kind,
            cards,
        } => format!(
            "{} takes a {} Loss ({})",
            who(st, *party, *character),
            loss_words(*kind),
            card_names(cards)
        ),
        Event::LossCardsChosen { party, cards } => {
            format!("{} marks its Loss with {}", n(party), card_names(cards))
        }
        Event::RoundResolved {
            winners,
            losers,
            narration,
        } => format!(
            "The round is over: won by {}, lost by {}; they narrate in this order: {}",
            names(st, winners),
            names(st, losers),
            names(st, narration)
        ),
        Event::Conceded {
            party,
            character,
            party_out,
        } => {
            if *party_out {
                format!("{} concedes the Conflict", n(party))
            } else {
                format!("{} concedes", who(st, *party, *character))
            }
        }
        Event::Reframed { weaknesses } => match weaknesses.len() {
            0 => "The Conflict is reframed".to_string(),
            1 => "The Conflict is reframed; one Lasting Loss becomes a Weakness".to_string(),
            k => format!("The Conflict is reframed; {k} Lasting Losses become Weaknesses"),
        },
        Event::CardsReturned => "The table's cards go back into the deck".to_string(),
        Event::ConflictEnded { victor, reason } => match (victor, reason) {
            (Some(v), EndReason::ControlVictory) => format!(
                "The Conflict is over: {} ends the round holding Control {} or more, which wins at this table",
                n(v),
                st.table.rules.control_victory
            ),
            (Some(v), _) => format!(
                "The Conflict is over: {} is the last party left and reaches its goal",
                n(v)
            ),
            (None, EndReason::Reframed) => "The Conflict is over: it was reframed".to_string(),
            (None, _) => "The Conflict is over with no victor".to_string(),
        },
        Event::Resumed => "Play resumes from the position".to_string(),
    }
}

fn line(cards: &[BidCard]) -> String {
    let v: Vec<String> = cards.iter().map(|b| face(b.card, b.reversed)).collect();
    if v.is_empty() {
        "–".to_string()
    } else {
        v.join(" ")
    }
}

fn phase_words(phase: Phase) -> &'static str {
    match phase {
        Phase::Preparing => "before the Conflict",
        Phase::Bidding => "bidding",
        Phase::Aftermath => "end of the round",
        Phase::Ended => "the Conflict is over",
    }
}

fn status_words(status: Status) -> String {
    match status {
        Status::InPlay => String::new(),
        Status::WipedOut { round } => format!(" [Wiped Out in round {round}]"),
        Status::Conceded => " [conceded]".to_string(),
    }
}

/// Who is to act now, in words.
fn waiting_line(st: &State) -> Option<String> {
    let r = &st.round;
    if st.phase != Phase::Bidding {
        return None;
    }
    match (r.rejection, r.window, r.reacting, r.turn) {
        (Some(_), Some(d), _, _) => Some(format!(
            "Waiting for {} to choose the face-up Loss card to spend",
            party_name(st, d)
        )),
        (_, Some(d), Some(now), _) => Some(format!(
            "Waiting for {} to {} {} card or let it stand",
            party_name(st, now.party),
            now.step.verb(),
            whose(st, now.party, d)
        )),
        (_, _, _, Some(t)) => Some(format!("{} to bid or pass", party_name(st, t))),
        _ => None,
    }
}

pub fn render(st: &State, viewer: Viewer) -> String {
    let v = view(st, viewer);
    let mut out = String::new();
    let control = match v.dominant.and_then(|d| v.parties.get(d as usize)) {
        Some(p) => format!(
            "{} Dominant, Control {}, tokens {}",
            p.name, v.control, v.tokens
        ),
        None => "Balanced".to_string(),
    };
    let _ = writeln!(
        out,
        "Round {}, {} ({}) — {control} — {} cards in the deck",
        v.round.number,
        kind_words(v.round.kind),
        phase_words(v.phase),
        v.deck_count
    );
    for (i, p) in v.parties.iter().enumerate() {
        let turn = if v.round.turn == Some(i as u8) {
            "▶"
        } else {
            " "
        };
        let temp: Vec<&str> = p.temporary.iter().map(|t| t.card.name()).collect();
        let lasting: Vec<String> = p
            .lasting
            .iter()
            .map(|l| {
                l.cards
                    .iter()
                    .map(|c| {
                        if c.face_up {
                            c.card.name().to_string()
                        } else {
                            format!("{} (face down)", c.card.name())
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect();
        let reserve: usize = p.characters.iter().map(|c| c.reserve_count).sum();
        let _ = writeln!(
            out,
            "{turn} {}{}: bids {} | {} reversed | Temporary: {} | Lasting: {} | Reserve {reserve}",
            p.name,
            status_words(p.status),
            line(&p.bid_line),
            p.reversed,
            if temp.is_empty() {
                "none".to_string()
            } else {
                temp.join(", ")
            },
            if lasting.is_empty() {
                "none".to_string()
            } else {
                lasting.join("; ")
            }
        );
    }
    if let Some(w) = waiting_line(st) {
        let _ = writeln!(out, "{w}");
    }
    if st.phase == Phase::Ended {
        let _ = writeln!(out, "{}", ending(st));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_ending_in_s_takes_the_apostrophe_alone() {
        assert_eq!(possessive("TMDF"), "TMDF's");
        assert_eq!(possessive("The Smugglers"), "The Smugglers'");
        assert_eq!(possessive("US"), "US's");
    }

    #[test]
    fn nd_20_every_viewer_sees_the_traits_a_cover_may_cite() {
        use crate::NdTourists;
        use clash_core::{Ruleset, Seat};
        let setup = serde_json::from_value(serde_json::json!({"parties": [
            {"name": "TMDF", "seat": "p1", "characters": [{"name": "TMDF",
                "attribute": {"name": "Paper", "value": 5}, "aspects": ["Bold", {"name": "Giant robots", "relevant": false}],
                "weaknesses": ["Slow"]}]},
            {"name": "US", "seat": "p2", "characters": [{"name": "US",
                "attribute": {"name": "Blades", "value": 5}, "aspects": ["Armed"]}]}
        ]}))
        .expect("setup");
        let st = NdTourists::setup(&setup).expect("a table");
        // ND-20: another party's Aspects and Weaknesses are what a cover of its card cites.
        for viewer in [Viewer::Spectator, Viewer::Seat(Seat::Player(2))] {
            let v = view(&st, viewer);
            let tmdf = &v.parties[0].characters[0];
            assert_eq!(tmdf.aspects, ["Bold", "Giant robots"]); // ND-20
            assert_eq!(tmdf.weaknesses, ["Slow"]); // ND-20
            assert!(tmdf.reserve.is_none(), "the Reserve stays hidden");
        }
    }
}
