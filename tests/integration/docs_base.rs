//! The docs gate holds the line (issue 52): an undocumented export blocks
//! only when the change adds it to the published API, and what the base
//! already had (an undocumented symbol, a missing README) is a warning
//! marked `at_base`. Each case is a false block found by replaying real
//! history, with a look-alike that must not block and the real case that
//! still must.

use crate::support::{Run, TestRepo};

fn docs(repo: &TestRepo, base: &str) -> Run {
    repo.run(&["docs", "--base", base, "--format", "json"])
}

/// A repository with a README, and what `files` hold, committed: the base.
fn based(files: &[(&str, &str)]) -> (TestRepo, String) {
    let repo = TestRepo::new();
    repo.write("README.md", "# lib\n\nA library.\n");
    for (path, text) in files {
        repo.write(path, text);
    }
    let base = repo.commit("base");
    (repo, base)
}

const PYPROJECT: &str = "[project]\nname = \"pkg\"\nversion = \"1\"\n";

/// requests 561e4b6889f5: `def send(self, request, **kwargs) -> Response: ...`,
/// a typing stub in `SessionRedirectMixin`, whose subclass `Session`
/// implements `send` with a docstring.
#[test]
fn a_mixin_s_typing_stub_is_documented_by_the_subclass_that_implements_it() {
    let (repo, base) = based(&[
        ("pyproject.toml", PYPROJECT),
        ("pkg/__init__.py", ""),
        (
            "pkg/sessions.py",
            "class Session:\n    \"\"\"A session.\"\"\"\n\n    def send(self, request):\n        \"\"\"Send a request.\"\"\"\n",
        ),
    ]);
    repo.write(
        "pkg/sessions.py",
        "class RedirectMixin:\n    \"\"\"Redirects.\"\"\"\n\n    def send(self, request, **kwargs) -> int: ...\n\n\nclass Session(RedirectMixin):\n    \"\"\"A session.\"\"\"\n\n    def send(self, request):\n        \"\"\"Send a request.\"\"\"\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.marked(), Vec::<String>::new());

    // The same stub with no documented implementation is a new undocumented method.
    repo.write(
        "pkg/sessions.py",
        "class RedirectMixin:\n    \"\"\"Redirects.\"\"\"\n\n    def send(self, request, **kwargs) -> int: ...\n\n    def rebuild(self, request) -> None: ...\n\n\nclass Session(RedirectMixin):\n    \"\"\"A session.\"\"\"\n\n    def send(self, request):\n        \"\"\"Send a request.\"\"\"\n\n    def rebuild(self, request):\n        return None\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export error pkg/sessions.py:6",
            "docs/undocumented-export error pkg/sessions.py:15"
        ]
    );
}

/// An override inherits its base's docstring, the base in another file.
#[test]
fn an_override_inherits_the_docstring_of_a_base_in_another_module() {
    let (repo, base) = based(&[
        ("pyproject.toml", PYPROJECT),
        ("pkg/__init__.py", ""),
        (
            "pkg/base.py",
            "class Transport:\n    \"\"\"Moves bytes.\"\"\"\n\n    def handle(self, request):\n        \"\"\"Handle one request.\"\"\"\n\n    def close(self):\n        pass\n",
        ),
    ]);
    repo.write(
        "pkg/http.py",
        "from . import base\n\n\nclass HTTPTransport(base.Transport):\n    \"\"\"Over HTTP.\"\"\"\n\n    def handle(self, request):\n        return request\n\n    def close(self):\n        return None\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(
        run.marked(),
        ["docs/undocumented-export error pkg/http.py:10"],
        "`handle` inherits `Transport.handle`'s docstring; `close` has none to inherit"
    );
}

