//! Session zero: the stage before play, where a group makes its own characters.
//!
//! A table made by form for a game with characters starts in session zero. The GM has chosen
//! the game, how many players sit at it and the game's own table choices ([`TableChoices`]).
//! Each player hands in a character sheet made through the game's own form; the GM reads them,
//! may send one back with a comment, readies NPCs with the same forms, and starts play. The
//! start assembles the game's setup from the choices and the sheets
//! ([`SessionZero::assemble`]), and the game begins exactly as if the table had been created
//! from that setup.
//!
//! The stage is itself a small game ([`Staged`]) standing in front of the ruleset's own, so a
//! table needs nothing new to hold it: the stage's commands and events go into the table's log
//! like any others (a table's record replays from its first sheet, the GM may take back a
//! send-back, every page follows along live), and once play has started every question is
//! passed to the ruleset's game. A staged table's setup is `{"session_zero": {choices}}`.
//!
//! Forms check as the player types: [`SessionZero::check_sheet`] answers with every problem of
//! a sheet, each naming its field and the rule it breaks ([`FieldError`]), and the same check
//! refuses a sheet handed in, so nothing reaches the table until the sheet is valid.
//!
//! Who sees what: a player's sheet is public once handed in (as a PC's sheet is in play); an
//! NPC's sheet, and the setup play starts from (in the GM's view once every sheet is in, to
//! download as a file), are the GM's alone; a send-back's comment is read by the GM and that
//! sheet's player.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::RuleError;
use crate::game::{AnyGame, Game, GameError, SeenEvent, from_json, to_json};
use crate::listing::Listed;
use crate::randomness::Randomness;
use crate::ruleset::Status;
use crate::seat::{Seat, Viewer};

/// The rule name session zero's own refusals carry (they are the table's, not the game's).
pub const SESSION_ZERO: &str = "Session zero";
/// The longest comment the GM may send back with a sheet, in characters.
pub const MAX_COMMENT: usize = 500;
/// The most NPCs the GM may ready in session zero.
pub const MAX_NPCS: usize = 40;
/// The most player seats a table made by form may have.
pub const MAX_PLAYERS: u8 = 16;

/// One problem with one field of a form, and the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// Where in the form: field names and list positions joined by dots (`"energy"`,
    /// `"backgrounds.1.points"`, `""` for the sheet as a whole). For the form's script, which
    /// shows the message next to that field; never shown to people.
    pub field: String,
    /// The rule broken (`"IT-9"`), or `None` when the input is not a sheet at all.
    pub rule: Option<&'static str>,
    /// What is wrong, in words.
    pub message: String,
}

impl FieldError {
    /// The refusal `error` placed at `field`.
    pub fn at(field: impl Into<String>, error: &RuleError) -> FieldError {
        FieldError {
            field: field.into(),
            rule: error.rule(),
            message: error.reason(),
        }
    }

    /// Input that is not a sheet of this game (a file of another game, a missing field).
    pub fn malformed(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            rule: None,
            message: message.into(),
        }
    }

    /// The same problem refusing a command.
    pub fn into_game_error(self, what: &'static str) -> GameError {
        match self.rule {
            Some(rule) => GameError::Rule(RuleError::illegal(rule, self.message)),
            None => GameError::Malformed {
                what,
                detail: self.message,
            },
        }
    }
}

/// Who a sheet is made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Maker {
    /// A player character, made by its player under the game's creation rules.
    Player,
    /// A character the GM runs (an NPC), which may be an established sheet.
    Gm,
}

/// What the GM chose for a table made by form: how many players, and the game's own choices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableChoices {
    /// Player seats, `p1` … in order.
    pub players: u8,
    /// The game's own choices (a campaign's session, countdowns, a board layout, …).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub options: Value,
    /// Seats the GM removed in session zero (their numbers stay taken, so every other seat
    /// keeps its links).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<u8>,
}

impl TableChoices {
    /// The player seats, in order.
    pub fn seats(&self) -> Vec<Seat> {
        (1..=self.players)
            .filter(|n| !self.removed.contains(n))
            .map(Seat::Player)
            .collect()
    }

    /// The options as an object (absent options are an empty one).
    pub fn options(&self) -> Value {
        match &self.options {
            Value::Null => json!({}),
            other => other.clone(),
        }
    }
}

/// A ruleset's forms: a plain script (no build step) registering itself with the page's form
/// kit under the ruleset's ID, drawing the table's choices and a character sheet, and the
/// stylesheet it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forms {
    pub script: &'static str,
    pub style: &'static str,
}

/// How a ruleset's tables are made by form and its characters by their players.
pub trait SessionZero: Listed {
    /// The forms, from the ruleset's panel directory.
    const FORMS: Forms;
    /// Whether players make characters before play. A game without characters makes its whole
    /// setup from the table's choices and starts at once.
    const SHEETS: bool = true;

    /// Every problem with the table's choices, each at its field (`"players"`,
    /// `"options.countdowns.0.boxes"`).
    fn check_table(choices: &TableChoices) -> Vec<FieldError>;

