//! A tiny ruleset for exercising the server without depending on any real game: "sealed duel".
//!
//! Players commit a secret word each (SD-1, hidden from the others); when all have committed the
//! GM reveals them and rolls a d6 from the injected randomness (SD-3). The GM may shuffle a
//! secret deck whose order nobody may see (SD-4). The GM may also announce the words committed
//! so far, without a roll (SD-5): a reveal without chance. Choices are words so tests can
//! search every response for them.

#![allow(dead_code)]

use clash_core::{Listed, Preset, Randomness, RuleError, Ruleset, Seat, Status, Viewer, shuffle};
use serde::{Deserialize, Serialize};

pub struct SealedDuel;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    #[serde(default = "two")]
    pub players: u8,
    /// Reveal (and roll) as soon as the last player commits, without waiting for the GM.
    #[serde(default)]
    pub auto_reveal: bool,
}

fn two() -> u8 {
    2
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: u8,
    pub auto_reveal: bool,
    pub committed: Vec<(Seat, String)>,
    pub deck: Vec<String>,
    pub round: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    Commit { word: String },
    Reveal,
    Shuffle,
    Announce,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Committed {
        seat: Seat,
        word: Option<String>,
    },
    Revealed {
        words: Vec<(Seat, String)>,
        roll: u32,
    },
    Shuffled {
        order: Vec<String>,
    },
    Announced {
        words: Vec<(Seat, String)>,
    },
}

#[derive(Debug, Serialize)]
pub struct View {
    pub round: u32,
    pub ready: Vec<Seat>,
    pub mine: Option<String>,
    pub deck_size: usize,
}

fn players(state: &State) -> impl Iterator<Item = Seat> {
    (1..=state.players).map(Seat::Player)
}

impl Ruleset for SealedDuel {
    const ID: &'static str = "sealed-duel";

    /// A commitment is hidden news, not a reveal; the reveal, the announcement and the
    /// shuffle show what nobody knew.
    fn reveals(event: &Event) -> bool {
        !matches!(event, Event::Committed { .. })
    }

    fn confirm(_state: &State, _seat: Seat, command: &Command) -> Option<String> {
        matches!(command, Command::Reveal).then(|| "Reveal every word and roll?".to_string())
    }
    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn setup(setup: &Setup) -> Result<State, RuleError> {
        if !(1..=6).contains(&setup.players) {
            return Err(RuleError::setup("SD-0", "between 1 and 6 players"));
        }
        let deck = (b'A'..=b'J')
            .map(|c| format!("card-{}", c as char))
            .collect();
        Ok(State {
            players: setup.players,
            auto_reveal: setup.auto_reveal,
            committed: vec![],
            deck,
            round: 1,
        })
    }

    fn opening(_state: &State) -> Vec<Event> {
        Vec::new()
    }

    fn seats(state: &State) -> Vec<Seat> {
        std::iter::once(Seat::Gm).chain(players(state)).collect()
    }

    fn seat_name(_state: &State, seat: Seat) -> String {
        match seat {
            Seat::Gm => "the GM".into(),
            Seat::Player(n) => format!("Player {n}"),
        }
    }

