//! The test files of the runners a package runs from its `package.json`
//! scripts with no config file of their own: AVA (`"test": "xo && ava"`,
//! its `ava.files` or its default patterns) and node's own runner (`node
//! --test`, the files or globs it is handed, else its default patterns).
//! Both run a root `test.js`, which neither jest's nor vitest's
//! conventions make a test (issue 64: dot-prop's `test.js` went unread).

use super::{Project, globset};

/// What AVA runs when its config names no `files`.
const AVA_FILES: &[&str] = &[
    "test.{js,cjs,mjs,ts,cts,mts}",
    "{src,source}/test.{js,cjs,mjs,ts,cts,mts}",
    "**/test-*.{js,cjs,mjs,ts,cts,mts}",
    "**/*.{spec,test}.{js,cjs,mjs,ts,cts,mts}",
    "**/{test,tests,__tests__}/**/*.{js,cjs,mjs,ts,cts,mts}",
];

/// What AVA never runs as a test: helpers, fixtures and files starting with `_`.
const AVA_IGNORED: &[&str] = &[
    "**/{test,tests,__tests__}/**/{helper,helpers,__helper__,__helpers__}/**",
    "**/{test,tests,__tests__}/**/{fixture,fixtures,__fixture__,__fixtures__}/**",
    "**/_*",
    "**/_*/**",
    "**/node_modules/**",
];

/// What `node --test` runs when handed no files.
const NODE_FILES: &[&str] = &[
    "**/*{.,-,_}test.{js,cjs,mjs,ts,cts,mts}",
    "**/test-*.{js,cjs,mjs,ts,cts,mts}",
    "**/test.{js,cjs,mjs,ts,cts,mts}",
    "**/test/**/*.{js,cjs,mjs,ts,cts,mts}",
];

/// node's options that take a value, which may follow as the next word.
const TAKES_VALUE: &[&str] = &[
    "--test-reporter",
    "--test-reporter-destination",
    "--test-name-pattern",
    "--test-skip-pattern",
    "--test-concurrency",
    "--test-timeout",
    "--test-shard",
    "--import",
    "--require",
    "-r",
    "--loader",
    "--experimental-loader",
    "--env-file",
];

/// The test files the runner `manifest`'s scripts run, when one runs AVA
/// or `node --test` (or `tsx --test`).
pub(super) fn script_runner(manifest: &serde_json::Value) -> Option<Project> {
    let scripts = manifest.get("scripts")?.as_object()?;
    let mut ava = false;
    let mut node: Option<Vec<String>> = None;
    for command in scripts
        .values()
        .filter_map(|s| s.as_str())
        .flat_map(|s| s.split(['&', ';', '|']))
    {
        let words: Vec<&str> = command.split_whitespace().collect();
        ava |= words.iter().any(|w| *w == "ava" || w.ends_with("/ava"));
        if let Some(at) = words.iter().position(|w| *w == "--test")
            && words[..at]
                .iter()
                .any(|w| matches!(*w, "node" | "tsx") || w.ends_with("/node"))
        {
            // Options, and the value of one written apart (`--import tsx`).
            let mut handed = Vec::new();
            let mut value_next = false;
            for word in &words[at + 1..] {
                if std::mem::take(&mut value_next) {
                    continue;
                }
                if word.starts_with('-') {
                    value_next = !word.contains('=') && TAKES_VALUE.contains(word);
                    continue;
                }
                handed.push(handed_glob(word.trim_matches(['"', '\''])));
            }
            node.get_or_insert_with(Vec::new).extend(handed);
        }
    }
    let (include, exclude): (Vec<String>, Vec<String>) = if ava {
        let files: Vec<String> = manifest
            .pointer("/ava/files")
            .and_then(|f| f.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let (negated, named): (Vec<String>, Vec<String>) = files.into_iter().partition(|f| f.starts_with('!'));
        let include = if named.is_empty() {
            AVA_FILES.iter().map(|s| s.to_string()).collect()
        } else {
            named
        };
        let mut exclude: Vec<String> = AVA_IGNORED.iter().map(|s| s.to_string()).collect();
        exclude.extend(negated.iter().map(|n| n[1..].to_string()));
        (include, exclude)
    } else {
        let handed = node?;
        let include = if handed.is_empty() {
            NODE_FILES.iter().map(|s| s.to_string()).collect()
        } else {
            handed
        };
        (include, vec!["**/node_modules/**".to_string()])
    };
    Some(Project {
        include: globset(&include)?,
        exclude: globset(&exclude),
    })
}

/// A file, directory or glob handed to `node --test`, as a glob: a
/// directory (a name without an extension or a glob) is every file under it.
fn handed_glob(word: &str) -> String {
    let word = word.trim_start_matches("./").trim_end_matches('/');
    let glob = word.contains(['*', '?', '{', '[']);
    let extension = std::path::Path::new(word).extension().is_some();
    if glob || extension {
        word.to_string()
    } else {
        format!("{word}/**")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(manifest: &str, path: &str) -> Option<bool> {
        let json: serde_json::Value = serde_json::from_str(manifest).unwrap();
        let project = script_runner(&json)?;
        let path = std::path::Path::new(path);
        Some(project.include.is_match(path) && !project.exclude.as_ref().is_some_and(|e| e.is_match(path)))
    }

    #[test]
    fn ava_runs_its_default_files_or_those_it_is_told() {
        let ava = r#"{"scripts": {"test": "xo && ava && tsd"}}"#;
        for yes in [
            "test.js",
            "source/test.ts",
            "test/unit.js",
            "lib/test-parse.mjs",
            "src/a.test.js",
        ] {
            assert_eq!(runs(ava, yes), Some(true), "{yes}");
        }
        for no in [
            "index.js",
            "test/helpers/page.js",
            "test/fixtures/a.js",
            "test/_setup.js",
            "lib/test.md",
        ] {
            assert_eq!(runs(ava, no), Some(false), "{no}");
        }
        let told = r#"{"scripts": {"test": "c8 ava"}, "ava": {"files": ["spec/**/*.js", "!spec/slow.js"]}}"#;
        assert_eq!(runs(told, "spec/a.js"), Some(true));
        assert_eq!(runs(told, "spec/slow.js"), Some(false));
        assert_eq!(runs(told, "test.js"), Some(false));
    }

    #[test]
    fn node_test_runs_its_default_files_or_those_it_is_handed() {
        let bare = r#"{"scripts": {"test": "node --test"}}"#;
        for yes in [
            "test.js",
            "lib/parse-test.mjs",
            "lib/parse_test.js",
            "test/a.cjs",
            "src/x.test.js",
        ] {
            assert_eq!(runs(bare, yes), Some(true), "{yes}");
        }
        assert_eq!(runs(bare, "index.js"), Some(false));
        let handed = r#"{"scripts": {"test": "tsx --test --test-reporter spec --import ./setup.js ./tests/ 'bench/*.spec.ts'"}}"#;
        assert_eq!(runs(handed, "tests/a.ts"), Some(true));
        assert_eq!(runs(handed, "bench/b.spec.ts"), Some(true));
        assert_eq!(runs(handed, "test.js"), Some(false));
        // Neither runner: the conventions decide.
        assert_eq!(
            runs(r#"{"scripts": {"test": "vitest run", "build": "tsc"}}"#, "test.js"),
            None
        );
        assert_eq!(runs(r#"{"name": "x"}"#, "test.js"), None);
    }
}
