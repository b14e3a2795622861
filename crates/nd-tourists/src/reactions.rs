//! The reaction window after each placement (ND-12, D-4): reject (ND-19), turn (ND-18),
//! cover (ND-20), in that order.

use clash_core::{Randomness, RuleError, Seat};

use crate::bidding::{after_close, closing_needs_check, excuse, place};
use crate::cards::Card;
use crate::events::{Citation, Event};
use crate::ruling::Ruling;
use crate::seating::{acting_party, controls, named_character};
use crate::state::{BidCard, CharId, PartyId, PartyState, Phase, RoundKind, State};

/// Anyone could still reject, turn or cover a card `drawer` places now.
pub fn possible(st: &State, drawer: PartyId) -> bool {
    reject_possible(st, drawer) || turn_possible(st) || cover_possible(st)
}

fn reject_possible(st: &State, drawer: PartyId) -> bool {
    st.party(drawer).is_some_and(PartyState::has_face_up_loss) && st.in_play().any(|q| q != drawer)
}

fn turn_possible(st: &State) -> bool {
    st.round.kind == RoundKind::Unbalanced
        && st.tokens > 0
        && st
            .dominant
            .is_some_and(|d| st.parties[d as usize].in_play())
}

fn cover_possible(st: &State) -> bool {
    st.parties.iter().any(|p| {
        p.in_play()
            && p.characters
                .iter()
                .any(|c| !c.conceded && !c.reserve.is_empty())
    })
}

/// The party whose card awaits reactions, and that card.
fn open_window(st: &State) -> Result<(PartyId, BidCard), RuleError> {
    let none = || RuleError::illegal("ND-12", "no card is awaiting reactions");
    if st.phase != Phase::Bidding {
        return Err(none());
    }
    let drawer = st.round.window.ok_or_else(none)?;
    let card = st
        .party(drawer)
        .and_then(|p| p.bid_line.last())
        .copied()
        .ok_or_else(none)?;
    Ok((drawer, card))
}

/// Close `drawer`'s window: the placement is final, the turn moves on, ND-16b is checked.
pub fn close(r: &mut Ruling, drawer: PartyId, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    let st = r.state();
    let count = st.party(drawer).map_or(0, PartyState::reversed_count);
    let needs_check = closing_needs_check(st, drawer, count);
    r.emit(Event::WindowClosed { party: drawer });
    if needs_check {
        after_close(r, drawer, rng)
    } else {
        Ok(())
    }
}

/// D-4: nobody (else) reacts. Any seat at the table may say so.
pub fn close_window(r: &mut Ruling, seat: Seat, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    let st = r.state();
    let (drawer, _) = open_window(st)?;
    if seat != Seat::Gm && !st.in_play().any(|p| controls(st, seat, p)) {
        return Err(RuleError::not_your_call(
            "ND-12",
            seat,
            "only the GM and parties in the Conflict close windows",
        ));
    }
    close(r, drawer, rng)
}

/// ND-19: another party rejects the card just drawn, using the drawer's face-up Loss. With one
/// face-up Loss card the rejection takes effect at once; with several, the drawer first chooses
/// the card to spend (D-14, [`spend_loss`]).
pub fn reject(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let st = r.state();
    let (drawer, placed) = open_window(st)?;
    let by = acting_party(st, seat, party, "ND-19", |q| q != drawer)?;
    if by == drawer {
        return Err(RuleError::illegal(
            "ND-19",
            "a party cannot reject its own card",
        ));
    }
    if !st.parties[by as usize].in_play() {
        return Err(RuleError::illegal(
            "ND-19",
            "only a party still in the Conflict may reject",
        ));
    }
    if placed.cover {
        return Err(RuleError::illegal(
            "ND-19",
            "a Reserve card cannot be rejected",
        ));
    }
    if placed.turned {
        return Err(RuleError::illegal(
            "D-4",
            "rejection comes before turning: this card was turned",
        ));
    }
    let (first, second) = {
        let mut losses = st.parties[drawer as usize].spendable_losses();
        (losses.next(), losses.next())
    };
    let no_loss = format!(
        "{} shows no face-up Loss",
        st.table.parties[drawer as usize].name
    );
    match (first, second) {
        (None, _) => Err(RuleError::illegal("ND-19", no_loss)),
        (Some(only), None) => carry_out(r, by, drawer, placed, only, rng),
        (Some(_), Some(_)) => {
            r.emit(Event::RejectionClaimed { by, party: drawer });
            Ok(())
        }
    }
}

