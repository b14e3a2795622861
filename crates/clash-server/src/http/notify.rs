//! Playing across a week: where each key hears of its table (webhooks, email, the GM's table
//! channel and the handles it mentions players by), the GM's delivery log, the table's clock,
//! and the lobby's question "which of my tables wait on me?". See [`crate::notify`].
//!
//! Targets are private to the key that set them and live beside the table, not in its log, so
//! setting one is not a table operation; the clock is one (everyone reads that it was set).

use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;

use super::contract::Whose;
use super::notify_dto::{
    ClockView, Delivery, DeliveryLog, HandleBody, Moves, MovesBody, NewTarget, NotifySettings,
    SeatClock, TableMove, TargetView,
};
use super::reply::Shared;
use super::routes;
use super::tables::Path;
use crate::error::{ApiError, Conflict, TableError};
use crate::http::extract::{Caller, JsonBody};
use crate::notify::clock;
use crate::notify::consent::{self, Consent};
use crate::notify::news::load;
use crate::notify::now::now_ms;
use crate::notify::rule::{Clock, ClockRule};
use crate::notify::target::{self, Format, Kind, PER_KEY, Target};
use crate::ops::set_clock::SetClock;
use crate::server::Server;
use crate::store::notify as rows;
use crate::table::links::Role;
use crate::table::presence::Presence;

/// A key that may have targets: the GM's or a seat's (a spectator link is shared by everyone).
fn owner_or_seat(caller: &Caller) -> Result<(), ApiError> {
    match caller.rights.role {
        Role::Spectator => Err(TableError::forbidden(
            "the watch link is shared by everyone; notifications are set from the GM's or a seat's own link",
        )
        .into()),
        _ => Ok(()),
    }
}

fn stored(e: crate::store::StoreError) -> ApiError {
    ApiError::storage(e.to_string())
}

/// Where the caller's key hears of this table.
#[utoipa::path(get, path = routes::NOTIFY_SETTINGS.path, tag = "notify", params(Path),
    responses((status = 200, description = "The caller's own targets, with their delivery state", body = NotifySettings)),
    extensions(("x-clash" = json!(Whose::GmOrSeat.only()))))]
pub async fn settings(
    State(server): Shared,
    caller: Caller,
) -> Result<Json<NotifySettings>, ApiError> {
    owner_or_seat(&caller)?;
    let all = load(server.store(), &caller.table.id)
        .await
        .map_err(stored)?;
    let mine = all.into_iter().filter(|t| t.key == caller.key);
    let (mut targets, mut handle, mut channel) = (Vec::new(), None, None);
    for t in mine {
        match t.kind {
            Kind::Handle => handle = Some(t.address),
            Kind::Channel => channel = Some(t.into()),
            _ => targets.push(waiting(&server, t).await),
        }
    }
    Ok(Json(NotifySettings {
        targets,
        handle,
        channel,
        email: server.notifier().settings().smtp.is_some(),
        per_key: PER_KEY,
    }))
}

/// Send the table's news to a webhook or an email address (or, the GM, a table channel).
///
/// Refused (400 `malformed`) when the address is not usable: not https, a host that cannot be
/// found or leads to a private address, not an email address, or too many targets.
#[utoipa::path(post, path = routes::ADD_TARGET.path, tag = "notify", params(Path),
    request_body = NewTarget,
    responses((status = 201, description = "Set: events are sent there from now on (a JSON webhook's signing key is in the answer)", body = TargetView)),
    extensions(("x-clash" = json!(Whose::GmOrSeat.only()))))]
