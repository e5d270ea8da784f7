//! Which keys of which tools' configs lower the bar, and which way.

/// Which way a key's change lowers the bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Way {
    /// A list (or table) that gains an item: `ignore`, `exclude`.
    More,
    /// A list that loses an item: `select`, `testpaths`, `include`.
    Fewer,
    /// Turned on: `ignore_errors`.
    On,
    /// Turned off (or dropped): `strict`, `disallow_untyped_defs`.
    Off,
    /// On unless set: set to `false` (cargo's `autotests`, `[lib] test`).
    OffFromDefault,
    /// Cargo's target tables (`[[test]]`): one, by name, newly left out of
    /// a plain `cargo test` (`test = false`, `required-features` gained).
    Targets,
    /// A number raised: `line-length`, a complexity threshold.
    Higher,
    /// Rule levels (`{"no-console": "error"}`, `[lints.clippy]`), one lowered or dropped.
    Levels,
    /// pytest's `addopts` gaining a deselecting option.
    Opts,
    /// ruff's rule selection: a rule code or prefix no longer covered by
    /// any selector (`E` covers `E501`, `ALL` everything); unset is ruff's
    /// default selection ([`RUFF_DEFAULT_SELECT`]).
    Selects,
    /// Any change: which tests a pattern collects cannot be told.
    Any,
}

/// How a config file is written.
#[derive(Debug, Clone, Copy)]
pub(super) enum Format {
    Toml,
    /// An INI file and the section its keys are in.
    Ini(&'static str),
    Json,
    Yaml,
    /// `key=value` lines (`.shellcheckrc`).
    Lines,
    /// Code: a changed line naming one of the keys.
    Code,
}

/// One tool's keys in one kind of file.
pub(super) struct ToolFile {
    /// The file names it is read from (in any directory).
    pub names: &'static [&'static str],
    pub format: Format,
    /// Where the tool's table is in the file (`tool.ruff`); `""` for the whole file.
    pub at: &'static str,
    pub tool: &'static str,
    /// The gate whose bar it lowers.
    pub gate: &'static str,
    pub keys: &'static [(&'static str, Way)],
}

pub(super) const RUFF_KEYS: &[(&str, Way)] = &[
    ("ignore", Way::More),
    ("extend-ignore", Way::More),
    ("lint.ignore", Way::More),
    ("lint.extend-ignore", Way::More),
    ("select", Way::Selects),
    ("extend-select", Way::Fewer),
    ("lint.select", Way::Selects),
    ("lint.extend-select", Way::Fewer),
    ("exclude", Way::More),
    ("extend-exclude", Way::More),
    ("lint.exclude", Way::More),
    ("per-file-ignores", Way::More),
    ("extend-per-file-ignores", Way::More),
    ("lint.per-file-ignores", Way::More),
    ("lint.extend-per-file-ignores", Way::More),
    ("line-length", Way::Higher),
    ("lint.mccabe.max-complexity", Way::Higher),
    // Another file's settings under this one's (issue 63).
    ("extend", Way::Any),
];

/// What ruff selects when a config selects nothing (`select` unset).
pub(super) const RUFF_DEFAULT_SELECT: &[&str] = &["E4", "E7", "E9", "F"];

pub(super) const MYPY_KEYS: &[(&str, Way)] = &[
    ("strict", Way::Off),
    ("disallow_untyped_defs", Way::Off),
    ("disallow_incomplete_defs", Way::Off),
    ("check_untyped_defs", Way::Off),
    ("disallow_any_generics", Way::Off),
    ("disallow_untyped_calls", Way::Off),
    ("warn_return_any", Way::Off),
    ("strict_optional", Way::Off),
    ("ignore_errors", Way::On),
    ("ignore_missing_imports", Way::On),
    ("disable_error_code", Way::More),
    ("enable_error_code", Way::Fewer),
    ("files", Way::Fewer),
    ("exclude", Way::Any),
    ("follow_imports", Way::Any),
    ("overrides", Way::Any),
];

