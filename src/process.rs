//! Running external commands: captured output, a time limit, and the whole
//! process tree ended on timeout (a test runner's children included; how,
//! per OS, is [`crate::platform`]'s). What a command prints is capped
//! ([`output_cap`]): past it, the command is ended and the caller says so
//! as an error, never reading what was cut as a result.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// What a finished (or killed) command left behind.
#[derive(Debug, Clone)]
pub struct Output {
    /// The exit code; `None` when killed by a signal or the time limit.
    pub code: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    /// The stream (`stdout`, `stderr`) that went past [`output_cap`]: the
    /// command was ended there and what it printed is cut.
    pub overflow: Option<&'static str>,
}

impl Output {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// The error to give when the command printed more than
    /// [`output_cap`]; `what` names it (`ruff`, the test command).
    pub fn overflowed(&self, what: &str) -> Option<String> {
        let stream = self.overflow?;
        Some(format!(
            "{what} printed more than {} MiB on {stream}, the most loki-gate reads of a command's output (32 times max-file-bytes, at least 64 MiB): it was stopped; check what it is given, or raise max-file-bytes",
            output_cap() >> 20
        ))
    }
}

/// The most bytes read of one output stream of a command: 64 MiB, or 32
/// times the file size cap when that is raised (issue 54: a linter's
/// report on one 50 MB file took 1.86 GB).
pub fn output_cap() -> u64 {
    (crate::walk::max_file_bytes().saturating_mul(32)).max(64 << 20)
}

/// Run `command` with `sh -c` in `cwd`, with no stdin, for at most `timeout`.
pub fn run_shell(command: &str, cwd: &Path, timeout: Duration) -> Result<Output> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(command);
    run(cmd, cwd, timeout).with_context(|| format!("could not start `{command}`"))
}

/// Run a prepared command (see [`run_shell`]).
pub fn run(cmd: Command, cwd: &Path, timeout: Duration) -> Result<Output> {
    run_with_input(cmd, cwd, timeout, None)
}

/// Run a prepared command with `input` on its stdin (none: no stdin).
pub fn run_with_input(mut cmd: Command, cwd: &Path, timeout: Duration, input: Option<Vec<u8>>) -> Result<Output> {
    // Inside a git hook these name the repository being committed to (and
    // a temporary index): a test suite that makes its own repositories
    // would write into that one instead.
    for var in crate::git::LOCATION_VARS {
        cmd.env_remove(var);
    }
    cmd.current_dir(cwd)
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    crate::platform::own_tree(&mut cmd);
    let start = Instant::now();
    let spawning = crate::interrupt::spawning();
    let mut child = cmd.spawn()?;
    let pid = child.id();
    crate::interrupt::started(pid);
    drop(spawning);
    // A program that stops reading early (or never reads) must not stall the run.
    if let (Some(input), Some(mut pipe)) = (input, child.stdin.take()) {
        std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut pipe, &input);
        });
    }
    let out_pipe = child.stdout.take().expect("piped stdout");
    let err_pipe = child.stderr.take().expect("piped stderr");
    let cap = output_cap();
    let out_reader = std::thread::spawn(move || drain(out_pipe, cap, pid));
    let err_reader = std::thread::spawn(move || drain(err_pipe, cap, pid));
    // Wait on another thread so a fast command returns at once and a slow one
    // is killed (with its whole process group) the moment its time is up.
    let (done, waited) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait());
    });
    let (status, timed_out) = match waited.recv_timeout(timeout) {
        Ok(status) => (status.ok(), false),
        Err(_) => {
            crate::platform::end_tree(pid);
            (waited.recv().ok().and_then(Result::ok), true)
        }
    };
    // Whatever the command left running in its group would hold the pipes open.
    crate::platform::end_leftovers(pid);
    crate::interrupt::finished(pid);
    // Killed by an interruption: what it left is no result; the handler exits.
    crate::interrupt::hold_if_interrupted();
    let (stdout, out_over) = out_reader.join().unwrap_or_default();
    let (stderr, err_over) = err_reader.join().unwrap_or_default();
    let overflow = match (out_over, err_over) {
        (true, _) => Some("stdout"),
        (_, true) => Some("stderr"),
        _ => None,
    };
    Ok(Output {
        code: if timed_out || overflow.is_some() {
            None
        } else {
            status.and_then(|s| s.code())
        },
        timed_out,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed: start.elapsed(),
        overflow,
    })
}

/// Read `pipe` to its end, or to `cap` bytes: then the command (process
/// `pid` and its group) is ended and the read stops. The bytes, and
/// whether they went past the cap.
fn drain(pipe: impl Read, cap: u64, pid: u32) -> (Vec<u8>, bool) {
    let mut buf = Vec::new();
    let _ = pipe.take(cap + 1).read_to_end(&mut buf);
    let over = buf.len() as u64 > cap;
    if over {
        buf.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
        crate::platform::end_tree(pid);
    }
    (buf, over)
}

/// A time limit as a user reads it: `500ms`, `90s`.
pub fn humanize(d: Duration) -> String {
    if d.as_millis() < 1000 {
        format!("{}ms", d.as_millis())
    } else {
        format!("{}s", d.as_secs())
    }
}

/// `f` over `items` on at most `workers` threads (commands that mostly wait
/// on a subprocess or the network); results in item order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], workers: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<Option<R>>> = std::sync::Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = f(item);
                    done.lock().expect("no worker panics")[i] = Some(result);
                }
            });
        }
    });
    done.into_inner()
        .expect("no worker panics")
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_exit_code() {
        let out = run_shell(
            "echo out; echo err >&2; exit 3",
            Path::new("."),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(out.code, Some(3));
        assert_eq!(out.stdout, "out\n");
        assert_eq!(out.stderr, "err\n");
        assert!(!out.timed_out);
    }

    #[test]
    fn a_command_that_prints_past_the_cap_is_ended_and_says_so() {
        let cap = output_cap();
        let out = run_shell("yes 0123456789abcdef", Path::new("."), Duration::from_secs(60)).unwrap();
        assert_eq!(out.overflow, Some("stdout"));
        assert_eq!(out.code, None);
        assert!(!out.timed_out);
        assert_eq!(out.stdout.len() as u64, cap);
        let why = out.overflowed("yes").unwrap();
        assert!(why.starts_with("yes printed more than 64 MiB on stdout"), "{why}");
        let quiet = run_shell("echo hi", Path::new("."), Duration::from_secs(10)).unwrap();
        assert_eq!((quiet.overflow, quiet.overflowed("echo")), (None, None));
    }

    #[test]
    fn a_command_past_its_time_limit_is_killed_with_its_children() {
        let out = run_shell("sleep 30 & sleep 30", Path::new("."), Duration::from_millis(200)).unwrap();
        assert!(out.timed_out);
        assert_eq!(out.code, None);
        assert!(out.elapsed < Duration::from_secs(10));
    }
}
