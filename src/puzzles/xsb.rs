//! Sokoban levels in the XSB text format, the one Sokoban players exchange:
//! `#` wall, `$` stone, `.` goal, `*` stone on a goal, `@` player, `+`
//! player on a goal, and space, `-` or `_` floor. A level becomes a PDDL
//! problem of `domains/sokoban.pddl` or the ASP Competition's instance
//! facts, and LURD strings (the players' notation for solutions) replay on
//! it.
//!
//! A file may hold titles, comments and several levels: a board row is a
//! line whose first character other than floor padding is `#`; every other
//! line (text, or blank) ends the level before it. Only the floor the player
//! can reach matters; it must be closed by walls.
//!
//! Cells are named as the competition's instances name them: `pos_X_Y`
//! with column X and row Y from 1 (zero-padded when the board is 10 or more
//! wide or high), the player `player_01`, stones `stone_01`... in reading
//! order, directions `dir_left`, `dir_right`, `dir_up`, `dir_down`.

use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};
use std::fmt;
use std::path::Path;

use crate::exit;

/// Step bound of `--asp` output when none is given: the largest bound of
/// the competition's Sokoban instances in the shared set (0516, 200 steps).
pub const DEFAULT_ASP_STEPS: u64 = 200;

/// A level that cannot be read, with its place: `file:line:col: message`,
/// or `file: message` when the error has no place (line 0).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}{message}", place(*line, *col))]
pub struct XsbError {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

fn place(line: usize, col: usize) -> String {
    if line == 0 {
        " ".to_string()
    } else {
        format!("{line}:{col}: ")
    }
}

impl XsbError {
    pub fn exit_code(&self) -> i32 {
        exit::INPUT_ERROR
    }
}

/// A LURD string that does not replay: the 1-based position of the move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {position} (`{letter}`): {message}")]
pub struct LurdError {
    pub position: usize,
    pub letter: char,
    pub message: String,
}

impl LurdError {
    /// A move that does not apply makes the solution invalid, as a step
    /// that does not apply makes a plan invalid.
    pub fn exit_code(&self) -> i32 {
        exit::PLAN_INVALID
    }
}

/// (column, row), both from 0 within the level.
type Cell = (usize, usize);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Text rows of the level, walls kept for drawing.
    walls: Vec<Vec<bool>>,
    /// Floor the player can reach.
    floor: BTreeSet<Cell>,
    goals: BTreeSet<Cell>,
    stones: BTreeSet<Cell>,
    player: Cell,
    /// 1-based line of the level's first row in its file.
    first_line: usize,
}

const DIRECTIONS: [(char, &str, (isize, isize)); 4] = [
    ('l', "dir_left", (-1, 0)),
    ('u', "dir_up", (0, -1)),
    ('r', "dir_right", (1, 0)),
    ('d', "dir_down", (0, 1)),
];

fn is_board_row(line: &str) -> bool {
    line.trim_start_matches([' ', '-', '_']).starts_with('#')
}

/// Reads level `number` (from 1) of an XSB text.
/// The largest level read: rows × the longest row's length. A level's
/// problem grows with its cells (about 275 bytes of PDDL per cell, and more
/// for the ASP facts and the grounded task); 250,000 cells (500 × 500) is
/// some 70 MB of PDDL, far beyond the largest levels of the usual
/// collections (about 50 × 50), and a 2000 × 2000 level would be 1.1 GB.
pub const MAX_CELLS: usize = 250_000;

