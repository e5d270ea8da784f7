//! Where a configuration may be written: its own YAML file, or a table in
//! the project file the ecosystem already keeps its tools' settings in
//! (`[tool.loki-gate]` in `pyproject.toml`, as ruff and mypy read theirs,
//! and the `"loki-gate"` key of `package.json`, as ESLint and jest do).
//! Each becomes the same [`Node`] tree with lines and columns in its own
//! file, so validation and its errors are the same whatever the file.

use std::path::Path;

use super::yaml::{self, Key, Node, Origin, Value};
use super::{Problem, TOO_BIG_FIX};

/// The files looked for at the repository root, in order: the first that
/// holds a configuration is it (a `pyproject.toml` without a
/// `[tool.loki-gate]` table, or a `package.json` without a `"loki-gate"`
/// key, holds none).
pub const FILE_NAMES: &[&str] = &[".loki-gate.yaml", "loki-gate.yaml", "pyproject.toml", "package.json"];

/// How a file holds a configuration, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Yaml,
    /// The `[tool.loki-gate]` table.
    Pyproject,
    /// The `"loki-gate"` key.
    PackageJson,
}

impl Format {
    pub fn of(path: &Path) -> Format {
        match path.file_name().and_then(|n| n.to_str()) {
            Some("pyproject.toml") => Format::Pyproject,
            Some("package.json") => Format::PackageJson,
            _ => Format::Yaml,
        }
    }

    /// Where in the file the configuration is, for messages.
    pub fn place(self) -> &'static str {
        match self {
            Format::Yaml => "the file",
            Format::Pyproject => "its [tool.loki-gate] table",
            Format::PackageJson => "its \"loki-gate\" key",
        }
    }
}

/// The configuration `text` holds as `format`: `None` when a project file
/// holds none, a problem (with its place in the file) when it cannot be read.
pub fn node_of(format: Format, text: &str) -> Result<Option<Node>, Problem> {
    match format {
        Format::Yaml => yaml::parse(text).map(Some).map_err(|e| Problem {
            origin: Origin::at(e.line, e.column),
            message: if e.too_big {
                e.message
            } else {
                format!("invalid YAML: {}", e.message)
            },
            fix: if e.too_big {
                TOO_BIG_FIX.to_string()
            } else {
                "fix the syntax (check indentation and quoting)".to_string()
            },
        }),
        Format::Pyproject => pyproject(text),
        Format::PackageJson => package_json(text),
    }
}

/// 1-based line and column of byte `offset` in `text`.
fn position(text: &str, offset: usize) -> Origin {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Origin::at(line as u64, column as u64)
}

fn pyproject(text: &str) -> Result<Option<Node>, Problem> {
    use toml::de::{DeTable, DeValue};
    let table = DeTable::parse(text).map_err(|e| Problem {
        origin: position(text, e.span().map_or(0, |s| s.start)),
        message: format!("invalid TOML: {}", e.message().trim()),
        fix: "fix the syntax of pyproject.toml".to_string(),
    })?;
    let Some(tool) = table.get_ref().get("tool") else {
        return Ok(None);
    };
    let DeValue::Table(tool) = tool.get_ref() else {
        return Ok(None);
    };
    let Some(ours) = tool.get("loki-gate") else {
        return Ok(None);
    };

    fn node(text: &str, value: &toml::Spanned<DeValue<'_>>) -> Node {
        let origin = position(text, value.span().start);
        let value = match value.get_ref() {
            DeValue::String(s) => Value::Str(s.to_string()),
            DeValue::Integer(i) => {
                let digits: String = i.as_str().chars().filter(|c| *c != '_').collect();
                let digits = digits.trim_start_matches('+');
                let unprefixed = match i.radix() {
                    10 => digits.to_string(),
                    _ => digits.get(2..).unwrap_or_default().to_string(),
                };
                match i64::from_str_radix(&unprefixed, i.radix()) {
                    Ok(n) => Value::Int(n),
                    Err(_) => Value::Str(i.as_str().to_string()),
                }
            }
            DeValue::Float(f) => f
                .as_str()
                .replace('_', "")
                .parse::<f64>()
                .map_or_else(|_| Value::Str(f.as_str().to_string()), Value::Float),
            DeValue::Boolean(b) => Value::Bool(*b),
            DeValue::Datetime(d) => Value::Str(d.to_string()),
            DeValue::Array(items) => Value::Seq(items.iter().map(|v| node(text, v)).collect()),
            DeValue::Table(table) => {
                // In the order written: `rules` entries are read in file order.
                let mut pairs: Vec<_> = table.iter().collect();
                pairs.sort_by_key(|(k, _)| k.span().start);
                Value::Map(
                    pairs
                        .into_iter()
                        .map(|(k, v)| {
                            (
                                Key {
                                    name: k.get_ref().to_string(),
                                    origin: position(text, k.span().start),
                                },
                                node(text, v),
                            )
                        })
                        .collect(),
                )
            }
        };
        Node { value, origin }
    }
    let found = node(text, ours);
    match found.value {
        Value::Map(_) => Ok(Some(found)),
        other => Err(Problem {
            origin: found.origin,
            message: format!("tool.loki-gate is {}, not a table", other.kind()),
            fix: "write the settings under a [tool.loki-gate] table".to_string(),
        }),
    }
}

