//! The workbench's JSON routes: the games and their rule numbers, starting a study of some
//! variants, and following it to its report ([`crate::workbench`]).

use std::sync::Arc;

use axum::extract::Path;
use axum::http::StatusCode;
use axum::{Extension, Json};

use super::dto::ErrorBody;
use crate::error::ApiError;
use crate::extract::JsonBody;
use crate::workbench::Studies;
use crate::workbench::dto::{BenchGames, StudyRequest, StudyStatus};

#[utoipa::path(get, path = "/api/workbench", tag = "workbench",
    responses((status = 200, description = "Every game with a workbench: its rule numbers (each with its rule, default and bounds), tables and suggested variants, and what a study may ask for", body = BenchGames)))]
pub async fn games(Extension(studies): Extension<Arc<Studies>>) -> Json<BenchGames> {
    Json(studies.games())
}

#[utoipa::path(post, path = "/api/workbench/studies", tag = "workbench", request_body = StudyRequest,
    responses(
        (status = 202, description = "The study, queued or already under way (the same request gives the same study)", body = StudyStatus),
        (status = 400, description = "An unknown game or table, changes that cannot be read, or more than a study may ask for", body = ErrorBody),
        (status = 422, description = "A number out of its bounds: the refusal names its rule", body = ErrorBody),
        (status = 503, description = "Too many studies are waiting", body = ErrorBody)))]
pub async fn start(
    Extension(studies): Extension<Arc<Studies>>,
    JsonBody(body): JsonBody<StudyRequest>,
) -> Result<(StatusCode, Json<StudyStatus>), ApiError> {
    let status = studies.submit(&body)?;
    Ok((StatusCode::ACCEPTED, Json(status)))
}

#[utoipa::path(get, path = "/api/workbench/studies/{id}", tag = "workbench",
    params(("id" = String, Path, description = "The study's id")),
    responses(
        (status = 200, description = "How far the study is, and its report once done", body = StudyStatus),
        (status = 404, description = "This server keeps no such study (run it again from its link)", body = ErrorBody)))]
pub async fn status(
    Extension(studies): Extension<Arc<Studies>>,
    Path(id): Path<String>,
) -> Result<Json<StudyStatus>, ApiError> {
    studies.status(&id).map(Json).ok_or(ApiError::NotFound)
}
