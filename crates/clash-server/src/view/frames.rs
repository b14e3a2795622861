//! One viewer's picture of a table at one revision, serialized once and shared by every stream
//! of that viewer, and the JSON Patch (RFC 6902) that brings a stream from the picture it last
//! sent to this one.
//!
//! A picture is kept as its JSON text plus a small tree of hashes: each object or array big
//! enough to be worth it (and not too deep) is a branch whose members are nodes of their own;
//! everything else is a leaf, sent whole when it changes. A stream remembers only the hashes of
//! what it last sent, so a patch costs a walk over the changed branches and no copy of the old
//! picture. Where a branch's shape changed (other keys, another length) the whole branch is sent;
//! where it kept its shape, only the members that changed. Branches are few (only containers of
//! [`MIN_BRANCH`] bytes or more, at most [`MAX_DEPTH`] deep), so a frame costs little more memory
//! than its text.

use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, LazyLock};

use foldhash::fast::RandomState;
use serde_json::Value;

/// Branches no deeper than this (the root is depth 0).
const MAX_DEPTH: usize = 3;
/// A container whose text is shorter than this is a leaf: sent whole when it changes.
const MIN_BRANCH: usize = 512;

/// Each node's path hash with the hashes of its text and of its shape, sorted by path hash.
#[derive(Debug, Default)]
pub struct Hashes(Vec<(u64, u64, u64)>);

impl Hashes {
    fn get(&self, path: u64) -> Option<(u64, u64)> {
        self.0
            .binary_search_by_key(&path, |(p, _, _)| *p)
            .ok()
            .map(|i| (self.0[i].1, self.0[i].2))
    }
}

/// How a node is reached from its parent.
#[derive(Debug, Clone, Copy)]
enum PathStep {
    Root,
    /// An object member whose key is the JSON string at `start..end` of the text.
    Member {
        start: u32,
        end: u32,
    },
    /// An array element.
    Index(u32),
}

#[derive(Debug)]
struct Node {
    step: PathStep,
    path_hash: u64,
    start: u32,
    end: u32,
    content: u64,
    /// 0 for a leaf; a branch's key list or length otherwise.
    shape: u64,
    /// The index just after this node's subtree (its children follow it, in order).
    next: u32,
}

/// A picture at one revision.
pub struct Frame {
    pub revision: usize,
    text: String,
    nodes: Vec<Node>,
    pub hashes: Arc<Hashes>,
}

/// The frames' hasher: foldhash, several times faster than the standard library's SipHash on
/// these short texts, seeded once per process at random. Hashes are only ever compared within
/// the process that made them, and a random seed keeps anyone from choosing a text whose hash
/// collides with another's (which would leave a change out of a patch).
static HASHER: LazyLock<RandomState> = LazyLock::new(RandomState::default);

fn hasher() -> impl Hasher {
    HASHER.build_hasher()
}

fn hash_of(bytes: &[u8]) -> u64 {
    let mut h = hasher();
    h.write(bytes);
    h.finish()
}

fn child_path(parent: u64, step: &[u8]) -> u64 {
    let mut h = hasher();
    h.write_u64(parent);
    h.write(step);
    h.finish()
}

