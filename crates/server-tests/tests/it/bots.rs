//! Bots at the table: the GM seats and unseats them as public table events; a seated bot plays
//! from its seat's view alone, off the request path, commits secret choices like a player,
//! goes on after a restart, and falls back to a casual move when it fails.
//!
//! The bots here are test bots for the sealed duel (see `common`), each given to its own
//! server: their strong play commits "apple", their casual play "pear", so the log tells which
//! one acted.

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::client::*;
use crate::common::SealedDuel;
use axum::Router;
use axum::http::StatusCode;
use clash_core::{
    AnyGame, BotError, Budget, Randomness, RulesetEntry, Seat, SeatBot, SeatTable, Strength,
    play_seat,
};
use clash_server::Limits;
use serde_json::{Value, json};

/// The sealed duel's test bot: strong commits "apple", casual "pear"; it remembers every
/// table it was shown.
struct Spy {
    seen: &'static Mutex<Vec<Value>>,
}

impl SeatBot<SealedDuel> for Spy {
    fn choose(
        &self,
        table: &SeatTable<SealedDuel>,
        budget: Budget,
        _rng: &mut dyn Randomness,
    ) -> Option<crate::common::Command> {
        self.seen.lock().unwrap().push(table.to_json());
        let word = if budget.work == 0 { "pear" } else { "apple" };
        (table.to_act() && table.seat != Seat::Gm)
            .then(|| crate::common::Command::Commit { word: word.into() })
    }
}

/// Play `seat` with a spy that records into `seen`; casual play is marked by a zero budget.
fn spy(
    game: &dyn AnyGame,
    seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
    seen: &'static Mutex<Vec<Value>>,
) -> Result<Option<Value>, BotError> {
    let budget = match strength {
        Strength::Casual => Budget { work: 0, ..budget },
        Strength::Strong => budget,
    };
    play_seat::<SealedDuel>(game, seat, &Spy { seen }, budget, rng)
}

static FAIR_SEEN: Mutex<Vec<Value>> = Mutex::new(Vec::new());
static OTHER_SEEN: Mutex<Vec<Value>> = Mutex::new(Vec::new());

