//! `clash verify` on records of tables played on a real `clash serve`: an honest record
//! verifies (exit 0); one changed die, card, command, event or byte of the secret fails, naming
//! it (exit 1); a record taken before the end holds no secret, so its chain is checked and its
//! rolls are not, which it says plainly (exit 3).

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{Server, gm_table, play};
use serde_json::{Value, json};

/// Run `clash verify` on `record`; returns (success, output).
fn verify(dir: &Path, name: &str, record: &Value) -> (bool, String) {
    let (code, out) = verify_code(dir, name, record);
    (code == Some(0), out)
}

/// Run `clash verify` on `record`; returns (exit code, output).
fn verify_code(dir: &Path, name: &str, record: &Value) -> (Option<i32>, String) {
    let file = dir.join(name);
    std::fs::write(&file, serde_json::to_string_pretty(record).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_clash"))
        .arg("verify")
        .arg(&file)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A finished table of `ruleset`, with the record taken before and after its end.
fn finished(ruleset: &str, commands: usize) -> (Value, Value) {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("clash.db"));
    let (id, owner, seats) = gm_table(&server, ruleset);
    server.ok(
        "POST",
        &format!("/api/tables/{id}/seed?key={owner}"),
        Some(json!({"seed": "players-seed-1"})),
    );
    assert_eq!(play(&server, &id, &owner, &seats, 1), 1);
    let before = server.ok("GET", &format!("/api/tables/{id}/export?key={owner}"), None);
    play(&server, &id, &owner, &seats, commands - 1);
    let (status, _) = server.call("POST", &format!("/api/tables/{id}/close?key={owner}"), None);
    assert!(
        status == 204 || status == 409,
        "closed now, or over already ({status})"
    );
    let after = server.ok("GET", &format!("/api/tables/{id}/export?key={owner}"), None);
    (before, after)
}

/// The position of the first command entry whose draws hold one of `kind` (`roll`, `pick`).
fn entry_with_draw(record: &Value, kind: &str) -> usize {
    record["entries"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| {
            e["entry"]["draws"]
                .as_array()
                .is_some_and(|d| d.iter().any(|d| d["kind"] == kind))
        })
        .unwrap_or_else(|| panic!("no command drew a {kind}"))
}

fn first_of(record: &Value, kind: &str) -> usize {
    record["entries"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["entry"]["kind"] == kind)
        .unwrap()
}

#[test]
fn an_honest_record_verifies_and_an_early_one_holds_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    for ruleset in ["wicked-age", "nd-tourists", "triforce", "iron-triangle"] {
        let (before, after) = finished(ruleset, 12);
        let secret = after["secret"]
            .as_str()
            .expect("revealed at the end")
            .to_string();
        assert!(
            !before.to_string().contains(&secret),
            "{ruleset}: an early record holds no secret"
        );
        assert!(before.get("secret").is_none());
        let (ok, out) = verify(dir.path(), &format!("{ruleset}.json"), &after);
        assert!(ok, "{ruleset}: {out}");
        assert!(
            out.contains("matches the commitment") && out.contains("commands replayed"),
            "{out}"
        );
        let (code, out) = verify_code(dir.path(), &format!("{ruleset}-early.json"), &before);
        assert_eq!(
            code,
            Some(3),
            "{ruleset}: an early record is verified only in part: {out}"
        );
        assert!(
            out.contains("ok: the table's creation sealed the secret as")
                && out.contains("entries chain, following the digests given"),
            "{out}"
        );
        assert!(
            out.contains("not checked: rolls, draws and events")
                && out.contains("PARTLY verified")
                && out.contains("was NOT checked")
                && !out.contains("\nverified"),
            "{out}"
        );
    }
}

#[test]
fn a_changed_die_card_command_event_or_secret_fails_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_, dice) = finished("wicked-age", 14);
    let (_, cards) = finished("nd-tourists", 14);

    // One die.
    let mut record = dice.clone();
    let at = entry_with_draw(&record, "roll");
    let draws = record["entries"][at]["entry"]["draws"]
        .as_array_mut()
        .unwrap();
    let roll = draws.iter_mut().find(|d| d["kind"] == "roll").unwrap();
    let sides = roll["sides"].as_u64().unwrap();
    roll["face"] = json!(roll["face"].as_u64().unwrap() % sides + 1);
    let (ok, out) = verify(dir.path(), "die.json", &record);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!("FAILED: entry {at} (command"))
            && out.contains("draw")
            && out.contains("the derivation gives a d"),
        "{out}"
    );

    // One card.
    let mut record = cards.clone();
    let at = entry_with_draw(&record, "pick");
    let draws = record["entries"][at]["entry"]["draws"]
        .as_array_mut()
        .unwrap();
    let pick = draws
        .iter_mut()
        .find(|d| d["kind"] == "pick" && d["count"].as_u64().unwrap() > 1)
        .unwrap();
    pick["index"] = json!((pick["index"].as_u64().unwrap() + 1) % pick["count"].as_u64().unwrap());
    pick["label"] = json!("a different card");
    let (ok, out) = verify(dir.path(), "card.json", &record);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!("entry {at}")) && out.contains("\"a different card\" picked"),
        "{out}"
    );

    // One command.
    let mut record = dice.clone();
    let at = first_of(&record, "command");
    record["entries"][at]["entry"]["command"]["forged"] = json!(true);
    let (ok, out) = verify(dir.path(), "command.json", &record);
    assert!(
        !ok && out.contains(&format!("FAILED: entry {at} (command 0")),
        "{out}"
    );

    // One event.
    let mut record = cards.clone();
    let at = first_of(&record, "event");
    record["entries"][at]["entry"]["event"]["forged"] = json!(true);
    let (ok, out) = verify(dir.path(), "event.json", &record);
    assert!(
        !ok && out.contains(&format!("FAILED: entry {at} (event")),
        "{out}"
    );
    assert!(
        out.contains("the log says") && out.contains("replaying gives") && out.contains("/forged"),
        "{out}"
    );

    // One byte of the secret.
    let mut record = dice.clone();
    let mut secret = record["secret"].as_str().unwrap().to_string();
    let flipped = if secret.starts_with('0') { "1" } else { "0" };
    secret.replace_range(0..1, flipped);
    record["secret"] = json!(secret);
    let (ok, out) = verify(dir.path(), "secret.json", &record);
    assert!(
        !ok && out.contains("FAILED: the secret does not match the commitment"),
        "{out}"
    );

    // A head hash a player noted must be in the record.
    let file = dir.path().join("honest.json");
    std::fs::write(&file, dice.to_string()).unwrap();
    let head = dice["entries"][3]["hash"].as_str().unwrap();
    let run = |seen: &str| {
        Command::new(env!("CARGO_BIN_EXE_clash"))
            .args(["verify", "--seen", seen])
            .arg(&file)
            .output()
            .unwrap()
    };
    assert!(run(head).status.success());
    assert_eq!(run(&"0".repeat(64)).status.code(), Some(1));
}
