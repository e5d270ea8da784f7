//! Everything that talks to GitHub, and the only network code besides the
//! council's providers (both on ureq: blocking requests, one TLS stack).
//!
//! Context comes from the Actions environment: `GITHUB_REPOSITORY`
//! (`owner/name`), `GITHUB_EVENT_PATH` (the pull request number, and whether
//! it comes from a fork), `GITHUB_TOKEN`, `GITHUB_API_URL` (tests point it at
//! a local server). A failure to reach GitHub is a warning naming the cause
//! and the permission needed; it never changes a gate's verdict.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The hidden marker of loki-gate's sticky comment (the markdown report's first line).
pub const MARKER: &str = "<!-- loki-gate -->";

/// GitHub refuses comment bodies over 65,536 characters.
const MAX_BODY: usize = 65_536;

/// Comments fetched per page while looking for the sticky one.
const PER_PAGE: usize = 100;

/// The most pages read while looking for the sticky comment or the handoff
/// issue (3,000 items): an API that keeps sending full pages is stopped.
const MAX_PAGES: usize = 30;

/// How long a connection may take to open, and one answer to arrive.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const READ_TIMEOUT: Duration = Duration::from_secs(20);

/// All the requests of one post together: a server that trickles its
/// answers byte by byte is stopped here.
const TOTAL_TIMEOUT: Duration = Duration::from_secs(120);

/// Where and as whom to post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitHub {
    pub owner: String,
    pub repo: String,
    pub api: String,
    pub token: String,
    pub pull_request: Option<u64>,
    /// The pull request comes from a fork: its token is read-only.
    pub fork: bool,
    /// What the event says about the pull request, for acknowledgments.
    pub event: Event,
}

/// The parts of a pull request event that acknowledgments read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Event {
    /// `opened`, `synchronize`, `labeled`, `submitted`...
    pub action: Option<String>,
    /// The pull request's head commit when the event happened.
    pub head_sha: Option<String>,
    /// The pull request's author.
    pub author: Option<String>,
    /// The label a `labeled` event applied, and who applied it.
    pub label: Option<String>,
    pub sender: Option<String>,
}

impl GitHub {
    /// The context from the environment, or why there is none.
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<GitHub, String> {
        let repository = env("GITHUB_REPOSITORY")
            .filter(|r| !r.trim().is_empty())
            .ok_or("GITHUB_REPOSITORY is not set (owner/name): not running in GitHub Actions?")?;
        let (owner, repo) = repository
            .split_once('/')
            .filter(|(o, r)| !o.is_empty() && !r.is_empty())
            .ok_or_else(|| format!("GITHUB_REPOSITORY `{repository}` is not owner/name"))?;
        let token = env("GITHUB_TOKEN")
            .filter(|t| !t.trim().is_empty())
            .ok_or("GITHUB_TOKEN is not set: pass the token to the step (env: GITHUB_TOKEN: ${{ github.token }})")?;
        let api = env("GITHUB_API_URL").unwrap_or_else(|| "https://api.github.com".into());
        let (pull_request, fork, details) = read_event(env)?;
        Ok(GitHub {
            owner: owner.to_string(),
            repo: repo.to_string(),
            api,
            token,
            pull_request,
            fork,
            event: details,
        })
    }
}

/// The pull request of the event payload (`GITHUB_EVENT_PATH`): its
/// number, whether it comes from a fork, and what acknowledgments read.
pub fn read_event(env: &dyn Fn(&str) -> Option<String>) -> Result<(Option<u64>, bool, Event), String> {
    let mut details = Event::default();
    let (pull_request, fork) = match env("GITHUB_EVENT_PATH") {
        Some(path) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("could not read the event payload {path} (GITHUB_EVENT_PATH): {e}"))?;
            let event: Value = serde_json::from_str(&text)
                .map_err(|e| format!("the event payload {path} (GITHUB_EVENT_PATH) is not JSON: {e}"))?;
            let pr = &event["pull_request"];
            let number = pr["number"].as_u64().or_else(|| event["issue"]["number"].as_u64());
            let head = pr["head"]["repo"]["full_name"].as_str();
            let base = pr["base"]["repo"]["full_name"].as_str();
            let text = |v: &Value| v.as_str().map(str::to_string);
            details = Event {
                action: text(&event["action"]),
                head_sha: text(&pr["head"]["sha"]),
                author: text(&pr["user"]["login"]),
                label: text(&event["label"]["name"]),
                sender: text(&event["sender"]["login"]),
            };
            (number, head.is_some() && head != base)
        }
        None => (None, false),
    };
    Ok((pull_request, fork, details))
}

