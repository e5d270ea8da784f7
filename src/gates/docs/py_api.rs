//! What a Python package's modules make public, read from their syntax:
//!
//! - what a private module (`pkg/_impl.py`, `pkg/_sub/x.py`) gives the
//!   public package above it ([`Modules::exposed`]): the names that
//!   package's namespace takes from it, through `from ._impl import a as b`,
//!   `from ._sub import *` and the chains of them, as `__all__` says;
//! - which base-class method documents an override
//!   ([`Modules::inherits_doc`]): `help()` and Sphinx show the first
//!   docstring up the class's bases.
//!
//! Only files inside the repository are opened.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::lang::Lang;
use crate::lang::syntax::Node;

/// How deep imports and base classes are followed.
const MAX_DEPTH: usize = 12;

/// At most this many files of a package are looked through for the
/// subclasses that implement a stub.
const MAX_FILES: usize = 2_000;

/// A module's top-level bindings and classes, as far as they are written
/// in the file.
#[derive(Default)]
struct Module {
    /// In source order; a later binding of a name wins.
    bindings: Vec<Binding>,
    /// `__all__`, when the module sets it.
    all: Option<Vec<String>>,
    /// Class name -> its bases (as written) and methods (name -> documented).
    classes: HashMap<String, Class>,
}

#[derive(Default)]
struct Class {
    /// As written: `Base`, or `module.Base`.
    bases: Vec<String>,
    methods: HashMap<String, bool>,
    /// Methods declared by a stub whose body is only `...` (a mixin's or a
    /// protocol's declaration of what a subclass implements).
    stubs: HashSet<String>,
}

enum Binding {
    /// `def name`, `class name`, `name = ..`.
    Here(String),
    /// `from module import name as alias`: (alias, module file, name).
    From(String, PathBuf, String),
    /// `from module import *`.
    Star(PathBuf),
}

/// Where a name a module binds was defined: (file, name there).
type Origin = (PathBuf, String);

/// The modules of one repository, parsed once each.
pub struct Modules<'r> {
    root: &'r Path,
    parsed: HashMap<PathBuf, Rc<Module>>,
    namespaces: HashMap<PathBuf, Rc<BTreeMap<String, Origin>>>,
}

