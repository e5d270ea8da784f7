//! Talking to GitHub, against wiremock on loopback: the sticky comment is
//! created once and edited after (found across pages, never another bot's),
//! forks are skipped, and every failure is a warning that leaves the
//! verdict alone.

use wiremock::matchers::{body_string_contains, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{Run, TestRepo};

pub(crate) struct Api {
    rt: tokio::runtime::Runtime,
    pub(crate) server: MockServer,
}

impl Api {
    pub(crate) fn start() -> Api {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let server = rt.block_on(MockServer::start());
        Api { rt, server }
    }

    pub(crate) fn mount(&self, mock: Mock) {
        self.rt.block_on(mock.mount(&self.server));
    }

    /// `GET /user` answers with `login`.
    pub(crate) fn signed_in_as(&self, login: &str) {
        self.mount(
            Mock::given(method("GET"))
                .and(path("/user"))
                .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({ "login": login }))),
        );
    }

    /// Pull request 7 has no comments.
    pub(crate) fn no_comments_yet(&self) {
        self.mount(
            Mock::given(method("GET"))
                .and(path("/repos/acme/shop/issues/7/comments"))
                .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!([]))),
        );
    }

    pub(crate) fn verify(&self) {
        self.rt.block_on(self.server.verify());
    }
}

fn comment(id: u64, login: &str, body: &str) -> serde_json::Value {
    serde_json::json!({"id": id, "user": {"login": login}, "body": body})
}

/// A repository whose new test file makes `mock` block, and an event payload for PR 7.
fn repo(fork: bool) -> (TestRepo, tempfile::TempDir) {
    let repo = TestRepo::new();
    repo.write("README.md", "# shop\n\nA cart.\n");
    repo.commit("base");
    repo.write("tests/test_x.py", "def test_x():\n    assert True\n");
    (repo, event(fork))
}

/// The event payload of pull request 7, from a fork or not.
fn event(fork: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let head = if fork { "someone/shop" } else { "acme/shop" };
    std::fs::write(
        dir.path().join("event.json"),
        format!(
            r#"{{"pull_request": {{"number": 7, "head": {{"repo": {{"full_name": "{head}"}}}}, "base": {{"repo": {{"full_name": "acme/shop"}}}}}}}}"#
        ),
    )
    .unwrap();
    dir
}

fn run(repo: &TestRepo, api: &Api, event: &tempfile::TempDir, args: &[&str]) -> Run {
    let event = event.path().join("event.json");
    repo.run_env(
        args,
        &[
            ("GITHUB_HEAD_REF", "feature-x"),
            ("GITHUB_REPOSITORY", "acme/shop"),
            ("GITHUB_TOKEN", "ghs_test"),
            ("GITHUB_API_URL", &api.server.uri()),
            ("GITHUB_EVENT_PATH", event.to_str().unwrap()),
        ],
    )
}

