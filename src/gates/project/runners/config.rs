//! Reading one runner config written as code (`vitest.config.ts`,
//! `jest.config.js`) with tree-sitter: its `key: value` pairs, string
//! literals, `test` blocks and inline projects, and import aliases.

use std::path::{Path, PathBuf};

use super::*;

/// One config file being read.
pub(super) struct Config<'a> {
    pub(super) source: &'a [u8],
    /// Its directory, repository-relative.
    pub(super) dir: &'a Path,
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
    pub(super) fn strings(&self, node: &Node) -> Option<Vec<String>> {
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
    pub(super) fn pairs<'t>(&self, root: &Node<'t>) -> Vec<(String, Option<String>, Node<'t>)> {
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

    pub(super) fn vitest(&self, root: &Node, matcher: &mut Matcher, aliases: &mut Vec<Alias>) -> bool {
        for (key, parent, value) in self.pairs(root) {
            if (key.as_str(), parent.as_deref()) == ("alias", Some("resolve")) {
                self.vite_aliases(&value, aliases);
            }
        }
        // Every `test: { .. }` block: the config's own, and each inline
        // project's (`test.projects: [{ extends: true, test: { .. } }]`).
        let mut blocks: Vec<Node> = Vec::new();
        visit_named(*root, |n| {
            if n.kind() == "pair"
                && self.key(&n).as_deref() == Some("test")
                && let Some(value) = n.child_by_field_name("value").filter(|v| v.kind() == "object")
            {
                blocks.push(value);
            }
            true
        });
        let Some(&outer) = blocks.first() else { return false };
        let projects = self
            .field(&outer, "projects")
            .or_else(|| self.field(&outer, "workspace"));
        let Some(projects) = projects.filter(|p| p.kind() == "array") else {
            return match self.project(&outer, None) {
                Block::Project(project) => {
                    matcher.projects.push(project);
                    true
                }
                Block::Silent | Block::Computed => false,
            };
        };
        let mut cursor = projects.walk();
        for entry in projects.named_children(&mut cursor).filter(|c| c.kind() != "comment") {
            let test = (entry.kind() == "object")
                .then(|| self.field(&entry, "test"))
                .flatten()
                .filter(|t| t.kind() == "object");
            let inherits = self
                .field(&entry, "extends")
                .is_some_and(|e| text(&e, self.source) == "true");
            match test {
                Some(test) => match self.project(&test, inherits.then_some(&outer)) {
                    Block::Project(project) => matcher.projects.push(project),
                    Block::Silent => {
                        matcher.projects.push(Project {
                            include: globset(&[VITEST_INCLUDE.to_string()])
                                .expect("vitest's default include is a glob"),
                            exclude: None,
                        });
                    }
                    Block::Computed => matcher.open = true,
                },
                // A path to another config, or a project built at run time.
                None => matcher.open = true,
            }
        }
        true
    }

    /// The project a `test` block makes: its `include` (else the one it
    /// extends, else vitest's default) without its `exclude` (likewise; an
    /// entry not written as a string, `...configDefaults.exclude`, is left
    /// out).
    fn project(&self, test: &Node, extends: Option<&Node>) -> Block {
        let value = |name: &str| {
            self.field(test, name)
                .or_else(|| extends.and_then(|outer| self.field(outer, name)))
        };
        let (include, exclude) = (value("include"), value("exclude"));
        if include.is_none() && exclude.is_none() {
            return Block::Silent;
        }
        let include = match include {
            Some(include) => match self.strings(&include).and_then(|g| globset(&g)) {
                Some(include) => include,
                None => return Block::Computed,
            },
            None => globset(&[VITEST_INCLUDE.to_string()]).expect("vitest's default include is a glob"),
        };
        let exclude = exclude.and_then(|e| {
            let mut cursor = e.walk();
            let literal: Vec<String> = match self.string(&e) {
                Some(one) => vec![one],
                None => e.named_children(&mut cursor).filter_map(|c| self.string(&c)).collect(),
            };
            globset(&literal)
        });
        Block::Project(Project { include, exclude })
    }

    /// The value of `object`'s own property `name`.
    fn field<'t>(&self, object: &Node<'t>, name: &str) -> Option<Node<'t>> {
        let mut cursor = object.walk();
        let found = object
            .named_children(&mut cursor)
            .find(|p| p.kind() == "pair" && self.key(p).as_deref() == Some(name));
        found.and_then(|p| p.child_by_field_name("value"))
    }

    pub(super) fn jest(&self, root: &Node, matcher: &mut Matcher, aliases: &mut Vec<Alias>) -> bool {
        let mut found = false;
        for (key, parent, value) in self.pairs(root) {
            // Top-level keys only (`projects` entries carry their own).
            if parent.is_some() {
                continue;
            }
            match key.as_str() {
                "testMatch" => {
                    if let Some(include) = self.strings(&value).and_then(|g| globset(&g)) {
                        matcher.projects.push(Project { include, exclude: None });
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

    /// The modules a `setupFiles`-like value names, repository-relative:
    /// strings (`'<rootDir>/jest.setup.js'`, `'./test/setup.ts'`) and paths
    /// built from `__dirname` (`resolve(__dirname, 'setup.ts')`).
    pub(super) fn setup_modules(&self, value: &Node) -> Vec<PathBuf> {
        let one = |node: &Node| match self.string(node) {
            Some(module) => Some(setup_path(&module, self.dir)),
            None => self.path(node),
        };
        if value.kind() != "array" {
            return one(value).into_iter().collect();
        }
        let mut cursor = value.walk();
        value
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .filter_map(|c| one(&c))
            .collect()
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
