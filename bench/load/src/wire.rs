//! The benchmark's HTTP client: keep-alive JSON requests, and live streams that rebuild each
//! seat's update from the server's first update and the patches after it.

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::watch;

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Connect to `addr` from the loopback address `from` (clients spread over many addresses, as
/// players behind many home connections are).
pub async fn connect(addr: SocketAddr, from: Ipv4Addr) -> Result<TcpStream, Error> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::V4(SocketAddrV4::new(from, 0)))?;
    let stream = socket.connect(addr).await?;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// One keep-alive HTTP/1.1 connection for JSON requests (a new one after an answer that says
/// `Connection: close`).
pub struct Http {
    addr: SocketAddr,
    from: Ipv4Addr,
    stream: BufReader<TcpStream>,
    closing: bool,
}

impl Http {
    pub async fn connect(addr: SocketAddr, from: Ipv4Addr) -> Result<Http, Error> {
        Ok(Http {
            addr,
            from,
            stream: BufReader::new(connect(addr, from).await?),
            closing: false,
        })
    }

    /// Send `request` (on a new connection if the server closed the last one) and read the
    /// answer's head.
    async fn send(&mut self, request: &str) -> Result<Head, Error> {
        if self.closing {
            self.stream = BufReader::new(connect(self.addr, self.from).await?);
        }
        self.stream.get_mut().write_all(request.as_bytes()).await?;
        let head = read_head(&mut self.stream).await?;
        self.closing = head.close;
        Ok(head)
    }

    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), Error> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let kind = if body.is_empty() {
            ""
        } else {
            "Content-Type: application/json\r\n"
        };
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{kind}Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        let head = self.send(&request).await?;
        let mut buf = vec![0; head.length.unwrap_or(0)];
        self.stream.read_exact(&mut buf).await?;
        Ok((
            head.status,
            serde_json::from_slice(&buf).unwrap_or(Value::Null),
        ))
    }

    /// A request whose answer is text.
    pub async fn text(&mut self, method: &str, path: &str) -> Result<(u16, String), Error> {
        let request = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.addr);
        let head = self.send(&request).await?;
        let mut buf = vec![0; head.length.unwrap_or(0)];
        self.stream.read_exact(&mut buf).await?;
        Ok((head.status, String::from_utf8_lossy(&buf).into_owned()))
    }

    pub async fn ok(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, Error> {
        let (status, answer) = self.request(method, path, body).await?;
        if !(200..300).contains(&status) {
            return Err(format!("{method} {path}: {status} {answer}").into());
        }
        Ok(answer)
    }
}

/// What an answer's head says.
pub struct Head {
    pub status: u16,
    pub length: Option<usize>,
    /// `Connection: close`: the server ends the connection after this answer.
    pub close: bool,
}

/// Read a response's status line and headers.
pub async fn read_head(stream: &mut BufReader<TcpStream>) -> Result<Head, Error> {
    let mut line = String::new();
    if stream.read_line(&mut line).await? == 0 {
        return Err("connection closed".into());
    }
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .ok_or("no status line")?
        .parse()?;
    let (mut length, mut close) = (None, false);
    loop {
        line.clear();
        if stream.read_line(&mut line).await? == 0 {
            return Err("connection closed".into());
        }
        let l = line.trim_end();
        if l.is_empty() {
            return Ok(Head {
                status,
                length,
                close,
            });
        }
        let Some((name, value)) = l.split_once(':') else {
            continue;
        };
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(value.trim().parse()?);
        } else if name.eq_ignore_ascii_case("connection") {
            close = value.trim().eq_ignore_ascii_case("close");
        }
    }
}

/// What a seat's stream has delivered: the revision and when it arrived, and the update.
#[derive(Clone)]
pub struct Seen {
    pub revision: i64,
    pub at: Instant,
    pub update: Option<Arc<Value>>,
}

pub type SeenTx = watch::Sender<Seen>;

pub fn seen_channel() -> Arc<SeenTx> {
    Arc::new(watch::Sender::new(Seen {
        revision: -1,
        at: Instant::now(),
        update: None,
    }))
}

/// Follow one seat's stream (`?changes=patch`), publishing every update it rebuilds. Ends when
/// the stream ends.
pub async fn follow(
    addr: SocketAddr,
    stream: TcpStream,
    path: String,
    seen: Arc<SeenTx>,
) -> Result<(), Error> {
    let mut stream = BufReader::new(stream);
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n");
    stream.get_mut().write_all(head.as_bytes()).await?;
    let status = read_head(&mut stream).await?.status;
    if status != 200 {
        return Err(format!("stream {path}: {status}").into());
    }
    let mut pending = String::new();
    let (mut name, mut data) = (String::new(), String::new());
    let mut line = String::new();
    loop {
        line.clear();
        if stream.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let size = usize::from_str_radix(line.trim(), 16)?;
        if size == 0 {
            return Ok(());
        }
        let mut chunk = vec![0; size + 2];
        stream.read_exact(&mut chunk).await?;
        pending.push_str(&String::from_utf8_lossy(&chunk[..size]));
        while let Some(end) = pending.find('\n') {
            let l: String = pending.drain(..=end).collect();
            let l = l.trim_end_matches(['\n', '\r']);
            if l.is_empty() {
                if !data.is_empty() {
                    received(&name, &data, &seen)?;
                }
                name.clear();
                data.clear();
            } else if let Some(v) = l.strip_prefix("event:") {
                name = v.trim().to_string();
            } else if let Some(v) = l.strip_prefix("data:") {
                data.push_str(v.strip_prefix(' ').unwrap_or(v));
            }
        }
    }
}

/// Take one message into the seat's update (kept in the channel itself, so a patch copies the
/// update only when the driver happens to hold it) and publish it.
fn received(name: &str, data: &str, seen: &SeenTx) -> Result<(), Error> {
    let message: Value = match name {
        "update" | "patch" => serde_json::from_str(data)?,
        // access, revoked, deleted: the stream ends.
        _ => return Ok(()),
    };
    let mut failure: Option<Error> = None;
    seen.send_if_modified(|s| {
        let next = if name == "update" {
            Arc::new(message)
        } else {
            let Some(mut shared) = s.update.take() else {
                failure = Some("a patch before any update".into());
                return false;
            };
            let update = Arc::make_mut(&mut shared);
            if update["event_count"] != message["base"] {
                failure = Some("a patch out of step".into());
                return false;
            }
            let applied = serde_json::from_value::<json_patch::Patch>(message["patch"].clone())
                .map_err(Error::from)
                .and_then(|p| json_patch::patch(update, &p).map_err(Error::from));
            if let Err(e) = applied {
                failure = Some(e);
                return false;
            }
            update["events"] = message["events"].clone();
            shared
        };
        let revision = next["event_count"].as_i64().unwrap_or(-1);
        *s = Seen {
            revision,
            at: Instant::now(),
            update: Some(next),
        };
        true
    });
    failure.map_or(Ok(()), Err)
}
