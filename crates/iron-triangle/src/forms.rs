//! Iron Triangle made by form: a campaign's table choices and its characters' sheets, checked
//! field by field for the page's forms and assembled into a setup at the end of session zero
//! (see [`clash_core::session_zero`]).
//!
//! * The table: one to five players (IT-1), the campaign's session, and any countdowns the GM
//!   sets up front (IT-13).
//! * A player's sheet is a brand-new character under character creation (IT-9 … IT-12): ten
//!   energy over the three types with each at least 1, three background points with at most 2
//!   in one, a belief, a flaw and a goal, and the three starting moves named. The same check
//!   refuses a `create_character` command, so a character made mid-campaign through the same
//!   form meets the same rules.
//! * The GM's NPCs may be established sheets (any level, more moves, combos and specials),
//!   still consistent (IT-8, IT-41, IT-56, IT-59).
//!
//! A sheet made by form has no controller: the seat it is handed in from gives one, so the
//! same sheet, downloaded as a file, imports into another table in any seat.

use clash_core::session_zero::{FieldError, Forms, Maker, ReadyMade, SessionZero, TableChoices};
use clash_core::{RuleError, Ruleset, Seat};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::campaign::{CampaignSetup, CountdownSheet};
use crate::character::{CharacterSheet, STARTING_MOVES};
use crate::{IronTriangle, Setup};

/// The most players besides the GM (IT-1).
pub const MAX_PLAYERS: u8 = 5;

/// The campaign's choices on the table form.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct TableOptions {
    /// The session the campaign is at (1 for a new one).
    session: Option<u32>,
    countdowns: Vec<CountdownSheet>,
}

fn options(choices: &TableChoices) -> Result<TableOptions, FieldError> {
    TableOptions::deserialize(&choices.options()).map_err(|e| {
        FieldError::malformed("options", format!("not Iron Triangle's table choices: {e}"))
    })
}

/// A sheet from a form or a file with the controller `maker` gives it.
fn read_sheet(sheet: &Value, maker: Maker) -> Result<CharacterSheet, FieldError> {
    let Value::Object(fields) = sheet else {
        return Err(FieldError::malformed(
            "",
            "a character sheet is a set of fields",
        ));
    };
    let mut fields = fields.clone();
    let controller = match maker {
        Maker::Player => Seat::Player(1),
        Maker::Gm => Seat::Gm,
    };
    fields.insert("controller".into(), json!(controller));
    CharacterSheet::deserialize(&Value::Object(fields)).map_err(|e| {
        FieldError::malformed("", format!("not an Iron Triangle character sheet: {e}"))
    })
}

fn setup_problem(field: &str, e: &RuleError) -> FieldError {
    FieldError::at(field, e)
}

/// Every problem of a sheet as made for `maker` (see the module's documentation).
pub fn sheet_problems(sheet: &Value, maker: Maker) -> Vec<FieldError> {
    let parsed = match read_sheet(sheet, maker) {
        Ok(s) => s,
        Err(e) => return vec![e],
    };
    let mut out = Vec::new();
    if maker == Maker::Player && parsed.established {
        out.push(setup_problem(
            "established",
            &RuleError::setup(
                "IT-9",
                "a player's new character starts at level 0: established sheets are the GM's",
            ),
        ));
    }
    if !parsed.state.is_fresh() {
        out.push(setup_problem(
            "state",
            &RuleError::setup(
                "IT-9",
                "a new character is alive, with fresh specials and no ban",
            ),
        ));
    }
    out.extend(
        parsed
            .problems()
            .into_iter()
            .map(|p| setup_problem(p.field, &p.error)),
    );
    out
}

