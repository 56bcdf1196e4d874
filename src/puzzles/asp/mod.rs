//! The ASP Competition bridge: instances as ASP facts become PDDL problems of
//! the shipped domains (`domains/hanoi.pddl`, `domains/sokoban.pddl`), and
//! plans become witness facts in the competition's output format.
//!
//! An instance is read by [`facts`], recognised as one of the two families,
//! checked for consistency and translated 1:1 (every ASP object becomes one
//! PDDL object with a reversible name). [`solve`] decides the competition's
//! step-bounded question with [`crate::planner::solve_bounded`] and checks
//! every plan against the family's step rules before it becomes a witness.

pub mod facts;
pub mod frame_stewart;
mod hanoi;
mod sokoban;
mod verdict;

use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

pub use facts::{Fact, Term, parse_facts};

use crate::exit;
use crate::ground::GroundStats;
use crate::limits::{self, Stopped};
use crate::pddl::{self, Domain, Location, Problem};
use crate::plan::{Plan, validate};
use crate::planner::{self, Bound, Options, Status};
use crate::search::{Limits, Statistics};

/// The two competition problems the bridge knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Hanoi,
    Sokoban,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Hanoi => "hanoi",
            Family::Sokoban => "sokoban",
        }
    }

    /// Predicates that only this family's instances use.
    fn markers(self) -> &'static [&'static str] {
        match self {
            Family::Hanoi => &["steps", "time", "disk", "on0", "ongoal"],
            Family::Sokoban => &[
                "movedir",
                "stone",
                "player",
                "isgoal",
                "isnongoal",
                "step",
                "goal",
                "at",
                "clear",
            ],
        }
    }
}

impl std::str::FromStr for Family {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "hanoi" => Ok(Family::Hanoi),
            "sokoban" => Ok(Family::Sokoban),
            _ => Err(format!("unknown family `{s}` (expected hanoi or sokoban)")),
        }
    }
}

/// What went wrong, which decides the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AspErrorKind {
    /// The file cannot be read.
    Io,
    /// The text is not a sequence of ground facts.
    Syntax,
    /// Facts that are not an instance of the family, or an inconsistent one.
    Instance,
    /// A plan or witness that is not valid for the instance.
    InvalidPlan,
    /// A bug: the shipped domain does not load, or the planner returned a
    /// plan that breaks the step rules.
    Internal,
}

/// An error with its place when it has one: `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AspError {
    pub kind: AspErrorKind,
    pub file: String,
    pub location: Option<Location>,
    pub message: String,
}

impl fmt::Display for AspError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Some(l) => write!(f, "{}:{}:{}: {}", self.file, l.line, l.col, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for AspError {}

impl AspError {
    pub(crate) fn syntax(file: &str, location: Location, message: String) -> Self {
        AspError {
            kind: AspErrorKind::Syntax,
            file: file.to_string(),
            location: Some(location),
            message,
        }
    }

    /// An inconsistency that a particular fact shows.
    pub(crate) fn at_fact(file: &str, fact: &Fact, message: impl fmt::Display) -> Self {
        AspError {
            kind: AspErrorKind::Instance,
            file: file.to_string(),
            location: Some(fact.location),
            message: format!("`{}` {message}", fact.to_string().trim_end_matches('.')),
        }
    }

    /// An inconsistency of the instance as a whole (something missing).
    pub(crate) fn instance(file: &str, message: impl Into<String>) -> Self {
        AspError {
            kind: AspErrorKind::Instance,
            file: file.to_string(),
            location: None,
            message: message.into(),
        }
    }

    pub(crate) fn invalid_plan(file: &str, message: impl Into<String>) -> Self {
        AspError {
            kind: AspErrorKind::InvalidPlan,
            file: file.to_string(),
            location: None,
            message: message.into(),
        }
    }

    pub(crate) fn internal(file: &str, message: impl Into<String>) -> Self {
        AspError {
            kind: AspErrorKind::Internal,
            file: file.to_string(),
            location: None,
            message: message.into(),
        }
    }

    pub fn exit_code(&self) -> i32 {
        match self.kind {
            AspErrorKind::Io | AspErrorKind::Syntax | AspErrorKind::Instance => exit::INPUT_ERROR,
            AspErrorKind::InvalidPlan => exit::PLAN_INVALID,
            AspErrorKind::Internal => exit::INTERNAL_ERROR,
        }
    }
}

/// A checked competition instance.
#[derive(Clone, Debug)]
pub struct Instance {
    kind: InstanceKind,
    /// The file name, for messages.
    file: String,
    /// Facts the family does not use (reported, otherwise ignored).
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug)]
enum InstanceKind {
    Hanoi(hanoi::Hanoi),
    Sokoban(sokoban::Sokoban),
}

