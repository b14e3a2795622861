//! Timing harness for `bench/peers/run.sh`, In A Wicked Age's part: one exchange's exact odds
//! solved many times, printed with the time per solve as JSON.
//!
//! ```text
//! peers_wicked_age wicked ANSWER CHALLENGE ROUND REPEAT   e.g. peers_wicked_age wicked d10+d6 d12+d8 1 2000
//! ```

use std::time::Instant;

use serde_json::{Value, json};
use wicked_age::analysis::reports;

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
        Some("wicked") => {
            let [_, a, c, round, ..] = args else {
                return Err("peers_wicked_age wicked ANSWER CHALLENGE ROUND REPEAT".into());
            };
            let a = reports::parse_roll(a).map_err(|e| e.to_string())?;
            let c = reports::parse_roll(c).map_err(|e| e.to_string())?;
            let round: u8 = round.parse().map_err(|_| "ROUND is 1, 2 or 3")?;
            let (r, t) = time(repeat(args.get(4)), || {
                reports::exchange(&a, &c, round, reports::ChallengeKind::Fresh)
            });
            let r = r.map_err(|e| e.to_string())?;
            let bands: Vec<String> = r
                .bands
                .iter()
                .map(|b| b.probability.fraction.clone())
                .collect();
            Ok(json!({"answer": bands, "seconds": t}))
        }
        _ => Err("peers_wicked_age wicked …".into()),
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
            eprintln!("peers_wicked_age: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
