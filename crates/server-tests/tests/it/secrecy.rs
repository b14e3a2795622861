//! Property (issue 26): for every ruleset, random play mixed with random changes of who holds a
//! seat (takeovers, hand-backs, new links, revocations, bots seated and unseated) and seeds
//! never lets any key see more than it may, and no key other than the one that made a secret
//! choice ever receives it before the reveal.
//!
//! The test keeps its own model of who holds each seat. Every seat change appends to the log,
//! so a revision (log length) fixes what each key may see. Every view, stream message, command
//! answer, refusal and record any key receives is checked against that model: it must come from
//! a viewer the key held at that revision, and its events and view must be exactly what the
//! rules show that viewer (checked after the end, against the complete record). Every change of
//! a seat's holder that the server took is checked against the complete record too: none may
//! happen while the seat holds its player's unrevealed choice, whichever route made it (the
//! secret guard of the server's executor). Pages are checked like views. No key ever receives
//! the server secret before the end.

use std::collections::HashMap;

use axum::Router;
use axum::http::StatusCode;
use clash_core::{AnyGame, Seat, Viewer};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::client::*;
use clash_server::http::routes::Route;

#[derive(Debug, Clone)]
enum Action {
    /// The holder of the `seat`-th seat plays its `pick`-th legal command.
    Play {
        seat: usize,
        pick: usize,
    },
    TakeOver {
        seat: usize,
    },
    HandBack {
        seat: usize,
    },
    /// A new invite, claimed at once by a new player.
    NewPlayer {
        seat: usize,
    },
    Revoke {
        seat: usize,
    },
    Seed {
        seat: usize,
        seed: u16,
    },
    /// The GM seats a (casual) bot in the seat; it never acts here (its pause outlasts the
    /// test), so the GM plays it, as the GM may for a bot's seat.
    SeatBot {
        seat: usize,
    },
    UnseatBot {
        seat: usize,
    },
    /// The seat's player moves it to another device of theirs with the one-time link their page
    /// makes (allowed whatever they chose in secret: it stays with them).
    MoveDevice {
        seat: usize,
    },
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        6 => (0..8usize, 0..64usize).prop_map(|(seat, pick)| Action::Play { seat, pick }),
        1 => (0..8usize).prop_map(|seat| Action::TakeOver { seat }),
        1 => (0..8usize).prop_map(|seat| Action::HandBack { seat }),
        1 => (0..8usize).prop_map(|seat| Action::NewPlayer { seat }),
        1 => (0..8usize).prop_map(|seat| Action::Revoke { seat }),
        1 => (0..8usize, any::<u16>()).prop_map(|(seat, seed)| Action::Seed { seat, seed }),
        1 => (0..8usize).prop_map(|seat| Action::SeatBot { seat }),
        1 => (0..8usize).prop_map(|seat| Action::UnseatBot { seat }),
        1 => (0..8usize).prop_map(|seat| Action::MoveDevice { seat }),
    ]
}

#[derive(Debug, Clone, PartialEq)]
enum Holder {
    Open,
    Player(String),
    Npc {
        suspended: Option<String>,
    },
    /// A bot sits in the seat; when it gets up, the seat is held as before (the GM's NPC, with
    /// any player who waits for it, or nobody).
    Bot(Box<Holder>),
}

/// What the test believes: who holds each player seat.
struct Model {
    seats: Vec<Seat>,
    holders: HashMap<Seat, Holder>,
    has_gm: bool,
}

/// A key and the seat it asks to act as.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Asker {
    key: String,
    as_seat: Option<Seat>,
}

