//! The reaction window after each placement (ND-12, D-4): reject (ND-19), turn (ND-18),
//! cover (ND-20), in that order.
//!
//! # Who reacts when (D-4)
//!
//! Every chance to react is a *slot*: a kind of reaction and a party that could make it now.
//! Slots are offered one at a time, all rejections first, then the Dominant's turn, then
//! covers; within a kind, parties in seating order starting after the drawer (the drawer
//! itself comes last, for a cover of its own card). The party whose slot it is reacts or lets
//! the card stand. A party can react only when it can really do so:
//!
//! * reject: a party in play other than the drawer, while the drawer shows a face-up Loss and
//!   the card has been neither turned nor covered;
//! * turn: the Dominant, in an Unbalanced round, with a token left, on a card not yet turned;
//! * cover: a party in play with a Reserve card held by a character who has not conceded.
//!
//! A rejection starts a new window for the replacement card; a turn moves on to the covers; a
//! cover ends the window. A seat may act on a later slot of its own (or bid or pass, which
//! ends the window) when every slot before it is also its own: it declines those by acting,
//! and can never skip another seat's chance.
//!
//! # Which chances a party is asked about (our decision for play at a distance)
//!
//! D-4 fixes the order of the chances; it does not say that a table stops for every one. At a
//! real table nobody says "pass" aloud: whoever wants to react speaks up. Asked at every
//! chance, an evening's Conflict cost each player two to four "let it stand" taps for every
//! card they bid (issue 38: 55, 63 and 40 taps against 20, 15 and 16 bids). So each party has a
//! standing choice of which chances it is *asked* about ([`Asking`]), and a chance it is not
//! asked about passes by itself, exactly as its "let it stand" would, with the order kept:
//!
//! * **Only to save its own cards** (what the table's forms and ready-made setups start each
//!   party with): asked when a reaction could spare one of its own cards, that is a reversed
//!   card it has just placed (or that was just turned), to cover with one of its Reserve
//!   cards or, as the Dominant with a token, to turn. Only what everyone sees decides it (the
//!   card's orientation, a token, a Reserve's size), never whether the Reserve holds an
//!   upright card, so being asked tells nobody anything. A party asked about such a card at
//!   both its turn and its cover answers once: its "let it stand" lets the card stand for all
//!   its chances until the card changes.
//! * **At every chance** (a setup that says nothing, so tables made before replay as played):
//!   reject, turn and cover any card, optionally never to reject.
//! * **No reactions this round.**
//!
//! A window opens only when someone is asked, so a card nobody is asked about is final at
//! once and adds no line to the log. With the first choice a party taps "let it stand" at most
//! once per card of its own, and only for a reversed one it chose not to save: fewer taps than
//! bids (the `asking` test plays whole Conflicts and counts them). A party that wants to reject,
//! or to turn or cover another party's cards, chooses to be asked at every chance.

use clash_core::{Randomness, RuleError, Seat};

use crate::bidding::{after_close, closing_needs_check, excuse, place};
use crate::cards::Card;
use crate::command::{Citation, Event};
use crate::ruling::Ruling;
use crate::seating::{acting_party, controls, named_character, named_party};
use crate::state::{
    Asking, AutoPass, BidCard, CharId, PartyId, PartyState, Phase, Reacting, ReactionStep,
    RoundKind, State,
};

/// Whether party `q` could make reaction `step` to `card`, just placed by `drawer`.
fn eligible(st: &State, drawer: PartyId, card: &BidCard, step: ReactionStep, q: PartyId) -> bool {
    let Some(party) = st.party(q) else {
        return false;
    };
    if !party.in_play() || card.cover || card.narrative {
        return false;
    }
    match step {
        ReactionStep::Reject => {
            q != drawer
                && !card.turned
                && st.party(drawer).is_some_and(PartyState::has_face_up_loss)
        }
        ReactionStep::Turn => st.dominant == Some(q) && !card.turned && tokens_to_spend(st),
        // Cards still to be dealt to a position's Reserves count: they are held, just unseen.
        ReactionStep::Cover => party
            .characters
            .iter()
            .any(|c| !c.conceded && (!c.reserve.is_empty() || c.unseen > 0)),
    }
}

