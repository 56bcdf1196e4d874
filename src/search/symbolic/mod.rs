//! Symbolic search: bidirectional uniform-cost search over sets of states
//! held as BDDs ([`encoding`]).
//!
//! Each direction closes one cost layer at a time: the forward search from
//! the initial state by images, the backward search from the goal states by
//! pre-images, each layer first closed under the zero-cost operators (its
//! sub-layers). The direction whose next frontier has fewer BDD nodes goes
//! next. Two searches meet where a closed layer of one shares states with a
//! closed layer of the other, or where the images of one layer reach the
//! other's closed states; the cheapest meeting is optimal once it costs no
//! more than the two next layers' costs together, since every cheaper plan
//! would pass from a closed state of one search to one of the other.
//!
//! Against a bound, images whose cost plus the other search's next layer
//! exceed it are dropped, so an exhausted search is a proof that no plan
//! within the bound exists. The plan is read off the stored layers: from
//! the meeting state back to the initial state through pre-images
//! intersected with the forward layers, and on to the goal through images
//! intersected with the backward layers.

mod encoding;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;

use biodivine_lib_bdd::{Bdd, BddNode};

use super::nodes::RunLog;
use super::{Outcome, SearchConfig, Statistics};
use crate::task::{OpId, Task};
use encoding::{Encoding, MAX_RELATION_NODES, Relation};

/// The task features the symbolic search encodes.
pub const CONDITIONAL_EFFECTS: bool = true;
pub const AXIOMS: bool = true;

/// One closed cost layer: the states first reached at its cost, by the
/// sub-layers of its zero-cost closure, and their union.
struct Layer {
    parts: Vec<Bdd>,
    all: Bdd,
}

/// One direction of the search.
struct Direction {
    name: &'static str,
    /// Closed layers by cost.
    layers: BTreeMap<u64, Layer>,
    /// Every closed state.
    closed: Bdd,
    /// States reached but not closed, by cost.
    open: BTreeMap<u64, Bdd>,
    /// Where it starts: the initial state, or the goal states.
    start: Bdd,
    forward: bool,
    /// Seconds per node of the frontier its last expansion took.
    seconds_per_node: Option<f64>,
}

impl Direction {
    fn new(name: &'static str, start: Bdd, empty: Bdd, forward: bool) -> Self {
        Direction {
            name,
            layers: BTreeMap::new(),
            closed: empty,
            open: BTreeMap::from([(0, start.clone())]),
            start,
            forward,
            seconds_per_node: None,
        }
    }

    /// The cost of the next layer: no state of a lower cost is left open.
    fn next_cost(&self) -> Option<u64> {
        self.open.keys().next().copied()
    }

    /// The lowest-cost closed layer that shares states with `states`, and
    /// those states.
    fn first_meeting(&self, states: &Bdd) -> Option<(u64, Bdd)> {
        if states.and(&self.closed).is_false() {
            return None;
        }
        self.layers.iter().find_map(|(&cost, layer)| {
            let common = states.and(&layer.all);
            (!common.is_false()).then_some((cost, common))
        })
    }

    fn nodes(&self) -> usize {
        let layers: usize = self
            .layers
            .values()
            .map(|l| l.all.size() + l.parts.iter().map(Bdd::size).sum::<usize>())
            .sum();
        layers + self.closed.size() + self.open.values().map(Bdd::size).sum::<usize>()
    }
}

/// The cheapest plan found so far: a state on it, its cost from the initial
/// state and to the goal.
struct Meeting {
    cost: u64,
    state: Bdd,
    forward_cost: u64,
    backward_cost: u64,
}

struct Search<'a> {
    encoding: Encoding,
    log: RunLog<'a>,
    /// Only plans of at most this cost are sought.
    bound: u64,
    expansion_limit: Option<u64>,
    best: Option<Meeting>,
    /// Transitions by cost class: the zero-cost ones, and the others (for
    /// reading the plan off the layers).
    zero: Vec<usize>,
    positive: Vec<usize>,
    /// Their relations merged, for the images.
    zero_relations: Rc<[Relation]>,
    positive_relations: Rc<[Relation]>,
    /// Nodes of the merged relations.
    relation_nodes: usize,
}

