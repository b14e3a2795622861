pub mod character;
pub mod dice;
pub mod odds;
pub mod roll;
