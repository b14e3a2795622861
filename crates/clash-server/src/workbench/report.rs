//! A finished study worded for the workbench page: every figure as people read it, each cell
//! flagged where its interval separates from the rules as written.

use clash_analysis::workbench::compare::{Figure, figures};
use clash_analysis::workbench::findings::About;
use clash_analysis::workbench::{Metrics, Study};
use clash_core::variant::{Params, show_changes};
use clash_core::workbench::ExactTable;

use crate::http::routes;

use super::dto::{
    CellReport, ExactReport, ExactRow, FindingReport, PlotRef, RowReport, RunReport, StudyReport,
    VariantReport,
};

/// The study `id` of `study` as its page shows it; `plots` are the drawings' titles, in order.
pub fn report(id: &str, study: &Study, params: &Params, plots: &[String]) -> StudyReport {
    StudyReport {
        game: study.game.clone(),
        table: study.table.about.to_string(),
        unit: study.table.unit.to_string(),
        seed: study.seed,
        summary: summary(study),
        variants: study
            .variants
            .iter()
            .map(|v| VariantReport {
                name: v.variant.name.clone(),
                changes: v.changes.clone(),
                typed: show_changes(params, &v.variant.changes),
            })
            .collect(),
        findings: study
            .findings
            .iter()
            .map(|f| FindingReport {
                about: match f.about {
                    About::Rules => format!("{} — the rules", f.variant),
                    About::Bots => format!("{} — the bots", f.variant),
                    About::Variant => format!("{} — what changed", f.variant),
                },
                text: f.text.clone(),
            })
            .collect(),
        runs: runs(study),
        exact: study
            .variants
            .iter()
            .filter_map(|v| v.exact.as_ref().map(|t| exact(&v.variant.name, t)))
            .collect(),
        plots: plots
            .iter()
            .enumerate()
            .map(|(i, title)| PlotRef {
                title: title.clone(),
                url: routes::WORKBENCH_PLOT
                    .at([id, &format!("{i}.svg")])
                    .into_uri(),
            })
            .collect(),
    }
}

fn summary(study: &Study) -> String {
    let runs: Vec<String> = study
        .variants
        .first()
        .map(|v| {
            v.runs
                .iter()
                .map(|m| {
                    let games = if m.games == 1 { "game" } else { "games" };
                    format!("{} {games} with {}", m.games, m.mix.words())
                })
                .collect()
        })
        .unwrap_or_default();
    let stopped = if study.stopped {
        " (stopped early)"
    } else {
        ""
    };
    format!(
        "Per variant: {}; seed {}; {:.1} s{stopped}.",
        runs.join(", "),
        study.seed,
        study.seconds
    )
}

/// One table per mix of bots the rules as written were played with.
fn runs(study: &Study) -> Vec<RunReport> {
    let Some(base) = study.variants.first() else {
        return Vec::new();
    };
    base.runs
        .iter()
        .map(|b| {
            let per: Vec<Option<&Metrics>> = study
                .variants
                .iter()
                .map(|v| v.runs.iter().find(|m| m.mix == b.mix))
                .collect();
            let mut rows = figure_rows(b, &per);
            rows.extend(option_rows(&per));
            RunReport {
                bots: b.mix.words().to_string(),
                rows,
            }
        })
        .collect()
}

fn figure_rows(base: &Metrics, per: &[Option<&Metrics>]) -> Vec<RowReport> {
    let base_figures = figures(base);
    base_figures
        .iter()
        .map(|f| RowReport {
            label: f.label.clone(),
            cells: per
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let mine: Option<Figure> =
                        m.and_then(|m| figures(m).into_iter().find(|g| g.key == f.key));
                    match mine {
                        Some(g) => CellReport {
                            flagged: i > 0 && g.separates(f),
                            text: g.words(),
                        },
                        None => CellReport {
                            text: "–".into(),
                            flagged: false,
                        },
                    }
                })
                .collect(),
        })
        .collect()
}

/// The strong bot's options, each variant's share of the decisions it was offered in.
fn option_rows(per: &[Option<&Metrics>]) -> Vec<RowReport> {
    let mut names: Vec<&str> = Vec::new();
    for m in per.iter().flatten() {
        for o in &m.options {
            if !names.contains(&o.option.as_str()) {
                names.push(&o.option);
            }
        }
    }
    names
        .into_iter()
        .map(|name| RowReport {
            label: format!("the strong bot chooses: {name}"),
            cells: per
                .iter()
                .map(|m| {
                    let o = m.and_then(|m| m.options.iter().find(|o| o.option == name));
                    match o {
                        Some(o) if o.dominated => CellReport {
                            text: format!("never chosen (offered {} times)", o.share.n),
                            flagged: true,
                        },
                        Some(o) => CellReport {
                            text: format!(
                                "{:.0}% [{:.0}–{:.0}%] of {} offers",
                                100.0 * o.share.value,
                                100.0 * o.share.low,
                                100.0 * o.share.high,
                                o.share.n
                            ),
                            flagged: false,
                        },
                        None => CellReport {
                            text: "not offered".into(),
                            flagged: false,
                        },
                    }
                })
                .collect(),
        })
        .collect()
}

fn exact(variant: &str, t: &ExactTable) -> ExactReport {
    ExactReport {
        variant: variant.to_string(),
        title: t.title.clone(),
        rows_are: t.rows_are.clone(),
        cols_are: t.cols_are.clone(),
        cols: t.cols.clone(),
        rows: t
            .rows
            .iter()
            .zip(&t.values)
            .map(|(label, row)| ExactRow {
                label: label.clone(),
                cells: row
                    .iter()
                    .map(|v| v.map_or("not solved".into(), |v| format!("{v:+.3}")))
                    .collect(),
            })
            .collect(),
        note: t.note.clone(),
    }
}
