//! Iron Triangle: a diceless tabletop RPG where every contest is a simultaneous secret choice.
//!
//! This crate is the complete rules engine, exact to `shared/rules/iron-triangle.md` (rules
//! IT-1 … IT-66, decisions D-1 … D-36). It does no I/O and uses no randomness except through the
//! injected [`clash_core::Randomness`] (only Drunken Monkey's random swap needs any).
//!
//! # The state machine
//! A [`Table`] holds the characters, the campaign (countdowns, problems, rests, level-ups) and at
//! most one running conflict. Every change is a [`Command`] from a seat (the GM or a player),
//! checked by [`IronTriangle::decide`] against the rules; accepted commands become [`Event`]s,
//! which [`IronTriangle::apply`] folds into the table. Hidden choices (stances, moves, problem
//! options, face-down specials) are committed by one event per chooser and revealed together by
//! a later event once every chooser is ready (IT-2); [`IronTriangle::view`] and
//! [`IronTriangle::event_view`] show a seat only what IT-24 allows.
//!
//! Modules follow the rulebook: [`moves`] (actions, elements, the thirteen moves),
//! [`character`] (creation and sheets), [`special`] (the twenty specials), [`conflict`]
//! (turns, stances, winners, losses, disadvantage, combos, specials in play) and [`campaign`]
//! (countdowns, problems, vetoes, rests, level-up, replacement characters).

pub mod campaign;
pub mod character;
pub mod conflict;
pub mod moves;
pub mod special;

use clash_core::{Randomness, RuleError, Ruleset, Seat, Viewer};
use serde::{Deserialize, Deserializer, Serialize};

pub use campaign::{Campaign, CampaignCommand, CampaignEvent};
pub use character::{Character, CharacterSheet, PerAction};
pub use conflict::{Conflict, ConflictCommand, ConflictEvent};
pub use moves::{Action, Element, Move};
pub use special::Special;

/// The ruleset marker for the kernel.
pub struct IronTriangle;

/// How a table starts: who plays, the characters already made, and any countdowns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Player seats (1 to 5 of them besides the GM, IT-1). Seats that control a character in
    /// `characters` are added automatically.
    #[serde(default)]
    pub players: Vec<Seat>,
    #[serde(default)]
    pub characters: Vec<CharacterSheet>,
    #[serde(default)]
    pub countdowns: Vec<campaign::CountdownSheet>,
    /// An established campaign's state (session, problem recency, rest limits).
    #[serde(default)]
    pub campaign: campaign::CampaignSetup,
}

/// Everything on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub players: Vec<Seat>,
    pub characters: Vec<Character>,
    pub campaign: Campaign,
    pub conflict: Option<Conflict>,
}

impl Table {
    pub fn character(&self, name: &str) -> Option<&Character> {
        self.characters.iter().find(|c| c.name == name)
    }

    pub fn character_mut(&mut self, name: &str) -> Option<&mut Character> {
        self.characters.iter_mut().find(|c| c.name == name)
    }

    /// The character called `name`, or an error naming `rule` when there is none.
    pub fn find(&self, name: &str, rule: &'static str) -> Result<&Character, RuleError> {
        self.character(name).ok_or_else(|| RuleError::illegal(rule, format!("there is no character called {name:?}")))
    }
}

/// A command from a seat: either part of a conflict or of the wider campaign.
///
/// In JSON both kinds are written the same way, `{"type": "...", ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Command {
    Conflict(ConflictCommand),
    Campaign(CampaignCommand),
}

/// Something that happened at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Event {
    Conflict(ConflictEvent),
    Campaign(CampaignEvent),
}

/// Read `{"type": ...}` as whichever of the two families knows that type, so a typo gets one
/// clear error instead of serde's "did not match any variant".
fn either<'de, D, A, B, T>(d: D, left: fn(A) -> T, right: fn(B) -> T) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    A: serde::de::DeserializeOwned,
    B: serde::de::DeserializeOwned,
{
    use serde::de::Error;
    let value = serde_json::Value::deserialize(d)?;
    let a = A::deserialize(&value);
    if let Ok(a) = a {
        return Ok(left(a));
    }
    let b = B::deserialize(&value);
    match (a, b) {
        (_, Ok(b)) => Ok(right(b)),
        (Err(ea), Err(eb)) => {
            let (ea, eb) = (ea.to_string(), eb.to_string());
            // Report the family that recognised the type; if neither did, say so once.
            let msg = match (ea.starts_with("unknown variant"), eb.starts_with("unknown variant")) {
                (false, _) => ea,
                (true, false) => eb,
                (true, true) => format!("unknown type: {}", value.get("type").map_or("(missing)".into(), |t| t.to_string())),
            };
            Err(D::Error::custom(msg))
        }
        (Ok(_), _) => unreachable!("handled above"),
    }
}

