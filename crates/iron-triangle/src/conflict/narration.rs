//! Telling events in words (one clear sentence each) and drawing the table as text.

use clash_core::Viewer;

use super::visibility::{Choice, ConflictView};
use super::{
    ConflictEvent, LossBreakdown, MoveChoice, Name, Phase, Picker, Side, Stance, TurnOutcome,
};
use crate::Table;
use crate::character::PerAction;
use crate::moves::{Action, Move};

fn stance_words(s: Stance) -> String {
    match s.action {
        Some(a) if s.amount > 0 => format!("{a} {}", s.amount),
        _ => "no stance".into(),
    }
}

/// A move played, named as the board names it: "Philly Shell (Defend Mid)".
fn played_words(choice: MoveChoice, name: Option<&Name>) -> String {
    match (choice, name) {
        (MoveChoice::Surrender, _) => "Surrender".into(),
        (MoveChoice::Play(m), Some(n)) if !n.is_empty() && *n != m.to_string() => {
            format!("{n} ({})", m.words())
        }
        (MoveChoice::Play(m), _) => m.words(),
    }
}

fn moves_words(moves: &[Move]) -> String {
    let words: Vec<String> = moves.iter().map(|m| m.words()).collect();
    words.join(", ")
}

fn amounts_words(p: PerAction<u32>) -> String {
    let parts: Vec<String> = Action::ALL
        .iter()
        .filter(|a| p.get(**a) > 0)
        .map(|a| format!("{} {a}", p.get(*a)))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        // "1 Defend, 2 Grapple and 1 Attack", never "… and … and …".
        crate::names::list(&parts)
    }
}

fn side_words(s: Side) -> &'static str {
    s.words()
}

use crate::names::list;

fn breakdown_words(b: &LossBreakdown) -> String {
    let mut parts = Vec::new();
    if b.from_stance > 0 {
        parts.push(format!("{} from the winner's stance", b.from_stance));
    }
    match (b.waxed, b.wax_on_stopped) {
        (false, _) => {}
        // Logs written before the amount was recorded.
        (true, 0) => parts.push("Wax On stops the winner's stance".into()),
        (true, n) => parts.push(format!("Wax On stops {n} from the winner's stance")),
    }
    if b.own_stance > 0 {
        parts.push(format!(
            "{} from the loser's own matched stance",
            b.own_stance
        ));
    }
    parts.push(format!("base {}", b.base));
    if b.combo > 0 {
        parts.push(format!("+{} combo", b.combo));
    }
    if b.disadvantage > 0 {
        parts.push(format!("+{} disadvantage", b.disadvantage));
    }
    let taken = b.taken_by.as_ref().map_or(String::new(), |y| {
        format!(", taken instead by {y}'s Yojimbo")
    });
    format!(
        "{} loses {} ({}){taken}",
        b.character,
        b.total,
        parts.join(", ")
    )
}

fn next_words(table: &Table, next: &Phase) -> String {
    match next {
        Phase::PickActive {
            picker: Picker::Seat { seat },
            side,
            capped,
        } => {
            let from = side.map_or(String::new(), |s| format!(" from {}", side_words(s)));
            let cap = capped.map_or(String::new(), |_| {
                " (the character with three wins in the chain must pass)".into()
            });
            format!(
                "{} picks the next active character{from}{cap}",
                table.seat_name(*seat)
            )
        }
        Phase::PickActive {
            picker: Picker::Players,
            ..
        } => "the players pick the next active character".into(),
        Phase::Mercy { decider, .. } => {
            format!(
                "{} decides whether to kill the surrenderer",
                table.seat_name(*decider)
            )
        }
        _ => "the conflict goes on".into(),
    }
}

