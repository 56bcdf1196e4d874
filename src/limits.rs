//! Time, memory and interrupt limits for every phase of a run: parsing,
//! grounding, invariant synthesis, heuristic construction and search.
//!
//! A run is *watched* ([`watch`]): a watchdog thread compares the clock with
//! the run's deadline and the resident set size with its memory limit every
//! [`WATCH_PERIOD`], and a signal handler sets the interrupt flag. When one
//! of them trips, the run's stop flag is set. The hot loops of every phase
//! call [`checkpoint`], which reads that flag (two atomic loads) and, when
//! it is set, ends the phase by unwinding with a [`Stopped`] payload up to
//! [`catch`] at the planner's boundary. Unwinding rather than an error value
//! keeps the checks out of the signatures of grounding, invariant synthesis
//! and the heuristic registry's builders, and frees the tables of the phase
//! on the way out. The payload goes through `resume_unwind`, which runs no
//! panic hook: nothing is printed and nothing "panics".
//!
//! A run's memory is the process's resident set size, unless the process
//! installs [`CountingAllocator`] (the Python package does), which charges
//! each run the heap memory its thread allocates: there, runs on other
//! threads do not count against a run's limit.
//!
//! The search engine keeps its own cheaper monitor (`search::limits`) for
//! the per-configuration time shares of a portfolio; it also honours the
//! stop flag.

use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use crate::exit;

mod memory;

pub use memory::CountingAllocator;

/// Resource limits; `None` means unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    pub time: Option<Duration>,
    pub memory_bytes: Option<u64>,
    /// Most states to expand. Unlike time, this stops a search at the same
    /// point on every machine, so a portfolio's cheap first tries give the
    /// same answers everywhere.
    pub expansions: Option<u64>,
}

/// How often the watchdog reads the clock and the resident set size: a
/// phase stops within this period (plus the time to its next checkpoint)
/// of a limit, and the memory grows by at most what it allocates in it.
pub const WATCH_PERIOD: Duration = Duration::from_millis(10);

/// How long a phase may work to reach a checkpoint once a stop is
/// requested, before the binary ends it from the watchdog (only when
/// [`allow_exit`] is on): the phases without checkpoints are single library
/// calls, such as pest reading a file (about 1 s for 8 MB). It is counted in
/// the CPU time the process uses after the stop, not on the clock: on a
/// machine loaded past its cores a thread may get no CPU for longer than
/// this, and a phase that did not run has not failed to reach its
/// checkpoint. With [`WATCH_PERIOD`], a run on a machine with a free core
/// ends within about half a second of its limit; [`STOP_GRACE_WALL`]
/// bounds it on a starved one. Half a second, not less: a search that
/// grows its state registry spends a few hundred ms of CPU in one rehash
/// between two checks, and a search ended from outside loses its statistics.
pub const STOP_GRACE: Duration = Duration::from_millis(500);

/// The most wall-clock time after a stop before the forced end, whatever
/// CPU time the process got (see [`STOP_GRACE`]).
pub const STOP_GRACE_WALL: Duration = Duration::from_secs(2);

/// Why a run stops before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    OutOfTime,
    OutOfMemory,
    /// SIGINT (Ctrl-C), SIGTERM or SIGHUP.
    Interrupted,
}

impl Stop {
    pub fn exit_code(self) -> i32 {
        match self {
            Stop::OutOfTime => exit::OUT_OF_TIME,
            Stop::OutOfMemory => exit::OUT_OF_MEMORY,
            Stop::Interrupted => exit::INTERRUPTED,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Stop::OutOfTime => "time limit reached",
            Stop::OutOfMemory => "memory limit reached",
            Stop::Interrupted => "interrupted",
        }
    }

    fn code(self) -> u8 {
        match self {
            Stop::OutOfTime => 1,
            Stop::OutOfMemory => 2,
            Stop::Interrupted => 3,
        }
    }

    fn from_code(c: u8) -> Option<Stop> {
        match c {
            1 => Some(Stop::OutOfTime),
            2 => Some(Stop::OutOfMemory),
            3 => Some(Stop::Interrupted),
            _ => None,
        }
    }
}

