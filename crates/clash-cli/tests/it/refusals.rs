//! Inputs the rules can never produce are refused with an error naming the rule, never
//! answered silently or capped.

use assert_cmd::Command;

/// Run `clash args…`; it must fail, and its message must name `rule`.
fn refused(args: &[&str], rule: &str) -> String {
    let out = Command::cargo_bin("clash")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        !out.status.success(),
        "clash {args:?} was accepted: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty(), "clash {args:?} printed an answer");
    assert!(
        stderr.contains(rule),
        "clash {args:?}: the message does not name {rule}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn accepted(args: &[&str]) {
    let out = Command::cargo_bin("clash")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "clash {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn nd_1_reversed_draws_beyond_the_deck_are_refused() {
    refused(
        &["odds", "nd-tourists", "reversed", "--draws", "101"],
        "ND-1",
    );
    refused(
        &[
            "odds",
            "nd-tourists",
            "reversed",
            "--already",
            "2",
            "--draws",
            "66",
        ],
        "ND-1",
    );
    accepted(&[
        "odds",
        "nd-tourists",
        "reversed",
        "--already",
        "2",
        "--draws",
        "65",
    ]);
    refused(
        &[
            "odds",
            "nd-tourists",
            "reversed",
            "--already",
            "5",
            "--draws",
            "1",
        ],
        "ND-16",
    );
}

#[test]
fn d_1_a_blank_needs_the_blanks() {
    let err = refused(
        &[
            "odds",
            "nd-tourists",
            "break",
            "--targets",
            "XVI",
            "--seen",
            "Blank Rock 1",
        ],
        "D-1",
    );
    assert!(err.contains("Blank Rock 1"), "{err}");
    accepted(&[
        "odds",
        "nd-tourists",
        "break",
        "--targets",
        "XVI",
        "--seen",
        "Blank Rock 1",
        "--blanks",
    ]);
    refused(
        &[
            "odds",
            "nd-tourists",
            "break",
            "--targets",
            "XVI",
            "--seen",
            "XIV, XIV",
        ],
        "ND-1",
    );
}

#[test]
fn wicked_age_pools_are_rolls_the_rules_can_make() {
    let exchange = |a: &str, b: &str| ["odds", "wicked-age", "exchange", a, b].map(str::to_string);
    for (a, b, rule) in [
        ("d12+d10+d8", "d6+d4", "WA-3"),
        ("d3", "d6", "WA-1"),
        ("d100+d4", "d6", "WA-1"),
        ("d8+b7", "d6", "WA-9"),
        ("d8+adv", "d10+adv", "WA-20"),
        ("d8+owe+owe", "d6", "WA-18"),
    ] {
        let args = exchange(a, b);
        refused(&args.iter().map(String::as_str).collect::<Vec<_>>(), rule);
    }
    refused(
        &["odds", "wicked-age", "conflict", "d12+d8+adv", "d10+d6"],
        "WA-19",
    );
    accepted(&[
        "odds",
        "wicked-age",
        "exchange",
        "d8+d4+adv",
        "d12+d8+owe+b10",
    ]);
}

#[test]
fn triforce_combats_have_two_to_six_participants() {
    refused(&["odds", "triforce", "combat", "sword", "sword"], "TF-22");
    // clap stops a seventh participant before the analysis sees it.
    let out = Command::cargo_bin("clash")
        .unwrap()
        .args(["odds", "triforce", "combat"])
        .args(["plain"; 7])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn simulate_refuses_options_that_do_not_apply_and_impossible_tables() {
    refused(
        &["simulate", "wicked-age", "--players", "4", "--games", "1"],
        "--players",
    );
    refused(
        &[
            "simulate",
            "nd-tourists",
            "--bots",
            "random",
            "--games",
            "1",
        ],
        "--bots",
    );
    refused(
        &[
            "simulate",
            "triforce",
            "--bots",
            "smart,smart,smart,smart",
            "--games",
            "1",
        ],
        "4 bots for 3 seats",
    );
    let out = Command::cargo_bin("clash")
        .unwrap()
        .args(["simulate", "triforce", "--players", "7"])
        .output()
        .unwrap();
    assert!(!out.status.success(), "TF-5: 3 to 6 players");
    let out = Command::cargo_bin("clash")
        .unwrap()
        .args(["simulate", "triforce", "--turn-limit", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success(), "a turn limit of 0 turns is no game");
}
