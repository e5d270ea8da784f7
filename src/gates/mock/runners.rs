//! What the JavaScript test runners' own config says, where it says it
//! statically: vitest's `test.include`/`test.exclude` and `resolve.alias`
//! (in `vitest.config.*` or `vite.config.*`), jest's `testMatch`,
//! `testRegex` and `moduleNameMapper` (in `jest.config.*` or the `jest` key of
//! `package.json`). Configs are read with tree-sitter, never evaluated: a
//! value built at run time (a variable, a function call other than the
//! `path.resolve(__dirname, ..)` family) is ignored and the conventions apply.
//!
//! Each config governs the files under its directory (the nearest config
//! wins, as in a monorepo of packages); patterns are relative to it.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use regex::Regex;
use tree_sitter::Node;

use super::resolve::normalize;
use crate::lang::{Lang, text, visit_named};

const VITEST: &[&str] = &["vitest.config", "vite.config"];
const JEST: &str = "jest.config";
const CONFIG_EXTENSIONS: &[&str] = &["ts", "mts", "cts", "js", "mjs", "cjs"];

/// Which files a runner config makes tests.
#[derive(Debug, Clone)]
struct Matcher {
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
    regex: Vec<Regex>,
}

/// An import alias: `find` (a prefix, or a regex for jest) to a replacement.
#[derive(Debug, Clone)]
pub enum Alias {
    /// vite `resolve.alias`: `@` -> `src` (repository-relative).
    Prefix { find: String, replacement: PathBuf },
    /// jest `moduleNameMapper`: `^@/(.*)$` -> `src/$1` (repository-relative).
    Pattern { find: Regex, replacement: String },
}

#[derive(Debug, Clone, Default)]
pub struct Runners {
    /// (config directory, matcher), deepest directory first.
    scopes: Vec<(PathBuf, Matcher)>,
    pub aliases: Vec<Alias>,
    /// The config files read, for the report.
    pub sources: Vec<String>,
    /// Configs that could not be read, each with why (for the report).
    pub problems: Vec<String>,
}

impl Runners {
    /// Read the runner configs at `root` and in the directories of `manifests`
    /// (repository-relative `package.json` paths: the workspace packages).
    pub fn load_at(root: &Path, manifests: &[PathBuf]) -> Runners {
        let mut dirs: Vec<PathBuf> = vec![PathBuf::new()];
        dirs.extend(manifests.iter().filter_map(|m| m.parent().map(Path::to_path_buf)));
        dirs.sort();
        dirs.dedup();
        let mut runners = Runners::default();
        for dir in dirs {
            runners.read_dir(root, &dir);
        }
        runners
            .scopes
            .sort_by_key(|(dir, _)| std::cmp::Reverse(dir.components().count()));
        runners
    }

