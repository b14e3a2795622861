//! Characters: energy, backgrounds, traits, vetoes, known moves, combos and specials, and the
//! validation of character creation (IT-7, IT-9 … IT-12) and of established sheets.

use crate::variant::Rules;
use clash_core::{RuleError, Seat};
use serde::{Deserialize, Serialize};

use crate::moves::{Action, Element, Move};
use crate::name::Name;
use crate::special::Special;

/// One value per action / energy type.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerAction<T> {
    pub defend: T,
    pub grapple: T,
    pub attack: T,
}

impl<T: Copy> PerAction<T> {
    pub fn get(&self, action: Action) -> T {
        match action {
            Action::Defend => self.defend,
            Action::Grapple => self.grapple,
            Action::Attack => self.attack,
        }
    }

    pub fn get_mut(&mut self, action: Action) -> &mut T {
        match action {
            Action::Defend => &mut self.defend,
            Action::Grapple => &mut self.grapple,
            Action::Attack => &mut self.attack,
        }
    }

    pub fn map<U>(self, f: impl Fn(T) -> U) -> PerAction<U> {
        PerAction {
            defend: f(self.defend),
            grapple: f(self.grapple),
            attack: f(self.attack),
        }
    }
}

impl PerAction<u32> {
    pub fn total(&self) -> u32 {
        self.defend + self.grapple + self.attack
    }
}

/// Current and maximum energy of each type (IT-9). Current always stays within 0..=max.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Energy {
    pub max: PerAction<u32>,
    pub current: PerAction<u32>,
}

impl Energy {
    pub fn full(max: PerAction<u32>) -> Energy {
        Energy { max, current: max }
    }

    pub fn total(&self) -> u32 {
        self.current.total()
    }

    /// Lose up to `amount` from one type, flooring at 0 (IT-51); returns what was actually lost.
    pub fn lose(&mut self, action: Action, amount: u32) -> u32 {
        let cur = self.current.get_mut(action);
        let lost = amount.min(*cur);
        *cur -= lost;
        lost
    }

    /// Gain up to `amount` in one type, capped at max; returns what was actually gained.
    pub fn gain(&mut self, action: Action, amount: u32) -> u32 {
        let room = self.max.get(action) - self.current.get(action);
        let gained = amount.min(room);
        *self.current.get_mut(action) += gained;
        gained
    }
}

/// A named background with its current and maximum points (IT-10, D-18).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Background {
    pub name: String,
    pub current: u32,
    pub max: u32,
}

/// A belief or a flaw: its text and whether it is marked (IT-11).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Trait {
    pub text: String,
    pub marked: bool,
}

/// The goal and whether it was achieved (IT-11).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Goal {
    pub text: String,
    pub achieved: bool,
}

/// A move the character knows, under the name its player gave it (IT-7).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownMove {
    #[serde(rename = "move")]
    pub mv: Move,
    /// Shared, so that copying a table copies no move names (a plain string in JSON).
    pub name: Name,
}

/// A combo: from a starting move to one or two followups (IT-41, IT-63, D-5).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Combo {
    pub from: Move,
    pub followups: Vec<Move>,
}

/// A learned special and whether it is spent until the next full rest (IT-53).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownSpecial {
    #[serde(flatten)]
    pub special: Special,
    pub spent: bool,
}

/// The yes marks for the level-up questions that are not read off other fields (IT-60, D-19):
/// Q1 is its own mark; zero marks are per energy type (IT-52, D-17). Q2 is the goal's mark.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Marks {
    pub q1: bool,
    pub zero: PerAction<bool>,
}

