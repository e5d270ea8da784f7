//! Issue 64: what the gate let through on history nobody here had tuned on,
//! each next to the look-alike that must still pass.

use crate::support::{Run, TAPE_PACKAGE_JSON, TestRepo};

fn commit(repo: &TestRepo, message: &str, files: &[(&str, &str)]) -> String {
    for (path, text) in files {
        if text.is_empty() {
            repo.remove(path);
        } else {
            repo.write(path, text);
        }
    }
    repo.commit(message)
}

/// `rule path:line` of each error of `mutation --base base`.
fn errors(repo: &TestRepo, base: &str) -> (Vec<String>, Run) {
    let run = repo.run(&["mutation", "--base", base, "--format", "json"]);
    let found = run.json()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .map(|f| {
            format!(
                "{} {}:{}",
                f["rule"].as_str().unwrap(),
                f["path"].as_str().unwrap_or("-"),
                f["line"].as_u64().unwrap_or(0)
            )
        })
        .collect();
    (found, run)
}

fn assert_errors(repo: &TestRepo, base: &str, want: &[&str]) {
    let (found, run) = errors(repo, base);
    assert_eq!(found, want, "{}", run.stdout);
}

const PARSE_PY: &str = "def parse(s, base=10):\n    return int(s, base)\n";

/// A repository with `calc/parse.py` and `tests`, committed: the base.
fn parse_repo(tests: &str) -> (TestRepo, String) {
    let repo = TestRepo::new();
    let base = commit(
        &repo,
        "base",
        &[
            ("calc/__init__.py", "\n"),
            ("calc/parse.py", PARSE_PY),
            ("tests/test_parse.py", tests),
        ],
    );
    (repo, base)
}

/// Four tests alike but for the number they parse.
fn alike_tests(names: &[(&str, u32)]) -> String {
    let mut out = String::from("from calc.parse import parse\n\n\n");
    for (name, v) in names {
        out.push_str(&format!(
            "def test_{name}():\n    text = \"  {v}  \".strip()\n    parsed = parse(text, base=10)\n    again = parse(str(parsed), base=10)\n    assert again == parsed\n    assert isinstance(parsed, int)\n    assert str(parsed) == text\n    hexed = parse(hex(parsed), base=16)\n    assert hexed == parsed\n    octal = parse(oct(parsed)[2:], base=8)\n    assert octal == parsed\n    assert parse(\"0\", base=10) == 0\n    assert parsed == {v}\n\n\n"
        ));
    }
    out
}

/// A deleted test is not "still there" because a sibling that was there all
/// along looks alike; a test that comes back under a new name, in a file
/// of its own, is.
#[test]
fn a_deleted_test_is_not_found_again_in_a_sibling_that_looks_alike() {
    let all = [("one", 1), ("two", 2), ("three", 3), ("four", 4)];
    let start = |repo: &TestRepo| {
        commit(
            repo,
            "base",
            &[
                ("calc/__init__.py", "\n"),
                ("calc/parse.py", PARSE_PY),
                ("tests/test_parse.py", &alike_tests(&all)),
            ],
        )
    };
    let repo = TestRepo::new();
    let base = start(&repo);
    commit(
        &repo,
        "fewer tests",
        &[("tests/test_parse.py", &alike_tests(&[all[0], all[3]]))],
    );
    assert_errors(
        &repo,
        &base,
        &[
            "mutation/test-deleted-or-skipped tests/test_parse.py:19",
            "mutation/test-deleted-or-skipped tests/test_parse.py:34",
        ],
    );

    // Moved to a file of its own under a new name, in a later commit.
    let repo = TestRepo::new();
    let base = start(&repo);
    commit(
        &repo,
        "drop two",
        &[("tests/test_parse.py", &alike_tests(&[all[0], all[2], all[3]]))],
    );
    commit(
        &repo,
        "two has a file of its own",
        &[("tests/test_two.py", &alike_tests(&[("two_again", 2)]))],
    );
    assert_errors(&repo, &base, &[]);
}

/// An expectation of nothing (`is None`) that became an expectation of a
/// thing, with the code, is a changed value; a literal that became an
/// expression computing it stays a refactor this cannot evaluate.
#[test]
fn an_expected_none_that_became_a_name_is_a_changed_value() {
    let code = "def fetch(url, response=None):\n    return None\n\n\ndef retries(n):\n    return n + 1\n";
    let tests = "from calc.net import fetch, retries\n\n\ndef test_fetch():\n    response = object()\n    result = fetch(\"http://x\", response)\n    assert result is None\n\n\ndef test_retries():\n    n = 2\n    assert retries(n) == 3\n";
    for (new_code, new_tests, want) in [
        (
            code.replace("    return None\n", "    return response\n"),
            tests.replace("assert result is None", "assert result is response"),
            &["mutation/assertion-value-changed tests/test_net.py:7"][..],
        ),
        (
            code.replace("return n + 1", "return n + 1  # one more"),
            tests.replace("retries(n) == 3", "retries(n) == n + 1"),
            &[][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("calc/__init__.py", "\n"),
                ("calc/net.py", code),
                ("tests/test_net.py", tests),
            ],
        );
        commit(
            &repo,
            "change",
            &[("calc/net.py", &new_code), ("tests/test_net.py", &new_tests)],
        );
        assert_errors(&repo, &base, want);
    }
}

const GO_MOD: &str = "module example.com/kv\n\ngo 1.21\n";
const KV_GO: &str = "package kv\n\n// Store keeps values.\ntype Store struct{ m map[string]string }\n\n// New makes a store.\nfunc New() *Store { return &Store{m: map[string]string{}} }\n\n// Put keeps v under k.\nfunc (s *Store) Put(k, v string) error { s.m[k] = v; return nil }\n\n// Delete drops k.\nfunc (s *Store) Delete(k string) error { delete(s.m, k); return nil }\n\n// Flush writes out.\nfunc (s *Store) Flush() error { return nil }\n";

/// One of several `if err := f(); err != nil { t.Fatal(..) }` checks (or
/// `err = f(); require.NoError(t, err)`) deleted is lost: each is a check
/// of its own call, not "`err` is nil" found again in its siblings.
/// Renaming the variable, or rewriting the calls, loses nothing.
#[test]
fn one_of_several_error_checks_deleted_is_lost() {
    let ifs = "package kv\n\nimport \"testing\"\n\nfunc TestLifecycle(t *testing.T) {\n\ts := New()\n\tif err := s.Put(\"a\", \"1\"); err != nil {\n\t\tt.Fatalf(\"put: %v\", err)\n\t}\n\tif err := s.Delete(\"a\"); err != nil {\n\t\tt.Fatalf(\"delete: %v\", err)\n\t}\n\tif err := s.Flush(); err != nil {\n\t\tt.Fatalf(\"flush: %v\", err)\n\t}\n}\n";
    let testify = "package kv\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/require\"\n)\n\nfunc TestLifecycle(t *testing.T) {\n\ts := New()\n\terr := s.Put(\"a\", \"1\")\n\trequire.NoError(t, err)\n\terr = s.Delete(\"a\")\n\trequire.NoError(t, err)\n\terr = s.Flush()\n\trequire.NoError(t, err)\n}\n";
    for (old, new, want) in [
        (
            ifs,
            ifs.replace(
                "\tif err := s.Delete(\"a\"); err != nil {\n\t\tt.Fatalf(\"delete: %v\", err)\n\t}\n",
                "\ts.Delete(\"a\")\n",
            ),
            &["mutation/assertion-deleted kv/kv_test.go:5"][..],
        ),
        (
            testify,
            testify.replace(
                "\terr = s.Delete(\"a\")\n\trequire.NoError(t, err)\n",
                "\t_ = s.Delete(\"a\")\n",
            ),
            &["mutation/assertion-deleted kv/kv_test.go:9"][..],
        ),
        (ifs, ifs.replace("err", "e"), &[][..]),
        // A call's argument moved into a variable, a cleanup check dropped:
        // each check is paired with the one on the same call.
        (
            testify,
            testify
                .replace(
                    "\ts := New()\n",
                    "\ts := New()\n\tkey := \"a\"\n\trequire.NoError(t, s.Flush())\n",
                )
                .replace("s.Put(\"a\", \"1\")", "s.Put(key, \"1\")")
                .replace("s.Delete(\"a\")", "s.Delete(key)"),
            &[][..],
        ),
        (testify, testify.replace("s.Delete(\"a\")", "s.Delete(\"b\")"), &[][..]),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[("go.mod", GO_MOD), ("kv/kv.go", KV_GO), ("kv/kv_test.go", old)],
        );
        commit(&repo, "change", &[("kv/kv_test.go", &new)]);
        assert_errors(&repo, &base, want);
    }
}

