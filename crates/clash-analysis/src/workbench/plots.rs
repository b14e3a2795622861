//! A study drawn as SVG: for each metric, every variant's figure with its 95% interval, one row
//! per variant and mix of bots (the rules as written first), and the game lengths of each
//! variant overlaid.

use plotters::prelude::*;
use serde::Serialize;

use super::Study;
use super::compare::{Figure, figures};
use crate::histogram::{FONT, bins, register_font};

/// One drawing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plot {
    /// A file name without its extension (`limit`, `lengths`).
    pub name: String,
    pub title: String,
    pub svg: String,
}

/// The colour of variant `i`, from a palette readable by people with colour blindness.
fn colour(i: usize) -> RGBColor {
    const P: [RGBColor; 6] = [
        RGBColor(0, 114, 178),
        RGBColor(213, 94, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(86, 180, 233),
        RGBColor(230, 159, 0),
    ];
    P[i % P.len()]
}

/// One row of a metric's plot.
struct Row {
    label: String,
    variant: usize,
    figure: Figure,
}

fn rows(study: &Study, key: &str) -> Vec<Row> {
    let mut out = Vec::new();
    for (i, v) in study.variants.iter().enumerate() {
        for m in &v.runs {
            if let Some(f) = figures(m).into_iter().find(|f| f.key == key) {
                out.push(Row {
                    label: format!("{}, {}", v.variant.name, m.mix.words()),
                    variant: i,
                    figure: f,
                });
            }
        }
    }
    out
}

fn draw_err<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing failed: {e:?}")
}

fn forest(title: &str, rows: &[Row]) -> Result<String, String> {
    let share = rows.first().is_some_and(|r| r.figure.share);
    let (lo, hi) = if share {
        (0.0, 1.0)
    } else {
        let lo = rows
            .iter()
            .map(|r| r.figure.low)
            .fold(f64::INFINITY, f64::min);
        let hi = rows
            .iter()
            .map(|r| r.figure.high)
            .fold(f64::NEG_INFINITY, f64::max);
        let pad = ((hi - lo) * 0.1).max(0.5);
        ((lo - pad).max(0.0), hi + pad)
    };
    let n = rows.len() as i32;
    let height = 90 + 34 * n.max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 20))
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(330)
            .build_cartesian_2d(lo..hi, (0..n).into_segmented())
            .map_err(draw_err)?;
        let label = |y: &SegmentValue<i32>| match y {
            SegmentValue::CenterOf(i) => usize::try_from(n - 1 - *i)
                .ok()
                .and_then(|k| rows.get(k))
                // Two figure spaces keep the name off the axis (there is no tick mark to do it;
                // SVG collapses ordinary trailing spaces, not these).
                .map(|r| format!("{}\u{2007}\u{2007}", r.label))
                .unwrap_or_default(),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .max_light_lines(1)
            // Rows are named, not measured: no tick marks (a segmented axis would also mark the
            // edges between rows, an empty tick at the top).
            .set_tick_mark_size(LabelAreaPosition::Left, 0)
            // A label for every row (plotters shows about ten by default, skipping the rest).
            .y_labels(rows.len())
            .y_label_formatter(&label)
            .x_label_formatter(&|x| {
                if share {
                    format!("{:.0}%", 100.0 * x)
                } else {
                    format!("{x:.1}")
                }
            })
            .label_style((FONT, 13))
            .draw()
            .map_err(draw_err)?;
        for (k, r) in rows.iter().enumerate() {
            let y = n - 1 - k as i32;
            let c = colour(r.variant);
            let at = |x: f64| (x, SegmentValue::CenterOf(y));
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![at(r.figure.low), at(r.figure.high)],
                    c.stroke_width(3),
                )))
                .map_err(draw_err)?;
            chart
                .draw_series(std::iter::once(Circle::new(
                    at(r.figure.value),
                    5,
                    c.filled(),
                )))
                .map_err(draw_err)?;
        }
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// Each variant's game lengths with casual bots (or the first mix it has), as shares of its
/// games over shared bins.
fn lengths(study: &Study) -> Result<Option<String>, String> {
    let all: Vec<u32> = study
        .variants
        .iter()
        .filter_map(|v| v.runs.first())
        .flat_map(|m| m.length.all.iter().copied())
        .collect();
    let shared = bins(&all, 30);
    if shared.is_empty() {
        return Ok(None);
    }
    let (lo, hi) = (shared[0].0, shared[shared.len() - 1].1);
    let width = (shared[0].1 - shared[0].0 + 1) as f64;
    let series: Vec<Vec<(f64, f64)>> = study
        .variants
        .iter()
        .filter_map(|v| v.runs.first())
        .map(|m| {
            let n = m.length.all.len().max(1) as f64;
            shared
                .iter()
                .map(|(a, b, _)| {
                    let k = m
                        .length
                        .all
                        .iter()
                        .filter(|x| (*a..=*b).contains(*x))
                        .count();
                    (f64::from(*a) + width / 2.0, k as f64 / n)
                })
                .collect()
        })
        .collect();
    let top = series
        .iter()
        .flatten()
        .map(|p| p.1)
        .fold(0.0, f64::max)
        .max(0.01)
        * 1.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("Game lengths ({})", study.table.unit), (FONT, 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(f64::from(lo)..f64::from(hi) + 1.0, 0.0..top)
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .max_light_lines(1)
            .x_desc(study.table.unit)
            .y_desc("share of games")
            // Lengths are whole numbers of rounds or turns.
            .x_label_formatter(&|x| {
                if x.fract() == 0.0 {
                    format!("{x:.0}")
                } else {
                    format!("{x:.1}")
                }
            })
            .y_label_formatter(&|y| format!("{:.0}%", 100.0 * y))
            .label_style((FONT, 13))
            .draw()
            .map_err(draw_err)?;
        for (i, (points, v)) in series.iter().zip(&study.variants).enumerate() {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    points.clone(),
                    colour(i).stroke_width(2),
                )))
                .map_err(draw_err)?
                .label(v.variant.name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour(i)));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FONT, 13))
            .draw()
            .map_err(draw_err)?;
        root.present().map_err(draw_err)?;
    }
    Ok(Some(svg))
}