pub(super) fn run(task: &Task, config: &SearchConfig, interrupt: &AtomicBool) -> (Outcome, Statistics) {
    let mut log = RunLog::new(config, interrupt);
    if let Some(stop) = log.start() {
        return log.finish(task, stop, 0, 0);
    }
    let encoding = match Encoding::new(task) {
        Ok(e) => e,
        Err(e) => {
            log.line(format!("symbolic search: {}", e.0));
            return log.finish(task, Outcome::Incomplete, 0, 0);
        }
    };
    log.line(format!(
        "symbolic search: {}; {} transitions ({} operators never applicable)",
        encoding.describe(),
        encoding.transitions.len(),
        encoding.never_applicable
    ));
    let (zero, positive): (Vec<usize>, Vec<usize>) =
        (0..encoding.transitions.len()).partition(|&i| encoding.transitions[i].relation.cost == 0);
    let started = std::time::Instant::now();
    // Merging can take long on tasks with many operators: the limits are
    // checked before each merge, as before each image.
    let mut stop = || {
        log.work += 1;
        match log.check_due() {
            true => log.check(0, None),
            false => None,
        }
    };
    let relations = encoding
        .relations(&zero, MAX_RELATION_NODES, &mut stop)
        .and_then(|zero| {
            let positive = encoding.relations(&positive, MAX_RELATION_NODES, &mut stop)?;
            Ok((zero, positive))
        });
    let (zero_relations, positive_relations): (Rc<[Relation]>, Rc<[Relation]>) = match relations {
        Ok((zero, positive)) => (zero.into(), positive.into()),
        Err(stop) => return log.finish(task, stop, 0, 0),
    };
    let relation_nodes = zero_relations
        .iter()
        .chain(positive_relations.iter())
        .map(Relation::nodes)
        .sum();
    log.line(format!(
        "symbolic search: {} transition relations in {relation_nodes} nodes ({:.3}s)",
        zero_relations.len() + positive_relations.len(),
        started.elapsed().as_secs_f64()
    ));
    let mut search = Search {
        encoding,
        log,
        bound: config.bound.unwrap_or(u64::MAX),
        expansion_limit: config.limits.expansions,
        best: None,
        zero,
        positive,
        zero_relations,
        positive_relations,
        relation_nodes,
    };
    let outcome = search.run(task);
    let stats = &search.log.stats;
    let line = format!(
        "symbolic search: {} layers closed, {} images (the expanded and generated counts below)",
        stats.expanded, stats.generated
    );
    search.log.line(line);
    search.log.finish(task, outcome, 0, 0)
}

impl<'a> Search<'a> {
    fn run(&mut self, task: &Task) -> Outcome {
        let empty = self.encoding.empty();
        let mut forward = Direction::new("forward", self.encoding.init.clone(), empty.clone(), true);
        let mut backward = Direction::new("backward", self.encoding.goal.clone(), empty, false);
        loop {
            if let Some(stop) = self.check(&[&forward, &backward]) {
                return stop;
            }
            // An exhausted direction has closed every state on a plan within
            // the cutoff, each at its distance: the other's start meets it
            // on the best of them.
            let (f, b) = match (forward.next_cost(), backward.next_cost()) {
                (Some(f), Some(b)) => (f, b),
                (None, _) => {
                    let start = backward.start.clone();
                    self.meet(&backward, &forward, 0, &start);
                    break;
                }
                (_, None) => {
                    let start = forward.start.clone();
                    self.meet(&forward, &backward, 0, &start);
                    break;
                }
            };
            let lower = f.saturating_add(b);
            if self.best.as_ref().is_some_and(|m| m.cost <= lower) || lower > self.bound {
                break;
            }
            if self.expansion_limit.is_some_and(|l| self.log.stats.expanded >= l) {
                return Outcome::ExpansionLimit;
            }
            // The direction expected to take less time: its frontier's size
            // at its last pace (before either has one, the smaller frontier).
            let (fs, bs) = (forward.open[&f].size() as f64, backward.open[&b].size() as f64);
            let forward_first = match (forward.seconds_per_node, backward.seconds_per_node) {
                (Some(fp), Some(bp)) => fs * fp <= bs * bp,
                _ => fs <= bs,
            };
            let step = match forward_first {
                true => self.expand(&mut forward, &backward),
                false => self.expand(&mut backward, &forward),
            };
            if let Err(stop) = step {
                return stop;
            }
        }
        let Some(meeting) = self.best.take() else {
            return Outcome::Unsolvable;
        };
        match self.plan(&forward, &backward, &meeting) {
            Some(plan) if task.replay_cost(&plan) == Some(meeting.cost) => Outcome::Solved(plan),
            _ => {
                self.log
                    .line("symbolic search: the plan could not be read off the layers");
                Outcome::Incomplete
            }
        }
    }

