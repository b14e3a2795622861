//! What the server is doing, for `/metrics` (OpenMetrics text, which Prometheus reads):
//! requests and their latency by route, commands and their latency, tables in memory, live
//! streams, connections, everything a limit refused, and the database's round trips and commits.

use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// A request's route (the pattern, never the path: that would hold table ids and keys).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub method: String,
    pub route: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteOnly {
    pub route: String,
}

/// Why something was refused or dropped by a limit.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Reason {
    pub reason: &'static str,
}

/// Every metric the server keeps.
pub struct Metrics {
    registry: Mutex<Registry>,
    pub requests: Family<RouteLabels, Counter>,
    pub request_seconds: Family<RouteOnly, Histogram, fn() -> Histogram>,
    pub commands: Counter,
    pub command_seconds: Histogram,
    pub updates_computed: Counter,
    pub update_seconds: Histogram,
    pub tables_loaded: Gauge,
    pub table_loads: Counter,
    pub table_unloads: Counter,
    pub tables_created: Counter,
    pub streams_open: Gauge,
    pub connections_open: Gauge,
    pub refused: Family<Reason, Counter>,
}

/// What the storage backends count. The store is opened before the tables (and their
/// [`Metrics`]) exist, and one process has one store, so the backends count here and every
/// [`Metrics`] shows it.
pub struct Database {
    /// Requests that wait for the database's answer: a network round trip on PostgreSQL
    /// (a pipeline of statements counts once), a read or a group commit on SQLite.
    pub round_trips: Counter,
    /// Time from a write's arrival at the backend to its durable commit.
    pub commit_seconds: Histogram,
}

pub static DATABASE: LazyLock<Database> = LazyLock::new(|| Database {
    round_trips: Counter::default(),
    // 0.5 ms to about 4 s, finer than `latency` around the tens of milliseconds a commit takes.
    commit_seconds: Histogram::new(exponential_buckets(0.0005, 1.5, 23)),
});

/// What a command's cost is made of, counted where it is spent (anywhere in the process).
pub struct Cost {
    /// Work handed from one thread or task to another and waited for: a job for the blocking
    /// pool, a task spawned, a message to the database writer, a live stream woken.
    pub handoffs: Counter,
    /// Bytes of viewers' updates serialized: answers and live-stream messages.
    pub update_bytes: Counter,
}

pub static COST: LazyLock<Cost> = LazyLock::new(|| Cost {
    handoffs: Counter::default(),
    update_bytes: Counter::default(),
});

fn latency() -> Histogram {
    // 0.25 ms to about 8 s.
    Histogram::new(exponential_buckets(0.00025, 2.0, 16))
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let m = Metrics {
            registry: Mutex::new(Registry::with_prefix("clash")),
            requests: Family::default(),
            request_seconds: Family::new_with_constructor(latency),
            commands: Counter::default(),
            command_seconds: latency(),
            updates_computed: Counter::default(),
            update_seconds: latency(),
            tables_loaded: Gauge::default(),
            table_loads: Counter::default(),
            table_unloads: Counter::default(),
            tables_created: Counter::default(),
            streams_open: Gauge::default(),
            connections_open: Gauge::default(),
            refused: Family::default(),
        };
        m.register();
        m
    }

    fn register(&self) {
        let mut r = self.registry.lock().unwrap_or_else(|p| p.into_inner());
        r.register(
            "http_requests",
            "HTTP requests answered, by route and status",
            self.requests.clone(),
        );
        r.register(
            "http_request_seconds",
            "Time to answer a request (live streams excluded), by route",
            self.request_seconds.clone(),
        );
        r.register(
            "commands",
            "Commands accepted and committed",
            self.commands.clone(),
        );
        r.register(
            "command_seconds",
            "Time from a command's arrival to its acknowledgement (after the commit)",
            self.command_seconds.clone(),
        );
        r.register(
            "updates_computed",
            "Updates computed for one viewer at one revision (shared by that viewer's streams)",
            self.updates_computed.clone(),
        );
        r.register(
            "update_seconds",
            "Time to compute one viewer's update (its picture), not counting the wait for a free core",
            self.update_seconds.clone(),
        );
        r.register(
            "tables_loaded",
            "Tables in memory now",
            self.tables_loaded.clone(),
        );
        r.register(
            "table_loads",
            "Tables read back from their log into memory",
            self.table_loads.clone(),
        );
        r.register(
            "table_unloads",
            "Idle tables that left memory",
            self.table_unloads.clone(),
        );
        r.register(
            "tables_created",
            "Tables created",
            self.tables_created.clone(),
        );
        r.register(
            "streams_open",
            "Live update streams open now",
            self.streams_open.clone(),
        );
        r.register(
            "connections_open",
            "HTTP connections open now",
            self.connections_open.clone(),
        );
        r.register(
            "db_round_trips",
            "Requests that waited for the database: network round trips on PostgreSQL (a pipeline counts once), reads and group commits on SQLite",
            DATABASE.round_trips.clone(),
        );
        r.register(
            "db_commit_seconds",
            "Time from a write's arrival at the storage backend to its durable commit",
            DATABASE.commit_seconds.clone(),
        );
        r.register(
            "handoffs",
            "Work handed from one thread or task to another: blocking-pool jobs, spawned tasks, messages to the database writer, live streams woken",
            COST.handoffs.clone(),
        );
        r.register(
            "update_bytes",
            "Bytes of viewers' updates serialized (answers and live-stream messages)",
            COST.update_bytes.clone(),
        );
        r.register(
            "refused",
            "Requests, connections and streams refused or dropped by a limit, by reason",
            self.refused.clone(),
        );
    }

    /// Count one refusal or drop for `reason`.
    pub fn refuse(&self, reason: &'static str) {
        self.refused.get_or_create(&Reason { reason }).inc();
    }

    pub fn observe_request(&self, method: &str, route: &str, status: u16, took: Option<Duration>) {
        self.requests
            .get_or_create(&RouteLabels {
                method: method.to_string(),
                route: route.to_string(),
                status,
            })
            .inc();
        if let Some(took) = took {
            self.request_seconds
                .get_or_create(&RouteOnly {
                    route: route.to_string(),
                })
                .observe(took.as_secs_f64());
        }
    }

    /// Everything, in the OpenMetrics text format.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        let registry = self.registry.lock().unwrap_or_else(|p| p.into_inner());
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &registry);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_names_every_metric_with_its_help() {
        let m = Metrics::new();
        m.commands.inc();
        m.refuse("connections_per_address");
        m.observe_request(
            "POST",
            "/api/tables/{id}/commands",
            200,
            Some(Duration::from_millis(3)),
        );
        let text = m.encode();
        assert!(text.contains("# HELP clash_commands Commands accepted and committed"));
        assert!(text.contains("clash_commands_total 1"), "{text}");
        assert!(text.contains("clash_refused_total{reason=\"connections_per_address\"} 1"));
        assert!(text.contains(
            "clash_http_requests_total{method=\"POST\",route=\"/api/tables/{id}/commands\",status=\"200\"} 1"
        ));
        assert!(text.contains("clash_http_request_seconds_bucket"));
        assert!(text.ends_with("# EOF\n"));
    }
}
