//! Reading IPC plan files: a hand-written reader that keeps no stack and
//! reads one step at a time, so that a huge or hostile file costs no more
//! than its text; bounded by the task when `corvus validate` replays what
//! it reads.

use crate::pddl::{Domain, Location, Places, Problem};

use super::{Plan, PlanParseError, PlanStep, short};

/// Reads an IPC plan file: one `(action obj ...)` per line, `;` comments to
/// the end of the line. Names are lower-cased.
///
/// Also accepted, because real planners write them: several steps on one
/// line, a time stamp before a step (`0: (move a b)`), and a duration after it
/// (`(move a b) [1]`).
pub fn parse_plan(text: &str, file: &str) -> Result<Plan, PlanParseError> {
    let steps = plan_steps(text, file).collect::<Result<_, _>>()?;
    Ok(Plan { steps })
}

/// The steps of a plan file's text one at a time, as [`parse_plan`] reads
/// them, ending after the first syntax error.
pub fn plan_steps<'t>(text: &'t str, file: &'t str) -> PlanSteps<'t> {
    PlanSteps {
        text,
        file,
        places: Places::new(text),
        offset: 0,
        done: false,
        bounds: StepBounds {
            args: usize::MAX,
            name_chars: usize::MAX,
        },
    }
}

/// The steps of a plan file's text as [`plan_steps`] reads them, each
/// keeping no more than the task can use: no more arguments than an action
/// of the domain takes, no name longer than the task's longest.
pub(super) fn bounded_plan_steps<'t>(
    text: &'t str,
    file: &'t str,
    domain: &Domain,
    problem: &Problem,
) -> PlanSteps<'t> {
    let names = domain.actions.iter().map(|a| &a.name);
    let names = names.chain(domain.constants.iter().chain(&problem.objects).map(|o| &o.name));
    PlanSteps {
        bounds: StepBounds {
            args: domain.actions.iter().map(|a| a.params.len()).max().unwrap_or(0),
            name_chars: names.map(|n| n.chars().count()).max().unwrap_or(0),
        },
        ..plan_steps(text, file)
    }
}

/// What a reader keeps of a step. A name longer than `name_chars` cannot
/// name anything of the task: it is kept as a short prefix (see [`short`]),
/// which names nothing either. Arguments beyond `args` are counted, not
/// kept. So the memory of a step is bounded by the task, whatever the
/// length of its line.
#[derive(Clone, Copy, Debug)]
struct StepBounds {
    args: usize,
    name_chars: usize,
}

/// A step as read, with its number of arguments (more than `step.args`
/// holds when the bounds cut them off).
pub(super) struct ReadStep {
    pub(super) step: PlanStep,
    pub(super) arg_count: usize,
}

/// The reader behind [`plan_steps`]. A word is whatever stands between
/// parentheses, brackets, `;` and (Unicode) whitespace; a time stamp is a
/// number and `:` (`12.5:`), a duration a number in brackets. Nothing
/// nests, so the reader keeps no stack.
pub struct PlanSteps<'t> {
    text: &'t str,
    file: &'t str,
    places: Places<'t>,
    offset: usize,
    done: bool,
    bounds: StepBounds,
}

impl Iterator for PlanSteps<'_> {
    type Item = Result<PlanStep, PlanParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_read().map(|read| read.map(|r| r.step))
    }
}

fn is_word_char(c: char) -> bool {
    !matches!(c, '(' | ')' | '[' | ']' | ';') && !c.is_whitespace()
}

