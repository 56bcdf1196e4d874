//! The files corvus writes: plans, statistics, translated instances and
//! imported levels. One set of rules for all of them, because a path on the
//! command line is easily mistyped and the file it names may be the user's:
//!
//! - An output that is one of the command's inputs (the same file, also
//!   through a link) is refused before anything is touched.
//! - An existing regular file is replaced, or removed as a stale output of
//!   an earlier run, only when it is empty or reads as what corvus writes
//!   there ([`Kind`]); anything else is refused, naming the file.
//! - A regular file is written to a temporary file beside it and renamed
//!   into place, so that a crash never leaves half a plan.
//! - A device, a FIFO or a symbolic link is written through, never removed
//!   or replaced: `--plan-file /dev/stdout` and `/dev/null` work. A link is
//!   checked by the file it leads to.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use super::CommandError;

/// What corvus writes to a file, and so what an existing file must look
/// like for corvus to replace it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A plan in the IPC format: every line a step `(name args)` (possibly
    /// with a `time:` prefix or `[duration]` suffix, as other planners write
    /// them) or a `;` comment.
    Plan,
    /// A `--stats-json` object: JSON with a `status` key.
    Stats,
    /// A PDDL, ASP or HTML file corvus generated: its first line is
    /// [`HEADER_PDDL`], [`HEADER_ASP`] or [`HEADER_HTML`].
    Generated,
}

/// The first words of a PDDL file corvus writes (`asp translate`, `sokoban
/// import`): the mark that lets a later run replace it.
pub const HEADER_PDDL: &str = "; written by corvus";
/// The same for an ASP file.
pub const HEADER_ASP: &str = "% written by corvus";
/// The same for a web page (`show --html`); a comment may come before
/// `<!DOCTYPE html>`.
pub const HEADER_HTML: &str = "<!-- written by corvus";

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Plan => "a plan file",
            Kind::Stats => "a statistics file",
            Kind::Generated => "a file written by corvus",
        }
    }

    /// Whether the text of an existing file is one corvus may replace.
    fn recognizes(self, file: File) -> io::Result<bool> {
        let mut reader = BufReader::new(file);
        match self {
            Kind::Plan => {
                let mut line = Vec::new();
                loop {
                    line.clear();
                    // A line longer than a plan step could be is not one.
                    let read = reader.by_ref().take(1 << 20).read_until(b'\n', &mut line)?;
                    if read == 0 {
                        return Ok(true);
                    }
                    if !is_plan_line(&line) {
                        return Ok(false);
                    }
                }
            }
            Kind::Stats => {
                let mut text = Vec::new();
                reader.take(1 << 20).read_to_end(&mut text)?;
                Ok(text.iter().all(u8::is_ascii_whitespace)
                    || serde_json::from_slice::<serde_json::Value>(&text).is_ok_and(|v| v.get("status").is_some()))
            }
            Kind::Generated => {
                let mut first = Vec::new();
                reader.take(256).read_until(b'\n', &mut first)?;
                Ok(first.iter().all(u8::is_ascii_whitespace)
                    || first.starts_with(HEADER_PDDL.as_bytes())
                    || first.starts_with(HEADER_ASP.as_bytes())
                    || first.starts_with(HEADER_HTML.as_bytes()))
            }
        }
    }
}

/// A line of a plan file: blank, a `;` comment, or one step with exactly
/// one pair of parentheses (PDDL files nest them).
fn is_plan_line(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    if line.is_empty() || line.starts_with(b";") {
        return true;
    }
    let opens: Vec<usize> = (0..line.len()).filter(|&i| line[i] == b'(').collect();
    let closes: Vec<usize> = (0..line.len()).filter(|&i| line[i] == b')').collect();
    matches!((opens.as_slice(), closes.as_slice()), ([open], [close]) if open < close)
}

/// The identity of a file: device and inode, so that two paths to one file
/// (a link, `./p.pddl`, an absolute path) are seen as one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId(u64, u64);

impl FileId {
    /// The file a path leads to (through symbolic links); `None` if there is none.
    fn of(path: &Path) -> Option<FileId> {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(path).ok().map(|m| FileId(m.dev(), m.ino()))
    }
}

/// The files a command reads, which none of its outputs may be.
pub struct Inputs(Vec<(PathBuf, FileId)>);

impl Inputs {
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Inputs {
        Inputs(
            paths
                .into_iter()
                .filter_map(|p| FileId::of(p).map(|id| (p.to_path_buf(), id)))
                .collect(),
        )
    }