    /// Every problem with one sheet as made for `maker`, each at its field.
    fn check_sheet(sheet: &Value, maker: Maker) -> Vec<FieldError>;

    /// The name on a sheet, if it has one: by default its `name` field, trimmed. A game whose
    /// sheets carry no name (or keep it elsewhere) says so here.
    fn sheet_name(sheet: &Value) -> Option<String> {
        sheet
            .get("name")
            .and_then(Value::as_str)
            .map(|n| n.trim().to_string())
    }

    /// The game's setup: the table's choices, each player seat's sheet in seat order, and the
    /// GM's NPCs. The game it starts has the GM's seat and exactly the player seats of
    /// `choices`.
    fn assemble(
        choices: &TableChoices,
        pcs: &[(Seat, Value)],
        npcs: &[Value],
    ) -> Result<Self::Setup, RuleError>;

    /// A valid sheet for `maker`, its name numbered `n`, for bots, tests and the commands a
    /// seat is offered.
    fn example_sheet(maker: Maker, n: usize) -> Value;

    /// The name a player seat goes by before its sheet is in, when the table's choices give
    /// one (a party named on the table's form); `None` reads as its place ("the first
    /// player").
    fn chosen_name(choices: &TableChoices, seat: Seat) -> Option<String> {
        let _ = (choices, seat);
        None
    }

    /// A ready-made setup taken apart into what session zero gathers: the table's choices,
    /// each player seat's sheet and the GM's NPCs, so that assembling them again gives the
    /// same game. `None` for a setup session zero cannot hold (play already under way, a
    /// campaign's later state), which starts at once.
    fn disassemble(setup: &Self::Setup) -> Option<ReadyMade> {
        let _ = setup;
        None
    }
}

impl ReadyMade {
    /// The choices for a table whose player seats are `seats` (numbers skipped are removed
    /// seats) and whose game options are `options`; `None` past [`MAX_PLAYERS`].
    pub fn choices_for(seats: &[Seat], options: Value) -> Option<TableChoices> {
        let numbers: Vec<u8> = seats
            .iter()
            .filter_map(|s| match s {
                Seat::Player(n) => Some(*n),
                Seat::Gm => None,
            })
            .collect();
        let players = numbers.iter().copied().max()?;
        if players > MAX_PLAYERS {
            return None;
        }
        Some(TableChoices {
            players,
            options,
            removed: (1..players).filter(|n| !numbers.contains(n)).collect(),
        })
    }
}

/// A ready-made setup as session zero gathers it ([`SessionZero::disassemble`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadyMade {
    pub choices: TableChoices,
    /// Each player seat's sheet, handed in already (the GM may send one back).
    pub sheets: BTreeMap<Seat, Value>,
    /// The GM's NPCs, readied.
    pub npcs: Vec<Value>,
}

/// The first problem of a list, as a refusal.
pub fn first_problem(problems: Vec<FieldError>, what: &'static str) -> Result<(), GameError> {
    match problems.into_iter().next() {
        Some(p) => Err(p.into_game_error(what)),
        None => Ok(()),
    }
}

/// A place at the table in words: "the first player" … for a seat without a name yet.
pub fn ordinal_player(n: u8) -> String {
    const WORDS: [&str; 16] = [
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
    ];
    match WORDS.get(usize::from(n).wrapping_sub(1)) {
        Some(w) => format!("the {w} player"),
        None => "a player".into(),
    }
}

/// What the stage accepts. In JSON: `{"type": "hand_in_sheet", "sheet": {…}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum StageCommand {
    /// A player hands in (or hands in again) the sheet of its character.
    HandInSheet { sheet: Value },
    /// The GM sends a player's sheet back with a comment.
    SendBack { seat: Seat, comment: String },
    /// The GM readies an NPC (one of the same name is replaced).
    ReadyNpc { sheet: Value },
    /// The GM sets an NPC aside.
    DropNpc { name: String },
    /// The GM starts play from the sheets handed in; with `leave_out`, the seats still owing a
    /// sheet are left out of the table (the page asks first, naming them).
    StartPlay {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        leave_out: bool,
    },
    /// The GM adds a player seat (the next number).
    AddSeat {},
    /// The GM removes a player seat: its sheet goes, and its links stop working.
    RemoveSeat { seat: Seat },
}

/// What happened at the stage. In the log each is wrapped as `{"session_zero": {…}}`, so it is
/// never mistaken for an event of the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StageEvent {
    SheetHandedIn {
        seat: Seat,
        name: String,
        sheet: Value,
    },
    /// `comment` is empty for anyone but the GM and that sheet's player.
    SheetSentBack {
        seat: Seat,
        name: String,
        comment: String,
    },
    /// `name` and `sheet` are the GM's alone (empty and null for everyone else).
    NpcReadied {
        name: String,
        sheet: Value,
    },
    /// `name` is the GM's alone.
    NpcDropped {
        name: String,
    },
    /// The setup play starts from (null for everyone but the GM: it holds the NPCs).
    PlayStarted {
        setup: Value,
    },
    SeatAdded {
        seat: Seat,
    },
    /// `name`: what the seat was called (its sheet's name, or its place).
    SeatRemoved {
        seat: Seat,
        name: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Wrapped {
    session_zero: StageEvent,
}

/// A player's sheet as handed in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Handed {
    pub name: String,
    pub sheet: Value,
    /// The GM's comment, while the sheet is sent back.
    pub sent_back: Option<String>,
}

