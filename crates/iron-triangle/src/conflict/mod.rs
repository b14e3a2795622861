//! Conflicts (IT-22 … IT-59): who enters, whose turn it is, stances and moves chosen in secret
//! and revealed together, the winner, exact losses, disadvantage piles, combo chains, the twelve
//! specials, and the end of the conflict.
//!
//! The files follow the rulebook: [`entry`] (IT-22, IT-23), [`turn`] (IT-25, IT-26, IT-32),
//! [`stance`] (IT-33, IT-34), [`choice`] (IT-35, IT-36), [`winner`] (IT-48), [`losses`]
//! (IT-49 … IT-52), [`disadvantage`] (IT-37 … IT-40), [`combo`] (IT-41 … IT-47), [`specials`]
//! (IT-53 … IT-59), [`ending`] (IT-27 … IT-29), [`visibility`] (IT-24), [`narration`] and
//! [`legal`] (the commands a seat may send now), and [`driver`] (a random legal-move player).

pub mod choice;
pub mod combo;
pub mod disadvantage;
pub mod driver;
pub mod ending;
pub mod entry;
pub mod legal;
pub mod losses;
pub mod narration;
pub mod specials;
pub mod stance;
pub mod turn;
pub mod visibility;
pub mod winner;

use clash_core::{Randomness, RuleError, Seat, Viewer};
use serde::{Deserialize, Serialize};

use crate::Table;
use crate::character::{Character, PerAction};
use crate::moves::{Action, Move};
use crate::special::Special;

pub use choice::MoveChoice;
pub use combo::{Card, Chain};
pub use losses::{LossBreakdown, PendingGain, PendingLoss};
pub use specials::{PlayedSpecial, ScoutReport, Window};
pub use stance::Stance;
pub use visibility::{CharacterView, ConflictView};
pub use winner::{TurnOutcome, WinReason};

pub use crate::name::Name;

/// Index of a fighter in [`Conflict::fighters`].
pub type FighterId = u8;

/// The two sides of a conflict: the players' characters and the GM's (IT-1, IT-27).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Players,
    Gm,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Players => Side::Gm,
            Side::Gm => Side::Players,
        }
    }
}

/// Where a character stands with respect to the conflict.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A PC whose player has not yet said whether it joins (IT-23).
    Pending,
    /// Fighting.
    In,
    /// A PC sitting out a lesser conflict; it still shares its side's result (IT-23, IT-28).
    SatOut,
    /// Kept out by 0 total energy or a Drunken Monkey ban (IT-23).
    Barred,
    /// Out of the fight: surrendered or at 0 in every type (IT-36, IT-52).
    Out,
}

/// One character's place in the conflict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub name: Name,
    /// Index into [`Table::characters`].
    pub character: usize,
    pub side: Side,
    pub status: Status,
    /// The face-up disadvantage pile, oldest first (IT-37).
    pub pile: Vec<Move>,
    /// Turns taken as the active character, counted as D-8 says.
    pub turns: u32,
    /// There Can Be Only One: the opponent this fighter is bound to (IT-59 #3).
    pub bound_to: Option<FighterId>,
    /// Drunken Monkey is active for the rest of the conflict (IT-59 #11).
    pub drunken_monkey: bool,
    /// The Way of the Samurai was used: cannot be removed, dies at the end (IT-59 #12).
    pub samurai: bool,
    /// To Blave uses this conflict (at most two, D-28).
    pub blave_uses: u8,
    pub surrendered: bool,
    /// A special (other than Yojimbo) was used this turn (IT-53).
    pub special_this_turn: bool,
}

/// Who chooses the next active character.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Picker {
    /// The players together pick the first active character; the GM may pick if they stall
    /// (IT-25, D-13).
    Players,
    /// One seat picks: the winner's controller, or the GM after a tie (IT-26, D-9, D-10).
    Seat { seat: Seat },
}

/// What the conflict is waiting for.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Players answer the GM's call: join, sit out (lesser only) or refuse lethality (IT-23).
    Forming,
    /// The next active character must be picked (IT-25, IT-26).
    PickActive {
        picker: Picker,
        /// The side the pick must come from, when the rules restrict it (the winner's, D-9).
        side: Option<Side>,
        /// A character that has won three times running in the live chain and must pass (IT-46).
        capped: Option<FighterId>,
    },
    /// A conflict turn is under way (IT-32).
    Turn,
    /// In a lethal conflict, the surrenderer's opponent decides whether to kill (IT-36).
    Mercy {
        surrendered: FighterId,
        opponent: FighterId,
        decider: Seat,
    },
    /// The conflict is over.
    Ended,
}