impl Model {
    /// The viewer `asker` may be now, or `None` if it may see nothing.
    fn viewer(&self, owner: &str, spectator: &str, asker: &Asker) -> Option<Viewer> {
        if asker.key == owner {
            return match asker.as_seat {
                None | Some(Seat::Gm) => Some(if self.has_gm {
                    Viewer::Seat(Seat::Gm)
                } else {
                    Viewer::Spectator
                }),
                Some(s) => matches!(
                    self.holders.get(&s),
                    Some(Holder::Npc { .. } | Holder::Bot(_))
                )
                .then_some(Viewer::Seat(s)),
            };
        }
        if asker.key == spectator {
            return Some(Viewer::Spectator);
        }
        self.holders.iter().find_map(|(seat, h)| match h {
            Holder::Player(k) if *k == asker.key => Some(Viewer::Seat(*seat)),
            Holder::Npc { suspended: Some(k) } if *k == asker.key => Some(Viewer::Spectator),
            Holder::Bot(under) => match &**under {
                Holder::Npc { suspended: Some(k) } if *k == asker.key => Some(Viewer::Spectator),
                _ => None,
            },
            _ => None,
        })
    }
}

/// Something a key received, to be checked once the whole record is known.
#[derive(Debug)]
struct Seen {
    what: String,
    /// The viewer the model allowed at the revision the body was computed at.
    allowed: Option<Viewer>,
    body: Value,
}

struct Run {
    app: Router,
    id: String,
    owner: String,
    spectator: String,
    model: Model,
    /// For each revision at which rights changed, the model's answer for every asker.
    rights: Vec<(usize, HashMap<Asker, Option<Viewer>>)>,
    askers: Vec<Asker>,
    /// Open streams: who, the rights they opened with, whether they ended, the last revision read.
    streams: Vec<(Asker, Option<Viewer>, Sse, bool, usize)>,
    seen: Vec<Seen>,
    /// Changes of a seat's holder that the server took, with the revision just before and the
    /// key that held the seat then (a player's, or the GM's), whoever gained it.
    gains: Vec<(usize, Seat)>,
    revision: usize,
}

impl Run {
    fn uri(&self, route: Route, key: &str) -> Href {
        route.at([&self.id]).key(key)
    }

    fn seat_uri(&self, route: Route, seat: Seat) -> Href {
        route.at([&self.id, &seat.to_string()]).key(&self.owner)
    }

    fn snapshot(&mut self) {
        let rights = self
            .askers
            .iter()
            .map(|a| {
                (
                    a.clone(),
                    self.model.viewer(&self.owner, &self.spectator, a),
                )
            })
            .collect();
        self.rights.push((self.revision, rights));
    }

    fn allowed_at(&self, revision: usize, asker: &Asker) -> Option<Viewer> {
        let (_, rights) = self
            .rights
            .iter()
            .rev()
            .find(|(r, _)| *r <= revision)
            .expect("a snapshot");
        rights.get(asker).copied().flatten()
    }

    async fn log_len(&self) -> usize {
        let (_, info) = api(
            &self.app,
            routes::TABLE_INFO.at([&self.id]).key(&self.owner),
        )
        .await;
        info["event_count"].as_u64().unwrap() as usize
    }

    /// Note that the server took a change of who holds `seat`, at the current revision.
    fn changed_hands(&mut self, seat: Seat) {
        self.gains.push((self.revision, seat));
    }

    fn add_asker(&mut self, asker: Asker) {
        if !self.askers.contains(&asker) {
            self.askers.push(asker);
        }
    }

    async fn open_stream(&mut self, asker: Asker) {
        let mut uri = self.uri(routes::STREAM, &asker.key);
        if let Some(s) = asker.as_seat {
            uri = uri.query("as", s);
        }
        let bound = self.model.viewer(&self.owner, &self.spectator, &asker);
        if bound.is_none() {
            return;
        }
        let sse = Sse::open(&self.app, &uri, None).await;
        self.streams.push((asker, bound, sse, false, 0));
    }

