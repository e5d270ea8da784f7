//! Unit tests of the shared model.

use super::*;

/// The idiom before `pytest.raises` (a failure in the `else` of a `try`,
/// or last in its body) is the check `raises(E)`; a failure a handler
/// would catch itself, or under a bare `except`, stays a failure.
#[test]
fn a_failure_when_nothing_raised_is_a_raises_check() {
    let source = "import pytest\n\n\ndef test_else():\n    try:\n        f(1)\n    except (TypeError, errors.Bad) as exc:\n        assert 'x' in str(exc)\n    else:\n        raise AssertionError('no error')\n\n\ndef test_body():\n    if ready:\n        try:\n            f(1)\n            pytest.fail('no error')\n        except KeyError:\n            pass\n\n\ndef test_caught_by_itself():\n    try:\n        f(1)\n        pytest.fail('no error')\n    except Exception:\n        pass\n\n\ndef test_bare():\n    try:\n        f(1)\n    except:\n        pass\n    else:\n        raise AssertionError\n";
    let file = Lang::Python.test_file(source.as_bytes()).unwrap();
    let checks: Vec<(String, Vec<String>, bool)> = file
        .tests
        .iter()
        .flat_map(|t| &t.assertions)
        .map(|a| (a.matcher.clone(), a.parts.clone(), a.guard.conditional))
        .collect();
    let raises = |types: &[&str], conditional| {
        (
            "raises".to_string(),
            types.iter().map(|t| (*t).to_string()).collect(),
            conditional,
        )
    };
    assert_eq!(checks[1], raises(&["TypeError", "errors . Bad"], false), "{checks:?}");
    assert_eq!(checks[2], raises(&["KeyError"], true), "{checks:?}");
    assert_eq!(checks[3].0, "fail", "{checks:?}");
    assert_eq!(checks[4].0, "fail", "{checks:?}");
    assert_eq!(checks.len(), 5, "{checks:?}");
}

/// A thread that read TSX before TypeScript (or any grammar before
/// another) models a file as a fresh thread does: the field ids a thread
/// keeps are per grammar, and TypeScript's and TSX's differ though
/// neither grammar has a name.
#[test]
fn a_thread_models_each_grammar_with_its_own_field_ids() {
    let ts = "import { describe, expect, it } from \"vitest\"\nimport { total } from \"../src/cart\"\n\ndescribe(\"cart\", () => {\n  it(\"sums\", async () => {\n    const x = await total([1])\n    expect(x).toBe(1)\n  })\n  it.skip(\"later\", () => {})\n})\n";
    let alone = |lang: Lang| {
        std::thread::spawn(move || lang.test_file(ts.as_bytes()))
            .join()
            .unwrap()
    };
    let (ts_alone, tsx_alone) = (alone(Lang::TypeScript), alone(Lang::Tsx));
    assert_eq!(ts_alone.as_ref().map(|f| f.tests.len()), Some(2));
    for order in [
        [Lang::Tsx, Lang::TypeScript],
        [Lang::TypeScript, Lang::Tsx],
        [Lang::JavaScript, Lang::Tsx],
    ] {
        let after = std::thread::spawn(move || order.map(|lang| lang.test_file(ts.as_bytes())))
            .join()
            .unwrap();
        for (lang, model) in order.iter().zip(after) {
            let want = match lang {
                Lang::Tsx => &tsx_alone,
                Lang::TypeScript => &ts_alone,
                _ => continue,
            };
            assert_eq!(&model, want, "{lang:?} read after {order:?}");
        }
    }
}

/// A matcher and its operands.
type Check = (String, Vec<String>);

/// `(scope, name, checks)` of every test in `source`.
fn checks(lang: Lang, source: &str) -> Vec<(String, String, Vec<Check>)> {
    lang.test_file(source.as_bytes())
        .unwrap()
        .tests
        .into_iter()
        .map(|t| {
            let checks = t.assertions.into_iter().map(|a| (a.matcher, a.parts)).collect();
            (t.scope, t.name, checks)
        })
        .collect()
}

#[test]
fn assertions_keep_their_check_through_a_reformat() {
    let before = "class TestCart:\n    def test_total(self):\n        assert total( [1,2], ) == 3  # sum\n        self.assertEqual(name, 'cart', msg='m')\n        assert 'a' not in items\n        save.assert_called_with(1)\n";
    let after = "class TestCart:\n    def test_total(self):\n        assert (\n            total([1, 2]) == 3\n        )\n        self.assertEqual(\n            name,\n            \"cart\",\n        )\n        assert \"a\" not in items\n        save.assert_called_with(\n            1,\n        )\n";
    let found = checks(Lang::Python, before);
    assert_eq!(found, checks(Lang::Python, after));
    let (scope, name, asserted) = &found[0];
    assert_eq!((scope.as_str(), name.as_str()), ("TestCart", "test_total"));
    let want: Vec<Check> = [
        ("==", vec!["total ( [ 1 , 2 ] )", "3"]),
        ("assertEqual", vec!["name", "\" cart \""]),
        ("not in", vec!["\" a \"", "items"]),
        ("assert_called_with", vec!["save", "1"]),
    ]
    .into_iter()
    .map(|(m, p)| (m.to_string(), p.into_iter().map(str::to_string).collect()))
    .collect();
    assert_eq!(asserted, &want);

    let js = "describe('cart', () => {\n  it('totals', () => {\n    expect(total([1, 2])).not.toBe(4);\n    assert.equal(name, 'cart')\n  })\n})\n";
    let js_after = "describe(\"cart\", () => {\n  it(\"totals\", () => {\n    expect(\n      total([1, 2]),\n    )\n      .not.toBe(4)\n    assert.equal(name, \"cart\");\n  });\n});\n";
    let found = checks(Lang::TypeScript, js);
    assert_eq!(found, checks(Lang::TypeScript, js_after));
    assert_eq!(found[0].0, "cart");
    assert_eq!(found[0].2[0].0, "not.toBe");
    assert_eq!(
        found[0].2[0].1,
        vec!["total ( [ 1 , 2 ] )".to_string(), "4".to_string()]
    );
    assert_eq!(found[0].2[1].0, "assert.equal");
}