pub fn parse_level(text: &str, file: &str, number: usize) -> Result<Level, XsbError> {
    let error = |line: usize, col: usize, message: String| XsbError {
        file: file.to_string(),
        line,
        col,
        message,
    };
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    // Runs of board rows: (index of the first line, rows).
    let mut levels: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut in_level = false;
    for (i, line) in lines.iter().enumerate() {
        if is_board_row(line) {
            if !in_level {
                levels.push((i, Vec::new()));
                in_level = true;
            }
            if let Some((_, rows)) = levels.last_mut() {
                rows.push(line);
            }
        } else {
            in_level = false;
        }
    }
    let Some((start, rows)) = number.checked_sub(1).and_then(|k| levels.get(k)) else {
        let found = match levels.len() {
            0 => "no level (a level's rows start with `#`)".to_string(),
            1 => "one level".to_string(),
            n => format!("{n} levels"),
        };
        return Err(error(1, 1, format!("there is no level {number}: the file has {found}")));
    };
    let first_line = start + 1;
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    if rows.len().saturating_mul(width) > MAX_CELLS {
        return Err(error(
            first_line,
            1,
            format!(
                "the level is {width} × {} cells; at most {MAX_CELLS} cells (e.g. 500 × 500) are read",
                rows.len()
            ),
        ));
    }
    let mut walls = Vec::with_capacity(rows.len());
    let mut goals = BTreeSet::new();
    let mut stones = BTreeSet::new();
    let mut players: Vec<Cell> = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        let mut row_walls = Vec::new();
        for (x, ch) in row.chars().enumerate() {
            let here = (x, y);
            let (wall, goal, stone, player) = match ch {
                '#' => (true, false, false, false),
                ' ' | '-' | '_' => (false, false, false, false),
                '.' => (false, true, false, false),
                '$' => (false, false, true, false),
                '*' => (false, true, true, false),
                '@' => (false, false, false, true),
                '+' => (false, true, false, true),
                other => {
                    return Err(error(
                        first_line + y,
                        x + 1,
                        format!(
                            "unknown character `{}` in a level row (expected # wall, $ stone, . goal, \
                             * stone on goal, @ player, + player on goal, or space, - or _ floor)",
                            other.escape_default()
                        ),
                    ));
                }
            };
            row_walls.push(wall);
            if goal {
                goals.insert(here);
            }
            if stone {
                stones.insert(here);
            }
            if player {
                players.push(here);
            }
        }
        walls.push(row_walls);
    }
    let at = |c: Cell| (first_line + c.1, c.0 + 1);
    let player = match players.as_slice() {
        [] => {
            return Err(error(
                first_line,
                1,
                format!("level {number} has no player (`@`, or `+` on a goal)"),
            ));
        }
        [p] => *p,
        [_, second, ..] => {
            let (l, c) = at(*second);
            return Err(error(l, c, "a second player; a level has exactly one".to_string()));
        }
    };
    // The floor the player reaches, stones or not; it must not run off the
    // text, which would be an open level.
    let is_wall = |(x, y): Cell| walls[y].get(x).copied().unwrap_or(true);
    let mut floor = BTreeSet::from([player]);
    let mut queue = VecDeque::from([player]);
    while let Some(c) = queue.pop_front() {
        for &(_, _, (dx, dy)) in &DIRECTIONS {
            let next = c.0.checked_add_signed(dx).zip(c.1.checked_add_signed(dy));
            let inside = next.filter(|&(x, y)| y < walls.len() && x < walls[y].len());
            let Some(n) = inside else {
                let (l, col) = at(c);
                return Err(error(
                    l,
                    col,
                    "the level is not closed: the player can walk off the board from here".to_string(),
                ));
            };
            if !is_wall(n) && floor.insert(n) {
                queue.push_back(n);
            }
        }
    }
    for (what, cells) in [("stone", &stones), ("goal", &goals)] {
        if let Some(&c) = cells.iter().find(|c| !floor.contains(c)) {
            let (l, col) = at(c);
            return Err(error(l, col, format!("this {what} is walled off from the player")));
        }
    }
    if stones.len() != goals.len() {
        return Err(error(
            first_line,
            1,
            format!(
                "level {number} has {} but {}; they must be as many",
                plural(stones.len(), "stone"),
                plural(goals.len(), "goal")
            ),
        ));
    }
    Ok(Level {
        walls,
        floor,
        goals,
        stones,
        player,
        first_line,
    })
}

