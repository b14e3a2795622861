//! The workbench's metrics, from observed games and knowing no game: each a rate with its 95%
//! Wilson interval or a mean with its 95% normal interval, and the number of games it rests on.
//!
//! * **length**: mean, median and spread, in the table's unit; how often a limit ended a game,
//!   and how often it stalled (nobody could or would act);
//! * **balance**: each seat's share of the games that had a winner, against a fair share of
//!   one in as many seats; **initiative**: how often the seat that had it won;
//! * **decisiveness**: how often the seat ahead alone at the midpoint won;
//! * **lead changes** per game;
//! * **luck**: how often the seat whose chance came out best won (a fair share if luck did not
//!   matter, every time if it decided everything);
//! * **skill** (games with one strong seat): the strong seat's wins against a casual seat's;
//! * **options**: each option's share of the strong bot's decisions where it was offered; an
//!   option offered often and never chosen is flagged as dominated.

use serde::Serialize;

use clash_core::workbench::{Ending, Mix, Observed};

use crate::simulate::wilson;

/// An option offered at least this often and never chosen is flagged as dominated.
pub const DOMINATED_AFTER: u32 = 10;

/// A share of `n` games (or decisions) with its 95% Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    pub k: u64,
    pub n: u64,
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn of(k: u64, n: u64) -> Rate {
        let (low, high) = wilson(k, n);
        Rate {
            k,
            n,
            value: if n == 0 { 0.0 } else { k as f64 / n as f64 },
            low,
            high,
        }
    }
}

/// A mean of `n` values with its 95% normal interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Mean {
    pub n: u64,
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Mean {
    pub fn of(values: impl IntoIterator<Item = f64>) -> Mean {
        let v: Vec<f64> = values.into_iter().collect();
        let n = v.len();
        if n == 0 {
            return Mean {
                n: 0,
                value: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let mean = v.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let half = t_975(n - 1) * (var / n as f64).sqrt();
        // A mean of values that cannot be negative (lengths, counts) has no interval below 0.
        let floor = if v.iter().all(|x| *x >= 0.0) {
            0.0
        } else {
            f64::NEG_INFINITY
        };
        Mean {
            n: n as u64,
            value: mean,
            low: (mean - half).max(floor),
            high: mean + half,
        }
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (the normal's beyond 30),
/// so a mean of few games gets the wider interval it deserves.
fn t_975(df: usize) -> f64 {
    const T: [f64; 31] = [
        f64::INFINITY,
        12.706,
        4.303,
        3.182,
        2.776,
        2.571,
        2.447,
        2.365,
        2.306,
        2.262,
        2.228,
        2.201,
        2.179,
        2.160,
        2.145,
        2.131,
        2.120,
        2.110,
        2.101,
        2.093,
        2.086,
        2.080,
        2.074,
        2.069,
        2.064,
        2.060,
        2.056,
        2.052,
        2.048,
        2.045,
        2.042,
    ];
    T.get(df).copied().unwrap_or(1.959_963_984_540_054)
}

/// Game lengths: their mean and spread, and a histogram's worth of them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Length {
    pub mean: Mean,
    pub median: f64,
    pub p10: u32,
    pub p90: u32,
    pub min: u32,
    pub max: u32,
    /// Every game's length, in game order (for histograms).
    #[serde(skip)]
    pub all: Vec<u32>,
}

/// One seat's share of the games that had a winner.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatWins {
    pub seat: String,
    pub wins: Rate,
}

/// The strong seat against a casual one, in games with one strong seat.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Skill {
    /// Games the strong seat won.
    pub strong: Rate,
    /// Games the casual seat drawn to compare with won.
    pub casual: Rate,
}

/// How often the strong bot took an option it was offered.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionShare {
    pub option: String,
    pub share: Rate,
    /// Offered at least [`DOMINATED_AFTER`] times and never chosen.
    pub dominated: bool,
}

/// Every metric of one run: one variant, one table, one mix of bots.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metrics {
    pub mix: Mix,
    pub games: u64,
    pub length: Length,
    /// Games the rules gave a winner.
    pub won: Rate,
    /// Games the rules ended with nobody winning.
    pub no_winner: Rate,
    /// Games a limit ended.
    pub limit: Rate,
    /// Games that stalled unfinished.
    pub stall: Rate,
    /// Each seat's wins among games with a winner (a fair share is one in as many seats).
    pub seats: Vec<SeatWins>,
    /// The seat with the initiative won (among games with a winner).
    pub initiative: Option<Rate>,
    /// The seat ahead alone at the midpoint won (among games with a winner and such a seat).
    pub decisiveness: Option<Rate>,
    pub lead_changes: Mean,
    /// The luckiest seat won (among games with a winner and chance).
    pub luck: Option<Rate>,
    pub skill: Option<Skill>,
    pub options: Vec<OptionShare>,
}

fn quantile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn length(games: &[Observed]) -> Length {
    let all: Vec<u32> = games.iter().map(|g| g.length).collect();
    let mut sorted = all.clone();
    sorted.sort_unstable();
    let median = match sorted.len() {
        0 => 0.0,
        l if l % 2 == 1 => f64::from(sorted[l / 2]),
        l => (f64::from(sorted[l / 2 - 1]) + f64::from(sorted[l / 2])) / 2.0,
    };
    Length {
        mean: Mean::of(all.iter().map(|x| f64::from(*x))),
        median,
        p10: quantile(&sorted, 0.1),
        p90: quantile(&sorted, 0.9),
        min: sorted.first().copied().unwrap_or(0),
        max: sorted.last().copied().unwrap_or(0),
        all,
    }
}

