//! The tools' configs as the tools themselves resolve them (issue 63 §3).
//! Reading a config key by key misses what the tool does with the files
//! around it: a file that shadows another, an `extend`/`extends` to a file
//! the change edits, a default narrowed by a key the base never wrote. So
//! where a tool can print the settings it would use for a file (ruff
//! `check --show-settings`, tsc `--showConfig`, ESLint `--print-config`),
//! the change's config files and the base's are each written to a
//! temporary directory, with an empty stand-in for each file the change
//! touches, the tool is asked in both, and what the change's answer lowers
//! of the base's is a `tool-config` waiver like any other.
//!
//! The tool runs only when the change edits a file its answer is read
//! from. mypy, golangci-lint and Clippy print no resolved settings: their
//! configs are read key by key (`keys.rs`, `shadow.rs`).

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use serde_json::Value;

use super::keys::{ESLINT_FLAT_CONFIGS, TSC_KEYS, Way};
use super::{Lowered, at, lowers};
use crate::changed::ChangeSet;
use crate::git::{Repo, Status};
use crate::trust::Judge;

mod ruff;

/// The longest one resolver run may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// One tool that prints its resolved settings.
struct Resolver {
    tool: &'static str,
    /// The config files it reads in a directory or any above it.
    configs: &'static [&'static str],
    /// The changed files that may be configs it reads (by extension): a
    /// change with none of them does not run it.
    config_ext: &'static [&'static str],
    /// The files it checks.
    checks: &'static [&'static str],
    /// The stand-in file asked about in the directory of a changed config.
    stand_in: &'static str,
    /// The most files (ruff: directories; tsc: projects) asked about, the
    /// first in path order: each is a run of the tool on either side
    /// (ruff's takes 15 ms, tsc's 0.25 s, ESLint's 0.5 s).
    most: usize,
    /// How it is asked, for the reader.
    asked: &'static str,
    /// How its answer is read, and which way each of its keys lowers the bar.
    keys: &'static [(&'static str, Way)],
}

const RESOLVERS: &[Resolver] = &[
    Resolver {
        tool: "ruff",
        configs: &[".ruff.toml", "ruff.toml", "pyproject.toml"],
        config_ext: &["toml"],
        checks: &["py", "pyi"],
        stand_in: "loki_gate_probe.py",
        most: 8,
        asked: "`ruff check --show-settings`",
        keys: ruff::KEYS,
    },
    Resolver {
        tool: "tsc",
        configs: &["tsconfig.json"],
        config_ext: &["json"],
        checks: &["ts", "tsx", "mts", "cts"],
        stand_in: "tsconfig.json",
        most: 4,
        asked: "`tsc --showConfig`",
        keys: TSC_KEYS,
    },
    Resolver {
        tool: "eslint",
        configs: ESLINT_FLAT_CONFIGS,
        config_ext: &["js", "mjs", "cjs", "ts", "mts", "cts", "json"],
        checks: &["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts"],
        stand_in: "loki-gate-probe.js",
        most: 4,
        asked: "`eslint --print-config`",
        keys: &[("rules", Way::Levels), ("linted", Way::Fewer)],
    },
];

/// Which side of the change a directory holds.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Base,
    Head,
}

