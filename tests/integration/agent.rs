//! `loki-gate agent`: each coding agent's hook input (`tests/fixtures/agents/`)
//! through the binary on a real repository, with the exact answer in that
//! agent's protocol; a scripted loop that is blocked, fixes its test and is
//! let through; one that cannot and is handed to a person; and
//! `init --agent` merging into the agents' settings files.

use std::io::Write as _;
use std::process::Stdio;

use crate::support::{Run, TestRepo};

const AGENTS: [&str; 4] = ["claude", "codex", "cursor", "gemini"];

/// A Python project with one real test, its config telling evidence how to
/// run the tests, committed as the base.
pub(crate) fn project() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".pytest_cache/\n__pycache__/\n")
        .write("README.md", "# shop\n\nA cart.\n")
        .write(
            ".loki-gate.yaml",
            "gates:\n  evidence:\n    test-command: python3 -m pytest -q -p no:cacheprovider\n",
        )
        .write("pyproject.toml", "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n")
        .write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            "tests/test_cart.py",
            "from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
        );
    repo.commit("base");
    repo
}

/// The fixture `name`, filled in for `repo`.
fn payload(repo: &TestRepo, name: &str, file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/agents")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cwd = repo.root().display().to_string();
    text.replace("{{CWD}}", &cwd)
        .replace("{{FILE}}", &format!("{cwd}/{file}"))
        .replace("{{CONTENT}}", "")
        .replace("{{HOME}}", "/home/dev")
}

/// Run `loki-gate agent <event> --agent <agent>` from outside the
/// repository (the agent's input says where it works), `input` on stdin.
fn hook(repo: &TestRepo, agent: &str, event: &str, input: &str) -> Run {
    hook_env(repo, agent, event, input, &[])
}

