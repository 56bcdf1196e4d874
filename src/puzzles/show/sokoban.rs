//! Sokoban boards from PDDL problems, drawn in the XSB characters.
//!
//! The geometry comes from the problem: the floor is every location that an
//! adjacency fact mentions, and each location gets grid coordinates either
//! from its name (`pos_3_4`, `pos-03-04`: the last two numbers, in whichever
//! order and orientation agrees with every adjacency fact) or, when names
//! carry no usable coordinates, by a breadth-first walk along the adjacency
//! facts from the player's cell. Walls are drawn around the floor.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use super::ShowError;
use crate::pddl::{Domain, GroundAtom, Problem, TypeHierarchy};

/// Adjacency predicates: corvus' domain and the IPC domain.
pub const ADJACENCY: &[&str] = &["adjacent", "move-dir"];
/// Goal-cell predicates: corvus' domain and the IPC domain.
const GOAL_CELL: &[&str] = &["goal-cell", "is-goal"];

type Cell = (i64, i64);

pub struct Board {
    /// Grid cell of every placed location; (0, 0) is the top-left corner,
    /// and the floor starts at (1, 1) so that walls fit around it.
    cell_of: HashMap<String, Cell>,
    floor: HashSet<Cell>,
    goals: HashSet<Cell>,
    players: BTreeSet<String>,
    width: i64,
    height: i64,
}

/// The unit step a direction name stands for, x to the right, y downwards.
fn named_delta(direction: &str) -> Option<Cell> {
    let d = direction.to_ascii_lowercase();
    let words = [
        ("left", (-1, 0)),
        ("west", (-1, 0)),
        ("right", (1, 0)),
        ("east", (1, 0)),
        ("up", (0, -1)),
        ("north", (0, -1)),
        ("down", (0, 1)),
        ("south", (0, 1)),
    ];
    words.iter().find(|(w, _)| d.contains(w)).map(|&(_, delta)| delta)
}

/// Deltas for every direction: from their names when all of them have one,
/// otherwise from the facts alone: directions pair up as opposites (`a` to
/// `b` one way exactly when `b` to `a` the other way), the first pair is
/// drawn horizontally and the second vertically.
fn direction_deltas(
    directions: &BTreeSet<&str>,
    adjacency: &[(&str, &str, &str)],
) -> Result<HashMap<String, Cell>, ShowError> {
    let named: Option<HashMap<String, Cell>> = directions
        .iter()
        .map(|d| named_delta(d).map(|delta| (d.to_string(), delta)))
        .collect();
    if let Some(named) = named {
        return Ok(named);
    }
    let edges: BTreeMap<&str, BTreeSet<(&str, &str)>> = directions
        .iter()
        .map(|&d| {
            let set = adjacency
                .iter()
                .filter(|(_, _, dir)| *dir == d)
                .map(|&(a, b, _)| (a, b))
                .collect();
            (d, set)
        })
        .collect();
    let mut deltas = HashMap::new();
    let axes = [[(1, 0), (-1, 0)], [(0, 1), (0, -1)]];
    let mut axis = 0;
    for (&d, set) in &edges {
        if deltas.contains_key(d) {
            continue;
        }
        let reversed: BTreeSet<(&str, &str)> = set.iter().map(|&(a, b)| (b, a)).collect();
        let opposite = edges
            .iter()
            .find(|&(&e, other)| e != d && !deltas.contains_key(e) && *other == reversed)
            .map(|(&e, _)| e);
        let (Some(e), Some(pair)) = (opposite, axes.get(axis)) else {
            return Err(ShowError::Layout(format!(
                "cannot tell which way direction `{d}` goes: its name says neither left, right, up \
                 nor down, and the directions do not pair up as two opposite axes"
            )));
        };
        deltas.insert(d.to_string(), pair[0]);
        deltas.insert(e.to_string(), pair[1]);
        axis += 1;
    }
    Ok(deltas)
}

/// The last two numbers in a name: `pos_3_4` gives (3, 4).
fn name_numbers(name: &str) -> Option<(i64, i64)> {
    let numbers: Vec<i64> = name
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok())
        .collect::<Option<Vec<i64>>>()?;
    match numbers.as_slice() {
        [.., a, b] => Some((*a, *b)),
        _ => None,
    }
}

/// Coordinates from location names, in the first of the eight ways to read
/// two numbers as a cell that agrees with every adjacency fact.
fn coordinates_from_names(
    locations: &BTreeSet<&str>,
    adjacency: &[(&str, &str, &str)],
    deltas: &HashMap<String, Cell>,
) -> Option<HashMap<String, Cell>> {
    let numbers: HashMap<&str, (i64, i64)> = locations
        .iter()
        .map(|&l| name_numbers(l).map(|n| (l, n)))
        .collect::<Option<_>>()?;
    for swap in [false, true] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let cell = |l: &str| {
                    numbers.get(l).map(|&(a, b)| {
                        let (x, y) = if swap { (b, a) } else { (a, b) };
                        (sx * x, sy * y)
                    })
                };
                let fits = adjacency
                    .iter()
                    .all(|(a, b, d)| match (cell(a), cell(b), deltas.get(*d)) {
                        (Some(p), Some(q), Some(delta)) => (q.0 - p.0, q.1 - p.1) == *delta,
                        _ => false,
                    });
                let cells: HashMap<String, Cell> = locations
                    .iter()
                    .filter_map(|&l| cell(l).map(|c| (l.to_string(), c)))
                    .collect();
                let distinct = cells.values().collect::<HashSet<_>>().len() == cells.len();
                if fits && distinct {
                    return Some(cells);
                }
            }
        }
    }
    None
}

