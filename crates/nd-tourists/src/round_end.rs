//! End of round (ND-21, ND-22): Losses, winners and narration (D-10), victory (ND-23),
//! conceding (ND-24, ND-31), Reframing (ND-25), reshuffle and refill (ND-4, ND-26), and the
//! end of the Conflict (ND-27).

use clash_core::{Randomness, RuleError, Seat};

use crate::bidding::breaks;
use crate::cards::Card;
use crate::command::{Event, LossKind, NewWeakness, Outcome, ReserveReason};
use crate::ruling::{Ruling, draw_from};
use crate::seating::acting_party;
use crate::state::{CharId, EndReason, PartyId, PartyState, Phase, RoundKind, State, Status};

/// ND-21: the Loss a party takes for `reversed` reversed cards, and how many cards it keeps,
/// under the rules as written (a variant's own thresholds: [`crate::variant::Rules::loss_for`]).
pub fn loss_for(reversed: u8) -> Option<(LossKind, usize)> {
    crate::variant::Rules::default().loss_for(reversed)
}

/// ND-29 / D-13: who takes the party's Losses and refill: whoever drew its last card, else the
/// first character still playing.
fn receiver(p: &PartyState) -> CharId {
    p.last_drawer
        .filter(|k| p.characters.get(*k as usize).is_some_and(|c| !c.conceded))
        .or_else(|| {
            p.characters
                .iter()
                .position(|c| !c.conceded)
                .map(|k| k as CharId)
        })
        .unwrap_or(0)
}

/// ND-22 steps 1–3 once bidding has ended with `outcome`; `dominant` is who held Control.
pub fn resolve(
    r: &mut Ruling,
    outcome: Outcome,
    dominant: Option<PartyId>,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    // D-10 judges breakers on their bid lines as they stood when the round ended: step 1's
    // Losses take reversed cards off the lines, and orientation must not decide who wins.
    let standing = standing_breakers(r.state(), &outcome);
    take_losses(r);
    let st = r.state();
    let (winners, losers) = winners_and_losers(st, &outcome, dominant, &standing);
    let narration = narration_order(st, &winners, &losers);
    r.emit(Event::RoundResolved {
        winners,
        losers,
        narration,
    });
    if r.state().in_play_count() <= 1 {
        return end_conflict(r, EndReason::LastPartyStanding, rng);
    }
    if control_wins(r.state()) {
        return end_conflict(r, EndReason::ControlVictory, rng);
    }
    Ok(())
}

/// D-16 as a variant may change it: the Dominant holds the Control that wins.
fn control_wins(st: &State) -> bool {
    let at = st.table.rules.control_victory;
    at > 0
        && st.control >= at
        && st
            .dominant
            .is_some_and(|d| st.parties[d as usize].in_play())
}

/// ND-21 with the D-14 default: the earliest reversed cards are kept.
fn take_losses(r: &mut Ruling) {
    let st = r.state();
    let mut losses = Vec::new();
    let mut wiped = Vec::new();
    for (i, p) in st.parties.iter().enumerate() {
        if !p.in_play() {
            continue;
        }
        let reversed = p.reversed_count();
        if reversed >= st.table.rules.wipe_out {
            // A narrative card after the Excuse can be the fifth reversed card (ND-21: 5 = Wiped Out).
            wiped.push(i as PartyId);
            continue;
        }
        if let Some((kind, keep)) = st.table.rules.loss_for(reversed) {
            let cards = p
                .bid_line
                .iter()
                .filter(|b| b.reversed)
                .take(keep)
                .map(|b| b.card)
                .collect();
            losses.push(Event::LossTaken {
                party: i as PartyId,
                character: receiver(p),
                kind,
                cards,
            });
        }
    }
    let dominant = st.dominant;
    for party in wiped {
        r.emit(Event::WipedOut { party });
        if dominant == Some(party) {
            r.emit(Event::ControlChanged {
                dominant: None,
                control: 0,
            });
        }
    }
    for e in losses {
        r.emit(e);
    }
}

