//! Two `clash serve` nodes on one PostgreSQL database: a group split across them plays as if on
//! one server, and killing a node (SIGKILL) loses nothing it acknowledged. Runs when
//! `CLASH_TEST_POSTGRES` names a database (the test script starts a throw-away one).

use crate::common;

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use common::Server;
use serde_json::{Value, json};

/// The PostgreSQL database to test against, if any.
fn postgres() -> Option<String> {
    let url = std::env::var("CLASH_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty());
    if url.is_none() {
        eprintln!(
            "notice: CLASH_TEST_POSTGRES is not set, so the two-node test does not run here (scripts/test.sh sets it)"
        );
    }
    url
}

/// One player's link at one node.
struct Hand<'a> {
    node: &'a Server,
    id: &'a str,
    key: String,
}

impl Hand<'_> {
    /// The first command of `kind` this key may send now (with `pick` choosing among them).
    fn legal(&self, kind: &str, pick: impl Fn(&Value) -> bool) -> Value {
        let view = self.node.ok(
            "GET",
            &format!("/api/tables/{}/view?key={}", self.id, self.key),
            None,
        );
        view["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["command"].clone())
            .find(|c| c["type"] == kind && pick(c))
            .unwrap_or_else(|| panic!("no legal {kind} in {}", view["legal"]))
    }

    /// Send a command with an id; answers the command number the node acknowledged.
    fn send(&self, command: Value, id: &str) -> u64 {
        let body = json!({ "command": command, "id": id });
        let answer = self.node.ok(
            "POST",
            &format!("/api/tables/{}/commands?key={}", self.id, self.key),
            Some(body),
        );
        answer["command"]["n"].as_u64().unwrap()
    }

    fn stream(&self) -> Receiver<String> {
        self.node
            .stream(&format!("/api/tables/{}/stream?key={}", self.id, self.key))
    }
}

/// Wait until a stream's update says `text`.
fn sees(stream: &Receiver<String>, text: &str, who: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match stream.recv_timeout(left) {
            Ok(data) if data.contains(text) => return,
            Ok(_) => {}
            Err(_) => panic!("{who} never saw {text:?} live"),
        }
    }
}

/// Invite a player to `seat` through `node` and claim it there: the player's own key.
fn seat(node: &Server, id: &str, owner: &str, seat: &str) -> String {
    let invite = node.ok(
        "POST",
        &format!("/api/tables/{id}/seats/{seat}/link?key={owner}"),
        Some(json!({"npc": false})),
    );
    let invite = invite["invite"].as_str().unwrap();
    let claimed = node.ok(
        "POST",
        &format!("/api/tables/{id}/claim?key={invite}"),
        None,
    );
    claimed["key"].as_str().unwrap().to_string()
}

/// An acknowledged command: who sent it, its id, the command, and its number.
struct Sent {
    key: String,
    id: &'static str,
    command: Value,
    n: u64,
}

impl Hand<'_> {
    /// Send the first legal command of `kind` that `pick` likes, noting what was acknowledged.
    fn act(&self, kind: &str, id: &'static str, pick: impl Fn(&Value) -> bool) -> Sent {
        let command = self.legal(kind, pick);
        let n = self.send(command.clone(), id);
        Sent {
            key: self.key.clone(),
            id,
            command,
            n,
        }
    }
}

#[test]
fn a_group_split_across_two_nodes_plays_as_one_and_a_killed_node_loses_nothing() {
    let Some(url) = postgres() else { return };
    let a = Server::start_on(&url);
    let b = Server::start_on(&url);
    let created = b.ok(
        "POST",
        "/api/tables",
        Some(json!({"ruleset": "iron-triangle"})),
    );
    let id = created["table"].as_str().unwrap().to_string();
    let owner = created["owner_key"].as_str().unwrap().to_string();
    // Player 1 on node A; the GM and player 2 on node B.
    let p1 = Hand {
        node: &a,
        id: &id,
        key: seat(&a, &id, &owner, "p1"),
    };
    let p2 = Hand {
        node: &b,
        id: &id,
        key: seat(&b, &id, &owner, "p2"),
    };
    let gm = Hand {
        node: &b,
        id: &id,
        key: owner.clone(),
    };
    let (p1_live, gm_live) = (p1.stream(), gm.stream());
    let any = |_: &Value| true;

    let mut sent = vec![
        gm.act("start_conflict", "gm-1", any),
        p1.act("join_conflict", "p1-1", any),
        p2.act("join_conflict", "p2-1", any),
    ];
    // Player 1 on node A sees player 2's step on node B as it happens.
    sees(&p1_live, "Bo enters the conflict", "player 1 on node A");
    sent.push(p1.act("pick_active", "p1-2", |c| c["character"] == "Ada"));
    sent.push(p1.act("pick_opponent", "p1-3", any));
    // A turn: a secret stance from each node, then the reveal, which each sees live.
    sent.push(p1.act("take_stance", "p1-4", |c| c["action"] == "attack"));
    sent.push(gm.act("take_stance", "gm-2", |c| c["action"] == "defend"));
    sees(
        &p1_live,
        "Stances are revealed: Ada takes Attack",
        "player 1 on node A",
    );
    sees(
        &gm_live,
        "Stances are revealed: Ada takes Attack",
        "the GM on node B",
    );
    // Every number once, in order, whichever node took the command.
    let numbers: Vec<u64> = sent.iter().map(|s| s.n).collect();
    assert_eq!(numbers, (0..sent.len() as u64).collect::<Vec<_>>());

    // Node A dies mid-game (moves are due); player 1 goes on through node B.
    let p1 = Hand {
        node: &b,
        id: &id,
        key: p1.key,
    };
    a.kill();
    // Everything acknowledged, on either node, is stored: each id is answered, not applied.
    for s in &sent {
        let (status, answer) = b.call(
            "POST",
            &format!("/api/tables/{id}/commands?key={}", s.key),
            Some(json!({ "command": s.command, "id": s.id })),
        );
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["command"]["duplicate"], true, "{} {answer}", s.id);
        assert_eq!(answer["command"]["n"], s.n, "{answer}");
    }
    let next = p1.act("play_move", "p1-5", any);
    assert_eq!(
        next.n,
        sent.len() as u64,
        "the next number follows every acknowledged one"
    );
    let last = gm.act("play_move", "gm-3", any);
    assert_eq!(last.n, next.n + 1);
    sees(&gm_live, "Ada plays", "the GM on node B");
}