/// werkzeug a7e3ab2b: an override of an undocumented base method, written
/// into a class that was there at the base, is no new API: the class
/// answered to the name already, by inheritance, undocumented. It is held
/// as the base had it (a warning). The same override in a class new in
/// the change is a new public method: it blocks.
#[test]
fn an_override_written_into_an_existing_class_is_the_method_it_had() {
    let base_py = "class Converter:\n    \"\"\"Converts.\"\"\"\n\n    def to_url(self, value):\n        return str(value)\n\n\nclass FloatConverter(Converter):\n    \"\"\"Floats.\"\"\"\n";
    let (repo, base) = based(&[
        ("pyproject.toml", PYPROJECT),
        ("pkg/__init__.py", ""),
        ("pkg/conv.py", base_py),
    ]);
    repo.write(
        "pkg/conv.py",
        format!(
            "{base_py}\n    def to_url(self, value):\n        return repr(value)\n\n\nclass IntConverter(Converter):\n    \"\"\"Ints.\"\"\"\n\n    def to_url(self, value):\n        return str(int(value))\n"
        ),
    );
    let run = docs(&repo, &base);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export warning pkg/conv.py:11 at-base",
            "docs/undocumented-export error pkg/conv.py:18",
        ],
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("inherited from a base class"), "{}", run.stdout);
}

const PACKAGE_JSON: &str = "{ \"name\": \"lib\", \"exports\": { \".\": \"./src/index.ts\" } }\n";

/// hono b0c2d90eb07f: `export const useRef = ..` at the base became
/// overloaded function declarations: the symbol the base had, not a new one.
#[test]
fn a_const_that_becomes_overloaded_functions_is_the_symbol_the_base_had() {
    let (repo, base) = based(&[
        ("package.json", PACKAGE_JSON),
        ("src/index.ts", "export * from './hooks'\n"),
        (
            "src/hooks.ts",
            "export type RefObject<T> = { current: T | null }\nexport const useRef = <T>(initial: T | null): RefObject<T> => ({ current: initial })\n\n/** Documented. */\nexport const useMemo = <T>(f: () => T): T => f()\n",
        ),
    ]);
    repo.write(
        "src/hooks.ts",
        "export type RefObject<T> = { current: T }\n\nexport function useRef<T>(initial: T): RefObject<T>\nexport function useRef<T>(initial: T | null): RefObject<T | null>\nexport function useRef<T>(initial?: T | null): RefObject<T | null | undefined> {\n  return { current: initial }\n}\n\n/** Documented. */\nexport const useMemo = <T>(f: () => T): T => f()\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export warning src/hooks.ts:1 at-base",
            "docs/undocumented-export warning src/hooks.ts:3 at-base"
        ]
    );
    let json = run.json();
    assert_eq!(json["summary"]["at_base"], 2, "{json}");

    // A new hook blocks; one whose doc comment the change dropped is a warning.
    repo.write(
        "src/hooks.ts",
        "export type RefObject<T> = { current: T }\n\nexport function useRef<T>(initial: T): RefObject<T>\nexport function useRef<T>(initial?: T | null): RefObject<T | null | undefined> {\n  return { current: initial }\n}\n\nexport function useMemo<T>(f: () => T): T { return f() }\n\nexport const useState = <T>(v: T): [T] => [v]\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export warning src/hooks.ts:1 at-base",
            "docs/undocumented-export warning src/hooks.ts:3 at-base",
            "docs/undocumented-export warning src/hooks.ts:8",
            "docs/undocumented-export error src/hooks.ts:10"
        ]
    );
}

/// zod fa77a4d70136: `export type INVALID = typeof INVALID;` right after a
/// documented `export const INVALID`.
#[test]
fn a_type_twin_of_a_documented_value_shares_its_doc() {
    let (repo, base) = based(&[
        ("package.json", PACKAGE_JSON),
        ("src/index.ts", "/** Compile. */\nexport function compile() {}\n"),
    ]);
    repo.write(
        "src/index.ts",
        "/** Compile. */\nexport function compile() {}\n\n/** Sentinel the fast path returns on failure. */\nexport const INVALID: unique symbol = Symbol.for('invalid');\nexport type INVALID = typeof INVALID;\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.marked(), Vec::<String>::new());

    // A type whose value twin has no doc either is a new undocumented type.
    repo.write(
        "src/index.ts",
        "/** Compile. */\nexport function compile() {}\n\nexport const VALID: unique symbol = Symbol.for('valid');\nexport type VALID = typeof VALID;\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export error src/index.ts:4",
            "docs/undocumented-export error src/index.ts:5"
        ]
    );
}