/// Among `games` for which `about` answers a seat, how often that seat won.
fn seat_won(games: &[&Observed], about: impl Fn(&Observed) -> Option<u8>) -> Option<Rate> {
    let asked: Vec<(u8, &Observed)> = games.iter().filter_map(|g| Some((about(g)?, *g))).collect();
    if asked.is_empty() {
        return None;
    }
    let k = asked.iter().filter(|(s, g)| g.winners.contains(s)).count();
    Some(Rate::of(k as u64, asked.len() as u64))
}

/// The seat whose luck came out best alone, if any.
fn luckiest(g: &Observed) -> Option<u8> {
    let best = g.luck.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut at = g
        .luck
        .iter()
        .enumerate()
        .filter(|(_, l)| (**l - best).abs() < 1e-9);
    match (at.next(), at.next()) {
        (Some((i, _)), None) => u8::try_from(i).ok(),
        _ => None,
    }
}

fn options(games: &[Observed]) -> Vec<OptionShare> {
    let mut totals: std::collections::BTreeMap<&str, (u64, u64)> = Default::default();
    for o in games.iter().flat_map(|g| &g.options) {
        let t = totals.entry(o.option.as_str()).or_default();
        t.0 += u64::from(o.offered);
        t.1 += u64::from(o.chosen);
    }
    totals
        .into_iter()
        .map(|(option, (offered, chosen))| OptionShare {
            option: option.to_string(),
            share: Rate::of(chosen, offered),
            dominated: chosen == 0 && offered >= u64::from(DOMINATED_AFTER),
        })
        .collect()
}

/// The metrics of `games`, played with `mix` on a table whose seats are `seats`.
pub fn measure(games: &[Observed], mix: Mix, seats: &[&str]) -> Metrics {
    let n = games.len() as u64;
    let count = |e: Ending| games.iter().filter(|g| g.ending == e).count() as u64;
    let decided: Vec<&Observed> = games.iter().filter(|g| !g.winners.is_empty()).collect();
    let d = decided.len() as u64;
    let seat_wins = seats
        .iter()
        .enumerate()
        .map(|(i, name)| SeatWins {
            seat: name.to_string(),
            wins: Rate::of(
                decided
                    .iter()
                    .filter(|g| g.winners.contains(&(i as u8)))
                    .count() as u64,
                d,
            ),
        })
        .collect();
    let skill = (mix == Mix::Mixed)
        .then(|| {
            let strong = seat_won(&games.iter().collect::<Vec<_>>(), |g| g.strong)?;
            let casual = seat_won(&games.iter().collect::<Vec<_>>(), |g| g.compared)?;
            Some(Skill { strong, casual })
        })
        .flatten();
    let with_luck: Vec<&Observed> = decided
        .iter()
        .copied()
        .filter(|g| !g.luck.is_empty())
        .collect();
    Metrics {
        mix,
        games: n,
        length: length(games),
        won: Rate::of(count(Ending::Won), n),
        no_winner: Rate::of(count(Ending::NoWinner), n),
        limit: Rate::of(count(Ending::Limit), n),
        stall: Rate::of(count(Ending::Stall), n),
        seats: seat_wins,
        initiative: seat_won(&decided, |g| g.first),
        decisiveness: seat_won(&decided, |g| g.midpoint_leader),
        lead_changes: Mean::of(games.iter().map(|g| f64::from(g.lead_changes))),
        luck: seat_won(&with_luck, luckiest),
        skill,
        options: options(games),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_core::workbench::OptionUse;

    fn game(winner: Option<u8>, length: u32, ending: Ending) -> Observed {
        Observed {
            winners: winner.into_iter().collect(),
            length,
            ending,
            first: Some(0),
            strong: Some(1),
            compared: Some(0),
            midpoint_leader: Some(1),
            lead_changes: 2,
            luck: vec![0.5, -0.5],
            options: vec![
                OptionUse {
                    option: "bid".into(),
                    offered: 5,
                    chosen: 5,
                },
                OptionUse {
                    option: "cover".into(),
                    offered: 5,
                    chosen: 0,
                },
            ],
        }
    }

    #[test]
    fn each_metric_counts_what_it_says() {
        let games = vec![
            game(Some(0), 10, Ending::Won),
            game(Some(1), 20, Ending::Won),
            game(None, 30, Ending::Limit),
            game(None, 5, Ending::Stall),
        ];
        let m = measure(&games, Mix::Mixed, &["A", "B"]);
        assert_eq!(m.games, 4);
        assert_eq!((m.won.k, m.limit.k, m.stall.k, m.no_winner.k), (2, 1, 1, 0));
        assert_eq!(m.length.mean.value, 16.25);
        assert_eq!((m.length.min, m.length.max), (5, 30));
        assert_eq!(m.seats[0].wins.k, 1);
        assert_eq!(m.seats[0].wins.n, 2);
        assert_eq!(m.initiative.unwrap().k, 1); // seat 0 had it and won once of two
        assert_eq!(m.decisiveness.unwrap().k, 1);
        assert_eq!(m.luck.unwrap().k, 1); // seat 0 was luckiest
        let skill = m.skill.unwrap();
        assert_eq!((skill.strong.k, skill.strong.n), (1, 4));
        assert_eq!((skill.casual.k, skill.casual.n), (1, 4));
        assert_eq!(m.lead_changes.value, 2.0);
        let cover = m.options.iter().find(|o| o.option == "cover").unwrap();
        assert!(cover.dominated, "offered 20 times, never chosen");
        assert!(
            !m.options
                .iter()
                .find(|o| o.option == "bid")
                .unwrap()
                .dominated
        );
    }

    #[test]
    fn a_mean_brackets_itself() {
        let m = Mean::of([1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m.value, 2.5);
        assert!(m.low < 2.5 && m.high > 2.5);
        assert_eq!(Mean::of([]).n, 0);
    }
}
