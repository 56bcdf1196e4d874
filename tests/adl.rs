//! The ADL front end on files: the hand-written domains of `tests/data/adl`
//! (parse, check, validate valid and mutated plans) and the six ADL domains
//! of the shared corpus (parse, check, normalize).

use std::path::PathBuf;

use corvus::normalize::normalize;
use corvus::pddl;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shared_ipc() -> Option<PathBuf> {
    let base = std::env::var_os("CORVUS_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir().join("../shared"));
    let ipc = base.join("ipc");
    ipc.is_dir().then_some(ipc)
}

/// The shared ADL domains: (folder, first problem file).
const SHARED_ADL: &[(&str, &str)] = &[
    ("miconic-simpleadl", "s1-0.pddl"),
    ("schedule", "probschedule-2-0.pddl"),
    ("assembly", "prob01.pddl"),
    ("openstacks-sat08-adl", "p01.pddl"),
    ("airport-adl", "p01-airport1-p1.pddl"),
    ("psr-middle", "p01-s17-n2-l2-f30.pddl"),
];

#[test]
fn shared_adl_domains_parse_check_and_normalize() {
    let Some(ipc) = shared_ipc() else {
        eprintln!("note: the shared corpus is not present");
        return;
    };
    for (folder, problem) in SHARED_ADL {
        let dir = ipc.join(folder);
        let (d, p) =
            pddl::load(&dir.join("domain.pddl"), &dir.join(problem)).unwrap_or_else(|e| panic!("{folder}: {e}"));
        let n = normalize(&d, &p);
        let effects: usize = n.actions.iter().map(|a| a.effects.len()).sum();
        eprintln!(
            "{folder}: {} actions -> {} normal actions, {effects} effects, {} axioms, {} derived predicates, goal of {} literals",
            d.actions.len(),
            n.actions.len(),
            n.axioms.len(),
            n.derived_predicates.len(),
            n.goal.len()
        );
        assert!(!n.actions.is_empty(), "{folder}");
        assert!(!n.goal.is_empty(), "{folder}");
    }
}
