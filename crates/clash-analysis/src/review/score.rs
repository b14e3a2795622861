//! The numbers of a review that know no game: lichess's accuracy, the grades, luck sums, the
//! key moment and the biggest swings, and the summary in words.
//!
//! # Accuracy (as lichess defines it)
//!
//! Chances are in percent here (0 to 100), as lichess's win percentages are.
//!
//! * **One decision** that gives away `L` percentage points of its side's chance (the best
//!   choice's chance minus the chance of the choice made) scores
//!   `A(L) = 103.1668100711649 · e^(−0.04354415386753951 · L) − 3.166924740191411 + 1`,
//!   clamped to 0…100, and exactly 100 when nothing is given away (`L ≤ 0`). The `+ 1` is
//!   lichess's allowance for imperfect analysis.
//! * **A player's accuracy** over a conflict or a table is the average of two means of their
//!   decisions' scores: the mean weighted by how volatile the position was, and the harmonic
//!   mean (each score at least 1). The volatility of a decision is the standard deviation
//!   (population) of its side's chance over a window of the chart around it, clamped to
//!   0.5…12: the window holds `clamp(n / 10, 2, 8)` consecutive points of that side's chance,
//!   `n` being the conflict's steps; the windows slide over the points, and the first window
//!   also stands for the first `size − 2` decisions, exactly as lichess slides them over a
//!   game's positions.

use clash_core::Seat;
use clash_core::review::{ConflictReview, Grade, Moment, PlayerReview};

/// Lichess's score of one decision that gave away `loss` (a probability, 0 to 1).
pub fn decision_accuracy(loss: f64) -> f64 {
    let points = loss * 100.0;
    if points <= 0.0 {
        return 100.0;
    }
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * points).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// The harmonic mean with every value at least 1 (lichess's `Maths.harmonicMean`).
fn harmonic_mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let sum: f64 = xs.iter().map(|x| 1.0 / x.max(1.0)).sum();
    Some(xs.len() as f64 / sum)
}

fn weighted_mean(xs: &[(f64, f64)]) -> Option<f64> {
    let total: f64 = xs.iter().map(|(_, w)| w).sum();
    if xs.is_empty() || total <= 0.0 {
        return None;
    }
    Some(xs.iter().map(|(x, w)| x * w).sum::<f64>() / total)
}

fn std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// Lichess's accuracy from scored decisions `(score, volatility weight)`.
pub fn accuracy(scored: &[(f64, f64)]) -> Option<f64> {
    let weighted = weighted_mean(scored)?;
    let scores: Vec<f64> = scored.iter().map(|(a, _)| *a).collect();
    let harmonic = harmonic_mean(&scores)?;
    Some((weighted + harmonic) / 2.0)
}

/// The volatility weight of each step of a chart: `chances` is one side's chance (0 to 1)
/// before the first step and after each step; the answer has one weight per step.
pub fn volatility(chances: &[f64]) -> Vec<f64> {
    let steps = chances.len().saturating_sub(1);
    if steps == 0 {
        return Vec::new();
    }
    let percent: Vec<f64> = chances.iter().map(|c| c * 100.0).collect();
    let size = (steps / 10).clamp(2, 8).min(percent.len());
    let first = &percent[..size];
    let mut windows: Vec<&[f64]> = vec![first; size.saturating_sub(2)];
    windows.extend(percent.windows(size));
    (0..steps)
        .map(|i| {
            let w = windows.get(i).copied().unwrap_or(first);
            std_dev(w).clamp(0.5, 12.0)
        })
        .collect()
}

/// What one seat's decisions and luck come to, accumulated over moments.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    /// `(score, weight, loss)` of every decision judged.
    pub scored: Vec<(f64, f64, f64)>,
    pub grades: [u32; 3],
    pub rolls: u32,
    pub luck: f64,
    pub result: Option<f64>,
}

impl Tally {
    pub fn add_decision(&mut self, loss: f64, weight: f64) {
        self.scored
            .push((decision_accuracy(loss), weight, loss.max(0.0)));
        match Grade::of(loss) {
            Grade::Inaccuracy => self.grades[0] += 1,
            Grade::Mistake => self.grades[1] += 1,
            Grade::Blunder => self.grades[2] += 1,
            _ => {}
        }
    }