/// The steps of a turn, each with its special window (IT-32, IT-55, D-34).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// W1: the active character picks an opponent.
    PickOpponent,
    /// W2: both choose stances.
    Stances,
    /// W3: both choose moves.
    Moves,
    /// W4: moves are revealed; Drunken Monkey may swap.
    AfterReveal,
    /// W5: face-down specials are revealed; non-participants may use Yojimbo.
    BeforeResolution,
    /// Losses and gains are being split.
    Settling,
}

/// The turn in progress. Slot 0 is the active character, slot 1 the opponent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub number: u32,
    pub active: FighterId,
    pub opponent: Option<FighterId>,
    pub step: Step,
    pub stances: [Option<Stance>; 2],
    pub stances_revealed: bool,
    pub moves: [Option<MoveChoice>; 2],
    pub moves_revealed: bool,
    pub specials: Vec<PlayedSpecial>,
    /// I Already Know: the action each slot may not play this turn (IT-59 #8).
    pub forbidden: [Option<Action>; 2],
    /// Drunken Monkey swaps made this turn.
    pub swapped: [bool; 2],
    /// Fighters asked to act (or pass) in the open W4 or W5 window.
    pub asked: Vec<FighterId>,
    /// Fighters that are done with the open W4 or W5 window.
    pub done: Vec<FighterId>,
    pub outcome: Option<TurnOutcome>,
    pub pending_losses: Vec<PendingLoss>,
    pub pending_gains: Vec<PendingGain>,
}

impl Turn {
    pub fn new(number: u32, active: FighterId) -> Turn {
        Turn {
            number,
            active,
            opponent: None,
            step: Step::PickOpponent,
            stances: [None; 2],
            stances_revealed: false,
            moves: [None; 2],
            moves_revealed: false,
            specials: Vec::new(),
            forbidden: [None; 2],
            swapped: [false; 2],
            asked: Vec::new(),
            done: Vec::new(),
            outcome: None,
            pending_losses: Vec::new(),
            pending_gains: Vec::new(),
        }
    }

    /// The slot (0 active, 1 opponent) of a fighter taking part in this turn.
    pub fn slot(&self, f: FighterId) -> Option<usize> {
        if f == self.active {
            Some(0)
        } else if self.opponent == Some(f) {
            Some(1)
        } else {
            None
        }
    }

    pub fn participant(&self, slot: usize) -> Option<FighterId> {
        if slot == 0 {
            Some(self.active)
        } else {
            self.opponent
        }
    }

    /// The revealed (or committed) move of a slot, if it is a real move.
    pub fn played(&self, slot: usize) -> Option<Move> {
        match self.moves[slot] {
            Some(MoveChoice::Play(m)) => Some(m),
            _ => None,
        }
    }
}

/// How the conflict ended.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning side; `None` when the GM settled a stalled conflict (IT-23, D-11).
    pub winner: Option<Side>,
    pub reason: String,
    pub dead: Vec<Name>,
    /// What the winners (or the GM, settling a dispute) said happened within the stakes (IT-27).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narration: Option<String>,
}

/// The last resolved turn, kept for views (what happened and what it cost).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnReport {
    pub number: u32,
    pub stances: Vec<(Name, Stance)>,
    pub moves: Vec<(Name, MoveChoice)>,
    pub outcome: TurnOutcome,
    pub breakdown: Vec<LossBreakdown>,
    /// Energy actually lost and gained, per character, as settled.
    pub lost: Vec<(Name, PerAction<u32>)>,
    pub gained: Vec<(Name, PerAction<u32>)>,
}

/// A running (or just finished) conflict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflict {
    /// What is at stake: the GM's consequences of winning and losing (IT-22).
    pub stakes: String,
    pub lethal: bool,
    pub minor: bool,
    pub fighters: Vec<Fighter>,
    pub phase: Phase,
    pub turn: Option<Turn>,
    pub turns_played: u32,
    /// The active character of the previous turn (D-8: a run counts as one turn).
    pub last_active: Option<FighterId>,
    pub chain: Option<Chain>,
    /// Specials revealed so far, for Liquid Metal (D-29).
    pub revealed_specials: Vec<(FighterId, Special)>,
    /// Scouter snapshots; each is visible only to the seat that controls its user (D-26).
    pub scouted: Vec<ScoutReport>,
    pub last_turn: Option<TurnReport>,
    pub outcome: Option<Outcome>,
}