    fn status(state: &State) -> Status {
        let waiting: Vec<Seat> = players(state)
            .filter(|p| !state.committed.iter().any(|(s, _)| s == p))
            .collect();
        if waiting.is_empty() {
            Status::waiting([Seat::Gm])
        } else {
            Status::waiting(waiting)
        }
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &Command,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        match command {
            Command::Commit { word } => {
                if seat == Seat::Gm || !players(state).any(|p| p == seat) {
                    return Err(RuleError::not_your_call(
                        "SD-1",
                        seat,
                        "only players commit",
                    ));
                }
                if state.committed.iter().any(|(s, _)| *s == seat) {
                    return Err(RuleError::illegal(
                        "SD-2",
                        "you already committed this round",
                    ));
                }
                let committed = Event::Committed {
                    seat,
                    word: Some(word.clone()),
                };
                if state.auto_reveal && state.committed.len() + 1 == state.players as usize {
                    let mut words = state.committed.clone();
                    words.push((seat, word.clone()));
                    return Ok(vec![
                        committed,
                        Event::Revealed {
                            words,
                            roll: rng.roll(6)?,
                        },
                    ]);
                }
                Ok(vec![committed])
            }
            Command::Reveal => {
                if seat != Seat::Gm {
                    return Err(RuleError::not_your_call(
                        "SD-3",
                        seat,
                        "only the GM reveals",
                    ));
                }
                if state.committed.len() < state.players as usize {
                    return Err(RuleError::illegal("SD-3", "not everyone has committed"));
                }
                let roll = rng.roll(6)?;
                Ok(vec![Event::Revealed {
                    words: state.committed.clone(),
                    roll,
                }])
            }
            Command::Shuffle => {
                if seat != Seat::Gm {
                    return Err(RuleError::not_your_call(
                        "SD-4",
                        seat,
                        "only the GM shuffles",
                    ));
                }
                let mut order = state.deck.clone();
                shuffle(rng, &mut order, |c| c.clone())?;
                Ok(vec![Event::Shuffled { order }])
            }
            Command::Announce => {
                if seat != Seat::Gm {
                    return Err(RuleError::not_your_call(
                        "SD-5",
                        seat,
                        "only the GM announces",
                    ));
                }
                Ok(vec![Event::Announced {
                    words: state.committed.clone(),
                }])
            }
        }
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::Committed { seat, word } => state
                .committed
                .push((*seat, word.clone().unwrap_or_default())),
            Event::Revealed { .. } => {
                state.committed.clear();
                state.round += 1;
            }
            Event::Shuffled { order } => state.deck = order.clone(),
            Event::Announced { .. } => {}
        }
    }

    fn view(state: &State, viewer: Viewer) -> View {
        View {
            round: state.round,
            ready: state.committed.iter().map(|(s, _)| *s).collect(),
            mine: state
                .committed
                .iter()
                .find(|(s, _)| viewer.is(*s))
                .map(|(_, w)| w.clone()),
            deck_size: state.deck.len(),
        }
    }

    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        match event {
            Event::Committed { seat, .. } if !viewer.is(*seat) => Some(Event::Committed {
                seat: *seat,
                word: None,
            }),
            Event::Shuffled { .. } => Some(Event::Shuffled { order: vec![] }),
            other => Some(other.clone()),
        }
    }

    fn narrate(_state: &State, event: &Event) -> String {
        match event {
            Event::Committed {
                seat,
                word: Some(w),
            } => format!("{seat} commits {w}"),
            Event::Committed { seat, word: None } => format!("{seat} is ready"),
            Event::Revealed { words, roll } => {
                let w: Vec<String> = words.iter().map(|(s, w)| format!("{s}: {w}")).collect();
                format!("revealed {} and rolled {roll}", w.join(", "))
            }
            Event::Shuffled { .. } => "the deck is shuffled".into(),
            Event::Announced { words } => {
                let w: Vec<String> = words.iter().map(|(s, w)| format!("{s}: {w}")).collect();
                format!("announced {}", w.join(", "))
            }
        }
    }

    fn render(state: &State, viewer: Viewer) -> String {
        format!(
            "round {} ({} ready) as {viewer}",
            state.round,
            state.committed.len()
        )
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<Command> {
        match seat {
            Seat::Gm if state.committed.len() == state.players as usize => {
                vec![Command::Reveal, Command::Shuffle]
            }
            Seat::Gm => vec![Command::Shuffle],
            s if state.committed.iter().any(|(c, _)| *c == s) => vec![],
            _ => vec![
                Command::Commit {
                    word: "apple".into(),
                },
                Command::Commit {
                    word: "pear".into(),
                },
            ],
        }
    }

    fn position(_state: &State, _viewer: Viewer) -> Option<Setup> {
        None
    }
}

impl Listed for SealedDuel {
    const NAME: &'static str = "Sealed duel";
    const BLURB: &'static str = "A test game: commit a secret word, reveal, roll a die.";
    const PRESETS: &'static [Preset] = &[];
}
