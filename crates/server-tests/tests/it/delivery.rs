//! How pages and their files are sent (issue 41): compressed as the browser accepts (brotli or
//! gzip), the scripts and styles under content-hashed names kept for good (and a stale or
//! unknown name handled), the modules importing each other by those names, and the pages kept
//! by the browser alone, so its back/forward cache may hold them.

use std::io::Read;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

use crate::client::*;

/// A GET sent accepting `encoding`: the status, the headers and the body as it came.
async fn get(app: &axum::Router, uri: &str, encoding: &str) -> (StatusCode, HeaderMap, Vec<u8>) {
    let req = Request::builder()
        .uri(uri)
        .header(header::ACCEPT_ENCODING, encoding)
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let (status, headers) = (resp.status(), resp.headers().clone());
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    (status, headers, body.to_vec())
}

/// A body as it was before its `Content-Encoding`.
fn decoded(headers: &HeaderMap, body: &[u8]) -> String {
    let mut out = String::new();
    match headers
        .get(header::CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap())
    {
        Some("br") => brotli_decompressor::Decompressor::new(body, 4096)
            .read_to_string(&mut out)
            .unwrap(),
        Some("gzip") => flate2::read::GzDecoder::new(body)
            .read_to_string(&mut out)
            .unwrap(),
        None => return String::from_utf8(body.to_vec()).unwrap(),
        Some(other) => panic!("unexpected encoding {other}"),
    };
    out
}

fn catalogue_app() -> (axum::Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let tables =
        clash_server::open(&dir.path().join("clash.db"), clash_catalogue::rulesets()).unwrap();
    (clash_server::app(tables), dir)
}

/// The scripts, module preloads and styles a page loads.
fn files_of(page: &str) -> Vec<String> {
    let doc = scraper::Html::parse_document(page);
    let pick =
        scraper::Selector::parse("script[src], link[rel=modulepreload], link[rel=stylesheet]")
            .unwrap();
    doc.select(&pick)
        .filter_map(|e| e.attr("src").or(e.attr("href")).map(str::to_string))
        .collect()
}

#[tokio::test]
async fn pages_and_their_files_are_compressed_as_the_browser_accepts() {
    let (app, _dir) = catalogue_app();
    let lobby = routes::LOBBY.at([]).into_uri();
    let (_, _, plain) = get(&app, &lobby, "identity").await;
    let plain = String::from_utf8(plain).unwrap();
    let script = files_of(&plain)
        .into_iter()
        .find(|f| f.ends_with(".js"))
        .expect("the lobby loads a script");
    for (accepts, sent) in [
        ("gzip, deflate, br, zstd", "br"),
        ("br;q=0.5, gzip", "gzip"),
        ("gzip", "gzip"),
        ("identity", ""),
    ] {
        for uri in [&lobby, &script] {
            let (status, headers, body) = get(&app, uri, accepts).await;
            assert_eq!(status, StatusCode::OK, "{uri}");
            let encoding = headers
                .get(header::CONTENT_ENCODING)
                .map_or("", |v| v.to_str().unwrap());
            assert_eq!(encoding, sent, "{uri} accepting {accepts}");
            let text = decoded(&headers, &body);
            if uri == &lobby {
                // The same page (its embedded maps may list their keys in another order).
                assert!(text.starts_with("<!DOCTYPE html>") && text.ends_with("</html>"));
                assert_eq!(text.len(), plain.len(), "the lobby, {sent}");
            }
            if !sent.is_empty() {
                assert!(body.len() * 2 < text.len(), "{uri} shrinks with {sent}");
                let vary = headers[header::VARY].to_str().unwrap().to_lowercase();
                assert!(vary.contains("accept-encoding"), "{uri}");
            }
        }
    }
}

#[tokio::test]
async fn the_live_stream_is_never_compressed() {
    let s = server();
    let t = table(&s.app).await;
    let uri = routes::STREAM.at([&t.id]).key(&t.p1).into_uri();
    let req = Request::builder()
        .uri(&uri)
        .header(header::ACCEPT_ENCODING, "br, gzip")
        .body(Body::empty())
        .unwrap();
    let resp = s.app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers().get(header::CONTENT_ENCODING).is_none());
    // Its first update arrives at once, readable as it is.
    let mut body = resp.into_body();
    let mut text = String::new();
    let reading = async {
        while !text.contains("event: update") {
            let frame = body.frame().await.unwrap().unwrap();
            text.push_str(std::str::from_utf8(&frame.into_data().unwrap()).unwrap());
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(5), reading)
        .await
        .expect("the first update arrives without waiting for more");
}

