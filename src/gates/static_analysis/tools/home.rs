//! Where a project runs each of its tools, read from its own configuration:
//! the directory a tool's config file sits in (a `tsconfig.json` of a
//! package in a monorepo, the `pyproject.toml` that holds `[tool.mypy]`),
//! found by walking up from a changed file, and whether the project runs a
//! tool at all (a config of its own, or the tool named in the project's
//! hooks or CI). A file no config of a tool covers is not shown to that
//! tool unless `gates.static.tools` names it.
//!
//! Every read stays inside the repository and under the size cap, each
//! directory's answer is kept, so the work follows the changed files'
//! directories, not the repository's size.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The files a project names its tools in when it runs them without a
/// config of their own: hook managers, task runners, CI, and the
/// development dependencies it installs.
const RUNNERS: &[&str] = &[
    "pyproject.toml",
    "setup.cfg",
    "requirements-dev.txt",
    "dev-requirements.txt",
    ".pre-commit-config.yaml",
    ".pre-commit-config.yml",
    "lefthook.yml",
    ".lefthook.yml",
    "lefthook.yaml",
    "Makefile",
    "makefile",
    "justfile",
    "Justfile",
    "Taskfile.yml",
    "tox.ini",
    "noxfile.py",
    "package.json",
    ".gitlab-ci.yml",
];

/// The directory of GitHub workflows, whose files name tools too.
const WORKFLOWS: &str = ".github/workflows";

/// What the walk up from changed files has read, for one gate run.
pub struct Homes<'a> {
    root: &'a Path,
    /// (directory, question) -> answer.
    seen: RefCell<HashMap<(PathBuf, &'static str), bool>>,
    /// The text of the project's hook, task and CI files, read once.
    runners: std::cell::OnceCell<String>,
}

impl<'a> Homes<'a> {
    pub fn new(root: &'a Path) -> Self {
        Homes {
            root,
            seen: RefCell::new(HashMap::new()),
            runners: std::cell::OnceCell::new(),
        }
    }

    pub fn root(&self) -> &Path {
        self.root
    }

    /// The nearest directory at or above `file`'s (repo-relative, `""` the
    /// root) for which `has` says yes; `question` names what `has` asks, so
    /// each directory is asked once.
    pub fn nearest(
        &self,
        file: &Path,
        question: &'static str,
        has: impl Fn(&Homes<'_>, &Path) -> bool,
    ) -> Option<PathBuf> {
        let mut dir = file.parent();
        while let Some(d) = dir {
            let key = (d.to_path_buf(), question);
            let cached = self.seen.borrow().get(&key).copied();
            let yes = match cached {
                Some(yes) => yes,
                None => {
                    let yes = has(self, d);
                    self.seen.borrow_mut().insert(key, yes);
                    yes
                }
            };
            if yes {
                return Some(d.to_path_buf());
            }
            dir = d.parent();
        }
        None
    }

    /// Is there a regular file `name` in `dir` (repo-relative)?
    pub fn has_file(&self, dir: &Path, name: &str) -> bool {
        let rel = dir.join(name);
        crate::walk::inside(self.root, &rel).is_ok() && self.root.join(&rel).is_file()
    }

    /// The text of `dir/name`, read inside the repository under the size cap.
    pub fn text(&self, dir: &Path, name: &str) -> Option<String> {
        let bytes = crate::walk::read_file(self.root, &dir.join(name)).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Does `dir/name` exist and contain `needle`?
    pub fn mentions(&self, dir: &Path, name: &str, needle: &str) -> bool {
        self.has_file(dir, name) && self.text(dir, name).is_some_and(|t| t.contains(needle))
    }

    /// Does the project name `program` (as a word: `ruff`, `mirrors-mypy`,
    /// `cargo clippy`) in its hook, task or CI files at the root, outside
    /// their comments?
    pub fn named(&self, program: &str) -> bool {
        names_word(self.runners(), program)
    }

    /// The paths (files or directories of the repository, repo-relative)
    /// the project's hook, task and CI files hand `program` on its command
    /// lines (`mypy src typing_tests`): each word after the program up to
    /// the end of the command that is a path here.
    pub fn invoked_paths(&self, program: &str) -> Vec<PathBuf> {
        let mut paths = Vec::new();
        for line in self.runners().lines() {
            for (at, _) in line
                .match_indices(program)
                .filter(|(at, _)| word_at(line, *at, program))
            {
                for word in line[at + program.len()..].split_whitespace() {
                    if matches!(word, "&&" | "||" | ";" | "|") || word.starts_with('#') {
                        break;
                    }
                    let word = word.trim_matches(['"', '\'', ',', '[', ']']).trim_start_matches("./");
                    let word = word.trim_end_matches('/');
                    if word.is_empty() || word.starts_with('-') || word.contains("..") {
                        continue;
                    }
                    let rel = PathBuf::from(word);
                    if crate::walk::inside(self.root, &rel).is_ok()
                        && self.root.join(&rel).exists()
                        && !paths.contains(&rel)
                    {
                        paths.push(rel);
                    }
                }
            }
        }
        paths
    }

    /// The text of the project's hook, task and CI files, comment lines left out.
    fn runners(&self) -> &str {
        self.runners.get_or_init(|| {
            let mut text = String::new();
            for name in RUNNERS {
                text.extend(self.text(Path::new(""), name));
                text.push('\n');
            }
            let workflows = self.root.join(WORKFLOWS);
            if crate::walk::inside(self.root, Path::new(WORKFLOWS)).is_ok()
                && let Ok(entries) = std::fs::read_dir(&workflows)
            {
                let mut names: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| super::has_extension(p, &["yml", "yaml"]))
                    .collect();
                names.sort();
                for path in names {
                    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
                        text.extend(self.text(Path::new(WORKFLOWS), name));
                        text.push('\n');
                    }
                }
            }
            // `# run: cargo clippy` is a step someone turned off.
            text.lines()
                .filter(|l| !l.trim_start().starts_with('#'))
                .fold(String::new(), |mut kept, l| {
                    kept.push_str(l);
                    kept.push('\n');
                    kept
                })
        })
    }
}