    /// Read every open stream up to the current revision.
    async fn drain(&mut self) {
        let revision = self.revision;
        let mut seen = vec![];
        for (asker, bound, sse, ended, last) in
            self.streams.iter_mut().filter(|s| !s.3 && s.4 < revision)
        {
            loop {
                let ev = sse.next().await.unwrap_or_else(|| {
                    panic!("the stream of {asker:?} fell silent before revision {revision}")
                });
                match ev.event.as_str() {
                    "update" => {
                        let body: Value = serde_json::from_str(&ev.data).unwrap();
                        let at = body["event_count"].as_u64().unwrap() as usize;
                        seen.push((asker.clone(), *bound, at, body));
                        *last = at;
                        if at >= revision {
                            break;
                        }
                    }
                    _ => {
                        seen.push((
                            asker.clone(),
                            *bound,
                            revision,
                            json!({ "ended": ev.event, "data": ev.data }),
                        ));
                        *ended = true;
                        break;
                    }
                }
            }
        }
        for (asker, bound, at, body) in seen {
            let allowed = self.allowed_at(at, &asker);
            if body.get("ended").is_none() {
                assert_eq!(
                    allowed, bound,
                    "a stream for {asker:?} was sent an update at revision {at} after its rights changed"
                );
            }
            self.seen.push(Seen {
                what: format!("stream of {asker:?}"),
                allowed,
                body,
            });
        }
    }

    /// Every asker looks at the table and its record.
    async fn look(&mut self) {
        for asker in self.askers.clone() {
            let mut uri = self.uri(routes::VIEW, &asker.key);
            if let Some(s) = asker.as_seat {
                uri = uri.query("as", s);
            }
            uri = uri.query("after", 0);
            let (status, body) = call_json(&self.app, "GET", &uri, None).await;
            let allowed = self.model.viewer(&self.owner, &self.spectator, &asker);
            assert_eq!(
                status.is_success(),
                allowed.is_some(),
                "{asker:?} at {}: {status} {body}",
                self.revision
            );
            self.seen.push(Seen {
                what: format!("view of {asker:?}"),
                allowed,
                body,
            });
            if let Some(boot) = self.page(&asker).await {
                assert!(allowed.is_some(), "{asker:?} opened a page it may not see");
                self.seen.push(Seen {
                    what: format!("page of {asker:?}"),
                    allowed,
                    body: boot["update"].clone(),
                });
            }
            if asker.as_seat.is_none() {
                let (status, body) = call_json(
                    &self.app,
                    "GET",
                    &self.uri(routes::EXPORT, &asker.key),
                    None,
                )
                .await;
                assert_eq!(
                    status.is_success(),
                    allowed.is_some(),
                    "export for {asker:?}: {status} {body}"
                );
                self.seen.push(Seen {
                    what: format!("record of {asker:?}"),
                    allowed,
                    body,
                });
            }
        }
    }

    /// The start-up data of `asker`'s table page, if the page opens as a table.
    async fn page(&self, asker: &Asker) -> Option<Value> {
        let mut uri = routes::TABLE_PAGE.at([&self.id, &asker.key]);
        if let Some(s) = asker.as_seat {
            uri = uri.query("as", s);
        }
        let (status, html) = call(&self.app, "GET", &uri, None).await;
        if !status.is_success() {
            return None;
        }
        let start = html.find("id=\"boot\">")? + "id=\"boot\">".len();
        let end = start + html[start..].find("</script>")?;
        Some(serde_json::from_str(&html[start..end]).expect("the page's start-up data is JSON"))
    }

    fn key_for(&self, seat: Seat) -> Option<(String, Option<Seat>)> {
        match self.model.holders.get(&seat) {
            _ if seat == Seat::Gm => Some((self.owner.clone(), None)),
            Some(Holder::Player(k)) => Some((k.clone(), None)),
            Some(Holder::Npc { .. } | Holder::Bot(_)) => Some((self.owner.clone(), Some(seat))),
            _ => None,
        }
    }