/// A test turned off by a bare `return` before its statements runs none of
/// them: it is newly skipped (Go and Python alike), and a `return` that
/// became `t.Skip(..)` skips what was already off (issue 64: fsnotify
/// e7ec5f7). A `return` under a condition, or one after the checks, is no
/// skip.
#[test]
fn a_test_turned_off_by_a_bare_return_is_skipped() {
    let go = "package kv\n\nimport \"testing\"\n\nfunc TestPut(t *testing.T) {\n\ts := New()\n\tif err := s.Put(\"a\", \"1\"); err != nil {\n\t\tt.Fatalf(\"put: %v\", err)\n\t}\n}\n";
    let off = go.replace("\ts := New()\n", "\t// TODO: flaky\n\treturn\n\n\ts := New()\n");
    for (old, new, want) in [
        (
            go.to_string(),
            off.clone(),
            &["mutation/test-deleted-or-skipped kv/kv_test.go:7"][..],
        ),
        (off.clone(), off.replace("\treturn\n", "\tt.Skip(\"flaky\")\n"), &[][..]),
        (
            go.to_string(),
            go.replace(
                "\ts := New()\n",
                "\tif testing.Short() {\n\t\treturn\n\t}\n\ts := New()\n",
            ),
            &[][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[("go.mod", GO_MOD), ("kv/kv.go", KV_GO), ("kv/kv_test.go", &old)],
        );
        commit(&repo, "change", &[("kv/kv_test.go", &new)]);
        assert_errors(&repo, &base, want);
    }
    let py = "from calc.parse import parse\n\n\ndef test_hex():\n    assert parse(\"ff\", base=16) == 255\n";
    for (new, want) in [
        (
            py.replace("def test_hex():\n", "def test_hex():\n    return\n"),
            &["mutation/test-deleted-or-skipped tests/test_parse.py:5"][..],
        ),
        (py.replace("== 255\n", "== 255\n    return\n"), &[][..]),
    ] {
        let (repo, base) = parse_repo(py);
        commit(&repo, "change", &[("tests/test_parse.py", &new)]);
        assert_errors(&repo, &base, want);
    }
}

/// A deleted test whose one check every other test makes on its own
/// values (`t.deepEqual(merge(target, src), expected)`) is not made again
/// by them: what its check reads, it binds to values found nowhere else
/// (issue 64: deepmerge 9005f24). Moved with its values to another file,
/// it is.
#[test]
fn a_deleted_test_is_not_made_again_by_siblings_checking_other_values() {
    let test = |name: &str, target: &str, src: &str, expected: &str| {
        format!(
            "test('{name}', function(t) {{\n\tvar target = {target}\n\tvar src = {src}\n\tvar expected = {expected}\n\tt.deepEqual(merge(target, src), expected)\n\tt.end()\n}})\n"
        )
    };
    let head = "var merge = require('../')\nvar test = require('tape')\n\n";
    let keys = test("merges keys", "{ a: 1 }", "{ b: 2 }", "{ a: 1, b: 2 }");
    let arrays = test("concatenates arrays", "[1]", "[2]", "[1, 2]");
    let nulls = test(
        "keeps nulls in arrays",
        "[\n\t\tnull,\n\t\t'x',\n\t]",
        "[null]",
        "[null, 'x', null]",
    );
    let old = format!("{head}{keys}\n{arrays}\n{nulls}");
    // Both siblings edited in the same step, the third test gone.
    let edited = format!(
        "{head}{}\n{}",
        keys.replace("b: 2 }", "b: 3 }"),
        arrays.replace("[1, 2]\n", "[1, 2]\n\tt.ok(Array.isArray(merge(target, src)))\n")
    );
    let moved = format!("{head}{}", nulls.replace("keeps nulls", "holds nulls"));
    for (files, want) in [
        (
            vec![("test/merge.js", edited.as_str())],
            &["mutation/test-deleted-or-skipped test/merge.js:20"][..],
        ),
        (
            vec![("test/merge.js", edited.as_str()), ("test/nulls.js", moved.as_str())],
            &[][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("package.json", TAPE_PACKAGE_JSON),
                (
                    "index.js",
                    "module.exports = (a, b) => (Array.isArray(a) ? [...a, ...b] : { ...a, ...b });\n",
                ),
                ("test/merge.js", &old),
            ],
        );
        commit(&repo, "change", &files);
        assert_errors(&repo, &base, want);
    }
}

const CART_JS: &str = "exports.add = (items, x) => [...items, x];\n";

/// Tests declared through a name bound to the test function (`const
/// testOrSkipOnWindows = process.platform === 'win32' ? test.skip : test`)
/// are the same tests, run where the condition lets them, so one deleted
/// is lost; bound to `test.skip` alone, they are newly skipped; the mock
/// gate reads a hollow one through the alias too.
#[test]
fn tests_declared_through_a_local_alias_of_the_test_function_are_tests() {
    let old = "const { add } = require('../src/cart');\n\ntest('adds one', () => {\n  expect(add([1], 2)).toEqual([1, 2]);\n});\n\ntest('adds to nothing', () => {\n  expect(add([], 5)).toEqual([5]);\n});\n";
    let aliased = |binding: &str| {
        format!(
            "const {{ add }} = require('../src/cart');\n\nconst testHere = {binding};\n\ntestHere('adds one', () => {{\n  expect(add([1], 2)).toEqual([1, 2]);\n}});\n\ntestHere('adds to nothing', () => {{\n  expect(add([], 5)).toEqual([5]);\n}});\n"
        )
    };
    for (binding, want) in [
        ("process.platform === 'win32' ? test.skip : test", &[][..]),
        ("test", &[][..]),
        (
            "process.platform === 'win32' ? test.skip : test; // one deleted",
            &["mutation/test-deleted-or-skipped test/cart.test.js:7"][..],
        ),
        (
            "test.skip",
            &[
                "mutation/test-deleted-or-skipped test/cart.test.js:5",
                "mutation/test-deleted-or-skipped test/cart.test.js:9",
            ][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("package.json", "{ \"name\": \"shop\", \"private\": true }\n"),
                ("src/cart.js", CART_JS),
                ("test/cart.test.js", old),
            ],
        );
        let mut new = aliased(binding);
        if binding.ends_with("// one deleted") {
            new = new.replace(
                "testHere('adds to nothing', () => {\n  expect(add([], 5)).toEqual([5]);\n});\n",
                "",
            );
        }
        commit(&repo, "alias", &[("test/cart.test.js", &new)]);
        assert_errors(&repo, &base, want);
    }

    let repo = TestRepo::new();
    repo.write("package.json", "{ \"name\": \"shop\", \"private\": true }\n");
    repo.write("src/cart.js", CART_JS);
    repo.write(
        "test/cart.test.js",
        "const { add } = require('../src/cart');\n\nconst testOrSkip = process.env.CI ? test : test.skip;\n\ntestOrSkip('adds', () => {\n  add([1], 2);\n});\n",
    );
    repo.commit("hollow");
    let run = repo.run(&["mock", "--all-files", "--format", "json"]);
    let json = run.json();
    let rules: Vec<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["rule"].as_str())
        .collect();
    assert_eq!(rules, ["mock/smoke-test"], "{}", run.stdout);
}

