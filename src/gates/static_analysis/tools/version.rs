//! A tool found only on PATH, whose version the project does not declare:
//! eslint 10 meeting a project that pins eslint 8 crashes on its config and
//! would refuse every commit. When the project declares the tool's package
//! (package.json for eslint and typescript; for ruff and mypy
//! pyproject.toml, then uv.lock, requirements files, the rev of the
//! pre-commit hook) and the one on PATH is of another major version (for 0.x, another
//! minor), the tool is not run and the report says why and what to install.

use std::path::Path;
use std::time::Duration;

/// Where a project declares the package a tool comes from.
enum Registry {
    Npm,
    PyPi,
}

/// The package that provides `tool`, and where it is declared.
fn package(tool: &str) -> Option<(Registry, &'static str)> {
    Some(match tool {
        "eslint" => (Registry::Npm, "eslint"),
        "tsc" => (Registry::Npm, "typescript"),
        "ruff" => (Registry::PyPi, "ruff"),
        "mypy" => (Registry::PyPi, "mypy"),
        _ => return None,
    })
}

/// What the project at `root` declares for `tool`: the version spec and the file.
pub fn declared(root: &Path, tool: &str) -> Option<(String, &'static str)> {
    let (registry, name) = package(tool)?;
    match registry {
        Registry::Npm => {
            let text = read(root, "package.json")?;
            let manifest: serde_json::Value = serde_json::from_str(&text).ok()?;
            ["devDependencies", "dependencies", "peerDependencies"]
                .iter()
                .find_map(|field| manifest[field][name].as_str())
                .map(|spec| (spec.to_string(), "package.json"))
        }
        Registry::PyPi => {
            let pyproject = || {
                let doc: toml::Table = toml::from_str(&read(root, "pyproject.toml")?).ok()?;
                python_requirement(&doc, name).map(|spec| (spec, "pyproject.toml"))
            };
            pyproject()
                .or_else(|| locked(root, name).map(|v| (format!("=={v}"), "uv.lock")))
                .or_else(|| {
                    REQUIREMENTS.iter().find_map(|file| {
                        read(root, file)?
                            .lines()
                            .map(|l| l.split('#').next().unwrap_or(""))
                            .find_map(|l| requirement(l, name))
                            .map(|spec| (spec, *file))
                    })
                })
                .or_else(|| hook_rev(root, tool).map(|v| (format!("=={v}"), ".pre-commit-config.yaml")))
        }
    }
}