/// D-14: the drawer names the face-up Loss card that pays for the rejection of its card.
pub fn spend_loss(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    card: Card,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let st = r.state();
    let by = st
        .round
        .rejection
        .ok_or_else(|| RuleError::illegal("ND-19", "no rejection is waiting for a Loss card"))?;
    let (drawer, placed) = open_window(st)?;
    let chooser = acting_party(st, seat, party, "D-14", |q| q == drawer)?;
    if chooser != drawer {
        return Err(RuleError::not_your_call(
            "D-14",
            seat,
            "the party whose card was rejected chooses the Loss card",
        ));
    }
    let spent = st.parties[drawer as usize]
        .spendable_losses()
        .find(|(c, _)| *c == card)
        .ok_or_else(|| {
            RuleError::illegal(
                "ND-19",
                format!("{card} is not one of your face-up Loss cards"),
            )
        })?;
    carry_out(r, by, drawer, placed, spent, rng)
}

/// ND-19: the drawer discards the rejected card, spends `spent` (card, Lasting?) and draws a
/// replacement at once (D-4: same bid, new window).
fn carry_out(
    r: &mut Ruling,
    by: PartyId,
    drawer: PartyId,
    placed: BidCard,
    (spent, lasting): (Card, bool),
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    r.emit(Event::CardRejected {
        by,
        party: drawer,
        card: placed.card,
        spent,
        lasting,
    });
    match r.draw(rng, false)? {
        None => close(r, drawer, rng),
        Some(d) if d.card.is_excuse() => excuse(r, drawer, placed.drawer, rng),
        Some(d) => place(r, drawer, placed.drawer, d, rng),
    }
}

/// ND-18: the Dominant pays one token to turn the card just placed.
pub fn turn(r: &mut Ruling, seat: Seat, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    let st = r.state();
    let (drawer, placed) = open_window(st)?;
    if st.round.kind == RoundKind::BalanceBreaker {
        return Err(RuleError::illegal(
            "ND-14",
            "no Control tokens exist in a Balance Breaker",
        ));
    }
    let d = st
        .dominant
        .ok_or_else(|| RuleError::illegal("ND-18", "nobody holds Control"))?;
    if !controls(st, seat, d) {
        return Err(RuleError::not_your_call(
            "ND-18",
            seat,
            "only the Dominant turns cards",
        ));
    }
    if st.tokens == 0 {
        return Err(RuleError::illegal(
            "ND-9",
            "no Control token is left this round",
        ));
    }
    if placed.cover {
        return Err(RuleError::illegal(
            "ND-18",
            "Reserve cards cannot be turned",
        ));
    }
    if placed.turned {
        return Err(RuleError::illegal("ND-18", "a card is turned at most once"));
    }
    let cover_next = cover_possible(st);
    r.emit(Event::CardTurned {
        party: drawer,
        reversed: !placed.reversed,
    });
    if cover_next {
        Ok(())
    } else {
        close(r, drawer, rng)
    }
}

