//! The heldout gate's knobs.

use std::path::PathBuf;
use std::time::Duration;

use crate::config::Section;
use crate::config::schema::{FieldSpec, KeySpec, Kind, SectionSpec};

pub const WAIVER_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        name: "id",
        kind: Kind::Str,
        required: true,
        example: "refund-rounding",
        doc: "the held-out check's id",
    },
    FieldSpec {
        name: "reason",
        kind: Kind::Str,
        required: true,
        example: "\"known failure, tracked in #123\"",
        doc: "why it is waived (shown in every report)",
    },
];

pub const SECTION: SectionSpec = SectionSpec {
    gate: "heldout",
    doc: "heldout: acceptance checks kept outside the workspace, sealed by hash, run at the ship gate",
    keys: &[
        KeySpec {
            name: "enabled",
            kind: Kind::Bool,
            default: "false",
            doc: "true runs the held-out checks; off by default (it needs `heldout select` and a checks directory)",
        },
        KeySpec {
            name: "checks",
            kind: Kind::OptStr,
            default: "null",
            doc: "the directory holding the reserved checks, outside the workspace (or --checks, or LOKI_GATE_HELDOUT_DIR)",
        },
        KeySpec {
            name: "timeout",
            kind: Kind::Duration,
            default: "10m",
            doc: "time limit for one check, unless the check sets its own",
        },
        KeySpec {
            name: "parallel",
            kind: Kind::Count,
            default: "4",
            doc: "at most this many checks run at once",
        },
        KeySpec {
            name: "waivers",
            kind: Kind::Records(WAIVER_FIELDS),
            default: "[]",
            doc: "checks not run, each reported as waived with its reason",
        },
    ],
};

/// What the command line sets over the config (`loki-gate heldout --checks ...`).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub checks: Option<std::path::PathBuf>,
    pub reveal: bool,
    pub require: bool,
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub checks: Option<PathBuf>,
    pub timeout: Duration,
    pub parallel: usize,
    /// `(id, reason)`.
    pub waivers: Vec<(String, String)>,
    pub reveal: bool,
    pub require: bool,
}

impl Settings {
    /// `--checks` (or its variable) over config; relative paths from `cwd`
    /// on the command line, from the repository root in config.
    pub fn resolve(section: &Section, args: &Overrides, root: &std::path::Path, cwd: &std::path::Path) -> Settings {
        let checks = match &args.checks {
            Some(dir) => Some(cwd.join(dir)),
            None => section.opt_str("checks").map(|d| root.join(d)),
        };
        Settings {
            checks,
            timeout: section.duration("timeout"),
            parallel: usize::try_from(section.count("parallel")).unwrap_or(1).max(1),
            waivers: section
                .records("waivers")
                .iter()
                .map(|r| (r.str("id").unwrap_or_default(), r.str("reason").unwrap_or_default()))
                .collect(),
            reveal: args.reveal,
            require: args.require,
        }
    }
}