fn hook_env(repo: &TestRepo, agent: &str, event: &str, input: &str, env: &[(&str, &str)]) -> Run {
    let mut cmd = repo.cmd();
    cmd.envs(env.iter().copied());
    cmd.current_dir(std::env::temp_dir())
        .args(["agent", event, "--agent", agent])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .expect("stdin takes the input");
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The fixture event `event` of `agent` through the binary.
fn event(repo: &TestRepo, agent: &str, event: &str, file: &str) -> Run {
    hook(repo, agent, event, &payload(repo, &format!("{agent}-{event}"), file))
}

fn answer(run: &Run) -> serde_json::Value {
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    if run.stdout.is_empty() {
        return serde_json::Value::Null;
    }
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

const HOLLOW: &str = "from shop.cart import total\n\n\ndef test_more():\n    total([1])\n";
pub(crate) const FIXED: &str = "from shop.cart import total\n\n\ndef test_more():\n    assert total([1]) == 1\n";

/// Check `answer` against the schema Codex ships for `event`'s output.
fn codex_accepts(repo: &TestRepo, event: &str, answer: &str) {
    let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "tests/fixtures/agents/codex-schemas/{event}.command.output.schema.json"
    ));
    let file = repo.root().join(format!(".answer-{event}.json"));
    std::fs::write(&file, answer).unwrap();
    let out = std::process::Command::new("check-jsonschema")
        .arg("--schemafile")
        .arg(&schema)
        .arg(&file)
        .output()
        .expect("check-jsonschema is installed (.ci/run)");
    std::fs::remove_file(&file).unwrap();
    assert!(
        out.status.success(),
        "{event}: {answer}\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn each_agent_is_answered_in_its_own_protocol() {
    for agent in AGENTS {
        let repo = project();
        // Session start: the anchor, and what "done" will be held to.
        let start = event(&repo, agent, "session-start", "");
        let said = answer(&start);
        if agent == "cursor" {
            assert_eq!(said, serde_json::Value::Null, "{agent}");
        } else {
            assert_eq!(said["hookSpecificOutput"]["hookEventName"], "SessionStart", "{agent}");
            let context = said["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
            assert!(
                context.starts_with("loki-gate gates this session's \"done\". When you stop after changing files, your changes since the session started must pass "),
                "{agent}: {context}"
            );
            assert!(
                context.contains("must pass evidence, mock, mutation, docs, static"),
                "{context}"
            );
        }
        if agent == "codex" {
            codex_accepts(&repo, "session-start", &start.stdout);
        }

        // The "model" writes a hollow test: advice after the edit.
        repo.write("tests/test_more.py", HOLLOW);
        let edit = event(&repo, agent, "post-edit", "tests/test_more.py");
        let advice = answer(&edit);
        if agent == "cursor" {
            assert_eq!(advice, serde_json::Value::Null);
        } else {
            let text = advice["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
            assert!(
                text.starts_with("loki-gate (mock) on tests/test_more.py"),
                "{agent}: {text}"
            );
            assert!(
                text.contains("- line 4: [mock/smoke-test] test `test_more` asserts nothing"),
                "{text}"
            );
        }
        if agent == "codex" {
            codex_accepts(&repo, "post-tool-use", &edit.stdout);
        }

        // It claims done: blocked, the test named.
        let stop = event(&repo, agent, "stop", "");
        let blocked = answer(&stop);
        let reason = match agent {
            "cursor" => blocked["followup_message"].as_str().unwrap().to_string(),
            _ => {
                assert_eq!(blocked["decision"], "block", "{agent}");
                assert_eq!(
                    blocked.as_object().unwrap().len(),
                    2,
                    "only decision and reason: {blocked}"
                );
                blocked["reason"].as_str().unwrap().to_string()
            }
        };
        assert!(
            reason.starts_with("loki-gate stopped \"done\": 1 problem to fix before the work is done.\n\n1. tests/test_more.py:4 [mock/smoke-test] test `test_more` asserts nothing"),
            "{agent}: {reason}"
        );
        // Two gates on one line are one problem.
        assert!(
            reason
                .contains("\n   Also flagged there: [mutation/low-assertion-density] the 1 test(s) this change added"),
            "{reason}"
        );
        // The model is never told how many stops remain before a person takes over.
        assert!(!reason.contains("blocked stop"), "{reason}");
        assert!(!reason.contains("goes to a person"), "{reason}");
        if agent == "codex" {
            codex_accepts(&repo, "stop", &stop.stdout);
        }

        // It fixes the test and stops again (the agent marks the stop as
        // one after a block): let through, nothing said.
        repo.write("tests/test_more.py", FIXED);
        let repeated = payload(&repo, &format!("{agent}-stop"), "")
            .replace("\"stop_hook_active\": false", "\"stop_hook_active\": true")
            .replace("\"loop_count\": 0", "\"loop_count\": 1");
        assert_ne!(repeated, payload(&repo, &format!("{agent}-stop"), ""), "{agent}");
        let again = hook(&repo, agent, "stop", &repeated);
        assert_eq!(answer(&again), serde_json::Value::Null, "{agent}: {}", again.stderr);
        assert_eq!(again.stderr, "", "{agent}: nothing on stderr either (Gemini reads it)");
    }
}

#[test]
fn input_it_cannot_read_never_blocks_but_a_stop_it_cannot_judge_does() {
    let repo = project();
    let tmp = tempfile::tempdir().unwrap();
    let env = [("TMPDIR", tmp.path().to_str().unwrap())];
    for (agent, input, first) in [
        (
            "claude",
            "",
            "error: loki-gate agent session-start --agent claude: no answer (the agent goes on as if the hook were not there): nothing on stdin",
        ),
        (
            "gemini",
            "not json",
            "error: loki-gate agent session-start --agent gemini: no answer (the agent goes on as if the hook were not there): stdin is not JSON",
        ),
        (
            "codex",
            "[]",
            "error: loki-gate agent session-start --agent codex: no answer (the agent goes on as if the hook were not there): stdin is not a JSON object",
        ),
        (
            "cursor",
            "{\"hook_event_name\":\"sessionStart\"}",
            "error: loki-gate agent session-start --agent cursor: no answer (the agent goes on as if the hook were not there): the input has no `conversation_id`",
        ),
    ] {
        // Any hook but the stop: 1, a failed hook to every agent, never 2
        // (a block to three of them).
        let run = hook_env(&repo, agent, "session-start", input, &env);
        assert_eq!(run.code, 1, "{agent}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{agent}");
        assert!(run.stderr.starts_with(first), "{agent}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        // The stop fails closed: a block naming what went wrong.
        let stop = answer(&hook_env(&repo, agent, "stop", input, &env));
        let reason = match agent {
            "cursor" => stop["followup_message"].as_str(),
            _ => stop["reason"].as_str(),
        }
        .unwrap_or_else(|| panic!("{agent}: {stop}"));
        assert!(
            reason.starts_with("loki-gate could not judge your work, so it is not done: "),
            "{agent}: {reason}"
        );
    }
    // The hook wired to the wrong event.
    let run = hook(&repo, "claude", "post-edit", &payload(&repo, "claude-stop", ""));
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("got a `Stop` event, not `PostToolUse`: the hook is wired to the wrong event; run `loki-gate init --agent claude` again"),
        "{}",
        run.stderr
    );
    // An agent loki-gate does not know: a usage error, exit 1 all the same.
    let run = hook(&repo, "aider", "stop", "{}");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("invalid value 'aider' for '--agent <AGENT>'"),
        "{}",
        run.stderr
    );
    // A Cursor stop the user aborted claims nothing: let through.
    let aborted = payload(&repo, "cursor-stop", "").replace("\"completed\"", "\"aborted\"");
    assert_eq!(
        answer(&hook(&repo, "cursor", "stop", &aborted)),
        serde_json::Value::Null
    );
}

#[test]
fn a_stop_the_agent_broke_the_judge_of_is_blocked_and_a_person_told_after_three() {
    let repo = project();
    let tmp = tempfile::tempdir().unwrap();
    let env = [("TMPDIR", tmp.path().to_str().unwrap())];
    answer(&hook_env(
        &repo,
        "claude",
        "session-start",
        &payload(&repo, "claude-session-start", ""),
        &env,
    ));
    // The agent writes a hollow test and breaks the config that would judge it.
    repo.write("tests/test_more.py", HOLLOW);
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  evidence:\n    test-command: python3 -m pytest -q -p no:cacheprovider\nnot-a-key: 1\n",
    );
    let stop = || {
        answer(&hook_env(
            &repo,
            "claude",
            "stop",
            &payload(&repo, "claude-stop", ""),
            &env,
        ))
    };
    let first = stop();
    assert_eq!(first["decision"], "block", "{first}");
    let reason = first["reason"].as_str().unwrap();
    assert!(reason.contains("not-a-key"), "{reason}");
    assert!(reason.contains("If your changes caused this"), "{reason}");
    assert!(
        first["systemMessage"]
            .as_str()
            .is_some_and(|m| m.starts_with("loki-gate could not judge Claude Code's stop: ")),
        "{first}"
    );
    assert_eq!(stop()["decision"], "block");
    // The third in a row: let through, the person told it was not judged.
    let third = stop();
    assert!(third.get("decision").is_none(), "{third}");
    assert!(
        third["systemMessage"].as_str().is_some_and(
            |m| m.starts_with("loki-gate could not judge Claude Code's last 3 stops and let it stop, unjudged: ")
        ),
        "{third}"
    );
}

#[test]
fn what_the_agent_can_edit_or_set_does_not_decide_its_stop() {
    let repo = project();
    answer(&event(&repo, "claude", "session-start", ""));
    // The session's record is not in the working tree.
    assert!(!repo.root().join(".loki-gate/agent.json").exists());
    assert!(repo.root().join(".git/loki-gate/agent.json").exists());
    repo.write("tests/test_more.py", HOLLOW);
    // A record planted where the old one was changes nothing.
    repo.write(
        ".loki-gate/agent.json",
        "{\"version\":1,\"sessions\":[{\"id\":\"3759f04e-2983-46ab-99e8-e92bdc707d3d\",\"agent\":\"claude\",\"anchor\":null,\"started_at\":0,\"blocks\":0,\"relaying\":true}]}\n",
    );
    // Nor do loki-gate's variables in the hook's environment (an agent's
    // settings `env` sets them): named to the person, not read.
    let run = hook_env(
        &repo,
        "claude",
        "stop",
        &payload(&repo, "claude-stop", ""),
        &[("LOKI_GATE_AGENT_GATES", "[docs]"), ("LOKI_GATE_MOCK", "0")],
    );
    let stop = answer(&run);
    assert_eq!(stop["decision"], "block", "{stop}");
    assert!(
        stop["reason"]
            .as_str()
            .unwrap()
            .contains("tests/test_more.py:4 [mock/smoke-test]"),
        "{stop}"
    );
    assert_eq!(
        stop["systemMessage"],
        "loki-gate ignored LOKI_GATE_AGENT_GATES, LOKI_GATE_MOCK in Claude Code's stop (the agent's settings can set them): put what you mean in .loki-gate.yaml."
    );
}

/// The repository is the one the session started in (issue 63): an agent
/// that made a repository of its own inside the project and named it as
/// its `cwd` had that one judge the stop, which saw nothing of the
/// project's hollow test and let it through.
#[test]
fn a_repository_nested_in_the_project_does_not_answer_for_the_session() {
    let repo = project();
    answer(&event(&repo, "claude", "session-start", ""));
    repo.write("tests/test_more.py", HOLLOW);
    let nested = repo.root().join("scratch");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::write(nested.join("notes.txt"), "x\n").unwrap();
    for args in [
        &["init", "-q"][..],
        &["add", "."],
        &["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "x"],
    ] {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(&nested)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    let root = repo.root().display().to_string();
    let input = payload(&repo, "claude-stop", "").replace(&format!("\"{root}\""), &format!("\"{root}/scratch\""));
    assert!(input.contains("/scratch\""), "{input}");
    let stop = answer(&hook(&repo, "claude", "stop", &input));
    assert_eq!(stop["decision"], "block", "{stop}");
    assert!(
        stop["reason"].as_str().unwrap().contains("tests/test_more.py:4"),
        "{stop}"
    );
    assert!(
        stop["systemMessage"]
            .as_str()
            .unwrap()
            .contains("where it started, not in"),
        "{stop}"
    );
}

/// In the agent's stop the tools come from PATH only, as in CI (issue 63):
/// a gitignored `.venv/bin/ruff` that prints `[]` answered for ruff, and
/// the agent's unused import passed.
#[test]
fn a_tool_planted_in_the_workspace_does_not_answer_for_the_real_one() {
    if which::which("ruff").is_err() {
        panic!("ruff is on PATH (.ci/run installs it)");
    }
    let repo = project();
    repo.write(".gitignore", ".pytest_cache/\n__pycache__/\n.venv/\n")
        .write(
            ".loki-gate.yaml",
            "agent-gates: [static]\ngates:\n  static:\n    tools: [ruff]\n",
        );
    repo.commit("ruff");
    repo.write(".venv/bin/ruff", "#!/bin/sh\necho '[]'\n");
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(
        repo.root().join(".venv/bin/ruff"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    answer(&event(&repo, "claude", "session-start", ""));
    repo.write("shop/cart.py", "import os\n\n\ndef total(xs):\n    return sum(xs)\n");
    let stop = answer(&event(&repo, "claude", "stop", ""));
    assert_eq!(stop["decision"], "block", "{stop}");
    assert!(stop["reason"].as_str().unwrap().contains("shop/cart.py:1"), "{stop}");
    assert!(stop["reason"].as_str().unwrap().contains("F401"), "{stop}");
}

/// A file git was told not to look at is in the session's diff as it is
/// on disk (issue 63): a hollowed test hidden with `git update-index
/// --skip-worktree` (or `--assume-unchanged`) was not in the diff, and the
/// stop let the agent through.
#[test]
fn a_test_hidden_from_git_is_still_in_the_sessions_diff() {
    for flag in ["--skip-worktree", "--assume-unchanged"] {
        let repo = project();
        answer(&event(&repo, "claude", "session-start", ""));
        repo.write(
            "tests/test_cart.py",
            "from shop.cart import total\n\n\ndef test_total():\n    total([1, 2])\n",
        );
        repo.git(&["update-index", flag, "tests/test_cart.py"]);
        assert_eq!(
            repo.git(&["status", "--porcelain"]).trim(),
            "",
            "{flag}: git sees no change"
        );
        let stop = answer(&event(&repo, "claude", "stop", ""));
        assert_eq!(stop["decision"], "block", "{flag}: {stop}");
        assert!(
            stop["reason"]
                .as_str()
                .unwrap()
                .contains("tests/test_cart.py:4 [mock/smoke-test]"),
            "{flag}: {stop}"
        );
    }
}

#[test]
fn a_question_only_session_is_never_blocked_and_the_person_is_told_once() {
    for agent in ["claude", "codex", "gemini"] {
        let repo = project();
        // The person's own uncommitted work before the session: theirs.
        repo.write("NOTES.md", "todo\n");
        answer(&event(&repo, agent, "session-start", ""));
        let answers: Vec<serde_json::Value> = (0..7).map(|_| answer(&event(&repo, agent, "stop", ""))).collect();
        assert_eq!(
            answers[0],
            serde_json::json!({"systemMessage": "loki-gate: nothing changed since the session started, so this stop claims nothing done; it is let through (said once a session)."}),
            "{agent}"
        );
        for later in &answers[1..] {
            assert_eq!(*later, serde_json::Value::Null, "{agent}: {later}");
        }
        assert!(!repo.root().join(".loki-gate/handoff.md").exists(), "{agent}");
        let state: serde_json::Value = serde_json::from_str(&repo.read(".git/loki-gate/agent.json")).unwrap();
        assert_eq!(state["sessions"][0]["blocks"], 0, "{state}");
    }
}

/// `refs/loki-gate/sessions/..`: the refs loki-gate keeps, and nothing else
/// of the user's moved (branches, index, stash).
fn refs(repo: &TestRepo) -> String {
    repo.git(&["for-each-ref", "--format=%(refname)"])
}

#[test]
fn a_session_is_judged_from_the_working_tree_it_started_with() {
    let repo = project();
    // Before the session, the person left a hollow test and a staged edit uncommitted.
    repo.write("tests/test_mine.py", HOLLOW.replace("test_more", "test_mine"));
    repo.write("shop/cart.py", "def total(xs):\n    return sum(xs)\n\n\nX = 1\n");
    repo.git(&["add", "shop/cart.py"]);
    let index_before = repo.git(&["ls-files", "--stage", "-s"]);
    let status_before = repo.git(&["status", "--porcelain"]);
    answer(&event(&repo, "claude", "session-start", ""));
    // The user's index, branches and stash are as they were; one ref more.
    assert_eq!(repo.git(&["ls-files", "--stage", "-s"]), index_before);
    assert_eq!(repo.git(&["status", "--porcelain"]), status_before);
    assert_eq!(repo.git(&["stash", "list"]), "");
    let kept = refs(&repo);
    assert!(
        kept.contains("refs/heads/main\nrefs/loki-gate/sessions/claude-"),
        "{kept}"
    );
    // The agent adds a real test: let through, though the person's hollow
    // test is still there (it is theirs; CI judges it).
    repo.write("tests/test_more.py", FIXED);
    let stop = event(&repo, "claude", "stop", "");
    assert_eq!(answer(&stop), serde_json::Value::Null, "{}", stop.stderr);
    // Now the agent writes a hollow test of its own: blocked for that one only.
    repo.write("tests/test_other.py", HOLLOW.replace("test_more", "test_other"));
    let blocked = answer(&event(&repo, "claude", "stop", ""));
    let reason = blocked["reason"].as_str().unwrap();
    assert!(reason.contains("tests/test_other.py:4 [mock/smoke-test]"), "{reason}");
    assert!(!reason.contains("test_mine"), "{reason}");
    // CI still judges everything against the trusted base.
    let ci = repo.run_env(&["check", "--gates", "mock", "--base", "HEAD"], &[("CI", "true")]);
    assert!(ci.stdout.contains("tests/test_mine.py"), "{}", ci.stdout);
}

#[test]
fn an_agent_that_undoes_its_blocked_change_is_let_through() {
    let repo = project();
    answer(&event(&repo, "claude", "session-start", ""));
    // Bend: the test's expectation changed with the code.
    repo.write("shop/cart.py", "def total(xs):\n    return sum(xs) + 1\n");
    repo.write(
        "tests/test_cart.py",
        "from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 4\n",
    );
    let blocked = answer(&event(&repo, "claude", "stop", ""));
    assert_eq!(blocked["decision"], "block", "{blocked}");
    // Revert.
    repo.git(&["checkout", "--", "."]);
    let stop = answer(&event(&repo, "claude", "stop", ""));
    assert_eq!(
        stop,
        serde_json::json!({"systemMessage": "loki-gate let Claude Code stop: the work it blocked was undone (nothing changed since the session started)."})
    );
}

#[test]
fn a_stop_of_a_session_loki_gate_did_not_see_start_is_judged_from_head_and_says_so() {
    let repo = project();
    repo.write("tests/test_more.py", HOLLOW);
    let first = answer(&event(&repo, "claude", "stop", ""));
    assert_eq!(first["decision"], "block", "{first}");
    assert_eq!(
        first["systemMessage"],
        "loki-gate did not see this Claude Code session start (its hooks were added or trusted since): its work is judged from HEAD, uncommitted changes included."
    );
    repo.write("tests/test_more.py", FIXED);
    // Said once: the session is known from here on.
    assert_eq!(answer(&event(&repo, "claude", "stop", "")), serde_json::Value::Null);
    // Gemini CLI would show the message instead of the block's reason: it
    // gets the reason alone.
    let repo = project();
    repo.write("tests/test_more.py", HOLLOW);
    let gemini = answer(&event(&repo, "gemini", "stop", ""));
    assert_eq!(gemini["decision"], "block", "{gemini}");
    assert!(gemini.get("systemMessage").is_none(), "{gemini}");
}

#[test]
fn the_persons_uncommitted_setup_is_theirs_and_they_are_told_at_the_start() {
    let repo = project();
    // The person ran `init --agent claude` and lowered a gate, uncommitted.
    let init = repo.run_env(
        &["init", "--agent", "claude"],
        &[("PATH", crate::support::path_with_binary().to_str().unwrap())],
    );
    assert_eq!(init.code, 0, "{}", init.stderr);
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  evidence:\n    test-command: python3 -m pytest -q -p no:cacheprovider\n  static:\n    enabled: false\n",
    );
    let start = answer(&event(&repo, "claude", "session-start", ""));
    let told = start["systemMessage"].as_str().unwrap_or_else(|| panic!("{start}"));
    assert!(
        told.starts_with("loki-gate: your uncommitted changes lower the bar (.loki-gate.yaml:"),
        "{told}"
    );
    assert!(
        told.contains("commit them, and pre-push and CI judge them against the base"),
        "{told}"
    );
    let context = start["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(!context.contains(".loki-gate.yaml"), "the model is not told: {context}");
    // It is told the gates its stop will run: the person's config decides.
    assert!(
        context.contains("must pass evidence, mock, mutation, docs:"),
        "{context}"
    );
    // The agent writes a hollow test: blocked for the test, not the config.
    repo.write("tests/test_more.py", HOLLOW);
    let blocked = answer(&event(&repo, "claude", "stop", ""));
    let reason = blocked["reason"].as_str().unwrap();
    assert!(reason.contains("tests/test_more.py:4 [mock/smoke-test]"), "{reason}");
    assert!(!reason.contains(".loki-gate.yaml"), "{reason}");
    assert!(!reason.contains("Held for a person"), "{reason}");
    assert!(blocked.get("systemMessage").is_none(), "{blocked}");
}

/// The next session start says what was edited of the agent's own hooks
/// (issue 63): a stop hook an earlier session took out of the settings,
/// uncommitted, is named to the person (CI holds it once committed).
#[test]
fn a_stop_hook_taken_out_of_the_settings_is_told_at_the_next_start() {
    let repo = project();
    let init = repo.run_env(
        &["init", "--agent", "claude"],
        &[("PATH", crate::support::path_with_binary().to_str().unwrap())],
    );
    assert_eq!(init.code, 0, "{}", init.stderr);
    repo.commit("wire Claude Code");
    let mut settings: serde_json::Value = serde_json::from_str(&repo.read(".claude/settings.json")).unwrap();
    settings["hooks"].as_object_mut().unwrap().remove("Stop");
    repo.write(
        ".claude/settings.json",
        serde_json::to_string_pretty(&settings).unwrap(),
    );
    let start = answer(&event(&repo, "claude", "session-start", ""));
    let told = start["systemMessage"].as_str().unwrap_or_else(|| panic!("{start}"));
    assert!(
        told.starts_with("loki-gate: your uncommitted changes lower the bar (.claude/settings.json"),
        "{told}"
    );
}

#[test]
fn the_agent_cannot_unblock_itself_by_lowering_the_bar() {
    let repo = project();
    answer(&event(&repo, "claude", "session-start", ""));
    repo.write("tests/test_more.py", HOLLOW);
    answer(&event(&repo, "claude", "stop", ""));
    // Told to fix it, it silences the rule instead: in its own config, and inline.
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  evidence:\n    test-command: python3 -m pytest -q -p no:cacheprovider\nagent-strict-rules: []\n",
    )
    .write(
        "tests/test_more.py",
        "from shop.cart import total\n\n\ndef test_more():  # loki-gate: allow(mock/smoke-test) it only has to run\n    total([1])\n",
    );
    let stop = answer(&event(&repo, "claude", "stop", ""));
    let reason = stop["reason"].as_str().unwrap();
    assert!(
        reason.contains("Held for a person: the change lowers the bar (a suppression, a config or test-pattern edit, a skip). You cannot clear these yourself; undo them and fix the code or test instead:"),
        "{reason}"
    );
    assert!(reason.contains("- .loki-gate.yaml"), "{reason}");
    assert!(
        reason.contains("`agent-strict-rules: []` lowers the bar the base set"),
        "{reason}"
    );
    assert!(reason.contains("tests/test_more.py:4 [meta/waiver-added]"), "{reason}");
}

#[test]
fn an_agent_whose_findings_keep_changing_is_handed_over_at_the_cap() {
    let repo = project();
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  evidence:\n    test-command: python3 -m pytest -q -p no:cacheprovider\nagent-max-blocks: 2\n",
    );
    repo.commit("at most two blocks");
    answer(&event(&repo, "codex", "session-start", ""));
    // Each stop leaves another hollow test: progress to no-progress, but
    // over the cap.
    let mut answers = Vec::new();
    for round in 0..5 {
        repo.write(
            "tests/test_more.py",
            HOLLOW.replace("test_more", &format!("test_more_{round}")),
        );
        answers.push(answer(&event(&repo, "codex", "stop", "")));
    }
    assert_eq!(answers[0]["decision"], "block");
    assert_eq!(answers[1]["decision"], "block");
    // The third blocked stop hands over: the person is told where the
    // handoff is, and the agent is asked, in one last block, to tell them
    // (a headless run prints only its last words).
    let handoff = repo.root().join(".loki-gate/handoff.md");
    assert_eq!(
        answers[2],
        serde_json::json!({
            "decision": "block",
            "reason": format!(
                "loki-gate has handed this work to the user: it is not done, and it is theirs to decide now. Do not change any file. End your turn with a short message to the user saying that loki-gate handed the work to them because it was blocked too many times in a row, that {} says what was asked, each blocked stop and their options, and list what still blocks in a line or two.",
                handoff.display()
            ),
            "systemMessage": format!(
                "loki-gate let Codex stop: its stop was blocked 3 times in a row (agent-max-blocks: 2). The work is handed to you: {} (what was asked, each blocked stop, your options). To stop gating Codex here: loki-gate hook uninstall --agent codex",
                handoff.display()
            )
        })
    );
    codex_accepts(&repo, "stop", &serde_json::to_string(&answers[2]).unwrap());
    let written = std::fs::read_to_string(&handoff).unwrap();
    assert!(
        written.starts_with("# loki-gate: Codex is stuck, handing off\n"),
        "{written}"
    );
    assert!(written.contains("## The blocked stops (3)"), "{written}");
    assert!(
        written.contains("tests/test_more.py:4 [mock/smoke-test] test `test_more_2`"),
        "{written}"
    );
    // The stop after it goes through; then the count starts over.
    assert_eq!(answers[3], serde_json::Value::Null);
    assert_eq!(answers[4]["decision"], "block", "{}", answers[4]);
}

#[test]
fn an_agent_that_makes_no_progress_is_handed_over_with_the_task() {
    let repo = project();
    answer(&event(&repo, "claude", "session-start", ""));
    let mut asked: serde_json::Value = serde_json::from_str(&payload(&repo, "claude-prompt", "")).unwrap();
    asked["prompt"] = "add a test for total".into();
    answer(&hook(&repo, "claude", "prompt", &asked.to_string()));
    let mut answers = Vec::new();
    for round in 0..3 {
        // Another comment each time, the same hollow test: no progress.
        repo.write("tests/test_more.py", format!("{HOLLOW}\n# try {round}\n"));
        answers.push(answer(&event(&repo, "claude", "stop", "")));
    }
    assert_eq!(answers[0]["decision"], "block");
    assert_eq!(answers[1]["decision"], "block");
    let told = answers[2]["systemMessage"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", answers[2]));
    let relay = answers[2]["reason"].as_str().unwrap();
    assert!(
        relay.starts_with("loki-gate has handed this work to the user"),
        "{relay}"
    );
    // The model is told no count, no threshold.
    let path = repo.root().join(".loki-gate/handoff.md").display().to_string();
    let words = relay.replace(&path, "");
    assert!(!words.contains("agent-no-progress") && !words.contains('3'), "{relay}");
    assert!(
        told.starts_with("loki-gate let Claude Code stop: no progress: the same findings blocked its last 3 stops (agent-no-progress: 3)."),
        "{told}"
    );
    let written = repo.read(".loki-gate/handoff.md");
    for part in [
        "## The task\n\n> add a test for total\n",
        "## The blocked stops (3)\n",
        "## What still blocks\n",
        "## What you can do\n",
        "## What the loop waits for\n",
        "`loki-gate hook uninstall --agent claude`",
    ] {
        assert!(written.contains(part), "{part}: {written}");
    }
}

#[test]
fn a_handoff_opens_the_github_issue_where_a_token_is_set() {
    use wiremock::matchers::{body_string_contains, method, path, query_param};
    use wiremock::{Mock, ResponseTemplate};
    let api = crate::github::Api::start();
    api.mount(
        Mock::given(method("GET"))
            .and(path("/repos/acme/shop/issues"))
            .and(query_param("labels", "loki-gate-handoff"))
            .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!([]))),
    );
    api.mount(
        Mock::given(method("POST"))
            .and(path("/repos/acme/shop/issues"))
            .and(body_string_contains("loki-gate: stuck on feature-x (claude session "))
            .and(body_string_contains("# loki-gate: Claude Code is stuck, handing off"))
            .and(body_string_contains("tests/test_more.py:4 [mock/smoke-test]"))
            .respond_with(ResponseTemplate::new(201).set_body_json(serde_json::json!({"number": 42})))
            .expect(1),
    );
    let repo = project();
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  evidence:\n    test-command: python3 -m pytest -q -p no:cacheprovider\nagent-max-blocks: 1\n",
    );
    repo.commit("one block");
    let uri = api.server.uri();
    let env = [
        ("GITHUB_REPOSITORY", "acme/shop"),
        ("GITHUB_TOKEN", "ghs_test"),
        ("GITHUB_API_URL", uri.as_str()),
        ("GITHUB_HEAD_REF", "feature-x"),
    ];
    answer(&hook_env(
        &repo,
        "claude",
        "session-start",
        &payload(&repo, "claude-session-start", ""),
        &env,
    ));
    repo.write("tests/test_more.py", HOLLOW);
    let first = answer(&hook_env(
        &repo,
        "claude",
        "stop",
        &payload(&repo, "claude-stop", ""),
        &env,
    ));
    assert_eq!(first["decision"], "block");
    let second = hook_env(&repo, "claude", "stop", &payload(&repo, "claude-stop", ""), &env);
    assert!(
        answer(&second)["systemMessage"]
            .as_str()
            .unwrap()
            .starts_with("loki-gate let Claude Code stop")
    );
    assert!(
        second.stderr.contains("loki-gate: opened the handoff issue #42"),
        "{}",
        second.stderr
    );
    api.verify();
}

#[test]
fn an_agent_going_round_in_circles_is_handed_over_by_stuck_detection() {
    let repo = project();
    answer(&event(&repo, "claude", "session-start", ""));
    // The same change and the same failing test, stop after stop.
    repo.write("shop/cart.py", "def total(xs):\n    return sum(xs) + 1\n");
    let answers: Vec<serde_json::Value> = (0..4).map(|_| answer(&event(&repo, "claude", "stop", ""))).collect();
    assert_eq!(answers[0]["decision"], "block", "{}", answers[0]);
    assert!(
        answers[0]["reason"]
            .as_str()
            .unwrap()
            .contains("[evidence/tests-failed]"),
        "{}",
        answers[0]
    );
    let told = answers
        .iter()
        .position(|a| a.get("systemMessage").is_some())
        .expect("handed over before the cap");
    let message = answers[told]["systemMessage"].as_str().unwrap();
    assert!(
        message.starts_with("loki-gate let Claude Code stop: no progress: the same findings blocked its last 3 stops"),
        "{message}"
    );
    let handoff = std::fs::read_to_string(repo.root().join(".loki-gate/handoff.md")).unwrap();
    assert!(handoff.contains("[evidence/tests-failed]"), "{handoff}");
}

#[test]
fn a_resumed_session_keeps_its_start() {
    let repo = project();
    answer(&event(&repo, "claude", "session-start", ""));
    let first = repo.read(".git/loki-gate/agent.json");
    repo.write("shop/extra.py", "X = 1\n");
    repo.commit("work in the session");
    let resumed = payload(&repo, "claude-session-start", "").replace("\"startup\"", "\"resume\"");
    answer(&hook(&repo, "claude", "session-start", &resumed));
    let anchor = |text: &str| {
        let state: serde_json::Value = serde_json::from_str(text).unwrap();
        state["sessions"][0]["anchor"].clone()
    };
    assert_eq!(anchor(&repo.read(".git/loki-gate/agent.json")), anchor(&first));
    // The same session started again ("startup" or "clear"): its start
    // stays, or the agent could make its own work the person's.
    repo.write("tests/test_more.py", HOLLOW);
    answer(&event(&repo, "claude", "session-start", ""));
    assert_eq!(anchor(&repo.read(".git/loki-gate/agent.json")), anchor(&first));
    let blocked = answer(&event(&repo, "claude", "stop", ""));
    assert_eq!(blocked["decision"], "block", "{blocked}");
    // A new session starts where the work is now.
    answer(&event(&repo, "gemini", "session-start", ""));
    let state: serde_json::Value = serde_json::from_str(&repo.read(".git/loki-gate/agent.json")).unwrap();
    assert_eq!(state["sessions"][1]["agent"], "gemini");
    assert_ne!(state["sessions"][1]["anchor"], state["sessions"][0]["anchor"]);
}

#[test]
fn format_agent_is_the_fix_next_list_for_any_loop() {
    let repo = project();
    repo.write(
        "tests/test_more.py",
        HOLLOW.replace("    total([1])", "    total([1])\n    assert 1 == 1"),
    );
    let run = repo.run(&["check", "--gates", "mock", "--format", "agent"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("loki-gate stopped \"done\": 1 problem to fix before the work is done.\n\n1. tests/test_more.py:6 [mock/tautological-assertion]"),
        "{}",
        run.stdout
    );
    repo.write("tests/test_more.py", FIXED);
    let run = repo.run(&["check", "--gates", "mock", "--format", "agent"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "loki-gate: nothing blocks.\n"));
}

#[test]
fn init_merges_into_each_agents_settings_and_uninstall_takes_out_only_its_own() {
    let repo = project();
    let theirs = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./notify.sh\"\n          }\n        ]\n      }\n    ]\n  },\n  \"permissions\": {\n    \"allow\": []\n  }\n}\n";
    repo.write(".claude/settings.json", theirs);
    let init = repo.run(&[
        "init", "--agent", "claude", "--agent", "codex", "--agent", "cursor", "--agent", "gemini",
    ]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert!(
        init.stderr.contains(".loki-gate.yaml already exists: left as it is")
            && init.stderr.contains("wrote loki-gate's hooks into .codex/hooks.json; Codex runs them only in a trusted project whose hooks you reviewed: run `codex` here")
            && init.stderr.contains("wrote loki-gate's hooks into .gemini/settings.json; Gemini CLI loads them only in a trusted folder"),
        "{}",
        init.stderr
    );
    let claude = repo.read(".claude/settings.json");
    let doc: serde_json::Value = serde_json::from_str(&claude).unwrap();
    // The user's keys and hooks stay, in their order; loki-gate's follow theirs.
    assert!(claude.starts_with("{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./notify.sh\""), "{claude}");
    assert_eq!(
        doc["hooks"]["Stop"][1]["hooks"][0],
        serde_json::json!({"type": "command", "command": "loki-gate agent stop --agent claude", "timeout": 900, "onFailure": "block"})
    );
    assert_eq!(
        doc["hooks"]["SessionStart"][0]["matcher"],
        "startup|resume|clear|compact"
    );
    assert_eq!(
        doc["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "loki-gate agent post-edit --agent claude"
    );
    let gemini: serde_json::Value = serde_json::from_str(&repo.read(".gemini/settings.json")).unwrap();
    assert_eq!(
        gemini["hooks"]["AfterAgent"][0]["hooks"][0]["command"],
        "sh -c 'command -v loki-gate >/dev/null 2>&1 || exit 0; exec loki-gate agent stop --agent gemini'"
    );
    assert_eq!(gemini["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"], 900_000);
    let cursor: serde_json::Value = serde_json::from_str(&repo.read(".cursor/hooks.json")).unwrap();
    assert_eq!(cursor["version"], 1);
    assert_eq!(
        cursor["hooks"]["stop"][0],
        serde_json::json!({"command": "loki-gate agent stop --agent cursor", "timeout": 900, "loop_limit": 8})
    );

    // Again: the same bytes.
    let files = [
        ".claude/settings.json",
        ".codex/hooks.json",
        ".cursor/hooks.json",
        ".gemini/settings.json",
    ];
    let before: Vec<String> = files.iter().map(|f| repo.read(f)).collect();
    let again = repo.run(&[
        "init", "--agent", "claude", "--agent", "codex", "--agent", "cursor", "--agent", "gemini",
    ]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let after: Vec<String> = files.iter().map(|f| repo.read(f)).collect();
    assert_eq!(before, after);

    // Uninstall: the user's file as it was; the files only loki-gate wrote, gone.
    let out = repo.run(&[
        "hook",
        "uninstall",
        "--agent",
        "claude",
        "--agent",
        "codex",
        "--agent",
        "cursor",
        "--agent",
        "gemini",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(repo.read(".claude/settings.json"), theirs);
    for gone in &files[1..] {
        assert!(!repo.root().join(gone).exists(), "{gone}");
    }
    let twice = repo.run(&["hook", "uninstall", "--agent", "claude"]);
    assert!(
        twice
            .stderr
            .contains(".claude/settings.json holds no loki-gate hook: left as it is"),
        "{}",
        twice.stderr
    );

    // A settings file with comments is not rewritten (they would be lost).
    repo.write(".gemini/settings.json", "{\n  // mine\n  \"theme\": \"dark\"\n}\n");
    let refused = repo.run(&["init", "--agent", "gemini"]);
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains(".gemini/settings.json has comments, which rewriting it would lose: add loki-gate's hooks by hand (docs/agents/ shows them)"),
        "{}",
        refused.stderr
    );
    assert_eq!(
        repo.read(".gemini/settings.json"),
        "{\n  // mine\n  \"theme\": \"dark\"\n}\n"
    );
}

#[test]
fn each_agents_prompt_is_kept_as_the_sessions_task() {
    for agent in AGENTS {
        let repo = project();
        answer(&event(&repo, agent, "session-start", ""));
        let run = event(&repo, agent, "prompt", "");
        let said = answer(&run);
        if agent == "cursor" {
            // Cursor waits for a verdict on the prompt.
            assert_eq!(said, serde_json::json!({"continue": true}));
        } else {
            assert_eq!(said, serde_json::Value::Null, "{agent}: {}", run.stdout);
        }
        let state: serde_json::Value = serde_json::from_str(&repo.read(".git/loki-gate/agent.json")).unwrap();
        assert_eq!(
            state["sessions"][0]["prompts"][0]["text"], "add a test for total",
            "{agent}: {state}"
        );
    }
}

#[test]
fn a_prompt_in_a_session_loki_gate_did_not_see_start_starts_it_there() {
    let repo = project();
    // The person's work before the hooks came: theirs.
    repo.write("tests/test_mine.py", HOLLOW.replace("test_more", "test_mine"));
    answer(&event(&repo, "claude", "prompt", ""));
    assert!(
        refs(&repo).contains("refs/loki-gate/sessions/claude-"),
        "{}",
        refs(&repo)
    );
    repo.write("tests/test_more.py", FIXED);
    let stop = event(&repo, "claude", "stop", "");
    assert_eq!(answer(&stop), serde_json::Value::Null, "{}", stop.stdout);
}

#[test]
fn agent_doctor_says_whether_each_agents_hooks_will_run_and_what_to_do() {
    let repo = project();
    let home = tempfile::tempdir().unwrap();
    let home_dir = home.path().to_str().unwrap();
    let path = crate::support::path_with_binary();
    let env = [
        ("HOME", home_dir),
        ("PATH", path.to_str().unwrap()),
        ("CODEX_HOME", ""),
        ("GEMINI_CLI_TRUST_WORKSPACE", ""),
    ];
    // Nothing wired yet.
    let none = repo.run_env(&["agent", "doctor"], &env);
    assert_eq!(none.code, 1, "{}", none.stderr);
    assert!(
        none.stdout
            .starts_with("no coding agent's settings here hold loki-gate's hooks"),
        "{}",
        none.stdout
    );
    let init = repo.run_env(
        &["init", "--agent", "claude", "--agent", "codex", "--agent", "gemini"],
        &env,
    );
    assert_eq!(init.code, 0, "{}", init.stderr);
    // Codex's project and hooks untrusted, Gemini's folder untrusted.
    let run = repo.run_env(&["agent", "doctor"], &env);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Claude Code: the hooks will run in"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Codex: the hooks will NOT run\n  - Codex does not trust this project"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "  - Codex skips hooks no one reviewed, without a word (PostToolUse, SessionStart, Stop, UserPromptSubmit)"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Gemini CLI: the hooks will NOT run\n  - Gemini CLI does not trust this folder"),
        "{}",
        run.stdout
    );
    // The person trusts them, as each agent records it.
    let root = repo.root().display().to_string();
    let hooks = format!("{root}/.codex/hooks.json");
    let mut codex = format!("[projects.\"{root}\"]\ntrust_level = \"trusted\"\n");
    for event in ["session_start", "user_prompt_submit", "post_tool_use", "stop"] {
        codex.push_str(&format!(
            "\n[hooks.state.\"{hooks}:{event}:0:0\"]\ntrusted_hash = \"sha256:00\"\n"
        ));
    }
    std::fs::create_dir_all(home.path().join(".codex")).unwrap();
    std::fs::write(home.path().join(".codex/config.toml"), codex).unwrap();
    std::fs::create_dir_all(home.path().join(".gemini")).unwrap();
    std::fs::write(
        home.path().join(".gemini/trustedFolders.json"),
        serde_json::json!({ root.clone(): "TRUST_FOLDER" }).to_string(),
    )
    .unwrap();
    let run = repo.run_env(&["agent", "doctor"], &env);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // One agent, and a setting that turns its hooks off.
    repo.write(".claude/settings.local.json", "{\"disableAllHooks\": true}\n");
    let run = repo.run_env(&["agent", "doctor", "--agent", "claude"], &env);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("settings.local.json: `disableAllHooks: true` turns every hook off: remove it"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("Codex"), "{}", run.stdout);
}

#[test]
fn a_multibyte_session_id_is_handed_over_without_a_panic() {
    let repo = project();
    let id = "séssion-ünïcödé-日本語-id";
    let with_id = |name: &str| {
        let mut v: serde_json::Value = serde_json::from_str(&payload(&repo, name, "")).unwrap();
        v["session_id"] = id.into();
        v.to_string()
    };
    assert_eq!(repo.run(&["init", "--agent", "claude"]).code, 0);
    answer(&hook(
        &repo,
        "claude",
        "session-start",
        &with_id("claude-session-start"),
    ));
    repo.write("tests/test_more.py", HOLLOW);
    // Where a GitHub repository is named, the handoff's issue is keyed by
    // the id's first characters (no token here: a warning, not a post).
    let env = [("GITHUB_REPOSITORY", "acme/shop"), ("GITHUB_TOKEN", "")];
    let answers: Vec<serde_json::Value> = (0..3)
        .map(|_| answer(&hook_env(&repo, "claude", "stop", &with_id("claude-stop"), &env)))
        .collect();
    assert!(
        answers[2]["systemMessage"]
            .as_str()
            .is_some_and(|m| m.contains("handed to you")),
        "{}",
        answers[2]
    );
    let doctor = repo.run(&["agent", "doctor", "--agent", "claude"]);
    assert!(
        doctor.stdout.contains("séssion-ünïc"),
        "{}{}",
        doctor.stdout,
        doctor.stderr
    );
}

#[test]
fn a_stop_past_its_deadline_is_blocked_and_what_it_started_is_stopped() {
    let repo = project();
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  evidence:\n    test-command: sleep 41\nagent-stop-deadline: 2s\n",
    );
    repo.commit("a slow test command, a short deadline");
    let tmp = tempfile::tempdir().unwrap();
    let env = [("TMPDIR", tmp.path().to_str().unwrap())];
    answer(&hook_env(
        &repo,
        "claude",
        "session-start",
        &payload(&repo, "claude-session-start", ""),
        &env,
    ));
    repo.write("tests/test_more.py", FIXED);
    let started = std::time::Instant::now();
    let stop = answer(&hook_env(
        &repo,
        "claude",
        "stop",
        &payload(&repo, "claude-stop", ""),
        &env,
    ));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(stop["decision"], "block", "{stop}");
    let reason = stop["reason"].as_str().unwrap();
    assert!(
        reason.contains(
            "it ran out of time: evidence, mock, mutation, docs, static did not finish within agent-stop-deadline (2 s)"
        ),
        "{reason}"
    );
    // The test command it started was stopped with it.
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|cmd| cmd.as_slice() == b"sleep\x0041\x00")
        .map(|cmd| String::from_utf8_lossy(&cmd).into_owned())
        .collect();
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn in_a_repository_with_no_commit_the_persons_files_are_theirs_too() {
    let repo = TestRepo::empty();
    repo.write("test_mine.py", "def test_mine():\n    pass\n");
    answer(&event(&repo, "claude", "session-start", ""));
    repo.write("test_agent.py", "def test_agent():\n    assert 1 == 1\n");
    let stop = answer(&event(&repo, "claude", "stop", ""));
    let reason = stop["reason"].as_str().unwrap_or_else(|| panic!("{stop}"));
    assert!(
        reason.contains("test_agent.py:2 [mock/tautological-assertion]"),
        "{reason}"
    );
    assert!(!reason.contains("test_mine"), "{reason}");
}