    /// Bytes held in BDD nodes.
    fn memory(&self, directions: &[&Direction]) -> u64 {
        let nodes: usize = directions.iter().map(|d| d.nodes()).sum::<usize>() + self.relation_nodes;
        (nodes * std::mem::size_of::<BddNode>()) as u64
    }

    /// Checks the limits when due (every image counts as a unit of work).
    fn check(&mut self, directions: &[&Direction]) -> Option<Outcome> {
        self.log.work += 1;
        if !self.log.check_due() {
            return None;
        }
        let memory = self.memory(directions);
        let layer = directions
            .iter()
            .map(|d| format!("{} g {}", d.name, d.layers.keys().last().copied().unwrap_or(0)))
            .collect::<Vec<_>>()
            .join(", ");
        self.log.check(memory, Some(layer))
    }

    /// The images of `states` under the zero-cost relations (`zero`) or the
    /// others that cost at most `max_cost`, united by their costs (the
    /// non-empty ones); checks the limits after each image.
    fn images(
        &mut self,
        this: &Direction,
        other: &Direction,
        zero: bool,
        states: &Bdd,
        max_cost: u64,
    ) -> Result<BTreeMap<u64, Bdd>, Outcome> {
        let relations = Rc::clone(match zero {
            true => &self.zero_relations,
            false => &self.positive_relations,
        });
        let mut out: BTreeMap<u64, Union> = BTreeMap::new();
        for relation in relations.iter().filter(|r| r.cost <= max_cost) {
            let image = self.step(this, states, relation);
            self.log.stats.generated += 1;
            if !image.is_false() {
                out.entry(relation.cost).or_default().push(image);
            }
            if let Some(stop) = self.check(&[this, other]) {
                return Err(stop);
            }
        }
        let mut united = BTreeMap::new();
        for (cost, union) in out {
            if let Some(states) = union.finish() {
                united.insert(cost, states);
            }
            if let Some(stop) = self.check(&[this, other]) {
                return Err(stop);
            }
        }
        Ok(united)
    }

    /// The image of `states` under a relation in the direction's sense.
    fn step(&self, direction: &Direction, states: &Bdd, relation: &Relation) -> Bdd {
        match direction.forward {
            true => self.encoding.image(states, relation),
            false => self.encoding.preimage(states, relation),
        }
    }

    /// The states of a backward image that satisfy the invariants (those of
    /// a forward image do).
    fn reachable(&self, direction: &Direction, states: Bdd) -> Bdd {
        match direction.forward {
            true => states,
            false => states.and(&self.encoding.mutex),
        }
    }

    /// The most a plan may cost that is to replace the best one.
    fn cutoff(&self) -> u64 {
        match &self.best {
            Some(m) => self.bound.min(m.cost.saturating_sub(1)),
            None => self.bound,
        }
    }

    /// Records a meeting of `states` (reached by `this` at `cost`) with the
    /// other direction's closed states, if it is cheaper than the best.
    fn meet(&mut self, this: &Direction, other: &Direction, cost: u64, states: &Bdd) {
        let Some((other_cost, common)) = other.first_meeting(states) else {
            return;
        };
        let total = cost.saturating_add(other_cost);
        if total > self.cutoff() {
            return;
        }
        let Some(state) = self.encoding.pick(&common) else {
            return;
        };
        let (forward_cost, backward_cost) = match this.forward {
            true => (cost, other_cost),
            false => (other_cost, cost),
        };
        self.log.line(format!(
            "symbolic search: plan of cost {total} found ({} cost {forward_cost}, {} cost {backward_cost})",
            "forward", "backward"
        ));
        self.best = Some(Meeting {
            cost: total,
            state,
            forward_cost,
            backward_cost,
        });
    }

