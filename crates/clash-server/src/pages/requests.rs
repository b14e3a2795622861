//! The JSON bodies the page scripts send, described for TypeScript (`src/assets/types/`) and
//! checked against the server here: every body, with every field it may carry, is sent to its
//! route and taken. The routes refuse unknown fields, so a field renamed on either side fails
//! this test (or, on the page's side, `tsc`).

use clash_core::{Seat, Strength};
use serde::Serialize;
use serde_json::{Value, json};
use ts_rs::TS;

/// `POST /api/tables/{id}/commands`: one command as a seat (`as`, for the GM's page playing
/// another seat), with the page's id for it and the log length the page has seen.
#[derive(Serialize, TS)]
pub struct CommandRequest<C> {
    pub command: C,
    #[serde(rename = "as", skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub as_seat: Option<Seat>,
    pub id: String,
    pub revision: u64,
    /// Ask first: a weighty command is refused with its question instead of applied.
    pub ask: bool,
}

/// `POST /api/tables/{id}/chat`: a line of table talk, or a whisper.
#[derive(Serialize, TS)]
pub struct ChatLine {
    pub text: String,
    pub to_gm: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub to: Option<Seat>,
}

/// `POST /api/tables/{id}/seed`: this seat's seed for the dice.
#[derive(Serialize, TS)]
pub struct SeedRequest {
    pub seed: String,
}

/// `POST /api/tables/{id}/undo`: the command the GM takes back.
#[derive(Serialize, TS)]
pub struct UndoRequest {
    pub n: u64,
}

/// `POST /api/tables/{id}/rename`.
#[derive(Serialize, TS)]
pub struct RenameRequest {
    pub title: String,
}

/// `POST /api/tables/{id}/archive`.
#[derive(Serialize, TS)]
pub struct ArchiveRequest {
    pub archived: bool,
}

/// `POST /api/tables/{id}/seats/{seat}/link`: a new invite, or (`npc`) the GM takes the seat.
#[derive(Serialize, TS)]
pub struct LinkRequest {
    pub npc: bool,
}

/// `POST /api/tables/{id}/seats/{seat}/bot`: seat a bot of this strength.
#[derive(Serialize, TS)]
pub struct BotRequest {
    pub strength: Strength,
}

/// `PUT /api/tables/{id}/odds`: the GM's switch for odds in play.
#[derive(Serialize, TS)]
pub struct OddsSwitch {
    pub enabled: bool,
}

/// Every request body, written under the types' directory.
pub fn export(cfg: &ts_rs::Config) {
    CommandRequest::<()>::export_all(cfg).expect("exports");
    ChatLine::export_all(cfg).expect("exports");
    SeedRequest::export_all(cfg).expect("exports");
    UndoRequest::export_all(cfg).expect("exports");
    RenameRequest::export_all(cfg).expect("exports");
    ArchiveRequest::export_all(cfg).expect("exports");
    LinkRequest::export_all(cfg).expect("exports");
    BotRequest::export_all(cfg).expect("exports");
    OddsSwitch::export_all(cfg).expect("exports");
}

mod check {
    use axum::Router;
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    use super::*;

    async fn call(app: &Router, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// Sends `body` and requires it taken.
    async fn taken(app: &Router, method: &str, uri: &str, body: &impl Serialize) -> Value {
        let (status, answer) = call(app, method, uri, json!(body)).await;
        assert!(status.is_success(), "{method} {uri}: {status} {answer}");
        answer
    }

    /// A Triforce table whose GM plays p1, at the start.
    async fn table(app: &Router) -> (String, String) {
        let body = json!({ "ruleset": "triforce", "title": "Types" });
        let (status, created) = call(app, "POST", "/api/tables", body).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let id = created["table"].as_str().unwrap().to_string();
        let key = created["owner_key"].as_str().unwrap().to_string();
        (id, key)
    }

    #[tokio::test]
    async fn every_body_a_page_sends_is_taken_by_its_route() {
        let dir = tempfile::tempdir().unwrap();
        let tables = crate::open(&dir.path().join("c.db"), clash_catalogue::rulesets()).unwrap();
        let app = crate::app(tables);
        let (id, key) = table(&app).await;
        let at = |path: &str| format!("/api/tables/{id}{path}?key={key}");
        taken(
            &app,
            "POST",
            &at("/seats/p1/link"),
            &LinkRequest { npc: true },
        )
        .await;
        let seed = SeedRequest {
            seed: "5eed".into(),
        };
        taken(&app, "POST", &at("/seed"), &seed).await;
        let view = taken(&app, "GET", &(at("/view") + "&as=p1"), &()).await;
        let command = CommandRequest {
            command: view["legal"][0]["command"].clone(),
            as_seat: Some(Seat::Player(1)),
            id: "types-1".into(),
            revision: view["event_count"].as_u64().unwrap(),
            ask: false,
        };
        let answer = taken(&app, "POST", &at("/commands"), &command).await;
        let n = answer["room"]["undo"]["n"]
            .as_u64()
            .expect("the move can be taken back");
        taken(&app, "POST", &at("/undo"), &UndoRequest { n }).await;
        let line = ChatLine {
            text: "hello".into(),
            to_gm: false,
            to: None,
        };
        taken(&app, "POST", &at("/chat"), &line).await;
        taken(&app, "PUT", &at("/odds"), &OddsSwitch { enabled: true }).await;
        let bot = BotRequest {
            strength: Strength::Casual,
        };
        taken(&app, "POST", &at("/seats/p2/bot"), &bot).await;
        let title = RenameRequest {
            title: "Typed".into(),
        };
        taken(&app, "POST", &at("/rename"), &title).await;
        taken(
            &app,
            "POST",
            &at("/archive"),
            &ArchiveRequest { archived: false },
        )
        .await;
    }
}
