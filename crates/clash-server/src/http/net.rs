//! The front door: accepting connections within caps, and the timeouts that keep a slow or
//! silent client from holding anything for long.
//!
//! * Connections are counted per client address and in total; one over either cap is answered
//!   `503` at once and closed, so the listening socket is always drained and a flood from one
//!   address never keeps others out.
//! * Each connection is served by hyper's HTTP/1 with a header-read timeout, which runs from the
//!   moment a connection opens or finishes an answer until a whole request head has arrived: a
//!   half-sent header and an idle keep-alive connection both end when it runs out.
//! * The server's buffers per connection are bounded (hyper's least, 8 KiB, by default: a live
//!   stream whose peer does not read holds at most that much queued beyond the message being
//!   written), and a connection whose peer has taken none of what the server writes for
//!   [`Limits::stall_timeout`] is dropped: a live stream that does not keep up costs a bounded
//!   amount of memory and then ends.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Sleep;
use tower::ServiceExt;

use crate::config::Limits;
use crate::metrics::Metrics;

/// The address limits count by: an IPv4 address, or an IPv6 client's /64 (one subscriber's
/// network hands out many addresses from it).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// Counts open connections per client address and in total.
pub struct Gate {
    per_address: usize,
    total_cap: usize,
    open: Mutex<Open>,
    metrics: Arc<Metrics>,
}

#[derive(Default)]
struct Open {
    by_client: HashMap<IpAddr, usize>,
    total: usize,
}

/// One admitted connection; dropping it frees its place.
pub struct Ticket {
    gate: Arc<Gate>,
    client: IpAddr,
}

/// Why a connection was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    Address,
    Server,
}

impl Gate {
    pub fn new(limits: &Limits, metrics: Arc<Metrics>) -> Arc<Gate> {
        Arc::new(Gate {
            per_address: limits.connections_per_address,
            total_cap: limits.connection_cap(),
            open: Mutex::new(Open::default()),
            metrics,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Admit a connection from `ip`, or say which cap it hits.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Ticket, Full> {
        let client = client_key(ip);
        let mut open = self.lock();
        if open.total >= self.total_cap {
            return Err(Full::Server);
        }
        let count = open.by_client.entry(client).or_insert(0);
        if *count >= self.per_address {
            return Err(Full::Address);
        }
        *count += 1;
        open.total += 1;
        self.metrics.connections_open.inc();
        Ok(Ticket {
            gate: self.clone(),
            client,
        })
    }

    /// Connections open now from `ip`'s client address.
    pub fn open_from(&self, ip: IpAddr) -> usize {
        self.lock()
            .by_client
            .get(&client_key(ip))
            .copied()
            .unwrap_or(0)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut open = self.gate.lock();
        open.total = open.total.saturating_sub(1);
        if let Some(n) = open.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.by_client.remove(&self.client);
            }
        }
        self.gate.metrics.connections_open.dec();
    }
}

/// A client connection that errors out when its peer stops taking what is written to it.
pub struct Guarded {
    io: TcpStream,
    stall: Duration,
    /// Running while a write waits for the peer; reset whenever a write goes through.
    waiting: Option<Pin<Box<Sleep>>>,
    /// Holds the connection's place (and the metrics, to count a drop).
    ticket: Ticket,
}

impl Guarded {
    pub fn new(io: TcpStream, stall: Duration, ticket: Ticket) -> Guarded {
        Guarded {
            io,
            stall,
            waiting: None,
            ticket,
        }
    }