#[test]
fn visit_named_sees_every_named_node_once_and_can_prune() {
    let source = b"def f(x):\n    return [x, (x + 1)]\n";
    let tree = Lang::Python.parse(source).unwrap();
    let mut kinds = Vec::new();
    visit_named(tree.root_node(), |n| {
        kinds.push(n.kind());
        n.kind() != "list"
    });
    assert_eq!(
        kinds,
        vec![
            "module",
            "function_definition",
            "identifier",
            "parameters",
            "identifier",
            "block",
            "return_statement",
            "list"
        ]
    );
    let mut count = 0;
    let list = tree.root_node().named_descendant_for_byte_range(25, 26).unwrap();
    visit_named(list, |_| {
        count += 1;
        true
    });
    assert!(count >= 1);
}

#[test]
fn each_test_lists_the_imported_names_it_uses() {
    let py = b"from shop.cart import total, Cart\nimport json\n\ndef helper():\n    return json.dumps(1)\n\ndef test_a():\n    assert total([1]) == 1\n\ndef test_b():\n    cart = Cart()\n    assert helper() and cart\n";
    let file = Lang::Python.test_file(py).unwrap();
    let uses: Vec<&[String]> = file.tests.iter().map(|t| t.uses.as_slice()).collect();
    assert_eq!(uses, vec![&["total".to_string()][..], &["Cart".to_string()][..]]);
    let js = b"import { total } from './cart'\nimport * as api from './api'\nit('a', () => { expect(total([1])).toBe(1) })\nit('b', async () => { expect(await api.get()).toEqual({ total }) })\n";
    let file = Lang::TypeScript.test_file(js).unwrap();
    let uses: Vec<Vec<String>> = file.tests.iter().map(|t| t.uses.clone()).collect();
    assert_eq!(
        uses,
        vec![vec!["total".to_string()], vec!["api".to_string(), "total".to_string()]]
    );
}

/// Each case of a parametrized test binds the parameters its body does
/// not rebind.
#[test]
fn parametrized_tests_bind_their_parameters_per_case() {
    let cases = |lang: Lang, source: &str| -> Vec<Vec<(String, String)>> {
        let file = lang.test_file(source.as_bytes()).unwrap();
        file.tests.into_iter().flat_map(|t| t.cases).collect()
    };
    let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
    // pytest: names as one string or a list, `pytest.param`, stacked
    // decorators multiply, a rebound parameter (`url = URL(url)`) is left out,
    // a row of the wrong length is not read.
    let py = "import pytest\n\n@pytest.mark.parametrize(\"url,want\", [(\"a b\", b\"\"), pytest.param(\"c\", b\"d\", id=\"c\"), (1,)])\n@pytest.mark.parametrize([\"n\"], [1, 2])\ndef test_u(url, want, n):\n    url = parse(url)\n    assert url.raw == want\n";
    assert_eq!(
        cases(Lang::Python, py),
        vec![
            vec![pair("want", "b\" \""), pair("n", "1")],
            vec![pair("want", "b\" \""), pair("n", "2")],
            vec![pair("want", "b\" d \""), pair("n", "1")],
            vec![pair("want", "b\" d \""), pair("n", "2")],
        ]
    );
    // Jest/Vitest: array rows by position, object rows by the fields a
    // pattern takes, scalar rows to the only parameter; a table by name is not read.
    let js = "it.each([[1, 'a'], [2, 'b']])('n %i', (n, s) => { expect(f(n)).toBe(s) })\ntest.each([{ input: 'x', want: 1 }])('o', ({ input, want }) => { expect(g(input)).toBe(want) })\nit.each([3, 4])('s', (v) => { expect(h(v)).toBe(true) })\nit.each(rows)('r', (v) => { expect(h(v)).toBe(true) })\n";
    assert_eq!(
        cases(Lang::TypeScript, js),
        vec![
            vec![pair("n", "1"), pair("s", "\" a \"")],
            vec![pair("n", "2"), pair("s", "\" b \"")],
            vec![pair("input", "\" x \""), pair("want", "1")],
            vec![pair("v", "3")],
            vec![pair("v", "4")],
        ]
    );
    // Go tables: struct rows by position (a type declared in the file) or
    // by field, a map's key; a loop over plain values beside them reads no
    // rows; a loop's index gives none; loops over two tables give each its
    // loop's checks.
    let go = "package p\n\ntype row struct {\n\tin, want int\n}\n\nfunc TestA(t *testing.T) {\n\tcases := []row{{1, 2}, {want: 4, in: 3}, {5}}\n\tfor _, c := range cases {\n\t\tif got := Inc(c.in); got != c.want {\n\t\t\tt.Error(got)\n\t\t}\n\t}\n\tfor _, x := range []int{7} {\n\t\tt.Log(x)\n\t}\n}\n\nfunc TestM(t *testing.T) {\n\tfor name, c := range map[string]*struct{ in int }{\"a\": {in: 1}} {\n\t\tt.Log(name, c.in)\n\t}\n}\n\nfunc TestI(t *testing.T) {\n\tfor i := range []row{{1, 2}} {\n\t\tt.Log(i)\n\t}\n}\n\nfunc TestTwo(t *testing.T) {\n\tfor _, c := range []row{{1, 2}} {\n\t\tt.Log(c)\n\t}\n\tfor _, c := range []row{{3, 4}} {\n\t\tt.Log(c)\n\t}\n}\n";
    assert_eq!(
        cases(Lang::Go, go),
        vec![
            vec![pair("c . in", "1"), pair("c . want", "2")],
            vec![pair("c . want", "4"), pair("c . in", "3")],
            vec![pair("name", "\" a \""), pair("c . in", "1")],
            // Two tables, each its loop's.
            vec![pair("c . in", "1"), pair("c . want", "2")],
            vec![pair("c . in", "3"), pair("c . want", "4")],
        ]
    );
    // rstest: `#[case]` parameters in order; a fixture parameter is not a case's.
    let rs = "#[rstest]\n#[case(1, \"one\")]\n#[case::two(2, \"two\")]\nfn names(db: Db, #[case] n: u32, #[case] want: &str) {\n    assert_eq!(name(n), want);\n}\n";
    assert_eq!(
        cases(Lang::Rust, rs),
        vec![
            vec![pair("n", "1"), pair("want", "\" one \"")],
            vec![pair("n", "2"), pair("want", "\" two \"")],
        ]
    );
}