/// A manifest in `dir`, read as every file the gate reads: never through a
/// symlink out of it, under the size cap.
fn read(dir: &Path, name: &str) -> Option<String> {
    let bytes = crate::walk::read_file(dir, Path::new(name)).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The requirements files a Python project pins its tools in.
const REQUIREMENTS: &[&str] = &[
    "requirements.txt",
    "requirements-dev.txt",
    "dev-requirements.txt",
    "requirements/dev.txt",
    "requirements/lint.txt",
    "requirements/typing.txt",
];

/// The version `uv.lock` in `dir` locks `name` at.
fn locked(dir: &Path, name: &str) -> Option<String> {
    let doc: toml::Table = toml::from_str(&read(dir, "uv.lock")?).ok()?;
    doc.get("package")?.as_array()?.iter().find_map(|p| {
        (p.get("name")?.as_str()?.eq_ignore_ascii_case(name))
            .then(|| p.get("version")?.as_str().map(str::to_string))
            .flatten()
    })
}

/// The `rev` of the pre-commit hook repository that runs `tool`
/// (astral-sh/ruff-pre-commit, pre-commit/mirrors-mypy), `v` left out.
fn hook_rev(dir: &Path, tool: &str) -> Option<String> {
    let repo = match tool {
        "ruff" => "ruff-pre-commit",
        "mypy" => "mirrors-mypy",
        _ => return None,
    };
    let text = read(dir, ".pre-commit-config.yaml")?;
    let mut lines = text
        .lines()
        .skip_while(|l| !(l.contains("repo:") && l.trim_end().ends_with(repo)));
    lines.next()?;
    lines
        .take_while(|l| !l.contains("repo:"))
        .find_map(|l| l.trim().trim_start_matches("- ").strip_prefix("rev:"))
        .map(|rev| rev.trim().trim_matches(['"', '\'']).trim_start_matches('v').to_string())
        .filter(|v| v.starts_with(|c: char| c.is_ascii_digit()))
}

/// The version spec of a requirement line naming `name` (`ruff==0.5.7`,
/// `mypy >= 1.11`), or `None` for another package or no spec.
fn requirement(line: &str, name: &str) -> Option<String> {
    let line = line.trim();
    let rest = line.strip_prefix(name).or_else(|| {
        // Package names compare case-insensitively.
        line.get(..name.len())
            .filter(|head| head.eq_ignore_ascii_case(name))
            .map(|_| &line[name.len()..])
    })?;
    let rest = rest.trim_start();
    rest.starts_with(['=', '<', '>', '~', '!']).then(|| rest.to_string())
}

/// `name`'s version spec among pyproject's requirement lists (`[project]`
/// dependencies and optional-dependencies, `[dependency-groups]`) and
/// Poetry's dependency tables.
fn python_requirement(doc: &toml::Table, name: &str) -> Option<String> {
    let mut lists: Vec<&toml::Value> = Vec::new();
    if let Some(project) = doc.get("project") {
        lists.extend(project.get("dependencies"));
        if let Some(extras) = project.get("optional-dependencies").and_then(toml::Value::as_table) {
            lists.extend(extras.values());
        }
    }
    if let Some(groups) = doc.get("dependency-groups").and_then(toml::Value::as_table) {
        lists.extend(groups.values());
    }
    let from_lists = lists
        .iter()
        .filter_map(|list| list.as_array())
        .flatten()
        .filter_map(toml::Value::as_str)
        .find_map(|line| requirement(line, name));
    if from_lists.is_some() {
        return from_lists;
    }
    // Poetry: `ruff = "^0.5"` in [tool.poetry.dependencies], dev-dependencies or a group.
    let poetry = doc.get("tool")?.get("poetry")?;
    let mut tables: Vec<&toml::Value> = ["dependencies", "dev-dependencies"]
        .iter()
        .filter_map(|t| poetry.get(t))
        .collect();
    if let Some(groups) = poetry.get("group").and_then(toml::Value::as_table) {
        tables.extend(groups.values().filter_map(|g| g.get("dependencies")));
    }
    tables.iter().find_map(|table| {
        let spec = table.get(name)?;
        spec.as_str()
            .or_else(|| spec.get("version").and_then(toml::Value::as_str))
            .map(str::to_string)
    })
}

/// The release line of the first version number in `text`: the major
/// version, or for 0.x the minor (where 0.x tools break their configs).
pub fn line_of(text: &str) -> Option<(u64, u64)> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let mut parts = text[start..]
        .split(|c: char| !c.is_ascii_digit())
        .take(2)
        .map(|p| p.parse::<u64>().ok());
    let major = parts.next()??;
    let minor = parts.next().flatten().unwrap_or(0);
    Some(if major == 0 { (0, minor) } else { (major, 0) })
}

/// The numbers of the first version in `text` (`ruff 0.17.6`: 0, 17, 6).
fn numbers(text: &str) -> Vec<u64> {
    let Some(start) = text.find(|c: char| c.is_ascii_digit()) else {
        return Vec::new();
    };
    let end = text[start..]
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(text.len(), |at| start + at);
    text[start..end]
        .split('.')
        .map_while(|n| n.parse().ok())
        .take(3)
        .collect()
}

/// Is the version a program's `--version` printed (`says`) one `spec`
/// admits, as far as reading the project's configuration goes: on the
/// release line ([`line_of`]) that `^`, `~`, `~=`, `==` or a bare version
/// names, on it or a later one for `>=` and `>`, and below a `<` or `<=`
/// bound; `||` alternatives (npm), `,` or space separated comparators
/// (PEP 440, npm), a wildcard admits anything, `!=` is not a release line.
/// `None`: a spec this does not read (`workspace:*`, a URL, a tag). An
/// empty `says` only checks that the spec reads.
fn accepts(spec: &str, says: &str) -> Option<bool> {
    let found = numbers(says);
    let found_line = line_of(says);
    // PEP 508 environment markers follow a `;`.
    let spec = spec.split(';').next().unwrap_or_default();
    let mut any = false;
    for alternative in spec.split("||") {
        let mut all = true;
        for comparator in alternative.split([',', ' ']).map(str::trim).filter(|c| !c.is_empty()) {
            let op_len = comparator
                .find(|c: char| !matches!(c, '<' | '>' | '=' | '~' | '^' | '!'))
                .unwrap_or(comparator.len());
            let (op, version) = comparator.split_at(op_len);
            let version = version.trim_start_matches('v');
            if !matches!(op, "" | "^" | "~" | "~=" | "==" | "=" | ">=" | ">" | "<" | "<=" | "!=")
                || !version
                    .split('.')
                    .all(|part| part.parse::<u64>().is_ok() || matches!(part, "x" | "X" | "*"))
            {
                return None;
            }
            let wanted = numbers(version);
            if says.is_empty() || op == "!=" || wanted.is_empty() {
                continue;
            }
            let (found_line, wanted_line) = (found_line?, line_of(version)?);
            let below = |strict: bool| {
                let width = found.len().max(wanted.len());
                let pad = |v: &[u64]| (0..width).map(|i| v.get(i).copied().unwrap_or(0)).collect::<Vec<_>>();
                let (f, w) = (pad(&found), pad(&wanted));
                if strict { f < w } else { f <= w }
            };
            all &= match op {
                ">=" | ">" => found_line >= wanted_line,
                "<" => below(true),
                "<=" => below(false),
                _ => found_line == wanted_line,
            };
        }
        any |= all;
    }
    Some(any)
}