/// A Jest `test.each` rewritten for `node:test` as a `describe` whose
/// rows each declare a test (the title's words split between the two), and
/// a test moved into a new `describe`, are the same tests; a test deleted
/// beside an unrelated new one that shares its words and says two more of
/// its own is lost.
#[test]
fn tests_regrouped_under_a_describe_are_the_same_tests() {
    let old = "const { add } = require('../src/cart');\n\nfunction rows() {\n  return [[1, 2], [3, 4]];\n}\n\ntest.each(rows())('when add %s then item %s appended', (x, y) => {\n  const spy = jest.fn(add);\n  expect(spy([x], y)).toEqual([x, y]);\n});\n\ntest('when add to nothing then one item', () => {\n  expect(add([], 5)).toEqual([5]);\n});\n";
    let regrouped = "const { test, describe } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add } = require('../src/cart');\n\nfunction rows() {\n  return [[1, 2], [3, 4]];\n}\n\ndescribe('when add then item appended', () => {\n  rows().forEach(([x, y]) => {\n    test(`${x} ${y}`, (t) => {\n      const spy = t.mock.fn(add);\n      const got = spy([x], y);\n      assert.deepEqual(got, [x, y]);\n    });\n  });\n});\n\ndescribe('cart', () => {\n  test('when add to nothing then one item', () => {\n    assert.deepEqual(add([], 5), [5]);\n  });\n});\n";
    let unrelated = regrouped
        .replace(
            "test('when add to nothing then one item'",
            "test('when add to nothing then one item appended twice'",
        )
        .replace("add([], 5), [5]", "add(add([], 5), 5), [5, 5]");
    for (new, want) in [
        (regrouped.to_string(), &[][..]),
        (
            unrelated,
            &["mutation/test-deleted-or-skipped test/cart.test.js:12"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("package.json", "{ \"name\": \"shop\", \"private\": true }\n"),
                ("src/cart.js", CART_JS),
                ("test/cart.test.js", old),
            ],
        );
        commit(&repo, "node:test", &[("test/cart.test.js", &new)]);
        assert_errors(&repo, &base, want);
    }
}

/// A value the file checks both for membership and for absence is a probe
/// handed to what is tested (`"garbage" in full`, `"garbage" not in
/// empty`): another probe in its place changed no expectation. A message
/// the output must hold, changed with the code, still did.
#[test]
fn a_membership_probe_renamed_is_not_a_changed_expectation() {
    let code = "class Range:\n    def __init__(self, arbitrary=True):\n        self.arbitrary = arbitrary\n\n    def __contains__(self, item):\n        return self.arbitrary\n\n\ndef report(x):\n    return \"Error: bad \" + x\n";
    let tests = "from calc.ranges import Range, report\n\n\ndef test_full():\n    assert \"garbage\" in Range()\n\n\ndef test_no_arbitrary():\n    assert \"garbage\" not in Range(arbitrary=False)\n\n\ndef test_report():\n    assert \"Error: bad\" in report(\"x\")\n";
    for (new_code, new_tests, want) in [
        (
            code.replace("return self.arbitrary", "return bool(self.arbitrary)"),
            tests.replace("\"garbage\"", "\"wat\""),
            &[][..],
        ),
        (
            code.replace("Error: bad ", "Error: invalid "),
            tests.replace("\"Error: bad\"", "\"Error: invalid\""),
            &["mutation/assertion-value-changed tests/test_ranges.py:13"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("calc/__init__.py", "\n"),
                ("calc/ranges.py", code),
                ("tests/test_ranges.py", tests),
            ],
        );
        commit(
            &repo,
            "change",
            &[("calc/ranges.py", &new_code), ("tests/test_ranges.py", &new_tests)],
        );
        assert_errors(&repo, &base, want);
    }
}

/// The tests of a package nested in the repository (an example with its
/// own `package.json`) deleted with that package went with it; the same
/// tests deleted while the package stays are lost.
#[test]
fn tests_deleted_with_the_nested_package_they_belong_to_went_with_it() {
    let spec = "const { greet } = require('./index');\n\ntest('greets', () => {\n  expect(greet('a')).toBe('hi a');\n});\n\ntest('greets nobody', () => {\n  expect(greet('')).toBe('hi ');\n});\n";
    for (gone, want) in [
        (
            &[
                "examples/hello/package.json",
                "examples/hello/index.js",
                "examples/hello/index.spec.js",
            ][..],
            &[][..],
        ),
        (
            &["examples/hello/index.spec.js"][..],
            &["mutation/test-deleted-or-skipped examples/hello/index.spec.js:3"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("package.json", "{ \"name\": \"shop\", \"private\": true }\n"),
                ("src/cart.js", CART_JS),
                (
                    "examples/hello/package.json",
                    "{ \"name\": \"hello\", \"private\": true }\n",
                ),
                ("examples/hello/index.js", "exports.greet = (n) => 'hi ' + n;\n"),
                ("examples/hello/index.spec.js", spec),
            ],
        );
        let deletions: Vec<(&str, &str)> = gone.iter().map(|p| (*p, "")).collect();
        commit(&repo, "remove", &deletions);
        assert_errors(&repo, &base, want);
    }
}

/// A check of an object's field its code set (`this._helpFlags = ..`)
/// went with the field when the step removed it from the code; the same
/// check deleted while the field stays is lost.
#[test]
fn a_check_of_a_field_the_code_removed_went_with_it() {
    let code = "class Command {\n  constructor() {\n    this._helpFlags = '-h, --help';\n    this._name = '';\n  }\n\n  helpFlags() {\n    return this._helpFlags;\n  }\n}\n\nexports.Command = Command;\n";
    let refactored = "class Command {\n  constructor() {\n    this._helpOption = { flags: '-h, --help' };\n    this._name = '';\n  }\n\n  helpFlags() {\n    return this._helpOption.flags;\n  }\n}\n\nexports.Command = Command;\n";
    let tests = "const { Command } = require('../src/command');\n\ntest('has help', () => {\n  const cmd = new Command();\n  expect(cmd._helpFlags).toBe('-h, --help');\n  expect(cmd._name).toBe('');\n});\n";
    let now_tests = "const { Command } = require('../src/command');\n\ntest('has help', () => {\n  const cmd = new Command();\n  expect(cmd._name).toBe('');\n});\n";
    for (new_code, want) in [
        (refactored, &[][..]),
        (
            &code.replace("return this._helpFlags;", "return this._helpFlags.trim();")[..],
            &["mutation/assertion-deleted test/command.test.js:3"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("package.json", "{ \"name\": \"cli\", \"private\": true }\n"),
                ("src/command.js", code),
                ("test/command.test.js", tests),
            ],
        );
        commit(
            &repo,
            "refactor",
            &[("src/command.js", new_code), ("test/command.test.js", now_tests)],
        );
        assert_errors(&repo, &base, want);
    }
}

/// A check of a method the step removed went with it, though the code still
/// calls another value's method of that name (`iter.find(..)`: issue 64,
/// quick-xml's `NamespaceResolver::find`); the same check deleted while the
/// method stays is lost.
#[test]
fn a_check_of_a_removed_method_went_with_it_whatever_else_shares_its_name() {
    let code = |find: &str| {
        format!(
            "/// Names.\npub struct Names(pub Vec<(String, u8)>);\n\nimpl Names {{\n{find}    /// Resolves.\n    pub fn resolve(&self, n: &str) -> Option<u8> {{\n        self.0.iter().find(|(k, _)| k == n).map(|(_, v)| *v)\n    }}\n}}\n"
        )
    };
    let find = "    /// Finds.\n    pub fn find(&self, n: &str) -> Option<u8> {\n        self.resolve(n)\n    }\n\n";
    let tests = "use shop::Names;\n\n#[test]\nfn resolves() {\n    let names = Names(vec![(\"a\".into(), 1)]);\n    assert_eq!(names.find(\"a\"), Some(1));\n    assert_eq!(names.resolve(\"a\"), Some(1));\n}\n";
    let now_tests = "use shop::Names;\n\n#[test]\nfn resolves() {\n    let names = Names(vec![(\"a\".into(), 1)]);\n    assert_eq!(names.resolve(\"a\"), Some(1));\n}\n";
    for (new_code, want) in [
        (code(""), &[][..]),
        (
            code(&find.replace("self.resolve(n)", "self.resolve(n).or(None)")),
            &["mutation/assertion-deleted tests/names.rs:4"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("Cargo.toml", "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n"),
                ("src/lib.rs", &code(find)),
                ("tests/names.rs", tests),
            ],
        );
        commit(
            &repo,
            "refactor",
            &[("src/lib.rs", &new_code), ("tests/names.rs", now_tests)],
        );
        assert_errors(&repo, &base, want);
    }
}

