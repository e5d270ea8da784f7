//! What a release publishes and what the docs tell people to copy: one
//! placeholder for the repository's owner everywhere, tags that follow the
//! documented scheme (`vX.Y.Z`, the Action's moving `vX`), a pre-commit
//! mirror that is this repository's hooks installing the wheel, and an
//! Action that asks only for archives the release builds.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support::output_text;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The package's version, from Cargo.toml.
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// Every text a user may copy a snippet from.
fn copyable() -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = vec![
        "README.md".into(),
        "CONTRIBUTING.md".into(),
        "action.yml".into(),
        "Cargo.toml".into(),
        "scripts/pre-commit-mirror".into(),
    ];
    for dir in ["docs", "docs/gates", "examples/workflows", ".github/workflows"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                files.push(path.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|rel| {
            let rel = rel.display().to_string();
            let text = read(&rel);
            (rel, text)
        })
        .collect()
}

#[test]
fn every_snippet_names_the_repository_with_the_one_owner_placeholder_and_a_documented_tag() {
    assert_eq!(env!("CARGO_PKG_REPOSITORY"), "https://github.com/OWNER/loki-gate");
    let major = format!("v{}", version().split('.').next().unwrap());
    let mut uses = 0;
    let mut revs = 0;
    // The account in a GitHub URL or an Action reference of loki-gate.
    let reference = regex::Regex::new(r"(?:github\.com/|uses: )([A-Za-z0-9_.-]+)/loki-gate\b").unwrap();
    // A pinned wheel.
    let pin = regex::Regex::new(r"loki-gate==([0-9][0-9A-Za-z.+-]*)").unwrap();
    for (file, text) in copyable() {
        assert!(!text.contains("your-org"), "{file} still says your-org");
        for found in reference.captures_iter(&text) {
            let owner = &found[1];
            let line = text[..found.get(0).unwrap().start()].lines().count() + 1;
            assert_eq!(
                owner, "OWNER",
                "{file}:{line}: `{owner}/loki-gate`: use the placeholder OWNER (CONTRIBUTING.md, Releasing)"
            );
        }
        for found in pin.captures_iter(&text) {
            assert_eq!(&found[1], version(), "{file}: `{}` is not this release", &found[0]);
        }
        for line in text.lines() {
            if let Some(reference) = line.split("uses: OWNER/loki-gate@").nth(1) {
                let tag = reference.split_whitespace().next().unwrap();
                assert_eq!(
                    tag, major,
                    "{file}: `{line}`: the Action's snippets pin the moving major tag"
                );
                uses += 1;
            }
        }
        let lines: Vec<&str> = text.lines().collect();
        for pair in lines.windows(2) {
            if pair[0].contains("repo: https://github.com/OWNER/loki-gate") {
                let rev = pair[1].trim().strip_prefix("rev: ").expect("a rev under the repo");
                let rev = rev.split_whitespace().next().unwrap();
                if rev.contains("{version}") {
                    continue; // the mirror's README template
                }
                assert_eq!(
                    rev,
                    format!("v{}", version()),
                    "{file}: pre-commit snippets pin a release tag"
                );
                revs += 1;
            }
        }
    }
    assert!(
        uses >= 3,
        "README, docs/github.md and the example use the Action ({uses})"
    );
    assert!(
        revs >= 2,
        "docs/hooks.md shows the mirror and the source hooks ({revs})"
    );
}

#[test]
fn the_pre_commit_mirror_is_these_hooks_installing_the_release_wheel() {
    let out = tempfile::tempdir().unwrap();
    let run = Command::new("python3")
        .arg(root().join("scripts/pre-commit-mirror"))
        .arg(format!("v{}", version()))
        .arg(out.path())
        .output()
        .expect("python3 runs");
    assert!(run.status.success(), "{}", output_text(&run));

    let hooks = |text: &str| -> Vec<Value> { serde_saphyr::from_str(text).expect("hooks are YAML") };
    let source = hooks(&read(".pre-commit-hooks.yaml"));
    let mirror = hooks(&std::fs::read_to_string(out.path().join(".pre-commit-hooks.yaml")).unwrap());
    assert_eq!(source.len(), mirror.len());
    for (from, to) in source.iter().zip(&mirror) {
        let mut expected = from.clone();
        expected["language"] = "python".into();
        assert_eq!(&expected, to, "the mirror changes only the language");
    }
    let pyproject: toml::Table =
        toml::from_str(&std::fs::read_to_string(out.path().join("pyproject.toml")).unwrap()).unwrap();
    assert_eq!(
        pyproject["project"]["dependencies"].as_array().unwrap()[0].as_str(),
        Some(format!("loki-gate=={}", version()).as_str())
    );
    assert_eq!(pyproject["project"]["version"].as_str(), Some(version()));

    // pre-commit itself accepts the manifest.
    let validate = Command::new("pre-commit")
        .arg("validate-manifest")
        .arg(out.path().join(".pre-commit-hooks.yaml"))
        .output()
        .expect("pre-commit runs (install it with `python3 -m pip install pre-commit`, as .ci/run does)");
    assert!(validate.status.success(), "{}", output_text(&validate));

    // Not a release version: refused, nothing written.
    let elsewhere = tempfile::tempdir().unwrap();
    let bad = Command::new("python3")
        .arg(root().join("scripts/pre-commit-mirror"))
        .arg("main")
        .arg(elsewhere.path())
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(
        output_text(&bad).contains("`main` is not a release version"),
        "{}",
        output_text(&bad)
    );
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
}

#[test]
fn the_action_asks_only_for_archives_the_release_builds() {
    let dist: toml::Table = toml::from_str(&read("dist-workspace.toml")).unwrap();
    let built: BTreeSet<String> = dist["dist"]["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    assert_eq!(dist["dist"]["unix-archive"].as_str(), Some(".tar.gz"));
    assert_eq!(dist["dist"]["windows-archive"].as_str(), Some(".zip"));
    assert_eq!(dist["dist"]["checksum"].as_str(), Some("sha256"));
    let script = read("action/cache-key.sh");
    let asked: BTreeSet<String> = script
        .lines()
        .filter_map(|l| l.split("target=").nth(1))
        .map(|t| t.trim_end_matches(" ;;").trim().to_string())
        .filter(|t| !t.is_empty() && t != "\"\"" && !t.starts_with('$'))
        .collect();
    assert!(asked.len() >= 5, "{asked:?}");
    assert!(
        asked.is_subset(&built),
        "the Action asks for {asked:?}; the release builds {built:?}"
    );
    // Linux (glibc and musl, both architectures), macOS (both) and Windows.
    for target in [
        "x86_64-unknown-linux-gnu",
        "aarch64-unknown-linux-gnu",
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(built.contains(target), "{target} is not built");
    }
}