/// zod ba98071c77c2: `// @__NO_SIDE_EFFECTS__` comments between a function's
/// overload signatures made each signature a symbol of its own.
#[test]
fn overloads_parted_by_comments_are_one_symbol() {
    let (repo, base) = based(&[
        ("package.json", PACKAGE_JSON),
        (
            "src/index.ts",
            "/** Partial. */\nexport function partial(s: S) { return s }\n",
        ),
    ]);
    let overloads = |doc: &str| {
        format!(
            "/** Partial. */\nexport function partial(s: S) {{ return s }}\n\n{doc}// @__NO_SIDE_EFFECTS__\nexport function exactPartial<T>(schema: T): T;\n// @__NO_SIDE_EFFECTS__\nexport function exactPartial<T, M>(schema: T, mask: M): T;\n// @__NO_SIDE_EFFECTS__\nexport function exactPartial(schema: any, mask?: object) {{\n  return schema\n}}\n"
        )
    };
    repo.write("src/index.ts", overloads("/** Each key optional, exactly. */\n"));
    let run = docs(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.marked(), Vec::<String>::new());

    // Undocumented, the function is one finding, at its first signature.
    repo.write("src/index.ts", overloads(""));
    let run = docs(&repo, &base);
    assert_eq!(run.marked(), ["docs/undocumented-export error src/index.ts:5"]);
}

/// zod 5e608851fbc7: the `input` type was public at the base, re-exported
/// from `core`; the change declared it in a new module the entry point
/// re-exports instead. The package's API at the base had it.
#[test]
fn a_symbol_moved_to_a_new_module_is_judged_on_the_package_api_at_the_base() {
    let (repo, base) = based(&[
        ("package.json", PACKAGE_JSON),
        (
            "src/index.ts",
            "export * from './external'\nexport * as z from './external'\n",
        ),
        ("src/external.ts", "export type { input } from './core'\n"),
        (
            "src/core.ts",
            "export type input<T> = T\n/** Internal. */\nexport type hidden = 1\n",
        ),
    ]);
    repo.write("src/external.ts", "export { input } from './in-out'\n");
    repo.write("src/in-out.ts", "export type input<T> = T\n");
    let run = docs(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        ["docs/undocumented-export warning src/in-out.ts:1 at-base"]
    );

    // A type the package's API did not have at the base is new.
    repo.write("src/external.ts", "export { input, output } from './in-out'\n");
    repo.write("src/in-out.ts", "export type input<T> = T\nexport type output<T> = T\n");
    let run = docs(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export warning src/in-out.ts:1 at-base",
            "docs/undocumented-export error src/in-out.ts:2"
        ]
    );
    // So is one the base had, but only outside the API.
    repo.write("src/external.ts", "export { input, hidden } from './in-out'\n");
    repo.write("src/in-out.ts", "export type input<T> = T\nexport type hidden = 1\n");
    let run = docs(&repo, &base);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export warning src/in-out.ts:1 at-base",
            "docs/undocumented-export error src/in-out.ts:2"
        ]
    );
}

