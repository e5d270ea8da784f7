//! What a JavaScript or TypeScript test file imports and uses.

use super::*;
use crate::lang::is_plain_name;

pub fn imports(tree: &Tree, source: &[u8]) -> Vec<Import> {
    let mut walker = Walker {
        memo: None,
        source,
        root: tree.root_node(),
        file: TestFile::default(),
        bodies: Vec::new(),
        tables: Vec::new(),
        literals: Vec::new(),
        qunit: false,
        groups: Vec::new(),
        wrappers: Vec::new(),
        renamed: Vec::new(),
        aliases: Vec::new(),
        http_client: false,
    };
    walker.imports_and_uses(&tree.root_node(), None);
    walker.file.imports
}

/// HTTP test clients whose requests chain assertions:
/// `request(app).get("/").expect(200)` (supertest and its forks).
pub(super) const HTTP_CLIENTS: &[&str] = &["supertest"];

/// Does a top-level `import` or `require` load an [`HTTP_CLIENTS`] module?
pub(super) fn imports_http_client(root: &Node, source: &[u8]) -> bool {
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .filter(|n| {
            matches!(
                n.kind(),
                "import_statement" | "lexical_declaration" | "variable_declaration"
            )
        })
        .any(|statement| {
            let mut found = false;
            visit_named(statement, |n| {
                if n.kind() == "string" {
                    let module = text(&n, source);
                    let module = module.trim_matches(['"', '\'', '`']);
                    found |= HTTP_CLIENTS.iter().any(|c| {
                        module == *c || module.strip_prefix(c).is_some_and(|rest| rest.starts_with(['-', '/']))
                    });
                }
                !found
            });
            found
        })
}

/// The top-level `import` statements of relative modules (`from './x'`):
/// the project's own.
fn relative_import_statements<'t>(root: &Node<'t>, source: &[u8]) -> Vec<Node<'t>> {
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .filter(|n| {
            n.kind() == "import_statement"
                && n.field("source")
                    .is_some_and(|s| text(&s, source).trim_matches(['"', '\'', '`']).starts_with('.'))
        })
        .collect()
}

/// The names the top-level `import` statements bind from relative modules
/// (`import { browserTest } from './helpers/with-page'`), sorted.
pub(super) fn relative_imports(root: &Node, source: &[u8]) -> Vec<String> {
    let mut names = Vec::new();
    for statement in relative_import_statements(root, source) {
        visit_named(statement, |n| {
            if n.kind() == "identifier" {
                names.push(text(&n, source).into_owned());
            }
            true
        });
    }
    names.sort();
    names.dedup();
    names
}

/// A name bound at the top of the module to a test function, with the
/// path a call through it stands for: `const it2 = it` is `it`, `const
/// later = test.skip` is `test.skip`. One that skips only on a condition
/// (`process.platform === 'win32' ? test.skip : test`, Vitest's
/// `test.skipIf(cond)` and `test.runIf(cond)`) declares tests as the test
/// function does: they run wherever the condition lets them, which is where
/// a deleted check is lost.
///
/// A name bound to a test runner's module stands for its test function
/// (`const tape = require('tape')`, `import anyTest from 'ava'`), or for
/// node-tap's root test, whose `.test(..)` (`.only`, `.skip`, `.todo`)
/// declares a test (`const t = require('tap'); t.test('x', (t) => ..)`):
/// [`RUNNER_MODULES`].
#[derive(Debug, Clone, PartialEq)]
pub(super) struct TestAlias {
    pub name: String,
    pub path: Vec<String>,
    /// The name holds a root test whose methods declare tests, not the
    /// test function itself.
    pub root: bool,
}

impl TestAlias {
    /// The path a call through this name stands for (`path` starts with
    /// the name): `None` for a root test's other methods (`t.equal(..)`
    /// at the top of a node-tap file is a check, not a test).
    pub fn through(&self, path: &[String]) -> Option<Vec<String>> {
        let mut through = self.path.clone();
        if !self.root {
            through.extend(path[1..].iter().cloned());
            return Some(through);
        }
        let method = path.get(1)?;
        match method.as_str() {
            "test" => through.extend(path[2..].iter().cloned()),
            "only" | "skip" | "todo" => through.extend(path[1..].iter().cloned()),
            _ => return None,
        }
        Some(through)
    }
}

