//! The council gate through the binary: fake providers are real scripts the
//! tests write (they answer approve, reject, prose-wrapped JSON, garbage,
//! nothing, too late, or fail), and the OpenAI-compatible provider talks to
//! a real HTTP server on loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::support::{Run, TestRepo};

const APPROVE: &str = r#"{"verdict":"approve","findings":[]}"#;

/// A directory of provider scripts, outside the repository.
struct Bin {
    dir: tempfile::TempDir,
}

impl Bin {
    fn new() -> Bin {
        Bin {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// A script named `name` that logs its stdin to `<name>.log` and runs `body`.
    fn script(&self, name: &str, body: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        let log = self.dir.path().join(format!("{name}.log"));
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\ninput=$(cat)\nprintf '%s\\n=====\\n' \"$input\" >> '{}'\n{body}\n",
                log.display()
            ),
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        path
    }

    /// A script that prints `answer`.
    fn answering(&self, name: &str, answer: &str) -> PathBuf {
        self.script(name, &format!("cat <<'ANSWER'\n{answer}\nANSWER"))
    }

    /// What the script `name` was asked, one prompt per call.
    fn asked(&self, name: &str) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join(format!("{name}.log")))
            .unwrap_or_default()
            .split("\n=====\n")
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// A repository with a committed config naming `providers` (YAML flow
/// entries), and an uncommitted change to `src/cart.py` lines 2-3.
fn council_repo(providers: &[String], extra: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        "src/cart.py",
        "def total(items):\n    return sum(items)\n\n\ndef count(items):\n    return len(items)\n",
    );
    repo.write(
        ".loki-gate.yaml",
        format!(
            "gates:\n  council:\n    enabled: true\n    timeout: 10s\n{extra}    providers:{}\n",
            if providers.is_empty() {
                " []".to_string()
            } else {
                providers.iter().map(|p| format!("\n      - {p}")).collect::<String>()
            }
        ),
    );
    let base = repo.commit("base");
    repo.git(&["tag", "base", &base]);
    repo.write(
        "src/cart.py",
        "def total(items):\n    return sum(items) + 1\n    # rounding\n\ndef count(items):\n    return len(items)\n",
    );
    repo
}

fn command(name: &str, script: &Path) -> String {
    format!("{{ name: {name}, kind: command, command: [\"{}\"] }}", script.display())
}

fn council(repo: &TestRepo, args: &[&str]) -> Run {
    let mut all = vec!["council", "--base", "base", "--format", "json"];
    all.extend_from_slice(args);
    repo.run(&all)
}

fn messages(run: &Run) -> Vec<String> {
    run.json()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let notes: Vec<&str> = f["notes"]
                .as_array()
                .map(|n| n.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            format!("{} [{}]", f["message"].as_str().unwrap(), notes.join("; "))
        })
        .collect()
}