/// Which family the predicates point to: the one with more of its marker
/// predicates present; a tie or no marker at all is an error.
pub fn detect_family(facts: &[Fact], file: &str) -> Result<Family, AspError> {
    let score = |family: Family| {
        family
            .markers()
            .iter()
            .filter(|m| facts.iter().any(|f| f.predicate == **m))
            .count()
    };
    let (h, s) = (score(Family::Hanoi), score(Family::Sokoban));
    if h == 0 && s == 0 {
        let mut seen: Vec<&str> = facts.iter().map(|f| f.predicate.as_str()).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.truncate(8);
        return Err(AspError::instance(
            file,
            format!(
                "neither a Hanoi instance (steps, disk, on0, ongoal) nor a Sokoban instance \
                 (movedir, player, stone, at, step); predicates found: {}",
                if seen.is_empty() {
                    "none".to_string()
                } else {
                    seen.join(", ")
                }
            ),
        ));
    }
    if h == s {
        return Err(AspError::instance(
            file,
            "the facts fit Hanoi and Sokoban equally well; choose one with --family",
        ));
    }
    Ok(if h > s { Family::Hanoi } else { Family::Sokoban })
}

impl Instance {
    /// Reads and checks an instance; `family` overrides the detection.
    pub fn parse(text: &str, file: &str, family: Option<Family>) -> Result<Instance, AspError> {
        let facts = parse_facts(text, file)?;
        let family = match family {
            Some(f) => f,
            None => detect_family(&facts, file)?,
        };
        let known = family.markers();
        let mut warnings = Vec::new();
        // One warning per unknown predicate, at its first fact.
        let mut warned: HashSet<&str> = HashSet::new();
        for f in &facts {
            if !known.contains(&f.predicate.as_str()) && warned.insert(&f.predicate) {
                warnings.push(format!(
                    "{file}:{}:{}: predicate `{}` is not part of a {} instance; ignored",
                    f.location.line,
                    f.location.col,
                    f.predicate,
                    family.name()
                ));
            }
        }
        let kind = match family {
            Family::Hanoi => InstanceKind::Hanoi(hanoi::Hanoi::from_facts(&facts, file)?),
            Family::Sokoban => InstanceKind::Sokoban(sokoban::Sokoban::from_facts(&facts, file)?),
        };
        Ok(Instance {
            kind,
            file: file.to_string(),
            warnings,
        })
    }

    /// Reads and checks an instance file.
    pub fn load(path: &Path, family: Option<Family>) -> Result<Instance, AspError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| AspError {
            kind: AspErrorKind::Io,
            file: file.clone(),
            location: None,
            message: format!("cannot read file: {e}"),
        })?;
        Instance::parse(&text, &file, family)
    }

    pub fn family(&self) -> Family {
        match self.kind {
            InstanceKind::Hanoi(_) => Family::Hanoi,
            InstanceKind::Sokoban(_) => Family::Sokoban,
        }
    }

    /// The competition's bound: exactly k moves (Hanoi), at most N actions
    /// (Sokoban).
    pub fn step_bound(&self) -> u64 {
        match &self.kind {
            InstanceKind::Hanoi(h) => h.steps,
            InstanceKind::Sokoban(s) => s.max_step,
        }
    }

    /// The shipped domain this instance translates to.
    pub fn domain_pddl(&self) -> &'static str {
        match self.kind {
            InstanceKind::Hanoi(_) => hanoi::DOMAIN,
            InstanceKind::Sokoban(_) => sokoban::DOMAIN,
        }
    }

    /// The instance as a PDDL problem of [`Instance::domain_pddl`].
    pub fn problem_pddl(&self) -> String {
        match &self.kind {
            InstanceKind::Hanoi(h) => h.problem_pddl(&problem_name(&self.file), false),
            InstanceKind::Sokoban(s) => s.problem_pddl(&problem_name(&self.file)),
        }
    }

    /// The domain and problem as ASTs. They are generated, so an error here
    /// is a bug in the bridge.
    fn pddl(&self, domain_text: &str, problem_text: &str) -> Result<(Domain, Problem), AspError> {
        let internal = |e: pddl::PddlError| AspError::internal(&self.file, format!("generated PDDL: {e}"));
        let domain = pddl::parse_domain(domain_text, "<asp domain>").map_err(internal)?;
        let problem = pddl::parse_problem(problem_text, "<asp problem>").map_err(internal)?;
        pddl::check(&domain, &problem, "<asp problem>").map_err(internal)?;
        Ok((domain, problem))
    }

    /// The translated domain and problem, parsed and checked: the task that
    /// [`Instance::witness`] replays plans on.
    pub fn pddl_task(&self) -> Result<(Domain, Problem), AspError> {
        self.pddl(self.domain_pddl(), &self.problem_pddl())
    }

    /// Replays `plan` (of the shipped domain) on the translated instance,
    /// checks the family's step rules, and writes the witness facts, one per
    /// line in step order.
    pub fn witness(&self, plan: &Plan) -> Result<Vec<String>, AspError> {
        let (domain, problem) = self.pddl(self.domain_pddl(), &self.problem_pddl())?;
        validate(&domain, &problem, plan)
            .map_err(|e| AspError::invalid_plan(&self.file, format!("the plan is not valid: {e}")))?;
        match &self.kind {
            InstanceKind::Hanoi(h) => h.witness(plan, &self.file),
            InstanceKind::Sokoban(s) => s.witness(plan, &self.file),
        }
    }

    /// Reads witness facts (the competition's output format) back into a
    /// plan of the shipped domain, checking that steps are numbered as the
    /// family requires.
    pub fn plan_of_witness(&self, text: &str, file: &str) -> Result<Plan, AspError> {
        let facts = parse_facts(text, file)?;
        match &self.kind {
            InstanceKind::Hanoi(h) => h.plan_of_witness(&facts, file),
            InstanceKind::Sokoban(s) => s.plan_of_witness(&facts, file),
        }
    }

    /// Checks witness facts on their own: readable, numbered right, and the
    /// plan they spell is valid under the step rules.
    pub fn check_witness(&self, text: &str, file: &str) -> Result<(), AspError> {
        let plan = self.plan_of_witness(text, file)?;
        self.witness(&plan).map(|_| ())
    }
}

