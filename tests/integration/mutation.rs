//! The mutation gate through the binary, on real git histories: for each
//! rule, histories that must fire and look-alikes that must not.

use serde_json::Value;

use crate::support::{Run, TestRepo, git_in};

const CART: &str = "def total(items):\n    return sum(items)\n\n\ndef discount(x):\n    return x * 0.9\n";
const CART_CHANGED: &str = "def total(items):\n    return sum(items) + 1\n\n\ndef discount(x):\n    return x * 0.8\n";
const TESTS: &str = "from shop.cart import total, discount


def test_total():
    assert total([1, 2]) == 3
    assert total([]) == 0


def test_discount():
    assert discount(100) == 90


def test_rounding():
    assert total([0.5, 0.5]) == 1
";

/// A Python project with `shop/cart.py` and its tests, committed as the base.
fn python_project() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("shop/__init__.py", "")
        .write("shop/cart.py", CART)
        .write("tests/test_cart.py", TESTS);
    repo.commit("base");
    repo
}

fn gate(repo: &TestRepo, base: &str) -> Run {
    repo.run(&["mutation", "--base", base, "--format", "json"])
}

#[test]
fn a_changed_expectation_in_the_commit_that_changed_the_code_is_flagged() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", CART_CHANGED).write(
        "tests/test_cart.py",
        TESTS.replace("== 3", "== 4").replace("== 90", "== 80"),
    );
    let commit = repo.commit("make totals one higher");
    let run = gate(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.findings(),
        vec![
            "mutation/assertion-value-changed error tests/test_cart.py:5",
            "mutation/assertion-value-changed error tests/test_cart.py:10",
        ]
    );
    let first = &run.json()["findings"][0];
    assert_eq!(
        first["message"],
        "test `test_total`: the expected value changed from `3` to `4` together with shop/cart.py, which the test imports"
    );
    assert_eq!(first["related"][0]["line"], 5, "the old assertion");
    let notes = first["notes"].to_string();
    assert!(
        notes.contains(&commit[..7]) && notes.contains("make totals one higher"),
        "{notes}"
    );
    assert!(
        run.notices()[0].starts_with(&format!("range: {}..{} (1 commit(s)", &base[..7], &commit[..7])),
        "{:?}",
        run.notices()
    );
}

#[test]
fn look_alikes_of_a_changed_expectation_are_not_flagged() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    // A test-only commit fixing a wrong expectation.
    repo.write("tests/test_cart.py", TESTS.replace("== 90", "== 90.0"));
    repo.commit("tests: 90.0 is the same");
    repo.write(
        "tests/test_cart.py",
        TESTS.replace("== 1\n", "== 1.0\n").replace("== 90", "== 91"),
    );
    repo.commit("tests: fix the discount expectation");
    // Black reformats the test in the same commit as a code change.
    let black = TESTS.replace(
        "assert total([1, 2]) == 3",
        "assert (\n        total(\n            [\n                1,\n                2,\n            ]\n        )\n        == 3\n    )",
    );
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", black.replace("== 90", "== 91"));
    repo.commit("reformat, and change the code");
    // New tests on the branch, tuned with the code later: not at the base.
    repo.write(
        "tests/test_new.py",
        "from shop.cart import total\n\n\ndef test_three():\n    assert total([1, 1, 1]) == 3\n",
    );
    repo.commit("add a test");
    repo.write("shop/cart.py", CART).write(
        "tests/test_new.py",
        "from shop.cart import total\n\n\ndef test_three():\n    assert total([1, 1, 1]) == 4\n",
    );
    repo.commit("tune the new test with the code");
    // A value compared against another name, not a literal.
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{:?}", run.notices());
    assert_eq!(run.code, 0);
}

#[test]
fn renamed_and_moved_tests_pair_with_their_old_selves() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    // Renamed, checks unchanged, with a code change.
    repo.write("shop/cart.py", CART_CHANGED).write(
        "tests/test_cart.py",
        TESTS.replace("test_rounding", "test_halves_add_up"),
    );
    repo.commit("rename a test");
    // Moved to another file in one commit.
    let (stay, moved) = TESTS.split_once("\n\ndef test_discount").unwrap();
    repo.write(
        "tests/test_cart.py",
        stay.replace("test_rounding", "test_halves_add_up"),
    )
    .write(
        "tests/test_discount.py",
        format!("from shop.cart import total, discount\n\n\ndef test_discount{moved}")
            .replace("test_rounding", "test_halves_add_up"),
    );
    repo.commit("split the discount tests out");
    // Renamed and edited: paired by position, so the value change shows.
    let (_, rest) = TESTS.split_once("\n\ndef test_discount").unwrap();
    repo.write("shop/cart.py", CART).write(
        "tests/test_discount.py",
        format!("from shop.cart import total, discount\n\n\ndef test_discount_is_ten_percent{rest}")
            .replace("== 90", "== 80")
            .replace("test_rounding", "test_halves_add_up"),
    );
    repo.commit("discount is 20%");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-value-changed error tests/test_discount.py:5"],
        "{:?}",
        run.notices()
    );
}

#[test]
fn deleted_and_weakened_assertions_are_flagged_and_strengthening_is_not() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    let edited = TESTS
        .replace("    assert total([]) == 0\n", "")
        .replace("assert discount(100) == 90", "assert discount(100) is not None")
        .replace(
            "assert total([0.5, 0.5]) == 1",
            "assert total([0.5, 0.5]) == 1\n    assert isinstance(total([]), int)",
        );
    repo.write("tests/test_cart.py", edited);
    repo.commit("loosen the tests");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec![
            "mutation/assertion-deleted error tests/test_cart.py:4",
            "mutation/assertion-weakened error tests/test_cart.py:9",
        ]
    );
    let messages = run.stdout.clone();
    assert!(
        messages.contains("`==` on `discount(100)` became the weaker `is not`"),
        "{messages}"
    );

    // Strengthening, a matcher migration and checks moved into a helper.
    let repo = TestRepo::new();
    repo.write("src/api.ts", "export const get = (n: number) => [n, n]\n").write(
        "src/api.test.ts",
        "import { get } from './api.js'\nimport { render } from './render'\n\nit('calls', () => {\n  expect(spy).toHaveBeenCalledWith(1)\n  expect(get(1)).toBeTruthy()\n  expect(render()).toBeTruthy()\n})\n\nit('gets', () => {\n  expect(get(2)[0]).toBe(2)\n  expect(get(2)[1]).toBe(2)\n})\n",
    );
    repo.write("src/render.ts", "export const render = () => 1\n");
    let base = repo.commit("base");
    repo.write(
        "src/api.test.ts",
        "import { get } from './api.js'\nimport { render } from './render'\n\nfunction expectPair(v: number[]) {\n  expect(v[0]).toBe(2)\n  expect(v[1]).toBe(2)\n}\n\nit('calls', () => {\n  expect(spy).toHaveBeenNthCalledWith(1, 1);\n  expect(get(1)).toEqual([1, 1]);\n  expect(screen.getByText('a')).toBeInTheDocument();\n})\n\nit('gets', () => {\n  expectPair(get(2))\n})\n",
    );
    repo.commit("stronger checks");
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
}