/// The stages of a run, for the log line that says where a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Parsing,
    Grounding,
    InvariantSynthesis,
    HeuristicConstruction,
    Search,
    Validation,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Parsing => "parsing",
            Phase::Grounding => "grounding",
            Phase::InvariantSynthesis => "invariant synthesis",
            Phase::HeuristicConstruction => "heuristic construction",
            Phase::Search => "search",
            Phase::Validation => "validation",
        }
    }
}

/// A run stopped by a limit or a signal: what stopped it, in which phase,
/// and which item of the phase was at work (e.g. the action schema being
/// instantiated, with its estimated size).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    pub stop: Stop,
    pub phase: Phase,
    pub item: Option<String>,
    /// Time since the run started.
    pub elapsed: Duration,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} stopped: {}", self.phase.name(), self.stop.describe())?;
        if let Some(item) = &self.item {
            write!(f, " (at {item})")?;
        }
        Ok(())
    }
}

/// The state of one watched run.
struct Watch {
    deadline: Option<Instant>,
    memory_bytes: Option<u64>,
    start: Instant,
    /// [`Stop::code`] of the requested stop, 0 while none is.
    stop: AtomicU8,
    /// When the stop was requested (for [`STOP_GRACE`]).
    /// When the stop was requested, and the process's CPU time then.
    stop_requested: Mutex<Option<(Instant, Option<Duration>)>>,
    phase: AtomicU8,
    /// Labels of the items the current phase works through, and the one at
    /// work (see [`set_items`]).
    items: Mutex<Vec<String>>,
    item: AtomicUsize,
    /// The run has its answer and only frees memory (see [`Answered`]).
    answered: AtomicBool,
    /// What the run's thread allocates, when allocations are counted.
    account: memory::Account,
}

const NO_ITEM: usize = usize::MAX;
const PHASES: [Phase; 6] = [
    Phase::Parsing,
    Phase::Grounding,
    Phase::InvariantSynthesis,
    Phase::HeuristicConstruction,
    Phase::Search,
    Phase::Validation,
];

impl Watch {
    fn request(&self, stop: Stop) {
        if self
            .stop
            .compare_exchange(0, stop.code(), Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            *lock(&self.stop_requested) = Some((Instant::now(), process_cpu_time()));
        }
    }

    fn phase(&self) -> Phase {
        PHASES[self.phase.load(Ordering::Relaxed) as usize]
    }

