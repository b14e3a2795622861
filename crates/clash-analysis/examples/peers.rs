//! Timing harness for `bench/peers/run.sh`, the generic part: a zero-sum matrix game solved
//! many times, printed with the time per solve as JSON. Each game's own problems have their own
//! harness in its crate (`peers_iron_triangle`, `peers_triforce`, `peers_wicked_age`).
//!
//! ```text
//! peers matrix FILE.json REPEAT                   a JSON array of integer rows
//! ```

use std::time::Instant;

use clash_analysis::exact::Probability;
use clash_analysis::matrix_game::{self, Scalar};
use serde_json::{Value, json};

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
        Some("matrix") => {
            let path = args.get(1).ok_or("peers matrix FILE REPEAT")?;
            let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            let m: Vec<Vec<i64>> = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let n = repeat(args.get(2));
            let (exact, te) = time(n, || matrix_game::solve_exact(&m));
            let (float, tf) = time(n, || matrix_game::solve_f64(&m));
            let exact = exact.map_err(|e| e.to_string())?;
            let float = float.map_err(|e| e.to_string())?;
            Ok(json!({
                "value": Probability::of(&exact.value).fraction,
                "value_decimal": exact.value.to_f64(),
                "value_f64": float.value,
                "seconds_exact": te,
                "seconds_f64": tf,
            }))
        }
        _ => Err("peers matrix FILE REPEAT".into()),
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
            eprintln!("peers: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
