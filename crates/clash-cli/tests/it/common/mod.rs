//! A real `clash serve` process on a free loopback port, and a minimal HTTP client for it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// A running server; killed (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Server {
    /// Start `clash serve` on the database at `db`, waiting until it listens.
    pub fn start(db: &Path) -> Server {
        Server::start_on(db.as_os_str())
    }

    /// Start `clash serve` on `db` (a SQLite file or a PostgreSQL URL), waiting until it listens.
    pub fn start_on(db: impl AsRef<std::ffi::OsStr>) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_clash"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("clash serve starts");
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("clash serve prints its address")
                .unwrap();
            if let Some(rest) = line.split("http://").nth(1) {
                break rest.split('/').next().unwrap().to_string();
            }
        };
        // Keep reading (and discarding) its output so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Server { child, addr }
    }

    /// Kill the process at once, as a crash or `kill -9` would.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Send a request without reading the answer; returns the open connection.
    pub fn send_only(&self, method: &str, path: &str, body: Option<&Value>) -> TcpStream {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .write_all(request(method, path, &self.addr, body).as_bytes())
            .unwrap();
        stream
    }

    /// Open a live stream (`path` is its URL path) and hand over its `data:` lines as they come,
    /// until the stream ends.
    pub fn stream(&self, path: &str) -> std::sync::mpsc::Receiver<String> {
        let stream = self.send_only("GET", path, None);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { return };
                if let Some(data) = line.strip_prefix("data:")
                    && tx.send(data.trim().to_string()).is_err()
                {
                    return;
                }
            }
        });
        rx
    }

    /// One request; returns the status and the body (JSON when it parses, else a string).
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut stream = self.send_only(method, path, body.as_ref());
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        let text = String::from_utf8_lossy(&raw);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_string()));
        (status, body)
    }

    pub fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, answer) = self.call(method, path, body);
        assert!(
            (200..300).contains(&status),
            "{method} {path}: {status} {answer}"
        );
        answer
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn request(method: &str, path: &str, host: &str, body: Option<&Value>) -> String {
    let body = body.map(Value::to_string).unwrap_or_default();
    format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// A table of `ruleset` (its first preset) whose player seats the GM has all taken over, so the
/// owner's key plays every seat. Returns (table id, owner key, seats).
pub fn gm_table(server: &Server, ruleset: &str) -> (String, String, Vec<String>) {
    let created = server.ok("POST", "/api/tables", Some(json!({ "ruleset": ruleset })));
    let id = created["table"].as_str().unwrap().to_string();
    let owner = created["owner_key"].as_str().unwrap().to_string();
    let mut seats = vec![];
    for s in created["seats"].as_array().unwrap() {
        let seat = s["seat"].as_str().unwrap().to_string();
        if seat != "gm" {
            server.ok(
                "POST",
                &format!("/api/tables/{id}/seats/{seat}/link?key={owner}"),
                Some(json!({"npc": true})),
            );
        }
        seats.push(seat);
    }
    (id, owner, seats)
}

/// Play up to `commands` legal commands, each by the first seat that has one (in turn, so
/// every seat gets to act); returns how many were played.
pub fn play(server: &Server, id: &str, owner: &str, seats: &[String], commands: usize) -> usize {
    let mut played = 0;
    let mut turn = 0;
    while played < commands {
        let mut acted = false;
        for k in 0..seats.len() {
            let seat = &seats[(turn + k) % seats.len()];
            let view = server.ok(
                "GET",
                &format!("/api/tables/{id}/view?key={owner}&as={seat}"),
                None,
            );
            if view["closed"] == true {
                return played;
            }
            let Some(first) = view["legal"]
                .as_array()
                .and_then(|l| l.get(played % l.len().max(1)))
            else {
                continue;
            };
            let body = json!({ "command": first["command"], "as": seat });
            server.ok(
                "POST",
                &format!("/api/tables/{id}/commands?key={owner}"),
                Some(body),
            );
            played += 1;
            acted = true;
            turn += 1;
            break;
        }
        if !acted {
            return played;
        }
    }
    played
}