#[test]
fn javascript_weakening_and_value_changes_through_a_js_specifier() {
    let repo = TestRepo::new();
    repo.write("src/parse.ts", "export const parse = (s: string) => s.split(',').map(Number)\n")
        .write(
            "src/parse.test.ts",
            "import { parse } from './parse.js'\n\ndescribe('parse', () => {\n  it('splits', () => {\n    expect(parse('1,2')).toEqual([1, 2])\n  })\n  it('counts', () => {\n    expect(parse('1,2,3')).toHaveLength(3)\n  })\n})\n",
        );
    let base = repo.commit("base");
    repo.write("src/parse.ts", "export const parse = (s: string) => s.split(';').map(Number)\n")
        .write(
            "src/parse.test.ts",
            "import { parse } from './parse.js'\n\ndescribe('parse', () => {\n  it('splits', () => {\n    expect(parse('1,2')).toBeDefined()\n  })\n  it('counts', () => {\n    expect(parse('1,2,3')).toHaveLength(1)\n  })\n})\n",
        );
    repo.commit("split on semicolons");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec![
            "mutation/assertion-weakened error src/parse.test.ts:5",
            "mutation/assertion-value-changed error src/parse.test.ts:8",
        ]
    );
}

#[test]
fn deleted_and_skipped_tests_are_flagged_unless_they_went_with_their_code() {
    let repo = python_project();
    repo.write("shop/legacy.py", "def old():\n    return 1\n").write(
        "tests/test_legacy.py",
        "from shop.legacy import old\n\n\ndef test_old():\n    assert old() == 1\n\n\ndef test_old_again():\n    assert old() + 1 == 2\n",
    );
    let base = repo.commit("legacy");
    let skipped = TESTS
        .replace("def test_total", "@pytest.mark.skip(reason=\"flaky\")\ndef test_total")
        .replace(
            "def test_discount",
            "@pytest.mark.skipif(sys.platform == \"win32\", reason=\"no locale\")\ndef test_discount",
        );
    let (kept, _) = skipped.split_once("\n\ndef test_rounding").unwrap();
    repo.write("tests/test_cart.py", format!("import sys\n\nimport pytest\n{kept}\n"));
    repo.commit("skip and drop tests");
    // The legacy module goes, and its test file with it: a removal a
    // person acknowledges (issue 52), not one that passes unseen.
    repo.remove("shop/legacy.py");
    repo.remove("tests/test_legacy.py");
    repo.commit("remove the legacy module");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec![
            "mutation/test-deleted-or-skipped error tests/test_cart.py:7",
            "mutation/test-deleted-or-skipped error tests/test_cart.py:13",
            "mutation/test-deleted-or-skipped error tests/test_legacy.py:4",
        ],
        "{}",
        run.stdout
    );
    let text = run.stdout.clone();
    assert!(text.contains("test `test_total` is newly skipped (flaky)"), "{text}");
    assert!(text.contains("test `test_rounding` was deleted"), "{text}");
    assert!(
        text.contains("tests/test_legacy.py was deleted with its 2 tests"),
        "{text}"
    );

    // A test whose subject the step removed, in a test file that stays,
    // went with its code.
    let repo = python_project();
    repo.write("shop/legacy.py", "def old():\n    return 1\n\n\ndef keep():\n    return 2\n").write(
        "tests/test_legacy.py",
        "from shop.legacy import old, keep\n\n\ndef test_old():\n    assert old() == 1\n\n\ndef test_keep():\n    assert keep() == 2\n",
    );
    let base = repo.commit("legacy");
    repo.write("shop/legacy.py", "def keep():\n    return 2\n").write(
        "tests/test_legacy.py",
        "from shop.legacy import keep\n\n\ndef test_keep():\n    assert keep() == 2\n",
    );
    repo.commit("remove old()");
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
    assert!(
        run.notices()
            .iter()
            .any(|n| n.starts_with("1 test(s) deleted together with the code")),
        "{:?}",
        run.notices()
    );
    // The code changed but still has `old()` (deprecated, not removed): its
    // test went without it (nanostores f03827e, "Deprecate deepmap()").
    let repo = python_project();
    repo.write("shop/legacy.py", "def old():\n    return 1\n\n\ndef keep():\n    return 2\n").write(
        "tests/test_legacy.py",
        "from shop.legacy import old, keep\n\n\ndef test_old():\n    assert old() == 1\n\n\ndef test_keep():\n    assert keep() == 2\n",
    );
    let base = repo.commit("legacy");
    repo.write(
        "shop/legacy.py",
        "import warnings\n\n\ndef old():\n    warnings.warn(\"old() goes in 2.0\", DeprecationWarning)\n    return 1\n\n\ndef keep():\n    return 2\n",
    )
    .write(
        "tests/test_legacy.py",
        "from shop.legacy import keep\n\n\ndef test_keep():\n    assert keep() == 2\n",
    );
    repo.commit("deprecate old()");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec!["mutation/test-deleted-or-skipped error tests/test_legacy.py:4"],
        "{}",
        run.stdout
    );

    // A whole test file deleted while its code stays: one finding.
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.remove("tests/test_cart.py");
    repo.commit("drop the cart tests");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec!["mutation/test-deleted-or-skipped error tests/test_cart.py:4"]
    );
    assert!(run.stdout.contains("tests/test_cart.py was deleted with its 3 tests"));

    // Every test taken out of a file that stays (its helpers kept): one
    // finding too, naming them (slab 3292bdf took `mod tests` out of
    // `src/lib.rs`). One test left keeps each deleted one a finding.
    for (kept, want) in [
        ("", vec!["mutation/test-deleted-or-skipped error tests/test_cart.py:4"]),
        (
            "\n\ndef test_kept():\n    assert total([5]) == 5\n",
            vec![
                "mutation/test-deleted-or-skipped error tests/test_cart.py:4",
                "mutation/test-deleted-or-skipped error tests/test_cart.py:9",
                "mutation/test-deleted-or-skipped error tests/test_cart.py:13",
            ],
        ),
    ] {
        let repo = python_project();
        let base = repo.git(&["rev-parse", "HEAD"]);
        repo.write(
            "tests/test_cart.py",
            format!("from shop.cart import total\n\n\ndef helper():\n    return 1\n{kept}"),
        );
        repo.commit("drop the cart tests");
        let run = gate(&repo, &base);
        assert_eq!(run.findings(), want, "{}", run.stdout);
        if kept.is_empty() {
            assert!(
                run.stdout
                    .contains("tests/test_cart.py keeps none of its tests: 3 deleted"),
                "{}",
                run.stdout
            );
        }
    }
}

