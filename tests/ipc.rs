//! The IPC corpus: every shared file parses, the first problems of every
//! domain are solved with validated plans, and A* with h_max is optimal.
//!
//! The shared corpus (`../shared/ipc`, or `CORVUS_SHARED`/ipc) is used when
//! present; the vendored subset under `problems/ipc` always is.

use std::path::{Path, PathBuf};

#[path = "asp_common.rs"]
mod common;

use corvus::heuristic::{HeuristicKind, blind, lmcount, lmcut, relax};
use corvus::planner::{self, Config, Options, Status};
use corvus::search::{LazyOptions, Limits, NoveltyUse, Strategy};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared corpus's IPC domains, when it is here: every file of it is
/// parsed on top of the vendored ones (the searches run on the vendored set).
fn shared_ipc() -> Option<PathBuf> {
    common::shared_root().map(|s| s.join("ipc"))
}

/// Sort key that puts `prob-4` before `prob-10`.
fn natural_key(name: &str) -> Vec<(u64, String)> {
    let mut key = Vec::new();
    let mut digits = String::new();
    let mut text = String::new();
    for c in name.chars() {
        if c.is_ascii_digit() {
            if !text.is_empty() {
                key.push((0, std::mem::take(&mut text)));
            }
            digits.push(c);
        } else {
            if !digits.is_empty() {
                key.push((digits.parse().unwrap_or(u64::MAX), String::new()));
                digits.clear();
            }
            text.push(c.to_ascii_lowercase());
        }
    }
    if !digits.is_empty() {
        key.push((digits.parse().unwrap_or(u64::MAX), String::new()));
    }
    if !text.is_empty() {
        key.push((0, text));
    }
    key
}

/// (domain file, problem files in natural order) of every domain folder.
fn domains(root: &Path) -> Vec<(PathBuf, Vec<PathBuf>)> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("corpus folder is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("domain.pddl").is_file())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let mut problems: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("domain folder is readable")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    // Other domain files (an original next to a fixed one) are no problems.
                    p.extension().is_some_and(|x| x == "pddl")
                        && p.file_name().is_some_and(|n| !n.to_string_lossy().contains("domain"))
                })
                .collect();
            problems.sort_by_key(|p| natural_key(&p.file_name().unwrap_or_default().to_string_lossy()));
            (dir.join("domain.pddl"), problems)
        })
        .collect()
}