/// A character on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    pub name: String,
    /// The seat that controls it: a player seat for a PC, the GM for an NPC (IT-1).
    pub controller: Seat,
    pub level: u32,
    pub energy: Energy,
    pub backgrounds: Vec<Background>,
    /// Background points not yet given to a named background; one joins a background when it is
    /// first spent (D-18).
    pub unassigned_points: u32,
    pub belief: Trait,
    pub flaw: Trait,
    pub goal: Goal,
    /// Whether the character's one veto is still unused (IT-11).
    pub veto: bool,
    pub moves: Vec<KnownMove>,
    pub combos: Vec<Combo>,
    pub specials: Vec<KnownSpecial>,
    pub marks: Marks,
    pub dead: bool,
    /// Drunken Monkey was used: the character cannot enter the next conflict (IT-59 #11). Set
    /// by the conflict that used it, cleared once that next conflict has happened.
    #[serde(default)]
    pub drunken_monkey_ban: bool,
    /// The GM has revealed this NPC's moves, combos and specials to the players (IT-24).
    #[serde(default)]
    pub revealed: bool,
}

impl Character {
    pub fn is_pc(&self) -> bool {
        self.controller != Seat::Gm
    }

    pub fn knows(&self, mv: Move) -> bool {
        self.moves.iter().any(|k| k.mv == mv)
    }

    pub fn move_name(&self, mv: Move) -> Option<&str> {
        self.moves
            .iter()
            .find(|k| k.mv == mv)
            .map(|k| k.name.as_str())
    }

    pub fn followups(&self, from: Move) -> &[Move] {
        self.combos
            .iter()
            .find(|c| c.from == from)
            .map_or(&[], |c| &c.followups)
    }

    pub fn knows_special(&self, special: Special) -> bool {
        self.specials.iter().any(|k| k.special == special)
    }

    /// All nine Low/Mid/High moves are known, so Jump and Spin moves may be learned (IT-8).
    pub fn knows_all_basic_moves(&self) -> bool {
        Move::ALL
            .iter()
            .filter(|m| !m.is_advanced())
            .all(|m| self.knows(*m))
    }

    pub fn background_points(&self) -> u32 {
        self.backgrounds.iter().map(|b| b.current).sum::<u32>() + self.unassigned_points
    }

    /// The background called `name`, names compared as a player reads them (IT-10,
    /// [`crate::names::same`]).
    pub fn background(&self, name: &str) -> Option<&Background> {
        self.backgrounds
            .iter()
            .find(|b| crate::names::same(&b.name, name))
    }
}

/// The refusal for two backgrounds of one sheet named alike (IT-10): each is written once,
/// with all its points.
pub(crate) fn repeated_background(first: &str, second: &str) -> String {
    let once = "write each background once, with all its points (at most 2)";
    if first.trim() == second.trim() {
        format!(
            "{} is listed twice: {once}",
            crate::limits::shown(first.trim())
        )
    } else {
        format!(
            "{} and {} are the same background: {once}",
            crate::limits::shown(first.trim()),
            crate::limits::shown(second.trim())
        )
    }
}

/// How a character is written in a setup or a creation command.
///
/// A new PC (`established: false`, the default) is checked against character creation
/// (IT-9 … IT-12). An established sheet — an NPC, or a character brought in part-way through a
/// campaign — may have any level, moves, combos and specials, but must still be consistent
/// (IT-8, IT-41/IT-63, IT-56, IT-59 requirements).
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterSheet {
    pub name: String,
    pub controller: Seat,
    /// Maximum energy per type.
    pub energy: PerAction<u32>,
    #[serde(default)]
    pub established: bool,
    #[serde(default)]
    pub level: u32,
    /// Current energy, when not full (established sheets only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<PerAction<u32>>,
    #[serde(default)]
    pub backgrounds: Vec<BackgroundSheet>,
    #[serde(default)]
    pub belief: String,
    #[serde(default)]
    pub flaw: String,
    #[serde(default)]
    pub goal: String,
    pub moves: Vec<KnownMove>,
    #[serde(default)]
    pub combos: Vec<Combo>,
    #[serde(default, deserialize_with = "crate::special::strict::list")]
    pub specials: Vec<Special>,
    /// Marks an established sheet already carries (IT-11, IT-60); a new PC starts with none.
    #[serde(default, skip_serializing_if = "SheetMarks::is_clear")]
    pub marks: SheetMarks,
    /// Where an established sheet stands in play (a position): dead, specials spent until a
    /// full rest, banned from the next conflict by Drunken Monkey, an NPC's sheet made public.
    #[serde(default, skip_serializing_if = "SheetState::is_fresh")]
    pub state: SheetState,
}

