//! `--show-settings`: the configuration a run would use, after the file,
//! the environment, the command line and the trust rules, with where each
//! value came from; nothing is gated.

use super::*;

/// Print the effective settings of `gate` (every gate's for `check`).
pub(crate) fn show(global: &GlobalArgs, gate: Option<&str>) -> Result<ExitStatus> {
    let session = Session::open(global, &env_var, false)?;
    let root = session.repo.root().to_path_buf();
    let mut settings: Vec<config::Setting> = session
        .config
        .settings()
        .into_iter()
        .filter(|s| match (gate, s.place.strip_prefix("gates.")) {
            (Some(gate), Some(rest)) => rest.split('.').next() == Some(gate),
            _ => true,
        })
        .map(|mut s| {
            // The file by its path in the repository.
            if let Some(rest) = s.source.strip_prefix(&format!("{}/", root.display())) {
                s.source = rest.to_string();
            }
            s
        })
        .collect();
    let cli = |place: String, value: String, flag: &str| config::Setting {
        place,
        value,
        source: format!("command line {flag}"),
    };
    for (list, level, flag) in [
        (&global.allow, "allow", "-A"),
        (&global.warn, "warn", "-W"),
        (&global.deny, "deny", "-D"),
    ] {
        for selector in list {
            settings.push(cli(format!("rules.{selector}"), level.to_string(), flag));
        }
    }
    if let Some(base) = &global.base {
        settings.push(cli("base".into(), base.clone(), "--base"));
    }
    if let Some(dir) = &global.state_dir {
        settings.push(cli("state-dir".into(), dir.display().to_string(), "--state-dir"));
    }
    let mut out = if global.format == Format::Json {
        let mut text = serde_json::to_string_pretty(&settings).expect("settings serialize");
        text.push('\n');
        text
    } else {
        let width = settings
            .iter()
            .map(|s| s.place.len() + s.value.len())
            .max()
            .unwrap_or(0)
            + 3;
        let mut text = String::new();
        for s in &settings {
            let pair = format!("{} = {}", s.place, s.value);
            text.push_str(&format!("{pair:width$}  # {}\n", s.source));
        }
        text
    };
    if global.format != Format::Json {
        // What the trust rules did to the file's values, said once.
        for waiver in &session.waivers {
            out.push_str(&format!("# {}\n", waiver.line_shown()));
        }
        for note in &session.trust_notes {
            out.push_str(&format!("# {note}\n"));
        }
    }
    report::emit(&out, global.output.as_deref())?;
    Ok(ExitStatus::Pass)
}
