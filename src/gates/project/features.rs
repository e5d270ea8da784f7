//! Which Cargo features a plain `cargo test` enables: the `default` set of
//! the crate's manifest, closed over what each feature enables in turn. A
//! test compiled only with another feature does not run there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The default features of the crates of a working tree, each manifest
/// read the first time a file under it is asked about.
#[derive(Debug)]
pub struct CargoFeatures {
    root: PathBuf,
    /// Each manifest's features, by its directory (`None`: not read).
    read: Mutex<BTreeMap<PathBuf, Option<Features>>>,
}

/// What one manifest says of features.
#[derive(Debug)]
struct Features {
    /// What a plain build enables.
    defaults: BTreeSet<String>,
    /// Every feature it declares: `[features]` and optional dependencies.
    declared: BTreeSet<String>,
}

impl CargoFeatures {
    pub fn new(root: &Path) -> CargoFeatures {
        CargoFeatures {
            root: root.to_path_buf(),
            read: Mutex::new(BTreeMap::new()),
        }
    }

    /// Does a plain `cargo test` of the crate holding `path`
    /// (repository-relative) enable `feature`? A manifest that cannot be
    /// read says yes: no finding rests on a guess.
    pub fn on_by_default(&self, path: &Path, feature: &str) -> bool {
        self.manifest(path, |f| f.defaults.contains(feature))
    }

    /// Does the manifest of the crate holding `path` declare `feature`
    /// (in `[features]`, or as an optional dependency)? A test compiled
    /// only with one it does not declare is never compiled. A manifest
    /// that cannot be read says yes.
    pub fn declares(&self, path: &Path, feature: &str) -> bool {
        self.manifest(path, |f| f.declared.contains(feature))
    }

    /// `ask` of the manifest of the crate holding `path`; true when there
    /// is none or it cannot be read.
    fn manifest(&self, path: &Path, ask: impl Fn(&Features) -> bool) -> bool {
        let Some(dir) = path
            .ancestors()
            .skip(1)
            .find(|d| self.root.join(d).join("Cargo.toml").is_file())
        else {
            return true;
        };
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        let manifest = read.entry(dir.to_path_buf()).or_insert_with(|| {
            let text = std::fs::read_to_string(self.root.join(dir).join("Cargo.toml")).ok()?;
            let manifest = text.parse::<toml::Table>().ok()?;
            Some(Features {
                defaults: defaults(&manifest)?,
                declared: declared(&manifest),
            })
        });
        manifest.as_ref().is_none_or(ask)
    }
}

/// Every feature a manifest declares: its `[features]`, and its optional
/// dependencies (each an implicit feature of its name).
fn declared(manifest: &toml::Table) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = manifest
        .get("features")
        .and_then(|f| f.as_table())
        .map(|f| f.keys().cloned().collect())
        .unwrap_or_default();
    if let Some(dependencies) = manifest.get("dependencies").and_then(|d| d.as_table()) {
        names.extend(
            dependencies
                .iter()
                .filter(|(_, d)| d.get("optional").and_then(|o| o.as_bool()) == Some(true))
                .map(|(name, _)| name.clone()),
        );
    }
    names
}

/// The features `default` enables ([`crate::trust::tools::cargo_default_features`]).
fn defaults(manifest: &toml::Table) -> Option<BTreeSet<String>> {
    let json = serde_json::to_value(manifest).ok()?;
    Some(crate::trust::tools::cargo_default_features(&json))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_set_is_closed_over_what_each_feature_enables() {
        let manifest: toml::Table =
            "[features]\ndefault = [\"std\"]\nstd = [\"alloc\", \"serde?/std\"]\nalloc = []\nslow = []\n"
                .parse()
                .unwrap();
        let on = super::defaults(&manifest).unwrap();
        assert_eq!(on.into_iter().collect::<Vec<_>>(), vec!["alloc", "std"]);
        assert!(super::defaults(&toml::Table::new()).unwrap().is_empty());
        let manifest: toml::Table =
            "[features]\nstd = []\n\n[dependencies]\nserde = { version = \"1\", optional = true }\nlog = \"0.4\"\n"
                .parse()
                .unwrap();
        let declared = super::declared(&manifest);
        assert_eq!(declared.into_iter().collect::<Vec<_>>(), vec!["serde", "std"]);
    }
}
