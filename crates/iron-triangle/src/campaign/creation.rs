//! Making characters during play: a player creates its own PC and the GM creates NPCs
//! (IT-1, IT-9 … IT-12, validated by [`CharacterSheet::build`]); a player whose PC died creates
//! a replacement (IT-66, D-33); anyone renames their own moves for free (IT-7).
//!
//! A player's character goes through the GM as in session zero (issue 38): checked against the
//! rules, it is handed in; the GM keeps it (checked again, since the table may have moved on:
//! a name taken meanwhile) or sends it back with a comment, and the player may hand in another.

use std::sync::LazyLock;

use clash_core::{RuleError, Seat};

use super::{
    CampaignCommand, CampaignEvent, HandedIn, Replacement, controlled, non_empty, pc_of,
    require_gm, require_player,
};
use crate::Table;
use crate::character::{Character, CharacterSheet, KnownMove, STARTING_MOVES};
use crate::moves::Move;

/// The most a replacement may start at (IT-66).
pub const MAX_REPLACEMENT_LEVEL: u32 = 5;

/// A creation check failure is an illegal command naming the same rule.
fn as_command_error(e: RuleError) -> RuleError {
    match e {
        RuleError::InvalidSetup { rule, reason } => RuleError::illegal(rule, reason),
        other => other,
    }
}

fn check_name_free(table: &Table, name: &str) -> Result<(), RuleError> {
    if table.characters.len() >= crate::limits::MAX_CHARACTERS {
        return Err(RuleError::illegal(
            "IT-1",
            format!(
                "a table holds at most {} characters",
                crate::limits::MAX_CHARACTERS
            ),
        ));
    }
    if table.character(name.trim()).is_some() {
        return Err(RuleError::illegal(
            "IT-7",
            format!(
                "a character called {} already exists",
                crate::limits::shown(name.trim())
            ),
        ));
    }
    Ok(())
}

/// A player's new PC: its own seat, a brand-new sheet, and no other living PC (IT-1).
fn check_new_pc(table: &Table, seat: Seat, sheet: &CharacterSheet) -> Result<(), RuleError> {
    require_player(table, seat, "IT-1")?;
    if sheet.controller != seat {
        return Err(RuleError::not_your_call(
            "IT-1",
            seat,
            format!(
                "a player creates only its own PC, not one for {}",
                table.seat_name(sheet.controller)
            ),
        ));
    }
    if sheet.established {
        return Err(RuleError::illegal(
            "IT-9",
            "a new PC starts at level 0: it cannot be an established sheet",
        ));
    }
    if let Some(pc) = pc_of(table, seat) {
        return Err(RuleError::illegal(
            "IT-1",
            format!("you already play {}; each player controls one PC", pc.name),
        ));
    }
    Ok(())
}

/// The GM's NPC joins at once; a player's PC is handed in for the GM's review.
pub fn create(
    table: &Table,
    seat: Seat,
    sheet: &CharacterSheet,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let made = made(table, seat, sheet)?;
    match seat {
        Seat::Gm => Ok(made),
        _ => handed_in(table, seat, sheet, None, 0),
    }
}

/// A player's character handed in; a changed one takes the place of one handed in before.
fn handed_in(
    table: &Table,
    seat: Seat,
    sheet: &CharacterSheet,
    replaces: Option<&str>,
    level: u32,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let handed_in = HandedIn {
        seat,
        sheet: sheet.clone(),
        replaces: replaces.map(str::to_string),
        level,
    };
    if table.campaign.handed_in.contains(&handed_in) {
        return Err(RuleError::illegal(
            "IT-1",
            format!(
                "{} is handed in already: the GM keeps it or sends it back",
                sheet.name.trim()
            ),
        ));
    }
    Ok(vec![CampaignEvent::CharacterHandedIn {
        handed_in: Box::new(handed_in),
    }])
}

/// A new character checked against the rules, as the event that brings it to the table.
fn made(
    table: &Table,
    seat: Seat,
    sheet: &CharacterSheet,
) -> Result<Vec<CampaignEvent>, RuleError> {
    if seat == Seat::Gm {
        if sheet.controller != Seat::Gm {
            return Err(RuleError::not_your_call(
                "IT-1",
                seat,
                "the GM creates NPCs; each player creates its own PC",
            ));
        }
    } else {
        check_new_pc(table, seat, sheet)?;
    }
    check_name_free(table, &sheet.name)?;
    if !sheet.state.is_fresh() {
        return Err(RuleError::illegal(
            "IT-9",
            "a new character is alive, with fresh specials and no ban",
        ));
    }
    let character = sheet.build_under(&table.rules).map_err(as_command_error)?;
    Ok(vec![CampaignEvent::CharacterCreated {
        character: Box::new(character),
    }])
}