/// Every plot of `study`: the game lengths, then one per metric in the order of
/// [`figures`].
pub fn plots(study: &Study) -> Result<Vec<Plot>, String> {
    register_font().map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    if let Some(svg) = lengths(study)? {
        out.push(Plot {
            name: "lengths".into(),
            title: format!("Game lengths ({})", study.table.unit),
            svg,
        });
    }
    let mut keys: Vec<(String, String)> = Vec::new();
    for v in &study.variants {
        for m in &v.runs {
            for f in figures(m) {
                if !keys.iter().any(|(k, _)| *k == f.key) {
                    keys.push((f.key, f.label));
                }
            }
        }
    }
    for (key, label) in keys {
        let rows = rows(study, &key);
        if rows.is_empty() {
            continue;
        }
        let title = format!("{} (95% intervals)", capitalised(&label));
        out.push(Plot {
            name: key.replace([':', ' '], "-"),
            svg: forest(&title, &rows)?,
            title,
        });
    }
    Ok(out)
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbench::VariantStudy;
    use crate::workbench::metrics::measure;
    use clash_core::variant::Variant;
    use clash_core::workbench::{BenchTable, Ending, Mix, Observed};

    fn game(winner: u8, length: u32) -> Observed {
        Observed {
            winners: vec![winner],
            length,
            ending: Ending::Won,
            first: Some(0),
            strong: Some(1),
            compared: Some(0),
            midpoint_leader: Some(winner),
            lead_changes: 1,
            luck: vec![0.5, -0.5],
            options: Vec::new(),
        }
    }

    #[test]
    fn every_row_of_a_metric_is_labelled_however_many_there_are() {
        let games: Vec<Observed> = (0..6).map(|i| game(i % 2, 5 + u32::from(i))).collect();
        let variants: Vec<VariantStudy> = ["as written", "a", "b", "c", "d"]
            .iter()
            .map(|name| VariantStudy {
                variant: Variant::new(*name, Default::default()),
                changes: Vec::new(),
                runs: Mix::ALL
                    .iter()
                    .map(|mix| measure(&games, *mix, &["A", "B"]))
                    .collect(),
                exact: None,
            })
            .collect();
        let study = Study {
            game: "g".into(),
            table: BenchTable {
                key: "t",
                about: "t",
                seats: &["A", "B"],
                unit: "rounds",
                lead: "ahead",
            },
            seed: 1,
            work: 1,
            variants,
            differences: Vec::new(),
            findings: Vec::new(),
            stopped: false,
            seconds: 0.0,
        };
        let all = plots(&study).unwrap();
        let won = all
            .iter()
            .find(|p| p.name == "won")
            .expect("a plot of wins");
        // 5 variants × 3 mixes of bots: 15 rows, each with its label.
        for name in ["as written", "a", "b", "c", "d"] {
            for mix in Mix::ALL {
                let label = format!("{name}, {}", mix.words());
                assert!(won.svg.contains(&label), "{label} is missing");
            }
        }
    }
}
