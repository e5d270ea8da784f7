//! A test file's own fixtures: the helper classes, builders and constants
//! written outside its tests, which hand a test its input. An expected
//! value that changed with one of them followed the test's input, not the
//! code (issue 64: cachetools' `Locked` fixture counting its calls
//! differently, httparse's input constant gaining a header). So did one
//! that follows a data file the test imports, or a binding of the test's own.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::{Kind, Step};
use crate::gates::project::resolve::{is_test_support, normalize};
use crate::lang::{Lang, TestCase, TestFile};

/// Each name a test file defines outside its tests (a helper, a class and
/// its methods, a constant, a module-level binding), with the text that
/// defines it, its whitespace collapsed. Two definitions of one name are
/// read as one.
#[derive(Default)]
pub(crate) struct Fixtures {
    defined: HashMap<String, String>,
}

impl Fixtures {
    /// The fixtures of one version of a test file (`bytes`, read as `file`
    /// at `path`). In a Rust file that holds code beside its tests, only
    /// what its test modules hold: the rest is the code under test.
    pub(crate) fn read(bytes: &[u8], file: &TestFile, lang: Lang, path: &Path) -> Fixtures {
        let text = String::from_utf8_lossy(bytes);
        let lines: Vec<&str> = text.lines().collect();
        let mut in_test = vec![false; lines.len() + 1];
        for t in &file.tests {
            let end = (t.extent.end_line.max(t.extent.line) as usize).min(lines.len());
            for flag in &mut in_test[(t.extent.line.max(1) as usize - 1).min(end)..end] {
                *flag = true;
            }
        }
        // A Rust source file with code: the lines inside its test modules.
        let in_module: Option<Vec<bool>> = (lang == Lang::Rust && !is_test_support(path)).then(|| {
            let mut start = 0;
            lines
                .iter()
                .map(|line| {
                    let at = start;
                    start += line.len() + 1;
                    file.test_spans.iter().any(|&(s, e)| s <= at && at < e)
                })
                .collect()
        });
        let kept = lines
            .iter()
            .enumerate()
            .filter(|&(i, _)| !in_test[i] && in_module.as_ref().is_none_or(|m| m[i]))
            .map(|(_, line)| *line);
        Fixtures {
            defined: definitions(kept, false),
        }
    }

    /// The bindings a test's body makes (`json := `{..}``, `data = {..}`),
    /// read as a file's fixtures are: `text` is the test's, its first line
    /// (the signature) left out.
    pub(crate) fn locals(text: &str) -> Fixtures {
        Fixtures {
            defined: definitions(text.lines().skip(1), true),
        }
    }

    /// Does `name` read the same in this version and in `other`, both
    /// defining it?
    pub(crate) fn same(&self, other: &Fixtures, name: &str) -> bool {
        self.defined
            .get(name)
            .is_some_and(|text| other.defined.get(name) == Some(text))
    }

    /// The names whose definition differs between `old` and `new` (one
    /// only in one of them included), and those defined from them: a
    /// binding whose text names a changed one (`aliases =
    /// normalize(_aliases)`), to any depth.
    pub(crate) fn changed_from(&self, old: &Fixtures) -> HashSet<String> {
        let mut changed: HashSet<&str> = self
            .defined
            .iter()
            .filter(|(name, text)| old.defined.get(*name) != Some(*text))
            .map(|(name, _)| name.as_str())
            .chain(
                old.defined
                    .keys()
                    .filter(|name| !self.defined.contains_key(*name))
                    .map(String::as_str),
            )
            .collect();
        loop {
            let more: Vec<&str> = self
                .defined
                .iter()
                .filter(|(name, text)| !changed.contains(name.as_str()) && words(text).any(|w| changed.contains(w)))
                .map(|(name, _)| name.as_str())
                .collect();
            if more.is_empty() {
                return changed.into_iter().map(str::to_string).collect();
            }
            changed.extend(more);
        }
    }
}

/// Does test `t` (its text `text`) use one of the fixtures `changed`
/// ([`Fixtures::changed_from`]): its input changed outside its body?
pub(crate) fn feeds(changed: &HashSet<String>, t: &TestCase, text: &str) -> bool {
    words(text).any(|w| w != t.name && changed.contains(w))
}

