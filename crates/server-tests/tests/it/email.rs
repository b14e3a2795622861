//! Email only to people who asked for it (issue 37), against a local SMTP sink: an address
//! receives one confirmation and nothing else until its owner follows the link; every message
//! carries a one-click unsubscribe (RFC 8058) that stops all mail to the address from this
//! server; a cap per address per day across all tables; no player's text in the subject.

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use crate::client::{
    CreateTable, Href, Line, NewTarget, Table, WithBody, api, api_text, catalogue, routes, seat_key,
};
use crate::sinks::{Mail, SmtpSink, eventually, settings};

const SOON: Duration = Duration::from_secs(5);
const ADA: &str = "ada@example.org";

fn open(dir: &tempfile::TempDir, sink: &SmtpSink, per_day: usize) -> Router {
    let mut notify = settings(Some(sink));
    notify.mail_per_day = per_day;
    let limits = clash_server::Limits {
        notify,
        ..clash_server::Limits::default()
    };
    let tables = clash_server::open_with(&dir.path().join("c.db"), catalogue(), limits).unwrap();
    clash_server::app(tables)
}

/// A table named `title` whose p1 asks for mail at `address`: the answer to that.
async fn asking(app: &Router, title: &str, address: &str) -> (Table, StatusCode, Value) {
    let body = CreateTable {
        ruleset: Some("sealed-duel".into()),
        title: Some(title.into()),
        ..CreateTable::default()
    };
    let (_, created) = api(app, routes::CREATE_TABLE.at([]).json(&body)).await;
    let text = |k: &str| created[k].as_str().unwrap().to_string();
    let (id, owner) = (text("table"), text("owner_key"));
    let p1 = seat_key(app, &id, &owner, "p1").await;
    let t = Table {
        id,
        owner,
        spectator: text("spectator_key"),
        p1,
        p2: String::new(),
    };
    let uri = routes::ADD_TARGET.at([&t.id]).key(&t.p1);
    let body = NewTarget {
        kind: "email".into(),
        format: None,
        address: address.into(),
    };
    let (status, answer) = api(app, uri.json(&body)).await;
    (t, status, answer)
}

