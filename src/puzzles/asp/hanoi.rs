//! Tower of Hanoi instances: `steps(k)`, `time/1`, `disk/1`, `on0/2`,
//! `ongoal/2`; witness `put(T,I,J)` ("at step T put disc J on top of I").
//!
//! Disks 1–4 are the pegs (an instance may declare fewer, see
//! [`super::frame_stewart`] for the 3-peg case), disks 5.. are the discs, and
//! a higher number is a smaller disc. Every disk `i` becomes the PDDL object
//! `d<i>`.

use std::collections::{BTreeMap, BTreeSet};

use super::{AspError, Fact};
use crate::plan::{Plan, PlanStep};

pub const DOMAIN: &str = include_str!("../../../domains/hanoi.pddl");

/// The model the bridge searches: every disc located by its peg
/// (`domains/hanoi-pegs.pddl`). Its plans become plans of [`DOMAIN`] by
/// [`Hanoi::plan_of_peg_plan`].
pub const PEG_DOMAIN: &str = include_str!("../../../domains/hanoi-pegs.pddl");

/// The exact-length model: a step counter `t0 .. tk` (the goal asks for
/// `tk`) makes every plan exactly k moves long, and `(moved ?d ?t)` records
/// which disc the move at step t moved, so that the move at the next step
/// may not move it again. Step `t-1` is the step before `t0`, so the first
/// move has a predecessor that moved nothing.
pub const EXACT_DOMAIN: &str = "\
(define (domain hanoi-exact)
  (:requirements :strips :typing :negative-preconditions)
  (:types place step - object peg disc - place)
  (:predicates (on ?d - disc ?p - place) (clear ?p - place) (smaller ?d - disc ?p - place)
               (now ?t - step) (next ?t ?u - step) (moved ?d - disc ?t - step))
  (:action move
    :parameters (?d - disc ?from ?to - place ?before ?t ?after - step)
    :precondition (and (now ?t) (next ?before ?t) (next ?t ?after) (not (moved ?d ?before))
                       (on ?d ?from) (clear ?d) (clear ?to) (smaller ?d ?to))
    :effect (and (not (now ?t)) (now ?after) (moved ?d ?t)
                 (not (on ?d ?from)) (on ?d ?to) (clear ?from) (not (clear ?to)))))
";

#[derive(Clone, Debug)]
pub struct Hanoi {
    /// Exactly this many moves, at steps 0..k-1.
    pub steps: u64,
    /// Disk numbers below 5.
    pegs: Vec<i64>,
    /// Disk numbers from 5, larger number = smaller disc.
    discs: Vec<i64>,
    /// disc -> what it sits on, initially and in the goal.
    on0: BTreeMap<i64, i64>,
    ongoal: BTreeMap<i64, i64>,
}

fn name(disk: i64) -> String {
    format!("d{disk}")
}

/// `d7` -> 7.
fn number(name: &str) -> Option<i64> {
    name.strip_prefix('d')?.parse().ok()
}

fn ints(fact: &Fact, arity: usize, file: &str) -> Result<Vec<i64>, AspError> {
    if fact.args.len() != arity {
        return Err(AspError::at_fact(
            file,
            fact,
            format!("has {} arguments, expected {arity}", fact.args.len()),
        ));
    }
    fact.args
        .iter()
        .map(|a| {
            a.as_int()
                .ok_or_else(|| AspError::at_fact(file, fact, format!("has `{a}` where an integer is expected")))
        })
        .collect()
}

