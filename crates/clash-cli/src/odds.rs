//! `clash odds`: exact odds of dice and draws, as fractions and decimals.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use clash_analysis::exact::Probability;
use clash_analysis::{combat_odds, draw_odds, wicked_odds};

use crate::output::{self, Outcome, say};

fn row(label: &str, p: &Probability) -> Outcome {
    say!("  {label:<44} {:>28}  {:>10.6}", p.fraction, p.decimal);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// clash odds

/// Exact odds, as reduced fractions and decimals.
#[derive(Args)]
#[command(after_long_help = ODDS_HELP)]
pub struct OddsArgs {
    #[command(subcommand)]
    system: OddsSystem,
    /// Print JSON: every probability as {"fraction": "63/640", "decimal": 0.0984375}.
    #[arg(long, global = true)]
    json: bool,
}

const ODDS_HELP: &str = "\
Input syntax
  In A Wicked Age pools: dice joined by '+'. dN = form die (High/Low; one or two of d12, d10, d8,
    d6, d4), adv = the Advantage d6 (one side at most), owe = an Owe d6, b8 or b10 = a strength
    die, each bonus die at most once.  Examples: d12+d8, d8+d4+adv, d6+d6+b8 (strength d8).
  Triforce participants: plain | sword | shield, one word per participant (2 to 6; at most one
    sword and one shield).
  N-Dimensional Tourists cards: comma-separated names: XIV, Paper Servant, Excuse, Blank Rock 1.
  Iron Triangle is diceless: see `clash solve iron-triangle`.

Examples
  clash odds wicked-age exchange d10+d6 d12+d8            (spec P1)
  clash odds wicked-age exchange d10+d6 d12+d8 --round 3  (P3)
  clash odds wicked-age exchange d10+d6 d12+d8 --opening  (P9)
  clash odds wicked-age conflict d12+d8 d10+d6            (P8, P10)
  clash odds triforce combat sword shield plain
  clash odds nd-tourists break --targets XVI --seen 'XIV, IV' --unseen 1 --draws 2
  clash odds nd-tourists reversed --already 2 --draws 1";

#[derive(Subcommand)]
enum OddsSystem {
    /// In A Wicked Age: one exchange, or a whole two-party conflict.
    #[command(name = "wicked-age", subcommand)]
    WickedAge(WickedQuery),
    /// Triforce: one combat's losers.
    #[command(subcommand)]
    Triforce(TriforceQuery),
    /// N-Dimensional Tourists: breaking a set with the next draws; reversed cards after k draws.
    #[command(name = "nd-tourists", subcommand)]
    NdTourists(TouristsQuery),
}

#[derive(Subcommand)]
enum WickedQuery {
    /// One exchange: the answer's pool against the challenge's pool (WA-23 bands).
    Exchange {
        /// The answer's dice, e.g. d10+d6
        answer: String,
        /// The challenge's dice, e.g. d12+d8
        challenge: String,
        /// Round 1 or 2 (four bands) or 3 (challenger out / answerer out).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
        round: u8,
        /// The challenge is the challenger's standing initiative roll, given that it beat the
        /// answerer's initiative (spec P9) instead of a fresh roll.
        #[arg(long)]
        opening: bool,
    },
    /// A whole two-party conflict with fixed dice (spec P10), plus first-round initiative (P8).
    Conflict {
        /// X's dice, e.g. d12+d8
        x: String,
        /// Y's dice, e.g. d10+d6
        y: String,
    },
}

#[derive(Subcommand)]
enum TriforceQuery {
    /// Each participant's chance of losing one combat (TF-23 … TF-26).
    Combat {
        /// plain, sword or shield for each participant (2 to 6).
        #[arg(required = true, num_args = 2..=6)]
        participants: Vec<String>,
    },
}

#[derive(Subcommand)]
enum TouristsQuery {
    /// Chance that the next k draws break a set of cards (each beaten by some drawn card).
    Break {
        /// The cards to break, comma-separated (e.g. the Dominant's line); being face up, they
        /// count as out of the deck (ND-4).
        #[arg(long)]
        targets: String,
        /// Cards the asker has seen leave the deck, comma-separated, each once (ND-1).
        #[arg(long, default_value = "")]
        seen: String,
        /// Cards out of the deck that the asker has not seen (other parties' Reserves).
        #[arg(long, default_value_t = 0)]
        unseen: usize,
        /// Number of draws.
        #[arg(long, default_value_t = 1)]
        draws: usize,
        /// The 10 suit blanks are in the deck (D-1).
        #[arg(long)]
        blanks: bool,
    },
    /// Distribution of reversed cards (and the Loss they mean) after k more draws.
    Reversed {
        /// Reversed cards already in the bid line.
        #[arg(long, default_value_t = 0)]
        already: u32,
        /// Number of draws (at most the cards left in the deck, ND-1).
        #[arg(long, default_value_t = 1)]
        draws: u32,
        /// The 10 suit blanks are in the deck (D-1): 77 cards instead of 67.
        #[arg(long)]
        blanks: bool,
    },
}

pub fn odds(args: OddsArgs) -> ExitCode {
    let json = args.json;
    let r = match args.system {
        OddsSystem::WickedAge(q) => wicked(q, json),
        OddsSystem::Triforce(TriforceQuery::Combat { participants }) => {
            triforce_combat(&participants, json)
        }
        OddsSystem::NdTourists(q) => tourists(q, json),
    };
    output::finish("odds", r)
}

fn wicked(q: WickedQuery, json: bool) -> Outcome {
    let pool = |t: &str| wicked_odds::parse_roll(t).map_err(|e| e.to_string());
    match q {
        WickedQuery::Exchange {
            answer,
            challenge,
            round,
            opening,
        } => {
            let kind = if opening {
                wicked_odds::ChallengeKind::Opening
            } else {
                wicked_odds::ChallengeKind::Fresh
            };
            let r = wicked_odds::exchange(&pool(&answer)?, &pool(&challenge)?, round, kind)
                .map_err(|e| e.to_string())?;
            if json {
                return output::json(&r);
            }
            let how = if opening {
                "standing initiative roll"
            } else {
                "fresh roll"
            };
            say!(
                "Answer {} against challenge {} ({how}), round {}:",
                r.answer,
                r.challenge,
                r.round
            );
            for b in &r.bands {
                row(b.text, &b.probability)?;
            }
            if let Some(p) = &r.answer_at_least_challenge {
                row("answer at least the challenge", p)?;
            }
            Ok(())
        }
        WickedQuery::Conflict { x, y } => {
            let r = wicked_odds::conflict(&pool(&x)?, &pool(&y)?).map_err(|e| e.to_string())?;
            if json {
                return output::json(&r);
            }
            say!(
                "Whole conflict, X = {} against Y = {} (no negotiation, no strengths):",
                r.x,
                r.y
            );
            row("X wins", &r.x_wins)?;
            row("Y wins", &r.y_wins)?;
            say!("First-round initiative:");
            row("X strictly higher on one roll", &r.initiative_x_higher)?;
            row("exact tie (rerolled)", &r.initiative_tie)?;
            row("Y strictly higher on one roll", &r.initiative_y_higher)?;
            row("X first after rerolling ties", &r.x_first_after_rerolls)?;
            Ok(())
        }
    }
}

fn triforce_combat(words: &[String], json: bool) -> Outcome {
    let gear = words
        .iter()
        .map(|w| combat_odds::parse_gear(w))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let r = combat_odds::combat(&gear).map_err(|e| e.to_string())?;
    if json {
        return output::json(&r);
    }
    say!("One Triforce combat (d12 each; sword d12+d12 wins ties; shield d20 loses ties):");
    for (i, (g, p)) in r.participants.iter().zip(&r.loses).enumerate() {
        let (name, what) = match g {
            triforce::Gear::None => ("plain", "loses a piece"),
            triforce::Gear::Sword => ("sword", "loses the sword"),
            triforce::Gear::Shield => ("shield", "loses the shield"),
        };
        row(&format!("#{} {name}: {what}", i + 1), p)?;
    }
    say!("Loser sets (add up to 1):");
    for s in &r.loser_sets {
        let names: Vec<String> = s.losers.iter().map(|i| format!("#{}", i + 1)).collect();
        row(&names.join(" + "), &s.probability)?;
    }
    Ok(())
}

fn tourists(q: TouristsQuery, json: bool) -> Outcome {
    match q {
        TouristsQuery::Break {
            targets,
            seen,
            unseen,
            draws,
            blanks,
        } => {
            let targets = draw_odds::parse_cards(&targets).map_err(|e| e.to_string())?;
            let seen_out = draw_odds::parse_card_set(&seen).map_err(|e| e.to_string())?;
            let k = nd_tourists::probability::Knowledge {
                seen_out,
                unseen_out: unseen,
                blanks,
            };
            let r = draw_odds::break_report(&k, &targets, draws).map_err(|e| e.to_string())?;
            if json {
                return output::json(&r);
            }
            let names: Vec<String> = r.targets.iter().map(|c| c.to_string()).collect();
            say!(
                "{} draw(s) from {} cards the asker has not seen ({} seen out, {} out unseen):",
                r.draws,
                r.candidates,
                r.seen_out,
                r.unseen_out
            );
            row(&format!("break {{{}}}", names.join(", ")), &r.breaks)?;
            for (c, p) in &r.per_target {
                row(&format!("  beat {c}"), p)?;
            }
            Ok(())
        }
        TouristsQuery::Reversed {
            already,
            draws,
            blanks,
        } => {
            let r =
                draw_odds::reversed_report(already, draws, blanks).map_err(|e| e.to_string())?;
            if json {
                return output::json(&r);
            }
            say!("Reversed cards after {draws} more draw(s), from {already} (ND-2, ND-21):");
            for c in &r.counts {
                row(
                    &format!("{} reversed ({})", c.reversed, c.severity.name()),
                    &c.probability,
                )?;
            }
            say!("Loss at the end of the round:");
            for (s, p) in &r.severities {
                row(s.name(), p)?;
            }
            Ok(())
        }
    }
}
