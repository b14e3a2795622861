//! The twelve specials and their twenty variations (IT-56, IT-58, IT-59): what they are and what
//! learning them requires. Their effects inside a conflict live in `specials.rs`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::moves::Action;

/// One learnable special. Variations marked (X) in IT-58 carry their action.
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export_to = "iron-triangle/"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "special", content = "action", rename_all = "snake_case")]
pub enum Special {
    Scouter,
    ToBlave,
    ThereCanBeOnlyOne,
    PressurePoint,
    WaxOn(Action),
    SantaCarla(Action),
    DigTwoGraves(Action),
    IAlreadyKnow(Action),
    Yojimbo,
    LiquidMetal,
    DrunkenMonkey,
    WayOfTheSamurai,
}

/// What a character must have to learn a special (IT-59 "Requires", checked at learning: IT-56).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Requirement {
    pub level: u8,
    /// Another special that must already be known (Dig Two Graves needs the matching Wax On).
    pub needs: Option<Special>,
    /// The Way of the Samurai is for PCs only.
    pub pc_only: bool,
}

impl Special {
    /// All twenty variations in list order (IT-56, IT-59).
    pub fn all() -> Vec<Special> {
        let mut all = vec![
            Special::Scouter,
            Special::ToBlave,
            Special::ThereCanBeOnlyOne,
            Special::PressurePoint,
        ];
        for family in [
            Special::WaxOn,
            Special::SantaCarla,
            Special::DigTwoGraves,
            Special::IAlreadyKnow,
        ] {
            all.extend(Action::ALL.map(family));
        }
        all.extend([
            Special::Yojimbo,
            Special::LiquidMetal,
            Special::DrunkenMonkey,
            Special::WayOfTheSamurai,
        ]);
        all
    }

    /// Position on the IT-59 list, from 1; clashes are settled by the lowest (IT-57).
    pub fn list_number(self) -> u8 {
        match self {
            Special::Scouter => 1,
            Special::ToBlave => 2,
            Special::ThereCanBeOnlyOne => 3,
            Special::PressurePoint => 4,
            Special::WaxOn(_) => 5,
            Special::SantaCarla(_) => 6,
            Special::DigTwoGraves(_) => 7,
            Special::IAlreadyKnow(_) => 8,
            Special::Yojimbo => 9,
            Special::LiquidMetal => 10,
            Special::DrunkenMonkey => 11,
            Special::WayOfTheSamurai => 12,
        }
    }

    pub fn requirement(self) -> Requirement {
        let level = |level| Requirement {
            level,
            needs: None,
            pc_only: false,
        };
        match self {
            Special::Scouter
            | Special::ToBlave
            | Special::ThereCanBeOnlyOne
            | Special::PressurePoint
            | Special::WaxOn(_) => level(0),
            Special::SantaCarla(_) | Special::Yojimbo => level(5),
            Special::DigTwoGraves(x) => Requirement {
                level: 5,
                needs: Some(Special::WaxOn(x)),
                pc_only: false,
            },
            Special::IAlreadyKnow(_) | Special::LiquidMetal | Special::DrunkenMonkey => level(10),
            Special::WayOfTheSamurai => Requirement {
                level: 10,
                needs: None,
                pc_only: true,
            },
        }
    }

    /// The special's name as the rules print it.
    pub fn name(self) -> String {
        let with = |name: &str, a: Action| format!("{name} ({a})");
        match self {
            Special::Scouter => "Scouter".into(),
            Special::ToBlave => "To Blave".into(),
            Special::ThereCanBeOnlyOne => "There Can Be Only One".into(),
            Special::PressurePoint => "Pressure Point".into(),
            Special::WaxOn(a) => with("Wax On", a),
            Special::SantaCarla(a) => with("Santa Carla", a),
            Special::DigTwoGraves(a) => with("Dig Two Graves", a),
            Special::IAlreadyKnow(a) => with("I Already Know", a),
            Special::Yojimbo => "Yojimbo".into(),
            Special::LiquidMetal => "Liquid Metal".into(),
            Special::DrunkenMonkey => "Drunken Monkey".into(),
            Special::WayOfTheSamurai => "The Way of the Samurai".into(),
        }
    }
}

