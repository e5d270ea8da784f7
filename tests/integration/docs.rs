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

/// Replace (with `LOKI_GATE_UPDATE_DOCS`) or check the generated block of `file`.
fn generated_block(file: &str, start: &str, end: &str, content: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let doc = std::fs::read_to_string(&path).unwrap();
    let from = doc.find(start).unwrap_or_else(|| panic!("{file}: no {start}")) + start.len();
    let to = doc.find(end).unwrap_or_else(|| panic!("{file}: no {end}"));
    if std::env::var_os("LOKI_GATE_UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{}{}", &doc[..from], content, &doc[to..])).unwrap();
        return;
    }
    assert_eq!(
        &doc[from..to],
        content,
        "{file}: run with LOKI_GATE_UPDATE_DOCS=1 to regenerate"
    );
}

#[test]
fn the_matcher_lattice_is_printed_where_it_is_documented() {
    let table = loki_gate::gates::mutation::lattice::table();
    let start = "<!-- lattice:start (generated from src/gates/mutation/lattice.rs; a test keeps it in step) -->\n";
    let end = "<!-- lattice:end -->";
    for file in [
        "docs/gates/mutation.md",
        "src/gates/mutation/rules/assertion-weakened.md",
    ] {
        generated_block(file, start, end, &table);
    }
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
