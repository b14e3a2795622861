//! Histograms of simulated game lengths, drawn with plotters.
//!
//! The SVG backend writes text as SVG `<text>` elements, so an `.svg` gets a title and labelled
//! axes without any font library. The bitmap backend is built without font support (no system
//! libraries), so a `.png` shows the bars and axes only; its title and ranges are printed by the
//! CLI instead.

use std::path::Path;

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
        .map(|i| (lo + i * width, lo + (i + 1) * width - 1, 0))
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

/// Draw a histogram of `values` to `path` (`.svg` or `.png`).
pub fn draw(path: &Path, values: &[u32], title: &str, unit: &str) -> Result<(), PlotError> {
    let b = bins(values, 40);
    if b.is_empty() {
        return Err(PlotError::Empty);
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => {
            let root = SVGBackend::new(path, (900, 520)).into_drawing_area();
            paint(&root, &b, Some((title, unit)))?;
            root.present().map_err(|e| PlotError::Draw(e.to_string()))
        }
        Some("png") => {
            let root = BitMapBackend::new(path, (900, 520)).into_drawing_area();
            paint(&root, &b, None)?;
            root.present().map_err(|e| PlotError::Draw(e.to_string()))
        }
        _ => Err(PlotError::Format),
    }
}

fn paint<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    bins: &[(u32, u32, u64)],
    text: Option<(&str, &str)>,
) -> Result<(), PlotError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| PlotError::Draw(e.to_string());
    root.fill(&WHITE).map_err(err)?;
    let x0 = bins.first().map_or(0, |b| b.0);
    let x1 = bins.last().map_or(1, |b| b.1 + 1);
    let ymax = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1);
    let mut builder = ChartBuilder::on(root);
    builder.margin(24);
    if let Some((title, _)) = text {
        builder
            .caption(title, ("sans-serif", 22))
            .x_label_area_size(44)
            .y_label_area_size(56);
    }
    let mut chart = builder
        .build_cartesian_2d(x0..x1, 0u64..ymax + ymax / 10 + 1)
        .map_err(err)?;
    if let Some((_, unit)) = text {
        chart
            .configure_mesh()
            .x_desc(unit)
            .y_desc("games")
            .disable_x_mesh()
            .draw()
            .map_err(err)?;
    } else {
        // No fonts in the bitmap backend: draw the two axes by hand.
        let axes = [
            vec![(x0, ymax + ymax / 10 + 1), (x0, 0)],
            vec![(x0, 0), (x1, 0)],
        ];
        for axis in axes {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    axis,
                    BLACK.stroke_width(2),
                )))
                .map_err(err)?;
        }
    }
    let bars = bins
        .iter()
        .map(|(lo, hi, n)| Rectangle::new([(*lo, 0u64), (*hi + 1, *n)], BLUE.mix(0.6).filled()));
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
        assert!(matches!(
            draw(&dir.join("h.txt"), &values, "", ""),
            Err(PlotError::Format)
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
