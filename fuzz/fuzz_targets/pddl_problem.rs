//! The PDDL problem reader, and the checks of a problem against a fixed
//! domain (Blocksworld, the one the seed problems are written for).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

fn domain() -> &'static corvus::pddl::Domain {
    static DOMAIN: OnceLock<corvus::pddl::Domain> = OnceLock::new();
    DOMAIN.get_or_init(|| {
        corvus::pddl::parse_domain(include_str!("../../problems/ipc/blocks/domain.pddl"), "domain.pddl")
            .expect("the shipped Blocksworld domain parses")
    })
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(problem) = corvus::pddl::parse_problem(text, "fuzz.pddl")
    {
        let _ = corvus::pddl::check(domain(), &problem, "fuzz.pddl");
    }
});
