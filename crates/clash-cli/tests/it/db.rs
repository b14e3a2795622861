//! `clash db migrate` and `clash db copy`: an existing SQLite server moves to PostgreSQL with
//! every table, link and command id intact. The PostgreSQL half runs when `CLASH_TEST_POSTGRES`
//! names a database (the test script starts a throw-away one).

use crate::common;

use std::process::Command;

use common::{Server, gm_table, play};

fn clash(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clash"))
        .args(args)
        .output()
        .expect("clash runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn migrate_brings_a_new_sqlite_file_to_the_latest_version() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fresh.db");
    let (ok, out, err) = clash(&["db", "migrate", "--db", db.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("schema version 4"), "{out}");
}

#[test]
fn copy_moves_a_sqlite_server_to_postgres_and_its_links_go_on_working() {
    let Some(url) = std::env::var("CLASH_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        eprintln!(
            "notice: CLASH_TEST_POSTGRES is not set, so copying to PostgreSQL is not tested here (scripts/test.sh sets it)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clash.db");
    let (id, owner, seats) = {
        let old = Server::start(&file);
        let (id, owner, seats) = gm_table(&old, "iron-triangle");
        assert!(play(&old, &id, &owner, &seats, 4) > 0);
        (id, owner, seats)
    };
    let view = |server: &Server| {
        server.ok("GET", &format!("/api/tables/{id}/view?key={owner}"), None)["view"].clone()
    };
    let before = view(&Server::start(&file));
    let (ok, out, err) = clash(&["db", "migrate", "--db", &url]);
    assert!(ok, "{err}");
    assert!(out.contains("schema version 4"), "{out}");
    assert!(
        !out.contains("postgres://"),
        "the URL (and any password) is not printed: {out}"
    );
    let (ok, out, err) = clash(&["db", "copy", "--from", file.to_str().unwrap(), "--to", &url]);
    assert!(ok, "{err}");
    assert!(out.contains("copied 1 table(s)"), "{out}");
    // Run again: nothing more to copy.
    let (ok, out, _) = clash(&["db", "copy", "--from", file.to_str().unwrap(), "--to", &url]);
    assert!(
        ok && out.contains("copied 0 table(s)") && out.contains("1 were there"),
        "{out}"
    );
    let new = Server::start_on(&url);
    assert_eq!(view(&new), before, "the table reads the same on PostgreSQL");
    // The GM's link works there, and play goes on.
    assert!(play(&new, &id, &owner, &seats, 2) > 0);
}
