//! The `corvus` command line: the arguments, parsed with clap, and the
//! subcommand they name. The binary (`src/main.rs`) and the Python
//! package's `corvus` command (`python -m corvus`) both run [`run`].

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{CommandFactory, Parser, Subcommand};

use crate::aliases::{Alias, Choice};
use crate::commands::{self, AspCommand, ShowArgs, SokobanCommand};
use crate::heuristic::HeuristicKind;
use crate::heuristic::cost_type::CostType;
use crate::planner::{Bound, Config, Options};
use crate::search::{Limits, Strategy, SuccessorOrder};

#[derive(Parser)]
#[command(
    name = "corvus",
    version,
    about = "A domain-independent classical planner: PDDL in, a validated plan out",
    after_help = "Exit codes: 0 plan found, 1 plan invalid (validate), 11 proven unsolvable (within the bound), \
12 search incomplete, 22 out of memory, 23 out of time, 30 internal error, \
31 input error, 34 unsupported PDDL feature, 130 interrupted (SIGINT, SIGTERM, SIGHUP).",
    // The IPC form `corvus DOMAIN PROBLEM [PLANFILE]` is `solve` without its
    // name. A first argument that names a subcommand is the subcommand: a
    // file called `solve` is given as `./solve`.
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    override_usage = "corvus [--alias NAME] [SOLVE OPTIONS] [DOMAIN] PROBLEM [PLANFILE]\n       corvus <COMMAND>"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Without a subcommand: `solve`'s arguments, with the plan file as the third.
    #[command(flatten)]
    ipc: Option<SolveArgs>,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a PDDL task and write a validated plan file.
    #[command(after_help = "Examples (from the repository's top directory):\n  \
corvus solve problems/ipc/blocks/domain.pddl problems/ipc/blocks/probBLOCKS-4-1.pddl\n  \
corvus solve problems/ipc/gripper/domain.pddl problems/ipc/gripper/prob01.pddl --search astar --plan-file plan.txt\n  \
corvus solve problems/ipc/gripper/domain.pddl problems/ipc/gripper/prob01.pddl --search 'lazy([hff(cost=one), lmcount()], preferred=[hff])'\n  \
corvus solve problems/ipc/depot/domain.pddl problems/ipc/depot/p01.pddl --max-steps 40 --time-limit 5m --memory-limit 8G\n\n\
Exit codes: 0 plan found, 11 proven unsolvable, 12 incomplete, 22 out of memory, 23 out of time, \
130 interrupted (SIGINT, SIGTERM or SIGHUP), 31 input error, 34 unsupported feature. Plan files of an \
earlier run (FILE and FILE.1, FILE.2, ...) are removed at the start.")]
    Solve(SolveArgs),
    /// Check a plan file (also one written by another planner) against a task.
    #[command(after_help = "Exit codes: 0 plan valid, 1 plan invalid, 31 input error.\n\n\
Example:\n  corvus validate problems/ipc/blocks/domain.pddl problems/ipc/blocks/probBLOCKS-4-1.pddl sas_plan")]
    Validate {
        /// The PDDL domain file.
        domain: PathBuf,
        /// The PDDL problem file (its `(:domain NAME)` must name the domain).
        problem: PathBuf,
        /// The plan file in the IPC format: one `(action arg ...)` per line.
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
states up to it are drawn), 2 --step beyond the plan or an output corvus may not write, 31 input \
error, 34 neither Hanoi nor Sokoban.\n\n\
Examples:\n  corvus show problems/hanoi-seed.asp problems/hanoi-seed.witness\n  \
corvus show domains/sokoban.pddl problem.pddl sas_plan --step 12\n  \
corvus show level.asp witness.lp --animate --delay 150\n  \
corvus show problems/hanoi-seed.asp problems/hanoi-seed.witness --html plan.html"
    )]
    Show(ShowArgs),
    /// Sokoban levels in the XSB text format: import, LURD export, LURD replay.
    Sokoban {
        #[command(subcommand)]
        command: SokobanCommand,
    },
}

/// What `--search` takes: the components of a spec, with their parameters.
fn search_help() -> String {
    format!(
        "Search: a spec such as 'astar(lmcut())' or 'lazy([hff(cost=one), lmcount(cost=one)])' \
(Fast Downward's spelling too: 'lazy_greedy([ff()], preferred=[ff()])'), or a search's name, whose \
heuristics --heuristic gives.\n{}",
        crate::config::describe_components()
    )
}

