//! The review of a finished N-Dimensional Tourists table ([`Reviewed`]): the Conflict charted
//! round by round, each party a side.
//!
//! A Conflict is decided only when one party is left, which can take dozens of rounds; what a
//! bid, a pass or a reaction changes is who wins the round (D-10), and with it Control. So here
//! **a party's chance is its chance of winning the round it is in**, and its result is the
//! rounds it won. The chart starts each round afresh.
//!
//! * **Chances** come from the draws still to come: the round is played on from the position
//!   [`PLAYOUTS`] times, each card drawn uniformly from the deck as the rules draw it (ND-2,
//!   ND-4) and every party bidding as the threshold bidder does ([`ThresholdBot`]: bid while the
//!   exact chance, from its own knowledge, that the next card helps is high enough).
//! * **A decision** (bid or pass, reject, turn, cover or let a card stand, which Loss card to
//!   spend) is judged against the seat's other choices from what the seat could see: the cards
//!   it cannot see are dealt at random from the cards it has not seen ([`deal`], as the strong
//!   bot deals them), and each choice is played on to the end of the round on the same
//!   [`DEALS`] deals with the same draws after it, so choices are compared on equal luck.
//! * **Luck**: every card a draw could have turned up, each way up, is weighed (the chance of
//!   the round from each, over [`RESULT_PLAYOUTS`] playouts).
//!
//! Tactics, conceding, reframing, the cards marking a Loss and the GM's business are not
//! judged.

use clash_analysis::bots::Bot;
use clash_analysis::review::{Conflict, GameVerdict, Judged, Later, Reviewed};
use clash_analysis::table_bots::{Seated, Sends, bot_commands};
use clash_core::review::Side;
use clash_core::{Randomness, Ruleset, SeatTable, SeededRandomness, execute};

use crate::analysis::seat_bots::deal;
use crate::analysis::threshold_bot::ThresholdBot;
use crate::state::{PartyId, Phase};
use crate::{Command, NdTourists, State};

/// Rounds played on for a chance of the chart.
pub const PLAYOUTS: u32 = 200;
/// Rounds played on for the chance after each other result of a draw.
pub const RESULT_PLAYOUTS: u32 = 40;
/// Deals (each played on once per choice) behind a decision's verdict.
pub const DEALS: u32 = 150;
/// Commands a round played on may take before it is scored as it stands.
const ROUND_COMMANDS: usize = 400;

fn sides(state: &State) -> Vec<Side> {
    state
        .table
        .parties
        .iter()
        .map(|p| Side {
            name: p.name.clone(),
            seats: vec![p.seat],
        })
        .collect()
}

/// Play `state` on to the end of its round with the threshold bidder in every seat.
fn play_round(state: &mut State, rng: &mut dyn Randomness) {
    let mut bidder = ThresholdBot::default();
    for _ in 0..ROUND_COMMANDS {
        if state.phase != Phase::Bidding {
            return;
        }
        let waiting = NdTourists::status(state).waiting_for;
        let Some((seat, command)) = waiting
            .into_iter()
            .find_map(|s| bidder.choose(state, s, rng).map(|c| (s, c)))
        else {
            return;
        };
        if execute::<NdTourists>(state, seat, &command, rng).is_err() {
            return;
        }
    }
}

/// Who won the round `state` has finished (1 each), or `None` while it is still being bid.
fn round_won(state: &State) -> Option<Vec<f64>> {
    if state.phase == Phase::Bidding || state.phase == Phase::Preparing {
        return None;
    }
    let n = state.parties.len();
    let mut out = vec![0.0; n];
    match &state.round.result {
        Some(r) => r.winners.iter().for_each(|w| {
            if let Some(x) = out.get_mut(usize::from(*w)) {
                *x = 1.0;
            }
        }),
        // The Conflict ended without a round result (a Reframe): the last party standing.
        None => {
            if let Some(v) = state.victor
                && let Some(x) = out.get_mut(usize::from(v))
            {
                *x = 1.0;
            }
        }
    }
    Some(out)
}

/// Each party's chance of winning the round, over `playouts` rounds played on.
fn round_chances(state: &State, seed: u64, playouts: u32) -> Result<Vec<f64>, String> {
    if let Some(won) = round_won(state) {
        return Ok(won);
    }
    if state.phase != Phase::Bidding {
        return Err("the Conflict has not begun".into());
    }
    let mut total = vec![0.0; state.parties.len()];
    for k in 0..playouts {
        let mut s = state.clone();
        let mut rng = SeededRandomness::for_command(seed, u64::from(k));
        play_round(&mut s, &mut rng);
        if let Some(won) = round_won(&s) {
            for (t, x) in total.iter_mut().zip(won) {
                *t += x;
            }
        }
    }
    Ok(total.into_iter().map(|t| t / f64::from(playouts)).collect())
}

/// The seat's parties.
fn parties_of(table: &SeatTable<NdTourists>) -> Vec<PartyId> {
    table
        .view
        .parties
        .iter()
        .enumerate()
        .filter(|(_, p)| p.seat == table.seat)
        .map(|(i, _)| i as PartyId)
        .collect()
}

