//! Iron Triangle at the table.
//!
//! * **casual**: a uniformly random play among those a bot sends (a stance, a move, joining,
//!   picking, passing a window, splitting a loss…);
//! * **strong**: at the stance step it solves the current turn as the two-stage game of
//!   [`crate::analysis::turn_game`] and samples its stance from its side's equilibrium mix; at the move
//!   step it solves the move game of the revealed stances and samples its move. Elsewhere it
//!   joins every conflict, picks as opponent the foe closest to being knocked out (fewest energy
//!   left), splits a loss so that its lowest type stays as high as it can, spares a surrendered
//!   foe, keeps its specials and never ends a chain of its own.
//!
//! Both strengths join every conflict they are called to, surrender only when no move is left
//! (IT-35) and never kill a surrendered foe: sitting out, giving up and killing are a person's
//! call.
//!
//! The turn is rebuilt from the seat's view: energies, maxima, disadvantage piles and the live
//! chain are public, and so are a PC's moves and combos; an NPC's sheet the seat may not see is
//! taken to know every move and no combo (IT-24). So a player's bot never knows more of an
//! NPC than its player does, and neither side ever sees the other's stance or move before the
//! reveal (IT-2): the view shows it only as "ready".
//!
//! ## Budget
//!
//! One unit of work is one move game (one pair of stances). A turn between fighters with `e`
//! and `f` energy in all has `(1 + e)(1 + f)` pairs; when that exceeds the budget's work, each
//! side's stances are thinned evenly (no stance, and amounts spread over each type) to fit, and
//! the thinned game is solved instead. The clock is checked between move games: if it runs out
//! first, the bot falls back to a casual stance.
//!
//! Every use of the solver ([`crate::analysis::turn_game`], [`clash_analysis::matrix_game`]) is in
//! [`equilibrium`].

use crate::conflict::visibility::ConflictView;
use crate::conflict::{ConflictCommand, MoveChoice, Stance, Status, Step};
use crate::{Command, IronTriangle, PerAction, TableView};
use clash_core::{Budget, Randomness, SeatBot, SeatTable};

use crate::analysis::in_play::{TurnSeen, sheet};
use crate::analysis::turn_game::Payoff;
use clash_analysis::bots::pick_random;
use clash_analysis::table_bots::{Casual, Deadline, Seated, Sends, bot_commands};

impl Seated for IronTriangle {
    /// A bot plays conflicts: it never starts or settles one, narrates, reveals an NPC's sheet
    /// or runs the campaign (problems, countdowns, rests, level-ups). Seated to fight, it joins
    /// every conflict it is called to (never sitting out or refusing lethality), surrenders only
    /// when it has no move left (IT-35) and never kills a surrendered foe.
    fn bot_sends(command: &Command) -> Sends {
        match command {
            Command::Conflict(c) => match c {
                ConflictCommand::StartConflict { .. }
                | ConflictCommand::SettleConflict { .. }
                | ConflictCommand::NarrateConflict { .. }
                | ConflictCommand::RevealNpc { .. }
                | ConflictCommand::SitOut { .. }
                | ConflictCommand::RefuseLethal {}
                | ConflictCommand::KillSurrendered {} => Sends::Never,
                ConflictCommand::PlayMove {
                    choice: MoveChoice::Surrender,
                    ..
                } => Sends::LastResort,
                _ => Sends::Play,
            },
            Command::Campaign(_) => Sends::Never,
        }
    }

    fn strong() -> Box<dyn SeatBot<Self>> {
        Box::new(Strong::default())
    }
}

/// The strong Iron Triangle bot.
#[derive(Debug, Clone, Copy, Default)]
pub struct Strong {
    /// What the turn's equilibrium maximises (energy taken minus energy lost, by default).
    pub payoff: Payoff,
}

/// What the seat should play this turn: a stance or a move, drawn from its mix.
enum Pick {
    Stance(Stance),
    Move(MoveChoice),
}

/// Draw an index from weights (any non-negative numbers) with the bot's randomness.
fn draw(weights: &[f64], rng: &mut dyn Randomness) -> Option<usize> {
    const SCALE: u32 = 1_000_000;
    let total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
    if total.is_nan() || total <= 0.0 {
        return None;
    }
    let r = f64::from(rng.roll(SCALE).ok()? - 1) / f64::from(SCALE) * total;
    let mut acc = 0.0;
    for (i, w) in weights.iter().enumerate() {
        acc += w.max(0.0);
        if r < acc {
            return Some(i);
        }
    }
    weights.iter().rposition(|w| *w > 0.0)
}