/// An NPC the GM has readied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Npc {
    pub name: String,
    pub sheet: Value,
}

/// Where session zero stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gathering {
    pub choices: TableChoices,
    pub sheets: BTreeMap<Seat, Handed>,
    pub npcs: Vec<Npc>,
}

impl Gathering {
    /// The player seats still owing a sheet (none handed in, or sent back).
    pub fn owed(&self) -> Vec<Seat> {
        self.choices
            .seats()
            .into_iter()
            .filter(|s| self.sheets.get(s).is_none_or(|h| h.sent_back.is_some()))
            .collect()
    }

    fn apply(&mut self, event: &StageEvent) {
        match event {
            StageEvent::SheetHandedIn { seat, name, sheet } => {
                self.sheets.insert(
                    *seat,
                    Handed {
                        name: name.clone(),
                        sheet: sheet.clone(),
                        sent_back: None,
                    },
                );
            }
            StageEvent::SheetSentBack { seat, comment, .. } => {
                if let Some(h) = self.sheets.get_mut(seat) {
                    h.sent_back = Some(comment.clone());
                }
            }
            StageEvent::NpcReadied { name, sheet } => {
                let npc = Npc {
                    name: name.clone(),
                    sheet: sheet.clone(),
                };
                match self.npcs.iter_mut().find(|n| n.name == *name) {
                    Some(slot) => *slot = npc,
                    None => self.npcs.push(npc),
                }
            }
            StageEvent::NpcDropped { name } => self.npcs.retain(|n| n.name != *name),
            StageEvent::PlayStarted { .. } => {}
            StageEvent::SeatAdded {
                seat: Seat::Player(n),
            } => {
                self.choices.players = self.choices.players.max(*n);
                self.choices.removed.retain(|r| r != n);
            }
            StageEvent::SeatRemoved {
                seat: seat @ Seat::Player(n),
                ..
            } => {
                self.choices.removed.push(*n);
                self.sheets.remove(seat);
            }
            StageEvent::SeatAdded { .. } | StageEvent::SeatRemoved { .. } => {}
        }
    }

    /// A seat's name: its sheet's, else the one the table's choices give it (`chosen`), else
    /// its place.
    fn name_of(
        &self,
        seat: Seat,
        chosen: impl Fn(&TableChoices, Seat) -> Option<String>,
    ) -> String {
        match (seat, self.sheets.get(&seat)) {
            (Seat::Gm, _) => "the GM".into(),
            (_, Some(h)) => h.name.clone(),
            (Seat::Player(n), None) => {
                chosen(&self.choices, seat).unwrap_or_else(|| ordinal_player(n))
            }
        }
    }
}

/// A game of `R` with a session zero in front: the stage until play starts, then `R`'s game.
pub struct Staged<R: SessionZero> {
    /// The staged setup, as the table was created with.
    setup: Value,
    gathering: Gathering,
    /// The stage's own log; it ends with `PlayStarted` once play has started.
    events: Vec<StageEvent>,
    game: Option<Game<R>>,
    /// Restoring from a log: how many of the game's opening events are still to come (the
    /// game made them itself when it started).
    opening_left: usize,
}

impl<R: SessionZero> Clone for Staged<R> {
    fn clone(&self) -> Self {
        Staged {
            setup: self.setup.clone(),
            gathering: self.gathering.clone(),
            events: self.events.clone(),
            game: self.game.clone(),
            opening_left: self.opening_left,
        }
    }
}

fn stage_error(reason: impl Into<String>) -> GameError {
    GameError::Rule(RuleError::illegal(SESSION_ZERO, reason))
}

fn gm_only(seat: Seat, what: &str) -> Result<(), GameError> {
    if seat == Seat::Gm {
        Ok(())
    } else {
        Err(GameError::Rule(RuleError::not_your_call(
            SESSION_ZERO,
            seat,
            format!("only the GM {what}"),
        )))
    }
}

impl<R: SessionZero> Staged<R> {
    /// A table in session zero with these choices (already checked).
    pub fn new(setup: Value, choices: TableChoices) -> Staged<R> {
        Staged {
            setup,
            gathering: Gathering {
                choices,
                sheets: BTreeMap::new(),
                npcs: Vec::new(),
            },
            events: Vec::new(),
            game: None,
            opening_left: 0,
        }
    }

    /// Where the stage stands.
    pub fn gathering(&self) -> &Gathering {
        &self.gathering
    }

    /// The game, once play has started.
    pub fn game(&self) -> Option<&Game<R>> {
        self.game.as_ref()
    }

