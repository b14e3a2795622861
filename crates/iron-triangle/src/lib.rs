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
//!
//! # The conflict state machine
//! A conflict ([`conflict::Conflict`]) moves through [`conflict::Phase`]s:
//! - **Forming.** The GM's `start_conflict` sets the stakes, lethality, minor-ness and the NPCs
//!   (IT-22, IT-23). Every living PC that may enter answers (`join_conflict`, or `sit_out` of a
//!   lesser conflict); PCs at 0 total energy or under a Drunken Monkey ban are barred. When all
//!   have answered and one joined, the fight begins.
//! - **PickActive.** The players pick the first active character (IT-25, D-13); later the
//!   winner's controller picks from the winner's side, the GM after a tie (IT-26, D-9).
//! - **Turn** ([`conflict::Step`], one special window each, IT-55, D-34): `pick_opponent` (W1)
//!   → both `take_stance` in secret (W2), revealed together → both `play_move` in secret (W3),
//!   revealed together → W4 if a Drunken Monkey is active → face-down specials revealed, W5 for
//!   idle characters → resolution (IT-48 … IT-51) → **Settling**: `split_loss` / `split_gain`
//!   only where a split is a real choice → the turn ends (piles, chain, outs, deaths).
//! - **Mercy** after a surrender in a lethal conflict: the opponent's controller kills or spares.
//! - **Ended**: one side is all out (IT-27), the minor conflict's one turn is over (IT-29), or
//!   the GM settled it. The ended conflict stays in [`Table::conflict`] with its outcome until the
//!   next one starts ([`conflict::Conflict::is_running`]).
//!
//! Interpretations where the spec is silent (conflicts):
//! - Lethality is the players' declared intent in `start_conflict`; each `join_conflict` is that
//!   player's agreement, and any player's `refuse_lethal` makes the conflict lesser (IT-23).
//! - The GM's `settle_conflict` is accepted while forming, while the first pick is pending (the
//!   players stall, D-13), or when a Samurai at 0 energy is in (D-11); it names no winner and
//!   kills nobody but Samurai users. The GM may also make the first pick (D-13).
//! - Sides are the PCs and the NPCs. Barred and sat-out PCs share their side's result.
//! - IT-27's narration is `narrate_conflict`, accepted once a side has won from any player with
//!   a character on that side, and from the GM (who settles disputes); the latest one stands.
//! - Equal turns (IT-26): continuing as the previous turn's active character is always allowed
//!   (it adds no turn, D-8); the "all agree otherwise" override is not modelled; the GM's picks
//!   are not bound; a character capped by IT-46 is left out before finding the fewest.
//! - A participant's W1/W2/W3 window closes when it commits (opponent, stance, move); answering a
//!   special means playing one before committing. W4 opens only while a participant has an
//!   active Drunken Monkey (public), for both participants. W5 asks every idle NPC (so that
//!   opening it reveals nothing hidden) and each idle PC that could play there. Each asked
//!   character passes or plays; playing closes its window.
//! - To Blave is face down (revealed at W5) when played at W3, otherwise revealed at once; it
//!   may be played in any window of another known special (Liquid Metal counts as all).
//! - Scouter and There Can Be Only One at W2 target this turn's opponent.
//! - Special effects on a turn's losses apply in list order, so the one lower on the list has
//!   the last word (IT-57): Wax On, then Yojimbo (it takes what the protected participant would
//!   actually have lost), then Dig Two Graves (the user's final loss, so 0 if protected; a
//!   Yojimbo on the mirror's target takes the mirror too); Pressure Point only chooses the split
//!   of what is left (TV-10).
//! - Identical specials clash (D-31) when both participants play the same variation in one turn
//!   (checked at once for face-up ones, at the W5 reveal for face-down ones), or two Yojimbos
//!   protect the same participant; Scouter and To Blave act on nobody and never clash.
//!   Cancelled specials' immediate effects are undone.
//! - A Samurai with no available move gets its face-up cards back (D-11), and if I Already Know
//!   still leaves nothing, the restriction is ignored for it.
//! - A surrender turn reveals no face-down special; they stay spent. A minor conflict ends after
//!   its turn even if nobody went out; a surrender there gives the win to the other side.
//! - In a lethal conflict any character (PC or NPC) that goes out at 0 dies; Samurai users die
//!   when the conflict ends, lethal or not.
//! - A chain whose loser goes out stays live until the next opponent is picked (necessarily
//!   someone else) or the active character ends it (IT-43); its cards stay unavailable until
//!   then, and a character that has just won three times in it must pass (IT-46) even though
//!   nobody can continue against that loser. At three wins with no teammate left in, the chain
//!   ends (D-7). A chain also ends with the conflict (IT-45).
//! - Wax On (X) stops the winner's stance × multiplier; the breakdown records the amount it
//!   stopped, and is marked as waxed only when that amount was more than 0.
//! - A zero mark is set when a type goes from above 0 to 0 through a conflict loss (D-17).
//! - Drunken Monkey's ban is set when it is activated and lifted at the end of the next conflict
//!   the character was barred from; the swap's candidates are the available moves other than
//!   the revealed one (labelled by move code for scripted randomness).
//! - The GM sees NPC sheets but never the players' secret choices; `reveal_npc` makes an NPC's
//!   moves, combos and specials public for good.
//!
//! # The campaign state machine
//! Outside conflicts the table moves through these states ([`campaign::Campaign`]):
//! - **Play.** Players create their own PCs and the GM creates NPCs (`create_character`, checked
//!   by [`CharacterSheet::build`]: IT-9 … IT-12). A player's PC (or replacement, IT-66) is
//!   handed in and joins when the GM keeps it (`keep_character`), or goes back to its player
//!   with a comment (`send_back_character`), as in session zero. Anyone renames their own moves
//!   (IT-7). The GM
//!   creates, marks (one box per command), narrates (when full) and erases countdowns
//!   (IT-13, IT-14). One problem at a time may be open.
//! - **Problem** ([`campaign::Stage`]): `choosing` — every player with a living PC commits a
//!   hidden pick (`choose_option` with a trait for options 3/4, or `pass_problem`); the
//!   command completing the set also emits the reveal and the decider (IT-2, IT-17). Then
//!   `decider_tied` (equal option and equal recency: the GM's `pick_decider`, D-21) →
//!   `narrating` (the decider's `narrate_outcome`, which pays: IT-18) → `narrated` (veto window;
//!   the GM's `reject_narration` voids the outcome and the next-highest pick decides, IT-19; the
//!   GM's `close_problem` moves play on and closes the window, IT-21).
//! - **Veto** (IT-21, D-22): in `narrated`, another player's `veto` spends their veto, voids the
//!   outcome exactly (point, trait mark, Q1 and recency restored) and makes them the decider of
//!   a substitute option 1 or 2, back in `narrating`. No veto of a veto once narrated.
//! - **Rest** (IT-31): when a conflict stops running, the party may take one rest (`rest`).
//! - **Session end** (`end_session` … `start_session`, GM): level-ups (`level_up`), rewrites
//!   (`rewrite_traits`) and GM-approved background changes (`change_background`) (IT-60 … IT-65).
//! - **Replacement** (IT-66): `create_replacement` builds a level-0 PC and records how many
//!   level-ups it must resolve (`level_up`, D-33) before it takes part in problems.
//!
//! # Campaign interpretations (where the rules leave room)
//! - A problem waits for every player with a living PC: a player not interested commits a
//!   *pass*, which is hidden like an option until the reveal, so nobody learns who is
//!   interested before the reveal (IT-2, IT-15). Nobody choosing an option → the GM decides.
//! - Recency is recorded per player seat as the problem number ("#3"), at narration; a voided
//!   outcome (veto or IT-19) restores the previous record. The GM's own outcomes record nothing.
//! - Option 2's point comes from the background the decider names at narration; if it has no
//!   current point, an unassigned point joins it (or a new background) as it is spent (D-18).
//! - Options 3/4 accept either trait (D-20 says "usually"); the trait must be unmarked at commit
//!   and at payment.
//! - A veto may also be declared against an outcome the GM narrated when nobody chose. A veto
//!   declared while a standing veto is not yet narrated counts as simultaneous: it is spent
//!   (D-22) and the GM may pick it (`pick_veto`); otherwise the first declared stands. A GM
//!   rejection of a vetoer's narration makes the vetoer narrate again.
//! - Not retrying a problem (IT-20) is narrative, so the GM judges it: any description may be
//!   opened. When a closed problem had the same description (compared like background names),
//!   the GM's view says so (`like_closed`, and a note in the GM's text picture); nobody else
//!   sees the note.
//! - Backgrounds are known by their names (IT-10), compared as a player reads them: names
//!   differing only in letter case or surrounding spaces ("Sailor", " sailor ") are the same
//!   background ([`names::same`]). A sheet listing one twice is refused under IT-10 wherever it
//!   comes in (creation, a form, an imported sheet, a setup or position), and so is an IT-65
//!   rename onto another background's name. Option 2's point and its undoing by a veto find
//!   the background by that name, and the IT-62 refill fills each named background to its own
//!   max. (A table stored before names were compared may still hold a name twice: its points
//!   are then counted together, so option 2 can still be paid from it.)
//! - Rests: one `rest` command from any player seat stands for the players' joint choice; it
//!   carries each PC's breather type (D-14) and short-rest tie pick. A rest is possible once a
//!   conflict has stopped running (or when the setup says `rest_due`), until the party rests.
//!   The full rest's countdown mark is the GM's ordinary `mark_countdown`.
//! - Q2: a player marks its own goal achieved; the GM can set or clear it (settling disputes).
//!   The session cannot restart while a PC with three yes marks has not levelled up.
//! - Combo edits: 1 or 2 per level-up, applied in order; an edit adds a followup or replaces a
//!   named one; starting moves may be unknown (D-5). Background changes are renames approved by
//!   the GM's own command. Rewriting a trait keeps its mark.
//! - A replacement's level-ups need no session end and ignore refills (it is full already). Its
//!   starting level is also capped by what the dead PC's tradition can fill (one level per move
//!   the new PC lacks plus one per combo followup), so it can never be stuck mid-way (D-33).
//! - Established sheets may carry starting marks (`marks`: belief, flaw, goal, q1, zero,
//!   veto_used) and spent background points (`current`), so scenarios can start mid-campaign;
//!   the setup's `campaign` block gives the session, problem count, recency and rest state.

