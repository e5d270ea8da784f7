//! Real git repositories in temp directories, and the binary run against them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

pub mod signing;

pub struct TestRepo {
    dir: TempDir,
}

/// What one run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The JSON report on stdout (`--format json`).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{}", self.stdout, self.stderr))
    }

    /// The one gate's object of a JSON report: the report itself, or the
    /// only gate of `check`'s several-gates shape.
    pub fn gate(&self) -> serde_json::Value {
        let json = self.json();
        match json["gates"].as_array() {
            Some(gates) if gates.len() == 1 => gates[0].clone(),
            _ => json,
        }
    }

    /// `rule severity path:line` of each finding of a one-gate JSON report.
    pub fn findings(&self) -> Vec<String> {
        self.gate()["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                format!(
                    "{} {} {}:{}",
                    f["rule"].as_str().unwrap(),
                    f["severity"].as_str().unwrap(),
                    f["path"].as_str().unwrap_or("-"),
                    f["line"].as_u64().unwrap_or(0)
                )
            })
            .collect()
    }

    /// [`Run::findings`], each followed by ` at-base` when the base had it
    /// (`at_base`, issue 52).
    pub fn marked(&self) -> Vec<String> {
        let json = self.gate();
        json["findings"]
            .as_array()
            .unwrap_or_else(|| panic!("no findings: {}{}", self.stdout, self.stderr))
            .iter()
            .map(|f| {
                format!(
                    "{} {} {}:{}{}",
                    f["rule"].as_str().unwrap(),
                    f["severity"].as_str().unwrap(),
                    f["path"].as_str().unwrap_or("-"),
                    f["line"].as_u64().unwrap_or(0),
                    if f["at_base"] == true { " at-base" } else { "" }
                )
            })
            .collect()
    }

    /// The notices of a one-gate JSON report.
    pub fn notices(&self) -> Vec<String> {
        self.gate()["notices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    }

    /// Exit code, stdout and stderr together, with volatile parts replaced, for snapshots.
    pub fn snapshot(&self, repo: &TestRepo) -> String {
        let text = format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        );
        repo.redact(&text)
    }
}

pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let mut cmd = Command::new("git");
    scrub_env(&mut cmd);
    let out = cmd
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

impl TestRepo {
    /// An empty repository (no commits) on branch `main`.
    pub fn empty() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("loki-gate-test")
            .tempdir()
            .expect("temp dir");
        let repo = TestRepo { dir };
        repo.git(&["init", "-q", "-b", "main"]);
        repo.git(&["config", "user.email", "test@example.com"]);
        repo.git(&["config", "user.name", "Test"]);
        repo.git(&["config", "commit.gpgsign", "false"]);
        repo
    }

    /// A repository with one commit holding `README.md`.
    pub fn new() -> Self {
        let repo = Self::empty();
        repo.write("README.md", "# demo\n");
        repo.commit("initial");
        repo
    }

    /// [`TestRepo::new`] with a base commit holding a README that says
    /// something and `shop.py`, whose `total` sums prices.
    pub fn shop() -> Self {
        let repo = Self::new();
        repo.write("README.md", "# shop\n\nA cart that sums prices.\n")
            .write("shop.py", "def total(xs):\n    return sum(xs)\n");
        repo.commit("base");
        repo
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().expect("canonical")
    }

    /// The per-commit cache directory under the state directory whose name
    /// starts with `family` (`imports-`), and its files' names, sorted.
    pub fn kept(&self, family: &str) -> (PathBuf, Vec<String>) {
        let cache = self.root().join(".loki-gate/cache");
        let dir = std::fs::read_dir(&cache)
            .unwrap()
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with(family))
            .unwrap_or_else(|| panic!("no {family}* directory in {}", cache.display()))
            .path();
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        (dir, names)
    }

    pub fn git(&self, args: &[&str]) -> String {
        git_in(self.path(), args)
    }

    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> &Self {
        let path = self.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
        self
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).expect("read")
    }

    /// Set a file's modification time `seconds` into the past.
    pub fn age(&self, rel: &str, seconds: u64) {
        let when = std::time::SystemTime::now() - std::time::Duration::from_secs(seconds);
        let file = std::fs::File::options()
            .write(true)
            .open(self.path().join(rel))
            .expect("open");
        file.set_modified(when).expect("set mtime");
    }

    pub fn remove(&self, rel: &str) {
        std::fs::remove_file(self.path().join(rel)).expect("remove");
    }

    /// Stage everything and commit.
    pub fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.git(&["rev-parse", "HEAD"])
    }

    /// The binary, run in the repository with a clean environment.
    pub fn cmd(&self) -> Command {
        let mut cmd = binary();
        cmd.current_dir(self.path());
        scrub_env(&mut cmd);
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Run {
        run_cmd(self.cmd().args(args))
    }

    pub fn run_env(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let mut cmd = self.cmd();
        for (k, v) in env {
            cmd.env(k, v);
        }
        run_cmd(cmd.args(args))
    }

    /// The binary run so that file permissions bind it: as root (which
    /// reads anything), through `setpriv` without the capabilities that
    /// bypass permissions. `None` when that cannot be arranged here.
    pub fn run_unprivileged(&self, args: &[&str]) -> Option<Run> {
        use std::os::unix::fs::MetadataExt;
        if std::fs::metadata(self.path()).ok()?.uid() != 0 {
            return Some(self.run(args));
        }
        let mut cmd = Command::new("setpriv");
        cmd.args(["--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"])
            .arg(assert_cmd::cargo::cargo_bin!("loki-gate"))
            .args(args)
            .current_dir(self.path());
        scrub_env(&mut cmd);
        let run = cmd
            .output()
            .ok()
            .filter(|out| !String::from_utf8_lossy(&out.stderr).starts_with("setpriv:"))?;
        Some(Run {
            code: run.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&run.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&run.stderr).into_owned(),
        })
    }

    /// Replace the temp path, commit ids and timings.
    pub fn redact(&self, text: &str) -> String {
        let mut text = text.replace(&self.root().display().to_string(), "[repo]");
        text = text.replace(&self.path().display().to_string(), "[repo]");
        let sha = regex::Regex::new(r"\b[0-9a-f]{12,40}\b").unwrap();
        let text = sha.replace_all(&text, "[sha]");
        let ms = regex::Regex::new(r#"("elapsed_ms": )\d+"#).unwrap();
        let text = ms.replace_all(&text, "${1}0");
        let secs = regex::Regex::new(r"\d+s older").unwrap();
        let text = secs.replace_all(&text, "[n]s older");
        text.replace(env!("CARGO_PKG_VERSION"), "[version]")
    }
}

