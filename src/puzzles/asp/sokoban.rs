//! Sokoban instances: `player/1`, `stone/1`, `isgoal/1`, `isnongoal/1`,
//! `at/2`, `clear/1`, `goal/1`, `movedir/3`, `step/1`; witness `move/5`,
//! `pushtogoal/7`, `pushtonongoal/7` with the step as the last argument.
//!
//! Every ASP name becomes one PDDL object of `domains/sokoban.pddl` (see
//! [`super::pddl_name`]); the grid, goals, player and stones keep their
//! roles. The goal is the encoding's: every `goal(S)` stone is at a goal
//! cell (`at-goal S`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{AspError, Fact, Term, pddl_name};
use crate::plan::{Plan, PlanStep};

pub const DOMAIN: &str = include_str!("../../../domains/sokoban.pddl");

#[derive(Clone, Debug)]
pub struct Sokoban {
    /// At most this many actions, at steps 1..N.
    pub max_step: u64,
    player: Term,
    stones: BTreeSet<Term>,
    locations: BTreeSet<Term>,
    directions: BTreeSet<Term>,
    goal_cells: BTreeSet<Term>,
    nongoal_cells: BTreeSet<Term>,
    at: BTreeMap<Term, Term>,
    clear: BTreeSet<Term>,
    goal_stones: BTreeSet<Term>,
    movedir: BTreeSet<(Term, Term, Term)>,
    /// PDDL name -> ASP term, for reading plans back.
    by_name: HashMap<String, Term>,
}

fn args<'a>(fact: &'a Fact, arity: usize, file: &str) -> Result<&'a [Term], AspError> {
    if fact.args.len() != arity {
        return Err(AspError::at_fact(
            file,
            fact,
            format!("has {} arguments, expected {arity}", fact.args.len()),
        ));
    }
    Ok(&fact.args)
}

