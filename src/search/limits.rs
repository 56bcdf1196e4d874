//! Time, memory and interrupt checks for the search loop, and the syntax of
//! the time and memory limits on the command line.
//!
//! The engine calls [`Monitor::check`] every few hundred units of work; the
//! clock is cheap to read, `/proc/self/status` is read at most every 100 ms.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Limits, Outcome};

/// How often the resident set size is read from `/proc`.
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

    /// Highest memory use seen so far (estimate or resident set size).
    pub fn peak_bytes(&self) -> u64 {
        self.peak
    }

    /// Returns the outcome to stop with, if a limit is hit. `estimate` is the
    /// engine's own count of the bytes it holds.
    pub fn check(&mut self, estimate: u64) -> Option<Outcome> {
        if self.interrupt.load(Ordering::Relaxed) {
            return Some(Outcome::Interrupted);
        }
        let now = Instant::now();
        if self.last_rss_read.is_none_or(|t| now.duration_since(t) >= RSS_PERIOD) {
            self.last_rss_read = Some(now);
            if let Some(rss) = resident_set_bytes() {
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

/// VmRSS of this process, where `/proc` offers it.
pub fn resident_set_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

impl Limits {
    /// Reads a `--time-limit`: seconds, or a number with a unit: `30s`,
    /// `5m` (or `5min`), `1h`; fractions are allowed.
    pub fn parse_time_limit(s: &str) -> Result<Duration, String> {
        let s = s.trim();
        let (number, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
            Some(i) => (&s[..i], &s[i..]),
            None => (s, "s"),
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
        Ok(Duration::from_secs_f64(seconds))
    }

    /// Reads a `--memory-limit` in bytes: a number with a binary unit `K`,
    /// `M`, `G` or `T` (any case, `B` or `iB` may follow), or a plain number
    /// of MiB.
    pub fn parse_memory_limit(s: &str) -> Result<u64, String> {
        let s = s.trim();
        let (number, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
            Some(i) => (&s[..i], s[i..].to_ascii_uppercase()),
            None => (s, "M".to_string()),
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
        Ok((value * factor as f64) as u64)
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
    }
}