impl Conflict {
    pub fn fighter_id(&self, name: &str) -> Option<FighterId> {
        self.fighters
            .iter()
            .position(|f| f.name.is_str(name))
            .map(|i| i as FighterId)
    }

    pub fn f(&self, id: FighterId) -> &Fighter {
        &self.fighters[usize::from(id)]
    }

    pub fn f_mut(&mut self, id: FighterId) -> &mut Fighter {
        &mut self.fighters[usize::from(id)]
    }

    pub fn is_in(&self, id: FighterId) -> bool {
        self.fighters
            .get(usize::from(id))
            .is_some_and(|f| f.status == Status::In)
    }

    pub fn ids(&self) -> impl Iterator<Item = FighterId> + '_ {
        (0..self.fighters.len()).map(|i| i as FighterId)
    }

    /// Fighters still in the conflict on `side`.
    pub fn in_on(&self, side: Side) -> impl Iterator<Item = FighterId> + '_ {
        self.ids()
            .filter(move |&i| self.f(i).side == side && self.f(i).status == Status::In)
    }

    pub fn is_running(&self) -> bool {
        self.phase != Phase::Ended
    }
}

/// A command about a conflict.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ConflictCommand {
    /// GM: escalate to a conflict with these stakes and NPCs (IT-22, IT-23).
    StartConflict {
        stakes: String,
        npcs: Vec<Name>,
        #[serde(default)]
        lethal: bool,
        #[serde(default)]
        minor: bool,
    },
    /// A player: their PC enters the conflict (in a lethal one this is their agreement).
    JoinConflict { character: Name },
    /// A player: their PC sits out a lesser conflict, sharing its result (IT-23).
    SitOut { character: Name },
    /// A player: they do not agree to a lethal conflict, which makes it a lesser one (IT-23).
    RefuseLethal {},
    /// GM: players stalled or refused, or a Samurai stalls at 0 energy; the GM decides the
    /// outcome, never death (IT-23, D-11).
    SettleConflict { outcome: String },
    /// Pick the active character (IT-25, IT-26).
    PickActive { character: Name },
    /// The active character's controller picks an opponent (IT-32 step 1).
    PickOpponent { opponent: Name },
    /// The active character ends a live chain before choosing a move (IT-43).
    EndChain {},
    /// Commit a hidden stance: `amount` 0 means no stance (IT-33).
    TakeStance {
        character: Name,
        #[serde(default)]
        action: Option<Action>,
        #[serde(default)]
        amount: u32,
    },
    /// Commit a hidden move, or `"surrender"` (IT-35, IT-36).
    PlayMove {
        character: Name,
        #[serde(rename = "move")]
        choice: MoveChoice,
    },
    /// Play a special in the open window (IT-54). `target` names the opponent for Scouter and
    /// There Can Be Only One at W1, and the protected participant for Yojimbo; `copy` is the
    /// special Liquid Metal duplicates.
    PlaySpecial {
        character: Name,
        #[serde(flatten)]
        special: Special,
        #[serde(default)]
        target: Option<Name>,
        #[serde(default, deserialize_with = "crate::special::strict::option")]
        copy: Option<Special>,
    },
    /// Done with the open W4 or W5 window.
    PassWindow { character: Name },
    /// Drunken Monkey at W4: the opponent's random pick replaces the revealed move (D-30).
    DrunkenSwap { character: Name },
    /// Split the free part of the pending loss over the types (IT-51, D-35).
    SplitLoss {
        character: Name,
        split: PerAction<u32>,
    },
    /// Split a Santa Carla regain over the types, up to max (IT-59 #6).
    SplitGain {
        character: Name,
        split: PerAction<u32>,
    },
    /// Lethal conflict: kill the surrendered opponent on the spot (IT-36).
    KillSurrendered {},
    /// Lethal conflict: let the surrendered opponent live.
    SpareSurrendered {},
    /// A winner's controller narrates the outcome within the stakes once the conflict is won;
    /// the GM may narrate too, settling a dispute (IT-27). The latest narration stands.
    NarrateConflict { text: String },
    /// GM: make an NPC's moves, combos and specials public (IT-24).
    RevealNpc { character: Name },
}

/// Why a character could not enter (IT-23).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BarReason {
    NoEnergy,
    DrunkenMonkey,
}