/// A replacement continuing a dead PC's tradition (IT-66): built at level 0, then each of its
/// `level` level-ups is resolved with `level_up` commands before it plays.
pub fn replacement(
    table: &Table,
    seat: Seat,
    sheet: &CharacterSheet,
    replaces: &str,
    level: u32,
) -> Result<Vec<CampaignEvent>, RuleError> {
    replacement_made(table, seat, sheet, replaces, level)?;
    handed_in(table, seat, sheet, Some(replaces), level)
}

/// The character `whose` player handed in.
fn held(table: &Table, whose: Seat) -> Result<&HandedIn, RuleError> {
    table
        .campaign
        .handed_in
        .iter()
        .find(|h| h.seat == whose)
        .ok_or_else(|| {
            RuleError::illegal(
                "IT-1",
                format!(
                    "{} has handed in no character to review",
                    table.seat_name(whose)
                ),
            )
        })
}

/// The GM keeps a handed-in character: checked again, it joins the table.
pub fn keep(table: &Table, seat: Seat, whose: Seat) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-1", "keeps a player's character")?;
    let h = held(table, whose)?;
    match &h.replaces {
        None => made(table, whose, &h.sheet),
        Some(dead) => replacement_made(table, whose, &h.sheet, dead, h.level),
    }
}

/// The GM sends a handed-in character back to its player with a comment.
pub fn send_back(
    table: &Table,
    seat: Seat,
    whose: Seat,
    comment: &str,
) -> Result<Vec<CampaignEvent>, RuleError> {
    require_gm(seat, "IT-1", "sends a player's character back")?;
    let h = held(table, whose)?;
    non_empty(comment, "IT-1", "the comment")?;
    crate::limits::text(comment, "IT-1", "the comment")?;
    Ok(vec![CampaignEvent::CharacterSentBack {
        seat: whose,
        name: h.sheet.name.trim().to_string(),
        comment: comment.trim().to_string(),
    }])
}

/// Fold in a character made, handed in or sent back.
pub fn apply(table: &mut Table, event: &CampaignEvent) {
    let handed = &mut table.campaign.handed_in;
    match event {
        CampaignEvent::CharacterCreated { character } => {
            handed.retain(|h| h.seat != character.controller);
            table.characters.push((**character).clone());
        }
        CampaignEvent::ReplacementCreated { character, .. } => {
            handed.retain(|h| h.seat != character.controller);
            apply_replacement(table, event);
        }
        CampaignEvent::CharacterHandedIn { handed_in } => {
            // A second hand-in takes the place of the first.
            handed.retain(|h| h.seat != handed_in.seat);
            handed.push((**handed_in).clone());
        }
        CampaignEvent::CharacterSentBack { seat, .. } => handed.retain(|h| h.seat != *seat),
        _ => {}
    }
}

fn replacement_made(
    table: &Table,
    seat: Seat,
    sheet: &CharacterSheet,
    replaces: &str,
    level: u32,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let dead = table.find(replaces, "IT-66")?;
    if !dead.is_pc() || !dead.dead {
        return Err(RuleError::illegal(
            "IT-66",
            format!("{replaces} is not a dead PC"),
        ));
    }
    if dead.controller != seat {
        return Err(RuleError::not_your_call(
            "IT-66",
            seat,
            format!("{replaces} was another player's PC"),
        ));
    }
    check_new_pc(table, seat, sheet)?;
    let cap = MAX_REPLACEMENT_LEVEL.min(dead.level);
    if level > cap {
        return Err(RuleError::illegal(
            "IT-66",
            format!("a replacement for {replaces} starts at level {cap} at most, not {level}"),
        ));
    }
    check_name_free(table, &sheet.name)?;
    let character = sheet.build_under(&table.rules).map_err(as_command_error)?;
    let offered = tradition_size(dead, &character);
    if level > offered {
        return Err(RuleError::illegal(
            "D-33",
            format!(
                "{replaces}'s moves and combos offer only {offered} level-ups to {}",
                character.name
            ),
        ));
    }
    Ok(vec![CampaignEvent::ReplacementCreated {
        character: Box::new(character),
        replaces: dead.name.clone(),
        level,
        moves: dead.moves.clone(),
        combos: dead.combos.clone(),
    }])
}