    async fn act(&mut self, action: &Action) {
        let n = self.model.seats.len();
        let players: Vec<Seat> = self
            .model
            .seats
            .iter()
            .copied()
            .filter(|s| *s != Seat::Gm)
            .collect();
        let player = |i: usize| players.get(i % players.len().max(1)).copied();
        match *action {
            Action::Play { seat, pick } => {
                let seat = self.model.seats[seat % n];
                let Some((key, as_seat)) = self.key_for(seat) else {
                    return;
                };
                let asker = Asker {
                    key: key.clone(),
                    as_seat,
                };
                let mut view_uri = self.uri(routes::VIEW, &key);
                if let Some(s) = as_seat {
                    view_uri = view_uri.query("as", s);
                }
                let (_, view) = call_json(&self.app, "GET", &view_uri, None).await;
                let Some(legal) = view["legal"].as_array().filter(|l| !l.is_empty()) else {
                    return;
                };
                let command = legal[pick % legal.len()]["command"].clone();
                let body = json!(CommandBody {
                    command: Some(json!(command)),
                    as_seat: as_seat.map(|s| s.to_string()),
                    ..CommandBody::default()
                });
                let (status, answer) = call_json(
                    &self.app,
                    "POST",
                    &self.uri(routes::COMMAND, &key),
                    Some(body),
                )
                .await;
                assert_eq!(
                    status,
                    StatusCode::OK,
                    "a legal command is accepted: {answer}"
                );
                let allowed = self.model.viewer(&self.owner, &self.spectator, &asker);
                self.seen.push(Seen {
                    what: format!("answer to {asker:?}"),
                    allowed,
                    body: answer,
                });
            }
            Action::TakeOver { seat } => {
                let Some(seat) = player(seat) else { return };
                let uri = self.seat_uri(routes::ISSUE_LINK, seat);
                let (status, body) =
                    call_json(&self.app, "POST", &uri, Some(json!(LinkBody { npc: true }))).await;
                self.seen.push(Seen {
                    what: "takeover answer".into(),
                    allowed: Some(Viewer::Spectator),
                    body: body.clone(),
                });
                if status == StatusCode::CREATED {
                    self.changed_hands(seat);
                    let suspended = match self.model.holders.get(&seat) {
                        Some(Holder::Player(k)) => Some(k.clone()),
                        _ => None,
                    };
                    self.model.holders.insert(seat, Holder::Npc { suspended });
                    self.add_asker(Asker {
                        key: self.owner.clone(),
                        as_seat: Some(seat),
                    });
                } else {
                    assert!(status == StatusCode::CONFLICT, "{body}");
                }
            }
            Action::HandBack { seat } => {
                let Some(seat) = player(seat) else { return };
                let uri = self.seat_uri(routes::HAND_BACK, seat);
                let (status, _) = call(&self.app, "POST", &uri, None).await;
                if status == StatusCode::NO_CONTENT {
                    self.changed_hands(seat);
                    let Some(Holder::Npc { suspended: Some(k) }) =
                        self.model.holders.get(&seat).cloned()
                    else {
                        panic!("handed back a seat the model has no player waiting for")
                    };
                    self.model.holders.insert(seat, Holder::Player(k));
                }
            }
            Action::NewPlayer { seat } => {
                let Some(seat) = player(seat) else { return };
                let uri = self.seat_uri(routes::ISSUE_LINK, seat);
                let (status, body) = call_json(&self.app, "POST", &uri, None).await;
                if status != StatusCode::CREATED {
                    assert_eq!(status, StatusCode::CONFLICT, "{body}");
                    return;
                }
                self.changed_hands(seat);
                let invite = body["invite"].as_str().unwrap().to_string();
                self.model.holders.insert(seat, Holder::Open);
                self.revision += 1;
                self.snapshot();
                let (status, claimed) =
                    call_json(&self.app, "POST", &self.uri(routes::CLAIM, &invite), None).await;
                assert_eq!(status, StatusCode::CREATED, "{claimed}");
                let key = claimed["key"].as_str().unwrap().to_string();
                self.model.holders.insert(seat, Holder::Player(key.clone()));
                let asker = Asker { key, as_seat: None };
                self.add_asker(asker.clone());
                self.revision = self.log_len().await;
                self.snapshot();
                self.open_stream(asker).await;
                return;
            }
            Action::Revoke { seat } => {
                let Some(seat) = player(seat) else { return };
                let (status, _) = call(
                    &self.app,
                    "DELETE",
                    &self.seat_uri(routes::REVOKE_LINK, seat),
                    None,
                )
                .await;
                match status {
                    StatusCode::NO_CONTENT => {
                        self.changed_hands(seat);
                        self.model.holders.insert(seat, Holder::Open);
                    }
                    status => assert_eq!(status, StatusCode::CONFLICT),
                }
            }
            Action::SeatBot { seat } => {
                let Some(seat) = player(seat) else { return };
                let uri = self.seat_uri(routes::SEAT_BOT, seat);
                let (status, body) = call_json(&self.app, "POST", &uri, None).await;
                self.seen.push(Seen {
                    what: "seat-a-bot answer".into(),
                    allowed: Some(Viewer::Spectator),
                    body: body.clone(),
                });
                if status != StatusCode::CREATED {
                    assert_eq!(status, StatusCode::CONFLICT, "{body}");
                    return;
                }
                self.changed_hands(seat);
                let under = self
                    .model
                    .holders
                    .get(&seat)
                    .cloned()
                    .unwrap_or(Holder::Open);
                self.model
                    .holders
                    .insert(seat, Holder::Bot(Box::new(under)));
                self.add_asker(Asker {
                    key: self.owner.clone(),
                    as_seat: Some(seat),
                });
            }
            Action::UnseatBot { seat } => {
                let Some(seat) = player(seat) else { return };
                let uri = self.seat_uri(routes::UNSEAT_BOT, seat);
                let (status, body) = call_json(&self.app, "DELETE", &uri, None).await;
                if status != StatusCode::NO_CONTENT {
                    assert_eq!(status, StatusCode::CONFLICT, "{body}");
                    return;
                }
                self.changed_hands(seat);
                let Some(Holder::Bot(under)) = self.model.holders.get(&seat).cloned() else {
                    panic!("the server unseated a bot the model does not know of")
                };
                self.model.holders.insert(seat, *under);
            }
            Action::MoveDevice { seat } => {
                let Some(seat) = player(seat) else { return };
                if self.move_device(seat).await {
                    return;
                }
            }
            Action::Seed { seat, seed } => {
                let seat = self.model.seats[seat % n];
                let Some((key, _)) = self.key_for(seat) else {
                    return;
                };
                let (status, _) = call_json(
                    &self.app,
                    "POST",
                    &self.uri(routes::SEED, &key),
                    Some(json!(SeedBody {
                        seed: format!("s{seed}")
                    })),
                )
                .await;
                assert_eq!(status, StatusCode::NO_CONTENT);
            }
        }
        let now = self.log_len().await;
        if now != self.revision {
            self.revision = now;
            self.snapshot();
        }
        // The GM's page as a seat it just took over.
        if let Action::TakeOver { seat } = action
            && let Some(seat) = player(*seat)
            && matches!(self.model.holders.get(&seat), Some(Holder::Npc { .. }))
            && !self
                .streams
                .iter()
                .any(|(a, _, _, ended, _)| !ended && a.key == self.owner && a.as_seat == Some(seat))
        {
            self.open_stream(Asker {
                key: self.owner.clone(),
                as_seat: Some(seat),
            })
            .await;
        }
    }
}

