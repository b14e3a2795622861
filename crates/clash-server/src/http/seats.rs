//! Who holds each seat: invites and claims, the GM taking a seat over and giving it back,
//! revoking it, seating a bot, and replacing the shared links. Each is a table operation
//! ([`crate::ops`]) run by the executor, which refuses any change of a seat's holder while its
//! player's secret choice is pending.

use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use clash_core::Strength;
use utoipa::IntoParams;

use super::contract::Whose;
use super::dto::{BotBody, BotSeated, Claimed, LinkBody, MoveLink, NewLink, SeatLink};
use super::reply::Shared;
use super::routes::{self, table_path};
use super::tables::Path;
use crate::error::{ApiError, Conflict};
use crate::http::extract::{OptionalJson, TableKey, seat_named};
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
    #[param(example = "p1")]
    seat: String,
}

/// A new invite for the seat (ending any earlier link), or (`npc`) the GM takes it over.
#[utoipa::path(post, path = routes::ISSUE_LINK.path, tag = "seats",
    params(ManagedSeat), request_body(content = Option<LinkBody>),
    responses((status = 201, description = "A new invite (any earlier link stops working), or the GM now plays the seat", body = SeatLink)),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Closed, Conflict::SecretPending,
        Conflict::BotSeated, Conflict::NoChange, Conflict::Raced])))))]
pub async fn issue_link(
    State(server): Shared,
    caller: TableKey,
    UrlPath(SeatPath { seat, .. }): UrlPath<SeatPath>,
    OptionalJson(body): OptionalJson<LinkBody>,
) -> Result<(StatusCode, Json<SeatLink>), ApiError> {
    let seat = seat_named(&seat)?;
    let (table, key) = (&caller.table, caller.key);
    let answer = if body.is_some_and(|b| b.npc) {
        server.execute(table, TakeOver { key, seat }).await?;
        SeatLink {
            seat,
            npc: true,
            invite: None,
            link: None,
        }
    } else {
        let invite = server.execute(table, Invite { key, seat }).await?.answer;
        SeatLink {
            seat,
            npc: false,
            link: Some(table_path(&table.id, &invite)),
            invite: Some(invite),
        }
    };
    Ok((StatusCode::CREATED, Json(answer)))
}

/// Revoke the seat's link: nobody plays it until it is given again.
#[utoipa::path(delete, path = routes::REVOKE_LINK.path, tag = "seats", params(ManagedSeat),
    responses((status = 204, description = "Nobody plays the seat until it is given again")),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Closed, Conflict::SecretPending,
        Conflict::BotSeated, Conflict::Raced])))))]
pub async fn revoke_link(
    State(server): Shared,
    caller: TableKey,
    UrlPath(SeatPath { seat, .. }): UrlPath<SeatPath>,
) -> Result<StatusCode, ApiError> {
    let op = Revoke {
        key: caller.key,
        seat: seat_named(&seat)?,
    };
    server.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Give a taken-over seat back to its player.
#[utoipa::path(post, path = routes::HAND_BACK.path, tag = "seats", params(ManagedSeat),
    responses((status = 204, description = "The seat is its player's again")),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Closed, Conflict::SecretPending,
        Conflict::BotSeated, Conflict::NoChange, Conflict::Raced])))))]
pub async fn hand_back(
    State(server): Shared,
    caller: TableKey,
    UrlPath(SeatPath { seat, .. }): UrlPath<SeatPath>,
) -> Result<StatusCode, ApiError> {
    let op = HandBack {
        key: caller.key,
        seat: seat_named(&seat)?,
    };
    server.execute(&caller.table, op).await?;
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
    #[param(inline, value_type = SharedLinkName)]
    link: String,
}

/// The shared links: the GM's (`owner`) and the watch link (`spectator`).
#[derive(utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum SharedLinkName {
    Owner,
    Spectator,
}