/// A loop over a literal table is a table-driven test: each row binds the
/// loop's names (Python here; the other languages beside their models).
#[test]
fn python_loops_over_literal_tables_bind_their_names_per_row() {
    let cases = |source: &str| -> Vec<Vec<Vec<(String, String)>>> {
        let file = Lang::Python.test_file(source.as_bytes()).unwrap();
        file.tests.into_iter().map(|t| t.cases).collect()
    };
    let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
    // Written in the loop, bound once in the body, or once at module level;
    // tuple rows by position; one name reads `row[i]` and `row["key"]`.
    let py = "CASES = [(1, 2), (3, 4)]\n\ndef test_written():\n    for n, want in [(1, 2), (3,)]:\n        assert inc(n) == want\n\ndef test_local():\n    table = ((5, 6),)\n    for (n, want) in table:\n        assert inc(n) == want\n\ndef test_module():\n    for n, want in CASES:\n        assert inc(n) == want\n\ndef test_rows():\n    for row in [(7, 8), {\"n\": 9, \"want\": 10}]:\n        assert inc(row[0]) == row[1]\n";
    assert_eq!(
        cases(py),
        vec![
            vec![vec![pair("n", "1"), pair("want", "2")]],
            vec![vec![pair("n", "5"), pair("want", "6")]],
            vec![
                vec![pair("n", "1"), pair("want", "2")],
                vec![pair("n", "3"), pair("want", "4")]
            ],
            vec![
                vec![pair("row [ 0 ]", "7"), pair("row [ 1 ]", "8")],
                vec![pair("row [ \" n \" ]", "9"), pair("row [ \" want \" ]", "10")]
            ],
        ]
    );
    // A list of plain values binds the one name; two tables whose loops,
    // one after the other, bind the same names each give their rows; none:
    // a table rebound in the body or at module level, a rebound loop name
    // (left out), a parametrized test (its decorator's cases win).
    let py = "TWICE = [(1, 2)]\nTWICE = [(3, 4)]\n\ndef test_plain():\n    for n in [1, 2]:\n        assert inc(n) > n\n\ndef test_two():\n    for n, want in [(1, 2)]:\n        assert inc(n) == want\n    for n, want in [(3, 4)]:\n        assert inc(n) == want\n\ndef test_rebound_table():\n    t = [(1, 2)]\n    t = [(3, 4)]\n    for n, want in t:\n        assert inc(n) == want\n\ndef test_module_twice():\n    for n, want in TWICE:\n        assert inc(n) == want\n\ndef test_rebound_name():\n    for n, want in [(1, 2)]:\n        want = str(want)\n        assert inc(n) == want\n\n@pytest.mark.parametrize(\"k\", [0])\ndef test_param(k):\n    for n, want in [(1, 2)]:\n        assert inc(n + k) == want\n";
    assert_eq!(
        cases(py),
        vec![
            vec![vec![pair("n", "1")], vec![pair("n", "2")]],
            vec![
                vec![pair("n", "1"), pair("want", "2")],
                vec![pair("n", "3"), pair("want", "4")]
            ],
            vec![],
            vec![],
            vec![vec![pair("n", "1")]],
            vec![vec![pair("k", "0")]],
        ]
    );
    // Beside a table of rows, a loop over plain values does not hide it;
    // an f-string is no plain value.
    let py = "def test_beside():\n    for name in [\"a\", -2, None]:\n        assert ok(name)\n    for n, want in [(1, 2)]:\n        assert inc(n) == want\n\ndef test_formatted():\n    for name in [f\"{x}\", \"b\"]:\n        assert ok(name)\n";
    assert_eq!(cases(py), vec![vec![vec![pair("n", "1"), pair("want", "2")]], vec![]]);
}

