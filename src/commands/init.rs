//! `loki-gate init`.

use super::*;

pub(crate) fn init(global: &GlobalArgs, force: bool, hooks: bool, agents: &[cli::Agent]) -> Result<ExitStatus> {
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
    // A configuration already kept in a project file would be shadowed by
    // the new YAML file, which is looked for first.
    if global.config.is_none() && !force {
        let env = |name: &str| std::env::var(name).ok();
        for name in &config::FILE_NAMES[2..] {
            let Ok(text) = std::fs::read_to_string(root.join(name)) else {
                continue;
            };
            let format = config::Format::of(std::path::Path::new(name));
            if let Ok(Some(_)) = config::discovered(format, &text, name, &env, crate::gates::catalog()) {
                return Err(anyhow!(
                    "{name} already holds the configuration ({}): edit it there, or pass --force to write {} (which would then be read instead)",
                    format.place().trim_start_matches("its "),
                    config::FILE_NAMES[0]
                ));
            }
        }
    }
    if path.exists() && !force {
        if !hooks && agents.is_empty() {
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
        let repo = repo
            .as_ref()
            .map_err(|e| anyhow!("--hooks: the hooks go in a git repository: {e:#}"))?;
        for line in hooks::install(repo, &Hook::ALL)? {
            say(line);
        }
    }
    if !agents.is_empty() {
        // Cursor's own cap on follow-ups goes above the config's.
        let env = |name: &str| std::env::var(name).ok();
        let config = config::load(&root, global.config.as_deref(), &env, gates::catalog())?;
        for agent in agents {
            say(super::agent::install::install(
                &root,
                *agent,
                config.agent_max_blocks(),
            )?);
        }
    }
    Ok(ExitStatus::Pass)
}

/// `hook uninstall --agent A`: take loki-gate's hooks out of each agent's settings.
pub(crate) fn uninstall_agents(global: &GlobalArgs, agents: &[cli::Agent]) -> Result<ExitStatus> {
    let repo = git::Repo::discover(&start_dir(global)?)?;
    for agent in agents {
        let said = super::agent::install::uninstall(repo.root(), *agent)?;
        if !global.quiet {
            report::status(&format!("loki-gate: {said}"));
        }
    }
    Ok(ExitStatus::Pass)
}