fn package_json(text: &str) -> Result<Option<Node>, Problem> {
    #[derive(serde::Deserialize)]
    struct Package<'a> {
        #[serde(rename = "loki-gate", borrow)]
        ours: Option<&'a serde_json::value::RawValue>,
    }
    let package: Package<'_> = serde_json::from_str(text).map_err(|e| Problem {
        origin: Origin::at(e.line() as u64, e.column() as u64),
        message: format!("invalid JSON: {e}"),
        fix: "fix the syntax of package.json".to_string(),
    })?;
    let Some(raw) = package.ours else {
        return Ok(None);
    };
    let raw = raw.get();
    let start = raw.as_ptr() as usize - text.as_ptr() as usize;
    let at = position(text, start);
    let Origin::File { line, column } = at else {
        unreachable!("a file position");
    };
    // JSON is YAML's flow style: parsed as YAML, every value keeps its line
    // and column (shifted to where the object starts in package.json).
    // What YAML refuses (tabs where it wants spaces) is read as JSON, every
    // value placed at the object.
    let found = match yaml::parse(raw) {
        Ok(node) => shift(node, line, column),
        Err(_) => match serde_json::from_str::<serde_json::Value>(raw) {
            Ok(value) => from_json(&value, &at),
            Err(e) => {
                return Err(Problem {
                    origin: at,
                    message: format!("invalid JSON: {e}"),
                    fix: "fix the syntax of package.json".to_string(),
                });
            }
        },
    };
    match found.value {
        Value::Map(_) => Ok(Some(found)),
        other => Err(Problem {
            origin: found.origin,
            message: format!("\"loki-gate\" in package.json is {}, not an object", other.kind()),
            fix: "write the settings as an object: \"loki-gate\": { ... }".to_string(),
        }),
    }
}

/// `node`, parsed from text that starts at `line`:`column` of its file.
fn shift(node: Node, line: u64, column: u64) -> Node {
    node.map_origins(&|origin| match origin {
        Origin::File { line: 1, column: c } => Origin::at(line, column + c - 1),
        Origin::File { line: l, column: c } => Origin::at(line + l - 1, c),
        env => env,
    })
}

