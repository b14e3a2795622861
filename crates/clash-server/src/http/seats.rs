//! Who holds each seat: invites and claims, the GM taking a seat over and giving it back,
//! revoking it, seating a bot, and replacing the shared links. Each is a table operation
//! ([`crate::ops`]) run by the executor, which refuses any change of a seat's holder while its
//! player's secret choice is pending.

use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use clash_core::{Seat, Strength};
use utoipa::IntoParams;

use super::dto::{BotBody, BotSeated, Claimed, ErrorBody, LinkBody, MoveLink, NewLink, SeatLink};
use super::tables::{Key, Path};
use super::{Shared, table_path};
use crate::error::ApiError;
use crate::extract::{OptionalJson, TableKey, seat_named};
use crate::ops::claim::Claim;
use crate::ops::hand_back::HandBack;
use crate::ops::invite::Invite;
use crate::ops::move_seat::MoveSeat;
use crate::ops::replace_link::{ReplaceLink, SharedLink};
use crate::ops::revoke::Revoke;
use crate::ops::seat_bot::SeatBot;
use crate::ops::take_over::TakeOver;
use crate::ops::unseat_bot::UnseatBot;

/// The table and the seat, in the path.
#[derive(serde::Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct SeatPath {
    /// The table's id.
    #[allow(dead_code)]
    id: String,
    /// The seat: `p1`, `p2`, … (`gm` for the GM's own seat, where the game has one).
    seat: String,
}

/// A seat in the path that the GM may manage (not the GM's own).
fn manageable(text: &str) -> Result<Seat, ApiError> {
    let seat = seat_named(text)?;
    if seat == Seat::Gm {
        return Err(ApiError::malformed(
            "the gm seat belongs to the GM link itself; invite players to p1, p2, …",
        ));
    }
    Ok(seat)
}

#[utoipa::path(post, path = "/api/tables/{id}/seats/{seat}/link", tag = "seats",
    params(SeatPath, Key), request_body(content = Option<LinkBody>),
    responses((status = 201, description = "A new invite (any earlier link stops working), or the GM now plays the seat", body = SeatLink),
        (status = 409, description = "A secret choice is pending, or a bot plays the seat", body = ErrorBody)))]
pub async fn issue_link(
    State(tables): Shared,
    caller: TableKey,
    UrlPath(SeatPath { seat, .. }): UrlPath<SeatPath>,
    OptionalJson(body): OptionalJson<LinkBody>,
) -> Result<(StatusCode, Json<SeatLink>), ApiError> {
    let seat = manageable(&seat)?;
    let (table, key) = (&caller.table, caller.key);
    let answer = if body.is_some_and(|b| b.npc) {
        tables.execute(table, TakeOver { key, seat }).await?;
        SeatLink {
            seat,
            npc: true,
            invite: None,
            link: None,
        }
    } else {
        let invite = tables.execute(table, Invite { key, seat }).await?.answer;
        SeatLink {
            seat,
            npc: false,
            link: Some(table_path(&table.id, &invite)),
            invite: Some(invite),
        }
    };
    Ok((StatusCode::CREATED, Json(answer)))
}

#[utoipa::path(delete, path = "/api/tables/{id}/seats/{seat}/link", tag = "seats", params(SeatPath, Key),
    responses((status = 204, description = "Nobody plays the seat until it is given again"),
        (status = 409, description = "A secret choice is pending, or a bot plays the seat", body = ErrorBody)))]
pub async fn revoke_link(
    State(tables): Shared,
    caller: TableKey,
    UrlPath(SeatPath { seat, .. }): UrlPath<SeatPath>,
) -> Result<StatusCode, ApiError> {
    let op = Revoke {
        key: caller.key,
        seat: manageable(&seat)?,
    };
    tables.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/tables/{id}/seats/{seat}/hand-back", tag = "seats", params(SeatPath, Key),
    responses((status = 204, description = "The seat is its player's again"),
        (status = 409, description = "No player waits for the seat", body = ErrorBody)))]
pub async fn hand_back(
    State(tables): Shared,
    caller: TableKey,
    UrlPath(SeatPath { seat, .. }): UrlPath<SeatPath>,
) -> Result<StatusCode, ApiError> {
    let op = HandBack {
        key: caller.key,
        seat: manageable(&seat)?,
    };
    tables.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `owner` (the GM's link) or `spectator` (the watch link).
#[derive(serde::Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct LinkPath {
    /// The table's id.
    #[allow(dead_code)]
    id: String,
    /// `owner` or `spectator`.
    link: String,
}

#[utoipa::path(post, path = "/api/tables/{id}/links/{link}", tag = "seats", params(LinkPath, Key),
    responses((status = 201, description = "The new link; the old one stops working at once", body = NewLink)))]
