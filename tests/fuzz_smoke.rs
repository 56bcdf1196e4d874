//! A CI-sized fuzz smoke test: deterministic mutations of the small input
//! files shipped in the repository (byte flips, truncations, deletions,
//! duplications, inserted tokens, deep nesting) fed to every reader. No input
//! may panic, and every error must name a place `file:line:col` that lies in
//! the text. The coverage-guided fuzzers in `fuzz/` go much further; this
//! keeps their findings from coming back.

use std::panic::{AssertUnwindSafe, catch_unwind};

use corvus::pddl::{self, Location};
use corvus::plan;
use corvus::puzzles::asp::{AspErrorKind, Instance, parse_facts};
// Seeded, so that a failure names a reproducible case.
use corvus::rng::Rng;

/// Mutants per seed file and mutation kind (times 7 kinds, about 30 seeds):
/// about 20 s in a debug build, 2 s in release.
const MUTANTS: usize = 60;

const BLOCKS_DOMAIN: &str = include_str!("../problems/ipc/blocks/domain.pddl");
const BLOCKS_PROBLEM: &str = include_str!("../problems/ipc/blocks/probBLOCKS-4-0.pddl");

const DOMAINS: &[(&str, &str)] = &[
    ("blocks-domain.pddl", BLOCKS_DOMAIN),
    (
        "gripper-domain.pddl",
        include_str!("../problems/ipc/gripper/domain.pddl"),
    ),
    ("hanoi.pddl", include_str!("../domains/hanoi.pddl")),
    ("sokoban.pddl", include_str!("../domains/sokoban.pddl")),
    ("switch-domain.pddl", include_str!("data/switch-domain.pddl")),
    ("forall-domain.pddl", include_str!("data/forall-domain.pddl")),
    ("briefcase-domain.pddl", include_str!("data/adl/briefcase-domain.pddl")),
    ("network-domain.pddl", include_str!("data/adl/network-domain.pddl")),
    ("lights-domain.pddl", include_str!("data/adl/lights-domain.pddl")),
];

/// Problems for the Blocksworld domain (checked against it), and others that
/// exercise the problem grammar only.
const PROBLEMS: &[(&str, &str)] = &[
    ("blocks-4-0.pddl", BLOCKS_PROBLEM),
    (
        "blocks-4-1.pddl",
        include_str!("../problems/ipc/blocks/probBLOCKS-4-1.pddl"),
    ),
    ("blocks-12-0.pddl", include_str!("data/blocks-12-0.pddl")),
    ("switch-two.pddl", include_str!("data/switch-two.pddl")),
    (
        "switch-syntax-error.pddl",
        include_str!("data/switch-syntax-error.pddl"),
    ),
    ("gripper-01.pddl", include_str!("../problems/ipc/gripper/prob01.pddl")),
];

const ASP: &[(&str, &str)] = &[
    ("hanoi-seed.asp", include_str!("../problems/hanoi-seed.asp")),
    ("hanoi-seed.witness", include_str!("../problems/hanoi-seed.witness")),
    (
        "sokoban.asp",
        "player(p). stone(s). goal(s). isgoal(d). isnongoal(a). isnongoal(b). isnongoal(c).\n\
         at(p,a). at(s,b). clear(c). clear(d). step(1..5).\n\
         movedir(a,b,dir_right). movedir(b,c,dir_right). movedir(c,d,dir_right).\n\
         movedir(b,a,dir_left). movedir(c,b,dir_left). movedir(d,c,dir_left).\n\
         %* a block\ncomment *% q(\"a \\\" string\", -3, 1..2).\n",
    ),
];

const PLANS: &[(&str, &str)] = &[
    (
        "blocks.plan",
        "(pick-up b)\n(stack b a)\n(pick-up c)\n(stack c b)\n(pick-up d)\n(stack d c)\n; cost = 6 (unit cost)\n",
    ),
    (
        "stamped.plan",
        "0: (pick-up b) [1]\n1.5: (STACK B A) [1]\n(pick-up c) (stack c b) ; two on a line\n",
    ),
    ("switch-bad-plan.txt", include_str!("data/switch-bad-plan.txt")),
];

/// Tokens that matter to one of the grammars, inserted at random places.
const TOKENS: &[&str] = &[
    "(",
    ")",
    ";",
    "\r",
    "\n",
    "%",
    "%*",
    "*%",
    "\"",
    ".",
    "..",
    ",",
    "-",
    "?",
    ":",
    "=",
    "[",
    "]",
    "0:",
    "1..",
    "(and",
    "(not",
    "(either",
    "(:types",
    " - ",
    "9999999999999999999999",
    "\u{feff}",
    "é",
    "\t",
    "*",
];

