//! Reading the successive versions of one file, as a history walk does:
//! each version is reparsed from the one before (tree-sitter reuses the
//! subtrees the edit left alone), so a commit that touches two tests of a
//! long file costs about what those two tests cost. What was read of a test
//! whose text did not change is reused too ([`Memo`]).

use std::collections::HashMap;

use tree_sitter::{InputEdit, Parser, Point, Tree};

use super::syntax::{self, Node};

use super::{Import, Lang, TestCase, TestFile, Unparsed};

/// A function read for the helper closure: its name, whether it asserts, and
/// the names it calls.
pub(crate) type Body = (String, bool, Vec<String>);

/// What reading one item (a test, a function) added to the model.
#[derive(Debug, Clone, Default)]
pub(crate) struct Item {
    pub tests: Vec<TestCase>,
    pub bodies: Vec<Body>,
    /// A test takes pytest fixtures ([`TestFile::uses_fixtures`]).
    pub fixtures: bool,
    /// Callback spies made ([`TestFile::callback_spies`]).
    pub callback_spies: usize,
    /// Names the item reads ([`TestFile::used`]), where the language takes them from its items.
    pub used: std::collections::BTreeSet<String>,
    /// Imports the item makes, and module paths its strings spell
    /// ([`TestFile::imports`], [`TestFile::module_names`]), where the language
    /// remembers them per item.
    pub imports: Vec<Import>,
    pub module_names: Vec<String>,
    /// Whether the item makes a call that may be a mock (its nodes are
    /// looked up again: a tree is never remembered).
    pub mock_sites: bool,
}

/// A [`Memo`] key.
pub(crate) type Key = [u8; 32];

/// What was read of each item of the version before, by a digest of its
/// text, its column and everything outside it that reading it looked at:
/// an item found again with the same key reads the same, moved by the lines
/// it moved. The language modules decide what an item and its key are, and
/// never remember an item whose reading looked outside the key (a skip
/// reason taken from the comment above a test).
#[derive(Default)]
pub struct Memo {
    entries: HashMap<Key, (u32, u32, Item)>,
    /// The version being read: entries not seen in it are dropped after it.
    generation: u32,
    /// How many items were recalled rather than read.
    recalled: usize,
}

impl Memo {
    /// The key of the item spanning `first` to `last` with `context`: a
    /// SHA-256 digest of its column, the context and its text (a memo holds
    /// one per item of a file; the text itself would double what it keeps).
    pub(crate) fn key(first: &Node, last: &Node, source: &[u8], context: &[&str]) -> Key {
        use sha2::Digest;
        let text = &source[first.start_byte()..last.end_byte().max(first.start_byte())];
        let mut hasher = sha2::Sha256::new();
        hasher.update((first.start_position().column as u64).to_le_bytes());
        for part in context {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
        hasher.update(text);
        hasher.finalize().into()
    }

    /// The item read before under `key`, moved to start at `row`.
    pub(crate) fn recall(&mut self, key: &Key, row: usize) -> Option<Item> {
        let (at, generation, item) = self.entries.get_mut(key)?;
        *generation = self.generation;
        self.recalled += 1;
        let mut item = item.clone();
        let delta = row as i64 - i64::from(*at);
        if delta != 0 {
            for test in &mut item.tests {
                test.move_lines(delta);
            }
            for import in &mut item.imports {
                import.span = import.span.moved(delta);
            }
        }
        Some(item)
    }

    pub(crate) fn remember(&mut self, key: Key, row: usize, item: &Item) {
        let row = u32::try_from(row).unwrap_or(u32::MAX);
        self.entries.insert(key, (row, self.generation, item.clone()));
    }

    /// The version is read: keep only what it held.
    fn next_version(&mut self) {
        let current = self.generation;
        self.entries.retain(|_, (_, generation, _)| *generation == current);
        self.generation = self.generation.wrapping_add(1);
    }
}

/// Reads versions of one file in order. Skipping versions or reading them
/// out of order is correct and gains less; reading different files through
/// one reader is correct and gains nothing.
pub struct Reader {
    parser: Parser,
    /// The language, bytes and tree of the version read last.
    last: Option<(Lang, Vec<u8>, Tree)>,
    memo: Memo,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::new()
    }
}

