//! The `corvus` command line: parses arguments and calls the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};

use corvus::heuristic::HeuristicKind;
use corvus::planner::{self, Bound, Config, Options, Report, exit};
use corvus::search::{Limits, SearchKind};

#[derive(Parser)]
#[command(
    name = "corvus",
    version,
    about = "A domain-independent classical planner: PDDL in, a validated plan out",
    after_help = "Exit codes: 0 plan found, 1 plan invalid (validate), 11 proven unsolvable (within the bound), \
12 search incomplete, 22 out of memory, 23 out of time, 24 interrupted, 30 internal error, \
31 input error, 34 unsupported PDDL feature."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a PDDL task and write a validated plan file.
    #[command(after_help = "Examples:\n  \
corvus solve domains/blocks.pddl problems/blocks-4.pddl\n  \
corvus solve d.pddl p.pddl --search astar --heuristic lmcut --plan-file plan.txt\n  \
corvus solve d.pddl p.pddl --max-steps 40 --time-limit 5m --memory-limit 8G")]
    Solve(SolveArgs),
    /// Check a plan file (also one written by another planner) against a task.
    #[command(after_help = "Example:\n  corvus validate domain.pddl problem.pddl sas_plan")]
    Validate {
        domain: PathBuf,
        problem: PathBuf,
        plan: PathBuf,
    },
    /// ASP Competition instances (Tower of Hanoi, Sokoban): solve, translate, witness, generate.
    Asp {
        #[command(subcommand)]
        command: AspCommand,
    },
    /// Draw a Hanoi or Sokoban plan step by step: INSTANCE.asp WITNESS, or DOMAIN PROBLEM PLAN.
    #[command(
        after_help = "Exit codes: 0 drawn, 1 a step does not apply or the goal does not hold (the \
states up to it are drawn), 2 --step beyond the plan, 31 input error, 34 neither Hanoi nor Sokoban.\n\n\
Examples:\n  corvus show problems/hanoi-seed.asp problems/hanoi-seed.witness\n  \
corvus show domains/sokoban.pddl problem.pddl sas_plan --step 12\n  \
corvus show level.asp witness.lp --animate --delay 150"
    )]
    Show(ShowArgs),
    /// Sokoban levels in the XSB text format: import, LURD export, LURD replay.
    Sokoban {
        #[command(subcommand)]
        command: SokobanCommand,
    },
}

#[derive(clap::Args)]
struct ShowArgs {
    /// INSTANCE.asp WITNESS, or DOMAIN PROBLEM PLAN.
    #[arg(num_args = 2..=3, required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Only the state after N steps.
    #[arg(long, value_name = "N", conflicts_with = "animate")]
    step: Option<usize>,
    /// Play the plan in place on the terminal (the plain sequence when stdout is not a terminal).
    #[arg(long)]
    animate: bool,
    /// Milliseconds between pictures of --animate.
    #[arg(long, value_name = "MS", default_value_t = 300)]
    delay: u64,
    /// Instance family of INSTANCE.asp [default: detected from the predicates].
    #[arg(long, value_enum)]
    family: Option<FamilyArg>,
}

