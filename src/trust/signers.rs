//! The base's trusted signers (`trusted-signers`, issue 54): the keys a
//! trusted author's commit must be signed with for its authorship to count.
//! Authorship is what git records, and anyone can write it
//! (`git -c user.email=... commit`, `--author`); a signature by a key the
//! base lists is not. The files are read at the trusted revision, never
//! from the working tree, written to a private temporary directory, and
//! git verifies against that alone (`crate::git::verify_commit`).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use crate::git::{Repo, Signature, TrustedKeys};

/// A signers file larger than this is not read (an `allowed_signers` line
/// is about 100 bytes; an armored OpenPGP key a few kilobytes).
const MAX_BYTES: usize = 1 << 20;

/// How long `gpg` may take to import the base's keys.
const GPG_TIMEOUT: Duration = Duration::from_secs(60);

/// The base's trusted signers, and what git made of each commit asked about.
pub(crate) struct Signers {
    /// Each configured file: its name, and its content at the trusted
    /// revision or why there is none.
    files: Vec<(String, Result<Vec<u8>, String>)>,
    git_dir: Option<PathBuf>,
    prepared: OnceLock<Result<Prepared, String>>,
    checked: Mutex<HashMap<String, Result<Signature, String>>>,
}

/// The keys, written where git (and `gpg`) read them.
struct Prepared {
    /// Removed when the run ends.
    _dir: tempfile::TempDir,
    allowed_signers: PathBuf,
    gnupg_home: PathBuf,
    /// Why the OpenPGP keys could not be taken (gpg missing, or refusing them).
    unreadable: Option<String>,
}

impl Signers {
    /// Read `names` (repo-relative paths) at `rev`, the trusted revision.
    pub(crate) fn open(repo: &Repo, rev: Option<&str>, names: Vec<String>) -> Signers {
        let files = names
            .into_iter()
            .map(|name| {
                let content = read_at(repo, rev, &name);
                (name, content)
            })
            .collect();
        Signers {
            files,
            git_dir: repo.location().git_dir,
            prepared: OnceLock::new(),
            checked: Mutex::new(HashMap::new()),
        }
    }

    /// Does the base name any signers file?
    pub(crate) fn configured(&self) -> bool {
        !self.files.is_empty()
    }

    /// The files, as `who_can` names them: `a, b (b: not in the base revision)`.
    pub(crate) fn shown(&self) -> String {
        let names: Vec<&str> = self.files.iter().map(|(name, _)| name.as_str()).collect();
        let problems: Vec<String> = self
            .files
            .iter()
            .filter_map(|(name, content)| content.as_ref().err().map(|why| format!("{name}: {why}")))
            .collect();
        if problems.is_empty() {
            names.join(", ")
        } else {
            format!("{}; {}", names.join(", "), problems.join("; "))
        }
    }

    /// Why the base's OpenPGP keys could not be taken, once they were tried.
    pub(crate) fn unreadable(&self) -> Option<&str> {
        self.prepared.get()?.as_ref().ok()?.unreadable.as_deref()
    }

    /// What git makes of the signature of commit `id`, trusting only the
    /// base's keys; asked once per commit.
    pub(crate) fn check(&self, id: &str) -> Result<Signature, String> {
        let mut checked = self.checked.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(known) = checked.get(id) {
            return known.clone();
        }
        let result = self.verify(id);
        checked.insert(id.to_string(), result.clone());
        result
    }

    fn verify(&self, id: &str) -> Result<Signature, String> {
        let prepared = self
            .prepared
            .get_or_init(|| prepare(&self.files))
            .as_ref()
            .map_err(Clone::clone)?;
        let git_dir = self.git_dir.as_deref().ok_or("the git directory is not known")?;
        crate::git::verify_commit(
            git_dir,
            id,
            TrustedKeys {
                allowed_signers: &prepared.allowed_signers,
                gnupg_home: &prepared.gnupg_home,
            },
        )
        .map_err(|e| crate::wording::describe(&e))
    }
}

/// The content of `name` at `rev`, or why it cannot count.
fn read_at(repo: &Repo, rev: Option<&str>, name: &str) -> Result<Vec<u8>, String> {
    let path = Path::new(name);
    let inside = !name.trim().is_empty()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !inside {
        return Err("not a path inside the repository".into());
    }
    let rev = rev.ok_or("there is no base revision to read it from")?;
    match repo.blob_at(rev, path) {
        Ok(Some(bytes)) if bytes.len() > MAX_BYTES => Err(format!("larger than {MAX_BYTES} bytes")),
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err("not in the base revision".into()),
        Err(e) => Err(crate::wording::describe(&e)),
    }
}

/// Is `bytes` OpenPGP key material (armored, or a binary packet) rather
/// than an `allowed_signers` list?
fn is_openpgp(bytes: &[u8]) -> bool {
    const ARMOR: &[u8] = b"-----BEGIN PGP PUBLIC KEY BLOCK-----";
    // A public-key packet's tag: old format (one- or two-byte length), new format.
    matches!(bytes.first(), Some(0x98 | 0x99 | 0xC6)) || bytes.windows(ARMOR.len()).any(|w| w == ARMOR)
}