/// more-itertools 247e15b: class `Stats`, undocumented, moved unchanged
/// from `more.py` to `recipes.py`. The base had it, in the file the change
/// took it out of: its finding is the base's.
#[test]
fn a_symbol_moved_out_of_another_changed_file_is_the_one_the_base_had() {
    let (repo, base) = based(&[
        ("pyproject.toml", PYPROJECT),
        ("pkg/__init__.py", ""),
        (
            "pkg/more.py",
            "def window(xs):\n    \"\"\"Windows.\"\"\"\n\n\nclass Stats:\n    def mean(self):\n        return 0\n",
        ),
        ("pkg/recipes.py", "def take(n):\n    \"\"\"Take n.\"\"\"\n"),
    ]);
    repo.write("pkg/more.py", "def window(xs):\n    \"\"\"Windows.\"\"\"\n");
    repo.write(
        "pkg/recipes.py",
        "def take(n):\n    \"\"\"Take n.\"\"\"\n\n\nclass Stats:\n    def mean(self):\n        return 0\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export warning pkg/recipes.py:5 at-base",
            "docs/undocumented-export warning pkg/recipes.py:6 at-base"
        ]
    );
    assert!(
        run.stdout.contains("in pkg/more.py, which the change moved it out of"),
        "{}",
        run.stdout
    );

    // Look-alike: the same class copied, the original kept (and touched), is new.
    repo.write(
        "pkg/more.py",
        "def window(xs):\n    \"\"\"Windows.\"\"\"\n\n\nclass Stats:\n    def mean(self):\n        return 1\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export warning pkg/more.py:5 at-base",
            "docs/undocumented-export warning pkg/more.py:6 at-base",
            "docs/undocumented-export error pkg/recipes.py:5",
            "docs/undocumented-export error pkg/recipes.py:6"
        ]
    );
}

/// A README the base lacked too is the base's finding: a warning marked
/// `at_base`; `pre-existing: block` keeps it blocking.
#[test]
fn a_readme_missing_at_the_base_too_is_a_warning_unless_pre_existing_block() {
    let repo = TestRepo::new();
    repo.remove("README.md");
    repo.write("app.py", "x = 1\n");
    let base = repo.commit("no readme");
    repo.write("app.py", "x = 2\n");
    let run = docs(&repo, &base);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.marked(), ["docs/readme-missing warning -:0 at-base"]);
    let json = run.json();
    let note = json["findings"][0]["notes"][0].as_str().unwrap();
    assert!(
        note.contains("`gates.docs.pre-existing: block` makes it block"),
        "{note}"
    );
    // A README with nothing but a title is no better than none.
    repo.write("README.md", "# app\n");
    assert_eq!(
        docs(&repo, &base).marked(),
        ["docs/readme-missing warning README.md:0 at-base"]
    );
    repo.remove("README.md");

    // The base asks for the old behaviour: the missing README blocks, still marked.
    repo.write(".loki-gate.yaml", "gates:\n  docs:\n    pre-existing: block\n");
    let base = repo.commit("block what the base had");
    repo.write("app.py", "x = 3\n");
    let run = docs(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(run.marked(), ["docs/readme-missing error -:0 at-base"]);

    // A change that removes the README introduced the finding: it blocks.
    let repo = TestRepo::new();
    repo.write("README.md", "# app\n\nAn app.\n");
    let base = repo.commit("a readme");
    repo.remove("README.md");
    let run = docs(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(run.marked(), ["docs/readme-missing error -:0"]);
}

/// Issue 52: the public API is what a package's entry points reach, not
/// how a symbol is spelled: a Rust item re-exported from the crate root
/// through a private module (and its type's methods), a method of a type
/// that is not `pub` (no one's API), declarations written by hand beside
/// a JavaScript package's code (`"types": "./index.d.ts"`).
#[test]
fn the_public_api_is_what_the_entry_points_reach() {
    let (repo, base) = based(&[
        ("Cargo.toml", "[package]\nname = \"lib\"\nversion = \"0.1.0\"\n"),
        ("src/lib.rs", "//! A crate.\n\nmod imp;\n\npub use imp::deep::Thing;\n"),
        ("src/imp/mod.rs", "pub mod deep;\n"),
        ("src/imp/deep.rs", "/// A thing.\npub struct Thing;\n"),
        (
            "js/package.json",
            "{ \"name\": \"js\", \"main\": \"./index.js\", \"types\": \"./index.d.ts\" }\n",
        ),
        ("js/index.js", "/** Adds. */\nexports.add = (a, b) => a + b\n"),
        (
            "js/index.d.ts",
            "/** Adds. */\nexport declare function add(a: number, b: number): number;\n",
        ),
    ]);
    repo.write(
        "src/imp/deep.rs",
        "/// A thing.\npub struct Thing;\n\nimpl Thing {\n    pub fn new() -> Thing {\n        Thing\n    }\n}\n\npub fn helper() {}\n\nstruct Inner;\n\nimpl Inner {\n    pub fn run(&self) {}\n}\n",
    );
    repo.write(
        "js/index.d.ts",
        "/** Adds. */\nexport declare function add(a: number, b: number): number;\nexport declare function sub(a: number, b: number): number;\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export error js/index.d.ts:3",
            "docs/undocumented-export error src/imp/deep.rs:5"
        ],
        "`helper` is not re-exported; `Inner` is not `pub`"
    );
}

