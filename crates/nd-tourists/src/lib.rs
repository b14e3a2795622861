//! N-Dimensional Tourists: the deprecated Conflict rules on the Space·Time Deck
//! (the N-Dimensional Tourists conflict spec: rules ND-1 … ND-31, decisions D-1 … D-21).
//!
//! # State machine
//!
//! ```text
//! Preparing ──start (GM: NPC Reserves, ND-10)──▶ Bidding ──bidding ends──▶ Aftermath ──next_round──▶ Bidding …
//!                                                  │  bid / pass / reject / turn / cover / let_it_stand
//!                                                  └──(≤ 1 party left)──▶ Ended ◀──concede / reframe── Aftermath
//! ```
//!
//! * **Bidding.** A Balance Breaker (Control 0, ND-14) has every party draw one card in seating
//!   order; an Unbalanced round (ND-15) has Contenders then the Dominant bid or pass in turn
//!   until as many consecutive passes as parties in play (D-6), the Excuse (ND-16a) or a Wipe Out
//!   that leaves fewer than 2 parties (ND-16b). ND-17 then breaks or strengthens the Dominant.
//! * **Reaction window** (ND-12, D-4). A placed card stays open while anyone *could* react: the
//!   drawer shows a face-up Loss (reject), the Dominant holds a token (turn), or a party in play
//!   holds a Reserve card (cover), and that party is asked about the chance by its standing
//!   choice (by default only to save a reversed card of its own: issue 38, see [`reactions`]).
//!   Otherwise the placement is final at once. Each party asked gets its turn, one at a time:
//!   every rejection chance first, then the Dominant's turn, then every cover chance, each kind
//!   in seating order starting after the drawer. The party asked reacts or sends
//!   `let_it_stand`; the window closes after a cover or once nobody is left to ask. The Excuse
//!   never opens a window.
//! * **End of round** (ND-22): Losses (step 1) and winners/narration order (step 2, D-10) are
//!   settled in the same command that ends bidding, then victory (step 3). The table is then in
//!   `Aftermath` (step 4), where parties may re-choose their Loss cards (`keep_loss_cards`,
//!   ND-21) or `concede`, and the GM may `reframe`; the GM's
//!   `next_round` does steps 5–7 (cards back into the deck, winners' refill, next round type).
//!
//! # Deck and randomness
//!
//! The deck is a set of cards, not a sequence: each draw picks uniformly among the cards left
//! with `rng.choose(count, label)` (label = the card's name, e.g. `"XXI"`, `"Paper Home"`), then
//! the orientation with `choose` over `["upright", "reversed"]` (ND-2, D-2). That is the same
//! as drawing from a shuffled deck, lets a scenario stack the deck with scripted picks, and means
//! no deck order exists to leak. Cards are one byte; card sets are `u128` bitsets.
//!
//! # Interpretations (where the spec leaves room)
//!
//! * Seats: each party is spoken for by one seat (players `p1`…, non-player parties `gm`); a
//!   party of several characters names the acting character in `bid`/`cover`/`concede`.
//! * The NPC Reserve (ND-10) is drawn by the GM's `start` command (setup itself never draws).
//!   Draws into a Reserve never take the Excuse: it only acts when drawn in play.
//! * The narrative card drawn after the Excuse has no reaction window of its own (it is drawn
//!   "for narrative purpose"). In a Balance Breaker the Excuse is swapped at once (D-8).
//! * Losses keep the earliest reversed cards (D-14) until the party picks others with
//!   `keep_loss_cards` at step 4 (ND-21). A rejection of a party showing one face-up Loss
//!   card spends it at once; with several, the table waits (nothing else is accepted) until
//!   that party names the card with `spend_loss` (D-14: the victim's choice).
//! * D-4 asks the parties that could react and want to be asked, one at a time. "Could" means
//!   it holds what the reaction needs (a face-up Loss of the drawer's to use, a token, a
//!   Reserve card), not that its narration will be accepted. "Want" is the party's standing
//!   choice ([`state::Asking`]): by default (tables made by the forms or from the ready-made
//!   setup) only when a reaction could spare a reversed card of its own, answered with one
//!   "let it stand" per card; or at every chance, where each kind is a separate chance and
//!   the drawer, who may cover its own card (ND-20), is asked last. A setup that says nothing
//!   asks at every chance, as every table did before, so old records replay as played.
//! * A seat that acts on a later chance of its own (or bids or passes, which closes the window)
//!   declines its own earlier chances by doing so; it is refused while another seat still has
//!   a chance before it. So the GM bidding after its own card declines its own reactions, but
//!   nobody bids past a player's chance to cover.
//! * Positions (issue 18, [`position`]): a setup with a `position` block starts mid-Conflict.
//!   Reserves a viewer cannot see are exported as a count (`reserve_unseen`) and dealt fresh
//!   by the GM's `start`, so a position never shows hidden cards; an ended Conflict has none.
//! * Repeats are refused: declaring the same tactics twice in a round (ND-11) and marking a
//!   Loss with the cards that already mark it (ND-21).
//! * Table limits ([`limits`], refusals under `ND-limits`): 16 parties, 16 characters a
//!   party, 16 Aspects and 16 Weaknesses a sheet, 20 Reserve cards a character, names of 80
//!   characters, goals and tactics of 1000.
//! * A party reaching 5 reversed cards is checked when the window closes (a cover can still
//!   save it, ND-18). A narrative card that makes a fifth reversed card Wipes Out at Loss time.
//! * D-10 winners must still be in play; Contenders Wiped Out this round count for the break
//!   (ND-17) but are losers. A Dominant Wiped Out loses; nobody wins that round.
//! * D-10 compares the breakers' bid lines as they stood when bidding ended, reversed cards
//!   included: the Losses of step 1 take cards off the lines only after the winners are judged,
//!   so orientation never decides who wins (ND-17), narrates first or refills (ND-26).
//! * Win refills go to whoever drew the party's last card (ND-29), else its first character
//!   still playing (D-13). An NPC's sheet size is the number of Reserve cards the GM drew.
//! * A Reframe (ND-25) ends this Conflict and records each Lasting Loss as a new Weakness; the
//!   new Conflict is a new table whose setup lists those Weaknesses.
//! * Tables by form ([`forms`]): each player makes its party in session zero through a form
//!   checked field by field; a player party's Reserve is drawn as the GM starts the Conflict.
//! * The cover's narration is an input: `cite` must name a trait the rules allow and `accepted`
//!   says the table validated it.