impl Hanoi {
    pub fn from_facts(facts: &[Fact], file: &str) -> Result<Hanoi, AspError> {
        let mut steps: Option<(u64, &Fact)> = None;
        let mut times = BTreeSet::new();
        let mut disks = BTreeSet::new();
        for f in facts {
            match f.predicate.as_str() {
                "steps" => {
                    let k = ints(f, 1, file)?[0];
                    let k = u64::try_from(k).map_err(|_| AspError::at_fact(file, f, "is negative"))?;
                    if let Some((other, first)) = steps
                        && other != k
                    {
                        return Err(AspError::at_fact(
                            file,
                            f,
                            format!("contradicts {first} (line {})", first.location.line),
                        ));
                    }
                    steps = Some((k, f));
                }
                "time" => {
                    times.insert(ints(f, 1, file)?[0]);
                }
                "disk" => {
                    let d = ints(f, 1, file)?[0];
                    if d < 1 {
                        return Err(AspError::at_fact(file, f, "is not a disk: disks are numbered from 1"));
                    }
                    disks.insert(d);
                }
                _ => {}
            }
        }
        let Some((steps, _)) = steps else {
            return Err(AspError::instance(file, "steps(K) is missing"));
        };
        if steps > 100_000 {
            return Err(AspError::instance(file, format!("steps({steps}) is too large")));
        }
        if let Some(t) = (0..=steps as i64).find(|t| !times.contains(t)) {
            return Err(AspError::instance(
                file,
                format!("time({t}) is missing: steps({steps}) needs time(0..{steps})"),
            ));
        }
        let pegs: Vec<i64> = disks.iter().copied().filter(|&d| d < 5).collect();
        let discs: Vec<i64> = disks.iter().copied().filter(|&d| d >= 5).collect();
        let on0 = Self::placement(facts, "on0", &disks, file)?;
        let ongoal = Self::placement(facts, "ongoal", &disks, file)?;
        Ok(Hanoi {
            steps,
            pegs,
            discs,
            on0,
            ongoal,
        })
    }

