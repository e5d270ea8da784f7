//! Config errors: every problem, with its location and the fix, before anything runs.

use crate::support::TestRepo;

/// Run `evidence` with `config` as `.loki-gate.yaml`; it must exit 2 without running anything.
fn rejected(config: &str) -> String {
    let repo = TestRepo::new();
    repo.write(".loki-gate.yaml", config);
    let run = repo.run(&["evidence", "--test-command", "touch ran"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!repo.path().join("ran").exists(), "nothing runs on a bad config");
    assert_eq!(run.stdout, "");
    run.stderr
}

#[test]
fn unknown_keys_and_wrong_types_are_all_reported_together() {
    insta::assert_snapshot!(rejected(
        "bse: main\ngates:\n  evidence:\n    enabeld: true\n    timeout: forever\n    require-anchor: \"yes\"\n"
    ));
}

#[test]
fn invalid_yaml_names_the_line_and_column() {
    insta::assert_snapshot!(rejected("gates:\n  evidence: {enabled: true\nbase: x\n"));
}

#[test]
fn unknown_rule_ids_and_levels() {
    insta::assert_snapshot!(rejected(
        "rules:\n  evidence/empty-dif: deny\n  evidence/no-anchor: block\n  nonsense: warn\n  evidence: allow\n"
    ));
}

#[test]
fn bad_globs_in_exclude() {
    insta::assert_snapshot!(rejected("exclude:\n  - \"vendor/**\"\n  - \"src/[a-\"\n  - 42\n"));
}

#[test]
fn unknown_gates_and_sections_of_the_wrong_shape() {
    insta::assert_snapshot!(rejected(
        "gates:\n  mock: {enabled: true}\n  evidnce: {}\nrules: [a, b]\n"
    ));
}

#[test]
fn a_section_that_is_not_a_mapping() {
    insta::assert_snapshot!(rejected("gates:\n  evidence: true\nbase: [main]\n"));
}

#[test]
fn a_top_level_that_is_not_a_mapping() {
    insta::assert_snapshot!(rejected("- evidence\n- mock\n"));
}

#[test]
fn environment_overrides_are_validated_too() {
    let repo = TestRepo::new();
    let run = repo.run_env(
        &["evidence"],
        &[
            ("LOKI_GATE_EVIDENCE_TIMEOUT", "forever"),
            ("LOKI_GATE_EVIDENCE_REQUIRE_ANCHOR", "maybe"),
        ],
    );
    assert_eq!(run.code, 2);
    insta::assert_snapshot!(run.stderr);
}

#[test]
fn a_missing_explicit_config_file_is_exit_2() {
    let repo = TestRepo::new();
    let run = repo.run(&["evidence", "--config", "nope.yaml"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("nope.yaml not found: check the path given to --config"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_config_that_is_not_utf8_is_exit_2() {
    let repo = TestRepo::new();
    repo.write(".loki-gate.yaml", b"base: \xff\xfe\n");
    let run = repo.run(&["evidence"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: config file .loki-gate.yaml is not valid UTF-8: save it as UTF-8\n"
    );
}

#[test]
fn the_second_file_name_is_found_and_an_explicit_file_wins() {
    let repo = TestRepo::new();
    repo.write(
        "loki-gate.yaml",
        "gates:\n  evidence:\n    test-command: \"echo '2 passed, 0 failed'\"\n",
    );
    repo.write("a.txt", "a\n");
    let run = repo.run(&["evidence"]);
    assert!(run.stdout.contains("2 passed"), "{}{}", run.stdout, run.stderr);
    repo.write(
        "other.yaml",
        "gates:\n  evidence:\n    test-command: \"echo '9 passed, 0 failed'\"\n",
    );
    let run = repo.run(&["evidence", "--config", "other.yaml"]);
    assert!(run.stdout.contains("9 passed"), "{}", run.stdout);
}

#[test]
fn an_empty_config_file_means_defaults() {
    let repo = TestRepo::new();
    repo.write(".loki-gate.yaml", "# nothing yet\n");
    repo.write("a.txt", "a\n");
    assert_eq!(
        repo.run(&["evidence", "--test-command", "echo '1 passed, 0 failed'"])
            .code,
        0
    );
}

/// The JSON Schema editors check `.loki-gate.yaml` with agrees with
/// loki-gate's own validator: the file `init` writes passes both, and each
/// of these mistakes fails both (check-jsonschema, from PyPI, as .ci/run
/// installs it, reads the YAML and applies the schema).
#[test]
fn the_json_schema_agrees_with_the_validator() {
    let repo = TestRepo::new();
    let schema = repo.path().join("schema.json");
    let printed = repo.run(&["schema"]);
    assert_eq!(printed.code, 0);
    std::fs::write(&schema, &printed.stdout).unwrap();
    let schema_says = |file: &str| {
        let out = std::process::Command::new("check-jsonschema")
            .arg("--schemafile")
            .arg(&schema)
            .arg(repo.path().join(file))
            .output()
            .expect("check-jsonschema runs (python3 -m pip install check-jsonschema, as .ci/run does)");
        out.status.success()
    };
    let init = repo.run(&["init"]);
    assert_eq!(init.code, 0, "{}", init.stderr);
    let written = repo.read(".loki-gate.yaml");
    // No reference to a URL that does not resolve (issue 56): the hint
    // names the command that writes the schema.
    assert!(!written.contains("OWNER") && !written.contains("https://"), "{written}");
    assert!(
        written.contains("`loki-gate schema > .loki-gate.schema.json`"),
        "{written}"
    );
    assert!(schema_says(".loki-gate.yaml"), "the init file fits the schema");
    let cases = [
        ("gates:\n  mock:\n    enabeld: true\n", false),
        ("gates:\n  evidence:\n    timeout: soon\n", false),
        ("gates:\n  mutation:\n    max-commits: -1\n", false),
        ("rules:\n  mock: block\n", false),
        ("gates:\n  static:\n    custom:\n      - {sarif: r.sarif}\n", false),
        ("gatez: {}\n", false),
        ("rules:\n  mock: off\n  docs: warning\n", true),
        ("exclude: vendor/**\ngates:\n  evidence:\n    timeout: 90s\n", true),
        (
            "gates:\n  static:\n    custom:\n      - {name: scan, sarif: r.sarif}\n",
            true,
        ),
    ];
    for (text, valid) in cases {
        repo.write(".loki-gate.yaml", text);
        let loki = repo.run(&["mock"]);
        assert_eq!(loki.code != 2, valid, "loki-gate on {text:?}: {}", loki.stderr);
        assert_eq!(schema_says(".loki-gate.yaml"), valid, "the schema on {text:?}");
    }
}

/// `[tool.loki-gate]` in pyproject.toml and `"loki-gate"` in package.json
/// are read as `.loki-gate.yaml` is, with the same validation and errors at
/// their line and column; the YAML file, when there is one, comes first.
#[test]
fn project_files_hold_the_configuration_too() {
    let repo = TestRepo::new();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\n\n[tool.ruff]\nline-length = 100\n\n[tool.loki-gate]\nmax-file-bytes = 4096\n\n[tool.loki-gate.gates.mock]\nlanguages = [\"python\"]\n",
    );
    repo.commit("pyproject");
    let shown = repo.run(&["check", "--show-settings"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let line = |key: &str| {
        shown
            .stdout
            .lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("{key} in {}", shown.stdout))
            .to_string()
    };
    assert!(
        line("max-file-bytes").contains("4096") && line("max-file-bytes").contains("pyproject.toml:8"),
        "{}",
        shown.stdout
    );
    assert!(
        line("gates.mock.languages").contains("pyproject.toml:11"),
        "{}",
        shown.stdout
    );

    // A mistake is named at its place in pyproject.toml, nothing is run.
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\n\n[tool.loki-gate.gates.mock]\nenabeld = true\n",
    );
    let bad = repo.run(&["mock"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("pyproject.toml:5:1"), "{}", bad.stderr);
    assert!(bad.stderr.contains("enabled"), "the nearest key: {}", bad.stderr);

    // package.json, with the position of the value in the file.
    std::fs::remove_file(repo.root().join("pyproject.toml")).unwrap();
    repo.write(
        "package.json",
        "{\n  \"name\": \"shop\",\n  \"loki-gate\": {\n    \"rules\": { \"mock/empty-test\": \"loud\" }\n  }\n}\n",
    );
    let bad = repo.run(&["mock"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr
            .contains("package.json:4:35: invalid level for `mock/empty-test`"),
        "{}",
        bad.stderr
    );

    // The YAML file comes first; a project file that holds none is passed by.
    repo.write(
        "package.json",
        "{\"name\": \"shop\", \"loki-gate\": {\"max-file-bytes\": 1}}\n",
    );
    repo.write(".loki-gate.yaml", "max-file-bytes: 2048\n");
    let shown = repo.run(&["check", "--show-settings"]);
    assert!(shown.stdout.contains("2048"), "{}", shown.stdout);
    std::fs::remove_file(repo.root().join(".loki-gate.yaml")).unwrap();
    repo.write("package.json", "{\"name\": \"shop\"}\n");
    repo.write("pyproject.toml", "this is [not toml\n");
    let defaults = repo.run(&["check", "--show-settings"]);
    assert_eq!(
        defaults.code, 0,
        "a broken pyproject.toml that names no loki-gate is not ours: {}",
        defaults.stderr
    );

    // `init` does not write a file that would shadow the configuration in use.
    repo.write("pyproject.toml", "[tool.loki-gate]\nexclude = [\"dist/**\"]\n");
    let init = repo.run(&["init"]);
    assert_eq!(init.code, 2, "{}", init.stderr);
    assert!(init.stderr.contains("pyproject.toml"), "{}", init.stderr);
    assert!(!repo.root().join(".loki-gate.yaml").exists());
}
