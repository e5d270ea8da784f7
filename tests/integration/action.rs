//! `action.yml`: its inputs and outputs, and its shell steps run as the
//! runner runs them, with a simulated `GITHUB_*` environment, a real git
//! remote and wiremock standing in for the GitHub API.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::github::Api;
use crate::support::{TestRepo, git_in, output_text, path_with_binary, scrub_env};

fn action_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn action() -> Value {
    let text = std::fs::read_to_string(action_dir().join("action.yml")).unwrap();
    serde_saphyr::from_str(&text).expect("action.yml is YAML")
}

#[test]
fn the_action_declares_its_inputs_and_every_step_script_exists() {
    let action = action();
    let inputs: BTreeSet<&str> = action["inputs"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let want: BTreeSet<&str> = [
        "gates",
        "base",
        "config",
        "token",
        "comment",
        "fail-on",
        "version",
        "args",
        "working-directory",
    ]
    .into();
    assert_eq!(inputs, want);
    for output in ["sarif", "report", "outcome", "exit-code"] {
        assert!(action["outputs"][output]["value"].is_string(), "output {output}");
    }
    assert_eq!(action["runs"]["using"], "composite");
    let steps = action["runs"]["steps"].as_array().unwrap();
    let mut scripts = 0;
    for step in steps {
        let Some(run) = step["run"].as_str() else { continue };
        let script = run
            .split('"')
            .find(|part| part.starts_with("$GITHUB_ACTION_PATH/"))
            .unwrap_or_else(|| panic!("a run step calls a script of the action: {run}"));
        let file = action_dir().join(script.trim_start_matches("$GITHUB_ACTION_PATH/"));
        assert!(file.is_file(), "{} is missing", file.display());
        scripts += 1;
        // Each input a step reads is one the action declares.
        for value in step["env"].as_object().into_iter().flat_map(|env| env.values()) {
            let value = value.as_str().unwrap();
            if let Some(name) = value.strip_prefix("${{ inputs.") {
                let name = name.trim_end_matches(" }}");
                assert!(want.contains(name), "unknown input {name}");
            }
        }
    }
    assert_eq!(scripts, 4);
    // The state cache is saved even when the gates fail, before the verdict.
    let save = steps.iter().position(|s| s["uses"] == "actions/cache/save@v4").unwrap();
    let verdict = steps
        .iter()
        .position(|s| s["run"].as_str().is_some_and(|r| r.contains("verdict.sh")))
        .unwrap();
    assert!(save < verdict);
    assert_eq!(steps[save]["if"], "always()");
}

/// A pull request branch `feature` whose new test asserts a tautology, on
/// top of `main` pushed to a bare `origin`.
fn pull_request() -> (TestRepo, tempfile::TempDir) {
    let repo = TestRepo::new();
    let remote = tempfile::tempdir().unwrap();
    git_in(remote.path(), &["init", "-q", "--bare", "-b", "main"]);
    repo.write("README.md", "# shop\n\nA cart that sums prices.\n")
        .write("pkg/__init__.py", "")
        .write("pkg/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            ".loki-gate.yaml",
            "gates:\n  static:\n    enabled: false\n  evidence:\n    enabled: false\n",
        );
    repo.commit("base");
    repo.git(&["remote", "add", "origin", remote.path().to_str().unwrap()]);
    repo.git(&["push", "-q", "origin", "main"]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(
        "tests/test_cart.py",
        "from pkg.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n    assert True\n",
    );
    repo.commit("a test");
    // As actions/checkout leaves it: no local `origin/main` yet.
    repo.git(&["update-ref", "-d", "refs/remotes/origin/main"]);
    (repo, remote)
}

/// The runner's files for one job.
struct Runner {
    dir: tempfile::TempDir,
}

impl Runner {
    fn new() -> Runner {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("event.json"),
            r#"{"pull_request": {"number": 7, "head": {"repo": {"full_name": "acme/shop"}}, "base": {"repo": {"full_name": "acme/shop"}}}}"#,
        )
        .unwrap();
        for file in ["output", "summary", "path"] {
            std::fs::write(dir.path().join(file), "").unwrap();
        }
        Runner { dir }
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.path().join(file)
    }

    /// `key=value` lines a step wrote to GITHUB_OUTPUT.
    fn output(&self, key: &str) -> Option<String> {
        std::fs::read_to_string(self.path("output"))
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")).map(str::to_string))
    }

    /// Run `action/<script>` in `repo` as a composite step would.
    fn step(&self, repo: &Path, script: &str, env: &[(&str, &str)], api: Option<&Api>) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(action_dir().join("action").join(script)).current_dir(repo);
        scrub_env(&mut cmd);
        cmd.env("PATH", path_with_binary())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_ACTION_PATH", action_dir())
            .env("GITHUB_EVENT_NAME", "pull_request")
            .env("GITHUB_EVENT_PATH", self.path("event.json"))
            .env("GITHUB_BASE_REF", "main")
            .env("GITHUB_HEAD_REF", "feature")
            .env("GITHUB_REF_NAME", "7/merge")
            .env("GITHUB_REPOSITORY", "acme/shop")
            .env("GITHUB_OUTPUT", self.path("output"))
            .env("GITHUB_STEP_SUMMARY", self.path("summary"))
            .env("GITHUB_PATH", self.path("path"))
            .env("RUNNER_TEMP", self.dir.path());
        if let Some(api) = api {
            cmd.env("GITHUB_API_URL", api.server.uri())
                .env("GITHUB_TOKEN", "ghs_test");
        }
        cmd.envs(env.iter().copied());
        cmd.output().expect("bash runs")
    }
}