/// How a pull request may acknowledge its waivers (the base config's word).
pub struct AckRules<'a> {
    /// The label that acknowledges, in the run of its own `labeled` event.
    pub label: Option<&'a str>,
    /// Whether an approving review of the head commit acknowledges.
    pub reviews: bool,
    /// The commits the run judges as the pull request's head: HEAD, and its
    /// second parent when HEAD is the merge commit a pull request job checks out.
    pub heads: &'a [String],
    /// Is this login a coding agent's (never a trusted hand)?
    pub is_agent: &'a dyn Fn(&str) -> bool,
}

/// Who on the pull request acknowledged its waivers, if anyone: the label
/// of this run's `labeled` event, applied to the head being judged by
/// someone who may write to the repository; or an approving review of the
/// head commit by such a person, not the author, not a bot or an agent.
/// `Err`: GitHub could not say (never an acknowledgment).
pub fn acknowledgment(gh: &GitHub, rules: &AckRules<'_>) -> Result<Option<String>, String> {
    let Some(number) = gh.pull_request else {
        return Ok(None);
    };
    let event = &gh.event;
    let judged = |sha: Option<&String>| sha.is_some_and(|sha| rules.heads.iter().any(|h| h == sha));
    let label_event = event.action.as_deref() == Some("labeled")
        && rules.label.is_some()
        && event.label.as_deref() == rules.label
        && judged(event.head_sha.as_ref());
    if !label_event && !rules.reviews {
        return Ok(None);
    }
    run(gh, |client| {
        let trusted_login = |login: &str| {
            !login.ends_with("[bot]") && !(rules.is_agent)(login) && Some(login) != event.author.as_deref()
        };
        if label_event
            && let Some(sender) = event.sender.clone()
            && trusted_login(&sender)
            && can_write(client, &sender)?
        {
            return Ok(Some(format!(
                "the `{}` label, applied by @{sender}",
                rules.label.unwrap_or_default()
            )));
        }
        if !rules.reviews {
            return Ok(None);
        }
        // Each reviewer's latest review decides; reviews come oldest first.
        let mut latest: Vec<(String, String, String)> = Vec::new();
        let route = format!("/repos/{}/{}/pulls/{number}/reviews", gh.owner, gh.repo);
        let doing = ("read the pull request's reviews", "pull-requests: read");
        for page in 1..=MAX_PAGES {
            let items = page_of(client, &route, &[], page, doing)?;
            let full = items.len() == PER_PAGE;
            for review in items {
                let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
                let login = text(&review["user"]["login"]);
                let state = text(&review["state"]);
                // Comments do not change a reviewer's verdict.
                if login.is_empty() || state == "COMMENTED" {
                    continue;
                }
                latest.retain(|(l, _, _)| *l != login);
                latest.push((login, state, text(&review["commit_id"])));
            }
            if !full {
                break;
            }
            if page == MAX_PAGES {
                return Err(too_many_pages("the pull request's reviews", "no review was counted").into());
            }
        }
        for (login, state, commit) in latest {
            if state == "APPROVED" && judged(Some(&commit)) && trusted_login(&login) && can_write(client, &login)? {
                return Ok(Some(format!("an approving review by @{login}")));
            }
        }
        Ok(None)
    })
}

