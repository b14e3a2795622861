//! The web UI's routes: its pages and their assets.

use super::assets::{asset, panel_asset};
use super::lobby::{create_from_form, lobby};
use super::review::review_page;
use super::table::{claim_from_page, table_page};
use super::workbench;

/// The web UI's pages and assets (HTML and files, not part of the JSON API).
pub fn routes() -> axum::Router<std::sync::Arc<crate::server::Server>> {
    use crate::http::routes::{
        ASSET, LOBBY, LOBBY_CREATE, PANEL_ASSET, REVIEW_PAGE, TABLE_PAGE, WORKBENCH_PAGE,
        WORKBENCH_PLOT,
    };
    use axum::routing::{get, post};
    axum::Router::new()
        .route(LOBBY.path, get(lobby))
        .route(LOBBY_CREATE.path, post(create_from_form))
        .route(TABLE_PAGE.path, get(table_page).post(claim_from_page))
        .route(REVIEW_PAGE.path, get(review_page))
        .route(ASSET.path, get(asset))
        .route(PANEL_ASSET.path, get(panel_asset))
        .route(WORKBENCH_PAGE.path, get(workbench::workbench_page))
        .route(WORKBENCH_PLOT.path, get(workbench::plot))
}