//!
//! # Names, whose move it is, positions and limits
//! - Seats are named as the table knows them ([`Table::seat_name`]): "the GM"; a player by their
//!   living PC ("Ada"); a player whose PC died by it ("Ada's player"); a player without a
//!   character yet by their place ("the second player"). Narration, the text picture, views
//!   meant for display and refusals use these names and plain words, never seat ids, indices or
//!   debug text ([`clash_core::text::raw_tokens`] checks it in the tests).
//! - [`status`] says exactly whose command the table waits on, read off the state. Optional
//!   commands (a rest, a veto, a rename, the winners' narration) never make it wait; outside a
//!   conflict and a problem it waits on the GM, who moves the story on, and at a session end on
//!   the players whose PCs must level up first.
//! - A command that would change nothing is refused (renaming a move to its name, the standing
//!   conflict narration again, rewriting a trait to its text, an empty NPC recovery, judging a
//!   vetoer who has not narrated yet), so no repeat writes a second identical line.
//! - [`position`]: a table exported as a setup that starts a new one at the same point; what a
//!   position holds and when there is none (hidden choices, a problem past its opening, an
//!   unrevealed NPC for players) is documented there.
//! - [`limits`]: the bounds on a table's size and on texts, each refused with its rule.
//! - [`forms`]: tables made by form and characters made by their players in session zero,
//!   checked field by field under the same rules as `create_character`.