/// The waivers for what the change's configs lower, as each tool resolves
/// them, and a note for each tool that could not be asked (its answer on
/// one side unreadable). `locate`: the program the static gate would run
/// for a tool, if any; `skip`: the tools whose configs the key-by-key
/// reading already found lowered (the change is held for them already).
pub fn hold_resolved(
    judge: &Judge,
    repo: &Repo,
    changes: &ChangeSet,
    locate: &dyn Fn(&'static str) -> Option<PathBuf>,
    skip: &BTreeSet<&str>,
) -> Result<(Vec<super::Waiver>, Vec<String>)> {
    let Some(rev) = judge.rev() else {
        return Ok(Default::default());
    };
    let mut waivers = Vec::new();
    let mut notes = Vec::new();
    for resolver in RESOLVERS {
        if skip.contains(resolver.tool) {
            continue;
        }
        let changed: BTreeSet<&Path> = changes
            .files
            .iter()
            .flat_map(|f| std::iter::once(f.path.as_path()).chain(f.old_path.as_deref()))
            .filter(|p| ext(p).is_some_and(|e| resolver.config_ext.contains(&e)))
            .collect();
        if changed.is_empty() {
            continue;
        }
        let Some(program) = locate(resolver.tool) else {
            continue;
        };
        match compare(judge, repo, rev, changes, resolver, &program, &changed) {
            Ok(found) => {
                for (config, lowered) in found {
                    waivers.extend(super::waivers_for(judge, repo, rev, &[config.as_path()], &config, lowered)?);
                }
            }
            Err(e) => notes.push(format!(
                "{}'s resolved settings could not be compared with the base's ({}): its config files were read key by key only",
                resolver.tool,
                crate::wording::describe(&e)
            )),
        }
    }
    Ok((waivers, notes))
}

/// What the change lowers of `resolver`'s settings, by the changed config
/// file each lowering is charged to.
fn compare(
    judge: &Judge,
    repo: &Repo,
    rev: &str,
    changes: &ChangeSet,
    resolver: &Resolver,
    program: &Path,
    changed: &BTreeSet<&Path>,
) -> Result<Vec<(PathBuf, Vec<Lowered>)>> {
    let read = |side: Side, path: &Path| -> Result<Option<Vec<u8>>> {
        match side {
            Side::Base => repo.blob_at(rev, path),
            Side::Head if judge.staged => Ok(repo.index_blob(path)?.and_then(|b| match b {
                crate::git::BlobRead::Content(bytes) => Some(bytes),
                _ => None,
            })),
            Side::Head => Ok(crate::walk::read_file(repo.root(), path).ok()),
        }
    };
    // The files asked about: those the change touches that the tool
    // checks, and a stand-in beside each changed file that may be a config.
    let mut probes: BTreeSet<PathBuf> = BTreeSet::new();
    let touched: Vec<PathBuf> = changes
        .files
        .iter()
        .filter(|f| f.status != Status::Deleted)
        .map(|f| f.path.clone())
        .filter(|p| ext(p).is_some_and(|e| resolver.checks.contains(&e)))
        .collect();
    if resolver.tool == "tsc" {
        // Asked per project: the nearest tsconfig.json on either side, of
        // each file the change touches and each changed file it may read.
        for file in touched.iter().map(PathBuf::as_path).chain(changed.iter().copied()) {
            for side in [Side::Base, Side::Head] {
                if let Some(project) = nearest(file, "tsconfig.json", |p| Ok(read(side, p)?.is_some()))? {
                    probes.insert(project);
                }
            }
        }
        // A changed tsconfig*.json is a project of its own.
        probes.extend(
            changed
                .iter()
                .filter(|p| super::is_tsconfig(p.file_name().and_then(|n| n.to_str()).unwrap_or("")))
                .map(|p| p.to_path_buf()),
        );
    } else {
        for config in changed {
            probes.insert(config.parent().unwrap_or(Path::new("")).join(resolver.stand_in));
        }
        probes.extend(touched.iter().cloned());
    }
    if resolver.tool == "ruff" {
        // ruff's answer is the same for every file of a directory.
        let mut dirs = BTreeSet::new();
        probes.retain(|p| dirs.insert(p.parent().map(Path::to_path_buf)));
    }
    let probes: Vec<PathBuf> = probes.into_iter().take(resolver.most).collect();

    // Each side's config files for those probes, with what they name; and
    // the files each probe's answer is read from, on either side.
    let mut files = [BTreeSet::new(), BTreeSet::new()];
    let mut reach: Vec<BTreeSet<PathBuf>> = vec![BTreeSet::new(); probes.len()];
    for (i, side) in [Side::Base, Side::Head].into_iter().enumerate() {
        // What a config file means can hang on the package's manifest
        // (`"type": "module"`).
        let manifest = resolver.tool != "ruff" && read(side, Path::new("package.json"))?.is_some();
        for (n, probe) in probes.iter().enumerate() {
            let start: Vec<PathBuf> = if resolver.tool == "tsc" {
                vec![probe.clone()]
            } else {
                probe
                    .ancestors()
                    .skip(1)
                    .flat_map(|d| resolver.configs.iter().map(move |c| d.join(c)))
                    .collect()
            };
            let mut found = BTreeSet::new();
            follow(resolver, start, &mut found, |p| read(side, p))?;
            if manifest {
                found.insert(PathBuf::from("package.json"));
            }
            reach[n].extend(found.iter().cloned());
            files[i].extend(found);
        }
    }
    // Only when the change edits one of them, in a part the tool reads.
    let mut edited: BTreeSet<&Path> = BTreeSet::new();
    for config in changed.iter().filter(|c| files.iter().any(|f| f.contains(**c))) {
        let (base, head) = (read(Side::Base, config)?, read(Side::Head, config)?);
        if read_part(resolver, config, base.as_deref()) != read_part(resolver, config, head.as_deref()) {
            edited.insert(config);
        }
    }
    if edited.is_empty() {
        return Ok(Vec::new());
    }
    let mut answers = Vec::new();
    for (i, side) in [Side::Base, Side::Head].into_iter().enumerate() {
        let dir = tempfile::Builder::new()
            .prefix("loki-gate-resolved-")
            .tempdir()
            .context("could not create a temporary directory")?;
        let root = dir.path().canonicalize().unwrap_or_else(|_| dir.path().to_path_buf());
        for file in &files[i] {
            if let Some(bytes) = read(side, file)? {
                write(&root, file, &bytes)?;
            }
        }
        // The tsconfig asked about is a config: a side without it has no project.
        let stand_ins = probes.iter().filter(|_| resolver.tool != "tsc");
        for probe in stand_ins.chain(&touched) {
            if !root.join(probe).exists() {
                write(&root, probe, b"")?;
            }
        }
        share_dependencies(repo.root(), &root);
        let mut per_probe = Vec::new();
        for probe in &probes {
            per_probe.push(if root.join(probe).is_file() {
                ask(resolver, program, &root, probe, &touched)?
            } else {
                Value::Null
            });
        }
        answers.push(per_probe);
    }
    let mut out: Vec<(PathBuf, Vec<Lowered>)> = Vec::new();
    let mut seen = BTreeSet::new();
    for (n, probe) in probes.iter().enumerate() {
        // A project or config the base did not have lowers nothing here:
        // what it sets is read key by key against what it replaces.
        if answers[0][n].is_null() {
            continue;
        }
        let (old, mut new) = (&answers[0][n], answers[1][n].clone());
        // A rule the resolved settings no longer list is off.
        if let (Some(was), Some(now)) = (
            at(old, "rules").as_object(),
            new.get_mut("rules").and_then(Value::as_object_mut),
        ) {
            for rule in was.keys() {
                now.entry(rule.clone()).or_insert(Value::from(0));
            }
        }
        let new = &new;
        let shown = if probe.ends_with(resolver.stand_in) && resolver.tool != "tsc" {
            match probe.parent().filter(|p| !p.as_os_str().is_empty()) {
                Some(dir) => format!("files in {}/", crate::git::display_path(dir)),
                None => "files at the repository's root".to_string(),
            }
        } else {
            crate::git::display_path(probe)
        };
        let charged = charge(&edited, &reach[n], probe);
        for (key, way) in resolver.keys {
            let Some(what) = lowers(*way, at(old, key), at(new, key)) else {
                continue;
            };
            if !seen.insert((key.to_string(), what.clone())) {
                continue;
            }
            let lowered = Lowered {
                tool: resolver.tool,
                gate: "static",
                key: key.to_string(),
                what: format!(
                    "{what} for {shown}, in the settings {} resolves ({})",
                    resolver.tool, resolver.asked
                ),
                line: None,
            };
            match out.iter_mut().find(|(c, _)| *c == charged) {
                Some((_, found)) => found.push(lowered),
                None => out.push((charged.clone(), vec![lowered])),
            }
        }
    }
    Ok(out)
}

/// The edited config file a lowering seen at `probe` is charged to: of
/// those its answer is read from (`reach`), the nearest above it, else
/// the first.
fn charge(edited: &BTreeSet<&Path>, reach: &BTreeSet<PathBuf>, probe: &Path) -> PathBuf {
    edited
        .iter()
        .filter(|c| reach.contains(**c))
        .max_by_key(|c| {
            let dir = c.parent().unwrap_or(Path::new(""));
            (probe.starts_with(dir), dir.components().count())
        })
        .or_else(|| edited.iter().next())
        .map(|c| c.to_path_buf())
        .unwrap_or_default()
}

/// The part of a config file the tool reads: in a `pyproject.toml`,
/// ruff's table; in a `package.json`, the module `type`; else the whole
/// file. A version that does not parse is read whole.
fn read_part(resolver: &Resolver, path: &Path, bytes: Option<&[u8]>) -> Option<Value> {
    let text = String::from_utf8_lossy(bytes?).into_owned();
    let whole = Value::String(text.clone());
    let name = path.file_name().and_then(|n| n.to_str());
    Some(match (resolver.tool, name) {
        ("ruff", Some("pyproject.toml")) => text
            .parse::<toml::Table>()
            .ok()
            .and_then(|t| serde_json::to_value(t).ok())
            .map_or(whole, |v| at(&v, "tool.ruff").clone()),
        (_, Some("package.json")) => serde_json::from_str::<Value>(&text)
            .ok()
            .map_or(whole, |v| at(&v, "type").clone()),
        _ => whole,
    })
}

fn ext(path: &Path) -> Option<&str> {
    path.extension().and_then(|e| e.to_str())
}

/// The file named `name` in the directory of `file` or the nearest above.
fn nearest(file: &Path, name: &str, exists: impl Fn(&Path) -> Result<bool>) -> Result<Option<PathBuf>> {
    for dir in file.ancestors().skip(1) {
        let candidate = dir.join(name);
        if exists(&candidate)? {
            return Ok(Some(candidate));
        }
    }
    Ok(None)
}

/// Add each of `start` that exists on the side `read` reads, and what it
/// names that the tool reads with it (ruff `extend`, tsconfig `extends`,
/// an ESLint config's relative imports), inside the repository.
fn follow(
    resolver: &Resolver,
    start: Vec<PathBuf>,
    into: &mut BTreeSet<PathBuf>,
    read: impl Fn(&Path) -> Result<Option<Vec<u8>>>,
) -> Result<()> {
    let mut queue = start;
    while let Some(path) = queue.pop() {
        if into.contains(&path) || into.len() > 64 {
            continue;
        }
        let Some(bytes) = read(&path)? else {
            continue;
        };
        into.insert(path.clone());
        let text = String::from_utf8_lossy(&bytes);
        let dir = path.parent().unwrap_or(Path::new(""));
        let named: Vec<String> = match resolver.tool {
            "ruff" => ruff::extends(&path, &text).into_iter().collect(),
            "tsc" => match serde_json::from_str::<Value>(&crate::formats::jsonc(&text)).ok() {
                Some(v) => match v.get("extends") {
                    Some(Value::String(s)) => vec![s.clone()],
                    Some(Value::Array(a)) => a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect(),
                    _ => Vec::new(),
                },
                None => Vec::new(),
            },
            _ => relative_imports(&text),
        };
        // ruff's is a path; the others name a package unless relative.
        for name in named
            .into_iter()
            .filter(|n| resolver.tool == "ruff" || n.starts_with('.'))
        {
            let target = crate::paths::normalise(&dir.join(&name));
            if target.starts_with("..") || target.is_absolute() {
                continue;
            }
            // A module named without its extension, as Node resolves it.
            let exact = target.extension().is_some();
            queue.push(target.clone());
            if !exact || resolver.tool == "tsc" {
                for ext in [".js", ".mjs", ".cjs", ".json", "/index.js"] {
                    let mut with = target.clone().into_os_string();
                    with.push(ext);
                    queue.push(PathBuf::from(with));
                }
            }
        }
    }
    Ok(())
}

/// The relative module specifiers of a JavaScript file: `from "./x"`,
/// `import("./x")`, `require("./x")`.
fn relative_imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices(['"', '\'']) {
        let rest = &text[i + 1..];
        if !rest.starts_with('.') {
            continue;
        }
        let before = text[..i].trim_end();
        if !(before.ends_with("from")
            || before.ends_with("import(")
            || before.ends_with("require(")
            || before.ends_with("import"))
        {
            continue;
        }
        let quote = &text[i..=i];
        if let Some(end) = rest.find(quote) {
            out.push(rest[..end].to_string());
        }
    }
    out
}