/// `1 stone`, `2 stones`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Reads level `number` (from 1) of an XSB file.
pub fn load_level(path: &Path, number: usize) -> Result<Level, XsbError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| XsbError {
        file: file.clone(),
        line: 0,
        col: 0,
        message: format!("cannot read file: {e}"),
    })?;
    parse_level(&text, &file, number)
}

/// The moves of `sokoban replay`: the argument itself, or all of stdin
/// when the argument is `-`.
pub fn lurd_argument(argument: &str) -> std::io::Result<String> {
    if argument != "-" {
        return Ok(argument.to_string());
    }
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
    Ok(text)
}

/// Names and facts of a level, shared by the PDDL and ASP writers.
struct Names {
    cell: BTreeMap<Cell, String>,
    stone: Vec<(String, Cell)>,
}

impl Level {
    fn names(&self) -> Names {
        let width = self.walls.iter().map(Vec::len).max().unwrap_or(0);
        let digits = width.max(self.walls.len()).to_string().len();
        let cell = self
            .floor
            .iter()
            .map(|&(x, y)| ((x, y), format!("pos_{:0digits$}_{:0digits$}", x + 1, y + 1)))
            .collect();
        // Reading order: row by row.
        let mut in_rows: Vec<Cell> = self.stones.iter().copied().collect();
        in_rows.sort_by_key(|&(x, y)| (y, x));
        let stone = in_rows
            .into_iter()
            .enumerate()
            .map(|(i, c)| (format!("stone_{:02}", i + 1), c))
            .collect();
        Names { cell, stone }
    }