/// ND-9, ND-14: the Dominant holds a token it may spend this round.
fn tokens_to_spend(st: &State) -> bool {
    st.round.kind == RoundKind::Unbalanced
        && st.tokens > 0
        && st
            .dominant
            .is_some_and(|d| st.party(d).is_some_and(PartyState::in_play))
}

/// Every slot in D-4 order (eligible or not), each with its rank: kind first, then seating
/// order starting after the drawer.
fn all_slots(st: &State, drawer: PartyId) -> impl Iterator<Item = (usize, Reacting)> {
    let n = st.parties.len();
    ReactionStep::ALL
        .into_iter()
        .flat_map(move |step| {
            (1..=n).map(move |k| Reacting {
                step,
                party: ((drawer as usize + k) % n) as PartyId,
            })
        })
        .enumerate()
}

/// Whether reaction `step` by party `q` could spare one of its own cards: `card` is its own and
/// reversed, and the reaction is a turn or a cover (eligibility already says the party has
/// the token or the Reserve card). Only what everyone sees decides it: whether the Reserve
/// holds an upright card is the party's secret, and being asked must not tell it.
fn saves(drawer: PartyId, card: &BidCard, step: ReactionStep, q: PartyId) -> bool {
    q == drawer && card.reversed && step != ReactionStep::Reject
}

/// Whether the party of `slot` is asked about it: its standing choice does not let it pass.
fn asked(st: &State, drawer: PartyId, card: &BidCard, slot: Reacting) -> bool {
    let saving = saves(drawer, card, slot.step, slot.party);
    st.party(slot.party)
        .is_some_and(|p| !p.auto_pass.passes(slot.step, st.round.number, saving))
}

/// The slots still to be offered for `card`, strictly after `after` (from the start when
/// `None`), in D-4 order: the chances someone is asked about.
fn queue<'a>(
    st: &'a State,
    drawer: PartyId,
    card: BidCard,
    after: Option<Reacting>,
) -> impl Iterator<Item = Reacting> + 'a {
    let from = after.and_then(|a| all_slots(st, drawer).find(|(_, s)| *s == a).map(|(k, _)| k));
    all_slots(st, drawer)
        .filter(move |(k, _)| from.is_none_or(|f| *k > f))
        .map(|(_, s)| s)
        .filter(move |s| eligible(st, drawer, &card, s.step, s.party))
        .filter(move |s| asked(st, drawer, &card, *s))
}

/// Whether anyone is asked to react to `card` if `drawer` placed it now (ND-12: else no
/// window, and the placement is final at once).
pub fn possible(st: &State, drawer: PartyId, card: &BidCard) -> bool {
    queue(st, drawer, *card, None).next().is_some()
}

/// The first slot of the window on `drawer`'s last card (or none: nobody can react).
pub fn first(st: &State, drawer: PartyId) -> Option<Reacting> {
    let card = *st.party(drawer)?.bid_line.last()?;
    queue(st, drawer, card, None).next()
}

/// The slot after `slot` in the window on `drawer`'s last card.
pub fn after(st: &State, drawer: PartyId, slot: Reacting) -> Option<Reacting> {
    let card = *st.party(drawer)?.bid_line.last()?;
    queue(st, drawer, card, Some(slot)).next()
}

/// An open window: whose card, which card, and whose turn it is to react.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub drawer: PartyId,
    pub card: BidCard,
    pub now: Option<Reacting>,
}

impl Window {
    /// The slots still open, the current one first.
    fn remaining<'a>(&self, st: &'a State) -> impl Iterator<Item = Reacting> + 'a {
        let (now, drawer, card) = (self.now, self.drawer, self.card);
        now.into_iter().chain(
            now.into_iter()
                .flat_map(move |n| queue(st, drawer, card, Some(n))),
        )
    }
}

/// The party whose card awaits reactions, and that card.
pub fn open_window(st: &State) -> Result<Window, RuleError> {
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
    Ok(Window {
        drawer,
        card,
        now: st.round.reacting,
    })
}

fn name(st: &State, p: PartyId) -> &str {
    st.table
        .parties
        .get(p as usize)
        .map_or("another party", |s| s.name.as_str())
}