#[test]
fn unanimous_approval_passes_after_the_devils_advocate_agrees() {
    let bin = Bin::new();
    let a = bin.answering("a", APPROVE);
    let b = bin.answering("b", &format!("Looks fine to me.\n\n```json\n{APPROVE}\n```\n"));
    let repo = council_repo(&[command("alpha", &a), command("beta", &b)], "");
    let run = council(&repo, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.findings(), Vec::<String>::new());
    // Three reviewers over two providers: alpha, beta, alpha; the devil's advocate is the next, beta.
    assert_eq!(bin.asked("a").len(), 2);
    assert_eq!(bin.asked("b").len(), 2);
    let notices = run.notices().join("\n");
    assert!(notices.contains("3 of 3 reviewer(s) approved (2 needed)"), "{notices}");
    assert!(
        notices.contains("the devil's advocate (beta) read the change: it approved too"),
        "{notices}"
    );
    // Each reviewer got the diff, the file, its own persona and the schema.
    let prompts = [bin.asked("a"), bin.asked("b")].concat();
    for prompt in &prompts {
        assert!(prompt.contains("+    return sum(items) + 1"), "{prompt}");
        assert!(prompt.contains("### src/cart.py"));
        assert!(prompt.contains(r#""verdict": "approve" | "reject""#));
    }
    for persona in [
        "Focus on correctness",
        "Focus on security",
        "Focus on tests and the spec",
    ] {
        assert!(prompts.iter().any(|p| p.contains(persona)), "{persona}");
    }
    assert!(
        prompts
            .iter()
            .any(|p| p.contains("Every other reviewer approved this change"))
    );
}

#[test]
fn a_critical_finding_blocks_on_the_line_it_cites() {
    let bin = Bin::new();
    let ok = bin.answering("ok", APPROVE);
    let critical = bin.answering(
        "critical",
        r#"{"verdict":"reject","findings":[{"severity":"critical","path":"src/cart.py","line":2,"message":"total is off by one"},{"severity":"low","path":"src/cart.py","line":6,"message":"untouched line"}]}"#,
    );
    let repo = council_repo(&[command("ok", &ok), command("critic", &critical)], "");
    let run = council(&repo, &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.findings(),
        [
            // The low finding cites a line the change did not touch: a note, unlocated.
            "council/low note -:0",
            "council/critical error src/cart.py:2",
        ]
    );
    let messages = messages(&run);
    assert!(
        messages[1].contains("total is off by one [from reviewer 2 (critic, security)]"),
        "{messages:?}"
    );
    assert!(
        messages[0].contains("cited src/cart.py:6, outside the lines this change touched"),
        "{messages:?}"
    );
    // Two of three approved: the quorum holds; not unanimous, so no devil's advocate.
    assert!(
        run.notices()
            .join("\n")
            .contains("2 of 3 reviewer(s) approved (2 needed)")
    );
    assert_eq!(bin.asked("ok").len(), 2);
    assert_eq!(bin.asked("critical").len(), 1);
}

#[test]
fn rejections_below_two_thirds_block_even_without_severe_findings() {
    let bin = Bin::new();
    let ok = bin.answering("ok", APPROVE);
    let no = bin.answering(
        "no",
        r#"{"verdict":"reject","findings":[{"severity":"medium","path":"src/cart.py","line":3,"message":"a comment where a test belongs"}]}"#,
    );
    let repo = council_repo(&[command("ok", &ok), command("nay", &no)], "    reviewers: 2\n");
    let run = council(&repo, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        ["council/quorum error -:0", "council/medium warning src/cart.py:3"]
    );
    assert!(messages(&run)[0].starts_with("1 of 2 reviewers approved; 2 needed"));
}

#[test]
fn unreadable_answers_are_inconclusive_and_block_unless_ignored() {
    let bin = Bin::new();
    let ok = bin.answering("ok", APPROVE);
    let garbage = bin.answering("garbage", "LGTM, ship it!");
    let empty = bin.script("empty", "true");
    let failing = bin.script("failing", "echo 'rate limited' >&2; exit 3");
    let slow = bin.script("slow", &format!("sleep 20; echo '{APPROVE}'"));
    let providers = [
        command("ok", &ok),
        command("garbage", &garbage),
        command("empty", &empty),
        command("failing", &failing),
        format!(
            "{{ name: slow, kind: command, command: [\"{}\"], timeout: 1s }}",
            slow.display()
        ),
    ];
    let repo = council_repo(&providers, "    reviewers: 5\n");
    let started = std::time::Instant::now();
    let run = council(&repo, &[]);
    assert!(started.elapsed().as_secs() < 15, "the slow reviewer was not cut off");
    assert_eq!(run.code, 1, "{}", run.stdout);
    let messages = messages(&run);
    for why in [
        "reviewer 2 (garbage, security) gave no verdict: no JSON object with a \"verdict\" in the answer",
        "reviewer 3 (empty, tests-and-spec) gave no verdict: the answer was empty",
        "reviewer 4 (failing, correctness) gave no verdict: exited with 3: rate limited",
        "reviewer 5 (slow, security) gave no verdict: no answer within 1s",
    ] {
        assert!(messages.iter().any(|m| m.starts_with(why)), "{why}\n{messages:#?}");
    }
    assert_eq!(
        run.findings()
            .iter()
            .filter(|f| f.starts_with("council/inconclusive error"))
            .count(),
        4
    );
    assert!(run.findings().contains(&"council/quorum error -:0".to_string()));

    // Ignored, they do not count: the one that answered approves alone, and the
    // devil's advocate (the next provider: ok again) is asked.
    repo.write(
        ".loki-gate.yaml",
        repo.read(".loki-gate.yaml")
            .replace("reviewers: 5\n", "reviewers: 5\n    inconclusive: ignore\n"),
    );
    repo.git(&["add", ".loki-gate.yaml"]);
    // A new setting is a new setup: the reviewers are asked again without --fresh.
    let before = bin.asked("ok").len();
    // `inconclusive: ignore` lowers the bar: a warning outside CI, not this test's subject.
    let run = council(&repo, &["-A", "meta/waiver-added"]);
    assert!(
        !run.notices().join("\n").contains("reviewed before"),
        "{:?}",
        run.notices()
    );
    assert!(bin.asked("ok").len() > before);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.findings()
            .iter()
            .all(|f| f.starts_with("council/inconclusive note")),
        "{:?}",
        run.findings()
    );
    assert!(
        run.notices()
            .join("\n")
            .contains("1 of 5 reviewer(s) approved (1 needed)"),
        "{}",
        run.notices().join("\n")
    );
}

#[test]
fn the_devils_advocate_blocks_only_a_unanimous_approval_and_says_so() {
    let bin = Bin::new();
    // Approves as a reviewer; as the devil's advocate, finds a high problem.
    let contrarian = bin.script(
        "contrarian",
        r#"case "$input" in
  *"Every other reviewer approved"*) echo '{"verdict":"reject","findings":[{"severity":"high","path":"src/cart.py","line":2,"message":"+ 1 breaks every total"}]}' ;;
  *) echo '{"verdict":"approve","findings":[]}' ;;
esac"#,
    );
    let repo = council_repo(&[command("c", &contrarian)], "");
    let run = council(&repo, &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(run.findings(), ["council/high error src/cart.py:2"]);
    assert!(messages(&run)[0].contains("[from the devil's advocate (c)]"));
    assert!(
        run.notices()
            .join("\n")
            .contains("so the devil's advocate (c) read the change: it found a blocking problem"),
        "{}",
        run.notices().join("\n")
    );
    assert_eq!(bin.asked("contrarian").len(), 4);

    // One rejection (medium only): not unanimous, so no devil's advocate.
    let medium = bin.answering(
        "medium",
        r#"{"verdict":"reject","findings":[{"severity":"medium","message":"naming"}]}"#,
    );
    let repo = council_repo(&[command("c", &contrarian), command("m", &medium)], "");
    let before = bin.asked("contrarian").len();
    let run = council(&repo, &[]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.findings(), ["council/medium warning -:0"]);
    assert_eq!(bin.asked("contrarian").len(), before + 2, "only the two reviewer calls");
    assert!(!run.notices().join("\n").contains("devil's advocate"));
}