    /// Moves between floor cells: (from, to, direction name).
    fn moves<'a>(&self, names: &'a Names) -> Vec<(&'a str, &'a str, &'static str)> {
        let mut out = Vec::new();
        for (&(x, y), from) in &names.cell {
            for &(_, dir, (dx, dy)) in &DIRECTIONS {
                let next = x.checked_add_signed(dx).zip(y.checked_add_signed(dy));
                if let Some(to) = next.and_then(|n| names.cell.get(&n)) {
                    out.push((from.as_str(), to.as_str(), dir));
                }
            }
        }
        out.sort_unstable();
        out
    }

    fn occupied(&self) -> HashSet<Cell> {
        self.stones.iter().copied().chain([self.player]).collect()
    }

    /// The level as a problem of `domains/sokoban.pddl`.
    pub fn to_pddl(&self, problem_name: &str) -> String {
        let names = self.names();
        let mut out =
            format!("(define (problem {problem_name})\n  (:domain sokoban)\n  (:objects\n    player_01 - player\n");
        if !names.stone.is_empty() {
            let stones: Vec<&str> = names.stone.iter().map(|(n, _)| n.as_str()).collect();
            out.push_str(&format!("    {} - stone\n", stones.join(" ")));
        }
        let cells: Vec<&str> = names.cell.values().map(String::as_str).collect();
        out.push_str(&format!("    {} - location\n", cells.join(" ")));
        out.push_str("    dir_down dir_left dir_right dir_up - direction\n  )\n  (:init\n");
        for (c, n) in &names.cell {
            let kind = if self.goals.contains(c) {
                "goal-cell"
            } else {
                "nongoal-cell"
            };
            out.push_str(&format!("    ({kind} {n})\n"));
        }
        for (a, b, d) in self.moves(&names) {
            out.push_str(&format!("    (adjacent {a} {b} {d})\n"));
        }
        out.push_str(&format!("    (at player_01 {})\n", names.cell[&self.player]));
        for (s, c) in &names.stone {
            out.push_str(&format!("    (at {s} {})\n", names.cell[c]));
            if self.goals.contains(c) {
                out.push_str(&format!("    (at-goal {s})\n"));
            }
        }
        let occupied = self.occupied();
        for n in names.cell.iter().filter(|(c, _)| !occupied.contains(c)).map(|(_, n)| n) {
            out.push_str(&format!("    (clear {n})\n"));
        }
        out.push_str("  )\n  (:goal (and");
        for (s, _) in &names.stone {
            out.push_str(&format!(" (at-goal {s})"));
        }
        out.push_str("))\n)\n");
        out
    }

    /// The level as the ASP Competition's instance facts, at most `steps`
    /// actions.
    pub fn to_asp(&self, steps: u64) -> String {
        let names = self.names();
        let mut out = String::from("player(player_01).\n");
        for (s, _) in &names.stone {
            out.push_str(&format!("stone({s}).\n"));
        }
        for (c, n) in &names.cell {
            if self.goals.contains(c) {
                out.push_str(&format!("isgoal({n}).\n"));
            }
        }
        for (c, n) in &names.cell {
            if !self.goals.contains(c) {
                out.push_str(&format!("isnongoal({n}).\n"));
            }
        }
        for (a, b, d) in self.moves(&names) {
            out.push_str(&format!("movedir({a},{b},{d}).\n"));
        }
        out.push_str(&format!("at(player_01,{}).\n", names.cell[&self.player]));
        for (s, c) in &names.stone {
            out.push_str(&format!("at({s},{}).\n", names.cell[c]));
        }
        let occupied = self.occupied();
        for (c, n) in &names.cell {
            if !occupied.contains(c) {
                out.push_str(&format!("clear({n}).\n"));
            }
        }
        for (s, _) in &names.stone {
            out.push_str(&format!("goal({s}).\n"));
        }
        for t in 1..=steps {
            out.push_str(&format!("step({t}).\n"));
        }
        out
    }

    /// The current state in XSB characters, trailing blanks cut.
    pub fn to_xsb(&self) -> String {
        let mut out = String::new();
        for (y, row) in self.walls.iter().enumerate() {
            let line: String = row
                .iter()
                .enumerate()
                .map(|(x, &wall)| {
                    let c = (x, y);
                    let goal = self.goals.contains(&c);
                    match (wall, self.player == c, self.stones.contains(&c), goal) {
                        (true, ..) => '#',
                        (_, true, _, false) => '@',
                        (_, true, _, true) => '+',
                        (_, _, true, false) => '$',
                        (_, _, true, true) => '*',
                        (_, _, _, true) => '.',
                        _ => ' ',
                    }
                })
                .collect();
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// Every stone is on a goal.
    pub fn solved(&self) -> bool {
        self.stones.is_subset(&self.goals)
    }

    pub fn stone_count(&self) -> usize {
        self.stones.len()
    }

    /// 1-based line of the level's first row in its file.
    pub fn first_line(&self) -> usize {
        self.first_line
    }

    /// Plays a LURD string: lower case walks, upper case pushes the stone in
    /// front one cell further. Blanks between moves are ignored.
    pub fn replay_lurd(&self, lurd: &str) -> Result<Level, LurdError> {
        let mut level = self.clone();
        for (i, letter) in lurd.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let error = |message: &str| LurdError {
                position: i + 1,
                letter,
                message: message.to_string(),
            };
            let Some(&(_, _, (dx, dy))) = DIRECTIONS.iter().find(|(l, ..)| *l == letter.to_ascii_lowercase()) else {
                return Err(error("not a LURD move (l, u, r, d walk; L, U, R, D push)"));
            };
            let step = |c: Cell| {
                c.0.checked_add_signed(dx)
                    .zip(c.1.checked_add_signed(dy))
                    .filter(|n| level.floor.contains(n))
            };
            let Some(next) = step(level.player) else {
                return Err(error("the player walks into a wall"));
            };
            let push = letter.is_ascii_uppercase();
            match (push, level.stones.contains(&next)) {
                (false, false) => {}
                (false, true) => return Err(error("a stone is in the way; a push is written in upper case")),
                (true, false) => return Err(error("a push, but there is no stone to push")),
                (true, true) => {
                    let Some(beyond) = step(next).filter(|b| !level.stones.contains(b)) else {
                        return Err(error("the stone cannot move: a wall or another stone is behind it"));
                    };
                    level.stones.remove(&next);
                    level.stones.insert(beyond);
                }
            }
            level.player = next;
        }
        Ok(level)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_xsb())
    }
}