pub async fn replace_link(
    State(tables): Shared,
    caller: TableKey,
    UrlPath(LinkPath { link, .. }): UrlPath<LinkPath>,
) -> Result<(StatusCode, Json<NewLink>), ApiError> {
    let which = match link.as_str() {
        "owner" => SharedLink::Owner,
        "spectator" => SharedLink::Spectator,
        other => {
            return Err(ApiError::malformed(format!(
                "{other:?} is not a shared link: replace \"owner\" (the GM's) or \"spectator\" (the watch link)"
            )));
        }
    };
    let op = ReplaceLink {
        key: caller.key,
        which,
    };
    let key = tables.execute(&caller.table, op).await?.answer;
    let path = table_path(&caller.table.id, &key);
    Ok((StatusCode::CREATED, Json(NewLink { link, key, path })))
}

#[utoipa::path(post, path = "/api/tables/{id}/claim", tag = "seats", params(Path, Key),
    responses((status = 201, description = "The invite (sent as the key) is used up; the player's own key. \
        Sent with an X-Request-Id of 16 to 100 letters, digits, '-', '_', '.' or ':' (a UUID), a retry of the same request \
        answers the same key again, so a lost answer costs nothing", body = Claimed),
        (status = 403, description = "The invite was used already (by another request)", body = ErrorBody),
        (status = 409, description = "Not an invite", body = ErrorBody)))]
pub async fn claim(
    State(tables): Shared,
    caller: TableKey,
    headers: axum::http::HeaderMap,
) -> Result<(StatusCode, Json<Claimed>), ApiError> {
    let request = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let op = Claim {
        invite: caller.key,
        request,
    };
    let (seat, key) = tables.execute(&caller.table, op).await?.answer;
    let link = table_path(&caller.table.id, &key);
    Ok((StatusCode::CREATED, Json(Claimed { seat, key, link })))
}

#[utoipa::path(post, path = "/api/tables/{id}/move-link", tag = "seats", params(Path, Key),
    responses((status = 201, description = "A one-time link, for the seat's player alone, that moves the seat to another device: \
        claimed like an invite (POST …/claim with it as the key), it ends this key", body = MoveLink),
        (status = 403, description = "Not a seat's player's own key", body = ErrorBody)))]
pub async fn move_link(
    State(tables): Shared,
    caller: TableKey,
) -> Result<(StatusCode, Json<MoveLink>), ApiError> {
    let op = MoveSeat { key: caller.key };
    let (seat, key) = tables.execute(&caller.table, op).await?.answer;
    let link = table_path(&caller.table.id, &key);
    Ok((StatusCode::CREATED, Json(MoveLink { seat, key, link })))
}

#[utoipa::path(post, path = "/api/tables/{id}/seats/{seat}/bot", tag = "seats",
    params(SeatPath, Key), request_body(content = Option<BotBody>),
    responses((status = 201, description = "A bot plays the seat from its own view", body = BotSeated),
        (status = 409, description = "A player or an invite holds the seat, or a secret choice is pending", body = ErrorBody)))]
pub async fn seat_bot(
    State(tables): Shared,
    caller: TableKey,
    UrlPath(SeatPath { seat, .. }): UrlPath<SeatPath>,
    OptionalJson(body): OptionalJson<BotBody>,
) -> Result<(StatusCode, Json<BotSeated>), ApiError> {
    let seat = seat_named(&seat)?;
    let strength = match body.and_then(|b| b.strength) {
        None => Strength::Casual,
        Some(text) => text
            .parse::<Strength>()
            .map_err(|e| ApiError::malformed(e.to_string()))?,
    };
    let op = SeatBot {
        key: caller.key,
        seat,
        strength,
    };
    tables.execute(&caller.table, op).await?;
    Ok((
        StatusCode::CREATED,
        Json(BotSeated {
            seat,
            bot: strength,
        }),
    ))
}

#[utoipa::path(delete, path = "/api/tables/{id}/seats/{seat}/bot", tag = "seats", params(SeatPath, Key),
    responses((status = 204, description = "The seat is the GM's NPC again, or empty")))]
pub async fn unseat_bot(
    State(tables): Shared,
    caller: TableKey,
    UrlPath(SeatPath { seat, .. }): UrlPath<SeatPath>,
) -> Result<StatusCode, ApiError> {
    let op = UnseatBot {
        key: caller.key,
        seat: seat_named(&seat)?,
    };
    tables.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}
