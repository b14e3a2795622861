//! What each viewer sees of a table: the snapshot a change leaves ([`snapshot`]), the table
//! around the game as one viewer sees it ([`room`]), the pictures and patches the live streams
//! carry ([`frames`], [`stream`]), and readable labels for commands ([`labels`]).

pub mod frames;
pub mod labels;
pub mod room;
pub mod snapshot;
pub mod stream;