/// Walks a picture's compact JSON text (as serde_json writes it) once, noting its nodes: the
/// picture is serialized straight from typed values, never built as a tree of `Value`s.
struct Scan<'a> {
    text: &'a [u8],
    at: usize,
    nodes: Vec<Node>,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// Step over one byte (the one `peek` showed).
    fn bump(&mut self) {
        self.at = (self.at + 1).min(self.text.len());
    }

    /// Step over a string starting at its opening quote.
    fn string(&mut self) {
        self.bump();
        while let Some(b) = self.peek() {
            self.bump();
            match b {
                b'\\' => self.bump(),
                b'"' => return,
                _ => {}
            }
        }
    }

    /// Step over any value without noting its nodes.
    fn skip(&mut self) {
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'"' => {
                    self.string();
                    if depth == 0 {
                        return;
                    }
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                b',' | b':' if depth == 0 => return,
                _ => {}
            }
            self.bump();
        }
    }

    /// Whether the container opening at the current byte is empty (`{}` or `[]`).
    fn empty_container(&self) -> bool {
        matches!(self.text.get(self.at + 1), Some(b'}' | b']'))
    }

    fn node(&mut self, step: PathStep, path_hash: u64, depth: usize) {
        let index = self.nodes.len();
        let start = self.at;
        self.nodes.push(Node {
            step,
            path_hash,
            start: start as u32,
            end: start as u32,
            content: 0,
            shape: 0,
            next: 0,
        });
        let mut shape = hasher();
        let branch = match self.peek() {
            Some(b'{') if depth < MAX_DEPTH && !self.empty_container() => {
                shape.write_u8(b'{');
                self.members(path_hash, depth, &mut shape);
                true
            }
            Some(b'[') if depth < MAX_DEPTH && !self.empty_container() => {
                let len = self.items(path_hash, depth);
                shape.write_u8(b'[');
                shape.write_u32(len);
                true
            }
            _ => {
                self.skip();
                false
            }
        };
        let end = self.at;
        // Small branches are leaves: their descendants come right after them, in order.
        let kept = branch && end - start >= MIN_BRANCH;
        if !kept {
            self.nodes.truncate(index + 1);
        }
        let next = self.nodes.len() as u32;
        let content = hash_of(&self.text[start..end]);
        let node = &mut self.nodes[index];
        node.end = end as u32;
        node.content = content;
        node.shape = if kept { shape.finish() | 1 } else { 0 };
        node.next = next;
    }

    /// An object's members, from its `{` to just after its `}`.
    fn members(&mut self, path_hash: u64, depth: usize, shape: &mut impl Hasher) {
        self.bump();
        while let Some(b'"') = self.peek() {
            let key_start = self.at;
            self.string();
            let key_end = self.at;
            let key = &self.text[key_start..key_end];
            shape.write(key);
            let path = child_path(path_hash, key);
            if self.peek() == Some(b':') {
                self.bump();
            }
            let step = PathStep::Member {
                start: key_start as u32,
                end: key_end as u32,
            };
            self.node(step, path, depth + 1);
            if self.peek() == Some(b',') {
                self.bump();
            }
        }
        if self.peek() == Some(b'}') {
            self.bump();
        }
    }

    /// An array's items, from its `[` to just after its `]`; answers how many.
    fn items(&mut self, path_hash: u64, depth: usize) -> u32 {
        self.bump();
        let mut i = 0u32;
        while !matches!(self.peek(), None | Some(b']')) {
            let path = child_path(path_hash, &u64::from(i).to_le_bytes());
            let before = self.at;
            self.node(PathStep::Index(i), path, depth + 1);
            i += 1;
            if self.peek() == Some(b',') {
                self.bump();
            } else if self.at == before {
                break;
            }
        }
        if self.peek() == Some(b']') {
            self.bump();
        }
        i
    }
}

impl Frame {
    /// The picture `value` (an object) at `revision`.
    pub fn new(revision: usize, value: &Value) -> Frame {
        Frame::from_text(revision, value.to_string())
    }