pub(super) const PYTEST_KEYS: &[(&str, Way)] = &[
    ("python_files", Way::Any),
    ("python_classes", Way::Any),
    ("python_functions", Way::Any),
    ("testpaths", Way::Fewer),
    ("norecursedirs", Way::More),
    ("addopts", Way::Opts),
];

pub(super) const JEST_KEYS: &[(&str, Way)] = &[
    ("testMatch", Way::Any),
    ("testRegex", Way::Any),
    ("roots", Way::Fewer),
    ("testPathIgnorePatterns", Way::More),
    ("modulePathIgnorePatterns", Way::More),
    ("coveragePathIgnorePatterns", Way::More),
    // Code run around every test, and what reports or runs them: any of
    // it can decide a result (issue 63).
    ("setupFiles", Way::Any),
    ("setupFilesAfterEnv", Way::Any),
    ("globalSetup", Way::Any),
    ("globalTeardown", Way::Any),
    ("reporters", Way::Any),
    ("testEnvironment", Way::Any),
    ("testRunner", Way::Any),
];

pub(super) const TSC_KEYS: &[(&str, Way)] = &[
    ("compilerOptions.strict", Way::Off),
    ("compilerOptions.noImplicitAny", Way::Off),
    ("compilerOptions.strictNullChecks", Way::Off),
    ("compilerOptions.noImplicitReturns", Way::Off),
    ("compilerOptions.noUnusedLocals", Way::Off),
    ("compilerOptions.noUnusedParameters", Way::Off),
    ("compilerOptions.checkJs", Way::Off),
    ("include", Way::Fewer),
    ("files", Way::Fewer),
    ("exclude", Way::More),
    // Another tsconfig's settings under this one's (issue 63).
    ("extends", Way::Any),
];

pub(super) const ESLINT_KEYS: &[(&str, Way)] = &[
    ("rules", Way::Levels),
    ("ignorePatterns", Way::More),
    // Another config's settings under this one's (issue 63).
    ("extends", Way::Any),
];

pub(super) const GOLANGCI_KEYS: &[(&str, Way)] = &[
    ("linters.disable", Way::More),
    ("linters.enable", Way::Fewer),
    ("linters.default", Way::Any),
    ("linters.exclusions", Way::Any),
    ("issues.exclude", Way::More),
    ("issues.exclude-rules", Way::More),
    ("issues.exclude-dirs", Way::More),
    ("issues.exclude-files", Way::More),
    ("run.skip-dirs", Way::More),
    ("run.skip-files", Way::More),
    ("run.build-tags", Way::Any),
];

pub(super) const CARGO_KEYS: &[(&str, Way)] = &[
    ("lints.clippy", Way::Levels),
    ("lints.rust", Way::Levels),
    ("workspace.lints.clippy", Way::Levels),
    ("workspace.lints.rust", Way::Levels),
];

/// Which tests `cargo test` builds: `tests/*.rs` found by itself, the
/// library's unit tests and doctests.
pub(super) const CARGO_TEST_KEYS: &[(&str, Way)] = &[
    ("package.autotests", Way::OffFromDefault),
    ("lib.test", Way::OffFromDefault),
    ("lib.doctest", Way::OffFromDefault),
    ("test", Way::Targets),
];

pub(super) const CLIPPY_KEYS: &[(&str, Way)] = &[
    ("too-many-arguments-threshold", Way::Higher),
    ("cognitive-complexity-threshold", Way::Higher),
    ("type-complexity-threshold", Way::Higher),
    ("too-many-lines-threshold", Way::Higher),
];

