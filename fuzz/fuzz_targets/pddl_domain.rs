//! The PDDL domain reader (grammar, readers, domain checks) on arbitrary bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = corvus::pddl::parse_domain(text, "fuzz.pddl");
    }
});
