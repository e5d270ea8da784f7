//! A change may not lower the bar it is judged by (issue 26): the config
//! that decides is the base revision's; what the change's own config lowers
//! is a `meta/waiver-added` finding and the base's value is used, unless
//! every commit that changed the config is by a trusted author without a
//! coding agent's signature. What raises the bar applies at once.

use crate::support::TestRepo;

const HOLLOW: &str =
    "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n    assert True\n";

/// A shop with a real test, committed as the base, with `config` (if any).
fn shop(config: Option<&str>) -> (TestRepo, String) {
    let repo = TestRepo::new();
    repo.write("README.md", "# shop\n\nA cart.\n")
        .write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            "tests/test_cart.py",
            "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n",
        );
    if let Some(config) = config {
        repo.write(".loki-gate.yaml", config);
    }
    let base = repo.commit("base");
    (repo, base)
}

/// Commit everything as `author` (`Name <email>`), with `trailer` if any.
fn commit_as(repo: &TestRepo, author: &str, trailer: Option<&str>) {
    repo.git(&["add", "-A"]);
    let mut args = vec!["commit", "-q", "-m", "change", "--author", author];
    if let Some(trailer) = trailer {
        args.extend(["--trailer", trailer]);
    }
    repo.git(&args);
}

const AGENT: &str = "Co-authored-by: Claude <noreply@anthropic.com>";

/// The binary as a CI job runs it (`CI=true`), where the base's bar holds.
fn ci(repo: &TestRepo, args: &[&str]) -> crate::support::Run {
    repo.run_env(args, &[("CI", "true")])
}

#[test]
fn a_change_that_turns_its_gate_off_is_blocked_twice() {
    let (repo, base) = shop(None);
    repo.write(".loki-gate.yaml", "gates:\n  mock:\n    enabled: false\n")
        .write("tests/test_cart.py", HOLLOW);
    commit_as(&repo, "Dev <dev@acme.io>", Some(AGENT));

    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        vec![
            "meta/waiver-added error .loki-gate.yaml:3".to_string(),
            "mock/tautological-assertion error tests/test_cart.py:6".to_string(),
        ]
    );
    let waiver = &run.json()["findings"][0]["message"];
    assert_eq!(
        waiver.as_str().unwrap(),
        format!(
            "`gates.mock.enabled: false` lowers the bar the base set (`true`): judged with `true` until someone trusted acknowledges it; changed by Dev <dev@acme.io> with Claude <noreply@anthropic.com> ({})",
            &repo.git(&["rev-parse", "HEAD"])[..7]
        )
    );

    // A bare `check`, as CI runs it: mock is on (the base's value) and blocks.
    let check = ci(&repo, &["check", "--base", &base, "--gates", "mock,docs"]);
    let all = format!("{}{}", check.stdout, check.stderr);
    assert_eq!(check.code, 1, "{all}");
    assert!(all.contains("loki-gate: blocked (mock blocked, docs passed)"), "{all}");

    // Run by hand outside CI: the change's value applies, with a warning
    // that CI and pre-push will not take it.
    let local = repo.run(&["mock", "--base", &base, "--format", "json"]);
    assert_eq!(local.code, 1, "mock is named, so it runs: {}", local.stdout);
    let json = local.json();
    let findings = &json["findings"];
    assert_eq!(findings[0]["rule"], "meta/waiver-added", "{json}");
    assert_eq!(findings[0]["severity"], "warning", "{json}");
    assert!(
        findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("it applies in this run, but pre-push and CI judge with `true`"),
        "{json}"
    );
}

