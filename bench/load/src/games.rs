//! What the benchmark plays: each ruleset with four player seats, and which commands its tables
//! favour so they play what the benchmark is named for (Iron Triangle conflicts, Tourists rounds,
//! Wicked Age exchanges, Triforce turns) rather than wander into bookkeeping.

use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    IronTriangle,
    Tourists,
    Triforce,
    WickedAge,
    /// The server's test ruleset: commit a secret word, reveal, roll.
    Sealed,
}

impl Game {
    pub fn parse(name: &str) -> Option<Vec<Game>> {
        Some(match name {
            "iron-triangle" => vec![Game::IronTriangle],
            "nd-tourists" => vec![Game::Tourists],
            "triforce" => vec![Game::Triforce],
            "wicked-age" => vec![Game::WickedAge],
            "sealed-duel" => vec![Game::Sealed],
            "mix" => vec![
                Game::IronTriangle,
                Game::Tourists,
                Game::Triforce,
                Game::WickedAge,
            ],
            _ => return None,
        })
    }

    pub fn id(self) -> &'static str {
        match self {
            Game::IronTriangle => "iron-triangle",
            Game::Tourists => "nd-tourists",
            Game::Triforce => "triforce",
            Game::WickedAge => "wicked-age",
            Game::Sealed => "sealed-duel",
        }
    }

    /// A setup with player seats p1–p4 (and the GM's where the game has one), built from the
    /// ruleset's first preset.
    pub fn setup(self) -> Value {
        match self {
            Game::Sealed => json!({ "players": 4, "auto_reveal": true }),
            Game::Triforce => json!({ "players": 4 }),
            Game::IronTriangle => {
                let mut setup = preset("iron-triangle");
                add_copies(
                    &mut setup["characters"],
                    "controller",
                    &[("Cy", "p3"), ("Di", "p4")],
                );
                setup
            }
            Game::WickedAge => {
                let mut setup = preset("wicked-age");
                add_copies(
                    &mut setup["characters"],
                    "seat",
                    &[("Mira", "p3"), ("Tavi", "p4")],
                );
                setup
            }
            Game::Tourists => {
                let mut setup = preset("nd-tourists");
                let parties = setup["parties"].as_array_mut().expect("parties");
                let mut extra = parties
                    .iter()
                    .find(|p| p["seat"] == "p3")
                    .cloned()
                    .expect("a p3 party");
                extra["seat"] = json!("p4");
                extra["name"] = json!("BBC");
                extra["characters"][0]["name"] = json!("BBC news crew");
                parties.push(extra);
                setup
            }
        }
    }

    /// How much a table favours a command of this type; 0: only when nothing else is legal.
    pub fn weight(self, command_type: &str) -> u32 {
        match (self, command_type) {
            (Game::IronTriangle, t) => match t {
                "start_conflict" | "take_stance" | "play_move" => 40,
                "pick_active" | "pick_opponent" | "split_loss" => 20,
                "end_chain" | "settle_conflict" | "narrate_outcome" | "choose_option" => 10,
                "join_conflict" | "pick_veto" => 5,
                "veto" | "sit_out" | "reject_narration" => 1,
                "rename_move" | "mark_goal" | "create_countdown" | "erase_countdown"
                | "mark_countdown" | "change_background" | "rewrite_traits" | "recover_npc"
                | "open_problem" | "close_problem" | "pass_problem" | "reveal_npc"
                | "end_session" | "start_session" | "rest" | "concede" | "surrender" => 0,
                _ => 5,
            },
            (Game::Tourists, "concede") => 0,
            (Game::Tourists, "reframe") => 1,
            (Game::Tourists, _) => 10,
            (Game::Triforce, "end_turn") => 3,
            (Game::Triforce, _) => 10,
            (Game::WickedAge, t) => match t {
                "roll_initiative" | "challenge" | "answer" => 20,
                "start_conflict" | "choose_consequence" => 10,
                "bring_back" | "choose_oracle" => 5,
                "cash_in_owe" => 3,
                "end_chapter" => 0,
                _ => 1,
            },
            (Game::Sealed, "shuffle") => 1,
            (Game::Sealed, _) => 10,
        }
    }
}

fn preset(id: &str) -> Value {
    let entry = clash_catalogue::find(id).expect("the ruleset is in the catalogue");
    serde_json::from_str(entry.presets[0].setup).expect("a preset is JSON")
}

/// Add copies of the characters played by p1 and p2, renamed and seated at p3 and p4.
fn add_copies(characters: &mut Value, seat_field: &str, copies: &[(&str, &str)]) {
    let list = characters.as_array_mut().expect("characters");
    let players: Vec<Value> = ["p1", "p2"]
        .iter()
        .filter_map(|s| list.iter().find(|c| c[seat_field] == *s).cloned())
        .collect();
    for ((name, seat), original) in copies.iter().zip(players) {
        let mut copy = original;
        copy["name"] = json!(name);
        copy[seat_field] = json!(seat);
        list.push(copy);
    }
}

/// A small, fast generator for the benchmark's choices (reproducible per table).
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1)
    }
}

/// Pick one of `options` (a seat and a command) by the game's weights.
pub fn choose<'a>(
    game: Game,
    options: &'a [(usize, Value)],
    dice: &mut Dice,
) -> Option<&'a (usize, Value)> {
    let weight = |c: &Value| game.weight(c["type"].as_str().unwrap_or(""));
    let total: u64 = options.iter().map(|(_, c)| u64::from(weight(c))).sum();
    if total == 0 {
        return options.get(dice.below(options.len() as u64) as usize);
    }
    let mut roll = dice.below(total);
    options.iter().find(|(_, c)| {
        let w = u64::from(weight(c));
        if roll < w {
            true
        } else {
            roll -= w;
            false
        }
    })
}
