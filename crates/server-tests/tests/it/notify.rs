//! Notifications (issue 31): a player hears of their move at their own webhook or email, from
//! their own view alone; the person who acted hears nothing; a burst becomes one digest;
//! failures are retried and shown to the target's owner and in the GM's delivery log; private
//! addresses are refused unless the host allows a LAN; no redirect is followed; nothing is sent
//! once the table is archived; targets survive a restart and go with a revoked seat.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use clash_server::{Limits, Server};
use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::client::*;
use crate::sinks::{Receiver, SmtpSink, eventually, settings};

const SOON: Duration = Duration::from_secs(5);

fn open(path: &std::path::Path, notify: clash_server::notify::Settings) -> (Arc<Server>, Router) {
    let limits = Limits {
        notify,
        ..Limits::default()
    };
    let tables = clash_server::open_with(path, catalogue(), limits).unwrap();
    (tables.clone(), clash_server::app(tables))
}

async fn target(app: &Router, t: &Table, key: &str, body: Value) -> (StatusCode, Value) {
    let uri = routes::ADD_TARGET.at([&t.id]).key(key);
    call_json(app, "POST", &uri, Some(body)).await
}

async fn webhook(app: &Router, t: &Table, key: &str, format: &str, url: &str) -> Value {
    let body = json!(NewTarget {
        kind: String::from("webhook"),
        format: Some(String::from(format)),
        address: String::from(url)
    });
    let (status, made) = target(app, t, key, body).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    made
}