#[test]
fn the_run_step_annotates_writes_sarif_comments_and_the_verdict_follows_fail_on() {
    let (repo, _remote) = pull_request();
    let runner = Runner::new();
    let api = Api::start();
    api.signed_in_as("github-actions[bot]");
    api.no_comments_yet();
    api.mount(
        Mock::given(method("POST"))
            .and(path("/repos/acme/shop/issues/7/comments"))
            .and(body_string_contains("mock/tautological-assertion"))
            .respond_with(
                ResponseTemplate::new(201)
                    .set_body_json(serde_json::json!({"id": 9, "user": {"login": "github-actions[bot]"}, "body": ""})),
            )
            .expect(1),
    );

    let key = runner.step(repo.path(), "cache-key.sh", &[], None);
    assert!(key.status.success(), "{}", output_text(&key));
    assert_eq!(runner.output("state-key").as_deref(), Some("feature"));
    assert_eq!(
        PathBuf::from(runner.output("state").unwrap()).canonicalize().ok(),
        repo.path().join(".loki-gate").canonicalize().ok(),
        "the state directory at the repository's root"
    );
    assert_eq!(
        runner.output("version").as_deref(),
        Some(""),
        "no release tag in `uses:`"
    );
    assert!(
        runner.output("bin-key").unwrap().starts_with("src-"),
        "built from the action's source"
    );

    let run = runner.step(
        repo.path(),
        "run.sh",
        &[
            ("INPUT_COMMENT", "true"),
            ("INPUT_GATES", "mock,docs"),
            ("INPUT_ARGS", "--no-cache  -W docs"),
        ],
        Some(&api),
    );
    let output = output_text(&run);
    assert!(
        run.status.success(),
        "the run step leaves failing to verdict.sh: {output}"
    );
    assert!(output.contains("loki-gate check --format json"), "{output}");
    assert!(
        output.contains("--comment --no-cache -W docs\n"),
        "the args input, last: {output}"
    );
    assert!(
        output.contains("--base origin/main"),
        "the pull request's base branch, fetched: {output}"
    );
    assert!(
        output.contains("::error file=tests/test_cart.py,line=6,"),
        "an annotation on the tautology: {output}"
    );
    assert!(output.contains("posted the pull request comment (9)"), "{output}");
    api.verify();

    assert_eq!(runner.output("exit-code").as_deref(), Some("1"));
    assert_eq!(runner.output("outcome").as_deref(), Some("blocked"));
    let sarif_path = runner.output("sarif").expect("a sarif output");
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(&sarif_path).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let rules: Vec<&str> = sarif["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|run| run["results"].as_array().unwrap())
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"mock/tautological-assertion"), "{rules:?}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(runner.output("report").unwrap()).unwrap()).unwrap();
    assert_eq!(report["outcome"], "blocked");
    assert!(
        std::fs::read_to_string(runner.path("summary"))
            .unwrap()
            .contains("mock"),
        "the job summary has the report"
    );

    for (fail_on, code, passes) in [
        ("blocked", "1", false),
        ("error", "1", true),
        ("never", "2", true),
        ("error", "2", false),
        ("blocked", "0", true),
    ] {
        let verdict = runner.step(
            repo.path(),
            "verdict.sh",
            &[("INPUT_FAIL_ON", fail_on), ("EXIT_CODE", code)],
            None,
        );
        assert_eq!(
            verdict.status.success(),
            passes,
            "fail-on {fail_on}, exit {code}: {}",
            output_text(&verdict)
        );
    }
    let typo = runner.step(
        repo.path(),
        "verdict.sh",
        &[("INPUT_FAIL_ON", "blockd"), ("EXIT_CODE", "0")],
        None,
    );
    assert!(!typo.status.success());
    assert!(
        output_text(&typo).contains("fail-on must be blocked, error or never"),
        "{}",
        output_text(&typo)
    );
    let never_ran = runner.step(
        repo.path(),
        "verdict.sh",
        &[("INPUT_FAIL_ON", "never"), ("EXIT_CODE", "")],
        None,
    );
    assert!(!never_ran.status.success(), "a run that did not happen never passes");
}

