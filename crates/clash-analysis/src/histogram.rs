//! Histograms of simulated game lengths, drawn with plotters.
//!
//! Both formats get the same picture: a title, labelled axes, one tick under the centre of each
//! bin (or of every few bins when there are many) and opaque bars drawn over light horizontal
//! grid lines. Text is set in Noto Sans, embedded in the program, so a `.png` needs no font
//! library on the machine and looks like the `.svg`.

use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;

/// Equal-width bins over `values`: `(low, high_inclusive, count)`.
pub fn bins(values: &[u32], max_bins: u32) -> Vec<(u32, u32, u64)> {
    let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else {
        return Vec::new();
    };
    let span = hi - lo + 1;
    let width = span.div_ceil(max_bins.max(1)).max(1);
    let n = span.div_ceil(width);
    let mut out: Vec<(u32, u32, u64)> = (0..n)
        .map(|i| (lo + i * width, (lo + (i + 1) * width - 1).min(hi), 0))
        .collect();
    for v in values {
        let i = ((v - lo) / width) as usize;
        if let Some(b) = out.get_mut(i) {
            b.2 += 1;
        }
    }
    out
}

/// Why a plot could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("plot files end in .svg or .png")]
    Format,
    #[error("nothing to plot")]
    Empty,
    #[error("drawing failed: {0}")]
    Draw(String),
}

/// The font every plot's text is set in, registered with plotters once.
pub const FONT: &str = "sans-serif";

/// Register [`FONT`] (Noto Sans, embedded in the program) with plotters, once; every plot calls
/// this before drawing text.
pub fn register_font() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, ttf_noto_sans::REGULAR).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(PlotError::Draw(
            "the embedded font could not be read".into(),
        ))
    }
}

/// Draw a histogram of `values` to `path` (`.svg` or `.png`): `title` on top, `unit` (what a
/// value counts) under the horizontal axis, "games" beside the vertical one.
pub fn draw(path: &Path, values: &[u32], title: &str, unit: &str) -> Result<(), PlotError> {
    let b = bins(values, 40);
    if b.is_empty() {
        return Err(PlotError::Empty);
    }
    register_font()?;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let size = (960, 540);
    match ext.as_deref() {
        Some("svg") => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            paint(&root, &b, title, unit)?;
            root.present().map_err(|e| PlotError::Draw(e.to_string()))
        }
        Some("png") => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            paint(&root, &b, title, unit)?;
            root.present().map_err(|e| PlotError::Draw(e.to_string()))
        }
        _ => Err(PlotError::Format),
    }
}

/// A bin's label: its value, or its range of values.
fn bin_label((lo, hi, _): &(u32, u32, u64)) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}\u{2013}{hi}")
    }
}

/// Bin `i` spans `2i..2i + 2` on the horizontal axis (whole numbers, so plotters formats them
/// with our labels), so its centre is `2i + 1`. At most about 16 ticks fit under the bars; with
/// more bins, every few bins get one, counted from the last (where a turn limit piles games up).
fn tick_centres(n: u32) -> Vec<u32> {
    let step = n.div_ceil(16).max(1) as usize;
    let mut ticks: Vec<u32> = (0..n).rev().step_by(step).map(|i| 2 * i + 1).collect();
    ticks.reverse();
    ticks
}

fn paint<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    bins: &[(u32, u32, u64)],
    title: &str,
    unit: &str,
) -> Result<(), PlotError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    root.fill(&WHITE).map_err(err)?;
    let n = bins.len() as u32;
    let ymax = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1);
    let x = (0..2 * n).with_key_points(tick_centres(n));
    let mut chart = ChartBuilder::on(root)
        .margin(20)
        .caption(title, (FONT, 26))
        .x_label_area_size(56)
        .y_label_area_size(64)
        .build_cartesian_2d(x, 0u64..ymax + ymax / 10 + 1)
        .map_err(err)?;
    let label = |x: &u32| {
        bins.get((x / 2) as usize)
            .map(bin_label)
            .unwrap_or_default()
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .x_desc(format!("game length ({unit})"))
        .y_desc("games")
        .axis_desc_style((FONT, 18))
        .label_style((FONT, 16))
        .x_label_formatter(&label)
        .draw()
        .map_err(err)?;
    // Opaque bars, drawn after the grid, so no grid line crosses a bar.
    let fill = RGBColor(70, 110, 180).filled();
    // A bar fills its bin's span but for a thin gap (a pixel each side) between neighbours.
    let bars = bins.iter().zip(0u32..).map(|((_, _, count), i)| {
        let mut bar = Rectangle::new([(2 * i, 0u64), (2 * i + 2, *count)], fill);
        bar.set_margin(0, 0, 1, 1);
        bar
    });
    chart.draw_series(bars).map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_count_every_value_once() {
        let values: Vec<u32> = (0..1000).map(|i| (i * 7919) % 313).collect();
        let b = bins(&values, 40);
        assert_eq!(b.iter().map(|x| x.2).sum::<u64>(), 1000);
        assert!(b.len() <= 40);
        assert_eq!(bins(&[5, 5, 5], 10), vec![(5, 5, 3)]);
        // The last bin ends at the largest value, not past it.
        assert_eq!(
            bins(&[0, 10], 4),
            vec![(0, 2, 1), (3, 5, 0), (6, 8, 0), (9, 10, 1)]
        );
        assert!(bins(&[], 10).is_empty());
    }

    #[test]
    fn writes_svg_and_png() {
        let dir = std::env::temp_dir().join(format!("clash-hist-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let values: Vec<u32> = (0..200).map(|i| 10 + (i * 37) % 50).collect();
        let svg = dir.join("h.svg");
        draw(&svg, &values, "Game length", "turns").unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.contains("<svg") && text.contains("Game length"));
        let png = dir.join("h.png");
        draw(&png, &values, "Game length", "turns").unwrap();
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        // Ticks sit under bin centres, labelled with the bin's range.
        let b = bins(&values, 40);
        assert!(tick_centres(b.len() as u32).iter().all(|x| x % 2 == 1));
        for words in [
            bin_label(&b[0]).as_str(),
            "Game length",
            "game length (turns)",
            "games",
        ] {
            assert!(text.contains(&format!("\n{words}\n")), "{words} is missing");
        }
        assert!(matches!(
            draw(&dir.join("h.txt"), &values, "", ""),
            Err(PlotError::Format)
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
