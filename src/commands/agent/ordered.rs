//! JSON that keeps its keys in the order they were written, and its
//! numbers as written: an agent's settings file comes back as the user left
//! it, with only loki-gate's entries changed. (serde_json's own map sorts
//! keys unless a crate-wide feature says otherwise, which would change every
//! other JSON loki-gate writes.)

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// As written (`600`, `1.5e3`).
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// Keys in the order written.
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(fields) => fields.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_empty_object(&self) -> bool {
        matches!(self, Json::Object(fields) if fields.is_empty())
    }

    /// Set `key` of an object (appended when new); nothing on another value.
    pub fn insert(&mut self, key: &str, value: Json) {
        if let Json::Object(fields) = self {
            match fields.iter_mut().find(|(k, _)| k == key) {
                Some((_, v)) => *v = value,
                None => fields.push((key.to_string(), value)),
            }
        }
    }

    /// The object under `key`, made when missing; `None` when something else is there.
    pub fn entry_object(&mut self, key: &str) -> Option<&mut Json> {
        if self.get(key).is_none() {
            self.insert(key, Json::Object(Vec::new()));
        }
        self.get_mut(key).filter(|v| matches!(v, Json::Object(_)))
    }

    /// The list under `key`, made when missing; `None` when something else is there.
    pub fn entry_array(&mut self, key: &str) -> Option<&mut Vec<Json>> {
        if self.get(key).is_none() {
            self.insert(key, Json::Array(Vec::new()));
        }
        match self.get_mut(key) {
            Some(Json::Array(items)) => Some(items),
            _ => None,
        }
    }

    /// Indented by two spaces, as editors and the agents write it.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        let pad = |out: &mut String, depth: usize| out.extend(std::iter::repeat_n("  ", depth));
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(n),
            Json::String(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Object(fields) if fields.is_empty() => out.push_str("{}"),
            Json::Array(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    pad(out, depth + 1);
                    item.write(out, depth + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                pad(out, depth);
                out.push(']');
            }
            Json::Object(fields) => {
                out.push_str("{\n");
                for (i, (key, value)) in fields.iter().enumerate() {
                    pad(out, depth + 1);
                    out.push_str(&serde_json::to_string(key).unwrap_or_default());
                    out.push_str(": ");
                    value.write(out, depth + 1);
                    out.push_str(if i + 1 < fields.len() { ",\n" } else { "\n" });
                }
                pad(out, depth);
                out.push('}');
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        struct Reader;
        impl<'de> Visitor<'de> for Reader {
            type Value = Json;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
                Ok(Json::Number(n.to_string()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
                Ok(Json::Number(n.to_string()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
                Ok(Json::Number(
                    serde_json::Number::from_f64(n).map_or("null".into(), |n| n.to_string()),
                ))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Json, E> {
                Ok(Json::String(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Json, E> {
                Ok(Json::String(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut fields: Vec<(String, Json)> = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Json>()? {
                    // A repeated key: the last one wins, as JSON.parse has it.
                    fields.retain(|(k, _)| *k != key);
                    fields.push((key, value));
                }
                Ok(Json::Object(fields))
            }
        }
        deserializer.deserialize_any(Reader)
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn keys_and_numbers_come_back_as_written() {
        let text = "{\n  \"zeta\": 1.50,\n  \"alpha\": [\n    true,\n    null,\n    \"a\\\"b\"\n  ],\n  \"empty\": {},\n  \"none\": []\n}";
        let doc: Json = serde_json::from_str(text).unwrap();
        // serde_json reads numbers as f64 (1.5): the value is kept, not its spelling.
        assert_eq!(doc.pretty(), text.replace("1.50", "1.5"));
    }
}