pub async fn add_target(
    State(server): Shared,
    caller: Caller,
    JsonBody(body): JsonBody<NewTarget>,
) -> Result<(StatusCode, Json<TargetView>), ApiError> {
    owner_or_seat(&caller)?;
    let settings = server.notifier().settings();
    let kind: Kind = body.kind.parse()?;
    let format = match (kind, body.format.as_deref()) {
        (Kind::Email, _) => Format::Email,
        (Kind::Webhook | Kind::Channel, f) => f.unwrap_or("json").parse()?,
        (Kind::Handle, _) => {
            return Err(ApiError::malformed("set a handle with PUT …/notify/handle"));
        }
    };
    if kind == Kind::Channel && caller.rights.role != Role::Owner {
        return Err(TableError::forbidden("only the GM sets the table channel").into());
    }
    let address = match kind {
        Kind::Email => target::check_email(&body.address, settings)?,
        _ => target::check_webhook(&body.address, settings)
            .await?
            .to_string(),
    };
    // Email goes only where its owner asks for it (notify::consent).
    let consent = match kind {
        Kind::Email => Some(
            consent::ask(server.store(), &address, now_ms())
                .await
                .map_err(stored)?,
        ),
        _ => None,
    };
    if consent == Some(Consent::Refused) {
        return Err(ApiError::malformed(
            "this address's owner asked this server to send it no more mail; only they can ask for it again, from the link in a message they were sent",
        ));
    }
    let table = &caller.table.id;
    let existing = load(server.store(), table).await.map_err(stored)?;
    let own = existing
        .iter()
        .filter(|t| t.key == caller.key && matches!(t.kind, Kind::Webhook | Kind::Email));
    if kind != Kind::Channel && own.count() >= PER_KEY {
        return Err(ApiError::malformed(format!(
            "a link may have at most {PER_KEY} webhooks or email addresses; remove one first"
        )));
    }
    let made = Target {
        id: target::new_id(),
        key: caller.key.clone(),
        kind,
        format,
        address,
        secret: if format == Format::Json {
            target::new_signing_key()
        } else {
            String::new()
        },
        failures: 0,
        last_error: None,
        last_error_at: None,
        last_ok_at: None,
    };
    let store = server.store();
    match kind {
        Kind::Channel => {
            let kind = Kind::Channel.as_str();
            rows::replace_targets(store, table, &caller.key, kind, Some(&made.row()), now_ms())
                .await
        }
        _ => rows::add_target(store, table, &made.row(), now_ms()).await,
    }
    .map_err(stored)?;
    if let Some(Consent::Ask { token }) = consent {
        let (outbox, address) = (server.notifier().outbox().clone(), made.address.clone());
        tokio::spawn(async move { outbox.confirmation(&address, &token).await });
    }
    Ok((StatusCode::CREATED, Json(waiting(&server, made).await)))
}

/// A target as its owner sees it: an email address whose owner has not confirmed it says so.
async fn waiting(server: &Server, t: Target) -> TargetView {
    let mut view = TargetView::from(t);
    if view.kind == Kind::Email && view.last_error.is_none() {
        let confirmed = consent::lookup_address(server.store(), &view.address).await;
        if !matches!(confirmed, Ok(Some(true))) {
            view.last_error = Some(
                "waiting for the address's owner to confirm it: a message asking them was sent there".into(),
            );
        }
    }
    view
}

/// The table and one of the caller's targets, in the path.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct TargetPath {
    /// The table's id.
    #[allow(dead_code)]
    id: String,
    /// The target's id.
    target: String,
}

/// Stop sending to one of the caller's targets.
#[utoipa::path(delete, path = routes::REMOVE_TARGET.path, tag = "notify", params(TargetPath),
    responses((status = 204, description = "Nothing more is sent there (removing a target that is not there does nothing)")),
    extensions(("x-clash" = json!(Whose::GmOrSeat.only()))))]
pub async fn remove_target(
    State(server): Shared,
    caller: Caller,
    UrlPath(TargetPath { target: id, .. }): UrlPath<TargetPath>,
) -> Result<StatusCode, ApiError> {
    owner_or_seat(&caller)?;
    let table = &caller.table.id;
    rows::remove_target(server.store(), table, &caller.key, &id)
        .await
        .map_err(stored)?;
    Ok(StatusCode::NO_CONTENT)
}

/// How the table channel mentions the caller's player.
#[utoipa::path(put, path = routes::SET_HANDLE.path, tag = "notify", params(Path),
    request_body = HandleBody,
    responses((status = 204, description = "The table channel mentions the caller so from now on")),
    extensions(("x-clash" = json!(Whose::GmOrSeat.only()))))]
pub async fn set_handle(
    State(server): Shared,
    caller: Caller,
    JsonBody(body): JsonBody<HandleBody>,
) -> Result<StatusCode, ApiError> {
    owner_or_seat(&caller)?;
    let table = &caller.table.id;
    let handle = match body.handle.as_deref() {
        Some(text) => Some(Target {
            id: target::new_id(),
            key: caller.key.clone(),
            kind: Kind::Handle,
            format: Format::Handle,
            address: target::check_handle(text)?,
            secret: String::new(),
            failures: 0,
            last_error: None,
            last_error_at: None,
            last_ok_at: None,
        }),
        None => None,
    };
    let row = handle.as_ref().map(Target::row);
    let kind = Kind::Handle.as_str();
    rows::replace_targets(
        server.store(),
        table,
        &caller.key,
        kind,
        row.as_ref(),
        now_ms(),
    )
    .await
    .map_err(stored)?;
    Ok(StatusCode::NO_CONTENT)
}

/// The latest deliveries of the table's notifications.
#[utoipa::path(get, path = routes::DELIVERY_LOG.path, tag = "notify", params(Path),
    responses((status = 200, description = "The latest deliveries (never a target's address)", body = DeliveryLog)),
    extensions(("x-clash" = json!(Whose::Gm.only()))))]