    fn stopped(&self, stop: Stop) -> Stopped {
        let item = self.item.load(Ordering::Relaxed);
        Stopped {
            stop,
            phase: self.phase(),
            item: lock(&self.items).get(item).cloned(),
            elapsed: self.start.elapsed(),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static EXIT_ALLOWED: AtomicBool = AtomicBool::new(false);
type ExitReport = Box<dyn Fn(&Stopped) -> i32 + Send>;
static EXIT_REPORT: Mutex<Option<ExitReport>> = Mutex::new(None);
/// Every watched run, for the watchdog thread.
static WATCHES: Mutex<Vec<Weak<Watch>>> = Mutex::new(Vec::new());
static WATCHDOG: OnceLock<()> = OnceLock::new();

thread_local! {
    /// The run watched on this thread, if any.
    static CURRENT: std::cell::RefCell<Option<Arc<Watch>>> = const { std::cell::RefCell::new(None) };
}

/// Set this (from a host language's interrupt) to stop every running phase
/// with [`Stop::Interrupted`]. It is never cleared. A signal handler calls
/// [`interrupt`] instead, which also ends the process in time.
pub fn interrupt_flag() -> &'static AtomicBool {
    &INTERRUPTED
}

/// A signal: stops every watched run with [`Stop::Interrupted`], as a time
/// limit does, with the same forced end (see [`allow_exit`]) when a phase
/// does not reach a checkpoint within [`STOP_GRACE`]. Returns whether an
/// interrupt had been requested before.
pub fn interrupt() -> bool {
    let before = INTERRUPTED.swap(true, Ordering::SeqCst);
    start_watchdog();
    before
}

fn start_watchdog() {
    WATCHDOG.get_or_init(|| {
        // Without the thread a stop still ends every phase at its next
        // checkpoint; only the forced end is lost.
        let _ = std::thread::Builder::new()
            .name("corvus-watchdog".to_string())
            .spawn(watchdog);
    });
}

/// Says that this process is the `corvus` binary, which a stop may end:
/// when a phase does not reach a checkpoint within [`STOP_GRACE`] of a stop
/// (e.g. inside one long library call), the watchdog ends the process (with
/// the [`exit_report`], if one is set, else just the stop's code) instead
/// of letting it run on; and a stop at a checkpoint with an [`exit_report`]
/// ends the process at once.
pub fn allow_exit(on: bool) {
    EXIT_ALLOWED.store(on, Ordering::SeqCst);
}

/// In the binary (see [`allow_exit`]): a stop at a checkpoint calls
/// `report` (which logs and writes the statistics and returns the exit
/// code) and ends the process, instead of unwinding. Unwinding frees the
/// phase's tables, which after a large grounding takes longer (0.45 s for
/// 4 million operators) than a stop may.
pub fn exit_report(report: impl Fn(&Stopped) -> i32 + Send + 'static) {
    *lock(&EXIT_REPORT) = Some(Box::new(report));
}

/// Watches the run on this thread until the guard is dropped: the time
/// limit counts from now (a limit beyond the clock's range is none). Every
/// watched run stops on an [`interrupt`], limited or not. Inside a watched
/// run this watches nothing more (the outer run's limits and start hold).
#[must_use = "the run is watched while the guard lives"]
pub fn watch(limits: Limits) -> WatchGuard {
    if CURRENT.with(|c| c.borrow().is_some()) {
        return WatchGuard { outermost: false };
    }
    let start = Instant::now();
    let watch = Arc::new(Watch {
        deadline: limits.time.and_then(|t| start.checked_add(t)),
        memory_bytes: limits.memory_bytes,
        start,
        stop: AtomicU8::new(0),
        stop_requested: Mutex::new(None),
        phase: AtomicU8::new(0),
        items: Mutex::new(Vec::new()),
        item: AtomicUsize::new(NO_ITEM),
        answered: AtomicBool::new(false),
        account: memory::Account::default(),
    });
    {
        let mut all = lock(&WATCHES);
        all.retain(|w| w.strong_count() > 0);
        all.push(Arc::downgrade(&watch));
    }
    if watch.deadline.is_some() || limits.memory_bytes.is_some() || INTERRUPTED.load(Ordering::SeqCst) {
        start_watchdog();
    }
    // The account lives as long as `CURRENT` holds the watch, and the
    // guard stops the charging before it lets go.
    memory::charge_to(&watch.account);
    CURRENT.with(|c| *c.borrow_mut() = Some(watch));
    WatchGuard { outermost: true }
}

/// Ends the watch of [`watch`] when dropped.
pub struct WatchGuard {
    outermost: bool,
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        if self.outermost {
            memory::charge_none();
            CURRENT.with(|c| c.borrow_mut().take());
        }
    }
}

fn with_current<T>(f: impl FnOnce(&Watch) -> T) -> Option<T> {
    CURRENT.with(|c| c.borrow().as_deref().map(f))
}

/// A handle on the run watched on one thread, to stop it from another:
/// [`StopHandle::interrupt`] stops that run alone, at its next checkpoint,
/// as a signal would (the signal's [`interrupt_flag`] stops every run, and
/// for good).
#[derive(Clone)]
pub struct StopHandle(Arc<Watch>);

impl StopHandle {
    /// Stops the run with [`Stop::Interrupted`] (unless it is stopping already).
    pub fn interrupt(&self) {
        self.0.request(Stop::Interrupted);
    }
}

/// The handle of the run watched on this thread, if any (see [`watch`]).
pub fn stop_handle() -> Option<StopHandle> {
    CURRENT.with(|c| c.borrow().clone().map(StopHandle))
}

/// When the watched run started (its time limit counts from here).
pub fn run_start() -> Option<Instant> {
    with_current(|w| w.start)
}

/// The run's time left, if it has a time limit.
pub fn time_left() -> Option<Duration> {
    with_current(|w| w.deadline.map(|d| d.saturating_duration_since(Instant::now()))).flatten()
}

/// Enters a phase until the guard is dropped, when the previous one is
/// current again. The items of the previous phase are forgotten.
#[must_use = "the phase lasts while the guard lives"]
pub fn phase(phase: Phase) -> PhaseGuard {
    let code = PHASES.iter().position(|&p| p == phase).unwrap_or(0) as u8;
    let previous = with_current(|w| {
        w.item.store(NO_ITEM, Ordering::Relaxed);
        w.phase.swap(code, Ordering::Relaxed)
    });
    PhaseGuard { previous }
}

pub struct PhaseGuard {
    previous: Option<u8>,
}

impl Drop for PhaseGuard {
    fn drop(&mut self) {
        // During unwinding the stopped phase has been recorded already.
        if let Some(p) = self.previous
            && !std::thread::panicking()
        {
            with_current(|w| {
                w.item.store(NO_ITEM, Ordering::Relaxed);
                w.phase.store(p, Ordering::Relaxed)
            });
        }
    }
}

/// Labels the items the current phase works through (e.g. its action
/// schemas with their estimated sizes); [`set_item`] says which one is at
/// work, cheaply, so that a stop can name it.
pub fn set_items(labels: Vec<String>) {
    with_current(|w| {
        w.item.store(NO_ITEM, Ordering::Relaxed);
        *lock(&w.items) = labels;
    });
}

/// The item (an index into [`set_items`]' labels) now at work.
#[inline]
pub fn set_item(i: usize) {
    CURRENT.with(|c| {
        if let Some(w) = c.borrow().as_deref() {
            w.item.store(i, Ordering::Relaxed)
        }
    });
}

/// Says, when dropped, that the run watched on this thread has its answer:
/// what is left is freeing its tables, which the watchdog does not cut
/// short after a stop (freeing a task of millions of operators takes longer
/// than [`STOP_GRACE`], and ending the process then would lose the answer's
/// log and statistics). Declared after the big tables, it drops before them.
pub struct Answered;

impl Drop for Answered {
    fn drop(&mut self) {
        with_current(|w| w.answered.store(true, Ordering::SeqCst));
    }
}

/// Says that the run watched on this thread works towards an answer again:
/// a later stage under the same watch (`asp solve`'s exact-length search
/// after its first one has answered) gets the watchdog's forced end again.
pub fn unanswered() {
    with_current(|w| w.answered.store(false, Ordering::SeqCst));
}

/// The stop requested for the run on this thread, if any. Cheap: two
/// atomic loads.
#[inline]
pub fn requested() -> Option<Stop> {
    if INTERRUPTED.load(Ordering::Relaxed) {
        return Some(Stop::Interrupted);
    }
    CURRENT.with(|c| {
        c.borrow()
            .as_deref()
            .and_then(|w| Stop::from_code(w.stop.load(Ordering::Relaxed)))
    })
}

/// Ends the current phase if a limit was hit or the run was interrupted:
/// unwinds to [`catch`]. Cheap enough for every iteration of a hot loop.
#[inline]
pub fn checkpoint() {
    if let Some(stop) = requested() {
        stop_now(stop);
    }
}

#[cold]
fn stop_now(stop: Stop) -> ! {
    let stopped = with_current(|w| w.stopped(stop)).unwrap_or(Stopped {
        stop,
        phase: Phase::Parsing,
        item: None,
        elapsed: Duration::ZERO,
    });
    if EXIT_ALLOWED.load(Ordering::SeqCst) && lock(&EXIT_REPORT).is_some() {
        report_and_exit(&stopped);
    }
    panic::resume_unwind(Box::new(stopped))
}

/// Calls the [`exit_report`] and ends the process with its code, once: a
/// checkpoint and the watchdog may get here at the same time.
fn report_and_exit(stopped: &Stopped) -> ! {
    static REPORTING: AtomicBool = AtomicBool::new(false);
    if REPORTING.swap(true, Ordering::SeqCst) {
        // The other one reports and ends the process.
        loop {
            std::thread::park();
        }
    }
    let code = match lock(&EXIT_REPORT).as_ref() {
        Some(report) => report(stopped),
        None => {
            eprintln!("{stopped}");
            stopped.stop.exit_code()
        }
    };
    std::process::exit(code)
}

/// Runs `f`, returning how it was stopped if a [`checkpoint`] stopped it.
/// Real panics go on unwinding.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, Stopped> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => Ok(v),
        Err(payload) => match payload.downcast::<Stopped>() {
            Ok(stopped) => Err(*stopped),
            Err(payload) => panic::resume_unwind(payload),
        },
    }
}

