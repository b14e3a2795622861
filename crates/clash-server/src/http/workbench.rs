//! The workbench's JSON routes: the games and their rule numbers, starting a study of some
//! variants, and following it to its report ([`crate::workbench`]).

use std::sync::Arc;

use axum::extract::Path;
use axum::http::StatusCode;
use axum::{Extension, Json};

use super::contract::Whose;
use super::routes;
use crate::error::{ApiError, Refusal};
use crate::http::extract::JsonBody;
use crate::workbench::Studies;
use crate::workbench::dto::{BenchGames, StudyRequest, StudyStatus};

/// Every game with a workbench, and what a study may ask for.
#[utoipa::path(get, path = routes::WORKBENCH_GAMES.path, tag = "workbench", operation_id = "workbench_games",
    responses((status = 200, description = "Every game with a workbench: its rule numbers (each with its rule, default and bounds), tables and suggested variants, and what a study may ask for", body = BenchGames)),
    extensions(("x-clash" = json!(Whose::Anyone.only()))))]
pub async fn games(Extension(studies): Extension<Arc<Studies>>) -> Json<BenchGames> {
    Json(studies.games())
}

/// Start a study of some variants beside the rules as written (or find the same one under way):
/// its games are played off the play path, on the workbench's own allowance. A number out of
/// its bounds is refused naming its rule; an unknown game or table, changes that cannot be read
/// or more than a study may ask for are malformed.
#[utoipa::path(post, path = routes::START_STUDY.path, tag = "workbench", operation_id = "start_study", request_body = StudyRequest,
    responses(
        (status = 202, description = "The study, queued or already under way (the same request gives the same study)", body = StudyStatus)),
    extensions(("x-clash" = json!(Whose::Anyone.refuses(&[Refusal::Rule, Refusal::Busy])))))]
pub async fn start(
    Extension(studies): Extension<Arc<Studies>>,
    JsonBody(body): JsonBody<StudyRequest>,
) -> Result<(StatusCode, Json<StudyStatus>), ApiError> {
    let status = studies.submit(&body)?;
    Ok((StatusCode::ACCEPTED, Json(status)))
}

/// How far a study is, and its report once done.
#[utoipa::path(get, path = routes::STUDY.path, tag = "workbench", operation_id = "study",
    params(("id" = String, Path, description = "The study's id")),
    responses(
        (status = 200, description = "How far the study is, and its report once done", body = StudyStatus)),
    extensions(("x-clash" = json!(Whose::Anyone.refuses(&[Refusal::UnknownStudy])))))]
pub async fn status(
    Extension(studies): Extension<Arc<Studies>>,
    Path(id): Path<String>,
) -> Result<Json<StudyStatus>, ApiError> {
    studies.status(&id).map(Json).ok_or(ApiError::UnknownStudy)
}
