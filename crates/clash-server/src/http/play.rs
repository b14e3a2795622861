//! Playing at a table: commands, seeds for the dice, table talk, taking a command back, odds
//! in play, and the GM's keeping of the table (rename, archive, end).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;

use super::contract::Whose;
use super::dto::{
    ArchiveBody, CommandBody, Line, Odds, OddsSwitch, RenameBody, SeedBody, UndoBody,
};
use super::reply::{Shared, UpdateJson, answer};
use super::routes;
use super::tables::{Path, Reading};
use crate::error::{ApiError, Conflict, Refusal};
use crate::http::extract::{JsonBody, OptionalJson, Params, TableKey, as_seat, seat_named};
use crate::ops::add_seed::AddSeed;
use crate::ops::archive::Archive;
use crate::ops::command::Command;
use crate::ops::end::End;
use crate::ops::rename::Rename;
use crate::ops::say::{Audience, Say};
use crate::ops::set_odds::SetOdds;
use crate::ops::undo::Undo;

/// Play a command from the seat the key acts for.
#[utoipa::path(post, path = routes::COMMAND.path, tag = "play", params(Path, Reading),
    request_body = CommandBody,
    responses((status = 200, description = "Applied (or, for a retried id, applied before): the caller's update with a receipt", body = Object)),
    extensions(("x-clash" = json!(Whose::Player.refuses(&[Refusal::Rule]).conflicts(&[
        Conflict::Closed, Conflict::Archived, Conflict::Stale, Conflict::IdReused,
        Conflict::Confirm, Conflict::Raced])))))]
pub async fn command(
    State(server): Shared,
    caller: TableKey,
    Params(q): Params<Reading>,
    JsonBody(body): JsonBody<CommandBody>,
) -> Result<UpdateJson, ApiError> {
    let seat = as_seat(body.as_seat.as_deref().or(q.as_seat.as_deref()))?;
    let command = body.command.ok_or_else(|| {
        ApiError::malformed("put the command under \"command\": {\"command\": {\"type\": …}}")
    })?;
    let request = Command {
        key: caller.key,
        as_seat: seat,
        command,
        id: body.id,
        revision: body.revision,
        ask: body.ask,
    };
    let reply = server.command(&caller.table, request).await?;
    answer(&server, reply).await
}

/// Add a client seed: chance draws on it from the next command on.
#[utoipa::path(post, path = routes::SEED.path, tag = "play", params(Path), request_body = SeedBody,
    responses((status = 204, description = "Chance draws on this seed from the next command on")),
    extensions(("x-clash" = json!(Whose::GmOrSeat.conflicts(&[Conflict::Closed, Conflict::Raced])))))]
pub async fn seed(
    State(server): Shared,
    caller: TableKey,
    JsonBody(body): JsonBody<SeedBody>,
) -> Result<StatusCode, ApiError> {
    let op = AddSeed {
        key: caller.key,
        seed: body.seed,
    };
    server.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// End the table and reveal its secret.
#[utoipa::path(post, path = routes::CLOSE.path, tag = "play", params(Path),
    responses((status = 204, description = "The table has ended; its secret is revealed")),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Closed, Conflict::Raced]).uncapped()))))]
pub async fn close(State(server): Shared, caller: TableKey) -> Result<StatusCode, ApiError> {
    server
        .execute(&caller.table, End { key: caller.key })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A line of table talk, or a whisper: a player's to the GM, or the GM's to one seat.
#[utoipa::path(post, path = routes::CHAT.path, tag = "play", params(Path), request_body = Line,
    responses((status = 204, description = "Said (or whispered)")),
    extensions(("x-clash" = json!(Whose::GmOrSeat.refuses(&[Refusal::UnknownSeat]).conflicts(&[
        Conflict::Archived, Conflict::NoChange, Conflict::TooMuchTalk, Conflict::Raced])))))]
