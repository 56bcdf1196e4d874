//! The `corvus` command line: parses arguments and calls the library.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};

use corvus::commands::{self, ShowFrames};
use corvus::heuristic::HeuristicKind;
use corvus::planner::{Bound, Config, Options};
use corvus::puzzles::{asp::Family, xsb};
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
    Import(ImportArgs),
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
    Replay(ReplayArgs),
}

#[derive(clap::Args)]
struct ImportArgs {
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
}

#[derive(clap::Args)]
struct ReplayArgs {
    level_file: PathBuf,
    /// The moves; `-` reads them from stdin.
    lurd: String,
    #[arg(long, value_name = "K", default_value_t = 1)]
    level: usize,
}

#[derive(Clone, Copy, ValueEnum)]
enum FamilyArg {
    Hanoi,
    Sokoban,
}

impl FamilyArg {
    fn family(self) -> Family {
        match self {
            FamilyArg::Hanoi => Family::Hanoi,
            FamilyArg::Sokoban => Family::Sokoban,
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
    Solve(AspSolveArgs),
    /// Write the instance as a PDDL problem (and optionally the shipped domain).
    #[command(after_help = "Example:\n  corvus asp translate I.asp -o problem.pddl --domain-out domain.pddl")]
    Translate(AspTranslateArgs),
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

#[derive(clap::Args)]
struct AspSolveArgs {
    instance: PathBuf,
    /// Instance family [default: detected from the predicates].
    #[arg(long, value_enum)]
    family: Option<FamilyArg>,
    /// Time limit: seconds, or with a unit: 30s, 5m, 1h.
    #[arg(long, value_name = "T", value_parser = Limits::parse_time_limit)]
    time_limit: Option<Duration>,
    /// Memory limit: 512M, 8G (K, M, G binary units; a plain number is MiB).
    #[arg(long, value_name = "M", value_parser = Limits::parse_memory_limit)]
    memory_limit: Option<u64>,
    /// Write the outcome and the final statistics as one JSON object to FILE.
    #[arg(long, value_name = "FILE")]
    stats_json: Option<PathBuf>,
    /// Print only errors and the verdict.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(clap::Args)]
struct AspTranslateArgs {
    instance: PathBuf,
    /// Where to write the problem.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Where to write the domain.
    #[arg(long, value_name = "FILE")]
    domain_out: Option<PathBuf>,
    #[arg(long, value_enum)]
    family: Option<FamilyArg>,
}

#[derive(Subcommand)]
enum GenerateFamily {
    /// A segment of the optimal move sequence: the state after START moves is on0, after START+K moves ongoal.
    #[command(after_help = "Example:\n  corvus asp generate hanoi --discs 17 --start 80 --steps 30 > h.asp")]
    Hanoi(GenerateHanoiArgs),
}

#[derive(clap::Args)]
struct GenerateHanoiArgs {
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
}

/// `--search` values: the search registry's names, with their declared properties as help.
fn search_arg() -> impl TypedValueParser<Value = &'static SearchKind> {
    let values = corvus::search::KINDS
        .iter()
        .map(|k| PossibleValue::new(k.name).help(k.describe()));
    PossibleValuesParser::new(values)
        .try_map(|name| corvus::search::kind(&name).ok_or_else(|| format!("unknown search `{name}`")))
}

/// `--heuristic` values: the heuristic registry's names, with their declared properties as help.
fn heuristic_arg() -> impl TypedValueParser<Value = &'static HeuristicKind> {
    let values = corvus::heuristic::KINDS
        .iter()
        .map(|k| PossibleValue::new(k.name).help(k.describe()));
    PossibleValuesParser::new(values)
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
    #[arg(long, value_name = "T", value_parser = Limits::parse_time_limit)]
    time_limit: Option<Duration>,
    /// Memory limit: 512M, 8G (K, M, G binary units; a plain number is MiB).
    #[arg(long, value_name = "M", value_parser = Limits::parse_memory_limit)]
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Ctrl-C stops the search, which then reports what it has.
    let _ = ctrlc::set_handler(|| corvus::search::interrupt_flag().store(true, Ordering::SeqCst));
    let code = match cli.command {
        Command::Solve(args) => {
            let options = args.options();
            let stats_json = args.stats_json.as_deref();
            commands::solve(&args.domain, &args.problem, &options, &args.plan_file, stats_json)
        }
        Command::Validate { domain, problem, plan } => commands::validate(&domain, &problem, &plan),
        Command::Asp { command } => asp(command),
        Command::Show(args) => {
            let frames = match (args.step, args.animate) {
                (Some(n), _) => ShowFrames::Step(n),
                (None, true) => ShowFrames::Animate(Duration::from_millis(args.delay)),
                (None, false) => ShowFrames::All,
            };
            commands::show(&args.files, args.family.map(FamilyArg::family), frames)
        }
        Command::Sokoban { command } => sokoban(command),
    };
    ExitCode::from(code as u8)
}

impl SolveArgs {
    /// The planner options these arguments ask for.
    fn options(&self) -> Options {
        let heuristic = self.heuristic.unwrap_or(self.search.default_heuristic);
        let bound = match (self.max_cost, self.max_steps) {
            (Some(n), _) => Some(Bound::Cost(n)),
            (None, Some(n)) => Some(Bound::Steps(n)),
            (None, None) => None,
        };
        Options {
            config: Config {
                preferred_operators: !self.no_preferred && heuristic.preferred_operators,
                perimeter: self.perimeter,
                ..Config::new((self.search.strategy)(self.weight), heuristic)
            },
            bound,
            unit_cost: self.unit_cost,
            limits: Limits {
                time: self.time_limit,
                memory_bytes: self.memory_limit,
                ..Limits::default()
            },
            pack_states: self.pack_states,
            verbose: !self.quiet,
        }
    }
}

fn asp(command: AspCommand) -> i32 {
    match command {
        AspCommand::Solve(a) => {
            let limits = Limits {
                time: a.time_limit,
                memory_bytes: a.memory_limit,
                ..Limits::default()
            };
            let family = a.family.map(FamilyArg::family);
            commands::asp_solve(&a.instance, family, limits, a.stats_json.as_deref(), !a.quiet)
        }
        AspCommand::Translate(a) => {
            let family = a.family.map(FamilyArg::family);
            commands::asp_translate(&a.instance, &a.output, a.domain_out.as_deref(), family)
        }
        AspCommand::Witness { instance, plan, family } => {
            commands::asp_witness(&instance, &plan, family.map(FamilyArg::family))
        }
        AspCommand::Generate {
            family: GenerateFamily::Hanoi(a),
        } => commands::asp_generate_hanoi(a.discs, a.pegs, a.start, a.steps),
    }
}

fn sokoban(command: SokobanCommand) -> i32 {
    match command {
        SokobanCommand::Import(a) => {
            let asp_steps = a.asp.then(|| a.steps.unwrap_or(xsb::DEFAULT_ASP_STEPS));
            commands::sokoban_import(&a.level_file, a.level, asp_steps, a.output.as_deref())
        }
        SokobanCommand::Lurd { files } => commands::sokoban_lurd(&files),
        SokobanCommand::Replay(a) => commands::sokoban_replay(&a.level_file, a.level, &a.lurd),
    }
}
