//! What a single-node store keeps in memory of the rows beside each table that the notifier
//! reads after every change: the table's notification targets and its seats' waits.
//!
//! Only a store no other node writes to keeps one ([`super::Storage::side_cache`]): every write
//! of these rows then passes through this process, and each says what it changed. A read that
//! raced a write is not kept: each write bumps the table's generation once it is durable, and
//! a read is kept only if the generation it started under is still current.

use std::collections::HashMap;
use std::sync::Mutex;

use super::notify::{StoredTarget, Wait};

/// How many tables' rows are kept at most; past this the cache starts again empty.
const TABLES: usize = 4096;

/// One table's rows, each kind kept once it has been read.
#[derive(Default)]
pub struct Kept {
    generation: u64,
    targets: Option<Vec<StoredTarget>>,
    waits: Option<HashMap<String, Wait>>,
}

#[derive(Default)]
struct Tables {
    /// Bumped each time the cache starts again empty: no read from before is kept.
    epoch: u64,
    kept: HashMap<String, Kept>,
}

impl Tables {
    fn generation(&self, table: &str) -> Generation {
        let of_table = self.kept.get(table).map_or(0, |k| k.generation);
        Generation(self.epoch, of_table)
    }

    /// The table's entry, made (after starting again empty if the cache is full) if missing.
    fn entry(&mut self, table: &str) -> &mut Kept {
        if self.kept.len() >= TABLES && !self.kept.contains_key(table) {
            self.kept.clear();
            self.epoch += 1;
        }
        self.kept.entry(table.to_string()).or_default()
    }

    /// A write of `table` is durable: reads begun before it are not kept.
    fn written(&mut self, table: &str) -> &mut Kept {
        let kept = self.entry(table);
        kept.generation += 1;
        kept
    }
}

/// The notifier's rows of recently changed tables.
#[derive(Default)]
pub struct SideCache {
    tables: Mutex<Tables>,
}

/// A kind of row the cache keeps: a table's targets, or its seats' waits.
pub trait Cached: Clone {
    /// Where a table's rows of this kind are kept.
    fn slot(kept: &mut Kept) -> &mut Option<Self>;
}

impl Cached for Vec<StoredTarget> {
    fn slot(kept: &mut Kept) -> &mut Option<Self> {
        &mut kept.targets
    }
}

impl Cached for HashMap<String, Wait> {
    fn slot(kept: &mut Kept) -> &mut Option<Self> {
        &mut kept.waits
    }
}

/// The generation a read started under (the cache's epoch, the table's), handed back with
/// what it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generation(u64, u64);