/// D-4: waiting for the party in `slot` to react or let the card stand.
fn waiting_for(st: &State, w: &Window, slot: Reacting) -> RuleError {
    RuleError::illegal(
        "D-4",
        format!(
            "waiting for {} to {} {} {} or let it stand (reactions go reject, turn, cover, in seating order after the drawer)",
            name(st, slot.party),
            slot.step.verb(),
            crate::view::whose(st, slot.party, w.drawer),
            w.card.card
        ),
    )
}

/// D-4: `seat` may take `slot` now when every slot before it is its own (it declines those).
fn reach(st: &State, w: &Window, seat: Seat, slot: Reacting) -> Result<(), RuleError> {
    for s in w.remaining(st) {
        if s == slot {
            return Ok(());
        }
        if !controls(st, seat, s.party) {
            return Err(waiting_for(st, w, s));
        }
    }
    let what = format!(
        "{} {} {}",
        slot.step.verb(),
        crate::view::whose(st, slot.party, w.drawer),
        w.card.card
    );
    if eligible(st, w.drawer, &w.card, slot.step, slot.party) && !asked(st, w.drawer, &w.card, slot)
    {
        return Err(RuleError::illegal(
            "D-4",
            format!(
                "{} lets such chances pass by its standing choice, so it cannot {what}: to react to any card, choose to be asked at every chance",
                name(st, slot.party)
            ),
        ));
    }
    Err(RuleError::illegal(
        "D-4",
        format!(
            "{} has no chance left to {what}: each party reacts once per kind, reject before turn before cover",
            name(st, slot.party)
        ),
    ))
}

/// D-4: a bid or pass while the window is open declines the sender's remaining reactions, and
/// is refused while anyone else still has a chance to react.
pub fn decline_all(st: &State, seat: Seat) -> Result<(), RuleError> {
    let w = open_window(st)?;
    match w.remaining(st).find(|s| !controls(st, seat, s.party)) {
        Some(s) => Err(waiting_for(st, &w, s)),
        None => Ok(()),
    }
}

/// The first open slot of kind `step` that `seat` speaks for and `fits` accepts.
fn slot_of(
    st: &State,
    w: &Window,
    seat: Seat,
    step: ReactionStep,
    fits: impl Fn(PartyId) -> bool,
) -> Option<PartyId> {
    w.remaining(st)
        .find(|s| s.step == step && controls(st, seat, s.party) && fits(s.party))
        .map(|s| s.party)
}

/// Close `drawer`'s window: the placement is final, the turn moves on, ND-16b is checked.
pub fn close(r: &mut Ruling, drawer: PartyId, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    close_with(r, drawer, Event::WindowClosed { party: drawer }, rng)
}

/// [`close`], with `closing` as the event that closes the window.
fn close_with(
    r: &mut Ruling,
    drawer: PartyId,
    closing: Event,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let st = r.state();
    let count = st.party(drawer).map_or(0, PartyState::reversed_count);
    let needs_check = closing_needs_check(st, drawer, count);
    r.emit(closing);
    if needs_check {
        after_close(r, drawer, rng)
    } else {
        Ok(())
    }
}

/// D-4: the party whose turn it is to react lets the card stand; the next party in line gets
/// its chance, and once nobody is left the placement is final.
pub fn let_it_stand(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let st = r.state();
    let w = open_window(st)?;
    let slot = match party {
        Some(n) => {
            let p = named_party(st, seat, n, "D-4")?;
            w.remaining(st).find(|s| s.party == p).ok_or_else(|| {
                RuleError::illegal(
                    "D-4",
                    format!("{n} has no chance left to react to this card"),
                )
            })?
        }
        None => match w.now {
            Some(now) if controls(st, seat, now.party) => now,
            Some(now) => return Err(waiting_for(st, &w, now)),
            None => return Err(RuleError::illegal("ND-12", "nobody is left to react")),
        },
    };
    reach(st, &w, seat, slot)?;
    stand(r, &w, slot, rng)
}

/// Whether the standing choice of `slot`'s party lets that chance pass by itself.
fn passes_by_itself(st: &State, w: &Window, slot: Reacting) -> bool {
    !asked(st, w.drawer, &w.card, slot)
}