async fn whisper(app: &Router, t: &Table, text: &str) {
    let uri = routes::CHAT.at([&t.id]).key(&t.owner);
    let body = Line {
        text: text.into(),
        to: Some("p1".into()),
        ..Line::default()
    };
    let (status, _) = api(app, uri.json(&body)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
}

/// A mail's text with its quoted-printable soft line breaks and escapes undone.
fn decoded(mail: &Mail) -> String {
    let joined = mail.data.replace("=\n", "");
    let mut out = String::new();
    let mut rest = joined.as_str();
    while let Some(at) = rest.find('=') {
        out.push_str(&rest[..at]);
        match u8::from_str_radix(rest.get(at + 1..at + 3).unwrap_or("zz"), 16) {
            Ok(b) if b.is_ascii() => {
                out.push(b as char);
                rest = &rest[at + 3..];
            }
            _ => {
                out.push('=');
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The address's token, from a link in `mail`.
fn token(mail: &Mail) -> String {
    let text = decoded(mail);
    let prefix = routes::MAIL_UNSUBSCRIBE.path.trim_end_matches("{token}");
    let at = text.find(prefix).expect("an unsubscribe link") + prefix.len();
    text[at..at + 32].to_string()
}

/// Post `body` as a page's form would.
async fn post_form(app: &Router, href: Href, body: &str) -> StatusCode {
    let request = Request::builder()
        .method("POST")
        .uri(href.into_uri())
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let _ = response.into_body().collect().await;
    status
}

#[tokio::test]
async fn an_address_gets_one_confirmation_and_nothing_else_until_its_owner_confirms() {
    let dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start().await;
    let app = open(&dir, &sink, 20);
    let (t, status, made) = asking(&app, "Ada's <!channel> table", ADA).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert!(eventually(SOON, || sink.mails().len() == 1).await);
    let ask = &sink.mails()[0];
    assert_eq!(ask.to, [ADA]);
    assert!(
        ask.data
            .contains("Subject: Clash: please confirm this address"),
        "{}",
        ask.data
    );
    let text = decoded(ask);
    assert!(
        text.contains("https://clash.example/mail/confirm/"),
        "{text}"
    );
    assert!(text.contains("List-Unsubscribe: <https://clash.example/mail/unsubscribe/"));
    assert!(text.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    // Nothing more: not the whispers, not a second confirmation from another table.
    whisper(&app, &t, "are you there?").await;
    let (_, status, _) = asking(&app, "Another table", "ADA@example.org").await;
    assert_eq!(status, StatusCode::CREATED);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(sink.mails().len(), 1, "only the confirmation");
    let (_, mine) = api(&app, routes::NOTIFY_SETTINGS.at([&t.id]).key(&t.p1)).await;
    assert!(
        mine["targets"][0]["last_error"]
            .as_str()
            .unwrap()
            .contains("confirm"),
        "{mine}"
    );
    // Opening the link changes nothing (a mail scanner may); its button does.
    let token = token(ask);
    let (status, page) = api_text(&app, routes::MAIL_CONFIRM_PAGE.at([&token])).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(ADA) && page.contains("<form method=\"post\""),
        "{page}"
    );
    whisper(&app, &t, "still nothing?").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.mails().len(), 1);
    assert_eq!(
        post_form(&app, routes::MAIL_CONFIRM.at([&token]), "").await,
        StatusCode::OK
    );
    whisper(&app, &t, "check your mail").await;
    assert!(eventually(SOON, || sink.mails().len() == 2).await);
    let news = &sink.mails()[1];
    let text = decoded(news);
    assert!(text.contains("check your mail"), "{text}");
    // The subject is the server's words alone; the title the GM wrote is in the body.
    assert!(
        text.contains("Subject: Clash: a whisper at a table you follow"),
        "{text}"
    );
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("Subject:") && l.contains("channel"))
    );
    assert!(text.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    assert!(text.contains(routes::MAIL_UNSUBSCRIBE.at([&token]).uri()));
    assert!(!text.contains(&t.p1), "no key");
}

#[tokio::test]
async fn one_click_unsubscribes_the_address_from_every_table_of_this_server() {
    let dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start().await;
    let app = open(&dir, &sink, 20);
    let (a, _, _) = asking(&app, "First", ADA).await;
    assert!(eventually(SOON, || sink.mails().len() == 1).await);
    let token = token(&sink.mails()[0]);
    assert_eq!(
        post_form(&app, routes::MAIL_CONFIRM.at([&token]), "").await,
        StatusCode::OK
    );
    let (b, _, _) = asking(&app, "Second", ADA).await;
    whisper(&app, &a, "one").await;
    whisper(&app, &b, "two").await;
    assert!(eventually(SOON, || sink.mails().len() == 3).await);
    // The mail program's one-click POST, as RFC 8058 has it: no cookie, no key.
    let one_click = post_form(
        &app,
        routes::MAIL_UNSUBSCRIBE.at([&token]),
        "List-Unsubscribe=One-Click",
    )
    .await;
    assert_eq!(one_click, StatusCode::OK);
    whisper(&app, &a, "three").await;
    whisper(&app, &b, "four").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(sink.mails().len(), 3, "nothing after unsubscribing");
    // Nobody may ask for it again at a table; its owner may, from the link.
    let (_, status, answer) = asking(&app, "Third", ADA).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no more mail")
    );
    assert_eq!(
        post_form(&app, routes::MAIL_RESUBSCRIBE.at([&token]), "").await,
        StatusCode::OK
    );
    whisper(&app, &a, "five").await;
    assert!(eventually(SOON, || sink.mails().len() == 4).await);
    let unknown = routes::MAIL_UNSUBSCRIBE_PAGE.at(["00000000000000000000000000000000"]);
    let (status, _) = api_text(&app, unknown).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_address_receives_at_most_its_daily_cap_across_all_tables() {
    let dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start().await;
    let app = open(&dir, &sink, 3);
    let (a, _, _) = asking(&app, "First", ADA).await;
    assert!(eventually(SOON, || sink.mails().len() == 1).await);
    let token = token(&sink.mails()[0]);
    assert_eq!(
        post_form(&app, routes::MAIL_CONFIRM.at([&token]), "").await,
        StatusCode::OK
    );
    let (b, _, _) = asking(&app, "Second", ADA).await;
    for (n, t) in [&a, &b, &a, &b].into_iter().enumerate() {
        whisper(&app, t, &format!("message {n}")).await;
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(sink.mails().len(), 3, "the confirmation and two messages");
    let (_, mine) = api(&app, routes::NOTIFY_SETTINGS.at([&b.id]).key(&b.p1)).await;
    assert!(
        mine["targets"][0]["last_error"]
            .as_str()
            .unwrap()
            .contains("its 3 messages"),
        "{mine}"
    );
}

/// The consent rows behave the same on both backends (PostgreSQL when `CLASH_TEST_POSTGRES` is
/// set): one confirmation claimed, answers by token, the day's count.
#[tokio::test]
async fn consent_is_kept_alike_on_both_backends() {
    use clash_server::notify::consent::{self, Choice, Consent};
    let dir = tempfile::tempdir().unwrap();
    let mut dbs = vec![clash_server::store::Db::Sqlite(dir.path().join("c.db"))];
    if let Ok(url) = std::env::var("CLASH_TEST_POSTGRES")
        && !url.is_empty()
    {
        dbs.push(clash_server::store::Db::Postgres(url));
    }
    for db in dbs {
        let store = db.open().await.unwrap();
        // A fresh address for each run (a PostgreSQL database may be shared).
        let address = format!("{}@example.org", clash_server::table::links::new_key());
        let Consent::Ask { token } = consent::ask(&store, &address, 1_000).await.unwrap() else {
            panic!("{db:?}: the first asker sends the confirmation");
        };
        assert_eq!(
            consent::ask(&store, &address.to_uppercase(), 2_000)
                .await
                .unwrap(),
            Consent::Waiting
        );
        let later = 1_000 + consent::RENEW.as_millis() as i64;
        assert_eq!(
            consent::ask(&store, &address, later).await.unwrap(),
            Consent::Ask {
                token: token.clone()
            },
            "{db:?}: asked again after a month"
        );
        let answered = consent::answer(&store, &token, Choice::Confirm, later)
            .await
            .unwrap();
        assert_eq!(answered.as_deref(), Some(address.as_str()));
        assert_eq!(
            consent::ask(&store, &address, later).await.unwrap(),
            Consent::Confirmed {
                token: token.clone()
            }
        );
        for n in 1..=3 {
            assert_eq!(
                consent::count(&store, &address, later, 2).await.unwrap(),
                n <= 2,
                "{db:?}"
            );
        }
        consent::answer(&store, &token, Choice::Unsubscribe, later)
            .await
            .unwrap();
        assert_eq!(
            consent::ask(&store, &address, later).await.unwrap(),
            Consent::Refused
        );
        assert_eq!(
            consent::answer(&store, "nothing", Choice::Confirm, later)
                .await
                .unwrap(),
            None
        );
    }
}