impl Reader {
    pub fn new() -> Reader {
        Reader {
            parser: Parser::new(),
            last: None,
            memo: Memo::default(),
        }
    }

    /// The test model of `source`, the next version of the file (as
    /// [`Lang::test_file`] reads it: a file given up after the parse
    /// budget has `parse_cut` set).
    pub fn test_file(&mut self, lang: Lang, source: &[u8]) -> Option<TestFile> {
        let text = lang.parsed_text(source);
        let tree = match self.parse(lang, &text) {
            Ok(tree) => tree,
            Err(Unparsed::TooSlow) => return Some(TestFile::cut()),
            Err(Unparsed::NoGrammar) => return None,
        };
        let reading = lang.reading(&text);
        if self.last.as_ref().is_some_and(|(last, ..)| *last != reading) {
            self.memo = Memo::default();
        }
        let file = lang.model(&syntax::Tree::new(&tree), source, Some(&mut self.memo));
        self.memo.next_version();
        self.last = Some((reading, text.into_owned(), tree));
        Some(file)
    }

    /// Drop the syntax tree of the version read last, keeping what was read
    /// of its items: the next version is parsed whole, and its items whose
    /// text stayed are still recalled. A tree takes many times the memory
    /// of its text; what was read of the items, about as much as the text.
    pub fn drop_tree(&mut self) {
        self.last = None;
    }

    /// Parse `text` (as [`Lang::parsed_text`] gives it), from the tree of
    /// the version read last when it is of the same language: the edit is
    /// worked out between the two parsed texts, so a line whose parsed text
    /// changed without its own text (a comment line now inside a string)
    /// is parsed again.
    fn parse(&mut self, lang: Lang, text: &[u8]) -> Result<Tree, Unparsed> {
        let lang = lang.reading(text);
        let previous = match self.last.take() {
            Some((last, bytes, mut tree)) if last == lang => edit(&mut tree, &bytes, text).then_some(tree),
            _ => {
                self.parser
                    .set_language(&lang.grammar())
                    .map_err(|_| Unparsed::NoGrammar)?;
                None
            }
        };
        super::parse::within(&mut self.parser, text, previous.as_ref(), super::PARSE_BUDGET)
    }
}

/// Tell `tree`, parsed from `old`, how `new` differs from it, one edit per
/// changed block of lines; `false` when the versions cannot be compared
/// (binary content): parse `new` from scratch.
fn edit(tree: &mut Tree, old: &[u8], new: &[u8]) -> bool {
    let Some(hunks) = crate::git::changed_lines(old, new) else {
        return false;
    };
    let old_lines = line_starts(old);
    let new_lines = line_starts(new);
    // Last block first: the positions of the blocks before it stay those of `old`.
    for (old_range, new_range) in hunks.into_iter().rev() {
        let start_byte = old_lines[old_range.start.min(old_lines.len() - 1)];
        let old_end_byte = old_lines[old_range.end.min(old_lines.len() - 1)];
        let inserted = &new
            [new_lines[new_range.start.min(new_lines.len() - 1)]..new_lines[new_range.end.min(new_lines.len() - 1)]];
        let start_position = Point::new(old_range.start, 0);
        tree.edit(&InputEdit {
            start_byte,
            old_end_byte,
            new_end_byte: start_byte + inserted.len(),
            start_position,
            old_end_position: point_after(start_position, &old[start_byte..old_end_byte]),
            new_end_position: point_after(start_position, inserted),
        });
    }
    true
}

/// The byte offset where each line starts, and the length of `text` last
/// (the start of the line after the last), so line `n`'s end is entry `n + 1`.
fn line_starts(text: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(newlines(text).map(|i| i + 1));
    if starts.last() != Some(&text.len()) {
        starts.push(text.len());
    }
    starts
}

fn newlines(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    text.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i)
}

