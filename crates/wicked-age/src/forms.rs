//! In A Wicked Age made by form: the cast of a chapter, each player's PC made from its invite
//! link and the GM's NPCs, checked field by field for the page's forms and assembled into a
//! setup at the end of session zero (see [`clash_core::session_zero`]).
//!
//! * The table: how many players (one PC each) and the chapter the story is at.
//! * A player's sheet is a new PC (WA-2 … WA-5, WA-9): the six forms dealt exactly d12, d10,
//!   d8, d6, d6 and d4, at least two Best Interests, and Particular Strengths each with one
//!   significance. It carries no losses yet.
//! * The GM's NPC sheets have the three forms dealt the pairs d12+d8, d10+d6 and d6+d4 (WA-6)
//!   and may carry sizes lost in earlier chapters.
//! * Across sheets, the start checks that names differ and that a unique strength is on one
//!   sheet only (WA-9).
//!
//! A sheet made by form has no seat: the seat it is handed in from gives one.

use clash_core::session_zero::{FieldError, Forms, Maker, ReadyMade, SessionZero, TableChoices};
use clash_core::{RuleError, Ruleset, Seat};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::character::{CharacterSpec, Kind};
use crate::state::Setup;
use crate::{WickedAge, limits};

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct TableOptions {
    /// The chapter the story is at (1 for a new one).
    chapter: Option<u32>,
}

fn options(choices: &TableChoices) -> Result<TableOptions, FieldError> {
    TableOptions::deserialize(&choices.options()).map_err(|e| {
        FieldError::malformed(
            "options",
            format!("not In A Wicked Age's table choices: {e}"),
        )
    })
}

/// A sheet from a form or a file, with the seat `maker` gives it (a player's PC sits at a
/// player's seat, the GM's NPC at none).
fn read_sheet(sheet: &Value, maker: Maker) -> Result<CharacterSpec, FieldError> {
    let Value::Object(fields) = sheet else {
        return Err(FieldError::malformed(
            "",
            "a character sheet is a set of fields",
        ));
    };
    let mut fields = fields.clone();
    match maker {
        Maker::Player => fields.insert("seat".into(), json!(Seat::Player(1))),
        Maker::Gm => fields.remove("seat"),
    };
    CharacterSpec::deserialize(&Value::Object(fields)).map_err(|e| {
        FieldError::malformed("", format!("not an In A Wicked Age character sheet: {e}"))
    })
}

/// Every problem of a sheet as made for `maker`.
pub fn sheet_problems(sheet: &Value, maker: Maker) -> Vec<FieldError> {
    let spec = match read_sheet(sheet, maker) {
        Ok(s) => s,
        Err(e) => return vec![e],
    };
    let mut out = Vec::new();
    match (maker, spec.kind) {
        (Maker::Player, Kind::Npc) => out.push(FieldError::at(
            "kind",
            &RuleError::setup("WA-2", "a player's character is a PC, with six forms"),
        )),
        (Maker::Gm, Kind::Pc) => out.push(FieldError::at(
            "kind",
            &RuleError::setup(
                "WA-6",
                "the GM's characters are NPCs, with three forms of two dice",
            ),
        )),
        _ => {}
    }
    if maker == Maker::Player && (!spec.losses.is_empty() || spec.status.is_some()) {
        out.push(FieldError::at(
            "losses",
            &RuleError::setup(
                "WA-2",
                "a new PC is dealt its dice fresh: it has lost no sizes yet",
            ),
        ));
    }
    if !out.is_empty() {
        return out;
    }
    spec.problems()
}