/// Keep at most `k` of `stances` (never fewer than one), spread evenly and always keeping the
/// first ("no stance").
fn thin(stances: Vec<Stance>, k: usize) -> Vec<Stance> {
    let k = k.max(1);
    if stances.len() <= k {
        return stances;
    }
    let n = stances.len();
    (0..k)
        .map(|i| i * (n - 1) / (k - 1).max(1))
        .filter_map(|i| stances.get(i).copied())
        .collect()
}

/// The equilibrium of the current turn for the seat's fighter, and a draw from it: the only
/// place the table bots use the turn solver.
fn equilibrium(
    turn: &TurnSeen,
    payoff: Payoff,
    deadline: &Deadline,
    rng: &mut dyn Randomness,
) -> Option<Pick> {
    use crate::analysis::turn_game::TurnPosition;
    use clash_analysis::matrix_game;

    let spec = &turn.spec;
    let pos = TurnPosition::new_under(spec, turn.rules).ok()?;
    if let Some((sa, sb)) = turn.revealed {
        let game = pos.move_matrix(sa, sb, payoff).ok()?;
        let s = matrix_game::solve_f64(&game.matrix).ok()?;
        let (options, mix) = if turn.mine_active {
            (&game.rows, &s.row)
        } else {
            (&game.cols, &s.col)
        };
        return options.get(draw(mix, rng)?).copied().map(Pick::Move);
    }
    // Fit the stance grid to the work budget: k × k pairs at most.
    let k = (f64::from(deadline.work).sqrt().floor() as usize).max(2);
    let sa = thin(pos.stances(&spec.active.name), k);
    let sb = thin(pos.stances(&spec.opponent.name), k);
    let mut values = Vec::with_capacity(sa.len());
    for x in &sa {
        let mut row = Vec::with_capacity(sb.len());
        for y in &sb {
            if deadline.passed() {
                return None;
            }
            let game = pos.move_matrix(*x, *y, payoff).ok()?;
            row.push(matrix_game::solve_f64(&game.matrix).ok()?.value);
        }
        values.push(row);
    }
    let s = matrix_game::solve(&values).ok()?;
    let (options, mix) = if turn.mine_active {
        (&sa, &s.row)
    } else {
        (&sb, &s.col)
    };
    options.get(draw(mix, rng)?).copied().map(Pick::Stance)
}

impl Strong {
    /// A stance or move from the equilibrium, as one of the seat's legal commands.
    fn turn_choice(
        &self,
        table: &SeatTable<IronTriangle>,
        options: &[Command],
        deadline: &Deadline,
        rng: &mut dyn Randomness,
    ) -> Option<Command> {
        let mut turn = TurnSeen::read(&table.view, table.seat)?;
        // The move game is played once both stances are revealed, at the move step.
        let at_moves = table.view.conflict.as_ref()?.turn.as_ref()?.step == Step::Moves;
        turn.revealed = turn.revealed.filter(|_| at_moves);
        let character = crate::Name::from(turn.mine());
        let command = match equilibrium(&turn, self.payoff, deadline, rng)? {
            Pick::Stance(s) => ConflictCommand::TakeStance {
                character,
                action: s.action,
                amount: s.amount,
            },
            Pick::Move(choice) => ConflictCommand::PlayMove { character, choice },
        };
        let command = Command::Conflict(command);
        options.contains(&command).then_some(command)
    }
}

/// Energy left to fighter `name` in all.
fn energy_of(conflict: &ConflictView, name: &str) -> u32 {
    conflict
        .fighters
        .iter()
        .find(|f| *f.name == *name)
        .map_or(u32::MAX, |f| f.energy.total())
}

fn lowest(p: &PerAction<u32>) -> u32 {
    p.defend.min(p.grapple).min(p.attack)
}