    fn read_dir(&mut self, root: &Path, dir: &Path) {
        let mut matcher = Matcher {
            include: None,
            exclude: None,
            regex: Vec::new(),
        };
        let mut found = false;
        let candidates = VITEST
            .iter()
            .chain(std::iter::once(&JEST))
            .flat_map(|stem| CONFIG_EXTENSIONS.iter().map(move |e| format!("{stem}.{e}")));
        for name in candidates {
            let rel = dir.join(&name);
            let Ok(bytes) = std::fs::read(root.join(&rel)) else {
                continue;
            };
            let Some(lang) = Lang::from_path(&rel) else { continue };
            let Some(tree) = lang.parse(&bytes) else { continue };
            if tree.root_node().has_error() {
                self.problems.push(format!(
                    "{} has syntax errors: its test patterns and aliases were not read; the conventions apply there",
                    crate::git::display_path(&rel)
                ));
                continue;
            }
            let config = Config { source: &bytes, dir };
            let root_node = tree.root_node();
            if name.starts_with(JEST) {
                found |= config.jest(&root_node, &mut matcher, &mut self.aliases);
            } else {
                found |= config.vitest(&root_node, &mut matcher, &mut self.aliases);
            }
            self.sources.push(crate::git::display_path(&rel));
        }
        // package.json "jest": { "testMatch": [..], "testRegex": .., "moduleNameMapper": {..} }
        let manifest = dir.join("package.json");
        let json = std::fs::read_to_string(root.join(&manifest))
            .ok()
            .map(|text| serde_json::from_str::<serde_json::Value>(&text));
        if let Some(Err(e)) = &json {
            self.problems.push(format!(
                "{} is not valid JSON ({e}): its jest settings were not read",
                crate::git::display_path(&manifest)
            ));
        }
        if let Some(Ok(json)) = json
            && let Some(jest) = json.get("jest").and_then(|j| j.as_object())
        {
            let strings = |v: &serde_json::Value| -> Vec<String> {
                match v {
                    serde_json::Value::String(s) => vec![s.clone()],
                    serde_json::Value::Array(a) => a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect(),
                    _ => Vec::new(),
                }
            };
            if let Some(globs) = jest.get("testMatch").map(strings).filter(|g| !g.is_empty()) {
                matcher.include = globset(&globs);
                found = true;
            }
            if let Some(regexes) = jest.get("testRegex").map(strings).filter(|r| !r.is_empty()) {
                matcher.regex.extend(regexes.iter().filter_map(|r| Regex::new(r).ok()));
                found = true;
            }
            if let Some(map) = jest.get("moduleNameMapper").and_then(|m| m.as_object()) {
                for (find, replacement) in map {
                    if let (Ok(find), Some(replacement)) = (Regex::new(find), replacement.as_str()) {
                        self.aliases.push(Alias::Pattern {
                            find,
                            replacement: root_dir(replacement, dir),
                        });
                    }
                }
            }
            self.sources.push(crate::git::display_path(&manifest));
        }
        if found {
            self.scopes.push((dir.to_path_buf(), matcher));
        }
    }

    /// Whether a runner config decides `path` (repository-relative), and if so
    /// whether it is a test file.
    pub fn decides(&self, path: &Path) -> Option<bool> {
        let (dir, matcher) = self.scopes.iter().find(|(dir, _)| path.starts_with(dir))?;
        let rel = path.strip_prefix(dir).ok()?;
        let included = matcher.include.as_ref().is_some_and(|g| g.is_match(rel))
            // jest matches `testRegex` against absolute paths: keep the leading `/`.
            || matcher
                .regex
                .iter()
                .any(|r| r.is_match(&format!("/{}", crate::git::display_path(path))));
        let excluded = matcher.exclude.as_ref().is_some_and(|g| g.is_match(rel));
        Some(included && !excluded)
    }
}

/// Jest's `<rootDir>` is the config's directory.
fn root_dir(value: &str, dir: &Path) -> String {
    let base = crate::git::display_path(dir);
    let replaced = value.replace(
        "<rootDir>/",
        &if base.is_empty() {
            String::new()
        } else {
            format!("{base}/")
        },
    );
    replaced.replace("<rootDir>", &base)
}

/// Globs as jest and vitest write them (micromatch extglobs through
/// [`extglob`]); a leading `<rootDir>/` or `./` goes, negations are skipped.
fn globset(patterns: &[String]) -> Option<GlobSet> {
    let mut builder = GlobSetBuilder::new();
    let mut any = false;
    for p in patterns {
        let p = p.trim_start_matches("<rootDir>/").trim_start_matches("./");
        if p.starts_with('!') {
            continue;
        }
        for expanded in extglob(p) {
            if let Ok(glob) = Glob::new(&expanded) {
                builder.add(glob);
                any = true;
            }
        }
    }
    any.then(|| builder.build().ok()).flatten()
}