    /// A ready-made setup's sheets, in already, and its NPCs, readied. A ready-made sheet may
    /// be one the game's own setup holds but a player could not make (an established
    /// character), so they are checked together: what is in must start a game (seats still
    /// owing a sheet left out).
    fn prefill(&mut self, ready: &Value) -> Result<(), GameError> {
        let made: ReadyMade = from_json("setup", ready)?;
        let seats = self.gathering.choices.seats();
        if made.npcs.len() > MAX_NPCS {
            return Err(stage_error(format!(
                "session zero readies at most {MAX_NPCS} NPCs"
            )));
        }
        for (seat, sheet) in made.sheets {
            if !seats.contains(&seat) {
                return Err(stage_error(
                    "a ready-made sheet is for a seat this table has not",
                ));
            }
            let name = R::sheet_name(&sheet).unwrap_or_default();
            let handed = Handed {
                name,
                sheet,
                sent_back: None,
            };
            self.gathering.sheets.insert(seat, handed);
        }
        for sheet in made.npcs {
            let name = R::sheet_name(&sheet).unwrap_or_default();
            self.gathering.npcs.push(Npc { name, sheet });
        }
        let mut whole = self.clone();
        for owed in self.gathering.owed() {
            if let Ok(removed) = whole.remove_seat(owed) {
                whole.gathering.apply(&removed);
            }
        }
        whole.starting_game().map(|_| ())
    }

    /// What a seat is called at the stage.
    fn name_of(&self, seat: Seat) -> String {
        self.gathering.name_of(seat, R::chosen_name)
    }

    fn player_seat(&self, seat: Seat) -> Result<(), GameError> {
        match seat {
            Seat::Player(_) if self.gathering.choices.seats().contains(&seat) => Ok(()),
            Seat::Gm => Err(GameError::Rule(RuleError::not_your_call(
                SESSION_ZERO,
                seat,
                "players hand in their own sheets; the GM readies NPCs",
            ))),
            _ => Err(stage_error("that seat is not at this table")),
        }
    }

    /// The setup play would start from now, and the game it starts.
    pub fn starting_game(&self) -> Result<(Value, Game<R>), GameError> {
        let owed = self.gathering.owed();
        if !owed.is_empty() {
            let names: Vec<String> = owed.iter().map(|s| self.name_of(*s)).collect();
            return Err(stage_error(format!(
                "play starts once every player's sheet is in: still waiting for {}",
                crate::session_zero::list(&names)
            )));
        }
        let pcs: Vec<(Seat, Value)> = self
            .gathering
            .sheets
            .iter()
            .map(|(s, h)| (*s, h.sheet.clone()))
            .collect();
        let npcs: Vec<Value> = self
            .gathering
            .npcs
            .iter()
            .map(|n| n.sheet.clone())
            .collect();
        let setup = R::assemble(&self.gathering.choices, &pcs, &npcs)?;
        let game = Game::<R>::new(setup.clone())?;
        let mut expected = vec![Seat::Gm];
        expected.extend(self.gathering.choices.seats());
        let mut seats = R::seats(game.state());
        seats.sort();
        if seats != expected {
            return Err(stage_error(
                "the sheets do not seat the players the table was made for",
            ));
        }
        Ok((to_json(&setup), game))
    }

    fn decide(&self, seat: Seat, command: &StageCommand) -> Result<Vec<StageEvent>, GameError> {
        match command {
            StageCommand::HandInSheet { sheet } => {
                self.player_seat(seat)?;
                first_problem(R::check_sheet(sheet, Maker::Player), "sheet")?;
                let name = R::sheet_name(sheet).unwrap_or_default();
                Ok(vec![StageEvent::SheetHandedIn {
                    seat,
                    name,
                    sheet: sheet.clone(),
                }])
            }
            StageCommand::SendBack {
                seat: whose,
                comment,
            } => {
                gm_only(seat, "sends a sheet back")?;
                let handed = self
                    .gathering
                    .sheets
                    .get(whose)
                    .filter(|h| h.sent_back.is_none())
                    .ok_or_else(|| {
                        stage_error("only a sheet that is handed in can be sent back")
                    })?;
                let comment = comment.trim();
                if comment.is_empty() || comment.chars().count() > MAX_COMMENT {
                    return Err(stage_error(format!(
                        "say what to change, in 1 to {MAX_COMMENT} characters"
                    )));
                }
                Ok(vec![StageEvent::SheetSentBack {
                    seat: *whose,
                    name: handed.name.clone(),
                    comment: comment.to_string(),
                }])
            }
            StageCommand::ReadyNpc { sheet } => {
                gm_only(seat, "readies NPCs")?;
                first_problem(R::check_sheet(sheet, Maker::Gm), "sheet")?;
                let name = R::sheet_name(sheet).unwrap_or_default();
                let replaces = self.gathering.npcs.iter().any(|n| n.name == name);
                if !replaces && self.gathering.npcs.len() >= MAX_NPCS {
                    return Err(stage_error(format!(
                        "session zero readies at most {MAX_NPCS} NPCs"
                    )));
                }
                Ok(vec![StageEvent::NpcReadied {
                    name,
                    sheet: sheet.clone(),
                }])
            }
            StageCommand::DropNpc { name } => {
                gm_only(seat, "sets NPCs aside")?;
                if !self.gathering.npcs.iter().any(|n| n.name == *name) {
                    return Err(stage_error("there is no NPC of that name to set aside"));
                }
                Ok(vec![StageEvent::NpcDropped { name: name.clone() }])
            }
            StageCommand::StartPlay { leave_out } => {
                gm_only(seat, "starts play")?;
                let mut left = self.clone();
                let mut events = Vec::new();
                if *leave_out {
                    for owed in self.gathering.owed() {
                        let removed = left.remove_seat(owed)?;
                        left.gathering.apply(&removed);
                        events.push(removed);
                    }
                }
                let (setup, _) = left.starting_game()?;
                events.push(StageEvent::PlayStarted { setup });
                Ok(events)
            }
            StageCommand::AddSeat {} => {
                gm_only(seat, "adds seats")?;
                let n = self.gathering.choices.players.saturating_add(1);
                if n > MAX_PLAYERS {
                    return Err(stage_error(format!(
                        "a table has at most {MAX_PLAYERS} player seats"
                    )));
                }
                Ok(vec![StageEvent::SeatAdded {
                    seat: Seat::Player(n),
                }])
            }
            StageCommand::RemoveSeat { seat: whose } => {
                gm_only(seat, "removes seats")?;
                Ok(vec![self.remove_seat(*whose)?])
            }
        }
    }

