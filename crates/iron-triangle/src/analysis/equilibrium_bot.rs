//! Iron Triangle bot: plays the exact equilibrium of the conflict turn.
//!
//! At the stance step it solves the whole two-stage turn ([`crate::analysis::turn_game`]) on the live
//! table and samples its stance from its equilibrium mix; at the move step it solves the move
//! game for the revealed stances and samples its move. Everything else (joining, picking the
//! active character and the opponent, splitting losses, passing windows) is a random legal
//! command other than Surrender, ending a chain or a special (the bot keeps its specials).

use crate::conflict::{ConflictCommand, MoveChoice};
use crate::{Command, IronTriangle, Table};
use clash_core::{Randomness, Ruleset, Seat};
use num_rational::BigRational;
use num_traits::ToPrimitive;

use crate::analysis::turn_game::{Mix, Payoff, TurnPosition, solve_position};
use clash_analysis::bots::{Bot, pick_random};

/// Samples stances and moves from the turn equilibrium.
#[derive(Debug, Clone, Default)]
pub struct EquilibriumBot {
    pub payoff: Payoff,
}

/// Draw one option from a mixed strategy with the caller's randomness.
fn sample<T: Clone>(mix: &[Mix<T>], rng: &mut dyn Randomness) -> Option<T> {
    const SCALE: u32 = 1_000_000;
    let r = f64::from(rng.roll(SCALE).ok()? - 1) / f64::from(SCALE);
    let mut acc = 0.0;
    for m in mix {
        acc += m
            .probability
            .exact()
            .and_then(|q: BigRational| q.to_f64())
            .unwrap_or(0.0);
        if r < acc {
            return Some(m.option.clone());
        }
    }
    mix.last().map(|m| m.option.clone())
}

impl EquilibriumBot {
    fn equilibrium_choice(
        &self,
        table: &Table,
        legal: &[Command],
        rng: &mut dyn Randomness,
    ) -> Option<Command> {
        let pos = TurnPosition::from_table(table)?;
        let solution = solve_position(&pos, self.payoff).ok()?;
        let (a, b) = pos.names();
        for command in legal {
            match command {
                Command::Conflict(ConflictCommand::TakeStance { character, .. }) => {
                    let mix = if &**character == a {
                        &solution.stances_active
                    } else if &**character == b {
                        &solution.stances_opponent
                    } else {
                        continue;
                    };
                    let s = sample(mix, rng)?;
                    return Some(Command::Conflict(ConflictCommand::TakeStance {
                        character: character.clone(),
                        action: s.action,
                        amount: s.amount,
                    }));
                }
                Command::Conflict(ConflictCommand::PlayMove { character, .. }) => {
                    let moves = solution.moves.first()?;
                    let mix = if &**character == a {
                        &moves.active
                    } else if &**character == b {
                        &moves.opponent
                    } else {
                        continue;
                    };
                    let m = sample(mix, rng)?;
                    return Some(Command::Conflict(ConflictCommand::PlayMove {
                        character: character.clone(),
                        choice: m,
                    }));
                }
                _ => {}
            }
        }
        None
    }
}

/// Commands the bot leaves alone: surrendering, ending chains, specials, GM administration.
fn routine(command: &Command) -> bool {
    match command {
        Command::Conflict(c) => !matches!(
            c,
            ConflictCommand::PlayMove {
                choice: MoveChoice::Surrender,
                ..
            } | ConflictCommand::EndChain {}
                | ConflictCommand::PlaySpecial { .. }
                | ConflictCommand::SettleConflict { .. }
                | ConflictCommand::StartConflict { .. }
                | ConflictCommand::RefuseLethal {}
                | ConflictCommand::SitOut { .. }
                | ConflictCommand::KillSurrendered {}
                | ConflictCommand::DrunkenSwap { .. }
                | ConflictCommand::RevealNpc { .. }
        ),
        Command::Campaign(_) => false,
    }
}

impl Bot<IronTriangle> for EquilibriumBot {
    fn choose(&mut self, state: &Table, seat: Seat, rng: &mut dyn Randomness) -> Option<Command> {
        let legal = IronTriangle::legal_commands(state, seat);
        let choosing = legal.iter().any(|c| {
            matches!(
                c,
                Command::Conflict(
                    ConflictCommand::TakeStance { .. } | ConflictCommand::PlayMove { .. }
                )
            )
        });
        if choosing && let Some(c) = self.equilibrium_choice(state, &legal, rng) {
            return Some(c);
        }
        let options: Vec<Command> = legal.iter().filter(|c| routine(c)).cloned().collect();
        if options.is_empty() {
            // Nothing but Surrender is left (IT-35).
            return legal
                .into_iter()
                .find(|c| matches!(c, Command::Conflict(ConflictCommand::PlayMove { .. })));
        }
        pick_random(options, rng)
    }
}