#[cfg(feature = "analysis")]
pub mod analysis;
pub mod bidding;
pub mod cards;
pub mod command;
pub mod driver;
pub mod forms;
pub mod guard;
pub mod limits;
pub mod moves;
pub mod position;
pub mod probability;
pub mod reactions;
pub mod round_end;
pub mod ruling;
pub mod seating;
pub mod setup;
pub mod state;
pub mod variant;
pub mod view;

use clash_core::{
    Listed, Panel, Preset, Randomness, RuleError, Rules, Ruleset, Seat, Status, Viewer,
};

pub use cards::{Card, CardSet, beats};
pub use command::{Citation, Command, Event};
pub use setup::Setup;
pub use state::State;

use ruling::Ruling;
use state::Phase;

/// The ruleset.
pub struct NdTourists;

impl Ruleset for NdTourists {
    const ID: &'static str = "nd-tourists";

    fn reveals(event: &Event) -> bool {
        guard::reveals(event)
    }

    fn news(event: &Event) -> bool {
        guard::news(event)
    }

    fn asked(state: &State, seat: Seat) -> Option<String> {
        moves::asked(state, seat)
    }

    fn confirm(state: &Self::State, seat: Seat, command: &Command) -> Option<String> {
        guard::confirm(state, seat, command)
    }

    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = view::View;

    fn setup(setup: &Setup) -> Result<State, RuleError> {
        setup::build(setup)
    }

    fn opening(_state: &State) -> Vec<Event> {
        Vec::new()
    }

