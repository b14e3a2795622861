//! Iron Triangle's conflict turn as a two-stage zero-sum game, solved exactly.
//!
//! A turn between the active character A and its opponent B (IT-32) is two simultaneous
//! choices: stances (type and amount, IT-33) are revealed, then moves (IT-35). Working
//! backwards:
//!
//! 1. for every pair of stances, the **move game** is a matrix game whose entries are the
//!    payoff of each pair of moves; its value `v(sA, sB)` is what the turn is worth once those
//!    stances are on the table;
//! 2. the **stance game** is the matrix game of those values.
//!
//! Every payoff is computed by the engine itself: the turn is set up on a real
//! [`crate::Table`] (through the ruleset's own commands), the two stances and moves are
//! sent with [`Ruleset::decide`]/[`Ruleset::apply`], and the losses are read from the engine's
//! `turn_resolved` event, floored by the engine's own [`losses::actual`] (D-35). Nothing of
//! IT-48 … IT-51 is restated here.
//!
//! ## Payoffs (to A; B receives the negative)
//!
//! * [`Payoff::Energy`] (default): energy B loses minus energy A loses this turn.
//! * [`Payoff::Win`]: +1 if A wins the turn, −1 if B wins, 0 on a tie: the game then maximises
//!   the probability of winning the turn minus the probability of losing it.
//!
//! ## Surrender (IT-35, IT-36, D-10)
//!
//! Surrender is a move choice like any other, but what it costs is leaving the conflict, which
//! no one-turn payoff measures: the engine settles it with no winner check and no energy change.
//! So it is offered only when the caller prices it ([`Options::surrender`] = `Some(cost)`): the
//! surrenderer then scores `−cost` and its opponent `+cost` on top of what the engine settles
//! (nothing), and both surrendering cancels out. With the win payoff a cost of 1 scores a
//! surrender as a lost turn (D-10: the other counts as winner for the next pick). Whether a
//! character may surrender is asked of the engine (a Samurai may not, D-11). Without a price, a
//! character with no available move is reported as such ([`TurnError::NoMove`]); with one, its
//! only option is Surrender. The conflicts set up here are lesser, so IT-36's kill on the spot
//! does not arise.

use std::collections::BTreeMap;

use crate::character::{CharacterSheet, Combo, KnownMove, KnownSpecial, PerAction};
use crate::conflict::{
    Card, Chain, ConflictCommand, ConflictEvent, MoveChoice, PendingLoss, Stance, Step,
    TurnOutcome, choice, legal, losses,
};
use crate::variant::Rules;
use crate::{Action, Command, Event, IronTriangle, Move, Setup, Table};
use clash_core::{Ruleset, Seat, SeededRandomness};
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use crate::analysis::resolution::{Board, Loss, Resolved};
use clash_analysis::certified::{self, Proof};
use clash_analysis::exact::Probability;
use clash_analysis::matrix_game::{self, Solution};

/// What the solver maximises for A (B minimises it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Payoff {
    /// Energy B loses minus energy A loses.
    #[default]
    Energy,
    /// +1 A wins the turn, −1 B wins, 0 tie.
    Win,
}

/// What the solver scores: the payoff, and what a surrender costs if it is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    pub payoff: Payoff,
    /// Offer Surrender at this price (in payoff units) to the surrenderer; `None`: not offered.
    pub surrender: Option<i64>,
}

impl From<Payoff> for Options {
    fn from(payoff: Payoff) -> Options {
        Options {
            payoff,
            surrender: None,
        }
    }
}

/// One side of the turn, as written in a `--state` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSpec {
    pub name: String,
    /// Current energy per type.
    pub energy: PerAction<u32>,
    /// Maximum energy per type (default: the current energy, at least 1).
    #[serde(default)]
    pub max: Option<PerAction<u32>>,
    /// Known moves (default: the three starting moves, IT-12).
    #[serde(default)]
    pub moves: Option<Vec<Move>>,
    #[serde(default)]
    pub combos: Vec<Combo>,
    /// The face-up disadvantage pile, oldest first (IT-37).
    #[serde(default)]
    pub pile: Vec<Move>,
    /// Level (default 0); the engine checks specials' level requirements against it (IT-56).
    #[serde(default)]
    pub level: u32,
    /// Known specials, each spent or not (IT-53), as on a character sheet:
    /// `{"special": "wax_on", "action": "attack", "spent": true}`.
    #[serde(default)]
    pub specials: Vec<KnownSpecial>,
}

impl FighterSpec {
    /// A fighter with these current energies and the three starting moves (IT-12).
    pub fn new(name: &str, energy: PerAction<u32>) -> FighterSpec {
        FighterSpec {
            name: name.into(),
            energy,
            max: None,
            moves: None,
            combos: Vec::new(),
            pile: Vec::new(),
            level: 0,
            specials: Vec::new(),
        }
    }
}

/// A card of the active character's live chain: a move (`"D-M"`), or a move with its owner
/// (`{"move": "D-M", "owner": "Ada"}`); with two fighters the owner is always the active one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ChainCard {
    Move(Move),
    Owned {
        #[serde(rename = "move")]
        mv: Move,
        owner: String,
    },
}

impl ChainCard {
    pub fn mv(&self) -> Move {
        match self {
            ChainCard::Move(m) | ChainCard::Owned { mv: m, .. } => *m,
        }
    }

    pub fn owner(&self) -> Option<&str> {
        match self {
            ChainCard::Move(_) => None,
            ChainCard::Owned { owner, .. } => Some(owner),
        }
    }
}

impl From<Move> for ChainCard {
    fn from(m: Move) -> ChainCard {
        ChainCard::Move(m)
    }
}

/// A turn to solve: the active character, its opponent, and A's live chain against B.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnSpec {
    pub active: FighterSpec,
    pub opponent: FighterSpec,
    /// A's face-up chain against B (IT-42), oldest first; A's cards are unavailable to A.
    #[serde(default)]
    pub chain: Vec<ChainCard>,
}

