//! What differs between operating systems, in one place. loki-gate builds
//! for Linux and macOS (Unix) and for Windows; everything not here is
//! portable std or a portable crate:
//!
//! - A command loki-gate starts runs in a process tree it can end whole (a
//!   test runner's workers, a linter's daemons): on Unix the command leads
//!   its own process group, and ending it sends SIGKILL to the group; on
//!   Windows it starts a new process group, and ending it runs `taskkill /T
//!   /F`, which ends the process and every descendant, while the process
//!   still runs (its id is not reused then).
//! - State files are locked with std's `File::lock` (flock on Unix,
//!   LockFileEx on Windows).
//! - Ctrl-C and termination reach [`crate::interrupt`] through the ctrlc
//!   crate (SIGINT, SIGTERM, SIGHUP on Unix; Ctrl-C, Ctrl-Break and a closed
//!   console on Windows).
//! - Commands from the configuration run with `sh -c` everywhere (Git for
//!   Windows puts `sh` on PATH); file paths from git are bytes on Unix and
//!   UTF-8 on Windows ([`crate::git`]).

use std::process::Command;

/// Start `cmd` as the root of a process tree [`end_tree`] can end.
#[cfg(unix)]
pub(crate) fn own_tree(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
}

/// Start `cmd` as the root of a process tree [`end_tree`] can end.
#[cfg(windows)]
pub(crate) fn own_tree(cmd: &mut Command) {
    use std::os::windows::process::CommandExt;
    /// CREATE_NEW_PROCESS_GROUP: the console's Ctrl-C goes to loki-gate,
    /// which ends the tree, as a Unix process group keeps it from the child.
    const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
    cmd.creation_flags(CREATE_NEW_PROCESS_GROUP);
}

/// End the process tree started by [`own_tree`] with root `pid`, whatever
/// is left of it (nothing happens when it is gone).
#[cfg(unix)]
pub(crate) fn end_tree(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) with a negative pid signals the process group
        // `own_tree` made this command the leader of.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// End the process tree started by [`own_tree`] with root `pid`, whatever
/// is left of it (nothing happens when it is gone).
#[cfg(windows)]
pub(crate) fn end_tree(pid: u32) {
    use std::process::Stdio;
    let _ = Command::new("taskkill")
        .args(["/T", "/F", "/PID", &pid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// After the root `pid` has exited and been waited for: end what it left
/// running. On Unix its process group outlives it and is ended; on Windows
/// the root's id may already belong to an unrelated process, so nothing is
/// done (descendants that outlive their parent are not tracked there).
#[cfg(unix)]
pub(crate) fn end_leftovers(pid: u32) {
    end_tree(pid);
}

/// See the Unix version: nothing, on Windows.
#[cfg(windows)]
pub(crate) fn end_leftovers(_pid: u32) {}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn ending_the_tree_ends_the_descendants_too() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("grandchild.pid");
        // The shell starts a grandchild that would outlive it, then waits.
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("sleep 30 & echo $! > '{}'; wait", marker.display()));
        own_tree(&mut cmd);
        let mut child = cmd.spawn().unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::fs::read_to_string(&marker).map_or(true, |s| !s.ends_with('\n')) {
            assert!(std::time::Instant::now() < deadline, "the grandchild never started");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let grandchild: i32 = std::fs::read_to_string(&marker).unwrap().trim().parse().unwrap();
        end_tree(child.id());
        child.wait().unwrap();
        // Running, as opposed to gone or a zombie waiting for a parent that
        // does not reap (PID 1 in some containers).
        let running = |pid: i32| {
            // SAFETY: signal 0 only asks whether the process exists.
            let exists = unsafe { libc::kill(pid, 0) } == 0;
            let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| stat.rsplit(')').next().map(|rest| rest.trim_start().starts_with('Z')))
                .unwrap_or(false);
            exists && !zombie
        };
        let gone = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while running(grandchild) {
            assert!(std::time::Instant::now() < gone, "the grandchild outlived the tree");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}
