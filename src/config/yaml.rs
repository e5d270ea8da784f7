//! The one seam between loki-gate and a YAML parser.
//!
//! Everything else sees [`Node`]: a plain tree of values, each carrying the
//! line and column it came from, so validation can report every problem with
//! its location instead of stopping at the first one (serde's
//! `deny_unknown_fields` would). The parser is `serde-saphyr` (maintained,
//! pure Rust); `serde_yaml` is archived and is not used.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

/// Where a value came from: a position in a file, or an environment variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// 1-based line and column in the config file.
    File { line: u64, column: u64 },
    /// An environment variable override, by name.
    Env(String),
}

impl Origin {
    pub(crate) fn at(line: u64, column: u64) -> Self {
        Origin::File { line, column }
    }
}

/// A YAML value with its origin.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub origin: Origin,
}

/// A YAML value. Mappings keep their key order and the location of each key.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Key, Node)>),
}

/// A mapping key with its location.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub name: String,
    pub origin: Origin,
}

impl Node {
    /// The same tree with every origin (its own, its items', its keys')
    /// turned into `to` of it.
    pub fn map_origins(self, to: &dyn Fn(Origin) -> Origin) -> Node {
        let value = match self.value {
            Value::Seq(items) => Value::Seq(items.into_iter().map(|n| n.map_origins(to)).collect()),
            Value::Map(pairs) => Value::Map(
                pairs
                    .into_iter()
                    .map(|(k, v)| {
                        (
                            Key {
                                name: k.name,
                                origin: to(k.origin),
                            },
                            v.map_origins(to),
                        )
                    })
                    .collect(),
            ),
            other => other,
        };
        Node {
            value,
            origin: to(self.origin),
        }
    }
}

impl Value {
    /// The name of this value's type, as a user reads it in an error.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
}

/// A document that is not valid YAML, or one past the parser's size limits
/// (an alias bomb, thousands of nodes), with where the parser stopped.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    pub line: u64,
    pub column: u64,
    pub message: String,
    /// A size limit was reached: the syntax may be fine.
    pub too_big: bool,
}

/// Parse a YAML document into a [`Node`]. An empty document is an empty mapping.
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    if text.trim().is_empty() {
        return Ok(Node {
            value: Value::Map(Vec::new()),
            origin: Origin::at(1, 1),
        });
    }
    match serde_saphyr::from_str::<Spanned<Raw>>(text) {
        Ok(spanned) => Ok(to_node(spanned)),
        Err(err) => {
            let (line, column) = err.location().map(|l| (l.line(), l.column())).unwrap_or((1, 1));
            if let Some(message) = breach(&err) {
                return Err(SyntaxError {
                    line,
                    column,
                    message,
                    too_big: true,
                });
            }
            // The crate renders a snippet under the first line; keep the first line only.
            let full = err.to_string();
            let first = full.lines().next().unwrap_or("invalid YAML");
            let message = first
                .strip_prefix("error: ")
                .unwrap_or(first)
                .split_once(": ")
                .filter(|(head, _)| head.starts_with("line "))
                .map(|(_, rest)| rest.to_string())
                .unwrap_or_else(|| first.to_string());
            Err(SyntaxError {
                line,
                column,
                message,
                too_big: false,
            })
        }
    }
}

/// What size limit a document reached, in words, when that is why it failed.
fn breach(err: &serde_saphyr::Error) -> Option<String> {
    use serde_saphyr::Error;
    use serde_saphyr::budget::BudgetBreach as B;
    let mut err = err;
    while let Error::WithSnippet { error, .. } | Error::AliasError { error, .. } = err {
        err = error;
    }
    let Error::Budget { breach, .. } = err else {
        return None;
    };
    let what = match breach {
        B::Aliases { aliases } => format!("{aliases} aliases (`*name`)"),
        B::AliasAnchorRatio { aliases, anchors } => {
            format!("{aliases} aliases of {anchors} anchors, an expansion that grows without end")
        }
        B::Anchors { anchors } => format!("{anchors} anchors (`&name`)"),
        B::Nodes { nodes } => format!("{nodes} values"),
        B::Events { events } => format!("{events} parser events"),
        B::Depth { depth } => format!("nesting {depth} levels deep"),
        B::Documents { documents } => format!("{documents} documents"),
        B::ScalarBytes { total_scalar_bytes } => format!("{total_scalar_bytes} bytes of text"),
        B::MergeKeys { merge_keys } => format!("{merge_keys} merge keys (`<<`)"),
        other => format!("{other:?}"),
    };
    Some(format!("the document is past the parser's size limits: {what}"))
}