/// Write the base's keys to a private temporary directory: the SSH lines
/// into one `allowed_signers` file, the OpenPGP keys into a GnuPG home of
/// their own, each ultimately trusted there (so git reports `G`); with none,
/// the home is empty, and no OpenPGP or X.509 signature verifies.
fn prepare(files: &[(String, Result<Vec<u8>, String>)]) -> Result<Prepared, String> {
    let fail = |what: &str, e: std::io::Error| format!("could not {what}: {e}");
    let dir = tempfile::Builder::new()
        .prefix("loki-gate-signers")
        .tempdir()
        .map_err(|e| fail("make a temporary directory for the trusted signers", e))?;
    let gnupg_home = dir.path().join("gnupg");
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(&gnupg_home).map_err(|e| fail("make a GnuPG home", e))?;
    // Never start an agent or fetch a key: verifying needs neither, and a
    // key from a keyserver is not one the base lists.
    std::fs::write(gnupg_home.join("gpg.conf"), "no-autostart\nno-auto-key-retrieve\n")
        .map_err(|e| fail("write gpg.conf", e))?;
    let mut ssh = Vec::new();
    let mut openpgp = Vec::new();
    for (i, (_, content)) in files.iter().enumerate() {
        let Ok(bytes) = content else { continue };
        if is_openpgp(bytes) {
            let file = dir.path().join(format!("keys-{i}.pgp"));
            std::fs::write(&file, bytes).map_err(|e| fail("write the OpenPGP keys", e))?;
            openpgp.push(file);
        } else {
            ssh.extend_from_slice(bytes);
            if !ssh.ends_with(b"\n") {
                ssh.push(b'\n');
            }
        }
    }
    let allowed_signers = dir.path().join("allowed_signers");
    std::fs::write(&allowed_signers, &ssh).map_err(|e| fail("write the allowed signers", e))?;
    // Keys gpg cannot read leave the SSH keys counting; the reason is kept
    // for the findings of the signatures that then do not verify.
    let unreadable = if openpgp.is_empty() {
        None
    } else {
        import_openpgp(&gnupg_home, &openpgp).err()
    };
    Ok(Prepared {
        _dir: dir,
        allowed_signers,
        gnupg_home,
        unreadable,
    })
}

/// Import `files` into the GnuPG home `home` and trust each primary key.
fn import_openpgp(home: &Path, files: &[PathBuf]) -> Result<(), String> {
    let gpg = |args: &[&std::ffi::OsStr], input: Option<Vec<u8>>| {
        let mut cmd = std::process::Command::new("gpg");
        cmd.args(["--batch", "--quiet", "--no-tty", "--no-autostart"])
            .args(args)
            .env("GNUPGHOME", home)
            .env("LC_ALL", "C");
        let out = crate::process::run_with_input(cmd, home, GPG_TIMEOUT, input).map_err(|e| {
            format!(
                "could not run gpg to read the OpenPGP keys: {}",
                crate::wording::describe(&e)
            )
        })?;
        if out.success() {
            Ok(out.stdout)
        } else {
            Err(format!(
                "gpg could not read the OpenPGP keys: {}",
                out.stderr.lines().next().unwrap_or("no message")
            ))
        }
    };
    let mut args: Vec<&std::ffi::OsStr> = vec!["--import".as_ref()];
    args.extend(files.iter().map(|f| f.as_os_str()));
    gpg(&args, None)?;
    let listed = gpg(&["--with-colons".as_ref(), "--list-keys".as_ref()], None)?;
    // A `fpr` record right after a `pub` record is the primary key's.
    let mut trust = String::new();
    let mut after_pub = false;
    for line in listed.lines() {
        let fields: Vec<&str> = line.split(':').collect();
        match fields.first() {
            Some(&"pub") => after_pub = true,
            Some(&"fpr") if after_pub => {
                if let Some(fpr) = fields.get(9).filter(|f| !f.is_empty()) {
                    trust.push_str(&format!("{fpr}:6:\n"));
                }
                after_pub = false;
            }
            _ => after_pub = false,
        }
    }
    if trust.is_empty() {
        return Err("the OpenPGP files hold no public key".into());
    }
    gpg(&["--import-ownertrust".as_ref()], Some(trust.into_bytes()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openpgp_keys_are_told_from_allowed_signers_lines() {
        assert!(is_openpgp(
            b"\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZ...\n-----END PGP PUBLIC KEY BLOCK-----\n"
        ));
        assert!(is_openpgp(&[0x99, 0x01, 0x0d]));
        assert!(!is_openpgp(b"lead@acme.io ssh-ed25519 AAAAC3Nza... lead\n"));
        assert!(!is_openpgp(
            "\u{feff}lead@acme.io ssh-ed25519 AAAAC3Nza...\n".as_bytes()
        ));
        assert!(!is_openpgp(b""));
    }
}