/// D-4: `first` lets the card stand, and so does every chance right after it that passes by
/// itself or is another of the same parties' (a party that lets a card stand does so for all
/// its chances on it, until the card changes), all in one event (one line of the log, not one
/// a party); once nobody is left to ask the window closes.
fn stand(
    r: &mut Ruling,
    w: &Window,
    first: Reacting,
    rng: &mut dyn Randomness,
) -> Result<(), RuleError> {
    let st = r.state();
    let mut by = vec![first.party];
    let mut next = after(st, w.drawer, first);
    // Asked only about its own cards, a party answers once per card; asked at every chance it
    // answers each chance, as D-4 lists them (and tables made before replay as played).
    let once = |by: &[PartyId], p: PartyId| {
        by.contains(&p)
            && st
                .party(p)
                .is_some_and(|x| x.auto_pass.asking == Asking::OwnCards)
    };
    while let Some(slot) = next.filter(|s| passes_by_itself(st, w, *s) || once(&by, s.party)) {
        if !by.contains(&slot.party) {
            by.push(slot.party);
        }
        next = after(st, w.drawer, slot);
    }
    let event = Event::LeftStanding {
        party: w.drawer,
        card: w.card.card,
        by,
        then: next,
        turned: w.card.turned,
    };
    match next {
        Some(_) => {
            r.emit(event);
            Ok(())
        }
        None => close_with(r, w.drawer, event, rng),
    }
}

/// After any command: while the chance to react belongs to a party whose standing choice lets
/// it pass, it passes (with the chances right after it), so nobody waits on a party that has
/// already answered. Nothing passes while a rejected drawer chooses its Loss card (D-14).
pub fn pass_standing(r: &mut Ruling, rng: &mut dyn Randomness) -> Result<(), RuleError> {
    loop {
        let st = r.state();
        if st.phase != Phase::Bidding || st.round.rejection.is_some() {
            return Ok(());
        }
        let Ok(w) = open_window(st) else {
            return Ok(());
        };
        match w.now {
            Some(now) if passes_by_itself(st, &w, now) => stand(r, &w, now, rng)?,
            _ => return Ok(()),
        }
    }
}

