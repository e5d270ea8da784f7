//! The published API of a JavaScript or TypeScript package: what its entry
//! points (`package.json` `exports`, `main`, `module`, `types`) expose,
//! followed through re-exports (`export * from`, `export { a } from`, and
//! `import { a } from` then `export { a }`). A symbol exported from a module
//! no entry point reaches is the package's internals, not its API.

use crate::gates::project::resolve::BUILD_DIRS;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use super::files::Files;
use crate::git::display_path;
use crate::lang::Lang;

/// At most this many modules are read to follow one package's re-exports.
const MAX_MODULES: usize = 2_000;

/// At most this many (module, what of it) steps are taken.
const MAX_STEPS: usize = 50_000;

/// How deep namespaces nest in a name the API exposes (`z.core.util.x`).
const MAX_NESTING: usize = 3;

/// Source folders a build's output comes from.
const SOURCE_DIRS: &[&str] = &["src", "source", "lib", ""];

/// Source extensions tried for an entry point or a specifier, in order.
const EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/// What a package's entry points expose: whole modules (every export) and
/// single names of modules, each with the names a user imports it by: an
/// entry point's source and a dotted name (`src/index.ts#z.input`).
#[derive(Debug, Default)]
pub struct Api {
    /// Module -> the prefixes its exports take (`src/index.ts#`, `src/index.ts#z.`).
    whole: HashMap<PathBuf, BTreeSet<String>>,
    /// (module, a name there) -> the names it is exposed as.
    names: HashMap<(PathBuf, String), BTreeSet<String>>,
    /// Source folders a subpath pattern exposes (`"./utils/*": "./dist/utils/*.js"`).
    folders: Vec<PathBuf>,
    /// JavaScript modules published through the declarations beside them
    /// (`index.js` -> `index.d.ts`): their docs are read there.
    typed: HashMap<PathBuf, PathBuf>,
}

/// What a step of the walk takes of a module.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Take {
    /// Every export, each under the prefix and its own name.
    All(String),
    /// One name of the module, exposed as the label.
    Name(String, String),
}

impl Api {
    /// Is `name`, exported by `file` (repo-relative), part of the API?
    pub fn exposes(&self, file: &Path, name: &str) -> bool {
        self.whole.contains_key(file)
            || self.names.contains_key(&(file.to_path_buf(), name.to_string()))
            || self.folders.iter().any(|f| file.starts_with(f))
    }

    /// The declarations an entry point's JavaScript `file` is published
    /// through, if it is.
    pub fn typed_by(&self, file: &Path) -> Option<&Path> {
        self.typed.get(file).map(PathBuf::as_path)
    }

    /// The JavaScript modules the declaration file `file` types.
    pub fn types(&self, file: &Path) -> impl Iterator<Item = &Path> {
        self.typed
            .iter()
            .filter(move |(_, d)| d.as_path() == file)
            .map(|(module, _)| module.as_path())
    }

    /// The names `name` of `file` is exposed as: an entry point and a
    /// dotted name (`src/index.ts#z.input`), or the module itself when a
    /// subpath pattern exposes it.
    pub fn labels(&self, file: &Path, name: &str) -> BTreeSet<String> {
        let mut labels: BTreeSet<String> = self
            .whole
            .get(file)
            .into_iter()
            .flatten()
            .map(|prefix| format!("{prefix}{name}"))
            .collect();
        if let Some(named) = self.names.get(&(file.to_path_buf(), name.to_string())) {
            labels.extend(named.iter().cloned());
        }
        if self.folders.iter().any(|f| file.starts_with(f)) {
            labels.insert(format!("{}#{name}", display_path(file)));
        }
        labels
    }