#[test]
fn a_trailer_acknowledges_an_intended_change_and_needs_a_reason() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    let commit = repo.commit(
        "Raise the discount to 20%\n\nLoki-Gate-Allow: mutation/assertion-value-changed product asked for 20% (PROJ-412)",
    );
    let run = gate(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    // A run by hand takes the trailer; a warning says CI will not from an
    // author no one named trusted (`trailers_acknowledge_only_in_a_trusted_hand`).
    assert_eq!(
        run.findings(),
        vec![
            "meta/waiver-added warning -:0",
            "mutation/assertion-value-changed note tests/test_cart.py:10"
        ]
    );
    assert!(
        run.json()["findings"][1]["notes"]
            .to_string()
            .contains("acknowledged: product asked for 20% (PROJ-412)")
    );
    assert!(
        run.notices().iter().any(|n| n.starts_with(&commit[..7])
            && n.contains("acknowledges mutation/assertion-value-changed (1 finding(s)): product asked")),
        "{:?}",
        run.notices()
    );

    // No reason: nothing is acknowledged, and the report says why.
    repo.write("shop/cart.py", CART)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 70"));
    let next = repo.commit("Again\n\nLoki-Gate-Allow: mutation/assertion-value-changed");
    let run = gate(&repo, &commit);
    assert_eq!(run.code, 1);
    assert!(
        run.notices()
            .iter()
            .any(|n| n.starts_with(&next[..7]) && n.contains("gives no reason")),
        "{:?}",
        run.notices()
    );
}

#[test]
fn trailers_acknowledge_only_in_a_trusted_hand() {
    let repo = python_project();
    let key = crate::support::signing::SshKey::new();
    repo.write(
        ".loki-gate.yaml",
        "trusted-authors: [\"* <lead@acme.io>\"]\ntrusted-signers: .github/allowed_signers\n",
    )
    .write(".github/allowed_signers", key.allowed("lead@acme.io"));
    let base = repo.commit("trust the lead's key");
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    let message = "Raise the discount\n\nLoki-Gate-Allow: mutation/assertion-value-changed product asked for 20%\nCo-authored-by: Claude <noreply@anthropic.com>";
    repo.commit(message);
    let ci = |repo: &TestRepo| repo.run_env(&["mutation", "--base", &base, "--format", "json"], &[("CI", "true")]);
    // The lead's name on an agent's commit: CI holds the trailer, so the
    // bent expectation is an error, and so is the waiver.
    repo.git(&[
        "commit",
        "-q",
        "--amend",
        "--no-edit",
        "--author",
        "Lead <lead@acme.io>",
    ]);
    let run = ci(&repo);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.findings(),
        vec![
            "meta/waiver-added error -:0",
            "mutation/assertion-value-changed error tests/test_cart.py:10"
        ]
    );
    let json = run.json();
    let held = &json["waivers"][0];
    assert_eq!(held["kind"], "trailer");
    assert_eq!(held["status"], "held");
    assert_eq!(held["origin"], "change");
    assert!(
        held["authors"][0].as_str().unwrap().contains("noreply@anthropic.com"),
        "{held}"
    );
    let waiver = json["findings"][0]["message"].as_str().unwrap().to_string();
    assert!(
        waiver.contains("`Loki-Gate-Allow: mutation/assertion-value-changed`"),
        "{waiver}"
    );
    assert!(
        json["findings"][0]["notes"].to_string().contains("* <lead@acme.io>"),
        "{}",
        json["findings"][0]
    );

    // The lead's own signed commit: acknowledged, listed, and the finding is a note.
    repo.git(&["reset", "-q", "--soft", "HEAD~1"]);
    repo.commit_by(
        "Lead <lead@acme.io>",
        None,
        crate::support::signing::Sign::Ssh(&key),
        &message.replace("\nCo-authored-by: Claude <noreply@anthropic.com>", ""),
    );
    let run = ci(&repo);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-value-changed note tests/test_cart.py:10"]
    );
    let json = run.json();
    assert_eq!(json["waivers"][0]["status"], "acknowledged");
    assert_eq!(
        json["waivers"][0]["acknowledged_by"],
        "its trusted author Lead <lead@acme.io>, signed with the trusted key of lead@acme.io"
    );
    // SARIF shows the acknowledged finding as suppressed outside the source.
    let sarif = repo.run_env(&["mutation", "--base", &base, "--format", "sarif"], &[("CI", "true")]);
    let sarif: serde_json::Value = serde_json::from_str(&sarif.stdout).expect("SARIF parses");
    assert_eq!(
        sarif["runs"][0]["results"][0]["suppressions"],
        serde_json::json!([{"kind": "external", "status": "accepted", "justification": "product asked for 20%"}])
    );

    // A trailer in the history the trusted revision has (HEAD, for
    // --all-files) is the base's: honoured.
    let run = repo.run_env(&["mutation", "--all-files", "--format", "json"], &[("CI", "true")]);
    assert_eq!(run.json()["waivers"][0]["status"], "honoured", "{}", run.stdout);
}

#[test]
fn snapshot_files_are_expectation_data() {
    let repo = TestRepo::new();
    repo.write("src/label.ts", "export const label = (n: number) => `#${n}`\n")
        .write(
            "src/label.test.ts",
            "import { label } from './label'\n\nit('labels', () => {\n  expect(label(1)).toMatchSnapshot()\n})\n",
        )
        .write(
            "src/__snapshots__/label.test.ts.snap",
            "// Jest Snapshot v1\n\nexports[`labels 1`] = `\"#1\"`;\n",
        );
    let base = repo.commit("base");
    // The snapshot updated alone: a recorded expectation fixed, not flagged.
    repo.write(
        "src/__snapshots__/label.test.ts.snap",
        "// Jest Snapshot v1\n\nexports[`labels 1`] = `\"# 1\"`;\n",
    );
    repo.commit("snapshot format");
    repo.write("src/label.ts", "export const label = (n: number) => `No. ${n}`\n")
        .write(
            "src/__snapshots__/label.test.ts.snap",
            "// Jest Snapshot v1\n\nexports[`labels 1`] = `\"No. 1\"`;\n",
        );
    repo.commit("relabel, snapshots updated with -u");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-value-changed error src/__snapshots__/label.test.ts.snap:3"]
    );
    assert!(
        run.stdout
            .contains("snapshot `labels 1` changed together with src/label.ts, which its test imports")
    );
}

#[test]
fn low_assertion_density_warns_on_the_tests_a_change_added() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write(
        "tests/test_more.py",
        "from shop.cart import total\n\n\ndef test_a():\n    total([1])\n\n\ndef test_b():\n    total([2])\n\n\ndef test_c():\n    assert total([3]) == 3\n",
    );
    repo.commit("more tests");
    let run = gate(&repo, &base);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.findings(),
        vec!["mutation/low-assertion-density warning tests/test_more.py:4"]
    );
    assert!(
        run.stdout.contains("make 1 assertion(s): 0.33 per test, below 1"),
        "{}",
        run.stdout
    );

    // The same tests with a helper that asserts, and a lower threshold.
    repo.write("tests/test_more.py", "from shop.cart import total\n\n\ndef check(v):\n    assert v\n\n\ndef test_a():\n    check(total([1]))\n\n\ndef test_b():\n    check(total([2]))\n");
    repo.commit("check them");
    assert_eq!(gate(&repo, &base).findings(), Vec::<String>::new());
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  mutation:\n    min-assertions-per-test: 2\n",
    );
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec!["mutation/low-assertion-density warning tests/test_more.py:8"]
    );
}