/// Why a turn cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    #[error("the engine refused the position: {0}")]
    Engine(String),
    #[error("{0} has no available move and must surrender (IT-35); price a surrender to solve it")]
    NoMove(String),
    #[error("the engine did not resolve the turn for {0} against {1}")]
    Unresolved(MoveChoice, MoveChoice),
    #[error("{0}")]
    Game(#[from] matrix_game::GameError),
}

pub(crate) const A_SEAT: Seat = Seat::Player(1);
pub(crate) const B_SEAT: Seat = Seat::Gm;

fn sheet(f: &FighterSpec, controller: Seat) -> CharacterSheet {
    let max = f.max.unwrap_or(PerAction {
        defend: f.energy.defend.max(1),
        grapple: f.energy.grapple.max(1),
        attack: f.energy.attack.max(1),
    });
    let moves = f
        .moves
        .clone()
        .unwrap_or_else(|| crate::character::STARTING_MOVES.to_vec());
    let value = serde_json::json!({
        "name": f.name,
        "controller": controller,
        "energy": max,
        "current": f.energy,
        "established": true,
        "moves": moves.iter().map(|m| KnownMove { mv: *m, name: m.to_string().into() }).collect::<Vec<_>>(),
        "combos": f.combos,
        "level": f.level,
        "specials": f.specials,
    });
    // Built through JSON so that sheet fields this module does not set keep their defaults.
    serde_json::from_value(value).unwrap_or_else(|_| CharacterSheet {
        name: f.name.clone(),
        controller,
        energy: max,
        established: true,
        level: 0,
        current: Some(f.energy),
        backgrounds: Vec::new(),
        belief: String::new(),
        flaw: String::new(),
        goal: String::new(),
        moves: Vec::new(),
        combos: Vec::new(),
        specials: Vec::new(),
        marks: Default::default(),
        state: Default::default(),
    })
}

pub(crate) fn run(
    table: &mut Table,
    seat: Seat,
    command: ConflictCommand,
) -> Result<Vec<Event>, TurnError> {
    let command = Command::Conflict(command);
    let mut rng = SeededRandomness::new(0);
    let events = IronTriangle::decide(table, seat, &command, &mut rng)
        .map_err(|e| TurnError::Engine(e.to_string()))?;
    for e in &events {
        IronTriangle::apply(table, e);
    }
    Ok(events)
}

/// A turn set up on a real table, waiting for stances.
#[derive(Debug, Clone)]
pub struct TurnPosition {
    table: Table,
    a: String,
    b: String,
    seats: [Seat; 2],
    /// The stances are already revealed in `table` (the turn is at its move step).
    staged: bool,
    /// The position's data for table-free payoffs, when no special can act in it.
    fast: Option<FastTurn>,
}

/// What a turn's payoffs depend on, read once from the table, so that each of a move game's
/// entries is resolved by [`crate::analysis::resolution`] instead of on a copy of the table. Only for
/// positions where no special can act: neither character knows one, and neither fighter is a
/// Samurai or under Drunken Monkey.
#[derive(Debug, Clone)]
struct FastTurn {
    current: [PerAction<u32>; 2],
    piles: [Vec<Move>; 2],
    /// A's cards in its live chain against B.
    chain: Vec<Move>,
    /// A's combos.
    combos: Vec<Combo>,
    /// Each side's available moves (IT-35), as the engine lists them.
    available: [Vec<Move>; 2],
    /// The table's numbers (IT-39, IT-45).
    rules: Rules,
}

impl FastTurn {
    fn of(table: &Table, a: &str, b: &str) -> Option<FastTurn> {
        let c = table.conflict.as_ref()?;
        let ids = [c.fighter_id(a)?, c.fighter_id(b)?];
        let characters = [table.character(a)?, table.character(b)?];
        // Spent specials cannot act (IT-53); To Blave never changes an outcome (IT-59 #2).
        let inert = |k: &KnownSpecial| k.spent || k.special == crate::special::Special::ToBlave;
        let plain = |i: usize| {
            let f = c.f(ids[i]);
            characters[i].specials.iter().all(inert) && !f.samurai && !f.drunken_monkey
        };
        if !plain(0) || !plain(1) {
            return None;
        }
        let chain = match &c.chain {
            None => Vec::new(),
            Some(ch)
                if ch.against == ids[1] && ch.cards.iter().all(|card| card.owner == ids[0]) =>
            {
                ch.moves()
            }
            Some(_) => return None,
        };
        Some(FastTurn {
            current: characters.map(|ch| ch.energy.current),
            piles: ids.map(|id| c.f(id).pile.clone()),
            chain,
            combos: characters[0].combos.clone(),
            available: ids.map(|id| choice::available(table, c, id, None).iter().collect()),
            rules: table.rules,
        })
    }

    /// A stance the engine would accept (IT-33); others go through the engine for its error.
    fn allows(&self, side: usize, s: Stance) -> bool {
        s.action
            .is_none_or(|t| s.amount <= self.current[side].get(t))
    }

    fn choices(&self, side: usize, opts: Options) -> Vec<MoveChoice> {
        let moves = self.available[side].iter().map(|m| MoveChoice::Play(*m));
        moves
            .chain(opts.surrender.map(|_| MoveChoice::Surrender))
            .collect()
    }

    /// The payoff to A of one pair of choices, as [`TurnPosition::payoff`] reads it from the
    /// engine.
    fn payoff(&self, stances: [Stance; 2], choices: [MoveChoice; 2], opts: Options) -> i64 {
        let (MoveChoice::Play(ma), MoveChoice::Play(mb)) = (choices[0], choices[1]) else {
            // D-10: no winner check and no energy change; the surrenderer pays the price.
            let out = |s: usize| i64::from(choices[s] == MoveChoice::Surrender);
            return opts.surrender.unwrap_or(0) * (out(1) - out(0));
        };
        let board = Board {
            piles: [&self.piles[0], &self.piles[1]],
            chain: &self.chain,
            combos: &self.combos,
            rules: self.rules,
        };
        let lost = |side: usize, loss: &Loss| i64::from(loss.actual(self.current[side]));
        match (board.resolve(stances, [ma, mb]), opts.payoff) {
            (Resolved::Win { winner, .. }, Payoff::Win) => {
                if winner == 0 {
                    1
                } else {
                    -1
                }
            }
            (Resolved::Tie { .. }, Payoff::Win) => 0,
            (Resolved::Win { winner, loss, .. }, Payoff::Energy) => {
                let taken = lost(1 - winner, &loss);
                if winner == 0 { taken } else { -taken }
            }
            (Resolved::Tie { losses }, Payoff::Energy) => lost(1, &losses[1]) - lost(0, &losses[0]),
        }
    }