fn table_problems(choices: &TableChoices) -> Vec<FieldError> {
    let mut out = Vec::new();
    if choices.players == 0 || choices.players > MAX_PLAYERS {
        out.push(setup_problem(
            "players",
            &RuleError::setup(
                "IT-1",
                "Iron Triangle is for one GM and one to five players",
            ),
        ));
    }
    let opts = match options(choices) {
        Ok(o) => o,
        Err(e) => {
            out.push(e);
            return out;
        }
    };
    if opts.session == Some(0) {
        out.push(setup_problem(
            "options.session",
            &RuleError::setup("IT-60", "sessions are numbered from 1"),
        ));
    }
    if opts.countdowns.len() > crate::limits::MAX_COUNTDOWNS {
        out.push(setup_problem(
            "options.countdowns",
            &RuleError::setup(
                "IT-13",
                format!(
                    "a table holds at most {} countdowns",
                    crate::limits::MAX_COUNTDOWNS
                ),
            ),
        ));
        return out;
    }
    for (i, c) in opts.countdowns.iter().enumerate() {
        let field = format!("options.countdowns.{i}");
        if let Err(e) = c.build() {
            out.push(setup_problem(&field, &e));
        } else if opts.countdowns[..i]
            .iter()
            .any(|o| o.name.trim() == c.name.trim())
        {
            out.push(setup_problem(
                &field,
                &RuleError::setup("IT-13", "each countdown has a name of its own"),
            ));
        }
    }
    out
}

impl SessionZero for IronTriangle {
    const FORMS: Forms = Forms {
        script: include_str!("../panel/forms.js"),
        style: include_str!("../panel/forms.css"),
    };

    fn check_table(choices: &TableChoices) -> Vec<FieldError> {
        table_problems(choices)
    }

    fn check_sheet(sheet: &Value, maker: Maker) -> Vec<FieldError> {
        sheet_problems(sheet, maker)
    }

    fn assemble(
        choices: &TableChoices,
        pcs: &[(Seat, Value)],
        npcs: &[Value],
    ) -> Result<Setup, RuleError> {
        let opts = options(choices).map_err(|e| RuleError::setup("IT-1", e.message))?;
        let mut characters = Vec::new();
        let sheets = pcs
            .iter()
            .map(|(seat, s)| (*seat, s, Maker::Player))
            .chain(npcs.iter().map(|s| (Seat::Gm, s, Maker::Gm)));
        for (seat, sheet, maker) in sheets {
            let mut parsed =
                read_sheet(sheet, maker).map_err(|e| RuleError::setup("IT-7", e.message))?;
            parsed.controller = seat;
            characters.push(parsed);
        }
        let setup = Setup {
            players: choices.seats(),
            characters,
            countdowns: opts.countdowns,
            campaign: CampaignSetup {
                session: opts.session,
                ..CampaignSetup::default()
            },
            conflict: None,
            variant: None,
        };
        IronTriangle::setup(&setup)?;
        Ok(setup)
    }

    /// A ready-made campaign at its start (no conflict, no problems or rests behind it): each
    /// seat's one character as its sheet, the GM's as NPCs, the session and countdowns as the
    /// table's choices.
    fn disassemble(setup: &Setup) -> Option<ReadyMade> {
        let fresh = CampaignSetup {
            session: setup.campaign.session,
            ..CampaignSetup::default()
        };
        if setup.conflict.is_some() || setup.campaign != fresh {
            return None;
        }
        let mut seats = setup.players.clone();
        let mut sheets = std::collections::BTreeMap::new();
        let mut npcs = Vec::new();
        for c in &setup.characters {
            let mut sheet = serde_json::to_value(c).ok()?;
            sheet.as_object_mut()?.remove("controller");
            match c.controller {
                Seat::Gm => npcs.push(sheet),
                seat => {
                    // One character a seat: a sheet stands for its seat alone.
                    if sheets.insert(seat, sheet).is_some() {
                        return None;
                    }
                    seats.push(seat);
                }
            }
        }
        seats.sort();
        seats.dedup();
        let options = json!({"session": setup.campaign.session, "countdowns": setup.countdowns});
        Some(ReadyMade {
            choices: ReadyMade::choices_for(&seats, options)?,
            sheets,
            npcs,
        })
    }