#[test]
fn a_reviewed_diff_is_reused_until_it_changes_or_fresh_is_asked() {
    let bin = Bin::new();
    let a = bin.answering("a", APPROVE);
    let repo = council_repo(&[command("a", &a)], "    reviewers: 1\n    devils-advocate: false\n");
    let first = council(&repo, &[]);
    assert_eq!(first.code, 0, "{}", first.stdout);
    assert_eq!(bin.asked("a").len(), 1);
    let again = council(&repo, &[]);
    assert_eq!(again.code, 0);
    assert_eq!(bin.asked("a").len(), 1, "the same diff is not asked again");
    assert!(again.notices().join("\n").contains("this diff was reviewed before"));
    let fresh = council(&repo, &["--fresh"]);
    assert_eq!(fresh.code, 0);
    assert_eq!(bin.asked("a").len(), 2);
    repo.write("src/cart.py", "def total(items):\n    return 0\n");
    council(&repo, &[]);
    assert_eq!(bin.asked("a").len(), 3, "a new diff is a new review");

    let state: Value = serde_json::from_str(&repo.read(".loki-gate/council.json")).unwrap();
    assert_eq!(state["version"], 1);
    let rounds = state["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3, "reuse records no round");
    assert_eq!(rounds[0]["reviews"][0]["provider"], "a");
    assert_eq!(rounds[0]["reviews"][0]["answer"]["verdict"]["approve"], true);
    assert_eq!(rounds[0]["diff_hash"], rounds[1]["diff_hash"]);
    assert_ne!(rounds[1]["diff_hash"], rounds[2]["diff_hash"]);
}

#[test]
fn setup_problems_are_exit_2_naming_the_fix() {
    let repo = council_repo(
        &["{ name: ghost, kind: command, command: [\"no-such-reviewer-cli\"] }".to_string()],
        "",
    );
    let run = council(&repo, &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("council provider `ghost`: `no-such-reviewer-cli` is not installed or not on PATH"),
        "{}",
        run.stderr
    );
    let repo = council_repo(&[], "");
    let run = council(&repo, &[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("the council has no providers"), "{}", run.stderr);
    let run = repo.run(&["council", "--all-files"]);
    assert_eq!(run.code, 2);
    // Off by default in the config, but named it runs: with no providers it cannot.
    let plain = TestRepo::new();
    let run = plain.run(&["council"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("the council has no providers"), "{}", run.stderr);
}

/// One scripted HTTP answer: status, extra headers, body.
type Reply = (u16, &'static str, String);

/// A real HTTP server on loopback that answers requests with `replies` in
/// order (the last one repeats), recording each request's head and body.
fn server(replies: Vec<Reply>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for (i, stream) in listener.incoming().enumerate() {
            let Ok(mut stream) = stream else { break };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            log.lock()
                .unwrap()
                .push(format!("{head}\n{}", String::from_utf8_lossy(&body)));
            let (status, headers, text) = &replies[i.min(replies.len() - 1)];
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{headers}\r\n{text}",
                text.len()
            );
        }
    });
    (url, seen)
}

fn completion(content: &str) -> String {
    serde_json::json!({
        "choices": [{"message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 1200, "completion_tokens": 30}
    })
    .to_string()
}

fn openai_repo(url: &str, key_env: Option<&str>) -> TestRepo {
    openai_repo_waiting(url, key_env, "10s")
}

fn openai_repo_waiting(url: &str, key_env: Option<&str>, timeout: &str) -> TestRepo {
    let key = key_env.map(|k| format!(", api-key-env: {k}")).unwrap_or_default();
    council_repo(
        &[format!(
            "{{ name: local, kind: openai, base-url: \"{url}\", model: qwen2.5-coder{key}, timeout: {timeout} }}"
        )],
        "    reviewers: 1\n    devils-advocate: false\n",
    )
}

#[test]
fn openai_provider_answers_retries_and_fails_cleanly() {
    // Success, with the key as a bearer token and the model in the body.
    let (url, seen) = server(vec![(200, "", completion(APPROVE))]);
    let repo = openai_repo(&url, Some("COUNCIL_TEST_KEY"));
    let run = repo.run_env(
        &["council", "--base", "base", "--format", "json"],
        &[("COUNCIL_TEST_KEY", "sk-test-123")],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let requests = seen.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    assert!(
        requests[0].starts_with("POST /v1/chat/completions HTTP/1.1"),
        "{}",
        requests[0]
    );
    assert!(
        requests[0]
            .to_ascii_lowercase()
            .contains("authorization: bearer sk-test-123")
    );
    assert!(requests[0].contains(r#""model":"qwen2.5-coder""#));
    assert!(
        run.notices()
            .join("\n")
            .contains("usage: 1200 prompt + 30 completion tokens"),
        "{}",
        run.notices().join("\n")
    );

    // 429 (retry after 0 s), then an answer.
    let (url, seen) = server(vec![
        (429, "Retry-After: 0\r\n", r#"{"error":"slow down"}"#.into()),
        (200, "", completion(APPROVE)),
    ]);
    let run = council(&openai_repo(&url, None), &[]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(seen.lock().unwrap().len(), 2);

    // 500 forever: inconclusive after the retries, and blocking.
    let (url, seen) = server(vec![(500, "Retry-After: 0\r\n", "upstream exploded".into())]);
    let run = council(&openai_repo(&url, None), &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        messages(&run)[0].contains("answered 500: upstream exploded (gave up after retries)"),
        "{:?}",
        messages(&run)
    );
    assert_eq!(seen.lock().unwrap().len(), 5);

    // A body that is not a completion.
    let (url, _) = server(vec![(200, "", "<html>proxy error</html>".into())]);
    let run = council(&openai_repo(&url, None), &[]);
    assert_eq!(run.code, 1);
    assert!(
        messages(&run)[0].contains("the response is not JSON"),
        "{:?}",
        messages(&run)
    );

    // The key's variable is not set: exit 2 before any request.
    let (url, seen) = server(vec![(200, "", completion(APPROVE))]);
    let run = council(&openai_repo(&url, Some("COUNCIL_UNSET_KEY")), &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("the environment variable COUNCIL_UNSET_KEY (api-key-env) is not set"),
        "{}",
        run.stderr
    );
    assert!(seen.lock().unwrap().is_empty());
}

/// A server that answers 200 with a body shorter than its Content-Length,
/// then holds the connection open for `hold` (or closes it at once).
fn cut_short(hold: std::time::Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else { return };
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
            line.clear();
        }
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"choices\": ["
        );
        let _ = stream.flush();
        std::thread::sleep(hold);
    });
    url
}

/// What went wrong with an answer is named as it is, never as "not JSON"
/// and never retried as if it were transient.
#[test]
fn openai_provider_names_what_went_wrong_with_the_answer() {
    let (url, seen) = server(vec![(
        302,
        "Location: http://elsewhere.example/v1/chat/completions\r\n",
        String::new(),
    )]);
    let run = council(&openai_repo(&url, None), &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        messages(&run)[0].contains(
            "answered 302, a redirect to http://elsewhere.example/v1/chat/completions; redirects are not followed"
        ),
        "{:?}",
        messages(&run)
    );
    assert_eq!(seen.lock().unwrap().len(), 1, "a redirect is not retried");

    let (url, _) = server(vec![(200, "", "x".repeat(17 << 20))]);
    let run = council(&openai_repo(&url, None), &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        messages(&run)[0].contains("answered 200 with more than 16 MiB"),
        "{:?}",
        messages(&run)
    );

    let url = cut_short(std::time::Duration::from_secs(5));
    let run = council(&openai_repo_waiting(&url, None, "2s"), &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        messages(&run)[0].contains("answered 200 but the answer did not finish arriving within 2s"),
        "{:?}",
        messages(&run)
    );

    let url = cut_short(std::time::Duration::ZERO);
    let run = council(&openai_repo(&url, None), &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        messages(&run)[0].contains("answered 200 but the connection broke while the answer was read"),
        "{:?}",
        messages(&run)
    );
}

#[test]
fn the_same_finding_from_several_reviewers_is_one_finding_naming_them() {
    let bin = Bin::new();
    let critic = bin.answering(
        "critic",
        r#"{"verdict":"reject","findings":[{"severity":"high","path":"src/cart.py","line":2,"message":"off by one"}]}"#,
    );
    let repo = council_repo(&[command("critic", &critic)], "    reviewers: 2\n");
    let run = council(&repo, &[]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.findings(),
        ["council/quorum error -:0", "council/high error src/cart.py:2"]
    );
    assert!(
        messages(&run)[1].contains("[from reviewer 1 (critic, correctness), reviewer 2 (critic, security)]"),
        "{:?}",
        messages(&run)
    );
}

#[test]
fn staged_reviews_only_the_index_and_a_corrupt_state_is_exit_2() {
    let bin = Bin::new();
    let a = bin.answering("a", APPROVE);
    let repo = council_repo(&[command("a", &a)], "    reviewers: 1\n    devils-advocate: false\n");
    repo.write("src/extra.py", "UNSTAGED = 1\n");
    repo.git(&["add", "src/cart.py"]);
    let run = repo.run(&["council", "--staged", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let prompt = &bin.asked("a")[0];
    assert!(prompt.contains("+    return sum(items) + 1"));
    assert!(!prompt.contains("UNSTAGED"), "an untracked file is not staged");

    std::fs::write(repo.path().join(".loki-gate/council.json"), "{ not json").unwrap();
    let run = repo.run(&["council", "--staged", "--fresh"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("council.json is corrupt"), "{}", run.stderr);
    assert_eq!(bin.asked("a").len(), 1, "nothing is asked on a corrupt state");
}