impl Run {
    /// The player of `seat` (if it has one) moves it to another device: the old key stops, the
    /// new one sees what the seat sees. Anyone else asking is refused. True when it moved.
    async fn move_device(&mut self, seat: Seat) -> bool {
        let Some(Holder::Player(old)) = self.model.holders.get(&seat).cloned() else {
            let (status, body) = call_json(
                &self.app,
                "POST",
                &self.uri(routes::MOVE_LINK, &self.owner),
                None,
            )
            .await;
            assert_eq!(
                status,
                StatusCode::FORBIDDEN,
                "the GM cannot move a seat: {body}"
            );
            return false;
        };
        let (status, body) =
            call_json(&self.app, "POST", &self.uri(routes::MOVE_LINK, &old), None).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        self.seen.push(Seen {
            what: "move link".into(),
            allowed: Some(Viewer::Seat(seat)),
            body: body.clone(),
        });
        self.revision = self.log_len().await;
        self.snapshot();
        let link = body["key"].as_str().unwrap();
        let (status, claimed) =
            call_json(&self.app, "POST", &self.uri(routes::CLAIM, link), None).await;
        assert_eq!(status, StatusCode::CREATED, "{claimed}");
        let key = claimed["key"].as_str().unwrap().to_string();
        self.model.holders.insert(seat, Holder::Player(key.clone()));
        let asker = Asker { key, as_seat: None };
        self.add_asker(asker.clone());
        self.revision = self.log_len().await;
        self.snapshot();
        self.open_stream(asker).await;
        true
    }
}