#[derive(Subcommand)]
enum SokobanCommand {
    /// Turn an XSB level into a PDDL problem for domains/sokoban.pddl, or into ASP instance facts.
    #[command(
        after_help = "Exit codes: 0 written, 31 unreadable level (file:line:col).\n\nExamples:\n  \
corvus sokoban import level.xsb -o problem.pddl\n  \
corvus sokoban import levels.xsb --level 3 --asp --steps 60 > level3.asp"
    )]
    Import {
        level_file: PathBuf,
        /// Which level of the file, from 1.
        #[arg(long, value_name = "K", default_value_t = 1)]
        level: usize,
        /// Write the ASP Competition's instance facts instead of PDDL.
        #[arg(long)]
        asp: bool,
        /// Step bound N of the ASP instance (step(1..N)) [default: 200].
        #[arg(long, value_name = "N", requires = "asp", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        steps: Option<u64>,
        /// Where to write [default: stdout].
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Print a Sokoban plan as a LURD string: INSTANCE.asp WITNESS, or DOMAIN PROBLEM PLAN.
    #[command(
        after_help = "l u r d walk, L U R D push.\n\nExample:\n  corvus sokoban lurd domains/sokoban.pddl problem.pddl sas_plan"
    )]
    Lurd {
        #[arg(num_args = 2..=3, required = true, value_name = "FILES")]
        files: Vec<PathBuf>,
    },
    /// Play a LURD string on an XSB level and draw the end state; exit 0 when every stone is on a goal.
    #[command(
        after_help = "Exit codes: 0 solved, 1 a move does not apply or stones are left off goals, \
31 unreadable level.\n\nExample:\n  corvus sokoban replay level.xsb ruulDrdL"
    )]
    Replay {
        level_file: PathBuf,
        /// The moves; `-` reads them from stdin.
        lurd: String,
        #[arg(long, value_name = "K", default_value_t = 1)]
        level: usize,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum FamilyArg {
    Hanoi,
    Sokoban,
}

impl FamilyArg {
    fn family(self) -> corvus::asp::Family {
        match self {
            FamilyArg::Hanoi => corvus::asp::Family::Hanoi,
            FamilyArg::Sokoban => corvus::asp::Family::Sokoban,
        }
    }
}

#[derive(Subcommand)]
enum AspCommand {
    /// Decide an instance within its step bound; the witness facts go to stdout, the log to stderr.
    #[command(
        after_help = "Exit codes: 0 witness printed, 11 proven: no witness within the bound, \
23 out of time, 22 out of memory, 31 input error.\n\nExample:\n  \
corvus asp solve problems/hanoi-seed.asp > witness.lp"
    )]
    Solve {
        instance: PathBuf,
        /// Instance family [default: detected from the predicates].
        #[arg(long, value_enum)]
        family: Option<FamilyArg>,
        /// Time limit: seconds, or with a unit: 30s, 5m, 1h.
        #[arg(long, value_name = "T", value_parser = parse_duration)]
        time_limit: Option<Duration>,
        /// Memory limit: 512M, 8G (K, M, G binary units; a plain number is MiB).
        #[arg(long, value_name = "M", value_parser = parse_memory)]
        memory_limit: Option<u64>,
        /// Write the outcome and the final statistics as one JSON object to FILE.
        #[arg(long, value_name = "FILE")]
        stats_json: Option<PathBuf>,
        /// Print only errors and the verdict.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Write the instance as a PDDL problem (and optionally the shipped domain).
    #[command(after_help = "Example:\n  corvus asp translate I.asp -o problem.pddl --domain-out domain.pddl")]
    Translate {
        instance: PathBuf,
        /// Where to write the problem.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Where to write the domain.
        #[arg(long, value_name = "FILE")]
        domain_out: Option<PathBuf>,
        #[arg(long, value_enum)]
        family: Option<FamilyArg>,
    },
    /// Turn an IPC plan file for the translated instance into witness facts (checked by replay).
    Witness {
        instance: PathBuf,
        plan: PathBuf,
        #[arg(long, value_enum)]
        family: Option<FamilyArg>,
    },
    /// Write an instance made the competition's way (to stdout).
    Generate {
        #[command(subcommand)]
        family: GenerateFamily,
    },
}

#[derive(Subcommand)]
enum GenerateFamily {
    /// A segment of the optimal move sequence: the state after START moves is on0, after START+K moves ongoal.
    #[command(after_help = "Example:\n  corvus asp generate hanoi --discs 17 --start 80 --steps 30 > h.asp")]
    Hanoi {
        #[arg(long, value_name = "N")]
        discs: u32,
        /// Moves made before the instance starts (0 = all discs on peg 1).
        #[arg(long, value_name = "S", default_value_t = 0)]
        start: u64,
        /// Length K of the segment: steps(K).
        #[arg(long, value_name = "K")]
        steps: u64,
        /// 4 (Frame–Stewart) or 3 (the classic puzzle; disk(4) is left out, so peg 4 does not exist).
        #[arg(long, default_value_t = 4)]
        pegs: u32,
    },
}

/// `--search` values: the search registry's names, with their declared properties as help.
fn search_arg() -> impl TypedValueParser<Value = &'static SearchKind> {
    PossibleValuesParser::new(
        corvus::search::KINDS
            .iter()
            .map(|k| PossibleValue::new(k.name).help(k.describe())),
    )
    .try_map(|name| corvus::search::kind(&name).ok_or_else(|| format!("unknown search `{name}`")))
}

