//! What a seat sends ([`Command`]) and what happens ([`Event`]): each either part of a conflict
//! or of the wider campaign, written the same way in JSON (`{"type": "...", ...}`).

use serde::{Deserialize, Deserializer, Serialize};

use crate::{CampaignCommand, CampaignEvent, ConflictCommand, ConflictEvent};

/// A command from a seat: either part of a conflict or of the wider campaign.
///
/// In JSON both kinds are written the same way, `{"type": "...", ...}`.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Command {
    Conflict(ConflictCommand),
    Campaign(CampaignCommand),
}

/// Something that happened at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Event {
    Conflict(ConflictEvent),
    Campaign(CampaignEvent),
}

/// Read `{"type": ...}` as whichever of the two families knows that type, so a typo gets one
/// clear error instead of serde's "did not match any variant".
fn either<'de, D, A, B, T>(d: D, left: fn(A) -> T, right: fn(B) -> T) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    A: serde::de::DeserializeOwned,
    B: serde::de::DeserializeOwned,
{
    use serde::de::Error;
    let value = serde_json::Value::deserialize(d)?;
    let a = A::deserialize(&value);
    if let Ok(a) = a {
        return Ok(left(a));
    }
    let b = B::deserialize(&value);
    match (a, b) {
        (_, Ok(b)) => Ok(right(b)),
        (Err(ea), Err(eb)) => {
            let (ea, eb) = (ea.to_string(), eb.to_string());
            // Report the family that recognised the type; if neither did, say so once.
            let msg = match (
                ea.starts_with("unknown variant"),
                eb.starts_with("unknown variant"),
            ) {
                (false, _) => ea,
                (true, false) => eb,
                (true, true) => format!(
                    "unknown type: {}",
                    value
                        .get("type")
                        .map_or("(missing)".into(), |t| t.to_string())
                ),
            };
            Err(D::Error::custom(msg))
        }
        (Ok(_), _) => unreachable!("handled above"),
    }
}

impl<'de> Deserialize<'de> for Command {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        either(d, Command::Conflict, Command::Campaign)
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        either(d, Event::Conflict, Event::Campaign)
    }
}