/// D-10: the breakers not broken, set against set (ND-17), by another breaker; all of them if
/// that leaves none. Empty unless the Dominant was broken.
fn standing_breakers(st: &State, outcome: &Outcome) -> Vec<PartyId> {
    let Outcome::DominantBroken { breakers } = outcome else {
        return Vec::new();
    };
    let line = |p: PartyId| st.parties[p as usize].bid_line.as_slice();
    let unbroken: Vec<PartyId> = breakers
        .iter()
        .copied()
        .filter(|b| {
            !breakers
                .iter()
                .any(|o| o != b && breaks(line(*o), line(*b)))
        })
        .collect();
    if unbroken.is_empty() {
        breakers.clone()
    } else {
        unbroken
    }
}

/// D-10; `standing` are the breakers that win if still in play ([`standing_breakers`]).
fn winners_and_losers(
    st: &State,
    outcome: &Outcome,
    dominant: Option<PartyId>,
    standing: &[PartyId],
) -> (Vec<PartyId>, Vec<PartyId>) {
    let round = st.round.number;
    let took_part = |i: usize| {
        let s = st.parties[i].status;
        s == Status::InPlay || s == Status::WipedOut { round }
    };
    let all: Vec<PartyId> = (0..st.parties.len())
        .filter(|i| took_part(*i))
        .map(|i| i as PartyId)
        .collect();
    let in_play = |p: &PartyId| st.parties[*p as usize].in_play();
    match outcome {
        Outcome::BalanceBroken { party } => (
            vec![*party],
            all.iter().copied().filter(|p| p != party).collect(),
        ),
        Outcome::BalanceHeld | Outcome::Excuse { .. } => (vec![], vec![]),
        Outcome::DominantWipedOut => (vec![], dominant.into_iter().collect()),
        Outcome::DominantHeld => {
            let contenders = all
                .iter()
                .copied()
                .filter(|p| Some(*p) != dominant)
                .collect();
            (dominant.into_iter().filter(in_play).collect(), contenders)
        }
        Outcome::DominantBroken { .. } => {
            let winners: Vec<PartyId> = standing.iter().copied().filter(in_play).collect();
            let mut losers: Vec<PartyId> = dominant.into_iter().collect();
            losers.extend(
                all.iter()
                    .copied()
                    .filter(|p| !in_play(p) && Some(*p) != dominant),
            );
            losers.sort_unstable();
            (winners, losers)
        }
    }
}

/// ND-22 step 2 / D-10: winners, then losers, then the rest, each in seating order.
fn narration_order(st: &State, winners: &[PartyId], losers: &[PartyId]) -> Vec<PartyId> {
    let round = st.round.number;
    let mut order: Vec<PartyId> = winners.to_vec();
    order.extend_from_slice(losers);
    for (i, p) in st.parties.iter().enumerate() {
        let took_part = p.in_play() || p.status == Status::WipedOut { round };
        if took_part && !order.contains(&(i as PartyId)) {
            order.push(i as PartyId);
        }
    }
    order
}

/// ND-27 and the concession draws of D-13.
fn end_conflict(
    r: &mut Ruling,
    reason: EndReason,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let st = r.state();
    let victor = match reason {
        EndReason::LastPartyStanding => st.in_play().next(),
        EndReason::ControlVictory => st.dominant,
        EndReason::Reframed => None,
    };
    let draws: Vec<(PartyId, CharId, u8)> = st
        .parties
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            p.characters
                .iter()
                .enumerate()
                .filter(|(_, c)| c.conceded)
                .map(move |(k, c)| (i as PartyId, k as CharId, c.tally.saturating_add(1)))
        })
        .collect();
    r.emit(Event::ConflictEnded { victor, reason });
    for (party, character, n) in draws {
        for _ in 0..n {
            let Some(d) = r.draw(rng, true)? else {
                return Ok(());
            };
            let seat = r.state().table.parties[party as usize].seat;
            r.emit(Event::ReserveDrawn {
                party,
                character,
                seat,
                card: Some(d.card),
                reversed: Some(d.reversed),
                reason: ReserveReason::Concession,
            });
        }
    }
    Ok(())
}