/// Test runners whose module, bound to any name, is the test function
/// (`true`: tape, AVA, node:test) or a root test declaring tests through
/// its `.test` method (`false`: node-tap).
const RUNNER_MODULES: &[(&str, bool)] = &[("tape", true), ("ava", true), ("node:test", true), ("tap", false)];

/// The runner module a `require('..')` call or an `import`'s source names:
/// whether it is the test function ([`RUNNER_MODULES`]).
fn runner_module(module: &str) -> Option<bool> {
    RUNNER_MODULES.iter().find(|(m, _)| *m == module).map(|(_, f)| *f)
}

pub(super) fn test_aliases(root: &Node, source: &[u8], test_names: &[&str]) -> Vec<TestAlias> {
    // The path a test function's expression stands for.
    let plain = |n: &Node| -> Option<Vec<String>> {
        let n = unwrap_parentheses(*n);
        let path = match n.kind() {
            "identifier" | "member_expression" => callee_path(&n, source)?,
            _ => return None,
        };
        test_names.contains(&path[0].as_str()).then_some(path)
    };
    let read = |value: &Node| -> Option<Vec<String>> {
        let value = unwrap_parentheses(*value);
        if let Some(path) = plain(&value) {
            return Some(path);
        }
        let head = |path: Vec<String>| vec![path[0].clone()];
        match value.kind() {
            // `test.skipIf(cond)`, `test.runIf(cond)` (Vitest).
            "call_expression" => {
                let path = plain(&value.field("function")?)?;
                matches!(path.last().map(String::as_str), Some("skipIf" | "runIf")).then(|| head(path))
            }
            // `cond ? test.skip : test`, `cond ? it : it.skip`.
            "ternary_expression" => {
                let (yes, no) = (
                    plain(&value.field("consequence")?)?,
                    plain(&value.field("alternative")?)?,
                );
                let skips = |p: &[String]| p.iter().any(|s| s == "skip");
                Some(if skips(&yes) && skips(&no) { yes } else { head(yes) })
            }
            _ => None,
        }
    };
    let mut out = Vec::new();
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        if !matches!(statement.kind(), "lexical_declaration" | "variable_declaration") {
            continue;
        }
        let mut c = statement.walk();
        for declarator in statement
            .named_children(&mut c)
            .filter(|d| d.kind() == "variable_declarator")
        {
            let (Some(name), Some(value)) = (declarator.field("name"), declarator.field("value")) else {
                continue;
            };
            if name.kind() != "identifier" {
                continue;
            }
            if let Some(path) = read(&value) {
                out.push(TestAlias {
                    name: text(&name, source).into_owned(),
                    path,
                    root: false,
                });
            } else if let Some(function) = required_module(&value, source).and_then(|m| runner_module(&m)) {
                out.push(TestAlias {
                    name: text(&name, source).into_owned(),
                    path: vec!["test".to_string()],
                    root: !function,
                });
            }
        }
    }
    out.extend(runner_imports(root, source));
    out
}

/// The module a `require('m')` call loads.
fn required_module(value: &Node, source: &[u8]) -> Option<String> {
    let value = unwrap_parentheses(*value);
    if value.kind() != "call_expression" || text(&value.field("function")?, source) != "require" {
        return None;
    }
    let args = arguments(&value);
    let [module] = args.as_slice() else { return None };
    (module.kind() == "string").then(|| text(module, source).trim_matches(['"', '\'', '`']).to_string())
}

/// The names a top-level `import` binds to a runner module as a whole
/// (`import t from 'tap'`, `import * as tap from 'tap'`, `import anyTest
/// from 'ava'`): names it imports by their own name (`import { test }`)
/// are the test function already.
fn runner_imports(root: &Node, source: &[u8]) -> Vec<TestAlias> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    for statement in root
        .named_children(&mut cursor)
        .filter(|n| n.kind() == "import_statement")
    {
        let Some(function) = statement
            .field("source")
            .and_then(|s| runner_module(text(&s, source).trim_matches(['"', '\'', '`'])))
        else {
            continue;
        };
        let Some(clause) = first_child(&statement).filter(|c| c.kind() == "import_clause") else {
            continue;
        };
        let mut c = clause.walk();
        for bound in clause.named_children(&mut c) {
            let name = match bound.kind() {
                "identifier" => bound,
                "namespace_import" => match first_child(&bound) {
                    Some(n) if n.kind() == "identifier" => n,
                    _ => continue,
                },
                _ => continue,
            };
            out.push(TestAlias {
                name: text(&name, source).into_owned(),
                path: vec!["test".to_string()],
                // `import * as tap from 'tap'` is the root test too; a
                // namespace of a test function module holds it as a member.
                root: !function || bound.kind() == "namespace_import",
            });
        }
    }
    out
}

