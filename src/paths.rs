//! Confining paths to the repository. A path loki-gate did not choose (one
//! a tool reports, one a finding carries, a symlink the change commits) is
//! read, handed on or printed only as [`confine`] returns it: repo-relative,
//! without `.` or `..`, and inside the repository both as written and with
//! its symlinks resolved (issue 25).

use std::path::{Component, Path, PathBuf};

/// `path` (absolute, or relative to `root`) as a repo-relative path with no
/// `.` or `..` components, when it lies inside the repository at `root`;
/// `None` when it does not: when its `..` climb out, or when a symlink on
/// the way (the file itself or a directory above it) leads out or dangles.
/// The repository's root itself is not a file in it: `None`.
///
/// Only the part of the path that exists is resolved; the rest cannot be a
/// symlink. An absolute path outside the root as written that exists and
/// resolves inside it (a tool that printed `/tmp/...` for a repository in
/// `/private/tmp/...`) is the file it resolves to.
pub fn confine(root: &Path, path: &Path) -> Option<PathBuf> {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        root.join(path)
    };
    let lexical = normalise(&joined);
    let written = match lexical.strip_prefix(root) {
        Ok(rel) => rel.to_path_buf(),
        Err(_) => {
            let root = canonical(root);
            match lexical.strip_prefix(&root) {
                Ok(rel) => rel.to_path_buf(),
                // Outside as written: only the file it resolves to can be inside.
                Err(_) => std::fs::canonicalize(&lexical)
                    .ok()?
                    .strip_prefix(&root)
                    .ok()?
                    .to_path_buf(),
            }
        }
    };
    if written.as_os_str().is_empty() || !resolves_inside(root, &written) {
        return None;
    }
    Some(written)
}

/// Does `rel` (normalised, repo-relative) stay inside `root` once the
/// symlinks of the part of it that exists are resolved?
fn resolves_inside(root: &Path, rel: &Path) -> bool {
    // The longest part of the path that exists (a dangling link counts as
    // existing, and then cannot be resolved: not inside).
    let mut existing = root.join(rel);
    loop {
        if std::fs::symlink_metadata(&existing).is_ok() {
            break;
        }
        match existing.parent() {
            Some(parent) if parent.starts_with(root) => existing = parent.to_path_buf(),
            _ => return false,
        }
    }
    // The repository's root is canonical already (`git::Repo::root`); a
    // caller's root that is not is resolved to compare.
    std::fs::canonicalize(&existing)
        .is_ok_and(|resolved| resolved.starts_with(root) || resolved.starts_with(canonical(root)))
}

/// `path` as symlink-free as the filesystem makes it.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| normalise(path))
}

/// `.` removed and each `..` taking away the component before it, without
/// looking at the filesystem. A `..` at the start of a relative path stays
/// (it points above wherever the path is taken from); at `/` it is `/`.
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                Some(Component::ParentDir | Component::CurDir) | None => out.push(".."),
            },
            other => out.push(other),
        }
    }
    out
}

/// The extension of the file a path names, as [`Path::extension`] reads it
/// (the text after the last dot of the file name, a leading dot not
/// counting), from the path's bytes: gates ask this of every tracked path,
/// and parsing components was a tenth of a hook at 100,000 files.
pub fn extension(path: &[u8]) -> Option<&[u8]> {
    // From the end, stopping at the first dot (or the name's start).
    let separator = |b: u8| b == b'/' || (cfg!(windows) && b == b'\\');
    let dot = path.iter().rposition(|b| *b == b'.' || separator(*b))?;
    let leading = dot == 0 || separator(path[dot - 1]);
    (path[dot] == b'.' && !leading).then(|| &path[dot + 1..])
}

/// The last component of `path` (bytes), as [`Path::file_name`] reads a
/// path without `..` or a trailing slash (as git and the gates spell them).
pub fn file_name(path: &[u8]) -> &[u8] {
    match path.iter().rposition(|b| *b == b'/' || (cfg!(windows) && *b == b'\\')) {
        Some(at) => &path[at + 1..],
        None => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_read_as_path_extension_reads_them() {
        for path in [
            "a.py", "dir/a.py", "dir.x/a", "a.tar.gz", ".bashrc", "dir/.env", "a.", "noext", "d/e.PY", "a..py", "",
        ] {
            let std = Path::new(path).extension().map(|e| e.as_encoded_bytes());
            assert_eq!(extension(path.as_bytes()), std, "{path}");
            let name = Path::new(path).file_name().map_or(&b""[..], |n| n.as_encoded_bytes());
            assert_eq!(file_name(path.as_bytes()), name, "{path}");
        }
    }

    #[test]
    fn dots_are_resolved_without_the_filesystem() {
        assert_eq!(normalise(Path::new("/r/a/./b/../c")), PathBuf::from("/r/a/c"));
        assert_eq!(normalise(Path::new("/../../etc")), PathBuf::from("/etc"));
        assert_eq!(normalise(Path::new("a/../../b")), PathBuf::from("../b"));
        assert_eq!(normalise(Path::new("./a")), PathBuf::from("a"));
    }

    #[test]
    fn paths_are_confined_to_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.py"), "").unwrap();
        let inside = |p: &str| confine(&root, Path::new(p));
        assert_eq!(inside("src/a.py"), Some(PathBuf::from("src/a.py")));
        assert_eq!(inside("./src/../src/a.py"), Some(PathBuf::from("src/a.py")));
        assert_eq!(
            inside("src/new/b.py"),
            Some(PathBuf::from("src/new/b.py")),
            "need not exist"
        );
        assert_eq!(
            inside(&root.join("src/a.py").display().to_string()),
            Some(PathBuf::from("src/a.py"))
        );
        assert_eq!(inside("../x/a.py"), None);
        assert_eq!(inside("src/../../x"), None);
        assert_eq!(inside("/etc/passwd"), None);
        assert_eq!(inside("."), None);
        assert_eq!(inside(""), None);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_or_dangling_are_not_inside() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let root = base.join("repo");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir(base.join("outside")).unwrap();
        std::fs::write(base.join("outside/secret.py"), "").unwrap();
        std::fs::write(root.join("src/a.py"), "").unwrap();
        symlink(base.join("outside/secret.py"), root.join("evil.py")).unwrap();
        symlink("../outside", root.join("out")).unwrap();
        symlink("src/a.py", root.join("alias.py")).unwrap();
        symlink("nowhere.py", root.join("dangling.py")).unwrap();
        let inside = |p: &str| confine(&root, Path::new(p));
        assert_eq!(inside("evil.py"), None);
        assert_eq!(inside("out/secret.py"), None);
        assert_eq!(inside("out/not-yet.py"), None, "a missing file under a link out");
        assert_eq!(inside("dangling.py"), None);
        assert_eq!(
            inside("alias.py"),
            Some(PathBuf::from("alias.py")),
            "a link that stays inside"
        );
        // Written outside, resolving inside: the file it is.
        symlink(&root, base.join("link-to-repo")).unwrap();
        assert_eq!(
            confine(&root, &base.join("link-to-repo/src/a.py")),
            Some(PathBuf::from("src/a.py"))
        );
    }
}