    fn move_game(&self, sa: Stance, sb: Stance, opts: Options) -> MoveGame {
        let (rows, cols) = (self.choices(0, opts), self.choices(1, opts));
        let matrix = rows
            .iter()
            .map(|ma| {
                cols.iter()
                    .map(|mb| self.payoff([sa, sb], [*ma, *mb], opts))
                    .collect()
            })
            .collect();
        MoveGame { rows, cols, matrix }
    }
}

impl TurnPosition {
    /// Set the turn up through the ruleset's own commands: the GM starts a lesser conflict
    /// against B, A joins and is picked active, and A picks B (IT-22 … IT-32). The piles and the
    /// chain are then laid out as given.
    pub fn new(spec: &TurnSpec) -> Result<TurnPosition, TurnError> {
        Self::new_under(spec, Rules::default())
    }

    /// [`TurnPosition::new`] on a table with `rules` (a variant's numbers).
    pub fn new_under(spec: &TurnSpec, rules: Rules) -> Result<TurnPosition, TurnError> {
        let (a, b) = (spec.active.name.clone(), spec.opponent.name.clone());
        let setup = Setup {
            players: vec![A_SEAT],
            characters: vec![sheet(&spec.active, A_SEAT), sheet(&spec.opponent, B_SEAT)],
            countdowns: Vec::new(),
            campaign: Default::default(),
            conflict: None,
            variant: rules.variant(),
        };
        let mut table =
            IronTriangle::setup(&setup).map_err(|e| TurnError::Engine(e.to_string()))?;
        run(
            &mut table,
            B_SEAT,
            ConflictCommand::StartConflict {
                stakes: "analysis".into(),
                npcs: vec![b.clone().into()],
                lethal: false,
                minor: false,
            },
        )?;
        run(
            &mut table,
            A_SEAT,
            ConflictCommand::JoinConflict {
                character: a.clone().into(),
            },
        )?;
        run(
            &mut table,
            A_SEAT,
            ConflictCommand::PickActive {
                character: a.clone().into(),
            },
        )?;
        run(
            &mut table,
            A_SEAT,
            ConflictCommand::PickOpponent {
                opponent: b.clone().into(),
            },
        )?;
        let c = table
            .conflict
            .as_mut()
            .ok_or_else(|| TurnError::Engine("no conflict started".into()))?;
        let (ia, ib) = (c.fighter_id(&a), c.fighter_id(&b));
        let (Some(ia), Some(ib)) = (ia, ib) else {
            return Err(TurnError::Engine("the fighters are missing".into()));
        };
        c.f_mut(ia).pile = spec.active.pile.clone();
        c.f_mut(ib).pile = spec.opponent.pile.clone();
        if !spec.chain.is_empty() {
            let cards = spec
                .chain
                .iter()
                .map(|card| Card {
                    owner: ia,
                    mv: card.mv(),
                })
                .collect();
            c.chain = Some(Chain {
                side: c.f(ia).side,
                against: ib,
                cards,
            });
        }
        let fast = FastTurn::of(&table, &a, &b);
        Ok(TurnPosition {
            table,
            a,
            b,
            seats: [A_SEAT, B_SEAT],
            staged: false,
            fast,
        })
    }

    /// The turn in progress on a live table, if it is at its stance or move step (used by the
    /// bot): the same engine, the same characters, nothing rebuilt.
    pub fn from_table(table: &Table) -> Option<TurnPosition> {
        let c = table.conflict.as_ref()?;
        let turn = c.turn.as_ref()?;
        let staged = match turn.step {
            Step::Stances => false,
            Step::Moves if turn.stances_revealed && turn.moves.iter().all(Option::is_none) => true,
            _ => return None,
        };
        let (ia, ib) = (turn.active, turn.opponent?);
        let seat = |id: u8| {
            table
                .characters
                .get(c.f(id).character)
                .map(|ch| ch.controller)
        };
        let (a, b) = (c.f(ia).name.to_string(), c.f(ib).name.to_string());
        // At the move step the stances are on the table already: the engine resolves.
        let fast = if staged {
            None
        } else {
            FastTurn::of(table, &a, &b)
        };
        Some(TurnPosition {
            table: table.clone(),
            a,
            b,
            seats: [seat(ia)?, seat(ib)?],
            staged,
            fast,
        })
    }

    /// The table the turn is set up on, waiting for the next step.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The active character's name and the opponent's.
    pub fn names(&self) -> (&str, &str) {
        (&self.a, &self.b)
    }

    /// The revealed stances, when the turn is at its move step.
    pub fn revealed_stances(&self) -> Option<(Stance, Stance)> {
        let turn = self.table.conflict.as_ref()?.turn.as_ref()?;
        (self.staged).then(|| {
            (
                turn.stances[0].unwrap_or_default(),
                turn.stances[1].unwrap_or_default(),
            )
        })
    }

    fn id(&self, name: &str) -> Option<u8> {
        self.table
            .conflict
            .as_ref()
            .and_then(|c| c.fighter_id(name))
    }

    /// Stances a fighter may take: none, or 1..=current of a type (IT-33).
    pub fn stances(&self, name: &str) -> Vec<Stance> {
        let Some(ch) = self.table.character(name) else {
            return vec![Stance::NONE];
        };
        let mut out = vec![Stance::NONE];
        for action in Action::ALL {
            for amount in 1..=ch.energy.current.get(action) {
                out.push(Stance::new(Some(action), amount));
            }
        }
        out
    }

