//! Holding the line (issue 52): a change run blocks only for what the change
//! introduced. A finding the gate also raises on the base revision of the
//! same file is a warning marked `at_base`, counted apart in the summary;
//! `pre-existing: block` keeps its level; `--all-files` is a full audit.

use crate::support::{Run, TestRepo};

const CALC: &str = "def add(a, b):\n    return a + b\n";

/// A test file whose `test_old` is hollow (it asserts `True`) beside a real test.
const HOLLOW_AT_BASE: &str = "from calc import add\n\n\ndef test_old():\n    add(1, 2)\n    assert True\n\n\ndef test_good():\n    assert add(1, 2) == 3\n";

/// A base commit with `calc.py` and a test file holding one hollow test.
fn base() -> (TestRepo, String) {
    let repo = TestRepo::new();
    repo.write("calc.py", CALC).write("tests/test_calc.py", HOLLOW_AT_BASE);
    let base = repo.commit("base");
    (repo, base)
}

fn mock(repo: &TestRepo, base: &str) -> Run {
    repo.run(&["mock", "--base", base, "--format", "json"])
}

#[test]
fn a_hollow_test_the_base_had_warns_and_one_the_change_wrote_blocks() {
    let (repo, base) = base();
    // The change adds a real test to the file: the old hollow one is not its doing.
    repo.write(
        "tests/test_calc.py",
        format!("{HOLLOW_AT_BASE}\n\ndef test_more():\n    assert add(2, 2) == 4\n"),
    );
    let run = mock(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        ["mock/tautological-assertion warning tests/test_calc.py:6 at-base"]
    );
    let json = run.json();
    assert_eq!(json["summary"]["at_base"], 1, "{json}");
    assert_eq!(json["summary"]["errors"], 0, "{json}");
    let note = json["findings"][0]["notes"][0].as_str().unwrap();
    assert!(
        note.starts_with(&format!(
            "already at the base ({}): this change did not introduce it",
            &base[..7]
        )),
        "{note}"
    );
    assert!(
        note.contains("`gates.mock.pre-existing: block` makes it block"),
        "{note}"
    );

    // A hollow test the change writes blocks, beside the warning.
    repo.write(
        "tests/test_calc.py",
        format!("{HOLLOW_AT_BASE}\n\ndef test_new():\n    add(2, 2)\n    assert True\n"),
    );
    let run = mock(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "mock/tautological-assertion warning tests/test_calc.py:6 at-base",
            "mock/tautological-assertion error tests/test_calc.py:15",
        ]
    );

    // The text summary counts them apart.
    let text = repo.run(&["mock", "--base", &base]);
    assert!(
        text.stdout
            .contains("mock: blocked (1 error, 1 warning, 0 notes, 1 found at the base, 1 file)"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_source_change_does_not_block_for_its_dependents_old_hollow_tests() {
    let (repo, base) = base();
    repo.write("calc.py", "def add(a, b):\n    return b + a\n");
    let run = mock(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        ["mock/tautological-assertion warning tests/test_calc.py:6 at-base"]
    );
    // The same in the pre-commit hook's scope.
    repo.git(&["add", "-A"]);
    let staged = repo.run(&["mock", "--staged", "--format", "json"]);
    assert_eq!(staged.code, 0, "{}", staged.stdout);
    assert_eq!(staged.marked(), run.marked());
}

#[test]
fn a_hollow_test_kept_hollow_through_an_edit_or_a_rename_is_still_the_base_s() {
    let (repo, base) = base();
    // Its first lines edited (the fingerprint's snippet changes), still hollow.
    repo.write(
        "tests/test_calc.py",
        HOLLOW_AT_BASE.replace("    add(1, 2)\n    assert True", "    add(5, 7)\n    assert True"),
    );
    let run = mock(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        ["mock/tautological-assertion warning tests/test_calc.py:6 at-base"]
    );

    // Renamed (git pairs the two paths): the base's findings follow the file.
    repo.git(&["checkout", "-q", "--", "tests/test_calc.py"]);
    repo.git(&["mv", "tests/test_calc.py", "tests/test_sums.py"]);
    let run = mock(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        ["mock/tautological-assertion warning tests/test_sums.py:6 at-base"]
    );
}

#[test]
fn a_copy_of_a_hollow_test_and_a_second_one_beside_it_are_the_change_s() {
    let (repo, base) = base();
    // A new file holding the same hollow test: nothing of it was at the base.
    repo.write("tests/test_copy.py", HOLLOW_AT_BASE);
    let run = mock(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(run.marked(), ["mock/tautological-assertion error tests/test_copy.py:6"]);
    repo.remove("tests/test_copy.py");

    // The same assertion written again in the same test: the base had one,
    // and the copy on the changed line is the one that blocks.
    repo.write(
        "tests/test_calc.py",
        HOLLOW_AT_BASE.replace("    assert True\n", "    assert True\n    assert True\n"),
    );
    let run = mock(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "mock/tautological-assertion warning tests/test_calc.py:6 at-base",
            "mock/tautological-assertion error tests/test_calc.py:7",
        ]
    );
}

#[test]
fn pre_existing_block_keeps_the_level_and_all_files_is_an_audit() {
    let (repo, _) = base();
    repo.write("calc.py", "def add(a, b):\n    return b + a\n");
    let all = repo.run(&["mock", "--all-files", "--format", "json"]);
    assert_eq!(all.code, 1, "{}", all.stdout);
    assert_eq!(all.marked(), ["mock/tautological-assertion error tests/test_calc.py:6"]);

    // The base asks for the old behaviour: the finding blocks, still marked.
    repo.write(".loki-gate.yaml", "gates:\n  mock:\n    pre-existing: block\n");
    repo.commit("block what the base had");
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("calc.py", "def add(a, b):\n    return a + b + 0\n");
    let run = mock(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        ["mock/tautological-assertion error tests/test_calc.py:6 at-base"]
    );
    assert_eq!(run.json()["summary"]["at_base"], 1);
}

#[test]
fn a_change_that_turns_blocking_what_the_base_had_off_is_held_in_ci() {
    let (repo, _) = base();
    repo.write(".loki-gate.yaml", "gates:\n  mock:\n    pre-existing: block\n");
    let base = repo.commit("block what the base had");
    repo.write(".loki-gate.yaml", "gates:\n  mock:\n    pre-existing: warn\n")
        .write("calc.py", "def add(a, b):\n    return b + a\n");
    repo.commit("let old hollow tests by");
    let run = repo.run_env(&["mock", "--base", &base, "--format", "json"], &[("CI", "true")]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "meta/waiver-added error .loki-gate.yaml:3",
            "mock/tautological-assertion error tests/test_calc.py:6 at-base",
        ]
    );
}

#[test]
fn the_same_change_gives_the_same_report_whatever_the_threads_or_cache() {
    let (repo, base) = base();
    repo.write(
        "tests/test_calc.py",
        format!("{HOLLOW_AT_BASE}\n\ndef test_new():\n    assert True\n"),
    );
    repo.write("calc.py", "def add(a, b):\n    return b + a\n");
    let strip = |run: Run| {
        let mut json = run.json();
        json["summary"]["elapsed_ms"] = 0.into();
        json.to_string()
    };
    let first = strip(mock(&repo, &base));
    let args = ["mock", "--base", &base, "--format", "json"];
    for (threads, cache) in [("1", false), ("8", true), ("2", false), ("1", true)] {
        let mut args = args.to_vec();
        if !cache {
            args.push("--no-cache");
        }
        let again = strip(repo.run_env(&args, &[("RAYON_NUM_THREADS", threads)]));
        assert_eq!(first, again, "{threads} thread(s), cache {cache}");
    }
    assert!(first.contains("\"at_base\":true"), "{first}");
}

#[test]
fn the_pr_comment_and_sarif_set_what_the_base_had_apart() {
    let (repo, base) = base();
    repo.write(
        "tests/test_calc.py",
        format!("{HOLLOW_AT_BASE}\n\ndef test_new():\n    add(2, 2)\n    assert True\n"),
    );
    let md = repo.run(&["mock", "--base", &base, "--format", "markdown"]);
    assert_eq!(md.code, 1, "{}", md.stdout);
    assert!(
        md.stdout.contains("(1 error, 1 warning, 0 notes, 1 found at the base)"),
        "{}",
        md.stdout
    );
    let (new, old) = md
        .stdout
        .split_once("<details><summary>1 finding the base already had (not this change's)</summary>")
        .unwrap_or_else(|| panic!("{}", md.stdout));
    assert!(
        new.contains("`tests/test_calc.py:15`") && !new.contains("`tests/test_calc.py:6`"),
        "{new}"
    );
    assert!(old.contains("`tests/test_calc.py:6`"), "{old}");

    let sarif = repo.run(&["mock", "--base", &base, "--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_str(&sarif.stdout).unwrap();
    let states: Vec<(u64, Option<&str>)> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap(),
                r["baselineState"].as_str(),
            )
        })
        .collect();
    assert_eq!(states, [(6, Some("unchanged")), (15, None)]);
}