impl fmt::Display for Special {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Reading a special strictly where a person writes one (setups and commands): an unknown
/// field is refused. [`Special`] itself stays lenient because a known special in a character's
/// state carries its `spent` mark beside it.
pub mod strict {
    use serde::{Deserialize, Deserializer};

    use super::Special;
    use crate::moves::Action;

    #[derive(Deserialize)]
    #[serde(
        tag = "special",
        content = "action",
        rename_all = "snake_case",
        deny_unknown_fields
    )]
    enum Strict {
        Scouter,
        ToBlave,
        ThereCanBeOnlyOne,
        PressurePoint,
        WaxOn(Action),
        SantaCarla(Action),
        DigTwoGraves(Action),
        IAlreadyKnow(Action),
        Yojimbo,
        LiquidMetal,
        DrunkenMonkey,
        WayOfTheSamurai,
    }

    impl From<Strict> for Special {
        fn from(s: Strict) -> Special {
            match s {
                Strict::Scouter => Special::Scouter,
                Strict::ToBlave => Special::ToBlave,
                Strict::ThereCanBeOnlyOne => Special::ThereCanBeOnlyOne,
                Strict::PressurePoint => Special::PressurePoint,
                Strict::WaxOn(a) => Special::WaxOn(a),
                Strict::SantaCarla(a) => Special::SantaCarla(a),
                Strict::DigTwoGraves(a) => Special::DigTwoGraves(a),
                Strict::IAlreadyKnow(a) => Special::IAlreadyKnow(a),
                Strict::Yojimbo => Special::Yojimbo,
                Strict::LiquidMetal => Special::LiquidMetal,
                Strict::DrunkenMonkey => Special::DrunkenMonkey,
                Strict::WayOfTheSamurai => Special::WayOfTheSamurai,
            }
        }
    }

    pub fn one<'de, D: Deserializer<'de>>(d: D) -> Result<Special, D::Error> {
        Strict::deserialize(d).map(Special::from)
    }

    pub fn option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Special>, D::Error> {
        Ok(Option::<Strict>::deserialize(d)?.map(Special::from))
    }

    pub fn list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Special>, D::Error> {
        Ok(Vec::<Strict>::deserialize(d)?
            .into_iter()
            .map(Special::from)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_56_twenty_variations_it_58_three_actions_each() {
        let all = Special::all();
        assert_eq!(all.len(), 20); // IT-56
        let wax = all
            .iter()
            .filter(|s| matches!(s, Special::WaxOn(_)))
            .count();
        assert_eq!(wax, 3); // IT-58
        let numbers: Vec<u8> = all.iter().map(|s| s.list_number()).collect();
        assert!(numbers.windows(2).all(|w| w[0] <= w[1]), "IT-59 list order");
    }

    #[test]
    fn it_59_requirements() {
        assert_eq!(Special::Scouter.requirement().level, 0); // IT-59 #1
        assert_eq!(Special::SantaCarla(Action::Attack).requirement().level, 5); // IT-59 #6
        assert_eq!(
            Special::DigTwoGraves(Action::Grapple).requirement().needs,
            Some(Special::WaxOn(Action::Grapple))
        ); // IT-59 #7
        assert_eq!(
            Special::IAlreadyKnow(Action::Defend).requirement().level,
            10
        ); // IT-59 #8
        assert!(Special::WayOfTheSamurai.requirement().pc_only); // IT-59 #12
    }

    #[test]
    fn specials_serialize_readably() {
        let json = serde_json::to_string(&Special::WaxOn(Action::Attack)).unwrap();
        assert_eq!(json, r#"{"special":"wax_on","action":"attack"}"#);
        let back: Special = serde_json::from_str(r#"{"special":"scouter"}"#).unwrap();
        assert_eq!(back, Special::Scouter);
    }
}
