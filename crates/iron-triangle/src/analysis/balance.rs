//! The level-0 balance table of Iron Triangle: every energy build against every other.
//!
//! A level-0 character spreads 10 energy over the three types, at least 1 in each (IT-9): 36
//! builds. Each ordered pair is one whole duel ([`crate::analysis::duel`]) between a PC with the first
//! build (active first) and the GM's NPC with the second, both knowing the three starting moves
//! (IT-12). The table records the duel's value (P(PC wins) − P(NPC wins)), P(PC wins) and the
//! first turn's best stances.
//!
//! A build against itself is not a fair duel: the rules are symmetric (IT-32) except that the
//! GM's side wins when both go out in the same turn (IT-27) and picks the active character
//! after a tie (IT-26), so the diagonal is below 0 (tested in [`crate::analysis::duel`]).
//!
//! Runs are resumable: each finished duel is one line of a JSON Lines file, read back on the
//! next run, so an interrupted table picks up where it stopped.

use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::time::Instant;

use crate::character::PerAction;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::analysis::duel::{self, DuelError, DuelSolution, DuelTable, Weighted};
use crate::analysis::turn_game::{FighterSpec, TurnSpec};

/// A level-0 character's maximum energy per type (IT-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Build {
    pub defend: u32,
    pub grapple: u32,
    pub attack: u32,
}

/// Energy a level-0 character spreads over its three types (IT-9).
pub const LEVEL_0_ENERGY: u32 = 10;

impl Build {
    fn spec(self, name: &str) -> FighterSpec {
        FighterSpec {
            name: name.into(),
            energy: PerAction {
                defend: self.defend,
                grapple: self.grapple,
                attack: self.attack,
            },
            max: None,
            moves: None,
            combos: Vec::new(),
            pile: Vec::new(),
            level: 0,
            specials: Vec::new(),
        }
    }
}

impl fmt::Display for Build {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.defend, self.grapple, self.attack)
    }
}

/// Why a build cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("{0:?} is not a build: write Defend/Grapple/Attack, e.g. 3/3/4")]
    Syntax(String),
    #[error(
        "{0} is not a level-0 build: at least 1 in each type and {LEVEL_0_ENERGY} in all (IT-9)"
    )]
    NotLevel0(Build),
}

impl FromStr for Build {
    type Err = BuildError;

    fn from_str(text: &str) -> Result<Build, BuildError> {
        let parts: Vec<u32> = text
            .trim()
            .split('/')
            .map(|p| p.trim().parse())
            .collect::<Result<_, _>>()
            .map_err(|_| BuildError::Syntax(text.into()))?;
        let [defend, grapple, attack] = parts.as_slice() else {
            return Err(BuildError::Syntax(text.into()));
        };
        let b = Build {
            defend: *defend,
            grapple: *grapple,
            attack: *attack,
        };
        let level_0 = [b.defend, b.grapple, b.attack].iter().all(|x| *x >= 1)
            && b.defend + b.grapple + b.attack == LEVEL_0_ENERGY;
        if level_0 {
            Ok(b)
        } else {
            Err(BuildError::NotLevel0(b))
        }
    }
}

/// The 36 level-0 builds (IT-9), Defend-heaviest first.
pub fn level_0_builds() -> Vec<Build> {
    builds_of(LEVEL_0_ENERGY)
}

/// Every way to spread `total` energy over the three types, at least 1 in each (IT-9 with a
/// variant's energy total), Defend-heaviest first.
pub fn builds_of(total: u32) -> Vec<Build> {
    let mut out = Vec::new();
    for defend in (1..total.saturating_sub(1)).rev() {
        for grapple in (1..total - defend).rev() {
            out.push(Build {
                defend,
                grapple,
                attack: total - defend - grapple,
            });
        }
    }
    out
}