/// A typo fixed in a test's own stub and in the expectation that reads
/// what the stub returns (an apostrophe added: `cant` -> `can't`) followed
/// the test's input; the expectation changed alone, with the code, did not.
#[test]
fn an_apostrophe_fixed_in_the_tests_own_stub_and_expectation_followed_it() {
    let tests = "package kv\n\nimport (\n\t\"errors\"\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestRender(t *testing.T) {\n\trender := func() error {\n\t\treturn errors.New(\"cant do completion\")\n\t}\n\terr := Run(render)\n\tassert.ErrorContains(t, err, \"cant do completion\")\n}\n";
    let code = "package kv\n\n// Run runs f.\nfunc Run(f func() error) error { return f() }\n";
    for (new_tests, want) in [
        (tests.replace("cant do", "can't do"), &[][..]),
        (
            tests.replace("err, \"cant do completion\"", "err, \"can't do completion\""),
            &["mutation/assertion-value-changed kv/run_test.go:15"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[("go.mod", GO_MOD), ("kv/run.go", code), ("kv/run_test.go", tests)],
        );
        commit(
            &repo,
            "typos",
            &[
                (
                    "kv/run.go",
                    &code.replace(
                        "{ return f() }",
                        "{\n\tif f == nil {\n\t\treturn nil\n\t}\n\treturn f()\n}",
                    ),
                ),
                ("kv/run_test.go", &new_tests),
            ],
        );
        assert_errors(&repo, &base, want);
    }
}

/// A test renamed but for spaces and case (`total timeout budget` ->
/// `totalTimeout budget`, as the option was renamed) and rewritten is the
/// same test, not a deleted one; the test deleted beside it is.
#[test]
fn a_test_renamed_but_for_spaces_and_case_is_the_same_test() {
    let old = "const { add } = require('../src/cart');\n\ntest('adds within total timeout budget', () => {\n  expect(add([1], 2)).toEqual([1, 2]);\n});\n\ntest('adds nothing twice', () => {\n  expect(add([], 0)).toEqual([0]);\n});\n";
    let new = "const { add } = require('../src/cart');\n\ntest('adds within totalTimeout budget', () => {\n  const items = [1];\n  const got = add(items, 2);\n  expect(got.length).toBe(2);\n  expect(got).toEqual([1, 2]);\n});\n";
    let repo = TestRepo::new();
    let base = commit(
        &repo,
        "base",
        &[
            ("package.json", "{ \"name\": \"shop\", \"private\": true }\n"),
            ("src/cart.js", CART_JS),
            ("test/cart.test.js", old),
        ],
    );
    commit(&repo, "rename", &[("test/cart.test.js", new)]);
    assert_errors(&repo, &base, &["mutation/test-deleted-or-skipped test/cart.test.js:7"]);
}

/// An expected value that names the test itself (its function, its file),
/// changed as the step renamed the test and moved its file, followed the
/// test; a word gained that is not the test's own is a changed value.
#[test]
fn an_expected_value_that_names_the_test_follows_its_rename() {
    let old = "package kv\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestTakeStacktrace(t *testing.T) {\n\ttrace := Take(0)\n\tassert.Contains(t, trace, \"example.com/kv.TestTakeStacktrace\")\n}\n";
    let code = "package kv\n\nimport \"runtime/debug\"\n\n// Take returns the stack.\nfunc Take(skip int) string { return string(debug.Stack()) }\n";
    let moved = "package stacktrace\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestTake(t *testing.T) {\n\ttrace := Take(0)\n\tassert.Contains(t, trace, \"example.com/kv/internal/stacktrace.TestTake\")\n}\n";
    for (new_test, want) in [
        (moved.to_string(), &[][..]),
        (
            moved.replace("stacktrace.TestTake\")", "stacktrace.TestTake.func1\")"),
            &["mutation/assertion-value-changed kv/internal/stacktrace/stack_test.go:11"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[("go.mod", GO_MOD), ("kv/stack.go", code), ("kv/stack_test.go", old)],
        );
        commit(
            &repo,
            "move",
            &[
                ("kv/stack.go", ""),
                ("kv/stack_test.go", ""),
                (
                    "kv/internal/stacktrace/stack.go",
                    &code
                        .replace("package kv", "package stacktrace")
                        .replace("return string", "return \"\" + string"),
                ),
                ("kv/internal/stacktrace/stack_test.go", &new_test),
            ],
        );
        assert_errors(&repo, &base, want);
    }
}

/// A table's row is a case only of the tests its loop declares for it: a
/// test under `if (typeof path === "string")` is not declared for an array
/// row, nor its `else` twin for a string row; an expected value edited with
/// the code is charged to the test that runs the row, once.
#[test]
fn a_row_is_a_case_only_of_the_branch_that_declares_its_test() {
    let code =
        "export function parse(path: string | string[]): string[] {\n  return ([] as string[]).concat(path)\n}\n";
    let tests = "import { it, expect } from 'vitest'\nimport { parse } from '../src/parse'\n\nconst TESTS: [string | string[], string[]][] = [\n  ['/a', ['/a']],\n  [['/b'], ['/b']],\n]\n\nTESTS.forEach(([path, want]) => {\n  if (typeof path === 'string') {\n    it('should parse', () => {\n      expect(parse(path)).toEqual(want)\n    })\n  } else {\n    it('should parse keys', () => {\n      expect(parse(path).length).toEqual(want.length)\n    })\n  }\n})\n";
    let repo = TestRepo::new();
    let base = commit(
        &repo,
        "base",
        &[
            ("package.json", "{ \"name\": \"p2r\", \"private\": true }\n"),
            ("src/parse.ts", code),
            ("test/parse.test.ts", tests),
        ],
    );
    commit(
        &repo,
        "trailing slash",
        &[
            (
                "src/parse.ts",
                &code.replace(".concat(path)", ".concat(path).map((p) => p + '/')"),
            ),
            (
                "test/parse.test.ts",
                &tests.replace("['/a', ['/a']]", "['/a', ['/a/']]"),
            ),
        ],
    );
    let (found, run) = errors(&repo, &base);
    assert_eq!(
        found,
        ["mutation/assertion-value-changed test/parse.test.ts:12"],
        "{}",
        run.stdout
    );
    let message = run.json()["findings"][0]["message"].as_str().unwrap().to_string();
    assert!(message.contains("`should parse`"), "{message}");
}

/// A check whose truth flipped with the code (`assert response.ok` ->
/// `assert not response.ok`: a case that went from success to a 403 and
/// kept its name) changed what it expects; the same check kept as it was
/// beside a changed status code does not hide that one.
#[test]
fn a_check_whose_truth_flipped_with_the_code_is_a_changed_expectation() {
    let code = |extra: &str| {
        format!(
            "def status(user):\n    if not user:\n        return 401\n{extra}    return 200\n\n\ndef get(user):\n    return Response(status(user))\n\n\nclass Response:\n    def __init__(self, code):\n        self.status_code = code\n        self.ok = code < 400\n"
        )
    };
    let test = |ok: &str, status: u32| {
        format!(
            "from app.auth import get\n\n\ndef test_ok():\n    response = get(\"alice\")\n    assert {ok}response.ok\n    assert response.status_code == {status}\n"
        )
    };
    let forbid = "    if user == \"alice\":\n        return 403\n";
    for (ok, status, errors) in [
        (
            "not ",
            403,
            &[
                "mutation/assertion-value-changed tests/test_auth.py:6",
                "mutation/assertion-value-changed tests/test_auth.py:7",
            ][..],
        ),
        ("", 200, &[][..]),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("app/__init__.py", "\n"),
                ("app/auth.py", &code("")),
                ("tests/test_auth.py", &test("", 200)),
            ],
        );
        commit(
            &repo,
            "forbid alice",
            &[
                ("app/auth.py", &code(forbid)),
                ("tests/test_auth.py", &test(ok, status)),
            ],
        );
        assert_errors(&repo, &base, errors);
    }
}