    pub fn merge(&mut self, other: &Tally) {
        self.scored.extend(other.scored.iter().copied());
        for (a, b) in self.grades.iter_mut().zip(other.grades) {
            *a += b;
        }
        self.rolls += other.rolls;
        self.luck += other.luck;
        self.result = match (self.result, other.result) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
    }

    /// The player's line of the review.
    pub fn player(&self, seat: Seat, name: &str) -> PlayerReview {
        let mut p = PlayerReview::new(seat, name);
        p.decisions = self.scored.len() as u32;
        let pairs: Vec<(f64, f64)> = self.scored.iter().map(|(a, w, _)| (*a, *w)).collect();
        p.accuracy = accuracy(&pairs);
        p.average_loss = (!self.scored.is_empty())
            .then(|| self.scored.iter().map(|s| s.2).sum::<f64>() / self.scored.len() as f64);
        [p.inaccuracies, p.mistakes, p.blunders] = self.grades;
        p.rolls = self.rolls;
        p.luck = self.luck;
        p.result = self.result;
        p.adjusted = self.result.map(|r| r - self.luck);
        p
    }
}

/// How far a moment moved the chances: the largest change of any side's chance.
pub fn swing(m: &Moment) -> f64 {
    match (&m.before, &m.after) {
        (Some(b), Some(a)) => b
            .iter()
            .zip(a)
            .map(|(x, y)| (y - x).abs())
            .fold(0.0, f64::max),
        _ => 0.0,
    }
}

/// The key moment and the biggest swings of a conflict (up to three, largest first; a swing
/// of less than one percentage point is not one).
pub fn swings(moments: &[Moment]) -> (Option<u32>, Vec<u32>) {
    let mut by: Vec<(usize, f64)> = moments
        .iter()
        .enumerate()
        .map(|(i, m)| (i, swing(m)))
        .filter(|(_, s)| *s >= 0.01)
        .collect();
    by.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let top: Vec<u32> = by.iter().take(3).map(|(i, _)| *i as u32).collect();
    (top.first().copied(), top)
}

/// A probability as people read it: "45%".
pub fn percent(p: f64) -> String {
    format!("{:.0}%", (p * 100.0).clamp(0.0, 100.0))
}

/// A change of chance as people read it: "+12 points", "−3 points", "+1 point", "less than a
/// point" (percentage points of a chance).
pub fn points(p: f64) -> String {
    let n = (p * 100.0).round();
    let unit = |n: f64| if n == 1.0 { "point" } else { "points" };
    if p.abs() < 1e-9 {
        "no change".into()
    } else if n == 0.0 {
        "less than a point".into()
    } else if n > 0.0 {
        format!("+{n:.0} {}", unit(n))
    } else {
        format!("\u{2212}{:.0} {}", -n, unit(-n))
    }
}

/// A sum of luck or a result as people read it: "+0.21", "−1.05" (1 is a whole win).
pub fn signed(x: f64) -> String {
    if x < -0.005 {
        format!("\u{2212}{:.2}", -x)
    } else {
        format!("+{:.2}", x.max(0.0))
    }
}