#[test]
fn the_sticky_comment_is_created_once_then_edited_across_pages() {
    let api = Api::start();
    api.signed_in_as("loki-bot");
    // First run: no comment yet.
    api.mount(
        Mock::given(method("GET"))
            .and(path("/repos/acme/shop/issues/7/comments"))
            .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!([])))
            .up_to_n_times(1),
    );
    api.mount(
        Mock::given(method("POST"))
            .and(path("/repos/acme/shop/issues/7/comments"))
            .and(body_string_contains("<!-- loki-gate -->"))
            .respond_with(ResponseTemplate::new(201).set_body_json(comment(555, "loki-bot", "x")))
            .expect(1),
    );
    let (repo, event) = repo(false);
    let first = run(&repo, &api, &event, &["mock", "--base", "HEAD", "--comment"]);
    assert_eq!(first.code, 1, "the verdict is the gate's: {}", first.stderr);
    assert!(
        first.stderr.contains("posted the pull request comment (555)"),
        "{}",
        first.stderr
    );

    // Second run: 100 comments on page 1 (one is another bot's with the same marker), ours on page 2.
    let mut page1: Vec<serde_json::Value> = (0..99).map(|i| comment(i, "alice", "lgtm")).collect();
    page1.push(comment(999, "other-bot", "<!-- loki-gate --> not ours"));
    api.mount(
        Mock::given(method("GET"))
            .and(path("/repos/acme/shop/issues/7/comments"))
            .and(query_param("page", "1"))
            .respond_with(ResponseTemplate::new(200).set_body_json(page1)),
    );
    api.mount(
        Mock::given(method("GET"))
            .and(path("/repos/acme/shop/issues/7/comments"))
            .and(query_param("page", "2"))
            .respond_with(ResponseTemplate::new(200).set_body_json(vec![comment(
                555,
                "loki-bot",
                "<!-- loki-gate -->\nold",
            )])),
    );
    api.mount(
        Mock::given(method("PATCH"))
            .and(path("/repos/acme/shop/issues/comments/555"))
            .and(body_string_contains("mock/tautological-assertion"))
            .respond_with(ResponseTemplate::new(200).set_body_json(comment(555, "loki-bot", "x")))
            .expect(1),
    );
    api.mount(
        Mock::given(method("PATCH"))
            .and(path("/repos/acme/shop/issues/comments/999"))
            .respond_with(ResponseTemplate::new(200))
            .expect(0),
    );
    let second = run(&repo, &api, &event, &["mock", "--base", "HEAD", "--comment"]);
    assert_eq!(second.code, 1);
    assert!(
        second.stderr.contains("updated the pull request comment (555)"),
        "{}",
        second.stderr
    );
    api.verify();
}

