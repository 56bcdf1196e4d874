//! Pictures of plans: the states a plan passes through, drawn as text, for
//! the two puzzle families corvus ships domains for (Tower of Hanoi and
//! Sokoban). This is presentation at the edge; search knows nothing of it.
//!
//! A task is recognised by its predicates, not by file names, so problems
//! written by other tools (the IPC Sokoban problems, say) are drawn too.
//! Plans are replayed with the validator ([`crate::plan::replay`]), so a
//! picture never shows a step the validator would reject.

mod hanoi;
mod html;
mod sokoban;

use std::collections::HashSet;
use std::io::{self, Write};
use std::time::Duration;

use crate::exit;
use crate::pddl::{Domain, GroundAtom, Problem};
use crate::plan::{InvalidPlan, Plan, PlanStep, replay};

/// Why a task cannot be drawn (or a LURD string not written).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShowError {
    /// The domain is neither Hanoi nor Sokoban.
    #[error("{0}")]
    Unsupported(String),
    /// A Hanoi or Sokoban problem whose facts do not make a picture (for
    /// example adjacency facts that are not a grid).
    #[error("{0}")]
    Layout(String),
    /// The plan does not apply (LURD export needs a valid plan).
    #[error("plan invalid: {0}")]
    Invalid(InvalidPlan),
}

impl ShowError {
    pub fn exit_code(&self) -> i32 {
        match self {
            ShowError::Unsupported(_) => exit::UNSUPPORTED,
            ShowError::Layout(_) => exit::INPUT_ERROR,
            ShowError::Invalid(_) => exit::PLAN_INVALID,
        }
    }
}

/// How states of one task are drawn.
enum Drawing {
    Hanoi(hanoi::Towers),
    Sokoban(sokoban::Board),
}

pub use html::page;

/// One picture: the state after `step` steps, with the action that led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub step: usize,
    /// `(move d9 d8 d3)`; `None` for the initial state.
    pub action: Option<String>,
    /// The state as text, for the terminal.
    pub picture: String,
    /// The state as data, for pictures drawn elsewhere (the HTML page).
    pub scene: Scene,
}

/// What a picture shows, as data.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scene {
    /// The discs on each peg, bottom first.
    Towers(Vec<Vec<String>>),
    /// The board in XSB characters (`#` wall, `-` floor, `@` player, `$`
    /// stone, `.` goal, `*` stone on a goal, `+` player on a goal, a blank
    /// outside the walls), one string per row.
    Board(Vec<String>),
}

/// What stays the same in every picture of a task.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Setting {
    /// The pegs from left to right, and every disc's size (1 the smallest).
    Towers {
        pegs: Vec<String>,
        sizes: std::collections::BTreeMap<String, usize>,
    },
    /// A board of this many columns and rows.
    Board { width: usize, height: usize },
}

impl Frame {
    /// `step 0: initial state` or `step 3: (move d9 d8 d3)`.
    pub fn heading(&self) -> String {
        match &self.action {
            None => format!("step {}: initial state", self.step),
            Some(a) => format!("step {}: {a}", self.step),
        }
    }

    /// Heading, picture, and a blank line.
    pub fn text(&self) -> String {
        format!("{}\n{}\n\n", self.heading(), self.picture)
    }
}

/// The pictures of a replayed plan.
#[derive(Clone, Debug)]
pub struct Film {
    /// What every picture shares.
    pub setting: Setting,
    /// The initial state and the state after every step that applied.
    pub frames: Vec<Frame>,
    /// Steps in the plan (the frames stop early when a step does not apply).
    pub plan_length: usize,
    /// The step that does not apply, or the goal that does not hold at the end.
    pub error: Option<InvalidPlan>,
    /// The step that does not apply, as `(name args)`.
    pub rejected: Option<String>,
}

fn has_predicate(domain: &Domain, name: &str, arity: usize) -> bool {
    domain
        .predicates
        .iter()
        .any(|p| p.name == name && p.params.len() == arity)
}

