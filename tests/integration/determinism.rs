//! The same input gives byte-identical output, whatever the thread count or
//! cache state: a generated history in every language the gates read, long
//! enough to cross the mutation gate's windows and cut its per-file version
//! chains, gated again and again.

use crate::support::{Run, TestRepo};

/// A tiny xorshift generator: the history is the same on every run.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).expect("small")
    }
}

#[derive(Clone)]
struct Case {
    name: String,
    input: usize,
    expected: usize,
    /// A second, weaker check after the equality.
    lower_bound: bool,
    skipped: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Flavor {
    Python,
    TypeScript,
    Tsx,
    JavaScript,
    Go,
    Rust,
}

struct Suite {
    flavor: Flavor,
    test_path: &'static str,
    code_path: &'static str,
    cases: Vec<Case>,
    code_version: usize,
    next: usize,
}

impl Suite {
    fn new(flavor: Flavor, test_path: &'static str, code_path: &'static str) -> Suite {
        let mut suite = Suite {
            flavor,
            test_path,
            code_path,
            cases: Vec::new(),
            code_version: 0,
            next: 0,
        };
        for _ in 0..24 {
            suite.add();
        }
        suite
    }

    fn add(&mut self) {
        let n = self.next;
        self.next += 1;
        self.cases.push(Case {
            name: format!("case_{n}"),
            input: n,
            expected: n * 2,
            lower_bound: true,
            skipped: false,
        });
    }

    fn test_text(&self) -> String {
        let mut s = String::new();
        let js = |s: &mut String, module: &str| {
            s.push_str(&format!(
                "import {{ describe, expect, it }} from \"vitest\"\nimport {{ compute }} from \"../src/{module}\"\n\ndescribe(\"{module}\", () => {{\n"
            ));
        };
        match self.flavor {
            Flavor::Python => s.push_str("import pytest\n\nfrom pkg.calc import compute\n"),
            Flavor::TypeScript => js(&mut s, "calc"),
            Flavor::Tsx => js(&mut s, "view"),
            Flavor::JavaScript => js(&mut s, "legacy"),
            Flavor::Go => s.push_str("package calc\n\nimport \"testing\"\n"),
            Flavor::Rust => s.push_str("use shop::compute;\n"),
        }
        for c in &self.cases {
            let (name, input, expected) = (&c.name, c.input, c.expected);
            match self.flavor {
                Flavor::Python => {
                    s.push_str("\n\n");
                    if c.skipped {
                        s.push_str("@pytest.mark.skip(reason=\"later\")\n");
                    }
                    s.push_str(&format!(
                        "def test_{name}():\n    value = compute({input})\n    assert value == {expected}\n"
                    ));
                    if c.lower_bound {
                        s.push_str("    assert value > -1\n");
                    }
                }
                Flavor::TypeScript | Flavor::Tsx | Flavor::JavaScript => {
                    let it = if c.skipped { "it.skip" } else { "it" };
                    s.push_str(&format!(
                        "\n  {it}(\"{name}\", () => {{\n    const value = compute({input})\n"
                    ));
                    if self.flavor == Flavor::Tsx {
                        s.push_str(
                            "    const shown = <span title=\"v\">{value}</span>\n    expect(shown).toBeTruthy()\n",
                        );
                    }
                    s.push_str(&format!("    expect(value).toBe({expected})\n"));
                    if c.lower_bound {
                        s.push_str("    expect(value).toBeGreaterThan(-1)\n");
                    }
                    s.push_str("  })\n");
                }
                Flavor::Go => {
                    s.push_str(&format!("\nfunc Test_{name}(t *testing.T) {{\n"));
                    if c.skipped {
                        s.push_str("\tt.Skip(\"later\")\n");
                    }
                    s.push_str(&format!(
                        "\tvalue := Compute({input})\n\tif value != {expected} {{\n\t\tt.Fatalf(\"got %d\", value)\n\t}}\n"
                    ));
                    if c.lower_bound {
                        s.push_str("\tif value < 0 {\n\t\tt.Error(\"negative\")\n\t}\n");
                    }
                    s.push_str("}\n");
                }
                Flavor::Rust => {
                    s.push_str("\n#[test]\n");
                    if c.skipped {
                        s.push_str("#[ignore]\n");
                    }
                    s.push_str(&format!(
                        "fn {name}() {{\n    let value = compute({input});\n    assert_eq!(value, {expected});\n"
                    ));
                    if c.lower_bound {
                        s.push_str("    assert!(value < usize::MAX);\n");
                    }
                    s.push_str("}\n");
                }
            }
        }
        if matches!(self.flavor, Flavor::TypeScript | Flavor::Tsx | Flavor::JavaScript) {
            s.push_str("})\n");
        }
        s
    }

