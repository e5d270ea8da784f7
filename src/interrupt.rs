//! Ctrl-C and termination (SIGINT, SIGTERM, SIGHUP): the commands loki-gate
//! started are killed with their process groups, and what a gate set up for
//! the run (a temporary git worktree) is taken down before the process exits
//! with 130. Without this, a child in its own process group (where
//! [`crate::process`] puts it, so a time limit can kill its descendants)
//! would outlive an interrupted run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

type Task = Box<dyn FnMut() + Send>;

#[derive(Default)]
struct Registry {
    /// Process groups of the commands running now.
    groups: Vec<u32>,
    /// What to take down, by registration number.
    cleanups: Vec<(u64, Task)>,
    next: u64,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: Vec::new(),
    cleanups: Vec::new(),
    next: 0,
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Set once an interruption is being handled.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Set once the run was cut short by a deadline ([`cut`]): a command
/// started after it is killed at once.
static CUT: AtomicBool = AtomicBool::new(false);

/// A deadline passed: kill what runs and run every cleanup, as on Ctrl-C,
/// without exiting (the caller answers for the run), and kill whatever the
/// abandoned work starts after this.
pub fn cut() {
    CUT.store(true, Ordering::SeqCst);
    end_everything();
}

/// Kill every registered command's process group and run every cleanup.
fn end_everything() {
    let (groups, mut cleanups) = {
        let mut registry = registry();
        (
            std::mem::take(&mut registry.groups),
            std::mem::take(&mut registry.cleanups),
        )
    };
    for group in groups {
        crate::platform::end_tree(group);
    }
    for (_, task) in &mut cleanups {
        task();
    }
}

/// Commands between `spawn` and [`started`]: their process group exists
/// but is not registered yet. The handler waits for them (a loaded machine
/// may let the command run, and the user press Ctrl-C, in that window).
static SPAWNING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

thread_local! {
    /// True on the thread that handles the interruption (its cleanups run commands too).
    static HANDLER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Handle interruption from now on (the binary calls this once).
pub fn install() {
    // Fails only when a handler is already set, which is then the one that runs.
    let _ = ctrlc::set_handler(|| {
        HANDLER.set(true);
        INTERRUPTED.store(true, Ordering::SeqCst);
        interrupted();
        std::process::exit(130);
    });
}

/// When an interruption is being handled, wait for the handler to finish
/// and exit with 130: the run it cut short (a tool killed under it) must
/// not get to report an error of its own and exit first.
pub fn hold_if_interrupted() {
    while INTERRUPTED.load(Ordering::SeqCst) && !HANDLER.get() {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Kill what runs and run every cleanup, as on Ctrl-C.
fn interrupted() {
    // A command being started registers its group in a moment: wait for it
    // (bounded: a spawn that never returns must not hold the exit).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while SPAWNING.load(Ordering::SeqCst) > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    end_everything();
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "loki-gate: interrupted; stopped what it had started");
}

/// A command is about to be started: until the guard is dropped (after
/// [`started`]), an interruption waits for its group to be registered.
pub(crate) fn spawning() -> Spawning {
    SPAWNING.fetch_add(1, Ordering::SeqCst);
    Spawning
}

/// See [`spawning`].
pub(crate) struct Spawning;

impl Drop for Spawning {
    fn drop(&mut self) {
        SPAWNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A command's process group is running (see [`crate::process::run`]).
/// Started after an interruption was handled, it is killed at once.
pub(crate) fn started(group: u32) {
    let mut registry = registry();
    if (INTERRUPTED.load(Ordering::SeqCst) && !HANDLER.get()) || CUT.load(Ordering::SeqCst) {
        drop(registry);
        crate::platform::end_tree(group);
        return;
    }
    registry.groups.push(group);
}

/// The command's process group is gone.
pub(crate) fn finished(group: u32) {
    registry().groups.retain(|g| *g != group);
}

/// Run `task` if the process is interrupted while the returned guard lives.
/// Dropping the guard forgets the task without running it: the normal path
/// cleans up for itself.
#[must_use = "the task is forgotten when the guard is dropped"]
pub fn on_interrupt(task: impl FnMut() + Send + 'static) -> Registered {
    let mut registry = registry();
    let id = registry.next;
    registry.next += 1;
    registry.cleanups.push((id, Box::new(task)));
    Registered(id)
}

/// A task registered with [`on_interrupt`].
pub struct Registered(u64);

impl Drop for Registered {
    fn drop(&mut self) {
        registry().cleanups.retain(|(id, _)| *id != self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registered(guard: &Registered) -> bool {
        registry().cleanups.iter().any(|(id, _)| *id == guard.0)
    }

    #[test]
    fn a_task_is_registered_while_its_guard_lives() {
        let first = on_interrupt(|| {});
        let second = on_interrupt(|| {});
        assert!(registered(&first) && registered(&second));
        let id = first.0;
        drop(first);
        assert!(!registry().cleanups.iter().any(|(i, _)| *i == id));
        assert!(registered(&second));
    }
}