    /// Moves a fighter may play now (IT-35: known, not face up).
    pub fn moves(&self, name: &str) -> Vec<Move> {
        let (Some(c), Some(id)) = (self.table.conflict.as_ref(), self.id(name)) else {
            return Vec::new();
        };
        choice::available(&self.table, c, id, None).iter().collect()
    }

    /// The table after both stances are revealed.
    fn with_stances(&self, sa: Stance, sb: Stance) -> Result<Table, TurnError> {
        let mut t = self.table.clone();
        if self.staged {
            return Ok(t);
        }
        run(
            &mut t,
            self.seats[0],
            ConflictCommand::TakeStance {
                character: self.a.clone().into(),
                action: sa.action,
                amount: sa.amount,
            },
        )?;
        run(
            &mut t,
            self.seats[1],
            ConflictCommand::TakeStance {
                character: self.b.clone().into(),
                action: sb.action,
                amount: sb.amount,
            },
        )?;
        Ok(t)
    }

    /// The options of one fighter at the move step: its available moves, and Surrender when
    /// it is priced and the engine accepts it from this fighter.
    fn choices(&self, staged: &Table, side: usize, opts: Options) -> Vec<MoveChoice> {
        let name = if side == 0 { &self.a } else { &self.b };
        let mut out: Vec<MoveChoice> = self.moves(name).into_iter().map(MoveChoice::Play).collect();
        let surrender = ConflictCommand::PlayMove {
            character: name.clone().into(),
            choice: MoveChoice::Surrender,
        };
        let accepted = IronTriangle::decide(
            staged,
            self.seats[side],
            &Command::Conflict(surrender),
            &mut SeededRandomness::new(0),
        )
        .is_ok();
        if opts.surrender.is_some() && accepted {
            out.push(MoveChoice::Surrender);
        }
        out
    }

    /// The engine's resolution of one pair of move choices from a table with stances revealed.
    fn resolve(
        &self,
        staged: &Table,
        ma: MoveChoice,
        mb: MoveChoice,
    ) -> Result<(TurnOutcome, Vec<PendingLoss>), TurnError> {
        let mut t = staged.clone();
        let mut events = run(
            &mut t,
            self.seats[0],
            ConflictCommand::PlayMove {
                character: self.a.clone().into(),
                choice: ma,
            },
        )?;
        events.extend(run(
            &mut t,
            self.seats[1],
            ConflictCommand::PlayMove {
                character: self.b.clone().into(),
                choice: mb,
            },
        )?);
        // Without specials the windows close at once; pass any that stay open.
        for _ in 0..4 {
            if let Some(found) = resolved(&events) {
                return Ok(found);
            }
            for seat in self.seats {
                let pass = legal::play_commands(&t, seat)
                    .into_iter()
                    .find(|c| matches!(c, ConflictCommand::PassWindow { .. }));
                if let Some(pass) = pass {
                    events.extend(run(&mut t, seat, pass)?);
                }
            }
        }
        resolved(&events).ok_or(TurnError::Unresolved(ma, mb))
    }

    /// Energy a pending loss actually removes from its character (D-35).
    fn actual(&self, loss: &PendingLoss) -> u32 {
        self.table.character(&loss.character).map_or(0, |ch| {
            losses::actual(ch.energy, loss.fixed_type, loss.fixed, loss.free)
        })
    }

    /// The payoff to A of one pair of move choices, given the stances.
    fn payoff(
        &self,
        staged: &Table,
        ma: MoveChoice,
        mb: MoveChoice,
        opts: Options,
    ) -> Result<i64, TurnError> {
        let (outcome, pending) = self.resolve(staged, ma, mb)?;
        let turn = match opts.payoff {
            Payoff::Energy => {
                let lost = |name: &str| {
                    pending
                        .iter()
                        .filter(|l| &*l.character == name)
                        .map(|l| i64::from(self.actual(l)))
                        .sum::<i64>()
                };
                lost(&self.b) - lost(&self.a)
            }
            Payoff::Win => match &outcome {
                TurnOutcome::Win { winner, .. } if &**winner == self.a.as_str() => 1,
                TurnOutcome::Win { .. } => -1,
                _ => 0,
            },
        };
        Ok(turn + self.surrender_score(&outcome, opts))
    }

    /// IT-36 priced: the surrenderer pays the cost to its opponent (both surrendering cancel).
    fn surrender_score(&self, outcome: &TurnOutcome, opts: Options) -> i64 {
        let TurnOutcome::Surrender { surrendered } = outcome else {
            return 0;
        };
        let out = |name: &str| i64::from(surrendered.iter().any(|n| &**n == name));
        opts.surrender.unwrap_or(0) * (out(&self.b) - out(&self.a))
    }

    /// The move game once these stances are revealed: rows are A's choices, columns B's.
    /// Resolved by [`crate::analysis::resolution`] when no special can act, else on the table.
    pub fn move_matrix(
        &self,
        sa: Stance,
        sb: Stance,
        opts: impl Into<Options>,
    ) -> Result<MoveGame, TurnError> {
        let opts = opts.into();
        match &self.fast {
            Some(f) if f.allows(0, sa) && f.allows(1, sb) => {
                let g = f.move_game(sa, sb, opts);
                if g.rows.is_empty() {
                    return Err(TurnError::NoMove(self.a.clone()));
                }
                if g.cols.is_empty() {
                    return Err(TurnError::NoMove(self.b.clone()));
                }
                Ok(g)
            }
            _ => self.move_matrix_on_table(sa, sb, opts),
        }
    }