    /// The picture whose compact JSON text is `text` (as serde_json writes it), at `revision`.
    pub fn from_text(revision: usize, text: String) -> Frame {
        let mut scan = Scan {
            text: text.as_bytes(),
            at: 0,
            nodes: Vec::new(),
        };
        scan.node(PathStep::Root, hash_of(b""), 0);
        let mut nodes = scan.nodes;
        let mut hashes: Vec<(u64, u64, u64)> = nodes
            .iter()
            .map(|n| (n.path_hash, n.content, n.shape))
            .collect();
        hashes.sort_unstable();
        nodes.shrink_to_fit();
        Frame {
            revision,
            text,
            nodes,
            hashes: Arc::new(Hashes(hashes)),
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
        self.walk(0, String::new(), before, &mut ops);
        ops.push(']');
        ops
    }

    fn span(&self, start: u32, end: u32) -> &str {
        &self.text[start as usize..end as usize]
    }

    fn walk(&self, index: usize, path: String, before: &Hashes, ops: &mut String) {
        let node = &self.nodes[index];
        match before.get(node.path_hash) {
            Some((content, _)) if content == node.content => {}
            Some((_, shape)) if shape == node.shape && node.shape != 0 => {
                let mut child = index + 1;
                while child < node.next as usize {
                    let step = match self.nodes[child].step {
                        PathStep::Member { start, end } => {
                            let key: String =
                                serde_json::from_str(self.span(start, end)).unwrap_or_default();
                            key.replace('~', "~0").replace('/', "~1")
                        }
                        PathStep::Index(i) => i.to_string(),
                        PathStep::Root => String::new(),
                    };
                    self.walk(child, format!("{path}/{step}"), before, ops);
                    child = self.nodes[child].next as usize;
                }
            }
            _ => {
                if ops.len() > 1 {
                    ops.push(',');
                }
                let op = match node.step {
                    PathStep::Member { .. } => "add",
                    PathStep::Root | PathStep::Index(_) => "replace",
                };
                ops.push_str("{\"op\":\"");
                ops.push_str(op);
                ops.push_str("\",\"path\":");
                ops.push_str(&Value::String(path).to_string());
                ops.push_str(",\"value\":");
                ops.push_str(self.span(node.start, node.end));
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
        let v = json!({"a": [1, 2, {"b": "x/y~z"}], "c": null, "long": "x".repeat(600)});
        let f = Frame::new(3, &v);
        assert_eq!(f.text(), v.to_string());
    }

    #[test]
    fn a_patch_carries_only_what_changed() {
        let sheet =
            |energy: u32| json!({"name": "Ada", "energy": energy, "notes": "n".repeat(600)});
        let before = json!({"view": {"characters": [sheet(5), sheet(3)], "round": 1}, "render": "r".repeat(600)});
        let after = json!({"view": {"characters": [sheet(5), sheet(2)], "round": 1}, "render": "r".repeat(600)});
        let (doc, ops) = patched(&before, &after);
        assert_eq!(doc, after);
        assert!(
            ops.starts_with(r#"[{"op":"replace","path":"/view/characters/1","value":{"#),
            "{ops}"
        );
        assert!(!ops.contains("rrrr"), "the render did not change");
        assert_eq!(
            Frame::new(2, &after).patch_since(&Frame::new(1, &after).hashes),
            "[]"
        );
    }

    #[test]
    fn a_branch_that_changed_shape_is_sent_whole() {
        let before = json!({"list": (0..200).collect::<Vec<_>>(), "keep": "k".repeat(600)});
        let after = json!({"list": (0..201).collect::<Vec<_>>(), "keep": "k".repeat(600)});
        let (doc, ops) = patched(&before, &after);
        assert_eq!(doc, after);
        assert!(
            ops.starts_with(r#"[{"op":"add","path":"/list","value":[0,1,"#),
            "{ops}"
        );
        assert!(!ops.contains("kkk"));
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (0u32..5).prop_map(|n| json!(n)),
            // Quotes, backslashes and brackets inside strings: the scan must step over them.
            r#"[a-z/~"\\{}\[\],:]{0,200}"#.prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(r#"[a-c/~"\\{\]]{1,2}"#, inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_patch_turns_the_old_picture_into_the_new(
            a in json_value(), b in json_value(), c in json_value()
        ) {
            let before = json!({"x": a.clone(), "y": b.clone(), "pad": "p".repeat(600)});
            let after = json!({"x": b, "y": c, "pad": "p".repeat(600)});
            prop_assert_eq!(patched(&before, &after).0, after);
            // The whole picture may change too (another key set at the root).
            prop_assert_eq!(patched(&before, &a).0, a);
        }
    }
}