    fn code_text(&self) -> String {
        let v = self.code_version;
        match self.flavor {
            Flavor::Python => format!("def compute(x):\n    return x * 2  # v{v}\n"),
            Flavor::TypeScript | Flavor::JavaScript => {
                format!("export function compute(x) {{\n  return x * 2 // v{v}\n}}\n")
            }
            Flavor::Tsx => format!("export const compute = (x: number) => x * 2 // v{v}\n"),
            Flavor::Go => {
                format!("package calc\n\n// Compute doubles, v{v}.\nfunc Compute(x int) int {{ return x * 2 }}\n")
            }
            Flavor::Rust => format!("/// Doubles, v{v}.\npub fn compute(x: usize) -> usize {{\n    x * 2\n}}\n"),
        }
    }

    /// One change to the suite, as a commit of a real history makes it.
    fn change(&mut self, dice: &mut Dice) -> (bool, bool) {
        let at = dice.roll(self.cases.len().max(1));
        let (mut tests, mut code) = (true, false);
        match dice.roll(8) {
            0 | 1 => self.add(),
            2 => {
                if let Some(c) = self.cases.get_mut(at) {
                    c.expected += 1;
                }
                code = true;
            }
            3 => {
                if let Some(c) = self.cases.get_mut(at) {
                    c.lower_bound = false;
                }
            }
            4 if self.cases.len() > 4 => {
                self.cases.remove(at);
            }
            5 => {
                if let Some(c) = self.cases.get_mut(at) {
                    c.skipped = !c.skipped;
                }
            }
            6 => {
                if let Some(c) = self.cases.get_mut(at) {
                    c.name.push_str("_b");
                }
            }
            _ => {
                tests = false;
                code = true;
            }
        }
        if code {
            self.code_version += 1;
        }
        (tests, code)
    }
}

/// `git fast-import`'s quoting of a blob or message.
fn data(out: &mut String, text: &str) {
    out.push_str(&format!("data {}\n{text}\n", text.len()));
}

/// Write the history with one `git fast-import` (a `git commit` per step
/// would take longer than the runs it sets up). Returns the base commit.
fn history(repo: &TestRepo, commits: usize) -> String {
    let mut suites = vec![
        Suite::new(Flavor::Python, "tests/test_calc.py", "pkg/calc.py"),
        Suite::new(Flavor::TypeScript, "web/tests/calc.test.ts", "web/src/calc.ts"),
        Suite::new(Flavor::Tsx, "web/tests/view.test.tsx", "web/src/view.tsx"),
        Suite::new(Flavor::JavaScript, "web/tests/legacy.test.js", "web/src/legacy.js"),
        Suite::new(Flavor::Go, "calc/calc_test.go", "calc/calc.go"),
        Suite::new(Flavor::Rust, "tests/calc.rs", "src/lib.rs"),
    ];
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
    let mut stream = String::new();
    let mut when = 1_767_225_600u64;
    let mut commit = |stream: &mut String, mark: usize, message: &str, files: &[(&str, String)]| {
        when += 60;
        stream.push_str(&format!(
            "commit refs/heads/main\nmark :{mark}\ncommitter Dev <dev@example.com> {when} +0000\n"
        ));
        data(stream, message);
        for (path, text) in files {
            stream.push_str(&format!("M 100644 inline {path}\n"));
            data(stream, text);
        }
        stream.push('\n');
    };
    let mut base_files: Vec<(&str, String)> = vec![
        ("pkg/__init__.py", String::new()),
        ("go.mod", "module example.com/shop\n\ngo 1.21\n".into()),
        (
            "Cargo.toml",
            "[package]\nname = \"shop\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".into(),
        ),
        ("package.json", "{ \"name\": \"web\", \"private\": true }\n".into()),
    ];
    for s in &suites {
        base_files.push((s.test_path, s.test_text()));
        base_files.push((s.code_path, s.code_text()));
    }
    commit(&mut stream, 1, "base", &base_files);
    for c in 0..commits {
        let mut files = Vec::new();
        for _ in 0..=dice.roll(3) {
            let s = dice.roll(suites.len());
            let (tests, code) = suites[s].change(&mut dice);
            let suite = &suites[s];
            files.retain(|(path, _)| *path != suite.test_path && *path != suite.code_path);
            if tests {
                files.push((suite.test_path, suite.test_text()));
            }
            if code {
                files.push((suite.code_path, suite.code_text()));
            }
        }
        commit(&mut stream, c + 2, &format!("change {c}"), &files);
    }
    let mut child = std::process::Command::new("git")
        .args(["fast-import", "--quiet"])
        .current_dir(repo.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("git fast-import");
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(stream.as_bytes())
            .expect("write the stream");
    }
    assert!(child.wait().expect("fast-import").success());
    repo.git(&["reset", "-q", "--hard", "main"]);
    repo.git(&["rev-list", "--max-parents=0", "main"])
}

/// The report without its timing.
fn report(repo: &TestRepo, run: &Run) -> String {
    assert!(run.code == 0 || run.code == 1, "{}\n{}", run.stdout, run.stderr);
    repo.redact(&run.stdout)
}

#[test]
fn mutation_gives_byte_identical_reports_whatever_the_threads_or_cache() {
    let repo = TestRepo::empty();
    let base = history(&repo, 300);
    let ranges: [&[&str]; 2] = [
        &["mutation", "--base", &base, "--max-commits", "0", "--format", "json"],
        &["mutation", "--all-files", "--max-commits", "300", "--format", "json"],
    ];
    for range in ranges {
        let gate = |threads: &str, cache: bool| {
            let mut args = range.to_vec();
            if !cache {
                args.push("--no-cache");
            }
            report(&repo, &repo.run_env(&args, &[("RAYON_NUM_THREADS", threads)]))
        };
        let first = gate("1", false);
        let found = serde_json::from_str::<serde_json::Value>(&first).expect("json")["findings"]
            .as_array()
            .map_or(0, Vec::len);
        assert!(
            found > 20,
            "the history should hold findings to compare, found {found}:\n{first}"
        );
        for (threads, cache) in [
            ("2", false),
            ("4", false),
            ("2", true),
            ("1", true),
            ("4", true),
            ("2", false),
        ] {
            let again = gate(threads, cache);
            assert!(
                again == first,
                "{range:?} with {threads} thread(s), cache {cache}: the report differs from the first run's\n{}",
                first
                    .lines()
                    .zip(again.lines())
                    .find(|(a, b)| a != b)
                    .map_or_else(String::new, |(a, b)| format!("first: {a}\nagain: {b}"))
            );
        }
    }
}

/// The docs gate reads many files in parallel and follows imports, entry
/// points and base classes through shared caches: its report must not
/// depend on the thread count or the order files are read in.
#[test]
fn docs_gives_byte_identical_reports_whatever_the_threads() {
    let repo = TestRepo::new();
    repo.write("README.md", "# demo\n\nA demo.\n");
    repo.write("pyproject.toml", "[project]\nname = \"pkg\"\nversion = \"1\"\n");
    repo.write(
        "package.json",
        "{ \"name\": \"lib\", \"exports\": { \".\": \"./dist/index.js\" } }\n",
    );
    repo.write("go.mod", "module example.com/lib\n");
    repo.commit("manifests");
    let mut init = String::new();
    let mut index = String::new();
    for i in 0..40 {
        // Python: private modules star-imported or not, overrides of a documented base.
        repo.write(
            &format!("pkg/_m{i}.py"),
            format!(
                "from .base import Base\n\n\nclass C{i}(Base):\n    def run(self):\n        pass\n\n    def more{i}(self):\n        pass\n\n\ndef f{i}():\n    pass\n"
            ),
        );
        if i % 2 == 0 {
            init.push_str(&format!("from ._m{i} import *\n"));
        }
        // JavaScript: modules the entry re-exports, and modules it does not.
        repo.write(
            &format!("src/m{i}.ts"),
            format!("export function f{i}() {{}}\nexport const c{i} = 1\n"),
        );
        if i % 3 == 0 {
            index.push_str(&format!("export * from './m{i}.js'\n"));
        }
        repo.write(&format!("g{i}.go"), format!("package lib\n\nfunc F{i}() {{}}\n"));
    }
    repo.write(
        "pkg/base.py",
        "class Base:\n    def run(self):\n        \"\"\"Runs.\"\"\"\n",
    );
    repo.write("pkg/__init__.py", &init);
    repo.write("src/index.ts", &index);
    repo.commit("code");
    for args in [
        &["docs", "--base", "HEAD~1", "--format", "json"][..],
        &["docs", "--all-files", "--format", "json"][..],
    ] {
        let gate = |threads: &str| report(&repo, &repo.run_env(args, &[("RAYON_NUM_THREADS", threads)]));
        let first = gate("1");
        let found = serde_json::from_str::<serde_json::Value>(&first).expect("json")["findings"]
            .as_array()
            .map_or(0, Vec::len);
        assert!(
            found > 20,
            "{args:?} should find gaps to compare, found {found}:\n{first}"
        );
        for threads in ["2", "4", "2", "8"] {
            assert!(
                gate(threads) == first,
                "{args:?} with {threads} thread(s) differs from the first run"
            );
        }
    }
}
