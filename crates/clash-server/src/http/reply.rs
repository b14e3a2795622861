//! What the JSON routes share: the server's tables as a handler takes them, and a viewer's
//! update sent as it is.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::server::Server;
use crate::table::Answer;

pub(crate) type Shared = State<Arc<Server>>;

/// A viewer's update, serialized once and shared by everyone who sees the same (see
/// [`crate::view::snapshot`]): sent as it is.
pub struct UpdateJson(String);

impl IntoResponse for UpdateJson {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

pub(crate) async fn answer(server: &Server, answer: Answer) -> Result<UpdateJson, ApiError> {
    Ok(UpdateJson(answer.text(server.metrics()).await?))
}