impl BarReason {
    pub fn words(self) -> &'static str {
        match self {
            BarReason::NoEnergy => "no energy left",
            BarReason::DrunkenMonkey => "banned by Drunken Monkey",
        }
    }
}

/// Why a chain ended without a tie or loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChainEnd {
    /// The next active character is not on the chain's side (IT-43).
    OtherSide,
    /// The active character picked someone other than the chain's loser (IT-43).
    OtherOpponent,
    /// The active character ended it (IT-43).
    Voluntary,
}

impl ChainEnd {
    pub fn words(self) -> &'static str {
        match self {
            ChainEnd::OtherSide => "the next active character is on the other side",
            ChainEnd::OtherOpponent => "another opponent was picked",
            ChainEnd::Voluntary => "the active character ends it",
        }
    }
}

impl Side {
    pub fn words(self) -> &'static str {
        match self {
            Side::Players => "the players' side",
            Side::Gm => "the GM's side",
        }
    }
}

impl Status {
    pub fn words(self) -> &'static str {
        match self {
            Status::Pending => "has not answered yet",
            Status::In => "in",
            Status::SatOut => "sits out",
            Status::Barred => "barred",
            Status::Out => "out",
        }
    }
}

impl Step {
    pub fn words(self) -> &'static str {
        match self {
            Step::PickOpponent => "picking an opponent",
            Step::Stances => "choosing stances",
            Step::Moves => "choosing moves",
            Step::AfterReveal => "moves revealed",
            Step::BeforeResolution => "before resolution",
            Step::Settling => "splitting losses",
        }
    }
}

/// Something that happened in a conflict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ConflictEvent {
    ConflictStarted {
        stakes: String,
        lethal: bool,
        minor: bool,
        npcs: Vec<Name>,
        /// PCs asked to answer.
        pcs: Vec<Name>,
        barred: Vec<(Name, BarReason)>,
    },
    LethalRefused {
        seat: Seat,
    },
    JoinedConflict {
        character: Name,
    },
    SatOut {
        character: Name,
    },
    FightBegan {
        lethal: bool,
    },
    ConflictSettled {
        outcome: String,
        dead: Vec<Name>,
    },
    ActivePicked {
        character: Name,
        by: Seat,
        counts_as_turn: bool,
    },
    ChainEnded {
        reason: ChainEnd,
        cards: Vec<Move>,
    },
    OpponentPicked {
        active: Name,
        opponent: Name,
    },
    SpecialPlayed {
        character: Name,
        /// The seat controlling the user: the only one that sees a face-down special.
        owner: Seat,
        window: Window,
        /// `None` when the viewer may not see it: a face-down special shows only as "a special".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        special: Option<Special>,
        #[serde(default)]
        via_liquid_metal: bool,
        face_down: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Name>,
    },
    /// A Scouter snapshot; `report` is shown only to the Scouter's controller (D-26). Boxed, as
    /// the one large payload: it keeps every event small.
    Scouted {
        character: Name,
        owner: Seat,
        target: Name,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        report: Option<Box<ScoutReport>>,
    },
    SpecialsRevealed {
        specials: Vec<(Name, Special)>,
    },
    /// Identical specials clashed: both are spent and neither takes effect (D-31).
    SpecialsCancelled {
        special: Special,
        first: Name,
        second: Name,
    },
    /// A hidden stance; `stance` is `None` ("ready") for everyone but its owner.
    StanceTaken {
        character: Name,
        owner: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stance: Option<Stance>,
    },
    StancesRevealed {
        active: (Name, Stance),
        opponent: (Name, Stance),
    },
    MoveChosen {
        character: Name,
        owner: Seat,
        #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
        choice: Option<MoveChoice>,
    },
    MovesRevealed {
        active: (Name, MoveChoice),
        opponent: (Name, MoveChoice),
        /// Which revealed moves are disadvantaged (IT-38).
        disadvantaged: Vec<Name>,
        /// The names their players gave the two moves (IT-7), for narration.
        #[serde(default)]
        move_names: Vec<Name>,
    },
    WindowOpened {
        window: Window,
        who: Vec<Name>,
    },
    WindowPassed {
        character: Name,
        window: Window,
    },
    /// Drunken Monkey: the move actually played, picked with the injected randomness (D-30).
    MoveSwapped {
        character: Name,
        from: Move,
        to: Option<Move>,
    },
    TurnResolved {
        outcome: TurnOutcome,
        breakdown: Vec<LossBreakdown>,
        losses: Vec<PendingLoss>,
        gains: Vec<PendingGain>,
    },
    EnergyLost {
        character: Name,
        lost: PerAction<u32>,
        discarded: u32,
        zero_marked: Vec<Action>,
        split_by: Option<Seat>,
    },
    EnergyGained {
        character: Name,
        gained: PerAction<u32>,
    },
    TurnEnded {
        piles: Vec<(Name, Vec<Move>)>,
        chain: Option<Chain>,
        out: Vec<Name>,
        dead: Vec<Name>,
        next: Option<Phase>,
    },
    Surrendered {
        characters: Vec<Name>,
    },
    KilledOnTheSpot {
        character: Name,
        next: Option<Phase>,
    },
    Spared {
        character: Name,
        next: Option<Phase>,
    },
    NpcRevealed {
        character: Name,
    },
    ConflictEnded {
        outcome: Outcome,
    },
    /// IT-27: `by` narrated the outcome of the finished conflict; the latest narration stands.
    ConflictNarrated {
        by: Seat,
        text: String,
    },
}

