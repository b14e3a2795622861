//! What each command costs: database round trips and durable commits (from the servers' own
//! metrics), server CPU, and, on PostgreSQL, the database cluster's own CPU.

use std::net::{Ipv4Addr, SocketAddr};

use crate::wire::{Error, Http};

/// The servers' counters at one moment, summed over every node.
#[derive(Debug, Default, Clone)]
pub struct Counters {
    commands: f64,
    round_trips: f64,
    /// Viewers' pictures computed, bytes of updates serialized for viewers, and work handed
    /// from one thread or task to another (`clash_handoffs`).
    pictures: f64,
    bytes: f64,
    handoffs: f64,
    /// Cumulative counts of `clash_db_commit_seconds` by upper bound (seconds), in order.
    commits: Vec<(f64, f64)>,
}

impl Counters {
    pub async fn read(nodes: &[SocketAddr]) -> Counters {
        let mut sum = Counters::default();
        for addr in nodes {
            let Ok(text) = metrics(*addr).await else {
                continue;
            };
            sum.commands += value(&text, "clash_commands_total");
            sum.round_trips += value(&text, "clash_db_round_trips_total");
            sum.pictures += value(&text, "clash_updates_computed_total");
            sum.bytes += value(&text, "clash_update_bytes_total");
            sum.handoffs += value(&text, "clash_handoffs_total");
            let buckets = commit_buckets(&text);
            if sum.commits.is_empty() {
                sum.commits = buckets;
            } else {
                for ((_, total), (_, n)) in sum.commits.iter_mut().zip(buckets) {
                    *total += n;
                }
            }
        }
        sum
    }

    /// Pictures computed, bytes serialized and handoffs per command between `self` (earlier)
    /// and `later`.
    pub fn parts(&self, later: &Counters) -> (f64, f64, f64) {
        let commands = (later.commands - self.commands).max(1.0);
        (
            (later.pictures - self.pictures) / commands,
            (later.bytes - self.bytes) / commands,
            (later.handoffs - self.handoffs) / commands,
        )
    }

    /// Round trips per command between `self` (earlier) and `later`, and the commit time
    /// (seconds) that 99% of the commits in between took at most (a bucket's upper bound).
    pub fn since(&self, later: &Counters) -> (f64, f64, Option<f64>, u64) {
        let commands = later.commands - self.commands;
        let trips = (later.round_trips - self.round_trips) / commands.max(1.0);
        let counts: Vec<(f64, f64)> = later
            .commits
            .iter()
            .enumerate()
            .map(|(i, (le, n))| (*le, n - self.commits.get(i).map_or(0.0, |b| b.1)))
            .collect();
        let total = counts.last().map_or(0.0, |b| b.1);
        let p99 = counts.iter().find(|(_, n)| *n >= 0.99 * total).map(|b| b.0);
        (commands, trips, p99.filter(|_| total > 0.0), total as u64)
    }
}

async fn metrics(addr: SocketAddr) -> Result<String, Error> {
    let mut http = Http::connect(addr, Ipv4Addr::LOCALHOST).await?;
    Ok(http.text("GET", "/metrics").await?.1)
}

/// The value of an unlabelled metric.
pub fn value(text: &str, name: &str) -> f64 {
    text.lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(0.0)
}

fn commit_buckets(text: &str) -> Vec<(f64, f64)> {
    let prefix = "clash_db_commit_seconds_bucket{le=\"";
    text.lines()
        .filter_map(|l| {
            let (le, count) = l.strip_prefix(prefix)?.split_once("\"} ")?;
            let le = if le == "+Inf" {
                f64::INFINITY
            } else {
                le.parse().ok()?
            };
            Some((le, count.parse().ok()?))
        })
        .collect()
}

/// CPU seconds (user + system) a process has used so far, with (`children`) what its children
/// that have ended used.
pub fn cpu_seconds(pid: u32, children: bool) -> f64 {
    let fields = stat(pid);
    // After the command name: utime and stime are fields 14 and 15, cutime and cstime 16 and 17.
    let wanted: &[usize] = if children {
        &[11, 12, 13, 14]
    } else {
        &[11, 12]
    };
    let ticks: f64 = wanted
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<f64>().ok())
        .sum();
    // Linux reports these in clock ticks of 1/100 s.
    ticks / 100.0
}

/// The fields of `/proc/PID/stat` after the command name.
fn stat(pid: u32) -> Vec<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    rest.split_whitespace().map(str::to_string).collect()
}

fn parent(pid: u32) -> Option<u32> {
    stat(pid).get(1)?.parse().ok()
}

/// The PostgreSQL cluster behind a URL, found through the server process that answers it (its
/// parent is the cluster's postmaster): only a cluster on this machine can be measured.
pub struct Cluster {
    postmaster: u32,
}

impl Cluster {
    pub async fn find(url: &str) -> Result<Cluster, Error> {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await?;
        let driver = tokio::spawn(connection);
        let backend: i32 = client
            .query_one("SELECT pg_backend_pid()", &[])
            .await?
            .get(0);
        let postmaster = parent(backend as u32).ok_or("the database is not on this machine")?;
        drop(client);
        let _ = driver.await;
        Ok(Cluster { postmaster })
    }

    /// CPU seconds the whole cluster has used: the postmaster with the processes it reaped,
    /// and every process it runs now.
    pub fn cpu_seconds(&self) -> f64 {
        let running: f64 = std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| parent(pid) == Some(self.postmaster))
            .map(|pid| cpu_seconds(pid, false))
            .sum();
        cpu_seconds(self.postmaster, true) + running
    }
}