/// A JavaScript module with declarations beside it (`index.js` and
/// `index.d.ts`, found by TypeScript without a `types` field) is published
/// through them: its users read the declarations' docs, so an export the
/// declarations document is documented, and one they do not is the finding,
/// on the declaration (issue 64: sindresorhus/slugify 12498c9 documents
/// `slugify` in `index.d.ts` and exports it from `index.js`).
#[test]
fn a_javascript_module_is_published_through_the_declarations_beside_it() {
    let (repo, base) = based(&[
        ("package.json", "{ \"name\": \"slug\", \"exports\": \"./index.js\" }\n"),
        (
            "index.js",
            "/** Slugs. */\nexport default function slug(s) { return s }\n",
        ),
        (
            "index.d.ts",
            "/** Slugs. */\nexport default function slug(s: string): string;\n",
        ),
    ]);
    repo.write(
        "index.js",
        "export default function slug(s) { return s }\n\nexport function counter() { return slug }\n\nexport function extra() {}\n",
    );
    repo.write(
        "index.d.ts",
        "/** Slugs. */\nexport default function slug(s: string): string;\n\n/** A slugger that counts repeats. */\nexport function counter(): (s: string) => string;\n\nexport function extra(): void;\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export error index.d.ts:7",
            "docs/undocumented-export warning index.js:3",
            "docs/undocumented-export warning index.js:5"
        ],
        "`counter` is documented where TypeScript reads it; `extra` is not"
    );
    assert!(
        run.stdout
            .contains("publishes this module through index.d.ts, beside it"),
        "{}",
        run.stdout
    );
}

/// A small package that documented none of its public symbols at the base
/// (too few to measure a share: three) keeps no doc-comment convention, so
/// a new undocumented export there is a warning that says so (issue 64:
/// unjs/destr documents its API in its README only). One documented symbol
/// is a convention, and the new one blocks.
#[test]
fn a_small_package_that_documented_none_of_its_api_warns() {
    for (documented, want) in [("", "warning"), ("/** Parses. */\n", "error")] {
        let (repo, base) = based(&[
            (
                "package.json",
                "{ \"name\": \"parse\", \"exports\": \"./src/index.ts\" }\n",
            ),
            (
                "src/index.ts",
                &format!(
                    "export type Options = {{ strict?: boolean }}\n\n{documented}export function parse(s: string) {{ return s }}\n\nexport const VERSION = 1\n"
                ),
            ),
        ]);
        repo.write(
            "src/index.ts",
            format!("export type Options = {{ strict?: boolean }}\n\n{documented}export function parse(s: string) {{ return s }}\n\nexport const VERSION = 1\n\nexport function safeParse(s: string) {{ return s }}\n"),
        );
        let run = docs(&repo, &base);
        let line = if documented.is_empty() { 7 } else { 8 };
        assert_eq!(
            run.marked(),
            [format!("docs/undocumented-export {want} src/index.ts:{line}")],
            "{}",
            run.stdout
        );
        if documented.is_empty() {
            assert!(
                run.stdout
                    .contains("documented none of its 3 public symbols at the base"),
                "{}",
                run.stdout
            );
        }
    }
}

