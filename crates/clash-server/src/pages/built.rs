//! Each script and style as it is sent: scripts minified (oxc), each module's imports pointing
//! at the hashed names of the modules it imports, and every file served under a name carrying a
//! hash of what is sent (`kit.0123456789ab.js`). A browser may then keep a file for a year and
//! never ask again: a change of any file, or of a module it imports, gives it a new name.
//!
//! A file is built once per process, on first use, from the text compiled into the server (or
//! into a game's crate) and kept for the life of the process.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use axum::body::Bytes;
use clash_core::RulesetEntry;
use oxc::allocator::Allocator;
use oxc::ast::ast::{Statement, StringLiteral};
use oxc::codegen::{Codegen, CodegenOptions};
use oxc::minifier::{MangleOptions, Minifier, MinifierOptions};
use oxc::parser::Parser;
use oxc::span::SourceType;
use oxc::str::Str;
use sha2::{Digest, Sha256};

pub const JS: &str = "text/javascript; charset=utf-8";
pub const CSS: &str = "text/css; charset=utf-8";

/// How many hex digits of the content's SHA-256 a name carries.
const HASH_LEN: usize = 12;

/// A script or style as it is sent.
pub struct Built {
    /// Where pages load it: `/assets/` and its name, the hash before the extension.
    pub url: String,
    /// The hash in its name.
    pub hash: String,
    pub kind: &'static str,
    pub body: Bytes,
    /// Every module it imports, directly or through another (their URLs), so a page can fetch
    /// them all at once rather than one level of imports after another.
    pub imports: Vec<String>,
}

/// Where the files come from: the server's own, and the boards and forms of `games`.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    /// The server's own files: name, type and text (see [`super::assets`]).
    pub shared: &'static [(&'static str, &'static str, &'static str)],
    pub games: &'a [RulesetEntry],
}

impl Sources<'_> {
    /// The type and text of the file `name` (a path under `/assets/`), as written.
    pub fn text(&self, name: &str) -> Option<(&'static str, &'static str)> {
        if let Some(&(_, kind, text)) = self.shared.iter().find(|(n, _, _)| *n == name) {
            return Some((kind, text));
        }
        let (dir, file) = name.split_once('/')?;
        let (id, ext) = file.rsplit_once('.')?;
        let game = self.games.iter().find(|e| e.id == id)?;
        let (script, style) = match dir {
            "panel" => Some((game.panel.script, game.panel.style)).filter(|_| game.panel.is_some()),
            "forms" => game.forms.map(|f| (f.forms.script, f.forms.style)),
            _ => None,
        }?;
        match ext {
            "js" => Some((JS, script)),
            "css" => Some((CSS, style)),
            _ => None,
        }
    }
}

/// What has been built, by name and the address of the text it was built from (a game of
/// another catalogue may use the same name for other text).
type Memo = Mutex<HashMap<(String, usize), Arc<Built>>>;
static BUILT: LazyLock<Memo> = LazyLock::new(Memo::default);

/// The file `name` (a path under `/assets/`, without a hash) as it is sent, if there is one.
pub fn build(sources: &Sources, name: &str) -> Option<Arc<Built>> {
    build_in(sources, name, &mut Vec::new())
}

/// `visiting`: the modules whose imports are being built, so an import cycle ends (its last
/// import keeps its plain name).
fn build_in(sources: &Sources, name: &str, visiting: &mut Vec<String>) -> Option<Arc<Built>> {
    let (kind, text) = sources.text(name)?;
    let key = (name.to_string(), text.as_ptr() as usize);
    if let Some(built) = memo().get(&key) {
        return Some(built.clone());
    }
    visiting.push(name.to_string());
    let (body, imports) = if kind == JS {
        script(sources, name, text, visiting)
    } else {
        (text.to_string(), Vec::new())
    };
    visiting.pop();
    let digest = Sha256::digest(body.as_bytes());
    let hash: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let hash = hash[..HASH_LEN].to_string();
    let built = Arc::new(Built {
        url: format!("/assets/{}", hashed_name(name, &hash)),
        hash,
        kind,
        body: Bytes::from(body),
        imports,
    });
    memo().insert(key, built.clone());
    Some(built)
}

fn memo() -> std::sync::MutexGuard<'static, HashMap<(String, usize), Arc<Built>>> {
    BUILT.lock().unwrap_or_else(|p| p.into_inner())
}