    /// Pass a write's outcome through, timing how long the peer leaves it pending.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        outcome: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match outcome {
            Poll::Ready(r) => {
                self.waiting = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let stall = self.stall;
                let timer = self
                    .waiting
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
                if timer.as_mut().poll(cx).is_ready() {
                    self.waiting = None;
                    self.ticket.gate.metrics.refuse("stalled");
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client stopped reading",
                    )));
                }
                Poll::Pending
            }
        }
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let outcome = Pin::new(&mut self.io).poll_write(cx, buf);
        self.watch(cx, outcome)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let outcome = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.watch(cx, outcome)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let outcome = Pin::new(&mut self.io).poll_flush(cx);
        self.watch(cx, outcome)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Serve `app` on `listener` until `stop` completes, then let open requests finish (live streams
/// are ended by the caller) for at most `grace`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    metrics: Arc<Metrics>,
    stop: impl Future<Output = ()>,
    grace: Duration,
) {
    let gate = Gate::new(&limits, metrics.clone());
    let (closing, _) = watch::channel(false);
    // Each connection holds a receiver; the sender sees them all gone when every one has ended.
    let (alive, _) = watch::channel(());
    tokio::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => admit(tcp, peer, &gate, &app, &limits, &metrics, closing.subscribe(), alive.subscribe()),
                Err(e) => accept_failed(e).await,
            },
            () = &mut stop => break,
        }
    }
    drop(listener);
    closing.send_replace(true);
    let _ = tokio::time::timeout(grace, alive.closed()).await;
}

/// Out of file descriptors or a similar fault: wait a moment instead of spinning.
async fn accept_failed(e: io::Error) {
    let per_connection = matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    );
    if !per_connection {
        tracing::warn!(error = %e, "accepting a connection failed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[allow(clippy::too_many_arguments)]
fn admit(
    tcp: TcpStream,
    peer: SocketAddr,
    gate: &Arc<Gate>,
    app: &Router,
    limits: &Limits,
    metrics: &Arc<Metrics>,
    mut closing: watch::Receiver<bool>,
    alive: watch::Receiver<()>,
) {
    let ticket = match gate.admit(peer.ip()) {
        Ok(t) => t,
        Err(full) => {
            turn_away(&tcp, full);
            metrics.refuse(match full {
                Full::Address => "connections_per_address",
                Full::Server => "connections_total",
            });
            return;
        }
    };
    // Live updates are small writes: send each at once instead of letting Nagle hold it back.
    let _ = tcp.set_nodelay(true);
    let _ = socket2::SockRef::from(&tcp).set_send_buffer_size(limits.send_buffer);
    let io = Guarded::new(tcp, limits.stall_timeout, ticket);
    let service = app
        .clone()
        .map_request(move |mut request: axum::http::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request.map(Body::new)
        });
    let service = TowerToHyperService::new(service);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(limits.connection_buffer.max(8192))
        .keep_alive(true);
    tokio::spawn(async move {
        let connection = http.serve_connection(TokioIo::new(io), service);
        tokio::pin!(connection);
        let stopping = async {
            let _ = closing.wait_for(|c| *c).await;
        };
        let finished = tokio::select! {
            _ = connection.as_mut() => true,
            () = stopping => false,
        };
        if !finished {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
        drop(alive);
    });
}

/// Tell a client over a cap why, without waiting on it: one non-blocking write, then close.
fn turn_away(tcp: &TcpStream, full: Full) {
    let why = match full {
        Full::Address => "too many connections from your address; close some and try again",
        Full::Server => "the server is full; try again in a moment",
    };
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\nretry-after: 5\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{why}",
        why.len()
    );
    let _ = tcp.try_write(answer.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_count_by_their_64_and_mapped_v4_as_v4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(client_key(mapped), "192.0.2.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn the_gate_caps_each_address_and_the_total_and_frees_places_on_drop() {
        let limits = Limits {
            connections_per_address: 2,
            max_connections: Some(3),
            ..Limits::default()
        };
        let gate = Gate::new(&limits, Arc::new(Metrics::new()));
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = gate.admit(a).unwrap();
        let _second = gate.admit(a).unwrap();
        assert_eq!(gate.admit(a).err(), Some(Full::Address));
        let _third = gate.admit(b).unwrap();
        assert_eq!(gate.admit(b).err(), Some(Full::Server));
        drop(first);
        assert_eq!(gate.open_from(a), 1);
        assert!(gate.admit(b).is_ok());
    }
}
