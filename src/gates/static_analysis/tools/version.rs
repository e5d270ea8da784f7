//! A tool found only on PATH, whose version the project does not declare:
//! eslint 10 meeting a project that pins eslint 8 crashes on its config and
//! would refuse every commit. When the project declares the tool's package
//! (package.json for eslint and typescript; pyproject.toml for ruff and
//! mypy) and the one on PATH is of another major version (for 0.x, another
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
            let text = std::fs::read_to_string(root.join("package.json")).ok()?;
            let manifest: serde_json::Value = serde_json::from_str(&text).ok()?;
            ["devDependencies", "dependencies", "peerDependencies"]
                .iter()
                .find_map(|field| manifest[field][name].as_str())
                .map(|spec| (spec.to_string(), "package.json"))
        }
        Registry::PyPi => {
            let text = std::fs::read_to_string(root.join("pyproject.toml")).ok()?;
            let doc: toml::Table = toml::from_str(&text).ok()?;
            python_requirement(&doc, name).map(|spec| (spec, "pyproject.toml"))
        }
    }
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
    let requirement = |line: &str| {
        let line = line.trim();
        let rest = line.strip_prefix(name).or_else(|| {
            // Package names compare case-insensitively.
            line.get(..name.len())
                .filter(|head| head.eq_ignore_ascii_case(name))
                .map(|_| &line[name.len()..])
        })?;
        let rest = rest.trim_start();
        rest.starts_with(['=', '<', '>', '~', '!']).then(|| rest.to_string())
    };
    let from_lists = lists
        .iter()
        .filter_map(|list| list.as_array())
        .flatten()
        .filter_map(toml::Value::as_str)
        .find_map(requirement);
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

/// Why `program` (found on PATH, not in the project) should not run as
/// `tool` for the project at `root`, if its release line is not the one
/// the project declares.
pub fn mismatch(tool: &str, program: &Path, root: &Path) -> Option<String> {
    let (spec, file) = declared(root, tool)?;
    let wanted = line_of(&spec)?;
    let says = installed(program, root)?;
    let found = line_of(&says)?;
    (wanted != found).then(|| {
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
}