    /// Did this API (a base revision's, read from `files`) expose any of
    /// `labels`: `Some(documented)` of the declaration behind the first
    /// found, `Some(false)` when it cannot be read, `None` when none was
    /// exposed.
    pub fn had(&self, files: &dyn Files, labels: &BTreeSet<String>, declared: &mut Declared) -> Option<bool> {
        let mut exposed = false;
        for label in labels {
            for ((file, inner), named) in &self.names {
                if named.contains(label) {
                    exposed = true;
                    if let Some(documented) = declared.documented(files, file, inner) {
                        return Some(documented);
                    }
                }
            }
            for (file, prefixes) in &self.whole {
                for prefix in prefixes {
                    let Some(rest) = label.strip_prefix(prefix.as_str()) else {
                        continue;
                    };
                    if !rest.is_empty()
                        && !rest.contains('.')
                        && let Some(documented) = declared.documented(files, file, rest)
                    {
                        return Some(documented);
                    }
                }
            }
            if let Some((file, name)) = label.split_once('#') {
                let file = Path::new(file);
                if self.folders.iter().any(|f| file.starts_with(f))
                    && let Some(documented) = declared.documented(files, file, name)
                {
                    return Some(documented);
                }
            }
        }
        exposed.then_some(false)
    }
}

/// The exported declarations of modules, read once each: name -> documented.
#[derive(Default)]
pub struct Declared(HashMap<PathBuf, Option<Source>>);

struct Source {
    bytes: Vec<u8>,
    names: Option<HashMap<String, bool>>,
}

impl Declared {
    /// Does `file` declare the export `name`, and is it documented? The
    /// module is parsed only when its text holds the name.
    fn documented(&mut self, files: &dyn Files, file: &Path, name: &str) -> Option<bool> {
        let source = self
            .0
            .entry(file.to_path_buf())
            .or_insert_with(|| files.read(file).map(|bytes| Source { bytes, names: None }))
            .as_mut()?;
        if source.names.is_none() {
            memchr::memmem::find(&source.bytes, name.as_bytes())?;
            let language = Lang::from_path(file)?;
            let mut names = HashMap::new();
            for symbol in super::exports::exports(language, &source.bytes).unwrap_or_default() {
                *names.entry(symbol.name).or_insert(false) |= symbol.documented;
            }
            source.names = Some(names);
        }
        source.names.as_ref()?.get(name).copied()
    }
}

