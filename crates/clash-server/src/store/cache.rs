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
struct Kept {
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

/// The generation a read started under (the cache's epoch, the table's), handed back with
/// what it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generation(u64, u64);

impl SideCache {
    fn with<T>(&self, f: impl FnOnce(&mut Tables) -> T) -> T {
        f(&mut self.tables.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// The table's targets if kept, or the generation to read them under.
    pub fn targets(&self, table: &str) -> Result<Vec<StoredTarget>, Generation> {
        self.with(
            |t| match t.kept.get(table).and_then(|k| k.targets.as_ref()) {
                Some(kept) => Ok(kept.clone()),
                None => Err(t.generation(table)),
            },
        )
    }

    /// The table's waits if kept, or the generation to read them under.
    pub fn waits(&self, table: &str) -> Result<HashMap<String, Wait>, Generation> {
        self.with(|t| match t.kept.get(table).and_then(|k| k.waits.as_ref()) {
            Some(kept) => Ok(kept.clone()),
            None => Err(t.generation(table)),
        })
    }

    /// Keep targets read under `read`, unless a write came since.
    pub fn keep_targets(&self, table: &str, read: Generation, targets: &[StoredTarget]) {
        self.keep(table, read, |k| k.targets = Some(targets.to_vec()));
    }

    /// Keep waits read under `read`, unless a write came since.
    pub fn keep_waits(&self, table: &str, read: Generation, waits: &HashMap<String, Wait>) {
        self.keep(table, read, |k| k.waits = Some(waits.clone()));
    }

    fn keep(&self, table: &str, read: Generation, set: impl FnOnce(&mut Kept)) {
        self.with(|t| {
            if t.generation(table) == read {
                set(t.entry(table));
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
        let read = cache.targets("t").unwrap_err();
        cache.keep_targets("t", read, &[target("a")]);
        assert_eq!(cache.targets("t").unwrap(), vec![target("a")]);
        cache.targets_written("t");
        assert!(cache.targets("t").is_err());
    }

    #[test]
    fn a_read_that_raced_a_write_is_not_kept() {
        let cache = SideCache::default();
        let read = cache.targets("t").unwrap_err();
        // The write lands while the read is under way: what it read may be from before.
        cache.targets_written("t");
        cache.keep_targets("t", read, &[]);
        assert!(cache.targets("t").is_err());
        // A read begun after the write is kept.
        let again = cache.targets("t").unwrap_err();
        cache.keep_targets("t", again, &[target("a")]);
        assert_eq!(cache.targets("t").unwrap(), vec![target("a")]);
    }

    #[test]
    fn stored_waits_are_taken_in_and_other_tables_keep_theirs() {
        let cache = SideCache::default();
        let read = cache.waits("t").unwrap_err();
        cache.keep_waits("t", read, &HashMap::from([("p1".to_string(), wait(5))]));
        let other = cache.waits("u").unwrap_err();
        cache.keep_waits("u", other, &HashMap::new());
        cache.waits_written("t", &[("p2".into(), wait(7), true)]);
        let kept = cache.waits("t").unwrap();
        assert_eq!((kept["p1"].spent_ms, kept["p2"].spent_ms), (5, 7));
        assert!(cache.waits("u").unwrap().is_empty());
        // A read of waits begun before the store is not kept over it.
        cache.forget("t");
        let before = cache.waits("t").unwrap_err();
        cache.waits_written("t", &[("p1".into(), wait(9), false)]);
        cache.keep_waits("t", before, &HashMap::new());
        assert!(cache.waits("t").is_err());
    }

    #[test]
    fn a_forgotten_table_keeps_nothing() {
        let cache = SideCache::default();
        let read = cache.targets("t").unwrap_err();
        cache.keep_targets("t", read, &[target("a")]);
        let read = cache.waits("t").unwrap_err();
        cache.keep_waits("t", read, &HashMap::new());
        cache.forget("t");
        assert!(cache.targets("t").is_err() && cache.waits("t").is_err());
    }

    #[test]
    fn a_full_cache_starts_again_and_keeps_no_read_from_before() {
        let cache = SideCache::default();
        let early = cache.targets("late").unwrap_err();
        for n in 0..TABLES {
            let t = format!("t{n}");
            let read = cache.targets(&t).unwrap_err();
            cache.keep_targets(&t, read, &[]);
        }
        // The next table starts the cache again empty.
        let read = cache.targets("one more").unwrap_err();
        cache.keep_targets("one more", read, &[]);
        assert!(cache.targets("t0").is_err());
        assert!(cache.targets("one more").is_ok());
        // A read begun before it started again is not kept.
        cache.keep_targets("late", early, &[target("a")]);
        assert!(cache.targets("late").is_err());
    }
}