/// A seat the GM manages, in the path: any seat but the GM's own.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct ManagedSeat {
    /// The table's id.
    id: String,
    /// A player's seat: `p1`, `p2`, … (not `gm`, the GM's own seat: 400).
    #[param(pattern = "^(?![gG][mM]$)", example = "p2")]
    seat: String,
}

/// Replace the GM's link or the watch link: the old one stops working at once.
#[utoipa::path(post, path = routes::REPLACE_LINK.path, tag = "seats", params(LinkPath),
    responses((status = 201, description = "The new link; the old one stops working at once", body = NewLink)),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Raced])))))]
pub async fn replace_link(
    State(server): Shared,
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
    let key = server.execute(&caller.table, op).await?.answer;
    let path = table_path(&caller.table.id, &key);
    Ok((StatusCode::CREATED, Json(NewLink { link, key, path })))
}

/// Exchange an invite (or a move link) for the player's own key.
#[utoipa::path(post, path = routes::CLAIM.path, tag = "seats", params(Path),
    responses((status = 201, description = "The invite (sent as the key) is used up; the player's own key. \
        Sent with an X-Request-Id of 16 to 100 letters, digits, '-', '_', '.' or ':' (a UUID), a retry of the same request \
        answers the same key again, so a lost answer costs nothing", body = Claimed)),
    extensions(("x-clash" = json!(Whose::Invite.conflicts(&[Conflict::SecretPending, Conflict::Raced])))))]
pub async fn claim(
    State(server): Shared,
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
    let (seat, key) = server.execute(&caller.table, op).await?.answer;
    let link = table_path(&caller.table.id, &key);
    Ok((StatusCode::CREATED, Json(Claimed { seat, key, link })))
}

/// A one-time link that moves the seat to another device of its player's.
#[utoipa::path(post, path = routes::MOVE_LINK.path, tag = "seats", params(Path),
    responses((status = 201, description = "A one-time link, for the seat's player alone, that moves the seat to another device: \
        claimed like an invite (POST …/claim with it as the key), it ends this key", body = MoveLink)),
    extensions(("x-clash" = json!(Whose::Seat.conflicts(&[Conflict::SecretPending, Conflict::Raced])))))]
pub async fn move_link(
    State(server): Shared,
    caller: TableKey,
) -> Result<(StatusCode, Json<MoveLink>), ApiError> {
    let op = MoveSeat { key: caller.key };
    let (seat, key) = server.execute(&caller.table, op).await?.answer;
    let link = table_path(&caller.table.id, &key);
    Ok((StatusCode::CREATED, Json(MoveLink { seat, key, link })))
}

/// Seat a bot in an NPC seat, an empty seat or the GM's own seat (or change its strength).
#[utoipa::path(post, path = routes::SEAT_BOT.path, tag = "seats",
    params(SeatPath), request_body(content = Option<BotBody>),
    responses((status = 201, description = "A bot plays the seat from its own view", body = BotSeated)),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Closed, Conflict::SecretPending,
        Conflict::SeatTaken, Conflict::NoChange, Conflict::Raced])))))]
pub async fn seat_bot(
    State(server): Shared,
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
    server.execute(&caller.table, op).await?;
    Ok((
        StatusCode::CREATED,
        Json(BotSeated {
            seat,
            bot: strength,
        }),
    ))
}

/// Take the seat back from its bot.
#[utoipa::path(delete, path = routes::UNSEAT_BOT.path, tag = "seats", params(SeatPath),
    responses((status = 204, description = "The seat is the GM's NPC again, or empty")),
    extensions(("x-clash" = json!(Whose::Gm.conflicts(&[Conflict::Closed, Conflict::SecretPending,
        Conflict::NoChange, Conflict::Raced])))))]
pub async fn unseat_bot(
    State(server): Shared,
    caller: TableKey,
    UrlPath(SeatPath { seat, .. }): UrlPath<SeatPath>,
) -> Result<StatusCode, ApiError> {
    let op = UnseatBot {
        key: caller.key,
        seat: seat_named(&seat)?,
    };
    server.execute(&caller.table, op).await?;
    Ok(StatusCode::NO_CONTENT)
}