/// The best of `options` by the strong bot's rules for everything but stances and moves, or
/// `None` to leave it to chance.
fn routine(table: &SeatTable<IronTriangle>, options: &[Command]) -> Option<Command> {
    let conflict = table.view.conflict.as_ref()?;
    let conflict_command = |c: &Command| match c {
        Command::Conflict(c) => Some(c.clone()),
        Command::Campaign(_) => None,
    };
    let plays: Vec<ConflictCommand> = options.iter().filter_map(conflict_command).collect();
    let find = |f: &dyn Fn(&ConflictCommand) -> bool| plays.iter().find(|c| f(c)).cloned();
    if let Some(c) = find(&|c| matches!(c, ConflictCommand::JoinConflict { .. })) {
        return Some(Command::Conflict(c));
    }
    if let Some(c) = find(&|c| matches!(c, ConflictCommand::SpareSurrendered {})) {
        return Some(Command::Conflict(c));
    }
    let opponent = plays
        .iter()
        .filter_map(|c| match c {
            ConflictCommand::PickOpponent { opponent } => Some((c, energy_of(conflict, opponent))),
            _ => None,
        })
        .min_by_key(|(_, e)| *e);
    if let Some((c, _)) = opponent {
        return Some(Command::Conflict(c.clone()));
    }
    let active = plays
        .iter()
        .filter_map(|c| match c {
            ConflictCommand::PickActive { character } => Some((c, energy_of(conflict, character))),
            _ => None,
        })
        .filter(|(_, e)| *e != u32::MAX)
        .max_by_key(|(_, e)| *e);
    if let Some((c, _)) = active {
        return Some(Command::Conflict(c.clone()));
    }
    let split = plays
        .iter()
        .filter_map(|c| match c {
            ConflictCommand::SplitLoss { character, split } => {
                let f = conflict.fighters.iter().find(|f| f.name == *character)?;
                let left = PerAction {
                    defend: f.energy.defend.saturating_sub(split.defend),
                    grapple: f.energy.grapple.saturating_sub(split.grapple),
                    attack: f.energy.attack.saturating_sub(split.attack),
                };
                Some((c, lowest(&left)))
            }
            ConflictCommand::SplitGain { split, .. } => Some((c, lowest(split))),
            _ => None,
        })
        .max_by_key(|(_, low)| *low);
    if let Some((c, _)) = split {
        return Some(Command::Conflict(c.clone()));
    }
    if let Some(c) = find(&|c| matches!(c, ConflictCommand::PassWindow { .. })) {
        return Some(Command::Conflict(c));
    }
    None
}

/// Plays the strong bot leaves to chance: anything but ending its own chain, specials and
/// Drunken Monkey swaps.
fn ordinary(command: &Command) -> bool {
    match command {
        Command::Conflict(c) => !matches!(
            c,
            ConflictCommand::EndChain {}
                | ConflictCommand::PlaySpecial { .. }
                | ConflictCommand::DrunkenSwap { .. }
        ),
        Command::Campaign(_) => false,
    }
}

impl SeatBot<IronTriangle> for Strong {
    fn choose(
        &self,
        table: &SeatTable<IronTriangle>,
        budget: Budget,
        rng: &mut dyn Randomness,
    ) -> Option<Command> {
        if !table.to_act() {
            return None;
        }
        let options = bot_commands(table);
        if options.is_empty() {
            return None;
        }
        let deadline = Deadline::start(budget);
        let choosing = options.iter().any(|c| {
            matches!(
                c,
                Command::Conflict(
                    ConflictCommand::TakeStance { .. } | ConflictCommand::PlayMove { .. }
                )
            )
        });
        if choosing && let Some(c) = self.turn_choice(table, &options, &deadline, rng) {
            return Some(c);
        }
        if let Some(c) = routine(table, &options) {
            return Some(c);
        }
        let ordinary: Vec<Command> = options.iter().filter(|c| ordinary(c)).cloned().collect();
        if ordinary.is_empty() {
            // Only ending a chain or a special is left: play as casual.
            return Casual::default().choose(table, budget, rng);
        }
        pick_random(ordinary, rng)
    }
}

/// Whether the seat has a fighter still in the conflict (for tests and drivers).
pub fn fighting(view: &TableView) -> bool {
    view.conflict.as_ref().is_some_and(|c| {
        c.fighters.iter().any(|f| {
            f.status == Status::In
                && sheet(view, &f.name).is_some_and(|ch| view.viewer.is(ch.controller))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stance(action: Option<crate::Action>, amount: u32) -> Stance {
        Stance { action, amount }
    }

    #[test]
    fn thinning_keeps_no_stance_and_spreads_the_rest() {
        use crate::Action::*;
        let all: Vec<Stance> = std::iter::once(Stance::NONE)
            .chain((1..=5).map(|n| stance(Some(Attack), n)))
            .chain((1..=5).map(|n| stance(Some(Defend), n)))
            .collect();
        let kept = thin(all.clone(), 4);
        assert_eq!(kept.len(), 4);
        assert_eq!(kept[0], Stance::NONE);
        assert_eq!(kept[3], stance(Some(Defend), 5));
        assert_eq!(thin(all.clone(), 20), all, "nothing thinned when it fits");
    }

    #[test]
    fn draws_follow_the_weights() {
        let mut rng = clash_core::SeededRandomness::new(1);
        for _ in 0..50 {
            assert_eq!(draw(&[0.0, 1.0, 0.0], &mut rng), Some(1));
        }
        assert_eq!(draw(&[0.0, 0.0], &mut rng), None);
        assert_eq!(draw(&[], &mut rng), None);
    }
}