/// A module minified, its imports at their hashed names; and the URLs of all it imports. A
/// module that does not parse is sent as it is (the browser then says what is wrong with it).
fn script(
    sources: &Sources,
    name: &str,
    text: &str,
    visiting: &mut Vec<String>,
) -> (String, Vec<String>) {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, text, SourceType::mjs()).parse();
    if parsed.panicked || parsed.diagnostics.errors().next().is_some() {
        tracing::warn!(asset = name, "a script does not parse: sent as it is");
        return (text.to_string(), Vec::new());
    }
    let mut program = parsed.program;
    let mut imports = Vec::new();
    for source in program.body.iter_mut().filter_map(import_source) {
        let Some(dep) = resolve(name, source.value.as_str())
            .filter(|dep| !visiting.contains(dep))
            .and_then(|dep| build_in(sources, &dep, visiting))
        else {
            continue;
        };
        source.value = Str::from(allocator.alloc_str(&dep.url));
        source.raw = None;
        imports.push(dep.url.clone());
        imports.extend(dep.imports.iter().cloned());
    }
    imports.sort();
    imports.dedup();
    // Names mangled and spaces and comments dropped; the code itself is left as written (the
    // minifier's rewriting of code is the part still settling).
    let options = MinifierOptions {
        mangle: Some(MangleOptions::default()),
        mangle_properties: None,
        compress: None,
    };
    let minified = Minifier::new(options).minify(&allocator, &mut program);
    let code = Codegen::new()
        .with_options(CodegenOptions::minify())
        .with_scoping(minified.scoping)
        .build(&program)
        .code;
    (code, imports)
}

/// The module a statement imports from (`import … from '…'`, `export … from '…'`).
fn import_source<'s, 'a>(statement: &'s mut Statement<'a>) -> Option<&'s mut StringLiteral<'a>> {
    match statement {
        Statement::ImportDeclaration(d) => Some(&mut d.source),
        Statement::ExportFromDeclaration(d) => Some(&mut d.source),
        Statement::ExportAllDeclaration(d) => Some(&mut d.source),
        _ => None,
    }
}

/// The name under `/assets/` that `specifier`, imported by `from`, points at: `../kit.js` from
/// `panel/morra.js` is `kit.js`. None for a module elsewhere.
fn resolve(from: &str, specifier: &str) -> Option<String> {
    if let Some(rest) = specifier.strip_prefix("/assets/") {
        return Some(rest.to_string());
    }
    if !specifier.starts_with("./") && !specifier.starts_with("../") {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in specifier.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// `kit.js` with hash `h` is `kit.h.js`.
fn hashed_name(name: &str, hash: &str) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}.{hash}.{ext}"),
        None => format!("{name}.{hash}"),
    }
}

/// A requested name split into the file's own name and the hash it carries, if any:
/// `kit.0123456789ab.js` is `kit.js` and `0123456789ab`; `kit.js` carries none.
pub fn unhashed(requested: &str) -> (String, Option<&str>) {
    let split = requested.rsplit_once('.').and_then(|(rest, ext)| {
        let (stem, hash) = rest.rsplit_once('.')?;
        let hex = hash.len() == HASH_LEN
            && hash
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        hex.then(|| (format!("{stem}.{ext}"), hash))
    });
    match split {
        Some((name, hash)) => (name, Some(hash)),
        None => (requested.to_string(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_resolve_under_assets() {
        assert_eq!(
            resolve("panel/morra.js", "../kit.js").as_deref(),
            Some("kit.js")
        );
        assert_eq!(
            resolve("forms/session-zero.js", "./kit.js").as_deref(),
            Some("forms/kit.js")
        );
        assert_eq!(resolve("app.js", "./kit.js").as_deref(), Some("kit.js"));
        assert_eq!(resolve("app.js", "../../x.js"), None);
        assert_eq!(resolve("app.js", "lodash"), None);
    }

    #[test]
    fn a_hashed_name_gives_back_its_file_and_hash() {
        let name = hashed_name("panel/morra.js", "0123456789ab");
        assert_eq!(name, "panel/morra.0123456789ab.js");
        assert_eq!(
            unhashed(&name),
            ("panel/morra.js".to_string(), Some("0123456789ab"))
        );
        assert_eq!(unhashed("kit.js"), ("kit.js".to_string(), None));
        assert_eq!(unhashed("kit.zz.js"), ("kit.zz.js".to_string(), None));
    }

    #[test]
    fn modules_are_minified_and_import_each_other_by_hashed_name() {
        let app = build(&Sources::SHARED, "app.js").expect("app.js is built");
        let kit = build(&Sources::SHARED, "kit.js").expect("kit.js is built");
        let text = std::str::from_utf8(&app.body).unwrap();
        assert!(text.contains(&kit.url), "app.js imports {}", kit.url);
        assert!(!text.contains("'./kit.js'") && !text.contains("\"./kit.js\""));
        assert!(app.imports.contains(&kit.url));
        assert!(app.body.len() < include_str!("../assets/app.js").len() * 3 / 4);
        assert_eq!(app.url, format!("/assets/app.{}.js", app.hash));
    }
}
