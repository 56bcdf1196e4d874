//! The memory of one run, for processes that host several runs at once
//! (the Python package: each `solve` runs on a thread of its own).
//!
//! The resident set size is the process's: a run measured by it stops when
//! another run in the process grows. With [`CountingAllocator`] as the
//! global allocator, each run has an [`Account`] instead: the bytes that
//! the run's thread allocates and has not freed (a run works on one
//! thread, the one that [`super::watch`]es it). Memory that other threads
//! allocate is not charged to it, nor is memory that is not a Rust heap
//! allocation (thread stacks, the program's code, a host's own objects).
//!
//! The binary does not install it: there, one run is the process, and its
//! resident set size is what a user of `--memory-limit` means.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

/// The heap bytes a run holds, and the most it has held.
#[derive(Debug, Default)]
pub(super) struct Account {
    /// Signed: the run may free memory allocated before it began.
    current: AtomicI64,
    peak: AtomicI64,
}

impl Account {
    pub(super) fn current(&self) -> u64 {
        self.current.load(Ordering::Relaxed).max(0) as u64
    }

    pub(super) fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed).max(0) as u64
    }

    /// Only the run's own thread charges its account, so a load and a
    /// store suffice (no read-modify-write); the watchdog only reads.
    #[inline]
    fn charge(&self, bytes: i64) {
        let now = self.current.load(Ordering::Relaxed) + bytes;
        self.current.store(now, Ordering::Relaxed);
        if now > self.peak.load(Ordering::Relaxed) {
            self.peak.store(now, Ordering::Relaxed);
        }
    }
}

/// Set by [`CountingAllocator`] when it first allocates: it is the global
/// allocator, and accounts hold what their runs use.
static COUNTING: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// The account of the run watched on this thread. A raw pointer in a
    /// constant-initialised cell without a destructor: the allocator may
    /// read it at any time, even while the thread ends.
    static CHARGED: Cell<*const Account> = const { Cell::new(std::ptr::null()) };
}

/// Whether runs are measured by their [`Account`] rather than by the
/// process's resident set size.
pub(super) fn counting() -> bool {
    COUNTING.load(Ordering::Relaxed)
}

/// Charges this thread's allocations to `account` until [`charge_none`].
/// The account must outlive that call.
pub(super) fn charge_to(account: &Account) {
    let _ = CHARGED.try_with(|c| c.set(account));
}

pub(super) fn charge_none() {
    let _ = CHARGED.try_with(|c| c.set(std::ptr::null()));
}

#[inline]
fn charge(bytes: i64) {
    if !COUNTING.load(Ordering::Relaxed) {
        COUNTING.store(true, Ordering::Relaxed);
    }
    let _ = CHARGED.try_with(|c| {
        let account = c.get();
        // SAFETY: `charge_to` says the account outlives the pointer, which
        // `charge_none` clears (see `super::WatchGuard`).
        if let Some(account) = unsafe { account.as_ref() } {
            account.charge(bytes);
        }
    });
}

/// The system allocator, charging each allocation to the run of the thread
/// that makes it (see the module's documentation). A process installs it
/// with `#[global_allocator] static A: CountingAllocator = CountingAllocator;`.
pub struct CountingAllocator;

// SAFETY: every call is passed on to `System` unchanged; the counting reads
// and writes only atomics and a constant-initialised thread-local, and never
// allocates.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            charge(layout.size() as i64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            charge(layout.size() as i64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        charge(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            charge(new_size as i64 - layout.size() as i64);
        }
        p
    }
}
