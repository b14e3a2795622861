//! Character names as they travel in conflict commands, events and views.
//!
//! A name is copied into nearly every command and event of a conflict turn, so it is a shared,
//! immutable string: cloning one bumps a reference count instead of allocating. In JSON it is a
//! plain string, exactly like `String`.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A character's name, cheap to clone.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(export_to = "iron-triangle/", type = "string")
)]
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(Arc<str>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The same name, compared by its shared allocation first: names copied from one fighter
    /// (the common case in events) match without comparing bytes.
    pub fn is(&self, other: &Name) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }

    /// Whether this is the name `s`; a `&str` borrowed from this very name matches at once.
    pub fn is_str(&self, s: &str) -> bool {
        std::ptr::eq(self.as_str(), s) || self.as_str() == s
    }
}

impl Default for Name {
    fn default() -> Self {
        Name::from("")
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name(Arc::from(s))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Self {
        Name::from(s.as_str())
    }
}

impl From<String> for Name {
    fn from(s: String) -> Self {
        Name(Arc::from(s))
    }
}

impl From<&Name> for Name {
    fn from(s: &Name) -> Self {
        s.clone()
    }
}

impl From<Name> for String {
    fn from(n: Name) -> Self {
        n.0.to_string()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Name::from)
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn a_name_is_a_plain_json_string() {
        let n = Name::from("Ada");
        assert_eq!(serde_json::to_string(&n).unwrap(), "\"Ada\"");
        assert_eq!(serde_json::from_str::<Name>("\"Ada\"").unwrap(), n);
        assert_eq!(format!("{n:?} {n}"), "\"Ada\" Ada");
    }

    #[test]
    fn names_compare_with_strings_either_way() {
        let n = Name::from("Brute");
        assert!(n == "Brute");
        assert!("Brute" == n);
        assert!(n == *"Brute");
        assert!(n.is(&n.clone()) && n.is(&Name::from("Brute")) && !n.is(&Name::from("Ada")));
    }
}