fn fair(
    game: &dyn AnyGame,
    seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError> {
    spy(game, seat, strength, budget, rng, &FAIR_SEEN)
}

fn plain(
    game: &dyn AnyGame,
    seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError> {
    spy(game, seat, strength, budget, rng, &OTHER_SEEN)
}

/// Strong play sends what the rules refuse (a player revealing).
fn wrong(
    game: &dyn AnyGame,
    seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError> {
    match strength {
        Strength::Strong => Ok(Some(json!({"type": "reveal"}))),
        Strength::Casual => plain(game, seat, strength, budget, rng),
    }
}

/// Strong play thinks far past its time.
fn slow(
    game: &dyn AnyGame,
    seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError> {
    if strength == Strength::Strong {
        std::thread::sleep(budget.time * 10);
    }
    plain(game, seat, strength, budget, rng)
}

/// Strong play asks about a seat the game does not have.
fn broken(
    game: &dyn AnyGame,
    _seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError> {
    let seat = match strength {
        Strength::Strong => Seat::Player(9),
        Strength::Casual => Seat::Player(1),
    };
    plain(game, seat, strength, budget, rng)
}

/// Opened by the test: until then, strong play waits (while it is thinking).
static GATE: (Mutex<(bool, bool)>, Condvar) = (Mutex::new((false, false)), Condvar::new());

fn gated(
    game: &dyn AnyGame,
    seat: Seat,
    strength: Strength,
    budget: Budget,
    rng: &mut dyn Randomness,
) -> Result<Option<Value>, BotError> {
    if strength == Strength::Strong {
        let (lock, opened) = &GATE;
        let mut state = lock.lock().unwrap();
        state.0 = true; // thinking
        let _ = opened
            .wait_timeout_while(state, Duration::from_secs(20), |s| !s.1)
            .unwrap();
    }
    plain(game, seat, strength, budget, rng)
}

type BotFn = clash_core::BotFn;

fn limits(think: Duration) -> Limits {
    Limits {
        bot_pause: Duration::from_millis(20),
        bot_think: think,
        ..Limits::default()
    }
}

struct Server {
    app: Router,
    server: Arc<clash_server::Server>,
    _dir: tempfile::TempDir,
}

fn open(path: &Path, bots: BotFn, limits: Limits) -> (Router, Arc<clash_server::Server>) {
    let catalogue = vec![RulesetEntry::of::<SealedDuel>().with_bots(bots)];
    let tables = clash_server::open_with(path, catalogue, limits).unwrap();
    (clash_server::app(tables.clone()), tables)
}

fn server(bots: BotFn) -> Server {
    server_with(bots, limits(Duration::from_secs(2)))
}

fn server_with(bots: BotFn, limits: Limits) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let (app, tables) = open(&dir.path().join("clash.db"), bots, limits);
    Server {
        app,
        server: tables,
        _dir: dir,
    }
}

struct Table {
    id: String,
    owner: String,
    spectator: String,
}

async fn table(app: &Router, players: u8) -> Table {
    let (status, created) = api(
        app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from("sealed-duel")),
            setup: Some(json!({"players": players})),
            ..CreateTable::default()
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let text = |k: &str| created[k].as_str().unwrap().to_string();
    Table {
        id: text("table"),
        owner: text("owner_key"),
        spectator: text("spectator_key"),
    }
}

async fn seat_bot(app: &Router, t: &Table, seat: &str, strength: &str) -> (StatusCode, Value) {
    api(
        app,
        routes::SEAT_BOT
            .at([&t.id, seat])
            .key(&t.owner)
            .json(&BotBody {
                strength: Some(String::from(strength)),
            }),
    )
    .await
}

async fn unseat_bot(app: &Router, t: &Table, seat: &str) -> (StatusCode, Value) {
    api(app, routes::UNSEAT_BOT.at([&t.id, seat]).key(&t.owner)).await
}

async fn send(app: &Router, t: &Table, key: &str, command: Value) -> (StatusCode, Value) {
    api(
        app,
        routes::COMMAND
            .at([&t.id])
            .key(key)
            .json(&CommandBody::of(json!(command))),
    )
    .await
}

/// Every log line `key` reads.
async fn lines(app: &Router, t: &Table, key: &str) -> Vec<Value> {
    let (status, events) = api(app, routes::EVENTS.at([&t.id]).key(key)).await;
    assert_eq!(status, StatusCode::OK, "{events}");
    events["events"].as_array().unwrap().clone()
}

async fn texts(app: &Router, t: &Table, key: &str) -> Vec<String> {
    lines(app, t, key)
        .await
        .iter()
        .map(|l| l["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The commands the stored log holds, as (seat, sender, command).
async fn commands(tables: &clash_server::Server, t: &Table) -> Vec<(String, String, Value)> {
    let log = tables.store().read_log(&t.id).await.unwrap();
    log.iter()
        .map(|(entry, _)| entry)
        .filter(|e| e["kind"] == "command")
        .map(|e| {
            (
                e["seat"].as_str().unwrap_or_default().to_string(),
                e["by"].as_str().unwrap_or_default().to_string(),
                e["command"].clone(),
            )
        })
        .collect()
}

/// Wait (up to ten seconds) until the table's record holds `n` commands.
async fn wait_for_commands(
    tables: &clash_server::Server,
    t: &Table,
    n: usize,
) -> Vec<(String, String, Value)> {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let now = commands(tables, t).await;
        if now.len() >= n || Instant::now() > end {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn seats(app: &Router, t: &Table) -> Vec<Value> {
    let (_, info) = api(app, routes::TABLE_INFO.at([&t.id]).key(&t.owner)).await;
    info["seats"].as_array().unwrap().clone()
}

fn commit(word: &str) -> Value {
    json!({"type": "commit", "word": word})
}

#[tokio::test]
async fn seating_and_unseating_are_public_table_events_told_with_names() {
    let s = server(plain);
    let app = &s.app;
    let t = table(app, 2).await;
    let (status, body) = seat_bot(app, &t, "p1", "strong").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body, json!({"seat": "p1", "bot": "strong"}));
    let p1 = seats(app, &t).await[1].clone();
    assert_eq!(p1["holder"], "bot");
    assert_eq!(p1["bot"], "strong");
    assert_eq!(p1["under"], "open");

    // Everyone reads it, the watchers too, by the seat's name.
    let told = texts(app, &t, &t.spectator).await;
    assert!(
        told.iter()
            .any(|l| l == "The GM seats a strong bot in Player 1's seat."),
        "{told:?}"
    );
    let (status, body) = unseat_bot(app, &t, "p1").await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let told = texts(app, &t, &t.spectator).await;
    assert!(
        told.iter()
            .any(|l| l == "The GM takes Player 1's seat back from its bot."),
        "{told:?}"
    );
    assert_eq!(seats(app, &t).await[1]["holder"], "open");
    for line in &told {
        assert!(!line.contains("p1") && !line.contains("Some("), "{line}");
    }
    // The table events themselves are in the log for programs, in the hash chain.
    let kinds: Vec<Value> = lines(app, &t, &t.spectator)
        .await
        .iter()
        .filter_map(|l| l.get("table").map(|e| e["type"].clone()))
        .collect();
    assert!(kinds.contains(&json!("bot_seated")), "{kinds:?}");
    assert!(kinds.contains(&json!("bot_unseated")), "{kinds:?}");
}

#[tokio::test]
async fn bots_sit_only_in_npc_or_empty_seats_and_only_the_gm_seats_them() {
    let s = server(plain);
    let app = &s.app;
    let t = table(app, 3).await;
    let p1 = seat_key(app, &t.id, &t.owner, "p1").await;
    let _invite = invite(app, &t.id, &t.owner, "p2").await;
    let before = texts(app, &t, &t.owner).await.len();

    // A player's seat, an invited seat, a seat the game lacks, a strength nobody knows:
    // refused, nothing changes.
    let (status, body) = seat_bot(app, &t, "p1", "casual").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "seat_taken");
    let (status, _) = seat_bot(app, &t, "p2", "casual").await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = seat_bot(app, &t, "p7", "casual").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = seat_bot(app, &t, "p3", "expert").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("casual")
    );
    // A player cannot seat or unseat a bot.
    let (status, _) = api(app, routes::SEAT_BOT.at([&t.id, "p3"]).key(&p1)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(texts(app, &t, &t.owner).await.len(), before);

    // An NPC seat takes a bot (casual without a body); the seat cannot be given away until the
    // GM takes it back; then it is the GM's NPC again.
    let (status, _) = api(
        app,
        routes::ISSUE_LINK
            .at([&t.id, "p3"])
            .key(&t.owner)
            .json(&LinkBody { npc: true }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = api(app, routes::SEAT_BOT.at([&t.id, "p3"]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["bot"], "casual");
    assert_eq!(seats(app, &t).await[3]["under"], "npc");
    // The GM may still look at the seat (and act for it where the bot leaves things to people).
    let (status, body) = api(
        app,
        routes::VIEW.at([&t.id]).key(&t.owner).query("as", "p3"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = api(app, routes::ISSUE_LINK.at([&t.id, "p3"]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "bot_seated");
    let (status, _) = seat_bot(app, &t, "p3", "casual").await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "the same bot again changes nothing"
    );
    let (status, _) = unseat_bot(app, &t, "p3").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(seats(app, &t).await[3]["holder"], "npc");
    let (status, body) = unseat_bot(app, &t, "p3").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "no_change");
}

#[tokio::test]
async fn a_seated_bot_plays_its_seat_and_commits_its_secret_like_a_player() {
    let s = server(plain);
    let app = &s.app;
    let t = table(app, 2).await;
    let p2 = seat_key(app, &t.id, &t.owner, "p2").await;
    let (status, _) = seat_bot(app, &t, "p1", "strong").await;
    assert_eq!(status, StatusCode::CREATED);
    // Nobody asks it: it acts by itself, as `bot` in the record.
    let sent = wait_for_commands(&s.server, &t, 1).await;
    assert_eq!(
        sent,
        vec![("p1".into(), "bot".into(), commit("apple"))],
        "the strong bot commits for Player 1"
    );
    // Its word is as secret as a player's: the other player and the watchers see it is ready.
    for key in [&p2, &t.spectator] {
        let told = texts(app, &t, key).await.join("\n");
        assert!(told.contains("p1 is ready"), "{told}");
        assert!(!told.contains("apple"), "{told}");
    }
    // The game waits for Player 2; once they commit, the GM reveals both.
    let (status, _) = send(app, &t, &p2, commit("pear")).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = send(app, &t, &t.owner, json!({"type": "reveal"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let told = texts(app, &t, &t.spectator).await.join("\n");
    assert!(told.contains("p1: apple"), "{told}");
}

#[tokio::test]
async fn a_bot_decides_from_its_seats_view_alone() {
    let s = server(fair);
    let app = &s.app;
    // Two tables that differ only in Player 2's secret word, each with the GM's NPC in
    // Player 1's seat: the GM reads what a person in that seat sees.
    let mut shown = Vec::new();
    for word in ["apple", "pear"] {
        let t = table(app, 2).await;
        let p2 = seat_key(app, &t.id, &t.owner, "p2").await;
        let (status, _) = api(
            app,
            routes::ISSUE_LINK
                .at([&t.id, "p1"])
                .key(&t.owner)
                .json(&LinkBody { npc: true }),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(send(app, &t, &p2, commit(word)).await.0, StatusCode::OK);
        let (_, person) = api(
            app,
            routes::VIEW.at([&t.id]).key(&t.owner).query("as", "p1"),
        )
        .await;
        let seen_before = FAIR_SEEN.lock().unwrap().len();
        assert_eq!(
            seat_bot(app, &t, "p1", "strong").await.0,
            StatusCode::CREATED
        );
        let sent = wait_for_commands(&s.server, &t, 2).await;
        assert_eq!(sent[1], ("p1".into(), "bot".into(), commit("apple")));
        let seen = FAIR_SEEN.lock().unwrap()[seen_before..].to_vec();
        assert!(!seen.is_empty());
        let table_seen = &seen[0];
        // Exactly the view a person in the seat is given, nothing of the other word.
        assert_eq!(table_seen["view"], person["view"], "{table_seen}");
        assert_eq!(table_seen["seat"], "p1");
        // (Its own choices name both words; what it was shown of the table names neither.)
        for part in ["view", "log", "status"] {
            assert!(!table_seen[part].to_string().contains(word), "{table_seen}");
        }
        shown.push(table_seen.clone());
    }
    assert_eq!(
        shown[0], shown[1],
        "the hidden word changed what the bot saw"
    );
}

#[tokio::test]
async fn a_bot_whose_move_is_refused_sends_a_casual_one() {
    let s = server(wrong);
    let app = &s.app;
    let t = table(app, 2).await;
    assert_eq!(
        seat_bot(app, &t, "p1", "strong").await.0,
        StatusCode::CREATED
    );
    let sent = wait_for_commands(&s.server, &t, 1).await;
    assert_eq!(sent, vec![("p1".into(), "bot".into(), commit("pear"))]);
}

#[tokio::test]
async fn a_bot_that_errs_sends_a_casual_move() {
    let s = server(broken);
    let app = &s.app;
    let t = table(app, 2).await;
    assert_eq!(
        seat_bot(app, &t, "p1", "strong").await.0,
        StatusCode::CREATED
    );
    let sent = wait_for_commands(&s.server, &t, 1).await;
    assert_eq!(sent, vec![("p1".into(), "bot".into(), commit("pear"))]);
}

#[tokio::test]
async fn a_bot_out_of_time_sends_a_casual_move() {
    let s = server_with(slow, limits(Duration::from_millis(100)));
    let app = &s.app;
    let t = table(app, 2).await;
    assert_eq!(
        seat_bot(app, &t, "p1", "strong").await.0,
        StatusCode::CREATED
    );
    let sent = wait_for_commands(&s.server, &t, 1).await;
    assert_eq!(sent, vec![("p1".into(), "bot".into(), commit("pear"))]);
}

#[tokio::test]
async fn the_table_goes_on_while_a_bot_thinks() {
    let s = server(gated);
    let app = &s.app;
    let t = table(app, 2).await;
    let p2 = seat_key(app, &t.id, &t.owner, "p2").await;
    assert_eq!(
        seat_bot(app, &t, "p1", "strong").await.0,
        StatusCode::CREATED
    );
    let end = Instant::now() + Duration::from_secs(10);
    while !GATE.0.lock().unwrap().0 && Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(GATE.0.lock().unwrap().0, "the bot never started thinking");
    // The bot holds no lock while it thinks: a player's command and the GM's talk go through.
    assert_eq!(send(app, &t, &p2, commit("pear")).await.0, StatusCode::OK);
    let (status, _) = api(
        app,
        routes::CHAT.at([&t.id]).key(&t.owner).json(&Line {
            text: String::from("Take your time."),
            ..Line::default()
        }),
    )
    .await;
    assert!(status.is_success(), "{status}");
    {
        let (lock, opened) = &GATE;
        lock.lock().unwrap().1 = true;
        opened.notify_all();
    }
    // The game moved on while it thought, but its seat still waits: it answers.
    let sent = wait_for_commands(&s.server, &t, 2).await;
    assert_eq!(sent[1].0, "p1");
    assert_eq!(sent[1].1, "bot");
}

#[test]
fn a_bot_mid_turn_goes_on_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clash.db");
    let runtime = || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    };
    // The first server seats a bot that takes its time; it stops before the bot acts.
    let first = runtime();
    let t = first.block_on(async {
        let slow_pause = Limits {
            bot_pause: Duration::from_secs(120),
            ..Limits::default()
        };
        let (app, tables) = open(&path, plain, slow_pause);
        let t = table(&app, 2).await;
        let p2 = seat_key(&app, &t.id, &t.owner, "p2").await;
        assert_eq!(send(&app, &t, &p2, commit("pear")).await.0, StatusCode::OK);
        assert_eq!(
            seat_bot(&app, &t, "p1", "strong").await.0,
            StatusCode::CREATED
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            commands(&tables, &t).await.len(),
            1,
            "the bot has not acted yet"
        );
        t
    });
    first.shutdown_timeout(Duration::from_secs(5));

    // The second server reads the table back when it is next asked for, and the bot goes on.
    let second = runtime();
    second.block_on(async {
        let (app, tables) = open(&path, plain, limits(Duration::from_secs(2)));
        assert_eq!(seats(&app, &t).await[1]["holder"], "bot");
        let sent = wait_for_commands(&tables, &t, 2).await;
        assert_eq!(sent[1], ("p1".into(), "bot".into(), commit("apple")));
        let (status, body) = send(&app, &t, &t.owner, json!({"type": "reveal"})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    });
    second.shutdown_timeout(Duration::from_secs(5));
}

#[tokio::test]
async fn a_claimed_invite_cannot_race_a_bot_into_its_seat() {
    let s = server(plain);
    let app = &s.app;
    let t = table(app, 2).await;
    let invite_key = invite(app, &t.id, &t.owner, "p1").await;
    // Revoke the invite, seat a bot: the old invite no longer works.
    let (status, _) = api(app, routes::REVOKE_LINK.at([&t.id, "p1"]).key(&t.owner)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        seat_bot(app, &t, "p1", "casual").await.0,
        StatusCode::CREATED
    );
    let (status, _) = api(app, routes::CLAIM.at([&t.id]).key(&invite_key)).await;
    assert!(status.is_client_error(), "{status}");
    let _ = claim;
}

#[tokio::test]
async fn a_bot_in_the_gms_own_seat_plays_beside_the_gm() {
    let s = server(plain);
    let app = &s.app;
    let t = table(app, 1).await;
    let (status, body) = seat_bot(app, &t, "gm", "strong").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let gm = seats(app, &t).await[0].clone();
    assert_eq!(
        (gm["holder"].clone(), gm["under"].clone()),
        (json!("bot"), json!("owner"))
    );
    let told = texts(app, &t, &t.spectator).await;
    assert!(
        told.iter()
            .any(|l| l == "The GM seats a strong bot in the GM's seat."),
        "{told:?}"
    );
    // What the bot leaves alone is still the GM's to do, from the GM's own link.
    let (status, body) = send(app, &t, &t.owner, json!({"type": "shuffle"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(unseat_bot(app, &t, "gm").await.0, StatusCode::NO_CONTENT);
    assert_eq!(seats(app, &t).await[0]["holder"], "owner");
}

#[tokio::test]
async fn bots_in_every_seat_play_a_real_game_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let tables = clash_server::open_with(
        &dir.path().join("clash.db"),
        clash_catalogue::rulesets(),
        limits(Duration::from_millis(300)),
    )
    .unwrap();
    let app = clash_server::app(tables.clone());
    let (status, created) = api(
        &app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from("triforce")),
            setup: Some(json!({"players": 3, "turn_limit": 3})),
            ..CreateTable::default()
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let text = |k: &str| created[k].as_str().unwrap().to_string();
    let t = Table {
        id: text("table"),
        owner: text("owner_key"),
        spectator: text("spectator_key"),
    };
    for (seat, strength) in [("p1", "strong"), ("p2", "casual"), ("p3", "strong")] {
        assert_eq!(
            seat_bot(&app, &t, seat, strength).await.0,
            StatusCode::CREATED
        );
    }
    // Nobody sends anything: the bots take their turns until the turn limit ends the game.
    let end = Instant::now() + Duration::from_secs(60);
    let over = loop {
        let (_, update) = api(&app, routes::VIEW.at([&t.id]).key(&t.spectator)).await;
        if let Some(how) = update["room"]["turn"]["over"].as_str() {
            break how.to_string();
        }
        assert!(
            Instant::now() < end,
            "the bots did not finish: {}",
            update["room"]["turn"]["text"]
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        over.contains("wins") || over.contains("draw") || over.contains("nobody"),
        "{over}"
    );
    let sent = commands(&tables, &t).await;
    assert!(sent.iter().all(|(_, by, _)| by == "bot"), "{sent:?}");
    for seat in ["p1", "p2", "p3"] {
        assert!(
            sent.iter().any(|(s, _, _)| s == seat),
            "{seat} never played"
        );
    }
}

/// Issue 26, hole 1: the GM revoked a seat whose player had a secret choice pending, seated a
/// bot in the empty seat and looked "as" it. Every change of a seat's holder now passes the
/// secret guard: the revoke is refused, so is any other change of hands, and the GM never sees
/// the choice until the rules reveal it.
#[tokio::test]
async fn the_gm_cannot_revoke_a_seat_and_seat_a_bot_to_read_a_pending_secret() {
    let s = server(plain);
    let t = table(&s.app, 2).await;
    let p1 = seat_key(&s.app, &t.id, &t.owner, "p1").await;
    let p2 = seat_key(&s.app, &t.id, &t.owner, "p2").await;
    let (status, _) = send(
        &s.app,
        &t,
        &p1,
        json!({"type": "commit", "word": "zebra-41"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let revoke = routes::REVOKE_LINK.at([&t.id, "p1"]).key(&t.owner);
    let (status, body) = api(&s.app, revoke).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("secret_pending")),
        "{body}"
    );
    assert!(
        body.to_string().contains("Player 1"),
        "named, not p1: {body}"
    );
    let (status, body) = seat_bot(&s.app, &t, "p1", "casual").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    for route in [routes::VIEW, routes::EVENTS, routes::EXPORT] {
        let href = route.at([&t.id]).key(&t.owner).query("as", "p1");
        let (_, seen) = api(&s.app, href).await;
        let path = route.path;
        assert!(!seen.to_string().contains("zebra-41"), "{path}: {seen}");
    }
    // The table goes on as usual: after the reveal the seat may change hands.
    send(&s.app, &t, &p2, json!({"type": "commit", "word": "yak"})).await;
    let reveal = CommandBody::of(json!({"type": "reveal"}));
    let commands = routes::COMMAND.at([&t.id]).key(&t.owner);
    let (status, body) = api(&s.app, commands.json(&reveal)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let revoke = routes::REVOKE_LINK.at([&t.id, "p1"]).key(&t.owner);
    let (status, _) = api(&s.app, revoke).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = seat_bot(&s.app, &t, "p1", "casual").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}