#[test]
fn staged_and_uncommitted_changes_are_gated() {
    let repo = python_project();
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    let run = repo.run(&["mutation", "--base", "HEAD", "--format", "json"]);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-value-changed error tests/test_cart.py:10"]
    );
    assert!(
        run.json()["findings"][0]["notes"]
            .to_string()
            .contains("in the uncommitted changes")
    );
    assert!(
        run.notices()
            .iter()
            .any(|n| n.contains("the uncommitted changes (2 file(s))"))
    );

    repo.git(&["add", "tests/test_cart.py"]);
    let run = repo.run(&["mutation", "--staged", "--format", "json"]);
    assert_eq!(run.findings(), Vec::<String>::new(), "the code change is not staged");
    repo.git(&["add", "shop/cart.py"]);
    let run = repo.run(&["mutation", "--staged", "--format", "json"]);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-value-changed error tests/test_cart.py:10"]
    );
    assert_eq!(run.code, 1);
}

/// A merge answers only for what differs from every parent (git's combined
/// diff); the commits a merge brings are gated as themselves.
#[test]
fn merges_answer_only_for_what_differs_from_every_parent() {
    // Merging the main line into a branch does not re-report main's change.
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("tests/test_cart.py", TESTS.replace("== 90", "== 90.0"));
    repo.commit("feature: a test-only edit");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("shop/cart.py", CART_CHANGED);
    let main = repo.commit("main: change the code");
    repo.git(&["checkout", "-q", "feature"]);
    repo.git(&["merge", "-q", "--no-edit", "main"]);
    let run = gate(&repo, &main);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
    assert!(
        run.notices()[0].contains("(2 commit(s); 1 merge(s), each answering only for what differs from every parent)"),
        "{:?}",
        run.notices()
    );
    // From before main's change, main's commit is in the range, and gated as itself.
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
    assert!(
        run.notices()[0].contains("(3 commit(s); 1 merge(s)"),
        "{:?}",
        run.notices()
    );

    // A pull request job checks out the merge of the PR into its base: the
    // PR's own commits are gated, each with its own message and trailers.
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["checkout", "-q", "-b", "pr"]);
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    repo.commit("pr: change the discount and its expectation");
    repo.write(
        "tests/test_cart.py",
        TESTS.replace("== 90", "== 80").replace("== 3", "== 4"),
    );
    repo.write("shop/cart.py", CART_CHANGED.replace("sum(items) + 1", "sum(items) + 2"));
    repo.commit("pr: tune the total\n\nLoki-Gate-Allow: mutation/assertion-value-changed the total now adds a fee");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("README.md", "# shop\n");
    let main = repo.commit("main: docs");
    repo.git(&["merge", "-q", "--no-ff", "--no-edit", "pr"]);
    let run = gate(&repo, &main);
    let changed: Vec<(String, String)> = run.json()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "mutation/assertion-value-changed")
        .map(|f| {
            (
                f["severity"].as_str().unwrap().to_string(),
                f["notes"][0].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(changed.len(), 2, "{}", run.stdout);
    assert!(
        changed
            .iter()
            .any(|(sev, note)| sev == "error" && note.contains("pr: change the discount")),
        "{changed:?}"
    );
    assert!(
        changed
            .iter()
            .any(|(sev, note)| sev == "note" && note.contains("pr: tune the total")),
        "the trailer of the PR's own commit acknowledges its change: {changed:?}"
    );
    let all = gate(&repo, &base);
    assert_eq!(
        all.findings(),
        run.findings(),
        "the base before main's commit changes nothing"
    );

    // A merge that edits an expectation while resolving a conflict answers for it.
    let repo = python_project();
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("tests/test_cart.py", TESTS.replace("== 90", "== 91"));
    repo.commit("side: one expectation");
    repo.git(&["checkout", "-q", "main"]);
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("README.md", "# shop\n");
    repo.commit("main: docs");
    repo.git(&["merge", "-q", "-s", "ours", "--no-commit", "side"]);
    repo.write("tests/test_cart.py", TESTS.replace("== 90", "== 93"))
        .write("shop/cart.py", CART_CHANGED);
    repo.commit("merge side, resolved");
    let run = gate(&repo, &base);
    let findings = run.json()["findings"].as_array().unwrap().clone();
    assert_eq!(findings.len(), 1, "{}", run.stdout);
    assert!(
        findings[0]["notes"][0]
            .as_str()
            .unwrap()
            .contains("merge side, resolved"),
        "{}",
        run.stdout
    );
}

#[test]
fn max_commits_all_files_and_a_shallow_clone_say_what_they_gated() {
    let repo = python_project();
    let first = repo.git(&["rev-parse", "HEAD"]);
    for i in 0..3 {
        repo.write("shop/cart.py", format!("{CART}\n# {i}\n"));
        repo.commit(&format!("code {i}"));
    }
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    repo.commit("the change");
    let run = repo.run(&["mutation", "--base", &first, "--max-commits", "2", "--format", "json"]);
    assert_eq!(run.findings().len(), 1);
    assert!(
        run.notices()
            .iter()
            .any(|n| n.starts_with("only the newest 2 commit(s) were inspected"))
    );

    let run = repo.run(&["mutation", "--all-files", "--format", "json"]);
    assert_eq!(run.findings().len(), 1, "{:?}", run.notices());
    assert!(run.notices()[0].starts_with("range: all of "), "{:?}", run.notices());

    // A shallow clone without the base: gated with what it has, and said.
    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", repo.root().display());
    git_in(clone.path(), &["clone", "-q", "--depth", "2", &url, "c"]);
    let dir = clone.path().join("c");
    let run = crate::support::run_cmd(
        crate::support::binary()
            .current_dir(&dir)
            .args(["mutation", "--base", &first, "--format", "json"]),
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let notes = run.notices().join("\n");
    assert!(notes.contains("shallow clone"), "{notes}");
    let findings = run.findings();
    assert_eq!(findings.len(), 2, "the newest commit is still gated: {notes}");
    assert!(
        findings.iter().any(|f| f.starts_with("mutation/inconclusive error")),
        "{findings:?}"
    );
}

/// A shallow clone whose history ends before the base (issue 25): the gate
/// could not compare, so it is inconclusive and blocks by default, naming
/// the fetch that fixes it; before, it printed a note and passed.
#[test]
fn a_shallow_clone_that_ends_before_the_base_is_inconclusive_and_blocks() {
    let repo = python_project();
    let first = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    repo.commit("bend the expectation");
    for i in 0..2 {
        repo.write("shop/cart.py", format!("{CART}\n# {i}\n"));
        repo.commit(&format!("code {i}"));
    }
    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", repo.root().display());
    git_in(clone.path(), &["clone", "-q", "--depth", "1", &url, "c"]);
    let dir = clone.path().join("c");
    // As actions/checkout leaves it: no origin/HEAD.
    git_in(&dir, &["remote", "set-head", "origin", "-d"]);
    let mutation = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = crate::support::binary();
        crate::support::scrub_env(&mut cmd);
        cmd.current_dir(&dir).args(["mutation", "--format", "json"]).args(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        crate::support::run_cmd(&mut cmd)
    };

    // The base named but not fetched, and no base at all (HEAD's parent missing).
    for args in [&["--base", first.as_str()][..], &[][..]] {
        let run = mutation(args, &[]);
        assert_eq!(run.code, 1, "{args:?}: {}{}", run.stdout, run.stderr);
        let json = run.json();
        assert_eq!(json["outcome"], "blocked");
        let finding = &json["findings"][0];
        assert_eq!(finding["rule"], "mutation/inconclusive", "{json}");
        let message = finding["message"].as_str().unwrap();
        assert!(message.contains("shallow clone"), "{message}");
        assert!(message.contains("git fetch --deepen=200"), "{message}");
        assert!(json["inconclusive"].as_str().is_some(), "{json}");
    }

    // The knob: an incomplete history passes as inconclusive, visibly.
    let run = mutation(&[], &[("LOKI_GATE_MUTATION_INCONCLUSIVE", "ignore")]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let json = run.json();
    assert_eq!(json["outcome"], "inconclusive", "{json}");
    assert!(json["findings"].as_array().unwrap().is_empty(), "{json}");

    // Deepened until the base is there, the bent expectation is found.
    git_in(&dir, &["fetch", "-q", "--deepen=3"]);
    let run = mutation(&["--base", &first], &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let findings = run.findings();
    assert_eq!(findings.len(), 1, "{findings:?} {:?}", run.notices());
    assert!(
        findings[0].starts_with("mutation/assertion-value-changed error tests/test_cart.py:"),
        "{findings:?}"
    );
    // Deepened to the root commit, git still lists the root in its shallow
    // file: a root is no missing history.
    git_in(&dir, &["fetch", "-q", "--deepen=50"]);
    let run = mutation(&["--all-files"], &[]);
    assert!(run.json()["inconclusive"].is_null(), "{}", run.stdout);
}

#[test]
fn nothing_to_inspect_passes_and_says_so() {
    let repo = TestRepo::empty();
    let run = repo.run(&["mutation", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.notices().iter().any(|n| n.contains("no commits yet")));
    let repo = python_project();
    repo.write(".loki-gate.yaml", "gates:\n  mutation:\n    max-commits: -1\n");
    let run = repo.run(&["mutation"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("max-commits"), "{}", run.stderr);
}

#[test]
fn comments_strings_old_skips_and_branch_only_tests_are_not_flagged() {
    let repo = TestRepo::new();
    repo.write("src/cart.js", "export const total = (xs) => xs.reduce((a, b) => a + b, 0)\n")
        .write(
            "test/cart.test.js",
            "import { total } from '../src/cart.js'\n\n// expect(total([1])).toBe(1)\nit('sums', () => {\n  const note = 'expect(total([2])).toBe(2)'\n  expect(total([1, 2])).toBe(3)\n})\n\nit.skip('skipped at the base', () => {\n  expect(total([])).toBe(0)\n})\n",
        );
    let base = repo.commit("base");
    repo.write(
        "test/cart.test.js",
        "import { total } from '../src/cart.js'\n\n// expect(total([1])).toBe(99)\nit('sums', () => {\n  const note = 'expect(total([2])).toBe(98)'\n  expect(total([1, 2])).toBe(3)\n})\n\nit.skip('skipped at the base', () => {\n})\n\nit('only on the branch', () => {\n  expect(total([5])).toBe(5)\n})\n",
    );
    repo.commit("comments, strings, a branch-only test");
    repo.write("src/cart.js", "export const total = (xs) => xs.reduce((a, b) => a + b, 1)\n").write(
        "test/cart.test.js",
        "import { total } from '../src/cart.js'\n\n// expect(total([1])).toBe(99)\nit('sums', () => {\n  const note = 'expect(total([2])).toBe(98)'\n  expect(total([1, 2])).toBe(3)\n})\n",
    );
    repo.commit("drop the branch-only test and the skipped one's body");
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
    assert!(
        run.notices()
            .iter()
            .any(|n| n.starts_with("1 test(s) deleted together with the code they imported, or already skipped")),
        "{:?}",
        run.notices()
    );
}

#[test]
fn text_and_sarif_show_where_the_assertion_was() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    repo.commit("discount is 20%");
    let run = repo.run(&["mutation", "--base", &base, "--color", "never"]);
    insta::assert_snapshot!(run.snapshot(&repo));
    let run = repo.run(&["mutation", "--base", &base, "--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&run.stdout).unwrap();
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "mutation/assertion-value-changed");
    assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startLine"], 10);
    let related = &result["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        "tests/test_cart.py"
    );
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 10);
    assert_eq!(related["message"]["text"], "before the change");
}

#[test]
fn binary_and_non_utf8_test_files_are_noted_not_fatal() {
    let repo = python_project();
    let latin1 = |expected: &[u8]| {
        [
            b"from shop.cart import total\n\n\ndef test_caf\xe9():\n    assert total([1]) == ".as_slice(),
            expected,
            b"\n",
        ]
        .concat()
    };
    repo.write("tests/test_latin1.py", latin1(b"1"))
        .write("tests/test_blob.py", b"\x00\x01\x02binary\x00");
    let base = repo.commit("odd files");
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_latin1.py", latin1(b"2"))
        .write("tests/test_blob.py", b"\x00\x01\x03binary\x00");
    repo.commit("change them");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-value-changed error tests/test_latin1.py:5"],
        "a file that is not UTF-8 is still read"
    );
    assert!(
        run.notices()
            .iter()
            .any(|n| n.starts_with("tests/test_blob.py is binary in a version of the range")),
        "{:?}",
        run.notices()
    );
}

#[test]
fn rust_tests_beside_the_code_and_in_tests_dir_are_read_through_history() {
    let repo = TestRepo::new();
    let billing = |body: &str, want: &str| {
        format!(
            "pub fn total(xs: &[u32]) -> u32 {{\n    {body}\n}}\n\n#[cfg(test)]\nmod tests {{\n    use super::*;\n\n    #[test]\n    fn sums() {{\n        assert_eq!(total(&[1, 2]), {want});\n    }}\n}}\n"
        )
    };
    repo.write("Cargo.toml", "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n")
        .write("src/lib.rs", "pub mod billing;\n")
        .write("src/billing.rs", billing("xs.iter().sum()", "3"))
        .write(
            "tests/billing.rs",
            "use shop::billing::total;\n\n#[test]\nfn empty() {\n    assert_eq!(total(&[]), 0);\n}\n",
        );
    let base = repo.commit("base");
    // The code and both expectations change in one commit: fitted.
    repo.write("src/billing.rs", billing("xs.iter().sum::<u32>() + 1", "4"))
        .write(
            "tests/billing.rs",
            "use shop::billing::total;\n\n#[test]\nfn empty() {\n    assert!(total(&[]) > 0);\n}\n",
        );
    repo.commit("off by one");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec![
            "mutation/assertion-value-changed error src/billing.rs:11",
            "mutation/assertion-weakened error tests/billing.rs:5",
        ],
        "{}",
        run.stdout
    );

    // Only the test module changed: the file's code did not, so nothing was fitted to it.
    let repo = TestRepo::new();
    repo.write("Cargo.toml", "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n")
        .write("src/lib.rs", "pub mod billing;\n")
        .write("src/billing.rs", billing("xs.iter().sum()", "4"));
    let base = repo.commit("base with a wrong expectation");
    repo.write("src/billing.rs", billing("xs.iter().sum()", "3"));
    repo.commit("fix the expectation");
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
}

#[test]
fn go_expectations_changed_with_their_package_are_flagged() {
    let repo = TestRepo::new();
    let test = |want: &str| {
        format!(
            "package cart_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/shop/cart\"\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestTotal(t *testing.T) {{\n\tassert.Equal(t, {want}, cart.Total([]int{{1, 2}}))\n}}\n"
        )
    };
    repo.write("go.mod", "module example.com/shop\n\ngo 1.22\n")
        .write(
            "cart/cart.go",
            "package cart\n\nfunc Total(xs []int) int { return len(xs) }\n",
        )
        .write("cart/cart_test.go", test("2"));
    let base = repo.commit("base");
    repo.write(
        "cart/cart.go",
        "package cart\n\nfunc Total(xs []int) int { return len(xs) + 1 }\n",
    )
    .write("cart/cart_test.go", test("3"));
    repo.commit("count one more");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-value-changed error cart/cart_test.go:11"],
        "{}",
        run.stdout
    );
}

/// A version whose tests hold a syntax error is not compared: the lost
/// assertion and the test hidden by the error are noted, never flagged.
/// The same edits without the syntax error are flagged.
#[test]
fn tests_with_a_syntax_error_are_not_compared() {
    let broken = TESTS
        .replace("    assert total([]) == 0\n", "    assert total([] == 0\n")
        .replace("def test_rounding():", "def test_rounding(:");
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("tests/test_cart.py", &broken);
    repo.commit("mid-edit");
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
    let notices = run.notices();
    assert!(
        notices
            .iter()
            .any(|n| n.contains("syntax error") && n.contains("tests/test_cart.py in ")),
        "{notices:?}"
    );

    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    let clean = TESTS
        .replace("    assert total([]) == 0\n", "")
        .replace("def test_rounding():\n    assert total([0.5, 0.5]) == 1\n", "");
    repo.write("tests/test_cart.py", &clean);
    repo.commit("drop checks");
    let run = gate(&repo, &base);
    let rules: Vec<String> = run
        .findings()
        .iter()
        .map(|f| f.split(' ').next().unwrap().to_string())
        .collect();
    assert_eq!(
        rules,
        vec!["mutation/assertion-deleted", "mutation/test-deleted-or-skipped"],
        "{}",
        run.stdout
    );
}

/// Issue 27: a changed expectation next to changed code is what an intended
/// change looks like too; the PR comment asks a person, in its own group,
/// and says how to acknowledge in one step.
#[test]
fn the_pr_comment_groups_changed_expectations_for_a_person_to_confirm() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", CART_CHANGED).write(
        "tests/test_cart.py",
        TESTS
            .replace("== 90", "== 80")
            .replace("    assert total([]) == 0\n", ""),
    );
    repo.commit("discount is 20%");
    let run = repo.run(&["mutation", "--base", &base, "--format", "markdown"]);
    let comment = run.stdout;
    let deleted = comment.find("`mutation/assertion-deleted`").expect(&comment);
    let question = comment
        .find("**Expectations changed with the code: confirm they are intended** (1)")
        .expect(&comment);
    let changed = comment.find("`mutation/assertion-value-changed`").expect(&comment);
    assert!(deleted < question && question < changed, "{comment}");
    assert!(comment.contains("acknowledge them in one step"), "{comment}");
}

#[test]
fn two_checks_lost_from_one_test_have_their_own_fingerprints() {
    let repo = python_project();
    let checks = "    assert total([1, 2]) == 3\n    assert total([]) == 0\n    assert total([7, 3]) == 10\n    assert total([-1]) == -1\n";
    repo.write(
        "tests/test_cart.py",
        TESTS.replace("    assert total([1, 2]) == 3\n    assert total([]) == 0\n", checks),
    );
    let base = repo.commit("more checks");
    repo.write("tests/test_cart.py", TESTS);
    repo.commit("fewer checks");
    let report = gate(&repo, &base).json();
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2, "{report:#}");
    assert_eq!(findings[0]["rule"], findings[1]["rule"]);
    // Both are anchored on the same test, yet one baseline entry must not hide both.
    assert_eq!(findings[0]["line"], findings[1]["line"]);
    assert_ne!(findings[0]["fingerprint"], findings[1]["fingerprint"], "{report:#}");
}