/// An expected value bound to a name the check compares with (`want :=
/// "..."` then `if have != want`, `expected = ...` then `assert .. ==
/// expected`) changed with the code (issue 64: BurntSushi/toml's error
/// columns, found by reading the commits); a name that is also the input
/// the code is handed follows that input.
#[test]
fn an_expected_value_bound_to_a_name_that_changed_with_the_code_is_a_changed_expectation() {
    let code = |column: u32| {
        format!(
            "package calc\n\nimport \"fmt\"\n\nfunc Where(line int) string {{ return fmt.Sprintf(\"line %d, column {column}\", line) }}\n\nfunc Named(name string) string {{ return name }}\n"
        )
    };
    let test = |want: &str, name: &str| {
        format!(
            "package calc\n\nimport \"testing\"\n\nfunc TestWhere(t *testing.T) {{\n\twant := \"{want}\"\n\tif have := Where(3); have != want {{\n\t\tt.Errorf(\"want %q, have %q\", want, have)\n\t}}\n}}\n\nfunc TestNamed(t *testing.T) {{\n\tname := \"{name}\"\n\tgot := Named(name)\n\tif got != name {{\n\t\tt.Errorf(\"got %q\", got)\n\t}}\n}}\n"
        )
    };
    let repo = TestRepo::new();
    let base = commit(
        &repo,
        "base",
        &[
            ("go.mod", "module example.com/calc\n\ngo 1.21\n"),
            ("calc.go", &code(6)),
            ("calc_test.go", &test("line 3, column 6", "alice")),
        ],
    );
    commit(
        &repo,
        "columns from one",
        &[
            ("calc.go", &code(7)),
            ("calc_test.go", &test("line 3, column 7", "bob")),
        ],
    );
    assert_errors(&repo, &base, &["mutation/assertion-value-changed calc_test.go:8"]);

    let python = |expected: &str| {
        format!(
            "from calc.where import where\n\n\ndef test_where():\n    expected = \"{expected}\"\n    assert where(3) == expected\n"
        )
    };
    let code = |column: u32| format!("def where(line):\n    return f\"line {{line}}, column {column}\"\n");
    let repo = TestRepo::new();
    let base = commit(
        &repo,
        "base",
        &[
            ("calc/__init__.py", "\n"),
            ("calc/where.py", &code(6)),
            ("tests/test_where.py", &python("line 3, column 6")),
        ],
    );
    commit(
        &repo,
        "columns from one",
        &[
            ("calc/where.py", &code(7)),
            ("tests/test_where.py", &python("line 3, column 7")),
        ],
    );
    assert_errors(
        &repo,
        &base,
        &["mutation/assertion-value-changed tests/test_where.py:6"],
    );
}

/// tenacity's test of a second invocation lost the repeat of the first
/// invocation's checks while a new test was added beside it (issue 64): one
/// of two copies of a check is lost, though the test still makes the other.
/// A check moved to a test of its own is not.
#[test]
fn one_of_two_copies_of_a_check_deleted_is_lost() {
    let code = "def run(log):\n    log.append(1)\n    return len(log)\n";
    let old = "from shop.runner import run\n\n\ndef test_twice():\n    log = []\n    assert run(log) == 1\n    assert log == [1]\n    log.clear()\n\n    # again\n    assert run(log) == 1\n    assert log == [1]\n";
    let once = "from shop.runner import run\n\n\ndef test_twice():\n    log = []\n    assert run(log) == 1\n    assert log == [1]\n    log.clear()\n\n\ndef test_empty():\n    assert run([]) == 1\n";
    let split = "from shop.runner import run\n\n\ndef test_twice():\n    log = []\n    assert run(log) == 1\n    assert log == [1]\n    log.clear()\n\n\ndef test_again():\n    log = []\n    assert run(log) == 1\n    assert log == [1]\n";
    for (new, want) in [
        (
            once,
            &[
                "mutation/assertion-deleted tests/test_runner.py:4",
                "mutation/assertion-deleted tests/test_runner.py:4",
            ][..],
        ),
        (split, &[][..]),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("shop/__init__.py", "# shop\n"),
                ("shop/runner.py", code),
                ("tests/test_runner.py", old),
            ],
        );
        commit(
            &repo,
            "run",
            &[
                ("shop/runner.py", &code.replace("len(log)", "len(log) + 0")),
                ("tests/test_runner.py", new),
            ],
        );
        assert_errors(&repo, &base, want);
    }
}

/// tenacity's `retry.statistics` was expected to be `{}`, then the
/// statistics the test builds (issue 64): an expected literal that became
/// a name the test binds to another value changed; a name bound to the
/// same literal, or one the test does not bind (a constant of the file),
/// may hold the same value.
#[test]
fn an_expected_literal_that_became_a_name_bound_to_another_value_changed() {
    let code = "def stats():\n    return {}\n";
    let old = "from shop.stats import stats\n\nEMPTY = {}\n\n\ndef test_stats():\n    want = {\"calls\": 1}\n    assert stats() == {}\n\n\ndef test_count():\n    assert len(stats()) == 0\n";
    for (new, want) in [
        (
            old.replace("assert stats() == {}", "assert stats() == want"),
            &["mutation/assertion-value-changed tests/test_stats.py:8"][..],
        ),
        (old.replace("assert stats() == {}", "assert stats() == EMPTY"), &[][..]),
        // A list or an object bound to the same value, as written (p-queue
        // 8c7325a: `[0, 1]` became `values`, bound to `[0, 1]`).
        (
            old.replace(
                "    assert stats() == {}",
                "    empty = {}\n    assert stats() == empty",
            ),
            &[][..],
        ),
        (
            old.replace(
                "    assert len(stats()) == 0",
                "    none = 0\n    assert len(stats()) == none",
            ),
            &[][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("shop/__init__.py", "# shop\n"),
                ("shop/stats.py", code),
                ("tests/test_stats.py", old),
            ],
        );
        commit(
            &repo,
            "stats",
            &[
                ("shop/stats.py", &code.replace("{}", "{\"calls\": 1}")),
                ("tests/test_stats.py", &new),
            ],
        );
        assert_errors(&repo, &base, want);
    }
}

/// urfave/cli split a test in one commit of a pull request and added its
/// parts as tests in the next (issue 64): a check a test new in the range
/// makes at its end moved there; one no test makes was lost.
#[test]
fn a_check_moved_to_a_test_a_later_commit_adds_is_not_lost() {
    let code = "def run(shell):\n    if shell == 'bash':\n        return 'ok'\n    raise ValueError('unknown shell ' + shell)\n";
    let old = "import pytest\n\nfrom shop.run import run\n\n\ndef test_shells():\n    assert run('bash') == 'ok'\n    with pytest.raises(ValueError, match='unknown shell zsh'):\n        run('zsh')\n";
    let split = "import pytest\n\nfrom shop.run import run\n\n\ndef test_shells():\n    assert run('bash') == 'ok'\n";
    let added = format!(
        "{split}\n\ndef test_unknown_shell():\n    with pytest.raises(ValueError, match='unknown shell zsh'):\n        run('zsh')\n"
    );
    for (last, want) in [
        (added.as_str(), &[][..]),
        (split, &["mutation/assertion-deleted tests/test_run.py:6"][..]),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("shop/__init__.py", "# shop\n"),
                ("shop/run.py", code),
                ("tests/test_run.py", old),
            ],
        );
        commit(
            &repo,
            "one shell per test",
            &[
                ("shop/run.py", &code.replace("'ok'", "'ok'  # bash")),
                ("tests/test_run.py", split),
            ],
        );
        commit(&repo, "the unknown shell", &[("tests/test_run.py", last)]);
        assert_errors(&repo, &base, want);
    }
}

/// spf13/cast wrote a test's checks again as the rows of a table the same
/// test loops over (issue 64): each row makes its check; a row left out
/// is a check lost.
#[test]
fn checks_written_again_as_rows_of_the_same_tests_table_are_made() {
    let code = "def parse(s):\n    return len(s)\n";
    let old = "from shop.parse import parse\n\n\ndef test_parse():\n    assert parse(\"a\") == 1\n    assert parse(\"bb\") == 2\n";
    let table = "from shop.parse import parse\n\n\ndef test_parse():\n    for s, want in [(\"a\", 1), (\"bb\", 2)]:\n        assert parse(s) == want\n";
    for (new, want) in [
        (table.to_string(), &[][..]),
        (
            table.replace(", (\"bb\", 2)", ""),
            &["mutation/assertion-deleted tests/test_parse.py:4"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("shop/__init__.py", "# shop\n"),
                ("shop/parse.py", code),
                ("tests/test_parse.py", old),
            ],
        );
        commit(
            &repo,
            "a table",
            &[
                ("shop/parse.py", &code.replace("len(s)", "len(s) + 0")),
                ("tests/test_parse.py", &new),
            ],
        );
        assert_errors(&repo, &base, want);
    }
}

const SQUASH_GO: &str = "package kv\n\nimport \"strings\"\n\n// Squash drops spaces.\nfunc Squash(s string) string { return strings.ReplaceAll(s, \" \", \"\") }\n\n// Truthy says whether s reads true.\nfunc Truthy(s string) bool { return s == \"true\" }\n";