impl SideCache {
    fn with<T>(&self, f: impl FnOnce(&mut Tables) -> T) -> T {
        f(&mut self.tables.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// The table's rows of this kind if kept, or the generation to read them under.
    pub fn get<T: Cached>(&self, table: &str) -> Result<T, Generation> {
        self.with(
            |t| match t.kept.get_mut(table).and_then(|k| T::slot(k).clone()) {
                Some(kept) => Ok(kept),
                None => Err(t.generation(table)),
            },
        )
    }

    /// Keep rows read under `read`, unless a write came since.
    pub fn keep<T: Cached>(&self, table: &str, read: Generation, rows: &T) {
        self.with(|t| {
            if t.generation(table) == read {
                *T::slot(t.entry(table)) = Some(rows.clone());
            }
        });
    }

    /// The table's targets changed (or may have): read them again next time.
    pub fn targets_written(&self, table: &str) {
        self.with(|t| t.written(table).targets = None);
    }

    /// These seats' waits were stored: what is kept of the table's waits takes them in.
    pub fn waits_written(&self, table: &str, stored: &[(String, Wait, bool)]) {
        self.with(|t| {
            if let Some(waits) = &mut t.written(table).waits {
                for (seat, wait, _) in stored {
                    waits.insert(seat.clone(), wait.clone());
                }
            }
        });
    }

    /// The table is gone, or was stored again whole: nothing of it is kept.
    pub fn forget(&self, table: &str) {
        self.with(|t| {
            let kept = t.written(table);
            (kept.targets, kept.waits) = (None, None);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(id: &str) -> StoredTarget {
        StoredTarget {
            id: id.into(),
            key: "k".into(),
            kind: "webhook".into(),
            format: "json".into(),
            address: "https://example.test/hook".into(),
            secret: "s".into(),
            failures: 0,
            last_error: None,
            last_error_at: None,
            last_ok_at: None,
        }
    }

    fn wait(spent_ms: i64) -> Wait {
        Wait {
            spent_ms,
            ..Wait::default()
        }
    }

    #[test]
    fn a_read_is_kept_until_a_write() {
        let cache = SideCache::default();
        let read = cache.get::<Vec<StoredTarget>>("t").unwrap_err();
        cache.keep("t", read, &vec![target("a")]);
        assert_eq!(
            cache.get::<Vec<StoredTarget>>("t").unwrap(),
            vec![target("a")]
        );
        cache.targets_written("t");
        assert!(cache.get::<Vec<StoredTarget>>("t").is_err());
    }

    #[test]
    fn a_read_that_raced_a_write_is_not_kept() {
        let cache = SideCache::default();
        let read = cache.get::<Vec<StoredTarget>>("t").unwrap_err();
        // The write lands while the read is under way: what it read may be from before.
        cache.targets_written("t");
        cache.keep("t", read, &Vec::<StoredTarget>::new());
        assert!(cache.get::<Vec<StoredTarget>>("t").is_err());
        // A read begun after the write is kept.
        let again = cache.get::<Vec<StoredTarget>>("t").unwrap_err();
        cache.keep("t", again, &vec![target("a")]);
        assert_eq!(
            cache.get::<Vec<StoredTarget>>("t").unwrap(),
            vec![target("a")]
        );
    }

    #[test]
    fn stored_waits_are_taken_in_and_other_tables_keep_theirs() {
        let cache = SideCache::default();
        let read = cache.get::<HashMap<String, Wait>>("t").unwrap_err();
        cache.keep("t", read, &HashMap::from([("p1".to_string(), wait(5))]));
        let other = cache.get::<HashMap<String, Wait>>("u").unwrap_err();
        cache.keep("u", other, &HashMap::<String, Wait>::new());
        cache.waits_written("t", &[("p2".into(), wait(7), true)]);
        let kept = cache.get::<HashMap<String, Wait>>("t").unwrap();
        assert_eq!((kept["p1"].spent_ms, kept["p2"].spent_ms), (5, 7));
        assert!(cache.get::<HashMap<String, Wait>>("u").unwrap().is_empty());
        // A read of waits begun before the store is not kept over it.
        cache.forget("t");
        let before = cache.get::<HashMap<String, Wait>>("t").unwrap_err();
        cache.waits_written("t", &[("p1".into(), wait(9), false)]);
        cache.keep("t", before, &HashMap::<String, Wait>::new());
        assert!(cache.get::<HashMap<String, Wait>>("t").is_err());
    }

    #[test]
    fn a_forgotten_table_keeps_nothing() {
        let cache = SideCache::default();
        let read = cache.get::<Vec<StoredTarget>>("t").unwrap_err();
        cache.keep("t", read, &vec![target("a")]);
        let read = cache.get::<HashMap<String, Wait>>("t").unwrap_err();
        cache.keep("t", read, &HashMap::<String, Wait>::new());
        cache.forget("t");
        assert!(
            cache.get::<Vec<StoredTarget>>("t").is_err()
                && cache.get::<HashMap<String, Wait>>("t").is_err()
        );
    }

    #[test]
    fn a_full_cache_starts_again_and_keeps_no_read_from_before() {
        let cache = SideCache::default();
        let early = cache.get::<Vec<StoredTarget>>("late").unwrap_err();
        for n in 0..TABLES {
            let t = format!("t{n}");
            let read = cache.get::<Vec<StoredTarget>>(&t).unwrap_err();
            cache.keep(&t, read, &Vec::<StoredTarget>::new());
        }
        // The next table starts the cache again empty.
        let read = cache.get::<Vec<StoredTarget>>("one more").unwrap_err();
        cache.keep("one more", read, &Vec::<StoredTarget>::new());
        assert!(cache.get::<Vec<StoredTarget>>("t0").is_err());
        assert!(cache.get::<Vec<StoredTarget>>("one more").is_ok());
        // A read begun before it started again is not kept.
        cache.keep("late", early, &vec![target("a")]);
        assert!(cache.get::<Vec<StoredTarget>>("late").is_err());
    }
}