/// The branch being worked on: in a pull request job, which checks out a
/// detached merge commit, the pull request's branch (`GITHUB_HEAD_REF`);
/// else the checked-out branch, else the pushed ref (`GITHUB_REF_NAME`).
pub fn branch(repo: &crate::git::Repo, env: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let set = |name: &str| env(name).filter(|b| !b.is_empty());
    set("GITHUB_HEAD_REF")
        .or_else(|| repo.branch())
        .or_else(|| set("GITHUB_REF_NAME"))
}

/// What happened to the sticky comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Posted {
    Created(u64),
    Updated(u64),
    /// Not posted, and why (not a pull request, a fork's read-only token).
    Skipped(String),
}

/// `body` capped at GitHub's limit, cut at a line, with a note of what was cut.
pub fn cap(body: &str) -> String {
    if body.chars().count() <= MAX_BODY {
        return body.to_string();
    }
    let note = "\n\n> **Cut**: this report is longer than a GitHub comment allows. The findings below this point are in the SARIF upload, the job summary and the JSON report.\n";
    // Room for the note and the count line after it.
    let budget = MAX_BODY - note.chars().count() - 64;
    let end = body.char_indices().nth(budget).map_or(body.len(), |(i, _)| i);
    let end = body[..end].rfind('\n').unwrap_or(end);
    let cut_lines = body[end..].lines().count();
    format!("{}{note}> ({cut_lines} more line(s) not shown.)\n", &body[..end])
}

/// Create or edit the one sticky comment on the pull request: the comment
/// with the marker AND written by the identity the token authenticates as
/// (another bot's comment with a similar marker is never touched).
pub fn upsert_comment(gh: &GitHub, body: &str) -> Result<Posted, String> {
    let Some(number) = gh.pull_request else {
        return Ok(Posted::Skipped(
            "not a pull request event: no comment (the report is in the job output)".into(),
        ));
    };
    if gh.fork {
        return Ok(Posted::Skipped(
            "a pull request from a fork gets a read-only token: no comment; annotations, SARIF and the job summary carry the report (docs/github.md shows the workflow_run pattern that posts it)".into(),
        ));
    }
    let body = cap(body);
    run(gh, |client| {
        let me = identity(client)?;
        let route = format!("/repos/{}/{}/issues/{number}/comments", gh.owner, gh.repo);
        let doing = ("read the pull request's comments", "pull-requests: read");
        for page in 1..=MAX_PAGES {
            let items = page_of(client, &route, &[], page, doing)?;
            let ours = items.iter().find(|c| {
                c["body"].as_str().is_some_and(|b| b.contains(MARKER))
                    && me
                        .as_deref()
                        .is_none_or(|login| c["user"]["login"].as_str() == Some(login))
            });
            if let Some(id) = ours.and_then(|c| c["id"].as_u64()) {
                let patch = format!("/repos/{}/{}/issues/comments/{id}", gh.owner, gh.repo);
                let doing = "edit the loki-gate comment";
                let edited = client
                    .patch(&patch, &json!({ "body": body }))
                    .map_err(|e| explain(gh, &e, doing, "pull-requests: write"))?;
                return Ok(Posted::Updated(number_in(gh, &edited, "id", doing)?));
            }
            if items.len() < PER_PAGE {
                let doing = "comment on the pull request";
                let created = client
                    .post(&route, &json!({ "body": body }))
                    .map_err(|e| explain(gh, &e, doing, "pull-requests: write"))?;
                return Ok(Posted::Created(number_in(gh, &created, "id", doing)?));
            }
        }
        Err(too_many_pages("the pull request's comments", "no comment was posted").into())
    })
}

/// The label of handoff issues.
pub const HANDOFF_LABEL: &str = "loki-gate-handoff";

/// What happened to the handoff issue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handoff {
    Opened(u64),
    /// The episode's issue was open already: the handoff was added as a comment.
    Commented(u64),
}