#[tokio::test]
async fn files_are_kept_for_good_under_their_hashed_names_and_import_each_other_by_them() {
    let (app, _dir) = catalogue_app();
    let created = clash_server::http::dto::CreateTable {
        ruleset: Some("iron-triangle".to_string()),
        ..CreateTable::default()
    };
    let (status, body) = api(&app, routes::CREATE_TABLE.at([]).json(&created)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let gm = body["links"]["owner"].as_str().unwrap().to_string();
    for page in [routes::LOBBY.at([]).into_uri(), gm] {
        let (_, _, html) = get(&app, &page, "identity").await;
        let html = String::from_utf8(html).unwrap();
        let files = files_of(&html);
        assert!(files.len() > 5, "{page} loads its files: {files:?}");
        for file in &files {
            let (status, headers, body) = get(&app, file, "identity").await;
            assert_eq!(status, StatusCode::OK, "{file}");
            assert_eq!(
                headers[header::CACHE_CONTROL],
                "public, max-age=31536000, immutable",
                "{file}"
            );
            // `/assets/name.0123456789ab.js`: the hash of what is sent.
            let hash = file.rsplit('.').nth(1).unwrap();
            assert!(
                hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
                "{file}"
            );
            let text = String::from_utf8(body).unwrap();
            if file.ends_with(".js") {
                // Every module it imports is one of the page's files, by its hashed name.
                for import in text
                    .split("from\"")
                    .skip(1)
                    .chain(text.split("from \"").skip(1))
                {
                    let target = import.split('"').next().unwrap();
                    assert!(files.iter().any(|f| f == target), "{file} imports {target}");
                }
                assert!(
                    !text.contains("from'./") && !text.contains("from './"),
                    "{file}"
                );
            }
        }
    }
}

#[tokio::test]
async fn a_stale_or_unknown_file_name_is_handled() {
    let (app, _dir) = catalogue_app();
    let (_, _, html) = get(&app, &routes::LOBBY.at([]).into_uri(), "identity").await;
    let html = String::from_utf8(html).unwrap();
    let current = files_of(&html)
        .into_iter()
        .find(|f| f.contains("/lobby."))
        .expect("the lobby's own script");
    let (_, _, now) = get(&app, &current, "identity").await;
    // An older build's name (a page kept from before an upgrade): today's file, not kept.
    let hash = current.rsplit('.').nth(1).unwrap();
    let stale = current.replace(hash, "0123456789ab");
    let (status, headers, body) = get(&app, &stale, "identity").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    assert_eq!(body, now);
    // The plain name: the file as written, checked again on every load.
    let (status, headers, body) = get(&app, &routes::ASSET.at(["lobby.js"]), "identity").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    assert!(String::from_utf8(body).unwrap().contains("// Lobby:"));
    // No such file, with or without a hash.
    for missing in [
        "chess.0123456789ab.js",
        "chess.js",
        "lobby.0123456789ab.css",
    ] {
        let (status, _, _) = get(&app, &routes::ASSET.at([missing]), "identity").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
    }
    let (status, _, _) = get(&app, &routes::PANEL_ASSET.at(["chess.0123456789ab.js"]), "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn pages_may_be_kept_by_the_browser_alone_and_answers_by_nobody() {
    let s = server();
    let t = table(&s.app).await;
    for page in [
        routes::LOBBY.at([]).into_uri(),
        routes::TABLE_PAGE.at([&t.id, &t.owner]).into_uri(),
        routes::TABLE_PAGE.at([&t.id, &t.p1]).into_uri(),
        routes::TABLE_PAGE.at([&t.id, &t.spectator]).into_uri(),
    ] {
        let (status, headers, _) = get(&s.app, &page, "br").await;
        assert_eq!(status, StatusCode::OK, "{page}");
        // Not `no-store`: the back/forward cache may keep it; `private`: no shared cache may.
        assert_eq!(
            headers[header::CACHE_CONTROL],
            "private, no-cache",
            "{page}"
        );
    }
    let (_, headers, _) = get(&s.app, &routes::VIEW.at([&t.id]).key(&t.p1), "br").await;
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
}
