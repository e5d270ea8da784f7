//! The docs stay in step with the code: the key table is generated from the
//! schema, and every rule has its place in its gate's page.

use std::path::Path;

const START: &str = "<!-- keys:start (generated from src/config/schema.rs and the gates' settings.rs; a test keeps this table in step) -->\n";
const END: &str = "<!-- keys:end -->";

#[test]
fn the_configuration_key_table_matches_the_schema() {
    generated_block(
        "docs/configuration.md",
        START,
        END,
        &loki_gate::config::reference_table(loki_gate::gates::catalog()),
    );
}

/// Replace (with `LOKI_GATE_UPDATE_DOCS`) or check the generated block of `file`.
fn generated_block(file: &str, start: &str, end: &str, content: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let doc = std::fs::read_to_string(&path).unwrap();
    let from = doc.find(start).unwrap_or_else(|| panic!("{file}: no {start}")) + start.len();
    let to = doc.find(end).unwrap_or_else(|| panic!("{file}: no {end}"));
    if std::env::var_os("LOKI_GATE_UPDATE_DOCS").is_some() {
        // Through a temporary file: the other tests read these pages at the
        // same time, and must never see one half written.
        if &doc[from..to] != content {
            let tmp = path.with_extension("md.tmp");
            std::fs::write(&tmp, format!("{}{}{}", &doc[..from], content, &doc[to..])).unwrap();
            std::fs::rename(&tmp, &path).unwrap();
        }
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
    for rule in loki_gate::gates::rules() {
        let page = match rule.gate {
            "meta" => "docs/configuration.md",
            gate => &format!("docs/gates/{gate}.md"),
        };
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(page)).unwrap();
        assert!(text.contains(rule.id), "{} is not mentioned in {page}", rule.id);
    }
}

/// The completion scripts and the man page the release archives carry
/// (`share/`, listed in dist-workspace.toml) are what the binary generates.
#[test]
fn the_shipped_completions_and_man_page_are_generated_from_the_cli() {
    use clap_complete::Shell;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![(
        "share/man/man1/loki-gate.1".to_string(),
        loki_gate::commands::completions::man_page().unwrap(),
    )];
    for (shell, name) in [
        (Shell::Bash, "loki-gate.bash"),
        (Shell::Zsh, "_loki-gate"),
        (Shell::Fish, "loki-gate.fish"),
        (Shell::PowerShell, "_loki-gate.ps1"),
        (Shell::Elvish, "loki-gate.elv"),
    ] {
        files.push((
            format!("share/completions/{name}"),
            loki_gate::commands::completions::completion_script(shell),
        ));
    }
    for (rel, content) in files {
        let path = root.join(&rel);
        if std::env::var_os("LOKI_GATE_UPDATE_DOCS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &content).unwrap();
            continue;
        }
        let shipped = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            shipped == content,
            "{rel}: run with LOKI_GATE_UPDATE_DOCS=1 to regenerate"
        );
    }
    let dist: toml::Table =
        toml::from_str(&std::fs::read_to_string(root.join("dist-workspace.toml")).unwrap()).unwrap();
    let include: Vec<&str> = dist["dist"]["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(include, ["share/completions/", "share/man/"]);
}

/// The published JSON Schema is what `loki-gate schema` prints.
#[test]
fn the_published_config_schema_is_generated_from_the_schema_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/loki-gate.schema.json");
    let schema = loki_gate::commands::completions::schema_text();
    if std::env::var_os("LOKI_GATE_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &schema).unwrap();
        return;
    }
    let published = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        published == schema,
        "docs/loki-gate.schema.json: run with LOKI_GATE_UPDATE_DOCS=1 to regenerate"
    );
}

/// The README's quick start: the sample it ships is blocked as the README
/// shows, run from the clone as a newcomer runs it.
#[test]
fn the_quick_start_sample_is_blocked_as_the_readme_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let quick = &readme[readme.find("## Quick start").unwrap()..];
    assert!(
        quick.contains("```sh\nloki-gate mock examples/quickstart\n```"),
        "{quick}"
    );
    let shown = &quick[quick.find("```text\n").unwrap() + 8..];
    let shown = &shown[..shown.find("```").unwrap()];
    let mut cmd = crate::support::binary();
    cmd.current_dir(root)
        .args(["mock", "examples/quickstart", "--color", "never"]);
    let run = crate::support::run_cmd(&mut cmd);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    for line in shown.lines().filter(|l| *l != "...") {
        assert!(
            run.stdout.lines().any(|out| out == line),
            "README shows `{line}`; the run printed:\n{}",
            run.stdout
        );
    }
}