/// What `program --version` says, first line with a number in it.
pub fn installed(program: &Path, root: &Path) -> Option<String> {
    let mut cmd = std::process::Command::new(program);
    cmd.arg("--version");
    let out = crate::process::run(cmd, root, Duration::from_secs(20)).ok()?;
    format!("{}\n{}", out.stdout, out.stderr)
        .lines()
        .find(|l| l.chars().any(|c| c.is_ascii_digit()))
        .map(|l| l.trim().to_string())
}

/// [`installed`], remembered in `cache_dir` (`tool-versions.json`) by the
/// program's real path, size and modification time: asking node what
/// version eslint is costs a hook about 150 ms, every commit. An upgrade
/// replaces the file, and the version is asked again.
pub fn installed_cached(program: &Path, root: &Path, cache_dir: Option<&Path>) -> Option<String> {
    let Some(dir) = cache_dir else {
        return installed(program, root);
    };
    let real = program.canonicalize().ok()?;
    let meta = std::fs::metadata(&real).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    let program_key = format!("{}\t", real.display());
    let key = format!("{program_key}{}\t{modified}", meta.len());
    let file = dir.join("tool-versions.json");
    let mut known: std::collections::BTreeMap<String, String> = std::fs::read(&file)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default();
    if let Some(says) = known.get(&key) {
        return Some(says.clone());
    }
    let says = installed(program, root)?;
    // What the file said before it changed is of no more use.
    known.retain(|k, _| !k.starts_with(&program_key));
    known.insert(key, says.clone());
    if std::fs::create_dir_all(dir).is_ok()
        && let Ok(bytes) = serde_json::to_vec_pretty(&known)
    {
        // A cache: a run that cannot write it asks again next time.
        let _ = crate::state::write_atomic(&file, &bytes);
    }
    Some(says)
}