/// The memory the run watched on this thread uses: its account when
/// allocations are counted (see [`CountingAllocator`]), else the process's
/// resident set size.
pub fn memory_in_use() -> Option<u64> {
    match with_current(|w| w.account.current()) {
        Some(bytes) if memory::counting() => Some(bytes),
        _ => resident_set_bytes(),
    }
}

/// The most memory the run watched on this thread has used, measured as
/// [`memory_in_use`] is; without a counted run, the process's peak resident
/// set size (the true peak, not the last sample).
pub fn peak_memory_bytes() -> u64 {
    match with_current(|w| w.account.peak()) {
        Some(bytes) if memory::counting() => bytes,
        _ => peak_resident_set_bytes().or_else(resident_set_bytes).unwrap_or(0),
    }
}

/// VmRSS of this process, where `/proc` offers it.
pub fn resident_set_bytes() -> Option<u64> {
    proc_status_bytes("VmRSS:")
}

/// VmHWM of this process, where `/proc` offers it: the most it has been
/// resident at any moment, which the watchdog's samples can miss.
fn peak_resident_set_bytes() -> Option<u64> {
    proc_status_bytes("VmHWM:")
}

/// A size field (in kB) of `/proc/self/status`, in bytes.
fn proc_status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The watchdog thread: every [`WATCH_PERIOD`], requests a stop for each
/// watched run past its deadline or memory limit (and for every run on an
/// interrupt), and exits the process when a stop was not honoured in time.
fn watchdog() {
    loop {
        std::thread::sleep(WATCH_PERIOD);
        let watches: Vec<Arc<Watch>> = {
            let mut all = lock(&WATCHES);
            all.retain(|w| w.strong_count() > 0);
            all.iter().filter_map(Weak::upgrade).collect()
        };
        if watches.is_empty() {
            continue;
        }
        let now = Instant::now();
        let counting = memory::counting();
        let rss = if !counting && watches.iter().any(|w| w.memory_bytes.is_some()) {
            resident_set_bytes()
        } else {
            None
        };
        for w in &watches {
            if INTERRUPTED.load(Ordering::Relaxed) {
                w.request(Stop::Interrupted);
            }
            if w.deadline.is_some_and(|d| now >= d) {
                w.request(Stop::OutOfTime);
            }
            let used = if counting { Some(w.account.current()) } else { rss };
            if let (Some(limit), Some(used)) = (w.memory_bytes, used)
                && used > limit
            {
                w.request(Stop::OutOfMemory);
            }
            let since = *lock(&w.stop_requested);
            if let (Some(stop), Some(since)) = (Stop::from_code(w.stop.load(Ordering::SeqCst)), since)
                && EXIT_ALLOWED.load(Ordering::SeqCst)
                && !w.answered.load(Ordering::SeqCst)
                && grace_over(since, now)
            {
                eprintln!(
                    "{} did not stop within {:.2}s of the stop; ending it",
                    w.phase().name(),
                    STOP_GRACE.as_secs_f64()
                );
                report_and_exit(&w.stopped(stop));
            }
        }
    }
}