/// Capitalise the first letter ("the GM" opening a sentence).
pub(crate) fn sentence(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

pub fn narrate(table: &Table, e: &ConflictEvent) -> String {
    use ConflictEvent as E;
    match e {
        E::ConflictStarted {
            stakes,
            lethal,
            minor,
            npcs,
            pcs,
            barred,
        } => {
            let kind = match (lethal, minor) {
                (true, true) => "a minor lethal",
                (true, false) => "a lethal",
                (false, true) => "a minor",
                (false, false) => "a lesser",
            };
            let bars: Vec<String> = barred
                .iter()
                .map(|(n, r)| format!("{n} ({})", r.words()))
                .collect();
            let barred = if bars.is_empty() {
                String::new()
            } else {
                format!("; barred: {}", bars.join(", "))
            };
            let stakes = stakes.trim().trim_end_matches('.');
            format!(
                "The GM calls {kind} conflict against {} — stakes: {stakes}; {} must answer{barred}.",
                list(npcs),
                list(pcs)
            )
        }
        E::LethalRefused { seat } => sentence(format!(
            "{} does not agree to kill, so the conflict is a lesser one.",
            table.seat_name(*seat)
        )),
        E::JoinedConflict { character } => format!("{character} enters the conflict."),
        E::SatOut { character } => {
            format!("{character} sits this one out, but will share the result.")
        }
        E::FightBegan { lethal } => {
            format!(
                "The fight begins{}; the players pick who acts first.",
                if *lethal { " — to the death" } else { "" }
            )
        }
        E::ConflictSettled { outcome, .. } => {
            format!("The GM settles the conflict without a fight: {outcome}")
        }
        E::ActivePicked {
            character,
            by,
            counts_as_turn,
        } => {
            let counted = if *counts_as_turn {
                ""
            } else {
                " again, continuing the run (no new turn counted)"
            };
            let by = table.seat_name(*by);
            if by == character.as_str() {
                format!("{character} steps up as the active character{counted}.")
            } else {
                sentence(format!(
                    "{by} picks {character} as the active character{counted}."
                ))
            }
        }
        E::ChainEnded { reason, cards } => format!(
            "The chain {} ends ({}); its cards return to hand.",
            moves_words(cards),
            reason.words()
        ),
        E::OpponentPicked { active, opponent } => format!("{active} goes after {opponent}."),
        E::SpecialPlayed {
            character,
            special,
            via_liquid_metal,
            face_down,
            target,
            window,
            ..
        } => {
            let on = target
                .as_ref()
                .map_or(String::new(), |t| format!(" on {t}"));
            let when = window.words();
            match (special, face_down) {
                (None, _) => format!("{character} plays a special face down, {when}."),
                (Some(s), true) => format!("{character} plays {s} face down{on}, {when}."),
                (Some(s), false) => {
                    let lm = if *via_liquid_metal {
                        " (copied with Liquid Metal)"
                    } else {
                        ""
                    };
                    format!("{character} uses {s}{lm}{on}, {when}.")
                }
            }
        }
        E::Scouted {
            character,
            target,
            report,
            ..
        } => match report {
            Some(r) => {
                let moves: Vec<String> = r
                    .moves
                    .iter()
                    .map(|m| {
                        format!(
                            "{}{}",
                            m.mv.words(),
                            if m.available { "" } else { " (face up)" }
                        )
                    })
                    .collect();
                let specials: Vec<String> =
                    r.unspent_specials.iter().map(|s| s.to_string()).collect();
                format!(
                    "{character} scouts {target}: moves {}; {} combos; unspent specials: {}.",
                    moves.join(", "),
                    r.combos.len(),
                    list(&specials)
                )
            }
            None => {
                format!("{character} scouts {target}; only their controller sees what they learn.")
            }
        },
        E::SpecialsRevealed { specials } => {
            let items: Vec<String> = specials.iter().map(|(n, s)| format!("{n}'s {s}")).collect();
            format!("Face-down specials are revealed: {}.", list(&items))
        }
        E::SpecialsCancelled {
            special,
            first,
            second,
        } => {
            format!(
                "{first}'s and {second}'s {special} clash: both are spent and neither takes effect."
            )
        }
        E::StanceTaken {
            character, stance, ..
        } => match stance {
            Some(s) => format!("{character} secretly takes {}.", stance_words(*s)),
            None => format!("{character} has chosen a stance and is ready."),
        },
        E::StancesRevealed { active, opponent } => format!(
            "Stances are revealed: {} takes {}, {} takes {}.",
            active.0,
            stance_words(active.1),
            opponent.0,
            stance_words(opponent.1)
        ),
        E::MoveChosen {
            character, choice, ..
        } => match choice {
            Some(MoveChoice::Surrender) => format!("{character} secretly decides to surrender."),
            Some(MoveChoice::Play(m)) => format!("{character} secretly commits to {}.", m.words()),
            None => format!("{character} has chosen a move and is ready."),
        },
        E::MovesRevealed {
            active,
            opponent,
            disadvantaged,
            move_names,
        } => {
            let dis = if disadvantaged.is_empty() {
                String::new()
            } else {
                format!(" (disadvantaged: {})", list(disadvantaged))
            };
            let (a, b) = (
                played_words(active.1, move_names.first()),
                played_words(opponent.1, move_names.get(1)),
            );
            format!(
                "Moves are revealed: {} plays {a}, {} plays {b}{dis}.",
                active.0, opponent.0
            )
        }
        E::WindowOpened { window, who } => {
            format!(
                "{}: {} may play a special or pass.",
                sentence(window.words().to_string()),
                list(who)
            )
        }
        E::WindowPassed { character, window } => {
            format!("{character} passes, {}.", window.words())
        }
        E::MoveSwapped {
            character,
            from,
            to,
        } => match to {
            Some(to) => {
                format!(
                    "Drunken Monkey: {character}'s {} is swapped at random for {}.",
                    from.words(),
                    to.words()
                )
            }
            None => format!(
                "Drunken Monkey: {character} has no other move to swap {} for.",
                from.words()
            ),
        },
        E::TurnResolved {
            outcome, breakdown, ..
        } => resolved_words(outcome, breakdown),
        E::EnergyLost {
            character,
            lost,
            discarded,
            zero_marked,
            split_by,
        } => {
            let by = split_by.map_or(String::new(), |s| {
                format!(" (split by {})", table.seat_name(s))
            });
            let gone = if *discarded > 0 {
                format!("; {discarded} more is discarded, nothing is left to take it")
            } else {
                String::new()
            };
            let zero: Vec<String> = zero_marked.iter().map(|a| a.to_string()).collect();
            let zero = if zero.is_empty() {
                String::new()
            } else {
                format!("; zero mark on {}", list(&zero))
            };
            format!(
                "{character} loses {}{by}{gone}{zero}.",
                amounts_words(*lost)
            )
        }
        E::EnergyGained { character, gained } => {
            format!("{character} regains {}.", amounts_words(*gained))
        }
        E::TurnEnded {
            piles,
            chain,
            out,
            dead,
            next,
        } => {
            let piles: Vec<String> = piles
                .iter()
                .map(|(n, p)| {
                    if p.is_empty() {
                        format!("{n}'s is empty")
                    } else {
                        format!("{n}'s holds {}", moves_words(p))
                    }
                })
                .collect();
            let chain = chain.as_ref().map_or("no chain is live".to_string(), |c| {
                format!("the chain {} is live", moves_words(&c.moves()))
            });
            let out = if out.is_empty() {
                String::new()
            } else {
                format!("; out: {}", list(out))
            };
            let dead = if dead.is_empty() {
                String::new()
            } else {
                format!("; dead: {}", list(dead))
            };
            let next = next
                .as_ref()
                .map_or(String::new(), |n| format!("; {}", next_words(table, n)));
            format!(
                "Turn over — piles: {}; {chain}{out}{dead}{next}.",
                piles.join(", ")
            )
        }
        E::Surrendered { characters } => format!(
            "{} surrender{} and go{} out, losing nothing this turn.",
            list(characters),
            if characters.len() == 1 { "s" } else { "" },
            if characters.len() == 1 { "es" } else { "" }
        ),
        E::KilledOnTheSpot { character, .. } => format!("{character} is killed on the spot."),
        E::Spared { character, .. } => format!("{character} is spared."),
        E::NpcRevealed { character } => {
            format!("The GM reveals {character}'s moves, combos and specials.")
        }
        E::ConflictNarrated { by, text } => sentence(format!(
            "{} narrates the outcome: {text}",
            table.seat_name(*by)
        )),
        E::ConflictEnded { outcome } => {
            let who = outcome
                .winner
                .map_or("nobody".to_string(), |s| side_words(s).to_string());
            let dead = if outcome.dead.is_empty() {
                String::new()
            } else {
                format!(" {} dies.", list(&outcome.dead))
            };
            format!(
                "The conflict is over: {who} wins — {}.{dead}",
                outcome.reason
            )
        }
    }
}

fn resolved_words(outcome: &TurnOutcome, breakdown: &[LossBreakdown]) -> String {
    match outcome {
        TurnOutcome::Win {
            winner,
            loser,
            by,
            winning_move,
            losing_move,
            combo,
        } => {
            let combo = if *combo { ", continuing the combo" } else { "" };
            let cost = breakdown
                .first()
                .map_or(String::new(), |b| format!("; {}", breakdown_words(b)));
            format!(
                "{winner}'s {} beats {loser}'s {} ({}){combo}{cost}.",
                winning_move.words(),
                losing_move.words(),
                super::losses::reason_words(*by)
            )
        }
        TurnOutcome::Tie { moves } => {
            let each: Vec<String> = breakdown.iter().map(breakdown_words).collect();
            format!(
                "{} against {} is a tie: {}.",
                moves.0.words(),
                moves.1.words(),
                each.join("; ")
            )
        }
        TurnOutcome::Surrender { surrendered } => {
            format!("No winner check: {} surrendered.", list(surrendered))
        }
    }
}

pub fn render_characters(state: &Table, _viewer: Viewer) -> String {
    let mut out = String::new();
    for ch in &state.characters {
        let e = ch.energy.current;
        let dead = if ch.dead { " (dead)" } else { "" };
        let who = if ch.is_pc() { "a PC" } else { "an NPC" };
        out.push_str(&format!(
            "{}, {who}, level {} — D{} G{} A{}{dead}\n",
            ch.name, ch.level, e.defend, e.grapple, e.attack
        ));
    }
    out
}

fn choice_words<T: std::fmt::Display>(c: &Choice<T>) -> String {
    match c {
        Choice::Waiting => "…".into(),
        Choice::Ready => "ready".into(),
        Choice::Chosen(v) => format!("{v} (hidden)"),
        Choice::Revealed(v) => v.to_string(),
    }
}

impl std::fmt::Display for Stance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.action {
            Some(a) if self.amount > 0 => write!(f, "{}{}", a.letter(), self.amount),
            _ => f.write_str("0"),
        }
    }
}