/// `--heuristic` values: the heuristic registry's names, with their declared properties as help.
fn heuristic_arg() -> impl TypedValueParser<Value = &'static HeuristicKind> {
    PossibleValuesParser::new(
        corvus::heuristic::KINDS
            .iter()
            .map(|k| PossibleValue::new(k.name).help(k.describe())),
    )
    .try_map(|name| corvus::heuristic::kind(&name).ok_or_else(|| format!("unknown heuristic `{name}`")))
}

#[derive(clap::Args)]
struct SolveArgs {
    domain: PathBuf,
    problem: PathBuf,
    /// Search algorithm.
    #[arg(long, value_parser = search_arg(), default_value = "gbfs")]
    search: &'static SearchKind,
    /// Heuristic [default: the search algorithm's, see --search].
    #[arg(long, value_parser = heuristic_arg())]
    heuristic: Option<&'static HeuristicKind>,
    /// Weight W of weighted A*.
    #[arg(long, default_value_t = 2.0)]
    weight: f64,
    /// Do not use preferred operators (helpful actions of h_FF).
    #[arg(long)]
    no_preferred: bool,
    /// Exact goal distances near the goal from a backward search, around the heuristic.
    #[arg(long)]
    perimeter: bool,
    /// Store states packed by the task's invariant groups: less memory per state, slower search.
    #[arg(long)]
    pack_states: bool,
    /// Only plans of total cost at most N.
    #[arg(long, value_name = "N", conflicts_with = "max_steps")]
    max_cost: Option<u64>,
    /// Only plans of at most N actions, whatever their costs.
    #[arg(long, value_name = "N")]
    max_steps: Option<u64>,
    /// Treat every action as cost 1.
    #[arg(long)]
    unit_cost: bool,
    /// Time limit: seconds, or with a unit: 30s, 5m, 1h.
    #[arg(long, value_name = "T", value_parser = parse_duration)]
    time_limit: Option<Duration>,
    /// Memory limit: 512M, 8G (K, M, G binary units; a plain number is MiB).
    #[arg(long, value_name = "M", value_parser = parse_memory)]
    memory_limit: Option<u64>,
    /// Where to write the plan.
    #[arg(long, value_name = "FILE", default_value = "sas_plan")]
    plan_file: PathBuf,
    /// Write the outcome and the final statistics as one JSON object to FILE.
    #[arg(long, value_name = "FILE")]
    stats_json: Option<PathBuf>,
    /// Print only errors.
    #[arg(long, short)]
    quiet: bool,
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (number, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (expected e.g. 30, 30s, 5m, 1h)"))?;
    let seconds = match unit {
        "s" => value,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(format!("unknown time unit `{unit}` (expected s, m or h)")),
    };
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!("`{s}` is not a non-negative duration"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn parse_memory(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (number, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], s[i..].to_ascii_uppercase()),
        None => (s, "M".to_string()),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a memory size (expected e.g. 512M, 8G)"))?;
    let factor = match unit.trim_end_matches(['B', 'I']) {
        "K" => 1u64 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        "" => 1,
        _ => return Err(format!("unknown memory unit `{unit}` (expected K, M or G)")),
    };
    if !value.is_finite() || value < 0.0 {
        return Err(format!("`{s}` is not a non-negative memory size"));
    }
    Ok((value * factor as f64) as u64)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Ctrl-C stops the search, which then reports what it has.
    let _ = ctrlc::set_handler(|| corvus::search::interrupt_flag().store(true, Ordering::SeqCst));
    let code = match cli.command {
        Command::Solve(args) => solve(&args),
        Command::Validate { domain, problem, plan } => validate(&domain, &problem, &plan),
        Command::Asp { command } => asp(command),
        Command::Show(args) => show(&args),
        Command::Sokoban { command } => sokoban(command),
    };
    ExitCode::from(code as u8)
}

fn solve(args: &SolveArgs) -> i32 {
    let (code, stats) = solve_and_report(args);
    match &args.stats_json {
        Some(path) => write_stats_json(path, stats, code),
        None => code,
    }
}

/// Runs `corvus solve`; returns the exit code and the statistics object for
/// `--stats-json` (without its `exit_code`, which [`write_stats_json`] adds).
fn solve_and_report(args: &SolveArgs) -> (i32, serde_json::Value) {
    let heuristic = match args
        .heuristic
        .or_else(|| corvus::heuristic::kind(args.search.default_heuristic))
    {
        Some(h) => h,
        None => {
            let message = format!("unknown default heuristic of {}", args.search.name);
            eprintln!("error: {message}");
            return (exit::INTERNAL_ERROR, error_json(&message));
        }
    };
    let bound = match (args.max_cost, args.max_steps) {
        (Some(n), _) => Some(Bound::Cost(n)),
        (None, Some(n)) => Some(Bound::Steps(n)),
        (None, None) => None,
    };
    let options = Options {
        config: Config {
            preferred_operators: !args.no_preferred && heuristic.preferred_operators,
            perimeter: args.perimeter,
            ..Config::new((args.search.strategy)(args.weight), heuristic)
        },
        bound,
        unit_cost: args.unit_cost,
        limits: Limits {
            time: args.time_limit,
            memory_bytes: args.memory_limit,
            ..Limits::default()
        },
        pack_states: args.pack_states,
        verbose: !args.quiet,
    };
    let report = match planner::solve_files(&args.domain, &args.problem, &options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return (e.exit_code(), error_json(&e.to_string()));
        }
    };
    if !args.quiet {
        print_statistics(&report);
    }
    let json = report_json(&report, &args.plan_file);
    if let Some(found) = &report.plan {
        if let Err(e) = std::fs::write(&args.plan_file, found.to_ipc()) {
            let message = format!("cannot write plan file {}: {e}", args.plan_file.display());
            eprintln!("error: {message}");
            return (exit::INPUT_ERROR, error_json(&message));
        }
        if !args.quiet {
            eprintln!(
                "plan written to {} (length {}, cost {})",
                args.plan_file.display(),
                found.length,
                found.cost
            );
        }
    } else {
        eprintln!("{}", report.status.describe());
    }
    (report.status.exit_code(), json)
}

/// The `status` field of `--stats-json`.
fn status_name(status: planner::Status) -> &'static str {
    use planner::Status;
    match status {
        Status::Solved => "solved",
        Status::Unsolvable => "unsolvable",
        Status::Incomplete => "incomplete",
        Status::OutOfTime => "out-of-time",
        Status::OutOfMemory => "out-of-memory",
        Status::Interrupted => "interrupted",
    }
}