/// Go has no `assert`: gjson writes `func assert(t testing.TB, cond bool)
/// { if !cond { panic(..) } }` and checks everything with it. Each call is
/// the check of its condition, read like the `if` it stands for (issue 64:
/// gjson 97ec619 commented out `assert(t, squash(..) == ..)` unseen, and a
/// test merged into another, `testJSON :=` become `testJSON =`, read as
/// deleted; gjson db00337 turned `if key.Exists() { t.Fatalf(..) }` into
/// `assert(t, key.Exists())` with the code, unseen).
#[test]
fn a_projects_own_go_assert_helper_makes_checks() {
    let tests = |squash: &str, truthy: &str, issue: bool| {
        let mut out = format!(
            "package kv\n\nimport \"testing\"\n\nfunc assert(t testing.TB, cond bool) {{\n\tif !cond {{\n\t\tpanic(\"assert failed\")\n\t}}\n}}\n\nfunc TestSquash(t *testing.T) {{\n\tinput := \"x\"\n{squash}\tassert(t, Squash(input) == \"x\")\n}}\n\nfunc TestTruthy(t *testing.T) {{\n{truthy}\tassert(t, Truthy(\"true\"))\n}}\n"
        );
        if issue {
            out.push_str("\nfunc TestIssue1(t *testing.T) {\n\tinput := \"the quick brown fox jumps over the lazy dog\"\n\tSquash(input)\n}\n");
        }
        out
    };
    let checked = "\tassert(t, Squash(\"a b\") == \"ab\")\n";
    let flipped_code = SQUASH_GO.replace("s == \"true\"", "strings.EqualFold(s, \"true\")");
    let merged = "\tassert(t, Squash(\"a b\") == \"ab\")\n\t// Issue 1\n\tinput = \"the quick brown fox jumps over the lazy dog\"\n\tSquash(input)\n";
    for (new_tests, code, want) in [
        // A check commented out is lost.
        (
            tests(
                "\t// assert(t, Squash(\"a b\") == \"ab\")\n",
                "\tassert(t, !Truthy(\"TRUE\"))\n",
                true,
            ),
            SQUASH_GO.to_string(),
            &["mutation/assertion-deleted kv/kv_test.go:11"][..],
        ),
        // A check whose truth flipped with the code is a changed expectation.
        (
            tests(checked, "\tassert(t, Truthy(\"TRUE\"))\n", true),
            flipped_code.clone(),
            &["mutation/assertion-value-changed kv/kv_test.go:18"][..],
        ),
        // So is an `if .. { t.Fatal }` that became the opposite `assert`.
        (
            tests(checked, "\tif !Truthy(\"TRUE\") {\n\t\tt.Fatal(\"TRUE\")\n\t}\n", true),
            flipped_code.clone(),
            &["mutation/assertion-value-changed kv/kv_test.go:19"][..],
        ),
        // Look-alike: the same check written as the `if` it stands for.
        (
            tests(checked, "\tif Truthy(\"TRUE\") {\n\t\tt.Fatal(\"TRUE\")\n\t}\n", true),
            flipped_code.clone(),
            &[][..],
        ),
        // A test's body merged into another, its `:=` become `=`, is there.
        (
            tests(merged, "\tassert(t, !Truthy(\"TRUE\"))\n", false),
            SQUASH_GO.to_string(),
            &[][..],
        ),
        // Look-alike: deleted and not merged, it is lost.
        (
            tests(checked, "\tassert(t, !Truthy(\"TRUE\"))\n", false),
            SQUASH_GO.to_string(),
            &["mutation/test-deleted-or-skipped kv/kv_test.go:22"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("go.mod", GO_MOD),
                ("kv/kv.go", SQUASH_GO),
                (
                    "kv/kv_test.go",
                    &tests(checked, "\tassert(t, !Truthy(\"TRUE\"))\n", true),
                ),
            ],
        );
        commit(&repo, "change", &[("kv/kv.go", &code), ("kv/kv_test.go", &new_tests)]);
        assert_errors(&repo, &base, want);
    }
}

/// An expected value computed from a binding of the test's own whose
/// literal changed followed the test's input (issue 64: gjson 8d2c36f
/// changed a row of the test's `json` literal and the expected matches
/// with it); the same change with the input left as it was, or with what
/// it checks computed another way (p-queue e48716f), followed the code.
#[test]
fn an_expected_value_that_follows_the_tests_own_changed_input_is_not_a_finding() {
    let code = |keep: &str| format!("def pick(xs):\n    return [x for x in xs if {keep}]\n");
    let test = |data: &str, got: &str, want: &str| {
        format!(
            "from app.q import pick\n\n\ndef test_pick():\n    data = [\n        {data},\n    ]\n    got = {got}\n    assert got == [{want}]\n"
        )
    };
    let changed = &["mutation/assertion-value-changed tests/test_q.py:9"][..];
    for (data, got, want, errors) in [
        ("1, None, 3", "pick(data)", "1, 3", &[][..]),
        ("1, 0, 2", "pick(data)", "1, 0, 2", changed),
        // What it checks computed another way is what the code does now.
        ("1, None, 3", "pick(data[:1])", "1", changed),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("app/__init__.py", "\n"),
                ("app/q.py", &code("x")),
                ("tests/test_q.py", &test("1, 0, 2", "pick(data)", "1, 2")),
            ],
        );
        commit(
            &repo,
            "keep zeros",
            &[
                ("app/q.py", &code("x is not None")),
                ("tests/test_q.py", &test(data, got, want)),
            ],
        );
        assert_errors(&repo, &base, errors);
    }
}

/// A deleted test is not "merged" into a sibling the commit left as it
/// was, however alike (ky c20d7c7: a sibling held every statement of the
/// deleted test, and one more that changes what it checks).
#[test]
fn a_deleted_test_is_not_merged_into_a_sibling_the_commit_left_alone() {
    let sibling = "\nfunc TestIssue2(t *testing.T) {\n\tinput := \"the quick brown fox jumps over the lazy dog\"\n\tinput = strings.ToUpper(input)\n\tSquash(input)\n}\n";
    let issue1 = "\nfunc TestIssue1(t *testing.T) {\n\tinput := \"the quick brown fox jumps over the lazy dog\"\n\tSquash(input)\n}\n";
    let head = "package kv\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n";
    let repo = TestRepo::new();
    let base = commit(
        &repo,
        "base",
        &[
            ("go.mod", GO_MOD),
            ("kv/kv.go", SQUASH_GO),
            ("kv/kv_test.go", &format!("{head}{issue1}{sibling}")),
        ],
    );
    commit(&repo, "change", &[("kv/kv_test.go", &format!("{head}{sibling}"))]);
    assert_errors(&repo, &base, &["mutation/test-deleted-or-skipped kv/kv_test.go:8"]);
}