/// Loads a task of the corpus. A domain that uses PDDL corvus does not
/// support yet (the shared corpus has ADL domains) must be refused by name,
/// as unsupported, with its location: then `None`, and the note says so.
/// Any other error fails the test.
fn load_supported(domain: &Path, problem: &Path) -> Option<(corvus::pddl::Domain, corvus::pddl::Problem)> {
    match corvus::pddl::load(domain, problem) {
        Ok(task) => Some(task),
        Err(e) if e.kind == corvus::pddl::ErrorKind::Unsupported => {
            let message = e.to_string();
            assert!(
                message.contains("unsupported PDDL feature") && message.contains(".pddl:"),
                "refusal without feature or location: {message}"
            );
            eprintln!("note: skipped, unsupported: {message}");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn corpora() -> Vec<PathBuf> {
    let mut roots = vec![crate_dir().join("problems/ipc"), crate_dir().join("problems/ipc-adl")];
    roots.extend(shared_ipc());
    roots
}

#[test]
fn every_corpus_file_parses_and_checks() {
    let mut parsed = 0;
    for root in corpora() {
        for (domain, problems) in domains(&root) {
            for problem in &problems {
                // An unsupported feature is usually the domain's: one note.
                if load_supported(&domain, problem).is_none() {
                    break;
                }
                parsed += 1;
            }
        }
    }
    // 10 domains vendored with 2 problems each, at least.
    assert!(parsed >= 20, "only {parsed} problems parsed");
}

fn gbfs_hff(seconds: u64) -> Options {
    Options {
        limits: Limits {
            time: Some(std::time::Duration::from_secs(seconds)),
            memory_bytes: None,
            ..Limits::default()
        },
        ..Options::single(Config::new(Strategy::Greedy, &relax::HFF))
    }
}

/// The domains vendored under `problems/ipc`: their first problems must be
/// solved. Other domains of the shared corpus (the harder satisficing ones
/// issue 15 is about) get a short limit, and a plan they return must be
/// valid; running out of time there is reported, not failed.
fn vendored_domains() -> Vec<std::ffi::OsString> {
    domains(&crate_dir().join("problems/ipc"))
        .into_iter()
        .filter_map(|(d, _)| d.parent().and_then(|p| p.file_name()).map(|n| n.to_os_string()))
        .collect()
}

/// Runs `config` on the first `per_domain` problems of every domain of
/// `roots`: a vendored domain's problems must be solved (within 60 s), the
/// others get 5 s and may run out of time or be beyond the grounder (noted
/// on stderr). Every plan is written, read back and replayed as `corvus
/// validate` would. Returns the problems solved.
fn first_problems_solved_with_valid_plans(config: Config, per_domain: usize, roots: &[PathBuf]) -> Vec<String> {
    let mut solved = Vec::new();
    let vendored = vendored_domains();
    for root in roots {
        for (domain, problems) in domains(root) {
            let must_solve = domain
                .parent()
                .and_then(|p| p.file_name())
                .is_some_and(|n| vendored.iter().any(|v| v == n));
            for problem in problems.iter().take(per_domain) {
                if load_supported(&domain, problem).is_none() {
                    break;
                }
                let options = Options {
                    configs: vec![(config.clone(), 1.0)],
                    ..gbfs_hff(if must_solve { 60 } else { 5 })
                };
                let report = match planner::solve_files(&domain, problem, &options) {
                    Ok(report) => report,
                    Err(planner::PlannerError::Unsupported(m)) if !must_solve => {
                        eprintln!("note: skipped, unsupported: {}: {m}", problem.display());
                        break;
                    }
                    Err(e) => panic!("{}: {e}", problem.display()),
                };
                if !must_solve && report.status == Status::OutOfTime {
                    eprintln!("note: {} did not solve {} within 5 s", config, problem.display());
                    continue;
                }
                assert_eq!(report.status, Status::Solved, "{} {}", config, problem.display());
                let found = report.plan.expect("a solved report has a plan");
                // solve_files validated the plan already; replay it once more
                // from its written form.
                let (d, p) = corvus::pddl::load(&domain, problem).expect("loads");
                let reread = corvus::plan::parse_plan(&found.to_ipc(), "written plan").expect("plan file parses");
                let v = corvus::plan::validate(&d, &p, &reread).expect("written plan is valid");
                assert_eq!(v.length, found.length);
                solved.push(problem.display().to_string());
            }
        }
    }
    solved
}

#[test]
fn first_problems_of_every_domain_are_solved_with_valid_plans() {
    let solved = first_problems_solved_with_valid_plans(Config::new(Strategy::Greedy, &relax::HFF), 3, &corpora());
    assert!(solved.len() >= 20, "solved only {solved:?}");
}

/// Greedy best-first search guided by the landmark count alone (its
/// preferred operators on).
#[test]
fn gbfs_with_landmark_count_finds_valid_plans() {
    let config = Config::new(Strategy::Greedy, &lmcount::LM_COUNT);
    let solved = first_problems_solved_with_valid_plans(config, 2, &corpora());
    assert!(solved.len() >= 20, "solved only {solved:?}");
}

#[test]
fn lazy_search_and_bfws_solve_the_vendored_problems_with_valid_plans() {
    let lazy = |novelty: NoveltyUse| {
        let mut config = Config::new(
            Strategy::Lazy(LazyOptions {
                novelty,
                ..LazyOptions::default()
            }),
            &relax::HFF,
        );
        config.evaluators.push(corvus::config::Evaluator::new(
            &corvus::heuristic::goalcount::GOAL_COUNT,
        ));
        config
    };
    let vendored = [crate_dir().join("problems/ipc")];
    let mut solved = 0;
    for novelty in [NoveltyUse::Off, NoveltyUse::FirstKey, NoveltyUse::OwnList] {
        solved += first_problems_solved_with_valid_plans(lazy(novelty), 2, &vendored).len();
    }
    assert!(solved >= 60, "solved only {solved}");
}

fn optimal_length(domain: &Path, problem: &Path, heuristic: &'static HeuristicKind) -> usize {
    let options = Options {
        unit_cost: true,
        ..Options::single(Config::new(Strategy::Astar, heuristic))
    };
    let report = planner::solve_files(domain, problem, &options).expect("solves");
    assert_eq!(report.status, Status::Solved, "{}", problem.display());
    report.plan.expect("plan").length
}

#[test]
fn astar_with_hmax_and_lmcut_finds_the_optimal_length_found_by_blind_search() {
    let root = crate_dir().join("problems/ipc");
    let cases = [
        ("blocks", "probBLOCKS-4-0.pddl", 6),
        ("blocks", "probBLOCKS-4-1.pddl", 10),
        ("gripper", "prob01.pddl", 11),
        ("logistics00", "probLOGISTICS-4-0.pddl", 20),
    ];
    for (dir, file, known) in cases {
        let domain = root.join(dir).join("domain.pddl");
        let problem = root.join(dir).join(file);
        let blind = optimal_length(&domain, &problem, &blind::BLIND);
        assert_eq!(blind, known, "{dir}/{file}: blind search");
        assert_eq!(
            optimal_length(&domain, &problem, &relax::HMAX),
            blind,
            "{dir}/{file}: h_max"
        );
        assert_eq!(
            optimal_length(&domain, &problem, &lmcut::LM_CUT),
            blind,
            "{dir}/{file}: LM-cut"
        );
    }
}

#[test]
fn grounding_the_same_files_twice_gives_the_same_task() {
    let root = crate_dir().join("problems/ipc");
    for (domain, problems) in domains(&root) {
        let problem = &problems[0];
        let (d, p) = corvus::pddl::load(&domain, problem).expect("loads");
        let (a, _) = corvus::ground::ground(&d, &p).expect("grounds");
        let (d, p) = corvus::pddl::load(&domain, problem).expect("loads");
        let (b, _) = corvus::ground::ground(&d, &p).expect("grounds");
        assert_eq!(a, b, "{}", problem.display());
    }
}
