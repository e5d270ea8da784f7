//! Helpers shared by the benches: real git repositories and a timing loop.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git").args(args).current_dir(dir).output().expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A new repository on `main` in `dir`; returns its canonical path.
pub fn init(dir: &Path) -> PathBuf {
    let root = dir.canonicalize().expect("canonical");
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["config", "user.email", "bench@example.com"]);
    git(&root, &["config", "user.name", "bench"]);
    root
}

/// Let the index settle: files written in the same second as the index are
/// "racily clean" and re-hashed on every status, unlike in a real checkout.
pub fn settle(root: &Path) {
    std::thread::sleep(Duration::from_millis(1100));
    git(root, &["status", "--porcelain"]);
}

/// Run the loki-gate binary with `args` in `root`.
pub fn loki_gate(root: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_loki-gate"))
        .args(args)
        .current_dir(root)
        .output()
        .expect("binary")
}

pub fn say(line: &str) {
    std::io::Write::write_all(&mut std::io::stdout(), line.as_bytes()).expect("stdout");
}

/// What `getrusage` reports for `who` (this process, or the children it
/// waited for).
fn usage(who: libc::c_int) -> libc::rusage {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &raw mut usage) };
    usage
}

/// CPU time used so far by this process and the children it waited for.
fn cpu_time() -> Duration {
    let used = |who| {
        let usage = usage(who);
        let time = |t: libc::timeval| {
            Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
                + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
        };
        time(usage.ru_utime) + time(usage.ru_stime)
    };
    used(libc::RUSAGE_SELF) + used(libc::RUSAGE_CHILDREN)
}

/// The largest peak resident memory of any child process this one has
/// waited for so far, in MiB (Linux reports `ru_maxrss` in KiB).
fn child_peak_mib() -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let kib = usage(libc::RUSAGE_CHILDREN).ru_maxrss as f64;
    kib / 1024.0
}

/// Run `f` `runs` times after a warm-up; print the median and minimum
/// against `target`, and return the median.
pub fn measure(runs: usize, name: &str, target: Option<Duration>, f: impl FnMut()) -> Duration {
    measure_both(runs, name, target, f).0
}

/// [`measure`], also returning the median CPU time of a run (this process
/// and its children): on a shared machine, a steadier measure of the work
/// done than the wall clock.
pub fn measure_both(runs: usize, name: &str, target: Option<Duration>, mut f: impl FnMut()) -> (Duration, Duration) {
    f();
    let mut cpu = Vec::with_capacity(runs);
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let c = cpu_time();
            let t = Instant::now();
            f();
            let elapsed = t.elapsed();
            cpu.push(cpu_time().saturating_sub(c));
            elapsed
        })
        .collect();
    times.sort();
    cpu.sort();
    let median = times[runs / 2];
    let verdict = match target {
        Some(t) if median <= t => format!("target {} ms: ok", t.as_millis()),
        Some(t) => format!("target {} ms: MISSED", t.as_millis()),
        None => String::new(),
    };
    say(&format!(
        "{name:<58} median {:>8.2} ms  min {:>8.2} ms  cpu {:>8.2} ms  child peak {:>6.1} MiB  {verdict}\n",
        median.as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
        cpu[runs / 2].as_secs_f64() * 1e3,
        child_peak_mib()
    ));
    (median, cpu[runs / 2])
}