#[cfg(feature = "analysis")]
pub mod analysis;
pub mod campaign;
pub mod character;
pub mod command;
pub mod conflict;
pub mod forms;
pub mod guard;
pub mod limits;
pub mod moves;
pub mod name;
pub mod names;
pub mod position;
pub mod setup;
pub mod special;
pub mod state;
pub mod status;
pub mod variant;
pub mod view;

use clash_core::{
    Listed, Panel, Preset, Randomness, RuleError, Rules, Ruleset, Seat, Status, Viewer,
};

pub use campaign::{Campaign, CampaignCommand, CampaignEvent};
pub use character::{Character, CharacterSheet, PerAction};
pub use command::{Command, Event};
pub use conflict::{Conflict, ConflictCommand, ConflictEvent};
pub use moves::{Action, Element, Move};
pub use name::Name;
pub use setup::Setup;
pub use special::Special;
pub use state::Table;
pub use view::{SeatName, TableView};

/// The ruleset marker for the kernel.
pub struct IronTriangle;

impl IronTriangle {
    /// Apply a conflict event, with the campaign's hook when it ends the conflict: what
    /// [`Ruleset::apply`] does with [`Event::Conflict`], for players that keep conflict events.
    pub fn apply_conflict(state: &mut Table, event: &ConflictEvent) {
        let running = |t: &Table| t.conflict.as_ref().is_some_and(|c| c.is_running());
        let was_running = running(state);
        conflict::apply(state, event);
        if was_running && !running(state) {
            campaign::conflict_over(state); // IT-31: the party may now rest
        }
    }
}

