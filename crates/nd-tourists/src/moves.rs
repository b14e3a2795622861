//! Whose move it is and which moves a seat has: built straight from the rules, in time linear
//! in the size of the table (no command is tried out to see whether it is legal).

use clash_core::{Seat, Status};

use crate::command::{Citation, Command, LossKind};
use crate::reactions::citation_fits;
use crate::seating::controls;
use crate::state::{CharId, PartyId, Phase, ReactionStep, RoundKind, State};

/// The seat that speaks for party `p`.
fn seat_of(st: &State, p: PartyId) -> Option<Seat> {
    st.table.parties.get(p as usize).map(|s| s.seat)
}

/// Who the table waits on now: the GM before the Conflict and between rounds, the party to
/// react while a card awaits reactions (D-4), the drawer choosing a Loss card to spend (D-14),
/// else the party whose turn it is to bid.
pub fn status(st: &State) -> Status {
    match st.phase {
        Phase::Ended => Status::over(crate::view::ending(st)),
        Phase::Preparing | Phase::Aftermath => Status::waiting([Seat::Gm]),
        Phase::Bidding => {
            let r = &st.round;
            let party = match (r.rejection, r.window, r.reacting) {
                (Some(_), Some(drawer), _) => Some(drawer),
                (_, Some(_), Some(now)) => Some(now.party),
                _ => r.turn,
            };
            Status::waiting(party.and_then(|p| seat_of(st, p)))
        }
    }
}

/// What the table waits on `seat` for, in words for a message away from the table (the same
/// waits as [`status`]); `None` when it waits on another seat.
pub fn asked(st: &State, seat: Seat) -> Option<String> {
    if !status(st).waiting_for.contains(&seat) {
        return None;
    }
    let r = &st.round;
    let words = match st.phase {
        Phase::Preparing => "start the Conflict".to_string(),
        Phase::Aftermath => "end the round and open the next".to_string(),
        Phase::Ended => return None,
        Phase::Bidding => match (r.rejection, r.window, r.reacting) {
            (Some(by), Some(_), _) => format!(
                "choose the face-up Loss card that pays for {} rejection",
                crate::view::possessive(&name(st, by)?)
            ),
            (_, Some(drawer), Some(now)) => {
                let card = st.party(drawer)?.bid_line.last()?.card;
                let whose =
                    crate::view::whose(st, now.party, drawer).replace("its own", "your own");
                format!("{} {whose} {card} or let it stand", now.step.verb())
            }
            _ if r.kind == RoundKind::BalanceBreaker => "draw your card".to_string(),
            _ => "bid or pass".to_string(),
        },
    };
    Some(words)
}

/// Commands `seat` may send now. Free choices (which Reserve card, which trait to cite, which
/// Loss cards to keep) come as typical values; tactics (free text) are not listed.
pub fn legal(st: &State, seat: Seat) -> Vec<Command> {
    let mut out = Vec::new();
    match st.phase {
        Phase::Ended => {}
        Phase::Preparing => {
            if seat == Seat::Gm {
                out.push(Command::Start {});
            }
        }
        Phase::Aftermath => aftermath(st, seat, &mut out),
        Phase::Bidding => bidding(st, seat, &mut out),
    }
    out
}

fn name(st: &State, p: PartyId) -> Option<String> {
    st.table.parties.get(p as usize).map(|s| s.name.clone())
}

fn aftermath(st: &State, seat: Seat, out: &mut Vec<Command>) {
    if seat == Seat::Gm {
        out.push(Command::NextRound {});
        out.push(Command::Reframe { confirmed: true });
    }
    for p in st.in_play().filter(|p| controls(st, seat, *p)) {
        if let Some(cards) = other_loss_cards(st, p) {
            out.push(Command::KeepLossCards {
                party: name(st, p),
                cards,
            });
        }
        out.push(Command::Concede {
            party: name(st, p),
            character: None,
        });
    }
}