impl<'r> Modules<'r> {
    pub fn new(root: &'r Path) -> Modules<'r> {
        Modules {
            root,
            parsed: HashMap::new(),
            namespaces: HashMap::new(),
        }
    }

    fn module(&mut self, file: &Path) -> Rc<Module> {
        if let Some(m) = self.parsed.get(file) {
            return m.clone();
        }
        let module = Rc::new(
            crate::walk::read_file(self.root, file)
                .ok()
                .and_then(|source| read_module(self.root, file, &source))
                .unwrap_or_default(),
        );
        self.parsed.insert(file.to_path_buf(), module.clone());
        module
    }

    /// Every name `file` binds at the top level, with where it was defined.
    fn namespace(&mut self, file: &Path, depth: usize) -> Rc<BTreeMap<String, Origin>> {
        if let Some(n) = self.namespaces.get(file) {
            return n.clone();
        }
        // A cycle of imports reads the module as empty on the way round.
        self.namespaces.insert(file.to_path_buf(), Rc::default());
        let module = self.module(file);
        let mut names = BTreeMap::new();
        for binding in &module.bindings {
            match binding {
                Binding::Here(name) => {
                    names.insert(name.clone(), (file.to_path_buf(), name.clone()));
                }
                Binding::From(alias, from, name) => {
                    let origin = (depth < MAX_DEPTH)
                        .then(|| self.namespace(from, depth + 1).get(name).cloned())
                        .flatten()
                        .unwrap_or_else(|| (from.clone(), name.clone()));
                    names.insert(alias.clone(), origin);
                }
                Binding::Star(from) if depth < MAX_DEPTH => {
                    for (name, origin) in self.exported(from, depth + 1).iter() {
                        names.insert(name.clone(), origin.clone());
                    }
                }
                Binding::Star(_) => {}
            }
        }
        let names = Rc::new(names);
        self.namespaces.insert(file.to_path_buf(), names.clone());
        names
    }

    /// The names `from file import *` takes: `__all__`, else every name
    /// not starting with `_`.
    fn exported(&mut self, file: &Path, depth: usize) -> BTreeMap<String, Origin> {
        let all = self.module(file).all.clone();
        let names = self.namespace(file, depth);
        names
            .iter()
            .filter(|(name, _)| match &all {
                Some(all) => all.contains(name),
                None => !name.starts_with('_'),
            })
            .map(|(n, o)| (n.clone(), o.clone()))
            .collect()
    }

    /// For a module in a private place (`pkg/_impl.py`, `pkg/_sub/x.py`):
    /// the names of it the nearest public package above it exposes, under
    /// whatever name; `None` for a public module (its own names and
    /// `__all__` decide).
    pub fn exposed(&mut self, file: &Path) -> Option<HashSet<String>> {
        let chain = package_chain(self.root, file);
        // The deepest package above the file with no private part on the way.
        let private_at = chain.iter().position(|(_, name)| private(name))?;
        let mut exposing: Vec<PathBuf> = Vec::new();
        if private_at > 0 {
            exposing.push(chain[private_at - 1].0.join("__init__.py"));
        } else {
            // A private top-level package (`_impl/`) is exposed through the
            // public top-level packages beside it.
            let parent = chain[0].0.parent().unwrap_or(Path::new(""));
            let mut siblings: Vec<PathBuf> = std::fs::read_dir(self.root.join(parent))
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| !private(n))
                .map(|n| parent.join(n))
                .filter(|p| self.root.join(p).join("__init__.py").is_file())
                .collect();
            siblings.sort();
            siblings.truncate(16);
            exposing.extend(siblings.into_iter().map(|p| p.join("__init__.py")));
        }
        let mut names = HashSet::new();
        for package in exposing {
            for (file_there, name) in self.exported(&package, 0).values() {
                if file_there == file {
                    names.insert(name.clone());
                }
            }
        }
        Some(names)
    }

    /// Does a base class of `class` (in `file`) document a method `method`,
    /// the first docstring up the bases, as `inspect.getdoc` finds it?
    pub fn inherits_doc(&mut self, file: &Path, class: &str, method: &str) -> bool {
        self.in_bases(file, class, method, true).is_some()
    }

    /// The base class of `class` (in `file`) that defines a method
    /// `method`, documented or not, with its file (empty for a base of the
    /// standard library): the class had the method by inheritance before
    /// it wrote its own.
    pub fn overrides(&mut self, file: &Path, class: &str, method: &str) -> Option<(PathBuf, String)> {
        self.in_bases(file, class, method, false)
    }

    /// Up the bases of `class`, as `inspect.getdoc` goes: the first that
    /// defines `method` (with a docstring, when `documented`), and its
    /// file. A base of the standard library defines and documents its
    /// methods.
    fn in_bases(&mut self, file: &Path, class: &str, method: &str, documented: bool) -> Option<(PathBuf, String)> {
        let mut seen = HashSet::new();
        let mut queue = vec![(file.to_path_buf(), class.to_string(), 0usize)];
        let mut first = true;
        while let Some((file, class, depth)) = queue.pop() {
            if depth > MAX_DEPTH || !seen.insert((file.clone(), class.clone())) {
                continue;
            }
            let module = self.module(&file);
            let Some(found) = module.classes.get(&class) else {
                continue;
            };
            if !first && found.methods.get(method).is_some_and(|&has_doc| has_doc || !documented) {
                return Some((file, class));
            }
            first = false;
            let namespace = self.namespace(&file, 0);
            // Bases in order: the first is searched first.
            for base in found.bases.iter().rev() {
                match self.base_origin(&file, &namespace, base) {
                    Some((there, name)) => queue.push((there, name, depth + 1)),
                    // A base of the standard library documents its methods.
                    None if stdlib_member(base, method) => return Some((PathBuf::new(), base.clone())),
                    None => {}
                }
            }
        }
        None
    }