/// The mutants of `text` of one kind (0..7). Byte-level edits may break
/// UTF-8; those are repaired lossily, as a reader of a file would see them
/// only after `read_to_string` succeeded.
fn mutants(text: &str, kind: usize, rng: &mut Rng) -> Vec<String> {
    let bytes = text.as_bytes();
    let n = bytes.len().max(1);
    (0..MUTANTS)
        .map(|_| {
            let mut b = bytes.to_vec();
            let at = rng.below_usize(n).min(b.len());
            match kind {
                // Flip one to three bits.
                0 => {
                    for _ in 0..1 + rng.below_usize(3) {
                        let i = rng.below_usize(b.len());
                        if let Some(x) = b.get_mut(i) {
                            *x ^= 1 << rng.below_usize(8);
                        }
                    }
                }
                // Truncate.
                1 => b.truncate(at),
                // Delete a range.
                2 => {
                    let end = (at + 1 + rng.below_usize(40)).min(b.len());
                    b.drain(at..end);
                }
                // Duplicate a range in place.
                3 => {
                    let end = (at + 1 + rng.below_usize(200)).min(b.len());
                    let copy = b[at..end].to_vec();
                    b.splice(at..at, copy);
                }
                // Insert grammar tokens.
                4 => {
                    for _ in 0..1 + rng.below_usize(4) {
                        let t = TOKENS[rng.below_usize(TOKENS.len())];
                        let i = rng.below_usize(b.len() + 1);
                        b.splice(i..i, t.bytes());
                    }
                }
                // Deep nesting, also behind a comment ended by `\r`.
                5 => {
                    let depth = [50, 101, 1_000, 100_000][rng.below_usize(4)];
                    let prefix = ["", ";c\r", "%c\r", "\n"][rng.below_usize(4)];
                    let mut ins = prefix.as_bytes().to_vec();
                    ins.extend(std::iter::repeat_n(b'(', depth));
                    ins.push(b'a');
                    if rng.below_usize(2) == 0 {
                        ins.extend(std::iter::repeat_n(b')', depth));
                    }
                    b.splice(at..at, ins);
                }
                // Replace a byte by a random one.
                _ => {
                    if let Some(x) = b.get_mut(at) {
                        *x = rng.next_u64() as u8;
                    }
                }
            }
            String::from_utf8_lossy(&b).into_owned()
        })
        .collect()
}

/// The message names `file:line:col` and the place is inside `text`.
fn assert_place(message: &str, file: &str, location: Location, text: &str) {
    assert!(
        message.starts_with(&format!("{file}:{}:{}: ", location.line, location.col)),
        "error without its place: {message}"
    );
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        location.line >= 1 && location.line <= lines.len(),
        "line {} outside the text ({} lines): {message}",
        location.line,
        lines.len()
    );
    let width = lines[location.line - 1].chars().count();
    assert!(
        location.col >= 1 && location.col <= width + 1,
        "column {} outside line {} ({width} characters): {message}",
        location.col,
        location.line
    );
}

/// Runs `check` on every mutant of every seed, naming the case that panics.
fn for_all_mutants(seeds: &[(&str, &str)], salt: u64, check: impl Fn(&str)) -> usize {
    let mut cases = 0;
    for (i, (name, text)) in seeds.iter().enumerate() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15 ^ salt ^ (i as u64 + 1).wrapping_mul(0x1234_5678_9abc_def1));
        for kind in 0..7 {
            for (m, mutant) in mutants(text, kind, &mut rng).iter().enumerate() {
                cases += 1;
                if catch_unwind(AssertUnwindSafe(|| check(mutant))).is_err() {
                    let shown: String = mutant.chars().take(400).collect();
                    panic!("{name}: mutation kind {kind} #{m} panics; input starts: {shown:?}");
                }
            }
        }
    }
    cases
}

#[test]
fn pddl_domain_reader_survives_mutations() {
    let no_objects = pddl::Problem {
        name: "p".to_string(),
        domain: "d".to_string(),
        objects: Vec::new(),
        init: Vec::new(),
        numeric_init: Vec::new(),
        goal: pddl::Condition::truth(),
        minimize_total_cost: false,
    };
    let cases = for_all_mutants(DOMAINS, 1, |text| match pddl::parse_domain(text, "d.pddl") {
        Err(e) => assert_place(&e.to_string(), "d.pddl", e.location, text),
        // A domain that passes the checks normalizes, whatever it holds,
        // into variants linear in its size (products of disjunctions are
        // capped at 32).
        Ok(d) => {
            let normal = corvus::normalize::normalize(&d, &no_objects);
            assert!(normal.actions.len() <= 32 * text.len(), "{normal}");
        }
    });
    assert!(cases > 1000);
}

#[test]
fn pddl_problem_reader_and_checks_survive_mutations() {
    let domain = pddl::parse_domain(BLOCKS_DOMAIN, "domain.pddl").expect("the Blocksworld domain parses");
    let cases = for_all_mutants(PROBLEMS, 2, |text| {
        if let Err(e) = pddl::parse_problem_for(&domain, text, "p.pddl") {
            assert_place(&e.to_string(), "p.pddl", e.location, text);
        }
    });
    assert!(cases > 1000);
}

#[test]
fn asp_reader_and_instance_checks_survive_mutations() {
    let cases = for_all_mutants(ASP, 3, |text| {
        if let Err(e) = parse_facts(text, "i.asp") {
            let location = e
                .location
                .unwrap_or_else(|| panic!("reader error without a place: {e}"));
            assert_place(&e.to_string(), "i.asp", location, text);
        }
        match Instance::parse(text, "i.asp", None) {
            Ok(_) => {}
            Err(e) => match e.location {
                Some(location) => assert_place(&e.to_string(), "i.asp", location, text),
                // Only something missing from the instance as a whole has no place.
                None => assert_eq!(e.kind, AspErrorKind::Instance, "{e}"),
            },
        }
    });
    assert!(cases > 500);
}

#[test]
fn plan_reader_and_validator_survive_mutations() {
    let domain = pddl::parse_domain(BLOCKS_DOMAIN, "domain.pddl").expect("the Blocksworld domain parses");
    let problem = pddl::parse_problem_for(&domain, BLOCKS_PROBLEM, "problem.pddl").expect("the problem parses");
    let valid = plan::parse_plan(PLANS[0].1, "blocks.plan").expect("the seed plan parses");
    assert!(
        plan::validate(&domain, &problem, &valid).is_ok(),
        "the seed plan is valid"
    );
    let cases = for_all_mutants(PLANS, 4, |text| match plan::parse_plan(text, "x.plan") {
        Ok(p) => {
            let _ = plan::validate(&domain, &problem, &p);
        }
        Err(e) => assert_place(&e.to_string(), "x.plan", e.location, text),
    });
    assert!(cases > 500);
}