impl Ruleset for IronTriangle {
    const ID: &'static str = "iron-triangle";

    fn reveals(event: &Event) -> bool {
        guard::reveals(event)
    }

    fn news(event: &Event) -> bool {
        guard::news(event)
    }

    fn asked(state: &Self::State, seat: Seat) -> Option<String> {
        status::asked(state, seat)
    }

    fn confirm(state: &Self::State, seat: Seat, command: &Command) -> Option<String> {
        guard::confirm(state, seat, command)
    }
    type Setup = Setup;
    type State = Table;
    type Command = Command;
    type Event = Event;
    type View = TableView;

    fn setup(setup: &Setup) -> Result<Table, RuleError> {
        if setup.characters.len() > limits::MAX_CHARACTERS {
            return Err(RuleError::setup(
                "IT-1",
                format!(
                    "a table holds at most {} characters",
                    limits::MAX_CHARACTERS
                ),
            ));
        }
        if setup.countdowns.len() > limits::MAX_COUNTDOWNS {
            return Err(RuleError::setup(
                "IT-13",
                format!(
                    "a table holds at most {} countdowns",
                    limits::MAX_COUNTDOWNS
                ),
            ));
        }
        let rules = variant::Rules::of(setup.variant.as_ref())?;
        let mut characters: Vec<Character> = Vec::new();
        for sheet in &setup.characters {
            let c = sheet.build_under(&rules)?;
            if characters.iter().any(|o| o.name == c.name) {
                return Err(RuleError::setup(
                    "IT-7",
                    format!("two characters are called {}", limits::shown(&c.name)),
                ));
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
        let campaign = Campaign::new(&setup.countdowns, &setup.campaign)?;
        if players.is_empty() || players.len() > 5 {
            return Err(RuleError::setup(
                "IT-1",
                "Iron Triangle is for 2-6 people: one GM and one to five players",
            ));
        }
        let mut table = Table {
            players,
            characters,
            campaign,
            conflict: None,
            rules,
        };
        campaign::restore_position(&mut table, &setup.campaign)?;
        if let Some(sheet) = &setup.conflict {
            table.conflict = Some(position::build_conflict(&table, sheet)?);
        }
        Ok(table)
    }

    fn opening(_state: &Table) -> Vec<Event> {
        Vec::new()
    }

    fn seats(state: &Table) -> Vec<Seat> {
        std::iter::once(Seat::Gm)
            .chain(state.players.iter().copied())
            .collect()
    }

    fn seat_name(state: &Table, seat: Seat) -> String {
        state.seat_name(seat)
    }

    /// A player with two living PCs is known by both names, listed one by one.
    fn seat_names(state: &Table, seat: Seat) -> Vec<String> {
        let living: Vec<String> = state
            .characters
            .iter()
            .filter(|c| seat != Seat::Gm && c.controller == seat && c.is_pc() && !c.dead)
            .map(|c| c.name.clone())
            .collect();
        match living.len() {
            0 | 1 => vec![state.seat_name(seat)],
            _ => living,
        }
    }

    fn status(state: &Table) -> Status {
        // A campaign has no end of its own: after a conflict come rests, problems and the next.
        status::status(state)
    }

    fn decide(
        state: &Table,
        seat: Seat,
        command: &Command,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        match command {
            Command::Conflict(c) => Ok(conflict::decide(state, seat, c, rng)?
                .into_iter()
                .map(Event::Conflict)
                .collect()),
            Command::Campaign(c) => Ok(campaign::decide(state, seat, c)?
                .into_iter()
                .map(Event::Campaign)
                .collect()),
        }
    }

    fn apply(state: &mut Table, event: &Event) {
        match event {
            Event::Conflict(e) => IronTriangle::apply_conflict(state, e),
            Event::Campaign(e) => campaign::apply(state, e),
        }
    }

    fn view(state: &Table, viewer: Viewer) -> TableView {
        TableView {
            viewer,
            players: state.players.clone(),
            seats: Self::seats(state)
                .into_iter()
                .map(|seat| SeatName {
                    seat,
                    name: state.seat_name(seat),
                })
                .collect(),
            characters: conflict::character_views(state, viewer),
            campaign: campaign::view(state, viewer),
            conflict: conflict::view(state, viewer),
            rules: (!state.rules.is_default()).then_some(state.rules),
        }
    }

    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        match event {
            Event::Conflict(e) => conflict::event_view(e, viewer).map(Event::Conflict),
            Event::Campaign(e) => campaign::event_view(e, viewer).map(Event::Campaign),
        }
    }

    /// A stance, move or face-down special of the seat's fighters, or its problem pick, not yet
    /// revealed (IT-2). Sheets are not secrets of a seat: PC sheets are public and NPC sheets are
    /// the GM's own (IT-24).
    fn secret_pending(state: &Table, seat: Seat) -> bool {
        conflict::secret_pending(state, seat) || campaign::secret_pending(state, seat)
    }

    fn narrate(state: &Table, event: &Event) -> String {
        match event {
            Event::Conflict(e) => conflict::narrate(state, e),
            Event::Campaign(e) => campaign::narrate(state, e),
        }
    }

    fn render(state: &Table, viewer: Viewer) -> String {
        let mut out = conflict::render_characters(state, viewer);
        out.push_str(&campaign::render(state, viewer));
        out.push_str(&conflict::render(state, viewer));
        out
    }

    fn legal_commands(state: &Table, seat: Seat) -> Vec<Command> {
        let mut all: Vec<Command> = conflict::legal_commands(state, seat)
            .into_iter()
            .map(Command::Conflict)
            .collect();
        all.extend(
            campaign::legal_commands(state, seat)
                .into_iter()
                .map(Command::Campaign),
        );
        all
    }

    fn position(state: &Table, viewer: Viewer) -> Option<Setup> {
        position::export(state, viewer)
    }
}

impl Listed for IronTriangle {
    const RULES: Rules = Rules {
        markdown: include_str!("../rules.md"),
        charts: &["The move chart", "Who wins a turn", "What the loser pays"],
    };
    const NAME: &'static str = "Iron Triangle";
    const BLURB: &'static str =
        "Martial-arts duels: secret stances and moves, revealed together. A GM runs the NPCs.";
    const PRESETS: &'static [Preset] = &[
        Preset {
            name: "Two players (Ada, Bo) against the GM's Brute",
            setup: include_str!("../presets/team.json"),
        },
        Preset {
            name: "One player (Ada) against the GM's Brute",
            setup: include_str!("../presets/duel.json"),
        },
    ];
    const PANEL: Panel = Panel {
        script: include_str!("../panel/panel.js"),
        style: include_str!("../panel/panel.css"),
    };
}

/// Iron Triangle as the catalogue offers it: the rules, forms and board, and with the
/// `analysis` feature its table bots, odds in play and `clash` subcommands.
pub fn entry() -> clash_core::RulesetEntry {
    let entry = clash_core::RulesetEntry::with_session_zero::<IronTriangle>();
    #[cfg(feature = "analysis")]
    let entry = analysis::offer(entry);
    entry
}
