//! No code: this package holds the server tests that play real games (`tests/it`).
