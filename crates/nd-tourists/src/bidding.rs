//! Rounds: starting the Conflict, Balance Breakers (ND-14), Unbalanced bidding (ND-15, ND-16)
//! and the evaluation of ND-17.

use clash_core::{Randomness, RuleError, Seat};

use crate::cards::beats;
use crate::command::{Event, Outcome, ReserveReason};
use crate::reactions;
use crate::round_end;
use crate::ruling::{Drawn, Ruling};
use crate::seating::{acting_character, acting_party, controls, named_party};
use crate::state::{BidCard, CharId, PartyId, Phase, RoundKind, State, Status};

/// ND-16b: reversed cards that Wipe a party Out.
pub const WIPE_OUT: u8 = 5;

fn gm_only(seat: Seat, rule: &'static str, what: &str) -> Result<(), RuleError> {
    if seat == Seat::Gm {
        Ok(())
    } else {
        Err(RuleError::not_your_call(
            rule,
            seat,
            format!("only the GM {what}"),
        ))
    }
}

/// GM: draw the non-player Reserves (ND-10), deal any Reserve cards the setup could not name,
/// and open round 1 (ND-9, ND-11), or resume a position where it stands.
pub fn start(r: &mut Ruling, seat: Seat, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    gm_only(seat, "ND-10", "starts the Conflict")?;
    let st = r.state();
    if st.phase != Phase::Preparing {
        return Err(RuleError::illegal(
            "ND-10",
            "the Conflict has already started",
        ));
    }
    let resuming = st.resume.is_some();
    let mut deals: Vec<(PartyId, CharId, u8, ReserveReason)> = Vec::new();
    for (i, (sheet, party)) in st.table.parties.iter().zip(&st.parties).enumerate() {
        if !resuming && sheet.reserve_draws > 0 {
            deals.push((i as PartyId, 0, sheet.reserve_draws, ReserveReason::Npc));
        }
        for (k, c) in party.characters.iter().enumerate() {
            if c.unseen > 0 {
                deals.push((i as PartyId, k as CharId, c.unseen, ReserveReason::Unseen));
            }
        }
    }
    for (party, character, n, reason) in deals {
        for _ in 0..n {
            let Some(d) = r.draw(rng, true)? else { break };
            let seat = r.state().table.parties[party as usize].seat;
            r.emit(Event::ReserveDrawn {
                party,
                character,
                seat,
                card: Some(d.card),
                reversed: Some(d.reversed),
                reason,
            });
        }
    }
    if resuming {
        r.emit(Event::Resumed);
        return Ok(());
    }
    let st = r.state();
    let kind = if st.control == 0 {
        RoundKind::BalanceBreaker
    } else {
        RoundKind::Unbalanced
    };
    let (dominant, control) = (st.dominant, st.control);
    r.emit(Event::RoundStarted {
        number: 1,
        kind,
        dominant,
        control,
    });
    Ok(())
}

fn bidding_phase(st: &State, rule: &'static str) -> Result<(), RuleError> {
    match st.phase {
        Phase::Bidding => Ok(()),
        Phase::Preparing => Err(RuleError::illegal(
            "ND-10",
            "the GM has not started the Conflict",
        )),
        Phase::Aftermath => Err(RuleError::illegal(
            rule,
            "bidding is over; the round is ending (ND-22)",
        )),
        Phase::Ended => Err(RuleError::illegal("ND-23", "the Conflict is over")),
    }
}

/// ND-11: tactics are narrative only, declared while the round is open.
pub fn declare_tactics(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    text: &str,
) -> Result<(), RuleError> {
    let st = r.state();
    bidding_phase(st, "ND-11")?;
    let p = acting_party(st, seat, party, "ND-11", |_| true)?;
    crate::limits::TABLE.text("tactics", text)?;
    if st.parties[p as usize].tactics.as_deref() == Some(text) {
        return Err(RuleError::illegal(
            "ND-11",
            format!(
                "{} has already declared these tactics this round",
                st.table.parties[p as usize].name
            ),
        ));
    }
    r.emit(Event::TacticsDeclared {
        party: p,
        text: text.to_string(),
    });
    Ok(())
}