/// JavaScript: `for .. of` loops and `forEach` callbacks over a literal
/// array are table-driven tests too.
#[test]
fn javascript_loops_over_literal_tables_bind_their_names_per_row() {
    let cases = |source: &str| -> Vec<Vec<Vec<(String, String)>>> {
        let file = Lang::TypeScript.test_file(source.as_bytes()).unwrap();
        file.tests.into_iter().map(|t| t.cases).collect()
    };
    let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
    let js = "const cases = [{ input: 'a', want: 1 }, { input: 'bb', want: 2 }]\n\ntest('written', () => {\n  for (const [n, want] of [[1, 2], [3, 4]]) {\n    expect(inc(n)).toBe(want)\n  }\n})\n\ntest('module', () => {\n  for (const { input, want: expected } of cases) {\n    expect(len(input)).toBe(expected)\n  }\n})\n\ntest('one name', () => {\n  const rows = [[5, 6]] as const\n  rows.forEach((row) => expect(inc(row[0])).toBe(row[1]))\n  cases.forEach((c) => expect(len(c.input)).toBe(c.want))\n})\n\ntest('each', () => {\n  cases.forEach((c) => expect(len(c.input)).toBe(c.want))\n})\n";
    assert_eq!(
        cases(js),
        vec![
            vec![
                vec![pair("n", "1"), pair("want", "2")],
                vec![pair("n", "3"), pair("want", "4")]
            ],
            vec![
                vec![pair("input", "\" a \""), pair("expected", "1")],
                vec![pair("input", "\" bb \""), pair("expected", "2")]
            ],
            // Two tables, each its loop's.
            vec![
                vec![pair("row [ 0 ]", "5"), pair("row [ 1 ]", "6")],
                vec![pair("c . input", "\" a \""), pair("c . want", "1")],
                vec![pair("c . input", "\" bb \""), pair("c . want", "2")]
            ],
            vec![
                vec![pair("c . input", "\" a \""), pair("c . want", "1")],
                vec![pair("c . input", "\" bb \""), pair("c . want", "2")]
            ],
        ]
    );
    // A list of plain values binds the one name; none: `for .. in`, a
    // rebound table, a rebound loop name (left out), an `it.each` test (its
    // own rows win).
    let js = "test('plain', () => {\n  for (const n of [1, 2]) {\n    expect(inc(n)).toBeGreaterThan(n)\n  }\n})\n\ntest('in', () => {\n  for (const k in [[1, 2]]) {\n    expect(k).toBeDefined()\n  }\n})\n\ntest('rebound table', () => {\n  let t = [[1, 2]]\n  t = [[3, 4]]\n  for (const [n, want] of t) {\n    expect(inc(n)).toBe(want)\n  }\n})\n\ntest('rebound name', () => {\n  for (let [n, want] of [[1, 2]]) {\n    want = String(want)\n    expect(inc(n)).toBe(want)\n  }\n})\n\nit.each([[0]])('each %i', (k) => {\n  for (const [n, want] of [[1, 2]]) {\n    expect(inc(n + k)).toBe(want)\n  }\n})\n";
    assert_eq!(
        cases(js),
        vec![
            vec![vec![pair("n", "1")], vec![pair("n", "2")]],
            vec![],
            vec![],
            vec![vec![pair("n", "1")]],
            vec![vec![pair("k", "0")]]
        ]
    );
    // A template with a substitution is no plain value.
    let js = "test('names', () => {\n  ['a b', `c`, -1, null].forEach((name) => expect(ok(name)).toBe(false))\n})\n\ntest('built', () => {\n  for (const name of [`${x}`, 'b']) {\n    expect(ok(name)).toBe(false)\n  }\n})\n";
    assert_eq!(
        cases(js),
        vec![
            vec![
                vec![pair("name", "\" a b \"")],
                vec![pair("name", "` c `")],
                vec![pair("name", "- 1")],
                vec![pair("name", "null")]
            ],
            vec![]
        ]
    );
}