    /// Where a base class as written in `file` (`Base`, `module.Base`) was
    /// defined: a name the module binds, or a class of a submodule it
    /// imports (`from . import sessions` then `sessions.Base`).
    fn base_origin(&mut self, file: &Path, namespace: &BTreeMap<String, Origin>, base: &str) -> Option<Origin> {
        let Some((module, class)) = base.split_once('.') else {
            return namespace.get(base).cloned();
        };
        let (there, name) = namespace.get(module)?;
        let dir = there.parent()?;
        let submodule = [dir.join(format!("{name}.py")), dir.join(name).join("__init__.py")]
            .into_iter()
            .find(|p| p != file && crate::walk::inside(self.root, p).is_ok() && self.root.join(p).is_file())?;
        self.namespace(&submodule, 0).get(class).cloned()
    }

    /// Is the method `method` of `class` (in `file`) a stub (its body only
    /// `...`) that a subclass in the repository implements with a
    /// docstring? A mixin or a protocol declares what its subclasses do,
    /// and their documentation is the method's. Subclasses are looked for
    /// in the files of the class's top-level package that name it.
    pub fn implemented_with_doc(&mut self, file: &Path, class: &str, method: &str) -> bool {
        let stub = self
            .module(file)
            .classes
            .get(class)
            .is_some_and(|c| c.stubs.contains(method));
        if !stub {
            return false;
        }
        let top = package_chain(self.root, file).first().map_or_else(
            || file.parent().unwrap_or(Path::new("")).to_path_buf(),
            |(dir, _)| dir.clone(),
        );
        let target = (file.to_path_buf(), class.to_string());
        for candidate in self.python_files(&top) {
            let named = crate::walk::read_file(self.root, &candidate)
                .is_ok_and(|bytes| memchr::memmem::find(&bytes, class.as_bytes()).is_some());
            if !named {
                continue;
            }
            let module = self.module(&candidate);
            let implementing: Vec<String> = module
                .classes
                .iter()
                .filter(|(_, c)| c.methods.get(method) == Some(&true) && !c.bases.is_empty())
                .map(|(name, _)| name.clone())
                .collect();
            for subclass in implementing {
                if (candidate.as_path(), subclass.as_str()) != (file, class)
                    && self.descends(&candidate, &subclass, &target)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Is `class` (in `file`) `target`, or a class whose bases lead to it?
    fn descends(&mut self, file: &Path, class: &str, target: &Origin) -> bool {
        let mut seen = HashSet::new();
        let mut queue = vec![(file.to_path_buf(), class.to_string(), 0usize)];
        while let Some((file, class, depth)) = queue.pop() {
            if (&file, &class) == (&target.0, &target.1) {
                return true;
            }
            if depth > MAX_DEPTH || !seen.insert((file.clone(), class.clone())) {
                continue;
            }
            let module = self.module(&file);
            let Some(found) = module.classes.get(&class) else {
                continue;
            };
            let namespace = self.namespace(&file, 0);
            for base in &found.bases {
                if let Some((there, name)) = self.base_origin(&file, &namespace, base) {
                    queue.push((there, name, depth + 1));
                }
            }
        }
        false
    }

    /// The Python files under `dir` (repo-relative), at most [`MAX_FILES`].
    fn python_files(&self, dir: &Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(dir) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(self.root.join(&dir)) else {
                continue;
            };
            let mut entries: Vec<(String, bool)> = entries
                .filter_map(|e| e.ok())
                .filter_map(|e| Some((e.file_name().into_string().ok()?, e.file_type().ok()?.is_dir())))
                .filter(|(name, _)| !name.starts_with('.') && name != "__pycache__")
                .collect();
            entries.sort();
            for (name, is_dir) in entries {
                if is_dir {
                    pending.push(dir.join(name));
                } else if name.ends_with(".py") && found.len() < MAX_FILES {
                    found.push(dir.join(name));
                }
            }
        }
        found
    }
}

/// Is a package or module name private (`_impl`, not `__init__`)?
fn private(name: &str) -> bool {
    name.starts_with('_') && !(name.starts_with("__") && name.ends_with("__"))
}

/// The packages from the top-level one down to the file's module:
/// (folder, name) for each package, then (folder, stem) for the module
/// itself unless it is an `__init__.py`.
fn package_chain(root: &Path, file: &Path) -> Vec<(PathBuf, String)> {
    let mut chain = Vec::new();
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let mut dir = file.parent();
    while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty() && root.join(d).join("__init__.py").is_file()) {
        chain.push((
            d.to_path_buf(),
            d.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string(),
        ));
        dir = d.parent();
    }
    chain.reverse();
    if stem != "__init__" {
        chain.push((file.parent().unwrap_or(Path::new("")).to_path_buf(), stem.to_string()));
    }
    chain
}

/// The module file a `from X import` in `file` names, if it is in the
/// repository; `packages` is the folder holding the file's top-level
/// package, where an absolute import starts.
fn resolve(root: &Path, file: &Path, packages: Option<&Path>, module: &str) -> Option<PathBuf> {
    let dots = module.len() - module.trim_start_matches('.').len();
    let rest = &module[dots..];
    let base = if dots > 0 {
        let mut base = file.parent()?.to_path_buf();
        for _ in 1..dots {
            base = base.parent()?.to_path_buf();
        }
        base
    } else {
        packages?.to_path_buf()
    };
    let mut at = base;
    for part in rest.split('.').filter(|p| !p.is_empty()) {
        at.push(part);
    }
    let package = at.join("__init__.py");
    let module = at.with_extension("py");
    [package, module]
        .into_iter()
        .find(|p| crate::walk::inside(root, p).is_ok() && root.join(p).is_file())
}

fn read_module(root: &Path, file: &Path, source: &[u8]) -> Option<Module> {
    let tree = Lang::Python.parse(source)?;
    let mut module = Module::default();
    let mut statements = Vec::new();
    top_statements(tree.root_node(), &mut statements);
    let text = |n: Node<'_>| n.utf8_text(source).unwrap_or("").to_string();
    // Found once for every absolute import of the module.
    let packages = package_chain(root, file)
        .first()
        .and_then(|(top, _)| top.parent())
        .map(Path::to_path_buf);
    for statement in statements {
        match statement.kind() {
            "function_definition" | "class_definition" | "decorated_definition" => {
                let definition = match statement.kind() {
                    "decorated_definition" => match statement.child_by_field_name("definition") {
                        Some(d) => d,
                        None => continue,
                    },
                    _ => statement,
                };
                let Some(name) = definition.child_by_field_name("name").map(text) else {
                    continue;
                };
                if definition.kind() == "class_definition" {
                    module.classes.insert(name.clone(), class(definition, source));
                }
                module.bindings.push(Binding::Here(name));
            }
            "import_from_statement" => {
                let Some(from) = statement.child_by_field_name("module_name").map(text) else {
                    continue;
                };
                let Some(target) = resolve(root, file, packages.as_deref(), &from) else {
                    continue;
                };
                let mut cursor = statement.walk();
                if statement.children(&mut cursor).any(|c| c.kind() == "wildcard_import") {
                    module.bindings.push(Binding::Star(target));
                    continue;
                }
                let mut cursor = statement.walk();
                for name in statement.children_by_field_name("name", &mut cursor) {
                    let (name, alias) = match name.kind() {
                        "aliased_import" => (
                            name.child_by_field_name("name").map(text),
                            name.child_by_field_name("alias").map(text),
                        ),
                        _ => (Some(text(name)), None),
                    };
                    if let Some(name) = name {
                        let alias = alias.unwrap_or_else(|| name.clone());
                        module.bindings.push(Binding::From(alias, target.clone(), name));
                    }
                }
            }
            "expression_statement" => {
                let Some(first) = statement.named_child(0) else {
                    continue;
                };
                let Some(left) = first.child_by_field_name("left") else {
                    continue;
                };
                let name = text(left);
                if name == "__all__" {
                    let listed = all_names(first.child_by_field_name("right"), source);
                    match (first.kind(), &mut module.all) {
                        ("augmented_assignment", Some(all)) => all.extend(listed),
                        ("assignment", _) => module.all = Some(listed),
                        _ => {}
                    }
                } else if first.kind() == "assignment" && left.kind() == "identifier" {
                    module.bindings.push(Binding::Here(name));
                }
            }
            _ => {}
        }
    }
    Some(module)
}

/// A module's top-level statements, and those inside its top-level `if`,
/// `try` and `with` blocks (`if TYPE_CHECKING:`, `try: from ._c import x`).
fn top_statements<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind() {
            "if_statement" | "try_statement" | "with_statement" | "elif_clause" | "else_clause" | "except_clause"
            | "finally_clause" | "block" => top_statements(child, out),
            _ => out.push(child),
        }
    }
}