/// The API of the package whose `package.json` is in `dir` (repo-relative),
/// or `None` when its entry points cannot be followed to sources (none
/// declared, a subpath pattern, none found): then every export counts.
pub fn api(files: &dyn Files, dir: &Path) -> Option<Api> {
    let manifest = files.read(&dir.join("package.json"))?;
    let json: serde_json::Value = serde_json::from_slice(&manifest).ok()?;
    let mut entries = Vec::new();
    for key in ["exports", "main", "module", "types", "typings"] {
        if let Some(value) = json.get(key) {
            strings(value, &mut entries);
        }
    }
    // None declared: npm's default `main`, an `index.js` beside the
    // manifest, or the `src/index` it is built from.
    let declared = !entries.is_empty();
    if !declared {
        entries.extend(["./index.js", "./src/index.js"].map(str::to_string));
    }
    let mut api = Api::default();
    let compiled = compiled(files, dir);
    // A subpath pattern (`"./utils/*": "./dist/utils/*.js"`) exposes every
    // module of a folder. Of its conditions' paths, those whose source
    // folder is found say which; when none is, what the package exposes
    // cannot be told, and every export of it counts.
    let patterns: Vec<&String> = entries.iter().filter(|e| e.contains('*')).collect();
    for pattern in &patterns {
        let prefix = &pattern[..pattern.find('*').unwrap_or(pattern.len())];
        let folder = prefix.rsplit_once('/').map_or("", |(folder, _)| folder);
        api.folders.extend(source_folder(files, dir, folder, &compiled));
    }
    if !patterns.is_empty() && api.folders.is_empty() {
        return None;
    }
    let mut sources: Vec<PathBuf> = entries
        .iter()
        .filter(|e| !e.contains('*'))
        .filter_map(|e| source_of(files, dir, e, &compiled))
        .collect();
    for source in &sources {
        if let Some(module) = module_of(files, source) {
            api.typed.insert(module, source.clone());
        }
    }
    // The declarations `types` names are those of `main` (npm's default
    // `index.js`), whatever their file is named (`kleur.d.ts`).
    let field = |key: &str| json.get(key).and_then(|v| v.as_str());
    if let Some(declarations) = field("types").or(field("typings"))
        && TYPED_BY.iter().any(|(_, dts)| declarations.ends_with(dts))
        && let Some(declarations) = source_of(files, dir, declarations, &compiled)
        && let Some(main) = normalize(&dir.join(field("main").unwrap_or("./index.js")))
        && TYPED_BY.iter().any(|(js, _)| main.to_string_lossy().ends_with(js))
        && files.is_file(&main)
    {
        api.typed.entry(main).or_insert(declarations);
    }
    // Built by a bundler from sources its config names (tsdown's and
    // tsup's `entry`, unbuild's `entries`), in place of the entry points'.
    if sources.is_empty() && declared {
        sources = bundled(files, dir);
    }
    // Built by a script of the package's own into files named after it
    // (clsx's `builder` writes `dist/clsx.js` and `dist/clsx.mjs` from
    // `src/index.js`): the source folder's index.
    if sources.is_empty()
        && let Some(name) = json.get("name").and_then(|n| n.as_str())
    {
        let name = name.rsplit('/').next().unwrap_or(name);
        let named = entries.iter().any(|e| {
            let file = Path::new(e).file_name().and_then(|f| f.to_str()).unwrap_or("");
            file.split('.').next() == Some(name)
        });
        if named {
            sources.extend(
                SOURCE_DIRS
                    .iter()
                    .filter(|source| !source.is_empty())
                    .find_map(|source| with_extension(files, &dir.join(source).join("index"))),
            );
        }
    }
    let mut work: Vec<(PathBuf, Take)> = sources
        .into_iter()
        .map(|file| {
            let prefix = format!("{}#", display_path(&file));
            (file, Take::All(prefix))
        })
        .collect();
    if work.is_empty() && api.folders.is_empty() {
        // Nothing declared and no default `index`: nothing is imported by
        // the package's name (an app: a website, a tool's scripts).
        return (!declared).then(Api::default);
    }
    let nesting = |label: &str| {
        label
            .split_once('#')
            .map_or(0, |(_, dotted)| dotted.matches('.').count())
    };
    let mut seen: HashSet<(PathBuf, Take)> = HashSet::new();
    let mut modules: HashMap<PathBuf, Option<Vec<(PathBuf, Forward)>>> = HashMap::new();
    while let Some((file, take)) = work.pop() {
        if seen.len() > MAX_STEPS || modules.len() > MAX_MODULES || !seen.insert((file.clone(), take.clone())) {
            continue;
        }
        match &take {
            Take::All(prefix) => api.whole.entry(file.clone()).or_default().insert(prefix.clone()),
            Take::Name(inner, label) => api
                .names
                .entry((file.clone(), inner.clone()))
                .or_default()
                .insert(label.clone()),
        };
        // Each module is read, and its specifiers resolved, once.
        let forwards = modules.entry(file.clone()).or_insert_with(|| {
            Module::read(files, &file).map(|m| {
                m.forwards
                    .into_iter()
                    .filter_map(|(source, forward)| Some((resolve(files, &file, &source)?, forward)))
                    .collect()
            })
        });
        let Some(forwards) = forwards else { continue };
        for (target, forward) in forwards.iter() {
            let target = target.clone();
            match (forward, &take) {
                // `export * from` passes on what is taken.
                (Forward::All, _) => work.push((target, take.clone())),
                // `export * as ns from`, or a namespace import re-exported.
                (Forward::Namespace(alias), Take::All(prefix)) if nesting(prefix) < MAX_NESTING => {
                    work.push((target, Take::All(format!("{prefix}{alias}."))));
                }
                (Forward::Namespace(alias), Take::Name(inner, label)) if alias == inner => {
                    work.push((target, Take::All(format!("{label}."))));
                }
                (Forward::Names(pairs), Take::All(prefix)) => {
                    for (there, outer) in pairs {
                        work.push((target.clone(), Take::Name(there.clone(), format!("{prefix}{outer}"))));
                    }
                }
                (Forward::Names(pairs), Take::Name(inner, label)) => {
                    for (there, outer) in pairs {
                        if outer == inner {
                            work.push((target.clone(), Take::Name(there.clone(), label.clone())));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Some(api)
}

/// Every string in a `package.json` entry value (conditions and subpaths nest).
fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(map) => {
            for (key, v) in map {
                if key != "./package.json" {
                    strings(v, out);
                }
            }
        }
        _ => {}
    }
}

/// The bundler configs read for the sources a build starts from.
const BUNDLER_CONFIGS: &[&str] = &["tsdown.config", "tsup.config", "build.config"];

/// The sources (repo-relative) the bundler config of the package in `dir`
/// names as its entries: the strings of its `entry:` or `entries:` value
/// (`entry: ['./src/transform/index.ts']`, `entries: ['src/index']`),
/// those that are files of the package.
fn bundled(files: &dyn Files, dir: &Path) -> Vec<PathBuf> {
    let Some(text) = BUNDLER_CONFIGS
        .iter()
        .flat_map(|name| ["ts", "mts", "js", "mjs", "cjs"].map(|ext| format!("{name}.{ext}")))
        .find_map(|name| files.read(&dir.join(name)))
    else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&text);
    let mut sources = Vec::new();
    for key in ["entry", "entries"] {
        let mut rest = text.as_ref();
        while let Some(at) = rest.find(key) {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + key.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let Some(value) = rest.trim_start().strip_prefix(':') else {
                continue;
            };
            let value = value.trim_start();
            // The value: one string, or up to the bracket that closes it.
            let end = match value.chars().next() {
                Some('[') => value.find(']'),
                Some('{') => value.find('}'),
                Some('"' | '\'' | '`') => value[1..].find(&value[..1]).map(|e| e + 2),
                _ => None,
            };
            let Some(end) = end else { continue };
            for quoted in value[..end].split(['"', '\'', '`']).skip(1).step_by(2) {
                if let Some(path) = normalize(&dir.join(quoted))
                    && let Some(source) =
                        with_extension(files, &strip_extension(&path)).or(files.is_file(&path).then_some(path))
                    && !sources.contains(&source)
                {
                    sources.push(source);
                }
            }
        }
    }
    sources
}

/// The source file (repo-relative) an entry point of the package in `dir`
/// is built from: the file itself when it is a source, else the same path
/// under a source folder in place of the build folder, with a source
/// extension.
fn source_of(files: &dyn Files, dir: &Path, entry: &str, compiled: &[(PathBuf, PathBuf)]) -> Option<PathBuf> {
    let rel = normalize(&dir.join(entry))?;
    let within = rel.strip_prefix(dir).ok()?.to_path_buf();
    // Declarations written by hand beside the code (`"types": "./index.d.ts"`
    // next to `index.js`) are the package's typed API themselves.
    let built = within
        .iter()
        .next()
        .and_then(|c| c.to_str())
        .is_some_and(|c| BUILD_DIRS.contains(&c));
    let declarations = [".d.ts", ".d.mts", ".d.cts"].iter().any(|e| entry.ends_with(e));
    if declarations && !built && files.is_file(&rel) {
        return Some(rel);
    }
    let stem = strip_extension(&within);
    let mut candidates = vec![stem.clone()];
    // What the package's tsconfig compiles into `outDir`, from `rootDir`.
    for (out, from) in compiled {
        if let Ok(rest) = stem.strip_prefix(out) {
            candidates.push(from.join(rest));
        }
    }
    // `dist/x.js`, `dist/types/x.d.ts` -> `x`, under each source folder.
    let mut parts: Vec<&str> = stem.iter().filter_map(|c| c.to_str()).collect();
    // A manifest copied into the build folder when the package is published
    // (date-fns): its entries (`./index.js`, `./add.js`) name that folder's
    // files, built from a source folder (`src/index.ts`, `src/add/index.ts`).
    if !parts.first().is_some_and(|p| BUILD_DIRS.contains(p)) {
        candidates.extend(SOURCE_DIRS.iter().map(|source| Path::new(source).join(&stem)));
    }
    while parts.first().is_some_and(|p| BUILD_DIRS.contains(p)) {
        parts.remove(0);
        let rest: PathBuf = parts.iter().collect();
        for source in SOURCE_DIRS {
            candidates.push(Path::new(source).join(&rest));
        }
    }
    let source = candidates.iter().find_map(|c| with_extension(files, &dir.join(c)))?;
    Some(declarations_of(files, &source).unwrap_or(source))
}

/// A JavaScript module and the declaration file TypeScript reads its types
/// from, written beside it.
const TYPED_BY: [(&str, &str); 3] = [(".js", ".d.ts"), (".mjs", ".d.mts"), (".cjs", ".d.cts")];

/// The declaration file written beside a JavaScript module, where
/// TypeScript looks for its types (`x.js` -> `x.d.ts`, `x.mjs` -> `x.d.mts`,
/// `x.cjs` -> `x.d.cts`): what the package's users see of the module, its
/// docs included, in place of the untyped code.
fn declarations_of(files: &dyn Files, module: &Path) -> Option<PathBuf> {
    beside(files, module, |(js, dts)| (js, dts))
}

/// The JavaScript module a declaration file is written beside, the
/// reverse of [`declarations_of`].
fn module_of(files: &dyn Files, declarations: &Path) -> Option<PathBuf> {
    beside(files, declarations, |(js, dts)| (dts, js))
}

/// The file beside `path` whose extension is the other of one of
/// [`TYPED_BY`]'s pairs, `(from, to)` as `order` takes them, if it exists.
fn beside(
    files: &dyn Files,
    path: &Path,
    order: fn((&'static str, &'static str)) -> (&'static str, &'static str),
) -> Option<PathBuf> {
    let text = path.to_str()?;
    let found = TYPED_BY.iter().find_map(|&pair| {
        let (from, to) = order(pair);
        Some(PathBuf::from(format!("{}{to}", text.strip_suffix(from)?)))
    })?;
    files.is_file(&found).then_some(found)
}

/// The source folder (repo-relative) a build folder an entry pattern names
/// (`./dist/utils`) is built from: `src/utils`, `source/utils`, ...
fn source_folder(files: &dyn Files, dir: &Path, folder: &str, compiled: &[(PathBuf, PathBuf)]) -> Option<PathBuf> {
    let rel = normalize(&dir.join(folder))?;
    let within = rel.strip_prefix(dir).ok()?.to_path_buf();
    let mut candidates = vec![within.clone()];
    for (out, from) in compiled {
        if let Ok(rest) = within.strip_prefix(out) {
            candidates.push(from.join(rest));
        }
    }
    let mut parts: Vec<&str> = within.iter().filter_map(|c| c.to_str()).collect();
    while parts.first().is_some_and(|p| BUILD_DIRS.contains(p)) {
        parts.remove(0);
        let rest: PathBuf = parts.iter().collect();
        for source in SOURCE_DIRS {
            candidates.push(Path::new(source).join(&rest));
        }
    }
    candidates
        .into_iter()
        .map(|c| dir.join(c))
        // Only a prefix to compare paths with: nothing under it is read here.
        .find(|c| !c.as_os_str().is_empty() && files.is_dir(c))
}

/// The folders the package's TypeScript build writes (`outDir`,
/// `declarationDir`), each with the folder it compiles from (`rootDir`, or
/// the first folder `include` names), package-relative, from
/// `tsconfig.json` or `tsconfig.build.json` (no `extends` followed).
fn compiled(files: &dyn Files, dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut pairs = Vec::new();
    for name in ["tsconfig.build.json", "tsconfig.json"] {
        let Some(bytes) = files.read(&dir.join(name)) else {
            continue;
        };
        let Ok(config) =
            serde_json::from_str::<serde_json::Value>(&crate::formats::jsonc(&String::from_utf8_lossy(&bytes)))
        else {
            continue;
        };
        let options = config.get("compilerOptions");
        let folder = |v: Option<&serde_json::Value>| {
            let text = v?.as_str()?;
            let plain = text.split(['*', '?']).next().unwrap_or("");
            normalize(Path::new(plain.trim_start_matches("./").trim_end_matches('/')))
        };
        let from = folder(options.and_then(|o| o.get("rootDir")))
            .or_else(|| folder(config.get("include").and_then(|i| i.get(0))))
            .unwrap_or_default();
        for key in ["outDir", "declarationDir"] {
            if let Some(out) = folder(options.and_then(|o| o.get(key))).filter(|o| !o.as_os_str().is_empty()) {
                pairs.push((out, from.clone()));
            }
        }
    }
    pairs
}

/// `path` without a JavaScript or declaration extension (`x.d.ts` -> `x`).
fn strip_extension(path: &Path) -> PathBuf {
    let text = path.to_string_lossy();
    for ext in [
        ".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
    ] {
        if let Some(stem) = text.strip_suffix(ext) {
            return PathBuf::from(stem);
        }
    }
    path.to_path_buf()
}

/// The source file `stem` names: itself with a source extension, or its
/// `index` file.
fn with_extension(files: &dyn Files, stem: &Path) -> Option<PathBuf> {
    EXTENSIONS
        .iter()
        .map(|ext| PathBuf::from(format!("{}.{ext}", stem.display())))
        .chain(EXTENSIONS.iter().map(|ext| stem.join(format!("index.{ext}"))))
        .find(|p| files.is_file(p))
}

/// The module a relative specifier of `from` names (`./a`, `../b/index.js`).
fn resolve(files: &dyn Files, from: &Path, specifier: &str) -> Option<PathBuf> {
    if !specifier.starts_with('.') {
        return None;
    }
    let path = normalize(&from.parent()?.join(specifier))?;
    if crate::lang::Lang::from_path(&path).is_some() && files.is_file(&path) {
        return Some(path);
    }
    with_extension(files, &strip_extension(&path))
}

/// `path` with `.` and `..` folded; `None` when it climbs out of the repository.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            _ => return None,
        }
    }
    Some(out)
}

