//! The shape of `src/`: modules import only from their own layer or the
//! layers below, no import cycle spans more than two files, and a gate
//! does not reach into another gate.
//!
//! Each `.rs` file is a module; an import is any path through `crate::`,
//! `super::` or `self::` outside comments, strings and `#[cfg(test)]`
//! modules, in a `use` (braces expanded) or inline. It names the deepest
//! module file the path reaches.
//!
//! `LOKI_GATE_ARCHITECTURE=1 cargo test --test integration architecture --
//! --nocapture` prints the module graph, its layers and its cycles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom to top, by a module's first path segment under
/// `src/` (`""` is `lib.rs`). A module may import from its own layer and
/// those below.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "basics",
        &[
            "exit",
            "paths",
            "platform",
            "mapped",
            "interrupt",
            "process",
            "git",
            // GitHub's API, as git's: trust asks it who approved.
            "github",
            "walk",
            "state",
            "cache",
            "finding",
            "rule",
            "meta",
            "suppress",
            "baseline",
            "changed",
            "checkout",
            "wording",
            "formats",
        ],
    ),
    ("languages", &["lang"]),
    ("configuration", &["config", "trust", "verdict"]),
    ("gates", &["gates"]),
    ("reports", &["report"]),
    // The command-line definitions are data the commands read.
    ("commands", &["cli", "settings", "hooks", "init", "commands"]),
    ("dispatch", &["", "main"]),
];