pub fn render(state: &Table, viewer: Viewer) -> String {
    let Some(v) = super::visibility::view(state, viewer) else {
        return String::new();
    };
    render_view(&v)
}

fn render_view(v: &ConflictView) -> String {
    let mut out = format!(
        "Conflict{}{}: {}\n",
        if v.lethal { " (lethal)" } else { "" },
        if v.minor { " (minor)" } else { "" },
        v.stakes
    );
    for f in &v.fighters {
        let pile = if f.pile.is_empty() {
            String::new()
        } else {
            format!(", pile {}", moves_words(&f.pile))
        };
        out.push_str(&format!(
            "  {} ({}, {}): D{} G{} A{}, turns {}{pile}\n",
            f.name,
            f.side.words(),
            f.status.words(),
            f.energy.defend,
            f.energy.grapple,
            f.energy.attack,
            f.turns
        ));
    }
    if let Some(t) = &v.turn {
        let against = t
            .opponent
            .as_deref()
            .map_or("no opponent yet".to_string(), |o| format!("against {o}"));
        out.push_str(&format!(
            "  turn {}: {} {against}, {}\n",
            t.number,
            t.active,
            t.step.words()
        ));
        for p in &t.participants {
            out.push_str(&format!(
                "    {}: stance {}, move {}\n",
                p.name,
                choice_words(&p.stance),
                choice_words(&p.choice)
            ));
        }
    }
    if let Some(ch) = &v.chain {
        let cards: Vec<Move> = ch.cards.iter().map(|(_, m)| *m).collect();
        out.push_str(&format!(
            "  chain {} against {}\n",
            moves_words(&cards),
            ch.against
        ));
    }
    if let Some(o) = &v.outcome {
        let who = o.winner.map_or("nobody wins", |s| match s {
            Side::Players => "the players' side wins",
            Side::Gm => "the GM's side wins",
        });
        out.push_str(&format!("  over: {who} — {}\n", o.reason));
    }
    out
}