    /// The move game with every entry played on a copy of the table through the engine's
    /// commands (the reference the table-free payoffs are tested against).
    pub fn move_matrix_on_table(
        &self,
        sa: Stance,
        sb: Stance,
        opts: impl Into<Options>,
    ) -> Result<MoveGame, TurnError> {
        let opts = opts.into();
        let staged = self.with_stances(sa, sb)?;
        let (ra, rb) = (
            self.choices(&staged, 0, opts),
            self.choices(&staged, 1, opts),
        );
        if ra.is_empty() {
            return Err(TurnError::NoMove(self.a.clone()));
        }
        if rb.is_empty() {
            return Err(TurnError::NoMove(self.b.clone()));
        }
        let matrix = ra
            .iter()
            .map(|ma| {
                rb.iter()
                    .map(|mb| self.payoff(&staged, *ma, *mb, opts))
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MoveGame {
            rows: ra,
            cols: rb,
            matrix,
        })
    }
}

fn resolved(events: &[Event]) -> Option<(TurnOutcome, Vec<PendingLoss>)> {
    events.iter().find_map(|e| match e {
        Event::Conflict(ConflictEvent::TurnResolved {
            outcome, losses, ..
        }) => Some((outcome.clone(), losses.clone())),
        _ => None,
    })
}

/// A move game: A's choices (rows), B's choices (columns), payoffs to A.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveGame {
    pub rows: Vec<MoveChoice>,
    pub cols: Vec<MoveChoice>,
    pub matrix: Vec<Vec<i64>>,
}

/// A mixed strategy written out: each option with its exact probability (zeros left out).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mix<T> {
    pub option: T,
    pub probability: Probability,
}

fn mix<T: Clone>(options: &[T], probs: &[BigRational]) -> Vec<Mix<T>> {
    options
        .iter()
        .zip(probs)
        .filter(|(_, p)| **p > BigRational::from_integer(0.into()))
        .map(|(o, p)| Mix {
            option: o.clone(),
            probability: Probability::of(p),
        })
        .collect()
}

/// The solution of one move game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveSolution {
    pub stance_active: Stance,
    pub stance_opponent: Stance,
    pub value: Probability,
    pub active: Vec<Mix<MoveChoice>>,
    pub opponent: Vec<Mix<MoveChoice>>,
}

/// The whole turn solved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnSolution {
    pub payoff: Payoff,
    /// The price of a surrender, when Surrender was offered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub surrender: Option<i64>,
    pub active: String,
    pub opponent: String,
    /// The turn's value to the active character (the `fraction` field is exact; for the
    /// energy payoff it may be negative, so read it as a number, not a probability).
    pub value: Probability,
    pub stances_active: Vec<Mix<Stance>>,
    pub stances_opponent: Vec<Mix<Stance>>,
    /// Move equilibria for every stance pair both sides play with positive probability.
    pub moves: Vec<MoveSolution>,
    /// Number of move games solved.
    pub games: usize,
    /// How each of the turn's games (the move games and the stance game) was proved exact.
    pub proofs: Proofs,
    #[serde(skip)]
    pub stage_values: BTreeMap<(usize, usize), BigRational>,
    #[serde(skip)]
    pub stance_options: (Vec<Stance>, Vec<Stance>),
    #[serde(skip)]
    pub stance_solution: Option<Solution<BigRational>>,
}

/// How many games each step of [`clash_analysis::certified`] proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Proofs {
    /// Float strategies rounded to fractions and checked.
    pub rounded: usize,
    /// The float simplex's basis solved in integers and checked.
    pub integer_basis: usize,
    /// The float simplex's basis solved in rationals and checked.
    pub basis: usize,
    /// Solved by the exact simplex.
    pub simplex: usize,
}

impl Proofs {
    fn count(&mut self, proof: Proof) {
        match proof {
            Proof::Rounded => self.rounded += 1,
            Proof::IntegerBasis => self.integer_basis += 1,
            Proof::Basis => self.basis += 1,
            Proof::Simplex => self.simplex += 1,
        }
    }
}

/// Solve the move game `g` exactly.
pub fn solve_moves(g: &MoveGame) -> Result<Solution<BigRational>, TurnError> {
    Ok(matrix_game::solve_exact(&g.matrix)?)
}

/// Solve the whole two-stage turn exactly.
pub fn solve_turn(spec: &TurnSpec, opts: impl Into<Options>) -> Result<TurnSolution, TurnError> {
    solve_position(&TurnPosition::new(spec)?, opts)
}

/// Solve a turn position (from a spec or a live table) exactly. If its stances are already
/// revealed, the stance stage has just that one pair.
pub fn solve_position(
    pos: &TurnPosition,
    opts: impl Into<Options>,
) -> Result<TurnSolution, TurnError> {
    let opts = opts.into();
    let (sa, sb) = match pos.revealed_stances() {
        Some((x, y)) => (vec![x], vec![y]),
        None => (pos.stances(&pos.a), pos.stances(&pos.b)),
    };
    let mut values = Vec::with_capacity(sa.len());
    let mut solved = BTreeMap::new();
    let mut stage_values = BTreeMap::new();
    let mut proofs = Proofs::default();
    for (i, x) in sa.iter().enumerate() {
        let mut row = Vec::with_capacity(sb.len());
        for (j, y) in sb.iter().enumerate() {
            let g = pos.move_matrix(*x, *y, opts)?;
            let (s, proof) = certified::solve_integer(&g.matrix)?;
            proofs.count(proof);
            row.push(s.value.clone());
            stage_values.insert((i, j), s.value.clone());
            solved.insert((i, j), (g, s));
        }
        values.push(row);
    }
    let (stance, proof) = certified::solve_rational(&values)?;
    proofs.count(proof);
    let zero = BigRational::from_integer(0.into());
    let mut moves = Vec::new();
    for (i, pi) in stance.row.iter().enumerate() {
        for (j, pj) in stance.col.iter().enumerate() {
            if *pi > zero
                && *pj > zero
                && let Some((g, s)) = solved.get(&(i, j))
            {
                moves.push(MoveSolution {
                    stance_active: sa[i],
                    stance_opponent: sb[j],
                    value: Probability::of(&s.value),
                    active: mix(&g.rows, &s.row),
                    opponent: mix(&g.cols, &s.col),
                });
            }
        }
    }
    Ok(TurnSolution {
        payoff: opts.payoff,
        surrender: opts.surrender,
        active: pos.a.clone(),
        opponent: pos.b.clone(),
        value: Probability::of(&stance.value),
        stances_active: mix(&sa, &stance.row),
        stances_opponent: mix(&sb, &stance.col),
        moves,
        games: solved.len(),
        proofs,
        stage_values,
        stance_options: (sa, sb),
        stance_solution: Some(stance),
    })
}