/// The globset patterns for one micromatch glob: `@(a|b)` and `+(a|b)`
/// become `{a,b}`; `?(x)` and `*(x)` (zero or one, as far as test names go)
/// expand into a pattern without and one with `x`, since globset has no
/// empty alternative.
fn extglob(pattern: &str) -> Vec<String> {
    let mut outs = vec![String::new()];
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '?' | '@' | '+' | '*') && chars.peek() == Some(&'(') {
            chars.next();
            let inner: String = chars.by_ref().take_while(|&c| c != ')').collect();
            let group = format!("{{{}}}", inner.replace('|', ","));
            if matches!(c, '?' | '*') {
                outs = outs
                    .into_iter()
                    .flat_map(|o| [o.clone(), format!("{o}{group}")])
                    .take(64)
                    .collect();
            } else {
                outs.iter_mut().for_each(|o| o.push_str(&group));
            }
        } else {
            outs.iter_mut().for_each(|o| o.push(c));
        }
    }
    outs
}

/// One config file being read.
struct Config<'a> {
    source: &'a [u8],
    /// Its directory, repository-relative.
    dir: &'a Path,
}

impl Config<'_> {
    /// The key of a `pair`, bare or quoted.
    fn key(&self, pair: &Node) -> Option<String> {
        let key = pair.child_by_field_name("key")?;
        Some(text(&key, self.source).trim_matches(['"', '\'', '`']).to_string())
    }

    /// The key of the object property that holds `pair`'s object, if any.
    fn parent_key(&self, pair: &Node) -> Option<String> {
        let object = pair.parent().filter(|o| o.kind() == "object")?;
        let outer = object.parent().filter(|p| p.kind() == "pair")?;
        self.key(&outer)
    }

    fn string(&self, node: &Node) -> Option<String> {
        match node.kind() {
            "string" => Some(text(node, self.source).trim_matches(['"', '\'']).to_string()),
            "template_string" if node.named_child_count() == 0 => {
                Some(text(node, self.source).trim_matches('`').to_string())
            }
            _ => None,
        }
    }

    /// An array of string literals, or one string.
    fn strings(&self, node: &Node) -> Option<Vec<String>> {
        if let Some(s) = self.string(node) {
            return Some(vec![s]);
        }
        if node.kind() != "array" {
            return None;
        }
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .map(|c| self.string(&c))
            .collect()
    }

    /// Every `key: value` pair in the file, with the key of the object around it.
    fn pairs<'t>(&self, root: &Node<'t>) -> Vec<(String, Option<String>, Node<'t>)> {
        let mut out = Vec::new();
        visit_named(*root, |n| {
            if n.kind() == "pair"
                && let (Some(key), Some(value)) = (self.key(&n), n.child_by_field_name("value"))
            {
                out.push((key, self.parent_key(&n), value));
            }
            true
        });
        out
    }

    fn vitest(&self, root: &Node, matcher: &mut Matcher, aliases: &mut Vec<Alias>) -> bool {
        let mut found = false;
        for (key, parent, value) in self.pairs(root) {
            match (key.as_str(), parent.as_deref()) {
                ("include", Some("test")) => {
                    if let Some(globs) = self.strings(&value) {
                        matcher.include = globset(&globs);
                        found = true;
                    }
                }
                ("exclude", Some("test")) => {
                    if let Some(globs) = self.strings(&value) {
                        matcher.exclude = globset(&globs);
                    }
                }
                ("alias", Some("resolve")) => self.vite_aliases(&value, aliases),
                _ => {}
            }
        }
        found
    }

    fn jest(&self, root: &Node, matcher: &mut Matcher, aliases: &mut Vec<Alias>) -> bool {
        let mut found = false;
        for (key, parent, value) in self.pairs(root) {
            // Top-level keys only (`projects` entries carry their own).
            if parent.is_some() {
                continue;
            }
            match key.as_str() {
                "testMatch" => {
                    if let Some(globs) = self.strings(&value) {
                        matcher.include = globset(&globs);
                        found = true;
                    }
                }
                "testRegex" => {
                    let regexes = if value.kind() == "regex" {
                        value
                            .child_by_field_name("pattern")
                            .map(|p| vec![text(&p, self.source).into_owned()])
                    } else {
                        self.strings(&value)
                    };
                    if let Some(regexes) = regexes {
                        matcher.regex.extend(regexes.iter().filter_map(|r| Regex::new(r).ok()));
                        found = true;
                    }
                }
                "moduleNameMapper" if value.kind() == "object" => {
                    let mut cursor = value.walk();
                    for pair in value.named_children(&mut cursor).filter(|p| p.kind() == "pair") {
                        if let (Some(find), Some(replacement)) = (
                            self.key(&pair).and_then(|k| Regex::new(&k).ok()),
                            pair.child_by_field_name("value").and_then(|v| self.string(&v)),
                        ) {
                            aliases.push(Alias::Pattern {
                                find,
                                replacement: root_dir(&replacement, self.dir),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        found
    }

    /// `alias: { '@': path.resolve(__dirname, 'src') }` or `alias: [{ find: '@', replacement: .. }]`.
    fn vite_aliases(&self, value: &Node, aliases: &mut Vec<Alias>) {
        let mut cursor = value.walk();
        let entries: Vec<Node> = value.named_children(&mut cursor).collect();
        for entry in entries {
            let (find, replacement) = match (value.kind(), entry.kind()) {
                ("object", "pair") => (self.key(&entry), entry.child_by_field_name("value")),
                ("array", "object") => {
                    let mut c = entry.walk();
                    let pairs: Vec<Node> = entry.named_children(&mut c).filter(|p| p.kind() == "pair").collect();
                    let field = |name: &str| {
                        pairs
                            .iter()
                            .find(|p| self.key(p).as_deref() == Some(name))
                            .and_then(|p| p.child_by_field_name("value"))
                    };
                    (field("find").and_then(|f| self.string(&f)), field("replacement"))
                }
                _ => continue,
            };
            if let (Some(find), Some(path)) = (find, replacement.and_then(|r| self.path(&r))) {
                aliases.push(Alias::Prefix {
                    find,
                    replacement: path,
                });
            }
        }
    }

    /// A directory as a config writes it, repository-relative: `'./src'`,
    /// `'/src'`, `path.resolve(__dirname, 'src')`, `resolve(__dirname, './src')`,
    /// `fileURLToPath(new URL('./src', import.meta.url))`.
    fn path(&self, node: &Node) -> Option<PathBuf> {
        let relative = match node.kind() {
            "string" | "template_string" => self.string(node)?,
            "call_expression" => {
                let callee = text(&node.child_by_field_name("function")?, self.source).into_owned();
                let args = node.child_by_field_name("arguments")?;
                let mut cursor = args.walk();
                let args: Vec<Node> = args.named_children(&mut cursor).collect();
                match callee.rsplit('.').next().unwrap_or(&callee) {
                    "resolve" | "join" => {
                        let parts: Option<Vec<String>> = args
                            .iter()
                            .filter(|a| !matches!(text(a, self.source).as_ref(), "__dirname" | "process.cwd()"))
                            .map(|a| self.string(a))
                            .collect();
                        parts?.join("/")
                    }
                    "fileURLToPath" => {
                        let url = args.first().filter(|u| u.kind() == "new_expression")?;
                        let url_args = url.child_by_field_name("arguments")?;
                        let first = url_args.named_child(0)?;
                        self.string(&first)?
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        Some(normalize(&self.dir.join(relative.trim_start_matches('/'))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micromatch_extglobs_become_braces() {
        assert_eq!(
            extglob("**/?(*.)+(spec|test).[jt]s?(x)"),
            vec![
                "**/{spec,test}.[jt]s",
                "**/{spec,test}.[jt]s{x}",
                "**/{*.}{spec,test}.[jt]s",
                "**/{*.}{spec,test}.[jt]s{x}",
            ]
        );
        assert_eq!(extglob("**/@(a|b).ts"), vec!["**/{a,b}.ts"]);
        let set = globset(&["**/__tests__/**/*.[jt]s?(x)".to_string()]).unwrap();
        assert!(set.is_match("src/__tests__/a.tsx") && set.is_match("src/__tests__/a.js"));
        assert!(!set.is_match("src/a.js"));
    }

    #[test]
    fn vitest_include_exclude_and_aliases_are_read_statically() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("packages/web")).unwrap();
        std::fs::write(dir.path().join("packages/web/package.json"), r#"{"name": "web"}"#).unwrap();
        std::fs::write(
            dir.path().join("packages/web/vite.config.ts"),
            r#"import { defineConfig } from 'vitest/config'
import path from 'node:path'
import { fileURLToPath, URL } from 'node:url'
export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(__dirname, './src'),
      '~lib': fileURLToPath(new URL('../lib', import.meta.url)),
    },
  },
  test: {
    include: ['checks/**/*.check.ts'],
    exclude: ['checks/slow/**'],
  },
})
"#,
        )
        .unwrap();
        std::fs::write(
            dir.path().join("jest.config.js"),
            "module.exports = {\n  testMatch: ['**/?(*.)+(spec|test).[jt]s?(x)'],\n  moduleNameMapper: { '^#/(.*)$': '<rootDir>/app/$1' },\n}\n",
        )
        .unwrap();
        let runners = Runners::load_at(dir.path(), &[PathBuf::from("packages/web/package.json")]);
        let decides = |p: &str| runners.decides(Path::new(p));
        assert_eq!(decides("packages/web/checks/a.check.ts"), Some(true));
        assert_eq!(decides("packages/web/checks/slow/a.check.ts"), Some(false));
        assert_eq!(
            decides("packages/web/src/a.test.ts"),
            Some(false),
            "vitest include replaces the conventions"
        );
        assert_eq!(decides("src/a.test.ts"), Some(true), "the root jest config");
        assert_eq!(decides("src/a.ts"), Some(false));
        let prefixes: Vec<(String, PathBuf)> = runners
            .aliases
            .iter()
            .filter_map(|a| match a {
                Alias::Prefix { find, replacement } => Some((find.clone(), replacement.clone())),
                Alias::Pattern { .. } => None,
            })
            .collect();
        assert!(
            prefixes.contains(&("@".to_string(), PathBuf::from("packages/web/src"))),
            "{prefixes:?}"
        );
        assert!(
            prefixes.contains(&("~lib".to_string(), PathBuf::from("packages/lib"))),
            "{prefixes:?}"
        );
        assert!(
            runners
                .aliases
                .iter()
                .any(|a| matches!(a, Alias::Pattern { replacement, .. } if replacement == "app/$1"))
        );
    }

    #[test]
    fn unreadable_configs_are_reported_and_leave_the_conventions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("vitest.config.ts"),
            "export default { test: { include: [\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("package.json"), "{ \"jest\": ").unwrap();
        let runners = Runners::load_at(dir.path(), &[]);
        assert_eq!(runners.decides(Path::new("src/a.test.ts")), None);
        assert_eq!(runners.problems.len(), 2, "{:?}", runners.problems);
        assert!(runners.problems[0].starts_with("vitest.config.ts has syntax errors"));
        assert!(runners.problems[1].starts_with("package.json is not valid JSON"));
    }

    #[test]
    fn a_computed_include_leaves_the_conventions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("vitest.config.mjs"),
            "const patterns = ['x/**']\nexport default { test: { include: patterns } }\n",
        )
        .unwrap();
        let runners = Runners::load_at(dir.path(), &[]);
        assert_eq!(runners.decides(Path::new("src/a.test.ts")), None);
    }

    #[test]
    fn jest_test_regex_sees_absolute_looking_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"jest": {"testRegex": "(/__tests__/.*|(\\.|/)(test|spec))\\.[jt]sx?$"}}"#,
        )
        .unwrap();
        let runners = Runners::load_at(dir.path(), &[]);
        assert_eq!(runners.decides(Path::new("__tests__/a.js")), Some(true));
        assert_eq!(runners.decides(Path::new("src/a.spec.tsx")), Some(true));
        assert_eq!(runners.decides(Path::new("src/a.js")), Some(false));
    }
}
