//! The command-line arguments of the puzzle subcommands (`asp`, `show`,
//! `sokoban`) and their dispatch, so that `src/main.rs` stays the planner's
//! front door: it names these subcommands and hands their arguments here.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Subcommand, ValueEnum};

use super::ShowFrames;
use crate::limits;
use crate::puzzles::{asp::Family, xsb};
use crate::search::Limits;

#[derive(clap::Args)]
pub struct ShowArgs {
    /// INSTANCE.asp WITNESS, or DOMAIN PROBLEM PLAN.
    #[arg(num_args = 2..=3, required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Only the state after N steps.
    #[arg(long, value_name = "N", conflicts_with = "animate")]
    step: Option<usize>,
    /// Play the plan in place on the terminal (the plain sequence when stdout is not a terminal).
    #[arg(long)]
    animate: bool,
    /// Write one self-contained web page that steps through the plan (play/step controls) to FILE.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["step", "animate"])]
    html: Option<PathBuf>,
    /// Milliseconds between pictures of --animate.
    #[arg(long, value_name = "MS", default_value_t = 300)]
    delay: u64,
    /// Instance family of INSTANCE.asp [default: detected from the predicates].
    #[arg(long, value_enum)]
    family: Option<FamilyArg>,
}

#[derive(Subcommand)]
pub enum SokobanCommand {
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
pub struct ImportArgs {
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
pub struct ReplayArgs {
    level_file: PathBuf,
    /// The moves; `-` reads them from stdin.
    lurd: String,
    #[arg(long, value_name = "K", default_value_t = 1)]
    level: usize,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum FamilyArg {
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
pub enum AspCommand {
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
pub struct AspSolveArgs {
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
pub struct AspTranslateArgs {
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
pub enum GenerateFamily {
    /// A segment of the optimal move sequence: the state after START moves is on0, after START+K moves ongoal.
    #[command(after_help = "Example:\n  corvus asp generate hanoi --discs 17 --start 80 --steps 30 > h.asp")]
    Hanoi(GenerateHanoiArgs),
}

#[derive(clap::Args)]
pub struct GenerateHanoiArgs {
    /// Number of discs, 1 to 1000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::puzzles::asp::frame_stewart::MAX_DISCS)))]
    discs: u32,
    /// Moves made before the instance starts (0 = all discs on peg 1).
    #[arg(long, value_name = "S", default_value_t = 0)]
    start: u64,
    /// Length K of the segment: steps(K).
    #[arg(long, value_name = "K")]
    steps: u64,
    /// 4 (Frame–Stewart) or 3 (the classic puzzle; disk(4) is left out, so peg 4 does not exist).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(3..=4))]
    pegs: u32,
}

/// Watches a subcommand that has no limits, so that a signal ends it in
/// time as it ends a `solve` (see `limits::interrupt`).
fn watch_unlimited() -> limits::WatchGuard {
    limits::watch(Limits::default())
}

impl ShowArgs {
    /// Runs `show`; returns the exit code.
    pub fn run(self) -> i32 {
        let _watch = watch_unlimited();
        let frames = match (self.html, self.step, self.animate) {
            (Some(page), _, _) => ShowFrames::Html(page),
            (None, Some(n), _) => ShowFrames::Step(n),
            (None, None, true) => ShowFrames::Animate(Duration::from_millis(self.delay)),
            (None, None, false) => ShowFrames::All,
        };
        super::show(&self.files, self.family.map(FamilyArg::family), frames)
    }
}

impl AspCommand {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> i32 {
        // `asp solve` watches its run with its limits; the others have none.
        let _watch = (!matches!(self, AspCommand::Solve(_))).then(watch_unlimited);
        match self {
            AspCommand::Solve(a) => {
                let limits = Limits {
                    time: a.time_limit,
                    memory_bytes: a.memory_limit,
                    ..Limits::default()
                };
                let family = a.family.map(FamilyArg::family);
                super::asp_solve(&a.instance, family, limits, a.stats_json.as_deref(), !a.quiet)
            }
            AspCommand::Translate(a) => {
                let family = a.family.map(FamilyArg::family);
                super::asp_translate(&a.instance, &a.output, a.domain_out.as_deref(), family)
            }
            AspCommand::Witness { instance, plan, family } => {
                super::asp_witness(&instance, &plan, family.map(FamilyArg::family))
            }
            AspCommand::Generate {
                family: GenerateFamily::Hanoi(a),
            } => super::asp_generate_hanoi(a.discs, a.pegs, a.start, a.steps),
        }
    }
}

impl SokobanCommand {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> i32 {
        let _watch = watch_unlimited();
        match self {
            SokobanCommand::Import(a) => {
                let asp_steps = a.asp.then(|| a.steps.unwrap_or(xsb::DEFAULT_ASP_STEPS));
                super::sokoban_import(&a.level_file, a.level, asp_steps, a.output.as_deref())
            }
            SokobanCommand::Lurd { files } => super::sokoban_lurd(&files),
            SokobanCommand::Replay(a) => super::sokoban_replay(&a.level_file, a.level, &a.lurd),
        }
    }
}