/// The parts of a character that play changes besides energy and marks, for a sheet that
/// starts part-way through a campaign (a position). A new character is fresh.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SheetState {
    pub dead: bool,
    /// Specials used and spent until a full rest (IT-53).
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::special::strict::list"
    )]
    pub spent: Vec<Special>,
    /// Drunken Monkey was used: the character may not enter the next conflict (IT-59 #11).
    pub drunken_monkey_ban: bool,
    /// The GM has made this NPC's moves, combos and specials public (IT-24).
    pub revealed: bool,
}

impl SheetState {
    pub fn is_fresh(&self) -> bool {
        *self == SheetState::default()
    }
}

/// The marks of an established sheet: trait and goal marks, the Q1 and zero yes marks
/// (IT-60, D-17, D-19) and a used veto (IT-11). They let a scenario start mid-campaign.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SheetMarks {
    pub belief: bool,
    pub flaw: bool,
    pub goal: bool,
    pub q1: bool,
    pub zero: PerAction<bool>,
    pub veto_used: bool,
}

impl SheetMarks {
    pub fn is_clear(&self) -> bool {
        *self == SheetMarks::default()
    }
}

#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackgroundSheet {
    pub name: String,
    pub points: u32,
    /// Points still unspent, when fewer than `points` (established sheets only, D-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<u32>,
}

/// One problem of a sheet: the field it is in (`name`, `energy`, `level`, `backgrounds`,
/// `belief`, `flaw`, `goal`, `moves`, `combos`, `specials`, `state`, `marks`) and the refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetProblem {
    pub field: &'static str,
    pub error: RuleError,
}

/// A check written as a command refusal, reported as a setup refusal.
fn as_setup(e: RuleError) -> RuleError {
    match e {
        RuleError::IllegalMove { rule, reason } => RuleError::setup(rule, reason),
        other => other,
    }
}

/// Total energy maximum of a new character (IT-9).
pub const STARTING_ENERGY: u32 = 10;
/// Background points of a new character, and the most in one background (IT-10, D-18).
pub const BACKGROUND_POINTS: u32 = 3;
pub const MAX_POINTS_IN_ONE_BACKGROUND: u32 = 2;
/// The starting moves (IT-12).
pub const STARTING_MOVES: [Move; 3] = [
    Move::new(Action::Defend, Element::Mid),
    Move::new(Action::Grapple, Element::Low),
    Move::new(Action::Attack, Element::High),
];

impl CharacterSheet {
    /// Check the sheet and build the character: the first of [`CharacterSheet::problems`]
    /// refuses it.
    pub fn build(&self) -> Result<Character, RuleError> {
        self.build_under(&Rules::default())
    }

    /// [`CharacterSheet::build`] under a table's rules ([`crate::variant`]).
    pub fn build_under(&self, rules: &Rules) -> Result<Character, RuleError> {
        match self.problems_under(rules).into_iter().next() {
            Some(problem) => Err(problem.error),
            None => Ok(self.to_character()),
        }
    }

    /// Every problem with the sheet, field by field (each field's first), in the order a
    /// person fills it in: name, energy, level, backgrounds, belief, flaw, goal, moves, combos,
    /// specials, then an established sheet's state and marks. A new character is also held to
    /// creation (IT-9 … IT-12).
    pub fn problems(&self) -> Vec<SheetProblem> {
        self.problems_under(&Rules::default())
    }