#[test]
fn a_push_compares_with_the_commit_before_it_and_a_config_error_is_an_error_outcome() {
    let (repo, _remote) = pull_request();
    let runner = Runner::new();
    let before = repo.git(&["rev-parse", "HEAD~1"]);
    std::fs::write(
        runner.path("push.json"),
        format!("{{\n  \"ref\": \"refs/heads/feature\",\n  \"before\": \"{before}\",\n  \"after\": \"x\"\n}}\n"),
    )
    .unwrap();
    let push_event = runner.path("push.json");
    let env = [
        ("GITHUB_EVENT_NAME", "push"),
        ("GITHUB_EVENT_PATH", push_event.to_str().unwrap()),
        ("GITHUB_BASE_REF", ""),
        ("GITHUB_HEAD_REF", ""),
        ("GITHUB_REF_NAME", "feature"),
        ("INPUT_COMMENT", "false"),
        ("INPUT_GATES", "mock"),
    ];
    let run = runner.step(repo.path(), "run.sh", &env, None);
    let output = output_text(&run);
    assert!(run.status.success(), "{output}");
    assert!(output.contains(&format!("--base {before}")), "{output}");
    assert_eq!(runner.output("outcome").as_deref(), Some("blocked"));

    repo.write(".loki-gate.yaml", "gates: [\n");
    let broken = Runner::new();
    let run = broken.step(repo.path(), "run.sh", &env, None);
    assert!(run.status.success(), "{}", output_text(&run));
    assert_eq!(broken.output("outcome").as_deref(), Some("error"));
    assert!(
        output_text(&run).contains("::error title=loki-gate could not run::"),
        "could not run is an annotation: {}",
        output_text(&run)
    );
    assert_eq!(broken.output("exit-code").as_deref(), Some("2"));
    assert_eq!(broken.output("sarif"), None, "no report, no SARIF path");
    assert!(
        output_text(&run).contains(".loki-gate.yaml"),
        "the error names the file: {}",
        output_text(&run)
    );
}

#[test]
fn the_install_step_uses_the_cached_build_and_puts_it_on_path() {
    let runner = Runner::new();
    let root = runner.path("tool");
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::fs::copy(assert_cmd::cargo::cargo_bin!("loki-gate"), root.join("bin/loki-gate")).unwrap();
    let run = runner.step(
        runner.dir.path(),
        "install.sh",
        &[("LOKI_GATE_ROOT", root.to_str().unwrap())],
        None,
    );
    let output = output_text(&run);
    assert!(run.status.success(), "{output}");
    assert!(output.contains("using the cached copy"), "{output}");
    assert!(
        output.contains(&format!("loki-gate {}", env!("CARGO_PKG_VERSION"))),
        "{output}"
    );
    assert_eq!(
        std::fs::read_to_string(runner.path("path")).unwrap().trim(),
        root.join("bin").display().to_string()
    );
}