/// Open the handoff issue of this episode, once: an open issue labelled
/// [`HANDOFF_LABEL`] whose body holds `marker` gets a comment instead.
/// `links` (the pull request, the run) go on top of the body.
pub fn hand_off(gh: &GitHub, title: &str, marker: &str, handoff: &str, links: &[String]) -> Result<Handoff, String> {
    let mut body = String::new();
    for link in links {
        body.push_str(&format!("- {link}\n"));
    }
    if !links.is_empty() {
        body.push('\n');
    }
    body.push_str(handoff);
    if !handoff.contains(marker) {
        body.push_str(&format!("\n{marker}\n"));
    }
    let body = cap(&body);
    run(gh, |client| {
        let route = format!("/repos/{}/{}/issues", gh.owner, gh.repo);
        let filter = [("state", "open"), ("labels", HANDOFF_LABEL)];
        let doing = ("look for the handoff issue", "issues: read");
        for page in 1..=MAX_PAGES {
            let items = page_of(client, &route, &filter, page, doing)?;
            let open = items
                .iter()
                .find(|i| i["body"].as_str().is_some_and(|b| b.contains(marker)))
                .and_then(|i| i["number"].as_u64());
            if let Some(number) = open {
                let doing = "comment on the handoff issue";
                let commented = client
                    .post(&format!("{route}/{number}/comments"), &json!({ "body": body }))
                    .map_err(|e| explain(gh, &e, doing, "issues: write"))?;
                number_in(gh, &commented, "id", doing)?;
                return Ok(Handoff::Commented(number));
            }
            if items.len() < PER_PAGE {
                let doing = "open the handoff issue";
                let created = client
                    .post(
                        &route,
                        &json!({ "title": title, "body": body, "labels": [HANDOFF_LABEL] }),
                    )
                    .map_err(|e| explain(gh, &e, doing, "issues: write"))?;
                return Ok(Handoff::Opened(number_in(gh, &created, "number", doing)?));
            }
        }
        Err(too_many_pages("the open handoff issues", "no handoff issue was opened").into())
    })
}

/// Why an exchange with GitHub failed, and whether trying the whole
/// exchange again may help (a 5xx, a dropped connection). A timeout is not
/// tried again: the wait was already spent.
struct Failure {
    message: String,
    again: bool,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure { message, again: false }
    }
}

/// How often a whole exchange is tried, at most.
const ATTEMPTS: u32 = 3;

/// The largest answer read: a page of 100 comments at GitHub's 65,536
/// characters each, escaped.
const MAX_ANSWER: u64 = 64 << 20;

/// Run one exchange with GitHub within [`TOTAL_TIMEOUT`]. A transient
/// failure runs the whole exchange again (never one request on its own):
/// the sticky comment is looked up again before it is written, so a post
/// that GitHub made but answered 502 is edited, not posted twice.
fn run<T>(gh: &GitHub, work: impl Fn(&Client<'_>) -> Result<T, Failure>) -> Result<T, String> {
    let client = Client::new(gh)?;
    let mut attempt = 0;
    loop {
        match work(&client) {
            Err(failure) if failure.again && attempt + 1 < ATTEMPTS => {
                attempt += 1;
                let pause = Duration::from_secs(u64::from(attempt));
                std::thread::sleep(pause.min(client.left()));
            }
            Err(failure) if failure.again => {
                break Err(format!("{} (tried {ATTEMPTS} times)", failure.message));
            }
            done => break done.map_err(|f| f.message),
        }
    }
}

/// What one request got instead of the JSON it asked for.
enum Refusal {
    /// GitHub answered with a status outside 2xx.
    Status(Answer),
    /// No (whole) answer: refused, reset, timed out.
    Transport(ureq::Error),
    /// A 2xx answer that is not JSON.
    NotJson(serde_json::Error),
    /// The exchange's [`TOTAL_TIMEOUT`] was spent before this request.
    Late,
}

/// A refusing answer, with what explains it.
struct Answer {
    status: u16,
    /// The `message` of GitHub's JSON error body.
    message: String,
    retry_after: Option<String>,
    location: Option<String>,
    rate_limit_reset: Option<String>,
}

/// One exchange's requests: GitHub's REST API at `GITHUB_API_URL`, as the
/// token, never following a redirect (one could turn a post into a read),
/// all of it by one deadline.
struct Client<'a> {
    gh: &'a GitHub,
    agent: ureq::Agent,
    deadline: Instant,
}