    /// The event that removes player seat `seat`; the last seat stays.
    fn remove_seat(&self, seat: Seat) -> Result<StageEvent, GameError> {
        let seats = self.gathering.choices.seats();
        if !matches!(seat, Seat::Player(_)) || !seats.contains(&seat) {
            return Err(stage_error("that seat is not at this table"));
        }
        if seats.len() == 1 {
            return Err(stage_error("a table keeps at least one player seat"));
        }
        Ok(StageEvent::SeatRemoved {
            seat,
            name: self.name_of(seat),
        })
    }

    /// Fold a stage event in; `PlayStarted` starts the game (its opening follows in the log).
    fn apply(&mut self, event: StageEvent) -> Result<(), GameError> {
        self.gathering.apply(&event);
        if let StageEvent::PlayStarted { setup } = &event {
            let setup: R::Setup = from_json("setup", setup)?;
            let game = Game::<R>::new(setup)?;
            self.opening_left = game.log().len();
            self.game = Some(game);
        }
        self.events.push(event);
        Ok(())
    }

    fn stage_event_view(event: &StageEvent, viewer: Viewer) -> StageEvent {
        let gm = viewer == Viewer::Seat(Seat::Gm);
        match event {
            StageEvent::SheetSentBack {
                seat,
                name,
                comment,
            } if !gm && !viewer.is(*seat) => StageEvent::SheetSentBack {
                seat: *seat,
                name: name.clone(),
                comment: String::new(),
            },
            StageEvent::NpcReadied { .. } if !gm => StageEvent::NpcReadied {
                name: String::new(),
                sheet: Value::Null,
            },
            StageEvent::NpcDropped { .. } if !gm => StageEvent::NpcDropped {
                name: String::new(),
            },
            StageEvent::PlayStarted { .. } if !gm => StageEvent::PlayStarted { setup: Value::Null },
            other => other.clone(),
        }
    }

    fn narrate(event: &StageEvent) -> String {
        match event {
            // Named by the sheet handed in, not by a place at the table ("the first player").
            StageEvent::SheetHandedIn { name, .. } if !name.is_empty() => {
                format!("The sheet for {name} is handed in.")
            }
            StageEvent::SheetHandedIn { seat, .. } => {
                format!("{} hands in a sheet.", capital(&place(*seat)))
            }
            StageEvent::SheetSentBack { name, comment, .. } if comment.is_empty() => {
                format!("The GM sends {name}'s sheet back for another look.")
            }
            StageEvent::SheetSentBack { name, comment, .. } => {
                format!("The GM sends {name}'s sheet back: “{comment}”")
            }
            StageEvent::NpcReadied { name, .. } if name.is_empty() => {
                "The GM readies an NPC.".into()
            }
            StageEvent::NpcReadied { name, .. } => format!("The GM readies an NPC: {name}."),
            StageEvent::NpcDropped { name } if name.is_empty() => {
                "The GM sets an NPC aside.".into()
            }
            StageEvent::NpcDropped { name } => format!("The GM sets {name} aside."),
            StageEvent::PlayStarted { .. } => {
                "Session zero is over: the characters are made and play begins.".into()
            }
            StageEvent::SeatAdded { seat } => {
                format!("The GM adds a seat: {}.", place(*seat))
            }
            StageEvent::SeatRemoved { name, .. } => {
                format!("The GM removes the seat of {name}.")
            }
        }
    }

