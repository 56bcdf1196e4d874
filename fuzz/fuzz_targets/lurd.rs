//! LURD replay: the fuzzer's bytes are a LURD string (or anything) played on
//! a fixed small level; a replay that succeeds keeps the stones' number and
//! is drawn and read back.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

use corvus::puzzles::xsb::{self, Level};

const LEVEL: &str = "\
#######
#.@ # #
#$* $ #
#   $ #
# ..  #
#  *  #
#######
";

fn level() -> &'static Level {
    static LEVEL_READ: OnceLock<Level> = OnceLock::new();
    LEVEL_READ.get_or_init(|| xsb::parse_level(LEVEL, "fuzz.xsb", 1).expect("the fixed level reads"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(lurd) = std::str::from_utf8(data) else { return };
    let start = level();
    if let Ok(end) = start.replay_lurd(lurd) {
        assert_eq!(end.stone_count(), start.stone_count());
        let drawn = end.to_xsb();
        let again = xsb::parse_level(&drawn, "end.xsb", 1).expect("an end state drawn by corvus reads back");
        assert_eq!(again.to_xsb(), drawn);
    }
});