impl<'de> Deserialize<'de> for Command {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        either(d, Command::Conflict, Command::Campaign)
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        either(d, Event::Conflict, Event::Campaign)
    }
}

/// What one viewer sees of the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableView {
    pub viewer: Viewer,
    pub players: Vec<Seat>,
    pub characters: Vec<conflict::CharacterView>,
    pub campaign: campaign::CampaignView,
    pub conflict: Option<conflict::ConflictView>,
}

impl Ruleset for IronTriangle {
    const ID: &'static str = "iron-triangle";
    type Setup = Setup;
    type State = Table;
    type Command = Command;
    type Event = Event;
    type View = TableView;

    fn setup(setup: &Setup) -> Result<Table, RuleError> {
        let mut characters: Vec<Character> = Vec::new();
        for sheet in &setup.characters {
            let c = sheet.build()?;
            if characters.iter().any(|o| o.name == c.name) {
                return Err(RuleError::setup("IT-7", format!("two characters are called {:?}", c.name)));
            }
            characters.push(c);
        }
        let mut players = setup.players.clone();
        for c in characters.iter().filter(|c| c.is_pc()) {
            if !players.contains(&c.controller) {
                players.push(c.controller);
            }
        }
        players.sort();
        players.dedup();
        if players.contains(&Seat::Gm) {
            return Err(RuleError::setup("IT-1", "the GM is not also a player"));
        }
        if players.len() > 5 {
            return Err(RuleError::setup("IT-1", "Iron Triangle is for 2-6 people: one GM and at most five players"));
        }
        let campaign = Campaign::new(&setup.countdowns, &setup.campaign)?;
        Ok(Table { players, characters, campaign, conflict: None })
    }

    fn seats(state: &Table) -> Vec<Seat> {
        std::iter::once(Seat::Gm).chain(state.players.iter().copied()).collect()
    }

    fn decide(state: &Table, seat: Seat, command: &Command, rng: &mut dyn Randomness) -> Result<Vec<Event>, RuleError> {
        match command {
            Command::Conflict(c) => Ok(conflict::decide(state, seat, c, rng)?.into_iter().map(Event::Conflict).collect()),
            Command::Campaign(c) => Ok(campaign::decide(state, seat, c)?.into_iter().map(Event::Campaign).collect()),
        }
    }

    fn apply(state: &mut Table, event: &Event) {
        match event {
            Event::Conflict(e) => {
                let running = |t: &Table| t.conflict.as_ref().is_some_and(|c| c.is_running());
                let was_running = running(state);
                conflict::apply(state, e);
                if was_running && !running(state) {
                    campaign::conflict_over(state); // IT-31: the party may now rest
                }
            }
            Event::Campaign(e) => campaign::apply(state, e),
        }
    }

    fn view(state: &Table, viewer: Viewer) -> TableView {
        TableView {
            viewer,
            players: state.players.clone(),
            characters: conflict::character_views(state, viewer),
            campaign: campaign::view(state, viewer),
            conflict: conflict::view(state, viewer),
        }
    }

    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        match event {
            Event::Conflict(e) => conflict::event_view(e, viewer).map(Event::Conflict),
            Event::Campaign(e) => campaign::event_view(e, viewer).map(Event::Campaign),
        }
    }

    fn narrate(event: &Event) -> String {
        match event {
            Event::Conflict(e) => conflict::narrate(e),
            Event::Campaign(e) => campaign::narrate(e),
        }
    }

    fn render(state: &Table, viewer: Viewer) -> String {
        let mut out = conflict::render_characters(state, viewer);
        out.push_str(&campaign::render(state, viewer));
        out.push_str(&conflict::render(state, viewer));
        out
    }

    fn legal_commands(state: &Table, seat: Seat) -> Vec<Command> {
        let mut all: Vec<Command> = conflict::legal_commands(state, seat).into_iter().map(Command::Conflict).collect();
        all.extend(campaign::legal_commands(state, seat).into_iter().map(Command::Campaign));
        all
    }
}
