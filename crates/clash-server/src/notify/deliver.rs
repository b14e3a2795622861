//! Delivery: one queue per target, so a burst of events becomes one digest, a slow or failing
//! receiver holds up nobody else, and retries back off.
//!
//! * **Gathering and throttling.** The first event waits [`Settings::gather`] for others to
//!   join it; after a message, the next waits until [`Settings::throttle`] has passed, and
//!   whatever arrived meanwhile goes as one digest (at most [`ITEMS`] lines, then "and N more").
//! * **Retries.** A failure that may pass (no connection, a time-out, a 5xx or 429 answer) is
//!   tried again after [`Settings::retry_base`], doubling each time, [`Settings::retries`]
//!   times; one that will not (a refused address, a redirect, another 4xx) is not.
//! * **Only what still holds.** A line that holds while the game waits on a seat ("your move",
//!   a reminder, a clock running out) is dropped from a digest still gathering once that seat
//!   has moved ([`Outbox::withdraw`]); a newer "your move" replaces an older one.
//! * **Record.** Each failure is noted on the target, for its owner to read; each message's
//!   outcome goes in the table's delivery log, for the GM (the latest [`LOG_KEPT`]).
//! * **Archived tables.** Once a table is archived (or deleted) its queues are emptied and
//!   nothing more is sent until it is brought back.
//! * **Email** goes only to addresses whose owners confirmed them, within a cap per address per
//!   day ([`super::mail`], [`super::consent`]).
//! * **Bounds.** A webhook's request is bounded in time ([`Settings::timeout`]), follows no
//!   redirect, connects to the address checked by [`super::guard`], and reads at most
//!   [`ANSWER_LIMIT`] bytes of the answer.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use lettre::{AsyncSmtpTransport, Tokio1Executor};

use super::guard;
use super::message::{Item, Message, signature};
use super::now::now_ms;
use super::settings::Settings;
use super::target::{self, Format, Kind, Target};
use crate::store::Store;
use crate::store::notify as notify_rows;

/// Lines one message holds at most; the rest are counted.
pub const ITEMS: usize = 20;
/// Deliveries a table's log keeps.
pub const LOG_KEPT: i64 = 200;
/// Stopped tables remembered before those with nothing queued are forgotten.
const STOPPED_KEPT: usize = 1024;
/// Bytes of a receiver's answer read at most.
const ANSWER_LIMIT: usize = 16 * 1024;

/// What one target is waiting to be sent.
struct TargetQueue {
    target: Target,
    message: Message,
    running: bool,
    last_sent: Option<Instant>,
}

pub struct Outbox {
    pub(super) settings: Arc<Settings>,
    pub(super) store: Store,
    queues: Mutex<HashMap<(String, String), TargetQueue>>,
    /// Tables archived or deleted: nothing is sent for them.
    stopped: Mutex<HashSet<String>>,
    pub(super) mailer: Option<AsyncSmtpTransport<Tokio1Executor>>,
    /// The address the server printed when it started listening: messages link to it when no
    /// public address was given.
    printed: OnceLock<String>,
}

/// Why a delivery failed, and whether trying again may help.
pub struct Failure {
    pub why: String,
    again: bool,
}

pub(super) fn failure(why: impl Into<String>, again: bool) -> Failure {
    Failure {
        why: why.into(),
        again,
    }
}

impl Outbox {
    pub fn new(settings: Arc<Settings>, store: Store) -> Outbox {
        let mailer = settings.smtp.as_ref().and_then(|smtp| {
            match AsyncSmtpTransport::<Tokio1Executor>::from_url(&smtp.url) {
                Ok(builder) => Some(builder.timeout(Some(settings.timeout)).build()),
                Err(e) => {
                    tracing::error!(error = %e, "the SMTP relay's URL is not usable: no email is sent");
                    None
                }
            }
        });
        Outbox {
            settings,
            store,
            queues: Mutex::new(HashMap::new()),
            stopped: Mutex::new(HashSet::new()),
            mailer,
            printed: OnceLock::new(),
        }
    }

    /// Note the address the server printed (`http://host:port`); the first one stays.
    pub fn printed(&self, url: String) {
        let _ = self.printed.set(url);
    }

    /// Where messages send people: the public address, else the one the server printed.
    pub fn base(&self) -> Option<&str> {
        self.settings
            .public_url
            .as_deref()
            .or(self.printed.get().map(String::as_str))
    }