/// Whether a phase stopped at `since` (the clock, the process's CPU time)
/// has had its [`STOP_GRACE`] of CPU time, or [`STOP_GRACE_WALL`] on the
/// clock; on the clock alone where the CPU time cannot be read.
fn grace_over((since, cpu_then): (Instant, Option<Duration>), now: Instant) -> bool {
    let wall = now.duration_since(since);
    match (cpu_then, process_cpu_time()) {
        (Some(then), Some(cpu)) => cpu.saturating_sub(then) >= STOP_GRACE || wall >= STOP_GRACE_WALL,
        _ => wall >= STOP_GRACE,
    }
}

/// The CPU time (user and system) this process has used, from
/// `/proc/self/stat`, in Linux's clock ticks of 10 ms.
fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may
    // hold spaces: state is the first, utime the 12th, stime the 13th.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks.saturating_mul(10)))
}

impl Limits {
    /// Reads a `--time-limit`: seconds, or a number with a unit: `30s`,
    /// `5m` (or `5min`), `1h`; fractions and exponents (`1e3s`, as Python
    /// writes large floats) are allowed. A duration that does not fit
    /// [`Duration`] is an error, not a panic.
    pub fn parse_time_limit(s: &str) -> Result<Duration, String> {
        let s = s.trim();
        let (number, unit) = match split_unit(s) {
            (number, "") => (number, "s"),
            split => split,
        };
        let value: f64 = number
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not a duration (expected e.g. 30, 30s, 5m, 1h)"))?;
        let seconds = match unit {
            "s" => value,
            "m" | "min" => value * 60.0,
            "h" => value * 3600.0,
            _ => return Err(format!("unknown time unit `{unit}` (expected s, m or h)")),
        };
        if !seconds.is_finite() || seconds < 0.0 {
            return Err(format!("`{s}` is not a non-negative duration"));
        }
        Duration::try_from_secs_f64(seconds).map_err(|_| format!("`{s}` is too long a duration"))
    }