/// The names of a class's bases and its methods.
fn class(definition: Node<'_>, source: &[u8]) -> Class {
    let text = |n: Node<'_>| n.utf8_text(source).unwrap_or("").to_string();
    let mut class = Class::default();
    if let Some(arguments) = definition.child_by_field_name("superclasses") {
        let mut cursor = arguments.walk();
        for base in arguments.named_children(&mut cursor) {
            // `Generic[T]` is `Generic`; `metaclass=..` is not a base.
            let base = match base.kind() {
                "subscript" => base.child_by_field_name("value").unwrap_or(base),
                _ => base,
            };
            // `Base`, `module.Base` of a submodule the file imports, or a
            // library's (`collections.abc.MutableMapping`).
            if matches!(base.kind(), "identifier" | "attribute") {
                class.bases.push(text(base));
            }
        }
    }
    if let Some(body) = definition.child_by_field_name("body") {
        let mut cursor = body.walk();
        for member in body.named_children(&mut cursor) {
            let method = match member.kind() {
                "decorated_definition" => member.child_by_field_name("definition"),
                "function_definition" => Some(member),
                _ => None,
            };
            if let Some(method) = method.filter(|m| m.kind() == "function_definition")
                && let Some(name) = method.child_by_field_name("name").map(text)
            {
                let documented = super::exports::has_docstring(method);
                if stub(method) {
                    class.stubs.insert(name.clone());
                }
                // An overload stub says nothing; the implementation decides.
                let entry = class.methods.entry(name).or_insert(false);
                *entry |= documented;
            }
        }
    }
    class
}

