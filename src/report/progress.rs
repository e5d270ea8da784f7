//! What is running and for how long: one spinner line on stderr, only when
//! stderr is a terminal and the run is not `--quiet`. It never touches
//! stdout (the report), and is cleared before anything is printed there.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The spinner of one run; inert when there is no terminal to draw on.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// What runs now, in the order it started.
    running: Mutex<Vec<&'static str>>,
}

impl Progress {
    /// A spinner on stderr when it is a terminal and `quiet` is off.
    pub fn start(quiet: bool) -> Progress {
        let shown = !quiet && std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        Progress::new(shown.then(ProgressDrawTarget::stderr))
    }

    /// A spinner drawn to `target` (none: nothing is drawn).
    pub fn new(target: Option<ProgressDrawTarget>) -> Progress {
        let bar = target.map(|target| {
            let bar = ProgressBar::with_draw_target(None, target);
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                    .expect("a valid template")
                    .tick_chars("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏ "),
            );
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
        Progress {
            bar,
            running: Mutex::new(Vec::new()),
        }
    }

    /// `gate` started.
    pub fn started(&self, gate: &'static str) {
        self.update(|running| running.push(gate));
    }

    /// `gate` finished.
    pub fn finished(&self, gate: &'static str) {
        self.update(|running| running.retain(|g| *g != gate));
    }

    fn update(&self, change: impl FnOnce(&mut Vec<&'static str>)) {
        let mut running = self.running.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        change(&mut running);
        if let Some(bar) = &self.bar {
            bar.set_message(if running.is_empty() {
                String::new()
            } else {
                format!("running {}", running.join(", "))
            });
        }
    }

    /// Run `print` with the spinner line cleared, so what it prints is never
    /// drawn over.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Take the spinner line away for good.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
