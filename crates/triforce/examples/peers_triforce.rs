//! Timing harness for `bench/peers/run.sh`, Triforce's part: one combat's exact odds solved many
//! times, printed with the time per solve as JSON.
//!
//! ```text
//! peers_triforce triforce GEAR,GEAR,… REPEAT      e.g. peers_triforce triforce sword,shield,plain 2000
//! ```

use std::time::Instant;

use serde_json::{Value, json};
use triforce::analysis::combat_odds;

fn time<T>(repeat: u32, mut f: impl FnMut() -> T) -> (T, f64) {
    let mut last = f();
    let start = Instant::now();
    for _ in 0..repeat.max(1) {
        last = std::hint::black_box(f());
    }
    (
        last,
        start.elapsed().as_secs_f64() / f64::from(repeat.max(1)),
    )
}

fn run(args: &[String]) -> Result<Value, String> {
    let repeat = |s: Option<&String>| s.and_then(|s| s.parse::<u32>().ok()).unwrap_or(1000);
    match args.first().map(String::as_str) {
        Some("triforce") => {
            let gear = args.get(1).ok_or("peers_triforce triforce GEAR,… REPEAT")?;
            let gear = gear
                .split(',')
                .map(combat_odds::parse_gear)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            let (r, t) = time(repeat(args.get(2)), || combat_odds::combat(&gear));
            let r = r.map_err(|e| e.to_string())?;
            let loses: Vec<String> = r.loses.iter().map(|p| p.fraction.clone()).collect();
            Ok(json!({"answer": loses, "seconds": t}))
        }
        _ => Err("peers_triforce triforce …".into()),
    }
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(v) => {
            // A reader that left early is not an error.
            use std::io::Write;
            let _ = writeln!(std::io::stdout().lock(), "{v}");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("peers_triforce: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