/// actions/checkout clones one commit deep: the run step deepens the clone
/// until the merge base is there, so `mutation` compares with real history
/// instead of being inconclusive (issue 25).
#[test]
fn the_run_step_deepens_a_shallow_clone_until_the_merge_base_is_there() {
    let (repo, remote) = pull_request();
    for i in 0..4 {
        repo.write("notes.txt", format!("{i}\n"));
        repo.commit(&format!("more {i}"));
    }
    repo.git(&["push", "-q", "origin", "feature"]);
    let checkout = tempfile::tempdir().unwrap();
    let url = format!("file://{}", remote.path().display());
    git_in(
        checkout.path(),
        &["clone", "-q", "--depth", "1", "--branch", "feature", &url, "c"],
    );
    let dir = checkout.path().join("c");
    assert_eq!(git_in(&dir, &["rev-parse", "--is-shallow-repository"]), "true");

    let runner = Runner::new();
    let env = [("INPUT_COMMENT", "false"), ("INPUT_GATES", "mutation")];
    let run = runner.step(&dir, "run.sh", &env, None);
    let output = output_text(&run);
    assert!(run.status.success(), "{output}");
    assert!(
        output.contains("the clone is shallow; fetching 50 more commit(s)"),
        "{output}"
    );
    git_in(&dir, &["merge-base", "origin/main", "HEAD"]);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(runner.path("loki-gate-report.json")).unwrap()).unwrap();
    let mutation = if report["gates"].is_array() {
        &report["gates"][0]
    } else {
        &report
    };
    assert_eq!(mutation["gate"], "mutation", "{report}");
    assert!(mutation["inconclusive"].is_null(), "{mutation}");
    assert_eq!(mutation["outcome"], "pass", "{mutation}");
    assert!(
        mutation["notices"][0].as_str().unwrap().contains("(5 commit(s))"),
        "every commit of the pull request was compared: {mutation}"
    );
}

/// A partial clone (`--filter=blob:none`) lacks the old versions of the
/// changed files: the run step has git fetch them first, so every gate
/// compares real versions (issue 25).
#[test]
fn the_run_step_fetches_the_versions_a_partial_clone_lacks() {
    let (repo, remote) = pull_request();
    repo.write("pkg/cart.py", "def total(xs):\n    return sum(xs) + 0\n");
    repo.commit("touch the cart");
    repo.git(&["push", "-q", "origin", "feature"]);
    git_in(remote.path(), &["config", "uploadpack.allowFilter", "true"]);
    let checkout = tempfile::tempdir().unwrap();
    let url = format!("file://{}", remote.path().display());
    git_in(
        checkout.path(),
        &["clone", "-q", "--filter=blob:none", "--branch", "feature", &url, "c"],
    );
    let dir = checkout.path().join("c");
    let old = git_in(&dir, &["rev-parse", "origin/main:pkg/cart.py"]);
    let missing = |dir: &Path| {
        !Command::new("git")
            .args(["cat-file", "-e", &old])
            .env("GIT_NO_LAZY_FETCH", "1")
            .current_dir(dir)
            .status()
            .unwrap()
            .success()
    };
    assert!(missing(&dir), "the clone starts without the base's version");

    let runner = Runner::new();
    let env = [("INPUT_COMMENT", "false"), ("INPUT_GATES", "mutation,docs")];
    let run = runner.step(&dir, "run.sh", &env, None);
    let output = output_text(&run);
    assert!(run.status.success(), "{output}");
    assert!(
        output.contains("a partial clone; fetching the file versions of"),
        "{output}"
    );
    assert!(!missing(&dir), "fetched: {output}");
    let report = std::fs::read_to_string(runner.path("loki-gate-report.json")).unwrap();
    assert!(!report.contains("partial clone"), "{report}");
    assert!(!report.contains("\"inconclusive\": \""), "{report}");
}

#[test]
fn the_example_workflow_is_the_documented_one_and_uses_only_declared_inputs() {
    let read = |rel: &str| std::fs::read_to_string(action_dir().join(rel)).unwrap();
    let example: Value = serde_saphyr::from_str(&read("examples/workflows/loki-gate.yml")).expect("example is YAML");
    let page = read("docs/github.md");
    let block = page[page.find("A complete workflow").unwrap()..]
        .split("```yaml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/github.md shows the workflow");
    let documented: Value = serde_saphyr::from_str(block).expect("the documented workflow is YAML");
    // The file has more comments; what a runner reads is the same.
    let mut example_steps = example.clone();
    let mut documented_steps = documented.clone();
    let gate = |workflow: &mut Value| {
        let steps = workflow["jobs"]["gate"]["steps"].as_array_mut().unwrap();
        let at = steps
            .iter()
            .position(|s| s["uses"].as_str().is_some_and(|u| u.contains("/loki-gate@")))
            .expect("a step uses the action");
        steps.remove(at)
    };
    let (from_file, from_docs) = (gate(&mut example_steps), gate(&mut documented_steps));
    assert_eq!(example_steps, documented_steps);
    assert_eq!(from_file["uses"], from_docs["uses"]);
    let inputs = action()["inputs"].as_object().unwrap().clone();
    for step in [&from_file, &from_docs] {
        for key in step["with"].as_object().unwrap().keys() {
            assert!(
                inputs.contains_key(key),
                "the example passes `{key}`, which action.yml does not declare"
            );
        }
    }
}

