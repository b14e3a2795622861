//! One viewer's picture of a table at one revision, serialized once and shared by every stream
//! of that viewer, and the JSON Patch (RFC 6902) that brings a stream from the picture it last
//! sent to this one.
//!
//! A picture is kept as its JSON text plus a tree of hashes: each object or array big enough to
//! be worth it (and not too deep) is a branch whose members are nodes of their own; everything
//! else is a leaf. A stream remembers only the hashes of what it last sent, so a patch costs a
//! walk over the changed branches and no copy of the old picture. Where a branch's shape changed
//! (other keys, another length) the whole branch is sent; where it kept its shape, only the
//! members that changed.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use serde_json::Value;

/// Branches no deeper than this (the root is depth 0).
const MAX_DEPTH: usize = 4;
/// A container whose text is shorter than this is sent whole when it changes.
const MIN_BRANCH: usize = 96;

/// For each node's path (hashed): the hash of its text and of its shape.
pub type Hashes = HashMap<u64, (u64, u64)>;

struct Node {
    /// JSON Pointer of the node (`""` for the root).
    path: String,
    path_hash: u64,
    start: usize,
    end: usize,
    content: u64,
    /// 0 for a leaf; a branch's key list or length otherwise.
    shape: u64,
    /// Its parent is an array (so it is replaced, never added).
    in_array: bool,
    children: Vec<usize>,
}

/// A picture at one revision.
pub struct Frame {
    pub revision: usize,
    text: String,
    nodes: Vec<Node>,
    pub hashes: Arc<Hashes>,
}

fn hash_of(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// A JSON Pointer reference token.
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

struct Builder {
    text: String,
    nodes: Vec<Node>,
}

impl Builder {
    fn node(&mut self, value: &Value, path: String, depth: usize, in_array: bool) {
        let index = self.nodes.len();
        let start = self.text.len();
        self.nodes.push(Node {
            path_hash: hash_of(path.as_bytes()),
            path,
            start,
            end: start,
            content: 0,
            shape: 0,
            in_array,
            children: Vec::new(),
        });
        let mut shape = DefaultHasher::new();
        let mut children = Vec::new();
        match value {
            Value::Object(map) if depth < MAX_DEPTH && !map.is_empty() => {
                "object".hash(&mut shape);
                self.text.push('{');
                for (i, (key, member)) in map.iter().enumerate() {
                    if i > 0 {
                        self.text.push(',');
                    }
                    key.hash(&mut shape);
                    self.text.push_str(&Value::String(key.clone()).to_string());
                    self.text.push(':');
                    children.push(self.nodes.len());
                    let path = format!("{}/{}", self.nodes[index].path, token(key));
                    self.node(member, path, depth + 1, false);
                }
                self.text.push('}');
            }
            Value::Array(items) if depth < MAX_DEPTH && !items.is_empty() => {
                "array".hash(&mut shape);
                items.len().hash(&mut shape);
                self.text.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.text.push(',');
                    }
                    children.push(self.nodes.len());
                    let path = format!("{}/{i}", self.nodes[index].path);
                    self.node(item, path, depth + 1, true);
                }
                self.text.push(']');
            }
            leaf => self.text.push_str(&leaf.to_string()),
        }
        let end = self.text.len();
        let node = &mut self.nodes[index];
        node.end = end;
        node.content = hash_of(&self.text.as_bytes()[start..end]);
        // Small branches are leaves: their descendants come right after them, in order.
        if !children.is_empty() && end - start >= MIN_BRANCH {
            node.shape = shape.finish() | 1;
            node.children = children;
        } else {
            self.nodes.truncate(index + 1);
        }
    }
}

impl Frame {
    /// The picture `value` (an object) at `revision`.
    pub fn new(revision: usize, value: &Value) -> Frame {
        let mut b = Builder {
            text: String::new(),
            nodes: Vec::new(),
        };
        b.node(value, String::new(), 0, false);
        let hashes = b
            .nodes
            .iter()
            .map(|n| (n.path_hash, (n.content, n.shape)))
            .collect();
        Frame {
            revision,
            text: b.text,
            nodes: b.nodes,
            hashes: Arc::new(hashes),
        }
    }

