//! The IPC plan reader, and the validator replaying what it reads on a fixed
//! small task (Blocksworld with 4 blocks).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

use corvus::pddl::{Domain, Problem};

fn task() -> &'static (Domain, Problem) {
    static TASK: OnceLock<(Domain, Problem)> = OnceLock::new();
    TASK.get_or_init(|| {
        let domain = corvus::pddl::parse_domain(include_str!("../../problems/ipc/blocks/domain.pddl"), "domain.pddl")
            .expect("the shipped Blocksworld domain parses");
        let problem = corvus::pddl::parse_problem(
            include_str!("../../problems/ipc/blocks/probBLOCKS-4-0.pddl"),
            "problem.pddl",
        )
        .expect("the shipped problem parses");
        (domain, problem)
    })
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(plan) = corvus::plan::parse_plan(text, "fuzz.plan")
    {
        let (domain, problem) = task();
        let _ = corvus::plan::validate(domain, problem, &plan);
    }
});