/// What git sets for a hook to say where the repository is: a test suite
/// run from a hook must not gate the repository it was committed from.
const GIT_LOCATION: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_PREFIX",
    "GIT_COMMON_DIR",
];

/// Keep the environment of the test run (loki-gate's settings, a CI
/// runner's GITHUB_* and INPUT_*, NO_COLOR) away from `cmd`.
pub fn scrub_env(cmd: &mut Command) {
    for (key, _) in std::env::vars() {
        if key.starts_with("LOKI_GATE_")
            || key == "NO_COLOR"
            || key == "CI"
            || key.starts_with("GITHUB_")
            || key.starts_with("INPUT_")
            || GIT_LOCATION.contains(&key.as_str())
        {
            cmd.env_remove(key);
        }
    }
}

/// PATH with the directory of the binary under test first, as for a user
/// who installed it.
pub fn path_with_binary() -> std::ffi::OsString {
    let bin = Path::new(assert_cmd::cargo::cargo_bin!("loki-gate"))
        .parent()
        .expect("the binary's directory")
        .to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&rest))).expect("a PATH")
}

/// A finished process's stdout then stderr, as text.
pub fn output_text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The loki-gate binary under test.
pub fn binary() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin!("loki-gate"))
}

pub fn run_cmd(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Wait until process `pid` is gone or a zombie (killed, not yet reaped:
/// it runs nothing). SIGKILL is delivered asynchronously, so a loaded
/// machine may take a moment to end it; `Err` with its `/proc` stat line
/// when it is still alive after 5 s.
#[cfg(unix)]
pub fn wait_until_dead(pid: &str) -> Result<(), String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        if state.split_whitespace().nth(2).is_none_or(|s| s == "Z") {
            return Ok(());
        }
        if std::time::Instant::now() >= deadline {
            return Err(state);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A test command that reports `passed` and `failed` tests like libtest and exits accordingly.
pub fn fake_tests(passed: u32, failed: u32) -> String {
    let code = if failed > 0 { 101 } else { 0 };
    let failing: String = (0..failed)
        .map(|i| format!("echo 'test suite::case_{i} ... FAILED'; "))
        .collect();
    format!(
        "{failing}echo 'test result: {}. {passed} passed; {failed} failed; 0 ignored; 0 measured; 0 filtered out'; exit {code}",
        if failed > 0 { "FAILED" } else { "ok" }
    )
}

/// A `package.json` whose tests run with tape (`test/*.js`).
pub const TAPE_PACKAGE_JSON: &str = "{\"name\":\"m\",\"version\":\"1.0.0\",\"scripts\":{\"test\":\"tape test/*.js\"},\"devDependencies\":{\"tape\":\"4\"}}\n";
