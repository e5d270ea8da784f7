//! What each language's reader finds exported, and documented.

use super::*;

fn found(language: Lang, source: &str) -> Vec<(String, &'static str, bool)> {
    exports(language, source.as_bytes())
        .unwrap()
        .into_iter()
        .map(|e| (e.name, e.kind, e.documented))
        .collect()
}

fn s(name: &str, kind: &'static str, documented: bool) -> (String, &'static str, bool) {
    (name.to_string(), kind, documented)
}

#[test]
fn rust_items_hidden_from_the_docs_are_not_api() {
    let source = "#[doc(hidden)]\npub mod __private {\n    pub fn log() {}\n}\n\n#[doc(hidden)]\npub fn helper() {}\n\n/// A type.\npub struct T;\n\nimpl T {\n    #[doc(hidden)]\n    pub fn raw(&self) {}\n    pub fn open(&self) {}\n}\n\n#[doc(hidden)]\nimpl T {\n    pub fn more(&self) {}\n}\n";
    assert_eq!(
        found(Lang::Rust, source),
        vec![s("T", "struct", true), s("open", "method", false)]
    );
}

#[test]
fn commonjs_exports_are_read_with_their_docs() {
    let source = "/** The program. */\nexports.program = new Command();\nmodule.exports.createCommand = (n) => n;\nmodule.exports = { Command, Option: Opt, help() {} };\nObject.defineProperty(exports, \"Argument\", { get() {} });\nlocal.x = 1;\n/** A cache. */\nclass Lru {}\nmodule.exports = Lru;\n";
    let names = commonjs_names(Lang::JavaScript, source.as_bytes()).unwrap();
    let names: Vec<(&str, bool)> = names.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    assert_eq!(
        names,
        vec![
            ("program", true),
            ("createCommand", false),
            ("Command", false),
            ("Option", false),
            ("help", false),
            ("Argument", false),
            ("Lru", true),
        ]
    );
    // The module as one function (or class): its `default`.
    let source = "function toArr(x) {}\n\nmodule.exports = function (args, opts) {\n  return args\n};\n";
    let names = commonjs_names(Lang::JavaScript, source.as_bytes()).unwrap();
    assert_eq!(names, vec![("default".to_string(), false)]);
    // A declaration file's `export = Name`, documented at its declaration or not.
    let source = "declare class QuickLRU {}\n\nexport = QuickLRU;\n";
    let names = commonjs_names(Lang::TypeScript, source.as_bytes()).unwrap();
    assert_eq!(names, vec![("QuickLRU".to_string(), false)]);
    // What a package's ambient module declares.
    let source = "declare module 'klona' {\n\t/** Copies. */\n\texport function klona<T>(val: T): T;\n\tfunction inner(): void;\n\texport = klona;\n}\n";
    let names = commonjs_names(Lang::TypeScript, source.as_bytes()).unwrap();
    let names: Vec<(&str, bool)> = names.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    assert_eq!(names, vec![("klona", true), ("inner", false), ("klona", false)]);
}

#[test]
fn stubs_are_not_read_for_exports() {
    assert_eq!(language_of(Path::new("pkg/cart.py")), Some(Lang::Python));
    assert_eq!(language_of(Path::new("pkg/cart.pyi")), None);
    assert_eq!(language_of(Path::new("src/lib.rs")), Some(Lang::Rust));
    assert_eq!(language_of(Path::new("README.md")), None);
}