/// What a range's tests are at its end is the newest commit's: with merges
/// in the range, the last step that changes a test file may be a branch
/// that forked before the deletion, edited the file and took the edit back
/// (more-itertools 5b43c0d: `test_unhashable`, deleted for tests that
/// expect `TypeError`, read as "there at the end").
#[test]
fn a_test_deleted_before_a_merge_is_not_there_at_the_end() {
    let tests = |a: &str, c: &str| {
        format!(
            "import pytest\n\nfrom app.q import pick\n\n\n{a}def test_c():\n    got = pick([1, 0])\n{c}    assert got == [1]\n"
        )
    };
    let test_a = "def test_a():\n    got = pick([[1], [1]])\n    assert got == [[1]]\n\n\n";
    let repo = TestRepo::new();
    let base = commit(
        &repo,
        "base",
        &[
            ("app/__init__.py", "\n"),
            ("app/q.py", "def pick(xs):\n    return [x for x in xs if x]\n"),
            ("tests/test_q.py", &tests(test_a, "")),
        ],
    );
    repo.git(&["branch", "side"]);
    commit(
        &repo,
        "main: unhashable items raise",
        &[
            (
                "app/q.py",
                "def pick(xs):\n    return [x for x in xs if x and {x: 1}]\n",
            ),
            ("tests/test_q.py", &tests("", "")),
        ],
    );
    repo.git(&["checkout", "-q", "side"]);
    // Committed after main's change, the side branch changes the test
    // file, then changes it back; then it comes in.
    let later = |message: &str, text: &str, date: &str| {
        repo.write("tests/test_q.py", text);
        let mut git = std::process::Command::new("git");
        crate::support::scrub_env(&mut git);
        let out = git
            .args(["commit", "-qam", message])
            .current_dir(repo.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    later(
        "side: a note in test_c",
        &tests(test_a, "    # one\n"),
        "2026-01-02T00:00:00Z",
    );
    later("side: revert the note", &tests(test_a, ""), "2026-01-03T00:00:00Z");
    repo.git(&["checkout", "-q", "main"]);
    repo.git(&["merge", "-q", "--no-edit", "side"]);
    assert_errors(&repo, &base, &["mutation/test-deleted-or-skipped tests/test_q.py:6"]);
}

const QUEUE_JS: &str = "export class Queue {\n  constructor(options = {}) {\n    if (options.concurrency === 0) throw new TypeError('concurrency');\n    this.size = 0;\n    this.isPaused = false;\n  }\n  async add(fn) {\n    return fn();\n  }\n}\n";

/// A suite moved from AVA to `node:test` writes each check again:
/// `t.true(n >= 0)` is `assert.ok(n >= 0)`, `t.false(x)` is
/// `assert.ok(!x)`, `{instanceOf: E}` is `{constructor: E}`, `'broken'` is
/// `{message: 'broken'}`, `await t.notThrowsAsync(p)` is `await p` (issue
/// 64: p-queue b2600d5, 8c7325a). The same rewrite that flips a truth or
/// stops awaiting the promise is reported.
#[test]
fn checks_moved_from_ava_to_node_test_are_the_same_checks() {
    let ava = "import test from 'ava';\nimport {Queue} from '../source/index.js';\n\ntest('queue', async t => {\n  const q = new Queue();\n  t.true(q.size >= 0);\n  t.false(q.isPaused);\n  t.true(q.isPaused === false);\n  await t.notThrowsAsync(q.add(async () => 1));\n  t.throws(() => new Queue({concurrency: 0}), {instanceOf: TypeError});\n  await t.throwsAsync(q.add(async () => {\n    throw new Error('broken');\n  }), 'broken');\n});\n";
    let node = |paused: &str, awaited: &str| {
        format!(
            "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport {{Queue}} from '../source/index.js';\n\ntest('queue', async () => {{\n  const q = new Queue();\n  assert.ok(q.size >= 0);\n  assert.ok({paused}q.isPaused);\n  assert.ok(q.isPaused === false);\n  {awaited}q.add(async () => 1);\n  assert.throws(() => new Queue({{concurrency: 0}}), {{constructor: TypeError}});\n  await assert.rejects(q.add(async () => {{\n    throw new Error('broken');\n  }}), {{message: 'broken'}});\n}});\n"
        )
    };
    for (new, errors) in [
        (node("!", "await "), &[][..]),
        (
            node("", "await "),
            &["mutation/assertion-value-changed test/queue.js:8"][..],
        ),
        (node("!", ""), &["mutation/assertion-deleted test/queue.js:5"][..]),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("package.json", "{\"name\": \"q\", \"type\": \"module\"}\n"),
                ("source/index.js", QUEUE_JS),
                ("test/queue.js", ava),
            ],
        );
        commit(
            &repo,
            "node:test",
            &[
                (
                    "source/index.js",
                    &QUEUE_JS.replace("this.size = 0;", "this.size = Number(0);"),
                ),
                ("test/queue.js", &new),
            ],
        );
        assert_errors(&repo, &base, errors);
    }
}

/// Snapshots of what the code makes of a data file the test imports
/// follow that file: re-captured, they changed with their input, not with
/// a benchmark beside the test (jshttp/cookie 6a4ec43: `scripts/top-cookie.json`
/// re-captured, `parse-cookie.bench.ts` edited). The same snapshots
/// changed with the code are reported.
#[test]
fn snapshots_of_a_data_file_the_test_imports_follow_it() {
    let snap = |value: &str| format!("// Vitest Snapshot v1\n\nexports[`parse > a.com 1`] = `\"{value}\"`;\n");
    let spec = "import { expect, it, describe } from 'vitest'\nimport { parse } from './index'\nimport top from '../data/top.json'\n\ndescribe('parse', () => {\n  for (const [site, value] of Object.entries(top)) {\n    it(site, () => {\n      expect(parse(value)).toMatchSnapshot()\n    })\n  }\n})\n";
    let bench = |with: &str| {
        format!(
            "import {{ bench }} from 'vitest'\nimport {{ parse }} from './index'\nimport top from '../data/top.json'{with}\n\nbench('parse', () => {{\n  parse(top['a.com'])\n}})\n"
        )
    };
    let code = "export const parse = (s: string) => s.trim()\n";
    for (data, new_code, errors) in [
        ("{\"a.com\": \"y=2\"}\n", code.to_string(), &[][..]),
        (
            "{\"a.com\": \"x=1\"}\n",
            code.replace("s.trim()", "s.trim().toUpperCase()"),
            &["mutation/assertion-value-changed src/__snapshots__/parse.spec.ts.snap:3"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("package.json", "{\"name\": \"c\"}\n"),
                ("data/top.json", "{\"a.com\": \"x=1\"}\n"),
                ("src/index.ts", code),
                ("src/parse.spec.ts", spec),
                ("src/parse.bench.ts", &bench("")),
                ("src/__snapshots__/parse.spec.ts.snap", &snap("x=1")),
            ],
        );
        commit(
            &repo,
            "re-capture",
            &[
                ("data/top.json", data),
                ("src/index.ts", &new_code),
                ("src/parse.bench.ts", &bench(" with { type: 'json' }")),
                ("src/__snapshots__/parse.spec.ts.snap", &snap("changed")),
            ],
        );
        assert_errors(&repo, &base, errors);
    }
}

/// A merge whose test file differs from every parent is read against its
/// first: a changed expectation a commit it brings made there is reported
/// once, where the merge has it (mapstructure 07998cf: reported for the
/// side commit, at its own line, and again for the merge).
#[test]
fn a_change_a_merged_commit_made_is_not_reported_again_for_the_merge() {
    let tests = |msg: &str, extra: &str| {
        format!(
            "from app.q import check\n\n\n{extra}def test_invalid():\n    assert check(1) == \"{msg}\"\n\n\ndef test_valid():\n    assert check(\"a\") == \"ok\"\n"
        )
    };
    let code = |msg: &str| {
        format!(
            "def check(v):\n    return \"ok\" if isinstance(v, str) else \"{msg}\"\n\n\ndef other():\n    return 1\n"
        )
    };
    let repo = TestRepo::new();
    let base = commit(
        &repo,
        "base",
        &[
            ("app/__init__.py", "\n"),
            ("app/q.py", &code("bad type")),
            ("tests/test_q.py", &tests("bad type", "")),
        ],
    );
    repo.git(&["checkout", "-q", "-b", "side"]);
    commit(
        &repo,
        "side: print the value",
        &[
            ("app/q.py", &code("bad type, value: 1")),
            ("tests/test_q.py", &tests("bad type, value: 1", "")),
        ],
    );
    repo.git(&["checkout", "-q", "main"]);
    let more = "def test_more():\n    assert check(\"b\") == \"ok\"\n\n\n";
    // The main line changes the code and the test file too: the merge
    // differs from every parent in both.
    commit(
        &repo,
        "main: one more test",
        &[
            ("app/q.py", &code("bad type").replace("return 1", "return 2")),
            ("tests/test_q.py", &tests("bad type", more)),
        ],
    );
    repo.git(&["merge", "-q", "--no-edit", "side"]);
    assert_eq!(repo.read("tests/test_q.py"), tests("bad type, value: 1", more));
    // Where the merge has it: the newer version of the file.
    assert_errors(&repo, &base, &["mutation/assertion-value-changed tests/test_q.py:9"]);
}