/// Keys a config written as code names when it decides which tests run or
/// which rules are off.
pub(super) const JS_TEST_CODE: &[(&str, Way)] = &[
    ("testMatch", Way::Any),
    ("testRegex", Way::Any),
    ("testPathIgnorePatterns", Way::Any),
    ("roots", Way::Any),
    ("include", Way::Any),
    ("exclude", Way::Any),
    ("testNamePattern", Way::Any),
    // jest's and vitest's setup modules, reporters and environments (issue 63).
    ("setupFiles", Way::Any),
    ("globalSetup", Way::Any),
    ("reporters", Way::Any),
    ("testEnvironment", Way::Any),
    ("environment:", Way::Any),
    ("testRunner", Way::Any),
];
pub(super) const ESLINT_CODE: &[(&str, Way)] = &[
    ("ignores", Way::Any),
    ("'off'", Way::Any),
    ("\"off\"", Way::Any),
    (": 0", Way::Any),
];
/// The lines of a `conftest.py` that decide what is collected; its hook
/// implementations and autouse fixtures are compared whole
/// (`tools::conftest`).
pub(super) const CONFTEST_CODE: &[(&str, Way)] = &[("collect_ignore", Way::Any), ("deselect", Way::Any)];

/// A jest or vitest setup module (`setupFiles`, `setupFilesAfterEnv`,
/// `globalSetup`): code run around every test file. A line it gains that
/// skips, focuses, mocks or replaces the test API there reaches every test.
/// Each key is a word (`.skip` is not `.skipChecks`); the `global.` ones
/// name the test API only, not a polyfill (`globalThis.crypto`).
pub(super) const SETUP_FILE: ToolFile = ToolFile {
    names: &[],
    format: Format::Code,
    at: "",
    tool: "test setup",
    gate: "mock",
    keys: &[
        (".skip", Way::Any),
        (".only", Way::Any),
        (".todo", Way::Any),
        ("xit", Way::Any),
        ("xtest", Way::Any),
        ("xdescribe", Way::Any),
        ("global.test", Way::Any),
        ("global.it", Way::Any),
        ("global.describe", Way::Any),
        ("global.expect", Way::Any),
        ("globalThis.test", Way::Any),
        ("globalThis.it", Way::Any),
        ("globalThis.describe", Way::Any),
        ("globalThis.expect", Way::Any),
        ("expect.extend", Way::Any),
        ("jest.mock", Way::Any),
        ("vi.mock", Way::Any),
        ("doMock", Way::Any),
        ("retryTimes", Way::Any),
        ("retry", Way::Any),
    ],
};

/// ESLint's flat config files, in the order it looks for them.
pub(super) const ESLINT_FLAT_CONFIGS: &[&str] = &[
    "eslint.config.js",
    "eslint.config.mjs",
    "eslint.config.cjs",
    "eslint.config.ts",
    "eslint.config.mts",
    "eslint.config.cts",
];