    fn stage_view(&self, viewer: Viewer) -> Value {
        let g = &self.gathering;
        let gm = viewer == Viewer::Seat(Seat::Gm);
        let players: Vec<Value> = g
            .choices
            .seats()
            .into_iter()
            .map(|seat| {
                let handed = g.sheets.get(&seat);
                let status = match handed {
                    None => "missing",
                    Some(h) if h.sent_back.is_some() => "sent_back",
                    Some(_) => "handed_in",
                };
                let comment = handed
                    .and_then(|h| h.sent_back.clone())
                    .filter(|_| gm || viewer.is(seat));
                json!({
                    "seat": seat,
                    "name": self.name_of(seat),
                    "place": place(seat),
                    "status": status,
                    "sheet": handed.map(|h| h.sheet.clone()),
                    "comment": comment,
                })
            })
            .collect();
        let mut view = json!({
            "players": players,
            "options": g.choices.options(),
            "you": viewer.seat(),
            "ready": g.owed().is_empty(),
        });
        if gm {
            view["npcs"] = to_json(&g.npcs);
            view["can_add"] = json!(g.choices.players < MAX_PLAYERS);
            // What starting now would leave out: the seats still owing a sheet.
            let mut left = self.clone();
            for owed in g.owed() {
                if let Ok(removed) = left.remove_seat(owed) {
                    left.gathering.apply(&removed);
                }
            }
            view["without"] = match left.starting_game() {
                Ok(_) if !g.owed().is_empty() => json!(
                    g.owed()
                        .iter()
                        .map(|s| self.name_of(*s))
                        .collect::<Vec<_>>()
                ),
                _ => Value::Null,
            };
            match self.starting_game() {
                Ok((setup, _)) => {
                    view["blocked"] = Value::Null;
                    view["setup"] = setup;
                }
                Err(e) => view["blocked"] = blocked(&e),
            }
        }
        json!({ "session_zero": view })
    }

    fn stage_render(&self, viewer: Viewer) -> String {
        let g = &self.gathering;
        let mut out = String::from("Session zero: the players make their characters.\n");
        for seat in g.choices.seats() {
            let line = match g.sheets.get(&seat) {
                None => format!("{}: no sheet yet", capital(&place(seat))),
                Some(h) if h.sent_back.is_some() => {
                    format!("{}: {} (sent back)", capital(&place(seat)), h.name)
                }
                Some(h) => format!("{}: {}", capital(&place(seat)), h.name),
            };
            out.push_str(&line);
            out.push('\n');
        }
        if viewer == Viewer::Seat(Seat::Gm) && !g.npcs.is_empty() {
            let names: Vec<String> = g.npcs.iter().map(|n| n.name.clone()).collect();
            out.push_str(&format!("Your NPCs: {}\n", list(&names)));
        }
        out
    }

    fn stage_legal(&self, seat: Seat) -> Vec<Value> {
        let g = &self.gathering;
        if seat != Seat::Gm {
            if !g.choices.seats().contains(&seat) {
                return Vec::new();
            }
            let n = match seat {
                Seat::Player(n) => usize::from(n),
                Seat::Gm => 0,
            };
            return vec![to_json(&StageCommand::HandInSheet {
                sheet: R::example_sheet(Maker::Player, n),
            })];
        }
        let mut out = vec![to_json(&StageCommand::ReadyNpc {
            sheet: R::example_sheet(Maker::Gm, g.npcs.len() + 1),
        })];
        for npc in &g.npcs {
            out.push(to_json(&StageCommand::DropNpc {
                name: npc.name.clone(),
            }));
        }
        for (s, h) in &g.sheets {
            if h.sent_back.is_none() {
                out.push(to_json(&StageCommand::SendBack {
                    seat: *s,
                    comment: "Please have another look at this sheet.".into(),
                }));
            }
        }
        if self.starting_game().is_ok() {
            out.push(to_json(&StageCommand::StartPlay { leave_out: false }));
        }
        if g.choices.players < MAX_PLAYERS {
            out.push(to_json(&StageCommand::AddSeat {}));
        }
        out
    }
}

/// What stops play from starting, for the GM's page.
fn blocked(e: &GameError) -> Value {
    match e {
        GameError::Rule(r) => json!({ "rule": r.rule(), "message": r.reason() }),
        GameError::Malformed { detail, .. } => json!({ "rule": null, "message": detail }),
    }
}