fn write(root: &Path, rel: &Path, bytes: &[u8]) -> Result<()> {
    let to = root.join(rel);
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("could not write {}", to.display()))?;
    }
    std::fs::write(&to, bytes).with_context(|| format!("could not write {}", to.display()))
}

/// The repository's installed packages (`node_modules`, untracked), linked
/// into both sides alike: a config extends or imports from them.
fn share_dependencies(repo: &Path, side: &Path) {
    let from = repo.join("node_modules");
    if std::fs::symlink_metadata(&from).is_ok_and(|m| m.is_dir()) {
        #[cfg(unix)]
        let _ = std::os::unix::fs::symlink(&from, side.join("node_modules"));
    }
}

/// The tool's resolved settings for `probe` in the side at `root`, as a
/// value read with `resolver.keys`.
fn ask(resolver: &Resolver, program: &Path, root: &Path, probe: &Path, touched: &[PathBuf]) -> Result<Value> {
    let args: Vec<OsString> = match resolver.tool {
        "ruff" => vec![
            "check".into(),
            "--no-cache".into(),
            "--show-settings".into(),
            probe.into(),
        ],
        "tsc" => vec!["--showConfig".into(), "-p".into(), probe.into()],
        _ => vec!["--print-config".into(), probe.into()],
    };
    let mut cmd = std::process::Command::new(program);
    cmd.args(&args);
    let output =
        crate::process::run(cmd, root, TIMEOUT).with_context(|| format!("could not run {}", program.display()))?;
    if !output.success() {
        // The line that names the error, else the first: ESLint opens with
        // "Oops! Something went wrong!" and names the cause after it.
        let lines = || {
            output
                .stderr
                .lines()
                .chain(output.stdout.lines())
                .filter(|l| !l.trim().is_empty())
        };
        let said = lines()
            .find(|l| l.contains("Error") || l.contains("error:") || l.contains("Cannot find"))
            .or_else(|| lines().next());
        bail!(
            "`{} {}` exited with {}{}",
            resolver.tool,
            args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "),
            output.code.map_or("a signal".to_string(), |c| c.to_string()),
            said.map(|s| format!(": {}", s.trim())).unwrap_or_default()
        );
    }
    match resolver.tool {
        "ruff" => Ok(ruff::read(&output.stdout, root)),
        "tsc" => {
            // Paths tsc resolves (an `outDir` it excludes) are printed
            // absolute: each side's directory is left out of them.
            let relative = output.stdout.replace(&format!("{}/", root.display()), "");
            let mut value: Value = serde_json::from_str(&relative).context("tsc --showConfig printed no JSON")?;
            // The files the change touches that the project takes.
            let dir = probe.parent().unwrap_or(Path::new(""));
            let taken: BTreeSet<PathBuf> = value
                .get("files")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|f| crate::paths::normalise(&dir.join(f)))
                .collect();
            let files: Vec<Value> = touched
                .iter()
                .filter(|t| taken.contains(*t))
                .map(|t| Value::String(crate::git::display_path(t)))
                .collect();
            value["files"] = Value::Array(files);
            Ok(value)
        }
        _ => {
            let text = output.stdout.trim();
            // An ignored file: ESLint prints `undefined`.
            if text == "undefined" {
                return Ok(serde_json::json!({ "rules": {}, "linted": [] }));
            }
            let value: Value = serde_json::from_str(text).context("eslint --print-config printed no JSON")?;
            let rules: serde_json::Map<String, Value> = value
                .get("rules")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(rule, setting)| {
                    let level = match setting {
                        Value::Array(a) => a.first().cloned().unwrap_or(Value::Null),
                        other => other.clone(),
                    };
                    (rule.clone(), level)
                })
                .collect();
            Ok(serde_json::json!({ "rules": rules, "linted": [crate::git::display_path(probe)] }))
        }
    }
}