/// One finished duel of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DuelRecord {
    /// The PC's build (active first).
    pub pc: Build,
    /// The GM's NPC's build.
    pub npc: Build,
    /// P(PC wins) − P(NPC wins) with best play.
    pub value: f64,
    /// P(PC wins).
    pub pc_wins: f64,
    /// The PC's first-turn stances with their probabilities, e.g. `D2 0.5571, A3 0.1858`.
    pub pc_opening: String,
    /// The NPC's first-turn stances.
    pub npc_opening: String,
    /// Conflict states solved.
    pub states: usize,
    /// Time the duel took.
    pub seconds: f64,
}

fn opening(mix: &[Weighted<crate::conflict::Stance>]) -> String {
    let stance = |s: &crate::conflict::Stance| match s.action {
        Some(a) if s.amount > 0 => format!("{}{}", a.letter(), s.amount),
        _ => "none".into(),
    };
    mix.iter()
        .map(|w| format!("{} {:.4}", stance(&w.option), w.probability))
        .collect::<Vec<_>>()
        .join(", ")
}

fn duel_spec(pc: Build, npc: Build) -> TurnSpec {
    TurnSpec {
        active: pc.spec("PC"),
        opponent: npc.spec("NPC"),
        chain: Vec::new(),
    }
}

fn record(pc: Build, npc: Build, s: &DuelSolution, start: Instant) -> DuelRecord {
    DuelRecord {
        pc,
        npc,
        value: s.value,
        pc_wins: s.first_wins,
        pc_opening: opening(&s.stances_first),
        npc_opening: opening(&s.stances_second),
        states: s.states,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Solve the duel of `pc` against `npc` on its own.
pub fn duel(pc: Build, npc: Build) -> Result<DuelRecord, DuelError> {
    let start = Instant::now();
    let s = duel::solve_duel(&duel_spec(pc, npc), &mut |_| {})?;
    Ok(record(pc, npc, &s, start))
}

/// Solve the duel of `pc` against `npc` on `table`'s memo, shared with the duels solved on it
/// before: the same record as [`duel`]'s (but for `seconds`, this duel's share of the work:
/// the first duels solve the states later ones find solved).
pub fn duel_on(table: &mut DuelTable, pc: Build, npc: Build) -> Result<DuelRecord, DuelError> {
    let start = Instant::now();
    let s = table.solve(&duel_spec(pc, npc))?;
    Ok(record(pc, npc, &s, start))
}

/// Solve `pairs` (PC build, NPC build) on `threads` threads (all cores when `None`), handing
/// each finished duel to `done` as soon as it is solved (so a caller can save it at once).
///
/// Each thread takes a run of the pairs in their order and solves it on a memo of its own
/// ([`DuelTable`]): the duels of a run share most of their states, and threads need no locks.
pub fn solve_all(
    pairs: &[(Build, Build)],
    threads: Option<usize>,
    done: &(dyn Fn(Result<DuelRecord, DuelError>) + Sync),
) {
    use rayon::prelude::*;
    let pool = threads.and_then(|t| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build()
            .ok()
    });
    let run = || {
        let runs = rayon::current_num_threads().max(1);
        let size = pairs.len().div_ceil(runs).max(1);
        pairs.par_chunks(size).with_max_len(1).for_each(|run| {
            let mut table = DuelTable::new();
            for (pc, npc) in run {
                done(duel_on(&mut table, *pc, *npc));
            }
        })
    };
    match pool {
        Some(pool) => pool.install(run),
        None => run(),
    }
}

/// Records already in a JSON Lines file (a missing file has none; a torn last line, from an
/// interrupted run, is skipped).
pub fn read_records(path: &Path) -> Vec<DuelRecord> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The table as CSV, one row per duel.
pub fn csv(records: &[DuelRecord]) -> String {
    let mut out =
        String::from("pc_build,npc_build,value,pc_wins,pc_opening,npc_opening,states,seconds\n");
    for r in records {
        out.push_str(&format!(
            "{},{},{:.9},{:.9},\"{}\",\"{}\",{},{:.3}\n",
            r.pc, r.npc, r.value, r.pc_wins, r.pc_opening, r.npc_opening, r.states, r.seconds
        ));
    }
    out
}

/// Why a heatmap could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum HeatmapError {
    #[error("plot files end in .svg or .png")]
    Format,
    #[error("drawing failed: {0}")]
    Draw(String),
}