/// Coordinates by walking the adjacency facts, component by component (the
/// one with the player first); each further component goes to the right of
/// the ones before.
fn coordinates_from_walk(
    floor: &BTreeSet<&str>,
    adjacency: &[(&str, &str, &str)],
    deltas: &HashMap<String, Cell>,
    start: Option<&str>,
) -> Result<HashMap<String, Cell>, ShowError> {
    let mut next: HashMap<&str, Vec<(&str, Cell)>> = HashMap::new();
    for &(a, b, d) in adjacency {
        let Some(&(dx, dy)) = deltas.get(d) else { continue };
        next.entry(a).or_default().push((b, (dx, dy)));
        next.entry(b).or_default().push((a, (-dx, -dy)));
    }
    let mut cells: HashMap<String, Cell> = HashMap::new();
    let mut taken: HashMap<Cell, &str> = HashMap::new();
    let mut right_edge = i64::MIN;
    let starts = start.into_iter().chain(floor.iter().copied());
    for first in starts {
        if cells.contains_key(first) {
            continue;
        }
        let mut component: Vec<(&str, Cell)> = Vec::new();
        let mut seen: HashMap<&str, Cell> = HashMap::from([(first, (0, 0))]);
        let mut queue = VecDeque::from([first]);
        while let Some(l) = queue.pop_front() {
            let here = seen[l];
            component.push((l, here));
            for &(m, (dx, dy)) in next.get(l).into_iter().flatten() {
                let there = (here.0 + dx, here.1 + dy);
                match seen.get(m) {
                    Some(&c) if c != there => {
                        return Err(ShowError::Layout(format!(
                            "the adjacency facts are not a grid: `{m}` is reached at two different places"
                        )));
                    }
                    Some(_) => {}
                    None => {
                        seen.insert(m, there);
                        queue.push_back(m);
                    }
                }
            }
        }
        let min_x = component.iter().map(|(_, c)| c.0).min().unwrap_or(0);
        let max_x = component.iter().map(|(_, c)| c.0).max().unwrap_or(0);
        let shift = if right_edge == i64::MIN {
            0
        } else {
            right_edge + 2 - min_x
        };
        right_edge = max_x + shift;
        for (l, (x, y)) in component {
            let c = (x + shift, y);
            if let Some(other) = taken.insert(c, l) {
                return Err(ShowError::Layout(format!(
                    "the adjacency facts are not a grid: `{other}` and `{l}` fall on one cell"
                )));
            }
            cells.insert(l.to_string(), c);
        }
    }
    Ok(cells)
}

impl Board {
    pub fn new(domain: &Domain, problem: &Problem) -> Result<Board, ShowError> {
        let adjacency: Vec<(&str, &str, &str)> = problem
            .init
            .iter()
            .filter(|a| ADJACENCY.contains(&a.predicate.as_str()))
            .filter_map(|a| match a.args.as_slice() {
                [x, y, d] => Some((x.as_str(), y.as_str(), d.as_str())),
                _ => None,
            })
            .collect();
        let floor: BTreeSet<&str> = adjacency.iter().flat_map(|&(a, b, _)| [a, b]).collect();
        let directions: BTreeSet<&str> = adjacency.iter().map(|&(_, _, d)| d).collect();
        let objects = crate::pddl::objects(domain, problem);
        let types = TypeHierarchy::new(domain);
        let typed = |ty: &str| -> BTreeSet<String> {
            objects
                .iter()
                .filter(|o| types.fits(&o.types, &[ty]))
                .map(|o| o.name.clone())
                .collect()
        };
        let mut players = typed("player");
        let stones = typed("stone");
        let placed: Vec<(&str, &str)> = problem
            .init
            .iter()
            .filter(|a| a.predicate == "at")
            .filter_map(|a| match a.args.as_slice() {
                [t, l] => Some((t.as_str(), l.as_str())),
                _ => None,
            })
            .collect();
        if players.is_empty() {
            // Untyped: the thing that is not a stone.
            players = placed
                .iter()
                .filter(|(t, _)| !stones.contains(*t))
                .map(|(t, _)| t.to_string())
                .collect();
        }
        let player_cell = placed.iter().find(|(t, _)| players.contains(*t)).map(|&(_, l)| l);
        if player_cell.is_none() {
            return Err(ShowError::Layout(format!(
                "problem `{}` places no player: no (at P L) fact for an object of type player",
                problem.name
            )));
        }
        let deltas = direction_deltas(&directions, &adjacency)?;
        let mut locations = floor.clone();
        locations.extend(placed.iter().map(|&(_, l)| l));
        let mut cell_of = match coordinates_from_names(&locations, &adjacency, &deltas) {
            Some(c) => c,
            None => coordinates_from_walk(&floor, &adjacency, &deltas, player_cell)?,
        };
        if let Some((t, l)) = placed.iter().find(|(_, l)| !cell_of.contains_key(*l)) {
            return Err(ShowError::Layout(format!(
                "`{t}` is at `{l}`, which no adjacency fact connects to the board"
            )));
        }
        // Floor from (1, 1), a border of walls around it.
        let min_x = cell_of.values().map(|c| c.0).min().unwrap_or(0);
        let min_y = cell_of.values().map(|c| c.1).min().unwrap_or(0);
        for c in cell_of.values_mut() {
            *c = (c.0 - min_x + 1, c.1 - min_y + 1);
        }
        let width = cell_of.values().map(|c| c.0).max().unwrap_or(0) + 2;
        let height = cell_of.values().map(|c| c.1).max().unwrap_or(0) + 2;
        if width.saturating_mul(height) > 1 << 22 {
            return Err(ShowError::Layout(format!(
                "the board would be {width} x {height} cells; too large to draw"
            )));
        }
        let floor = floor.iter().filter_map(|l| cell_of.get(*l).copied()).collect();
        let goals = problem
            .init
            .iter()
            .filter(|a| GOAL_CELL.contains(&a.predicate.as_str()))
            .filter_map(|a| a.args.first().and_then(|l| cell_of.get(l)).copied())
            .collect();
        Ok(Board {
            cell_of,
            floor,
            goals,
            players,
            width,
            height,
        })
    }