/// `--heuristic` values: the heuristic registry's names, with their declared properties as help.
fn heuristic_arg() -> impl TypedValueParser<Value = &'static HeuristicKind> {
    let values = crate::heuristic::KINDS
        .iter()
        .map(|k| PossibleValue::new(k.name).help(k.describe()));
    PossibleValuesParser::new(values)
        .try_map(|name| crate::heuristic::kind(&name).ok_or_else(|| format!("unknown heuristic `{name}`")))
}

/// `--cost-type` values, with their help.
fn cost_type_arg() -> impl TypedValueParser<Value = CostType> {
    let values = CostType::ALL.map(|c| PossibleValue::new(c.name()).help(c.help()));
    PossibleValuesParser::new(values)
        .try_map(|name| CostType::from_name(&name).ok_or_else(|| format!("unknown cost type `{name}`")))
}

/// `--alias` values: the alias table's names, with what each stands for as help.
fn alias_arg() -> impl TypedValueParser<Value = &'static Alias> {
    let values = crate::aliases::ALIASES
        .iter()
        .map(|a| PossibleValue::new(a.name).help(a.help()));
    PossibleValuesParser::new(values)
        .try_map(|name| crate::aliases::get(&name).ok_or_else(|| format!("unknown alias `{name}`")))
}

/// `--weight`: f = g + W·h means nothing for NaN, infinite or negative W.
fn parse_weight(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(w) if w.is_finite() && w >= 0.0 => Ok(w),
        _ => Err(format!("`{s}` is not a weight (a finite number, at least 0)")),
    }
}

#[derive(clap::Args)]
struct SolveArgs {
    /// The PDDL domain file. Given alone, the problem file: its domain is then the file beside it
    /// named domain.pddl, PROBLEM-domain.pddl, domain_PROBLEM or domain-PROBLEM, as Fast Downward finds it.
    domain: PathBuf,
    /// The PDDL problem file (its `(:domain NAME)` must name the domain).
    problem: Option<PathBuf>,
    /// Where to write the plan, as --plan-file (the IPC calling convention's third argument).
    #[arg(value_name = "PLANFILE", conflicts_with = "plan_file")]
    planfile: Option<PathBuf>,
    /// A named configuration; it stands for the --search spec shown.
    #[arg(long, value_name = "NAME", value_parser = alias_arg(),
          conflicts_with_all = ["search", "heuristic", "no_preferred", "perimeter"])]
    alias: Option<&'static Alias>,
    /// The search: a spec, e.g. 'astar(lmcut())', or a search's name with --heuristic
    /// [default: without --search and --heuristic, the first --alias (lama-first); with
    /// --heuristic only, gbfs].
    #[arg(long, value_name = "SPEC", long_help = search_help())]
    search: Option<String>,
    /// Heuristic, or a comma-separated list for the lazy searches (one open list each:
    /// hff,lmcount) [default: the search algorithm's, see --search]; a spec names its own.
    #[arg(long, value_parser = heuristic_arg(), value_delimiter = ',', num_args = 1)]
    heuristic: Vec<&'static HeuristicKind>,
    /// The action costs the heuristic sees; the search counts the task's
    /// [default: normal, or the alias's].
    #[arg(long, value_parser = cost_type_arg())]
    cost_type: Option<CostType>,
    /// Weight W of weighted A* named by --search wastar or lazy-wastar: a finite number,
    /// at least 0 [default: 2]; a spec gives its own (w=...).
    #[arg(long, value_parser = parse_weight)]
    weight: Option<f64>,
    /// Do not use preferred operators (helpful actions of h_FF).
    #[arg(long)]
    no_preferred: bool,
    /// Lazy searches: the order in which an expanded state's successors enter the open lists
    /// [default: preferred-first, or the spec's order=...].
    #[arg(long, value_name = "ORDER",
          value_parser = PossibleValuesParser::new(SuccessorOrder::NAMES)
              .map(|name| SuccessorOrder::parse(&name).unwrap_or_default()))]
    successor_order: Option<SuccessorOrder>,
    /// Exact goal distances near the goal from a backward search, around the (first) heuristic.
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
    /// After the first plan, search for cheaper ones until the time limit (restarting weighted A*, lazy after a lazy search);
    /// each better plan goes to FILE.1, FILE.2, ... (FILE from --plan-file).
    #[arg(long)]
    anytime: bool,
    /// Write plans as the search found them: without action elimination, which removes or replaces steps while
    /// the plan still reaches its goal more cheaply (a plan under --max-steps is always kept as found).
    #[arg(long)]
    no_action_elimination: bool,
    /// Where to write the plan; `-` writes it to stdout.
    #[arg(long, value_name = "FILE", default_value = "sas_plan")]
    plan_file: PathBuf,
    /// Write the outcome and the final statistics as one JSON object to FILE.
    #[arg(long, value_name = "FILE")]
    stats_json: Option<PathBuf>,
    /// Print only errors.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs the command line `args` (the program's name first) and returns