/// Where a cursor at `start` ends up after `text`.
fn point_after(start: Point, text: &[u8]) -> Point {
    match text.iter().rposition(|b| *b == b'\n') {
        Some(last) => Point::new(start.row + newlines(text).count(), text.len() - last - 1),
        None => Point::new(start.row, start.column + text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every version read in order by one reader models as it does read
    /// alone, whether the reader keeps its tree or only what it read of the
    /// items.
    fn same_as_fresh(lang: Lang, versions: &[&str]) {
        for drop_tree in [false, true] {
            let mut reader = Reader::new();
            for (i, version) in versions.iter().enumerate() {
                let read = reader.test_file(lang, version.as_bytes()).unwrap();
                let fresh = lang.test_file(version.as_bytes()).unwrap();
                assert_eq!(read, fresh, "version {i} of {lang:?} (tree dropped: {drop_tree})");
                if drop_tree {
                    reader.drop_tree();
                }
            }
        }
    }

    #[test]
    fn python_versions_model_as_fresh_parses() {
        let v1 = "import pytest\nfrom pkg.cart import total\n\n\ndef test_a():\n    assert total([1]) == 1\n\n\ndef test_b():\n    x = total([])\n    assert x == 0\n";
        // An edit in the middle, a test appended, no newline at the end.
        let v2 = "import pytest\nfrom pkg.cart import total\n\n\ndef test_a():\n    assert total([1, 2]) == 3\n\n\ndef test_b():\n    x = total([])\n    assert x == 0\n\n\ndef test_c():\n    assert total([5]) == 5";
        // Lines removed above, a class added, a syntax error.
        let v3 = "from pkg.cart import total\n\nclass TestCart:\n    def test_a(self):\n        assert total([1, 2]) == 3\n\ndef test_c(:\n    assert total([5]) == 5\n";
        let v4 = "";
        let v5 = "def test_only():\n    assert 1 + 1 == 2\n";
        // Imports and a patched test, then moved down by an import added
        // above them: what was remembered of each statement moves with it,
        // and the mock call is looked up in the new tree.
        let v6 = "from unittest.mock import patch\n\nfrom pkg.cart import total\n\n\n@patch(\"pkg.cart.tax\", return_value=0)\ndef test_a(tax):\n    assert total([1]) == 1\n    with patch.object(total, \"x\"):\n        pass\n";
        let v7 = format!("import os\n{v6}\nMODULE = \"pkg.cart\"\n");
        same_as_fresh(Lang::Python, &[v1, v2, v3, v4, v5, v1, v6, &v7, v6]);
    }

    #[test]
    fn typescript_versions_model_as_fresh_parses() {
        let v1 = "import { describe, expect, it } from \"vitest\"\nimport { total } from \"../src/cart\"\n\ndescribe(\"cart\", () => {\n  it(\"sums\", () => {\n    expect(total([1])).toBe(1)\n  })\n})\n";
        let v2 = "import { describe, expect, it } from \"vitest\"\nimport { total } from \"../src/cart\"\n\ndescribe(\"cart\", () => {\n  it(\"sums\", () => {\n    expect(total([1, 2])).toBe(3)\n  })\n\n  it.skip(\"later\", () => {})\n})\n";
        let v3 = "import { expect, it } from \"vitest\"\r\nimport { total } from \"../src/cart\"\r\n\r\nit(\"sums\", () => {\r\n  expect(total([1, 2])).toBe(3)\r\n})\r\n";
        same_as_fresh(Lang::TypeScript, &[v1, v2, v3, v1, v2]);
    }

    #[test]
    fn switching_language_or_binary_content_parses_afresh() {
        let mut reader = Reader::new();
        let py = "def test_a():\n    assert 1 == 1\n";
        let js = "it(\"a\", () => { expect(1).toBe(1) })\n";
        assert_eq!(reader.test_file(Lang::Python, py.as_bytes()).unwrap().tests.len(), 1);
        assert_eq!(
            reader.test_file(Lang::JavaScript, js.as_bytes()).unwrap().tests.len(),
            1
        );
        let binary = b"it(\"a\", () => { expect(1).toBe(1) })\n\0\0\0";
        assert_eq!(
            reader.test_file(Lang::JavaScript, binary),
            Lang::JavaScript.test_file(binary)
        );
    }

    #[test]
    fn an_edit_leaves_the_lines_around_it_reusable() {
        let v1 = b"import os\n\ndef test_a():\n    assert 1 == 1\n\ndef test_b():\n    assert 2 == 2\n";
        let v2 = b"import os\n\ndef test_a():\n    assert 1 == 3\n\ndef test_b():\n    assert 2 == 2\n";
        let mut tree = Lang::Python.parse_tree(v1).unwrap();
        assert!(edit(&mut tree, v1, v2));
        let root = tree.root_node();
        assert!(root.has_changes());
        // The import before the edit is reused as it is.
        assert!(!root.named_child(0).unwrap().has_changes());
        assert!(root.named_child(1).unwrap().has_changes());
        let mut parser = Parser::new();
        parser.set_language(&Lang::Python.grammar()).unwrap();
        let reparsed = parser.parse(v2, Some(&tree)).unwrap();
        assert_eq!(
            reparsed.root_node().to_sexp(),
            Lang::Python.parse_tree(v2).unwrap().root_node().to_sexp()
        );
    }

    /// Lines of `base` inserted, deleted, duplicated and rewritten at random
    /// (a fixed seed), each version read after the one before: every version
    /// still models as a fresh parse does, spans and all.
    fn random_line_edits(lang: Lang, base: &str, new_lines: &[&str]) {
        let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % n as u64).unwrap()
        };
        let mut reader = Reader::new();
        for round in 0..150 {
            let at = next(lines.len() + 1);
            match next(4) {
                0 if !lines.is_empty() => {
                    lines.remove(at.min(lines.len() - 1));
                }
                1 => {
                    let copy = lines.get(next(lines.len().max(1))).cloned().unwrap_or_default();
                    lines.insert(at, copy);
                }
                _ => {
                    let line = new_lines[next(new_lines.len())].replace("N", &round.to_string());
                    lines.insert(at, line);
                }
            }
            let text = lines.join("\n");
            let read = reader.test_file(lang, text.as_bytes()).unwrap();
            assert_eq!(read, lang.test_file(text.as_bytes()).unwrap(), "round {round}:\n{text}");
        }
        // Most tests were recalled, moved, rather than read again.
        assert!(reader.memo.recalled > 150, "{} recalled", reader.memo.recalled);
    }

    #[test]
    fn random_python_edits_model_as_fresh_parses() {
        let base = "import pytest\nfrom pkg import cart\n\nCASES = [1, 2]\n\nclass TestCart:\n    def test_a(self):\n        assert cart.total([1]) == 1\n\n    @pytest.mark.skip(reason=\"later\")\n    def test_b(self):\n        x = cart.total([])\n        assert x == 0\n\n\ndef test_c(mocker):\n    mocker.patch(\"pkg.cart.tax\", return_value=0)\n    for c in CASES:\n        assert cart.total([c]) == c\n\n\ndef check(x):\n    assert x\n\n\ndef test_d():\n    check(cart.total([]))\n";
        random_line_edits(
            Lang::Python,
            base,
            &[
                "    assert N == N",
                "def test_N():",
                "class TestN:",
                "    def test_N(self):",
                "        pass",
                "\n",
            ],
        );
    }

    #[test]
    fn random_typescript_edits_model_as_fresh_parses() {
        let base = "import { describe, expect, it, vi } from \"vitest\"\nimport { total } from \"../src/cart\"\n\nconst CASES = [1, 2]\n\ndescribe(\"cart\", () => {\n  it(\"sums\", () => {\n    expect(total([1])).toBe(1)\n  })\n\n  // later\n  it.skip(\"skips\", () => {\n    expect(total([])).toBe(0)\n  })\n\n  it(\"loops\", () => {\n    for (const c of CASES) {\n      expect(total([c])).toBe(c)\n    }\n  })\n\n  describe(\"nested\", () => {\n    it(\"mocks\", () => {\n      const f = vi.fn().mockReturnValue(3)\n      expect(f()).toBe(3)\n    })\n  })\n})\n";
        random_line_edits(
            Lang::TypeScript,
            base,
            &[
                "  it(\"case N\", () => {",
                "    expect(total([N])).toBe(N)",
                "  })",
                "describe(\"group N\", () => {",
                "})",
                "  // reason N",
            ],
        );
    }

    #[test]
    fn random_rust_edits_model_as_fresh_parses() {
        let base = "use shop::cart::total;\n\nconst CASES: [u32; 2] = [1, 2];\n\n#[test]\nfn sums() {\n    assert_eq!(total(&[1]), 1);\n}\n\n#[test]\n#[ignore = \"slow\"]\nfn slow() {\n    let x = total(&[]);\n    assert!(x == 0);\n}\n\nfn check(n: u32) {\n    assert!(n < 10);\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn table() {\n        for c in CASES {\n            check(total(&[c]));\n        }\n    }\n\n    #[test]\n    #[should_panic]\n    fn panics() {\n        total(&[u32::MAX, 1]);\n    }\n}\n\nstruct S;\n\nimpl S {\n    fn verify(&self) {\n        assert!(true);\n    }\n}\n";
        random_line_edits(
            Lang::Rust,
            base,
            &[
                "#[test]",
                "fn case_N() {",
                "    assert_eq!(total(&[N]), N);",
                "}",
                "mod m_N {",
                "    // N",
            ],
        );
    }

    #[test]
    fn random_go_edits_model_as_fresh_parses() {
        let base = "package cart_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n\t\"example.com/shop/cart\"\n)\n\nfunc TestTotal(t *testing.T) {\n\tif got := cart.Total(nil); got != 0 {\n\t\tt.Fatalf(\"got %d\", got)\n\t}\n}\n\nfunc TestTable(t *testing.T) {\n\tcases := []int{1, 2}\n\tfor _, c := range cases {\n\t\tt.Run(\"c\", func(t *testing.T) {\n\t\t\tassert.Equal(t, c, cart.Total([]int{c}))\n\t\t})\n\t}\n}\n\nfunc check(tb testing.TB, n int) {\n\ttb.Helper()\n\tif n < 0 {\n\t\ttb.Fatal(\"negative\")\n\t}\n}\n\nfunc TestHelper(t *testing.T) {\n\tcheck(t, cart.Total(nil))\n}\n\nfunc TestSkipped(t *testing.T) {\n\tt.Skip(\"later\")\n}\n";
        random_line_edits(
            Lang::Go,
            base,
            &[
                "func TestN(t *testing.T) {",
                "\tassert.Equal(t, N, N)",
                "\tt.Errorf(\"N\")",
                "}",
                "\tif N > 0 {",
                "// comment N",
            ],
        );
    }

    /// A test whose text is unchanged is read again when the package-level
    /// table it runs over changed: its rows are its cases.
    #[test]
    fn a_go_test_is_read_again_when_its_package_table_changes() {
        let v1 = "package cart\n\nimport \"testing\"\n\ntype row struct {\n\tin   int\n\twant int\n}\n\nvar cases = []row{\n\t{1, 2},\n}\n\nfunc TestTotal(t *testing.T) {\n\tfor _, c := range cases {\n\t\tif got := Total(c.in); got != c.want {\n\t\t\tt.Fatal(got)\n\t\t}\n\t}\n}\n";
        let v2 = v1.replace("{1, 2}", "{1, 3}");
        same_as_fresh(Lang::Go, &[v1, &v2, v1]);
        let cases = |v: &str| Lang::Go.test_file(v.as_bytes()).unwrap().tests[0].cases.clone();
        assert_eq!(
            cases(v1),
            vec![vec![
                ("c . in".to_string(), "1".to_string()),
                ("c . want".to_string(), "2".to_string())
            ]]
        );
        assert_ne!(cases(v1), cases(&v2));
    }

    #[test]
    fn line_starts_end_with_the_length() {
        assert_eq!(line_starts(b""), vec![0]);
        assert_eq!(line_starts(b"a\nb"), vec![0, 2, 3]);
        assert_eq!(line_starts(b"a\nb\n"), vec![0, 2, 4]);
        assert_eq!(point_after(Point::new(3, 0), b"ab\ncd"), Point::new(4, 2));
        assert_eq!(point_after(Point::new(3, 2), b"ab"), Point::new(3, 4));
    }
}