fn table_problems(choices: &TableChoices) -> Vec<FieldError> {
    let mut out = Vec::new();
    if usize::from(choices.players) > limits::MAX_PARTICIPANTS {
        out.push(FieldError::at(
            "players",
            &RuleError::setup(
                limits::LIMIT,
                format!(
                    "at most {} players (a table limit)",
                    limits::MAX_PARTICIPANTS
                ),
            ),
        ));
    }
    match options(choices) {
        Ok(o) => {
            if let Some(n) = o.chapter
                && (n == 0 || n > limits::MAX_CHAPTER)
            {
                out.push(FieldError::at(
                    "options.chapter",
                    &RuleError::setup(
                        limits::LIMIT,
                        format!("chapters are numbered 1 to {}", limits::MAX_CHAPTER),
                    ),
                ));
            }
        }
        Err(e) => out.push(e),
    }
    out
}

impl SessionZero for WickedAge {
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
        let opts = options(choices).map_err(|e| RuleError::setup("WA-19", e.message))?;
        let sheets = pcs
            .iter()
            .map(|(seat, s)| (Some(*seat), s, Maker::Player))
            .chain(npcs.iter().map(|s| (None, s, Maker::Gm)));
        let mut characters = Vec::new();
        for (seat, sheet, maker) in sheets {
            let mut spec =
                read_sheet(sheet, maker).map_err(|e| RuleError::setup("WA-2", e.message))?;
            spec.seat = seat;
            characters.push(spec);
        }
        let setup = Setup {
            characters,
            owe_list: Vec::new(),
            chapter: opts.chapter.unwrap_or(1),
            conflict: None,
            oracle: None,
            returning: Vec::new(),
            variant: None,
        };
        WickedAge::setup(&setup)?;
        Ok(setup)
    }

    /// A ready-made story at a chapter's start (no conflict, Owe List, Oracle or returning
    /// characters): each seat's one PC as its sheet, the NPCs as the GM's, the chapter as the
    /// table's choice.
    fn disassemble(setup: &Setup) -> Option<ReadyMade> {
        let fresh = setup.conflict.is_none()
            && setup.owe_list.is_empty()
            && setup.oracle.is_none()
            && setup.returning.is_empty();
        if !fresh {
            return None;
        }
        let mut sheets = std::collections::BTreeMap::new();
        let mut npcs = Vec::new();
        for c in &setup.characters {
            let mut sheet = serde_json::to_value(c).ok()?;
            sheet.as_object_mut()?.remove("seat");
            match c.seat {
                Some(seat @ Seat::Player(_)) => {
                    if sheets.insert(seat, sheet).is_some() {
                        return None;
                    }
                }
                _ => npcs.push(sheet),
            }
        }
        let seats: Vec<Seat> = sheets.keys().copied().collect();
        Some(ReadyMade {
            choices: ReadyMade::choices_for(&seats, json!({"chapter": setup.chapter}))?,
            sheets,
            npcs,
        })
    }

    fn example_sheet(maker: Maker, n: usize) -> Value {
        match maker {
            Maker::Player => json!({
                "name": format!("Wanderer {n}"),
                "kind": "pc",
                "description": "A stranger on the road",
                "forms": {
                    "covertly": 6, "directly": 4, "for_myself": 8,
                    "for_others": 6, "with_love": 12, "with_violence": 10
                },
                "strengths": [{
                    "name": format!("Quick Hands {n}"),
                    "pc_form": "covertly",
                    "npc_form": "maneuvering",
                    "significance": [{"type": "potent"}]
                }],
                "best_interests": ["Get home alive", "Learn who sent the letter"]
            }),
            Maker::Gm => json!({
                "name": format!("Bandit {n}"),
                "kind": "npc",
                "forms": {"action": [12, 8], "maneuvering": [10, 6], "self_protection": [6, 4]},
                "best_interests": ["Take the toll"]
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
        let held = clash_core::testkit::ready_made_presets_start_as_they_are::<WickedAge>();
        assert_eq!(held, 1);
    }

    fn ysolde() -> Value {
        json!({
            "name": "Ysolde",
            "kind": "pc",
            "forms": {"covertly": 6, "directly": 4, "for_myself": 8, "for_others": 6, "with_love": 12, "with_violence": 10},
            "strengths": [{"name": "Hidden Blade", "pc_form": "covertly", "npc_form": "maneuvering",
                "significance": [{"type": "consequential", "pc_form": "with_violence", "npc_form": "action"}]}],
            "best_interests": ["Find the child of the river", "Make the Khan pay"]
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
            let sheet = WickedAge::example_sheet(maker, 2);
            assert_eq!(WickedAge::check_sheet(&sheet, maker), vec![]);
        }
        assert_eq!(sheet_problems(&ysolde(), Maker::Player), vec![]);
    }

    #[test]
    fn wa_2_the_forms_are_dealt_the_creation_dice() {
        let mut s = ysolde();
        s["forms"]["directly"] = json!(12);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("forms", Some("WA-2"))]
        ); // WA-2: two d12s
    }

    #[test]
    fn wa_5_two_best_interests_and_wa_9_one_significance() {
        let mut s = ysolde();
        s["best_interests"] = json!(["Only one", " "]);
        s["strengths"][0]["significance"] = json!([{"type": "potent"}, {"type": "unique"}]);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [
                ("best_interests", Some("WA-5")),
                ("strengths.0", Some("WA-9"))
            ]
        ); // WA-5, WA-9: both at once
    }

    #[test]
    fn wa_6_the_gm_makes_npcs_and_players_make_pcs() {
        let npc = WickedAge::example_sheet(Maker::Gm, 1);
        assert_eq!(
            at(&sheet_problems(&npc, Maker::Player)),
            [("kind", Some("WA-2"))]
        );
        assert_eq!(
            at(&sheet_problems(&ysolde(), Maker::Gm)),
            [("kind", Some("WA-6"))]
        );
        let mut npc = npc;
        npc["forms"]["action"] = json!([12, 10]);
        assert_eq!(
            at(&sheet_problems(&npc, Maker::Gm)),
            [("forms", Some("WA-6"))]
        ); // WA-6
        npc["forms"]["action"] = json!([12, 8]);
        npc["losses"] = json!(["action"]);
        assert_eq!(sheet_problems(&npc, Maker::Gm), vec![]); // an NPC from an earlier chapter
    }

    #[test]
    fn a_new_pc_has_lost_nothing() {
        let mut s = ysolde();
        s["losses"] = json!(["covertly"]);
        assert_eq!(
            at(&sheet_problems(&s, Maker::Player)),
            [("losses", Some("WA-2"))]
        );
    }

    #[test]
    fn wa_9_a_unique_strength_is_on_one_sheet_when_play_starts() {
        let mut a = ysolde();
        a["strengths"][0]["significance"] = json!([{"type": "unique"}]);
        let mut b = a.clone();
        b["name"] = json!("Oren");
        let choices = TableChoices {
            players: 2,
            options: json!({"chapter": 2}),
            removed: Vec::new(),
        };
        let pcs = vec![(Seat::Player(1), a.clone()), (Seat::Player(2), b)];
        let refused = WickedAge::assemble(&choices, &pcs, &[]).unwrap_err();
        assert_eq!(refused.rule(), Some("WA-9")); // WA-9: unique
        let mut c = WickedAge::example_sheet(Maker::Player, 2);
        c["name"] = json!("Oren");
        let pcs = vec![(Seat::Player(1), a), (Seat::Player(2), c)];
        let npcs = vec![WickedAge::example_sheet(Maker::Gm, 1)];
        let setup = WickedAge::assemble(&choices, &pcs, &npcs).expect("valid");
        let state = WickedAge::setup(&setup).expect("starts");
        assert_eq!(state.chapter, 2);
        assert_eq!(
            WickedAge::seats(&state),
            [Seat::Gm, Seat::Player(1), Seat::Player(2)]
        );
    }

    #[test]
    fn the_chapter_is_numbered_from_one() {
        let choices = TableChoices {
            players: 1,
            options: json!({"chapter": 0}),
            removed: Vec::new(),
        };
        assert_eq!(
            at(&WickedAge::check_table(&choices)),
            [("options.chapter", Some(limits::LIMIT))]
        );
    }
}