impl PlanSteps<'_> {
    /// The next step with its number of arguments; `None` after the end or
    /// the first syntax error.
    pub(super) fn next_read(&mut self) -> Option<Result<ReadStep, PlanParseError>> {
        if self.done {
            return None;
        }
        let read = self.read_step();
        if !matches!(read, Some(Ok(_))) {
            self.done = true;
        }
        read
    }

    fn char_at(&self, offset: usize) -> Option<char> {
        self.text[offset..].chars().next()
    }

    /// The offset after whitespace and comments from `offset` on.
    fn after_blanks(&self, mut offset: usize) -> usize {
        while let Some(c) = self.char_at(offset) {
            if c.is_whitespace() {
                offset += c.len_utf8();
            } else if c == ';' {
                offset = self.text[offset..].find('\n').map_or(self.text.len(), |n| offset + n);
            } else {
                break;
            }
        }
        offset
    }

    fn word_end(&self, offset: usize) -> usize {
        self.text[offset..]
            .find(|c: char| !is_word_char(c))
            .map_or(self.text.len(), |n| offset + n)
    }

    /// The end of a number (`12` or `12.5`) that starts at `offset`.
    fn number_end(&self, offset: usize) -> Option<usize> {
        let digits = |from: usize| {
            let n = self.text[from..].bytes().take_while(u8::is_ascii_digit).count();
            (n > 0).then_some(from + n)
        };
        let end = digits(offset)?;
        match self.text[end..].starts_with('.') {
            true => Some(digits(end + 1).unwrap_or(end)),
            false => Some(end),
        }
    }

    /// Whether a word ends at `offset` (the next character is not a word's).
    fn word_ends(&self, offset: usize) -> bool {
        !self.char_at(offset).is_some_and(is_word_char)
    }

    /// The word from `offset` to `end` as a step holds it: lower-cased, or
    /// its short prefix when it is longer than any name of the task.
    fn name(&self, offset: usize, end: usize) -> String {
        let word = &self.text[offset..end];
        // Lower-casing never makes fewer characters, so a word of more
        // characters than the longest name cannot match one.
        if self.bounds.name_chars < usize::MAX && word.chars().nth(self.bounds.name_chars).is_some() {
            return short(word).to_lowercase();
        }
        word.to_lowercase()
    }

    /// The token at `offset` as an error message shows it.
    fn found(&self, offset: usize) -> String {
        match self.char_at(offset) {
            None => "end of file".to_string(),
            Some(c @ ('(' | ')' | '[' | ']')) => format!("`{c}`"),
            Some(_) => format!("`{}`", short(&self.text[offset..self.word_end(offset)]).to_lowercase()),
        }
    }

    fn error(&mut self, offset: usize, message: String) -> PlanParseError {
        PlanParseError {
            file: self.file.to_string(),
            location: self.places.at(offset),
            message,
        }
    }

    /// The next entry: `[STAMP:] (ACTION OBJECT...) [[DURATION]]`; `None`
    /// at the end of the text.
    fn read_step(&mut self) -> Option<Result<ReadStep, PlanParseError>> {
        let mut at = self.after_blanks(self.offset);
        if at == self.text.len() {
            return None;
        }
        let mut stamp = None;
        if let Some(end) = self.number_end(at)
            && self.text[end..].starts_with(':')
            && self.word_ends(end + 1)
        {
            stamp = Some(&self.text[at..=end]);
            at = self.after_blanks(end + 1);
        }
        if self.char_at(at) != Some('(') {
            let message = match stamp {
                Some(stamp) if at == self.text.len() => {
                    format!("expected `(` after the time stamp `{stamp}`, found end of file")
                }
                _ => format!("expected `(` to start a plan step, found {}", self.found(at)),
            };
            return Some(Err(self.error(at, message)));
        }
        let location = self.places.at(at);
        at = self.after_blanks(at + 1);
        let end = self.word_end(at);
        if end == at {
            let message = format!("expected an action name, found {}", self.found(at));
            return Some(Err(self.error(at, message)));
        }
        let action = self.name(at, end);
        let (mut args, mut arg_count) = (Vec::new(), 0);
        at = self.after_blanks(end);
        loop {
            match self.char_at(at) {
                Some(')') => break,
                None => {
                    let Location { line, col } = location;
                    let message = format!("expected `)` to close the step opened at {line}:{col}, found end of file");
                    return Some(Err(self.error(at, message)));
                }
                Some(_) => {}
            }
            let end = self.word_end(at);
            if end == at {
                let message = format!("expected an object name or `)`, found {}", self.found(at));
                return Some(Err(self.error(at, message)));
            }
            arg_count += 1;
            if args.len() <= self.bounds.args {
                args.push(self.name(at, end));
            }
            at = self.after_blanks(end);
        }
        at = self.after_blanks(at + 1);
        if self.char_at(at) == Some('[') {
            at = self.after_blanks(at + 1);
            match self.number_end(at) {
                Some(end) if self.word_ends(end) => at = self.after_blanks(end),
                _ => {
                    let message = format!("expected a duration number, found {}", self.found(at));
                    return Some(Err(self.error(at, message)));
                }
            }
            if self.char_at(at) != Some(']') {
                let message = format!("expected `]`, found {}", self.found(at));
                return Some(Err(self.error(at, message)));
            }
            at += 1;
        }
        self.offset = at;
        Some(Ok(ReadStep {
            step: PlanStep { action, args, location },
            arg_count,
        }))
    }
}