/// `git args` in `repo` with author and committer date `date`.
fn git_dated(repo: &TestRepo, args: &[&str], date: &str) {
    let mut cmd = std::process::Command::new("git");
    crate::support::scrub_env(&mut cmd);
    let out = cmd
        .args(args)
        .current_dir(repo.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Commit everything in `repo` on `date`.
fn commit_dated(repo: &TestRepo, message: &str, date: &str) {
    repo.git(&["add", "-A"]);
    git_dated(repo, &["commit", "-q", "-m", message], date);
}

#[test]
fn the_newest_commits_are_the_newest_by_date_not_an_old_line_merged_last() {
    // An old library's history (2013) merged into the project in 2026, as a
    // subtree import does: its commits are not among the newest, though a
    // topological walk meets them right after the merge.
    let repo = TestRepo::empty();
    repo.write("README.md", "# app\n");
    commit_dated(&repo, "app", "2026-01-01T00:00:00Z");
    repo.git(&["checkout", "-q", "--orphan", "vendor"]);
    repo.git(&["rm", "-rqf", "."]);
    repo.write("lib/calc.py", "def add(a, b):\n    return a + b\n").write(
        "lib/test_calc.py",
        "from lib.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n    assert add(0, 0) == 0\n",
    );
    commit_dated(&repo, "library", "2013-05-01T00:00:00Z");
    repo.write(
        "lib/test_calc.py",
        "from lib.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    );
    commit_dated(&repo, "library: drop a check", "2013-05-02T00:00:00Z");
    repo.git(&["checkout", "-q", "main"]);
    git_dated(
        &repo,
        &["merge", "-q", "--allow-unrelated-histories", "--no-edit", "vendor"],
        "2026-02-01T00:00:00Z",
    );
    repo.write("NEWS.md", "merged the library\n");
    commit_dated(&repo, "news", "2026-02-02T00:00:00Z");

    let run = repo.run(&["mutation", "--all-files", "--max-commits", "3", "--format", "json"]);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
    let range = run.notices().into_iter().find(|n| n.starts_with("range:")).unwrap();
    let app = repo.git(&["rev-list", "--max-parents=0", "main"]);
    let app_root = app
        .lines()
        .find(|id| repo.git(&["log", "-1", "--format=%s", id]) == "app")
        .unwrap();
    assert!(range.contains(&format!("from {}", &app_root[..7])), "{range}");
    // All of it, the library's old commits included, still finds the dropped check.
    let run = repo.run(&["mutation", "--all-files", "--max-commits", "0", "--format", "json"]);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-deleted error lib/test_calc.py:4"]
    );
}

#[test]
fn one_check_rewritten_in_place_into_a_weaker_one_is_a_weakening() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write(
        "tests/test_cart.py",
        TESTS.replace("assert total([1, 2]) == 3", "assert total([4]) > 0"),
    );
    repo.commit("loosen");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-weakened error tests/test_cart.py:5"]
    );
    assert!(
        run.stdout.contains("`==` on `total([1, 2])` became the weaker `>`"),
        "{}",
        run.stdout
    );

    // Look-alike: the API the check asked was removed from the code, and the
    // test now checks what replaced it.
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", "def total(items):\n    return sum(items)\n");
    repo.write(
        "tests/test_cart.py",
        TESTS
            .replace("total, discount", "total")
            .replace("assert discount(100) == 90", "assert total([100]) > 0"),
    );
    repo.commit("drop discount");
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
}

