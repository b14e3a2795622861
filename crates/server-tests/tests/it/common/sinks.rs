//! A local webhook receiver and a local SMTP sink, for the notification tests: both listen on
//! 127.0.0.1 on a port of their own and record what they are sent.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// One request the receiver took.
#[derive(Debug, Clone)]
pub struct Got {
    /// The hook's name, from its path (`/hook/{name}`).
    pub name: String,
    pub headers: HashMap<String, String>,
    pub raw: Vec<u8>,
    pub body: Value,
}

#[derive(Clone, Default)]
struct Shared {
    got: Arc<Mutex<Vec<Got>>>,
    /// Requests still to fail with a 500, by hook name.
    failing: Arc<Mutex<HashMap<String, usize>>>,
    /// Requests answered with a redirect.
    redirected: Arc<AtomicUsize>,
}

/// The webhook receiver.
pub struct Receiver {
    pub addr: SocketAddr,
    shared: Shared,
}

async fn hook(
    State(s): State<Shared>,
    Path(name): Path<String>,
    headers: HeaderMap,
    raw: Bytes,
) -> StatusCode {
    let headers = headers
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    let body = serde_json::from_slice(&raw).unwrap_or(Value::Null);
    let failing = {
        let mut failing = s.failing.lock().unwrap();
        match failing.get_mut(&name) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    };
    s.got.lock().unwrap().push(Got {
        name,
        headers,
        raw: raw.to_vec(),
        body,
    });
    if failing {
        StatusCode::INTERNAL_SERVER_ERROR
    } else {
        StatusCode::NO_CONTENT
    }
}

async fn redirect(State(s): State<Shared>) -> impl IntoResponse {
    s.redirected.fetch_add(1, Ordering::SeqCst);
    (
        StatusCode::TEMPORARY_REDIRECT,
        [(header::LOCATION, "/hook/redirected")],
    )
}

impl Receiver {
    pub async fn start() -> Receiver {
        let shared = Shared::default();
        let app = Router::new()
            .route("/hook/{name}", axum::routing::post(hook))
            .route("/redirect", axum::routing::post(redirect))
            .with_state(shared.clone());
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Receiver { addr, shared }
    }

    /// The URL of the hook `name`.
    pub fn url(&self, name: &str) -> String {
        format!("http://{}/hook/{name}", self.addr)
    }

    pub fn redirect_url(&self) -> String {
        format!("http://{}/redirect", self.addr)
    }

    /// The next `n` requests to `name` fail.
    pub fn fail(&self, name: &str, n: usize) {
        self.shared.failing.lock().unwrap().insert(name.into(), n);
    }

    pub fn got(&self, name: &str) -> Vec<Got> {
        let got = self.shared.got.lock().unwrap();
        got.iter().filter(|g| g.name == name).cloned().collect()
    }

    pub fn all(&self) -> Vec<Got> {
        self.shared.got.lock().unwrap().clone()
    }

    pub fn redirects(&self) -> usize {
        self.shared.redirected.load(Ordering::SeqCst)
    }
}

/// One mail the sink took.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: Vec<String>,
    pub data: String,
}

/// A minimal SMTP server: it greets, accepts every sender and recipient, and keeps each
/// message's data.
pub struct SmtpSink {
    pub addr: SocketAddr,
    mails: Arc<Mutex<Vec<Mail>>>,
}

impl SmtpSink {
    pub async fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mails: Arc<Mutex<Vec<Mail>>> = Arc::default();
        let kept = mails.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(converse(stream, kept.clone()));
            }
        });
        SmtpSink { addr, mails }
    }

    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    pub fn mails(&self) -> Vec<Mail> {
        self.mails.lock().unwrap().clone()
    }
}

async fn converse(stream: tokio::net::TcpStream, mails: Arc<Mutex<Vec<Mail>>>) {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let _ = write.write_all(b"220 sink ready\r\n").await;
    let mut to = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-sink\r\n250 8BITMIME\r\n",
            "RCPT" => {
                to.push(line[8..].trim().trim_matches(['<', '>']).to_string());
                b"250 ok\r\n"
            }
            "DATA" => {
                let _ = write.write_all(b"354 go on\r\n").await;
                let mut data = String::new();
                while let Ok(Some(l)) = lines.next_line().await {
                    if l == "." {
                        break;
                    }
                    data.push_str(&l);
                    data.push('\n');
                }
                mails.lock().unwrap().push(Mail {
                    to: std::mem::take(&mut to),
                    data,
                });
                b"250 queued\r\n"
            }
            "QUIT" => {
                let _ = write.write_all(b"221 bye\r\n").await;
                return;
            }
            _ => b"250 ok\r\n",
        };
        let _ = write.write_all(reply).await;
    }
}

/// Wait until `check` holds (up to `within`); answers whether it did.
pub async fn eventually(within: Duration, mut check: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < within {
        if check() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    check()
}

/// Settings for tests: loopback allowed (the LAN flag), short waits.
pub fn settings(smtp: Option<&SmtpSink>) -> clash_server::notify::Settings {
    clash_server::notify::Settings {
        public_url: Some("https://clash.example".into()),
        allow_private: true,
        smtp: smtp.map(|s| clash_server::notify::Smtp {
            url: s.url(),
            from: "clash@clash.example".into(),
        }),
        gather: Duration::from_millis(150),
        throttle: Duration::from_millis(300),
        retry_base: Duration::from_millis(50),
        retries: 3,
        timeout: Duration::from_secs(3),
        tick: Duration::from_millis(100),
        mail_per_day: 20,
    }
}