fn unwrap_parentheses(mut n: Node) -> Node {
    while n.kind() == "parenthesized_expression" {
        match first_child(&n) {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
}

/// The names along a callee: `it.skip.each(table)` -> `["it", "skip", "each"]`.
pub(super) fn callee_path(node: &Node, source: &[u8]) -> Option<Vec<String>> {
    match node.kind() {
        "identifier" => Some(vec![text(node, source).into_owned()]),
        "member_expression" => {
            let mut path = callee_path(&node.field("object")?, source)?;
            path.push(text(&node.field("property")?, source).into_owned());
            Some(path)
        }
        // `it.each(table)("name", fn)` and `test.each\`...\`("name", fn)`;
        // Vitest's `test.skipIf(cond)("name", fn)` and `test.runIf(cond)(..)`.
        "call_expression" => {
            let path = callee_path(&node.field("function")?, source)?;
            matches!(path.last().map(String::as_str), Some("each" | "skipIf" | "runIf")).then_some(path)
        }
        "parenthesized_expression" | "non_null_expression" => callee_path(&first_child(node)?, source),
        _ => None,
    }
}

pub(super) fn arguments<'a>(call: &Node<'a>) -> Vec<Node<'a>> {
    let Some(args) = call.field("arguments") else {
        return Vec::new();
    };
    let mut cursor = args.walk();
    args.named_children(&mut cursor)
        .filter(|a| a.kind() != COMMENT)
        .collect()
}

pub(super) fn is_function(node: &Node) -> bool {
    matches!(node.kind(), "arrow_function" | "function_expression" | "function")
}

impl<'s> Walker<'s, '_> {
    /// Imports (`import`, `require`, `import()`, `vi.importActual`,
    /// `jest.requireActual`), and the identifiers used outside them.
    pub(super) fn imports_and_uses(&mut self, root: &Node<'s>, mut mocks: Option<&mut MockScan<'s>>) {
        visit_named(*root, |n| {
            if let Some(scan) = mocks.as_deref_mut()
                && matches!(n.kind(), "variable_declarator" | "expression_statement")
            {
                let mut found = Vec::new();
                self.mock_return_at(n, &mut found);
                scan.returns.extend(found.into_iter().map(|r| (r, n)));
            }
            match n.kind() {
                "import_statement" => {
                    let Some(source) = n.field("source").and_then(|s| self.string_value(&s)) else {
                        return false;
                    };
                    let mut bound = Vec::new();
                    let mut c = n.walk();
                    if let Some(clause) = n.named_children(&mut c).find(|c| c.kind() == "import_clause") {
                        // A bare identifier in the clause is the default import.
                        collect_bound(&clause, self.source, "default", &mut bound);
                    }
                    let kind = if bound.is_empty() {
                        ImportKind::SideEffect
                    } else {
                        ImportKind::Static
                    };
                    let (names, origins) = bound.into_iter().unzip();
                    self.file.imports.push(Import {
                        specifier: source,
                        names,
                        origins,
                        span: Span::of(&n),
                        kind,
                    });
                    return false;
                }
                "variable_declarator" => {
                    // const x = require("y"), const { a } = require("y"), const m = await import("y")
                    if let (Some(name), Some(value)) = (n.field("name"), n.field("value"))
                        && let Some(spec) = self.required(&value)
                    {
                        let mut bound = Vec::new();
                        collect_bound(&name, self.source, "*", &mut bound);
                        let (names, origins) = bound.into_iter().unzip();
                        self.file.imports.push(Import {
                            specifier: spec,
                            names,
                            origins,
                            span: Span::of(&n),
                            kind: ImportKind::Static,
                        });
                        return false;
                    }
                }
                "call_expression" => {
                    if let Some(scan) = mocks.as_deref_mut() {
                        self.mock_call(n, scan);
                    }
                    // Most calls import nothing: look at the callee before the arguments.
                    // node-tap's `t.mockImport(m, mocks)` and `t.mockRequire(..)`
                    // load the module itself, with some of its imports replaced.
                    let kind = n.field("function").and_then(|f| match &self.source[f.byte_range()] {
                        b"import"
                        | b"vi.importActual"
                        | b"jest.requireActual"
                        | b"vi.importMock"
                        | b"jest.requireMock" => Some(ImportKind::Dynamic),
                        b"require" => Some(ImportKind::SideEffect),
                        _ if f.kind() == "member_expression"
                            && f.field("property").is_some_and(|p| {
                                matches!(&self.source[p.byte_range()], b"mockImport" | b"mockRequire")
                            }) =>
                        {
                            Some(ImportKind::Dynamic)
                        }
                        _ => None,
                    });
                    if let Some(kind) = kind
                        && let Some(spec) = arguments(&n).first().and_then(|a| self.string_value(a))
                    {
                        self.file.imports.push(Import {
                            specifier: spec,
                            names: Vec::new(),
                            origins: Vec::new(),
                            span: Span::of(&n),
                            kind,
                        });
                    }
                }
                "string" => {
                    if let Some(value) = self.string_value(&n).filter(|v| crate::lang::looks_like_path(v)) {
                        self.file.paths.push(value);
                    }
                    return false;
                }
                // A name in a type position uses what it names (`JSONParsed<number>`).
                "identifier" | "shorthand_property_identifier" | "type_identifier" => {
                    // Most names repeat: allocate only the first time one is seen.
                    let name = text(&n, self.source);
                    if !self.file.used.contains(name.as_ref()) {
                        self.file.used.insert(name.into_owned());
                    }
                }
                _ => {}
            }
            true
        });
    }
}

