//! `corvus show` and `corvus sokoban import | lurd | replay`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::asp::load_instance;
use super::files::{self, HEADER_ASP, HEADER_HTML, HEADER_PDDL, Inputs, Kind};
use super::{CommandError, finish, read_file, write_stdout};
use crate::exit;
use crate::pddl::{self, Domain, Problem};
use crate::plan::{Plan, parse_plan};
use crate::puzzles::asp::Family;
use crate::puzzles::{show, xsb};

/// A plan with its task, from `INSTANCE.asp WITNESS` or `DOMAIN PROBLEM PLAN`.
struct PlanTask {
    domain: Domain,
    problem: Problem,
    plan: Plan,
}

impl PlanTask {
    fn load(files: &[PathBuf], family: Option<Family>) -> Result<PlanTask, CommandError> {
        match files {
            [instance, witness] => {
                let i = load_instance(instance, family)?;
                let plan = i.plan_of_witness(&read_file(witness)?, &witness.display().to_string())?;
                let (domain, problem) = i.pddl_task()?;
                Ok(PlanTask { domain, problem, plan })
            }
            [domain, problem, plan_path] => {
                let (domain, problem) = pddl::load(domain, problem)?;
                let plan = parse_plan(&read_file(plan_path)?, &plan_path.display().to_string())?;
                Ok(PlanTask { domain, problem, plan })
            }
            _ => Err(CommandError::Usage(
                "expected INSTANCE.asp WITNESS or DOMAIN PROBLEM PLAN".to_string(),
            )),
        }
    }
}

/// Which pictures `show` draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShowFrames {
    /// Every state, one after the other.
    All,
    /// Only the state after N steps.
    Step(usize),
    /// Every state in place on a terminal, with this delay between them
    /// (all of them one after the other when stdout is not a terminal).
    Animate(Duration),
    /// A web page that steps through every state, written to this file.
    Html(PathBuf),
}

/// Draws the states a Hanoi or Sokoban plan passes through.
pub fn show(files: &[PathBuf], family: Option<Family>, frames: ShowFrames) -> i32 {
    finish(show_plan(files, family, frames))
}

fn show_plan(files: &[PathBuf], family: Option<Family>, frames: ShowFrames) -> Result<i32, CommandError> {
    if let ShowFrames::Html(path) = &frames {
        Inputs::new(files.iter().map(PathBuf::as_path)).check(path, Kind::Generated)?;
    }
    let task = PlanTask::load(files, family)?;
    let film = show::film(&task.domain, &task.problem, &task.plan)?;
    // Drawing in place only works on a terminal; a file or pipe gets the plain sequence.
    let frames = match frames {
        ShowFrames::Animate(_) if !std::io::stdout().is_terminal() => ShowFrames::All,
        other => other,
    };
    match frames {
        ShowFrames::Step(n) if n > film.plan_length => {
            return Err(CommandError::Usage(format!(
                "--step {n} is beyond the plan, which has {} steps",
                film.plan_length
            )));
        }
        // A plan that fails before step n: its last state that holds.
        ShowFrames::Step(n) => write_stdout(|out| match film.frames.get(n).or(film.frames.last()) {
            Some(frame) => out.write_all(frame.text().as_bytes()),
            None => Ok(()),
        })?,
        ShowFrames::Animate(delay) => write_stdout(|out| show::animate(&film.frames, delay, out))?,
        ShowFrames::Html(path) => {
            let paths: Vec<String> = files.iter().map(|f| files::one_line(f)).collect();
            let names: Vec<String> = files
                .iter()
                .map(|f| f.file_name().unwrap_or(f.as_os_str()).to_string_lossy().into_owned())
                .collect();
            // `--` may not stand inside an HTML comment.
            let text = format!(
                "{HEADER_HTML} show {} -->\n{}",
                paths.join(" ").replace("--", "- -"),
                show::page(&film, &names.join(" with "))
            );
            files::write(&path, text.as_bytes())
                .map_err(CommandError::io(format!("{}: cannot write file", path.display())))?;
            eprintln!(
                "{} states of a {}-step plan written to {}",
                film.frames.len(),
                film.plan_length,
                path.display()
            );
        }
        ShowFrames::All => write_stdout(|out| {
            film.frames
                .iter()
                .try_for_each(|frame| out.write_all(frame.text().as_bytes()))
        })?,
    }
    match film.error {
        Some(e) => Err(e.into()),
        None => Ok(exit::PLAN_FOUND),
    }
}

/// Turns level `level` of an XSB file into a PDDL problem of
/// `domains/sokoban.pddl`, or into ASP instance facts with `asp_steps`
/// steps; writes it to `output` or to stdout.
pub fn sokoban_import(level_file: &Path, level: usize, asp_steps: Option<u64>, output: Option<&Path>) -> i32 {
    finish(import(level_file, level, asp_steps, output))
}

fn import(level_file: &Path, level: usize, asp_steps: Option<u64>, output: Option<&Path>) -> Result<i32, CommandError> {
    if let Some(path) = output {
        Inputs::new([level_file]).check(path, Kind::Generated)?;
    }
    let l = xsb::load_level(level_file, level)?;
    let text = match asp_steps {
        Some(steps) => l.to_asp(steps),
        None => l.to_pddl(&xsb::problem_name(level_file, level)),
    };
    let Some(path) = output else {
        write_stdout(|out| out.write_all(text.as_bytes()))?;
        return Ok(exit::PLAN_FOUND);
    };
    // The mark that lets a later import replace the file.
    let header = match asp_steps {
        Some(_) => HEADER_ASP,
        None => HEADER_PDDL,
    };
    let text = format!(
        "{header} sokoban import {} --level {level}\n{text}",
        files::one_line(level_file)
    );
    files::write(path, text.as_bytes()).map_err(CommandError::io(format!("{}: cannot write file", path.display())))?;
    eprintln!(
        "level {level} of {} ({}) written to {}",
        level_file.display(),
        xsb::plural(l.stone_count(), "stone"),
        path.display()
    );
    Ok(exit::PLAN_FOUND)
}

/// Prints a Sokoban plan as a LURD string.
pub fn sokoban_lurd(files: &[PathBuf]) -> i32 {
    finish(PlanTask::load(files, None).and_then(|t| {
        let moves = show::lurd(&t.domain, &t.problem, &t.plan)?;
        write_stdout(|out| writeln!(out, "{moves}"))?;
        Ok(exit::PLAN_FOUND)
    }))
}

/// Plays a LURD string (`-`: from stdin) on a level and draws the end state.
pub fn sokoban_replay(level_file: &Path, level: usize, lurd: &str) -> i32 {
    finish(replay(level_file, level, lurd))
}

fn replay(level_file: &Path, level: usize, lurd: &str) -> Result<i32, CommandError> {
    let l = xsb::load_level(level_file, level)?;
    let moves = xsb::lurd_argument(lurd).map_err(CommandError::io("stdin: cannot read"))?;
    let end = l.replay_lurd(&moves)?;
    write_stdout(|out| out.write_all(end.to_xsb().as_bytes()))?;
    if end.solved() {
        eprintln!("solved: every stone is on a goal");
        Ok(exit::PLAN_FOUND)
    } else {
        eprintln!("not solved: stones are left off the goals");
        Ok(exit::PLAN_INVALID)
    }
}