/// Issue 52: a merge of a maintenance branch brings a backport of a change
/// the first parent already has; gated against the first parent, the
/// branch's commit changes nothing the base did not hold.
#[test]
fn a_backport_the_first_parent_already_has_is_not_reported_again() {
    let repo = python_project();
    repo.git(&["checkout", "-q", "-b", "stable"]);
    repo.git(&["checkout", "-q", "main"]);
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    repo.commit(
        "main: change the discount\n\nLoki-Gate-Allow: mutation/assertion-value-changed the discount is now 20%",
    );
    repo.git(&["checkout", "-q", "stable"]);
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    repo.commit("stable: backport the discount change");
    repo.write("NEWS.md", "2.0.1\n");
    repo.commit("stable: release notes");
    repo.git(&["checkout", "-q", "main"]);
    let first_parent = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["merge", "-q", "--no-edit", "stable"]);
    let run = gate(&repo, &first_parent);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);

    // The same backport gated against the branch's own base is reported.
    let stable_base = repo.git(&["merge-base", "stable", &first_parent]);
    let own = gate(&repo, &stable_base);
    assert!(
        own.findings()
            .contains(&"mutation/assertion-value-changed error tests/test_cart.py:10".to_string()),
        "{}",
        own.stdout
    );
}

/// Issue 52: a case a branch added and then revised did not exist at the
/// base, even where another case of the same test checks the same thing
/// (`spans == []` for the input `""` and for `"\x1b"`).
#[test]
fn a_case_added_and_revised_inside_the_range_did_not_exist_at_the_base() {
    let repo = TestRepo::new();
    let table = |rows: &str| {
        format!(
            "import pytest\nfrom shop.cells import split\n\n\n@pytest.mark.parametrize(\n    \"text,expected\",\n    [\n        (\"\", []),\n{rows}    ],\n)\ndef test_split(text, expected):\n    spans = split(text)\n    assert spans == expected\n"
        )
    };
    repo.write("shop/__init__.py", "")
        .write("shop/cells.py", "def split(text):\n    return list(text)\n")
        .write("tests/test_cells.py", table(""));
    let base = repo.commit("base");
    repo.write(
        "shop/cells.py",
        "def split(text):\n    return [c for c in text if c != '\\x1b']\n",
    )
    .write("tests/test_cells.py", table("        (\"\\x1b\", []),\n"));
    repo.commit("a case for the escape");
    repo.write(
        "shop/cells.py",
        "def split(text):\n    return [(0, len(text))] if text else []\n",
    )
    .write("tests/test_cells.py", table("        (\"\\x1b\", [(0, 1)]),\n"));
    repo.commit("the escape is one span");
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
    // A case that was at the base and changed with the code still is.
    repo.write("shop/cells.py", "def split(text):\n    return [(0, len(text))]\n")
        .write(
            "tests/test_cells.py",
            table("        (\"\\x1b\", [(0, 1)]),\n").replace("(\"\", []),", "(\"\", [(0, 0)]),"),
        );
    repo.commit("the empty text is one span too");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        ["mutation/assertion-value-changed error tests/test_cells.py:14"],
        "{}",
        run.stdout
    );
}