async fn whisper(app: &Router, t: &Table, text: &str, to: &str) {
    let uri = routes::CHAT.at([&t.id]).key(&t.owner);
    let (status, body) = call_json(
        app,
        "POST",
        &uri,
        Some(json!(Line {
            text: String::from(text),
            to: Some(String::from(to)),
            ..Line::default()
        })),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
}

fn kinds(got: &crate::sinks::Got) -> Vec<String> {
    got.body["events"]
        .as_array()
        .map(|e| {
            e.iter()
                .map(|i| i["kind"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_player_hears_their_move_from_their_own_view_and_the_actor_hears_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_tables, app) = open(&dir.path().join("c.db"), settings(None));
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    let p1 = webhook(&app, &t, &t.p1, "json", &hooks.url("p1")).await;
    webhook(&app, &t, &t.p2, "discord", &hooks.url("p2")).await;
    webhook(&app, &t, &t.owner, "slack", &hooks.url("gm")).await;
    send(&app, &t, &t.p1, json!({"type": "commit", "word": "zebra"})).await;
    send(&app, &t, &t.p2, json!({"type": "commit", "word": "yak"})).await;
    // Both have committed: the GM's move. The players acted, and hear nothing of it.
    assert!(eventually(SOON, || hooks.got("gm").len() == 1).await);
    assert!(
        hooks.got("gm")[0].body["text"]
            .as_str()
            .unwrap()
            .contains("Your move")
    );
    send(&app, &t, &t.owner, json!({"type": "reveal"})).await;
    assert!(
        eventually(SOON, || hooks.got("p1").len() == 1
            && hooks.got("p2").len() == 1)
        .await
    );
    let got = &hooks.got("p1")[0];
    assert_eq!(kinds(got), ["your_move", "reveal"], "{}", got.body);
    assert_eq!(got.body["link"], "https://clash.example/");
    // The signature checks out with the secret its owner was given.
    let stamp = &got.headers["x-clash-timestamp"];
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(p1["secret"].as_str().unwrap().as_bytes())
            .unwrap();
    mac.update(format!("{stamp}.").as_bytes());
    mac.update(&got.raw);
    let expected: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        got.headers["x-clash-signature"],
        format!("sha256={expected}")
    );
    assert!(
        hooks.got("p2")[0].body["content"]
            .as_str()
            .unwrap()
            .contains("Your move")
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    // The GM revealed: the GM is not told of it; p1 and p2 once each.
    assert_eq!((hooks.got("gm").len(), hooks.got("p1").len()), (1, 1));
    for got in hooks.all() {
        let text = String::from_utf8_lossy(&got.raw).to_string();
        for key in [&t.owner, &t.p1, &t.p2, &t.spectator] {
            assert!(!text.contains(key.as_str()), "a key in {text}");
        }
    }
}

#[tokio::test]
async fn nothing_of_another_seats_secret_reaches_a_player() {
    let dir = tempfile::tempdir().unwrap();
    let (_tables, app) = open(&dir.path().join("c.db"), settings(None));
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    webhook(&app, &t, &t.p2, "json", &hooks.url("p2")).await;
    webhook(&app, &t, &t.owner, "json", &hooks.url("gm")).await;
    send(&app, &t, &t.p1, json!({"type": "commit", "word": "zebra"})).await;
    whisper(&app, &t, "@Player 2 you are slow", "p2").await;
    send(&app, &t, &t.p2, json!({"type": "commit", "word": "yak"})).await;
    assert!(
        eventually(SOON, || !hooks.got("p2").is_empty()
            && !hooks.got("gm").is_empty())
        .await
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    for got in hooks.got("p2") {
        assert!(
            !String::from_utf8_lossy(&got.raw).contains("zebra"),
            "{}",
            got.body
        );
    }
    assert_eq!(kinds(&hooks.got("p2")[0]), ["whisper"]);
}

#[tokio::test]
async fn a_burst_of_events_goes_as_one_digest() {
    let dir = tempfile::tempdir().unwrap();
    let mut quiet = settings(None);
    quiet.gather = Duration::from_millis(400);
    let (_tables, app) = open(&dir.path().join("c.db"), quiet);
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    webhook(&app, &t, &t.p1, "json", &hooks.url("p1")).await;
    for n in 0..5 {
        whisper(&app, &t, &format!("psst {n}"), "p1").await;
    }
    assert!(eventually(SOON, || !hooks.got("p1").is_empty()).await);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let got = hooks.got("p1");
    assert_eq!(got.len(), 1, "one digest");
    assert_eq!(kinds(&got[0]), vec!["whisper"; 5]);
}

#[tokio::test]
async fn failures_are_retried_with_backoff_and_shown_to_the_owner_and_the_gm() {
    let dir = tempfile::tempdir().unwrap();
    let (_tables, app) = open(&dir.path().join("c.db"), settings(None));
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    webhook(&app, &t, &t.p1, "json", &hooks.url("flaky")).await;
    webhook(&app, &t, &t.p2, "json", &hooks.url("down")).await;
    hooks.fail("flaky", 2);
    hooks.fail("down", 100);
    whisper(&app, &t, "hello", "p1").await;
    whisper(&app, &t, "hello", "p2").await;
    assert!(
        eventually(SOON, || hooks.got("flaky").len() == 3
            && hooks.got("down").len() == 4)
        .await
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mine = |key: String| {
        let app = app.clone();
        let uri = routes::NOTIFY_SETTINGS.at([&t.id]).key(&key);
        async move { call_json(&app, "GET", &uri, None).await.1 }
    };
    let flaky = mine(t.p1.clone()).await;
    assert_eq!(flaky["targets"][0]["failures"], 0, "{flaky}");
    assert!(flaky["targets"][0]["last_ok_at"].is_i64());
    let down = mine(t.p2.clone()).await;
    assert_eq!(down["targets"][0]["failures"], 4, "{down}");
    assert!(
        down["targets"][0]["last_error"]
            .as_str()
            .unwrap()
            .contains("500")
    );
    let uri = routes::DELIVERY_LOG.at([&t.id]).key(&t.owner);
    let (_, log) = call_json(&app, "GET", &uri, None).await;
    let outcomes: Vec<(&str, &str)> = log["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["outcome"].as_str().unwrap(),
                d["detail"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(outcomes.contains(&("sent", "after 3 attempt(s)")), "{log}");
    assert!(
        outcomes
            .iter()
            .any(|(o, d)| *o == "failed" && d.starts_with("after 4 attempt(s)"))
    );
    assert!(
        !log.to_string().contains(&hooks.url("down")),
        "the GM never sees an address"
    );
    let (status, _) = call_json(&app, "GET", &uri.replace(&t.owner, &t.p1), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn private_addresses_and_bad_targets_are_refused_when_set() {
    let dir = tempfile::tempdir().unwrap();
    let strict = clash_server::notify::Settings::default();
    let (_tables, app) = open(&dir.path().join("c.db"), strict);
    let t = table(&app).await;
    for (address, why) in [
        ("http://93.184.216.34/hook", "only https"),
        ("https://127.0.0.1/hook", "loopback"),
        ("https://10.1.2.3/hook", "private"),
        ("https://192.168.0.10/hook", "private"),
        ("https://100.64.0.1/hook", "carrier-grade NAT"),
        ("https://169.254.169.254/latest", "metadata"),
        ("https://[::1]/hook", "loopback"),
        ("https://[fd00::1]/hook", "private"),
        ("https://[fe80::1]/hook", "link-local"),
        ("https://[::ffff:127.0.0.1]/hook", "loopback"),
        ("https://[::ffff:a9fe:a9fe]/hook", "metadata"),
        ("https://localhost/hook", "loopback"),
        ("https://user:pw@example.org/hook", "user name"),
        ("ftp://example.org/hook", "not webhooks"),
        ("not a url", "not a URL"),
    ] {
        let body = json!(NewTarget {
            kind: String::from("webhook"),
            format: Some(String::from("discord")),
            address: String::from(address)
        });
        let (status, answer) = target(&app, &t, &t.p1, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{address}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(why), "{address}: {message}");
    }
    let email = json!(NewTarget {
        kind: String::from("email"),
        address: String::from("ada@example.org"),
        format: None
    });
    let (status, answer) = target(&app, &t, &t.p1, email).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("SMTP")
    );
    let channel = json!(NewTarget {
        kind: String::from("channel"),
        format: Some(String::from("discord")),
        address: String::from("https://example.org/")
    });
    let (status, _) = target(&app, &t, &t.p1, channel).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "only the GM sets the channel"
    );
    let hook = json!(NewTarget {
        kind: String::from("webhook"),
        address: String::from("https://127.0.0.1/"),
        format: None
    });
    let (status, _) = target(&app, &t, &t.spectator, hook).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let uri = routes::SET_HANDLE.at([&t.id]).key(&t.p1);
    let everyone = HandleBody {
        handle: Some("@everyone".into()),
    };
    let (status, _) = api(&app, uri.json(&everyone)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, mine) = api(&app, routes::NOTIFY_SETTINGS.at([&t.id]).key(&t.p1)).await;
    assert_eq!(mine["targets"], json!([]), "nothing was stored");
}

#[tokio::test]
async fn no_redirect_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    let (_tables, app) = open(&dir.path().join("c.db"), settings(None));
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    webhook(&app, &t, &t.p1, "json", &hooks.redirect_url()).await;
    whisper(&app, &t, "over here", "p1").await;
    assert!(eventually(SOON, || hooks.redirects() == 1).await);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(hooks.redirects(), 1, "a redirect is not tried again");
    assert!(hooks.got("redirected").is_empty());
    let (_, mine) = api(&app, routes::NOTIFY_SETTINGS.at([&t.id]).key(&t.p1)).await;
    assert!(
        mine["targets"][0]["last_error"]
            .as_str()
            .unwrap()
            .contains("redirects are not followed")
    );
}

#[tokio::test]
async fn nothing_is_sent_once_the_table_is_archived() {
    let dir = tempfile::tempdir().unwrap();
    let mut slow = settings(None);
    slow.gather = Duration::from_millis(500);
    let (_tables, app) = open(&dir.path().join("c.db"), slow);
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    webhook(&app, &t, &t.p1, "json", &hooks.url("p1")).await;
    whisper(&app, &t, "before the archive", "p1").await;
    let uri = routes::ARCHIVE.at([&t.id]).key(&t.owner);
    let (status, body) = call_json(
        &app,
        "POST",
        &uri,
        Some(json!(ArchiveBody { archived: true })),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert!(hooks.all().is_empty(), "nothing after archiving");
}

#[tokio::test]
async fn targets_survive_a_restart_and_go_with_a_revoked_seat() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let hooks = Receiver::start().await;
    let t = {
        let (tables, app) = open(&path, settings(None));
        let t = table(&app).await;
        webhook(&app, &t, &t.p1, "json", &hooks.url("p1")).await;
        drop((tables, app));
        t
    };
    let (_tables, app) = open(&path, settings(None));
    whisper(&app, &t, "still there?", "p1").await;
    assert!(eventually(SOON, || hooks.got("p1").len() == 1).await);
    let uri = routes::ISSUE_LINK.at([&t.id, "p1"]).key(&t.owner);
    let (status, _) = call_json(&app, "DELETE", &uri, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let new_p1 = crate::client::seat_key(&app, &t.id, &t.owner, "p1").await;
    let (_, mine) = api(&app, routes::NOTIFY_SETTINGS.at([&t.id]).key(&new_p1)).await;
    assert_eq!(
        mine["targets"],
        json!([]),
        "the new player starts with no targets"
    );
    whisper(&app, &t, "the seat has a new player", "p1").await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        hooks.got("p1").len(),
        1,
        "the old player's webhook went with their key"
    );
}

#[tokio::test]
async fn an_email_goes_through_the_hosts_relay() {
    let dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start().await;
    let (_tables, app) = open(&dir.path().join("c.db"), settings(Some(&sink)));
    let t = table(&app).await;
    let (status, made) = target(
        &app,
        &t,
        &t.p1,
        json!({"kind": "email", "address": "ada@example.org"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    // The address's owner confirms it first (see email.rs), from its one confirmation's link.
    assert!(eventually(SOON, || sink.mails().len() == 1).await);
    let ask = sink.mails()[0].data.replace("=\n", "");
    let prefix = routes::MAIL_CONFIRM.path.trim_end_matches("{token}");
    let at = ask.find(prefix).unwrap() + prefix.len();
    let confirm = routes::MAIL_CONFIRM.at([&ask[at..at + 32]]);
    let (status, _) = crate::client::api_text(&app, confirm).await;
    assert_eq!(status, StatusCode::OK);
    whisper(&app, &t, "check your mail", "p1").await;
    assert!(eventually(SOON, || sink.mails().len() == 2).await);
    let mail = &sink.mails()[1];
    assert_eq!(mail.to, ["ada@example.org"]);
    assert!(mail.data.contains("check your mail"), "{}", mail.data);
    assert!(
        mail.data.contains("Subject: Clash: a whisper"),
        "{}",
        mail.data
    );
    assert!(!mail.data.contains(&t.p1));
}

#[tokio::test]
async fn the_table_channel_mentions_players_by_handle_and_shows_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    let (_tables, app) = open(&dir.path().join("c.db"), settings(None));
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    let channel = json!(NewTarget {
        kind: String::from("channel"),
        format: Some(String::from("discord")),
        address: hooks.url("channel")
    });
    let (status, _) = target(&app, &t, &t.owner, channel).await;
    assert_eq!(status, StatusCode::CREATED);
    for (key, handle) in [(&t.p1, "<@111>"), (&t.p2, "<@222>")] {
        let uri = routes::SET_HANDLE.at([&t.id]).key(key);
        let body = HandleBody {
            handle: Some(handle.into()),
        };
        let (status, _) = api(&app, uri.json(&body)).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
    }
    send(&app, &t, &t.p1, json!({"type": "commit", "word": "zebra"})).await;
    send(&app, &t, &t.p2, json!({"type": "commit", "word": "yak"})).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    send(&app, &t, &t.owner, json!({"type": "reveal"})).await;
    assert!(
        eventually(SOON, || hooks
            .got("channel")
            .iter()
            .any(|g| g.body["content"].as_str().unwrap().contains("<@222>")))
        .await
    );
    let texts: Vec<String> = hooks
        .got("channel")
        .iter()
        .map(|g| g.body["content"].as_str().unwrap().to_string())
        .collect();
    let before_reveal = &texts[..texts.len() - 1];
    assert!(
        before_reveal
            .iter()
            .all(|t| !t.contains("zebra") && !t.contains("yak")),
        "{texts:?}"
    );
    let last = texts.last().unwrap();
    assert!(
        last.contains("<@111>: it is your move.") && last.contains("<@222>: it is your move."),
        "{last}"
    );
    // Each message pings exactly the players it mentions by their handles, and nobody else.
    for got in hooks.got("channel") {
        let content = got.body["content"].as_str().unwrap();
        let mentioned: Vec<&str> = ["111", "222"]
            .into_iter()
            .filter(|id| content.contains(&format!("<@{id}>")))
            .collect();
        assert_eq!(
            got.body["allowed_mentions"],
            json!({"parse": [], "users": mentioned}),
            "{content}"
        );
    }
}

/// A table whose channel goes to `hooks` as `format`, p2's handle `handle`, and the GM's own
/// Slack webhook; p1 says `line` to everyone and whispers it to the GM.
async fn said_to_the_channel(
    app: &Router,
    hooks: &Receiver,
    format: &str,
    handle: &str,
    line: &str,
) {
    let t = table(app).await;
    let channel = json!({"kind": "channel", "format": format, "address": hooks.url(format)});
    assert_eq!(
        target(app, &t, &t.owner, channel).await.0,
        StatusCode::CREATED
    );
    webhook(app, &t, &t.owner, "slack", &hooks.url("gm")).await;
    let uri = routes::SET_HANDLE.at([&t.id]).key(&t.p2);
    let handle = HandleBody {
        handle: Some(handle.to_string()),
    };
    let (status, _) = api(app, uri.json(&handle)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let uri = routes::CHAT.at([&t.id]).key(&t.p1);
    for to_gm in [false, true] {
        let body = Line {
            text: line.to_string(),
            to_gm,
            ..Line::default()
        };
        assert_eq!(
            api(app, uri.clone().json(&body)).await.0,
            StatusCode::NO_CONTENT
        );
    }
}

#[tokio::test]
async fn what_players_write_reaches_slack_and_discord_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let (_tables, app) = open(&dir.path().join("c.db"), settings(None));
    let hooks = Receiver::start().await;
    let line = "@Player 2 <!channel> <https://evil.example|your seat link> [your seat](https://evil.example) @everyone";
    said_to_the_channel(&app, &hooks, "slack", "<@U222>", line).await;
    said_to_the_channel(&app, &hooks, "discord", "<@222>", line).await;
    let arrived = || {
        ["slack", "discord"]
            .iter()
            .all(|n| !hooks.got(n).is_empty())
            && hooks.got("gm").len() >= 2
    };
    assert!(eventually(SOON, arrived).await);
    let slack = hooks.got("slack")[0].body["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        slack.contains("<@U222>:"),
        "the table's own mention stays: {slack}"
    );
    assert!(
        slack.contains("&lt;!channel&gt;") && !slack.contains("<!channel>"),
        "{slack}"
    );
    assert!(
        !slack.contains("<https") && !slack.contains("https://evil"),
        "{slack}"
    );
    for got in hooks.got("gm") {
        let gm = got.body["text"].as_str().unwrap().to_string();
        assert!(gm.contains("&lt;https:"), "the whisper too: {gm}");
        assert!(!gm.contains("<!channel>") && !gm.contains("<https"), "{gm}");
    }
    let discord = &hooks.got("discord")[0].body;
    let content = discord["content"].as_str().unwrap();
    assert!(
        content.contains("<@222>") && !content.contains("<!channel>"),
        "{content}"
    );
    assert!(
        !content.contains("[your seat](") && !content.contains("@everyone"),
        "{content}"
    );
    assert_eq!(
        discord["allowed_mentions"],
        json!({"parse": [], "users": ["222"]})
    );
}

#[tokio::test]
async fn the_lobby_learns_which_tables_wait_on_the_key_first() {
    let dir = tempfile::tempdir().unwrap();
    let (_tables, app) = open(&dir.path().join("c.db"), settings(None));
    let (a, b) = (table(&app).await, table(&app).await);
    send(&app, &a, &a.p1, json!({"type": "commit", "word": "zebra"})).await;
    let kept = |id: &str, key: &str| KeptLink {
        id: id.into(),
        key: key.into(),
    };
    let body = MovesBody {
        tables: vec![kept(&a.id, &a.p1), kept(&b.id, &b.p1), kept("nothere", "x")],
    };
    let (status, moves) = api(&app, routes::MOVES.at([]).json(&body)).await;
    assert_eq!(status, StatusCode::OK, "{moves}");
    let tables = moves["tables"].as_array().unwrap();
    assert_eq!(
        (tables[0]["id"].as_str(), tables[0]["yours"].as_bool()),
        (Some(b.id.as_str()), Some(true))
    );
    assert_eq!(tables[1]["yours"], false);
    assert!(tables.iter().any(|t| t["error"] == "unknown_table"));
    let tables = (0..51).map(|_| kept(&a.id, &a.p1)).collect();
    let (status, _) = api(&app, routes::MOVES.at([]).json(&MovesBody { tables })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_target_set_after_the_table_was_told_of_changes_hears_the_next_one() {
    let dir = tempfile::tempdir().unwrap();
    let (_tables, app) = open(&dir.path().join("c.db"), settings(None));
    let hooks = Receiver::start().await;
    let t = table(&app).await;
    // The notifier reads (and the server may keep) the table's targets: none yet.
    whisper(&app, &t, "before any target", "p1").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let made = webhook(&app, &t, &t.p1, "json", &hooks.url("p1")).await;
    whisper(&app, &t, "after the webhook", "p1").await;
    assert!(eventually(SOON, || hooks.got("p1").len() == 1).await);
    let text = String::from_utf8_lossy(&hooks.got("p1")[0].raw).to_string();
    assert!(text.contains("after the webhook") && !text.contains("before any target"));
    // Removed, it hears nothing more.
    let id = made["id"].as_str().unwrap();
    let uri = routes::REMOVE_TARGET.at([&t.id, id]).key(&t.p1);
    let (status, _) = call_json(&app, "DELETE", &uri, None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    whisper(&app, &t, "after the removal", "p1").await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(hooks.got("p1").len(), 1);
}