fn aftermath(st: &State, rule: &'static str) -> Result<(), RuleError> {
    match st.phase {
        Phase::Aftermath => Ok(()),
        Phase::Ended => Err(RuleError::illegal("ND-23", "the Conflict is over")),
        _ => Err(RuleError::illegal(
            rule,
            "only at the end of a round, after Losses and narration (ND-22 step 4)",
        )),
    }
}

/// ND-24 / ND-31: a party, or one of its characters, concedes.
pub fn concede(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    character: &Option<String>,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let st = r.state();
    aftermath(st, "ND-24")?;
    let p = acting_party(st, seat, party, "ND-24", |_| true)?;
    let ps = &st.parties[p as usize];
    if !ps.in_play() {
        return Err(RuleError::illegal(
            "ND-24",
            "a party Wiped Out or already conceded cannot concede",
        ));
    }
    let sheet = &st.table.parties[p as usize];
    let leaving: Vec<CharId> = match character {
        Some(n) => {
            let k = sheet
                .characters
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(n))
                .ok_or_else(|| {
                    RuleError::illegal(
                        "ND-31",
                        format!("{} has no character called “{n}”", sheet.name),
                    )
                })?;
            if ps.characters[k].conceded {
                return Err(RuleError::illegal(
                    "ND-31",
                    format!("{n} has already conceded"),
                ));
            }
            vec![k as CharId]
        }
        None => (0..ps.characters.len())
            .filter(|k| !ps.characters[*k].conceded)
            .map(|k| k as CharId)
            .collect(),
    };
    let remaining = ps.characters.iter().filter(|c| !c.conceded).count();
    let was_dominant = st.dominant == Some(p);
    for (i, k) in leaving.iter().enumerate() {
        let party_out = remaining == i + 1;
        r.emit(Event::Conceded {
            party: p,
            character: *k,
            party_out,
        });
    }
    if remaining == leaving.len() && was_dominant {
        r.emit(Event::ControlChanged {
            dominant: None,
            control: 0,
        }); // ND-24, D-9
    }
    if r.state().in_play_count() <= 1 {
        return end_conflict(r, EndReason::LastPartyStanding, rng);
    }
    Ok(())
}

/// ND-25 / D-17: the GM confirms a Reframe at step 4; the Conflict ends at once.
pub fn reframe(
    r: &mut Ruling,
    seat: Seat,
    confirmed: bool,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    if seat != Seat::Gm {
        return Err(RuleError::not_your_call(
            "ND-25",
            seat,
            "a Reframe needs the GM's confirmation",
        ));
    }
    let st = r.state();
    aftermath(st, "D-17")?;
    if !confirmed {
        return Err(RuleError::illegal(
            "ND-25",
            "the GM must confirm that both goals and means changed",
        ));
    }
    let weaknesses = st
        .parties
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            p.lasting.iter().map(move |l| {
                let cards: Vec<&str> = l.cards.iter().map(|c| c.card.name()).collect();
                NewWeakness {
                    party: i as PartyId,
                    character: l.character,
                    name: format!("Lasting Loss ({})", cards.join(", ")),
                }
            })
        })
        .collect();
    r.emit(Event::Reframed { weaknesses });
    end_conflict(r, EndReason::Reframed, rng)
}