/// Issue 52: `"\x1B"` and `"\x1b"` are the same string.
#[test]
fn an_escape_written_in_another_case_is_the_same_value() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write(
        "tests/test_cart.py",
        format!("{TESTS}\n\ndef test_escape():\n    assert total([]) != \"\\x1B[0m\"\n"),
    );
    repo.commit("a test with an escape");
    let base2 = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", CART_CHANGED).write(
        "tests/test_cart.py",
        format!("{TESTS}\n\ndef test_escape():\n    assert total([]) != \"\\x1b[0m\"\n"),
    );
    repo.commit("lower-case escapes");
    let run = gate(&repo, &base2);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
    let _ = base;
}

/// Issue 52: a check deleted beside a sibling with the same matcher and
/// subject is lost; the sibling does not make it again. Look-alikes: an
/// exact duplicate deleted, and a check moved into another test.
#[test]
fn a_check_deleted_beside_a_sibling_on_another_value_is_lost() {
    let greet = "def greet(n):\n    return \"Hello \" + n + \" bye\"\n";
    let tests = "from shop.greet import greet\n\n\ndef test_greet():\n    out = greet(\"x\")\n    assert \"Hello\" in out\n    assert \"bye\" in out\n";
    let setup = || {
        let repo = TestRepo::new();
        repo.write("shop/__init__.py", "")
            .write("shop/greet.py", greet)
            .write("tests/test_greet.py", tests);
        let base = repo.commit("base");
        (repo, base)
    };
    let (repo, base) = setup();
    repo.write("shop/greet.py", "def greet(n):\n    return \"Hello \" + n\n")
        .write("tests/test_greet.py", tests.replace("    assert \"bye\" in out\n", ""));
    repo.commit("no more goodbyes");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        ["mutation/assertion-deleted error tests/test_greet.py:4"],
        "{}",
        run.stdout
    );

    // The same in TypeScript: `expect(f(b))` beside `expect(f(a))`.
    let repo = TestRepo::new();
    let both = "import { small } from './small'\nit('rejects small', () => {\n  expect(small(1)).toBe(false)\n  expect(small(2)).toBe(false)\n})\n";
    repo.write("package.json", "{\"name\": \"s\"}\n")
        .write("src/small.ts", "export const small = (x: number) => x > 10\n")
        .write("src/small.test.ts", both);
    let base = repo.commit("base");
    repo.write("src/small.ts", "export const small = (x: number) => x > 1\n")
        .write(
            "src/small.test.ts",
            both.replace("  expect(small(2)).toBe(false)\n", ""),
        );
    repo.commit("two is big now");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        ["mutation/assertion-deleted error src/small.test.ts:2"],
        "{}",
        run.stdout
    );

    // Look-alikes: an exact duplicate goes; a check moves to a test of its own.
    let (repo, base) = setup();
    let doubled = tests.replace(
        "    assert \"bye\" in out\n",
        "    assert \"bye\" in out\n    assert \"bye\" in out\n",
    );
    repo.write("tests/test_greet.py", &doubled);
    let base2 = repo.commit("a duplicate");
    repo.write(
        "shop/greet.py",
        "def greet(n):\n    return \"Hello \" + n + \" bye!\"\n",
    )
    .write("tests/test_greet.py", tests);
    repo.commit("the duplicate goes");
    assert_eq!(gate(&repo, &base2).findings(), Vec::<String>::new());
    repo.write(
        "tests/test_greet.py",
        format!(
            "{}\n\ndef test_farewell():\n    out = greet(\"y\")\n    assert \"bye\" in out\n",
            tests.replace("    assert \"bye\" in out\n", "")
        ),
    );
    repo.commit("the farewell in a test of its own");
    let run = gate(&repo, &base);
    assert_eq!(run.findings(), Vec::<String>::new(), "{}", run.stdout);
}