#[test]
fn python_public_symbols_and_docstrings() {
    let source = r#"
# a comment, not a docstring
def documented():
    """Says what it does."""

@decorator
def bare():
    return "not a docstring" # the first statement is a return

def _private():
    pass

class Shape:
    # comment first
    "A shape."

    def area(self):
        x = 1

    def _helper(self):
        pass

    def __init__(self):
        pass

    @overload
    def get(self, key: int) -> int: ...

@typing.overload
def get(key: int) -> int: ...

@overload  # an int key
def fetch(key: int) -> int: ...

@overloaded  # not typing's overload
def look(key: int) -> int: ...

class Box:
    """A box."""

    @property
    def size(self):
        """The size."""

    @size.setter
    def size(self, value):
        pass

    @other.setter
    def width(self, value):
        pass
"#;
    assert_eq!(
        found(Lang::Python, source),
        vec![
            s("documented", "function", true),
            s("bare", "function", false),
            s("Shape", "class", true),
            s("area", "method", false),
            s("look", "function", false),
            s("Box", "class", true),
            s("size", "method", true),
            s("width", "method", false),
        ]
    );
    let source = "__all__ = [\"kept\"]\n\ndef kept():\n    pass\n\ndef dropped():\n    pass\n";
    assert_eq!(found(Lang::Python, source), vec![s("kept", "function", false)]);
    // A bare tuple, extended with `+=`.
    let source =
        "__all__ = 'kept', 'more'\n__all__ += ['late']\n\ndef kept(): pass\ndef late(): pass\ndef dropped(): pass\n";
    assert_eq!(
        found(Lang::Python, source),
        vec![s("kept", "function", false), s("late", "function", false)]
    );
}

#[test]
fn javascript_exports_and_jsdoc() {
    let source = r#"
/** Adds. */
export function add(a, b) { return a + b }

// a line comment is not JSDoc
export const a = 1, b = () => 2

/* not JSDoc either */
export class Box {}

/** Far away. */

export default function () {}

const local = 1
export { local }

export function _shared() {}
"#;
    assert_eq!(
        found(Lang::JavaScript, source),
        vec![
            s("add", "function", true),
            s("a", "const", false),
            s("b", "const", false),
            s("Box", "class", false),
            s("default", "function", true),
        ]
    );
    // TypeScript attaches a JSDoc across blank lines and line comments,
    // not across a statement, and not a file's own block; overloads are
    // one symbol, documented on any signature.
    let source = "/** @module shop */\nexport const first = 1\n\n/** Doc. */\n// eslint-disable-next-line no-var\nexport var linted = 1\nexport const next = 2\n\n/** One. */\nexport function over(a: string): string\nexport function over(a: number): number\nexport function over(a: any) { return a }\n\nexport function bare(a: string): string\nexport function bare(a: any) { return a }\n";
    assert_eq!(
        found(Lang::TypeScript, source),
        vec![
            s("first", "const", false),
            s("linted", "const", true),
            s("next", "const", false),
            s("over", "function", true),
            s("bare", "function", false),
        ]
    );
    // Comments between overloads (`// @__NO_SIDE_EFFECTS__`) do not
    // part them (zod ba98071c77c2); a type and a value of one name share
    // a doc (zod fa77a4d70136), whichever comes first.
    let source = "// @__NO_SIDE_EFFECTS__\nexport function part(a: A): A;\n// @__NO_SIDE_EFFECTS__\nexport function part(a: A, m: M): A;\n// @__NO_SIDE_EFFECTS__\nexport function part(a: any, m?: any) { return a }\n\n/** Sentinel. */\nexport const INVALID: unique symbol = Symbol();\nexport type INVALID = typeof INVALID;\nexport type input<T> = T;\n/** Input side. */\nexport function input(s: S) { return s }\nexport type Lone = string;\nexport const Lone = 1;\n";
    assert_eq!(
        found(Lang::TypeScript, source),
        vec![
            s("part", "function", false),
            s("INVALID", "const", true),
            s("INVALID", "type", true),
            s("input", "type", true),
            s("input", "function", true),
            s("Lone", "type", false),
            s("Lone", "const", false),
        ]
    );
    let source = "/** Declared. */\nexport declare function parse(a: string): number;\nexport declare const VERSION: string;\nexport declare class Client {}\n";
    assert_eq!(
        found(Lang::TypeScript, source),
        vec![
            s("parse", "function", true),
            s("VERSION", "const", false),
            s("Client", "class", false),
        ]
    );
    let source = "/** A type. */\nexport type Id = string\nexport interface Shape { area(): number }\nexport enum Color { Red }\n";
    assert_eq!(
        found(Lang::TypeScript, source),
        vec![
            s("Id", "type", true),
            s("Shape", "interface", false),
            s("Color", "enum", false)
        ]
    );
}