/// A PDDL problem name for level `number` of `file`: `xsb-<stem>`, with
/// `-<number>` for levels after the first.
pub fn problem_name(file: &Path, number: usize) -> String {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let cleaned: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' })
        .collect();
    if number > 1 {
        format!("xsb-{cleaned}-{number}")
    } else {
        format!("xsb-{cleaned}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC: &str = "Title: a tiny one\n\n  ####\n###  #\n#  $ #\n# .@ #\n#    #\n######\n";

    #[test]
    fn reads_a_level_and_draws_it_back() {
        let level = parse_level(CLASSIC, "t.xsb", 1).expect("level");
        assert_eq!(level.first_line(), 3);
        assert_eq!(level.stone_count(), 1);
        assert_eq!(level.to_xsb(), "  ####\n###  #\n#  $ #\n# .@ #\n#    #\n######\n");
        assert!(!level.solved());
    }

    #[test]
    fn lurd_walks_and_pushes() {
        let level = parse_level(CLASSIC, "t.xsb", 1).expect("level");
        let err = level.replay_lurd("u").expect_err("a stone is in the way");
        assert_eq!(err.position, 1);
        let moved = level.replay_lurd("U").expect("push up");
        assert_eq!(moved.to_xsb(), "  ####\n###$ #\n#  @ #\n# .  #\n#    #\n######\n");
        let err = moved.replay_lurd("U").expect_err("wall behind the stone");
        assert!(err.message.contains("cannot move"), "{err}");
        let solved = level.replay_lurd("ruul D rdL").expect("a solution");
        assert!(solved.solved(), "{solved}");
        assert_eq!(solved.to_xsb(), "  ####\n###  #\n#    #\n# *@ #\n#    #\n######\n");
        let err = level.replay_lurd("ruulDrdl").expect_err("walks into the stone");
        assert_eq!(err.position, 8, "{err}");
    }

    #[test]
    fn errors_name_line_and_column() {
        let bad = "; comment\n#####\n#@$x#\n#####\n";
        let e = parse_level(bad, "b.xsb", 1).expect_err("unknown character");
        assert_eq!((e.line, e.col), (3, 4), "{e}");
        let e = parse_level("####\n#  #\n####\n", "n.xsb", 1).expect_err("no player");
        assert!(e.message.contains("no player"), "{e}");
        assert_eq!((e.line, e.col), (1, 1));
        let e = parse_level("#####\n#@$ #\n#####\n", "g.xsb", 1).expect_err("no goal");
        assert!(e.message.contains("1 stone but 0 goals"), "{e}");
        let e = parse_level("#####\n#@$.\n#####\n", "o.xsb", 1).expect_err("open");
        assert!(e.message.contains("not closed"), "{e}");
        assert_eq!(e.line, 2);
        let e = parse_level(CLASSIC, "t.xsb", 2).expect_err("one level only");
        assert!(e.message.contains("one level"), "{e}");
    }

    #[test]
    fn second_level_is_found() {
        let two = format!("{CLASSIC}\nLevel 2\n#####\n#@*+#\n#####\n");
        let e = parse_level(&two, "t.xsb", 2).expect_err("two players");
        assert_eq!((e.line, e.col), (12, 4), "{e}");
        let two = format!("{CLASSIC}\nLevel 2\n#####\n#@* #\n#####\n");
        let level = parse_level(&two, "t.xsb", 2).expect("level 2");
        assert_eq!(level.first_line(), 11);
        assert!(level.solved());
        let asp = level.to_asp(3);
        assert!(asp.contains("at(stone_01,pos_3_2).") && asp.contains("step(3).") && !asp.contains("step(4)."));
        assert!(asp.contains("movedir(pos_2_2,pos_3_2,dir_right)."), "{asp}");
    }
}
