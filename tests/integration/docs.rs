//! The docs stay in step with the code: the key table is generated from the
//! schema, and every rule has its place in its gate's page.

use std::path::Path;

const START: &str = "<!-- keys:start (generated from src/config/schema.rs and the gates' settings.rs; a test keeps this table in step) -->\n";
const END: &str = "<!-- keys:end -->";

#[test]
fn the_configuration_key_table_matches_the_schema() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/configuration.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let start = doc.find(START).expect("start marker") + START.len();
    let end = doc.find(END).expect("end marker");
    let table = loki_gate::config::reference_table();
    if std::env::var_os("LOKI_GATE_UPDATE_DOCS").is_some() {
        let updated = format!("{}{}{}", &doc[..start], table, &doc[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert_eq!(
        &doc[start..end],
        table,
        "run with LOKI_GATE_UPDATE_DOCS=1 to regenerate"
    );
}

#[test]
fn every_rule_is_documented_on_its_gate_page() {
    for rule in loki_gate::rule::all() {
        let page = match rule.gate {
            "meta" => "docs/configuration.md",
            gate => &format!("docs/gates/{gate}.md"),
        };
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(page)).unwrap();
        assert!(text.contains(rule.id), "{} is not mentioned in {page}", rule.id);
    }
}