    /// Reads `pred(X,Y)` ("disc X is on Y") into a map, checking that every
    /// disc has exactly one place, nothing carries two discs, and discs sit
    /// on larger discs or pegs.
    fn placement(
        facts: &[Fact],
        pred: &str,
        disks: &BTreeSet<i64>,
        file: &str,
    ) -> Result<BTreeMap<i64, i64>, AspError> {
        let mut on: BTreeMap<i64, (i64, &Fact)> = BTreeMap::new();
        let mut below: BTreeMap<i64, (i64, &Fact)> = BTreeMap::new();
        for f in facts.iter().filter(|f| f.predicate == pred) {
            let xy = ints(f, 2, file)?;
            let (x, y) = (xy[0], xy[1]);
            for d in [x, y] {
                if !disks.contains(&d) {
                    return Err(AspError::at_fact(
                        file,
                        f,
                        format!("refers to {d}, which is not a disk"),
                    ));
                }
            }
            if x == y {
                return Err(AspError::at_fact(file, f, format!("puts disc {x} on itself")));
            }
            if x < 5 {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("puts peg {x} on something; pegs do not move"),
                ));
            }
            if y > x {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("puts disc {x} on the smaller disc {y} (a higher number is a smaller disc)"),
                ));
            }
            if let Some((prev, other)) = on.get(&x) {
                if *prev == y {
                    continue;
                }
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!(
                        "puts disc {x} in a second place; {other} (line {}) already did",
                        other.location.line
                    ),
                ));
            }
            if let Some((prev, other)) = below.get(&y) {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!(
                        "puts a second disc on {y}; {other} (line {}) put {prev} there",
                        other.location.line
                    ),
                ));
            }
            on.insert(x, (y, f));
            below.insert(y, (x, f));
        }
        if let Some(d) = disks.iter().find(|&&d| d >= 5 && !on.contains_key(&d)) {
            return Err(AspError::instance(file, format!("disc {d} has no place in {pred}")));
        }
        Ok(on.into_iter().map(|(x, (y, _))| (x, y)).collect())
    }

    /// `(define (problem NAME) (:domain DOMAIN) (:objects` with the pegs
    /// and the discs, the object list left open.
    fn problem_head(&self, problem_name: &str, domain: &str) -> String {
        let mut out = format!("(define (problem {problem_name})\n  (:domain {domain})\n  (:objects");
        for &p in &self.pegs {
            out.push_str(&format!(" {}", name(p)));
        }
        if !self.pegs.is_empty() {
            out.push_str(" - peg");
        }
        for &d in &self.discs {
            out.push_str(&format!(" {}", name(d)));
        }
        if !self.discs.is_empty() {
            out.push_str(" - disc");
        }
        out
    }

    /// The problem for `domains/hanoi.pddl`, or for [`EXACT_DOMAIN`].
    pub fn problem_pddl(&self, problem_name: &str, exact: bool) -> String {
        let domain = if exact { "hanoi-exact" } else { "hanoi" };
        let mut out = self.problem_head(problem_name, domain);
        if exact {
            out.push_str(" t-1");
            for t in 0..=self.steps {
                out.push_str(&format!(" t{t}"));
            }
            out.push_str(" - step");
        }
        out.push_str(")\n  (:init\n");
        for (x, y) in &self.on0 {
            out.push_str(&format!("    (on {} {})\n", name(*x), name(*y)));
        }
        let covered: BTreeSet<i64> = self.on0.values().copied().collect();
        for &d in self.pegs.iter().chain(&self.discs) {
            if !covered.contains(&d) {
                out.push_str(&format!("    (clear {})\n", name(d)));
            }
        }
        // `smaller d p`: d may be put on p. Pegs have the lowest numbers, so
        // they are larger than every disc.
        for &d in &self.discs {
            let mut line = String::from("   ");
            for &p in self.pegs.iter().chain(&self.discs).filter(|&&p| p < d) {
                line.push_str(&format!(" (smaller {} {})", name(d), name(p)));
            }
            out.push_str(&line);
            out.push('\n');
        }
        if exact {
            out.push_str("    (now t0) (next t-1 t0)");
            for t in 0..self.steps {
                out.push_str(&format!(" (next t{t} t{})", t + 1));
            }
            out.push('\n');
        }
        out.push_str("  )\n  (:goal (and");
        for (x, y) in &self.ongoal {
            out.push_str(&format!(" (on {} {})", name(*x), name(*y)));
        }
        if exact {
            out.push_str(&format!(" (now t{})", self.steps));
        }
        out.push_str("))\n)\n");
        out
    }

    /// The peg under `disc` in `on` (disc -> what it sits on).
    fn peg_of(on: &BTreeMap<i64, i64>, disc: i64) -> i64 {
        let mut place = disc;
        // Discs sit on larger discs (lower numbers), so the walk ends; the
        // bound guards against a map that was not checked.
        for _ in 0..=on.len() {
            match on.get(&place) {
                Some(&below) => place = below,
                None => break,
            }
        }
        place
    }

    /// The problem for [`PEG_DOMAIN`]: each disc's peg, initially and in
    /// the goal. The discs on a peg are stacked by size, so the pegs say
    /// all that `on0` and `ongoal` say.
    pub fn peg_problem_pddl(&self, problem_name: &str) -> String {
        let mut out = self.problem_head(problem_name, "hanoi-pegs");
        out.push_str(")\n  (:init\n");
        for &d in &self.discs {
            out.push_str(&format!("    (at {} {})\n", name(d), name(Self::peg_of(&self.on0, d))));
        }
        // A higher number is a smaller disc.
        for &d in &self.discs {
            let mut line = String::from("   ");
            for &s in self.discs.iter().filter(|&&s| s > d) {
                line.push_str(&format!(" (smaller {} {})", name(s), name(d)));
            }
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("  )\n  (:goal (and");
        for &d in &self.discs {
            out.push_str(&format!(" (at {} {})", name(d), name(Self::peg_of(&self.ongoal, d))));
        }
        out.push_str("))\n)\n");
        out
    }

    /// A plan of [`PEG_DOMAIN`] (`move disc from-peg to-peg`) as a plan of
    /// [`DOMAIN`] (`move disc what-it-sat-on what-it-is-put-on`), by
    /// replaying the towers from `on0`. The result is checked on
    /// [`DOMAIN`] by the caller, like any plan.
    pub fn plan_of_peg_plan(&self, plan: &Plan, file: &str) -> Result<Plan, AspError> {
        // The discs on each peg, bottom first.
        let mut towers: BTreeMap<i64, Vec<i64>> = self.pegs.iter().map(|&p| (p, Vec::new())).collect();
        for &d in &self.discs {
            // Larger discs (lower numbers) come first: bottom first.
            towers.entry(Self::peg_of(&self.on0, d)).or_default().push(d);
        }
        let mut steps = Vec::with_capacity(plan.steps.len());
        for (t, step) in plan.steps.iter().enumerate() {
            let parsed = match (step.action.as_str(), step.args.as_slice()) {
                ("move", [d, from, to]) => number(d).zip(number(from)).zip(number(to)),
                _ => None,
            };
            let not_a_move = || {
                AspError::internal(
                    file,
                    format!("step {}: `{}` is not a move of the peg model", t + 1, step_text(step)),
                )
            };
            let ((d, from), to) = parsed.ok_or_else(not_a_move)?;
            let source = towers.get_mut(&from).ok_or_else(not_a_move)?;
            if source.last() != Some(&d) {
                return Err(not_a_move());
            }
            source.pop();
            let below = source.last().copied().unwrap_or(from);
            let target = towers.get_mut(&to).ok_or_else(not_a_move)?;
            let onto = target.last().copied().unwrap_or(to);
            target.push(d);
            steps.push(PlanStep {
                action: "move".to_string(),
                args: vec![name(d), name(below), name(onto)],
                location: step.location,
            });
        }
        Ok(Plan { steps })
    }

    /// Disc moved by a `move` step of any model.
    fn moved_disc(step: &PlanStep) -> Option<i64> {
        number(step.args.first()?)
    }

    /// Exactly k moves and no disc moved at two consecutive steps.
    pub fn obeys_step_rules(&self, plan: &Plan) -> bool {
        let discs: Vec<Option<i64>> = plan.steps.iter().map(Self::moved_disc).collect();
        discs.len() as u64 == self.steps && discs.iter().all(Option::is_some) && discs.windows(2).all(|w| w[0] != w[1])
    }

    /// The witness of a plan that is valid for the plain domain.
    pub fn witness(&self, plan: &Plan, file: &str) -> Result<Vec<String>, AspError> {
        if plan.steps.len() as u64 != self.steps {
            return Err(AspError::invalid_plan(
                file,
                format!(
                    "the plan has {} moves, but steps({}) asks for exactly {} moves",
                    plan.steps.len(),
                    self.steps,
                    self.steps
                ),
            ));
        }
        let mut out = Vec::with_capacity(plan.steps.len());
        for (t, step) in plan.steps.iter().enumerate() {
            let parsed = match (step.action.as_str(), step.args.as_slice()) {
                ("move", [d, _from, to]) => number(d).zip(number(to)),
                _ => None,
            };
            let Some((d, to)) = parsed else {
                return Err(AspError::invalid_plan(
                    file,
                    format!("step {}: `{}` is not a Hanoi move", t + 1, step_text(step)),
                ));
            };
            if t > 0 && Self::moved_disc(&plan.steps[t - 1]) == Some(d) {
                return Err(AspError::invalid_plan(
                    file,
                    format!(
                        "steps {} and {} both move disc {d}, which the competition forbids",
                        t - 1,
                        t
                    ),
                ));
            }
            out.push(format!("put({t},{to},{d})."));
        }
        Ok(out)
    }

    /// `put(T,I,J)` facts back to a plan, with the source of each move
    /// recovered by replaying from `on0` (the witness does not name it).
    pub fn plan_of_witness(&self, facts: &[Fact], file: &str) -> Result<Plan, AspError> {
        let mut by_step: BTreeMap<i64, (i64, i64, &Fact)> = BTreeMap::new();
        for f in facts {
            if f.predicate != "put" {
                return Err(AspError::at_fact(file, f, "is not a Hanoi witness fact put(T,I,J)"));
            }
            let v = ints(f, 3, file)?;
            if let Some((_, _, other)) = by_step.get(&v[0]) {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("is a second move at step {}; {other} is the first", v[0]),
                ));
            }
            by_step.insert(v[0], (v[1], v[2], f));
        }
        let mut place = self.on0.clone();
        let mut steps = Vec::new();
        for (expected, (t, (to, d, f))) in by_step.iter().enumerate() {
            if *t != expected as i64 {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("is at step {t}, but step {expected} has no move (steps run 0..k-1)"),
                ));
            }
            let Some(from) = place.get(d).copied() else {
                return Err(AspError::at_fact(file, f, format!("moves {d}, which is not a disc")));
            };
            place.insert(*d, *to);
            steps.push(PlanStep {
                action: "move".to_string(),
                args: vec![name(*d), name(from), name(*to)],
                location: f.location,
            });
        }
        Ok(Plan { steps })
    }
}