/// Is a function's body only `...` (comments aside)?
fn stub(function: Node<'_>) -> bool {
    let Some(body) = function.child_by_field_name("body") else {
        return false;
    };
    let mut cursor = body.walk();
    let statements: Vec<Node<'_>> = body
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect();
    matches!(statements.as_slice(), [only] if only.kind() == "expression_statement"
        && only.named_child(0).is_some_and(|e| e.kind() == "ellipsis"))
}

/// The strings of `__all__`'s list or tuple (`'a', 'b'` bare too).
pub fn all_names(value: Option<Node<'_>>, source: &[u8]) -> Vec<String> {
    let Some(value) = value.filter(|v| matches!(v.kind(), "list" | "tuple" | "expression_list")) else {
        return Vec::new();
    };
    let mut cursor = value.walk();
    value
        .named_children(&mut cursor)
        .filter(|n| n.kind() == "string")
        .map(|n| {
            let mut cursor = n.walk();
            n.named_children(&mut cursor)
                .filter(|c| c.kind() == "string_content")
                .map(|c| c.utf8_text(source).unwrap_or(""))
                .collect()
        })
        .collect()
}

/// Is `method` one the standard library documents for the base class
/// written `base` (`collections.abc.MutableMapping`, `MutableMapping[str,
/// int]`, `dict`): an override of `clear` in a `MutableMapping` shows its
/// docstring in `help()` and Sphinx (issue 64: cachetools' caches).
fn stdlib_member(base: &str, method: &str) -> bool {
    const MAPPING: &[&str] = &["get", "items", "keys", "values"];
    const MUTABLE_MAPPING: &[&str] = &["clear", "pop", "popitem", "setdefault", "update"];
    const SEQUENCE: &[&str] = &["count", "index"];
    const MUTABLE_SEQUENCE: &[&str] = &["append", "clear", "extend", "insert", "pop", "remove", "reverse"];
    const SET: &[&str] = &["isdisjoint"];
    const MUTABLE_SET: &[&str] = &["add", "clear", "discard", "pop", "remove"];
    let name = base.split('[').next().unwrap_or(base).trim();
    let name = name.rsplit('.').next().unwrap_or(name);
    let members: &[&[&str]] = match name {
        "Mapping" => &[MAPPING],
        "MutableMapping" => &[MAPPING, MUTABLE_MAPPING],
        "dict" | "Dict" | "OrderedDict" | "defaultdict" | "UserDict" => {
            &[MAPPING, MUTABLE_MAPPING, &["copy", "fromkeys"]]
        }
        "Sequence" => &[SEQUENCE],
        "MutableSequence" => &[SEQUENCE, MUTABLE_SEQUENCE],
        "list" | "List" | "UserList" => &[SEQUENCE, MUTABLE_SEQUENCE, &["copy", "sort"]],
        "Set" | "AbstractSet" => &[SET],
        "MutableSet" => &[SET, MUTABLE_SET],
        "set" => &[
            SET,
            MUTABLE_SET,
            &["copy", "difference", "intersection", "union", "update"],
        ],
        _ => &[],
    };
    members.iter().any(|names| names.contains(&method))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::project::py_dist::tests::repo;
    #[test]
    fn a_private_module_is_public_as_far_as_a_public_package_takes_it() {
        let dir = repo(&[
            (
                "pkg/__init__.py",
                "from ._impl import Loader, parse as load\nfrom ._sub import *\nfrom . import _hidden\n__all__ = ['Loader', 'load', 'Transport']\n",
            ),
            (
                "pkg/_impl.py",
                "def parse(): pass\ndef helper(): pass\nclass Loader: pass\n",
            ),
            (
                "pkg/_sub/__init__.py",
                "from .base import *\nfrom .extra import Extra\n",
            ),
            (
                "pkg/_sub/base.py",
                "__all__ = 'Transport', 'Other'\nclass Transport: pass\nclass Other: pass\ndef unlisted(): pass\n",
            ),
            ("pkg/_sub/extra.py", "class Extra: pass\n"),
            ("pkg/_hidden.py", "def anything(): pass\n"),
            ("pkg/public.py", "def f(): pass\n"),
            ("pkg/cycle_a/__init__.py", "from ._x import *\n"),
            (
                "pkg/cycle_a/_x.py",
                "from . import *\nfrom ._x import *\ndef X(): pass\n",
            ),
        ]);
        let mut modules = Modules::new(dir.path());
        let mut exposed = |p: &str| {
            modules.exposed(Path::new(p)).map(|s| {
                let mut v: Vec<String> = s.into_iter().collect();
                v.sort();
                v
            })
        };
        assert_eq!(exposed("pkg/public.py"), None);
        assert_eq!(exposed("pkg/_impl.py"), Some(vec!["Loader".into(), "parse".into()]));
        // Through `from ._sub import *` and `from .base import *`, as `__all__`s allow.
        assert_eq!(exposed("pkg/_sub/base.py"), Some(vec!["Transport".into()]));
        assert_eq!(exposed("pkg/_sub/extra.py"), Some(vec![]));
        assert_eq!(exposed("pkg/_hidden.py"), Some(vec![]));
        // Imports that go round in a cycle end.
        assert_eq!(exposed("pkg/cycle_a/_x.py"), Some(vec!["X".into()]));
    }

    #[test]
    fn an_override_inherits_the_docstring_of_the_method_it_overrides() {
        let dir = repo(&[
            ("pkg/__init__.py", ""),
            (
                "pkg/base.py",
                "class Base:\n    def run(self):\n        \"\"\"Runs.\"\"\"\n    def stop(self):\n        pass\n",
            ),
            (
                "pkg/mid.py",
                "from .base import Base as Root\nclass Mid(Root):\n    def stop(self):\n        pass\n",
            ),
            (
                "pkg/leaf.py",
                "import typing\nfrom .mid import Mid\nclass Leaf(Mid, typing.Generic):\n    def run(self):\n        pass\n    def stop(self):\n        pass\n    def new(self):\n        pass\nclass Own:\n    def run(self):\n        pass\nclass Loop(Loop2):\n    def run(self): pass\nclass Loop2(Loop):\n    def run(self): pass\n",
            ),
        ]);
        let mut modules = Modules::new(dir.path());
        let leaf = Path::new("pkg/leaf.py");
        assert!(
            modules.inherits_doc(leaf, "Leaf", "run"),
            "two classes up, under an alias"
        );
        assert!(
            !modules.inherits_doc(leaf, "Leaf", "stop"),
            "documented nowhere up the bases"
        );
        assert!(!modules.inherits_doc(leaf, "Leaf", "new"));
        assert!(!modules.inherits_doc(leaf, "Own", "run"), "no base");
        assert!(!modules.inherits_doc(leaf, "Loop", "run"), "a cycle of bases ends");
    }

    #[test]
    fn an_override_of_a_standard_library_base_inherits_its_documentation() {
        let dir = repo(&[
            ("pkg/__init__.py", ""),
            (
                "pkg/cache.py",
                "import collections.abc
from typing import MutableMapping
class Cache(collections.abc.MutableMapping):
    def clear(self):
        pass
    def evict(self):
        pass
class LRU(Cache):
    def clear(self):
        pass
    def popitem(self):
        pass
class Typed(MutableMapping[str, int]):
    def update(self):
        pass
class Plain(Exception):
    def clear(self):
        pass
",
            ),
        ]);
        let mut modules = Modules::new(dir.path());
        let file = Path::new("pkg/cache.py");
        assert!(modules.inherits_doc(file, "Cache", "clear"), "MutableMapping.clear");
        assert!(modules.inherits_doc(file, "LRU", "clear"), "through a project base");
        assert!(modules.inherits_doc(file, "LRU", "popitem"));
        assert!(modules.inherits_doc(file, "Typed", "update"), "a subscripted base");
        assert!(!modules.inherits_doc(file, "Cache", "evict"), "a method of its own");
        assert!(
            !modules.inherits_doc(file, "Plain", "clear"),
            "not a member of that base"
        );
    }

    /// requests 561e4b6889f5: `SessionRedirectMixin.send` is a typing stub
    /// (`...`) that `Session(SessionRedirectMixin)` implements, documented.
    #[test]
    fn a_stub_is_documented_by_the_subclass_that_implements_it() {
        let dir = repo(&[
            ("pkg/__init__.py", ""),
            (
                "pkg/sessions.py",
                "class Mixin:\n    def send(self, r) -> int: ...\n    def close(self) -> None: ...\n    def undone(self): ...\n    def body(self):\n        return 1\nclass Session(Mixin):\n    def send(self, r):\n        \"\"\"Send it.\"\"\"\n    def body(self):\n        \"\"\"A body.\"\"\"\n",
            ),
            (
                "pkg/proto.py",
                "class Proto:\n    def read(self) -> bytes: ...\n    def seek(self) -> int: ...\n",
            ),
            (
                "pkg/impl.py",
                "from . import proto\nclass File(proto.Proto):\n    def read(self):\n        \"\"\"Read all.\"\"\"\nclass Other:\n    def seek(self):\n        \"\"\"Not a subclass.\"\"\"\n",
            ),
        ]);
        let mut modules = Modules::new(dir.path());
        let sessions = Path::new("pkg/sessions.py");
        assert!(modules.implemented_with_doc(sessions, "Mixin", "send"));
        assert!(
            !modules.implemented_with_doc(sessions, "Mixin", "undone"),
            "no implementation"
        );
        assert!(
            !modules.implemented_with_doc(sessions, "Mixin", "body"),
            "not a stub: its own body"
        );
        assert!(
            modules.implemented_with_doc(Path::new("pkg/proto.py"), "Proto", "read"),
            "a subclass in another file, its base named through the module"
        );
        assert!(
            !modules.implemented_with_doc(Path::new("pkg/proto.py"), "Proto", "seek"),
            "a class of the same method name that does not derive from it"
        );
        // An override inherits through a dotted base too.
        assert!(!modules.inherits_doc(Path::new("pkg/impl.py"), "File", "seek"));
    }
}