/// Issue 52: a test file moved where its tests no longer run (a name the
/// test runner does not collect, a path `exclude` leaves out) is deleted.
#[test]
fn a_test_file_moved_out_of_sight_is_a_deleted_test_file() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["mv", "tests/test_cart.py", "tests/cart_checks.py"]);
    repo.write("shop/cart.py", CART_CHANGED);
    repo.commit("tidy");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        ["mutation/test-deleted-or-skipped error tests/test_cart.py:4"]
    );
    assert!(
        run.stdout.contains(
            "tests/test_cart.py moved to tests/cart_checks.py, where the test runner does not collect it: its 3 test(s) are gone from the suite"
        ),
        "{}",
        run.stdout
    );

    // Into a directory the base's config excludes, staged (the pre-commit hook).
    let repo = python_project();
    repo.write(".loki-gate.yaml", "exclude: [\"legacy/**\"]\n");
    repo.commit("exclude legacy");
    std::fs::create_dir(repo.path().join("legacy")).unwrap();
    repo.git(&["mv", "tests/test_cart.py", "legacy/test_cart.py"]);
    let staged = repo.run(&["mutation", "--staged", "--format", "json"]);
    assert_eq!(
        staged.findings(),
        ["mutation/test-deleted-or-skipped error tests/test_cart.py:4"]
    );
    assert!(
        staged.stdout.contains("which `exclude` leaves out"),
        "{}",
        staged.stdout
    );

    // Look-alike: renamed to another test file name, it still runs.
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&["mv", "tests/test_cart.py", "tests/test_basket.py"]);
    repo.commit("rename");
    assert_eq!(gate(&repo, &base).findings(), Vec::<String>::new());
}

/// Issue 52: a test that reaches the changed module through re-exports (a
/// barrel file, a package's `__init__`, the package's own name) sees the
/// expectation it bent flagged as a direct import does.
#[test]
fn an_expectation_bent_through_a_re_export_is_flagged() {
    let repo = TestRepo::new();
    repo.write("package.json", "{\"name\": \"shop\", \"main\": \"src/index.ts\"}\n")
        .write(
            "src/lib/cart.ts",
            "export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0)\n",
        )
        .write("src/lib/index.ts", "export { total as sum } from './cart'\n")
        .write("src/index.ts", "export * from './lib/index.js'\n")
        .write(
            "test/self.test.ts",
            "import { sum } from 'shop'\nit('totals', () => {\n  expect(sum([1, 2])).toBe(3)\n})\n",
        )
        .write(
            "test/barrel.test.ts",
            "import * as shop from '../src/index.js'\nit('totals', () => {\n  expect(shop.sum([1, 2])).toBe(3)\n})\n",
        )
        .write("py/__init__.py", "")
        .write("py/shop/__init__.py", "from .cart import total\n")
        .write("py/shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            "py/tests/test_shop.py",
            "from py.shop import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
        );
    let base = repo.commit("base");
    repo.write(
        "src/lib/cart.ts",
        "export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 1)\n",
    )
    .write("py/shop/cart.py", "def total(xs):\n    return sum(xs) + 1\n");
    for test in ["test/self.test.ts", "test/barrel.test.ts"] {
        repo.write(test, repo.read(test).replace("toBe(3)", "toBe(4)"));
    }
    repo.write(
        "py/tests/test_shop.py",
        repo.read("py/tests/test_shop.py").replace("== 3", "== 4"),
    );
    repo.commit("one more");
    let run = gate(&repo, &base);
    assert_eq!(
        run.findings(),
        [
            "mutation/assertion-value-changed error py/tests/test_shop.py:5",
            "mutation/assertion-value-changed error test/barrel.test.ts:3",
            "mutation/assertion-value-changed error test/self.test.ts:3",
        ],
        "{}",
        run.stdout
    );
}

/// Issue 52: a check taken out by one commit and put back by a later one
/// (inside a merged branch, rich e0d3aee) leaves the range as a whole
/// unchanged; taken out for good it is lost.
#[test]
fn a_check_taken_out_and_put_back_inside_the_range_is_not_lost() {
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("    assert total([]) == 0\n", ""));
    repo.commit("drop a check while the code moves");
    repo.write("shop/cart.py", CART).write("tests/test_cart.py", TESTS);
    repo.commit("put it back");
    assert_eq!(gate(&repo, &base).findings(), Vec::<String>::new());
    // Changed and changed back: nothing changed either.
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("== 90", "== 80"));
    repo.commit("a new discount");
    repo.write("shop/cart.py", CART).write("tests/test_cart.py", TESTS);
    repo.commit("the old discount again");
    assert_eq!(gate(&repo, &base).findings(), Vec::<String>::new());
    // Not put back: the same check in a test of the same name in another
    // class, or a second copy beside the one that changed, is not it.
    let twins = "from shop.cart import total\n\n\nclass TestA:\n    def test_empty(self):\n        assert total([]) == 0\n        assert total([]) == 0\n\n\nclass TestB:\n    def test_empty(self):\n        assert total([]) == 0\n";
    let repo = TestRepo::new();
    repo.write("shop/__init__.py", "")
        .write("shop/cart.py", CART)
        .write("tests/test_cart.py", twins);
    let base = repo.commit("base");
    repo.write("shop/cart.py", CART_CHANGED).write(
        "tests/test_cart.py",
        twins.replacen("        assert total([]) == 0\n", "        assert total([]) == 1\n", 1),
    );
    repo.commit("an empty cart costs one");
    assert_eq!(
        gate(&repo, &base).findings(),
        ["mutation/assertion-value-changed error tests/test_cart.py:6"]
    );
    // Taken out and not put back.
    let repo = python_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("shop/cart.py", CART_CHANGED)
        .write("tests/test_cart.py", TESTS.replace("    assert total([]) == 0\n", ""));
    repo.commit("drop a check while the code moves");
    repo.write("README.md", "# shop\n");
    repo.commit("docs");
    assert_eq!(
        gate(&repo, &base).findings(),
        ["mutation/assertion-deleted error tests/test_cart.py:4"]
    );
}