/// `(move d9 d8 d3)`.
fn step_text(step: &PlanStep) -> String {
    format!("({} {})", step.action, step.args.join(" "))
}

/// A plan of the exact-length model as a plan of the plain domain.
pub fn plain_plan(plan: &Plan) -> Plan {
    Plan {
        steps: plan
            .steps
            .iter()
            .map(|s| PlanStep {
                action: s.action.clone(),
                args: s.args.iter().take(3).cloned().collect(),
                location: s.location,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::parse_plan;
    use crate::puzzles::asp::facts::parse_facts;

    const SEED: &str = include_str!("../../../problems/hanoi-seed.asp");

    fn seed() -> Hanoi {
        Hanoi::from_facts(&parse_facts(SEED, "seed.asp").unwrap(), "seed.asp").unwrap()
    }

    #[test]
    fn the_peg_model_locates_every_disc_by_its_peg() {
        let p = seed().peg_problem_pddl("seed");
        assert!(
            p.contains("d1 d2 d3 d4 - peg") && p.contains("d5 d6 d7 d8 d9 - disc"),
            "{p}"
        );
        // All five discs start on peg 1; 8 and 9 end on peg 2.
        for d in 5..=9 {
            assert!(p.contains(&format!("(at d{d} d1)")), "{p}");
        }
        assert!(
            p.contains("(:goal (and (at d5 d1) (at d6 d1) (at d7 d1) (at d8 d2) (at d9 d2)))"),
            "{p}"
        );
        // A higher number is a smaller disc.
        assert!(p.contains("(smaller d9 d5)") && !p.contains("(smaller d5 d9)"), "{p}");
    }

    #[test]
    fn peg_moves_become_moves_onto_the_top_disc_or_the_peg() {
        let h = seed();
        let pegs = parse_plan("(move d9 d1 d3)\n(move d8 d1 d2)\n(move d9 d3 d2)\n", "plan").unwrap();
        let plan = h.plan_of_peg_plan(&pegs, "seed.asp").unwrap();
        let text: Vec<String> = plan.steps.iter().map(step_text).collect();
        assert_eq!(text, ["(move d9 d8 d3)", "(move d8 d7 d2)", "(move d9 d3 d8)"]);
        // The competition page's own witness.
        assert_eq!(
            h.witness(&plan, "seed.asp").unwrap(),
            ["put(0,3,9).", "put(1,2,8).", "put(2,8,9)."]
        );
        // Disc 8 is under disc 9: it cannot be moved first.
        let buried = parse_plan("(move d8 d1 d2)\n", "plan").unwrap();
        let error = h.plan_of_peg_plan(&buried, "seed.asp").unwrap_err();
        assert!(error.to_string().contains("step 1: `(move d8 d1 d2)`"), "{error}");
    }
}
