//! `loki-gate init`.

use super::*;

pub(crate) fn init(global: &GlobalArgs, force: bool, hooks: bool) -> Result<ExitStatus> {
    let cwd = std::env::current_dir()?;
    let start = start_dir(global)?;
    let repo = git::Repo::discover(&start);
    let root = repo.as_ref().map_or_else(|_| start.clone(), |r| r.root().to_path_buf());
    let path = match &global.config {
        Some(p) => cwd.join(p),
        None => root.join(config::FILE_NAMES[0]),
    };
    let say = |line: String| {
        if !global.quiet {
            report::status(&format!("loki-gate: {line}"));
        }
    };
    if path.exists() && !force {
        if !hooks {
            return Err(anyhow!(
                "{} already exists: edit it, or pass --force to overwrite it",
                path.display()
            ));
        }
        say(format!(
            "{} already exists: left as it is (--force overwrites it)",
            path.display()
        ));
    } else {
        let stack = crate::init::detect(&root);
        say(stack.summary());
        state::write_atomic(
            &path,
            config::template_with(&stack.overrides(), gates::catalog()).as_bytes(),
        )?;
        say(format!("wrote {}", path.display()));
    }
    if hooks {
        let repo = repo.map_err(|e| e.context("--hooks: the hooks go in a git repository"))?;
        for line in hooks::install(&repo, &Hook::ALL)? {
            say(line);
        }
    }
    Ok(ExitStatus::Pass)
}