    /// [`CharacterSheet::problems`] under a table's rules ([`crate::variant`]).
    pub fn problems_under(&self, rules: &Rules) -> Vec<SheetProblem> {
        let marks = if !self.established && !self.marks.is_clear() {
            Err(RuleError::setup(
                "IT-11",
                "a new character's marks all start clear",
            ))
        } else {
            Ok(())
        };
        let checks: [(&'static str, Result<(), RuleError>); 12] = [
            ("name", self.check_name()),
            ("energy", self.check_energy(rules.energy)),
            ("level", self.check_level()),
            ("backgrounds", self.check_backgrounds()),
            ("belief", self.check_trait(&self.belief, "the belief")),
            ("flaw", self.check_trait(&self.flaw, "the flaw")),
            ("goal", self.check_trait(&self.goal, "the goal")),
            ("moves", self.check_moves()),
            ("combos", self.check_combos(rules.followups as usize)),
            ("specials", self.check_specials()),
            ("state", self.check_state()),
            ("marks", marks),
        ];
        checks
            .into_iter()
            .filter_map(|(field, r)| {
                r.err().map(|e| SheetProblem {
                    field,
                    error: as_setup(e),
                })
            })
            .collect()
    }

    fn check_name(&self) -> Result<(), RuleError> {
        if self.name.trim().is_empty() {
            return Err(RuleError::setup("IT-7", "a character needs a name"));
        }
        crate::limits::name(&self.name, "IT-7", "a character's name")
    }

    fn check_level(&self) -> Result<(), RuleError> {
        if self.level > crate::limits::MAX_LEVEL {
            return Err(RuleError::setup(
                "IT-60",
                format!("a level is at most {}", crate::limits::MAX_LEVEL),
            ));
        }
        if !self.established && self.level != 0 {
            return Err(RuleError::setup(
                "IT-9",
                "a new character starts at level 0",
            ));
        }
        Ok(())
    }

    /// A belief, flaw or goal: within the text limit, and written for a new character (IT-11).
    fn check_trait(&self, text: &str, what: &str) -> Result<(), RuleError> {
        crate::limits::text(text, "IT-11", what)?;
        if !self.established && text.trim().is_empty() {
            return Err(RuleError::setup(
                "IT-11",
                format!("a new character starts with {what} written down"),
            ));
        }
        Ok(())
    }

    fn check_energy(&self, starting: u32) -> Result<(), RuleError> {
        if Action::ALL
            .iter()
            .any(|a| self.energy.get(*a) > crate::limits::MAX_ENERGY)
        {
            return Err(RuleError::setup(
                "IT-9",
                format!("an energy maximum is at most {}", crate::limits::MAX_ENERGY),
            ));
        }
        for a in Action::ALL {
            if self.energy.get(a) < 1 {
                return Err(RuleError::setup(
                    "IT-9",
                    format!("{a} energy max must be at least 1"),
                ));
            }
        }
        if let Some(current) = self.current {
            if !self.established {
                return Err(RuleError::setup(
                    "IT-9",
                    "a new character starts with current energy at max",
                ));
            }
            if Action::ALL
                .iter()
                .any(|a| current.get(*a) > self.energy.get(*a))
            {
                return Err(RuleError::setup("IT-9", "current energy cannot exceed max"));
            }
        }
        let total = self.energy.total();
        if !self.established && total != starting {
            return Err(RuleError::setup(
                "IT-9",
                format!(
                    "a new character spreads exactly {starting} energy over the three types, not {total}"
                ),
            ));
        }
        Ok(())
    }

    fn check_backgrounds(&self) -> Result<(), RuleError> {
        if self.backgrounds.len() > crate::limits::MAX_BACKGROUNDS {
            return Err(RuleError::setup(
                "IT-10",
                format!(
                    "at most {} backgrounds share the 3 points",
                    crate::limits::MAX_BACKGROUNDS
                ),
            ));
        }
        for b in &self.backgrounds {
            crate::limits::name(&b.name, "IT-10", "a background's name")?;
        }
        let total: u32 = self.backgrounds.iter().map(|b| b.points).sum();
        if total > BACKGROUND_POINTS {
            return Err(RuleError::setup(
                "IT-10",
                format!("{total} background points; there are only {BACKGROUND_POINTS}"),
            ));
        }
        if let Some(b) = self
            .backgrounds
            .iter()
            .find(|b| b.points > MAX_POINTS_IN_ONE_BACKGROUND)
        {
            return Err(RuleError::setup(
                "IT-10",
                format!(
                    "{} has {} points; at most {MAX_POINTS_IN_ONE_BACKGROUND} in one background",
                    b.name, b.points
                ),
            ));
        }
        if self.backgrounds.iter().any(|b| b.name.trim().is_empty()) {
            return Err(RuleError::setup("IT-10", "backgrounds are named"));
        }
        self.check_background_names()?;
        if let Some(b) = self
            .backgrounds
            .iter()
            .find(|b| b.current.is_some_and(|c| c > b.points))
        {
            return Err(RuleError::setup(
                "D-18",
                format!("{} cannot hold more current points than its max", b.name),
            ));
        }
        if !self.established && self.backgrounds.iter().any(|b| b.current.is_some()) {
            return Err(RuleError::setup(
                "IT-10",
                "a new character's backgrounds start full",
            ));
        }
        if !self.established && total != BACKGROUND_POINTS {
            return Err(RuleError::setup(
                "IT-10",
                format!("{total} background points assigned; assign all {BACKGROUND_POINTS}"),
            ));
        }
        Ok(())
    }

    /// A background is known by its name (IT-10): two entries named alike would split one
    /// background's points, past the 2 it may hold, and payments would look at only one.
    fn check_background_names(&self) -> Result<(), RuleError> {
        for (i, b) in self.backgrounds.iter().enumerate() {
            if let Some(first) = self.backgrounds[..i]
                .iter()
                .find(|o| crate::names::same(&o.name, &b.name))
            {
                return Err(RuleError::setup(
                    "IT-10",
                    repeated_background(&first.name, &b.name),
                ));
            }
        }
        Ok(())
    }

    fn check_moves(&self) -> Result<(), RuleError> {
        for k in &self.moves {
            crate::limits::name(&k.name, "IT-7", "a move's name")?;
        }
        for (i, k) in self.moves.iter().enumerate() {
            if self.moves[..i].iter().any(|o| o.mv == k.mv) {
                return Err(RuleError::setup(
                    "IT-7",
                    format!("{} is listed twice; known moves are distinct", k.mv),
                ));
            }
            if k.name.trim().is_empty() {
                return Err(RuleError::setup("IT-7", format!("{} needs a name", k.mv)));
            }
        }
        let basic_known = Move::ALL
            .iter()
            .filter(|m| !m.is_advanced())
            .all(|m| self.moves.iter().any(|k| k.mv == *m));
        if let Some(k) = self.moves.iter().find(|k| k.mv.is_advanced())
            && !basic_known
        {
            return Err(RuleError::setup(
                "IT-8",
                format!("{} needs all nine Low/Mid/High moves first", k.mv),
            ));
        }
        let mut known: Vec<Move> = self.moves.iter().map(|k| k.mv).collect();
        known.sort();
        if !self.established && known != STARTING_MOVES {
            return Err(RuleError::setup(
                "IT-12",
                "a new character knows exactly D-M, G-L and A-H",
            ));
        }
        Ok(())
    }

    fn check_combos(&self, most: usize) -> Result<(), RuleError> {
        if !self.established && !self.combos.is_empty() {
            return Err(RuleError::setup(
                "IT-9",
                "a new character starts with no combos",
            ));
        }
        for (i, c) in self.combos.iter().enumerate() {
            if self.combos[..i].iter().any(|o| o.from == c.from) {
                return Err(RuleError::setup(
                    "IT-41",
                    format!("two combo entries start from {}", c.from),
                ));
            }
            if c.followups.is_empty() || c.followups.len() > most {
                return Err(RuleError::setup(
                    "IT-41",
                    format!("a combo from {} needs 1 to {most} followups", c.from),
                ));
            }
            if let Some(f) = c
                .followups
                .iter()
                .find(|f| !self.moves.iter().any(|k| k.mv == **f))
            {
                return Err(RuleError::setup(
                    "D-5",
                    format!("combo followup {f} is not a known move"),
                ));
            }
        }
        Ok(())
    }

    fn check_specials(&self) -> Result<(), RuleError> {
        if !self.established && !self.specials.is_empty() {
            return Err(RuleError::setup(
                "IT-9",
                "a new character starts with no specials",
            ));
        }
        for (i, s) in self.specials.iter().enumerate() {
            if self.specials[..i].contains(s) {
                return Err(RuleError::setup(
                    "IT-56",
                    format!("{s} is listed twice; no special is learned twice"),
                ));
            }
            let req = s.requirement();
            if self.level < u32::from(req.level) {
                return Err(RuleError::setup(
                    "IT-59",
                    format!("{s} requires level {}", req.level),
                ));
            }
            if let Some(need) = req.needs.filter(|n| !self.specials.contains(n)) {
                return Err(RuleError::setup("IT-59", format!("{s} requires {need}")));
            }
            if req.pc_only && self.controller == Seat::Gm {
                return Err(RuleError::setup("IT-59", format!("{s} is for PCs only")));
            }
        }
        Ok(())
    }

    /// A sheet's state in play: only established sheets have one, and it must fit the sheet.
    fn check_state(&self) -> Result<(), RuleError> {
        let st = &self.state;
        if !self.established && !st.is_fresh() {
            return Err(RuleError::setup(
                "IT-9",
                "a new character is alive, with fresh specials and no ban",
            ));
        }
        for (i, s) in st.spent.iter().enumerate() {
            if !self.specials.contains(s) || st.spent[..i].contains(s) {
                return Err(RuleError::setup(
                    "IT-53",
                    format!("only a known special can be spent, once: {s}"),
                ));
            }
            if *s == Special::ToBlave {
                return Err(RuleError::setup(
                    "IT-53",
                    "To Blave is never spent: it is used twice per conflict instead",
                ));
            }
        }
        if st.drunken_monkey_ban && !self.specials.contains(&Special::DrunkenMonkey) {
            return Err(RuleError::setup(
                "IT-59",
                "only a Drunken Monkey user is banned from the next conflict",
            ));
        }
        if st.revealed && self.controller != Seat::Gm {
            return Err(RuleError::setup(
                "IT-24",
                "a PC's sheet is always public: only an NPC is revealed",
            ));
        }
        Ok(())
    }

    /// The sheet that builds `c` again, as it stands: established, with its current energy,
    /// spent points, marks and state in play.
    pub fn of(c: &Character) -> CharacterSheet {
        CharacterSheet {
            name: c.name.clone(),
            controller: c.controller,
            energy: c.energy.max,
            established: true,
            level: c.level,
            current: (c.energy.current != c.energy.max).then_some(c.energy.current),
            backgrounds: c
                .backgrounds
                .iter()
                .map(|b| BackgroundSheet {
                    name: b.name.clone(),
                    points: b.max,
                    current: (b.current != b.max).then_some(b.current),
                })
                .collect(),
            belief: c.belief.text.clone(),
            flaw: c.flaw.text.clone(),
            goal: c.goal.text.clone(),
            moves: c.moves.clone(),
            combos: c.combos.clone(),
            specials: c.specials.iter().map(|k| k.special).collect(),
            marks: SheetMarks {
                belief: c.belief.marked,
                flaw: c.flaw.marked,
                goal: c.goal.achieved,
                q1: c.marks.q1,
                zero: c.marks.zero,
                veto_used: !c.veto,
            },
            state: SheetState {
                dead: c.dead,
                spent: c
                    .specials
                    .iter()
                    .filter(|k| k.spent)
                    .map(|k| k.special)
                    .collect(),
                drunken_monkey_ban: c.drunken_monkey_ban,
                revealed: c.revealed,
            },
        }
    }

    fn to_character(&self) -> Character {
        let mut energy = Energy::full(self.energy);
        if let Some(current) = self.current {
            energy.current = current;
        }
        let assigned: u32 = self.backgrounds.iter().map(|b| b.points).sum();
        Character {
            name: self.name.trim().to_string(),
            controller: self.controller,
            level: self.level,
            energy,
            backgrounds: self
                .backgrounds
                .iter()
                .map(|b| Background {
                    name: b.name.trim().to_string(),
                    current: b.current.unwrap_or(b.points),
                    max: b.points,
                })
                .collect(),
            unassigned_points: BACKGROUND_POINTS.saturating_sub(assigned),
            belief: Trait {
                text: self.belief.clone(),
                marked: self.marks.belief,
            },
            flaw: Trait {
                text: self.flaw.clone(),
                marked: self.marks.flaw,
            },
            goal: Goal {
                text: self.goal.clone(),
                achieved: self.marks.goal,
            },
            veto: !self.marks.veto_used,
            moves: self.moves.clone(),
            combos: self.combos.clone(),
            specials: self
                .specials
                .iter()
                .map(|s| KnownSpecial {
                    special: *s,
                    spent: self.state.spent.contains(s),
                })
                .collect(),
            marks: Marks {
                q1: self.marks.q1,
                zero: self.marks.zero,
            },
            dead: self.state.dead,
            drunken_monkey_ban: self.state.drunken_monkey_ban,
            revealed: self.state.revealed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ada() -> CharacterSheet {
        serde_json::from_value(serde_json::json!({
            "name": "Ada", "controller": "p1",
            "energy": {"defend": 3, "grapple": 2, "attack": 5},
            "backgrounds": [{"name": "Detective", "points": 2}, {"name": "Disgraced hockey player", "points": 1}],
            "belief": "Everyone lies", "flaw": "Temper", "goal": "Find the thief",
            "moves": [
                {"move": "D-M", "name": "Philly Shell"},
                {"move": "G-L", "name": "Trip"},
                {"move": "A-H", "name": "Overhand Right"}
            ]
        }))
        .unwrap()
    }

    fn rule_of(sheet: &CharacterSheet) -> Option<&'static str> {
        sheet.build().err().and_then(|e| e.rule())
    }

    #[test]
    fn tv_12_ada_is_valid() {
        let ada = ada().build().expect("TV-12: Ada is a valid character");
        assert_eq!(ada.level, 0); // IT-9
        assert_eq!(ada.energy.current, ada.energy.max); // IT-9
        assert_eq!(ada.background_points(), 3); // IT-10
        assert!(!ada.belief.marked && !ada.flaw.marked && !ada.goal.achieved && ada.veto); // IT-11
        assert_eq!(
            ada.move_name("A-H".parse().unwrap()),
            Some("Overhand Right")
        ); // IT-7
    }

    #[test]
    fn tv_12_invalid_energies() {
        let mut s = ada();
        s.energy = PerAction {
            defend: 0,
            grapple: 5,
            attack: 5,
        };
        assert_eq!(rule_of(&s), Some("IT-9")); // TV-12: D0/G5/A5
        s.energy = PerAction {
            defend: 4,
            grapple: 3,
            attack: 2,
        };
        assert_eq!(rule_of(&s), Some("IT-9")); // TV-12: D4/G3/A2 totals 9
    }

    #[test]
    fn tv_12_three_points_in_one_background() {
        let mut s = ada();
        s.backgrounds = vec![BackgroundSheet {
            name: "Detective".into(),
            points: 3,
            current: None,
        }];
        assert_eq!(rule_of(&s), Some("IT-10")); // TV-12, IT-10
    }

    #[test]
    fn it_10_a_background_is_listed_once() {
        let mut s = ada();
        let bg = |name: &str, points| BackgroundSheet {
            name: name.into(),
            points,
            current: None,
        };
        s.backgrounds = vec![bg("Sailor", 2), bg("Sailor", 1)];
        let refusal = s.build().unwrap_err();
        assert_eq!(refusal.rule(), Some("IT-10")); // IT-10: 3 points in Sailor
        assert_eq!(
            refusal.reason(),
            "“Sailor” is listed twice: write each background once, with all its points (at most 2)"
        );
        s.backgrounds = vec![bg("Sailor", 2), bg("SAILOR ", 1)];
        assert_eq!(rule_of(&s), Some("IT-10")); // IT-10: case and spaces aside
        s.backgrounds = vec![bg(" Sailor ", 2), bg("Sea dog", 1)];
        let c = s.build().expect("two backgrounds");
        assert_eq!(c.backgrounds[0].name, "Sailor"); // kept as the player meant it
        assert_eq!(c.background("sailor").map(|b| b.max), Some(2)); // IT-10: found by name
    }

    #[test]
    fn it_12_starting_moves_are_fixed() {
        let mut s = ada();
        s.moves[2].mv = "A-M".parse().unwrap();
        assert_eq!(rule_of(&s), Some("IT-12")); // IT-12
        let mut s = ada();
        s.moves[1].mv = "D-M".parse().unwrap();
        assert_eq!(rule_of(&s), Some("IT-7")); // distinct moves
        let mut s = ada();
        s.moves[0].name = " ".into();
        assert_eq!(rule_of(&s), Some("IT-7")); // moves are named
    }

    #[test]
    fn it_9_new_characters_have_no_specials_or_combos() {
        let mut s = ada();
        s.specials = vec![Special::Scouter];
        assert_eq!(rule_of(&s), Some("IT-9")); // IT-9
    }

    #[test]
    fn it_8_advanced_moves_need_all_nine_basic() {
        let mut s = ada();
        s.established = true;
        s.controller = Seat::Gm;
        s.moves.push(KnownMove {
            mv: "G-J".parse().unwrap(),
            name: "Leap".into(),
        });
        assert_eq!(rule_of(&s), Some("IT-8")); // IT-8
        s.moves = Move::ALL
            .iter()
            .map(|m| KnownMove {
                mv: *m,
                name: m.to_string().into(),
            })
            .collect();
        assert!(s.build().is_ok());
    }

    #[test]
    fn established_sheets_check_specials_and_combos() {
        let mut s = ada();
        s.established = true;
        s.specials = vec![Special::DigTwoGraves(Action::Attack)];
        s.level = 5;
        assert_eq!(rule_of(&s), Some("IT-59")); // needs Wax On (Attack)
        s.specials.insert(0, Special::WaxOn(Action::Attack));
        assert!(s.build().is_ok());
        s.combos = vec![Combo {
            from: "A-H".parse().unwrap(),
            followups: vec!["G-M".parse().unwrap()],
        }];
        assert_eq!(rule_of(&s), Some("D-5")); // followups must be known
    }

    #[test]
    fn energy_never_leaves_its_range() {
        let mut e = Energy::full(PerAction {
            defend: 3,
            grapple: 2,
            attack: 5,
        });
        assert_eq!(e.lose(Action::Grapple, 7), 2); // IT-51: floors at 0
        assert_eq!(e.current.grapple, 0);
        assert_eq!(e.gain(Action::Grapple, 9), 2);
        assert_eq!(e.current.grapple, 2);
    }
}