pub async fn delivery_log(
    State(server): Shared,
    caller: Caller,
) -> Result<Json<DeliveryLog>, ApiError> {
    if caller.rights.role != Role::Owner {
        return Err(TableError::forbidden("only the GM reads the delivery log").into());
    }
    let lines = rows::deliveries(server.store(), &caller.table.id)
        .await
        .map_err(stored)?;
    let deliveries = lines
        .into_iter()
        .map(|r| Delivery {
            at: r.at,
            target: r.target,
            to: r.seat,
            kinds: r
                .kinds
                .split(',')
                .filter(|k| !k.is_empty())
                .map(str::to_string)
                .collect(),
            outcome: r.outcome,
            detail: r.detail,
        })
        .collect();
    Ok(Json(DeliveryLog { deliveries }))
}

/// The table's clock and reminders, and when each seat's runs out.
#[utoipa::path(get, path = routes::CLOCK.path, tag = "notify", params(Path),
    responses((status = 200, description = "The clock and reminders, and when each seat's runs out", body = ClockView)),
    extensions(("x-clash" = json!(Whose::AnyKey.only()))))]
pub async fn clock_view(
    State(server): Shared,
    caller: Caller,
) -> Result<Json<ClockView>, ApiError> {
    let (snapshot, rule, bots) = {
        let play = caller.table.lock_current().await?;
        (
            play.snapshot.clone(),
            play.clock,
            play.bots.keys().copied().collect::<Vec<_>>(),
        )
    };
    let waits = clock::waits(&server, &caller.table.id).await;
    let waiting = clock::waiting(&snapshot, &bots);
    let budget = match rule.clock {
        Some(Clock::Budget { seconds }) => Some(seconds as i64 * 1000),
        _ => None,
    };
    let seats = snapshot
        .game()
        .seats()
        .into_iter()
        .map(|seat| {
            let w = waits.get(&seat.to_string()).cloned().unwrap_or_default();
            let now_waiting = waiting.contains(&seat);
            let since = w.since_at.filter(|_| now_waiting);
            let running = since.map_or(0, |at| (now_ms() - at).max(0));
            SeatClock {
                seat: seat.to_string(),
                name: snapshot.game().seat_name(seat),
                waiting: now_waiting,
                waiting_since: since,
                remind_at: w.remind_at.filter(|_| now_waiting),
                runs_out_at: w.expire_at.filter(|_| now_waiting),
                spent_ms: w.spent_ms + running,
                budget_left_ms: budget.map(|b| (b - w.spent_ms - running).max(0)),
            }
        })
        .collect();
    Ok(Json(ClockView {
        rule,
        seats,
        now: now_ms(),
    }))
}

/// Set the table's clock and reminders.
#[utoipa::path(post, path = routes::SET_CLOCK.path, tag = "notify", params(Path),
    request_body = ClockRule,
    responses((status = 204, description = "Set, and logged for everyone: \"The GM sets a clock: …\"")),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Closed, Conflict::Raced])))))]
pub async fn set_clock(
    State(server): Shared,
    caller: Caller,
    JsonBody(rule): JsonBody<ClockRule>,
) -> Result<StatusCode, ApiError> {
    let op = SetClock {
        key: caller.key,
        rule,
    };
    server.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Tables one lobby request may ask about.
const KEPT_LIMIT: usize = 50;

/// For each table a lobby keeps a link to, whether it waits on that link.
#[utoipa::path(post, path = routes::MOVES.path, tag = "notify", request_body = MovesBody,
    responses((status = 200, description = "For each table, whether it waits on its key: those that do first", body = Moves)),
    extensions(("x-clash" = json!(Whose::Anyone.only()))))]
pub async fn moves(
    State(server): Shared,
    JsonBody(body): JsonBody<MovesBody>,
) -> Result<Json<Moves>, ApiError> {
    if body.tables.len() > KEPT_LIMIT {
        return Err(ApiError::malformed(format!(
            "ask about at most {KEPT_LIMIT} tables at once"
        )));
    }
    let mut answers = Vec::with_capacity(body.tables.len());
    for kept in body.tables {
        answers.push(one_move(&server, kept.id, &kept.key).await);
    }
    answers.sort_by_key(|a| !a.yours);
    Ok(Json(Moves { tables: answers }))
}

async fn one_move(server: &std::sync::Arc<Server>, id: String, key: &str) -> TableMove {
    let seen = async {
        let table = server.table(&id).await?;
        let play = table.lock_current().await?;
        let access = play.access(key, None)?;
        Ok::<_, TableError>((play.snapshot.clone(), access))
    };
    match seen.await {
        Ok((snapshot, access)) => {
            let turn = crate::view::room::view(&snapshot, &Presence::default(), &access).turn;
            TableMove {
                id,
                title: Some(snapshot.title().to_string()),
                yours: turn.yours || !turn.npc.is_empty(),
                text: Some(turn.text),
                error: None,
            }
        }
        Err(e) => TableMove {
            id,
            title: None,
            yours: false,
            text: None,
            error: Some(ApiError::from(e).code().to_string()),
        },
    }
}