/// A module (`gates::docs::py_api`), its file, and the modules it imports.
#[derive(Debug)]
struct Module {
    file: PathBuf,
    imports: BTreeSet<String>,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn module_name(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments, string and char literals, and
/// `#[cfg(test)]` modules.
fn code(text: &str) -> String {
    without_test_modules(&bare(text))
}

/// `code` without its `#[cfg(test)] mod name { .. }` blocks, wherever they are.
fn without_test_modules(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        let is_module = after.starts_with("mod ") && after.find('{').is_some_and(|b| !after[..b].contains(';'));
        if !is_module {
            out.push_str("#[cfg(test)]");
            rest = &rest[at + "#[cfg(test)]".len()..];
            continue;
        }
        // Skip to the brace that closes the module.
        let open = after.find('{').unwrap();
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The text of a file without comments, string and char literals.
fn bare(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") {
            let hashes = rest[1..].bytes().take_while(|b| *b == b'#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 2 + hashes;
            i += body + rest[body..].find(&close).map_or(rest.len() - body, |e| e + close.len());
            out.push_str("\"\"");
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push_str("\"\"");
        } else if bytes[i] == b'\''
            && (rest.get(1..3).is_some_and(|s| s.starts_with('\\')) || rest.as_bytes().get(2) == Some(&b'\''))
        {
            // A char literal ('"', '\''), not a lifetime.
            let end = rest[2..].find('\'').map_or(rest.len(), |e| e + 3);
            i += end;
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Every path a `crate::`, `super::` or `self::` path names, as segments
/// from the crate root (braces of a `use` expanded).
fn paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let word_start = |at: usize| {
        at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':')
    };
    for head in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(head) {
            let at = from + found;
            from = at + head.len();
            if !word_start(at) {
                continue;
            }
            let mut base = match head {
                "crate::" => Vec::new(),
                "self::" => module.to_vec(),
                _ => module[..module.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &code[from..];
            while let Some(more) = rest.strip_prefix("super::") {
                base.pop();
                rest = more;
            }
            tree(rest, base, &mut out);
        }
    }
    out
}

/// The paths of a `use` tree (`a::b`, `a::{b, c::{d, e}}`) at the start of `text`.
fn tree(text: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    let mut rest = text;
    loop {
        let word: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if word.is_empty() {
            if let Some(inner) = rest.strip_prefix('{') {
                // Split the group at its top-level commas.
                let mut depth = 0;
                let mut start = 0;
                for (i, c) in inner.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            tree(inner[start..i].trim_start(), path.clone(), out);
                            return;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            tree(inner[start..i].trim_start(), path.clone(), out);
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
            }
            break;
        }
        rest = &rest[word.len()..];
        if word != "self" {
            path.push(word);
        }
        match rest.strip_prefix("::") {
            Some(more) => rest = more,
            None => break,
        }
    }
    out.push(path);
}

fn graph() -> BTreeMap<String, Module> {
    let root = src();
    let mut all = Vec::new();
    files(&root, &mut all);
    let names: BTreeMap<String, PathBuf> = all
        .iter()
        .map(|f| (module_name(f.strip_prefix(&root).unwrap()), f.clone()))
        .collect();
    let mut graph = BTreeMap::new();
    for (name, file) in names.iter().filter(|(n, _)| !n.ends_with("::tests")) {
        let segments: Vec<String> = if name.is_empty() {
            Vec::new()
        } else {
            name.split("::").map(str::to_string).collect()
        };
        let mut text = code(&std::fs::read_to_string(file).unwrap());
        // The crate root names its modules bare (`gates::run`); `main.rs` as
        // the library's user (`loki_gate::run`).
        if name.is_empty() || name == "main" {
            let tops: BTreeSet<&str> = names
                .keys()
                .filter_map(|n| n.split("::").next())
                .filter(|t| !t.is_empty())
                .collect();
            let mut rooted = String::with_capacity(text.len());
            let mut rest = text.as_str();
            while let Some(c) = rest.chars().next() {
                let boundary = rooted
                    .chars()
                    .last()
                    .is_none_or(|p| !(p.is_alphanumeric() || p == '_' || p == ':'));
                let top = tops.iter().find(|t| boundary && rest.starts_with(&format!("{t}::")));
                if boundary && rest.starts_with("loki_gate::") {
                    rooted.push_str("crate::");
                    rest = &rest["loki_gate::".len()..];
                } else if let Some(top) = top {
                    rooted.push_str("crate::");
                    rooted.push_str(top);
                    rest = &rest[top.len()..];
                } else {
                    rooted.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
            text = rooted;
        }
        let mut imports = BTreeSet::new();
        for path in paths(&text, &segments) {
            // The deepest module file the path reaches.
            let mut reach = path.clone();
            let target = loop {
                let key = reach.join("::");
                if names.contains_key(&key) {
                    break Some(key);
                }
                if reach.pop().is_none() {
                    break None;
                }
            };
            if let Some(target) = target
                && target != *name
                && !target.is_empty()
            {
                imports.insert(target);
            }
        }
        graph.insert(
            name.clone(),
            Module {
                file: file.strip_prefix(&root).unwrap().to_path_buf(),
                imports,
            },
        );
    }
    graph
}

fn layer(module: &str) -> usize {
    let top = module.split("::").next().unwrap_or("");
    LAYERS
        .iter()
        .position(|(_, tops)| tops.contains(&top))
        .unwrap_or_else(|| panic!("src/{top}: add it to a layer in LAYERS (tests/integration/architecture.rs)"))
}

/// The gate a module belongs to (`gates::docs::py_api` -> `docs`).
fn gate(module: &str) -> Option<&str> {
    module
        .strip_prefix("gates::")
        .map(|m| m.split("::").next().unwrap_or(m))
        .filter(|g| !SHARED.contains(g))
}

/// Modules under `gates/` that belong to no one gate: what gates share.
const SHARED: &[&str] = &["records", "project", "at_base"];

/// Why an import breaks the shape, if it does.
fn breach(from: &str, to: &str) -> Option<String> {
    if layer(to) > layer(from) {
        return Some(format!(
            "{from} ({}) imports {to} ({}), a layer above",
            LAYERS[layer(from)].0,
            LAYERS[layer(to)].0
        ));
    }
    match (gate(from), gate(to)) {
        (Some(a), Some(b)) if a != b => Some(format!("gate {a} reaches into gate {b} ({from} -> {to})")),
        _ => None,
    }
}

/// Strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.out.sort();
    state.out
}

#[test]
fn imports_point_down_and_cycles_stay_within_two_files() {
    let graph = graph();
    assert!(graph.len() > 50, "src/ was not read: {} modules", graph.len());
    assert!(
        graph["gates::docs"].imports.contains("gates"),
        "the reader of imports is broken: {:?}",
        graph["gates::docs"].imports
    );
    let edges: BTreeMap<String, BTreeSet<String>> = graph
        .iter()
        .map(|(m, module)| (m.clone(), module.imports.clone()))
        .collect();
    if std::env::var_os("LOKI_GATE_ARCHITECTURE").is_some() {
        use std::io::Write as _;
        let mut listing = String::new();
        for (name, module) in &graph {
            listing.push_str(&format!(
                "{:<14} {} -> {}\n",
                LAYERS[layer(name)].0,
                module.file.display(),
                module.imports.iter().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        for cycle in cycles(&edges) {
            listing.push_str(&format!("cycle of {}: {}\n", cycle.len(), cycle.join(", ")));
        }
        std::io::stdout().write_all(listing.as_bytes()).unwrap();
    }
    let mut problems = Vec::new();
    for (from, imports) in &edges {
        for to in imports {
            problems.extend(breach(from, to));
        }
    }
    for cycle in cycles(&edges) {
        if cycle.len() > 2 {
            problems.push(format!(
                "an import cycle of {} modules: {}",
                cycle.len(),
                cycle.join(", ")
            ));
        }
    }
    assert!(problems.is_empty(), "the shape of src/ broke:\n{}", problems.join("\n"));
}

#[test]
fn the_reader_sees_uses_groups_and_inline_paths() {
    let code = code(
        "use crate::a::{b, c::{d, e as f}};\nuse super::g;\n#[cfg(test)]\nmod tests { use crate::no; fn t() { if x { crate::no(); } } }\nfn x() { crate::h::i(); let s = \"crate::no\"; } // crate::no\n",
    );
    let module = vec!["m".to_string(), "n".to_string()];
    let mut found: Vec<String> = paths(&code, &module).into_iter().map(|p| p.join("::")).collect();
    found.sort();
    assert_eq!(found, vec!["a::b", "a::c::d", "a::c::e", "h::i", "m::g"]);
    assert_eq!(code.matches("no").count(), 0);
}

/// No file under `src/` grows past 900 lines, and `lib.rs` stays the
/// module list and the dispatch.
#[test]
fn files_stay_small_and_lib_rs_only_dispatches() {
    let root = src();
    let mut all = Vec::new();
    files(&root, &mut all);
    let mut long = Vec::new();
    for file in &all {
        let lines = std::fs::read_to_string(file).unwrap().lines().count();
        let shown = file.strip_prefix(&root).unwrap().display().to_string();
        if lines > 900 || (shown == "lib.rs" && lines >= 150) {
            long.push(format!("src/{shown}: {lines} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "split by concern (lib.rs under 150 lines, every file at most 900):\n{}",
        long.join("\n")
    );
}
