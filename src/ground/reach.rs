//! The relaxed-reachability fix-point: from the initial facts, run the
//! rules' join plans until no new fact is reached.
//!
//! It is semi-naive: a fact is queued when first reached and, when taken
//! from the queue, joined only by the plans in which it takes part, against
//! the facts processed so far; the bindings found are recorded per rule,
//! and each new one reaches the atoms of its rule.

use super::Grounder;
use super::join::Tuple;

impl Grounder<'_> {
    /// The relaxed-reachability fix-point.
    pub(super) fn reach(&mut self) {
        self.reach_initial_facts();
        self.run_untriggered();
        self.propagate();
    }

    pub(super) fn num_static_facts(&self) -> usize {
        (0..self.relations.len())
            .filter(|&p| self.is_static[p])
            .map(|p| self.relations[p].len())
            .sum()
    }

    fn reach_initial_facts(&mut self) {
        for (pred, args) in std::mem::take(&mut self.init_fluent) {
            self.reach_fact(pred, args);
        }
    }

    /// Runs the plans of the rules without positive fluent conditions, the
    /// only time they can find anything.
    fn run_untriggered(&mut self) {
        let sets = self.types.sets();
        let mut found: Vec<(usize, Vec<Tuple>)> = Vec::new();
        for plan in &self.untriggered {
            crate::limits::set_item(plan.action);
            let mut out = Vec::new();
            let params = &self.rules[plan.action].param_sets;
            plan.run(None, &self.relations, sets, params, &mut out);
            found.push((plan.action, out));
        }
        for (rule, out) in found {
            self.add_bindings(rule, out);
        }
    }

    /// Processes queued facts until the queue is empty: each joins the
    /// plans it triggers.
    fn propagate(&mut self) {
        let mut out = Vec::new();
        while let Some((pred, args)) = self.queue.pop_front() {
            self.relations[pred as usize].insert(args.clone());
            for k in 0..self.triggered[pred as usize].len() {
                let plan = &self.triggered[pred as usize][k];
                crate::limits::set_item(plan.action);
                let params = &self.rules[plan.action].param_sets;
                plan.run(Some(&args), &self.relations, self.types.sets(), params, &mut out);
                let rule = plan.action;
                let bindings = std::mem::take(&mut out);
                self.add_bindings(rule, bindings);
            }
        }
    }

    /// Marks a fluent fact reached; queues it if it is new.
    fn reach_fact(&mut self, pred: u32, args: Tuple) {
        if self.reached[pred as usize].insert(args.clone()) {
            self.queue.push_back((pred, args));
        }
    }

    /// Records newly found bindings of a rule and reaches what they make true.
    fn add_bindings(&mut self, rule: usize, bindings: Vec<Tuple>) {
        crate::limits::set_item(rule);
        for binding in bindings {
            crate::limits::checkpoint();
            if !self.found[rule].insert(binding.clone()) {
                continue;
            }
            for i in 0..self.rules[rule].reaches.len() {
                let atom = &self.rules[rule].reaches[i];
                let pred = atom.pred;
                let args = atom.ground(&binding);
                self.reach_fact(pred, args);
            }
        }
    }
}
