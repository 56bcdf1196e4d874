//! The XSB level reader, then everything made from a level it accepts: the
//! PDDL problem, the ASP facts and the level drawn back in XSB characters,
//! which must read back as the same level.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let level_number = 1 + text.len() % 3;
    if let Ok(level) = corvus::puzzles::xsb::parse_level(text, "fuzz.xsb", level_number) {
        let _ = level.to_pddl("fuzz");
        let _ = level.to_asp(10);
        let drawn = level.to_xsb();
        let again = corvus::puzzles::xsb::parse_level(&drawn, "drawn.xsb", 1)
            .expect("a level drawn by corvus reads back");
        assert_eq!(again.to_xsb(), drawn, "drawing is not stable");
        assert_eq!(again.stone_count(), level.stone_count());
    }
});