#[test]
fn failures_are_warnings_naming_the_permission_and_never_change_the_verdict() {
    for (status, want) in [
        (403, "the token needs `pull-requests: read`"),
        (404, "not found (404): check GITHUB_REPOSITORY"),
        (401, "the token was refused (401)"),
        (500, "GitHub answered 500: try again later (tried 3 times)"),
        (429, "rate limited (429): retry after 60 s"),
    ] {
        let api = Api::start();
        // The Actions token cannot read /user: it is github-actions[bot].
        api.mount(
            Mock::given(method("GET")).and(path("/user")).respond_with(
                ResponseTemplate::new(403)
                    .set_body_json(serde_json::json!({"message": "Resource not accessible by integration"})),
            ),
        );
        api.mount(
            Mock::given(method("GET"))
                .and(path("/repos/acme/shop/issues/7/comments"))
                .respond_with(
                    ResponseTemplate::new(status)
                        .insert_header("retry-after", "60")
                        .set_body_json(serde_json::json!({"message": "nope"})),
                ),
        );
        let (repo, event) = repo(false);
        let run = run(&repo, &api, &event, &["mock", "--base", "HEAD", "--comment"]);
        assert_eq!(run.code, 1, "{status}: the mock verdict stands");
        assert!(
            run.stderr
                .contains("warning: loki-gate: could not read the pull request's comments"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains(want), "{status}: {}", run.stderr);
        assert!(run.stderr.contains("the verdict is unchanged"));
    }
}

#[test]
fn a_fork_is_skipped_and_saved_reports_can_be_posted_later() {
    let api = Api::start();
    api.mount(
        Mock::given(wiremock::matchers::any())
            .respond_with(ResponseTemplate::new(500))
            .expect(0),
    );
    let (repo, fork_event) = repo(true);
    let summary = fork_event.path().join("summary.md");
    let mut cmd = repo.cmd();
    cmd.args(["mock", "--base", "HEAD", "--comment"])
        .env("GITHUB_REPOSITORY", "acme/shop")
        .env("GITHUB_TOKEN", "ghs_read_only")
        .env("GITHUB_API_URL", api.server.uri())
        .env("GITHUB_EVENT_PATH", fork_event.path().join("event.json"))
        .env("GITHUB_STEP_SUMMARY", &summary);
    let skipped = crate::support::run_cmd(&mut cmd);
    // Nothing is lost: the job summary has the whole report.
    let written = std::fs::read_to_string(&summary).unwrap();
    assert!(written.contains("mock/tautological-assertion"), "{written}");
    assert_eq!(skipped.code, 1);
    assert!(
        skipped
            .stderr
            .contains("a pull request from a fork gets a read-only token"),
        "{}",
        skipped.stderr
    );
    api.verify();

    // The workflow_run pattern: the report saved as JSON, posted by a privileged job.
    let saved = repo.path().join("report.json");
    let check = repo.run(&[
        "check",
        "--gates",
        "mock,docs",
        "--base",
        "HEAD",
        "--format",
        "json",
        "-o",
        saved.to_str().unwrap(),
    ]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    let api = Api::start();
    api.signed_in_as("loki-bot");
    api.no_comments_yet();
    api.mount(
        Mock::given(method("POST"))
            .and(path("/repos/acme/shop/issues/7/comments"))
            .and(body_string_contains("mock/tautological-assertion"))
            .and(body_string_contains("docs"))
            .respond_with(ResponseTemplate::new(201).set_body_json(comment(8, "loki-bot", "x")))
            .expect(1),
    );
    let posted = run(
        &repo,
        &api,
        &event(false),
        &["comment", "--report", saved.to_str().unwrap()],
    );
    assert_eq!(posted.code, 0, "{}", posted.stderr);
    assert!(
        posted.stderr.contains("posted the pull request comment (8)"),
        "{}",
        posted.stderr
    );
    api.verify();
    let bad = repo.run(&["comment", "--report", "README.md"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("not a JSON report"), "{}", bad.stderr);
}

/// Copy a directory tree (the state directory, as a CI cache restores it).
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn an_escalation_opens_one_handoff_issue_per_episode() {
    let api = Api::start();
    api.signed_in_as("loki-bot");
    api.no_comments_yet();
    api.mount(
        Mock::given(method("POST"))
            .and(path("/repos/acme/shop/issues/7/comments"))
            .respond_with(ResponseTemplate::new(201).set_body_json(comment(1, "loki-bot", "x"))),
    );
    api.mount(
        Mock::given(method("GET"))
            .and(path("/repos/acme/shop/issues"))
            .and(query_param("labels", "loki-gate-handoff"))
            .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!([])))
            .up_to_n_times(1),
    );
    api.mount(
        Mock::given(method("POST"))
            .and(path("/repos/acme/shop/issues"))
            .and(body_string_contains("loki-gate-handoff"))
            .and(body_string_contains("stuck on feature-x (episode 1)"))
            .and(body_string_contains(
                "pull request: https://github.com/acme/shop/pull/7",
            ))
            .respond_with(ResponseTemplate::new(201).set_body_json(serde_json::json!({"number": 42})))
            .expect(1),
    );
    let (repo, event) = repo(false);
    repo.run(&["evidence", "start"]);
    let saved = tempfile::tempdir().unwrap();
    let mut codes = Vec::new();
    for round in 0..4 {
        let tests = crate::support::fake_tests(2, 1);
        repo.run(&["evidence", "--test-command", &tests]);
        if round == 3 {
            // What the CI cache held before the escalating round.
            copy_dir(&repo.path().join(".loki-gate"), saved.path());
        }
        let run = run(&repo, &api, &event, &["uncertainty", "--base", "HEAD", "--comment"]);
        codes.push(run.code);
        if round == 3 {
            assert!(run.stderr.contains("opened the handoff issue #42"), "{}", run.stderr);
        }
    }
    assert_eq!(codes, [0, 0, 0, 3]);

    // The escalating round runs again (a retried job restores the same cache):
    // the episode's issue is open, so the handoff becomes a comment on it.
    let open = serde_json::json!([{
        "number": 42,
        "body": "...\n<!-- loki-gate-handoff branch=feature-x episode=1 -->\n"
    }]);
    api.mount(
        Mock::given(method("GET"))
            .and(path("/repos/acme/shop/issues"))
            .respond_with(ResponseTemplate::new(200).set_body_json(open)),
    );
    api.mount(
        Mock::given(method("POST"))
            .and(path("/repos/acme/shop/issues/42/comments"))
            .and(body_string_contains("handing off (episode 1)"))
            .respond_with(ResponseTemplate::new(201).set_body_json(comment(2, "loki-bot", "x")))
            .expect(1),
    );
    std::fs::remove_dir_all(repo.path().join(".loki-gate")).unwrap();
    copy_dir(saved.path(), &repo.path().join(".loki-gate"));
    let again = run(&repo, &api, &event, &["uncertainty", "--base", "HEAD", "--comment"]);
    assert_eq!(again.code, 3);
    assert!(
        again.stderr.contains("added the handoff to the open issue #42"),
        "{}",
        again.stderr
    );
    api.verify();
}

/// What a broken or hostile API answers never turns into a claimed post or
/// a run that does not end: a redirect is named (never followed, so a write
/// cannot become a read), an answer without the new comment's id is not
/// success, endless full pages stop, and silence is a timeout naming the
/// address. The verdict stays the gate's each time.
#[test]
fn a_broken_api_is_named_and_never_reported_as_posted() {
    let full_page: Vec<serde_json::Value> = (0..100).map(|i| comment(i, "alice", "lgtm")).collect();
    let cases: [(&str, Mock, &str); 3] = [
        (
            "redirect",
            Mock::given(method("POST"))
                .and(path("/repos/acme/shop/issues/7/comments"))
                .respond_with(
                    ResponseTemplate::new(302).insert_header("location", "http://elsewhere.example/comments"),
                ),
            "answered 302, a redirect to http://elsewhere.example/comments; redirects are not followed",
        ),
        (
            "no id",
            Mock::given(method("POST"))
                .and(path("/repos/acme/shop/issues/7/comments"))
                .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!([]))),
            "answered a list without `id`, so nothing is known to be written",
        ),
        (
            "endless pages",
            Mock::given(method("GET"))
                .and(path("/repos/acme/shop/issues/7/comments"))
                .respond_with(ResponseTemplate::new(200).set_body_json(full_page)),
            "stopped after 30 full pages of the pull request's comments (3000 items): no comment was posted",
        ),
    ];
    for (case, mock, want) in cases {
        let api = Api::start();
        api.signed_in_as("loki-bot");
        api.mount(mock);
        api.no_comments_yet();
        let (repo, event) = repo(false);
        let run = run(&repo, &api, &event, &["mock", "--base", "HEAD", "--comment"]);
        assert_eq!(run.code, 1, "{case}: the mock verdict stands: {}", run.stderr);
        assert!(run.stderr.contains(want), "{case}: {}", run.stderr);
        assert!(
            !run.stderr.contains("posted the pull request comment"),
            "{case}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("the verdict is unchanged"),
            "{case}: {}",
            run.stderr
        );
    }

    // An API that accepts the connection and never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", silent.local_addr().unwrap());
    let held = std::thread::spawn(move || {
        let (connection, _) = silent.accept().unwrap();
        std::thread::sleep(std::time::Duration::from_secs(25));
        drop(connection);
    });
    let (repo, event) = repo(false);
    let started = std::time::Instant::now();
    let run = repo.run_env(
        &["mock", "--base", "HEAD", "--comment"],
        &[
            ("GITHUB_REPOSITORY", "acme/shop"),
            ("GITHUB_TOKEN", "ghs_test"),
            ("GITHUB_API_URL", &address),
            ("GITHUB_EVENT_PATH", event.path().join("event.json").to_str().unwrap()),
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("GitHub ({address}) did not answer within 20s")),
        "{}",
        run.stderr
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    held.join().unwrap();
}