/// A PDDL problem name from the file name (`0004-hanoi_tower-60-0`).
fn problem_name(file: &str) -> String {
    let stem = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let cleaned: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("asp-{cleaned}")
}

/// The outcome of [`solve`].
#[derive(Clone, Debug)]
pub struct SolveOutcome {
    pub status: Status,
    /// The witness facts when `status` is [`Status::Solved`].
    pub witness: Option<Vec<String>>,
    /// Length of the plan behind the witness.
    pub plan_length: Option<usize>,
    /// Statistics of the search that decided (or of the last one run).
    pub search: Statistics,
    /// Searches run: `plain` (Sokoban), `pegs` (Hanoi), or `pegs` then
    /// `exact-length`.
    pub stages: Vec<String>,
    pub total_time: Duration,
}

impl SolveOutcome {
    /// The outcome of a run that a stop ended before its answer (e.g. while
    /// the instance was read), logged as the planner logs a stop.
    pub fn stopped(stopped: Stopped, verbose: bool) -> SolveOutcome {
        let start = Instant::now().checked_sub(stopped.elapsed).unwrap_or_else(Instant::now);
        let options = Options {
            verbose,
            ..Options::default()
        };
        let report = planner::stopped_report(stopped, GroundStats::default(), start, &options);
        SolveOutcome {
            status: report.status,
            witness: None,
            plan_length: None,
            search: report.search,
            stages: vec![report.config],
            total_time: report.total_time,
        }
    }
}