/// Does test file `owner` (its model `test`) import a data file the step
/// changed (`import top from "../scripts/top-cookie.json"`)? What it
/// expects follows that input, not the code (issue 64: jshttp/cookie's
/// snapshots of parsing each site's cookies, the sites re-captured).
pub(crate) fn reads_changed_data(step: &Step, owner: &Path, test: &TestFile) -> bool {
    let dir = owner.parent().unwrap_or(Path::new(""));
    test.imports
        .iter()
        .filter(|i| i.specifier.starts_with("./") || i.specifier.starts_with("../"))
        .map(|i| normalize(&dir.join(&i.specifier)))
        .filter(|path| Lang::from_path(path).is_none())
        .any(|path| step.changes.iter().any(|c| c.path == path && c.kind == Kind::Other))
}

/// The names of at least two characters in `text`.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| w.chars().count() >= 2 && !w.starts_with(|c: char| c.is_ascii_digit()))
}

/// A definition opened on one line: its name, its indentation, whether it
/// is a function (whose locals are not fixtures), and its text so far.
struct Open {
    name: String,
    indent: usize,
    function: bool,
    text: String,
}

/// The definitions among `lines` (the lines of a file outside its tests),
/// each with the lines of its block: the lines after it indented deeper,
/// and a closing bracket at its own indentation. A name defined inside
/// another definition and somewhere else too (`get` of two fixture
/// classes) says not which: it is left out, its classes stand for it.
/// With `first`, a name bound again (`trues = ..` after `trues := ..`) is
/// its first binding alone.
fn definitions<'t>(lines: impl Iterator<Item = &'t str>, first: bool) -> HashMap<String, String> {
    let mut defined: HashMap<String, String> = HashMap::new();
    let mut open: Vec<Open> = Vec::new();
    // How often each name is defined, and whether once inside another.
    let mut seen: HashMap<String, (usize, bool)> = HashMap::new();
    let close = |o: Open, defined: &mut HashMap<String, String>| {
        let text = defined.entry(o.name).or_default();
        if first && !text.is_empty() {
            return;
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&o.text);
    };
    for line in lines {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        // A closing bracket ends the block at its indentation, not one
        // that goes on (`) -> None:` of a signature, `} else {`).
        let bracket = trimmed.starts_with(['}', ')', ']']);
        let closer = bracket && !trimmed.ends_with([':', '{', '(', ',']);
        while let Some(top) = open.last() {
            // A bracket that goes on at the block's indentation continues
            // it (a signature over several lines ends in `) -> T:`; its
            // body is the function's, werkzeug's `_bind`).
            if indent > top.indent || (indent == top.indent && bracket && !closer) {
                break;
            }
            if indent == top.indent && closer {
                let mut top = open.pop().expect("a definition is open");
                top.text.push(' ');
                top.text.push_str(&collapse(trimmed));
                close(top, &mut defined);
                break;
            }
            let top = open.pop().expect("a definition is open");
            close(top, &mut defined);
        }
        for o in &mut open {
            o.text.push(' ');
            o.text.push_str(&collapse(trimmed));
        }
        // A binding inside a function is a local of it, no fixture.
        let in_function = open.iter().any(|o| o.function);
        if let Some((name, function)) = header(trimmed)
            && (function || !in_function)
        {
            let (count, nested) = seen.entry(name.to_string()).or_default();
            *count += 1;
            *nested |= !open.is_empty();
            open.push(Open {
                name: name.to_string(),
                indent,
                function,
                text: collapse(trimmed),
            });
        }
    }
    while let Some(top) = open.pop() {
        close(top, &mut defined);
    }
    defined.retain(|name, _| seen.get(name).is_none_or(|&(count, nested)| count < 2 || !nested));
    defined
}

