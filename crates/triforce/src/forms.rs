//! Triforce made by form: the table's choices are its whole setup, so a table made by form
//! starts at once (there are no character sheets, see [`clash_core::session_zero`]).
//!
//! The choices: three to six players (TF-5), each seat's colour fixed by its place and a name
//! its player may give (TF-5), who plays first (TF-11), the white layout (TF-8: the default, or
//! fifteen sizes of the GM's own with five of each unless a free layout is chosen) and an
//! optional turn limit (TF-30). Each problem is reported at its field.

use std::collections::BTreeMap;

use clash_core::session_zero::{FieldError, Forms, Maker, SessionZero, TableChoices};
use clash_core::{RuleError, Ruleset, Seat};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::Triforce;
use crate::pieces::{MAX_PLAYERS, Size};
use crate::players::check_name;
use crate::setup::Setup;

/// The table form's choices (all optional).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct TableOptions {
    /// Names the players go by, by seat.
    names: BTreeMap<Seat, String>,
    starting_seat: Option<Seat>,
    /// Fifteen white sizes, positions 1 to 15; the default layout when absent.
    layout: Option<Vec<Size>>,
    free_layout: bool,
    turn_limit: Option<u32>,
}

fn options(choices: &TableChoices) -> Result<TableOptions, FieldError> {
    TableOptions::deserialize(&choices.options())
        .map_err(|e| FieldError::malformed("options", format!("not Triforce's table choices: {e}")))
}

fn setup_of(choices: &TableChoices, opts: &TableOptions) -> Setup {
    let mut setup = Setup::new(choices.players);
    setup.names = opts
        .names
        .iter()
        .filter(|(_, n)| !n.trim().is_empty())
        .map(|(s, n)| (*s, n.trim().to_string()))
        .collect();
    setup.layout = opts.layout.clone();
    setup.free_layout = opts.free_layout;
    if let Some(s) = opts.starting_seat {
        setup.starting_seat = s;
    }
    setup.turn_limit = opts.turn_limit;
    setup
}

/// The field a setup refusal belongs to, by its rule.
fn field_of(rule: Option<&str>) -> &'static str {
    match rule {
        Some("TF-5") => "options.names",
        Some("TF-8") => "options.layout",
        Some("TF-11") => "options.starting_seat",
        Some("TF-30") => "options.turn_limit",
        _ => "",
    }
}

fn table_problems(choices: &TableChoices) -> Vec<FieldError> {
    if !(3..=MAX_PLAYERS as u8).contains(&choices.players) {
        return vec![FieldError::at(
            "players",
            &RuleError::setup(
                "TF-5",
                format!("{} players: Triforce takes 3 to 6", choices.players),
            ),
        )];
    }
    let opts = match options(choices) {
        Ok(o) => o,
        Err(e) => return vec![e],
    };
    let mut out = Vec::new();
    for (seat, name) in opts.names.iter().filter(|(_, n)| !n.trim().is_empty()) {
        if let Err(why) = check_name(name.trim()) {
            out.push(FieldError::at(
                format!("options.names.{seat}"),
                &RuleError::setup("TF-5", why),
            ));
        }
    }
    if out.is_empty()
        && let Err(e) = Triforce::setup(&setup_of(choices, &opts))
    {
        out.push(FieldError::at(field_of(e.rule()), &e));
    }
    out
}

impl SessionZero for Triforce {
    const FORMS: Forms = Forms {
        script: include_str!("../panel/forms.js"),
        style: include_str!("../panel/forms.css"),
    };
    const SHEETS: bool = false;

    fn check_table(choices: &TableChoices) -> Vec<FieldError> {
        table_problems(choices)
    }

    fn check_sheet(_sheet: &Value, _maker: Maker) -> Vec<FieldError> {
        vec![FieldError::malformed(
            "",
            "Triforce has no character sheets: players are known by their colour and name",
        )]
    }

    fn sheet_name(_sheet: &Value) -> Option<String> {
        None
    }

    fn assemble(
        choices: &TableChoices,
        _pcs: &[(Seat, Value)],
        _npcs: &[Value],
    ) -> Result<Setup, RuleError> {
        let opts = options(choices).map_err(|e| RuleError::setup("TF-5", e.message))?;
        let setup = setup_of(choices, &opts);
        Triforce::setup(&setup)?;
        Ok(setup)
    }

    fn example_sheet(_maker: Maker, _n: usize) -> Value {
        json!({})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices(players: u8, options: Value) -> TableChoices {
        TableChoices {
            players,
            options,
            removed: Vec::new(),
        }
    }

    fn at(problems: &[FieldError]) -> Vec<(&str, Option<&str>)> {
        problems
            .iter()
            .map(|p| (p.field.as_str(), p.rule))
            .collect()
    }

    #[test]
    fn tf_5_three_to_six_named_players() {
        assert_eq!(
            at(&Triforce::check_table(&choices(2, json!({})))),
            [("players", Some("TF-5"))]
        ); // TF-5
        let named = json!({"names": {"p1": "Ada", "p2": "ada"}});
        assert_eq!(
            at(&Triforce::check_table(&choices(3, named))),
            [("options.names", Some("TF-5"))]
        ); // TF-5: two players of one name
        let long = json!({"names": {"p3": "A name far longer than any player would give"}});
        assert_eq!(
            at(&Triforce::check_table(&choices(3, long))),
            [("options.names.p3", Some("TF-5"))]
        );
    }

    #[test]
    fn tf_8_and_tf_11_layout_and_starting_seat() {
        let layout =
            json!({"layout": ["S","S","S","S","S","S","M","M","M","M","L","L","L","L","L"]});
        assert_eq!(
            at(&Triforce::check_table(&choices(3, layout))),
            [("options.layout", Some("TF-8"))]
        ); // TF-8: five of each size
        let free = json!({"layout": ["S","S","S","S","S","S","M","M","M","M","L","L","L","L","L"], "free_layout": true});
        assert_eq!(Triforce::check_table(&choices(3, free)), vec![]);
        assert_eq!(
            at(&Triforce::check_table(&choices(
                3,
                json!({"starting_seat": "p4"})
            ))),
            [("options.starting_seat", Some("TF-11"))]
        ); // TF-11
    }

    #[test]
    fn a_table_made_by_form_starts_at_once() {
        let c = choices(
            4,
            json!({"names": {"p1": "Ada", "p3": "Cy"}, "starting_seat": "p2", "turn_limit": 30}),
        );
        assert!(Triforce::check_table(&c).is_empty());
        let setup = Triforce::assemble(&c, &[], &[]).expect("valid");
        let state = Triforce::setup(&setup).expect("starts");
        assert_eq!(Triforce::seat_name(&state, Seat::Player(1)), "Ada (Red)");
        assert_eq!(Triforce::seat_name(&state, Seat::Player(2)), "Green");
        assert_eq!(setup.starting_seat, Seat::Player(2));
    }
}
