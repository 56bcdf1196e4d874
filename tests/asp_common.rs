//! Helpers shared by the `asp_*` tests and others (included with
//! `#[path]`): the corvus binary, the clingo check, and the shared corpus.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the crate (e.g. `problems/ipc/blocks/domain.pddl`) by its full path.
pub fn data(name: &str) -> String {
    crate_dir().join(name).display().to_string()
}

/// The corvus binary run in the crate's directory.
pub fn corvus(args: &[&str]) -> Output {
    corvus_in(&crate_dir(), args)
}

/// The corvus binary run in `dir` (where it writes `sas_plan` by default).
pub fn corvus_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_corvus"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the corvus binary runs")
}

/// How a run of the binary ended (see [`measured`]).
pub struct Run {
    pub code: Option<i32>,
    /// From the start to the end.
    pub seconds: f64,
    /// From the signal to the end; `None` when no signal was sent (the run
    /// ended before its time).
    pub after_signal: Option<std::time::Duration>,
    /// The peak resident set size (VmHWM, polled while it runs).
    pub peak_rss: u64,
    pub stdout: String,
    pub stderr: String,
}

/// Runs corvus with `args` in `dir`, sends `signal` (e.g. `INT`) once
/// `signal_after` has passed if given and the run is still going, and
/// records the exit code, the times and the peak resident set size. A run
/// still alive 60 s after its start (or its signal) is killed.
pub fn measured(dir: &Path, args: &[&str], signal: Option<(&str, std::time::Duration)>) -> Run {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_corvus"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("corvus runs");
    // Drain the pipes on threads, so that a chatty child never blocks.
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = pipe.read_to_string(&mut s);
            s
        })
    };
    let out_reader = drain(Box::new(child.stdout.take().expect("stdout")));
    let err_reader = drain(Box::new(child.stderr.take().expect("stderr")));
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_rss = 0;
    let mut signalled: Option<Instant> = None;
    let status = loop {
        if let Ok(status) = std::fs::read_to_string(&status_file)
            && let Some(kb) = status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        {
            peak_rss = peak_rss.max(kb * 1024);
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if let Some((name, after)) = signal
            && signalled.is_none()
            && start.elapsed() >= after
        {
            let sent = Command::new("kill")
                .args([&format!("-{name}"), &child.id().to_string()])
                .status()
                .expect("kill runs");
            assert!(sent.success());
            signalled = Some(Instant::now());
        }
        if signalled.unwrap_or(start).elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Run {
        code: status.code(),
        seconds: start.elapsed().as_secs_f64(),
        after_signal: signalled.map(|at| at.elapsed()),
        peak_rss,
        stdout: out_reader.join().expect("stdout thread"),
        stderr: err_reader.join().expect("stderr thread"),
    }
}

/// The exit code of a run that was not ended by a signal.
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally, not by a signal")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("corvus-asp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The shared corpus (`$CORVUS_SHARED`, or `../shared` seen from the crate
/// or from a worktree two levels down), if it is here. When
/// `CORVUS_SHARED` is set, it must be: the run was promised the corpus.
pub fn shared_root() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CORVUS_SHARED") {
        let dir = PathBuf::from(dir);
        assert!(
            dir.join("ipc").is_dir() && dir.join("asp").is_dir(),
            "CORVUS_SHARED is set to {}, which holds no ipc/ and asp/",
            dir.display()
        );
        return Some(dir);
    }
    [crate_dir().join("../shared"), crate_dir().join("../../shared")]
        .into_iter()
        .find(|c| c.join("ipc").is_dir() && c.join("asp").is_dir())
}

/// The competition instances and encodings: `asp/` of the shared corpus,
/// else their copy in `problems/asp` (the same files), so that a fresh
/// clone runs the same checks.
pub fn shared_asp() -> Option<PathBuf> {
    Some(shared_root().map_or_else(|| crate_dir().join("problems/asp"), |s| s.join("asp")))
}

/// The six ADL domains: `ipc/` of the shared corpus (all their problems),
/// else `problems/ipc-adl` (each domain with its first five problems).
pub fn adl_ipc() -> PathBuf {
    shared_root().map_or_else(|| crate_dir().join("problems/ipc-adl"), |s| s.join("ipc"))
}

/// Says that `what` did not run for want of `place`, on the test process's
/// stderr handle (`eprintln!` would be captured by the test harness and
/// hidden for a passing test). `./test` collects these lines into its
/// summary, and under CI fails on them.
pub fn shared_missing(place: &str, what: &str) {
    let _ = writeln!(std::io::stderr(), "\nSKIPPED: {place} not found; {what} did not run\n");
}

pub fn shared_instances(family: &str) -> Vec<PathBuf> {
    let Some(dir) = shared_asp() else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(family))
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "asp") && !p.ends_with("encoding.asp"));
    files.sort();
    files
}

/// The encoding for a family: the shared one.
pub fn encoding(family: &str) -> Option<PathBuf> {
    shared_asp().map(|d| d.join(family).join("encoding.asp"))
}

fn python() -> PathBuf {
    if let Ok(p) = std::env::var("CORVUS_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = crate_dir().join(".venv/bin/python");
    if venv.is_file() { venv } else { PathBuf::from("python3") }
}

/// Whether clingo can be used. Under CI (env `CI` set) a missing clingo
/// fails the test instead of skipping it.
pub fn clingo_available() -> bool {
    let ok = Command::new(python())
        .args(["-c", "import clingo"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var_os("CI").is_some() {
            panic!("clingo is not importable by {} but CI is set", python().display());
        }
        eprintln!(
            "\n########################################################\n\
             SKIPPED: clingo is not importable by {} (pip install clingo,\n\
             or set CORVUS_PYTHON); the clingo checks did not run.\n\
             ########################################################\n",
            python().display()
        );
    }
    ok
}

#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Sat,
    Unsat,
}

/// Runs tests/clingo_check.py: `witness` = None asks whether any witness
/// exists.
pub fn clingo(encoding: &Path, instance: &Path, witness: Option<&Path>) -> Verdict {
    let script = crate_dir().join("tests/clingo_check.py");
    let w = witness
        .map(|w| w.display().to_string())
        .unwrap_or_else(|| "--none".to_string());
    let o = Command::new(python())
        .arg(&script)
        .arg(encoding)
        .arg(instance)
        .arg(&w)
        .output()
        .expect("python runs");
    match o.status.code() {
        Some(0) => Verdict::Sat,
        Some(1) => Verdict::Unsat,
        _ => panic!(
            "clingo check failed on {} with {w}: {}",
            instance.display(),
            String::from_utf8_lossy(&o.stderr)
        ),
    }
}