pub(super) const FILES: &[ToolFile] = &[
    ToolFile {
        names: &["pyproject.toml"],
        format: Format::Toml,
        at: "tool.ruff",
        tool: "ruff",
        gate: "static",
        keys: RUFF_KEYS,
    },
    ToolFile {
        names: &["ruff.toml", ".ruff.toml"],
        format: Format::Toml,
        at: "",
        tool: "ruff",
        gate: "static",
        keys: RUFF_KEYS,
    },
    ToolFile {
        names: &["pyproject.toml"],
        format: Format::Toml,
        at: "tool.mypy",
        tool: "mypy",
        gate: "static",
        keys: MYPY_KEYS,
    },
    ToolFile {
        names: &["mypy.ini", ".mypy.ini", "setup.cfg"],
        format: Format::Ini("mypy"),
        at: "",
        tool: "mypy",
        gate: "static",
        keys: MYPY_KEYS,
    },
    ToolFile {
        names: &["pyproject.toml"],
        format: Format::Toml,
        at: "tool.pytest.ini_options",
        tool: "pytest",
        gate: "mock",
        keys: PYTEST_KEYS,
    },
    ToolFile {
        names: &["pytest.ini", "tox.ini"],
        format: Format::Ini("pytest"),
        at: "",
        tool: "pytest",
        gate: "mock",
        keys: PYTEST_KEYS,
    },
    ToolFile {
        names: &["setup.cfg"],
        format: Format::Ini("tool:pytest"),
        at: "",
        tool: "pytest",
        gate: "mock",
        keys: PYTEST_KEYS,
    },
    ToolFile {
        names: &["conftest.py"],
        format: Format::Code,
        at: "",
        tool: "pytest",
        gate: "mock",
        keys: CONFTEST_CODE,
    },
    ToolFile {
        names: &["package.json"],
        format: Format::Json,
        at: "jest",
        tool: "jest",
        gate: "mock",
        keys: JEST_KEYS,
    },
    ToolFile {
        names: &["jest.config.json"],
        format: Format::Json,
        at: "",
        tool: "jest",
        gate: "mock",
        keys: JEST_KEYS,
    },
    ToolFile {
        names: &[
            "jest.config.js",
            "jest.config.ts",
            "jest.config.mjs",
            "jest.config.cjs",
            "vitest.config.js",
            "vitest.config.ts",
            "vitest.config.mjs",
            "vitest.config.mts",
            "vite.config.js",
            "vite.config.ts",
            "vite.config.mjs",
            "vite.config.mts",
        ],
        format: Format::Code,
        at: "",
        tool: "the test runner",
        gate: "mock",
        keys: JS_TEST_CODE,
    },
    ToolFile {
        names: &["tsconfig.json"],
        format: Format::Json,
        at: "",
        tool: "tsc",
        gate: "static",
        keys: TSC_KEYS,
    },
    ToolFile {
        names: &[".eslintrc", ".eslintrc.json"],
        format: Format::Json,
        at: "",
        tool: "eslint",
        gate: "static",
        keys: ESLINT_KEYS,
    },
    ToolFile {
        names: &[".eslintrc.yml", ".eslintrc.yaml"],
        format: Format::Yaml,
        at: "",
        tool: "eslint",
        gate: "static",
        keys: ESLINT_KEYS,
    },
    ToolFile {
        names: &["package.json"],
        format: Format::Json,
        at: "eslintConfig",
        tool: "eslint",
        gate: "static",
        keys: ESLINT_KEYS,
    },
    ToolFile {
        names: ESLINT_FLAT_CONFIGS,
        format: Format::Code,
        at: "",
        tool: "eslint",
        gate: "static",
        keys: ESLINT_CODE,
    },
    ToolFile {
        names: &[".golangci.yml", ".golangci.yaml"],
        format: Format::Yaml,
        at: "",
        tool: "golangci-lint",
        gate: "static",
        keys: GOLANGCI_KEYS,
    },
    ToolFile {
        names: &[".golangci.toml"],
        format: Format::Toml,
        at: "",
        tool: "golangci-lint",
        gate: "static",
        keys: GOLANGCI_KEYS,
    },
    ToolFile {
        names: &[".golangci.json"],
        format: Format::Json,
        at: "",
        tool: "golangci-lint",
        gate: "static",
        keys: GOLANGCI_KEYS,
    },
    ToolFile {
        names: &["Cargo.toml"],
        format: Format::Toml,
        at: "",
        tool: "clippy",
        gate: "static",
        keys: CARGO_KEYS,
    },
    ToolFile {
        names: &["Cargo.toml"],
        format: Format::Toml,
        at: "",
        tool: "cargo test",
        gate: "mock",
        keys: CARGO_TEST_KEYS,
    },
    ToolFile {
        names: &["clippy.toml", ".clippy.toml"],
        format: Format::Toml,
        at: "",
        tool: "clippy",
        gate: "static",
        keys: CLIPPY_KEYS,
    },
    ToolFile {
        names: &[".shellcheckrc", "shellcheckrc"],
        format: Format::Lines,
        at: "",
        tool: "shellcheck",
        gate: "static",
        keys: &[("disable", Way::More)],
    },
];

/// The options of pytest's `addopts` that leave tests out.
pub(super) const DESELECTING: &[&str] = &[
    "--deselect",
    "-k",
    "--ignore",
    "--ignore-glob",
    "-m",
    "-p",
    "--continue-on-collection-errors",
];