#[test]
fn a_release_tag_in_uses_names_the_release_and_the_runner_names_the_target() {
    let runner = Runner::new();
    // How a runner checks an action out: _actions/OWNER/NAME/REF.
    let checkout = runner.path("_actions/acme/loki-gate/v1");
    std::fs::create_dir_all(&checkout).unwrap();
    std::fs::write(
        checkout.join("Cargo.toml"),
        "[package]\nname = \"loki-gate\"\nversion = \"1.4.2\"\n",
    )
    .unwrap();
    let key = runner.step(
        runner.dir.path(),
        "cache-key.sh",
        &[
            ("GITHUB_ACTION_PATH", checkout.to_str().unwrap()),
            ("RUNNER_OS", "macOS"),
            ("RUNNER_ARCH", "ARM64"),
            ("INPUT_WORKING_DIRECTORY", "services/api/"),
        ],
        None,
    );
    assert!(key.status.success(), "{}", output_text(&key));
    assert_eq!(runner.output("ref").as_deref(), Some("v1"), "from the checkout path");
    assert_eq!(runner.output("repository").as_deref(), Some("acme/loki-gate"));
    assert_eq!(
        runner.output("version").as_deref(),
        Some("1.4.2"),
        "the moving tag's release"
    );
    assert_eq!(runner.output("target").as_deref(), Some("aarch64-apple-darwin"));
    assert_eq!(
        runner.output("bin-key").as_deref(),
        Some("release-1.4.2-aarch64-apple-darwin")
    );
    assert_eq!(runner.output("state").as_deref(), Some("services/api/.loki-gate"));
    assert_eq!(runner.output("state-key").as_deref(), Some("feature-services-api"));

    // A branch has no release; a `version` input that is not one is refused.
    let branch = Runner::new();
    let key = branch.step(branch.dir.path(), "cache-key.sh", &[("ACTION_REF", "main")], None);
    assert!(key.status.success(), "{}", output_text(&key));
    assert_eq!(branch.output("version").as_deref(), Some(""));
    let bad = Runner::new();
    let key = bad.step(
        bad.dir.path(),
        "cache-key.sh",
        &[("INPUT_VERSION", "latest; rm -rf /")],
        None,
    );
    assert!(!key.status.success());
    assert!(
        output_text(&key).contains("::error title=loki-gate::version `latest; rm -rf /` is not a release version"),
        "{}",
        output_text(&key)
    );
}

/// A release as cargo-dist publishes it: `loki-gate-<target>.tar.gz`
/// holding `loki-gate-<target>/loki-gate`, and `<archive>.sha256` beside it.
fn release_archive(dir: &Path, target: &str) -> (Vec<u8>, String) {
    use sha2::Digest;
    let folder = dir.join(format!("loki-gate-{target}"));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(assert_cmd::cargo::cargo_bin!("loki-gate"), folder.join("loki-gate")).unwrap();
    let archive = dir.join(format!("loki-gate-{target}.tar.gz"));
    let tar = Command::new("tar")
        .arg("-czf")
        .arg(&archive)
        .arg("-C")
        .arg(dir)
        .arg(format!("loki-gate-{target}"))
        .output()
        .unwrap();
    assert!(tar.status.success(), "{}", output_text(&tar));
    let bytes = std::fs::read(&archive).unwrap();
    let sum = format!("{:x}", sha2::Sha256::digest(&bytes));
    (bytes, sum)
}

/// The install step for release `version` (and the `version` input) of
/// `target`, from the releases `api` serves, into the runner's `tool`.
fn install_release(runner: &Runner, api: &Api, (version, input): (&str, &str), target: &str) -> Output {
    let root = runner.path("tool");
    runner.step(
        runner.dir.path(),
        "install.sh",
        &[
            ("LOKI_GATE_ROOT", root.to_str().unwrap()),
            ("LOKI_GATE_RELEASES_URL", &api.server.uri()),
            ("RELEASE_VERSION", version),
            ("RELEASE_TARGET", target),
            ("INPUT_VERSION", input),
            ("ACTION_REF", "v1"),
            // No cargo: a fallback to a source build says so instead of building.
            ("PATH", "/usr/local/bin:/usr/bin:/bin"),
        ],
        None,
    )
}

