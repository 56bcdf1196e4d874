//! Tower of Hanoi states as towers: one column per peg, each disc a bar as
//! long as its size with its name beside it, the bottom disc lowest.
//!
//! Pegs are the places that sit on nothing in the initial state; discs are
//! the things that sit on something. Sizes come from the `smaller` facts,
//! read in either convention: corvus writes `(smaller d p)` for "d may go on
//! p", the IPC domain `(smaller p d)` for "d is smaller than p". Which one a
//! problem uses shows in where the pegs stand: pegs are larger than every
//! disc.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::ShowError;
use crate::pddl::{GroundAtom, Problem};

pub struct Towers {
    pegs: Vec<String>,
    /// 1 for the smallest disc.
    size: HashMap<String, usize>,
    /// Width of a column: the longest bar, its label, and a gap.
    column: usize,
}

/// Orders `d2` before `d10`: by the text around the numbers, then by value.
fn natural_key(name: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for c in name.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                key.push((std::mem::take(&mut text), digits.parse().unwrap_or(u64::MAX)));
                digits.clear();
            }
            text.push(c);
        }
    }
    key.push((text, digits.parse().unwrap_or(0)));
    key
}

impl Towers {
    pub fn new(problem: &Problem) -> Result<Towers, ShowError> {
        let facts = |p: &'static str| {
            problem
                .init
                .iter()
                .filter(move |a| a.predicate == p && a.args.len() == 2)
                .map(|a| (a.args[0].as_str(), a.args[1].as_str()))
        };
        let discs: BTreeSet<&str> = facts("on").map(|(d, _)| d).collect();
        let mut places: BTreeSet<&str> = facts("on").map(|(_, p)| p).collect();
        places.extend(
            problem
                .init
                .iter()
                .filter(|a| a.predicate == "clear")
                .filter_map(|a| a.args.first().map(String::as_str)),
        );
        let mut pegs: Vec<&str> = places.iter().copied().filter(|p| !discs.contains(p)).collect();
        pegs.sort_by_key(|p| natural_key(p));
        if pegs.is_empty() {
            return Err(ShowError::Layout(format!(
                "problem `{}` has no pegs: every place sits on something in the initial state",
                problem.name
            )));
        }
        let peg_set: HashSet<&str> = pegs.iter().copied().collect();
        // (small, large) pairs among discs, in the problem's convention.
        let ipc_order = facts("smaller").any(|(x, _)| peg_set.contains(x));
        let smaller_pairs: HashSet<(&str, &str)> = facts("smaller")
            .map(|(x, y)| if ipc_order { (y, x) } else { (x, y) })
            .filter(|(s, l)| discs.contains(s) && discs.contains(l))
            .collect();
        let size: HashMap<String, usize> = discs
            .iter()
            .map(|&d| {
                let below = smaller_pairs.iter().filter(|&&(_, l)| l == d).count();
                (d.to_string(), below + 1)
            })
            .collect();
        let longest_bar = size.values().copied().max().unwrap_or(0);
        let longest_name = discs.iter().chain(&pegs).map(|n| n.chars().count()).max().unwrap_or(0);
        Ok(Towers {
            pegs: pegs.iter().map(|p| p.to_string()).collect(),
            size,
            column: longest_bar + 1 + longest_name + 2,
        })
    }

    pub fn setting(&self) -> super::Setting {
        super::Setting::Towers {
            pegs: self.pegs.clone(),
            sizes: self.size.iter().map(|(d, s)| (d.clone(), *s)).collect(),
        }
    }

    /// The discs on each peg, bottom first.
    pub fn stacks<'a>(&'a self, state: &'a HashSet<GroundAtom>) -> Vec<Vec<&'a str>> {
        let mut above: HashMap<&str, &str> = HashMap::new();
        for atom in state.iter().filter(|a| a.predicate == "on") {
            if let [d, p] = atom.args.as_slice() {
                above.insert(p.as_str(), d.as_str());
            }
        }
        self.pegs
            .iter()
            .map(|peg| {
                let mut stack = Vec::new();
                let mut top = peg.as_str();
                // The bound keeps a malformed state (a cycle of `on`) finite.
                while let Some(&d) = above.get(top) {
                    if stack.len() > self.size.len() {
                        break;
                    }
                    stack.push(d);
                    top = d;
                }
                stack
            })
            .collect()
    }

    /// The towers of `stacks` (the discs on each peg, bottom first) as text.
    pub fn draw(&self, stacks: &[Vec<String>]) -> String {
        let height = self.size.len().max(1);
        let mut lines = Vec::with_capacity(height + 2);
        for level in (0..height).rev() {
            let mut line = String::new();
            for stack in stacks {
                let cell = match stack.get(level) {
                    Some(d) => {
                        let size = self.size.get(d).copied().unwrap_or(1);
                        format!("{} {d}", "=".repeat(size))
                    }
                    None => "|".to_string(),
                };
                line.push_str(&format!("{cell:<w$}", w = self.column));
            }
            lines.push(line.trim_end().to_string());
        }
        let base = format!("{:<w$}", "-".repeat(self.column - 2), w = self.column).repeat(self.pegs.len());
        lines.push(base.trim_end().to_string());
        let names: String = self.pegs.iter().map(|p| format!("{p:<w$}", w = self.column)).collect();
        lines.push(names.trim_end().to_string());
        lines.join("\n")
    }
}