    fn seat_name(state: &State, seat: Seat) -> String {
        let parties: Vec<&str> = state
            .table
            .parties
            .iter()
            .filter(|p| p.seat == seat)
            .map(|p| p.name.as_str())
            .collect();
        match (seat, parties.is_empty()) {
            (Seat::Gm, _) => "the GM".into(),
            (Seat::Player(n), true) => format!("Player {n}"),
            (Seat::Player(_), false) => match parties.as_slice() {
                [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => parties.join(""),
            },
        }
    }

    /// A player with several parties is known by each party's name.
    fn seat_names(state: &State, seat: Seat) -> Vec<String> {
        let parties: Vec<String> = state
            .table
            .parties
            .iter()
            .filter(|p| seat != Seat::Gm && p.seat == seat)
            .map(|p| p.name.clone())
            .collect();
        match parties.len() {
            0 | 1 => vec![Self::seat_name(state, seat)],
            _ => parties,
        }
    }

    fn status(state: &State) -> Status {
        moves::status(state)
    }

    fn seats(state: &State) -> Vec<Seat> {
        let mut seats = vec![Seat::Gm];
        for p in &state.table.parties {
            if !seats.contains(&p.seat) {
                seats.push(p.seat);
            }
        }
        seats
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &Command,
        rng: &mut dyn Randomness,
    ) -> Result<Vec<Event>, RuleError> {
        if state.phase == Phase::Ended {
            return Err(RuleError::illegal("ND-23", "the Conflict is over"));
        }
        if let Some(by) = state.round.rejection
            && state.phase == Phase::Bidding
            && !matches!(
                command,
                Command::SpendLoss { .. } | Command::AutoPass { .. }
            )
        {
            return Err(waiting_for_spend(state, by));
        }
        let mut r = Ruling::new(state);
        match command {
            Command::Start {} => bidding::start(&mut r, seat, rng)?,
            Command::DeclareTactics { party, text } => {
                bidding::declare_tactics(&mut r, seat, party, text)?
            }
            Command::Bid { party, character } => bidding::bid(&mut r, seat, party, character, rng)?,
            Command::Pass { party } => bidding::pass(&mut r, seat, party, rng)?,
            Command::Reject { party } => reactions::reject(&mut r, seat, party, rng)?,
            Command::SpendLoss { party, card } => {
                reactions::spend_loss(&mut r, seat, party, *card, rng)?
            }
            Command::Turn {} => reactions::turn(&mut r, seat, rng)?,
            Command::Cover {
                party,
                character,
                card,
                cite,
                accepted,
            } => reactions::cover(&mut r, seat, party, character, *card, cite, *accepted, rng)?,
            Command::LetItStand { party } => reactions::let_it_stand(&mut r, seat, party, rng)?,
            Command::AutoPass {
                party,
                rejections,
                this_round,
                asking,
            } => reactions::set_auto_pass(&mut r, seat, party, *rejections, *this_round, *asking)?,
            Command::Concede { party, character } => {
                round_end::concede(&mut r, seat, party, character, rng)?
            }
            Command::Reframe { confirmed } => round_end::reframe(&mut r, seat, *confirmed, rng)?,
            Command::KeepLossCards { party, cards } => {
                round_end::keep_loss_cards(&mut r, seat, party, cards)?
            }
            Command::NextRound {} => round_end::next_round(&mut r, seat, rng)?,
        }
        reactions::pass_standing(&mut r, rng)?;
        Ok(std::mem::take(&mut r.events))
    }

    fn apply(state: &mut State, event: &Event) {
        command::apply(state, event);
    }

    fn view(state: &State, viewer: Viewer) -> view::View {
        view::view(state, viewer)
    }

    fn event_view(event: &Event, viewer: Viewer) -> Option<Event> {
        Some(view::event_view(event, viewer))
    }

    /// No choice here is made in secret: bids, passes and reactions are played face up. A
    /// party's Reserve is private but is not a choice; it passes with the seat (publicly).
    fn secret_pending(_state: &State, _seat: Seat) -> bool {
        false
    }

    fn narrate(state: &State, event: &Event) -> String {
        view::narrate(state, event)
    }

    fn render(state: &State, viewer: Viewer) -> String {
        view::render(state, viewer)
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<Command> {
        moves::legal(state, seat)
    }

    fn position(state: &State, viewer: Viewer) -> Option<Setup> {
        position::export(state, viewer)
    }
}

impl Listed for NdTourists {
    const RULES: Rules = Rules {
        markdown: include_str!("../rules.md"),
        charts: &["What beats what", "Using Losses"],
    };
    const NAME: &'static str = "N-Dimensional Tourists";
    const BLURB: &'static str =
        "Conflicts settled by bidding cards from your hand along bid lines and loss lines.";
    const PRESETS: &'static [Preset] = &[Preset {
        name: "Four sides, balanced",
        setup: include_str!("../presets/four-sides.json"),
    }];
    const PANEL: Panel = Panel {
        script: include_str!("../panel/panel.js"),
        style: include_str!("../panel/panel.css"),
    };
}

/// D-14: nothing else happens while the drawer chooses the Loss card a rejection spends.
fn waiting_for_spend(st: &State, by: u8) -> RuleError {
    let name = |p: Option<u8>| {
        p.and_then(|p| st.table.parties.get(p as usize))
            .map_or("another party", |s| s.name.as_str())
    };
    RuleError::illegal(
        "D-14",
        format!(
            "{} rejected {} card: waiting for {} to choose the face-up Loss card to spend",
            name(Some(by)),
            view::possessive(name(st.round.window)),
            name(st.round.window)
        ),
    )
}

/// N-Dimensional Tourists as the catalogue offers it: the rules, forms and board, and with the
/// `analysis` feature its table bots, odds in play and `clash` subcommands.
pub fn entry() -> clash_core::RulesetEntry {
    let entry = clash_core::RulesetEntry::with_session_zero::<NdTourists>();
    #[cfg(feature = "analysis")]
    let entry = analysis::offer(entry);
    entry
}