#[test]
fn a_trusted_hand_may_lower_the_bar_and_an_agent_never_can() {
    let trusting = "trusted-authors: [\"*<*@acme.io>\"]\n";
    let lowered = format!("{trusting}rules:\n  mock/tautological-assertion: allow\n");
    for (author, trailer, honoured) in [
        ("Dev <dev@acme.io>", None, true),
        ("Dev <dev@acme.io>", Some(AGENT), false),
        ("Dev (aider) <dev@acme.io>", None, false),
        ("Mallory <m@elsewhere.example>", None, false),
    ] {
        let (repo, base) = shop(Some(trusting));
        repo.write(".loki-gate.yaml", &lowered)
            .write("tests/test_cart.py", HOLLOW);
        commit_as(&repo, author, trailer);
        let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
        let case = format!("{author} {trailer:?}");
        if honoured {
            assert_eq!(run.code, 0, "{case}: {}", run.stdout);
            assert!(run.findings().is_empty(), "{case}: {:?}", run.findings());
            let json = run.json();
            let waiver = &json["waivers"][0];
            assert_eq!(
                (&waiver["kind"], &waiver["rules"][0], &waiver["status"]),
                (
                    &serde_json::json!("config"),
                    &serde_json::json!("rules.mock/tautological-assertion"),
                    &serde_json::json!("acknowledged")
                ),
                "{case}: {json}"
            );
            assert_eq!(
                waiver["acknowledged_by"], "its trusted author Dev <dev@acme.io>",
                "{case}"
            );
        } else {
            assert_eq!(run.code, 1, "{case}: {}", run.stdout);
            assert_eq!(
                run.findings(),
                vec![
                    "meta/waiver-added error .loki-gate.yaml:0".to_string(),
                    "mock/tautological-assertion error tests/test_cart.py:6".to_string(),
                ],
                "{case}"
            );
        }
    }

    // The change cannot name itself trusted: only the base's list counts.
    let (repo, base) = shop(None);
    repo.write(".loki-gate.yaml", &lowered)
        .write("tests/test_cart.py", HOLLOW);
    commit_as(&repo, "Dev <dev@acme.io>", None);
    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.findings().iter().any(|f| f.starts_with("meta/waiver-added")));
    let messages: Vec<String> = run.json()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("`trusted-authors: [\"*<*@acme.io>\"]` lowers the bar")),
        "{messages:?}"
    );

    // An uncommitted edit has no known hand: never acknowledged.
    let (repo, base) = shop(Some(trusting));
    repo.write(".loki-gate.yaml", &lowered)
        .write("tests/test_cart.py", HOLLOW);
    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
}

#[test]
fn raising_the_bar_applies_at_once() {
    let (repo, base) = shop(None);
    // A warn-level rule set to deny, and a test that trips it.
    repo.write(".loki-gate.yaml", "rules:\n  mock/skipped-test: deny\n").write(
        "tests/test_skip.py",
        "import pytest\nfrom shop.cart import total\n\n\n@pytest.mark.skip\ndef test_later():\n    assert total([2]) == 2\n",
    );
    commit_as(&repo, "Dev <dev@acme.io>", Some(AGENT));
    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.findings(),
        vec!["mock/skipped-test error tests/test_skip.py:5".to_string()]
    );
}

#[test]
fn the_pre_commit_run_warns_and_lets_the_staged_value_apply() {
    let (repo, _) = shop(None);
    repo.write(".loki-gate.yaml", "rules:\n  mock/tautological-assertion: allow\n")
        .write("tests/test_cart.py", HOLLOW);
    repo.git(&["add", "-A"]);
    let run = repo.run(&["mock", "--staged", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.findings(),
        vec!["meta/waiver-added warning .loki-gate.yaml:0".to_string()]
    );
    assert!(
        run.json()["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("it applies in this run, but pre-push and CI judge with `deny`"),
        "{}",
        run.stdout
    );
}

/// The pre-push hook knows what is pushed and by whom: it holds the line as
/// CI does, without `CI` set.
#[test]
fn the_pre_push_hook_holds_the_base_bar() {
    let (repo, base) = shop(Some("pre-push-gates: [mock]\n"));
    repo.write(
        ".loki-gate.yaml",
        "pre-push-gates: [mock]\nrules:\n  mock/tautological-assertion: allow\n",
    )
    .write("tests/test_cart.py", HOLLOW);
    commit_as(&repo, "Dev <dev@acme.io>", Some(AGENT));
    let run = crate::hooks::framework_pre_push(&repo, &base);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("error[meta/waiver-added]"), "{}", run.stdout);
    assert!(
        run.stdout.contains("error[mock/tautological-assertion]"),
        "{}",
        run.stdout
    );
}
