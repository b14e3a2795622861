//! A finished table's record is final: once its secret is revealed, nothing more is chained onto
//! its log, so the record everyone downloads ends with the table's close and the reveal.
//!
//! What still happens at a finished table is housekeeping, kept beside the log: the GM renames
//! or archives it, a player moves their seat to another device or claims an invite to read the
//! record, the GM replaces a shared link. The executor turns such a change into [`Keeping`]
//! ([`after_the_end`]) and refuses anything else: talk, seeds, settings, commands. A finished
//! table's name and archiving are stored in `table_keeping` and override what the log says
//! when the table is read back (each backend reads them with the table).

use crate::error::{Conflict, TableError};
use crate::log::{Entry, TableEvent};
use crate::ops::Change;
pub use crate::store::Keeping;
use crate::table::play::Play;

/// What the refusal says of a change that would add to a final record.
const FINAL: &str = "this table has ended and its record is final: nothing more is added to its log (the GM can still rename, archive or delete it, and players can still read it)";

/// `change` as it may be made to `play`: unchanged while the secret is hidden; once it is out,
/// housekeeping beside the log, or refused.
pub fn after_the_end(play: &Play, change: Change) -> Result<Change, TableError> {
    if !play.revealed {
        return Ok(change);
    }
    let Change::Append {
        entries,
        command,
        links,
        ..
    } = change
    else {
        return Ok(change);
    };
    if command.is_some() {
        return Err(TableError::conflict(Conflict::Closed, FINAL));
    }
    let mut keeping = Keeping {
        links,
        ..Keeping::default()
    };
    for entry in entries {
        let Entry::Table { event } = entry else {
            return Err(TableError::conflict(Conflict::Closed, FINAL));
        };
        match event {
            TableEvent::Renamed { title } => keeping.title = Some(title),
            TableEvent::Archived => keeping.archived = Some(true),
            TableEvent::Unarchived => keeping.archived = Some(false),
            // Who holds which link: the links change, the log does not.
            TableEvent::SeatClaimed { .. }
            | TableEvent::MoveOffered { .. }
            | TableEvent::SeatMoved { .. }
            | TableEvent::LinkReplaced { .. } => {}
            _ => return Err(TableError::conflict(Conflict::Closed, FINAL)),
        }
    }
    Ok(Change::Keep(keeping))
}

impl Play {
    /// Take housekeeping into memory (its links included).
    pub fn keep(&mut self, keeping: &Keeping) {
        if let Some(title) = &keeping.title {
            self.title = title.clone();
        }
        if let Some(archived) = keeping.archived {
            self.archived = archived;
        }
        for link in &keeping.links {
            self.change_link(link.clone());
        }
    }
}