/// A heatmap of the table: one cell per duel, the PC's build down the side, the NPC's across,
/// coloured by value (blue: the PC is favoured, red: the NPC is; white: even; grey: not solved).
pub fn heatmap(path: &Path, builds: &[Build], records: &[DuelRecord]) -> Result<(), HeatmapError> {
    clash_analysis::histogram::register_font().map_err(|e| HeatmapError::Draw(e.to_string()))?;
    let size = (1100, 1000);
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            paint(&root, builds, records)?;
            root.present()
                .map_err(|e| HeatmapError::Draw(e.to_string()))
        }
        Some("png") => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            paint(&root, builds, records)?;
            root.present()
                .map_err(|e| HeatmapError::Draw(e.to_string()))
        }
        _ => Err(HeatmapError::Format),
    }
}

/// Blue for `+scale` (the PC favoured), white for 0, red for `−scale` (the NPC favoured).
fn colour(value: f64, scale: f64) -> RGBColor {
    let v = (value / scale).clamp(-1.0, 1.0);
    let fade = |full: u8, t: f64| (255.0 - (255.0 - f64::from(full)) * t).round() as u8;
    if v >= 0.0 {
        RGBColor(fade(33, v), fade(102, v), fade(172, v))
    } else {
        RGBColor(fade(178, -v), fade(24, -v), fade(43, -v))
    }
}

/// Builds as tick labels: build `i` spans `2i..2i + 2` on an axis, so its centre is `2i + 1`.
fn build_at(builds: &[Build], x: u32) -> String {
    builds
        .get((x / 2) as usize)
        .map(ToString::to_string)
        .unwrap_or_default()
}

fn paint<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    builds: &[Build],
    records: &[DuelRecord],
) -> Result<(), HeatmapError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| HeatmapError::Draw(e.to_string());
    root.fill(&WHITE).map_err(err)?;
    let font = clash_analysis::histogram::FONT;
    let root = root
        .titled(
            "Iron Triangle level-0 builds: value to the PC, P(PC wins) - P(NPC wins)",
            (font, 24),
        )
        .map_err(err)?;
    let (left, right) = root.split_horizontally(950);
    let n = builds.len() as u32;
    let ticks: Vec<u32> = (0..n).map(|i| 2 * i + 1).collect();
    let mut chart = ChartBuilder::on(&left)
        .margin(16)
        .x_label_area_size(80)
        .y_label_area_size(90)
        .build_cartesian_2d(
            (0..2 * n).with_key_points(ticks.clone()),
            (0..2 * n).with_key_points(ticks),
        )
        .map_err(err)?;
    let label = |x: &u32| build_at(builds, *x);
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("NPC build (Defend/Grapple/Attack)")
        .y_desc("PC build (active first)")
        .axis_desc_style((font, 18))
        // 36 builds leave about 24 pixels a column: small type, so that labels do not overlap.
        .label_style((font, if n > 20 { 9 } else { 13 }))
        .x_label_formatter(&label)
        .y_label_formatter(&label)
        .draw()
        .map_err(err)?;
    let scale = records.iter().map(|r| r.value.abs()).fold(0.01, f64::max);
    let index = |b: &Build| builds.iter().position(|x| x == b).map(|i| i as u32);
    let cells = records.iter().filter_map(|r| {
        let (i, j) = (index(&r.pc)?, index(&r.npc)?);
        Some(Rectangle::new(
            [(2 * j, 2 * i), (2 * j + 2, 2 * i + 2)],
            colour(r.value, scale).filled(),
        ))
    });
    chart.draw_series(cells).map_err(err)?;
    legend(&right, scale)
}

