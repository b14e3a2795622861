//! The GM replaces their own link or the watch link: the old key stops working at once (its open
//! pages are told), and everyone's log says so. What the GM kept beside the table under the old
//! key (the table channel, their own notifications and handle) goes with them to the new one, in
//! the same transaction.

use super::{At, Change, Decision};
use crate::error::TableError;
use crate::log::TableEvent;
use crate::store::{LinkChange, LinkStatus, StoredLink};
use crate::table::links::{Role, new_key};

/// Which shared link to replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharedLink {
    Owner,
    Spectator,
}

pub struct ReplaceLink {
    pub key: String,
    pub which: SharedLink,
}

gm_operation!(ReplaceLink => String, super::When::ANY, "only the GM's link can replace the GM's or the watch link");

impl ReplaceLink {
    async fn decided(&self, at: &At<'_>) -> Result<Decision<String>, TableError> {
        let role = match self.which {
            SharedLink::Owner => Role::Owner,
            SharedLink::Spectator => Role::Spectator,
        };
        let fresh = new_key();
        let mut links = vec![
            LinkChange::RemoveRole(role.to_string()),
            LinkChange::Add(StoredLink {
                key: fresh.clone(),
                role: role.to_string(),
                status: LinkStatus::Active,
            }),
        ];
        // The GM's targets follow the GM; the watch link, shared by everyone, has none.
        if role == Role::Owner {
            let old = at.play.links.iter().filter(|l| l.role == role.to_string());
            links.extend(old.map(|l| LinkChange::Follow {
                from: l.key.clone(),
                to: fresh.clone(),
            }));
        }
        let events = vec![TableEvent::LinkReplaced {
            link: role.to_string(),
        }];
        Ok(Decision::change(Change::table(events, links), fresh))
    }
}
