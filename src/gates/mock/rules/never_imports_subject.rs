use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Import, TestFile};
use crate::rule::{Level, RuleMeta};

pub const NEVER_IMPORTS_SUBJECT: RuleMeta = RuleMeta {
    id: "mock/never-imports-subject",
    gate: "mock",
    default_level: Level::Deny,
    summary: "a test file that never imports and uses any of the project's own modules",
    help: "import the code under test and call it; a test that only exercises its own helpers or third-party code tests nothing of yours",
    doc: include_str!("never-imports-subject.md"),
};

/// Modules that run programs: a test using one exercises the project as a
/// process (a CLI, a type checker over project files), not through imports.
const PROCESS_MODULES: &[&str] = &[
    "subprocess",
    "pexpect",
    "sh",
    "plumbum",
    "child_process",
    "node:child_process",
    "execa",
    "zx",
    "cross-spawn",
    // Rust: a process, a compile test (trybuild), a CLI test (assert_cmd).
    "std::process",
    "trybuild",
    "assert_cmd",
    "assert_cmd::prelude",
    "escargot",
    "trycmd",
    "snapbox::cmd",
    // Rust's shell-command crates: `cmd!("cargo fmt -- --check").run()`.
    "xshell",
    "xaction",
    "duct",
];

/// Bundlers, compilers and dev servers: a test that drives one builds or
/// serves project files it names by path or by the package's own name
/// (a tree-shaking or bundle-size test), not through an import.
const BUILD_MODULES: &[&str] = &[
    "esbuild",
    "rollup",
    "rolldown",
    "webpack",
    "vite",
    "tsup",
    "@swc/core",
    "typescript",
    "ts-morph",
    "wrangler",
    "@vercel/ncc",
    "@parcel/core",
];

/// `subject[i]` says whether `file.imports[i]` resolves to the project's own non-test code.
/// The file calls something that starts a process.
fn uses_process_api(file: &TestFile) -> bool {
    const CALLS: &[&str] = &[
        "run",
        "check_output",
        "check_call",
        "call",
        "Popen",
        "system",
        "spawn",
        "spawnSync",
        "exec",
        "execSync",
        "execFile",
        "execFileSync",
        "execa",
        "execaSync",
        "fork",
        // Rust: `Command::new(..).output()`, trybuild's `compile_fail`, assert_cmd's `cargo_bin`.
        "output",
        "status",
        "compile_fail",
        "pass",
        "cargo_bin",
        "cargo_bin_cmd",
        "case",
    ];
    file.used.iter().any(|name| CALLS.contains(&name.as_str()))
        || file
            .tests
            .iter()
            .any(|t| t.calls.iter().any(|c| CALLS.contains(&c.as_str())))
}

pub fn never_imports_subject(path: &str, file: &TestFile, subject: &[bool]) -> Vec<Finding> {
    let Some(first) = file.tests.first() else {
        return Vec::new();
    };
    if file.uses_fixtures || file.page_loaded || file.tests.iter().all(|t| t.skip.is_some()) {
        return Vec::new();
    }
    let imports: Vec<(&Import, bool)> = file.imports.iter().zip(subject.iter().copied()).collect();
    if imports
        .iter()
        .any(|(import, is_subject)| *is_subject && import.used_in(file))
    {
        return Vec::new();
    }
    let runs_processes = imports.iter().any(|(import, _)| {
        let spec = import.specifier.as_str();
        let named = PROCESS_MODULES
            .iter()
            .any(|m| spec == *m || spec.strip_prefix(m).is_some_and(|rest| rest.starts_with("::")));
        let builds = BUILD_MODULES.contains(&spec);
        (named && import.used_in(file) && uses_process_api(file)) || (builds && import.used_in(file))
    });
    if runs_processes {
        return Vec::new();
    }
    let unused: Vec<&str> = imports
        .iter()
        .filter(|(import, is_subject)| *is_subject && !import.used_in(file))
        .map(|(import, _)| import.specifier.as_str())
        .collect();
    let mut finding = finding_at(
        &NEVER_IMPORTS_SUBJECT,
        format!(
            "no test in this file imports and uses project code ({} tests)",
            file.tests.len()
        ),
        path,
        first.span,
    );
    if !unused.is_empty() {
        finding = finding.note(format!("imported but never used: {}", unused.join(", ")));
    }
    let others: Vec<&str> = imports
        .iter()
        .filter(|(_, s)| !s)
        // A Go test in its own package imports `.`, which holds no code here.
        .map(|(i, _)| match i.specifier.as_str() {
            "." => "its own package (no non-test .go file beside it)",
            spec => spec,
        })
        .take(8)
        .collect();
    if !others.is_empty() {
        finding = finding.note(format!("imports that are not project code: {}", others.join(", ")));
    }
    vec![finding]
}