/// Rust: a `for` loop over a literal array is a table-driven test too.
#[test]
fn rust_loops_over_literal_tables_bind_their_names_per_row() {
    let cases = |source: &str| -> Vec<Vec<Vec<(String, String)>>> {
        let file = Lang::Rust.test_file(source.as_bytes()).unwrap();
        file.tests.into_iter().map(|t| t.cases).collect()
    };
    let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
    let rs = "const CASES: &[(u32, u32)] = &[(4, 5), (6, 7)];\n\n#[test]\nfn written() {\n    for (n, want) in [(1, 2), (3, 4)] {\n        assert_eq!(inc(n), want);\n    }\n}\n\n#[test]\nfn constant() {\n    for &(n, want) in CASES.iter() {\n        assert_eq!(inc(n), want);\n    }\n}\n\n#[test]\nfn one_name() {\n    let rows = vec![0];\n    let table = [Row { n: 8, want: 9 }];\n    for row in &table {\n        assert_eq!(inc(row.n), row.want);\n    }\n}\n\n#[test]\nfn plain() {\n    for n in [1, 2] {\n        assert!(inc(n) > n);\n    }\n}\n\n#[test]\nfn vectors() {\n    let data = vec![(\"f\", b\"Zg==\"), (\"fo\", b\"Zm8=\")];\n    for (plain, encoded) in &data {\n        assert_eq!(encode(plain), *encoded);\n    }\n}\n";
    assert_eq!(
        cases(rs),
        vec![
            vec![
                vec![pair("n", "1"), pair("want", "2")],
                vec![pair("n", "3"), pair("want", "4")]
            ],
            vec![
                vec![pair("n", "4"), pair("want", "5")],
                vec![pair("n", "6"), pair("want", "7")]
            ],
            vec![vec![pair("row . n", "8"), pair("row . want", "9")]],
            vec![vec![pair("n", "1")], vec![pair("n", "2")]],
            // `vec![..]` is the array it holds.
            vec![
                vec![pair("plain", "\" f \""), pair("encoded", "b\" Zg== \"")],
                vec![pair("plain", "\" fo \""), pair("encoded", "b\" Zm8= \"")]
            ],
        ]
    );
}

/// The text of a string around its escape sequences is part of its key:
/// `"plain\na"` and `"\n"` are not one value.
#[test]
fn strings_keep_their_text_around_escapes() {
    for (lang, source) in [
        (Lang::Python, "def test_a():\n    assert out == \"plain\\na\\tb\"\n"),
        (
            Lang::TypeScript,
            "it('a', () => { expect(out).toBe('plain\\na\\tb') })\n",
        ),
        (
            Lang::Rust,
            "#[test]\nfn a() {\n    assert_eq!(out, \"plain\\na\\tb\");\n}\n",
        ),
        (
            Lang::Go,
            "package a\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestA(t *testing.T) {\n\tassert.Equal(t, \"plain\\na\\tb\", out)\n}\n",
        ),
    ] {
        let file = lang.test_file(source.as_bytes()).unwrap();
        let parts = &file.tests.first().expect("one test").assertions[0].parts;
        let value = parts.iter().find(|p| p.contains('"')).unwrap();
        let words: String = value.chars().filter(|c| c.is_alphabetic()).collect();
        assert_eq!(words, "plainnatb", "{lang:?}: {parts:?}");
    }
}

