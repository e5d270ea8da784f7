//! Commit signatures, as git itself verifies them (`git log --format=%G?`),
//! against the keys the caller names: never the user's own keyring or
//! allowed-signers file, so a key is trusted only when the caller's list
//! has it.

use std::path::Path;
use std::time::Duration;

use anyhow::{Result, bail};

/// Where git takes the trusted keys from while it verifies.
#[derive(Debug, Clone, Copy)]
pub struct TrustedKeys<'a> {
    /// An SSH `allowed_signers` file (git's `gpg.ssh.allowedSignersFile`);
    /// it may be empty.
    pub allowed_signers: &'a Path,
    /// A GnuPG home directory holding the trusted OpenPGP keys (it may hold
    /// none). X.509 signatures are checked against it too, and so never
    /// verify.
    pub gnupg_home: &'a Path,
}

/// What git made of a commit's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// git's `%G?`: `G` good and trusted, `U` good by a key the trusted
    /// keys do not hold, `N` unsigned, `B`/`X`/`Y`/`R`/`E` bad, expired,
    /// revoked or not checkable.
    pub status: char,
    /// `%GS`: the SSH principal, or the OpenPGP user id.
    pub signer: String,
    /// `%GF`: the fingerprint of the key that signed.
    pub key: String,
}

impl Signature {
    /// Good, and by one of the trusted keys.
    pub fn trusted(&self) -> bool {
        self.status == 'G'
    }
}

/// How long one verification may take (git runs `ssh-keygen` or `gpg`).
const TIMEOUT: Duration = Duration::from_secs(60);

/// Verify the signature of commit `id` of the repository at `git_dir` with
/// git, `ssh-keygen` and `gpg` from PATH, trusting only `keys`.
pub fn verify_commit(git_dir: &Path, id: &str, keys: TrustedKeys<'_>) -> Result<Signature> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("`{id}` is not a commit id");
    }
    let mut cmd = super::as_committed::git();
    let setting = |key: &str, value: &Path| format!("{key}={}", value.display());
    cmd.arg("--git-dir")
        .arg(git_dir)
        .arg("-c")
        .arg(setting("gpg.ssh.allowedSignersFile", keys.allowed_signers))
        // The programs as git's defaults name them: the keyring was made by
        // `gpg`, and a user's wrapper is no part of what the base trusts.
        .args(["-c", "gpg.ssh.program=ssh-keygen"])
        .args(["-c", "gpg.program=gpg", "-c", "gpg.openpgp.program=gpg"])
        .args(["-c", "gpg.x509.program=gpgsm"])
        .args(["-c", "log.showSignature=false"])
        .args(["log", "-1", "--no-walk", "--format=%G?%x00%GS%x00%GF", id, "--"])
        .env("GNUPGHOME", keys.gnupg_home)
        .env("LC_ALL", "C");
    let out = crate::process::run(cmd, git_dir, TIMEOUT)?;
    if !out.success() {
        bail!(
            "`git log --format=%G? {}` failed: {}",
            super::short(id),
            out.stderr.lines().next().unwrap_or("no message")
        );
    }
    // A missing `ssh-keygen` reads as a bad signature, a missing `gpg` as
    // none: say which program is missing instead.
    if let Some(missing) = out.stderr.lines().find(|l| l.contains("cannot run ")) {
        bail!(
            "{} (install it: `ssh-keygen` comes with OpenSSH's client, `gpg` with GnuPG)",
            missing.trim_start_matches("error: ")
        );
    }
    let line = out.stdout.trim_end_matches('\n');
    let mut fields = line.split('\0');
    let status = fields.next().and_then(|s| s.chars().next()).unwrap_or('E');
    Ok(Signature {
        status,
        signer: fields.next().unwrap_or_default().to_string(),
        key: fields.next().unwrap_or_default().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{git, repo};
    use super::*;

    fn has(tool: &str, arg: &str) -> bool {
        std::process::Command::new(tool)
            .arg(arg)
            .output()
            .is_ok_and(|o| o.status.success() || !o.stderr.is_empty())
    }

    #[test]
    fn only_a_key_the_caller_names_verifies() {
        if !has("ssh-keygen", "-?") {
            return;
        }
        let dir = repo();
        let keys = tempfile::tempdir().unwrap();
        let key = keys.path().join("key");
        let out = std::process::Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", "", "-C", "lead", "-f"])
            .arg(&key)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        std::fs::write(dir.path().join("a"), "a").unwrap();
        git(dir.path(), &["add", "a"]);
        let signing = format!("user.signingkey={}.pub", key.display());
        git(
            dir.path(),
            &[
                "-c",
                "gpg.format=ssh",
                "-c",
                &signing,
                "commit",
                "-q",
                "-S",
                "-m",
                "signed",
            ],
        );
        let id = git(dir.path(), &["rev-parse", "HEAD"]);
        let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
        let listed = keys.path().join("allowed");
        std::fs::write(&listed, format!("lead@acme.io {public}")).unwrap();
        let empty = keys.path().join("none");
        std::fs::write(&empty, "").unwrap();
        let home = tempfile::tempdir().unwrap();
        let git_dir = dir.path().join(".git");
        let check = |allowed: &Path| {
            verify_commit(
                &git_dir,
                &id,
                TrustedKeys {
                    allowed_signers: allowed,
                    gnupg_home: home.path(),
                },
            )
            .unwrap()
        };
        let good = check(&listed);
        assert!(good.trusted(), "{good:?}");
        assert_eq!(good.signer, "lead@acme.io");
        assert!(good.key.starts_with("SHA256:"), "{good:?}");
        let unknown = check(&empty);
        assert_eq!(unknown.status, 'U', "{unknown:?}");
        assert!(!unknown.trusted());
        assert!(
            verify_commit(
                &git_dir,
                "--all",
                TrustedKeys {
                    allowed_signers: &empty,
                    gnupg_home: home.path()
                }
            )
            .is_err()
        );
    }
}
