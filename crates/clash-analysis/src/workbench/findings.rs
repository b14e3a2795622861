//! What stands out in a study, in sentences a designer reads first. Each finding says whether it
//! is about the rules, about the bots, or about what a variant changed: where casual and strong
//! bots disagree (a stall casual bots fall into and strong ones break), the finding says so, so
//! a designer does not blame the rules for the bots' play.

use clash_core::workbench::{BenchTable, ExactTable, Mix};
use serde::Serialize;

use super::compare::Difference;
use super::metrics::{Metrics, Rate};
use super::{AS_WRITTEN, VariantStudy};

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum About {
    /// The rules themselves: it holds whichever bots play.
    Rules,
    /// The bots: it holds with one strength and not the other.
    Bots,
    /// What a variant changed against the rules as written.
    Variant,
}

/// One sentence or two.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The variant it is about.
    pub variant: String,
    pub about: About,
    pub text: String,
}

fn pct(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

fn rate(r: &Rate) -> String {
    format!(
        "{} [{}–{}, n = {}]",
        pct(r.value),
        pct(r.low).trim_end_matches('%'),
        pct(r.high),
        r.n
    )
}

fn run(v: &VariantStudy, mix: Mix) -> Option<&Metrics> {
    v.runs.iter().find(|r| r.mix == mix)
}

/// The run to judge balance, decisiveness and luck by: strong bots' when they decided enough
/// games (their play is the nearer to people's), else the run with the most games decided.
fn judged(v: &VariantStudy) -> Option<&Metrics> {
    let decided = |m: &Metrics| m.seats.first().map_or(0, |s| s.wins.n);
    run(v, Mix::Strong)
        .filter(|m| decided(m) >= 20)
        .or_else(|| {
            v.runs
                .iter()
                .filter(|m| m.mix != Mix::Mixed)
                .max_by_key(|m| decided(m))
        })
}

/// The share of games ended by a limit or a stall.
fn unfinished(m: &Metrics) -> Rate {
    Rate::of(m.limit.k + m.stall.k, m.games)
}

fn separate(a: &Rate, b: &Rate) -> bool {
    a.n > 0 && b.n > 0 && (a.low > b.high || b.low > a.high)
}

fn endings(table: &BenchTable, v: &VariantStudy, out: &mut Vec<Finding>) {
    let name = &v.variant.name;
    let casual = run(v, Mix::Casual);
    let strong = run(v, Mix::Strong);
    let say = |about, text: String| Finding {
        variant: name.clone(),
        about,
        text,
    };
    let Some(c) = casual.or(strong) else { return };
    let cu = unfinished(c);
    if cu.low < 0.1 {
        return;
    }
    let first = format!(
        "With {}, {} of games end unfinished (a limit or a stall, {} {} long on average).",
        c.mix.words(),
        rate(&cu),
        format_args!("{:.1}", c.length.mean.value),
        table.unit
    );
    match (c.mix, strong) {
        (Mix::Casual, Some(s)) => {
            let su = unfinished(s);
            if separate(&cu, &su) && su.value < cu.value {
                out.push(say(
                    About::Bots,
                    format!("{first} Strong bots finish more: {} end unfinished with strong bots, so this stall is casual play's more than the rules'.", rate(&su)),
                ));
            } else if su.low >= 0.1 {
                out.push(say(
                    About::Rules,
                    format!("{first} With strong bots {} do: the rules, not the bots, keep these games from ending.", rate(&su)),
                ));
            } else {
                out.push(say(About::Rules, first));
            }
        }
        _ => out.push(say(About::Rules, first)),
    }
}

fn balance(v: &VariantStudy, out: &mut Vec<Finding>) {
    let Some(m) = judged(v) else {
        return;
    };
    let fair = 1.0 / m.seats.len().max(1) as f64;
    let lopsided: Vec<String> = m
        .seats
        .iter()
        .filter(|s| s.wins.n >= 10 && (s.wins.low > fair || s.wins.high < fair))
        .map(|s| format!("{} wins {}", s.seat, rate(&s.wins)))
        .collect();
    if !lopsided.is_empty() {
        out.push(Finding {
            variant: v.variant.name.clone(),
            about: About::Rules,
            text: format!(
                "Seats are not balanced with {}: {} of the games with a winner, where a fair share is {}.",
                m.mix.words(),
                lopsided.join("; "),
                pct(fair)
            ),
        });
    }
    if let Some(i) = m.initiative.filter(|i| i.n >= 10) {
        let verdict = if i.low > fair {
            "the initiative helps"
        } else if i.high < fair {
            "the initiative hurts"
        } else {
            "the initiative makes no measurable difference"
        };
        out.push(Finding {
            variant: v.variant.name.clone(),
            about: About::Rules,
            text: format!(
                "The side with the initiative wins {} of the games with a winner with {} (a fair share is {}): {verdict}.",
                rate(&i),
                m.mix.words(),
                pct(fair)
            ),
        });
    }
}

fn decisiveness(table: &BenchTable, v: &VariantStudy, out: &mut Vec<Finding>) {
    let Some(m) = judged(v) else {
        return;
    };
    let Some(d) = m.decisiveness.filter(|d| d.n >= 10) else {
        return;
    };
    let verdict = if d.low > 0.8 {
        "games are mostly settled by then"
    } else if d.high < 0.6 {
        "comebacks are common"
    } else {
        "a lead at halfway counts, without settling the game"
    };
    out.push(Finding {
        variant: v.variant.name.clone(),
        about: About::Rules,
        text: format!(
            "The side ahead at the midpoint ({}) wins {} with {}, with {:.1} lead changes a game: {verdict}.",
            table.lead,
            rate(&d),
            m.mix.words(),
            m.lead_changes.value
        ),
    });
}

fn skill_and_luck(v: &VariantStudy, out: &mut Vec<Finding>) {
    let name = v.variant.name.clone();
    if let Some(s) = run(v, Mix::Mixed).and_then(|m| m.skill) {
        let text = if separate(&s.strong, &s.casual) && s.strong.value > s.casual.value {
            format!(
                "Skill shows: one strong bot among casual ones wins {} of games, a casual seat {}.",
                rate(&s.strong),
                rate(&s.casual)
            )
        } else {
            format!(
                "Skill makes no measurable difference here: one strong bot wins {}, a casual seat {} (the rules, or a weak strong bot).",
                rate(&s.strong),
                rate(&s.casual)
            )
        };
        out.push(Finding {
            variant: name.clone(),
            about: About::Rules,
            text,
        });
    }
    let Some(m) = judged(v) else {
        return;
    };
    if let Some(l) = m.luck.filter(|l| l.n >= 10) {
        let fair = 1.0 / m.seats.len().max(1) as f64;
        let share = ((l.value - fair) / (1.0 - fair)).clamp(0.0, 1.0);
        out.push(Finding {
            variant: name,
            about: About::Rules,
            text: format!(
                "Luck: the side whose draws and rolls came out best wins {} with {} ({} if luck did not matter, 100% if it decided everything), about {} of the way to luck deciding.",
                rate(&l),
                m.mix.words(),
                pct(fair),
                pct(share)
            ),
        });
    }
}

fn dominated(v: &VariantStudy, out: &mut Vec<Finding>) {
    let mut never: Vec<String> = Vec::new();
    for m in v.runs.iter().filter(|m| m.mix != Mix::Casual) {
        for o in m.options.iter().filter(|o| o.dominated) {
            let line = format!("{} (offered {} times)", o.option, o.share.n);
            if !never.iter().any(|n| n.starts_with(&o.option)) {
                never.push(line);
            }
        }
    }
    if !never.is_empty() {
        out.push(Finding {
            variant: v.variant.name.clone(),
            about: About::Bots,
            text: format!(
                "The strong bot never chose {}: dominated, by the rules or by its own policy.",
                never.join(", ")
            ),
        });
    }
}

/// The exact table's verdict on the side its rows play.
pub fn exact_words(t: &ExactTable) -> Option<String> {
    let cells: Vec<f64> = t.values.iter().flatten().flatten().copied().collect();
    let (lo, hi) = cells
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(*x), b.max(*x))
        });
    if cells.is_empty() {
        return None;
    }
    let n = cells.len();
    Some(if hi < 0.0 {
        format!(
            "Exactly solved: {} loses in every one of {n} matchups, by {:.2}–{:.2}.",
            t.rows_are, -hi, -lo
        )
    } else if lo > 0.0 {
        format!(
            "Exactly solved: {} wins in every one of {n} matchups, by {:.2}–{:.2}.",
            t.rows_are, lo, hi
        )
    } else {
        let ahead = cells.iter().filter(|x| **x > 0.0).count();
        format!(
            "Exactly solved: {} is favoured in {ahead} of {n} matchups (values {lo:+.2} to {hi:+.2}).",
            t.rows_are
        )
    })
}