    /// Drop what `target` still has gathering about a wait that has ended: the lines about
    /// `seat` (any seat when `None`).
    pub fn withdraw(&self, table: &str, target: &str, seat: Option<clash_core::Seat>) {
        let mut queues = self.queues();
        if let Some(q) = queues.get_mut(&(table.to_string(), target.to_string())) {
            q.message
                .items
                .retain(|i| i.waiting.is_none() || (seat.is_some() && i.waiting != seat));
        }
    }

    fn queues(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), TargetQueue>> {
        self.queues.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn stopped(&self, table: &str) -> bool {
        let stopped = self.stopped.lock().unwrap_or_else(|p| p.into_inner());
        stopped.contains(table)
    }

    /// Send nothing more for `table` (archived or deleted) and drop what waits; or, with
    /// `stop` false, send again.
    pub fn stop(&self, table: &str, stop: bool) {
        let mut stopped = self.stopped.lock().unwrap_or_else(|p| p.into_inner());
        if !stop {
            stopped.remove(table);
            return;
        }
        stopped.insert(table.to_string());
        if stopped.len() > STOPPED_KEPT {
            // Nothing is queued for a stopped table after its queues are emptied, and it is
            // stopped again by its next change, so tables without a queue may be forgotten.
            let queued: HashSet<String> = self.queues().keys().map(|(t, _)| t.clone()).collect();
            stopped.retain(|t| t == table || queued.contains(t));
        }
        drop(stopped);
        for ((t, _), q) in self.queues().iter_mut() {
            if t == table {
                q.message.items.clear();
                q.message.more = 0;
            }
        }
    }

    /// Queue `items` for `target`, as part of `message` (its table, title and recipient).
    pub fn push(self: &Arc<Self>, target: Target, message: Message) {
        if message.items.is_empty() || self.stopped(&message.table) {
            return;
        }
        let key = (message.table.clone(), target.id.clone());
        let mut queues = self.queues();
        let throttle = self.settings.throttle;
        // Queues that are idle and past their throttle are forgotten.
        queues.retain(|_, q| q.running || q.last_sent.is_some_and(|t| t.elapsed() < throttle));
        let queue = queues.entry(key.clone()).or_insert_with(|| TargetQueue {
            target: target.clone(),
            message: Message {
                items: Vec::new(),
                more: 0,
                ..message.clone()
            },
            running: false,
            last_sent: None,
        });
        queue.target = target;
        queue.message.title = message.title;
        for item in message.items {
            if item.kind == super::message::What::YourMove {
                // A newer "your move" for the same seat says all the older one did.
                let seat = item.waiting;
                queue
                    .message
                    .items
                    .retain(|i| !(i.kind == item.kind && i.waiting == seat));
            }
            add(&mut queue.message, item);
        }
        if !queue.running {
            queue.running = true;
            tokio::spawn(self.clone().run(key));
        }
    }

    /// Send what a target's queue gathers, one message at a time, until it is empty.
    async fn run(self: Arc<Self>, key: (String, String)) {
        tokio::time::sleep(self.settings.gather).await;
        loop {
            let wait = {
                let queues = self.queues();
                let last = queues.get(&key).and_then(|q| q.last_sent);
                last.map_or(Duration::ZERO, |t| {
                    (t + self.settings.throttle).saturating_duration_since(Instant::now())
                })
            };
            tokio::time::sleep(wait).await;
            let taken = {
                let mut queues = self.queues();
                let Some(q) = queues.get_mut(&key) else {
                    return;
                };
                if q.message.items.is_empty() {
                    q.running = false;
                    return;
                }
                q.last_sent = Some(Instant::now());
                let message = q.message.clone();
                q.message.items.clear();
                q.message.more = 0;
                (q.target.clone(), message)
            };
            self.deliver(&taken.0, &taken.1).await;
        }
    }

    /// One message to one target, with retries; its outcome recorded.
    async fn deliver(&self, target: &Target, message: &Message) {
        let mut tries = 0;
        let result = loop {
            if self.stopped(&message.table) {
                return;
            }
            tries += 1;
            match self.send(target, message).await {
                Ok(()) => break Ok(()),
                Err(f) => {
                    self.record(&message.table, target, Some(&f.why), None)
                        .await;
                    if !f.again || tries > self.settings.retries {
                        break Err(f.why);
                    }
                }
            }
            let backoff = self.settings.retry_base * 2u32.saturating_pow(tries - 1);
            tokio::time::sleep(backoff.min(Duration::from_secs(3600))).await;
        };
        let line = match &result {
            Ok(()) => ("sent", format!("after {tries} attempt(s)")),
            Err(why) => ("failed", format!("after {tries} attempt(s): {why}")),
        };
        let error = result.err();
        self.record(
            &message.table,
            target,
            error.as_deref(),
            Some((message, line)),
        )
        .await;
    }

    async fn send(&self, target: &Target, message: &Message) -> Result<(), Failure> {
        match target.kind {
            Kind::Email => self.mail(target, message).await,
            Kind::Webhook | Kind::Channel => self.post(target, message).await,
            Kind::Handle => Ok(()),
        }
    }

    async fn post(&self, target: &Target, message: &Message) -> Result<(), Failure> {
        let url = reqwest::Url::parse(&target.address)
            .map_err(|_| failure("the webhook's URL is not valid", false))?;
        let host = url.host_str().unwrap_or_default().to_string();
        let port = url.port_or_known_default().unwrap_or(443);
        let addr = guard::resolve(&host, port, self.settings.allow_private)
            .await
            .map_err(|why| failure(why, false))?;
        let now = now_ms();
        let base = self.base();
        let body = message
            .payload(target.format, base, now)
            .to_string()
            .into_bytes();
        let mut client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .timeout(self.settings.timeout)
            .connect_timeout(self.settings.timeout)
            .user_agent("clash-notify");
        if host.parse::<std::net::IpAddr>().is_err() {
            // Connect to the address just checked, whatever the name resolves to next.
            client = client.resolve(&host, addr);
        }
        let client = client
            .build()
            .map_err(|_| failure("no HTTP client could be made", true))?;
        let mut request = client.post(url).header("content-type", "application/json");
        if target.format == Format::Json {
            let at = now / 1000;
            request = request
                .header("x-clash-timestamp", at.to_string())
                .header("x-clash-signature", signature(&target.secret, at, &body));
        }
        let mut answer = request.body(body).send().await.map_err(|e| {
            let why = match () {
                _ if e.is_timeout() => "the receiver did not answer in time",
                _ if e.is_connect() => "the receiver could not be reached",
                _ => "the request failed",
            };
            failure(why, true)
        })?;
        let status = answer.status();
        let mut read = 0;
        while let Ok(Some(chunk)) = answer.chunk().await {
            read += chunk.len();
            if read >= ANSWER_LIMIT {
                break;
            }
        }
        match status.as_u16() {
            200..=299 => Ok(()),
            300..=399 => Err(failure(
                format!("the receiver answered {status}: redirects are not followed"),
                false,
            )),
            429 | 500..=599 => Err(failure(format!("the receiver answered {status}"), true)),
            _ => Err(failure(format!("the receiver answered {status}"), false)),
        }
    }

    /// Note an attempt's failure (or the final outcome) on the target, and a message's outcome
    /// in the table's delivery log.
    async fn record(
        &self,
        table: &str,
        target: &Target,
        error: Option<&str>,
        logged: Option<(&Message, (&str, String))>,
    ) {
        let now = now_ms();
        let own = (logged.is_none() || error.is_none()).then_some((target.id.as_str(), error, now));
        let line = logged
            .map(|(message, (outcome, detail))| log_line(target, message, outcome, detail, now));
        let logged = line.as_ref().map(|l| (target::new_id(), l, LOG_KEPT));
        if let Err(e) = notify_rows::record_delivery(&self.store, table, own, logged).await {
            tracing::debug!(table, error = %e, "a delivery's outcome was not stored");
        }
    }
}

/// Add `item` to a message being gathered, within [`ITEMS`].
fn add(message: &mut Message, item: Item) {
    if message.items.len() < ITEMS {
        message.items.push(item);
    } else {
        message.more += 1;
    }
}

/// A delivery log line.
fn log_line(
    target: &Target,
    message: &Message,
    outcome: &str,
    detail: String,
    now: i64,
) -> notify_rows::LoggedDelivery {
    let kinds: Vec<&str> = message.items.iter().map(|i| i.kind.as_str()).collect();
    let described = format!(
        "{} ({}) {}",
        target.kind.as_str(),
        target.format.as_str(),
        target.id
    );
    notify_rows::LoggedDelivery {
        at: now,
        target: described,
        seat: message.to.clone(),
        kinds: kinds.join(","),
        outcome: outcome.into(),
        detail,
    }
}
