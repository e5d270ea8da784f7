//! Go cover profiles (`go test -coverprofile=coverage.out`).
//!
//! After a `mode:` line, each line is a block:
//! `<import path>/file.go:<line>.<col>,<line>.<col> <statements> <count>`.
//! A block spans from just after one brace to a closing one, so its first
//! and last lines often hold no statement (a signature, a lone `}`), and
//! comments inside it hold none either. [`lines`] therefore reads the source
//! with tree-sitter and counts only the lines inside a block where a token
//! other than a comment or a bracket starts.

use std::collections::BTreeMap;

use super::{Block, Entry, Hits, Keep};

/// The blocks of the files `keep` wants.
pub fn parse(text: &str, keep: &mut Keep<'_>) -> Result<Vec<Entry>, String> {
    let mut by_name: BTreeMap<String, Vec<Block>> = BTreeMap::new();
    let mut kept: std::collections::HashMap<String, bool> = std::collections::HashMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with("mode:") {
            continue;
        }
        let block = block(line).ok_or_else(|| {
            format!(
                "line {}: `{line}` is not `<file>:<line>.<col>,<line>.<col> <statements> <count>`",
                i + 1
            )
        })?;
        let (name, block) = block;
        let wanted = match kept.get(&name) {
            Some(w) => *w,
            None => {
                let w = keep(&name, &[]);
                kept.insert(name.clone(), w);
                w
            }
        };
        if wanted {
            by_name.entry(name).or_default().push(block);
        }
    }
    Ok(by_name
        .into_iter()
        .map(|(name, blocks)| Entry {
            name,
            hits: Hits::Blocks(blocks),
        })
        .collect())
}

fn block(line: &str) -> Option<(String, Block)> {
    let (rest, count) = line.rsplit_once(' ')?;
    let (place, statements) = rest.trim_end().rsplit_once(' ')?;
    let (name, span) = place.rsplit_once(':')?;
    let (start, end) = span.split_once(',')?;
    let pos = |s: &str| -> Option<(u32, u32)> {
        let (l, c) = s.split_once('.')?;
        Some((l.parse().ok()?, c.parse().ok()?))
    };
    let block = Block {
        start: pos(start)?,
        end: pos(end)?,
        statements: statements.parse().ok()?,
        covered: count.parse::<u64>().ok()? > 0,
    };
    (!name.is_empty() && block.start <= block.end).then(|| (name.to_string(), block))
}

/// The executable lines of `blocks` in `source`, and whether each ran: a
/// line is covered when any block that counts it ran.
pub fn lines(blocks: &[Block], source: &[u8]) -> BTreeMap<u32, bool> {
    let starts = token_starts(source);
    let mut out = BTreeMap::new();
    for b in blocks.iter().filter(|b| b.statements > 0) {
        let from = starts.partition_point(|p| *p < b.start);
        for &(line, _) in starts[from..].iter().take_while(|p| **p < b.end) {
            *out.entry(line).or_default() |= b.covered;
        }
    }
    out
}

/// Where each token that can be a statement's starts (1-based line, column),
/// in order: every leaf but comments and brackets.
fn token_starts(source: &[u8]) -> Vec<(u32, u32)> {
    let Some(tree) = crate::lang::Lang::Go.parse(source) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cursor = tree.root_node().walk();
    'walk: loop {
        let node = cursor.node();
        if node.child_count() == 0 && !matches!(node.kind(), "comment" | "{" | "}" | "(" | ")" | "," | ";" | "\n") {
            let p = node.start_position();
            // Go columns count bytes from 1, as tree-sitter's do from 0.
            out.push((p.row as u32 + 1, p.column as u32 + 1));
        }
        if node.kind() != "comment" && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "// Package calc adds.\npackage calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\t// a comment\n\treturn a + b\n}\n\n// Sub subtracts.\nfunc Sub(a, b int) int {\n\tif a > b {\n\t\treturn a - b\n\t}\n\t/* block\n\tcomment */\n\treturn b - a\n}\n";

    /// What `go test -coverprofile` wrote for SOURCE with a test of Add only.
    const PROFILE: &str = "mode: set\nexample.com/gocov/calc/calc.go:5.24,8.2 1 1\nexample.com/gocov/calc/calc.go:11.24,12.11 1 0\nexample.com/gocov/calc/calc.go:17.2,17.14 1 0\nexample.com/gocov/calc/calc.go:12.11,14.3 1 0\n";

    #[test]
    fn blocks_become_the_lines_that_hold_statements() {
        let entries = parse(PROFILE, &mut |_, _| true).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].name, "example.com/gocov/calc/calc.go");
        let Hits::Blocks(blocks) = &entries[0].hits else {
            panic!()
        };
        let lines: Vec<(u32, bool)> = lines(blocks, SOURCE.as_bytes()).into_iter().collect();
        // Not 5 (signature), 6 (comment), 8/14/18 (lone braces) or 15-16 (block comment).
        assert_eq!(lines, vec![(7, true), (12, false), (13, false), (17, false)]);
    }

    #[test]
    fn a_windows_module_path_and_a_bad_line() {
        let all = &mut |_: &str, _: &[String]| true;
        let entries = parse("mode: atomic\n_/C:/w/calc.go:1.1,1.5 1 2\n", all).unwrap();
        assert_eq!(entries[0].name, "_/C:/w/calc.go");
        assert!(
            parse("mode: set\ncalc.go:1.1 1 1\n", all)
                .unwrap_err()
                .starts_with("line 2:")
        );
    }
}