/// Parse a single scalar as YAML would type it (for environment overrides):
/// `true` is a boolean, `5` an integer, `[a, b]` a list, anything else a string.
pub fn parse_scalar(text: &str, origin: Origin) -> Node {
    let value = match parse(text) {
        Ok(node) => node.map_origins(&|_| origin.clone()).value,
        Err(_) => Value::Str(text.to_string()),
    };
    Node { value, origin }
}

/// What the parser hands back before locations are folded in.
enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<RawKey>, Spanned<Raw>)>),
}

/// A mapping key: YAML allows any scalar as a key; we keep its text.
struct RawKey(String);

fn to_node(spanned: Spanned<Raw>) -> Node {
    let origin = Origin::at(spanned.referenced.line(), spanned.referenced.column());
    let value = match spanned.value {
        Raw::Null => Value::Null,
        Raw::Bool(b) => Value::Bool(b),
        Raw::Int(i) => Value::Int(i),
        Raw::Float(f) => Value::Float(f),
        Raw::Str(s) => Value::Str(s),
        Raw::Seq(items) => Value::Seq(items.into_iter().map(to_node).collect()),
        Raw::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| {
                    let key = Key {
                        origin: Origin::at(k.referenced.line(), k.referenced.column()),
                        name: k.value.0,
                    };
                    (key, to_node(v))
                })
                .collect(),
        ),
    };
    Node { value, origin }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Raw>>()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<RawKey>>()? {
            let value = map.next_value::<Spanned<Raw>>()?;
            entries.push((key, value));
        }
        Ok(Raw::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

impl<'de> Deserialize<'de> for RawKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Raw::deserialize(d)? {
            Raw::Str(s) => Ok(RawKey(s)),
            Raw::Bool(b) => Ok(RawKey(b.to_string())),
            Raw::Int(i) => Ok(RawKey(i.to_string())),
            Raw::Float(f) => Ok(RawKey(f.to_string())),
            Raw::Null => Ok(RawKey("null".to_string())),
            Raw::Seq(_) | Raw::Map(_) => Err(de::Error::custom("a mapping key must be a scalar")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_locations_of_nested_keys_and_values() {
        let node = parse("base: main\ngates:\n  evidence:\n    enabled: false\n    n: 3\n").unwrap();
        let Value::Map(top) = &node.value else {
            panic!("not a map")
        };
        assert_eq!(top[0].0.name, "base");
        assert_eq!(top[0].1.value, Value::Str("main".into()));
        let Value::Map(gates) = &top[1].1.value else { panic!() };
        let Value::Map(ev) = &gates[0].1.value else { panic!() };
        assert_eq!(ev[0].0.origin, Origin::at(4, 5));
        assert_eq!(ev[0].1.value, Value::Bool(false));
        assert_eq!(ev[1].1.value, Value::Int(3));
        assert_eq!(ev[1].1.origin, Origin::at(5, 8));
    }

    #[test]
    fn syntax_error_has_a_location_and_one_line_message() {
        let err = parse("name: a: b\n").unwrap_err();
        assert_eq!((err.line, err.column), (1, 8));
        assert!(!err.message.contains('\n'), "{}", err.message);
        assert!(err.message.contains("mapping values"), "{}", err.message);
    }

    #[test]
    fn scalars_from_env_are_typed_like_yaml() {
        let o = Origin::Env("X".into());
        assert_eq!(parse_scalar("true", o.clone()).value, Value::Bool(true));
        assert_eq!(
            parse_scalar("cargo test", o.clone()).value,
            Value::Str("cargo test".into())
        );
        assert_eq!(parse_scalar("10m", o).value, Value::Str("10m".into()));
    }
}
