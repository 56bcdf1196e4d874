//! The `corvus` binary: the command line of `corvus::commands::cli`.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(corvus::commands::cli::run(std::env::args_os()) as u8)
}