impl<'a> Client<'a> {
    fn new(gh: &'a GitHub) -> Result<Client<'a>, String> {
        if !(gh.api.starts_with("https://") || gh.api.starts_with("http://")) {
            return Err(format!(
                "GITHUB_API_URL `{}` is not an http(s) URL: unset it for github.com, or give the API's address (https://HOST/api/v3 for GitHub Enterprise Server)",
                gh.api
            ));
        }
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_connect(Some(CONNECT_TIMEOUT))
            .timeout_recv_response(Some(READ_TIMEOUT))
            .timeout_recv_body(Some(READ_TIMEOUT))
            .user_agent(concat!("loki-gate/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Ok(Client {
            gh,
            agent,
            deadline: Instant::now() + TOTAL_TIMEOUT,
        })
    }

    fn left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    fn url(&self, route: &str) -> String {
        format!("{}{route}", self.gh.api.trim_end_matches('/'))
    }

    fn get(&self, route: &str, query: &[(&str, String)]) -> Result<Value, Refusal> {
        let left = self.left();
        if left.is_zero() {
            return Err(Refusal::Late);
        }
        let request = self
            .agent
            .get(self.url(route))
            .query_pairs(query.iter().map(|(k, v)| (*k, v.as_str())));
        let request = self.headers(request).config().timeout_global(Some(left)).build();
        self.read(request.call())
    }

    fn post(&self, route: &str, body: &Value) -> Result<Value, Refusal> {
        self.write(self.agent.post(self.url(route)), body)
    }

    fn patch(&self, route: &str, body: &Value) -> Result<Value, Refusal> {
        self.write(self.agent.patch(self.url(route)), body)
    }

    fn write(&self, request: ureq::RequestBuilder<ureq::typestate::WithBody>, body: &Value) -> Result<Value, Refusal> {
        let left = self.left();
        if left.is_zero() {
            return Err(Refusal::Late);
        }
        let request = self
            .headers(request)
            .header("Content-Type", "application/json")
            .config()
            .timeout_global(Some(left))
            .build();
        self.read(request.send(body.to_string()))
    }

    fn headers<B>(&self, request: ureq::RequestBuilder<B>) -> ureq::RequestBuilder<B> {
        request
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header("Authorization", &format!("Bearer {}", self.gh.token))
    }

    /// The JSON of a 2xx answer, or what refused it.
    fn read(&self, sent: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Result<Value, Refusal> {
        let mut response = sent.map_err(Refusal::Transport)?;
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(|v| v.trim().to_string())
        };
        let (retry_after, location, rate_limit_reset) =
            (header("retry-after"), header("location"), header("x-ratelimit-reset"));
        let text = response.body_mut().with_config().limit(MAX_ANSWER).read_to_string();
        if (200..300).contains(&status) {
            let text = text.map_err(Refusal::Transport)?;
            if text.trim().is_empty() {
                return Ok(Value::Null);
            }
            return serde_json::from_str(&text).map_err(Refusal::NotJson);
        }
        let message = text
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["message"].as_str().map(str::to_string))
            .unwrap_or_default();
        Err(Refusal::Status(Answer {
            status,
            message,
            retry_after,
            location,
            rate_limit_reset,
        }))
    }
}

/// Page `page` (of [`PER_PAGE`] items) of the listing at `route`, with
/// `filter` as more query parameters; `(doing, permission)` name the
/// request in a failure.
fn page_of(
    client: &Client<'_>,
    route: &str,
    filter: &[(&str, &str)],
    page: usize,
    (doing, permission): (&str, &str),
) -> Result<Vec<Value>, Failure> {
    let mut query: Vec<(&str, String)> = filter.iter().map(|(k, v)| (*k, (*v).to_string())).collect();
    query.extend([("per_page", PER_PAGE.to_string()), ("page", page.to_string())]);
    let answer = client
        .get(route, &query)
        .map_err(|e| explain(client.gh, &e, doing, permission))?;
    Ok(listing(client.gh, answer, doing)?)
}

