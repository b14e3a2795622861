//! The server child's own costs that its metrics cannot see: allocations (a counting allocator
//! over mimalloc) and context switches (`getrusage`, which counts every thread the process ever
//! had, the blocking pool's finished ones included).
//!
//! The child writes its counts every 50 ms to the file the benchmark names in its environment
//! ([`COST_FILE`]); the benchmark reads that file at the start and the end of the measured
//! window.

use std::alloc::{GlobalAlloc, Layout};
use std::path::{Path, PathBuf};

/// The environment variable that tells the server child where to write its counts.
pub const COST_FILE: &str = "CLASH_LOAD_COST_FILE";
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// mimalloc with every allocation counted.
pub struct Counting;

/// Counts kept in shards, each written by the threads assigned to it, so that counting does not
/// make every allocation contend for one cache line (which cost the server several percent).
#[repr(align(128))]
struct Shard {
    allocations: AtomicU64,
    bytes: AtomicU64,
}

const SHARDS: usize = 32;

static COUNTS: [Shard; SHARDS] = [const {
    Shard {
        allocations: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
    }
}; SHARDS];

static NEXT_SHARD: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static MY_SHARD: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

fn count(size: usize) {
    let shard = MY_SHARD
        .try_with(|s| {
            if s.get() == usize::MAX {
                s.set(NEXT_SHARD.fetch_add(1, Ordering::Relaxed) as usize % SHARDS);
            }
            s.get()
        })
        .unwrap_or(0);
    let shard = &COUNTS[shard];
    shard.allocations.fetch_add(1, Ordering::Relaxed);
    shard.bytes.fetch_add(size as u64, Ordering::Relaxed);
}

fn totals() -> (u64, u64) {
    COUNTS.iter().fold((0, 0), |(n, b), s| {
        (
            n + s.allocations.load(Ordering::Relaxed),
            b + s.bytes.load(Ordering::Relaxed),
        )
    })
}

// SAFETY: every call is passed on unchanged to mimalloc, which upholds GlobalAlloc's contract.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }
}

/// The child's counts at one moment.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub allocations: u64,
    pub allocated_bytes: u64,
    /// Voluntary and involuntary context switches of every thread the process has had.
    pub switches: u64,
}

impl Counts {
    fn now() -> Counts {
        let (allocations, allocated_bytes) = totals();
        Counts {
            allocations,
            allocated_bytes,
            switches: switches(),
        }
    }

    /// What was counted between `self` (earlier) and `later`.
    pub fn since(&self, later: &Counts) -> Counts {
        Counts {
            allocations: later.allocations.saturating_sub(self.allocations),
            allocated_bytes: later.allocated_bytes.saturating_sub(self.allocated_bytes),
            switches: later.switches.saturating_sub(self.switches),
        }
    }

    /// The counts a child last wrote to `path` (all zero if it wrote none).
    pub fn read(path: &Path) -> Counts {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut n = text.split_whitespace().map(|w| w.parse().unwrap_or(0));
        Counts {
            allocations: n.next().unwrap_or(0),
            allocated_bytes: n.next().unwrap_or(0),
            switches: n.next().unwrap_or(0),
        }
    }
}

fn switches() -> u64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    (usage.ru_nvcsw + usage.ru_nivcsw) as u64
}

/// In the child: write the counts to the file named by [`COST_FILE`] (if any) every 50 ms,
/// from a thread of its own, for as long as the process lives.
pub fn report() {
    let Some(path) = std::env::var_os(COST_FILE).map(PathBuf::from) else {
        return;
    };
    let partial = {
        let mut name = path.clone().into_os_string();
        name.push(".new");
        PathBuf::from(name)
    };
    let _ = std::thread::Builder::new()
        .name("cost-report".into())
        .spawn(move || {
            loop {
                let c = Counts::now();
                let line = format!("{} {} {}\n", c.allocations, c.allocated_bytes, c.switches);
                // Written aside and renamed, so a reader never sees half a line.
                if std::fs::write(&partial, line).is_ok() {
                    let _ = std::fs::rename(&partial, &path);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
}