/// Names the file imports from the project's own modules under a name of
/// its own (`import {assert as isAssert} from '../source'`), each as the
/// local name and the name its module exports.
pub(super) fn renamed_imports(root: &Node, source: &[u8]) -> Vec<(String, String)> {
    let mut renamed = Vec::new();
    for statement in relative_import_statements(root, source) {
        let mut c = statement.walk();
        let Some(clause) = statement.named_children(&mut c).find(|c| c.kind() == "import_clause") else {
            continue;
        };
        let mut bound = Vec::new();
        collect_bound(&clause, source, "default", &mut bound);
        renamed.extend(
            bound
                .into_iter()
                .filter(|(local, exported)| local != exported && exported != "default" && is_plain_name(exported)),
        );
    }
    renamed
}

/// Each check of `tests` read with the names of [`renamed_imports`] as
/// their module exports them, where a name stands for a value (not a
/// property: `x.isAssert`): `isAssert.truthy(x)` of `import {assert as
/// isAssert}` is the check `assert.truthy(x)` was when the import kept the
/// module's name (issue 64: sindresorhus/is renamed its own `assert` when
/// its tests moved to `node:assert`, which took the name).
pub(super) fn read_as_exported(tests: &mut [TestCase], renamed: &[(String, String)]) {
    if renamed.is_empty() {
        return;
    }
    let exported = |w: &str| renamed.iter().find(|(local, _)| local == w).map(|(_, e)| e.as_str());
    let key = |key: &mut String| {
        let mut out = String::with_capacity(key.len());
        let mut previous = "";
        for (i, token) in key.split(' ').enumerate() {
            if i > 0 {
                out.push(' ');
            }
            match exported(token).filter(|_| !matches!(previous, "." | "?.")) {
                Some(name) => out.push_str(name),
                None => out.push_str(token),
            }
            previous = token;
        }
        *key = out;
    };
    fn operands(form: &mut Form, each: &mut dyn FnMut(&mut Operand)) {
        match form {
            Form::Truthy(a) | Form::Falsy(a) | Form::SelfEqual(a) => each(a),
            Form::Equal(a, b) | Form::NotEqual(a, b) => {
                each(a);
                each(b);
            }
            Form::FailUnless(inner) => operands(inner, each),
            Form::Fail | Form::Other => {}
        }
    }
    for a in tests.iter_mut().flat_map(|t| t.assertions.iter_mut()) {
        let (head, rest) = a.matcher.split_once('.').unwrap_or((&a.matcher, ""));
        if let Some(name) = exported(head) {
            a.matcher = if rest.is_empty() {
                name.to_string()
            } else {
                format!("{name}.{rest}")
            };
        }
        a.parts.iter_mut().for_each(&key);
        operands(&mut a.form, &mut |o: &mut Operand| key(&mut o.key));
    }
}