/// The items of one page of a listing: GitHub answers a JSON array.
fn listing(gh: &GitHub, page: Value, doing: &str) -> Result<Vec<Value>, String> {
    match page {
        Value::Array(items) => Ok(items),
        other => Err(format!(
            "could not {doing}: GitHub ({}) answered {} where a list was expected",
            gh.api,
            kind(&other)
        )),
    }
}

/// The number GitHub gives what it just wrote (`id`, `number`). An answer
/// without one means nothing is known to be written (a proxy or a
/// redirect turned the write into a read, say): success is never claimed.
fn number_in(gh: &GitHub, answer: &Value, field: &str, doing: &str) -> Result<u64, String> {
    answer[field].as_u64().ok_or_else(|| {
        format!(
            "could not {doing}: GitHub ({}) answered {} without `{field}`, so nothing is known to be written; check GITHUB_API_URL",
            gh.api,
            kind(answer)
        )
    })
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
        Value::Null => "nothing",
        _ => "a bare value",
    }
}

fn too_many_pages(what: &str, so: &str) -> String {
    format!(
        "stopped after {MAX_PAGES} full pages of {what} ({} items): {so}",
        MAX_PAGES * PER_PAGE
    )
}

/// Is `login` shaped like a GitHub login (letters, digits, hyphens; an
/// app's `[bot]` suffix)? It becomes part of a request's path.
fn is_login(login: &str) -> bool {
    let name = login.strip_suffix("[bot]").unwrap_or(login);
    !name.is_empty() && name.len() <= 39 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// May `login` write to the repository (admin, maintain or write)?
fn can_write(client: &Client<'_>, login: &str) -> Result<bool, Failure> {
    if !is_login(login) {
        return Ok(false);
    }
    let gh = client.gh;
    let route = format!("/repos/{}/{}/collaborators/{login}/permission", gh.owner, gh.repo);
    let answer = match client.get(&route, &[]) {
        Ok(answer) => answer,
        // Not a collaborator at all.
        Err(Refusal::Status(Answer { status: 404, .. })) => return Ok(false),
        Err(e) => {
            return Err(explain(
                gh,
                &e,
                &format!("read @{login}'s permission"),
                "metadata: read",
            ));
        }
    };
    let role = |field: &str| answer[field].as_str().unwrap_or_default().to_string();
    Ok(["admin", "maintain", "write"].contains(&role("role_name").as_str())
        || ["admin", "write"].contains(&role("permission").as_str()))
}

/// The login the token authenticates as. The Actions token is an app
/// installation token, which `/user` refuses: it posts as `github-actions[bot]`.
fn identity(client: &Client<'_>) -> Result<Option<String>, Failure> {
    match client.get("/user", &[]) {
        Ok(user) => Ok(user["login"].as_str().map(str::to_string)),
        Err(Refusal::Status(Answer { status: 403 | 404, .. })) => Ok(Some("github-actions[bot]".into())),
        Err(e) => Err(explain(client.gh, &e, "find who the token is", "a valid GITHUB_TOKEN")),
    }
}

/// One line: what failed, why, and what permission would fix it.
fn explain(gh: &GitHub, refusal: &Refusal, doing: &str, permission: &str) -> Failure {
    let (why, again) = match refusal {
        Refusal::Status(answer) => {
            let status = answer.status;
            let why = match status {
                401 => "the token was refused (401): check GITHUB_TOKEN".to_string(),
                403 if answer.message.to_ascii_lowercase().contains("rate limit") => {
                    let reset = answer
                        .rate_limit_reset
                        .as_ref()
                        .map(|t| format!("; it resets at unix time {t}"))
                        .unwrap_or_default();
                    format!("rate limited (403){reset}")
                }
                403 => format!(
                    "forbidden (403): the token needs `{permission}` (a fork's pull request gets a read-only token)"
                ),
                404 => "not found (404): check GITHUB_REPOSITORY and that the token can see the repository".to_string(),
                429 => {
                    let after = answer
                        .retry_after
                        .as_ref()
                        .map(|v| format!(": retry after {v} s"))
                        .unwrap_or_else(|| ": retry later".into());
                    format!("rate limited (429){after}")
                }
                s @ 300..=399 => {
                    let to = answer.location.as_ref().map(|v| format!(" to {v}")).unwrap_or_default();
                    format!(
                        "GitHub ({}) answered {s}, a redirect{to}; redirects are not followed (one could turn a post into a read): set GITHUB_API_URL to the address that answers",
                        gh.api
                    )
                }
                s if s >= 500 => format!("GitHub answered {s}: try again later"),
                s if answer.message.is_empty() => format!("GitHub answered {s}"),
                s => format!("GitHub answered {s}: {}", answer.message),
            };
            (why, status >= 500)
        }
        Refusal::Transport(e) => transport(gh, e),
        Refusal::NotJson(e) => (
            format!("GitHub ({}) answered with something that is not JSON: {e}", gh.api),
            false,
        ),
        Refusal::Late => (late(gh), false),
    };
    Failure {
        message: format!("could not {doing}: {why}"),
        again,
    }
}

/// The exchange ran past [`TOTAL_TIMEOUT`].
fn late(gh: &GitHub) -> String {
    format!(
        "GitHub ({}) did not finish answering within {}; nothing is known to be posted: try again later",
        gh.api,
        crate::process::humanize(TOTAL_TIMEOUT)
    )
}

/// Why a request got no whole answer: a timeout says how long was waited,
/// anything else names the address
/// and the innermost cause.
fn transport(gh: &GitHub, e: &ureq::Error) -> (String, bool) {
    match e {
        ureq::Error::Timeout(ureq::Timeout::Global) => return (late(gh), false),
        ureq::Error::Timeout(_) => {
            let why = format!(
                "GitHub ({}) did not answer within {} (or connect within {}): try again later, or check GITHUB_API_URL",
                gh.api,
                crate::process::humanize(READ_TIMEOUT),
                crate::process::humanize(CONNECT_TIMEOUT)
            );
            return (why, false);
        }
        ureq::Error::BodyExceedsLimit(_) => {
            let why = format!(
                "GitHub ({}) answered with more than {} MiB: check GITHUB_API_URL",
                gh.api,
                MAX_ANSWER >> 20
            );
            return (why, false);
        }
        _ => {}
    }
    let mut causes = Vec::new();
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = next {
        let text = err.to_string();
        causes.push(text.lines().next().unwrap_or_default().to_string());
        next = err.source();
    }
    let cause = causes.iter().rev().find(|c| !c.is_empty()).cloned().unwrap_or_default();
    (format!("no answer from GitHub ({}): {cause}", gh.api), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_comes_from_the_actions_environment() {
        let dir = tempfile::tempdir().unwrap();
        let event = dir.path().join("event.json");
        std::fs::write(
            &event,
            r#"{"pull_request": {"number": 7, "head": {"repo": {"full_name": "someone/shop"}}, "base": {"repo": {"full_name": "acme/shop"}}}}"#,
        )
        .unwrap();
        let path = event.display().to_string();
        let env = |name: &str| match name {
            "GITHUB_REPOSITORY" => Some("acme/shop".to_string()),
            "GITHUB_TOKEN" => Some("t".to_string()),
            "GITHUB_EVENT_PATH" => Some(path.clone()),
            _ => None,
        };
        let gh = GitHub::from_env(&env).unwrap();
        assert_eq!((gh.owner.as_str(), gh.repo.as_str()), ("acme", "shop"));
        assert_eq!(gh.pull_request, Some(7));
        assert!(gh.fork);
        assert_eq!(gh.api, "https://api.github.com");
        let none = |_: &str| None;
        assert!(GitHub::from_env(&none).unwrap_err().contains("GITHUB_REPOSITORY"));
    }

    #[test]
    fn long_bodies_are_cut_at_a_line_with_a_note() {
        let body: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
        let capped = cap(&body);
        assert!(capped.chars().count() <= MAX_BODY);
        assert!(capped.contains("**Cut**"));
        assert!(capped.contains("more line(s) not shown"));
        assert_eq!(cap("short"), "short");
    }
}
