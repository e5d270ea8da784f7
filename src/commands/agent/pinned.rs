//! The repository a session started in, whatever directory a later event
//! names. An agent's hook input says where it works now (its `cwd`), and an
//! agent that moved into a repository of its own inside the project (`git
//! init` in a subdirectory, then `cd` there) made that one answer for the
//! project's stop (issue 63). So an event is answered in the nearest
//! repository, from its directory up, that holds the session's record:
//! one nested inside the session's repository never does.

use std::path::Path;

use super::AgentState;
use super::protocol::Payload;
use crate::git::Repo;

/// Does the repository `repo` hold the record of `session`?
fn holds(repo: &Repo, session: &str) -> bool {
    crate::state::Store::new(repo.common_dir().join("loki-gate"), None)
        .read::<AgentState>()
        .ok()
        .flatten()
        .is_some_and(|state| state.find(session).is_some())
}

/// `payload`, answered in the repository that holds its session's record
/// (the nearest from its directory up); and, when that is not the one its
/// directory is in, a line that says so.
pub fn resolve(payload: &Payload) -> (Payload, Option<String>) {
    let Some(dir) = payload.dir.as_deref().filter(|_| !payload.session.is_empty()) else {
        return (payload.clone(), None);
    };
    let Ok(named) = Repo::discover(dir) else {
        return (payload.clone(), None);
    };
    if holds(&named, &payload.session) {
        return (payload.clone(), None);
    }
    let mut above = named.root().parent().map(Path::to_path_buf);
    while let Some(dir) = above {
        let Ok(repo) = Repo::discover(&dir) else { break };
        if holds(&repo, &payload.session) {
            let said = format!(
                "loki-gate judged this session in {}, where it started, not in {}, the repository inside it that the agent's hook input named",
                repo.root().display(),
                named.root().display()
            );
            let mut payload = payload.clone();
            payload.dir = Some(repo.root().to_path_buf());
            return (payload, Some(said));
        }
        above = repo.root().parent().map(Path::to_path_buf);
    }
    (payload.clone(), None)
}
