//! A player exchanges their invite for a key of their own, which the GM never sees; or moves
//! their seat to another device with the one-time link their own page made
//! ([`super::move_seat`]), which ends the key of the device they leave. What the player kept
//! beside the table under that key (notification targets, their handle) goes with them to the
//! new one, in the same transaction.
//!
//! The link exchanged stays behind as a tombstone ([`LinkStatus::Used`]), and so does a key
//! given up by a move ([`LinkStatus::Moved`]): opening either again says what became of it.
//!
//! A claim is idempotent: sent with a request id (the `X-Request-Id` header, or the invite
//! page's own), it stores a proof of the link and that id (`SHA-256("clash-claim-v1" 0x00 table
//! 0x00 link 0x00 id)`, never the id) beside the key it gave, so a retry of the same request —
//! its answer lost, the server restarted — gets the same key while that key still plays the
//! seat, and the lost answer costs nothing. The GM, who knows the invite, does not know the
//! player's request id; ids shorter than [`PROOF_ID`] characters (as the server makes its own)
//! are not remembered.

use clash_core::Seat;
use sha2::{Digest, Sha256};

use super::{Actor, At, Change, Decision, Operation, When, Who, sealed};
use crate::error::{Conflict, TableError};
use crate::log::{TableEvent, hex};
use crate::store::side;
use crate::store::{LinkChange, LinkStatus, StoredLink};
use crate::table::links::{new_key, plain_word};

/// The fewest characters of a request id a claim remembers (a UUID has 36).
pub const PROOF_ID: usize = 16;

pub struct Claim {
    pub invite: String,
    /// The client's id for this request, if it sent one.
    pub request: Option<String>,
}

impl sealed::Sealed for Claim {}

impl Operation for Claim {
    /// The seat, and the player's own key.
    type Answer = (Seat, String);

    fn who(&self) -> Who<'_> {
        Who::Invite { key: &self.invite }
    }

    fn when(&self) -> When {
        When::ANY
    }

    /// The same person before and after: an invite's player was chosen when the GM issued it
    /// (the guard looked then, and nobody acts for a seat while its invite is out), and a move
    /// link is made by the seat's own player for their own other device.
    fn same_person(&self) -> bool {
        true
    }

    async fn decide(&self, at: &At<'_>) -> Result<Decision<(Seat, String)>, TableError> {
        let Actor::Invite {
            key: used,
            seat,
            moving,
            used: spent,
        } = at.actor
        else {
            return Err(TableError::BadKey);
        };
        let proof = self.proof(at, used);
        if *spent {
            return again(at, *seat, proof).await;
        }
        let key = new_key();
        let mut links = vec![
            LinkChange::SetStatus {
                key: used.clone(),
                status: LinkStatus::Used,
            },
            LinkChange::Add(StoredLink {
                key: key.clone(),
                role: seat.to_string(),
                status: LinkStatus::Active,
            }),
        ];
        if let Some(proof) = proof {
            links.push(LinkChange::Claimed {
                key: key.clone(),
                proof,
            });
        }
        let event = if *moving {
            links.splice(0..0, left_behind(at, *seat, &key)?);
            TableEvent::SeatMoved { seat: *seat }
        } else {
            TableEvent::SeatClaimed { seat: *seat }
        };
        Ok(Decision::change(
            Change::table(vec![event], links),
            (*seat, key),
        ))
    }
}

impl Claim {
    /// The proof this claim leaves of its link and request id, when it has an id to remember.
    fn proof(&self, at: &At<'_>, link: &str) -> Option<String> {
        let id = self.request.as_deref()?;
        if id.len() < PROOF_ID || !plain_word(id, 100) {
            return None;
        }
        let mut h = Sha256::new();
        for part in [
            b"clash-claim-v1".as_slice(),
            at.table.id.as_bytes(),
            link.as_bytes(),
        ] {
            h.update(part);
            h.update([0]);
        }
        h.update(id.as_bytes());
        Some(hex(&h.finalize()))
    }
}

/// A retry of the claim that used this link: the key it gave, while that key still plays the
/// seat (or watches it while the GM plays it); otherwise the link is simply used.
async fn again(
    at: &At<'_>,
    seat: Seat,
    proof: Option<String>,
) -> Result<Decision<(Seat, String)>, TableError> {
    let proof = proof.ok_or(TableError::InviteUsed)?;
    let given = side::claimed(at.store, &at.table.id, &proof)
        .await
        .map_err(|e| TableError::storage(e.to_string()))?;
    let role = seat.to_string();
    let holds = |key: &str| {
        at.play.links.iter().any(|l| {
            l.key == key
                && l.role == role
                && matches!(l.status, LinkStatus::Active | LinkStatus::Suspended)
        })
    };
    match given {
        Some(key) if holds(&key) => Ok(Decision::nothing((seat, key))),
        _ => Err(TableError::InviteUsed),
    }
}

/// The keys of the device a player moves their seat from: each becomes a tombstone, and what it
/// kept beside the table goes to `to`. A move link without a player's key beside it (the GM
/// took the seat over since) moves nothing.
fn left_behind(at: &At<'_>, seat: Seat, to: &str) -> Result<Vec<LinkChange>, TableError> {
    let role = seat.to_string();
    let old: Vec<LinkChange> = at
        .play
        .links
        .iter()
        .filter(|l| l.role == role && l.status == LinkStatus::Active)
        .flat_map(|l| {
            [
                LinkChange::SetStatus {
                    key: l.key.clone(),
                    status: LinkStatus::Moved,
                },
                LinkChange::Follow {
                    from: l.key.clone(),
                    to: to.to_string(),
                },
            ]
        })
        .collect();
    if old.is_empty() {
        return Err(TableError::conflict(
            Conflict::NotInvite,
            format!(
                "this link no longer moves {}: its player does not hold the seat now",
                at.name(seat)
            ),
        ));
    }
    Ok(old)
}
