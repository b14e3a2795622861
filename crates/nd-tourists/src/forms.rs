//! N-Dimensional Tourists made by form: each player's party made from its invite link and the
//! GM's non-player parties, checked field by field for the page's forms and assembled into a
//! Conflict's setup at the end of session zero (see [`clash_core::session_zero`]).
//!
//! * The table: how many players (one party each, ND-5) and whether the deck holds the blanks
//!   (D-1).
//! * A party's sheet: its name and goal, and its characters, each with the Attribute chosen for
//!   the Conflict, Aspects and Weaknesses (ND-6) and a Reserve size (S4: 3 unless the sheet
//!   says otherwise). A player party's Reserve is drawn from the deck when the GM starts the
//!   Conflict, as many cards as the sheet holds less any it already names.
//! * The GM's parties are played by the GM and draw their Reserve as ND-10 says (or as many as
//!   the GM writes down).
//! * Seating (D-21): the players' parties in the order of their seats, then the GM's in the
//!   order the GM readied them. Across sheets the start checks that party names differ and
//!   that there are at least two parties (ND-5).

use clash_core::session_zero::{FieldError, Forms, Maker, SessionZero, TableChoices};
use clash_core::{RuleError, Ruleset, Seat};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::setup::{DEFAULT_SHEET_RESERVE, PartySetup, Setup, party_problems};
use crate::{NdTourists, limits};

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct TableOptions {
    /// The 10 suit blanks are in the deck (D-1).
    blanks: bool,
}

fn options(choices: &TableChoices) -> Result<TableOptions, FieldError> {
    TableOptions::deserialize(&choices.options()).map_err(|e| {
        FieldError::malformed(
            "options",
            format!("not N-Dimensional Tourists' table choices: {e}"),
        )
    })
}

fn seat_of(maker: Maker) -> Seat {
    match maker {
        Maker::Player => Seat::Player(1),
        Maker::Gm => Seat::Gm,
    }
}

/// A party's sheet from a form or a file, seated as `maker` says.
fn read_party(sheet: &Value, seat: Seat) -> Result<PartySetup, FieldError> {
    let Value::Object(fields) = sheet else {
        return Err(FieldError::malformed(
            "",
            "a party's sheet is a set of fields",
        ));
    };
    let mut fields = fields.clone();
    fields.insert("seat".into(), json!(seat));
    PartySetup::deserialize(&Value::Object(fields)).map_err(|e| {
        FieldError::malformed(
            "",
            format!("not an N-Dimensional Tourists party sheet: {e}"),
        )
    })
}

/// Every problem of a party's sheet as made for `maker`.
pub fn sheet_problems(sheet: &Value, maker: Maker) -> Vec<FieldError> {
    match read_party(sheet, seat_of(maker)) {
        Ok(party) => party_problems(&party)
            .into_iter()
            .map(|(field, e)| FieldError::at(field, &e))
            .collect(),
        Err(e) => vec![e],
    }
}

impl SessionZero for NdTourists {
    const FORMS: Forms = Forms {
        script: include_str!("../panel/forms.js"),
        style: include_str!("../panel/forms.css"),
    };

    fn check_table(choices: &TableChoices) -> Vec<FieldError> {
        let mut out = Vec::new();
        if usize::from(choices.players) > limits::MAX_PARTIES {
            out.push(FieldError::at(
                "players",
                &RuleError::setup(
                    limits::LIMIT,
                    format!("at most {} parties (a table limit)", limits::MAX_PARTIES),
                ),
            ));
        }
        if let Err(e) = options(choices) {
            out.push(e);
        }
        out
    }

    fn check_sheet(sheet: &Value, maker: Maker) -> Vec<FieldError> {
        sheet_problems(sheet, maker)
    }

    fn sheet_name(sheet: &Value) -> Option<String> {
        sheet
            .get("name")
            .and_then(Value::as_str)
            .map(|n| n.trim().to_string())
    }

