//! The IPC plan reader, and the validator replaying what it reads on a fixed
//! small task (Blocksworld with 4 blocks): the plan read whole and then
//! validated must get the verdict that `validate_text` (the bounded reader
//! of `corvus validate`) gets. An input that starts with `*` is its rest
//! repeated to about 16 KB, so that long lines are read on every run.
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

const LONG: usize = 16_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text = match text.strip_prefix('*') {
        Some(rest) if !rest.is_empty() => rest.repeat(LONG / rest.len() + 1),
        _ => text.to_string(),
    };
    let (domain, problem) = task();
    let whole = corvus::plan::parse_plan(&text, "fuzz.plan").map(|plan| corvus::plan::validate(domain, problem, &plan));
    let bounded = corvus::plan::validate_text(domain, problem, &text, "fuzz.plan");
    match (&whole, &bounded) {
        (Err(a), Err(b)) => assert_eq!(a, b, "the same syntax error"),
        (Ok(Ok(a)), Ok(Ok(b))) => assert_eq!(a, b, "the same valid plan"),
        (Ok(Err(_)), Ok(Err(_))) => {}
        _ => panic!("verdicts differ: {whole:?} against {bounded:?}"),
    }
});
