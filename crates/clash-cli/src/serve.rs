//! `clash serve`: run the table server (see docs/server.md).

use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;

pub fn serve(addr: SocketAddr, db: &Path) -> ExitCode {
    match clash_server::serve_blocking(addr, db) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("clash serve: {e}");
            ExitCode::FAILURE
        }
    }
}