/// A test compiled only with a Cargo feature its crate does not declare
/// was never compiled: deleting it loses nothing (arrayvec cee33ee). One
/// behind a declared feature ran where that feature is on, and is lost.
#[test]
fn a_test_behind_a_feature_the_crate_does_not_declare_was_never_built() {
    let manifest = "[package]\nname = \"vecs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\nstd = []\n";
    let tests = |gone: &str, std: &str| {
        format!("use vecs::make;\n\n#[test]\nfn plain() {{\n    assert_eq!(make(1).len(), 1);\n}}\n{gone}{std}")
    };
    let gone =
        "\n#[cfg(feature = \"sizes-33-128\")]\n#[test]\nfn big_sizes() {\n    assert_eq!(make(52).len(), 52);\n}\n";
    let std = "\n#[cfg(feature = \"std\")]\n#[test]\nfn with_std() {\n    assert_eq!(make(2).len(), 2);\n}\n";
    for (new, errors) in [
        (tests("", std), &[][..]),
        (
            tests(gone, ""),
            &["mutation/test-deleted-or-skipped tests/vecs.rs:16"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("Cargo.toml", manifest),
                (
                    "src/lib.rs",
                    "/// Makes a vec.\npub fn make(n: usize) -> Vec<u8> {\n    vec![0; n]\n}\n",
                ),
                ("tests/vecs.rs", &tests(gone, std)),
            ],
        );
        commit(&repo, "drop a test", &[("tests/vecs.rs", &new)]);
        assert_errors(&repo, &base, errors);
    }
}

/// Several lost checks of one test that read alike (the same matcher on
/// the same value) say what each expected, so each finding names its own
/// check (issue 64: ordered-float 428ab8c lost five `assert_eq!(*number,
/// ..)` from one test); one alone says no more than before.
#[test]
fn lost_checks_that_read_alike_say_what_each_expected() {
    let old = "from calc.parse import parse\n\n\ndef test_counts():\n    n = parse(\"1\")\n    assert n == 1\n    n = parse(\"2\")\n    assert n == 2\n    assert parse(\"3\") == 3\n";
    for (new, want) in [
        (
            "from calc.parse import parse\n\n\ndef test_counts():\n    assert parse(\"3\") == 3\n",
            &[
                "test `test_counts` lost the assertion `==` on `n` (expecting `1`)",
                "test `test_counts` lost the assertion `==` on `n` (expecting `2`)",
            ][..],
        ),
        (
            "from calc.parse import parse\n\n\ndef test_counts():\n    n = parse(\"1\")\n    assert n == 1\n    n = parse(\"2\")\n    assert n == 2\n",
            &["test `test_counts` lost the assertion `==` on `parse(\"3\")`"][..],
        ),
    ] {
        let (repo, base) = parse_repo(old);
        commit(&repo, "change", &[("tests/test_parse.py", new)]);
        let (_, run) = errors(&repo, &base);
        let messages: Vec<String> = run.json()["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["rule"] == "mutation/assertion-deleted")
            .map(|f| f["message"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(messages, want, "{}", run.stdout);
    }
}

/// One mismatch reported on several lines (`if got != want { t.Errorf(..);
/// t.Errorf(..) }`) is one check: its case's value changed with the code is
/// one finding, not one per `t.Errorf` (issue 64: kr/pretty 2c2f68c). Two
/// `if`s are two checks: one of them deleted is lost.
#[test]
fn failures_reported_on_several_lines_are_one_check() {
    let tests = |want: &str, second: &str| {
        format!(
            "package kv\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) {{\n\tfor _, tt := range []struct{{ k, want string }}{{\n\t\t{{\"a\", \"{want}\"}},\n\t}} {{\n\t\ts := New()\n\t\ts.Put(tt.k, tt.want)\n\t\tgot := s.m[tt.k]\n\t\tif got != tt.want {{\n\t\t\tt.Errorf(\"want %q\", tt.want)\n\t\t\tt.Errorf(\"got  %q\", got)\n\t\t}}\n{second}\t}}\n}}\n"
        )
    };
    let second = "\t\tif len(s.m) != 1 {\n\t\t\tt.Errorf(\"size %d\", len(s.m))\n\t\t}\n";
    for (old, new, want) in [
        (
            tests("1", ""),
            tests("2", ""),
            &["mutation/assertion-value-changed kv/kv_test.go:13"][..],
        ),
        (
            tests("1", second),
            tests("1", ""),
            &["mutation/assertion-deleted kv/kv_test.go:5"][..],
        ),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[("go.mod", GO_MOD), ("kv/kv.go", KV_GO), ("kv/kv_test.go", &old)],
        );
        commit(
            &repo,
            "change",
            &[
                ("kv/kv_test.go", &new),
                (
                    "kv/kv.go",
                    &format!("{KV_GO}\n// Size counts.\nfunc (s *Store) Size() int {{ return len(s.m) }}\n"),
                ),
            ],
        );
        assert_errors(&repo, &base, want);
    }
}

/// A check that stayed as written, comparing with a local bound to a list
/// or an object written out (`var expected = [ .. ]`, over several lines),
/// is compared through it: the list changed with the code is a changed
/// expectation (issue 64: deepmerge 9005f24, arrays concatenated where they
/// were merged). The list that followed the test's own input did not
/// change with the code.
#[test]
fn an_expected_list_bound_to_a_local_is_compared_through_it() {
    let test = |src: &str, expected: &str| {
        format!(
            "var merge = require('../')\nvar test = require('tape')\n\ntest('merges arrays', function(t) {{\n\tvar target = [ 'one', 'two' ]\n\tvar src = {src}\n\tvar expected = [\n\t\t{expected}\n\t]\n\tt.deepEqual(merge(target, src), expected)\n\tt.end()\n}})\n"
        )
    };
    for (new, want) in [
        (
            test("[ 'one', 'three' ]", "'one', 'two', 'one', 'three',"),
            &["mutation/assertion-value-changed test/merge.js:10"][..],
        ),
        (test("[ 'four' ]", "'one', 'two', 'four',"), &[][..]),
    ] {
        let repo = TestRepo::new();
        let base = commit(
            &repo,
            "base",
            &[
                ("package.json", TAPE_PACKAGE_JSON),
                ("index.js", "module.exports = (a, b) => [...new Set([...a, ...b])];\n"),
                ("test/merge.js", &test("[ 'one', 'three' ]", "'one', 'two', 'three',")),
            ],
        );
        commit(
            &repo,
            "concatenate",
            &[
                ("index.js", "module.exports = (a, b) => [...a, ...b];\n"),
                ("test/merge.js", &new),
            ],
        );
        assert_errors(&repo, &base, want);
    }
}

/// A root `test.js` is where AVA and node's own runner look first: a
/// package whose scripts run either (with no jest or vitest config) has
/// its `test.js` read as a test file, and an expected value changed with
/// the code is reported (issue 64: sindresorhus/dot-prop, 17 changed
/// expectations never read). With no runner that takes it, `test.js` is a
/// module like any other.
#[test]
fn a_root_test_js_that_ava_or_node_test_runs_is_a_test_file() {
    let code = "export function get(object, key) {\n  return object[key];\n}\n";
    let old = "import test from 'ava';\nimport {get} from './index.js';\n\ntest('get', t => {\n\tt.is(get({a: 1}, 'a'), 1);\n\tt.is(get({}, 'constructor'), Object);\n});\n";
    let changed_code =
        "export function get(object, key) {\n  return Object.hasOwn(object, key) ? object[key] : undefined;\n}\n";
    let changed_test = old.replace(
        "t.is(get({}, 'constructor'), Object);",
        "t.is(get({}, 'constructor'), undefined);",
    );
    for (scripts, want) in [
        (
            "\"test\": \"xo && ava\"",
            &["mutation/assertion-value-changed test.js:6"][..],
        ),
        (
            "\"test\": \"node --test\"",
            &["mutation/assertion-value-changed test.js:6"][..],
        ),
        (
            "\"test\": \"c8 node --test test.js\"",
            &["mutation/assertion-value-changed test.js:6"][..],
        ),
        ("\"test\": \"node --test test/\"", &[][..]),
        ("\"build\": \"tsc\"", &[][..]),
    ] {
        let repo = TestRepo::new();
        let manifest = format!("{{\"name\":\"get\",\"type\":\"module\",\"scripts\":{{{scripts}}}}}\n");
        let base = commit(
            &repo,
            "base",
            &[("package.json", &manifest), ("index.js", code), ("test.js", old)],
        );
        commit(
            &repo,
            "change",
            &[("index.js", changed_code), ("test.js", &changed_test)],
        );
        let (found, run) = errors(&repo, &base);
        assert_eq!(found, want, "{scripts}: {}", run.stdout);
    }
}
