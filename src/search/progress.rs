//! The live progress line on stderr: one line, rewritten in place, when
//! stderr is a terminal and the search logs at all (not with `--quiet`).
//! Log lines clear it first, so it never mixes with them or stays behind in
//! a redirected log.

use std::io::Write;
use std::time::{Duration, Instant};

/// At most four refreshes per second: enough to see it move, cheap to write.
const REFRESH: Duration = Duration::from_millis(250);

pub struct ProgressLine {
    enabled: bool,
    shown: bool,
    last: Option<Instant>,
    last_expanded: u64,
}

impl ProgressLine {
    pub fn new(enabled: bool) -> Self {
        ProgressLine {
            enabled,
            shown: false,
            last: None,
            last_expanded: 0,
        }
    }

    /// Rewrites the line if the last refresh is old enough. `layer` is the
    /// current f layer (A*) or best h (greedy), already labelled.
    pub fn tick(&mut self, expanded: u64, layer: Option<String>, memory_bytes: u64) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let Some(last) = self.last else {
            // The first call only starts the clock for the rate.
            self.last = Some(now);
            self.last_expanded = expanded;
            return;
        };
        let dt = now.duration_since(last);
        if dt < REFRESH {
            return;
        }
        let rate = (expanded.saturating_sub(self.last_expanded)) as f64 / dt.as_secs_f64();
        self.last = Some(now);
        self.last_expanded = expanded;
        let layer = layer.map(|l| format!(" | {l}")).unwrap_or_default();
        let line = format!(
            "[search] expanded {expanded} | {rate:.0} states/s{layer} | memory {} MB",
            memory_bytes / (1 << 20)
        );
        // `\r` + erase-line: the line is redrawn in place.
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K{line}");
        let _ = err.flush();
        self.shown = true;
    }

    /// Erases the line (before a log line is printed, and at the end).
    pub fn clear(&mut self) {
        if self.shown {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
            self.shown = false;
        }
    }
}