#[test]
fn rust_pub_items_and_doc_comments() {
    let source = r#"
/// Documented.
#[derive(Debug)]
pub struct Point;

// Not a doc comment.
pub fn bare() {}

#[doc = "Attribute docs."]
pub const MAX: u32 = 1;

pub(crate) fn internal() {}
fn private() {}

pub mod outer {
    //! Inner docs.
    pub fn inner() {}
}

mod hidden {
    pub fn not_reachable() {}
}

#[cfg(test)]
pub mod tests {
    pub fn helper() {}
}

pub mod file_module;

impl Point {
    /// Documented method.
    pub fn x(&self) {}
    pub fn y(&self) {}
    fn z(&self) {}
}

impl Clone for Point { fn clone(&self) -> Self { Point } }

struct Inner;

impl Inner {
    pub fn hidden(&self) {}
}
"#;
    assert_eq!(
        found(Lang::Rust, source),
        vec![
            s("Point", "struct", true),
            s("bare", "fn", false),
            s("MAX", "const", true),
            s("outer", "mod", true),
            s("inner", "fn", false),
            s("x", "method", true),
            s("y", "method", false),
        ]
    );
}

#[test]
fn go_exported_names_and_comments_that_start_with_them() {
    let source = r#"package shapes

// Area returns the area.
// It is never negative.
func Area() int { return 0 }

// returns the perimeter (does not start with the name)
func Perimeter() int { return 0 }

// Deprecated: use Area, which Go's tools show as this function's doc.
func Size() int { return 0 }

func internal() {}

// A Shape is a shape.
type Shape struct{}

func (s Shape) Scale() {}

type shape struct{}

func (s *shape) Hidden() {}

const (
	On  = 1 // trailing comments document a spec
	Off = 0
)

// Limits for shapes.
const (
	Max = 10
	Min = 1
)

var Default = Shape{}
"#;
    assert_eq!(
        found(Lang::Go, source),
        vec![
            s("Area", "func", true),
            s("Perimeter", "func", false),
            s("Size", "func", true),
            s("Shape", "type", true),
            s("Scale", "method", false),
            s("On", "const", true),
            s("Off", "const", false),
            s("Max", "const", true),
            s("Min", "const", true),
            s("Default", "var", false),
        ]
    );
    // A method of a standard interface is documented by it; one of
    // the same name that takes other parameters is not.
    let source = "package e\n\n// An E is an error.\ntype E struct{}\n\nfunc (e E) Error() string { return \"\" }\n\nfunc (e E) Less(i, j int) bool { return false }\n\nfunc (e E) Close(force bool) {}\n";
    assert_eq!(
        found(Lang::Go, source),
        vec![
            s("E", "type", true),
            s("Error", "method", true),
            s("Less", "method", true),
            s("Close", "method", false),
        ]
    );
    let source = "package e\n\n// A Shape has an area.\ntype Shape interface {\n\tArea() float64\n}\n\ntype (\n\tcloser interface {\n\t\t// Shut shuts it.\n\t\tShut() error\n\t\tOpen() error\n\t}\n)\n";
    assert_eq!(
        go_interface_methods(source.as_bytes()),
        vec![
            ("Area".to_string(), true),
            ("Shut".to_string(), true),
            ("Open".to_string(), false)
        ]
    );
    // A command's package exports nothing anyone can import.
    assert_eq!(found(Lang::Go, "package main\n\nfunc Run() {}\n"), vec![]);
}