pub async fn chat(
    State(server): Shared,
    caller: TableKey,
    JsonBody(line): JsonBody<Line>,
) -> Result<StatusCode, ApiError> {
    let to = match (line.to.as_deref(), line.to_gm) {
        (Some(_), true) => {
            return Err(ApiError::malformed(
                "a line goes to the GM (to_gm) or to one seat (to), not both",
            ));
        }
        (Some(seat), false) => Audience::Seat(seat_named(seat)?),
        (None, true) => Audience::Gm,
        (None, false) => Audience::Table,
    };
    let say = Say {
        key: caller.key,
        text: line.text,
        to,
    };
    server.execute(&caller.table, say).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Take back the last command standing (while it rolled, drew and revealed nothing).
#[utoipa::path(post, path = routes::UNDO.path, tag = "play", params(Path),
    request_body(content = Option<UndoBody>),
    responses((status = 204, description = "The last command standing is taken back")),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Closed, Conflict::Archived,
        Conflict::CannotUndo, Conflict::Stale, Conflict::Raced])))))]
pub async fn undo(
    State(server): Shared,
    caller: TableKey,
    OptionalJson(body): OptionalJson<UndoBody>,
) -> Result<StatusCode, ApiError> {
    let op = Undo {
        key: caller.key,
        expected: body.and_then(|b| b.n),
    };
    server.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Rename the table.
#[utoipa::path(post, path = routes::RENAME.path, tag = "play", params(Path), request_body = RenameBody,
    responses((status = 204, description = "Renamed")),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Raced])))))]
pub async fn rename(
    State(server): Shared,
    caller: TableKey,
    JsonBody(body): JsonBody<RenameBody>,
) -> Result<StatusCode, ApiError> {
    let op = Rename {
        key: caller.key,
        title: body.title,
    };
    server.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Archive the table (no moves or talk until it is brought back), or bring it back.
#[utoipa::path(post, path = routes::ARCHIVE.path, tag = "play", params(Path),
    request_body(content = Option<ArchiveBody>),
    responses((status = 204, description = "Archived (no moves or talk until brought back), or brought back")),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Raced])))))]
pub async fn archive(
    State(server): Shared,
    caller: TableKey,
    OptionalJson(body): OptionalJson<ArchiveBody>,
) -> Result<StatusCode, ApiError> {
    let op = Archive {
        key: caller.key,
        archived: body.is_none_or(|b| b.archived),
    };
    server.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `?as=p2`: the seat the GM's link asks about.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AsSeat {
    #[serde(rename = "as")]
    as_seat: Option<String>,
}

/// Whether odds in play are on, and the caller's seat's odds for its next choice.
#[utoipa::path(get, path = routes::ODDS.path, tag = "play", params(Path, AsSeat),
    responses((status = 200, description = "Whether odds are on, and the caller's seat's odds from its own view", body = Odds)),
    extensions(("x-clash" = json!(Whose::AnyKey.only()))))]
pub async fn odds(
    State(server): Shared,
    caller: TableKey,
    Params(q): Params<AsSeat>,
) -> Result<Json<Odds>, ApiError> {
    let seat = as_seat(q.as_seat.as_deref())?;
    let reply = caller.table.answer(&caller.key, seat, usize::MAX).await?;
    let snapshot = reply.snapshot;
    let enabled = snapshot.odds_on();
    let seat = reply.access.seat.filter(|_| !reply.access.suspended);
    let hook = server.entry(caller.table.ruleset).and_then(|e| e.odds);
    let (Some(seat), Some(hook), true) = (seat, hook, enabled) else {
        return Ok(Json(Odds {
            enabled,
            event_count: None,
            odds: None,
        }));
    };
    Ok(Json(Odds {
        enabled: true,
        event_count: Some(snapshot.revision()),
        odds: snapshot.odds(seat, hook).await?,
    }))
}

/// Switch odds in play on or off for the table.
#[utoipa::path(put, path = routes::SWITCH_ODDS.path, tag = "play", params(Path), request_body = OddsSwitch,
    responses((status = 200, description = "Odds in play switched", body = OddsSwitch)),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Raced])))))]
pub async fn switch_odds(
    State(server): Shared,
    caller: TableKey,
    JsonBody(body): JsonBody<OddsSwitch>,
) -> Result<Json<OddsSwitch>, ApiError> {
    let op = SetOdds {
        key: caller.key,
        enabled: body.enabled,
    };
    server.execute(&caller.table, op).await?;
    Ok(Json(body))
}