fn insert_search_json(map: &mut serde_json::Map<String, serde_json::Value>, s: &corvus::search::Statistics) {
    map.insert("expanded".into(), s.expanded.into());
    map.insert("evaluated".into(), s.evaluated.into());
    map.insert("generated".into(), s.generated.into());
    map.insert("reopened".into(), s.reopened.into());
    map.insert("dead_ends".into(), s.dead_ends.into());
    map.insert("pruned_by_bound".into(), s.pruned_by_bound.into());
    map.insert("initial_h".into(), s.initial_h.into());
    map.insert("search_time_s".into(), s.search_time.as_secs_f64().into());
    map.insert("peak_memory_bytes".into(), s.peak_memory_bytes.into());
}

fn report_json(report: &Report, plan_file: &Path) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    map.insert("status".into(), status_name(report.status).into());
    let found = report.plan.as_ref();
    map.insert("plan_length".into(), found.map(|f| f.length).into());
    map.insert("plan_cost".into(), found.map(|f| f.cost).into());
    map.insert("unit_cost".into(), found.map(|f| f.unit_cost).into());
    map.insert(
        "plan_file".into(),
        found.map(|_| plan_file.display().to_string()).into(),
    );
    map.insert("config".into(), report.config.clone().into());
    map.insert("facts".into(), report.ground.facts.into());
    map.insert("operators".into(), report.ground.operators.into());
    insert_search_json(&mut map, &report.search);
    map.insert("total_time_s".into(), report.total_time.as_secs_f64().into());
    serde_json::Value::Object(map)
}

/// For runs that end in an error before a search result.
fn error_json(message: &str) -> serde_json::Value {
    serde_json::json!({ "status": "error", "error": message })
}

