//! A change may not lower the bar it is judged by (issue 26): the config
//! that decides is the base revision's; what the change's own config lowers
//! is a `meta/waiver-added` finding and the base's value is used, unless
//! every commit that changed the config is a trusted author's, signed with
//! a key the base lists (issue 54), without a coding agent's signature.
//! What raises the bar applies at once.

use crate::support::TestRepo;
use crate::support::signing::{Sign, SshKey};

const HOLLOW: &str =
    "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n    assert True\n";

/// A shop with a real test, committed as the base, with `config` (if any).
fn shop(config: Option<&str>) -> (TestRepo, String) {
    shop_with(&[(".loki-gate.yaml", config.map(str::to_string))])
}

/// The base's list of trusted signing keys.
const SIGNERS: &str = ".github/allowed_signers";

/// A base that trusts acme.io's authors in commits signed with `key`
/// (listed for dev@acme.io in [`SIGNERS`]), with `extra` config.
fn signed_shop(key: &SshKey, extra: &str) -> (TestRepo, String) {
    shop_with(&[
        (
            ".loki-gate.yaml",
            Some(format!("{TRUSTING}trusted-signers: {SIGNERS}\n{extra}")),
        ),
        (SIGNERS, Some(key.allowed("dev@acme.io"))),
    ])
}

