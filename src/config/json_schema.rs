//! The configuration as a JSON Schema (draft 07), generated from the one
//! schema table ([`super::schema`]), so editors complete and check
//! `.loki-gate.yaml` (`loki-gate init` points the YAML language server at
//! it; `loki-gate schema` prints it; `docs/loki-gate.schema.json` is the
//! published copy a test keeps in step). Validation itself stays loki-gate's:
//! the schema accepts what the validator accepts, and says less.

use serde_json::{Map, Value as Json, json};

use super::Catalog;
use super::schema::{self, FieldSpec, KeySpec, Kind};
use super::yaml::{self, Origin, Value};

/// The schema of a config file for `catalog`'s sections and rules.
pub fn json_schema(catalog: Catalog) -> Json {
    let mut gates = Map::new();
    for section in catalog.sections {
        gates.insert(
            section.gate.to_string(),
            json!({
                "description": section.doc,
                // A section with every key commented out is null.
                "type": ["object", "null"],
                "additionalProperties": false,
                "properties": keys(section.keys),
            }),
        );
    }
    let mut top = keys(schema::TOP.keys);
    top.insert(
        "gates".into(),
        json!({
            "description": "Each gate's settings.",
            "type": ["object", "null"],
            "additionalProperties": false,
            "properties": gates,
        }),
    );
    top.insert(
        "rules".into(),
        json!({
            "description": "Levels per rule id (`loki-gate rules`), rule family (`static/ruff`) or whole gate.",
            "type": ["object", "null"],
            "additionalProperties": {
                "description": "allow (or off), note, warn (or warning), deny (or error)",
                // YAML reads a bare `off` as false.
                "enum": ["allow", "off", false, "note", "warn", "warning", "deny", "error"],
            },
        }),
    );
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "loki-gate configuration (.loki-gate.yaml)",
        "description": "Every key, its type and default: docs/configuration.md.",
        "type": "object",
        "additionalProperties": false,
        "properties": top,
    })
}

fn keys(specs: &[KeySpec]) -> Map<String, Json> {
    specs
        .iter()
        .map(|key| {
            let mut entry = kind(key.kind);
            let object = entry.as_object_mut().expect("kinds are objects");
            object.insert("description".into(), json!(key.doc));
            object.insert(
                "default".into(),
                to_json(&yaml::parse_scalar(key.default, Origin::Env(String::new())).value),
            );
            (key.name.to_string(), entry)
        })
        .collect()
}

/// What the validator accepts for `kind` (a single string stands for a list of one).
fn kind(kind: Kind) -> Json {
    let strings = json!({"type": "array", "items": {"type": "string"}});
    match kind {
        Kind::Bool => json!({"type": "boolean"}),
        Kind::OptStr => json!({"type": ["string", "null"]}),
        Kind::Str => json!({"type": "string"}),
        Kind::GlobList | Kind::List => json!({"anyOf": [{"type": "string"}, strings]}),
        Kind::Duration => json!({"anyOf": [
            {"type": "string", "pattern": "^\\s*[0-9]+(\\.[0-9]+)?\\s*(ms|s|sec|secs|m|min|mins|h|hr|hours)?\\s*$"},
            {"type": "integer", "exclusiveMinimum": 0},
        ]}),
        Kind::Choices(names) => json!({"anyOf": [{"enum": names}, {"type": "array", "items": {"enum": names}}]}),
        Kind::Choice(names) => json!({"enum": names}),
        Kind::Count => json!({"type": "integer", "minimum": 0}),
        Kind::Number => json!({"type": "number", "minimum": 0}),
        Kind::Counts => json!({"anyOf": [
            {"type": "integer", "minimum": 0},
            {"type": "array", "items": {"type": "integer", "minimum": 0}},
        ]}),
        Kind::Records(fields) => json!({"type": "array", "items": record(fields)}),
    }
}

fn record(fields: &[FieldSpec]) -> Json {
    let properties: Map<String, Json> = fields
        .iter()
        .map(|field| {
            let mut entry = kind(field.kind);
            entry
                .as_object_mut()
                .expect("kinds are objects")
                .insert("description".into(), json!(field.doc));
            (field.name.to_string(), entry)
        })
        .collect();
    let required: Vec<&str> = fields.iter().filter(|f| f.required).map(|f| f.name).collect();
    json!({"type": "object", "additionalProperties": false, "properties": properties, "required": required})
}

fn to_json(value: &Value) -> Json {
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(n) => json!(n),
        Value::Float(f) => json!(f),
        Value::Str(s) => json!(s),
        Value::Seq(items) => Json::Array(items.iter().map(|n| to_json(&n.value)).collect()),
        Value::Map(entries) => Json::Object(
            entries
                .iter()
                .map(|(k, n)| (k.name.clone(), to_json(&n.value)))
                .collect(),
        ),
    }
}