/// The party whose turn it is, which `seat` must speak for. A reaction window still open is
/// closed first (the next bid or pass means nobody else reacted).
fn take_turn(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    rule: &'static str,
    rng: &mut dyn Randomness,
) -> Result<PartyId, RuleError> {
    bidding_phase(r.state(), rule)?;
    if let Some(drawer) = r.state().round.window {
        // D-4: bidding or passing declines the sender's own remaining reactions, never anyone
        // else's.
        reactions::decline_all(r.state(), seat)?;
        reactions::close(r, drawer, rng)?;
        if r.state().phase != Phase::Bidding {
            return Err(RuleError::illegal(
                "ND-16",
                "closing the reaction window ended the bidding",
            ));
        }
    }
    let st = r.state();
    let turn = st
        .round
        .turn
        .ok_or_else(|| RuleError::illegal(rule, "bidding is over"))?;
    let p = match party {
        Some(name) => named_party(st, seat, name, rule)?,
        None if controls(st, seat, turn) => turn,
        None => {
            let name = &st.table.parties[turn as usize].name;
            return Err(RuleError::not_your_call(
                rule,
                seat,
                format!("it is {} turn", crate::view::possessive(name)),
            ));
        }
    };
    if p != turn {
        let name = &st.table.parties[turn as usize].name;
        return Err(RuleError::illegal(
            rule,
            format!("out of turn: it is {} turn", crate::view::possessive(name)),
        ));
    }
    Ok(p)
}

/// ND-14.1 / ND-15: draw one card and place it unturned.
pub fn bid(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    character: &Option<String>,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let p = take_turn(r, seat, party, "ND-15", rng)?;
    let ch = acting_character(r.state(), p, character)?;
    let drawn = r
        .draw(rng, false)?
        .ok_or_else(|| RuleError::illegal("D-3", "no card is left to draw: pass"))?;
    if drawn.card.is_excuse() {
        return excuse(r, p, ch, rng);
    }
    place(r, p, ch, drawn, rng)
}

/// ND-15: pass (not final). In a Balance Breaker every party draws, unless no card is left (D-3).
pub fn pass(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let p = take_turn(r, seat, party, "ND-15", rng)?;
    let st = r.state();
    if st.round.kind == RoundKind::BalanceBreaker && !st.deck.union(st.discard).is_empty() {
        return Err(RuleError::illegal(
            "ND-14",
            "in a Balance Breaker every party draws one card",
        ));
    }
    let ends = match st.round.kind {
        RoundKind::Unbalanced => st.round.passes as usize + 1 >= st.in_play_count(), // D-6
        RoundKind::BalanceBreaker => st.next_actor(p).is_none(),
    };
    r.emit(Event::Passed { party: p });
    if !ends {
        return Ok(());
    }
    match r.state().round.kind {
        RoundKind::Unbalanced => evaluate(r, rng),
        RoundKind::BalanceBreaker => break_balance(r, rng),
    }
}

/// Place a drawn card in `p`'s bid line and open the reaction window if anyone could react.
pub fn place(
    r: &mut Ruling,
    p: PartyId,
    ch: CharId,
    d: Drawn,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let st = r.state();
    let fresh = BidCard {
        card: d.card,
        reversed: d.reversed,
        turned: false,
        cover: false,
        narrative: false,
        drawer: ch,
    };
    let window = reactions::possible(st, p, &fresh);
    let count = st.party(p).map_or(0, |x| x.reversed_count()) + u8::from(d.reversed);
    let needs_check = !window && closing_needs_check(st, p, count);
    r.emit(Event::CardPlaced {
        party: p,
        character: ch,
        card: d.card,
        reversed: d.reversed,
        window,
        narrative: false,
    });
    if needs_check {
        after_close(r, p, rng)
    } else {
        Ok(())
    }
}

/// Whether closing `p`'s placement with `count` reversed cards can do more than pass the turn.
pub fn closing_needs_check(st: &State, p: PartyId, count: u8) -> bool {
    match st.round.kind {
        RoundKind::Unbalanced => count >= st.table.rules.wipe_out,
        RoundKind::BalanceBreaker => st.next_actor(p).is_none(),
    }
}