#[test]
fn the_install_step_downloads_the_release_checks_its_checksum_and_never_installs_a_mismatch() {
    let target = "x86_64-unknown-linux-musl";
    let archive = format!("loki-gate-{target}.tar.gz");
    let files = tempfile::tempdir().unwrap();
    let (bytes, sum) = release_archive(files.path(), target);
    for (case, published, installs) in [
        ("matching", sum.clone(), true),
        ("tampered", "0".repeat(64), false),
        ("not a checksum", "<html>moved</html>".to_string(), false),
    ] {
        let api = Api::start();
        api.mount(
            Mock::given(method("GET"))
                .and(path(format!("/v1.4.2/{archive}")))
                .respond_with(ResponseTemplate::new(200).set_body_bytes(bytes.clone())),
        );
        api.mount(
            Mock::given(method("GET"))
                .and(path(format!("/v1.4.2/{archive}.sha256")))
                .respond_with(ResponseTemplate::new(200).set_body_string(format!("{published}  {archive}\n"))),
        );
        let runner = Runner::new();
        let root = runner.path("tool");
        let run = install_release(&runner, &api, ("1.4.2", ""), target);
        let output = output_text(&run);
        assert_eq!(run.status.success(), installs, "{case}: {output}");
        assert_eq!(root.join("bin/loki-gate").exists(), installs, "{case}: {output}");
        if installs {
            assert!(output.contains(&format!("checksum {sum} matches")), "{output}");
            assert!(
                output.contains(&format!("loki-gate {}", env!("CARGO_PKG_VERSION"))),
                "the installed binary runs: {output}"
            );
            assert_eq!(
                std::fs::read_to_string(runner.path("path")).unwrap().trim(),
                root.join("bin").display().to_string()
            );
        } else {
            assert!(output.contains("::error title=loki-gate::"), "{case}: {output}");
            assert!(!output.contains("building from source"), "{case}: {output}");
        }
    }

    // No archive for this release: a source build, which needs cargo.
    let api = Api::start();
    let run = install_release(&Runner::new(), &api, ("9.9.9", "9.9.9"), target);
    let output = output_text(&run);
    assert!(!run.status.success(), "{output}");
    assert!(
        output.contains("release v9.9.9 has no archive for x86_64-unknown-linux-musl, and cargo is not there"),
        "{output}"
    );
}

#[test]
fn the_run_step_runs_in_the_working_directory_and_a_missing_one_is_an_annotated_error() {
    let (repo, _remote) = pull_request();
    let runner = Runner::new();
    let env = [
        ("INPUT_COMMENT", "false"),
        ("INPUT_GATES", "mock"),
        ("INPUT_WORKING_DIRECTORY", "pkg"),
    ];
    let run = runner.step(repo.path(), "run.sh", &env, None);
    assert!(run.status.success(), "{}", output_text(&run));
    assert_eq!(
        runner.output("outcome").as_deref(),
        Some("blocked"),
        "{}",
        output_text(&run)
    );
    // loki-gate finds the repository upward: the state is at its root, where the cache keeps it.
    let key = runner.step(repo.path(), "cache-key.sh", &env, None);
    assert!(key.status.success(), "{}", output_text(&key));
    let state = PathBuf::from(runner.output("state").unwrap());
    assert_eq!(
        state.canonicalize().unwrap(),
        repo.path().join(".loki-gate").canonicalize().unwrap()
    );
    assert_eq!(runner.output("state-key").as_deref(), Some("feature-pkg"));

    let missing = Runner::new();
    let env = [("INPUT_COMMENT", "false"), ("INPUT_WORKING_DIRECTORY", "nope")];
    let run = missing.step(repo.path(), "run.sh", &env, None);
    assert!(run.status.success(), "{}", output_text(&run));
    assert_eq!(missing.output("outcome").as_deref(), Some("error"));
    assert_eq!(missing.output("exit-code").as_deref(), Some("2"));
    assert!(
        output_text(&run).contains("::error title=loki-gate could not run::working-directory `nope`"),
        "{}",
        output_text(&run)
    );
}