/// Adds the exit code, writes the object and returns the exit code (or the
/// input-error code if the file cannot be written).
fn write_stats_json(path: &Path, mut stats: serde_json::Value, code: i32) -> i32 {
    if let serde_json::Value::Object(map) = &mut stats {
        map.insert("exit_code".into(), code.into());
    }
    let mut text = stats.to_string();
    text.push('\n');
    match std::fs::write(path, text) {
        Ok(()) => code,
        Err(e) => {
            eprintln!("error: cannot write statistics file {}: {e}", path.display());
            exit::INPUT_ERROR
        }
    }
}

fn print_statistics(report: &Report) {
    eprintln!(
        "configuration: {} | status: {} | total time {:.3}s",
        report.config,
        report.status.describe(),
        report.total_time.as_secs_f64()
    );
}

fn validate(domain: &Path, problem: &Path, plan_path: &Path) -> i32 {
    let (d, p) = match corvus::pddl::load(domain, problem) {
        Ok(dp) => dp,
        Err(e) => {
            eprintln!("error: {e}");
            return planner::PlannerError::Input(e).exit_code();
        }
    };
    let text = match std::fs::read_to_string(plan_path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: cannot read file: {e}", plan_path.display());
            return exit::INPUT_ERROR;
        }
    };
    let plan = match corvus::plan::parse_plan(&text, &plan_path.display().to_string()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::INPUT_ERROR;
        }
    };
    match corvus::plan::validate(&d, &p, &plan) {
        Ok(v) => {
            println!("plan valid: {} steps, cost {}", v.length, v.cost);
            exit::PLAN_FOUND
        }
        Err(e) => {
            println!("plan invalid: {e}");
            exit::PLAN_INVALID
        }
    }
}

fn asp(command: AspCommand) -> i32 {
    use corvus::asp::{self, Instance};
    let load = |path: &Path, family: Option<FamilyArg>| {
        let instance = Instance::load(path, family.map(FamilyArg::family));
        if let Ok(i) = &instance {
            for w in &i.warnings {
                eprintln!("warning: {w}");
            }
        }
        instance
    };
    // `asp solve --stats-json`: where to write, and what (None: an error).
    let mut stats_path: Option<PathBuf> = None;
    let mut stats: Option<serde_json::Value> = None;
    let result = match command {
        AspCommand::Solve {
            instance,
            family,
            time_limit,
            memory_limit,
            stats_json,
            quiet,
        } => load(&instance, family).and_then(|i| {
            stats_path = stats_json;
            let limits = Limits {
                time: time_limit,
                memory_bytes: memory_limit,
                ..Limits::default()
            };
            let outcome = asp::solve(&i, limits, !quiet)?;
            stats = Some(asp_outcome_json(&outcome, i.step_bound()));
            if let Some(witness) = &outcome.witness {
                for line in witness {
                    println!("{line}");
                }
            }
            if !quiet {
                eprintln!(
                    "search: {} | expanded {} | total time {:.3}s",
                    outcome.stages.join(", "),
                    outcome.search.expanded,
                    outcome.total_time.as_secs_f64()
                );
            }
            match outcome.plan_length {
                Some(n) => eprintln!("witness of {n} steps (bound {}), validated by replay", i.step_bound()),
                None if outcome.status == planner::Status::Unsolvable && outcome.stages.len() > 1 => eprintln!(
                    "no witness: proven that no plan of exactly {} moves without moving a disc twice in a row exists",
                    i.step_bound()
                ),
                None if outcome.status == planner::Status::Unsolvable => eprintln!(
                    "no witness: proven that no plan within the bound of {} steps exists",
                    i.step_bound()
                ),
                None => eprintln!("no answer: {}", outcome.status.describe()),
            }
            Ok(outcome.status.exit_code())
        }),
        AspCommand::Translate {
            instance,
            output,
            domain_out,
            family,
        } => load(&instance, family).and_then(|i| {
            let write = |path: &Path, text: &str| {
                std::fs::write(path, text).map_err(|e| corvus::asp::AspError {
                    kind: corvus::asp::AspErrorKind::Io,
                    file: path.display().to_string(),
                    location: None,
                    message: format!("cannot write file: {e}"),
                })
            };
            write(&output, &i.problem_pddl())?;
            if let Some(d) = &domain_out {
                write(d, i.domain_pddl())?;
            }
            eprintln!(
                "{} instance written to {} (bound: {} steps)",
                i.family().name(),
                output.display(),
                i.step_bound()
            );
            Ok(exit::PLAN_FOUND)
        }),
        AspCommand::Witness { instance, plan, family } => load(&instance, family).and_then(|i| {
            let text = std::fs::read_to_string(&plan).map_err(|e| corvus::asp::AspError {
                kind: corvus::asp::AspErrorKind::Io,
                file: plan.display().to_string(),
                location: None,
                message: format!("cannot read file: {e}"),
            })?;
            let parsed =
                corvus::plan::parse_plan(&text, &plan.display().to_string()).map_err(|e| corvus::asp::AspError {
                    kind: corvus::asp::AspErrorKind::Syntax,
                    file: e.file.clone(),
                    location: Some(e.location),
                    message: e.message.clone(),
                })?;
            for line in i.witness(&parsed)? {
                println!("{line}");
            }
            Ok(exit::PLAN_FOUND)
        }),
        AspCommand::Generate {
            family:
                GenerateFamily::Hanoi {
                    discs,
                    start,
                    steps,
                    pegs,
                },
        } => match asp::frame_stewart::generate(discs, pegs, start, steps) {
            Ok(text) => {
                print!("{text}");
                Ok(exit::PLAN_FOUND)
            }
            Err(e) => {
                eprintln!("error: {e}");
                return exit::INPUT_ERROR;
            }
        },
    };
    let code = match &result {
        Ok(code) => *code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    };
    match (stats_path, stats, result) {
        (Some(path), Some(json), _) => write_stats_json(&path, json, code),
        (Some(path), None, Err(e)) => write_stats_json(&path, error_json(&e.to_string()), code),
        _ => code,
    }
}