    /// Refuses `path` as an output of `kind` when it is one of the inputs or
    /// an existing regular file that does not read as `kind`. Call it for
    /// every output before anything is written or removed.
    pub fn check(&self, path: &Path, kind: Kind) -> Result<(), CommandError> {
        if let Some(id) = FileId::of(path)
            && let Some((input, _)) = self.0.iter().find(|(_, i)| *i == id)
        {
            return Err(CommandError::Usage(format!(
                "{}: is the input file {}; corvus does not write over its input",
                path.display(),
                input.display()
            )));
        }
        let Ok(meta) = fs::symlink_metadata(path) else {
            // A file that does not exist yet needs a folder to be made in.
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
            if let Some(dir) = dir
                && !dir.is_dir()
            {
                return Err(CommandError::Usage(format!(
                    "{}: the folder {} does not exist",
                    path.display(),
                    dir.display()
                )));
            }
            return Ok(());
        };
        // What a link leads to is what would be written over.
        let meta = fs::metadata(path).unwrap_or(meta);
        if meta.is_dir() {
            return Err(CommandError::Usage(format!(
                "{}: is a directory, not {}",
                path.display(),
                kind.name()
            )));
        }
        if !meta.is_file() || meta.len() == 0 {
            return Ok(());
        }
        let file = File::open(path).map_err(CommandError::io(format!("{}: cannot read file", path.display())))?;
        match kind.recognizes(file) {
            Ok(true) => Ok(()),
            _ => Err(CommandError::Usage(format!(
                "{}: exists and is not {}; corvus replaces only files of the kind it writes there \
                 (remove it or name another file)",
                path.display(),
                kind.name()
            ))),
        }
    }

    /// Checks `path` as [`check`](Self::check) does and removes it when it
    /// is a regular file: the output of an earlier run, which must not be
    /// taken for this run's answer if this run ends without writing one.
    pub fn remove_stale(&self, path: &Path, kind: Kind) -> Result<(), CommandError> {
        self.check(path, kind)?;
        remove_regular(path)
    }

    /// [`remove_stale`](Self::remove_stale) for the plan file and the
    /// numbered plans of an anytime run (`path.1`, `path.2`, ...; only
    /// regular files: a folder of that name is not a plan). Every one is
    /// checked before any is removed.
    pub fn remove_stale_plans(&self, path: &Path) -> Result<(), CommandError> {
        let mut plans: Vec<PathBuf> = numbered_plans(path)
            .into_iter()
            .filter(|p| fs::symlink_metadata(p).is_ok_and(|m| m.is_file()))
            .collect();
        plans.push(path.to_path_buf());
        for plan in &plans {
            self.check(plan, Kind::Plan)?;
        }
        plans.iter().try_for_each(|plan| remove_regular(plan))
    }
}

/// Removes `path` if it is a regular file (not a link, device or FIFO).
/// The caller has checked it with [`Inputs::check`].
fn remove_regular(path: &Path) -> Result<(), CommandError> {
    if fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        match fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(CommandError::io(format!(
                    "{}: cannot remove the file of an earlier run",
                    path.display()
                ))(e));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A path for a header line: line breaks in a file name would end the comment.
pub fn one_line(path: &Path) -> String {
    path.display().to_string().replace(['\n', '\r'], " ")
}

/// Whether two output paths name one file (the same path, or one file
/// already there).
pub fn same_path(a: &Path, b: &Path) -> bool {
    a == b || FileId::of(a).is_some_and(|id| FileId::of(b) == Some(id))
}

/// The files `path.N` (N a number) beside `path`.
fn numbered_plans(path: &Path) -> Vec<PathBuf> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .and_then(|f| f.strip_prefix(name))
                .and_then(|rest| rest.strip_prefix('.'))
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(|entry| path.with_file_name(entry.file_name()))
        .collect()
}

/// Writes `bytes` to `path`: a regular file (or none yet) through a
/// temporary file beside it, renamed into place; a device, FIFO or symbolic
/// link by writing through it. The caller has checked `path` with
/// [`Inputs::check`].
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let replace = match fs::symlink_metadata(path) {
        Ok(meta) => meta.is_file(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => true,
        Err(e) => return Err(e),
    };
    if !replace {
        let mut file = OpenOptions::new().write(true).truncate(true).open(path)?;
        return file.write_all(bytes).and_then(|()| file.flush());
    }
    let temporary = temporary_beside(path);
    let written = File::create_new(&temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    let renamed = written.and_then(|()| fs::rename(&temporary, path));
    if renamed.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    renamed
}

/// `dir/.name.corvus-PID`: hidden, beside the target (a rename does not
/// cross file systems), and this process's own.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    path.with_file_name(format!(".{name}.corvus-{}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_replaced_by_a_new_one_not_written_into() {
        let dir = std::env::temp_dir().join(format!("corvus-files-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("dir");
        let (plan, other_name) = (dir.join("plan"), dir.join("hard-link"));
        fs::write(&plan, "(old)\n").expect("write");
        let _ = fs::remove_file(&other_name);
        fs::hard_link(&plan, &other_name).expect("link");
        write(&plan, b"(new)\n").expect("written");
        // Written in place, the other name would read "(new)" too.
        assert_eq!(fs::read_to_string(&plan).expect("read"), "(new)\n");
        assert_eq!(fs::read_to_string(&other_name).expect("read"), "(old)\n");
        let mut names: Vec<_> = fs::read_dir(&dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["hard-link", "plan"]);
        fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn plan_lines_are_steps_and_comments_not_pddl() {
        for line in ["(unstack b a)", "  ", "; cost = 3 (unit cost)", "0.000: (move a b) [1]"] {
            assert!(is_plan_line(line.as_bytes()), "{line}");
        }
        for line in ["(define (problem p)", "(:init (on a b))", "hello", ")", "(a))"] {
            assert!(!is_plan_line(line.as_bytes()), "{line}");
        }
    }
}
