//! Bounds on what a setup or a command may hold. The board itself is fixed (15 positions,
//! TF-6; at most six players, TF-5), so only the names players give need one: they live inside
//! the copyable state, so their room is fixed. A name beyond it is refused naming TF-5.

/// The longest name a player may give, in bytes of UTF-8 (24 plain letters). Names live inside
/// the copyable state, so their room is fixed.
pub const NAME_BYTES: usize = 24;

/// Why a player's name is refused, if it is: empty, too long, or not plain text.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() || name.trim() != name {
        return Err("a name is a word or a few, without spaces around it".into());
    }
    if name.len() > NAME_BYTES {
        return Err(format!(
            "{name:?} is too long: a name has at most {NAME_BYTES} bytes (24 plain letters)"
        ));
    }
    clash_core::text::plain_name("a name", name)
}