/// The colour key: the scale from −`scale` (bottom) to +`scale` (top), with its numbers.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    scale: f64,
) -> Result<(), HeatmapError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| HeatmapError::Draw(e.to_string());
    let font = clash_analysis::histogram::FONT;
    let mut key = ChartBuilder::on(area)
        .margin_top(40)
        .margin_bottom(100)
        .margin_right(10)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..1.0, -scale..scale)
        .map_err(err)?;
    key.configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style((font, 13))
        .y_label_formatter(&|v| format!("{v:+.3}"))
        .draw()
        .map_err(err)?;
    let steps = 100;
    let strip = (0..steps).map(|k| {
        let lo = -scale + 2.0 * scale * f64::from(k) / f64::from(steps);
        let hi = lo + 2.0 * scale / f64::from(steps);
        Rectangle::new(
            [(0.0, lo), (1.0, hi)],
            colour((lo + hi) / 2.0, scale).filled(),
        )
    });
    key.draw_series(strip).map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_9_there_are_36_level_0_builds() {
        let builds = level_0_builds();
        assert_eq!(builds.len(), 36);
        assert!(
            builds
                .iter()
                .all(|b| b.defend.min(b.grapple).min(b.attack) >= 1
                    && b.defend + b.grapple + b.attack == 10)
        );
        let mut distinct = builds.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 36);
        assert_eq!(
            "3/3/4".parse::<Build>().unwrap(),
            Build {
                defend: 3,
                grapple: 3,
                attack: 4
            }
        );
        assert!(matches!(
            "0/5/5".parse::<Build>(),
            Err(BuildError::NotLevel0(_))
        ));
        assert!(matches!(
            "3/3/3".parse::<Build>(),
            Err(BuildError::NotLevel0(_))
        ));
        assert!(matches!(
            "3-3-4".parse::<Build>(),
            Err(BuildError::Syntax(_))
        ));
    }

    #[test]
    fn it_27_a_level_0_build_against_itself_is_worth_less_than_zero() {
        let b: Build = "1/1/8".parse().unwrap();
        let r = duel(b, b).unwrap();
        assert!(r.value < 0.0 && r.value > -1.0, "{r:?}");
        assert!((r.pc_wins - (1.0 + r.value) / 2.0).abs() < 1e-12);
    }

    /// The table's shared memos give each duel's record as it is solved alone (but for time).
    #[test]
    fn duels_on_one_memo_equal_each_duel_alone() {
        let builds: Vec<Build> = ["8/1/1", "1/8/1", "1/1/8"]
            .iter()
            .map(|b| b.parse().unwrap())
            .collect();
        let mut table = DuelTable::new();
        for pc in &builds {
            for npc in &builds {
                let shared = duel_on(&mut table, *pc, *npc).unwrap();
                let alone = duel(*pc, *npc).unwrap();
                assert_eq!(
                    DuelRecord {
                        seconds: 0.0,
                        ..shared
                    },
                    DuelRecord {
                        seconds: 0.0,
                        ..alone
                    }
                );
            }
        }
    }

    #[test]
    fn records_round_trip_through_json_lines_and_csv() {
        let b: Build = "8/1/1".parse().unwrap();
        let r = duel(b, "1/8/1".parse().unwrap()).unwrap();
        let dir = std::env::temp_dir().join(format!("clash-balance-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lines = dir.join("duels.jsonl");
        std::fs::write(
            &lines,
            format!("{}\n{{\"pc\": torn", serde_json::to_string(&r).unwrap()),
        )
        .unwrap();
        assert_eq!(read_records(&lines), vec![r.clone()]);
        assert!(
            csv(std::slice::from_ref(&r))
                .lines()
                .nth(1)
                .unwrap()
                .starts_with("8/1/1,1/8/1,")
        );
        heatmap(&dir.join("h.svg"), &[b, "1/8/1".parse().unwrap()], &[r]).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
