//! The `corvus` command line: parses arguments and calls the library.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};

use corvus::commands::{self, AspCommand, ShowArgs, SokobanCommand};
use corvus::heuristic::HeuristicKind;
use corvus::planner::{Bound, Config, Options};
use corvus::search::{Limits, SearchKind, Strategy, SuccessorOrder};

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
    /// Heuristic, or a comma-separated list for the lazy searches (one open list each:
    /// hff,goalcount) [default: the search algorithm's, see --search].
    #[arg(long, value_parser = heuristic_arg(), value_delimiter = ',', num_args = 1)]
    heuristic: Vec<&'static HeuristicKind>,
    /// Weight W of weighted A*.
    #[arg(long, default_value_t = 2.0)]
    weight: f64,
    /// Do not use preferred operators (helpful actions of h_FF).
    #[arg(long)]
    no_preferred: bool,
    /// Lazy searches: the order in which an expanded state's successors enter the open lists.
    #[arg(long, value_name = "ORDER", default_value = "preferred-first",
          value_parser = PossibleValuesParser::new(SuccessorOrder::NAMES)
              .map(|name| SuccessorOrder::parse(&name).unwrap_or_default()))]
    successor_order: SuccessorOrder,
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
            if args.heuristic.len() > 1 && !(args.search.strategy)(args.weight).is_lazy() {
                use clap::CommandFactory;
                Cli::command()
                    .error(
                        clap::error::ErrorKind::ArgumentConflict,
                        format!(
                            "--search {} takes one heuristic; several (--heuristic {}) need --search lazy or bfws",
                            args.search.name,
                            args.heuristic.iter().map(|k| k.name).collect::<Vec<_>>().join(",")
                        ),
                    )
                    .exit();
            }
            let options = args.options();
            let stats_json = args.stats_json.as_deref();
            commands::solve(&args.domain, &args.problem, &options, &args.plan_file, stats_json)
        }
        Command::Validate { domain, problem, plan } => commands::validate(&domain, &problem, &plan),
        Command::Asp { command } => command.run(),
        Command::Show(args) => args.run(),
        Command::Sokoban { command } => command.run(),
    };
    ExitCode::from(code as u8)
}

impl SolveArgs {
    /// The planner options these arguments ask for.
    fn options(&self) -> Options {
        let heuristic = self.heuristic.first().copied().unwrap_or(self.search.default_heuristic);
        let more_heuristics: &'static [&'static HeuristicKind] = match self.heuristic.get(1..) {
            // Built once per run: leaking it gives the `'static` list a `Config` holds.
            Some(more) if !more.is_empty() => more.to_vec().leak(),
            _ => &[],
        };
        let search = match (self.search.strategy)(self.weight) {
            Strategy::Lazy(lazy) => Strategy::Lazy(corvus::search::LazyOptions {
                order: self.successor_order,
                ..lazy
            }),
            other => other,
        };
        let bound = match (self.max_cost, self.max_steps) {
            (Some(n), _) => Some(Bound::Cost(n)),
            (None, Some(n)) => Some(Bound::Steps(n)),
            (None, None) => None,
        };
        Options {
            config: Config {
                preferred_operators: !self.no_preferred && heuristic.preferred_operators,
                perimeter: self.perimeter,
                more_heuristics,
                ..Config::new(search, heuristic)
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
