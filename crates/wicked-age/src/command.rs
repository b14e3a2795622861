//! What a seat sends ([`Command`]) and what happens ([`Event`]). Dice outcomes are inside the
//! events, so replay never rolls.

use clash_core::Seat;
use serde::{Deserialize, Serialize};

use crate::character::FormRef;
use crate::conflict::{EndReason, KnockoutCause};
use crate::consequence::{Alternative, DefaultConsequence, LossCause};
use crate::dice::Die;
use crate::owe::OweEntry;
use crate::roll::{Outcome, Roll, RollChoice};

/// Everything a seat can ask for. Unknown fields are refused.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "wicked-age/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// WA-19: an action is interfered with; these characters enter a conflict.
    StartConflict {
        participants: Vec<String>,
        #[serde(default)]
        action: String,
    },
    /// WA-17.3: cross off an entry of `entry` (a character you control) for `pc`'s Owe d6.
    CashInOwe { pc: String, entry: String },
    /// WA-22: roll initiative with the chosen forms (and strength).
    RollInitiative {
        character: String,
        #[serde(flatten)]
        choice: RollChoice,
    },
    /// WA-23: challenge `target`. The first participant gives no forms: their initiative
    /// roll stands.
    Challenge {
        character: String,
        target: String,
        #[serde(flatten)]
        choice: RollChoice,
    },
    /// WA-23: answer the challenge aimed at `character`.
    Answer {
        character: String,
        #[serde(flatten)]
        choice: RollChoice,
    },
    /// WA-25: concede to a named opponent (start of round 2 or 3).
    Concede { character: String, to: String },
    /// WA-25: offer to end the conflict on these terms (start of round 2 or 3).
    ProposeEnd { character: String, terms: String },
    /// WA-25: agree to the proposed ending.
    AgreeEnd { character: String },
    /// WA-27: the winner picks a default consequence for `loser`.
    ChooseConsequence {
        loser: String,
        consequence: DefaultConsequence,
        #[serde(default)]
        waive_consequential: bool,
    },
    /// WA-27: the winner offers an alternative consequence.
    ProposeAlternative {
        loser: String,
        #[serde(flatten)]
        alternative: Alternative,
    },
    /// WA-27: the loser accepts the alternative offered.
    AcceptAlternative { loser: String },
    /// WA-27: the loser refuses; the winner must pick a default.
    RefuseAlternative { loser: String },
    /// WA-17.1: the GM ends the chapter.
    EndChapter {},
    /// WA-17.1: the claiming player picks the next Oracle and a story element.
    ChooseOracle {
        oracle: String,
        story_element: String,
    },
    /// WA-17.2: cross off an entry to bring `character` back in a later chapter.
    BringBack { character: String },
}

/// Everything that can happen. Dice outcomes are inside the events, so replay never rolls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    ConflictStarted {
        participants: Vec<String>,
        action: String,
    },
    OweCashedIn {
        pc: String,
        entry: OweEntry,
        position: usize,
    },
    InitiativeRolled {
        character: String,
        choice: RollChoice,
        roll: Roll,
    },
    InitiativeTieRerolled {
        character: String,
        roll: Roll,
    },
    /// Initiative order, highest first; `standing` is the first participant's challenge.
    InitiativeOrdered {
        order: Vec<String>,
        standing: Roll,
    },
    Challenged {
        challenger: String,
        target: String,
        roll: Roll,
        standing: bool,
    },
    Answered {
        answerer: String,
        challenger: String,
        roll: Roll,
        outcome: Outcome,
    },
    AdvantageTaken {
        by: String,
        from: Option<String>,
    },
    AdvantageDropped {
        from: String,
    },
    KnockedOut {
        loser: String,
        winner: String,
        cause: KnockoutCause,
    },
    EndProposed {
        character: String,
        terms: String,
    },
    EndAgreed {
        character: String,
    },
    RoundEnded {
        round: u8,
    },
    OweEntryAdded {
        entry: OweEntry,
        bigger_dice: String,
    },
    RoundStarted {
        round: u8,
    },
    ConflictEnded {
        reason: EndReason,
    },
    ConsequenceChosen {
        winner: String,
        loser: String,
        consequence: DefaultConsequence,
    },
    AlternativeProposed {
        winner: String,
        loser: String,
        alternative: Alternative,
    },
    AlternativeRefused {
        loser: String,
    },
    AlternativeAccepted {
        loser: String,
    },
    FormLost {
        character: String,
        form: FormRef,
        from: Vec<Die>,
        to: Vec<Die>,
        cause: LossCause,
    },
    StrengthLost {
        character: String,
        strength: String,
        from: Die,
        to: Die,
    },
    Died {
        character: String,
    },
    OutOfChapter {
        character: String,
    },
    PairSettled {
        winner: String,
        loser: String,
    },
    ConflictClosed,
    ChapterEnded {
        chapter: u32,
    },
    OracleClaimed {
        chapter: u32,
        entry: OweEntry,
    },
    OracleChosen {
        player: Seat,
        oracle: String,
        story_element: String,
    },
    BroughtBack {
        character: String,
        by: Seat,
        position: usize,
    },
}
