//! One running server: the registry of its tables ([`Tables`]) and the services that work on
//! them — the executor every change runs through ([`crate::executor`]), the seats' bots
//! ([`crate::bots`]), the notifier ([`crate::notify`]), live streams' allowances
//! ([`crate::view::stream`]) and the metrics. It is the HTTP layer's state: a handler asks it for a
//! table and runs an operation through it.
//!
//! The registry knows tables and the store only; what runs around a table (bots acting, a
//! message queued, a counter moved) is decided here, so the registry can be read on its own.

use std::sync::Arc;

use clash_core::RulesetEntry;

use crate::config::Limits;
use crate::error::TableError;
use crate::metrics::Metrics;
use crate::notify::news::Notifier;
use crate::setups::Preset;
use crate::store::Store;
use crate::table::Table;
use crate::tables::Tables;

pub struct Server {
    tables: Arc<Tables>,
    notifier: Notifier,
    metrics: Arc<Metrics>,
}

impl Server {
    /// A server over `store` offering `catalogue`. Nothing is read until a table is asked for.
    pub fn new(store: Store, catalogue: Vec<RulesetEntry>, limits: Limits) -> Server {
        let metrics = Arc::new(Metrics::new());
        Server {
            notifier: Notifier::new(limits.notify.clone(), store.clone()),
            tables: Arc::new(Tables::new(store, catalogue, limits, metrics.clone())),
            metrics,
        }
    }

    /// The table `id`, read back from its log if it is not in memory. A table read back with
    /// bots in its seats: they go on where they were.
    pub async fn table(self: &Arc<Self>, id: &str) -> Result<Arc<Table>, TableError> {
        let (table, read_back) = self.tables.fetch(id).await?;
        if read_back && table.seated_bots() {
            self.run_bots(&table);
        }
        Ok(table)
    }

    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    pub fn notifier(&self) -> &Notifier {
        &self.notifier
    }

    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    pub fn store(&self) -> &Store {
        self.tables.store()
    }

    pub fn limits(&self) -> &Limits {
        self.tables.limits()
    }

    pub fn catalogue(&self) -> &[RulesetEntry] {
        self.tables.catalogue()
    }

    pub fn entry(&self, ruleset: &str) -> Option<RulesetEntry> {
        self.tables.entry(ruleset)
    }

    /// The ready-made setups of `ruleset`, best first.
    pub fn presets(&self, ruleset: &str) -> &[Preset] {
        self.tables.presets(ruleset)
    }
}