/// The running conflict, or an error naming `rule`.
pub(crate) fn running<'a>(table: &'a Table, rule: &'static str) -> Result<&'a Conflict, RuleError> {
    match &table.conflict {
        Some(c) if c.is_running() => Ok(c),
        _ => Err(RuleError::illegal(rule, "no conflict is running")),
    }
}

pub(crate) fn character<'a>(table: &'a Table, c: &Conflict, f: FighterId) -> &'a Character {
    &table.characters[c.f(f).character]
}

/// The index in [`Table::characters`] of the character called `name`: found through the
/// conflict's fighters first (a name copied from a fighter matches by pointer), else by name.
pub(crate) fn character_index(table: &Table, name: &Name) -> Option<usize> {
    let fighter = table
        .conflict
        .as_ref()
        .and_then(|c| c.fighters.iter().find(|f| f.name.is(name)));
    match fighter {
        Some(f)
            if table
                .characters
                .get(f.character)
                .is_some_and(|ch| ch.name == name.as_str()) =>
        {
            Some(f.character)
        }
        _ => table
            .characters
            .iter()
            .position(|ch| ch.name == name.as_str()),
    }
}

pub(crate) fn controller(table: &Table, c: &Conflict, f: FighterId) -> Seat {
    table
        .characters
        .get(c.f(f).character)
        .map_or(Seat::Gm, |ch| ch.controller)
}

/// The fighter called `name`, controlled by `seat`.
pub(crate) fn own_fighter(
    table: &Table,
    c: &Conflict,
    seat: Seat,
    name: &str,
    rule: &'static str,
) -> Result<FighterId, RuleError> {
    let id = c.fighter_id(name).ok_or_else(|| {
        RuleError::illegal(
            rule,
            format!(
                "{} is not part of this conflict",
                crate::limits::shown(name)
            ),
        )
    })?;
    if controller(table, c, id) != seat {
        return Err(RuleError::not_your_call(
            rule,
            seat,
            format!("{name} is not your character"),
        ));
    }
    Ok(id)
}

/// The turn in progress, or an error naming `rule`.
pub(crate) fn current_turn<'a>(c: &'a Conflict, rule: &'static str) -> Result<&'a Turn, RuleError> {
    match (&c.phase, &c.turn) {
        (Phase::Turn, Some(t)) => Ok(t),
        _ => Err(RuleError::illegal(rule, "no conflict turn is under way")),
    }
}

pub fn decide(
    table: &Table,
    seat: Seat,
    command: &ConflictCommand,
    rng: &mut dyn Randomness,
) -> Result<Vec<ConflictEvent>, RuleError> {
    let mut events = Vec::new();
    decide_into(table, seat, command, rng, &mut events)?;
    Ok(events)
}

/// [`decide`], appending the events to `out`; on an error `out` is left as it was. A player
/// that keeps no log (the random driver) reuses one list instead of allocating one per command.
pub fn decide_into(
    table: &Table,
    seat: Seat,
    command: &ConflictCommand,
    rng: &mut dyn Randomness,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    let before = out.len();
    let decided = decide_command(table, seat, command, rng, out);
    if decided.is_err() {
        out.truncate(before);
    }
    decided
}

