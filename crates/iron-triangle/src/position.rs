//! Positions (issue 18): see below.
