//! The ASP fact reader and the instance checks of both families.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = corvus::puzzles::asp::facts::parse_facts(text, "fuzz.asp");
        let _ = corvus::puzzles::asp::Instance::parse(text, "fuzz.asp", None);
    }
});