/// A declaration file a change adds for the module the package already
/// published (`"types": "lib.d.ts"` for `main`'s `index.js`), which the
/// change leaves as it was, types that module's API and adds none: its
/// undocumented names are the base's, shown, not blocked (issue 64: kleur
/// 0b44261). Written with new code in the module, they may be new API.
#[test]
fn declarations_added_for_a_published_module_add_no_api() {
    for code_changed in [false, true] {
        let (repo, base) = based(&[
            ("package.json", "{ \"name\": \"paint\", \"main\": \"index.js\" }\n"),
            (
                "index.js",
                "const $ = {};\nfor (const k of ['red', 'blue']) $[k] = (s) => s;\nmodule.exports = $;\n",
            ),
        ]);
        repo.write(
            "package.json",
            "{ \"name\": \"paint\", \"main\": \"index.js\", \"types\": \"lib.d.ts\" }\n",
        );
        repo.write(
            "lib.d.ts",
            "export const red: (s: string) => string;\nexport const blue: (s: string) => string;\n",
        );
        if code_changed {
            repo.write(
                "index.js",
                "const $ = {};\nfor (const k of ['red', 'blue', 'green']) $[k] = (s) => s;\nmodule.exports = $;\n",
            );
        }
        let run = docs(&repo, &base);
        let want = if code_changed { "error" } else { "warning" };
        let at = if code_changed { "" } else { " at-base" };
        assert_eq!(
            run.marked(),
            [
                format!("docs/undocumented-export {want} lib.d.ts:1{at}"),
                format!("docs/undocumented-export {want} lib.d.ts:2{at}")
            ],
            "{}",
            run.stdout
        );
    }
}

/// A Go file built only with a tag of the project's own (`// +build
/// gofuzz`, `//go:build integration`) is not in the package a plain `go
/// build` compiles: its exports are shown, not blocked (Masterminds/semver
/// 4492473: the go-fuzz entry point `Fuzz`). A platform's tag builds the
/// package on that platform: its exports are API.
#[test]
fn a_go_file_built_only_with_a_tag_of_the_projects_own_is_not_api() {
    let (repo, base) = based(&[
        ("go.mod", "module example.com/lib\n"),
        (
            "lib.go",
            "// Package lib does things.\npackage lib\n\n// One is one.\nfunc One() int { return 1 }\n",
        ),
    ]);
    repo.write(
        "fuzz.go",
        "// +build gofuzz\n\npackage lib\n\nfunc Fuzz(data []byte) int { return One() }\n",
    );
    repo.write(
        "extra_linux.go",
        "//go:build linux\n\npackage lib\n\nfunc Two() int { return 2 }\n",
    );
    let run = docs(&repo, &base);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.marked(),
        [
            "docs/undocumented-export error extra_linux.go:5",
            "docs/undocumented-export warning fuzz.go:5"
        ]
    );
}

/// A default export is `default` to its importers, however the change
/// names it: `export default (c, m) => ..` become `export default function
/// invariant(c, m)` adds no API; in a Flow-typed module too, whose type
/// annotations are read as TypeScript's (issue 64: tiny-invariant c99095c).
/// The new named export beside it does add API.
#[test]
fn a_default_export_named_by_the_change_is_the_one_the_base_had() {
    for (header, typed) in [("", ""), ("// @flow\n", ": mixed")] {
        let module = |default: &str, extra: &str| {
            format!(
                "{header}/** Adds. */\nexport function add(a{typed}, b{typed}) {{ return a + b }}\n\n// Throws.\n{default}{extra}"
            )
        };
        let (repo, base) = based(&[
            ("package.json", "{ \"name\": \"inv\", \"main\": \"src/index.js\" }\n"),
            (
                "src/index.js",
                &module(
                    &format!(
                        "export default (condition{typed}, message{typed}) => {{\n  if (!condition) throw new Error(message)\n}}\n"
                    ),
                    "",
                ),
            ),
        ]);
        repo.write(
            "src/index.js",
            module(
                &format!("export default function invariant(condition{typed}, message{typed}) {{\n  if (!condition) throw new Error(message)\n}}\n"),
                &format!("\nexport function extra(x{typed}) {{ return x }}\n"),
            ),
        );
        let run = docs(&repo, &base);
        let line = |n: u32| n + u32::from(!header.is_empty());
        assert_eq!(
            run.marked(),
            [
                format!("docs/undocumented-export warning src/index.js:{} at-base", line(5)),
                format!("docs/undocumented-export error src/index.js:{}", line(9)),
            ],
            "{header}{}",
            run.stdout
        );
    }
}
