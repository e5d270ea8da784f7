//! The heldout gate through the binary: selection, sealing, tampering,
//! running, waivers, and the promise that a check's content never shows
//! without `--reveal`.

use std::path::Path;

use serde_json::Value;

use crate::support::{Run, TestRepo};

/// A checklist of `n` checks; check `i` runs `command(i)`.
fn checklist(n: usize, command: impl Fn(usize) -> String) -> String {
    let mut text = String::from("items:\n");
    for i in 0..n {
        text.push_str(&format!(
            "  - id: check-{i}\n    title: secret behaviour {i}\n    check: {}\n",
            serde_json::to_string(&command(i)).unwrap()
        ));
    }
    text
}

/// A repository with heldout enabled and `checklist.yaml` beside it, kept
/// out of git (a tracked checklist keeps the held-out items in history).
fn repo_with(list: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  heldout:\n    enabled: true\n    timeout: 5s\n",
    );
    repo.commit("config");
    repo.write(".git/info/exclude", "checklist.yaml\n")
        .write("checklist.yaml", list);
    repo
}

fn select(repo: &TestRepo, into: &Path) -> Run {
    repo.run(&[
        "heldout",
        "select",
        "--checklist",
        "checklist.yaml",
        "--into",
        into.to_str().unwrap(),
    ])
}

fn reserved_ids(into: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(into.join("heldout-checks.yaml")).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("- id: "))
        .map(|id| id.trim_matches('"').to_string())
        .collect()
}