/// ND-22 steps 5–7: reshuffle, winners' refill (D-13), next round.
pub fn next_round(r: &mut Ruling, seat: Seat, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    if seat != Seat::Gm {
        return Err(RuleError::not_your_call(
            "ND-22",
            seat,
            "the GM moves the table to the next round",
        ));
    }
    let st = r.state();
    aftermath(st, "ND-22")?;
    let winners = st
        .round
        .result
        .as_ref()
        .map(|x| x.winners.clone())
        .unwrap_or_default();
    let refills: Vec<(PartyId, CharId)> = winners
        .iter()
        .filter_map(|w| {
            let p = st.party(*w)?;
            let k = receiver(p);
            let room = st.table.parties[*w as usize]
                .characters
                .get(k as usize)?
                .reserve_size as usize;
            (p.in_play() && p.characters.get(k as usize)?.reserve.len() < room).then_some((*w, k))
        })
        .collect();
    // Step 5 is computed here rather than read back, so the hot path copies no state.
    let mut deck = st.deck.union(st.discard);
    for p in &st.parties {
        deck = deck.union(p.bid_line.iter().map(|b| b.card).collect());
    }
    let seats: Vec<Seat> = refills
        .iter()
        .map(|(p, _)| st.table.parties[*p as usize].seat)
        .collect();
    let kind = if st.control == 0 {
        RoundKind::BalanceBreaker
    } else {
        RoundKind::Unbalanced
    };
    let e = Event::RoundStarted {
        number: st.round.number.saturating_add(1),
        kind,
        dominant: if st.control == 0 { None } else { st.dominant },
        control: st.control,
    };
    r.emit(Event::CardsReturned);
    for ((party, character), seat) in refills.into_iter().zip(seats) {
        let pool = deck.minus([crate::cards::EXCUSE].into_iter().collect());
        if pool.is_empty() {
            break;
        }
        let d = draw_from(pool, rng)?;
        deck.remove(d.card);
        r.emit(Event::ReserveDrawn {
            party,
            character,
            seat,
            card: Some(d.card),
            reversed: Some(d.reversed),
            reason: ReserveReason::Refill,
        });
    }
    r.emit(e);
    Ok(())
}

/// ND-21: at step 4 a party chooses which of this round's reversed cards mark its Loss.
pub fn keep_loss_cards(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    cards: &[Card],
) -> Result<(), RuleError> {
    let st = r.state();
    aftermath(st, "ND-21")?;
    let p = acting_party(st, seat, party, "ND-21", |q| {
        st.parties[q as usize].loss_this_round.is_some()
    })?;
    let ps = &st.parties[p as usize];
    let (kind, current): (LossKind, Vec<Card>) = match ps.loss_this_round {
        Some(LossKind::Temporary) => (
            LossKind::Temporary,
            ps.temporary.last().map(|t| t.card).into_iter().collect(),
        ),
        Some(LossKind::Lasting) => (
            LossKind::Lasting,
            ps.lasting
                .last()
                .map(|l| l.cards.iter().map(|c| c.card).collect())
                .unwrap_or_default(),
        ),
        None => {
            return Err(RuleError::illegal(
                "ND-21",
                "this party took no Loss this round",
            ));
        }
    };
    let keep = if kind == LossKind::Temporary { 1 } else { 3 };
    if cards.len() != keep {
        return Err(RuleError::illegal(
            "ND-21",
            match kind {
                LossKind::Temporary => "a Temporary Loss is marked by exactly 1 card".to_string(),
                LossKind::Lasting => "a Lasting Loss is marked by exactly 3 cards".to_string(),
            },
        ));
    }
    let eligible =
        |c: &Card| current.contains(c) || ps.bid_line.iter().any(|b| b.card == *c && b.reversed);
    let distinct = cards
        .iter()
        .enumerate()
        .all(|(i, c)| !cards[..i].contains(c));
    if !distinct || !cards.iter().all(eligible) {
        return Err(RuleError::illegal(
            "ND-21",
            "Loss cards are chosen among the party's reversed cards of this round",
        ));
    }
    if cards.iter().all(|c| current.contains(c)) {
        return Err(RuleError::illegal(
            "ND-21",
            "these cards already mark the Loss",
        ));
    }
    r.emit(Event::LossCardsChosen {
        party: p,
        cards: cards.to_vec(),
    });
    Ok(())
}