/// How many level-ups the dead PC's tradition can fill (D-33): one per move the new PC does not
/// know yet, plus one per combo followup (each is a possible single edit). Learning the moves
/// first always works: a dead PC knowing an advanced move knew all nine basic ones (IT-8), and
/// its followups were known moves (D-5).
fn tradition_size(dead: &Character, new: &Character) -> u32 {
    let moves = dead.moves.iter().filter(|k| !new.knows(k.mv)).count();
    let followups: usize = dead.combos.iter().map(|c| c.followups.len()).sum();
    u32::try_from(moves + followups).unwrap_or(u32::MAX)
}

fn apply_replacement(table: &mut Table, event: &CampaignEvent) {
    if let CampaignEvent::ReplacementCreated {
        character,
        replaces,
        level,
        moves,
        combos,
    } = event
    {
        table.characters.push((**character).clone());
        if *level > 0 {
            table.campaign.replacements.push(Replacement {
                character: character.name.clone(),
                replaces: replaces.clone(),
                levels_left: *level,
                moves: moves.clone(),
                combos: combos.clone(),
            });
        }
    }
}

/// Renaming a move is free, at any time (IT-7).
pub fn rename(
    table: &Table,
    seat: Seat,
    character: &str,
    mv: Move,
    name: &str,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let c = controlled(table, seat, character, "IT-7")?;
    if !c.knows(mv) {
        return Err(RuleError::illegal(
            "IT-7",
            format!("{character} does not know {mv}"),
        ));
    }
    non_empty(name, "IT-7", "a move's name")?;
    crate::limits::name(name, "IT-7", "a move's name")?;
    if c.move_name(mv) == Some(name.trim()) {
        return Err(RuleError::illegal(
            "IT-7",
            format!(
                "{character}'s {mv} is already called {}",
                crate::limits::shown(name.trim())
            ),
        ));
    }
    Ok(vec![CampaignEvent::MoveRenamed {
        character: c.name.clone(),
        controller: c.controller,
        mv,
        name: name.trim().to_string(),
    }])
}

pub fn apply_rename(table: &mut Table, character: &str, mv: Move, name: &str) {
    if let Some(k) = table
        .character_mut(character)
        .and_then(|c| c.moves.iter_mut().find(|k| k.mv == mv))
    {
        k.name = name.into();
    }
}

/// A standard starting sheet for `seat`, used to offer creation in `legal_commands`. Every
/// page of a table asks for it, so the sheet is read once and only its name and seat change.
fn starter(seat: Seat, name: String) -> Option<CharacterSheet> {
    static STARTER: LazyLock<Option<CharacterSheet>> = LazyLock::new(|| {
        let moves: Vec<KnownMove> = STARTING_MOVES
            .iter()
            .map(|m| KnownMove {
                mv: *m,
                name: m.to_string().into(),
            })
            .collect();
        serde_json::from_value(serde_json::json!({
            "name": "Hero", "controller": Seat::Player(1),
            "energy": {"defend": 3, "grapple": 3, "attack": 4},
            "backgrounds": [{"name": "Wanderer", "points": 2}, {"name": "Scholar", "points": 1}],
            "belief": "Belief", "flaw": "Flaw", "goal": "Goal",
            "moves": moves,
        }))
        .ok()
    });
    let mut sheet = STARTER.as_ref()?.clone();
    sheet.name = name;
    sheet.controller = seat;
    Some(sheet)
}

pub fn candidates(table: &Table, seat: Seat, out: &mut Vec<CampaignCommand>) {
    let n = table.characters.len() + 1;
    if seat == Seat::Gm {
        for h in &table.campaign.handed_in {
            out.push(CampaignCommand::KeepCharacter { seat: h.seat });
            out.push(CampaignCommand::SendBackCharacter {
                seat: h.seat,
                comment: "Please look at this again.".into(),
            });
        }
    }
    if seat != Seat::Gm {
        if let Some(sheet) = starter(seat, format!("Hero {n}")) {
            out.push(CampaignCommand::CreateCharacter {
                sheet: Box::new(sheet),
            });
        }
        for dead in table
            .characters
            .iter()
            .filter(|c| c.dead && c.controller == seat)
        {
            for level in 0..=MAX_REPLACEMENT_LEVEL.min(dead.level) {
                if let Some(sheet) = starter(seat, format!("Heir {n}")) {
                    out.push(CampaignCommand::CreateReplacement {
                        sheet: Box::new(sheet),
                        replaces: dead.name.clone(),
                        level,
                    });
                }
            }
        }
    }
    // One rename per character is enough to show the option (names are free text).
    for c in table.characters.iter().filter(|c| c.controller == seat) {
        if let Some(k) = c.moves.first() {
            out.push(CampaignCommand::RenameMove {
                character: c.name.clone(),
                mv: k.mv,
                name: format!("{} II", k.name),
            });
        }
    }
}