/// ND-21: another choice of this round's reversed cards to mark `p`'s Loss, if there is one
/// (re-marking it with the same cards is refused as a repeat).
fn other_loss_cards(st: &State, p: PartyId) -> Option<Vec<crate::Card>> {
    let party = st.party(p)?;
    let current: Vec<crate::Card> = match party.loss_this_round? {
        LossKind::Temporary => vec![party.temporary.last()?.card],
        LossKind::Lasting => party.lasting.last()?.cards.iter().map(|c| c.card).collect(),
    };
    let spare = party
        .bid_line
        .iter()
        .find(|b| b.reversed && !current.contains(&b.card))?
        .card;
    let mut cards = current;
    if let Some(last) = cards.last_mut() {
        *last = spare;
    }
    Some(cards)
}

fn bidding(st: &State, seat: Seat, out: &mut Vec<Command>) {
    let r = &st.round;
    match (r.rejection, r.window, r.reacting) {
        (Some(_), Some(drawer), _) => {
            if controls(st, seat, drawer)
                && let Some(victim) = st.party(drawer)
            {
                out.extend(
                    victim
                        .spendable_losses()
                        .map(|(card, _)| Command::SpendLoss {
                            party: name(st, drawer),
                            card,
                        }),
                );
            }
        }
        (_, Some(drawer), Some(now)) => {
            if !controls(st, seat, now.party) {
                return;
            }
            match now.step {
                ReactionStep::Reject => out.push(Command::Reject {
                    party: name(st, now.party),
                }),
                ReactionStep::Turn => out.push(Command::Turn {}),
                ReactionStep::Cover => covers(st, now.party, drawer, out),
            }
            out.push(Command::LetItStand {
                party: name(st, now.party),
            });
        }
        _ => {
            let Some(turn) = r.turn.filter(|t| controls(st, seat, *t)) else {
                return;
            };
            let cards_left = !st.deck.union(st.discard).is_empty();
            if cards_left {
                out.push(Command::Bid {
                    party: name(st, turn),
                    character: None,
                });
            }
            // ND-14: in a Balance Breaker every party draws, unless no card is left (D-3).
            if r.kind == RoundKind::Unbalanced || !cards_left {
                out.push(Command::Pass {
                    party: name(st, turn),
                });
            }
        }
    }
}

/// ND-20: one cover per Reserve card of `p`'s characters still playing, each citing the first
/// trait that fits (an Aspect, a Weakness, else a Loss card).
fn covers(st: &State, p: PartyId, drawer: PartyId, out: &mut Vec<Command>) {
    let (Some(sheet), Some(party)) = (st.table.parties.get(p as usize), st.party(p)) else {
        return;
    };
    for (k, c) in party.characters.iter().enumerate() {
        if c.conceded || c.reserve.is_empty() {
            continue;
        }
        let Some(cite) = suggest_cite(st, p, k as CharId, drawer) else {
            continue;
        };
        for r in &c.reserve {
            out.push(Command::Cover {
                party: Some(sheet.name.clone()),
                character: sheet.characters.get(k).map(|s| s.name.clone()),
                card: r.card,
                cite: Some(cite.clone()),
                accepted: true,
            });
        }
    }
}

/// A trait `by`'s character `ch` may cite to cover `drawer`'s card (ND-20, ND-30).
fn suggest_cite(st: &State, by: PartyId, ch: CharId, drawer: PartyId) -> Option<Citation> {
    let sheet = st.table.parties.get(drawer as usize)?;
    let party = st.party(drawer)?;
    let aspects = sheet
        .characters
        .iter()
        .flat_map(|c| &c.aspects)
        .map(|t| Citation::Aspect(t.name().to_string()));
    let weaknesses = sheet
        .characters
        .iter()
        .flat_map(|c| &c.weaknesses)
        .map(|t| Citation::Weakness(t.name().to_string()));
    let losses = party
        .temporary
        .iter()
        .map(|t| t.card)
        .chain(
            party
                .lasting
                .iter()
                .flat_map(|l| l.cards.iter().map(|c| c.card)),
        )
        .map(Citation::Loss);
    aspects
        .chain(weaknesses)
        .chain(losses)
        .find(|c| citation_fits(st, by, ch, drawer, c))
}
