//! One file, parsed within a time budget.
//!
//! tree-sitter is linear on almost all text, but a grammar's scanner can be
//! made to read the same bytes again and again (tree-sitter-python did on
//! comment lines: `python::layout`). So every parse runs under a budget
//! that tree-sitter's own progress callback enforces: a file that takes
//! longer is given up, and the gate that needed it says so (a
//! `meta/parse-too-slow` finding where the change added or edited it),
//! never reading it as a file with no tests.

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{ParseOptions, Parser};

use super::syntax::Tree;
use super::{Lang, TestFile};

/// How long one file may take to parse. A 2 MiB file (the default size
/// cap) of ordinary code parses in well under a second.
pub const PARSE_BUDGET: Duration = Duration::from_secs(2);

/// Why a file has no tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unparsed {
    /// The grammar could not be loaded (a tree-sitter version mismatch).
    NoGrammar,
    /// Parsing took longer than [`PARSE_BUDGET`]; it was given up.
    TooSlow,
}

impl Lang {
    /// Parse `source`. tree-sitter recovers from errors, so this only fails
    /// when the grammar cannot be loaded or the file takes longer than
    /// [`PARSE_BUDGET`] (see [`Lang::try_parse`] to tell the two apart).
    pub fn parse(self, source: &[u8]) -> Option<Tree> {
        Some(Tree::new(&self.parse_tree(source)?))
    }

    /// [`Lang::parse`], as tree-sitter's own tree (for reparsing an edited version).
    pub fn parse_tree(self, source: &[u8]) -> Option<tree_sitter::Tree> {
        self.try_parse(source).ok()
    }

    /// [`Lang::parse_tree`], saying why there is no tree.
    pub fn try_parse(self, source: &[u8]) -> Result<tree_sitter::Tree, Unparsed> {
        thread_local! {
            static PARSER: std::cell::RefCell<Parser> = std::cell::RefCell::new(Parser::new());
        }
        PARSER.with(|parser| {
            let mut parser = parser.borrow_mut();
            parser
                .set_language(&self.reading(source).grammar())
                .map_err(|_| Unparsed::NoGrammar)?;
            within(&mut parser, &self.parsed_text(source), None, PARSE_BUDGET)
        })
    }

    /// The grammar `source` is read with: its language's, but a Flow-typed
    /// module (`// @flow`) writes type annotations the JavaScript grammar
    /// cannot read (`(c: mixed, m?: string) => ..`), which TSX's reads, and
    /// JSX, as TypeScript's readers do (issue 64: tiny-invariant's
    /// `src/index.js`).
    pub(crate) fn reading(self, source: &[u8]) -> Lang {
        match self {
            Lang::JavaScript if flow_typed(source) => Lang::Tsx,
            _ => self,
        }
    }

    /// What tree-sitter is given of `source`: the same bytes at the same
    /// positions, less what makes its scanner slow (Python's comment
    /// lines, blanked).
    pub(crate) fn parsed_text(self, source: &[u8]) -> Cow<'_, [u8]> {
        match self {
            Lang::Python => super::python::layout::without_comment_lines(source),
            _ => Cow::Borrowed(source),
        }
    }
}

/// Does `source` open with a comment carrying Flow's `@flow` pragma,
/// before any code (comments and blank lines only, in its first 2 KiB)?
pub(crate) fn flow_typed(source: &[u8]) -> bool {
    let head = &source[..source.len().min(2048)];
    let Ok(head) = std::str::from_utf8(head).or_else(|e| std::str::from_utf8(&head[..e.valid_up_to()])) else {
        return false;
    };
    let mut rest = head.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("//") {
            let (line, next) = after.split_once('\n').unwrap_or((after, ""));
            if line.split_whitespace().any(|w| w == "@flow") {
                return true;
            }
            rest = next;
        } else if let Some(after) = rest.strip_prefix("/*") {
            let Some((comment, next)) = after.split_once("*/") else {
                return false;
            };
            if comment.split_whitespace().any(|w| w.trim_start_matches('*') == "@flow") {
                return true;
            }
            rest = next;
        } else {
            return false;
        }
    }
}

impl TestFile {
    /// A file given up after [`PARSE_BUDGET`]: nothing of it read.
    pub(crate) fn cut() -> TestFile {
        TestFile {
            parse_cut: true,
            ..TestFile::default()
        }
    }
}

/// Parse `text` (already [`Lang::parsed_text`]) with `parser`, whose
/// language is set, reusing `old` (edited to match), within `budget`.
pub(crate) fn within(
    parser: &mut Parser,
    text: &[u8],
    old: Option<&tree_sitter::Tree>,
    budget: Duration,
) -> Result<tree_sitter::Tree, Unparsed> {
    let started = Instant::now();
    let mut progress = |_: &tree_sitter::ParseState| {
        if started.elapsed() > budget {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let len = text.len();
    let tree = parser.parse_with_options(
        &mut |i, _| if i < len { &text[i..] } else { &[] },
        old,
        Some(ParseOptions::new().progress_callback(&mut progress)),
    );
    match tree {
        Some(tree) => Ok(tree),
        // A cut parse is kept to be resumed: the next file starts afresh.
        None if started.elapsed() > budget => {
            parser.reset();
            Err(Unparsed::TooSlow)
        }
        None => Err(Unparsed::NoGrammar),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text that was slowest for tree-sitter-python: n comment lines.
    fn comment_lines(n: usize) -> String {
        let mut source = String::from("def test_x():\n    assert 1 == 1\n");
        for i in 0..n {
            source.push_str(&format!("# a comment line that says something about the thing {i}\n"));
        }
        source
    }

    #[test]
    fn a_run_of_comment_lines_parses_in_linear_time() {
        // 20,000 lines took a minute before the lines were blanked; the
        // bound is loose, so a slow machine does not fail it, and tight
        // enough that the quadratic path cannot pass.
        let source = comment_lines(20_000);
        let started = Instant::now();
        let file = Lang::Python.test_file(source.as_bytes()).unwrap();
        assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
        assert_eq!(file.tests.len(), 1);
        assert!(!file.parse_cut);
    }

    #[test]
    fn a_parse_over_its_budget_is_given_up_and_the_parser_starts_afresh() {
        let mut parser = Parser::new();
        parser.set_language(&Lang::Python.grammar()).unwrap();
        // Unblanked, so the scanner's slow path is taken.
        let slow = comment_lines(3_000);
        let cut = within(&mut parser, slow.as_bytes(), None, Duration::ZERO);
        assert_eq!(cut.err(), Some(Unparsed::TooSlow));
        let tree = within(&mut parser, b"x = 1\n", None, PARSE_BUDGET).unwrap();
        assert_eq!(
            tree.root_node().to_sexp(),
            "(module (expression_statement (assignment left: (identifier) right: (integer))))"
        );
    }

    /// `@flow` counts in the comments that open a file, before any code.
    #[test]
    fn flow_typed_files_are_told_by_their_opening_pragma() {
        for (source, flow) in [
            ("// @flow\nexport default 1;\n", true),
            ("/**\n * Copyright.\n * @flow strict\n */\nexport default 1;\n", true),
            ("\u{feff}'use strict';\n// @flow\n", false),
            ("// flow-typed later\nexport default 1;\n", false),
            ("// @flowtype\n", false),
        ] {
            assert_eq!(super::flow_typed(source.as_bytes()), flow, "{source}");
        }
        assert_eq!(Lang::JavaScript.reading(b"// @flow\n"), Lang::Tsx);
        assert_eq!(Lang::TypeScript.reading(b"// @flow\n"), Lang::TypeScript);
    }
}
