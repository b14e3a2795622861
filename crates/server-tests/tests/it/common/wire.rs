//! A real server on a loopback port, and a plain HTTP/1.1 client for it that can also misbehave
//! (stay silent, stop half-way through a header, open a stream and never read it).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use clash_server::{Limits, Server};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::oneshot;

use crate::client::{Href, Req, catalogue};

/// A server listening on 127.0.0.1 with `limits`; it stops when dropped.
pub struct Live {
    pub addr: SocketAddr,
    pub server: Arc<Server>,
    pub path: std::path::PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    dir: Option<tempfile::TempDir>,
}

impl Live {
    pub async fn start(limits: Limits) -> Live {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clash.db");
        let tables = clash_server::open_with(&path, catalogue_all(), limits).unwrap();
        let listener = clash_server::listen("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(clash_server::run(listener, tables.clone(), async move {
            let _ = stopped.await;
        }));
        Live {
            addr,
            server: tables,
            path,
            stop: Some(stop),
            task: Some(task),
            dir: Some(dir),
        }
    }

    /// Stop the server and wait for it (open requests get their grace); the database stays
    /// until the returned directory is dropped.
    pub async fn stop(mut self) -> Option<tempfile::TempDir> {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(10), t).await;
        }
        self.dir.take()
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

/// The test ruleset and every catalogue ruleset.
pub fn catalogue_all() -> Vec<clash_core::RulesetEntry> {
    let mut all = catalogue();
    all.extend(clash_catalogue::rulesets());
    all
}

/// A connection from `from` (a loopback address: 127.0.0.1, 127.0.0.2, …).
pub async fn connect_from(addr: SocketAddr, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr).await.unwrap()
}

/// An answer: status, headers (lower-case names) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// One request on its own connection from `from`, with the given extra header lines.
pub async fn request_from(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let stream = connect_from(addr, from).await;
    let mut stream = BufReader::new(stream);
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let w = stream.get_mut();
    w.write_all(head.as_bytes()).await.unwrap();
    w.write_all(body).await.unwrap();
    let answer = read_answer(&mut stream).await;
    if let Ok(status) = axum::http::StatusCode::from_u16(answer.status) {
        crate::conformance::check(method, path, status, &answer.body);
    }
    answer
}

/// The first lines of a request for `href` to `host`, without the blank line that ends the head.
pub fn head(href: &Href, host: impl std::fmt::Display) -> String {
    format!("{} {href} HTTP/1.1\r\nHost: {host}", href.verb.as_str())
}

/// A typed request (a route with its method, and its JSON body if any) on its own connection.
pub async fn send(addr: SocketAddr, req: impl Into<Req>) -> Answer {
    let req = req.into();
    let headers: &[(&str, &str)] = match req.body {
        Some(_) => &[("Content-Type", "application/json")],
        None => &[],
    };
    let body = req.body.unwrap_or_default();
    let method = req.href.verb.as_str();
    request_from(
        addr,
        "127.0.0.1",
        method,
        req.href.uri(),
        headers,
        body.as_bytes(),
    )
    .await
}

pub async fn request(addr: SocketAddr, method: &str, path: &str, json: Option<&Value>) -> Answer {
    let body = json.map(Value::to_string).unwrap_or_default();
    let headers: &[(&str, &str)] = if json.is_some() {
        &[("Content-Type", "application/json")]
    } else {
        &[]
    };
    request_from(addr, "127.0.0.1", method, path, headers, body.as_bytes()).await
}

/// Read a whole answer (the connection closes after it, or it has a length).
pub async fn read_answer(stream: &mut BufReader<TcpStream>) -> Answer {
    let mut line = String::new();
    stream.read_line(&mut line).await.unwrap();
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut headers = Vec::new();
    loop {
        line.clear();
        if stream.read_line(&mut line).await.unwrap() == 0 {
            break;
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((n, v)) = l.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok());
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            stream.read_exact(&mut body).await.unwrap();
        }
        None => {
            let _ = stream.read_to_end(&mut body).await;
        }
    }
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// Whether the server closes `stream` within `within` (reads until end of stream).
pub async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

/// A metric's value from `/metrics` (the first sample line starting with `name`).
pub async fn metric(addr: SocketAddr, name: &str) -> f64 {
    let text = send(addr, crate::client::routes::METRICS.at([])).await.body;
    text.lines()
        .find(|l| l.starts_with(name))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}