/// The shop, with `files` (those given content) in the base commit.
fn shop_with(files: &[(&str, Option<String>)]) -> (TestRepo, String) {
    let repo = TestRepo::new();
    repo.write("README.md", "# shop\n\nA cart.\n")
        .write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            "tests/test_cart.py",
            "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n",
        );
    for (path, content) in files {
        if let Some(content) = content {
            repo.write(path, content);
        }
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

const DEV: &str = "Dev <dev@acme.io>";

/// The binary as a CI job runs it (`CI=true`), where the base's bar holds.
fn ci(repo: &TestRepo, args: &[&str]) -> crate::support::Run {
    repo.run_env(args, &[("CI", "true")])
}

/// `max-file-bytes` is held either way (issue 63): raised, it lets a test
/// padded to hold the gates past a hook's timeout be read; the change's
/// value counted, with no finding.
#[test]
fn a_change_that_raises_the_size_cap_is_held() {
    let (repo, base) = shop(None);
    repo.write(".loki-gate.yaml", "max-file-bytes: 104857600\n");
    commit_as(&repo, "Dev <dev@acme.io>", Some(AGENT));
    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        vec!["meta/waiver-added error .loki-gate.yaml:1".to_string()]
    );
    assert!(
        run.json()["findings"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("`max-file-bytes: 104857600` lowers the bar the base set (`2097152`)"),
        "{}",
        run.stdout
    );
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
    assert!(
        all.contains("loki-gate: blocked: 2 errors, 0 warnings, 0 notes (mock blocked, docs passed)"),
        "{all}"
    );

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
    let key = SshKey::new();
    let trusting = format!("{TRUSTING}trusted-signers: {SIGNERS}\n");
    let lowered = format!("{trusting}rules:\n  mock/tautological-assertion: allow\n");
    for (author, trailer, honoured) in [
        (DEV, None, true),
        (DEV, Some(AGENT), false),
        ("Dev (aider) <dev@acme.io>", None, false),
        ("Mallory <m@elsewhere.example>", None, false),
    ] {
        let (repo, base) = signed_shop(&key, "");
        repo.write(".loki-gate.yaml", &lowered)
            .write("tests/test_cart.py", HOLLOW);
        let message = match trailer {
            Some(trailer) => format!("change\n\n{trailer}"),
            None => "change".to_string(),
        };
        repo.commit_by(author, None, Sign::Ssh(&key), &message);
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
                waiver["acknowledged_by"],
                "its trusted author Dev <dev@acme.io>, signed with the trusted key of dev@acme.io",
                "{case}"
            );
        } else {
            assert_eq!(run.code, 1, "{case}: {}", run.stdout);
            assert_eq!(
                run.findings(),
                vec![
                    "meta/waiver-added error .loki-gate.yaml:4".to_string(),
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
    let (repo, base) = signed_shop(&key, "");
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
        vec!["meta/waiver-added warning .loki-gate.yaml:2".to_string()]
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

const SUPPRESSED: &str = "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n    assert True  # loki-gate: allow(mock/tautological-assertion) placeholder until the API lands\n";

const TRUSTING: &str = "trusted-authors: [\"*<*@acme.io>\"]\n";

#[test]
fn a_suppression_an_agent_adds_is_held_in_ci_and_a_trusted_one_applies() {
    let key = SshKey::new();
    let (repo, base) = signed_shop(&key, "");
    repo.write("tests/test_cart.py", SUPPRESSED);
    commit_as(&repo, "Dev <dev@acme.io>", Some(AGENT));
    let head = repo.git(&["rev-parse", "--short=7", "HEAD"]);
    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.findings(),
        vec![
            "mock/tautological-assertion error tests/test_cart.py:6".to_string(),
            "meta/waiver-added error tests/test_cart.py:6".to_string(),
        ]
    );
    let json = run.json();
    assert_eq!(
        json["findings"][1]["message"],
        format!(
            "`loki-gate: allow(mock/tautological-assertion)` was added by the change by Dev <dev@acme.io> with Claude <noreply@anthropic.com> ({head}): the finding it covers stands until someone trusted acknowledges it"
        )
    );
    let notes = json["findings"][1]["notes"].to_string();
    assert!(notes.contains("its reason: placeholder until the API lands"), "{notes}");
    assert!(notes.contains("who can acknowledge it: a commit signed with a key the base's `trusted-signers` lists (.github/allowed_signers), whose author and committer the base's `trusted-authors` names (*<*@acme.io>), without a coding agent's signature"), "{notes}");
    let waiver = &json["waivers"][0];
    assert_eq!(
        (&waiver["kind"], &waiver["origin"], &waiver["status"]),
        (&"suppression".into(), &"change".into(), &"held".into())
    );
    assert_eq!(json["summary"]["suppressed"], 0);

    // The text report lists it under waivers.
    let text = ci(&repo, &["mock", "--base", &base]);
    assert!(
        text.stdout.contains(&format!(
            "waivers:\n  suppression mock/tautological-assertion tests/test_cart.py:6: added by Dev <dev@acme.io> with Claude <noreply@anthropic.com> ({head}), held \u{2014} placeholder until the API lands\n"
        )),
        "{}",
        text.stdout
    );
    // So does the pull request comment.
    let comment = ci(&repo, &["mock", "--base", &base, "--format", "markdown"]);
    assert!(comment.stdout.contains("**Waivers** (1)"), "{}", comment.stdout);
    assert!(
        comment.stdout.contains(&format!(
            "| 🔴 | suppression | `mock/tautological-assertion` | `tests/test_cart.py:6` | Dev &lt;dev@acme.io&gt; with Claude &lt;noreply@anthropic.com&gt; ({head}) | held | placeholder until the API lands |"
        )),
        "{}",
        comment.stdout
    );

    // The same line in a trusted author's own signed commit: it applies, listed.
    let (repo, base) = signed_shop(&key, "");
    repo.write("tests/test_cart.py", SUPPRESSED);
    repo.commit_by(DEV, None, Sign::Ssh(&key), "stub");
    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.findings().is_empty(), "{:?}", run.findings());
    let json = run.json();
    assert_eq!(json["summary"]["suppressed"], 1);
    let waiver = &json["waivers"][0];
    assert_eq!(waiver["status"], "acknowledged");
    assert_eq!(
        waiver["acknowledged_by"],
        "its trusted author Dev <dev@acme.io>, signed with the trusted key of dev@acme.io"
    );
    assert_eq!(waiver["findings"][0]["rule"], "mock/tautological-assertion");
    // SARIF carries what it hid as a suppressed result, with the reason.
    let sarif = ci(&repo, &["mock", "--base", &base, "--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_str(&sarif.stdout).expect("SARIF parses");
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "mock/tautological-assertion");
    assert_eq!(
        result["suppressions"],
        serde_json::json!([{"kind": "inSource", "status": "accepted", "justification": "placeholder until the API lands"}])
    );
}

#[test]
fn a_suppression_the_base_has_stays_the_base_s_when_moved_or_renamed() {
    let (repo, _) = shop(Some(TRUSTING));
    repo.write("tests/test_cart.py", SUPPRESSED);
    commit_as(&repo, "Dev <dev@acme.io>", None);
    let base = repo.git(&["rev-parse", "HEAD"]);
    // An agent renames the file, moves the line down and re-indents nothing else.
    repo.git(&["mv", "tests/test_cart.py", "tests/test_basket.py"]);
    repo.write(
        "tests/test_basket.py",
        format!("import os\n\n{SUPPRESSED}").replace("\n\n\ndef", "\n\n\n\ndef"),
    );
    commit_as(&repo, "Bot <bot@acme.io>", Some(AGENT));
    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let json = run.json();
    assert_eq!(json["waivers"][0]["origin"], "base", "{json}");
    assert_eq!(json["waivers"][0]["status"], "honoured");
    assert_eq!(json["summary"]["suppressed"], 1);

    // A second, identical suppression is one more than the base had: added.
    repo.write(
        "tests/test_basket.py",
        format!("{SUPPRESSED}\n\ndef test_more():\n    assert True  # loki-gate: allow(mock/tautological-assertion) placeholder until the API lands\n"),
    );
    commit_as(&repo, "Bot <bot@acme.io>", Some(AGENT));
    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let statuses: Vec<String> = run.json()["waivers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            format!(
                "{}:{} {}",
                w["path"].as_str().unwrap(),
                w["line"],
                w["status"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        statuses,
        vec!["tests/test_basket.py:6 honoured", "tests/test_basket.py:10 held"]
    );
}

#[test]
fn a_staged_suppression_applies_with_a_warning_in_the_pre_commit_run() {
    let (repo, _) = shop(Some(TRUSTING));
    repo.write("tests/test_cart.py", SUPPRESSED);
    repo.git(&["add", "-A"]);
    let run = repo.run(&["mock", "--staged", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.findings(),
        vec!["meta/waiver-added warning tests/test_cart.py:6".to_string()]
    );
    assert_eq!(run.json()["waivers"][0]["status"], "warned");
    // Even with CI set: the hook cannot tell who commits, so it never holds.
    let run = ci(&repo, &["mock", "--staged", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn baseline_entries_the_change_adds_need_a_trusted_hand() {
    let key = SshKey::new();
    for (trailer, held) in [(Some(AGENT), true), (None, false)] {
        let (repo, base) = signed_shop(&key, "");
        repo.write("tests/test_cart.py", HOLLOW);
        // The change accepts its own hollow test into the baseline.
        let wrote = repo.run(&["mock", "--base", &base, "--write-baseline", "loki-baseline.json"]);
        assert_eq!(wrote.code, 0, "{}", wrote.stderr);
        let message = match trailer {
            Some(trailer) => format!("change\n\n{trailer}"),
            None => "change".to_string(),
        };
        repo.commit_by(DEV, None, Sign::Ssh(&key), &message);
        let run = ci(
            &repo,
            &[
                "mock",
                "--base",
                &base,
                "--baseline",
                "loki-baseline.json",
                "--format",
                "json",
            ],
        );
        let json = run.json();
        let waiver = &json["waivers"][0];
        assert_eq!(
            (&waiver["kind"], &waiver["reason"]),
            (&"baseline".into(), &"1 entry".into()),
            "{json}"
        );
        if held {
            assert_eq!(run.code, 1, "{}", run.stdout);
            assert_eq!(
                run.findings(),
                vec![
                    "meta/waiver-added error loki-baseline.json:0".to_string(),
                    "mock/tautological-assertion error tests/test_cart.py:6".to_string(),
                ]
            );
            assert!(
                json["findings"][0]["message"].as_str().unwrap().starts_with(
                    "baseline loki-baseline.json gained 1 entry in the change by Dev <dev@acme.io> with Claude"
                ),
                "{json}"
            );
        } else {
            assert_eq!(run.code, 0, "{}", run.stdout);
            assert_eq!(waiver["status"], "acknowledged");
            assert_eq!(json["summary"]["baselined"], 1);
        }
    }
}

mod pull_request {
    //! Acknowledgment on the pull request, against a local GitHub.

    use wiremock::matchers::{method, path};
    use wiremock::{Mock, ResponseTemplate};

    use super::{AGENT, SUPPRESSED, commit_as, shop};
    use crate::github::Api;
    use crate::support::{Run, TestRepo};

    /// An agent's pull request: a suppression and a config that turns a rule off.
    fn agent_pr() -> (TestRepo, String, String) {
        let (repo, base) = shop(None);
        repo.write("tests/test_cart.py", SUPPRESSED)
            .write(".loki-gate.yaml", "rules:\n  mock/skipped-test: allow\n");
        commit_as(&repo, "Dev <dev@acme.io>", Some(AGENT));
        let head = repo.git(&["rev-parse", "HEAD"]);
        (repo, base, head)
    }

    fn event(action: &str, head: &str, extra: serde_json::Value) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let mut event = serde_json::json!({
            "action": action,
            "sender": {"login": "maint"},
            "pull_request": {
                "number": 7,
                "user": {"login": "dev"},
                "head": {"sha": head, "repo": {"full_name": "acme/shop"}},
                "base": {"repo": {"full_name": "acme/shop"}}
            }
        });
        if let (Some(event), Some(extra)) = (event.as_object_mut(), extra.as_object()) {
            event.extend(extra.clone());
        }
        std::fs::write(dir.path().join("event.json"), event.to_string()).unwrap();
        dir
    }

    fn ci(repo: &TestRepo, api: &str, event: &tempfile::TempDir, base: &str) -> Run {
        let event = event.path().join("event.json");
        repo.run_env(
            &["mock", "--base", base, "--format", "json"],
            &[
                ("CI", "true"),
                ("GITHUB_ACTIONS", "true"),
                ("GITHUB_REPOSITORY", "acme/shop"),
                ("GITHUB_TOKEN", "ghs_test"),
                ("GITHUB_API_URL", api),
                ("GITHUB_EVENT_PATH", event.to_str().unwrap()),
            ],
        )
    }

    fn permission(api: &Api, login: &str, role: &str) {
        api.mount(
            Mock::given(method("GET"))
                .and(path(format!("/repos/acme/shop/collaborators/{login}/permission")))
                .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
                    "permission": if role == "maintain" { "write" } else { role },
                    "role_name": role,
                }))),
        );
    }

    fn reviews(api: &Api, reviews: serde_json::Value) {
        api.mount(
            Mock::given(method("GET"))
                .and(path("/repos/acme/shop/pulls/7/reviews"))
                .respond_with(ResponseTemplate::new(200).set_body_json(reviews)),
        );
    }

    fn statuses(run: &Run) -> Vec<String> {
        run.json()["waivers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                format!(
                    "{} {} {}",
                    w["kind"].as_str().unwrap(),
                    w["status"].as_str().unwrap(),
                    w["acknowledged_by"].as_str().unwrap_or("-")
                )
            })
            .collect()
    }

    #[test]
    fn a_maintainer_s_label_acknowledges_every_waiver_of_the_head_it_was_applied_to() {
        let (repo, base, head) = agent_pr();
        let api = Api::start();
        permission(&api, "maint", "maintain");
        reviews(&api, serde_json::json!([]));
        let labeled = event(
            "labeled",
            &head,
            serde_json::json!({"label": {"name": "loki-gate-ack"}}),
        );
        let run = ci(&repo, &api.server.uri(), &labeled, &base);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(run.findings().is_empty(), "{:?}", run.findings());
        assert_eq!(
            statuses(&run),
            vec![
                "suppression acknowledged the `loki-gate-ack` label, applied by @maint",
                "config acknowledged the `loki-gate-ack` label, applied by @maint",
            ]
        );

        // The label applied to an older head acknowledges nothing new: the
        // run of a later push is held until it is applied again.
        let stale = event(
            "labeled",
            &base,
            serde_json::json!({"label": {"name": "loki-gate-ack"}}),
        );
        let run = ci(&repo, &api.server.uri(), &stale, &base);
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert_eq!(statuses(&run), vec!["suppression held -", "config held -"]);
        let notes = run.json()["findings"].to_string();
        assert!(
            notes.contains("the `loki-gate-ack` label on the pull request"),
            "{notes}"
        );

        // Applied by someone who may only read: nothing.
        let api = Api::start();
        permission(&api, "maint", "read");
        reviews(&api, serde_json::json!([]));
        let run = ci(&repo, &api.server.uri(), &labeled, &base);
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert_eq!(statuses(&run), vec!["suppression held -", "config held -"]);
    }

    #[test]
    fn an_approving_review_of_the_head_by_a_writer_acknowledges() {
        let (repo, base, head) = agent_pr();
        let api = Api::start();
        permission(&api, "maint", "write");
        permission(&api, "dev", "write");
        reviews(
            &api,
            serde_json::json!([
                {"user": {"login": "maint"}, "state": "APPROVED", "commit_id": base},
                {"user": {"login": "dev"}, "state": "APPROVED", "commit_id": head},
                {"user": {"login": "copilot-pull-request-reviewer[bot]"}, "state": "APPROVED", "commit_id": head},
            ]),
        );
        let pushed = event("synchronize", &head, serde_json::json!({}));
        // Approvals of an older commit, by the author, or by a bot: none counts.
        let run = ci(&repo, &api.server.uri(), &pushed, &base);
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert_eq!(statuses(&run), vec!["suppression held -", "config held -"]);

        let api = Api::start();
        permission(&api, "maint", "write");
        reviews(
            &api,
            serde_json::json!([
                {"user": {"login": "maint"}, "state": "CHANGES_REQUESTED", "commit_id": head},
                {"user": {"login": "maint"}, "state": "APPROVED", "commit_id": head},
                {"user": {"login": "maint"}, "state": "COMMENTED", "commit_id": head},
            ]),
        );
        let run = ci(&repo, &api.server.uri(), &pushed, &base);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert_eq!(
            statuses(&run),
            vec![
                "suppression acknowledged an approving review by @maint",
                "config acknowledged an approving review by @maint",
            ]
        );
    }

    #[test]
    fn an_unreachable_github_acknowledges_nothing_and_says_so() {
        let (repo, base, head) = agent_pr();
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let api = format!("http://{}", closed.local_addr().unwrap());
        drop(closed);
        let labeled = event(
            "labeled",
            &head,
            serde_json::json!({"label": {"name": "loki-gate-ack"}}),
        );
        let run = ci(&repo, &api, &labeled, &base);
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert_eq!(statuses(&run), vec!["suppression held -", "config held -"]);
        let notes = run.json()["findings"].to_string();
        assert!(
            notes.contains("could not learn whether the pull request acknowledged it, so it did not"),
            "{notes}"
        );

        // A token that may not read permissions: the same, with GitHub's reason.
        let api = Api::start();
        api.mount(
            Mock::given(method("GET"))
                .and(path("/repos/acme/shop/collaborators/maint/permission"))
                .respond_with(ResponseTemplate::new(403).set_body_json(serde_json::json!({
                    "message": "Resource not accessible by integration",
                    "documentation_url": "https://docs.github.com/rest"
                }))),
        );
        reviews(&api, serde_json::json!([]));
        let run = ci(&repo, &api.server.uri(), &labeled, &base);
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert_eq!(statuses(&run), vec!["suppression held -", "config held -"]);
        let notes = run.json()["findings"].to_string();
        assert!(
            notes.contains("could not learn whether") && notes.contains("403"),
            "{notes}"
        );
    }
}

mod commands {
    //! What the change's config would make loki-gate run (`docs/execution.md`).

    use super::{AGENT, DEV, TRUSTING, commit_as, shop, signed_shop};
    use crate::support::TestRepo;
    use crate::support::signing::{Sign, SshKey};

    /// A change adding a custom static check that leaves a mark when it runs.
    fn with_custom_command(repo: &TestRepo, marker: &std::path::Path) {
        repo.write(
            ".loki-gate.yaml",
            format!(
                "{TRUSTING}trusted-signers: {}\ngates:\n  static:\n    tools: []\n    custom:\n      - name: mark\n        command: touch {}\n        errorformat: [\"%f:%l:%m\"]\n",
                super::SIGNERS,
                marker.display()
            ),
        );
    }

    fn static_ci(repo: &TestRepo, base: &str, event: Option<&std::path::Path>) -> crate::support::Run {
        let mut env = vec![("CI", "true".to_string())];
        if let Some(event) = event {
            env.push(("GITHUB_EVENT_PATH", event.display().to_string()));
        }
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        repo.run_env(&["static", "--base", base, "--format", "json"], &env)
    }

    #[test]
    fn ci_runs_no_command_the_base_does_not_name_until_a_trusted_hand_adds_it() {
        let marks = tempfile::tempdir().unwrap();
        let marker = marks.path().join("ran");
        let key = SshKey::new();
        let (repo, base) = signed_shop(&key, "");
        with_custom_command(&repo, &marker);
        commit_as(&repo, "Dev <dev@acme.io>", Some(AGENT));
        let run = static_ci(&repo, &base, None);
        assert!(!marker.exists(), "the agent's command ran in CI: {}", run.stdout);
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        let messages = run.json()["findings"].to_string();
        assert!(
            messages.contains("`gates.static.custom: [{")
                && messages.contains("names commands the base's config does not: the base's (`[]`) run instead"),
            "{messages}"
        );

        // In a trusted author's own signed commit it runs at once.
        let (repo, base) = signed_shop(&key, "");
        with_custom_command(&repo, &marker);
        repo.commit_by(DEV, None, Sign::Ssh(&key), "mark");
        let run = static_ci(&repo, &base, None);
        assert!(
            marker.exists(),
            "the trusted command did not run: {}{}",
            run.stdout,
            run.stderr
        );
        assert!(
            run.json()["waivers"]
                .to_string()
                .contains("\"status\":\"acknowledged\""),
            "{}",
            run.stdout
        );
        std::fs::remove_file(&marker).unwrap();

        // From a fork, never: whoever the commit claims to be.
        let event = marks.path().join("event.json");
        std::fs::write(
            &event,
            r#"{"action": "synchronize", "pull_request": {"number": 7, "head": {"repo": {"full_name": "someone/shop"}}, "base": {"repo": {"full_name": "acme/shop"}}}}"#,
        )
        .unwrap();
        let run = static_ci(&repo, &base, Some(&event));
        assert!(!marker.exists(), "a fork's command ran: {}", run.stdout);
        // Nor does a fork's claim to be a trusted author count for anything else.
        let statuses = run.json()["waivers"].to_string();
        assert!(!statuses.contains("\"status\":\"acknowledged\""), "{statuses}");
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        let custom: Vec<String> = run.json()["waivers"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|w| w["rules"][0] == "gates.static.custom")
            .map(|w| w["status"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(custom, vec!["held"]);
    }

    #[test]
    fn a_tool_committed_into_the_repository_is_never_run() {
        let marks = tempfile::tempdir().unwrap();
        let marker = marks.path().join("ran");
        let (repo, base) = shop(Some("gates:\n  static:\n    tools: [ruff]\n"));
        // A "ruff" committed where a virtualenv would put one.
        repo.write(".venv/bin/ruff", format!("#!/bin/sh\ntouch {}\n", marker.display()));
        repo.git(&["add", "-f", ".venv/bin/ruff"]);
        repo.git(&["update-index", "--chmod=+x", ".venv/bin/ruff"]);
        std::fs::set_permissions(
            repo.path().join(".venv/bin/ruff"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        repo.write("shop/cart.py", "import os\ndef total(xs):\n    return sum(xs)\n");
        commit_as(&repo, "Dev <dev@acme.io>", None);
        let run = repo.run(&["static", "--base", &base, "--format", "json"]);
        assert!(!marker.exists(), "the committed tool ran: {}{}", run.stdout, run.stderr);
        // The ruff on PATH ran instead, and found the unused import.
        assert!(
            run.findings().iter().any(|f| f.starts_with("static/ruff:F401")),
            "{:?} {}",
            run.findings(),
            run.stderr
        );
    }
}

/// The base's config is found where the change's is, in any file it may
/// live in: moving the settings from `pyproject.toml` to a new
/// `.loki-gate.yaml` (which takes precedence) lowers nothing unnoticed.
#[test]
fn a_config_moved_to_another_file_is_still_held_to_the_base() {
    let (repo, _) = shop(None);
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\n\n[tool.loki-gate.rules]\n\"mock/tautological-assertion\" = \"deny\"\n",
    );
    let base = repo.commit("settings in pyproject.toml");
    repo.write(".loki-gate.yaml", "rules:\n  mock/tautological-assertion: allow\n")
        .write("tests/test_cart.py", HOLLOW);
    commit_as(&repo, "Dev <dev@acme.io>", Some(AGENT));
    let run = ci(&repo, &["mock", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        vec![
            "meta/waiver-added error .loki-gate.yaml:2".to_string(),
            "mock/tautological-assertion error tests/test_cart.py:6".to_string(),
        ]
    );
}

mod identity {
    //! Acknowledgment by authorship needs a signature (issue 54, "Forged
    //! identity"): `git -c user.email=dev@acme.io commit` and `--author`
    //! write any name, so a trusted author's commit counts only when signed
    //! with a key the base's `trusted-signers` lists, and both its author
    //! and committer are trusted and no agent's.

    use super::{DEV, SIGNERS, SUPPRESSED, TRUSTING, ci, shop_with, signed_shop};
    use crate::support::signing::{GpgKey, Sign, SshKey};
    use crate::support::{Run, TestRepo};

    /// The waivers of a JSON run, as `status acknowledged_by`.
    fn statuses(run: &Run) -> Vec<String> {
        run.json()["waivers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                format!(
                    "{} {}",
                    w["status"].as_str().unwrap(),
                    w["acknowledged_by"].as_str().unwrap_or("-")
                )
            })
            .collect()
    }

    fn mock(repo: &TestRepo, base: &str) -> Run {
        ci(repo, &["mock", "--base", base, "--format", "json"])
    }

    /// What blocks when the suppression is held: the finding it covered,
    /// and the waiver itself.
    fn held(run: &Run) {
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        assert_eq!(
            run.findings(),
            vec![
                "mock/tautological-assertion error tests/test_cart.py:6".to_string(),
                "meta/waiver-added error tests/test_cart.py:6".to_string(),
            ]
        );
        assert_eq!(statuses(run), vec!["held -"]);
    }

    fn notes(run: &Run) -> String {
        run.json()["findings"][1]["notes"].to_string()
    }

    #[test]
    fn a_commit_signed_with_a_key_the_base_lists_acknowledges_its_waiver() {
        let key = SshKey::new();
        let (repo, base) = signed_shop(&key, "");
        repo.write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Ssh(&key), "stub the total");
        let run = mock(&repo, &base);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(run.findings().is_empty(), "{:?}", run.findings());
        assert_eq!(
            statuses(&run),
            vec!["acknowledged its trusted author Dev <dev@acme.io>, signed with the trusted key of dev@acme.io"]
        );
    }

    /// `git replace <agent's commit> <a commit the lead signed>` made
    /// `git log --format=%G?` read the lead's signature on the agent's
    /// unsigned commit (issue 63): git is run with replace refs ignored,
    /// and a graft file, which libgit2 follows too, stops the run.
    #[test]
    fn a_replace_ref_or_a_graft_does_not_lend_a_commit_a_signature() {
        let key = SshKey::new();
        let (repo, base) = signed_shop(&key, "");
        repo.write("tests/test_cart.py", SUPPRESSED);
        let signed = repo.commit_by(DEV, None, Sign::Ssh(&key), "stub the total");
        repo.git(&["reset", "-q", "--hard", &base]);
        repo.write("tests/test_cart.py", SUPPRESSED);
        let unsigned = repo.commit_by(DEV, None, Sign::Unsigned, "stub the total, again");
        repo.git(&["replace", &unsigned, &signed]);
        held(&mock(&repo, &base));

        repo.git(&["replace", "-d", &unsigned]);
        let grafts = repo.path().join(".git/info/grafts");
        std::fs::write(&grafts, format!("{unsigned} {base}\n")).unwrap();
        let run = mock(&repo, &base);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("rewrites the repository's history (git's deprecated grafts)"),
            "{}",
            run.stderr
        );
    }

    #[test]
    fn a_forged_unsigned_author_is_held_in_ci() {
        let key = SshKey::new();
        let (repo, base) = signed_shop(&key, "");
        repo.write("tests/test_cart.py", SUPPRESSED);
        // `git -c user.name=Dev -c user.email=dev@acme.io commit`: the
        // trusted name, with no agent trailer, and no signature.
        let head = repo.commit_by(DEV, None, Sign::Unsigned, "stub the total");
        let run = mock(&repo, &base);
        held(&run);
        let said = notes(&run);
        assert!(
            said.contains(&format!(
                "not acknowledged by its author: {} is not signed: its author counts only in a commit signed with a key the base's `trusted-signers` (.github/allowed_signers) lists; anyone can write an author's name",
                &head[..7]
            )),
            "{said}"
        );

        // With no `trusted-signers` at the base, no name counts at all.
        let (repo, base) = shop_with(&[(".loki-gate.yaml", Some(TRUSTING.to_string()))]);
        repo.write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Unsigned, "stub the total");
        let run = mock(&repo, &base);
        held(&run);
        assert!(
            notes(&run).contains("who can acknowledge it: no one yet: the base's config names no `trusted-signers`"),
            "{}",
            notes(&run)
        );
    }

    #[test]
    fn a_trusted_author_with_an_agent_or_untrusted_committer_is_held() {
        let key = SshKey::new();
        for (committer, sign) in [
            ("Claude <noreply@anthropic.com>", Sign::Unsigned),
            // Signed with the trusted key, even: the agent committed it.
            ("Claude <noreply@anthropic.com>", Sign::Ssh(&key)),
            ("Mallory <m@elsewhere.example>", Sign::Ssh(&key)),
        ] {
            let (repo, base) = signed_shop(&key, "");
            repo.write("tests/test_cart.py", SUPPRESSED);
            let head = repo.commit_by(committer, Some("Lead <lead@acme.io>"), sign, "stub the total");
            let run = mock(&repo, &base);
            held(&run);
            if committer.contains("anthropic") {
                assert_eq!(
                    run.json()["waivers"][0]["authors"][0],
                    format!(
                        "Lead <lead@acme.io>, committed by Claude <noreply@anthropic.com> ({})",
                        &head[..7]
                    )
                );
            }
        }
    }

    #[test]
    fn a_signature_by_a_key_the_base_does_not_list_is_held() {
        let (trusted, stranger) = (SshKey::new(), SshKey::new());
        let (repo, base) = signed_shop(&trusted, "");
        repo.write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Ssh(&stranger), "stub the total");
        let run = mock(&repo, &base);
        held(&run);
        let said = notes(&run);
        assert!(
            said.contains(
                "is signed with a key the base's `trusted-signers` (.github/allowed_signers) does not list (SHA256:"
            ),
            "{said}"
        );
    }

    #[test]
    fn a_signers_list_the_change_adds_or_edits_does_not_count() {
        // The change adds its own key to the base's list, and signs with it.
        let (trusted, own) = (SshKey::new(), SshKey::new());
        let (repo, base) = signed_shop(&trusted, "");
        repo.write(
            SIGNERS,
            format!("{}{}", trusted.allowed("dev@acme.io"), own.allowed("dev@acme.io")),
        )
        .write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Ssh(&own), "stub the total");
        let run = mock(&repo, &base);
        held(&run);

        // The base names a list it does not have; the change adds one.
        let (repo, base) = shop_with(&[(
            ".loki-gate.yaml",
            Some(format!("{TRUSTING}trusted-signers: {SIGNERS}\n")),
        )]);
        repo.write(SIGNERS, own.allowed("dev@acme.io"))
            .write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Ssh(&own), "stub the total");
        let run = mock(&repo, &base);
        held(&run);
        assert!(
            notes(&run).contains("(.github/allowed_signers; .github/allowed_signers: not in the base revision)"),
            "{}",
            notes(&run)
        );

        // Nor does a list the change only has in its working tree.
        let (repo, base) = signed_shop(&trusted, "");
        repo.write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Ssh(&own), "stub the total");
        repo.write(SIGNERS, own.allowed("dev@acme.io"));
        let run = mock(&repo, &base);
        held(&run);
    }

    #[test]
    fn a_verifier_missing_from_path_is_named_and_trusts_no_one() {
        let key = SshKey::new();
        let (repo, base) = signed_shop(&key, "");
        repo.write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Ssh(&key), "stub the total");
        // git alone on PATH: no ssh-keygen to check the signature with.
        let bin = tempfile::tempdir().unwrap();
        let git = String::from_utf8(
            std::process::Command::new("sh")
                .args(["-c", "command -v git"])
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap();
        std::os::unix::fs::symlink(git.trim(), bin.path().join("git")).unwrap();
        let run = repo.run_env(
            &["mock", "--base", &base, "--format", "json"],
            &[("CI", "true"), ("PATH", bin.path().to_str().unwrap())],
        );
        held(&run);
        let said = notes(&run);
        assert!(said.contains("could not be checked: cannot run ssh-keygen"), "{said}");
    }

    #[test]
    fn unsigned_trusted_authorship_counts_only_off_ci_when_the_base_opts_in() {
        let opted_in = format!("{TRUSTING}trust-unsigned-authors: local\n");
        let (repo, base) = shop_with(&[(".loki-gate.yaml", Some(opted_in))]);
        repo.write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Unsigned, "stub the total");
        // On the developer's machine: acknowledged.
        let local = repo.run(&["mock", "--base", &base, "--format", "json"]);
        assert_eq!(local.code, 0, "{}{}", local.stdout, local.stderr);
        assert!(local.findings().is_empty(), "{:?}", local.findings());
        assert_eq!(
            statuses(&local),
            vec![
                "acknowledged its trusted author Dev <dev@acme.io>, unsigned (`trust-unsigned-authors: local`: not in CI)"
            ]
        );
        // In CI: held, whatever the base says.
        held(&mock(&repo, &base));

        // Without the opt-in, a local run only warns.
        let (repo, base) = shop_with(&[(".loki-gate.yaml", Some(TRUSTING.to_string()))]);
        repo.write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Unsigned, "stub the total");
        let local = repo.run(&["mock", "--base", &base, "--format", "json"]);
        assert_eq!(local.code, 0, "{}", local.stdout);
        assert_eq!(
            local.findings(),
            vec!["meta/waiver-added warning tests/test_cart.py:6".to_string()]
        );

        // The change cannot opt itself in: only the base's value counts.
        let (repo, base) = shop_with(&[(".loki-gate.yaml", Some(TRUSTING.to_string()))]);
        repo.write(".loki-gate.yaml", format!("{TRUSTING}trust-unsigned-authors: local\n"))
            .write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Unsigned, "trust myself");
        let local = repo.run(&["mock", "--base", &base, "--format", "json"]);
        assert_eq!(statuses(&local), vec!["warned -", "warned -"], "{}", local.stdout);
    }

    #[test]
    fn an_openpgp_signature_counts_only_with_a_key_the_base_lists() {
        let (trusted, stranger) = (GpgKey::new("Dev", "dev@acme.io"), GpgKey::new("Dev", "dev@acme.io"));
        let keys = ".github/maintainers.asc";
        let (repo, base) = shop_with(&[
            (
                ".loki-gate.yaml",
                Some(format!("{TRUSTING}trusted-signers: [{keys}]\n")),
            ),
            (keys, Some(trusted.armored())),
        ]);
        repo.write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Gpg(&trusted), "stub the total");
        let run = mock(&repo, &base);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert_eq!(
            statuses(&run),
            vec!["acknowledged its trusted author Dev <dev@acme.io>, signed with the trusted key of Dev <dev@acme.io>"]
        );

        repo.git(&["reset", "-q", "--hard", &base]);
        repo.write("tests/test_cart.py", SUPPRESSED);
        repo.commit_by(DEV, None, Sign::Gpg(&stranger), "stub the total");
        let run = mock(&repo, &base);
        held(&run);
    }
}