/// Is `word` in `text` with no letter, digit or `_` on either side?
fn names_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| word_at(text, at, word))
}

/// Is the `word` at byte `at` of `text` a word of its own there?
fn word_at(text: &str, at: usize, word: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    !text[..at].chars().next_back().is_some_and(is_word) && !text[at + word.len()..].chars().next().is_some_and(is_word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_is_named_as_a_word() {
        assert!(names_word("  - id: ruff\n", "ruff"));
        assert!(names_word("repo: https://github.com/pre-commit/mirrors-mypy\n", "mypy"));
        assert!(names_word("run: cargo clippy --all-targets", "clippy"));
        assert!(names_word("uses: golangci/golangci-lint-action@v8", "golangci-lint"));
        assert!(!names_word("gruff: 1", "ruff"));
        assert!(!names_word("mypy_extensions", "mypy"));
        assert!(!names_word("", "ruff"));
    }

    #[test]
    fn commented_steps_name_nothing_and_command_lines_give_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("typing_tests")).unwrap();
        std::fs::create_dir_all(dir.path().join("src/pkg")).unwrap();
        std::fs::write(dir.path().join("src/pkg/__init__.pyi"), "").unwrap();
        std::fs::write(
            dir.path().join("tox.ini"),
            "[testenv]\ncommands =\n    mypy: pytest -k test_mypy\n    mypy: mypy typing_tests\n    mypy: mypy ./src/pkg/__init__.pyi --strict && echo done missing/\n",
        )
        .unwrap();
        std::fs::create_dir_all(dir.path().join(".github/workflows")).unwrap();
        std::fs::write(
            dir.path().join(".github/workflows/ci.yml"),
            "jobs:\n  lint:\n    steps:\n      # - run: cargo clippy --all-features\n      - run: cargo test\n",
        )
        .unwrap();
        let homes = Homes::new(dir.path());
        assert!(!homes.named("clippy"));
        assert!(homes.named("mypy"));
        assert_eq!(
            homes.invoked_paths("mypy"),
            vec![PathBuf::from("typing_tests"), PathBuf::from("src/pkg/__init__.pyi")]
        );
        assert!(homes.invoked_paths("ruff").is_empty());
    }

    #[test]
    fn the_nearest_directory_is_found_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("packages/a/src")).unwrap();
        std::fs::write(dir.path().join("packages/a/tsconfig.json"), "{}").unwrap();
        std::fs::write(dir.path().join("tsconfig.json"), "{}").unwrap();
        let homes = Homes::new(dir.path());
        let asked = std::cell::Cell::new(0);
        let tsconfig = |h: &Homes<'_>, d: &Path| {
            asked.set(asked.get() + 1);
            h.has_file(d, "tsconfig.json")
        };
        let near = |f: &str| homes.nearest(Path::new(f), "tsconfig", tsconfig);
        assert_eq!(near("packages/a/src/x.ts"), Some(PathBuf::from("packages/a")));
        assert_eq!(near("packages/a/src/y.ts"), Some(PathBuf::from("packages/a")));
        assert_eq!(near("packages/b/x.ts"), Some(PathBuf::from("")));
        assert_eq!(near("x.ts"), Some(PathBuf::from("")));
        // src, a; then b, packages, the root: each directory asked once.
        assert_eq!(asked.get(), 5);
    }
}
