//! A random legal player for tests, benchmarks and bots: every command it picks is one the
//! rules accept in the current state.

use clash_core::{Randomness, RuleError, Seat, execute};

use crate::NdTourists;
use crate::command::{Citation, Command};
use crate::state::{Phase, ReactionStep, RoundKind, State};

/// Picks random legal commands. Its own choices come from a tiny xorshift generator so that
/// the game's chance (the `Randomness` given to `decide`) stays independent of the players.
#[derive(Debug, Clone)]
pub struct RandomDriver {
    x: u64,
    /// Chance (in 1/256) that a party bids rather than passes on its Unbalanced turn.
    pub bid_bias: u32,
    /// Chance (in 1/256) that a party concedes at step 4 of a round.
    pub concede_bias: u32,
}

impl RandomDriver {
    pub fn new(seed: u64) -> Self {
        RandomDriver {
            x: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            bid_bias: 150,
            concede_bias: 4,
        }
    }

    fn next(&mut self) -> u32 {
        self.x ^= self.x << 13;
        self.x ^= self.x >> 7;
        self.x ^= self.x << 17;
        (self.x >> 32) as u32
    }

    fn chance(&mut self, in_256: u32) -> bool {
        self.next() % 256 < in_256
    }

    /// A legal command for some seat, or `None` when the Conflict is over.
    pub fn pick(&mut self, st: &State) -> Option<(Seat, Command)> {
        match st.phase {
            Phase::Ended => None,
            Phase::Preparing => Some((Seat::Gm, Command::Start {})),
            Phase::Aftermath => Some(self.aftermath(st)),
            Phase::Bidding => Some(match (st.round.rejection, st.round.window) {
                (Some(_), Some(drawer)) => self.spend(st, drawer),
                (_, Some(drawer)) => self.react(st, drawer),
                _ => self.turn(st),
            }),
        }
    }

    fn aftermath(&mut self, st: &State) -> (Seat, Command) {
        if st.in_play_count() > 1 && self.chance(self.concede_bias) {
            let k = self.next() as usize % st.in_play_count();
            if let Some(p) = st.in_play().nth(k) {
                let sheet = &st.table.parties[p as usize];
                return (
                    sheet.seat,
                    Command::Concede {
                        party: Some(sheet.name.clone()),
                        character: None,
                    },
                );
            }
        }
        (Seat::Gm, Command::NextRound {})
    }

    fn turn(&mut self, st: &State) -> (Seat, Command) {
        let Some(t) = st.round.turn else {
            return (Seat::Gm, Command::NextRound {});
        };
        let party = st.table.parties[t as usize].seat;
        let can_draw = !st.deck.union(st.discard).is_empty();
        let reversed = st.parties[t as usize].reversed_count() as u32;
        // Parties grow warier as reversed cards pile up.
        let bid = st.round.kind == RoundKind::BalanceBreaker
            || self.chance(self.bid_bias.saturating_sub(reversed * 20));
        // No party name needed: `bid` and `pass` default to the party whose turn it is.
        if can_draw && bid {
            (
                party,
                Command::Bid {
                    party: None,
                    character: None,
                },
            )
        } else {
            (party, Command::Pass { party: None })
        }
    }

    /// D-14: the drawer spends one of its face-up Loss cards, picked at random.
    fn spend(&mut self, st: &State, drawer: u8) -> (Seat, Command) {
        let party = &st.parties[drawer as usize];
        let sheet = &st.table.parties[drawer as usize];
        let count = party.spendable_losses().count().max(1);
        let pick = party.spendable_losses().nth(self.next() as usize % count);
        match pick {
            Some((card, _)) => (
                sheet.seat,
                Command::SpendLoss {
                    party: Some(sheet.name.clone()),
                    card,
                },
            ),
            None => (Seat::Gm, Command::NextRound {}),
        }
    }

    /// D-4: the party whose turn it is to react turns (when it helps), rejects or covers now
    /// and then, and otherwise lets the card stand.
    fn react(&mut self, st: &State, drawer: u8) -> (Seat, Command) {
        let (Some(now), Some(card)) = (
            st.round.reacting,
            st.parties[drawer as usize].bid_line.last().copied(),
        ) else {
            return self.turn(st);
        };
        let sheet = &st.table.parties[now.party as usize];
        let roll = self.next() % 16;
        let reaction = match now.step {
            ReactionStep::Turn => {
                let helps = (now.party == drawer && card.reversed)
                    || (now.party != drawer && !card.reversed);
                (helps && roll < 8).then_some(Command::Turn {})
            }
            ReactionStep::Reject => (roll == 9).then(|| Command::Reject {
                party: Some(sheet.name.clone()),
            }),
            ReactionStep::Cover if now.party == drawer && card.reversed && roll >= 8 => {
                self_cover(st, drawer)
            }
            ReactionStep::Cover => None,
        };
        let command = reaction.unwrap_or_else(|| Command::LetItStand {
            party: Some(sheet.name.clone()),
        });
        (sheet.seat, command)
    }
}

/// The drawer covers its own reversed card with an upright Reserve card, citing an Aspect.
fn self_cover(st: &State, drawer: u8) -> Option<Command> {
    let sheet = &st.table.parties[drawer as usize];
    let p = &st.parties[drawer as usize];
    if !p.in_play() {
        return None;
    }
    p.characters.iter().enumerate().find_map(|(k, c)| {
        let card = c.reserve.iter().find(|r| !r.reversed)?;
        let aspect = sheet.characters.get(k)?.aspects.first()?;
        Some(Command::Cover {
            party: Some(sheet.name.clone()),
            character: Some(sheet.characters[k].name.clone()),
            card: card.card,
            cite: Some(Citation::Aspect(aspect.name().to_string())),
            accepted: true,
        })
    })
}

/// What a random game did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayStats {
    pub commands: u64,
    pub bids: u64,
    pub rounds: u64,
    pub ended: bool,
}

/// Play `state` with random legal commands until the Conflict ends or `max_commands` ran.
pub fn play_out(
    state: &mut State,
    driver: &mut RandomDriver,
    rng: &mut dyn Randomness,
    max_commands: u64,
) -> Result<PlayStats, RuleError> {
    let mut stats = PlayStats::default();
    while stats.commands < max_commands {
        let Some((seat, cmd)) = driver.pick(state) else {
            stats.ended = true;
            break;
        };
        if matches!(cmd, Command::Bid { .. }) {
            stats.bids += 1;
        }
        if matches!(cmd, Command::NextRound {} | Command::Start {}) {
            stats.rounds += 1;
        }
        execute::<NdTourists>(state, seat, &cmd, rng)?;
        stats.commands += 1;
    }
    stats.ended |= state.phase == Phase::Ended;
    Ok(stats)
}