/// Issue 62: the two sides of an equality are one value when their syntax
/// trees are, whatever the layout, comments, trailing commas or quotes; a
/// call, subscript or read on them is [`Operand::recomputed`] with its
/// callees, and not when something on it may differ each time.
#[test]
fn operands_are_keyed_by_their_tokens_and_know_what_recomputes_them() {
    let sides = |lang: Lang, source: &str| -> Vec<(String, String, Option<Vec<String>>)> {
        let file = lang.test_file(source.as_bytes()).unwrap();
        file.tests[0]
            .assertions
            .iter()
            .map(|a| match a.form.demanded() {
                Form::Equal(x, y) => (x.key.clone(), y.key.clone(), x.recomputed.clone()),
                Form::SelfEqual(x) => (x.key.clone(), x.key.clone(), x.recomputed.clone()),
                other => panic!("{lang:?}: {other:?}"),
            })
            .collect()
    };
    let callees = |c: &[&str]| Some(c.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let py = "def test_a():\n    assert f( 'a\\nb', ) == f(\"a\\nb\")  # x\n    assert f(\"a\\nb\") == f(\"c\\nd\")\n    assert a.b[0] == a.b[0]\n    assert m.get() is m.get()\n    assert Cart(1) == Cart(1)\n    assert (a + b) * c == a + b * c\n";
    let found = sides(Lang::Python, py);
    assert_eq!(found[0].0, found[0].1, "layout, comments, a trailing comma and quotes");
    assert_eq!(found[0].2, callees(&["f"]));
    assert_ne!(found[1].0, found[1].1, "the text between escapes");
    assert_eq!(found[2].2, callees(&[]));
    assert_eq!(found[3].2, None, "identity of two calls checks a cache");
    assert_eq!(found[4].2, None, "a class called builds a new object");
    assert_ne!(found[5].0, found[5].1, "parentheses stay");

    let ts = "it('a', async () => {\n  expect(svc.get<T>(1)).toBe(svc.get(1))\n  expect(new Foo()).toEqual(new Foo())\n  expect(await f()).toEqual(await f())\n})\n";
    let found = sides(Lang::TypeScript, ts);
    assert_eq!(found[0].2, callees(&["svc.get"]));
    assert_eq!((found[1].2.clone(), found[2].2.clone()), (None, None));

    let rs = "#[test]\nfn a() {\n    assert_eq!(parse::<u8>(&s), parse::<u8>(&s));\n    assert_eq!(vec![f()], vec![f()]);\n    assert_eq!(Value::from(1), Value::from(1));\n}\n";
    let found = sides(Lang::Rust, rs);
    assert_eq!(found[0].2, callees(&["parse"]));
    assert_eq!((found[1].2.clone(), found[2].2.clone()), (None, None));

    let go = "package a\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestA(t *testing.T) {\n\tassert.Equal(t, cart.Total(nil), cart.Total(nil))\n\tassert.Equal(t, <-ch, <-ch)\n}\n";
    let found = sides(Lang::Go, go);
    assert_eq!(found[0].2, callees(&["cart.Total"]));
    assert_eq!(found[1].2, None, "each receive takes the next value");
}

#[test]
fn numbers_compare_by_value() {
    assert_eq!(number("1_000"), Some(1000.0));
    assert_eq!(number("0x1F"), Some(31.0));
    assert_eq!(number("1.0"), number("1"));
    assert_eq!(number("10n"), Some(10.0));
}

#[test]
fn conventional_helpers_need_a_word_boundary() {
    for yes in [
        "assert_frame_equal",
        "assertValid",
        "check_html",
        "expectError",
        "verify",
        "ensure_ok",
    ] {
        assert!(conventional_helper(yes), "{yes}");
    }
    for no in ["checkout", "assertion_count", "verifying", "shoulder", "expected"] {
        assert!(!conventional_helper(no), "{no}");
    }
}

#[test]
fn helpers_close_over_calls() {
    let bodies = vec![
        ("a".to_string(), true, vec![]),
        ("b".to_string(), false, vec!["a".to_string()]),
        ("c".to_string(), false, vec!["b".to_string()]),
        ("d".to_string(), false, vec!["x".to_string()]),
    ];
    assert_eq!(close_helpers(&bodies), vec!["a", "b", "c"]);
}

/// TypeScript's types are erased before the code runs: a change to them
/// alone is not a change of the code; an enum's members are values.
#[test]
fn typescript_types_are_not_code() {
    let print = |source: &str| code_fingerprint(Lang::TypeScript, source.as_bytes()).unwrap();
    let base = print(
        "type Feature = 'a' | 'b'\ninterface P { a: string }\nexport function f(x: Feature): string {\n  return x\n}\n",
    );
    let types = print(
        "type Feature = 'a' | 'b' | 'c'\ninterface P { a: string; b?: number }\nexport function f<T>(x: Feature | T): string {\n  return x as string\n}\n",
    );
    assert_ne!(base, types, "`as string` is an expression, still read");
    let only_types = print(
        "type Feature = 'a' | 'b' | 'c'\ninterface P { a: string; b?: number }\nexport function f(x: Feature | number): string {\n  return x\n}\n",
    );
    assert_eq!(base, only_types);
    let enum_member = |m: &str| print(&format!("enum E {{ A{m} }}\n"));
    assert_ne!(enum_member(""), enum_member(", B"));
    assert_ne!(
        base,
        print(
            "type Feature = 'a' | 'b'\ninterface P { a: string }\nexport function f(x: Feature): string {\n  return x + 1\n}\n"
        )
    );
}

/// A local variable or parameter renamed everywhere is the same code;
/// a name that other code can see, or a name swapped for another that
/// means something else, is not.
#[test]
fn locals_renamed_everywhere_are_the_same_code() {
    let print = |source: &str| code_fingerprint(Lang::TypeScript, source.as_bytes()).unwrap();
    let base = "export class Ky {\n  static create(input: string) {\n    const fn = async () => parseInt(input, 10)\n    return retry(fn, (e) => e)\n  }\n}\nfunction retry(fn: () => number, onError: (e: Error) => Error) {\n  try {\n    return fn()\n  } catch (error) {\n    throw onError(error)\n  }\n}\n";
    let renamed = base
        .replace("fn", "function_")
        .replace("(e) => e", "(x) => x")
        .replace("error", "caught");
    assert_eq!(print(base), print(&renamed));
    for other in [
        // Another callee, however consistently.
        base.replace("parseInt", "parseFloat"),
        // A local renamed onto a name used elsewhere: two names became one.
        base.replace("const fn", "const input")
            .replace("retry(fn,", "retry(input,"),
        // A function's name is visible (`retry.name`), as are exports.
        base.replace("retry", "again"),
        base.replace("export class Ky", "export class Client"),
    ] {
        assert_ne!(print(base), print(&other), "{other}");
    }
    let object = |name: &str| {
        print(&format!(
            "export const make = () => {{\n  const {name} = 1\n  return {{ {name} }}\n}}\n"
        ))
    };
    assert_ne!(object("count"), object("total"), "a shorthand property names its key");
    let exported = |name: &str| print(&format!("export const {name} = 1\n"));
    assert_ne!(exported("a"), exported("b"));
    let destructured = |name: &str| {
        print(&format!(
            "const f = (o) => {{\n  const {{ {name} }} = o\n  return {name}\n}}\n"
        ))
    };
    assert_ne!(destructured("a"), destructured("b"), "`{{ a }}` reads property `a`");
}

/// A JavaScript helper handed the test context asserts through it.
#[test]
fn helpers_handed_the_test_context_assert() {
    let source = "export async function timed({ t, ms }) {\n  t.true(ms < 10)\n}\nexport function check(t, x) {\n  t.is(x, 1)\n}\nexport function build(x) {\n  x.true(1)\n}\n";
    let file = Lang::TypeScript.test_file(source.as_bytes()).unwrap();
    assert_eq!(file.helpers, vec!["check", "timed"]);
}

/// Issue 52: what a mock was told to return is keyed by how the test calls
/// it (`.return_value` as a call), and the locals a test may reach it
/// through are kept for tests with mock returns only.
#[test]
fn mock_returns_are_keyed_as_calls_and_locals_kept_for_them() {
    let py = "def test_chain():\n    m = MagicMock(get=Mock(return_value=1))\n    m.session.return_value.first.return_value = user\n    m.count.side_effect = count\n    get = m.get\n    assert get() == 1\n\n\ndef test_plain():\n    result = total()\n    assert result == 3\n";
    let file = Lang::Python.test_file(py.as_bytes()).unwrap();
    let returns: Vec<(&str, &Returned)> = file.tests[0]
        .mock_returns
        .iter()
        .map(|r| (r.callee.as_str(), &r.value))
        .collect();
    assert_eq!(
        returns,
        vec![
            ("m.get", &Returned::Literal(Literal::Number(1.0))),
            ("m.session().first", &Returned::Name("user".into())),
            ("m.count", &Returned::Computed),
        ]
    );
    let locals: Vec<(&str, &str)> = file.tests[0]
        .locals
        .iter()
        .map(|l| (l.name.as_str(), l.chain.as_str()))
        .collect();
    assert_eq!(locals, vec![("m", "MagicMock()"), ("get", "m.get")]);
    assert!(file.tests[1].locals.is_empty(), "no mock, no locals");

    let ts = "let ctx\nbeforeEach(() => {\n  ctx = { api: { load: vi.fn().mockResolvedValue(7) } }\n})\nit('x', () => {\n  vi.mocked(api.users.get).mockImplementation(() => compute())\n  const { load } = ctx.api\n  expect(load()).toBe(7)\n})\n";
    let file = Lang::TypeScript.test_file(ts.as_bytes()).unwrap();
    let returns: Vec<(&str, &Returned)> = file.tests[0]
        .mock_returns
        .iter()
        .map(|r| (r.callee.as_str(), &r.value))
        .collect();
    assert_eq!(
        returns,
        vec![
            ("api.users.get", &Returned::Computed),
            ("ctx.api.load", &Returned::Literal(Literal::Number(7.0))),
        ]
    );
    assert_eq!(file.tests[0].locals[0].chain, "ctx.api.load");
}

/// `@ts-expect-error` checks that the next line fails to compile; one that
/// names only a diagnostic of unused code (`[ts6133]`) silences the test's
/// own housekeeping and checks nothing (issue 64: remeda).
#[test]
fn a_ts_expect_error_for_unused_code_is_no_check() {
    let count = |comment: &str| {
        let source = format!(
            "import {{ test }} from 'vitest'\n\ntest('t', () => {{\n  // {comment}\n  const x: number = 'a'\n}})\n"
        );
        let file = Lang::TypeScript.test_file(source.as_bytes()).unwrap();
        file.tests[0].assertions.len()
    };
    assert_eq!(count("@ts-expect-error"), 1);
    assert_eq!(count("@ts-expect-error [ts2322] a string is no number"), 1);
    assert_eq!(count("@ts-expect-error [ts6133] -- never read"), 0);
    assert_eq!(count("@ts-expect-error TS6133 TS6196"), 0);
    assert_eq!(count("@ts-expect-error [ts6133] [ts2322]"), 1);
}

/// An ava macro is given by reference: a function among the arguments
/// after it is the macro's, not the test's body (issue 64: execa's
/// `test(title, testStdoutFile, 'nested.js', file => ({file}))`).
#[test]
fn a_test_given_by_a_macro_is_not_read_from_its_arguments() {
    let file = Lang::JavaScript
        .test_file(b"import test from 'ava'\n\nconst check = async (t, make) => { t.is(make('a'), 'a') }\n\ntest('by macro', check, (file) => ({ file }))\ntest('inline', (t) => { t.is(f(), 1) })\ntest('options', options, () => { t.is(f(), 1) })\n")
        .unwrap();
    let names: Vec<&str> = file.tests.iter().map(|t| t.name.as_str()).collect();
    // Options named by a variable (vitest's `it(title, options, fn)`) are no macro.
    assert_eq!(names, ["inline", "options"]);
}

/// Loops over several tables that do not nest give each table's rows to
/// the checks inside its loop; loops that nest give none (issue 64:
/// samber/lo's subtests, each with a `tests` table of its own).
#[test]
fn several_tables_each_give_their_rows_to_the_checks_of_their_loop() {
    let go = "package p\n\nfunc TestX(t *testing.T) {\n\tt.Run(\"a\", func(t *testing.T) {\n\t\ttests := []struct{ in, want int }{{1, 2}, {2, 3}}\n\t\tfor _, tt := range tests {\n\t\t\tassert.Equal(t, tt.want, F(tt.in))\n\t\t}\n\t})\n\tt.Run(\"b\", func(t *testing.T) {\n\t\ttests := []struct{ in, want int }{{5, 6}}\n\t\tfor _, tt := range tests {\n\t\t\tassert.Equal(t, tt.want, G(tt.in))\n\t\t}\n\t})\n\tassert.Equal(t, 1, F(0))\n}\n";
    let file = Lang::Go.test_file(go.as_bytes()).unwrap();
    let t = &file.tests[0];
    assert_eq!(t.cases.len(), 3);
    let rows: Vec<usize> = t.case_loops.iter().map(|l| l.rows).collect();
    assert_eq!(rows, [2, 1]);
    assert!(t.case_loops[0].span.contains(t.assertions[0].span));
    assert!(!t.case_loops[0].span.contains(t.assertions[1].span));
    assert!(t.case_loops.iter().all(|l| !l.span.contains(t.assertions[2].span)));

    let py = |inner: &str| {
        format!(
            "def test_x():\n    for a, b in [(1, 2), (2, 3)]:\n{inner}        assert f(a) == b\n    for c, d in [(5, 6)]:\n        assert g(c) == d\n"
        )
    };
    let file = Lang::Python.test_file(py("").as_bytes()).unwrap();
    assert_eq!((file.tests[0].cases.len(), file.tests[0].case_loops.len()), (3, 2));
    // Nested: the second loop inside the first.
    let nested = "def test_x():\n    for a, b in [(1, 2)]:\n        for c, d in [(5, 6)]:\n            assert f(a, c) == b + d\n";
    let file = Lang::Python.test_file(nested.as_bytes()).unwrap();
    assert!(file.tests[0].cases.is_empty() && file.tests[0].case_loops.is_empty());
    // One table run by two loops is every check's.
    let twice = "def test_x():\n    for a, b in CASES:\n        assert f(a) == b\n    for a, b in CASES:\n        assert g(a) == b\n\nCASES = [(1, 2)]\n";
    let file = Lang::Python.test_file(twice.as_bytes()).unwrap();
    assert_eq!((file.tests[0].cases.len(), file.tests[0].case_loops.len()), (1, 0));
}

/// Loops one after another that bind the same name (`for c in [..]` then
/// `for c in [..]`) each bind their own: each table gives its rows to the
/// checks inside its loop (unicode-width 3742586). A name the body binds
/// again outside the loops is still no row's value.
#[test]
fn loops_that_reuse_a_name_each_give_their_rows() {
    let rows = |lang: Lang, source: &str| -> (Vec<Vec<(String, String)>>, usize) {
        let file = lang.test_file(source.as_bytes()).unwrap();
        let t = file.tests.into_iter().next().unwrap();
        (t.cases, t.case_loops.len())
    };
    let rs = "#[test]\nfn t() {\n    for c in ['a', 'b'] {\n        assert_eq!(c.width(), Some(1));\n    }\n    for c in ['x'] {\n        assert_eq!(c.width(), Some(0));\n    }\n}\n";
    let (cases, loops) = rows(Lang::Rust, rs);
    assert_eq!((cases.len(), loops), (3, 2));
    let py = "def test_t():\n    for c in ['a', 'b']:\n        assert width(c) == 1\n    for c in ['x']:\n        assert width(c) == 0\n";
    let (cases, loops) = rows(Lang::Python, py);
    assert_eq!((cases.len(), loops), (3, 2));
    let rebound = "def test_t():\n    for c in ['a', 'b']:\n        assert width(c) == 1\n    c = 'y'\n    for c in ['x']:\n        assert width(c) == 0\n";
    assert_eq!(rows(Lang::Python, rebound).0.len(), 0);
}

/// `@pytest.mark.parametrize` given the name of a module-level literal
/// table reads that table's rows, as a loop over it does (wcwidth's
/// `HYPHEN_LONG_WORD_CASES`); a name bound twice, or to anything but a
/// literal list or tuple, gives no rows.
#[test]
fn parametrize_reads_a_module_table_by_name() {
    let cases = |source: &str| -> Vec<Vec<Vec<(String, String)>>> {
        let file = Lang::Python.test_file(source.as_bytes()).unwrap();
        file.tests.into_iter().map(|t| t.cases).collect()
    };
    let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
    let py = "import pytest\n\nCASES = [\n    # a comment\n    ('a', 1),\n    ('bb', 2),\n]\nTWICE = [(1, 2)]\nTWICE = [(3, 4)]\nBUILT = [(n, n) for n in range(3)]\n\n@pytest.mark.parametrize('text,width', CASES)\ndef test_width(text, width):\n    assert len(text) == width\n\n@pytest.mark.parametrize('a,b', TWICE)\ndef test_twice(a, b):\n    assert a < b\n\n@pytest.mark.parametrize('a,b', BUILT)\ndef test_built(a, b):\n    assert a == b\n";
    assert_eq!(
        cases(py),
        vec![
            vec![
                vec![pair("text", "\" a \""), pair("width", "1")],
                vec![pair("text", "\" bb \""), pair("width", "2")]
            ],
            vec![],
            vec![],
        ]
    );
}