    fn example_sheet(maker: Maker, n: usize) -> Value {
        let moves: Vec<Value> = STARTING_MOVES
            .iter()
            .zip(["Guard", "Sweep", "Overhand"])
            .map(|(m, name)| json!({"move": m, "name": name}))
            .collect();
        match maker {
            Maker::Player => json!({
                "name": format!("Hero {n}"),
                "energy": {"defend": 3, "grapple": 3, "attack": 4},
                "backgrounds": [{"name": "Wanderer", "points": 2}, {"name": "Scholar", "points": 1}],
                "belief": "Every fight teaches something",
                "flaw": "Proud",
                "goal": "Find the old master",
                "moves": moves,
            }),
            Maker::Gm => json!({
                "name": format!("Thug {n}"),
                "established": true,
                "level": 1,
                "energy": {"defend": 2, "grapple": 3, "attack": 3},
                "moves": moves,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_made_setups_open_in_session_zero_and_start_unchanged() {
        // Issue 38: a ready-made table goes through session zero (seats to add or remove,
        // sheets to review) and starts, untouched, as the preset would have.
        let held = clash_core::testkit::ready_made_presets_start_as_they_are::<IronTriangle>();
        assert_eq!(held, 2);
    }

    fn ada() -> Value {
        json!({
            "name": "Ada",
            "energy": {"defend": 3, "grapple": 2, "attack": 5},
            "backgrounds": [{"name": "Detective", "points": 2}, {"name": "Disgraced hockey player", "points": 1}],
            "belief": "Everyone lies", "flaw": "Temper", "goal": "Find the thief",
            "moves": [
                {"move": "D-M", "name": "Philly Shell"},
                {"move": "G-L", "name": "Trip"},
                {"move": "A-H", "name": "Overhand Right"}
            ]
        })
    }

    fn at(problems: &[FieldError]) -> Vec<(&str, Option<&str>)> {
        problems
            .iter()
            .map(|p| (p.field.as_str(), p.rule))
            .collect()
    }

    #[test]
    fn examples_are_valid_sheets() {
        for maker in [Maker::Player, Maker::Gm] {
            let sheet = IronTriangle::example_sheet(maker, 3);
            assert_eq!(IronTriangle::check_sheet(&sheet, maker), vec![]);
        }
        assert_eq!(IronTriangle::check_sheet(&ada(), Maker::Player), vec![]);
    }

    #[test]
    fn it_9_energy_is_ten_with_each_type_at_least_one() {
        let mut s = ada();
        s["energy"] = json!({"defend": 0, "grapple": 5, "attack": 5});
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("energy", Some("IT-9"))]
        ); // IT-9
        s["energy"] = json!({"defend": 4, "grapple": 3, "attack": 2});
        let problems = sheet_problems(&s, Maker::Player);
        assert_eq!(at(&problems), [("energy", Some("IT-9"))]); // IT-9: totals 9
        assert!(
            problems[0].message.contains("exactly 10 energy")
                && problems[0].message.contains("not 9"),
            "{problems:?}"
        );
    }

    #[test]
    fn it_10_three_background_points_at_most_two_in_one() {
        let mut s = ada();
        s["backgrounds"] = json!([{"name": "Detective", "points": 3}]);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("backgrounds", Some("IT-10"))]
        ); // IT-10
        s["backgrounds"] = json!([{"name": "Detective", "points": 2}]);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("backgrounds", Some("IT-10"))]
        ); // IT-10: all 3
    }

    #[test]
    fn it_10_a_background_is_named_once_and_the_form_says_so_at_its_field() {
        let mut s = ada();
        s["backgrounds"] =
            json!([{"name": "Sailor", "points": 2}, {"name": " sailor", "points": 1}]);
        let problems = sheet_problems(&s, Maker::Player);
        assert_eq!(at(&problems), [("backgrounds", Some("IT-10"))]); // IT-10
        assert_eq!(
            problems[0].message,
            "“Sailor” and “sailor” are the same background: write each background once, with all its points (at most 2)"
        ); // IT-10, in words a player understands
    }

    #[test]
    fn it_11_belief_flaw_and_goal_are_written() {
        let mut s = ada();
        s["belief"] = json!("");
        s["goal"] = json!("  ");
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("belief", Some("IT-11")), ("goal", Some("IT-11"))]
        ); // IT-11, each at its own field
    }

    #[test]
    fn it_12_the_starting_moves_are_named() {
        let mut s = ada();
        s["moves"][1]["name"] = json!("");
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("moves", Some("IT-7"))]
        ); // IT-7
        let mut s = ada();
        s["moves"][2]["move"] = json!("A-M");
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("moves", Some("IT-12"))]
        ); // IT-12
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let mut s = ada();
        s["name"] = json!("");
        s["energy"] = json!({"defend": 1, "grapple": 1, "attack": 1});
        s["flaw"] = json!("");
        let problems = sheet_problems(&s, Maker::Player);
        let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["name", "energy", "flaw"]); // IT-7, IT-9, IT-11
    }

    #[test]
    fn it_9_players_make_new_characters_the_gm_established_ones() {
        let npc = IronTriangle::example_sheet(Maker::Gm, 1);
        assert_eq!(
            at(&sheet_problems(&npc, Maker::Player)),
            [("established", Some("IT-9"))]
        ); // IT-9: a player's PC is new
        let mut s = ada();
        s["specials"] = json!([{"special": "scouter"}]);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("specials", Some("IT-9"))]
        ); // IT-9
        s["established"] = json!(true);
        s["level"] = json!(1);
        assert_eq!(sheet_problems(&s, Maker::Gm), vec![]); // an NPC may know a special
        s["specials"] = json!([{"special": "dig_two_graves", "action": "attack"}]);
        s["level"] = json!(5);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Gm)),
            [("specials", Some("IT-59"))]
        ); // IT-59
    }

    #[test]
    fn something_else_than_a_sheet_is_malformed() {
        let problems = sheet_problems(&json!({"name": "Ada", "colour": "red"}), Maker::Player);
        assert_eq!(at(&problems), [("", None)]);
        assert_eq!(at(&sheet_problems(&json!([1, 2]), Maker::Gm)), [("", None)]);
    }

    #[test]
    fn it_1_and_it_13_the_table_choices() {
        let choices = |players, options| TableChoices {
            players,
            options,
            removed: Vec::new(),
        };
        assert_eq!(
            at(&IronTriangle::check_table(&choices(6, json!({})))),
            [("players", Some("IT-1"))]
        ); // IT-1: at most five players
        let cds = json!({"countdowns": [{"name": "The flood", "boxes": 9}, {"name": "Riot", "boxes": 4}, {"name": "Riot", "boxes": 5}]});
        assert_eq!(
            at(&IronTriangle::check_table(&choices(2, cds))),
            [
                ("options.countdowns.0", Some("IT-13")),
                ("options.countdowns.2", Some("IT-13"))
            ]
        ); // IT-13: 4 to 8 boxes, unique names
        assert_eq!(
            IronTriangle::check_table(&choices(2, json!({"session": 3}))),
            vec![]
        );
    }

    #[test]
    fn assembling_seats_each_sheet_with_its_player() {
        let choices = TableChoices {
            players: 2,
            options: json!({"session": 2, "countdowns": [{"name": "The flood", "boxes": 6}]}),
            removed: Vec::new(),
        };
        let mut bo = IronTriangle::example_sheet(Maker::Player, 2);
        bo["name"] = json!("Bo");
        let pcs = vec![(Seat::Player(1), ada()), (Seat::Player(2), bo)];
        let npcs = vec![IronTriangle::example_sheet(Maker::Gm, 1)];
        let setup = IronTriangle::assemble(&choices, &pcs, &npcs).expect("valid");
        let table = IronTriangle::setup(&setup).expect("the setup starts a game");
        assert_eq!(table.players, [Seat::Player(1), Seat::Player(2)]);
        assert_eq!(table.character("Bo").unwrap().controller, Seat::Player(2));
        assert_eq!(table.character("Thug 1").unwrap().controller, Seat::Gm);
        assert_eq!(table.campaign.session, 2);
        assert_eq!(table.campaign.countdowns.len(), 1); // IT-13
        let twins = vec![(Seat::Player(1), ada()), (Seat::Player(2), ada())];
        let refused = IronTriangle::assemble(&choices, &twins, &[]).unwrap_err();
        assert_eq!(refused.rule(), Some("IT-7")); // IT-7: two characters called Ada
    }
}