/// its exit code. Installs the signal handlers and lets a stop end the
/// process ([`crate::limits::allow_exit`]): the caller is a process that
/// exists to run this command.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with 0, usage errors to stderr with 2.
            let _ = e.print();
            return e.exit_code();
        }
    };
    // SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the run at its next
    // checkpoint, which then reports what it has (or the watchdog ends it
    // after the stop grace); a second signal exits at once.
    let _ = ctrlc::set_handler(|| {
        if crate::limits::interrupt() {
            std::process::exit(crate::exit::INTERRUPTED);
        }
    });
    crate::limits::allow_exit(true);
    let command = match (cli.command, cli.ipc) {
        (Some(command), _) => command,
        (None, Some(args)) => Command::Solve(args),
        (None, None) => {
            let _ = Cli::command().print_help();
            return crate::exit::USAGE;
        }
    };
    match command {
        Command::Solve(args) => {
            let options = match args.options() {
                Ok(options) => options,
                Err(message) => {
                    Cli::command()
                        .error(clap::error::ErrorKind::ArgumentConflict, message)
                        .print()
                        .ok();
                    return crate::exit::USAGE;
                }
            };
            let stats_json = args.stats_json.as_deref();
            let plan_file = args.planfile.as_ref().unwrap_or(&args.plan_file);
            let (domain, problem) = match &args.problem {
                Some(problem) => (args.domain.clone(), problem.clone()),
                None => match commands::domain_of(&args.domain) {
                    Ok(domain) => {
                        if !args.quiet {
                            eprintln!("domain file: {} (found beside the problem)", domain.display());
                        }
                        (domain, args.domain.clone())
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        return e.exit_code();
                    }
                },
            };
            commands::solve(&domain, &problem, &options, plan_file, stats_json)
        }
        Command::Validate { domain, problem, plan } => {
            // Watched, so that a signal ends it in time (it has no limits).
            let _watch = crate::limits::watch(Limits::default());
            let _phase = crate::limits::phase(crate::limits::Phase::Validation);
            commands::validate(&domain, &problem, &plan)
        }
        Command::Asp { command } => command.run(),
        Command::Show(args) => args.run(),
        Command::Sokoban { command } => command.run(),
    }
}

impl SolveArgs {
    /// The configuration these arguments ask for ([`crate::aliases::choose`]),
    /// with the options that apply to any configuration on top
    /// (--cost-type, --no-preferred, --perimeter, --successor-order).
    fn config(&self) -> Result<Choice, String> {
        let named: Vec<&str> = self.heuristic.iter().map(|k| k.name).collect();
        let choice = crate::aliases::choose(self.alias.map(|a| a.name), self.search.as_deref(), &named, self.weight)
            .map_err(|e| format!("{e}\n(corvus solve --help lists the searches and heuristics)"))?;
        Ok(choice.map(|c| self.modified(c)))
    }

    /// The configuration with the options that apply to any.
    fn modified(&self, mut config: Config) -> Config {
        if let Some(cost_type) = self.cost_type {
            config = config.with_cost_type(cost_type);
        }
        if self.no_preferred {
            config = config.without_preferred_operators();
        }
        if self.perimeter {
            config.evaluators[0].perimeter = true;
        }
        if let (Strategy::Lazy(lazy), Some(order)) = (&mut config.search, self.successor_order) {
            lazy.order = order;
        }
        config
    }

    /// The planner options these arguments ask for.
    fn options(&self) -> Result<Options, String> {
        let bound = match (self.max_cost, self.max_steps) {
            (Some(n), _) => Some(Bound::Cost(n)),
            (None, Some(n)) => Some(Bound::Steps(n)),
            (None, None) => None,
        };
        let choice = self.config()?;
        Ok(Options {
            configs: choice.configs,
            bound,
            unit_cost: self.unit_cost,
            limits: Limits {
                time: self.time_limit,
                memory_bytes: self.memory_limit,
                ..Limits::default()
            },
            pack_states: self.pack_states,
            verbose: !self.quiet,
            anytime: self.anytime || choice.anytime,
            no_action_elimination: self.no_action_elimination,
        })
    }
}