/// `text` with each run of whitespace one space.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The name a line defines and whether it is a function: `def name`,
/// `class Name`, `function name`, `fn name`, `func name` (and `func (r *T)
/// Name`), `const`/`let`/`var`/`static`/`struct`/`enum`/`type`/`interface
/// Name`, or a plain `name = ...` binding. A binding to an arrow function
/// or `function` expression is a function.
fn header(line: &str) -> Option<(&str, bool)> {
    let mut rest = line;
    for prefix in [
        "export ",
        "default ",
        "declare ",
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    const FUNCTIONS: &[&str] = &["def ", "function* ", "function ", "fn ", "func "];
    const ITEMS: &[&str] = &[
        "class ",
        "const ",
        "let mut ",
        "let ",
        "var ",
        "static mut ",
        "static ",
        "struct ",
        "enum ",
        "type ",
        "interface ",
    ];
    fn name_of(s: &str) -> Option<&str> {
        let end = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(s.len());
        (end > 0).then(|| &s[..end])
    }
    if let Some(after) = FUNCTIONS.iter().find_map(|k| rest.strip_prefix(k)) {
        // A Go method: the receiver first.
        let after = match after.strip_prefix('(') {
            Some(receiver) => receiver.split_once(')')?.1.trim_start(),
            None => after,
        };
        return name_of(after).map(|n| (n, true));
    }
    let function = rest.contains("=>") || rest.contains("function");
    if let Some(after) = ITEMS.iter().find_map(|k| rest.strip_prefix(k)) {
        return name_of(after).map(|n| (n, function));
    }
    // `name = value`, `name := value`, `name: Type = value`, not `name == value`.
    let name = name_of(rest)?;
    let after = rest[name.len()..].trim_start();
    let binds = (after.starts_with('=') && !after.starts_with("=="))
        || after.starts_with(":=")
        || (after.starts_with(':') && after.contains(" = "));
    binds.then_some((name, function))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs(text: &str) -> HashMap<String, String> {
        definitions(text.lines(), false)
    }

    #[test]
    fn a_class_holds_its_methods_and_a_method_its_body() {
        let d =
            defs("class Locked:\n    def get(self, v):\n        count = self.count\n        return count\n\nX = 1\n");
        assert_eq!(
            d["Locked"],
            "class Locked: def get(self, v): count = self.count return count"
        );
        assert_eq!(d["get"], "def get(self, v): count = self.count return count");
        assert_eq!(d["X"], "X = 1");
        // A function's local is not a fixture.
        assert!(!d.contains_key("count"));
        // A method of two classes is known by its classes.
        let d =
            defs("class A:\n    def get(self):\n        return 1\n\nclass B:\n    def get(self):\n        return 2\n");
        assert!(d.contains_key("A") && d.contains_key("B") && !d.contains_key("get"));
        // A signature over several lines: the body after `) -> T:` is the
        // function's, its locals no fixtures (werkzeug's `_bind`).
        let d = defs(
            "class Routing:\n    def bind(\n        self,\n        server_name=None,\n    ) -> Adapter:\n        environ = make(server_name)\n        return environ\n",
        );
        assert_eq!(
            d["bind"],
            "def bind( self, server_name=None, ) -> Adapter: environ = make(server_name) return environ"
        );
        assert!(!d.contains_key("environ"));
    }

    #[test]
    fn a_brace_block_ends_at_its_closing_bracket() {
        let d = defs(
            "describe(\"alias\", () => {\n  const _aliases = {\n    a: 1,\n  };\n  const aliases = normalize(_aliases);\n});\n",
        );
        assert_eq!(d["_aliases"], "const _aliases = { a: 1, };");
        assert_eq!(d["aliases"], "const aliases = normalize(_aliases);");
        let d = defs("func (r *Rec) Write(p []byte) {\n\tr.n++\n}\nvar seed = 4\n");
        assert_eq!(d["Write"], "func (r *Rec) Write(p []byte) { r.n++ }");
        assert_eq!(d["seed"], "var seed = 4");
    }

    #[test]
    fn a_test_s_own_bindings_are_its_locals() {
        let old = Fixtures::locals(
            "func TestQ(t *testing.T) {\n\tjson := `{\n\t\t\"b\": true\n\t}`\n\ttrues := Get(json).Raw\n\tn := 1\n}\n",
        );
        let new = Fixtures::locals(
            "func TestQ(t *testing.T) {\n\tjson := `{\n\t\t\"b\": \"x\"\n\t}`\n\ttrues := Get(json).Raw\n\tn := 1\n}\n",
        );
        let mut changed: Vec<String> = new.changed_from(&old).into_iter().collect();
        changed.sort_unstable();
        assert_eq!(changed, ["json", "trues"]);
        assert!(old.same(&new, "n") && old.same(&new, "trues") && !old.same(&new, "json") && !old.same(&new, "Get"));
    }

    #[test]
    fn what_is_defined_from_a_changed_fixture_changed_too() {
        let read = |text: &str| Fixtures { defined: defs(text) };
        let old = read("const _a = { x: 1 };\nconst a = norm(_a);\nconst b = 2;\n");
        let new = read("const _a = { x: 1, y: 2 };\nconst a = norm(_a);\nconst b = 2;\n");
        let mut changed: Vec<String> = new.changed_from(&old).into_iter().collect();
        changed.sort_unstable();
        assert_eq!(changed, ["_a", "a"]);
        assert!(read("const b = 2;\n").changed_from(&read("const b = 2;\n")).is_empty());
    }
}