fn from_json(value: &serde_json::Value, at: &Origin) -> Node {
    use serde_json::Value as J;
    let value = match value {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => n
            .as_i64()
            .map(Value::Int)
            .or_else(|| n.as_f64().map(Value::Float))
            .unwrap_or(Value::Null),
        J::String(s) => Value::Str(s.clone()),
        J::Array(items) => Value::Seq(items.iter().map(|v| from_json(v, at)).collect()),
        J::Object(map) => Value::Map(
            map.iter()
                .map(|(k, v)| {
                    (
                        Key {
                            name: k.clone(),
                            origin: at.clone(),
                        },
                        from_json(v, at),
                    )
                })
                .collect(),
        ),
    };
    Node {
        value,
        origin: at.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_at(node: &Node, path: &[&str]) -> (Origin, Value) {
        let mut node = node;
        let mut origin = node.origin.clone();
        for name in path {
            let Value::Map(pairs) = &node.value else {
                panic!("{name}: not a map")
            };
            let (key, value) = pairs.iter().find(|(k, _)| k.name == *name).expect(name);
            origin = key.origin.clone();
            node = value;
        }
        (origin, node.value.clone())
    }

    #[test]
    fn pyproject_tables_keep_lines_columns_and_order() {
        let text = "[project]\nname = \"shop\"\n\n[tool.ruff]\nline-length = 100\n\n[tool.loki-gate]\nmax-file-bytes = 1_000\nrules = { \"mock/b\" = \"warn\", \"mock/a\" = \"deny\" }\n\n[tool.loki-gate.gates.static]\nenabled = true\ntools = [\"ruff\"]\n";
        let node = node_of(Format::Pyproject, text).unwrap().unwrap();
        assert_eq!(key_at(&node, &["max-file-bytes"]), (Origin::at(8, 1), Value::Int(1000)));
        let (origin, enabled) = key_at(&node, &["gates", "static", "enabled"]);
        assert_eq!((origin, enabled), (Origin::at(12, 1), Value::Bool(true)));
        let (_, rules) = key_at(&node, &["rules"]);
        let Value::Map(rules) = rules else { panic!() };
        let names: Vec<&str> = rules.iter().map(|(k, _)| k.name.as_str()).collect();
        assert_eq!(names, ["mock/b", "mock/a"], "file order, not sorted");
        assert!(
            node_of(Format::Pyproject, "[project]\nname = \"x\"\n")
                .unwrap()
                .is_none()
        );
        let broken = node_of(Format::Pyproject, "[tool.loki-gate]\nbase = \n").unwrap_err();
        assert_eq!(broken.origin, Origin::at(2, 8), "{}", broken.message);
        let scalar = node_of(Format::Pyproject, "[tool]\nloki-gate = 3\n").unwrap_err();
        assert!(scalar.message.contains("not a table"), "{}", scalar.message);
    }

    #[test]
    fn package_json_keys_keep_lines_and_columns() {
        let text = "{\n  \"name\": \"shop\",\n  \"loki-gate\": {\n    \"exclude\": [\"dist/**\"],\n    \"gates\": { \"mock\": { \"enabled\": true } }\n  }\n}\n";
        let node = node_of(Format::PackageJson, text).unwrap().unwrap();
        assert_eq!(key_at(&node, &["exclude"]).0, Origin::at(4, 5));
        assert_eq!(
            key_at(&node, &["gates", "mock", "enabled"]),
            (Origin::at(5, 26), Value::Bool(true))
        );
        // Tabs, which YAML refuses for indentation: read as JSON, placed at the object.
        let tabs = "{\n\t\"loki-gate\": {\n\t\t\"exclude\": [\n\t\t\t\"dist/**\"\n\t\t]\n\t}\n}\n";
        let node = node_of(Format::PackageJson, tabs).unwrap().unwrap();
        let (_, exclude) = key_at(&node, &["exclude"]);
        assert!(matches!(exclude, Value::Seq(items) if items.len() == 1));
        assert!(node_of(Format::PackageJson, "{\"name\": \"x\"}").unwrap().is_none());
        let broken = node_of(Format::PackageJson, "{\n  \"name\": \n}").unwrap_err();
        assert_eq!(broken.origin, Origin::at(3, 1), "{}", broken.message);
        let array = node_of(Format::PackageJson, "{\"loki-gate\": [1]}").unwrap_err();
        assert!(array.message.contains("not an object"), "{}", array.message);
    }
}
