//! LCOV tracefiles (`lcov.info`): c8, istanbul/nyc, vitest and jest
//! `--coverage`, cargo-llvm-cov `--lcov`, grcov, coverage.py `coverage lcov`.
//!
//! Only `SF:` (the source file), `DA:<line>,<hits>[,<checksum>]` and
//! `end_of_record` matter here; function and branch records are skipped.

use std::collections::BTreeMap;

use super::{Entry, Hits, Keep};

/// The records whose file `keep` wants; the others are skipped unread.
pub fn parse(text: &str, keep: &mut Keep<'_>) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    let mut current: Option<Entry> = None;
    let mut skipping = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = i + 1;
        if let Some(name) = line.strip_prefix("SF:") {
            entries.extend(current.take());
            skipping = !keep(name, &[]);
            current = (!skipping).then(|| Entry {
                name: name.to_string(),
                hits: Hits::Lines(BTreeMap::new()),
            });
        } else if skipping {
            skipping = line != "end_of_record";
        } else if let Some(data) = line.strip_prefix("DA:") {
            let Some(Entry {
                hits: Hits::Lines(lines),
                ..
            }) = current.as_mut()
            else {
                return Err(format!(
                    "line {at}: `DA:` outside a record: each record starts with `SF:<file>`"
                ));
            };
            let (number, hits) = da(data).ok_or_else(|| {
                format!("line {at}: `{line}` is not `DA:<line>,<hits>`: is the tracefile truncated or hand-edited?")
            })?;
            *lines.entry(number).or_default() |= hits;
        } else if line == "end_of_record" {
            entries.extend(current.take());
        }
    }
    entries.extend(current);
    Ok(entries)
}

/// `12,3` or `12,3,checksum` -> (12, true). Hit counts some tools write as
/// decimals (`1.0`) or, after a counter overflow, negative, still say whether
/// the line ran.
fn da(data: &str) -> Option<(u32, bool)> {
    let mut parts = data.split(',');
    let line: u32 = parts.next()?.trim().parse().ok()?;
    let hits = parts.next()?.trim();
    let ran = match hits.parse::<u64>() {
        Ok(n) => n > 0,
        Err(_) => hits.parse::<f64>().ok()? != 0.0,
    };
    (line > 0).then_some((line, ran))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(entry: &Entry) -> Vec<(u32, bool)> {
        match &entry.hits {
            Hits::Lines(l) => l.iter().map(|(n, c)| (*n, *c)).collect(),
            Hits::Blocks(_) => panic!("lines expected"),
        }
    }

    #[test]
    fn records_with_checksums_crlf_and_repeated_lines_merge() {
        let text = "TN:unit\r\nSF:/w/src/a.ts\r\nFN:1,f\r\nDA:1,0\r\nDA:2,3,abc\r\nDA:2,0\r\nBRDA:2,0,0,1\r\nLF:2\r\nend_of_record\r\nSF:b.js\nDA:5,1.0\n";
        let entries = parse(text, &mut |_, _| true).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].name, "/w/src/a.ts");
        assert_eq!(lines(&entries[0]), vec![(1, false), (2, true)]);
        assert_eq!(entries[1].name, "b.js");
        assert_eq!(lines(&entries[1]), vec![(5, true)]);
    }

    #[test]
    fn malformed_data_names_the_line() {
        let all = &mut |_: &str, _: &[String]| true;
        assert!(
            parse("SF:a\nDA:x,1\n", all)
                .unwrap_err()
                .starts_with("line 2: `DA:x,1`")
        );
        assert!(parse("DA:1,1\n", all).unwrap_err().contains("outside a record"));
    }

    #[test]
    fn records_not_kept_are_skipped_unread() {
        let text = "SF:skip.js\nDA:x,garbage\nend_of_record\nSF:keep.js\nDA:1,-1\nend_of_record\n";
        let entries = parse(text, &mut |name, _| name == "keep.js").unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(lines(&entries[0]), vec![(1, true)]);
    }
}