    /// Closes the direction's next layer and puts its images into its open
    /// layers.
    fn expand(&mut self, this: &mut Direction, other: &Direction) -> Result<(), Outcome> {
        let Some((cost, frontier)) = this.open.pop_first() else {
            return Ok(());
        };
        let mut layer = frontier.and_not(&this.closed);
        if layer.is_false() {
            return Ok(());
        }
        let started = std::time::Instant::now();
        let frontier_nodes = layer.size().max(1);
        self.log.stats.expanded += 1;
        // The zero-cost closure, one sub-layer per round.
        let mut parts = vec![layer.clone()];
        let mut reached = this.closed.or(&layer);
        loop {
            let last = parts.last().expect("one part");
            let images = self.images(this, other, true, last, 0)?;
            let image = images.into_values().next().unwrap_or_else(|| self.encoding.empty());
            let new = self.reachable(this, image).and_not(&reached);
            if new.is_false() {
                break;
            }
            reached = reached.or(&new);
            layer = layer.or(&new);
            parts.push(new);
        }
        this.closed = reached;
        this.layers.insert(
            cost,
            Layer {
                parts,
                all: layer.clone(),
            },
        );
        self.meet(this, other, cost, &layer);
        let other_next = other.next_cost().unwrap_or(u64::MAX);
        // Images by their cost.
        let max_cost = self.cutoff().saturating_sub(cost);
        let by_cost = match cost <= self.cutoff() {
            true => self.images(this, other, false, &layer, max_cost)?,
            false => BTreeMap::new(),
        };
        for (t_cost, image) in by_cost {
            let reached_cost = cost + t_cost;
            let states = self.reachable(this, image);
            self.meet(this, other, reached_cost, &states);
            if reached_cost.saturating_add(other_next) > self.cutoff() {
                self.log.stats.pruned_by_bound += 1;
                continue;
            }
            let states = states.and_not(&this.closed);
            if states.is_false() {
                continue;
            }
            let open = this.open.entry(reached_cost).or_insert_with(|| self.encoding.empty());
            *open = open.or(&states);
        }
        this.seconds_per_node = Some(started.elapsed().as_secs_f64() / frontier_nodes as f64);
        self.log.line(format!(
            "{} layer {cost}: {:.0} states in {} nodes, {} sub-layer(s) [{}]",
            this.name,
            self.encoding.count(&layer),
            layer.size(),
            this.layers[&cost].parts.len(),
            self.log.progress()
        ));
        Ok(())
    }

    /// The operators of the best plan, read off the layers of both
    /// directions through the meeting state.
    fn plan(&self, forward: &Direction, backward: &Direction, meeting: &Meeting) -> Option<Vec<OpId>> {
        let mut to_meeting = self.trace(forward, meeting.state.clone(), meeting.forward_cost)?;
        to_meeting.reverse();
        let to_goal = self.trace(backward, meeting.state.clone(), meeting.backward_cost)?;
        to_meeting.extend(to_goal);
        Some(to_meeting)
    }

    /// The operators that lead from the direction's start to `state` (one
    /// state) at `cost`, last first for the forward direction and first
    /// first for the backward one: each step goes one transition against
    /// the direction's sense into a stored layer of the cost left.
    fn trace(&self, direction: &Direction, mut state: Bdd, mut cost: u64) -> Option<Vec<OpId>> {
        let mut ops = Vec::new();
        let against = |states: &Bdd, t: &Relation| match direction.forward {
            true => self.encoding.preimage(states, t),
            false => self.encoding.image(states, t),
        };
        loop {
            // Within a layer's zero-cost closure: back one sub-layer.
            let layer = direction.layers.get(&cost);
            let part = layer.and_then(|l| l.parts.iter().position(|p| !p.and(&state).is_false()));
            if cost == 0 && !state.and(&direction.start).is_false() {
                return Some(ops);
            }
            if let (Some(layer), Some(part)) = (layer, part)
                && part > 0
            {
                let previous = &layer.parts[part - 1];
                let (t, before) = self.zero.iter().find_map(|&i| {
                    let t = &self.encoding.transitions[i];
                    let before = against(&state, &t.relation).and(previous);
                    (!before.is_false()).then_some((t, before))
                })?;
                ops.push(t.op);
                state = self.encoding.pick(&before)?;
                continue;
            }
            // From an earlier layer by one operator of positive cost.
            let (t, before, left) = self.positive.iter().find_map(|&i| {
                let t = &self.encoding.transitions[i];
                let left = cost.checked_sub(t.relation.cost)?;
                let earlier = direction.layers.get(&left)?;
                let before = against(&state, &t.relation).and(&earlier.all);
                (!before.is_false()).then_some((t, before, left))
            })?;
            ops.push(t.op);
            state = self.encoding.pick(&before)?;
            cost = left;
        }
    }
}

/// A union of many sets built as they come, merged like a binary counter:
/// operands of similar size, and few sets held at once.
#[derive(Default)]
struct Union {
    /// At rank r, the union of 2^r sets, if any.
    ranks: Vec<Option<Bdd>>,
}

impl Union {
    fn push(&mut self, set: Bdd) {
        let mut carry = set;
        for slot in &mut self.ranks {
            match slot.take() {
                Some(held) => carry = carry.or(&held),
                None => {
                    *slot = Some(carry);
                    return;
                }
            }
        }
        self.ranks.push(Some(carry));
    }

    fn finish(self) -> Option<Bdd> {
        self.ranks.into_iter().flatten().reduce(|a, b| a.or(&b))
    }
}