/// The seat's party that acts now: the one asked to react, the drawer choosing a Loss card to
/// spend, or the one whose turn it is to bid.
fn acting(table: &SeatTable<NdTourists>) -> Option<PartyId> {
    let mine = parties_of(table);
    let r = &table.view.round;
    [
        r.reacting.as_ref().map(|x| x.party),
        r.rejection.and(r.window),
        r.turn,
    ]
    .into_iter()
    .flatten()
    .find(|p| mine.contains(p))
    .or_else(|| mine.first().copied())
}

/// A command in words, as the table would tell it.
fn words(command: &Command) -> String {
    match command {
        Command::Bid { .. } => "bid".into(),
        Command::Pass { .. } => "pass".into(),
        Command::Reject { .. } => "reject the card".into(),
        Command::Turn {} => "turn the card with a token".into(),
        Command::Cover { card, .. } => format!("cover it with {card}"),
        Command::LetItStand { .. } => "let the card stand".into(),
        Command::SpendLoss { card, .. } => format!("spend {card}"),
        _ => "another choice".into(),
    }
}

/// Each option's chance for the seat's party of winning the round, on the same deals.
fn weigh(
    table: &SeatTable<NdTourists>,
    options: &[Command],
    party: PartyId,
    seed: u64,
) -> Option<Vec<f64>> {
    let mut totals = vec![0.0; options.len()];
    let mut played = 0u32;
    for k in 0..DEALS {
        let mut dealer = SeededRandomness::for_command(seed, u64::from(k));
        let world = deal(table, &mut dealer)?;
        for (i, option) in options.iter().enumerate() {
            let mut luck = SeededRandomness::for_command(seed ^ 0x9e37_79b9, u64::from(k));
            let mut w = world.clone();
            if execute::<NdTourists>(&mut w, table.seat, option, &mut luck).is_err() {
                return None;
            }
            play_round(&mut w, &mut luck);
            totals[i] += round_won(&w)
                .and_then(|won| won.get(usize::from(party)).copied())
                .unwrap_or(0.0);
        }
        played += 1;
    }
    Some(
        totals
            .into_iter()
            .map(|t| t / f64::from(played.max(1)))
            .collect(),
    )
}

impl Reviewed for NdTourists {
    fn measure() -> Vec<String> {
        vec![
            "A Conflict is won only when one party is left, which can take many rounds; a bid, a pass or a reaction decides who wins the round (D-10). So a party's chance is its chance of winning the round it is in, and its result is the rounds it won.".into(),
            format!("Chances come from the draws still to come: the round is played on {PLAYOUTS} times, every card drawn as the rules draw it and every party bidding by the exact chance that its next card helps (the threshold bidder)."),
            format!("A decision is judged from what its seat could see: the cards it could not see are dealt at random from those it had not seen, and each choice it had is played on to the end of the round on the same {DEALS} deals."),
            format!("Luck is in the draws: every card a draw could have turned up, each way up, is weighed ({RESULT_PLAYOUTS} rounds played on from each)."),
        ]
    }

    fn conflict(state: &State) -> Option<Conflict> {
        if state.phase == Phase::Preparing {
            return None;
        }
        let sides = sides(state);
        let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
        Some(Conflict {
            title: format!("The Conflict: {}", names.join(", ")),
            sides,
        })
    }

    fn chances(state: &State, seed: u64) -> Result<Vec<f64>, String> {
        round_chances(state, seed, PLAYOUTS)
    }

    fn result_chances(state: &State, seed: u64) -> Result<Vec<f64>, String> {
        round_chances(state, seed, RESULT_PLAYOUTS)
    }

    fn result(state: &State) -> Option<Vec<f64>> {
        round_won(state)
    }

    /// A round scores its winners once its bidding ends.
    fn scored(before: &State, after: &State) -> Option<Vec<f64>> {
        let ended = before.phase == Phase::Bidding && after.phase != Phase::Bidding;
        if ended { round_won(after) } else { None }
    }

    fn decision(
        table: &SeatTable<NdTourists>,
        command: &Command,
        _later: &Later<'_, NdTourists>,
        seed: u64,
    ) -> Judged {
        if NdTourists::bot_sends(command) != Sends::Play || !table.to_act() {
            return Judged::NotJudged;
        }
        let mut options = bot_commands(table);
        options.dedup();
        if !options.contains(command) {
            options.push(command.clone());
        }
        if options.len() < 2 {
            return Judged::NotJudged;
        }
        let Some(party) = acting(table) else {
            return Judged::NotJudged;
        };
        let Some(values) = weigh(table, &options, party, seed) else {
            return Judged::Unevaluated("the seat's view could not be dealt out".into());
        };
        let played = options
            .iter()
            .position(|c| c == command)
            .map(|i| values[i])
            .unwrap_or(0.0);
        let (best, value) = options
            .iter()
            .zip(&values)
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(c, v)| (c, *v))
            .unwrap_or((command, played));
        Judged::Verdict(GameVerdict {
            side: usize::from(party),
            played,
            best: value,
            best_choice: words(best),
            hindsight: None,
            basis: format!(
                "{DEALS} deals of the cards the seat could not see, each choice played on to the end of the round"
            ),
        })
    }
}