    /// The whole picture as compact JSON.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The JSON Patch (as a JSON array) that turns the picture whose hashes are `before` into
    /// this one; `[]` when nothing changed.
    pub fn patch_since(&self, before: &Hashes) -> String {
        let mut ops = String::from("[");
        self.walk(0, before, &mut ops);
        ops.push(']');
        ops
    }

    fn walk(&self, index: usize, before: &Hashes, ops: &mut String) {
        let node = &self.nodes[index];
        match before.get(&node.path_hash) {
            Some((content, _)) if *content == node.content => {}
            Some((_, shape)) if *shape == node.shape && !node.children.is_empty() => {
                for &child in &node.children {
                    self.walk(child, before, ops);
                }
            }
            _ => {
                if ops.len() > 1 {
                    ops.push(',');
                }
                let op = if node.in_array || node.path.is_empty() {
                    "replace"
                } else {
                    "add"
                };
                ops.push_str("{\"op\":\"");
                ops.push_str(op);
                ops.push_str("\",\"path\":");
                ops.push_str(&Value::String(node.path.clone()).to_string());
                ops.push_str(",\"value\":");
                ops.push_str(&self.text[node.start..node.end]);
                ops.push('}');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn patched(before: &Value, after: &Value) -> (Value, String) {
        let old = Frame::new(0, before);
        let new = Frame::new(1, after);
        let ops = new.patch_since(&old.hashes);
        let patch: json_patch::Patch = serde_json::from_str(&ops).unwrap();
        let mut doc = before.clone();
        json_patch::patch(&mut doc, &patch).unwrap();
        (doc, ops)
    }

    #[test]
    fn the_text_is_the_compact_json() {
        let v = json!({"a": [1, 2, {"b": "x/y~z"}], "c": null, "long": "x".repeat(200)});
        let f = Frame::new(3, &v);
        assert_eq!(serde_json::from_str::<Value>(f.text()).unwrap(), v);
        assert_eq!(f.text(), v.to_string());
    }

    #[test]
    fn a_patch_carries_only_what_changed() {
        let sheet =
            |energy: u32| json!({"name": "Ada", "energy": energy, "notes": "n".repeat(120)});
        let before = json!({"view": {"characters": [sheet(5), sheet(3)], "round": 1}, "render": "r".repeat(300)});
        let after = json!({"view": {"characters": [sheet(5), sheet(2)], "round": 1}, "render": "r".repeat(300)});
        let (doc, ops) = patched(&before, &after);
        assert_eq!(doc, after);
        assert_eq!(
            ops,
            r#"[{"op":"add","path":"/view/characters/1/energy","value":2}]"#
        );
        assert_eq!(
            Frame::new(2, &after).patch_since(&Frame::new(1, &after).hashes),
            "[]"
        );
    }

    #[test]
    fn a_branch_that_changed_shape_is_sent_whole() {
        let before = json!({"list": (0..40).collect::<Vec<_>>(), "keep": "k".repeat(100)});
        let after = json!({"list": (0..41).collect::<Vec<_>>(), "keep": "k".repeat(100)});
        let (doc, ops) = patched(&before, &after);
        assert_eq!(doc, after);
        assert!(
            ops.starts_with(r#"[{"op":"add","path":"/list","value":[0,1,"#),
            "{ops}"
        );
        assert!(!ops.contains("keep"));
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (0u32..5).prop_map(|n| json!(n)),
            "[a-z/~]{0,40}".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("[a-c/~]{1,2}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_patch_turns_the_old_picture_into_the_new(
            a in json_value(), b in json_value(), c in json_value()
        ) {
            let before = json!({"x": a.clone(), "y": b.clone(), "pad": "p".repeat(100)});
            let after = json!({"x": b, "y": c, "pad": "p".repeat(100)});
            prop_assert_eq!(patched(&before, &after).0, after);
            // The whole picture may change too (another key set at the root).
            prop_assert_eq!(patched(&before, &a).0, a);
        }
    }
}
