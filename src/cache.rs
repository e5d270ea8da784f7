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

use crate::state::{Store, write_atomic};

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
            write_atomic(&path, &json)
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

    /// Delete the entries this run did not use. Only after a run that looked
    /// at every file the cache serves, so nothing still current goes.
    pub fn prune(&self) {
        let used = self.used.lock().expect("cache keys");
        let Ok(shards) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for shard in shards.flatten() {
            let Ok(entries) = std::fs::read_dir(shard.path()) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let key = Path::new(&name)
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default();
                if !used.contains(key) {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }

    /// Sibling namespaces of older versions are dead weight: remove them.
    pub fn remove_other_versions(&self, prefix: &str) {
        let (Some(parent), Some(own)) = (self.dir.parent(), self.dir.file_name()) else {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_prune_keeps_what_was_used() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path().join("state"), None);
        let cache = Cache::open(&store, "t-1");
        let (a, b) = (Cache::key("py", b"a"), Cache::key("py", b"b"));
        assert_ne!(a, Cache::key("js", b"a"), "the kind is part of the key");
        assert_eq!(cache.get::<Vec<u32>>(&a), None);
        cache.put(&a, &vec![1u32, 2]);
        cache.put(&b, &vec![3u32]);
        assert_eq!(cache.get::<Vec<u32>>(&a), Some(vec![1, 2]));
        // A corrupt entry is a miss.
        std::fs::write(cache.path(&b), b"{not json").unwrap();
        let next = Cache::open(&store, "t-1");
        assert_eq!(next.get::<Vec<u32>>(&b), None);
        next.prune();
        assert!(!cache.path(&a).exists(), "unused in the second run");
        assert!(cache.path(&b).exists(), "used (even as a miss) in the second run");
        std::fs::create_dir_all(tmp.path().join("state/cache/t-0")).unwrap();
        next.remove_other_versions("t-");
        assert!(!tmp.path().join("state/cache/t-0").exists());
        assert!(tmp.path().join("state/cache/t-1").exists());
    }
}