impl Sokoban {
    pub fn from_facts(facts: &[Fact], file: &str) -> Result<Sokoban, AspError> {
        let mut players: Vec<(&Term, &Fact)> = Vec::new();
        let mut stones = BTreeSet::new();
        let mut goal_cells: BTreeMap<Term, &Fact> = BTreeMap::new();
        let mut nongoal_cells: BTreeMap<Term, &Fact> = BTreeMap::new();
        let mut steps = BTreeSet::new();
        let mut movedir = BTreeSet::new();
        let mut floor = BTreeSet::new();
        let mut directions = BTreeSet::new();
        for f in facts {
            match f.predicate.as_str() {
                "player" => {
                    let a = &args(f, 1, file)?[0];
                    if !players.iter().any(|(p, _)| *p == a) {
                        players.push((a, f));
                    }
                }
                "stone" => {
                    stones.insert(args(f, 1, file)?[0].clone());
                }
                "isgoal" => {
                    goal_cells.insert(args(f, 1, file)?[0].clone(), f);
                }
                "isnongoal" => {
                    nongoal_cells.insert(args(f, 1, file)?[0].clone(), f);
                }
                "step" => {
                    let s = &args(f, 1, file)?[0];
                    match s.as_int() {
                        Some(i) if i >= 1 => {
                            steps.insert(i);
                        }
                        _ => return Err(AspError::at_fact(file, f, "is not a step: steps are integers from 1")),
                    }
                }
                "movedir" => {
                    let a = args(f, 3, file)?;
                    if a[0] == a[1] {
                        return Err(AspError::at_fact(file, f, "connects a location with itself"));
                    }
                    floor.insert(a[0].clone());
                    floor.insert(a[1].clone());
                    directions.insert(a[2].clone());
                    movedir.insert((a[0].clone(), a[1].clone(), a[2].clone()));
                }
                _ => {}
            }
        }
        let player = match players.as_slice() {
            [] => return Err(AspError::instance(file, "there is no player: player(P) is missing")),
            [(p, _)] => (*p).clone(),
            [_, (_, second), ..] => {
                return Err(AspError::at_fact(
                    file,
                    second,
                    "is a second player; the competition has exactly one",
                ));
            }
        };
        if stones.contains(&player) {
            return Err(AspError::instance(
                file,
                format!("`{player}` is both the player and a stone"),
            ));
        }
        for (cell, f) in &goal_cells {
            if nongoal_cells.contains_key(cell) {
                return Err(AspError::at_fact(file, f, format!("contradicts isnongoal({cell})")));
            }
        }
        let max_step = steps.iter().next_back().copied().unwrap_or(0);
        if steps.is_empty() {
            return Err(AspError::instance(file, "steps are missing: no step(T) facts"));
        }
        if max_step > 1_000_000 {
            return Err(AspError::instance(file, format!("step({max_step}) is too large")));
        }
        if let Some(t) = (1..=max_step).find(|t| !steps.contains(t)) {
            return Err(AspError::instance(
                file,
                format!("step({t}) is missing: steps must run 1..{max_step} without gaps"),
            ));
        }

        let is_cell = |l: &Term| goal_cells.contains_key(l) || nongoal_cells.contains_key(l);
        let mut at: BTreeMap<Term, (Term, &Fact)> = BTreeMap::new();
        let mut occupied: BTreeMap<Term, (Term, &Fact)> = BTreeMap::new();
        for f in facts.iter().filter(|f| f.predicate == "at") {
            let a = args(f, 2, file)?;
            let (object, place) = (&a[0], &a[1]);
            if *object != player && !stones.contains(object) {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("places `{object}`, which is neither the player nor a stone"),
                ));
            }
            if let Some((prev, other)) = at.get(object) {
                if prev == place {
                    continue;
                }
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!(
                        "puts `{object}` in a second place; {other} (line {}) already did",
                        other.location.line
                    ),
                ));
            }
            if stones.contains(object) && !is_cell(place) {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("puts stone `{object}` on `{place}`, which is not a cell (neither isgoal nor isnongoal)"),
                ));
            }
            if !floor.contains(place) {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("puts `{object}` on `{place}`, a wall: no movedir fact leads to or from it"),
                ));
            }
            if let Some((prev, other)) = occupied.get(place) {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!(
                        "puts `{object}` where `{prev}` already is ({other}, line {})",
                        other.location.line
                    ),
                ));
            }
            at.insert(object.clone(), (place.clone(), f));
            occupied.insert(place.clone(), (object.clone(), f));
        }
        if !at.contains_key(&player) {
            return Err(AspError::instance(
                file,
                format!("the player `{player}` has no at({player},L) fact"),
            ));
        }
        if let Some(s) = stones.iter().find(|s| !at.contains_key(*s)) {
            return Err(AspError::instance(file, format!("stone `{s}` has no at({s},L) fact")));
        }
        let mut clear = BTreeSet::new();
        for f in facts.iter().filter(|f| f.predicate == "clear") {
            let l = &args(f, 1, file)?[0];
            if let Some((object, _)) = occupied.get(l) {
                return Err(AspError::at_fact(file, f, format!("but `{object}` is at {l}")));
            }
            clear.insert(l.clone());
        }
        let mut goal_stones = BTreeSet::new();
        for f in facts.iter().filter(|f| f.predicate == "goal") {
            let s = &args(f, 1, file)?[0];
            if !stones.contains(s) {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("refers to `{s}`, which is not a stone"),
                ));
            }
            goal_stones.insert(s.clone());
        }

        let mut locations: BTreeSet<Term> = floor;
        locations.extend(goal_cells.keys().cloned());
        locations.extend(nongoal_cells.keys().cloned());
        locations.extend(clear.iter().cloned());
        // PDDL has one namespace for objects: a name used in two roles, or
        // two names that map to one PDDL name, cannot be translated.
        let mut by_name: HashMap<String, Term> = HashMap::new();
        let mut roles: HashMap<String, &str> = HashMap::new();
        let things = std::iter::once((&player, "the player")).chain(stones.iter().map(|s| (s, "a stone")));
        let all = things
            .chain(locations.iter().map(|l| (l, "a location")))
            .chain(directions.iter().map(|d| (d, "a direction")));
        for (term, role) in all {
            let n = pddl_name(term);
            if let Some(prev) = by_name.get(&n) {
                let prev_role = roles.get(&n).copied().unwrap_or("");
                return Err(AspError::instance(
                    file,
                    if prev == term {
                        format!("`{term}` is used both as {prev_role} and as {role}")
                    } else {
                        format!("`{prev}` and `{term}` have the same PDDL name `{n}`")
                    },
                ));
            }
            by_name.insert(n.clone(), term.clone());
            roles.insert(n, role);
        }

        Ok(Sokoban {
            max_step: max_step as u64,
            player,
            stones,
            locations,
            directions,
            goal_cells: goal_cells.into_keys().collect(),
            nongoal_cells: nongoal_cells.into_keys().collect(),
            at: at.into_iter().map(|(o, (l, _))| (o, l)).collect(),
            clear,
            goal_stones,
            movedir,
            by_name,
        })
    }

    pub fn problem_pddl(&self, problem_name: &str) -> String {
        let n = pddl_name;
        let mut out = format!("(define (problem {problem_name})\n  (:domain sokoban)\n  (:objects\n");
        out.push_str(&format!("    {} - player\n", n(&self.player)));
        let list = |terms: &BTreeSet<Term>, ty: &str| {
            if terms.is_empty() {
                return String::new();
            }
            let names: Vec<String> = terms.iter().map(n).collect();
            format!("    {} - {ty}\n", names.join(" "))
        };
        out.push_str(&list(&self.stones, "stone"));
        out.push_str(&list(&self.locations, "location"));
        out.push_str(&list(&self.directions, "direction"));
        out.push_str("  )\n  (:init\n");
        for l in &self.goal_cells {
            out.push_str(&format!("    (goal-cell {})\n", n(l)));
        }
        for l in &self.nongoal_cells {
            out.push_str(&format!("    (nongoal-cell {})\n", n(l)));
        }
        for (a, b, d) in &self.movedir {
            out.push_str(&format!("    (adjacent {} {} {})\n", n(a), n(b), n(d)));
        }
        for (o, l) in &self.at {
            out.push_str(&format!("    (at {} {})\n", n(o), n(l)));
            // As the encoding's `atgoal(S,0)`.
            if self.stones.contains(o) && self.goal_cells.contains(l) {
                out.push_str(&format!("    (at-goal {})\n", n(o)));
            }
        }
        for l in &self.clear {
            out.push_str(&format!("    (clear {})\n", n(l)));
        }
        out.push_str("  )\n  (:goal (and");
        for s in &self.goal_stones {
            out.push_str(&format!(" (at-goal {})", n(s)));
        }
        out.push_str("))\n)\n");
        out
    }

    fn term(&self, name: &str) -> Option<&Term> {
        self.by_name.get(name)
    }

    pub fn witness(&self, plan: &Plan, file: &str) -> Result<Vec<String>, AspError> {
        if plan.steps.len() as u64 > self.max_step {
            return Err(AspError::invalid_plan(
                file,
                format!(
                    "the plan has {} actions, more than the {} steps of the instance",
                    plan.steps.len(),
                    self.max_step
                ),
            ));
        }
        let mut out = Vec::with_capacity(plan.steps.len());
        for (i, step) in plan.steps.iter().enumerate() {
            let terms: Option<Vec<String>> = step.args.iter().map(|a| self.term(a).map(|t| t.to_string())).collect();
            let predicate = match step.action.as_str() {
                "move" => "move",
                "push-to-goal" => "pushtogoal",
                "push-to-nongoal" => "pushtonongoal",
                _ => "",
            };
            let (Some(terms), false) = (terms, predicate.is_empty()) else {
                return Err(AspError::invalid_plan(
                    file,
                    format!(
                        "step {}: `({} {})` is not a Sokoban action",
                        i + 1,
                        step.action,
                        step.args.join(" ")
                    ),
                ));
            };
            out.push(format!("{predicate}({},{}).", terms.join(","), i + 1));
        }
        Ok(out)
    }

    pub fn plan_of_witness(&self, facts: &[Fact], file: &str) -> Result<Plan, AspError> {
        let mut by_step: BTreeMap<i64, (&str, &Fact)> = BTreeMap::new();
        for f in facts {
            let (action, arity) = match f.predicate.as_str() {
                "move" => ("move", 5),
                "pushtogoal" => ("push-to-goal", 7),
                "pushtonongoal" => ("push-to-nongoal", 7),
                _ => {
                    return Err(AspError::at_fact(
                        file,
                        f,
                        "is not a Sokoban witness fact (move/5, pushtogoal/7, pushtonongoal/7)",
                    ));
                }
            };
            let a = args(f, arity, file)?;
            let Some(t) = a[arity - 1].as_int() else {
                return Err(AspError::at_fact(file, f, "has no integer step as its last argument"));
            };
            if t < 1 || t as u64 > self.max_step {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("is at step {t}, outside 1..{}", self.max_step),
                ));
            }
            if let Some((_, other)) = by_step.get(&t) {
                return Err(AspError::at_fact(
                    file,
                    f,
                    format!("is a second action at step {t}; {other} is the first"),
                ));
            }
            by_step.insert(t, (action, f));
        }
        // Steps without an action are the encoding's noops.
        let steps = by_step
            .values()
            .map(|(action, f)| PlanStep {
                action: action.to_string(),
                args: f.args[..f.args.len() - 1].iter().map(pddl_name).collect(),
                location: f.location,
            })
            .collect();
        Ok(Plan { steps })
    }
}