/// Decides the competition's question for `instance`: a witness within the
/// step bound, or a proof that there is none (`Status::Unsolvable`), or the
/// resource limit that stopped the search. Inside a watched run (see
/// [`limits::watch`]), e.g. one that read the instance, the time counts
/// from that run's start.
pub fn solve(instance: &Instance, limits: Limits, verbose: bool) -> Result<SolveOutcome, AspError> {
    let _watch = limits::watch(limits);
    let start = limits::run_start().unwrap_or_else(Instant::now);
    let bound = instance.step_bound();
    let log = |m: String| {
        if verbose {
            eprintln!("{m}");
        }
    };
    log(format!(
        "{}: {} instance, {} {bound} steps",
        instance.file,
        instance.family().name(),
        match instance.family() {
            Family::Hanoi => "exactly",
            Family::Sokoban => "at most",
        }
    ));
    let options = |limits: Limits| Options {
        bound: Some(Bound::Steps(bound)),
        unit_cost: true,
        limits,
        verbose,
        ..Options::default()
    };
    // Hanoi is searched in the model that locates discs by peg; its plans
    // are written back as plans of the shipped domain below.
    let (model, (domain, problem)) = match &instance.kind {
        InstanceKind::Hanoi(h) => (
            "pegs",
            instance.pddl(hanoi::PEG_DOMAIN, &h.peg_problem_pddl(&problem_name(&instance.file)))?,
        ),
        InstanceKind::Sokoban(_) => (
            "plain",
            instance.pddl(instance.domain_pddl(), &instance.problem_pddl())?,
        ),
    };
    let report = planner::solve_bounded(&domain, &problem, &options(limits))
        .map_err(|e| AspError::internal(&instance.file, format!("planner: {e}")))?;
    let mut outcome = SolveOutcome {
        status: report.status,
        witness: None,
        plan_length: None,
        search: report.search.clone(),
        stages: vec![format!("{model}: {}", report.config)],
        total_time: start.elapsed(),
    };
    let Some(found) = report.plan else {
        return Ok(outcome);
    };
    match &instance.kind {
        InstanceKind::Sokoban(_) => {
            outcome.witness = Some(instance.witness(&found.plan)?);
            outcome.plan_length = Some(found.length);
        }
        InstanceKind::Hanoi(h) => {
            let plan = h.plan_of_peg_plan(&found.plan, &instance.file)?;
            if h.obeys_step_rules(&plan) {
                outcome.witness = Some(instance.witness(&plan)?);
                outcome.plan_length = Some(found.length);
                return Ok(outcome);
            }
            // A plan shorter than k (or one that moves a disc twice in a
            // row) is no witness: search again with exact length and the
            // no-repeat rule compiled into the task.
            log(format!(
                "plan of length {} is no witness for exactly {bound} moves without repeats; \
                 searching with the exact-length model",
                found.length
            ));
            // The run's watch holds the time used so far: the planner gives
            // this stage what is left of the limit.
            let (domain, problem) = instance.pddl(
                hanoi::EXACT_DOMAIN,
                &h.problem_pddl(&problem_name(&instance.file), true),
            )?;
            let report = planner::solve_bounded(&domain, &problem, &options(limits))
                .map_err(|e| AspError::internal(&instance.file, format!("planner: {e}")))?;
            outcome.status = report.status;
            outcome.search = report.search;
            outcome.stages.push(format!("exact-length: {}", report.config));
            outcome.total_time = start.elapsed();
            if let Some(found) = report.plan {
                let plan = hanoi::plain_plan(&found.plan);
                if !h.obeys_step_rules(&plan) {
                    return Err(AspError::internal(
                        &instance.file,
                        "the exact-length model returned a plan that breaks the step rules",
                    ));
                }
                outcome.witness = Some(instance.witness(&plan)?);
                outcome.plan_length = Some(plan.steps.len());
            }
        }
    }
    outcome.total_time = start.elapsed();
    Ok(outcome)
}

/// PDDL names for ASP terms. A constant that is already a PDDL name in
/// lower case (`pos_1_2`, `stone_01`) keeps it. Everything else gets a
/// prefix with a `-`, which ASP constants cannot contain, so the two kinds
/// never collide: `n-7` and `n-m7` for integers, `c-…` for other constants,
/// `s-…` for strings, with characters outside `[a-z0-9_]` written `-hex-`.
pub fn pddl_name(term: &Term) -> String {
    const RESERVED: &[&str] = &["object", "either", "and", "or", "not", "define", "domain", "problem"];
    fn escaped(prefix: &str, text: &str) -> String {
        let mut out = prefix.to_string();
        for c in text.chars() {
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
                out.push(c);
            } else {
                out.push_str(&format!("-{:x}-", c as u32));
            }
        }
        out
    }
    match term {
        Term::Int(i) if *i < 0 => format!("n-m{}", i.unsigned_abs()),
        Term::Int(i) => format!("n-{i}"),
        Term::Const(c)
            if c.starts_with(|ch: char| ch.is_ascii_lowercase())
                && c.chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_')
                && !RESERVED.contains(&c.as_str()) =>
        {
            c.clone()
        }
        Term::Const(c) => escaped("c-", c),
        Term::Str(s) => escaped("s-", s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pddl_names_are_distinct_and_valid() {
        let terms = [
            Term::Int(7),
            Term::Int(-7),
            Term::Const("pos_1_2".into()),
            Term::Const("posA".into()),
            Term::Const("posa".into()),
            Term::Const("p'".into()),
            Term::Const("_x".into()),
            Term::Const("object".into()),
            Term::Str("\"posa\"".into()),
            Term::Str("\"a-b\"".into()),
            Term::Str("\"a-2d-b\"".into()),
        ];
        let names: Vec<String> = terms.iter().map(pddl_name).collect();
        for (i, a) in names.iter().enumerate() {
            assert!(
                a.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
                    && a.starts_with(|c: char| c.is_ascii_lowercase()),
                "{a}"
            );
            for b in &names[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(names[2], "pos_1_2");
        assert_eq!(names[3], "c-pos-41-");
    }
}