fn recognise(domain: &Domain, problem: &Problem) -> Result<Drawing, ShowError> {
    let sokoban = has_predicate(domain, "at", 2)
        && has_predicate(domain, "clear", 1)
        && sokoban::ADJACENCY.iter().any(|a| has_predicate(domain, a, 3));
    let hanoi =
        has_predicate(domain, "on", 2) && has_predicate(domain, "clear", 1) && has_predicate(domain, "smaller", 2);
    if sokoban {
        return Ok(Drawing::Sokoban(sokoban::Board::new(domain, problem)?));
    }
    if hanoi {
        return Ok(Drawing::Hanoi(hanoi::Towers::new(problem)?));
    }
    Err(ShowError::Unsupported(format!(
        "cannot draw domain `{}`: show draws Tower of Hanoi tasks (predicates on/2, clear/1, smaller/2, \
         as in domains/hanoi.pddl) and Sokoban tasks (at/2, clear/1 and adjacent/3 or move-dir/3, as in \
         domains/sokoban.pddl or the IPC domain)",
        domain.name
    )))
}

impl Drawing {
    /// The state as data and as text for the terminal, the text drawn
    /// from the data.
    fn frame(&self, state: &HashSet<GroundAtom>) -> (Scene, String) {
        match self {
            Drawing::Hanoi(t) => {
                let stacks: Vec<Vec<String>> = t
                    .stacks(state)
                    .into_iter()
                    .map(|s| s.into_iter().map(str::to_string).collect())
                    .collect();
                let picture = t.draw(&stacks);
                (Scene::Towers(stacks), picture)
            }
            Drawing::Sokoban(b) => {
                let rows = b.rows(state);
                let picture = sokoban::Board::draw(&rows);
                (Scene::Board(rows), picture)
            }
        }
    }

    fn setting(&self) -> Setting {
        match self {
            Drawing::Hanoi(t) => t.setting(),
            Drawing::Sokoban(b) => b.setting(),
        }
    }
}

fn format_step(step: &PlanStep) -> String {
    let mut out = format!("({}", step.action);
    for a in &step.args {
        out.push(' ');
        out.push_str(a);
    }
    out.push(')');
    out
}

/// Replays `plan` and draws every state it passes through.
pub fn film(domain: &Domain, problem: &Problem, plan: &Plan) -> Result<Film, ShowError> {
    let drawing = recognise(domain, problem)?;
    let replayed = replay(domain, problem, plan);
    let frames: Vec<Frame> = replayed
        .states
        .iter()
        .enumerate()
        .map(|(i, state)| {
            let (scene, picture) = drawing.frame(state);
            Frame {
                step: i,
                action: i.checked_sub(1).and_then(|s| plan.steps.get(s)).map(format_step),
                picture,
                scene,
            }
        })
        .collect();
    Ok(Film {
        setting: drawing.setting(),
        plan_length: plan.steps.len(),
        rejected: replayed
            .error
            .as_ref()
            .and_then(|_| plan.steps.get(frames.len().saturating_sub(1)))
            .map(format_step),
        frames,
        error: replayed.error,
    })
}

/// Plays the frames in place on a terminal: clear the screen, draw, wait.
pub fn animate(frames: &[Frame], delay: Duration, out: &mut impl Write) -> io::Result<()> {
    for (i, frame) in frames.iter().enumerate() {
        // Home the cursor and clear the screen, then draw.
        write!(out, "\x1b[H\x1b[2J{}", frame.text())?;
        out.flush()?;
        if i + 1 < frames.len() {
            std::thread::sleep(delay);
        }
    }
    Ok(())
}

/// The plan of a Sokoban task as a LURD string: `l u r d` for walking
/// moves, `L U R D` for pushes, read off the player's way over the board.
pub fn lurd(domain: &Domain, problem: &Problem, plan: &Plan) -> Result<String, ShowError> {
    let board = match recognise(domain, problem)? {
        Drawing::Sokoban(b) => b,
        Drawing::Hanoi(_) => {
            return Err(ShowError::Unsupported(format!(
                "LURD is Sokoban notation; domain `{}` is a Tower of Hanoi domain",
                domain.name
            )));
        }
    };
    let replayed = replay(domain, problem, plan);
    if let Some(e) = replayed.error {
        return Err(ShowError::Invalid(e));
    }
    board.lurd(&replayed.states)
}

#[cfg(test)]
mod tests;