/// Who holds `card` in `by`'s Reserve: the named character, else the first holding it.
fn reserve_holder(
    st: &State,
    by: PartyId,
    character: &Option<String>,
    card: Card,
) -> Result<CharId, RuleError> {
    let sheet = &st.table.parties[by as usize];
    let party = &st.parties[by as usize];
    let holds = |k: usize| {
        party
            .characters
            .get(k)
            .is_some_and(|c| c.reserve.iter().any(|x| x.card == card))
    };
    let k = match character {
        Some(n) => named_character(sheet, n)?,
        None => (0..party.characters.len()).find(|k| holds(*k)).unwrap_or(0),
    };
    if !holds(k) {
        return Err(RuleError::illegal(
            "ND-20",
            format!("{} has no {card} in its own Reserve", sheet.name),
        ));
    }
    if party.characters[k].conceded {
        return Err(RuleError::illegal(
            "ND-31",
            "a character who conceded no longer plays",
        ));
    }
    Ok(k as CharId)
}

/// ND-20 / ND-30: the cited trait must belong to the coverer's own character (own card) or to
/// the drawer's party (another party's card).
fn citation_fits(st: &State, by: PartyId, ch: CharId, drawer: PartyId, cite: &Citation) -> bool {
    let own = by == drawer;
    let sheet = &st.table.parties[drawer as usize];
    let party = &st.parties[drawer as usize];
    let chars = sheet
        .characters
        .iter()
        .enumerate()
        .filter(|(k, _)| !own || *k == ch as usize);
    let mine = |k: usize| !own || k == ch as usize;
    match cite {
        Citation::Aspect(n) => chars
            .flat_map(|(_, c)| &c.aspects)
            .any(|t| t.name().eq_ignore_ascii_case(n)),
        Citation::Weakness(n) => {
            chars
                .flat_map(|(_, c)| &c.weaknesses)
                .any(|t| t.name().eq_ignore_ascii_case(n))
                || party.characters.iter().enumerate().any(|(k, c)| {
                    mine(k) && c.new_weaknesses.iter().any(|w| w.eq_ignore_ascii_case(n))
                })
        }
        Citation::Loss(card) => {
            party
                .temporary
                .iter()
                .any(|t| t.card == *card && mine(t.character as usize))
                || party
                    .lasting
                    .iter()
                    .any(|l| mine(l.character as usize) && l.cards.iter().any(|c| c.card == *card))
        }
    }
}

/// ND-20: a party lays one of its own Reserve cards over the card just placed or turned.
#[allow(clippy::too_many_arguments)]
pub fn cover(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    character: &Option<String>,
    card: Card,
    cite: &Option<Citation>,
    accepted: bool,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let st = r.state();
    let (drawer, placed) = open_window(st)?;
    let by = acting_party(st, seat, party, "ND-20", |q| {
        st.parties[q as usize]
            .characters
            .iter()
            .any(|c| c.reserve.iter().any(|x| x.card == card))
    })?;
    if !st.parties[by as usize].in_play() {
        return Err(RuleError::illegal(
            "ND-20",
            "only a party still in the Conflict may cover",
        ));
    }
    if placed.cover {
        return Err(RuleError::illegal("D-4", "this card is already covered"));
    }
    let ch = reserve_holder(st, by, character, card)?;
    let cite = cite.as_ref().ok_or_else(|| {
        RuleError::illegal(
            "ND-20",
            "a cover needs a narrated Aspect, Weakness or Loss (\"cite\")",
        )
    })?;
    if !citation_fits(st, by, ch, drawer, cite) {
        let whose = if by == drawer {
            "the covering character's own"
        } else {
            "the covered party's"
        };
        return Err(RuleError::illegal(
            "ND-20",
            format!("the citation must be one of {whose} Aspects, Weaknesses or Losses"),
        ));
    }
    if !accepted {
        return Err(RuleError::illegal(
            "ND-20",
            "the table has not validated the narration (\"accepted\": true)",
        ));
    }
    let reversed = st.parties[by as usize].characters[ch as usize]
        .reserve
        .iter()
        .find(|x| x.card == card)
        .is_some_and(|x| x.reversed);
    r.emit(Event::CardCovered {
        by,
        character: ch,
        party: drawer,
        cover: card,
        reversed,
        covered: placed.card,
        cite: cite.clone(),
    });
    close(r, drawer, rng)
}