/// A party's standing choice of which chances to react pass by themselves ([`AutoPass`]);
/// `asking` unsaid keeps what the party is asked about.
pub fn set_auto_pass(
    r: &mut Ruling,
    seat: Seat,
    party: &Option<String>,
    rejections: bool,
    this_round: bool,
    asking: Option<Asking>,
) -> Result<(), RuleError> {
    let st = r.state();
    if this_round && st.phase != Phase::Bidding {
        return Err(RuleError::illegal(
            "D-4",
            "no round is being bid now: “no reactions this round” waits for one",
        ));
    }
    let p = acting_party(st, seat, party, "D-4", |_| true)?;
    let choice = AutoPass {
        rejections,
        round: this_round.then_some(st.round.number),
        asking: asking.unwrap_or(st.parties[p as usize].auto_pass.asking),
    };
    if st.parties[p as usize].auto_pass == choice {
        return Err(RuleError::illegal(
            "D-4",
            format!("{} has already chosen this", name(st, p)),
        ));
    }
    r.emit(Event::AutoPassSet { party: p, choice });
    Ok(())
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
    let w = open_window(st)?;
    let (drawer, placed) = (w.drawer, w.card);
    let by = match (party, slot_of(st, &w, seat, ReactionStep::Reject, |_| true)) {
        (None, Some(p)) => p,
        _ => acting_party(st, seat, party, "ND-19", |q| q != drawer)?,
    };
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
    if first.is_none() {
        return Err(RuleError::illegal(
            "ND-19",
            format!("{} shows no face-up Loss", name(st, drawer)),
        ));
    }
    reach(
        st,
        &w,
        seat,
        Reacting {
            step: ReactionStep::Reject,
            party: by,
        },
    )?;
    match (first, second) {
        (Some(only), None) => carry_out(r, by, drawer, placed, only, rng),
        _ => {
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
    let w = open_window(st)?;
    let (drawer, placed) = (w.drawer, w.card);
    let chooser = acting_party(st, seat, party, "D-14", |q| q == drawer)?;
    if chooser != drawer {
        return Err(RuleError::not_your_call(
            "D-14",
            seat,
            format!(
                "{} chooses the Loss card, since its card was rejected",
                name(st, drawer)
            ),
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
    let w = open_window(st)?;
    let (drawer, placed) = (w.drawer, w.card);
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
            format!("only the Dominant, {}, turns cards", name(st, d)),
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
    reach(
        st,
        &w,
        seat,
        Reacting {
            step: ReactionStep::Turn,
            party: d,
        },
    )?;
    r.emit(Event::CardTurned {
        party: drawer,
        reversed: !placed.reversed,
    });
    if r.state().round.reacting.is_none() {
        close(r, drawer, rng)?;
    }
    Ok(())
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
pub fn citation_fits(
    st: &State,
    by: PartyId,
    ch: CharId,
    drawer: PartyId,
    cite: &Citation,
) -> bool {
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
    let w = open_window(st)?;
    let (drawer, placed) = (w.drawer, w.card);
    let holds = |q: PartyId| {
        st.parties[q as usize]
            .characters
            .iter()
            .any(|c| c.reserve.iter().any(|x| x.card == card))
    };
    let by = match (party, slot_of(st, &w, seat, ReactionStep::Cover, holds)) {
        (None, Some(p)) => p,
        _ => acting_party(st, seat, party, "ND-20", holds)?,
    };
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
            "a cover needs the Aspect, Weakness or Loss its narration rests on",
        )
    })?;
    if let Citation::Aspect(n) | Citation::Weakness(n) = cite {
        crate::limits::TABLE.name("a cited Aspect or Weakness", n)?;
    }
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
            "the table has not accepted the narration",
        ));
    }
    reach(
        st,
        &w,
        seat,
        Reacting {
            step: ReactionStep::Cover,
            party: by,
        },
    )?;
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

#[cfg(test)]
mod tests {
    use clash_core::{Ruleset, SeededRandomness, text::raw_tokens};
    use serde_json::json;

    use super::*;
    use crate::{Command, NdTourists};

    /// Three player parties (no NPC Reserve to draw), each able to cover: every card placed
    /// opens a window with a chance for each party.
    fn table() -> State {
        let setup = serde_json::from_value(json!({"parties": [
            {"name": "TMDF", "seat": "p1", "characters": [{"name": "TMDF",
                "attribute": {"name": "Paper", "value": 5}, "aspects": ["Bold"], "reserve": ["Rock Lover"]}]},
            {"name": "US", "seat": "p2", "characters": [{"name": "US",
                "attribute": {"name": "Blades", "value": 5}, "aspects": ["Armed"], "reserve": ["XIX"]}]},
            {"name": "Levinulon", "seat": "p3", "characters": [{"name": "Levinulon",
                "attribute": {"name": "Destroy", "value": 8}, "reserve": ["Serpent Home"]}]}
        ]}))
        .unwrap();
        let mut st = NdTourists::setup(&setup).unwrap();
        run(&mut st, Seat::Gm, Command::Start {});
        st
    }

    fn run(st: &mut State, seat: Seat, command: Command) -> Vec<Event> {
        let mut rng = SeededRandomness::new(7);
        let events = NdTourists::decide(st, seat, &command, &mut rng)
            .unwrap_or_else(|e| panic!("{command:?}: {e}"));
        for e in &events {
            NdTourists::apply(st, e);
        }
        events
    }

    fn quiet(party: &str, rejections: bool, this_round: bool) -> Command {
        Command::AutoPass {
            party: Some(party.into()),
            rejections,
            this_round,
            asking: None,
        }
    }

    fn turn_seat(st: &State) -> Seat {
        st.table.parties[st.round.turn.unwrap() as usize].seat
    }

    #[test]
    fn d4_without_standing_choices_every_party_is_still_asked() {
        let mut st = table();
        let seat = turn_seat(&st);
        run(
            &mut st,
            seat,
            Command::Bid {
                party: None,
                character: None,
            },
        );
        assert!(st.round.window.is_some() && st.round.reacting.is_some());
    }

    #[test]
    fn d4_no_reactions_this_round_passes_every_chance_without_a_window() {
        let mut st = table();
        for p in ["TMDF", "US", "Levinulon"] {
            let seat = st.table.parties[st.table.find_party(p).unwrap() as usize].seat;
            run(&mut st, seat, quiet(p, false, true));
        }
        let seat = turn_seat(&st);
        let drawer = st.round.turn;
        let events = run(
            &mut st,
            seat,
            Command::Bid {
                party: None,
                character: None,
            },
        );
        // Nobody is asked, so no window opens (issue 38: a card nobody is asked about adds no
        // "nobody reacts" line to the log): the placement is final and the turn moves on.
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::LeftStanding { .. } | Event::WindowClosed { .. })),
            "{events:?}"
        );
        assert!(matches!(
            events.last(),
            Some(Event::CardPlaced { window: false, .. })
        ));
        assert_eq!(st.round.window, None);
        assert_ne!(st.round.turn, drawer);
        let line = crate::view::narrate(&st, events.last().unwrap());
        assert!(raw_tokens(&line).is_empty(), "{line}");
    }

    #[test]
    fn d4_a_standing_choice_ends_with_the_round() {
        let mut st = table();
        run(&mut st, Seat::Player(2), quiet("US", false, true));
        let number = st.round.number;
        let us = st.table.find_party("US").unwrap();
        let auto = st.parties[us as usize].auto_pass;
        assert!(auto.passes(ReactionStep::Cover, number, false));
        assert!(!auto.passes(ReactionStep::Cover, number + 1, false));
    }

    #[test]
    fn d4_a_party_asked_by_hand_still_answers_for_itself() {
        let mut st = table();
        // Only the others pass by themselves: the window waits on the one who did not choose.
        let drawer = st.round.turn.unwrap();
        let names = ["TMDF", "US", "Levinulon"];
        let asked = names
            .iter()
            .copied()
            .find(|n| st.table.find_party(n) != Some(drawer))
            .unwrap();
        for p in names.iter().filter(|n| **n != asked) {
            let seat = st.table.parties[st.table.find_party(p).unwrap() as usize].seat;
            run(&mut st, seat, quiet(p, false, true));
        }
        let seat = turn_seat(&st);
        run(
            &mut st,
            seat,
            Command::Bid {
                party: None,
                character: None,
            },
        );
        let now = st
            .round
            .reacting
            .expect("the party without a standing choice is asked");
        assert_eq!(st.table.parties[now.party as usize].name, asked);
        let seat = st.table.parties[now.party as usize].seat;
        let events = run(&mut st, seat, Command::LetItStand { party: None });
        assert_eq!(st.round.window, None, "{events:?}");
        let line = crate::view::narrate(&st, events.last().unwrap());
        assert!(line.starts_with("Nobody reacts to "), "{line}");
    }

    #[test]
    fn d4_choosing_the_same_again_is_refused_and_others_cannot_choose_for_a_party() {
        let mut st = table();
        run(&mut st, Seat::Player(1), quiet("TMDF", true, false));
        let mut rng = SeededRandomness::new(1);
        let again = NdTourists::decide(&st, Seat::Player(1), &quiet("TMDF", true, false), &mut rng);
        assert!(again.is_err());
        let theirs =
            NdTourists::decide(&st, Seat::Player(2), &quiet("TMDF", false, true), &mut rng);
        assert!(theirs.is_err());
    }

    #[test]
    fn standing_choices_read_as_words() {
        let st = table();
        let set = |choice| Event::AutoPassSet { party: 1, choice };
        for choice in [
            AutoPass {
                rejections: true,
                round: None,
                asking: Asking::Every,
            },
            AutoPass {
                rejections: false,
                round: Some(1),
                asking: Asking::Every,
            },
            AutoPass {
                rejections: false,
                round: None,
                asking: Asking::OwnCards,
            },
            AutoPass::default(),
        ] {
            let line = crate::view::narrate(&st, &set(choice));
            assert!(line.starts_with("US "), "{line}");
            assert!(raw_tokens(&line).is_empty(), "{line}");
        }
    }
}