    /// Reads a `--memory-limit` in bytes: a number with a binary unit `K`,
    /// `M`, `G` or `T` (any case, `B` or `iB` may follow), or a plain number
    /// of MiB.
    pub fn parse_memory_limit(s: &str) -> Result<u64, String> {
        let s = s.trim();
        let (number, unit) = match split_unit(s) {
            (number, "") => (number, "M".to_string()),
            (number, unit) => (number, unit.to_ascii_uppercase()),
        };
        let value: f64 = number
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not a memory size (expected e.g. 512M, 8G)"))?;
        let factor = match unit.trim_end_matches(['B', 'I']) {
            "K" => 1u64 << 10,
            "M" => 1 << 20,
            "G" => 1 << 30,
            "T" => 1 << 40,
            "" => 1,
            _ => return Err(format!("unknown memory unit `{unit}` (expected K, M or G)")),
        };
        if !value.is_finite() || value < 0.0 {
            return Err(format!("`{s}` is not a non-negative memory size"));
        }
        let bytes = value * factor as f64;
        // `u64::MAX as f64` rounds up to 2^64, which does not fit.
        if bytes >= u64::MAX as f64 {
            return Err(format!("`{s}` is too large a memory size"));
        }
        Ok(bytes as u64)
    }
}

/// A number and the letters of its unit: `1.5e3` and `min` for `1.5e3min`.
fn split_unit(s: &str) -> (&str, &str) {
    let number = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    (number, &s[number.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_stage_under_the_same_watch_is_unanswered_again() {
        let _watch = watch(Limits::default());
        let answered = || with_current(|w| w.answered.load(Ordering::SeqCst)).expect("watched");
        assert!(!answered());
        drop(Answered);
        assert!(answered());
        unanswered();
        assert!(!answered());
    }

    #[test]
    fn the_process_cpu_time_is_read_and_grows_with_work() {
        let before = process_cpu_time().expect("/proc/self/stat has the CPU times");
        let mut x: u64 = 1;
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(50) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        assert!(process_cpu_time().expect("again") >= before);
    }

    /// Counts to `n` with a checkpoint per step, as a phase's hot loop does.
    fn busy_phase(n: u64) -> u64 {
        let _phase = phase(Phase::Grounding);
        set_items(vec!["action a".to_string(), "action b".to_string()]);
        set_item(1);
        let mut sum = 0u64;
        for i in 0..n {
            checkpoint();
            sum = sum.wrapping_add(std::hint::black_box(i));
        }
        sum
    }

    #[test]
    fn a_deadline_stops_the_phase_at_its_checkpoint_and_names_it() {
        let _watch = watch(Limits {
            time: Some(Duration::from_millis(30)),
            ..Limits::default()
        });
        let start = Instant::now();
        let stopped = catch(|| busy_phase(u64::MAX)).unwrap_err();
        assert_eq!(stopped.stop, Stop::OutOfTime);
        assert_eq!(stopped.phase, Phase::Grounding);
        assert_eq!(stopped.item.as_deref(), Some("action b"));
        assert_eq!(
            stopped.to_string(),
            "grounding stopped: time limit reached (at action b)"
        );
        // Generous: the watchdog looks every 10 ms.
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn an_unwatched_or_unlimited_run_is_never_stopped() {
        assert_eq!(catch(|| busy_phase(1000)), Ok(499_500));
        let _watch = watch(Limits::default());
        assert_eq!(catch(|| busy_phase(1000)), Ok(499_500));
        assert!(time_left().is_none());
    }

    #[test]
    fn a_memory_limit_below_the_resident_size_stops_the_phase() {
        let _watch = watch(Limits {
            memory_bytes: Some(1),
            ..Limits::default()
        });
        let stopped = catch(|| busy_phase(u64::MAX)).unwrap_err();
        assert_eq!(stopped.stop, Stop::OutOfMemory);
    }

    #[test]
    fn a_stop_handle_interrupts_its_run_from_another_thread_and_no_other() {
        let _watch = watch(Limits::default());
        let handle = stop_handle().expect("a watched run has a handle");
        std::thread::spawn(move || {
            let _other = watch(Limits::default());
            handle.interrupt();
            assert_eq!(catch(|| busy_phase(1000)), Ok(499_500));
        })
        .join()
        .unwrap();
        let stopped = catch(|| busy_phase(u64::MAX)).unwrap_err();
        assert_eq!(stopped.stop, Stop::Interrupted);
        assert!(!INTERRUPTED.load(Ordering::Relaxed));
    }

    #[test]
    fn phases_nest_and_real_panics_pass_through() {
        let _watch = watch(Limits::default());
        {
            let _g = phase(Phase::Search);
            {
                let _i = phase(Phase::InvariantSynthesis);
                assert_eq!(with_current(|w| w.phase()), Some(Phase::InvariantSynthesis));
            }
            assert_eq!(with_current(|w| w.phase()), Some(Phase::Search));
        }
        let result = panic::catch_unwind(|| catch(|| panic!("a bug")));
        assert!(result.is_err());
    }

    #[test]
    fn time_limits_in_seconds_minutes_and_hours() {
        let parse = Limits::parse_time_limit;
        assert_eq!(parse("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse(" 1.5s "), Ok(Duration::from_millis(1500)));
        assert_eq!(parse("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse("2min"), Ok(Duration::from_secs(120)));
        assert_eq!(parse("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(
            parse("soon"),
            Err("`soon` is not a duration (expected e.g. 30, 30s, 5m, 1h)".to_string())
        );
        assert_eq!(
            parse("3d"),
            Err("unknown time unit `d` (expected s, m or h)".to_string())
        );
        assert_eq!(parse("-1s"), Err("`-1s` is not a non-negative duration".to_string()));
        assert_eq!(parse("1e+3s"), Ok(Duration::from_secs(1000)));
        assert_eq!(
            parse("99999999999999999999s"),
            Err("`99999999999999999999s` is too long a duration".to_string())
        );
        assert_eq!(
            parse("inf"),
            Err("`inf` is not a duration (expected e.g. 30, 30s, 5m, 1h)".to_string())
        );
    }

    #[test]
    fn a_deadline_beyond_the_clock_is_none() {
        let _watch = watch(Limits {
            time: Some(Duration::MAX),
            ..Limits::default()
        });
        assert_eq!(time_left(), None);
        assert_eq!(catch(|| busy_phase(1000)), Ok(499_500));
    }

    #[test]
    fn memory_limits_in_binary_units_or_mib() {
        let parse = Limits::parse_memory_limit;
        assert_eq!(parse("512"), Ok(512 << 20));
        assert_eq!(parse("512M"), Ok(512 << 20));
        assert_eq!(parse("8G"), Ok(8 << 30));
        assert_eq!(parse("8gib"), Ok(8 << 30));
        assert_eq!(parse("64KB"), Ok(64 << 10));
        assert_eq!(parse("1.5K"), Ok(1536));
        assert_eq!(
            parse("lots"),
            Err("`lots` is not a memory size (expected e.g. 512M, 8G)".to_string())
        );
        assert_eq!(
            parse("3P"),
            Err("unknown memory unit `P` (expected K, M or G)".to_string())
        );
        assert_eq!(parse("-1G"), Err("`-1G` is not a non-negative memory size".to_string()));
        assert_eq!(parse("1e3K"), Ok(1000 << 10));
        assert_eq!(
            parse("16777216T"),
            Err("`16777216T` is too large a memory size".to_string())
        );
    }
}