fn decide_command(
    table: &Table,
    seat: Seat,
    command: &ConflictCommand,
    rng: &mut dyn Randomness,
    out: &mut Vec<ConflictEvent>,
) -> Result<(), RuleError> {
    use ConflictCommand as C;
    match command {
        C::StartConflict {
            stakes,
            npcs,
            lethal,
            minor,
        } => entry::start(table, seat, stakes, npcs, *lethal, *minor, out),
        C::JoinConflict { character } => entry::respond(table, seat, character, true, out),
        C::SitOut { character } => entry::respond(table, seat, character, false, out),
        C::RefuseLethal {} => entry::refuse_lethal(table, seat, out),
        C::SettleConflict { outcome } => entry::settle(table, seat, outcome, out),
        C::PickActive { character } => turn::pick_active(table, seat, character, out),
        C::PickOpponent { opponent } => turn::pick_opponent(table, seat, opponent, out),
        C::EndChain {} => combo::end_chain(table, seat, out),
        C::TakeStance {
            character,
            action,
            amount,
        } => stance::take(table, seat, character, Stance::new(*action, *amount), out),
        C::PlayMove { character, choice } => {
            choice::play_move(table, seat, character, *choice, out)
        }
        C::PlaySpecial {
            character,
            special,
            target,
            copy,
        } => specials::play(
            table,
            seat,
            character,
            *special,
            target.as_deref(),
            *copy,
            out,
        ),
        C::PassWindow { character } => specials::pass(table, seat, character, out),
        C::DrunkenSwap { character } => specials::drunken_swap(table, seat, character, rng, out),
        C::SplitLoss { character, split } => {
            losses::split_loss(table, seat, character, *split, out)
        }
        C::SplitGain { character, split } => {
            losses::split_gain(table, seat, character, *split, out)
        }
        C::KillSurrendered {} => ending::mercy(table, seat, true, out),
        C::NarrateConflict { text } => ending::narrate(table, seat, text, out),
        C::SpareSurrendered {} => ending::mercy(table, seat, false, out),
        C::RevealNpc { character } => visibility::reveal_npc(table, seat, character, out),
    }
}

pub fn apply(table: &mut Table, event: &ConflictEvent) {
    use ConflictEvent as E;
    match event {
        E::ConflictStarted { .. }
        | E::LethalRefused { .. }
        | E::JoinedConflict { .. }
        | E::SatOut { .. }
        | E::FightBegan { .. } => entry::apply(table, event),
        E::ConflictSettled { .. }
        | E::Surrendered { .. }
        | E::KilledOnTheSpot { .. }
        | E::Spared { .. }
        | E::ConflictEnded { .. }
        | E::ConflictNarrated { .. } => ending::apply(table, event),
        E::ActivePicked { .. }
        | E::OpponentPicked { .. }
        | E::WindowOpened { .. }
        | E::WindowPassed { .. } => turn::apply(table, event),
        E::ChainEnded { .. } => combo::apply(table, event),
        E::StanceTaken { .. } | E::StancesRevealed { .. } => stance::apply(table, event),
        E::MoveChosen { .. } | E::MovesRevealed { .. } => choice::apply(table, event),
        E::SpecialPlayed { .. }
        | E::Scouted { .. }
        | E::SpecialsRevealed { .. }
        | E::SpecialsCancelled { .. }
        | E::MoveSwapped { .. } => specials::apply(table, event),
        E::TurnResolved { .. }
        | E::EnergyLost { .. }
        | E::EnergyGained { .. }
        | E::TurnEnded { .. } => losses::apply(table, event),
        E::NpcRevealed { .. } => visibility::apply(table, event),
    }
}

pub fn character_views(state: &Table, viewer: Viewer) -> Vec<CharacterView> {
    visibility::character_views(state, viewer)
}

pub fn view(state: &Table, viewer: Viewer) -> Option<ConflictView> {
    visibility::view(state, viewer)
}

pub fn event_view(e: &ConflictEvent, viewer: Viewer) -> Option<ConflictEvent> {
    visibility::event_view(e, viewer)
}

pub fn secret_pending(state: &Table, seat: Seat) -> bool {
    visibility::secret_pending(state, seat)
}

pub fn narrate(state: &Table, e: &ConflictEvent) -> String {
    narration::narrate(state, e)
}

pub fn render_characters(state: &Table, viewer: Viewer) -> String {
    narration::render_characters(state, viewer)
}

pub fn render(state: &Table, viewer: Viewer) -> String {
    narration::render(state, viewer)
}

pub fn legal_commands(state: &Table, seat: Seat) -> Vec<ConflictCommand> {
    legal::legal_commands(state, seat)
}
