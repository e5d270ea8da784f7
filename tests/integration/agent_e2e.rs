//! The real Claude Code CLI (`claude -p`, npm `@anthropic-ai/claude-code`,
//! pinned in `.ci/run`) with the hooks `loki-gate init --agent claude`
//! writes, offline, against a scripted fake model on 127.0.0.1
//! (`tests/fixtures/agents/fake_claude_model.py`): the model writes a hollow
//! test and claims done, loki-gate's Stop hook blocks it with the fix-next
//! list, the model fixes the test and is let through.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::agent::{FIXED, project};
use crate::support::path_with_binary;

/// A child process killed when the test ends, however it ends.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `claude` on the test's PATH; none is a failure, never a skip.
fn claude() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("claude"))
        .find(|bin| bin.is_file())
        .unwrap_or_else(|| {
            panic!(
                "`claude` (Claude Code 2.1.332, npm @anthropic-ai/claude-code) is not on PATH: \
                 .ci/run installs it into target/ci-tools/npm (put its node_modules/.bin on PATH)"
            )
        })
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Start the fake model for `root`; its port, once it listens.
fn fake_model(root: &Path, dir: &Path) -> (KillOnDrop, u16) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents/fake_claude_model.py");
    let port_file = dir.join("port");
    let child = Command::new("python3")
        .arg(&script)
        .arg("--root")
        .arg(root)
        .arg("--port-file")
        .arg(&port_file)
        .arg("--log")
        .arg(dir.join("requests.jsonl"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("server.err")).unwrap())
        .spawn()
        .expect("python3 runs the fake model");
    let mut server = KillOnDrop(child);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(port) = read(&port_file).trim().parse() {
            return (server, port);
        }
        if let Ok(Some(status)) = server.0.try_wait() {
            panic!("the fake model exited ({status}): {}", read(&dir.join("server.err")));
        }
        assert!(
            Instant::now() < deadline,
            "the fake model did not listen within 10 s: {}",
            read(&dir.join("server.err"))
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every string in `value`, depth first.
fn strings<'a>(value: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    match value {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

#[test]
fn claude_code_is_blocked_by_its_stop_hook_fixes_its_test_and_is_let_through() {
    let claude = claude();
    let repo = project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    let init = repo.run_env(
        &["init", "--agent", "claude"],
        &[("PATH", path_with_binary().to_str().unwrap())],
    );
    assert_eq!(init.code, 0, "{}", init.stderr);

    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let (_server, port) = fake_model(&repo.root(), work.path());

    // Nothing of this machine's environment but PATH (loki-gate's
    // directory first, as for a user who installed it; python3 with
    // pytest): no network but the fake, a fresh HOME, no update check.
    let (out, err) = (work.path().join("stdout"), work.path().join("stderr"));
    let child = Command::new(&claude)
        .args(["-p", "add a test for total", "--permission-mode", "acceptEdits"])
        .current_dir(repo.root())
        .env_clear()
        .env("PATH", path_with_binary())
        .env("HOME", &home)
        .env("TERM", "dumb")
        .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}"))
        .env("ANTHROPIC_API_KEY", "sk-ant-dummy")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        .env("DISABLE_BUG_COMMAND", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("{} runs: {e}", claude.display()));
    let mut claude_run = KillOnDrop(child);
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = claude_run.0.try_wait().unwrap() {
            break status;
        }
        let requests = read(&work.path().join("requests.jsonl")).lines().count();
        assert!(
            Instant::now() < deadline,
            "claude still running after 120 s ({requests} model requests)\n{}{}",
            read(&out),
            read(&err)
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let said = format!("stdout:\n{}\nstderr:\n{}", read(&out), read(&err));
    assert!(status.success(), "claude: {status}\n{said}");
    assert_eq!(read(&out).trim(), "Done.", "{said}");

    let requests: Vec<serde_json::Value> = read(&work.path().join("requests.jsonl"))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let bodies: Vec<Vec<&str>> = requests
        .iter()
        .map(|r| {
            let mut out = Vec::new();
            strings(&r["body"], &mut out);
            out
        })
        .collect();
    let seen = |needle: &str| bodies.iter().any(|b| b.iter().any(|s| s.contains(needle)));
    // SessionStart's context reached the model.
    assert!(seen("loki-gate gates this session's \"done\""), "{said}");
    // PostToolUse's advice on the hollow test reached the model.
    assert!(seen("loki-gate (mock) on tests/test_more.py"), "{said}");
    // The Stop hook's block reason came back as a user message.
    let fed_back = requests.iter().any(|r| {
        r["body"]["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "user")
            .any(|m| {
                let mut texts = Vec::new();
                strings(&m["content"], &mut texts);
                texts.iter().any(|t| {
                    t.contains("loki-gate stopped \"done\"") && t.contains("tests/test_more.py:4 [mock/smoke-test]")
                })
            })
    });
    assert!(
        fed_back,
        "no user message holds the Stop hook's reason ({} requests)",
        requests.len()
    );
    // Blocked once, not twice (Claude Code relays each block as "Stop hook
    // feedback" in a reminder, and again in the tool result's text); and
    // the model was never told how many stops remain.
    let last = requests.last().expect("requests were made");
    let mut texts = Vec::new();
    strings(&last["body"]["messages"], &mut texts);
    let reasons = texts
        .iter()
        .filter(|t| t.contains("Stop hook feedback:\nloki-gate stopped \"done\""))
        .count();
    assert_eq!(reasons, 1, "{said}");
    assert!(!seen("blocked stop"), "{said}");

    assert_eq!(repo.read("tests/test_more.py"), FIXED);
    let state: serde_json::Value = serde_json::from_str(&repo.read(".git/loki-gate/agent.json")).unwrap();
    let sessions = state["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{state}");
    let session = &sessions[0];
    assert_eq!(session["agent"], "claude", "{state}");
    assert_eq!(
        session["anchor"],
        base.as_str(),
        "SessionStart recorded the start: {state}"
    );
    assert_eq!(session["blocks"], 0, "let through at the end: {state}");
    assert_eq!(session["handoffs"], 0, "{state}");
    // The prompt hook kept what was asked.
    assert_eq!(session["prompts"][0]["text"], "add a test for total", "{state}");
    assert!(!repo.root().join(".loki-gate/handoff.md").exists());
}
