//! Time, memory and interrupt checks for the search loop.
//!
//! The engine calls [`Monitor::check`] every few hundred units of work; the
//! clock is cheap to read, `/proc/self/status` is read at most every 100 ms.
//! Besides its own limits (a portfolio entry's share of the time), the
//! monitor honours a stop of the whole run ([`crate::limits`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Limits, Outcome};
use crate::limits::Stop;

/// How often the run's memory ([`crate::limits::memory_in_use`]: the
/// resident set size from `/proc`, or the run's account) is read.
const RSS_PERIOD: Duration = Duration::from_millis(100);

pub struct Monitor<'a> {
    limits: Limits,
    interrupt: &'a AtomicBool,
    start: Instant,
    last_rss_read: Option<Instant>,
    rss: u64,
    peak: u64,
}

impl<'a> Monitor<'a> {
    pub fn new(limits: Limits, interrupt: &'a AtomicBool) -> Self {
        Monitor {
            limits,
            interrupt,
            start: Instant::now(),
            last_rss_read: None,
            rss: 0,
            peak: 0,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Highest memory use seen so far (estimate or the run's memory).
    pub fn peak_bytes(&self) -> u64 {
        self.peak
    }

    /// Returns the outcome to stop with, if a limit is hit. `estimate` is the
    /// engine's own count of the bytes it holds.
    pub fn check(&mut self, estimate: u64) -> Option<Outcome> {
        if self.interrupt.load(Ordering::Relaxed) {
            return Some(Outcome::Interrupted);
        }
        match crate::limits::requested() {
            Some(Stop::Interrupted) => return Some(Outcome::Interrupted),
            Some(Stop::OutOfTime) => return Some(Outcome::OutOfTime),
            Some(Stop::OutOfMemory) => return Some(Outcome::OutOfMemory),
            None => {}
        }
        let now = Instant::now();
        if self.last_rss_read.is_none_or(|t| now.duration_since(t) >= RSS_PERIOD) {
            self.last_rss_read = Some(now);
            if let Some(rss) = crate::limits::memory_in_use() {
                self.rss = rss;
            }
        }
        let used = estimate.max(self.rss);
        self.peak = self.peak.max(used);
        if self.limits.time.is_some_and(|t| now.duration_since(self.start) >= t) {
            return Some(Outcome::OutOfTime);
        }
        if self.limits.memory_bytes.is_some_and(|m| used > m) {
            return Some(Outcome::OutOfMemory);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_limits_and_interrupts() {
        let flag = AtomicBool::new(false);
        let mut m = Monitor::new(Limits::default(), &flag);
        assert_eq!(m.check(10), None);
        assert!(m.peak_bytes() >= 10);
        let mut m = Monitor::new(
            Limits {
                memory_bytes: Some(100),
                ..Limits::default()
            },
            &flag,
        );
        assert_eq!(m.check(1000), Some(Outcome::OutOfMemory));
        let mut m = Monitor::new(
            Limits {
                time: Some(Duration::ZERO),
                ..Limits::default()
            },
            &flag,
        );
        assert_eq!(m.check(0), Some(Outcome::OutOfTime));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(m.check(0), Some(Outcome::Interrupted));
    }
}
