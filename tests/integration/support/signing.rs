//! Signing keys made by `ssh-keygen` and `gpg`, and commits signed with
//! them, as a developer signs (issue 54).

use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

use super::{TestRepo, scrub_env};

/// Run `program` with `args` (and `env`); a failure fails the test.
fn run(program: &str, args: &[&str], env: &[(&str, &Path)]) -> String {
    let mut cmd = Command::new(program);
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{program} is needed for the signed-commit tests (openssh-client, gnupg): {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// An SSH signing key (ed25519, no passphrase), as `ssh-keygen` makes one.
pub struct SshKey {
    _dir: TempDir,
    private: PathBuf,
}

impl SshKey {
    pub fn new() -> SshKey {
        let dir = tempfile::tempdir().expect("temp dir");
        let private = dir.path().join("key");
        run(
            "ssh-keygen",
            &[
                "-q",
                "-t",
                "ed25519",
                "-N",
                "",
                "-C",
                "test",
                "-f",
                private.to_str().unwrap(),
            ],
            &[],
        );
        SshKey { _dir: dir, private }
    }

    /// The public key line (`ssh-ed25519 AAAA... test`).
    pub fn public(&self) -> String {
        std::fs::read_to_string(self.private.with_extension("pub"))
            .expect("public key")
            .trim()
            .to_string()
    }

    /// Its line in git's `allowed_signers` format.
    pub fn allowed(&self, principal: &str) -> String {
        format!("{principal} {}\n", self.public())
    }

    /// The `git -c` settings that sign a commit with it.
    fn settings(&self) -> Vec<String> {
        vec![
            "gpg.format=ssh".into(),
            format!("user.signingkey={}.pub", self.private.display()),
        ]
    }
}

/// An OpenPGP signing key (ed25519, no passphrase) in a GnuPG home of its
/// own; the agent signing starts is ended when it is dropped.
pub struct GpgKey {
    home: TempDir,
    pub email: String,
}

impl GpgKey {
    pub fn new(name: &str, email: &str) -> GpgKey {
        // Short: the agent's socket path must fit in 108 bytes.
        let home = tempfile::Builder::new()
            .prefix("lg-gpg")
            .tempdir_in("/tmp")
            .expect("temp dir");
        let uid = format!("{name} <{email}>");
        run(
            "gpg",
            &[
                "--batch",
                "--quiet",
                "--pinentry-mode",
                "loopback",
                "--passphrase",
                "",
                "--quick-gen-key",
                &uid,
                "ed25519",
                "sign",
                "never",
            ],
            &[("GNUPGHOME", home.path())],
        );
        GpgKey {
            home,
            email: email.to_string(),
        }
    }

    /// The public key, ASCII-armored.
    pub fn armored(&self) -> String {
        run(
            "gpg",
            &["--batch", "--armor", "--export", &self.email],
            &[("GNUPGHOME", self.home.path())],
        )
    }
}

impl Drop for GpgKey {
    fn drop(&mut self) {
        let _ = Command::new("gpgconf")
            .args(["--kill", "gpg-agent"])
            .env("GNUPGHOME", self.home.path())
            .output();
    }
}

/// How a commit is signed.
pub enum Sign<'a> {
    Unsigned,
    Ssh(&'a SshKey),
    Gpg(&'a GpgKey),
}

impl TestRepo {
    /// Stage everything and commit as `committer` (`Name <email>`, also
    /// the author unless `author` names another), signed as `sign` says.
    pub fn commit_by(&self, committer: &str, author: Option<&str>, sign: Sign<'_>, message: &str) -> String {
        self.git(&["add", "-A"]);
        let (name, email) = committer
            .strip_suffix('>')
            .and_then(|c| c.split_once(" <"))
            .expect("`Name <email>`");
        let mut settings = vec![format!("user.name={name}"), format!("user.email={email}")];
        let mut env: Vec<(&str, &Path)> = Vec::new();
        match &sign {
            Sign::Unsigned => {}
            Sign::Ssh(key) => settings.extend(key.settings()),
            Sign::Gpg(key) => {
                settings.extend([
                    "gpg.format=openpgp".to_string(),
                    format!("user.signingkey={}", key.email),
                ]);
                env.push(("GNUPGHOME", key.home.path()));
            }
        }
        let mut args: Vec<String> = settings.into_iter().flat_map(|s| ["-c".to_string(), s]).collect();
        args.extend(["commit", "-q", "-m", message].map(String::from));
        if !matches!(sign, Sign::Unsigned) {
            args.push("-S".into());
        }
        if let Some(author) = author {
            args.extend(["--author".to_string(), author.to_string()]);
        }
        let mut cmd = Command::new("git");
        scrub_env(&mut cmd);
        cmd.args(&args)
            .current_dir(self.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        self.git(&["rev-parse", "HEAD"])
    }
}
