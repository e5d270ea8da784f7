//! A content-addressed cache of per-file analysis, under the state directory
//! (`<state>/cache/<namespace>/`): one JSON file per entry, named by the
//! sha256 of what it was computed from, so each file is parsed once across
//! runs. Entries are written atomically (temp file + rename) and never
//! change, so concurrent runs need no lock. A missing, unreadable or corrupt
//! entry is a miss, and is rewritten. `--no-cache` (or `LOKI_GATE_NO_CACHE`)
//! turns it off; deleting the directory is always safe.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::state::{Store, write_atomic, write_cache_entry};

/// Entries older than this that a run did not use are evicted.
pub const MAX_AGE: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 60 * 60);

/// Past this size, the oldest entries a run did not use are evicted.
pub const MAX_BYTES: u64 = 256 * 1024 * 1024;

pub struct Cache {
    dir: PathBuf,
    /// Keys read or written in this run, for [`Cache::prune`].
    used: Mutex<HashSet<String>>,
    /// The first write error: reported once, then the cache stops writing.
    failed: Mutex<Option<String>>,
}

impl Cache {
    /// The cache for `namespace` (which names the analysis and its version)
    /// in the state directory of `store`.
    pub fn open(store: &Store, namespace: &str) -> Cache {
        Cache {
            dir: store.dir().join("cache").join(namespace),
            used: Mutex::default(),
            failed: Mutex::default(),
        }
    }