fn variant_summary(v: &VariantStudy, differences: &[Difference], out: &mut Vec<Finding>) {
    let mine: Vec<String> = differences
        .iter()
        .filter(|d| d.name == v.variant.name)
        .map(Difference::words)
        .collect();
    let changes = if v.changes.is_empty() {
        "no change".to_string()
    } else {
        v.changes.join("; ")
    };
    let text = if mine.is_empty() {
        format!(
            "Against the rules as written, “{}” — {changes} — moved no figure beyond its interval.",
            v.variant.name
        )
    } else {
        format!(
            "Against the rules as written, “{}” — {changes} — changes {}.",
            v.variant.name,
            mine.join("; ")
        )
    };
    out.push(Finding {
        variant: v.variant.name.clone(),
        about: About::Variant,
        text,
    });
}

/// Every finding of a study, the rules as written first, then each variant.
pub fn findings(
    table: &BenchTable,
    variants: &[VariantStudy],
    differences: &[Difference],
) -> Vec<Finding> {
    let mut out = Vec::new();
    for v in variants {
        if v.variant.name != AS_WRITTEN {
            variant_summary(v, differences, &mut out);
        }
        endings(table, v, &mut out);
        balance(v, &mut out);
        decisiveness(table, v, &mut out);
        skill_and_luck(v, &mut out);
        dominated(v, &mut out);
        if let Some(text) = v.exact.as_ref().and_then(exact_words) {
            out.push(Finding {
                variant: v.variant.name.clone(),
                about: About::Rules,
                text,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_table_all_below_zero_reads_as_a_loss_everywhere() {
        let t = ExactTable {
            title: "t".into(),
            rows_are: "the side acting first".into(),
            cols_are: "the other".into(),
            rows: vec!["a".into(), "b".into()],
            cols: vec!["a".into(), "b".into()],
            values: vec![vec![Some(-0.02), Some(-0.1)], vec![Some(-0.05), None]],
            note: String::new(),
        };
        let w = exact_words(&t).unwrap();
        assert!(
            w.contains("loses in every one of 3 matchups, by 0.02–0.10"),
            "{w}"
        );
    }
}