    fn assemble(
        choices: &TableChoices,
        pcs: &[(Seat, Value)],
        npcs: &[Value],
    ) -> Result<Setup, RuleError> {
        let opts = options(choices).map_err(|e| RuleError::setup("ND-5", e.message))?;
        let mut parties = Vec::new();
        for (seat, sheet) in pcs {
            let mut party =
                read_party(sheet, *seat).map_err(|e| RuleError::setup("ND-5", e.message))?;
            // S4: the sheet's Reserve is drawn as the Conflict starts.
            for c in &mut party.characters {
                let size = c.reserve_size.unwrap_or(DEFAULT_SHEET_RESERVE);
                c.reserve_unseen = size.saturating_sub(c.reserve.len().min(255) as u8);
            }
            parties.push(party);
        }
        for sheet in npcs {
            let mut party =
                read_party(sheet, Seat::Gm).map_err(|e| RuleError::setup("ND-5", e.message))?;
            for c in &mut party.characters {
                c.reserve_unseen = 0;
            }
            parties.push(party);
        }
        let setup = Setup {
            parties,
            blanks: opts.blanks,
            position: None,
            variant: None,
        };
        NdTourists::setup(&setup)?;
        Ok(setup)
    }

    fn example_sheet(maker: Maker, n: usize) -> Value {
        match maker {
            Maker::Player => json!({
                "name": format!("Tourists {n}"),
                "goal": "See the sights and get home",
                "characters": [{
                    "name": format!("Guide {n}"),
                    "attribute": {"name": "Paper", "value": 4},
                    "aspects": ["Knows every back street"],
                    "weaknesses": ["Afraid of heights"]
                }]
            }),
            Maker::Gm => json!({
                "name": format!("Kaiju {n}"),
                "goal": "Flatten the city",
                "characters": [{
                    "name": format!("Kaiju {n}"),
                    "attribute": {"name": "Destroy Everything", "value": 6}
                }]
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(problems: &[FieldError]) -> Vec<(&str, Option<&str>)> {
        problems
            .iter()
            .map(|p| (p.field.as_str(), p.rule))
            .collect()
    }

    #[test]
    fn examples_are_valid_sheets() {
        for maker in [Maker::Player, Maker::Gm] {
            let sheet = NdTourists::example_sheet(maker, 1);
            assert_eq!(NdTourists::check_sheet(&sheet, maker), vec![]);
        }
    }

    #[test]
    fn nd_5_and_nd_28_names_and_nd_6_attributes() {
        let mut s = NdTourists::example_sheet(Maker::Player, 1);
        s["name"] = json!(" ");
        s["characters"][0]["attribute"]["value"] = json!(99);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("name", Some("ND-5")), ("characters.0", Some("ND-6"))]
        ); // ND-5, ND-6
        s["characters"] = json!([]);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("name", Some("ND-5")), ("characters", Some("ND-5"))]
        ); // ND-5: a party has characters
    }

    #[test]
    fn nd_10_only_the_gm_draws_a_reserve_for_a_party() {
        let mut s = NdTourists::example_sheet(Maker::Player, 1);
        s["reserve_draws"] = json!(2);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("reserve_draws", Some("ND-10"))]
        ); // ND-10
        assert_eq!(sheet_problems(&s, Maker::Gm), vec![]);
    }

    #[test]
    fn s4_a_player_partys_reserve_is_drawn_as_the_conflict_starts() {
        let choices = TableChoices {
            players: 2,
            options: json!({"blanks": true}),
        };
        let mut two = NdTourists::example_sheet(Maker::Player, 2);
        two["characters"][0]["reserve_size"] = json!(5);
        let pcs = vec![
            (Seat::Player(1), NdTourists::example_sheet(Maker::Player, 1)),
            (Seat::Player(2), two),
        ];
        let npcs = vec![NdTourists::example_sheet(Maker::Gm, 1)];
        let setup = NdTourists::assemble(&choices, &pcs, &npcs).expect("valid");
        assert!(setup.blanks); // D-1
        let seats: Vec<Seat> = setup.parties.iter().map(|p| p.seat).collect();
        assert_eq!(seats, [Seat::Player(1), Seat::Player(2), Seat::Gm]); // D-21 seating
        assert_eq!(setup.parties[0].characters[0].reserve_unseen, 3); // S4: 3 by default
        assert_eq!(setup.parties[1].characters[0].reserve_unseen, 5);
        assert_eq!(setup.parties[2].characters[0].reserve_unseen, 0);
        let mut twins = pcs.clone();
        twins[1].1["name"] = json!("Tourists 1");
        let refused = NdTourists::assemble(&choices, &twins, &npcs).unwrap_err();
        assert_eq!(refused.rule(), Some("ND-5")); // two parties of one name
        let refused = NdTourists::assemble(&choices, &pcs[..1], &[]).unwrap_err();
        assert_eq!(refused.rule(), Some("ND-5")); // ND-5: at least two parties
    }
}