    /// The key of `bytes` analysed as `kind`.
    pub fn key(kind: &str, bytes: &[u8]) -> String {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        hasher.update(kind.as_bytes());
        hasher.update([0]);
        hasher.update(bytes);
        crate::finding::hex(&hasher.finalize())
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        self.used.lock().expect("cache keys").insert(key.to_string());
        let bytes = std::fs::read(self.path(key)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    pub fn put<T: Serialize>(&self, key: &str, value: &T) {
        if self.failed.lock().expect("cache state").is_some() {
            return;
        }
        let path = self.path(key);
        let written = serde_json::to_vec(value).map_err(anyhow::Error::from).and_then(|json| {
            std::fs::create_dir_all(path.parent().expect("an entry has a parent"))?;
            write_cache_entry(&path, &json)
        });
        if let Err(e) = written {
            self.failed
                .lock()
                .expect("cache state")
                .get_or_insert_with(|| format!("{}: {e:#}", self.dir.display()));
        }
    }

    /// Why the cache could not be written, if it could not (the run still checked everything).
    pub fn failure(&self) -> Option<String> {
        self.failed.lock().expect("cache state").clone()
    }

    /// Evict by age and size, never an entry this run used: entries
    /// written more than [`MAX_AGE`] ago go, then the oldest others while the
    /// namespace holds more than [`MAX_BYTES`]. An entry one gate did not
    /// use may be another's (`mutation` reads old versions of test files
    /// that `mock` never sees), so "unused in this run" alone is no reason.
    pub fn prune(&self) {
        self.evict(std::time::SystemTime::now(), MAX_AGE, MAX_BYTES);
    }

    fn evict(&self, now: std::time::SystemTime, max_age: std::time::Duration, max_bytes: u64) {
        let used = self.used.lock().expect("cache keys");
        let Ok(shards) = std::fs::read_dir(&self.dir) else {
            return;
        };
        // (written, path, size) of the entries this run did not use.
        let mut others: Vec<(std::time::SystemTime, PathBuf, u64)> = Vec::new();
        let mut total = 0u64;
        for shard in shards.flatten() {
            let Ok(entries) = std::fs::read_dir(shard.path()) else {
                continue;
            };
            for entry in entries.flatten() {
                let Ok(meta) = entry.metadata() else { continue };
                total += meta.len();
                let name = entry.file_name();
                let key = Path::new(&name)
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default();
                if used.contains(key) {
                    continue;
                }
                let written = meta.modified().unwrap_or(now);
                if now.duration_since(written).is_ok_and(|age| age > max_age) {
                    if std::fs::remove_file(entry.path()).is_ok() {
                        total = total.saturating_sub(meta.len());
                    }
                    continue;
                }
                others.push((written, entry.path(), meta.len()));
            }
        }
        others.sort();
        for (_, path, size) in others {
            if total <= max_bytes {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total = total.saturating_sub(size);
            }
        }
    }

    /// Sibling namespaces of older versions are dead weight: remove them.
    pub fn remove_other_versions(&self, prefix: &str) {
        remove_siblings(&self.dir, prefix);
    }
}

/// What was computed for one commit of the repository and is carried
/// forward to the next (the import index, the history `docs/stale` reads):
/// `<state>/cache/<namespace>/<commit id>`, and `latest` naming the newest.
/// A file is written once, atomically; the newest and one other (a commit
/// amended, a branch switched) are kept, and no other version's namespace.
pub struct PerCommit {
    dir: PathBuf,
}

/// The pointer to the newest file of a [`PerCommit`].
const LATEST: &str = "latest";

impl PerCommit {
    /// `namespace` names what is kept and its version.
    pub fn open(store: &Store, namespace: &str) -> PerCommit {
        PerCommit {
            dir: store.dir().join("cache").join(namespace),
        }
    }

    /// The file kept for `commit`.
    pub fn read(&self, commit: &str) -> Option<crate::mapped::Bytes> {
        crate::mapped::read_replaced(&self.dir.join(commit)).ok()
    }

    /// The newest file and its commit, when it is not `commit`'s.
    pub fn latest(&self, commit: &str) -> Option<(String, crate::mapped::Bytes)> {
        let id = std::fs::read_to_string(self.dir.join(LATEST)).ok()?;
        let id = id.trim();
        let valid = id.len() == 40 && id.bytes().all(|b| b.is_ascii_hexdigit()) && id != commit;
        valid.then(|| Some((id.to_string(), self.read(id)?))).flatten()
    }

    /// Keep `bytes` for `commit` as the newest; `None` when it could not be
    /// written (the run goes on without).
    pub fn write(&self, commit: &str, bytes: &[u8]) -> Option<()> {
        std::fs::create_dir_all(&self.dir).ok()?;
        write_atomic(&self.dir.join(commit), bytes).ok()?;
        write_atomic(&self.dir.join(LATEST), commit.as_bytes()).ok()?;
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            let keep = |name: &str| name == commit || name == LATEST;
            let mut old: Vec<(std::time::SystemTime, PathBuf)> = entries
                .flatten()
                .filter(|e| !e.file_name().to_str().is_some_and(keep))
                .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
                .collect();
            old.sort();
            old.pop();
            for (_, path) in old {
                let _ = std::fs::remove_file(path);
            }
        }
        Some(())
    }

    /// Remove the namespaces of other versions (their names start with `family`).
    pub fn remove_other_versions(&self, family: &str) {
        remove_siblings(&self.dir, family);
    }
}

/// Remove the directories beside `dir` whose names start with `prefix`.
fn remove_siblings(dir: &Path, prefix: &str) {
    let (Some(parent), Some(own)) = (dir.parent(), dir.file_name()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name != own && name.to_string_lossy().starts_with(prefix) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_commit_files_keep_the_newest_and_one_other() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path().join("state"), None);
        let stale = store.dir().join("cache").join("history-0.0.1");
        std::fs::create_dir_all(&stale).unwrap();
        let kept = PerCommit::open(&store, "history-9.9.9");
        let ids: Vec<String> = (0..4).map(|i| format!("{i}").repeat(40)).collect();
        assert!(kept.latest(&ids[0]).is_none());
        for (n, id) in ids.iter().enumerate() {
            kept.write(id, id.as_bytes()).unwrap();
            // Modification times must differ for "the oldest" to mean anything.
            let old = std::time::SystemTime::now() - std::time::Duration::from_secs(100 - n as u64);
            std::fs::File::options()
                .write(true)
                .open(kept.dir.join(id))
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        assert_eq!(&kept.read(&ids[3]).unwrap()[..], ids[3].as_bytes());
        assert_eq!(&kept.read(&ids[2]).unwrap()[..], ids[2].as_bytes());
        assert!(kept.read(&ids[1]).is_none() && kept.read(&ids[0]).is_none());
        let (id, bytes) = kept.latest(&ids[0]).unwrap();
        assert_eq!((id.as_str(), &bytes[..]), (ids[3].as_str(), ids[3].as_bytes()));
        assert!(kept.latest(&ids[3]).is_none(), "the newest is the commit's own");
        std::fs::write(kept.dir.join(LATEST), "../../../etc/passwd").unwrap();
        assert!(kept.latest(&ids[0]).is_none(), "latest names a commit id or nothing");
        kept.remove_other_versions("history-");
        assert!(!stale.exists() && kept.dir.exists());
    }

    /// Entries are written without a flush to the disk: what a crash can
    /// leave (an empty entry, a temp file) is a miss, and evicted with age.
    #[test]
    fn what_a_crash_leaves_is_a_miss_and_goes_with_age() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path().join("state"), None);
        let cache = Cache::open(&store, "t-1");
        let key = Cache::key("py", b"x");
        cache.put(&key, &vec![1u32, 2]);
        assert_eq!(cache.get::<Vec<u32>>(&key), Some(vec![1, 2]));
        std::fs::write(cache.path(&key), b"").unwrap();
        let temp = cache.path(&key).with_file_name(".loki-gate-tmpAbC123");
        std::fs::write(&temp, b"[1,").unwrap();
        let next = Cache::open(&store, "t-1");
        assert_eq!(next.get::<Vec<u32>>(&key), None);
        let old = std::time::SystemTime::now() - MAX_AGE - std::time::Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&temp)
            .unwrap()
            .set_modified(old)
            .unwrap();
        Cache::open(&store, "t-1").prune();
        assert!(!temp.exists(), "a temp file a killed write left goes with age");
        next.put(&key, &vec![3u32]);
        assert_eq!(Cache::open(&store, "t-1").get::<Vec<u32>>(&key), Some(vec![3]));
    }

    #[test]
    fn entries_round_trip_and_eviction_goes_by_age_and_size_never_what_was_used() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path().join("state"), None);
        let cache = Cache::open(&store, "t-1");
        let key = |n: u32| Cache::key("py", &n.to_le_bytes());
        assert_ne!(
            Cache::key("py", b"a"),
            Cache::key("js", b"a"),
            "the kind is part of the key"
        );
        assert_eq!(cache.get::<Vec<u32>>(&key(0)), None);
        for n in 0..4 {
            cache.put(&key(n), &vec![n; 100]);
        }
        assert_eq!(cache.get::<Vec<u32>>(&key(0)), Some(vec![0; 100]));
        // A corrupt entry is a miss.
        std::fs::write(cache.path(&key(1)), b"{not json").unwrap();
        let now = std::time::SystemTime::now();
        let day = std::time::Duration::from_secs(86_400);
        for (n, days) in [(0, 40), (1, 40), (2, 3), (3, 1)] {
            let file = std::fs::File::options().write(true).open(cache.path(&key(n))).unwrap();
            file.set_modified(now - day * days).unwrap();
        }
        let next = Cache::open(&store, "t-1");
        assert_eq!(next.get::<Vec<u32>>(&key(1)), None);
        // Another gate's run used none of 0, 2, 3: age alone evicts 0.
        next.evict(now, MAX_AGE, MAX_BYTES);
        assert!(!cache.path(&key(0)).exists(), "old and unused");
        assert!(
            cache.path(&key(1)).exists(),
            "used (even as a miss) in this run, however old"
        );
        assert!(cache.path(&key(2)).exists() && cache.path(&key(3)).exists(), "recent");
        // Over the size cap, the oldest unused entries go first.
        let size = |n: u32| std::fs::metadata(cache.path(&key(n))).unwrap().len();
        next.evict(now, MAX_AGE, size(1) + size(3));
        assert!(!cache.path(&key(2)).exists(), "the oldest unused one");
        assert!(cache.path(&key(1)).exists() && cache.path(&key(3)).exists());
        std::fs::create_dir_all(tmp.path().join("state/cache/t-0")).unwrap();
        next.remove_other_versions("t-");
        assert!(!tmp.path().join("state/cache/t-0").exists());
        assert!(tmp.path().join("state/cache/t-1").exists());
    }
}