/// A seat's place at the table in words.
fn place(seat: Seat) -> String {
    match seat {
        Seat::Gm => "the GM".into(),
        Seat::Player(n) => ordinal_player(n),
    }
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Names as one phrase: "Ada", "Ada and Bo", "Ada, Bo and Cy".
pub fn list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl<R: SessionZero> AnyGame for Staged<R> {
    fn ruleset(&self) -> &'static str {
        R::ID
    }

    fn setup_json(&self) -> Value {
        self.setup.clone()
    }

    fn seats(&self) -> Vec<Seat> {
        match &self.game {
            Some(g) => AnyGame::seats(g),
            None => std::iter::once(Seat::Gm)
                .chain(self.gathering.choices.seats())
                .collect(),
        }
    }

    fn seat_name(&self, seat: Seat) -> String {
        match &self.game {
            Some(g) => g.seat_name(seat),
            None => self.name_of(seat),
        }
    }

    fn status(&self) -> Status {
        match &self.game {
            Some(g) => AnyGame::status(g),
            None => {
                let owed = self.gathering.owed();
                if owed.is_empty() {
                    Status::waiting([Seat::Gm])
                } else {
                    Status::waiting(owed)
                }
            }
        }
    }

    fn command(
        &mut self,
        seat: Seat,
        command: &Value,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Value>, GameError> {
        if let Some(g) = &mut self.game {
            return AnyGame::command(g, seat, command, rng);
        }
        let command: StageCommand = from_json("command", command)?;
        let events = self.decide(seat, &command)?;
        let mut out = Vec::new();
        for e in events {
            out.push(to_json(&Wrapped {
                session_zero: e.clone(),
            }));
            self.apply(e)?;
        }
        // Play has started: the game's opening is part of what the start did.
        if let Some(g) = &self.game {
            out.extend(g.events_json(0));
            self.opening_left = 0;
        }
        Ok(out)
    }

    fn restore(&mut self, event: &Value) -> Result<(), GameError> {
        if let Some(g) = &mut self.game {
            if self.opening_left > 0 {
                let at = g.event_count() - self.opening_left;
                self.opening_left -= 1;
                if g.events_json(at).first() == Some(event) {
                    return Ok(());
                }
                return Err(GameError::Malformed {
                    what: "event",
                    detail: "the game's opening is not what its setup gives".into(),
                });
            }
            return AnyGame::restore(g, event);
        }
        let Wrapped { session_zero } = from_json("event", event)?;
        self.apply(session_zero)
    }

    fn event_count(&self) -> usize {
        self.events.len() + self.game.as_ref().map_or(0, |g| g.event_count())
    }

    fn events_for(&self, viewer: Viewer, from: usize) -> Vec<SeenEvent> {
        let k = self.events.len();
        let mut out: Vec<SeenEvent> = self
            .events
            .iter()
            .enumerate()
            .skip(from)
            .map(|(index, e)| {
                let seen = Self::stage_event_view(e, viewer);
                SeenEvent {
                    index,
                    text: Self::narrate(&seen),
                    event: to_json(&Wrapped { session_zero: seen }),
                    reveals: false,
                    // A sheet handed in is news for the GM, one sent back for its player.
                    news: !matches!(
                        e,
                        StageEvent::NpcReadied { .. } | StageEvent::NpcDropped { .. }
                    ),
                }
            })
            .collect();
        if let Some(g) = &self.game {
            out.extend(
                g.events_for(viewer, from.saturating_sub(k))
                    .into_iter()
                    .map(|e| SeenEvent {
                        index: e.index + k,
                        ..e
                    }),
            );
        }
        out
    }

    fn state_json(&self) -> Value {
        match &self.game {
            Some(g) => g.state_json(),
            None => to_json(&self.gathering),
        }
    }

    fn view(&self, viewer: Viewer) -> Value {
        match &self.game {
            Some(g) => AnyGame::view(g, viewer),
            None => self.stage_view(viewer),
        }
    }

    fn write_view(&self, viewer: Viewer, out: &mut Vec<u8>) {
        match &self.game {
            Some(g) => AnyGame::write_view(g, viewer, out),
            // Writing into a Vec cannot fail.
            None => {
                let _ = serde_json::to_writer(out, &self.stage_view(viewer));
            }
        }
    }

    fn render(&self, viewer: Viewer) -> String {
        match &self.game {
            Some(g) => g.render(viewer),
            None => self.stage_render(viewer),
        }
    }

    fn legal_commands(&self, seat: Seat) -> Vec<Value> {
        match &self.game {
            Some(g) => g.legal_commands(seat),
            None => self.stage_legal(seat),
        }
    }

    fn position(&self, viewer: Viewer) -> Option<Value> {
        self.game.as_ref().and_then(|g| g.position(viewer))
    }

    fn boxed_clone(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn secret_pending(&self, seat: Seat) -> bool {
        self.game.as_ref().is_some_and(|g| g.secret_pending(seat))
    }

    fn events_json(&self, from: usize) -> Vec<Value> {
        let k = self.events.len();
        let mut out: Vec<Value> = self
            .events
            .iter()
            .skip(from)
            .map(|e| {
                to_json(&Wrapped {
                    session_zero: e.clone(),
                })
            })
            .collect();
        if let Some(g) = &self.game {
            out.extend(g.events_json(from.saturating_sub(k)));
        }
        out
    }

    fn reveals(&self, event: &Value) -> bool {
        if event.get("session_zero").is_some() {
            return false;
        }
        match &self.game {
            Some(g) => g.reveals(event),
            None => true,
        }
    }

    fn asked(&self, seat: Seat) -> Option<String> {
        if let Some(g) = &self.game {
            return g.asked(seat);
        }
        let owed = self.gathering.owed();
        match seat {
            Seat::Gm if owed.is_empty() => Some("read the sheets and start play".into()),
            Seat::Player(_) if owed.contains(&seat) => Some(
                match self.gathering.sheets.get(&seat) {
                    Some(_) => "look at the GM's comment and hand your sheet in again",
                    None => "make your sheet and hand it in",
                }
                .into(),
            ),
            _ => None,
        }
    }

    fn confirm(&self, seat: Seat, command: &Value) -> Option<String> {
        if let Some(g) = &self.game {
            return g.confirm(seat, command);
        }
        match from_json::<StageCommand>("command", command).ok()? {
            StageCommand::StartPlay { leave_out } => {
                let owed = self.gathering.owed();
                if leave_out && !owed.is_empty() {
                    let names: Vec<String> = owed.iter().map(|s| self.name_of(*s)).collect();
                    let (who, whose) = match names.len() {
                        1 => ("has", "Their seat is"),
                        _ => ("have", "Their seats are"),
                    };
                    return Some(format!(
                        "Start play without {}, who {who} no sheet in? {whose} left out of the table, and the game begins with the others.",
                        list(&names)
                    ));
                }
                Some("Start play with these sheets? Session zero ends and the game begins.".into())
            }
            StageCommand::RemoveSeat { seat } => Some(format!(
                "Remove the seat of {}? Its sheet goes and its links stop working.",
                self.name_of(seat)
            )),
            _ => None,
        }
    }

    /// Once play has started, the ruleset's own game, so its bots can read it; before then
    /// the stage itself, which no bot plays.
    fn as_any(&self) -> &dyn std::any::Any {
        match &self.game {
            Some(g) => g,
            None => self,
        }
    }
}

/// A ruleset's forms and checks, as the catalogue carries them (see
/// [`crate::RulesetEntry::with_session_zero`]).
#[derive(Clone, Copy)]
pub struct FormsEntry {
    pub forms: Forms,
    /// Players make characters before play.
    pub sheets: bool,
    pub check_table: fn(&Value) -> Vec<FieldError>,
    pub check_sheet: fn(&Value, Maker) -> Vec<FieldError>,
    /// The setup of a table made by form from these choices: staged for a game with sheets,
    /// the game's own setup otherwise. Refused with every problem of the choices.
    pub table_setup: fn(&Value) -> Result<Value, Vec<FieldError>>,
    /// A ready-made setup as a staged one, its sheets in and its NPCs readied, for a game with
    /// sheets ([`SessionZero::disassemble`]); `None` starts it at once.
    pub ready_made: fn(&Value) -> Option<Value>,
}

/// See [`FormsEntry::ready_made`].
pub(crate) fn ready_made<R: SessionZero>(setup: &Value) -> Option<Value> {
    if !R::SHEETS {
        return None;
    }
    let parsed: R::Setup = from_json("setup", setup).ok()?;
    let made = R::disassemble(&parsed)?;
    let staged = json!({ "session_zero": to_json(&made.choices), "ready": to_json(&made) });
    // Only what session zero will hold and start again.
    let game = new_game::<R>(&staged).ok()?;
    game.status().over.is_none().then_some(staged)
}

fn read_choices(choices: &Value) -> Result<TableChoices, Vec<FieldError>> {
    let parsed: TableChoices = TableChoices::deserialize(choices).map_err(|e| {
        vec![FieldError::malformed(
            "",
            format!("not a table's choices: {e}"),
        )]
    })?;
    if parsed.players == 0 || parsed.players > MAX_PLAYERS {
        return Err(vec![FieldError::malformed(
            "players",
            format!("a table has 1 to {MAX_PLAYERS} player seats"),
        )]);
    }
    Ok(parsed)
}

pub(crate) fn check_table<R: SessionZero>(choices: &Value) -> Vec<FieldError> {
    match read_choices(choices) {
        Ok(c) => R::check_table(&c),
        Err(problems) => problems,
    }
}

pub(crate) fn table_setup<R: SessionZero>(choices: &Value) -> Result<Value, Vec<FieldError>> {
    let parsed = read_choices(choices)?;
    let problems = R::check_table(&parsed);
    if !problems.is_empty() {
        return Err(problems);
    }
    if R::SHEETS {
        return Ok(json!({ "session_zero": to_json(&parsed) }));
    }
    let setup = R::assemble(&parsed, &[], &[]).map_err(|e| vec![FieldError::at("", &e)])?;
    Game::<R>::new(setup.clone()).map_err(|e| vec![FieldError::at("", &e)])?;
    Ok(to_json(&setup))
}

/// A game from a setup that may be staged.
pub(crate) fn new_game<R: SessionZero>(setup: &Value) -> Result<Box<dyn AnyGame>, GameError> {
    match setup.get("session_zero") {
        Some(choices) if R::SHEETS => {
            let parsed = read_choices(choices).map_err(|p| {
                p.into_iter().next().map_or(
                    GameError::Malformed {
                        what: "setup",
                        detail: String::new(),
                    },
                    |f| f.into_game_error("setup"),
                )
            })?;
            first_problem(R::check_table(&parsed), "setup")?;
            let mut staged = Staged::<R>::new(setup.clone(), parsed);
            if let Some(ready) = setup.get("ready") {
                staged.prefill(ready)?;
            }
            Ok(Box::new(staged))
        }
        _ => {
            let setup: R::Setup = from_json("setup", setup)?;
            Ok(Box::new(Game::<R>::new(setup)?))
        }
    }
}
