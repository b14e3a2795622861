//! `clash analyse iron-triangle builds`: a resumable balance table.

use assert_cmd::Command;

fn builds(out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    Command::cargo_bin("clash")
        .unwrap()
        .args([
            "analyse",
            "iron-triangle",
            "builds",
            "--out",
            out.to_str().unwrap(),
            "--builds",
            "1/1/8,8/1/1",
            "--threads",
            "1",
        ])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn the_table_resumes_and_writes_csv_json_and_heatmaps() {
    let out = std::env::temp_dir().join(format!("clash-builds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let first = builds(&out, &["--limit", "3"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(
        text.contains("3 of 4 duels solved (3 in this run"),
        "{text}"
    );
    // The second run solves only the duel left.
    let second = builds(&out, &[]);
    let text = String::from_utf8_lossy(&second.stdout);
    assert!(
        text.contains("4 of 4 duels solved (1 in this run"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("builds.json")).unwrap()).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    // IT-27: a build against itself favours the GM's side.
    for r in rows.iter().filter(|r| r["pc"] == r["npc"]) {
        assert!(r["value"].as_f64().unwrap() < 0.0, "{r}");
    }
    let csv = std::fs::read_to_string(out.join("builds.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5);
    for plot in ["builds.svg", "builds.png"] {
        assert!(std::fs::metadata(out.join(plot)).unwrap().len() > 1000);
    }
    // A build that is not level 0 is refused, naming the rule.
    let bad = Command::cargo_bin("clash")
        .unwrap()
        .args([
            "analyse",
            "iron-triangle",
            "builds",
            "--out",
            out.to_str().unwrap(),
            "--builds",
            "3/3/3",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("IT-9"));
    let _ = std::fs::remove_dir_all(&out);
}
