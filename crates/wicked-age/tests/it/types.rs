//! The TypeScript declarations of the view and command the board reads and sends, committed
//! under `types/`, are what the Rust types generate (`CLASH_WRITE_TYPES=1 cargo test -p wicked-age
//! types::` writes them anew).

use std::path::Path;

#[test]
fn the_committed_declarations_are_what_the_rust_types_generate() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("types");
    clash_core::ts::check_game::<wicked_age::WickedAge>(&dir).unwrap_or_else(|e| panic!("{e}"));
}