/// The complete record, read back into a game at any revision.
struct Truth {
    entries: Vec<Value>,
    setup: Value,
    ruleset: String,
    secret: String,
}

impl Truth {
    /// The game after every entry before `revision`.
    fn game_at(&self, revision: usize) -> Box<dyn AnyGame> {
        let entry = clash_catalogue::rulesets()
            .into_iter()
            .find(|e| e.id == self.ruleset)
            .unwrap();
        let mut game = (entry.new_game)(&self.setup).unwrap();
        let opening = game.event_count();
        let events = self.entries[..revision.min(self.entries.len())]
            .iter()
            .filter(|e| e["entry"]["kind"] == "event");
        for event in events.skip(opening) {
            game.restore(&event["entry"]["event"]).unwrap();
        }
        game
    }

    /// The log position of each game event.
    fn positions(&self) -> Vec<usize> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e["entry"]["kind"] == "event")
            .map(|(i, _)| i)
            .collect()
    }
}

/// Check one body a key received against what its viewer may see.
fn check(truth: &Truth, seen: &Seen, whole: &dyn AnyGame, positions: &[usize]) {
    let text = seen.body.to_string();
    assert!(
        !text.contains(&truth.secret),
        "{}: holds the server secret before the end",
        seen.what
    );
    let Some(viewer) = seen.allowed else {
        assert!(
            seen.body.get("error").is_some() || seen.body.get("ended").is_some(),
            "{}: {}",
            seen.what,
            seen.body
        );
        return;
    };
    let redacted: HashMap<usize, Value> = whole
        .events_for(viewer, 0)
        .into_iter()
        .map(|e| (positions[e.index], e.event))
        .collect();
    if let Some(view) = seen.body.get("view") {
        assert_eq!(seen.body["viewer"], viewer.to_string(), "{}", seen.what);
        let at = seen.body["event_count"].as_u64().unwrap() as usize;
        assert_eq!(
            view,
            &truth.game_at(at).view(viewer),
            "{}: the view at {at}",
            seen.what
        );
        for line in seen.body["events"].as_array().unwrap() {
            if let Some(event) = line.get("event") {
                let index = line["index"].as_u64().unwrap() as usize;
                assert_eq!(
                    Some(event),
                    redacted.get(&index),
                    "{}: event at {index}",
                    seen.what
                );
            }
        }
    }
    if let Some(entries) = seen.body.get("entries").and_then(Value::as_array) {
        assert!(seen.body.get("secret").is_none());
        for e in entries {
            let pos = e["pos"].as_u64().unwrap() as usize;
            let shown = e.get("entry").or(e.get("seen"));
            match shown.map(|s| s["kind"].as_str()) {
                Some(Some("event")) => assert_eq!(
                    Some(&shown.unwrap()["event"]),
                    redacted.get(&pos),
                    "{}: record entry {pos}",
                    seen.what
                ),
                Some(Some("command")) => {
                    let shown = shown.unwrap();
                    assert!(
                        shown.get("draws").is_none(),
                        "{}: draws before the end",
                        seen.what
                    );
                    let own = viewer.seat().map(|s| s.to_string())
                        == shown["seat"].as_str().map(str::to_string);
                    assert_eq!(
                        shown.get("command").is_some(),
                        own,
                        "{}: command {pos}",
                        seen.what
                    );
                }
                _ => {}
            }
        }
    }
}