/// Why `program` (found on PATH, not in the project) should not run as
/// `tool` for the project at `root`, if its release line is not the one
/// the project declares. `cache_dir` remembers what each program said.
pub fn mismatch(tool: &str, program: &Path, root: &Path, dir: &Path, cache_dir: Option<&Path>) -> Option<String> {
    // The manifest nearest the run's directory that declares the tool.
    let (spec, file) = dir.ancestors().find_map(|above| declared(&root.join(above), tool))?;
    // A spec this does not read says nothing against the program.
    accepts(&spec, "")?;
    let says = installed_cached(program, root, cache_dir)?;
    (!accepts(&spec, &says)?).then(|| {
        let install = match file {
            "package.json" => "npm install (or the project's package manager)",
            _ => "install the project's development dependencies into its virtual environment",
        };
        format!(
            "{tool}: the one on PATH ({}: `{says}`) is not the version {file} declares ({spec}), and would misread the project's config: {install}, so that the project's own runs",
            program.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The version is asked once per program file; a new file is asked again.
    #[cfg(unix)]
    #[test]
    fn versions_are_asked_once_per_program_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("ruff");
        let count = dir.path().join("asked");
        let write = |version: &str| {
            std::fs::write(
                &program,
                format!("#!/bin/sh\necho x >> '{}'\necho 'ruff {version}'\n", count.display()),
            )
            .unwrap();
            std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        let asked = || std::fs::read_to_string(&count).map_or(0, |s| s.lines().count());
        let cache = dir.path().join("cache");
        write("0.4.1");
        for _ in 0..3 {
            assert_eq!(
                installed_cached(&program, dir.path(), Some(&cache)).as_deref(),
                Some("ruff 0.4.1")
            );
        }
        assert_eq!(asked(), 1);
        // An upgrade is a new file (another size here).
        write("0.15.10");
        assert_eq!(
            installed_cached(&program, dir.path(), Some(&cache)).as_deref(),
            Some("ruff 0.15.10")
        );
        assert_eq!(asked(), 2);
        let known = std::fs::read_to_string(cache.join("tool-versions.json")).unwrap();
        assert_eq!(known.matches("ruff").count(), 2, "one entry, the newest: {known}");
        // Without a cache directory it is asked every time.
        installed_cached(&program, dir.path(), None);
        assert_eq!(asked(), 3);
    }

    #[test]
    fn release_lines_compare_majors_and_0x_minors() {
        assert_eq!(line_of("^8.57.0"), Some((8, 0)));
        assert_eq!(line_of("v10.15.0"), Some((10, 0)));
        assert_eq!(line_of("ruff 0.17.6"), Some((0, 17)));
        assert_eq!(line_of(">=0.5,<0.6"), Some((0, 5)));
        assert_eq!(line_of("Version 7.0.2"), Some((7, 0)));
        assert_eq!(line_of("latest"), None);
    }

    #[test]
    fn specs_admit_the_release_lines_they_name() {
        for (spec, says, admits) in [
            ("^9.39.3", "v9.12.0", true),
            ("^9.39.3", "v10.15.0", false),
            ("~5.5.4", "Version 5.5.2", true),
            ("~5.5.4", "Version 7.0.2", false),
            (">=0.16", "ruff 0.17.6", true),
            (">=0.16", "ruff 0.15.0", false),
            (">=1.10", "mypy 2.4.1 (compiled: yes)", true),
            (">=0.5,<0.6", "ruff 0.5.7", true),
            (">=0.5,<0.6", "ruff 0.6.0", false),
            (">=8 <10", "v9.1.0", true),
            ("^8 || ^9", "v9.1.0", true),
            ("^8 || ^9", "v10.0.0", false),
            ("==0.5.7", "ruff 0.5.1", true),
            ("~=1.4", "mypy 1.11.0", true),
            ("~=1.4", "mypy 2.0.0", false),
            ("9.x", "v9.3.0", true),
            ("*", "v9.3.0", true),
            (">=0.16; python_version >= '3.9'", "ruff 0.17.6", true),
            ("!=0.5.0", "ruff 0.5.0", true),
            ("<=2.0", "mypy 2.0.0", true),
        ] {
            assert_eq!(accepts(spec, says), Some(admits), "{spec} {says}");
        }
        for unread in [
            "workspace:*",
            "latest",
            "npm:eslint@8",
            "git+https://x/y.git",
            "1.2 - 2.3",
        ] {
            assert_eq!(accepts(unread, "v9.0.0"), None, "{unread}");
        }
    }

    #[test]
    fn python_projects_declare_tools_in_several_places() {
        let doc = |text: &str| -> toml::Table { toml::from_str(text).unwrap() };
        let spec = |text: &str, name: &str| python_requirement(&doc(text), name);
        assert_eq!(
            spec("[dependency-groups]\ndev = [\"pytest\", \"ruff==0.5.7\"]\n", "ruff"),
            Some("==0.5.7".into())
        );
        assert_eq!(
            spec(
                "[project]\nname = \"x\"\n[project.optional-dependencies]\nlint = [\"Mypy>=1.10\"]\n",
                "mypy"
            ),
            Some(">=1.10".into())
        );
        assert_eq!(
            spec("[tool.poetry.group.dev.dependencies]\nruff = \"^0.4\"\n", "ruff"),
            Some("^0.4".into())
        );
        // `ruff-lsp` is another package; an unpinned name declares no version.
        assert_eq!(
            spec("[dependency-groups]\ndev = [\"ruff-lsp==0.1\", \"ruff\"]\n", "ruff"),
            None
        );
    }

    #[test]
    fn pins_are_read_from_the_lock_requirements_and_hooks_when_pyproject_has_none() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("pyproject.toml", "[dependency-groups]\ndev = [\"ruff\", \"mypy\"]\n");
        write(
            ".pre-commit-config.yaml",
            "repos:\n  - repo: https://github.com/pre-commit/mirrors-mypy\n    rev: v1.13.0\n    hooks:\n      - id: mypy\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: 'v0.6.8'\n",
        );
        assert_eq!(
            declared(dir.path(), "ruff"),
            Some(("==0.6.8".into(), ".pre-commit-config.yaml"))
        );
        write("requirements.txt", "# lint\nruff==0.12.11  # pinned\nmypy>=1.17\n");
        assert_eq!(
            declared(dir.path(), "ruff"),
            Some(("==0.12.11".into(), "requirements.txt"))
        );
        assert_eq!(
            declared(dir.path(), "mypy"),
            Some((">=1.17".into(), "requirements.txt"))
        );
        write(
            "uv.lock",
            "version = 1\n\n[[package]]\nname = \"ruff\"\nversion = \"0.15.9\"\nsource = { registry = \"https://pypi.org/simple\" }\n",
        );
        assert_eq!(declared(dir.path(), "ruff"), Some(("==0.15.9".into(), "uv.lock")));
        write("pyproject.toml", "[dependency-groups]\ndev = [\"ruff~=0.16.0\"]\n");
        assert_eq!(
            declared(dir.path(), "ruff"),
            Some(("~=0.16.0".into(), "pyproject.toml"))
        );
    }
}