/// The move game for given stances, for printing and benchmarks.
pub fn move_game(
    spec: &TurnSpec,
    sa: Stance,
    sb: Stance,
    opts: impl Into<Options>,
) -> Result<MoveGame, TurnError> {
    TurnPosition::new(spec)?.move_matrix(sa, sb, opts)
}

/// Both sides know all 13 moves (the benchmark's full move game).
pub fn all_moves() -> Vec<Move> {
    Move::ALL.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_analysis::matrix_game::certifies;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn fighter(name: &str, d: u32, g: u32, a: u32) -> FighterSpec {
        FighterSpec {
            name: name.into(),
            energy: PerAction {
                defend: d,
                grapple: g,
                attack: a,
            },
            max: None,
            moves: None,
            combos: vec![],
            pile: vec![],
            level: 0,
            specials: vec![],
        }
    }

    fn entry(g: &MoveGame, a: &str, b: &str) -> i64 {
        let i = g
            .rows
            .iter()
            .position(|m| *m == a.parse().unwrap())
            .unwrap();
        let j = g
            .cols
            .iter()
            .position(|m| *m == b.parse().unwrap())
            .unwrap();
        g.matrix[i][j]
    }

    fn to_q(m: &[Vec<i64>]) -> Vec<Vec<BigRational>> {
        m.iter()
            .map(|r| {
                r.iter()
                    .map(|x| BigRational::from_integer((*x).into()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn tv_3_stance_payoffs_come_from_the_engine() {
        // TV-3: you have Attack 3 and take stance A2; the opponent has no stance.
        let spec = TurnSpec {
            active: fighter("You", 3, 3, 3),
            opponent: fighter("Them", 4, 4, 4),
            chain: vec![],
        };
        let g = move_game(
            &spec,
            Stance::new(Some(Action::Attack), 2),
            Stance::NONE,
            Payoff::Energy,
        )
        .unwrap();
        assert_eq!(entry(&g, "A-H", "G-L"), 7); // IT-34, IT-49: 2×2 + 3
        assert_eq!(entry(&g, "A-H", "D-M"), -4); // IT-34: matched and lost: 2 from Attack + 2
        assert_eq!(entry(&g, "D-M", "A-H"), 2); // IT-34: a feint
        assert_eq!(entry(&g, "D-M", "G-L"), -4); // IT-49
        // TV-2 / IT-50: a tie costs each side the other's base.
        assert_eq!(entry(&g, "A-H", "A-H"), 0);
        let w = move_game(
            &spec,
            Stance::new(Some(Action::Attack), 2),
            Stance::NONE,
            Payoff::Win,
        )
        .unwrap();
        assert_eq!(
            (
                entry(&w, "A-H", "G-L"),
                entry(&w, "A-H", "D-M"),
                entry(&w, "A-H", "A-H")
            ),
            (1, -1, 0)
        ); // IT-48
    }

    #[test]
    fn tv_6_win_of_13_with_chain_pile_and_combo() {
        let mut you = fighter("You", 3, 3, 3);
        you.moves = Some(Move::ALL.to_vec());
        you.combos = vec![Combo {
            from: mv("D-M"),
            followups: vec![mv("G-J"), mv("G-S")],
        }];
        let mut o = fighter("O", 6, 6, 6);
        o.moves = Some(Move::ALL.to_vec());
        o.pile = vec![mv("A-L")];
        let spec = TurnSpec {
            active: you,
            opponent: o,
            chain: vec![mv("D-M").into()],
        };
        let g = move_game(
            &spec,
            Stance::new(Some(Action::Grapple), 2),
            Stance::new(Some(Action::Defend), 1),
            Payoff::Energy,
        )
        .unwrap();
        // IT-42: D-M is face up in the chain, so it is not one of your moves this turn.
        assert!(!g.rows.contains(&MoveChoice::Play(mv("D-M"))));
        assert_eq!(entry(&g, "G-J", "D-L"), 13); // TV-6: 2×3 + 1 + 4 + 1 + 1
    }

    #[test]
    fn tv_14_starting_moves_solve_to_certified_equilibria() {
        let spec = TurnSpec {
            active: fighter("Ada", 3, 2, 5),
            opponent: fighter("Bruiser", 4, 4, 2),
            chain: vec![],
        };
        for payoff in [Payoff::Energy, Payoff::Win] {
            let s = solve_turn(&spec, payoff).unwrap();
            let stance = s.stance_solution.as_ref().unwrap();
            let (sa, sb) = &s.stance_options;
            assert_eq!(s.games, sa.len() * sb.len());
            let values: Vec<Vec<BigRational>> = (0..sa.len())
                .map(|i| {
                    (0..sb.len())
                        .map(|j| s.stage_values[&(i, j)].clone())
                        .collect()
                })
                .collect();
            assert!(certifies(&values, stance), "{payoff:?}"); // the minimax theorem, exactly
            let pos = TurnPosition::new(&spec).unwrap();
            for m in &s.moves {
                let g = pos
                    .move_matrix(m.stance_active, m.stance_opponent, payoff)
                    .unwrap();
                let sol = solve_moves(&g).unwrap();
                assert!(certifies(&to_q(&g.matrix), &sol));
                assert_eq!(Probability::of(&sol.value), m.value);
            }
        }
    }

    #[test]
    fn it_32_identical_fighters_make_a_fair_turn() {
        // Rules apply symmetrically (IT-32): with no chain and no piles the turn is worth 0.
        let spec = TurnSpec {
            active: fighter("A", 3, 3, 4),
            opponent: fighter("B", 3, 3, 4),
            chain: vec![],
        };
        let s = solve_turn(&spec, Payoff::Energy).unwrap();
        assert_eq!(s.value.fraction, "0/1");
    }

    #[test]
    fn it_33_stances_range_over_current_energy() {
        let spec = TurnSpec {
            active: fighter("A", 0, 2, 1),
            opponent: fighter("B", 1, 1, 1),
            chain: vec![],
        };
        let pos = TurnPosition::new(&spec).unwrap();
        // None, G1, G2, A1: a type at 0 allows only stance 0.
        assert_eq!(pos.stances("A").len(), 4);
        assert_eq!(pos.stances("B").len(), 4);
    }

    #[test]
    fn it_35_a_fighter_without_moves_is_reported() {
        let mut a = fighter("A", 3, 3, 3);
        a.moves = Some(vec![mv("D-M")]);
        let spec = TurnSpec {
            active: a,
            opponent: fighter("B", 3, 3, 3),
            chain: vec![mv("D-M").into()],
        };
        assert!(matches!(
            solve_turn(&spec, Payoff::Energy),
            Err(TurnError::NoMove(_))
        ));
    }
    fn priced(cost: i64) -> Options {
        Options {
            payoff: Payoff::Energy,
            surrender: Some(cost),
        }
    }

    #[test]
    fn it_36_surrender_is_offered_only_when_priced() {
        let spec = TurnSpec {
            active: fighter("Ada", 3, 2, 5),
            opponent: fighter("Bruiser", 4, 4, 2),
            chain: vec![],
        };
        let plain = move_game(&spec, Stance::NONE, Stance::NONE, Payoff::Energy).unwrap();
        assert!(
            !plain.rows.contains(&MoveChoice::Surrender)
                && !plain.cols.contains(&MoveChoice::Surrender)
        );
        let g = move_game(
            &spec,
            Stance::new(Some(Action::Attack), 2),
            Stance::NONE,
            priced(5),
        )
        .unwrap();
        assert_eq!((g.rows.len(), g.cols.len()), (4, 4)); // three starting moves and Surrender
        // D-10: no winner check, no energy change; the surrenderer pays the price.
        assert_eq!(entry(&g, "surrender", "A-H"), -5);
        assert_eq!(entry(&g, "A-H", "surrender"), 5);
        assert_eq!(entry(&g, "surrender", "surrender"), 0);
        // The moves' entries are the engine's, unchanged by the offer.
        let without = move_game(
            &spec,
            Stance::new(Some(Action::Attack), 2),
            Stance::NONE,
            Payoff::Energy,
        )
        .unwrap();
        for a in ["D-M", "G-L", "A-H"] {
            for b in ["D-M", "G-L", "A-H"] {
                assert_eq!(entry(&g, a, b), entry(&without, a, b));
            }
        }
    }

    #[test]
    fn it_35_a_fighter_without_moves_must_surrender_when_priced() {
        let mut a = fighter("A", 3, 3, 3);
        a.moves = Some(vec![mv("D-M")]);
        let spec = TurnSpec {
            active: a,
            opponent: fighter("B", 3, 3, 3),
            chain: vec![mv("D-M").into()],
        };
        let s = solve_turn(&spec, priced(4)).unwrap();
        assert_eq!(s.value.fraction, "-4/1");
        assert!(
            s.moves
                .iter()
                .all(|m| m.active.len() == 1 && m.active[0].option == MoveChoice::Surrender)
        );
        // B never surrenders back: that would cancel A's surrender.
        assert!(
            s.moves
                .iter()
                .all(|m| m.opponent.iter().all(|x| x.option != MoveChoice::Surrender))
        );
    }

    #[test]
    fn d_11_the_engine_refuses_a_samurai_surrender_so_it_is_not_offered() {
        let spec = TurnSpec {
            active: fighter("Ada", 3, 2, 5),
            opponent: fighter("Bruiser", 4, 4, 2),
            chain: vec![],
        };
        let mut pos = TurnPosition::new(&spec).unwrap();
        // As if Ada had used The Way of the Samurai (IT-59 #12) earlier in the conflict.
        let c = pos.table.conflict.as_mut().unwrap();
        let ada = c.fighter_id("Ada").unwrap();
        c.f_mut(ada).samurai = true;
        let pos = TurnPosition::from_table(&pos.table).unwrap();
        let g = pos
            .move_matrix(Stance::NONE, Stance::NONE, priced(5))
            .unwrap();
        assert!(!g.rows.contains(&MoveChoice::Surrender));
        assert!(g.cols.contains(&MoveChoice::Surrender));
    }

    #[test]
    fn d_10_a_surrender_priced_at_1_is_a_lost_turn_under_the_win_payoff() {
        let spec = TurnSpec {
            active: fighter("Ada", 3, 2, 5),
            opponent: fighter("Bruiser", 4, 4, 2),
            chain: vec![],
        };
        let g = move_game(
            &spec,
            Stance::NONE,
            Stance::NONE,
            Options {
                payoff: Payoff::Win,
                surrender: Some(1),
            },
        )
        .unwrap();
        for b in ["D-M", "G-L", "A-H"] {
            assert_eq!(entry(&g, "surrender", b), -1);
            assert_eq!(entry(&g, b, "surrender"), 1);
        }
    }

    #[test]
    fn priced_surrender_keeps_the_equilibria_certified_and_a_fair_turn_fair() {
        let spec = TurnSpec {
            active: fighter("Ada", 3, 2, 5),
            opponent: fighter("Bruiser", 4, 4, 2),
            chain: vec![],
        };
        let s = solve_turn(&spec, priced(3)).unwrap();
        let (sa, sb) = &s.stance_options;
        let values: Vec<Vec<BigRational>> = (0..sa.len())
            .map(|i| {
                (0..sb.len())
                    .map(|j| s.stage_values[&(i, j)].clone())
                    .collect()
            })
            .collect();
        assert!(certifies(&values, s.stance_solution.as_ref().unwrap()));
        let pos = TurnPosition::new(&spec).unwrap();
        for m in &s.moves {
            let g = pos
                .move_matrix(m.stance_active, m.stance_opponent, priced(3))
                .unwrap();
            assert!(certifies(&to_q(&g.matrix), &solve_moves(&g).unwrap()));
        }
        let fair = TurnSpec {
            active: fighter("A", 3, 3, 4),
            opponent: fighter("B", 3, 3, 4),
            chain: vec![],
        };
        assert_eq!(solve_turn(&fair, priced(2)).unwrap().value.fraction, "0/1");
    }

    #[test]
    fn a_high_price_makes_surrender_worthless_and_a_zero_price_caps_losses() {
        // Priced above any turn's loss, Surrender is never played: the value is the plain one.
        let spec = TurnSpec {
            active: fighter("Ada", 3, 2, 5),
            opponent: fighter("Bruiser", 4, 4, 2),
            chain: vec![],
        };
        let plain = solve_turn(&spec, Payoff::Energy).unwrap();
        let dear = solve_turn(&spec, priced(1000)).unwrap();
        assert_eq!(dear.value, plain.value);
        // At price 0 Surrender guarantees each side 0, so the turn is worth exactly 0.
        assert_eq!(solve_turn(&spec, priced(0)).unwrap().value.fraction, "0/1");
    }

    mod table_free {
        use super::*;
        use proptest::prelude::*;

        /// Known moves from bits: the advanced moves only with all nine basic ones (IT-8).
        fn subset(bits: u16) -> Vec<Move> {
            let all_basic = Move::ALL.iter().filter(|m| m.element.is_basic()).count();
            let chosen: Vec<Move> = Move::ALL
                .iter()
                .enumerate()
                .filter(|(i, _)| bits >> i & 1 == 1)
                .map(|(_, m)| *m)
                .collect();
            let basic = chosen.iter().filter(|m| m.element.is_basic()).count();
            chosen
                .into_iter()
                .filter(|m| m.element.is_basic() || basic == all_basic)
                .collect()
        }

        fn pick(from: &[Move], bits: u16, most: usize) -> Vec<Move> {
            from.iter()
                .enumerate()
                .filter(|(i, _)| bits >> i & 1 == 1)
                .map(|(_, m)| *m)
                .take(most)
                .collect()
        }

        fn stance(energy: PerAction<u32>, kind: u8, amount: u32) -> Stance {
            let action = Action::ALL[usize::from(kind % 3)];
            Stance::new(Some(action), amount.min(energy.get(action)))
        }

        prop_compose! {
            fn position()(
                e in proptest::array::uniform6(0u32..5), known in (prop_oneof![1u16..1 << 13, Just(0x1fff)], prop_oneof![1u16..1 << 13, Just(0x1fff)]),
                piles in (any::<u16>(), any::<u16>()), chain in any::<u16>(), combo in (any::<u16>(), any::<u16>()),
            ) -> TurnSpec {
                let (ka, kb) = (subset(known.0), subset(known.1));
                let chain = pick(&ka, chain, 3);
                let a_pile = if chain.is_empty() { pick(&ka, piles.0, 3) } else { Vec::new() };
                let combos = ka.iter().take(2).enumerate().map(|(i, from)| Combo { from: *from, followups: pick(&ka, if i == 0 { combo.0 } else { combo.1 }, 2) }).filter(|c| !c.followups.is_empty()).collect();
                let fighter = |name: &str, e: &[u32], moves: Vec<Move>, pile: Vec<Move>, combos: Vec<Combo>| FighterSpec {
                    name: name.into(),
                    energy: PerAction { defend: e[0], grapple: e[1], attack: e[2] },
                    max: None,
                    moves: Some(moves),
                    combos,
                    pile,
                level: 0,
                specials: vec![],
                };
                let b_pile = pick(&kb, piles.1, 3);
                TurnSpec { active: fighter("A", &e[..3], ka, a_pile, combos), opponent: fighter("B", &e[3..], kb, b_pile, vec![]), chain: chain.into_iter().map(ChainCard::from).collect() }
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]

            /// IT-34, IT-38 … IT-51, D-35: every payoff resolved without a table is the engine's.
            #[test]
            fn table_free_payoffs_are_the_engines(
                spec in position(), sa in (0u8..3, 0u32..5), sb in (0u8..3, 0u32..5),
                win in any::<bool>(), surrender in proptest::option::of(0i64..5),
            ) {
                let pos = TurnPosition::new(&spec);
                prop_assume!(pos.is_ok());
                let pos = pos.unwrap();
                prop_assume!(pos.fast.is_some());
                let sa = stance(spec.active.energy, sa.0, sa.1);
                let sb = stance(spec.opponent.energy, sb.0, sb.1);
                let opts = Options { payoff: if win { Payoff::Win } else { Payoff::Energy }, surrender };
                let fast = pos.move_matrix(sa, sb, opts);
                let engine = pos.move_matrix_on_table(sa, sb, opts);
                match (fast, engine) {
                    (Ok(f), Ok(e)) => prop_assert_eq!(f, e),
                    (Err(TurnError::NoMove(x)), Err(TurnError::NoMove(y))) => prop_assert_eq!(x, y),
                    (f, e) => prop_assert!(false, "fast {:?} vs engine {:?}", f, e),
                }
            }
        }

        #[test]
        fn setups_with_specials_resolve_on_the_table() {
            let spec = TurnSpec {
                active: fighter("Ada", 3, 2, 5),
                opponent: fighter("Bruiser", 4, 4, 2),
                chain: vec![],
            };
            let mut pos = TurnPosition::new(&spec).unwrap();
            assert!(pos.fast.is_some());
            let c = pos.table.conflict.as_mut().unwrap();
            let ada = c.fighter_id("Ada").unwrap();
            c.f_mut(ada).samurai = true;
            let pos = TurnPosition::from_table(&pos.table).unwrap();
            assert!(pos.fast.is_none());
        }
    }
}
