//! What each seat sees: the table, plus the Reserves of the parties it speaks for. Nobody sees
//! which cards are in the deck (only how many), and no randomness state exists to see.

use std::fmt::Write;

use clash_core::Viewer;
use serde::Serialize;

use crate::cards::Card;
use crate::events::{Event, Outcome};
use crate::state::{
    BidCard, EndReason, LastingLoss, Phase, ReserveCard, Round, State, Status, TemporaryLoss,
};

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
}

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
}

#[derive(Debug, Clone, Serialize)]
pub struct CharacterView {
    pub name: String,
    pub reserve_count: usize,
    /// Only for the seat that speaks for this party.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserve: Option<Vec<ReserveCard>>,
    pub tally: u8,
    pub conceded: bool,
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
    }
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

pub fn narrate(e: &Event) -> String {
    match e {
        Event::ReserveDrawn {
            party,
            character,
            card,
            reversed,
            reason,
            ..
        } => match card {
            Some(c) => format!(
                "party {party} (character {character}) puts {} in its Reserve ({reason:?})",
                face(*c, reversed.unwrap_or(false))
            ),
            None => {
                format!("party {party} (character {character}) draws a Reserve card ({reason:?})")
            }
        },
        Event::RoundStarted {
            number,
            kind,
            dominant,
            control,
        } => match dominant {
            Some(d) => {
                format!("round {number} ({kind:?}): party {d} is Dominant with Control {control}")
            }
            None => format!("round {number} ({kind:?}): the Conflict is Balanced"),
        },
        Event::TacticsDeclared { party, text } => format!("party {party} declares tactics: {text}"),
        Event::DeckReshuffled { cards } => format!(
            "the deck ran out: {} discards reshuffled into it",
            cards.len()
        ),
        Event::CardPlaced {
            party,
            card,
            reversed,
            narrative,
            ..
        } => {
            let what = if *narrative {
                "draws a narrative card"
            } else {
                "places"
            };
            format!("party {party} {what} {}", face(*card, *reversed))
        }
        Event::ExcuseDrawn { party, .. } => format!("party {party} draws the Excuse"),
        Event::RejectionClaimed { by, party } => format!(
            "party {by} rejects party {party}'s card; party {party} chooses the face-up Loss card to spend"
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
                "party {by} rejects party {party}'s {card} using {spent} ({how}); a replacement is drawn"
            )
        }
        Event::CardTurned { party, reversed } => {
            format!(
                "the Dominant spends a token to turn party {party}'s card {}",
                if *reversed { "reversed" } else { "upright" }
            )
        }
        Event::CardCovered {
            by,
            party,
            cover,
            reversed,
            covered,
            ..
        } => {
            format!(
                "party {by} covers party {party}'s {covered} with {} from its Reserve",
                face(*cover, *reversed)
            )
        }
        Event::WindowClosed { party } => format!("no more reactions to party {party}'s card"),
        Event::Passed { party } => format!("party {party} passes"),
        Event::WipedOut { party } => format!("party {party} is Wiped Out"),
        Event::BiddingEnded { outcome } => match outcome {
            Outcome::BalanceBroken { party } => {
                format!("bidding over: party {party}'s card beats every other")
            }
            Outcome::BalanceHeld => "bidding over: no card beats all the others".to_string(),
            Outcome::Excuse { party } => format!("bidding over: party {party} drew the Excuse"),
            Outcome::DominantBroken { breakers } => {
                format!("bidding over: the Dominant is broken by {breakers:?}")
            }
            Outcome::DominantHeld => "bidding over: nobody breaks the Dominant".to_string(),
            Outcome::DominantWipedOut => "bidding over: the Dominant is Wiped Out".to_string(),
        },
        Event::ControlChanged { dominant, control } => match dominant {
            Some(d) => format!("party {d} now holds Control {control}"),
            None => "the Conflict is Balanced".to_string(),
        },
        Event::LossTaken {
            party, kind, cards, ..
        } => {
            let names: Vec<&str> = cards.iter().map(|c| c.name()).collect();
            format!("party {party} takes a {kind:?} Loss ({})", names.join(", "))
        }
        Event::LossCardsChosen { party, cards } => {
            let names: Vec<&str> = cards.iter().map(|c| c.name()).collect();
            format!("party {party} marks its Loss with {}", names.join(", "))
        }
        Event::RoundResolved {
            winners,
            losers,
            narration,
        } => {
            format!(
                "round resolved: winners {winners:?}, losers {losers:?}; narration order {narration:?}"
            )
        }
        Event::Conceded {
            party,
            character,
            party_out,
        } => {
            if *party_out {
                format!("party {party} concedes the Conflict")
            } else {
                format!("character {character} of party {party} concedes")
            }
        }
        Event::Reframed { weaknesses } => format!(
            "the Conflict is reframed; {} Lasting Losses become Weaknesses",
            weaknesses.len()
        ),
        Event::CardsReturned => "the table's cards go back into the deck".to_string(),
        Event::ConflictEnded { victor, reason } => match victor {
            Some(v) => format!("the Conflict is over ({reason:?}): party {v} reaches its goal"),
            None => format!("the Conflict is over ({reason:?}) with no victor"),
        },
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
        "Round {} ({:?}, {:?}) — {control} — deck {}",
        v.round.number, v.round.kind, v.phase, v.deck_count
    );
    for (i, p) in v.parties.iter().enumerate() {
        let turn = if v.round.turn == Some(i as u8) {
            "▶"
        } else {
            " "
        };
        let status = match p.status {
            Status::InPlay => String::new(),
            s => format!(" [{s:?}]"),
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
                            format!("({})", c.card.name())
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect();
        let reserve: usize = p.characters.iter().map(|c| c.reserve_count).sum();
        let _ = writeln!(
            out,
            "{turn}{i} {} ({}){status}: bids {} | reversed {} | temporary [{}] | lasting [{}] | reserve {reserve}",
            p.name,
            p.seat,
            line(&p.bid_line),
            p.reversed,
            temp.join(", "),
            lasting.join("; ")
        );
    }
    if let Some(victor) = v.victor.and_then(|d| v.parties.get(d as usize)) {
        let _ = writeln!(out, "Victor: {}", victor.name);
    }
    out
}