fn gate(repo: &TestRepo, into: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["heldout", "--checks", into.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    repo.run(&args)
}

fn findings(run: &Run) -> Vec<(String, String)> {
    let json: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    let mut out: Vec<(String, String)> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_quarter_is_held_out_deterministically_and_never_reselected() {
    for (n, want) in [(3, 0), (4, 1), (10, 3), (40, 5)] {
        let list = checklist(n, |i| format!("test {i} -ge 0"));
        let repo = repo_with(&list);
        let into = tempfile::tempdir().unwrap();
        let run = select(&repo, into.path());
        assert_eq!(run.code, 0, "{}", run.stderr);
        let ids = reserved_ids(into.path());
        assert_eq!(ids.len(), want, "N = {n}");
        let visible = repo.read("checklist.yaml");
        for id in &ids {
            assert!(!visible.contains(&format!("\"{id}\"")), "{id} is still visible");
        }
        if want > 0 {
            assert_eq!(visible.matches("- id: ").count(), n - want);
        } else {
            assert_eq!(visible, list, "nothing held out: the checklist is untouched");
        }

        // The same checklist elsewhere reserves the same ids.
        let other = repo_with(&list);
        let elsewhere = tempfile::tempdir().unwrap();
        select(&other, elsewhere.path());
        assert_eq!(reserved_ids(elsewhere.path()), ids);

        // Again: nothing is reselected, nothing is rewritten.
        let before = (
            repo.read("checklist.yaml"),
            std::fs::read_to_string(into.path().join("heldout-checks.yaml")).unwrap(),
        );
        let again = select(&repo, into.path());
        assert_eq!(again.code, 0);
        assert!(again.stderr.contains("selected before"), "{}", again.stderr);
        assert_eq!(
            (
                repo.read("checklist.yaml"),
                std::fs::read_to_string(into.path().join("heldout-checks.yaml")).unwrap()
            ),
            before
        );
    }
}

#[test]
fn checks_pass_fail_time_out_and_are_waived_by_id_only() {
    // Of the five held out (1, 4, 8, 30, 36), check 1 fails and check 30
    // sleeps past its own 1 s limit; everything else passes.
    let list = checklist(40, |i| match i {
        1 => "echo SECRET-OUTPUT-$((40+2)); exit 4".to_string(),
        30 => "sleep 30".to_string(),
        _ => format!("test {i} -ge 0"),
    })
    .replace(
        "    check: \"sleep 30\"\n",
        "    check: \"sleep 30\"\n    timeout: 1s\n",
    );
    let repo = repo_with(&list);
    let into = tempfile::tempdir().unwrap();
    select(&repo, into.path());
    let ids = reserved_ids(into.path());
    assert_eq!(ids.len(), 5);
    let started = std::time::Instant::now();
    let run = gate(&repo, into.path(), &[]);
    assert!(started.elapsed().as_secs() < 20, "a check was not cut off at its limit");
    let expected = |id: &str| -> Option<(String, String)> {
        let i: usize = id.trim_start_matches("check-").parse().unwrap();
        match i {
            1 => Some(("heldout/failed".into(), format!("held-out check {id} failed (exit 4)"))),
            30 => Some((
                "heldout/failed".into(),
                format!("held-out check {id} failed (timed out after 1s)"),
            )),
            _ => None,
        }
    };
    let mut want: Vec<(String, String)> = ids.iter().filter_map(|id| expected(id)).collect();
    want.sort();
    assert_eq!(ids, ["check-1", "check-4", "check-8", "check-30", "check-36"]);
    assert_eq!(want.len(), 2);
    assert_eq!(findings(&run), want);
    assert_eq!(run.code, 1);
    // Never the command, the title or the output.
    for secret in ["SECRET-OUTPUT", "echo ", "secret behaviour", "sleep 30", "test "] {
        assert!(!run.stdout.contains(secret), "{secret} leaked: {}", run.stdout);
        assert!(!run.stderr.contains(secret), "{secret} leaked: {}", run.stderr);
    }
    let text = repo.run(&[
        "heldout",
        "--checks",
        into.path().to_str().unwrap(),
        "--format",
        "markdown",
    ]);
    assert!(!text.stdout.contains("SECRET") && !text.stdout.contains("secret behaviour"));

    // --reveal shows them.
    let revealed = gate(&repo, into.path(), &["--reveal"]);
    assert!(revealed.stdout.contains("SECRET-OUTPUT-42"), "{}", revealed.stdout);
    assert!(revealed.stdout.contains("secret behaviour"));

    // Waived: not run, named with the reason; the rest still decide.
    let failing: Vec<&String> = ids.iter().filter(|id| expected(id).is_some()).collect();
    let waivers: String = failing
        .iter()
        .map(|id| format!("      - {{ id: {id}, reason: \"tracked in #12\" }}\n"))
        .collect();
    repo.write(
        ".loki-gate.yaml",
        format!("gates:\n  heldout:\n    enabled: true\n    timeout: 5s\n    waivers:\n{waivers}"),
    );
    // Waivers added in the working tree lower the bar: a warning outside CI
    // (tests/integration/trust.rs), not this test's subject.
    let run = gate(&repo, into.path(), &["-A", "meta/waiver-added"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let found = findings(&run);
    assert_eq!(found.len(), failing.len());
    assert!(
        found
            .iter()
            .all(|(rule, message)| rule == "heldout/waived" && message.ends_with("is waived: tracked in #12"))
    );

    let state: Value = serde_json::from_str(&repo.read(".loki-gate/heldout.json")).unwrap();
    let results = state["last_run"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 5);
    assert!(results.iter().any(|r| r["outcome"] == "waived"));
    assert_eq!(state["last_run"]["failure_signature"], "");
    assert_eq!(state["manifest"]["reserved"].as_array().unwrap().len(), 5);
}

#[test]
fn edited_deleted_and_added_checks_are_tampering_and_never_run() {
    let repo = repo_with(&checklist(10, |i| format!("touch ran-{i}")));
    let into = tempfile::tempdir().unwrap();
    select(&repo, into.path());
    let ids = reserved_ids(into.path());
    assert_eq!(ids.len(), 3);
    let file = into.path().join("heldout-checks.yaml");
    let original = std::fs::read_to_string(&file).unwrap();

    let clean = gate(&repo, into.path(), &[]);
    assert_eq!(clean.code, 0, "{}", clean.stdout);

    // Edit one check's command (to something that would pass), delete another, add a third.
    let n0: usize = ids[0].trim_start_matches("check-").parse().unwrap();
    let edited = original
        .replace(&format!("\"touch ran-{n0}\""), "\"touch tampered\"")
        .replace(
            &format!(
                "  - id: \"{}\"\n    title: \"secret behaviour {}\"\n    check: \"touch ran-{}\"\n",
                ids[1],
                ids[1].trim_start_matches("check-"),
                ids[1].trim_start_matches("check-")
            ),
            "",
        )
        + "  - id: \"sneaky\"\n    check: \"touch sneaky\"\n";
    assert_ne!(edited, original);
    std::fs::write(&file, edited).unwrap();
    for f in ["tampered", "sneaky"] {
        let _ = std::fs::remove_file(repo.path().join(f));
    }
    let run = gate(&repo, into.path(), &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let mut want = vec![
        (
            "heldout/tampered".to_string(),
            format!("held-out check {} was changed since it was selected", ids[0]),
        ),
        (
            "heldout/tampered".to_string(),
            format!("held-out check {} is missing from the checks directory", ids[1]),
        ),
        (
            "heldout/tampered".to_string(),
            "held-out check sneaky was never selected: the checks directory gained it".to_string(),
        ),
    ];
    want.sort();
    assert_eq!(findings(&run), want);
    assert!(!repo.path().join("tampered").exists(), "an edited check ran");
    assert!(!repo.path().join("sneaky").exists(), "an added check ran");
    assert!(!run.stdout.contains("touch"), "{}", run.stdout);
}

#[test]
fn missing_pieces_are_inconclusive_and_require_makes_them_block() {
    let repo = repo_with(&checklist(4, |_| "true".into()));
    let into = tempfile::tempdir().unwrap();
    // No selection yet.
    let run = gate(&repo, into.path(), &[]);
    assert_eq!(run.code, 0);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["outcome"], "inconclusive", "{}", run.stdout);
    assert!(findings(&run)[0].1.starts_with("no held-out selection is recorded"));
    assert_eq!(gate(&repo, into.path(), &["--require"]).code, 1);
    // Selected, but no checks directory given.
    select(&repo, into.path());
    let run = repo.run(&["heldout"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("no checks directory"), "{}", run.stdout);
    assert_eq!(repo.run(&["heldout", "--require"]).code, 1);
    // The variable names it.
    let run = repo.run_env(
        &["heldout"],
        &[("LOKI_GATE_HELDOUT_DIR", into.path().to_str().unwrap())],
    );
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("held-out checks: 1 of 1 passed"), "{}", run.stdout);
}

#[test]
fn selection_refuses_the_workspace_and_bad_checklists() {
    let repo = repo_with(&checklist(8, |_| "true".into()));
    let run = select(&repo, &repo.path().join("held"));
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("is inside the repository"), "{}", run.stderr);
    assert_eq!(repo.read("checklist.yaml"), checklist(8, |_| "true".into()));

    repo.write(
        "checklist.yaml",
        "items:\n  - id: a\n  - id: a\n    check: x\n  - [1]\n",
    );
    let into = tempfile::tempdir().unwrap();
    let run = select(&repo, into.path());
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("checklist.yaml:2:5: `a` needs a `check`"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("a check must be a mapping"), "{}", run.stderr);
    assert!(!into.path().join("heldout-checks.yaml").exists());
    let run = repo.run(&[
        "heldout",
        "select",
        "--checklist",
        "missing.yaml",
        "--into",
        into.path().to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("could not read the checklist"), "{}", run.stderr);

    // Every problem at once, in every class: the target, and each problem
    // of each item (not only an item's first).
    repo.write(
        "checklist.yaml",
        "items:\n  - id: b\n    run: make test\n    timeout: forever\n  - check: true\n    title: [x]\n",
    );
    let run = select(&repo, &repo.path().join("held"));
    assert_eq!(run.code, 2);
    let lines: Vec<&str> = run.stderr.lines().collect();
    for want in [
        "/held is inside the repository",
        "checklist.yaml:2:5: unknown key `run`",
        "checklist.yaml:2:5: `b` needs a `check`",
        "checklist.yaml:2:5: `b` timeout `forever` is not a duration",
        "checklist.yaml:5:5: `check` must be a string, found a boolean",
        "checklist.yaml:5:5: `title` must be a string, found a list",
        "checklist.yaml:5:5: a check needs an `id`",
    ] {
        assert!(lines.iter().any(|l| l.contains(want)), "{want}:\n{}", run.stderr);
    }
    assert!(!repo.path().join("held").exists());
}

/// Held-out checks the build loop can read are not held out (issue 25):
/// `heldout --checks DIR` refuses a directory inside the repository, or one
/// that links into it, as `select` refuses to write there.
#[test]
fn checks_inside_the_workspace_are_refused_at_run_time() {
    let repo = repo_with(&checklist(4, |_| "true".into()));
    let outside = tempfile::tempdir().unwrap();
    assert_eq!(select(&repo, outside.path()).code, 0);
    let inside = repo.path().join("ci/heldout");
    std::fs::create_dir_all(&inside).unwrap();
    std::fs::copy(
        outside.path().join("heldout-checks.yaml"),
        inside.join("heldout-checks.yaml"),
    )
    .unwrap();
    let linked = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&inside, linked.path().join("checks")).unwrap();
    let file_linked = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        inside.join("heldout-checks.yaml"),
        file_linked.path().join("heldout-checks.yaml"),
    )
    .unwrap();
    for dir in [
        inside.clone(),
        linked.path().join("checks"),
        file_linked.path().to_path_buf(),
    ] {
        let run = gate(&repo, &dir, &[]);
        assert_eq!(run.code, 2, "{}: {}{}", dir.display(), run.stdout, run.stderr);
        assert!(
            run.stderr.contains("inside the repository the build loop works in"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(gate(&repo, outside.path(), &[]).code, 0);
}

/// `select` on a checklist git tracks would leave the held-out items in its
/// history: refused, with how to move it, unless `--force` (said loudly).
#[test]
fn selecting_from_a_tracked_checklist_is_refused_without_force() {
    let repo = repo_with(&checklist(8, |_| "true".into()));
    repo.write(".git/info/exclude", "");
    repo.commit("track the checklist");
    let into = tempfile::tempdir().unwrap();
    let run = select(&repo, into.path());
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("checklist.yaml is tracked by git: the items held out from it stay readable in its history")
            && run.stderr.contains("move the checklist out of the repository first"),
        "{}",
        run.stderr
    );
    assert!(!into.path().join("heldout-checks.yaml").exists(), "nothing selected");

    let forced = repo.run(&[
        "heldout",
        "select",
        "--checklist",
        "checklist.yaml",
        "--into",
        into.path().to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert!(
        forced.stderr.contains("warning: checklist.yaml is tracked by git"),
        "{}",
        forced.stderr
    );
    assert_eq!(reserved_ids(into.path()).len(), 2);
}
