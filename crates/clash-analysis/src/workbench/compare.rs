//! Variants side by side: each metric of each variant set against the rules as written with the
//! same bots, flagged as different only where the two 95% intervals do not overlap.

use clash_core::workbench::Mix;
use serde::Serialize;

use super::VariantStudy;
use super::metrics::Metrics;

/// One figure with its interval, ready to set beside another.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// Stable key (`limit`, `seat:TMDF`), for plots and JSON readers.
    pub key: String,
    /// What it measures, in words ("games ended by a limit").
    pub label: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
    pub n: u64,
    /// A share (shown as a percentage) rather than a count.
    pub share: bool,
}

impl Figure {
    fn rate(key: &str, label: &str, r: &super::metrics::Rate) -> Figure {
        Figure {
            key: key.into(),
            label: label.into(),
            value: r.value,
            low: r.low,
            high: r.high,
            n: r.n,
            share: true,
        }
    }

    /// The figure as people read it: "42.0% [38.9%, 45.1%], n = 1000" or "12.3 [11.9, 12.7]".
    pub fn words(&self) -> String {
        if self.share {
            format!(
                "{:.1}% [{:.1}%, {:.1}%], n = {}",
                100.0 * self.value,
                100.0 * self.low,
                100.0 * self.high,
                self.n
            )
        } else {
            format!(
                "{:.2} [{:.2}, {:.2}], n = {}",
                self.value, self.low, self.high, self.n
            )
        }
    }

    /// Whether the two intervals do not overlap (and both rest on at least two games: one game
    /// has no spread to judge by).
    pub fn separates(&self, other: &Figure) -> bool {
        self.n > 1 && other.n > 1 && (self.low > other.high || other.low > self.high)
    }
}

/// Every figure of a run with an interval, in a fixed order.
pub fn figures(m: &Metrics) -> Vec<Figure> {
    let l = &m.length.mean;
    let mut out = vec![
        Figure {
            key: "length".into(),
            label: "mean length".into(),
            value: l.value,
            low: l.low,
            high: l.high,
            n: l.n,
            share: false,
        },
        Figure::rate("won", "games with a winner", &m.won),
        Figure::rate("limit", "games ended by a limit", &m.limit),
        Figure::rate("stall", "games that stalled", &m.stall),
    ];
    for s in &m.seats {
        out.push(Figure::rate(
            &format!("seat:{}", s.seat),
            &format!("{}'s share of the wins", s.seat),
            &s.wins,
        ));
    }
    let optional = [
        (
            "initiative",
            "the side with the initiative wins",
            m.initiative,
        ),
        (
            "decisiveness",
            "the side ahead at the midpoint wins",
            m.decisiveness,
        ),
        ("luck", "the luckiest side wins", m.luck),
    ];
    for (key, label, r) in optional {
        if let Some(r) = r {
            out.push(Figure::rate(key, label, &r));
        }
    }
    let c = &m.lead_changes;
    out.push(Figure {
        key: "lead_changes".into(),
        label: "lead changes per game".into(),
        value: c.value,
        low: c.low,
        high: c.high,
        n: c.n,
        share: false,
    });
    if let Some(s) = m.skill {
        out.push(Figure::rate(
            "skill:strong",
            "the strong seat wins",
            &s.strong,
        ));
        out.push(Figure::rate(
            "skill:casual",
            "a casual seat wins",
            &s.casual,
        ));
    }
    out
}

/// A metric where a variant's interval separates from the rules as written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// The variant's position in the study (the rules as written are 0).
    pub variant: usize,
    pub name: String,
    pub mix: Mix,
    pub as_written: Figure,
    pub changed: Figure,
}

impl Difference {
    /// "games ended by a limit: 90.5% [88.5%, 92.2%] → 12.0% [10.1%, 14.2%] with casual bots".
    pub fn words(&self) -> String {
        format!(
            "{}: {} → {} with {}",
            self.as_written.label,
            self.as_written.words(),
            self.changed.words(),
            self.mix.words()
        )
    }
}

/// Every separated metric of every variant against the rules as written (the first).
pub fn differences(variants: &[VariantStudy]) -> Vec<Difference> {
    let Some((base, rest)) = variants.split_first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, v) in rest.iter().enumerate() {
        for run in &v.runs {
            let Some(b) = base.runs.iter().find(|r| r.mix == run.mix) else {
                continue;
            };
            let before = figures(b);
            for after in figures(run) {
                if let Some(was) = before.iter().find(|f| f.key == after.key)
                    && was.separates(&after)
                {
                    out.push(Difference {
                        variant: i + 1,
                        name: v.variant.name.clone(),
                        mix: run.mix,
                        as_written: was.clone(),
                        changed: after,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(value: f64, low: f64, high: f64) -> Figure {
        Figure {
            key: "x".into(),
            label: "x".into(),
            value,
            low,
            high,
            n: 100,
            share: true,
        }
    }

    #[test]
    fn only_intervals_that_do_not_overlap_separate() {
        assert!(f(0.9, 0.85, 0.95).separates(&f(0.1, 0.05, 0.15)));
        assert!(!f(0.5, 0.4, 0.6).separates(&f(0.55, 0.45, 0.65)));
        let mut none = f(0.1, 0.0, 0.2);
        none.n = 0;
        assert!(!none.separates(&f(0.9, 0.8, 1.0)));
    }
}
