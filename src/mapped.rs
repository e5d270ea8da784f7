//! Large files read by mapping them instead of copying them.
//!
//! At 100,000 files a repository's git index is about 10 MB, and a hook
//! reads it (and the import index, a few MB) on every commit: copying it
//! into fresh memory took 6 ms, mapping it under 1 ms. Only files that are
//! replaced whole (written elsewhere, then renamed over: git's index and
//! loki-gate's own caches) are mapped, as git maps its index: a file
//! rewritten in place while mapped would change under the reader.

use std::ops::Deref;
use std::path::Path;

/// Below this size a file is read: mapping costs more than a small copy.
const MAP_FROM: u64 = 256 * 1024;

/// A file's bytes: mapped, or read into memory.
#[derive(Debug)]
pub enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Default for Bytes {
    fn default() -> Bytes {
        Bytes::Owned(Vec::new())
    }
}

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(bytes: Vec<u8>) -> Bytes {
        Bytes::Owned(bytes)
    }
}

/// The bytes of `path`, a file that is only ever replaced whole (by rename),
/// never rewritten in place.
pub fn read_replaced(path: &Path) -> std::io::Result<Bytes> {
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    if len < MAP_FROM {
        let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        std::io::Read::read_to_end(&mut &file, &mut bytes)?;
        return Ok(Bytes::Owned(bytes));
    }
    // SAFETY: the mapping is read-only and private to this process. Its
    // bytes change only if the file is modified in place, and the files
    // read here are replaced by rename (git's lock-file protocol for the
    // index; loki-gate's own caches are written to a temporary file and
    // renamed): the inode mapped keeps its content. Git reads its index
    // the same way.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    Ok(Bytes::Mapped(map))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_files_are_read_and_large_ones_mapped_with_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        for len in [0usize, 10, MAP_FROM as usize + 1] {
            let path = dir.path().join(format!("f{len}"));
            let content: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            std::fs::write(&path, &content).unwrap();
            let read = read_replaced(&path).unwrap();
            assert_eq!(&read[..], &content[..]);
            assert_eq!(matches!(read, Bytes::Mapped(_)), len as u64 >= MAP_FROM);
        }
        assert!(read_replaced(&dir.path().join("missing")).is_err());
    }
}