/// A plan with its task, from `INSTANCE.asp WITNESS` or `DOMAIN PROBLEM PLAN`.
struct PlanTask {
    domain: corvus::pddl::Domain,
    problem: corvus::pddl::Problem,
    plan: corvus::plan::Plan,
}

/// Loads the task and plan; on failure the error is printed and its exit code returned.
fn load_plan_task(files: &[PathBuf], family: Option<FamilyArg>) -> Result<PlanTask, i32> {
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|e| {
            eprintln!("error: {}: cannot read file: {e}", path.display());
            exit::INPUT_ERROR
        })
    };
    match files {
        [instance, witness] => {
            let fail = |e: corvus::asp::AspError| {
                eprintln!("error: {e}");
                e.exit_code()
            };
            let i = corvus::asp::Instance::load(instance, family.map(FamilyArg::family)).map_err(fail)?;
            for w in &i.warnings {
                eprintln!("warning: {w}");
            }
            let text = read(witness)?;
            let plan = i.plan_of_witness(&text, &witness.display().to_string()).map_err(fail)?;
            let (domain, problem) = i.pddl_task().map_err(fail)?;
            Ok(PlanTask { domain, problem, plan })
        }
        [domain, problem, plan_path] => {
            let (domain, problem) = corvus::pddl::load(domain, problem).map_err(|e| {
                eprintln!("error: {e}");
                planner::PlannerError::Input(e).exit_code()
            })?;
            let text = read(plan_path)?;
            let plan = corvus::plan::parse_plan(&text, &plan_path.display().to_string()).map_err(|e| {
                eprintln!("error: {e}");
                exit::INPUT_ERROR
            })?;
            Ok(PlanTask { domain, problem, plan })
        }
        _ => {
            eprintln!("error: expected INSTANCE.asp WITNESS or DOMAIN PROBLEM PLAN");
            Err(2)
        }
    }
}