/// The conflict in plain words: how each side's chance went, the key moment, and each
/// player's decisions and luck.
pub fn summary(c: &ConflictReview) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(first), Some(last)) = (c.points.first(), c.points.last()) {
        for (i, side) in c.sides.iter().enumerate() {
            let (a, b) = (first.chances.get(i), last.chances.get(i));
            if let (Some(a), Some(b)) = (a, b) {
                out.push(format!(
                    "{}'s chance went from {} to {}.",
                    side.name,
                    percent(*a),
                    percent(*b)
                ));
            }
        }
    }
    if let Some(m) = c.key_moment.and_then(|k| c.moments.get(k as usize)) {
        out.push(format!(
            "The key moment, step {}: {} ({} for the side it helped most).",
            m.step + 1,
            m.text,
            points(swing(m))
        ));
    }
    for p in &c.players {
        let mut line = format!("{}: {} decisions", p.name, p.decisions);
        if let Some(a) = p.accuracy {
            line.push_str(&format!(", accuracy {a:.0}"));
        }
        let counts = [
            (p.inaccuracies, "inaccuracy", "inaccuracies"),
            (p.mistakes, "mistake", "mistakes"),
            (p.blunders, "blunder", "blunders"),
        ];
        for (n, one, many) in counts {
            if n > 0 {
                line.push_str(&format!(", {n} {}", if n == 1 { one } else { many }));
            }
        }
        if p.rolls > 0 {
            line.push_str(&format!(", luck {}", signed(p.luck)));
        }
        line.push('.');
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_that_gives_nothing_away_scores_100() {
        assert_eq!(decision_accuracy(0.0), 100.0);
        assert_eq!(decision_accuracy(-0.1), 100.0);
        // Lichess's curve with its +1: 5 points lost ≈ 80.82, 10 ≈ 64.58, 40 ≈ 15.91, and
        // losing everything scores 0.
        assert!((decision_accuracy(0.05) - 80.815).abs() < 0.001);
        assert!((decision_accuracy(0.10) - 64.580).abs() < 0.001);
        assert!((decision_accuracy(0.40) - 15.909).abs() < 0.001);
        assert_eq!(decision_accuracy(1.0), 0.0);
    }

    #[test]
    fn accuracy_averages_the_weighted_and_the_harmonic_mean() {
        // Two decisions, 100 and 50, weights 1 and 3: weighted 62.5, harmonic 66.67.
        let a = accuracy(&[(100.0, 1.0), (50.0, 3.0)]).unwrap();
        assert!((a - (62.5 + 200.0 / 3.0) / 2.0).abs() < 1e-9, "{a}");
        assert_eq!(accuracy(&[]), None);
        // A 0 counts as 1 in the harmonic mean, as lichess has it.
        let z = accuracy(&[(0.0, 1.0), (100.0, 1.0)]).unwrap();
        assert!((z - (50.0 + 2.0 / (1.0 + 0.01)) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn volatility_windows_slide_as_lichess_slides_them() {
        // 4 steps: windows of 2 points; a flat chart weighs every step 0.5 (the floor).
        assert_eq!(volatility(&[0.5; 5]), vec![0.5; 4]);
        // A jump from 50% to 90% in step 1: the window [50, 90] has deviation 20 → 12 (cap).
        let w = volatility(&[0.5, 0.9, 0.9, 0.9, 0.9]);
        assert_eq!(w.len(), 4);
        assert_eq!(w[0], 12.0);
        assert_eq!(w[1], 0.5);
        assert!(volatility(&[0.5]).is_empty());
    }

    #[test]
    fn a_tally_counts_grades_and_takes_luck_out_of_the_result() {
        let mut t = Tally::default();
        t.add_decision(0.0, 1.0);
        t.add_decision(0.06, 1.0);
        t.add_decision(0.12, 1.0);
        t.add_decision(0.5, 1.0);
        t.luck = 0.3;
        t.rolls = 2;
        t.result = Some(1.0);
        let p = t.player(Seat::Player(1), "Ada");
        assert_eq!((p.inaccuracies, p.mistakes, p.blunders), (1, 1, 1));
        assert_eq!(p.decisions, 4);
        assert!((p.adjusted.unwrap() - 0.7).abs() < 1e-12);
        assert!((p.average_loss.unwrap() - 0.17).abs() < 1e-12);
    }

    #[test]
    fn words_for_chances() {
        assert_eq!(percent(0.456), "46%");
        assert_eq!(points(0.12), "+12 points");
        assert_eq!(points(-0.031), "\u{2212}3 points");
        assert_eq!(points(0.001), "less than a point");
        assert_eq!(points(0.0), "no change");
        assert_eq!(points(-0.01), "\u{2212}1 point");
        assert_eq!(signed(0.214), "+0.21");
        assert_eq!(signed(-1.05), "\u{2212}1.05");
    }
}