    pub fn setting(&self) -> super::Setting {
        super::Setting::Board {
            width: usize::try_from(self.width).unwrap_or(0),
            height: usize::try_from(self.height).unwrap_or(0),
        }
    }

    /// Where the player and the stones are in `state`.
    fn positions(&self, state: &HashSet<GroundAtom>) -> (Option<Cell>, HashSet<Cell>) {
        let mut player = None;
        let mut stones = HashSet::new();
        for atom in state.iter().filter(|a| a.predicate == "at") {
            let [thing, place] = atom.args.as_slice() else { continue };
            let Some(&cell) = self.cell_of.get(place) else { continue };
            if self.players.contains(thing) {
                player = Some(cell);
            } else {
                stones.insert(cell);
            }
        }
        (player, stones)
    }

    /// Rows of [`Board::rows`] as the terminal shows them: floor blank,
    /// trailing blanks cut, one line per row.
    pub fn draw(rows: &[String]) -> String {
        let lines: Vec<String> = rows
            .iter()
            .map(|r| r.replace('-', " ").trim_end().to_string())
            .collect();
        lines.join("\n")
    }

    /// The state in XSB characters, every row `width` long: `-` for empty
    /// floor (XSB's other floor character), a blank outside the walls.
    pub fn rows(&self, state: &HashSet<GroundAtom>) -> Vec<String> {
        let (player, stones) = self.positions(state);
        let mut rows = Vec::new();
        for y in 0..self.height {
            let mut row = String::new();
            for x in 0..self.width {
                let c = (x, y);
                let goal = self.goals.contains(&c);
                let ch = if player == Some(c) {
                    if goal { '+' } else { '@' }
                } else if stones.contains(&c) {
                    if goal { '*' } else { '$' }
                } else if self.floor.contains(&c) {
                    if goal { '.' } else { '-' }
                } else if (-1..=1).any(|dy| (-1..=1).any(|dx| self.floor.contains(&(x + dx, y + dy)))) {
                    '#'
                } else {
                    ' '
                };
                row.push(ch);
            }
            rows.push(row);
        }
        rows
    }

    /// The LURD string of a replayed plan: each step moves the player to a
    /// neighbouring cell, a push when some stone moved too.
    pub fn lurd(&self, states: &[HashSet<GroundAtom>]) -> Result<String, ShowError> {
        let mut out = String::new();
        for (i, pair) in states.windows(2).enumerate() {
            let (p0, s0) = self.positions(&pair[0]);
            let (p1, s1) = self.positions(&pair[1]);
            let (Some(a), Some(b)) = (p0, p1) else {
                return Err(ShowError::Layout(format!(
                    "step {}: the player is not on the board",
                    i + 1
                )));
            };
            let letter = match (b.0 - a.0, b.1 - a.1) {
                (-1, 0) => 'l',
                (0, -1) => 'u',
                (1, 0) => 'r',
                (0, 1) => 'd',
                _ => {
                    return Err(ShowError::Layout(format!(
                        "step {}: the player does not move to a neighbouring cell, which LURD cannot write",
                        i + 1
                    )));
                }
            };
            out.push(if s0 == s1 { letter } else { letter.to_ascii_uppercase() });
        }
        Ok(out)
    }
}
