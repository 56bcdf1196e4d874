//! `corvus asp solve | translate | witness | generate`.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::files::{self, HEADER_PDDL, Inputs, Kind};
use super::stats_json::{AspSolveStats, Stats};
use super::{CommandError, finish, read_file, write_stats};
use crate::exit;
use crate::limits::{self, Phase};
use crate::plan::parse_plan;
use crate::puzzles::asp::{self, AspError, Family, Instance, SolveOutcome};
use crate::search::Limits;

/// Loads an instance and prints its warnings.
pub(super) fn load_instance(path: &Path, family: Option<Family>) -> Result<Instance, AspError> {
    let instance = Instance::load(path, family)?;
    for w in &instance.warnings {
        eprintln!("warning: {w}");
    }
    Ok(instance)
}

/// Decides the instance within its step bound: the witness facts go to
/// stdout, the log and the verdict to stderr, the statistics to
/// `stats_json` when given.
pub fn asp_solve(
    instance: &Path,
    family: Option<Family>,
    limits: Limits,
    stats_json: Option<&Path>,
    verbose: bool,
) -> i32 {
    // The statistics file is written once the instance is read (also when
    // the search then fails, or a stop ends it); an instance that does not
    // load writes none, and the file of an earlier run is gone by then.
    if let Some(path) = stats_json
        && let Err(e) = Inputs::new([instance]).remove_stale(path, Kind::Stats)
    {
        return finish(Err(e));
    }
    // The limits and signals hold from the read of the instance on, and the
    // time counts from there. A stop ends the run with the same log and
    // statistics wherever it comes (see `limits::exit_report`); before the
    // instance is read, its step bound is reported as 0.
    let _watch = limits::watch(limits);
    let step_bound = Arc::new(AtomicU64::new(0));
    let (bound, stats) = (Arc::clone(&step_bound), stats_json.map(Path::to_path_buf));
    limits::exit_report(move |stopped| {
        let outcome = SolveOutcome::stopped(stopped.clone(), verbose);
        conclude(Ok(outcome), bound.load(Ordering::SeqCst), stats.as_deref(), verbose)
    });
    let loaded = limits::catch(|| {
        let _phase = limits::phase(Phase::Parsing);
        load_instance(instance, family)
    });
    let instance = match loaded {
        Ok(Ok(i)) => i,
        Ok(Err(e)) => return finish(Err(e.into())),
        Err(stopped) => return conclude(Ok(SolveOutcome::stopped(stopped, verbose)), 0, stats_json, verbose),
    };
    step_bound.store(instance.step_bound(), Ordering::SeqCst);
    conclude(
        asp::solve(&instance, limits, verbose),
        instance.step_bound(),
        stats_json,
        verbose,
    )
}

/// Prints the witness, the log and the verdict, writes the statistics and
/// returns the exit code.
fn conclude(result: Result<SolveOutcome, AspError>, step_bound: u64, stats_json: Option<&Path>, verbose: bool) -> i32 {
    let (code, stats) = match result {
        Ok(outcome) => {
            for line in outcome.witness.iter().flatten() {
                println!("{line}");
            }
            if verbose {
                eprintln!("{}", outcome.summary());
            }
            eprintln!("{}", outcome.verdict(step_bound));
            let stats = Stats::Asp(AspSolveStats::new(&outcome, step_bound));
            (outcome.status.exit_code(), stats)
        }
        Err(e) => {
            eprintln!("error: {e}");
            (e.exit_code(), Stats::error(e.to_string()))
        }
    };
    write_stats(stats_json, &stats, code)
}

/// Writes the instance as a PDDL problem, and the shipped domain to
/// `domain_out` when given.
pub fn asp_translate(instance: &Path, output: &Path, domain_out: Option<&Path>, family: Option<Family>) -> i32 {
    finish(translate(instance, output, domain_out, family))
}

fn translate(
    instance: &Path,
    output: &Path,
    domain_out: Option<&Path>,
    family: Option<Family>,
) -> Result<i32, CommandError> {
    let inputs = Inputs::new([instance]);
    inputs.check(output, Kind::Generated)?;
    if let Some(d) = domain_out {
        if files::same_path(d, output) {
            return Err(CommandError::Usage(format!(
                "{}: named as both the problem and the domain output",
                d.display()
            )));
        }
        inputs.check(d, Kind::Generated)?;
    }
    let i = load_instance(instance, family)?;
    let header = format!("{HEADER_PDDL} asp translate {}\n", files::one_line(instance));
    let write = |path: &Path, text: &str| {
        files::write(path, format!("{header}{text}").as_bytes())
            .map_err(CommandError::io(format!("{}: cannot write file", path.display())))
    };
    write(output, &i.problem_pddl())?;
    if let Some(d) = domain_out {
        write(d, i.domain_pddl())?;
    }
    eprintln!(
        "{} instance written to {} (bound: {} steps)",
        i.family().name(),
        output.display(),
        i.step_bound()
    );
    Ok(exit::PLAN_FOUND)
}

/// Turns a plan file for the translated instance into witness facts on
/// stdout (checked by replay).
pub fn asp_witness(instance: &Path, plan: &Path, family: Option<Family>) -> i32 {
    finish(witness(instance, plan, family))
}

fn witness(instance: &Path, plan: &Path, family: Option<Family>) -> Result<i32, CommandError> {
    let i = load_instance(instance, family)?;
    let parsed = parse_plan(&read_file(plan)?, &plan.display().to_string())?;
    for line in i.witness(&parsed)? {
        println!("{line}");
    }
    Ok(exit::PLAN_FOUND)
}

/// Writes a Hanoi instance made the competition's way to stdout.
pub fn asp_generate_hanoi(discs: u32, pegs: u32, start: u64, steps: u64) -> i32 {
    finish(
        asp::frame_stewart::generate(discs, pegs, start, steps)
            .map(|text| {
                print!("{text}");
                exit::PLAN_FOUND
            })
            .map_err(CommandError::Input),
    )
}