async fn run(ruleset: &str, actions: Vec<Action>) {
    let dir = tempfile::tempdir().unwrap();
    // Seated bots never act here: the GM plays their seats, so every move is the test's own.
    let limits = clash_server::Limits {
        bot_pause: std::time::Duration::from_secs(3600),
        ..clash_server::Limits::default()
    };
    let tables = clash_server::open_with(
        &dir.path().join("clash.db"),
        clash_catalogue::rulesets(),
        limits,
    )
    .unwrap();
    let app = clash_server::app(tables);
    let (_, created) = api(
        &app,
        routes::CREATE_TABLE.at([]).json(&CreateTable {
            ruleset: Some(String::from(ruleset)),
            ..CreateTable::default()
        }),
    )
    .await;
    let seats: Vec<Seat> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_str().unwrap().parse().unwrap())
        .collect();
    let owner = created["owner_key"].as_str().unwrap().to_string();
    let spectator = created["spectator_key"].as_str().unwrap().to_string();
    let model = Model {
        has_gm: seats.contains(&Seat::Gm),
        seats: seats.clone(),
        holders: HashMap::new(),
    };
    let mut r = Run {
        app,
        id: created["table"].as_str().unwrap().to_string(),
        owner: owner.clone(),
        spectator: spectator.clone(),
        model,
        rights: vec![],
        askers: vec![
            Asker {
                key: owner.clone(),
                as_seat: None,
            },
            Asker {
                key: spectator.clone(),
                as_seat: None,
            },
        ],
        streams: vec![],
        seen: vec![],
        gains: vec![],
        revision: 0,
    };
    r.revision = r.log_len().await;
    r.snapshot();
    // Every player seat starts with a player.
    for seat in 0..seats.iter().filter(|s| **s != Seat::Gm).count() {
        r.act(&Action::NewPlayer { seat }).await;
    }
    r.open_stream(Asker {
        key: owner.clone(),
        as_seat: None,
    })
    .await;
    r.open_stream(Asker {
        key: spectator.clone(),
        as_seat: None,
    })
    .await;
    for action in &actions {
        r.act(action).await;
        r.drain().await;
        r.look().await;
    }
    // The end: the whole record, with the secret.
    call(&r.app, "POST", &r.uri(routes::CLOSE, &owner), None).await;
    let (_, record) = call_json(&r.app, "GET", &r.uri(routes::EXPORT, &spectator), None).await;
    let report = clash_server::export::verify(&record, &clash_catalogue::rulesets(), &[]);
    assert!(report.ok() && report.unchecked.is_empty(), "{report:?}");
    let entries = record["entries"].as_array().unwrap().clone();
    let truth = Truth {
        setup: entries[0]["entry"]["event"]["setup"].clone(),
        ruleset: ruleset.into(),
        secret: record["secret"].as_str().unwrap().into(),
        entries,
    };
    let whole = truth.game_at(usize::MAX);
    let positions = truth.positions();
    for seen in &r.seen {
        check(&truth, seen, whole.as_ref(), &positions);
    }
    // No seat changed hands while it held its player's unrevealed choice, whatever the route.
    for (revision, seat) in &r.gains {
        let game = truth.game_at(*revision);
        let last_by_player = truth.entries[..*revision]
            .iter()
            .rev()
            .find(|e| e["entry"]["kind"] == "command" && e["entry"]["seat"] == seat.to_string())
            .is_some_and(|e| e["entry"]["by"] == "player");
        assert!(
            !(last_by_player && game.secret_pending(*seat)),
            "{seat} changed hands at {revision} holding its player's secret"
        );
    }
}

fn check_ruleset(ruleset: &str, actions: Vec<Action>) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run(ruleset, actions));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn iron_triangle_keeps_every_secret(actions in proptest::collection::vec(action(), 1..30)) {
        check_ruleset("iron-triangle", actions);
    }

    #[test]
    fn nd_tourists_keeps_every_secret(actions in proptest::collection::vec(action(), 1..30)) {
        check_ruleset("nd-tourists", actions);
    }

    #[test]
    fn triforce_keeps_every_secret(actions in proptest::collection::vec(action(), 1..30)) {
        check_ruleset("triforce", actions);
    }

    #[test]
    fn wicked_age_keeps_every_secret(actions in proptest::collection::vec(action(), 1..30)) {
        check_ruleset("wicked-age", actions);
    }
}