fn show(args: &ShowArgs) -> i32 {
    use std::io::{IsTerminal, Write};
    let task = match load_plan_task(&args.files, args.family) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let film = match corvus::show::film(&task.domain, &task.problem, &task.plan) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return e.exit_code();
        }
    };
    let mut out = std::io::stdout().lock();
    let written = match args.step {
        Some(n) if n > film.plan_length => {
            eprintln!(
                "error: --step {n} is beyond the plan, which has {} steps",
                film.plan_length
            );
            return 2;
        }
        // A plan that fails before step n: its last state that holds.
        Some(n) => match film.frames.get(n).or(film.frames.last()) {
            Some(frame) => out.write_all(frame.text().as_bytes()),
            None => Ok(()),
        },
        None if args.animate && out.is_terminal() => {
            corvus::show::animate(&film.frames, Duration::from_millis(args.delay), &mut out)
        }
        None => film
            .frames
            .iter()
            .try_for_each(|frame| out.write_all(frame.text().as_bytes())),
    };
    // A closed pipe (`| head`) is the reader's choice, not an error.
    if let Err(e) = written.and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write to stdout: {e}");
        return exit::INPUT_ERROR;
    }
    match film.error {
        Some(e) => {
            eprintln!("error: plan invalid: {e}");
            exit::PLAN_INVALID
        }
        None => exit::PLAN_FOUND,
    }
}

/// Writes to stdout; a closed pipe is not an error.
fn write_stdout(text: &str) -> Result<(), i32> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write to stdout: {e}");
            Err(exit::INPUT_ERROR)
        }
        _ => Ok(()),
    }
}

fn sokoban(command: SokobanCommand) -> i32 {
    use corvus::sokoban_xsb;
    let load = |path: &Path, number: usize| {
        sokoban_xsb::load_level(path, number).map_err(|e| {
            eprintln!("error: {e}");
            exit::INPUT_ERROR
        })
    };
    let result = match command {
        SokobanCommand::Import {
            level_file,
            level,
            asp,
            steps,
            output,
        } => load(&level_file, level).and_then(|l| {
            let text = if asp {
                l.to_asp(steps.unwrap_or(sokoban_xsb::DEFAULT_ASP_STEPS))
            } else {
                l.to_pddl(&sokoban_xsb::problem_name(&level_file, level))
            };
            match &output {
                None => write_stdout(&text).map(|()| exit::PLAN_FOUND),
                Some(path) => match std::fs::write(path, text) {
                    Ok(()) => {
                        eprintln!(
                            "level {level} of {} ({}) written to {}",
                            level_file.display(),
                            sokoban_xsb::plural(l.stone_count(), "stone"),
                            path.display()
                        );
                        Ok(exit::PLAN_FOUND)
                    }
                    Err(e) => {
                        eprintln!("error: cannot write file {}: {e}", path.display());
                        Err(exit::INPUT_ERROR)
                    }
                },
            }
        }),
        SokobanCommand::Lurd { files } => {
            load_plan_task(&files, None).and_then(|t| match corvus::show::lurd(&t.domain, &t.problem, &t.plan) {
                Ok(s) => write_stdout(&format!("{s}\n")).map(|()| exit::PLAN_FOUND),
                Err(e) => {
                    eprintln!("error: {e}");
                    Err(e.exit_code())
                }
            })
        }
        SokobanCommand::Replay {
            level_file,
            lurd,
            level,
        } => load(&level_file, level).and_then(|l| {
            let moves = if lurd == "-" {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).map_err(|e| {
                    eprintln!("error: cannot read stdin: {e}");
                    exit::INPUT_ERROR
                })?;
                text
            } else {
                lurd
            };
            match l.replay_lurd(&moves) {
                Ok(end) => {
                    write_stdout(&end.to_xsb())?;
                    if end.solved() {
                        eprintln!("solved: every stone is on a goal");
                        Ok(exit::PLAN_FOUND)
                    } else {
                        eprintln!("not solved: stones are left off the goals");
                        Ok(exit::PLAN_INVALID)
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    Ok(exit::PLAN_INVALID)
                }
            }
        }),
    };
    result.unwrap_or_else(|code| code)
}

fn asp_outcome_json(outcome: &corvus::asp::SolveOutcome, step_bound: u64) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    map.insert("status".into(), status_name(outcome.status).into());
    map.insert("plan_length".into(), outcome.plan_length.into());
    // Every step of a witness counts 1.
    map.insert("plan_cost".into(), outcome.plan_length.into());
    map.insert("step_bound".into(), step_bound.into());
    map.insert("config".into(), outcome.stages.join(", ").into());
    insert_search_json(&mut map, &outcome.search);
    map.insert("total_time_s".into(), outcome.total_time.as_secs_f64().into());
    serde_json::Value::Object(map)
}