/// ND-16b and the end of a Balance Breaker, once `p`'s placement is final.
pub fn after_close(r: &mut Ruling, p: PartyId, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    let st = r.state();
    let Some(party) = st.party(p) else {
        return Ok(());
    };
    match st.round.kind {
        RoundKind::Unbalanced
            if party.in_play() && party.reversed_count() >= st.table.rules.wipe_out =>
        {
            let was_dominant = st.dominant == Some(p);
            r.emit(Event::WipedOut { party: p });
            if was_dominant {
                // D-9: Control becomes 0, no evaluation.
                r.emit(Event::BiddingEnded {
                    outcome: Outcome::DominantWipedOut,
                });
                r.emit(Event::ControlChanged {
                    dominant: None,
                    control: 0,
                });
                return round_end::resolve(r, Outcome::DominantWipedOut, Some(p), rng);
            }
            if r.state().in_play_count() < 2 {
                evaluate(r, rng)
            } else {
                Ok(())
            }
        }
        RoundKind::BalanceBreaker if st.round.turn.is_none() => break_balance(r, rng),
        _ => Ok(()),
    }
}

/// ND-16a / D-8: the Excuse is discarded at once and a narrative card drawn in its place.
pub fn excuse(
    r: &mut Ruling,
    p: PartyId,
    ch: CharId,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    r.emit(Event::ExcuseDrawn {
        party: p,
        character: ch,
    });
    match r.draw(rng, true)? {
        Some(d) => r.emit(Event::CardPlaced {
            party: p,
            character: ch,
            card: d.card,
            reversed: d.reversed,
            window: false,
            narrative: true,
        }),
        None => r.emit(Event::WindowClosed { party: p }),
    }
    let st = r.state();
    match st.round.kind {
        RoundKind::Unbalanced => {
            let control = st.control.saturating_sub(1);
            let before = st.dominant;
            let dominant = if control == 0 { None } else { before };
            r.emit(Event::BiddingEnded {
                outcome: Outcome::Excuse { party: p },
            });
            r.emit(Event::ControlChanged { dominant, control });
            round_end::resolve(r, Outcome::Excuse { party: p }, before, rng)
        }
        RoundKind::BalanceBreaker if st.round.turn.is_none() => break_balance(r, rng),
        RoundKind::BalanceBreaker => Ok(()),
    }
}

/// ND-14.2–4: after every party has drawn.
fn break_balance(r: &mut Ruling, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    let st = r.state();
    let outcome = match st.round.excuse {
        Some(party) => Outcome::Excuse { party },
        None => {
            let lines: Vec<(PartyId, &[BidCard])> = st
                .in_play()
                .map(|p| (p, st.parties[p as usize].bid_line.as_slice()))
                .collect();
            let winner = lines.iter().find(|(p, mine)| {
                mine.iter().any(|c| {
                    lines
                        .iter()
                        .filter(|(q, _)| q != p)
                        .all(|(_, theirs)| theirs.iter().all(|t| beats(c.card, t.card)))
                })
            });
            match winner {
                Some((party, _)) => Outcome::BalanceBroken { party: *party },
                None => Outcome::BalanceHeld,
            }
        }
    };
    r.emit(Event::BiddingEnded {
        outcome: outcome.clone(),
    });
    if let Outcome::BalanceBroken { party } = outcome {
        r.emit(Event::ControlChanged {
            dominant: Some(party),
            control: 1,
        });
    }
    round_end::resolve(r, outcome, None, rng)
}

/// ND-17: Contender `c` breaks Dominant `d` when each card of `d` is beaten by one of `c`'s.
pub fn breaks(c: &[BidCard], d: &[BidCard]) -> bool {
    d.iter().all(|x| c.iter().any(|y| beats(y.card, x.card)))
}

/// ND-17: evaluation at the end of Unbalanced bidding.
pub fn evaluate(r: &mut Ruling, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    let st = r.state();
    let Some(d) = st.dominant else {
        return round_end::resolve(r, Outcome::BalanceHeld, None, rng);
    };
    let round = st.round.number;
    let dominant_line = st.parties[d as usize].bid_line.as_slice();
    let breakers: Vec<PartyId> = st
        .parties
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            *i != d as usize
                && (p.in_play() || p.status == Status::WipedOut { round })
                && breaks(&p.bid_line, dominant_line)
        })
        .map(|(i, _)| i as PartyId)
        .collect();
    let (outcome, dominant, control) = if breakers.is_empty() {
        (Outcome::DominantHeld, Some(d), st.control.saturating_add(1))
    } else {
        let control = st.control.saturating_sub(1);
        (
            Outcome::DominantBroken { breakers },
            (control > 0).then_some(d),
            control,
        )
    };
    r.emit(Event::BiddingEnded {
        outcome: outcome.clone(),
    });
    r.emit(Event::ControlChanged { dominant, control });
    round_end::resolve(r, outcome, Some(d), rng)
}
