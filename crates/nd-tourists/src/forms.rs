//! N-Dimensional Tourists made by form: each player's party made from its invite link and the
//! GM's non-player parties, checked field by field for the page's forms and assembled into a
//! Conflict's setup at the end of session zero (see [`clash_core::session_zero`]).
//!
//! * The table: how many players (one party each, ND-5), each player's party by name (so the
//!   table names the parties it waits on before their sheets are in, and each sheet starts
//!   with its name), whether the deck holds the blanks (D-1), and whether each party is asked
//!   at every chance to react or (by default) only to save its own cards (D-4, see
//!   [`crate::reactions`]).
//! * A party's sheet: its name and goal, and its characters, each with the Attribute chosen for
//!   the Conflict, Aspects and Weaknesses (ND-6) and a Reserve size (S4: 3 unless the sheet
//!   says otherwise). A player party's Reserve is drawn from the deck when the GM starts the
//!   Conflict, as many cards as the sheet holds less any it already names.
//! * The GM's parties are played by the GM and draw their Reserve as ND-10 says (or as many as
//!   the GM writes down).
//! * Seating (D-21): the players' parties in the order of their seats, then the GM's in the
//!   order the GM readied them. Across sheets the start checks that party names differ and
//!   that there are at least two parties (ND-5).

use std::collections::BTreeMap;

use clash_core::session_zero::{FieldError, Forms, Maker, ReadyMade, SessionZero, TableChoices};
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
    /// The players' parties by seat, as the GM names them on the table's form (ND-5): the
    /// table calls each seat so until its party is handed in, and the sheet starts with it.
    names: BTreeMap<Seat, String>,
    /// Which chances to react each party is asked about to begin with (D-4, see
    /// [`crate::reactions`]); only to save its own cards unless the GM chooses every chance.
    reactions: Option<crate::state::Asking>,
    /// A ready-made Conflict's seating (D-21), kept when it is started through session zero:
    /// player seats (`p1`) and the GM's parties by name, in order. Parties it does not name sit
    /// after, in the usual order.
    seating: Vec<String>,
}

/// Every problem of the party names on the table's form: each a name within the table's
/// limits, for a player seat of this table, and no two alike (ND-5).
fn name_problems(choices: &TableChoices, opts: &TableOptions) -> Vec<FieldError> {
    let seats = choices.seats();
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (seat, name) in &opts.names {
        let field = format!("options.names.{seat}");
        let name = name.trim();
        if !seats.contains(seat) {
            out.push(FieldError::malformed(
                field,
                format!("{seat} is not a player seat of this table"),
            ));
        } else if let Err(e) = limits::TABLE.setup_name("a party name", name) {
            out.push(FieldError::at(field, &e));
        } else if seen.iter().any(|n| n.eq_ignore_ascii_case(name)) {
            let e = RuleError::setup("ND-5", format!("two parties are called {name}"));
            out.push(FieldError::at(field, &e));
        } else {
            seen.push(name.to_string());
        }
    }
    out
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
        match options(choices) {
            Ok(opts) => out.extend(name_problems(choices, &opts)),
            Err(e) => out.push(e),
        }
        out
    }

    /// A ready-made Conflict before it starts (no position): each player seat's party as its
    /// sheet (with the Reserve it names), the GM's parties as NPCs, the deck and how parties
    /// are asked to react as the table's choices.
    fn disassemble(setup: &Setup) -> Option<ReadyMade> {
        if setup.position.is_some() {
            return None;
        }
        let mut sheets = std::collections::BTreeMap::new();
        let mut npcs = Vec::new();
        for p in &setup.parties {
            let mut sheet = serde_json::to_value(p).ok()?;
            sheet.as_object_mut()?.remove("seat");
            // The Reserve cards it draws as the Conflict starts, as the setup says (a form's
            // sheet draws its whole Reserve).
            for (k, c) in p.characters.iter().enumerate() {
                sheet["characters"][k]["reserve_unseen"] = json!(c.reserve_unseen);
            }
            match p.seat {
                seat @ Seat::Player(_) => {
                    if sheets.insert(seat, sheet).is_some() {
                        return None;
                    }
                }
                Seat::Gm => npcs.push(sheet),
            }
        }
        let seats: Vec<Seat> = sheets.keys().copied().collect();
        let seating: Vec<String> = setup
            .parties
            .iter()
            .map(|p| match p.seat {
                Seat::Gm => p.name.clone(),
                seat => seat.to_string(),
            })
            .collect();
        let options = json!({
            "blanks": setup.blanks,
            "reactions": setup.reactions.unwrap_or(crate::state::Asking::Every),
            "seating": seating,
        });
        Some(ReadyMade {
            choices: ReadyMade::choices_for(&seats, options)?,
            sheets,
            npcs,
        })
    }

    fn chosen_name(choices: &TableChoices, seat: Seat) -> Option<String> {
        let opts = options(choices).ok()?;
        let name = opts.names.get(&seat)?.trim();
        (!name.is_empty()).then(|| name.to_string())
    }

    fn check_sheet(sheet: &Value, maker: Maker) -> Vec<FieldError> {
        sheet_problems(sheet, maker)
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
            // S4: the sheet's Reserve is drawn as the Conflict starts; a ready-made party says
            // itself how many cards it draws.
            for (k, c) in party.characters.iter_mut().enumerate() {
                if sheet["characters"][k].get("reserve_unseen").is_some() {
                    continue;
                }
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
        // D-21: a ready-made seating is kept; the sort is stable, so the rest keep theirs.
        let place = |p: &PartySetup| {
            let key = match p.seat {
                Seat::Gm => p.name.clone(),
                seat => seat.to_string(),
            };
            opts.seating
                .iter()
                .position(|s| *s == key)
                .unwrap_or(usize::MAX)
        };
        parties.sort_by_key(place);
        let setup = Setup {
            parties,
            blanks: opts.blanks,
            position: None,
            reactions: Some(opts.reactions.unwrap_or(crate::state::Asking::OwnCards)),
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

    #[test]
    fn ready_made_setups_open_in_session_zero_and_start_unchanged() {
        // Issue 38: a ready-made table goes through session zero (seats to add or remove,
        // sheets to review) and starts, untouched, as the preset would have.
        let held = clash_core::testkit::ready_made_presets_start_as_they_are::<NdTourists>();
        assert_eq!(held, 1);
    }

    fn at(problems: &[FieldError]) -> Vec<(&str, Option<&str>)> {
        problems
            .iter()
            .map(|p| (p.field.as_str(), p.rule))
            .collect()
    }

    #[test]
    fn nd_5_the_table_form_names_the_players_parties() {
        let choices = |names: Value| TableChoices {
            players: 3,
            options: json!({"blanks": false, "names": names}),
            removed: Vec::new(),
        };
        let named = choices(json!({"p1": "TMDF", "p3": " US "}));
        assert_eq!(NdTourists::check_table(&named), vec![]);
        let name = |seat| NdTourists::chosen_name(&named, seat);
        assert_eq!(name(Seat::Player(1)).as_deref(), Some("TMDF"));
        assert_eq!(name(Seat::Player(2)), None);
        assert_eq!(name(Seat::Player(3)).as_deref(), Some("US"));
        // ND-5: two parties never share a name; a seat the table does not have is refused.
        let twice = choices(json!({"p1": "TMDF", "p2": "tmdf", "p4": "ANN"}));
        assert_eq!(
            at(&NdTourists::check_table(&twice)),
            [
                ("options.names.p2", Some("ND-5")),
                ("options.names.p4", None)
            ]
        );
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
            removed: Vec::new(),
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