/// What a module passes on from others.
#[derive(Debug)]
enum Forward {
    /// `export * from 's'`.
    All,
    /// `export * as ns from 's'`, or `import * as ns from 's'; export { ns }`.
    Namespace(String),
    /// `export { a as b } from 's'`, or `import { a as b }` then `export { b }`:
    /// (the name in `s`, the name exported).
    Names(Vec<(String, String)>),
}

#[derive(Debug)]
struct Module {
    /// By source specifier.
    forwards: Vec<(String, Forward)>,
}

impl Module {
    fn read(files: &dyn Files, file: &Path) -> Option<Module> {
        let language =
            Lang::from_path(file).filter(|l| matches!(l, Lang::JavaScript | Lang::TypeScript | Lang::Tsx))?;
        let source = files.read(file)?;
        let tree = language.parse_tree(&source)?;
        let top = tree.root_node();
        let text = |n: tree_sitter::Node| n.utf8_text(&source).unwrap_or("").to_string();
        let unquote = |n: tree_sitter::Node| text(n).trim_matches(|c| matches!(c, '"' | '\'' | '`')).to_string();
        // Local names bound by imports: name -> (specifier, imported name, or None for a namespace).
        let mut imported: HashMap<String, (String, Option<String>)> = HashMap::new();
        let mut forwards = Vec::new();
        let mut cursor = top.walk();
        let statements: Vec<tree_sitter::Node> = top.named_children(&mut cursor).collect();
        for statement in &statements {
            if statement.kind() != "import_statement" {
                continue;
            }
            let Some(from) = statement.child_by_field_name("source").map(unquote) else {
                continue;
            };
            let mut c = statement.walk();
            for clause in statement.named_children(&mut c).filter(|n| n.kind() == "import_clause") {
                let mut cc = clause.walk();
                for part in clause.named_children(&mut cc) {
                    match part.kind() {
                        "namespace_import" => {
                            let mut pc = part.walk();
                            if let Some(name) = part.named_children(&mut pc).find(|n| n.kind() == "identifier") {
                                imported.insert(text(name), (from.clone(), None));
                            }
                        }
                        "named_imports" => {
                            let mut pc = part.walk();
                            for spec in part.named_children(&mut pc).filter(|n| n.kind() == "import_specifier") {
                                let Some(name) = spec.child_by_field_name("name").map(unquote) else {
                                    continue;
                                };
                                let local = spec.child_by_field_name("alias").map(unquote).unwrap_or(name.clone());
                                imported.insert(local, (from.clone(), Some(name)));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        for statement in &statements {
            if statement.kind() != "export_statement" {
                continue;
            }
            let from = statement.child_by_field_name("source").map(unquote);
            let mut c = statement.walk();
            let children: Vec<tree_sitter::Node> = statement.children(&mut c).collect();
            if let Some(from) = &from {
                if let Some(ns) = children.iter().find(|n| n.kind() == "namespace_export") {
                    let mut nc = ns.walk();
                    let alias = ns.named_children(&mut nc).last().map(unquote).unwrap_or_default();
                    forwards.push((from.clone(), Forward::Namespace(alias)));
                    continue;
                }
                if children.iter().any(|n| n.kind() == "*") {
                    forwards.push((from.clone(), Forward::All));
                    continue;
                }
            }
            let Some(clause) = children.iter().find(|n| n.kind() == "export_clause") else {
                continue;
            };
            let mut cc = clause.walk();
            for spec in clause
                .named_children(&mut cc)
                .filter(|n| n.kind() == "export_specifier")
            {
                let Some(name) = spec.child_by_field_name("name").map(unquote) else {
                    continue;
                };
                let outer = spec.child_by_field_name("alias").map(unquote).unwrap_or(name.clone());
                match (&from, imported.get(&name)) {
                    (Some(from), _) => forwards.push((from.clone(), Forward::Names(vec![(name, outer)]))),
                    (None, Some((from, Some(inner)))) => {
                        forwards.push((from.clone(), Forward::Names(vec![(inner.clone(), outer)])));
                    }
                    (None, Some((from, None))) => forwards.push((from.clone(), Forward::Namespace(outer))),
                    (None, None) => {}
                }
            }
        }
        Some(Module { forwards })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::docs::files::WorkTree;

    #[test]
    fn entry_points_map_to_their_sources_and_paths_stay_inside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("pkg/source/core")).unwrap();
        std::fs::write(root.join("pkg/source/index.ts"), "export * from './core/a.js'\n").unwrap();
        std::fs::write(root.join("pkg/source/core/a.ts"), "export const a = 1\n").unwrap();
        let pkg = Path::new("pkg");
        assert_eq!(
            source_of(&WorkTree(root), pkg, "./distribution/index.js", &[]),
            Some(PathBuf::from("pkg/source/index.ts"))
        );
        assert_eq!(
            source_of(&WorkTree(root), pkg, "./dist/types/index.d.ts", &[]),
            Some(PathBuf::from("pkg/source/index.ts"))
        );
        // Hand-written declarations beside the code are the typed API.
        std::fs::write(root.join("pkg/index.js"), "exports.a = 1\n").unwrap();
        std::fs::write(root.join("pkg/index.d.ts"), "export declare const a: number\n").unwrap();
        assert_eq!(
            source_of(&WorkTree(root), pkg, "./index.d.ts", &[]),
            Some(PathBuf::from("pkg/index.d.ts"))
        );
        // So are they for the module they sit beside (`index.js`: TypeScript
        // reads `index.d.ts`), which is published through them.
        assert_eq!(
            source_of(&WorkTree(root), pkg, "./index.js", &[]),
            Some(PathBuf::from("pkg/index.d.ts"))
        );
        std::fs::write(root.join("pkg/other.mjs"), "export const b = 1\n").unwrap();
        std::fs::write(root.join("pkg/other.d.ts"), "export declare const b: number\n").unwrap();
        assert_eq!(
            source_of(&WorkTree(root), pkg, "./other.mjs", &[]),
            Some(PathBuf::from("pkg/other.mjs")),
            "an ES module's declarations are `.d.mts`"
        );
        assert_eq!(
            resolve(&WorkTree(root), Path::new("pkg/source/index.ts"), "./core/a.js"),
            Some(PathBuf::from("pkg/source/core/a.ts"))
        );
        assert_eq!(
            resolve(&WorkTree(root), Path::new("pkg/source/index.ts"), "../../../etc/passwd"),
            None
        );
        assert_eq!(normalize(Path::new("a/../../b")), None);
    }

    #[test]
    fn a_manifest_published_from_the_build_folder_names_the_sources_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/add")).unwrap();
        std::fs::write(root.join("src/index.ts"), "export * from './add/index.js'\n").unwrap();
        std::fs::write(root.join("src/add/index.ts"), "export const add = 1\n").unwrap();
        let files = WorkTree(root);
        assert_eq!(
            source_of(&files, Path::new(""), "./index.js", &[]),
            Some(PathBuf::from("src/index.ts"))
        );
        assert_eq!(
            source_of(&files, Path::new(""), "./add.js", &[]),
            Some(PathBuf::from("src/add/index.ts"))
        );
        // A file the entry names where it is wins over a source folder's.
        std::fs::write(root.join("index.js"), "exports.a = 1\n").unwrap();
        assert_eq!(
            source_of(&files, Path::new(""), "./index.js", &[]),
            Some(PathBuf::from("index.js"))
        );
    }

    #[test]
    fn entry_points_named_after_the_package_are_built_from_the_source_index() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/index.js"), "export function clsx() {}\n").unwrap();
        std::fs::write(root.join("clsx.d.ts"), "export type ClassValue = string\n").unwrap();
        let manifest =
            |name: &str| format!("{{\"name\": \"{name}\", \"main\": \"dist/clsx.js\", \"module\": \"dist/clsx.mjs\"}}");
        std::fs::write(root.join("package.json"), manifest("@lukeed/clsx")).unwrap();
        let found = api(&WorkTree(root), Path::new("")).expect("the entry points map to src/index.js");
        assert!(found.exposes(Path::new("src/index.js"), "clsx"));
        assert!(!found.exposes(Path::new("clsx.d.ts"), "ClassValue"));
        // Files named otherwise say nothing of where they come from.
        std::fs::write(root.join("package.json"), manifest("classnames")).unwrap();
        assert!(api(&WorkTree(root), Path::new("")).is_none());
    }

    #[test]
    fn a_tsconfig_says_where_a_build_folder_comes_from() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("pkg/code/api")).unwrap();
        std::fs::write(root.join("pkg/code/api/main.ts"), "export const a = 1\n").unwrap();
        // JSON with comments and trailing commas, as tsc reads it.
        std::fs::write(
            root.join("pkg/tsconfig.json"),
            "{\n  // build\n  \"compilerOptions\": { \"outDir\": \"./output/\", /* types */ \"declarationDir\": \"typings\", \"rootDir\": \"code\", },\n  \"include\": [\"code/**/*\", \"a//b\"],\n}\n",
        )
        .unwrap();
        let pkg = Path::new("pkg");
        let compiled = compiled(&WorkTree(root), pkg);
        assert_eq!(
            compiled,
            vec![
                (PathBuf::from("output"), PathBuf::from("code")),
                (PathBuf::from("typings"), PathBuf::from("code"))
            ]
        );
        for entry in ["./output/api/main.js", "./typings/api/main.d.ts"] {
            assert_eq!(
                source_of(&WorkTree(root), pkg, entry, &compiled),
                Some(PathBuf::from("pkg/code/api/main.ts")),
                "{entry}"
            );
        }
        assert_eq!(
            source_of(&WorkTree(root), pkg, "./output/api/main.js", &[]),
            None,
            "no convention names `output`"
        );
        assert_eq!(
            source_folder(&WorkTree(root), pkg, "./output/api", &compiled),
            Some(PathBuf::from("pkg/code/api"))
        );
        assert_eq!(
            crate::formats::jsonc("{\"a\": \"x//y\", \"b\": [1, 2,],}"),
            "{\"a\": \"x//y\", \"b\": [1, 2]}"
        );
    }
}
