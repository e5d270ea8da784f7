//! A parsed file as a flat array of its visible nodes, read through the same
//! names tree-sitter's `Node` and `TreeCursor` use.
//!
//! Building a test model walks each test body several times and asks for
//! parents, siblings and fields all along. On a tree-sitter tree every such
//! step descends through hidden nodes (and `Node::parent` searches from the
//! root): stepping cursors took a third of a cold `mock` run, more than the
//! parse. Here the tree is walked once, right after parsing, into an array
//! in document order; every later step is an index, the kind and field
//! names are the grammar's own static strings, and the tree-sitter tree is
//! dropped.

use std::ops::Range;
use std::sync::OnceLock;

pub use tree_sitter::Point;

/// No node: the end of a sibling list, the root's parent.
const NONE: u32 = u32::MAX;

const NAMED: u8 = 1;
const EXTRA: u8 = 1 << 1;
const ERROR: u8 = 1 << 2;
const MISSING: u8 = 1 << 3;
const HAS_ERROR: u8 = 1 << 4;

#[derive(Debug)]
struct Entry {
    kind: u16,
    /// The field this node fills in its parent, 0 for none.
    field: u16,
    flags: u8,
    parent: u32,
    first_child: u32,
    next: u32,
    prev: u32,
    child_count: u32,
    named_child_count: u32,
    start_byte: u32,
    end_byte: u32,
    start: (u32, u32),
    end: (u32, u32),
}

/// The names of a grammar's node kinds and fields, by id.
struct Names {
    kinds: Vec<&'static str>,
    /// Per kind: a named node (not punctuation or a keyword).
    named: Vec<bool>,
    /// Per kind: a comment of some sort (its name says so).
    comment: Vec<bool>,
    fields: Vec<&'static str>,
}

/// A grammar's names, read once per process.
fn names(language: &tree_sitter::Language) -> &'static Names {
    static GRAMMARS: OnceLock<std::sync::Mutex<Vec<(tree_sitter::Language, &'static Names)>>> = OnceLock::new();
    let grammars = GRAMMARS.get_or_init(Default::default);
    let mut grammars = grammars.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, names)) = grammars.iter().find(|(g, _)| g == language) {
        return names;
    }
    // A grammar's names are static C strings; leaking one copy of each
    // grammar (a handful per process) lets them be read as such.
    let language: &'static tree_sitter::Language = Box::leak(Box::new(language.clone()));
    let ids = || (0..language.node_kind_count()).filter_map(|id| u16::try_from(id).ok());
    let kinds = ids().map(|id| language.node_kind_for_id(id).unwrap_or("")).collect();
    let named = ids().map(|id| language.node_kind_is_named(id)).collect();
    let comment = ids()
        .map(|id| language.node_kind_for_id(id).unwrap_or("").contains("comment"))
        .collect();
    // Field ids start at 1.
    let fields = (0..=language.field_count())
        .map(|id| {
            u16::try_from(id)
                .ok()
                .and_then(|id| language.field_name_for_id(id))
                .unwrap_or("")
        })
        .collect();
    let names: &'static Names = Box::leak(Box::new(Names {
        kinds,
        named,
        comment,
        fields,
    }));
    grammars.push((language.clone(), names));
    names
}

/// A parsed file.
pub struct Tree {
    nodes: Vec<Entry>,
    names: &'static Names,
}

thread_local! {
    /// The node array of the tree dropped last on this thread, kept for
    /// the next: a large array allocated and freed per file made the
    /// allocator's consolidation a visible share of a run.
    static SPARE: std::cell::Cell<Vec<Entry>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Tree {
    fn drop(&mut self) {
        let mut nodes = std::mem::take(&mut self.nodes);
        nodes.clear();
        // `try_with`: a tree dropped while the thread is exiting just frees its array.
        let _ = SPARE.try_with(|spare| {
            let kept = spare.take();
            spare.set(if kept.capacity() >= nodes.capacity() {
                kept
            } else {
                nodes
            });
        });
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn point(p: tree_sitter::Point) -> (u32, u32) {
    (to_u32(p.row), to_u32(p.column))
}

impl Tree {
    /// Flatten `tree` (one cursor walk).
    pub fn new(tree: &tree_sitter::Tree) -> Tree {
        let names = names(&tree.language());
        let mut nodes: Vec<Entry> = SPARE.try_with(std::cell::Cell::take).unwrap_or_default();
        nodes.reserve(tree.root_node().descendant_count());
        let mut cursor = tree.walk();
        // Per depth: the index of the parent, the last child linked under
        // it, and how many of its children are still to come. Knowing the
        // count, the walk never asks for a sibling that is not there: a
        // failed `goto_next_sibling` climbs the hidden nodes above it first,
        // and took most of the walk's time.
        let mut path: Vec<(u32, u32, usize)> = Vec::new();
        loop {
            let node = cursor.node();
            let kind = node.kind_id();
            let at = to_u32(nodes.len());
            let (parent, prev) = path.last().map_or((NONE, NONE), |&(p, last, _)| (p, last));
            let mut flags = 0;
            for (set, flag) in [
                (names.named.get(usize::from(kind)).copied().unwrap_or(true), NAMED),
                (node.is_extra(), EXTRA),
                (kind == u16::MAX, ERROR),
                (node.is_missing(), MISSING),
                (node.has_error(), HAS_ERROR),
            ] {
                if set {
                    flags |= flag;
                }
            }
            let child_count = node.child_count() as usize;
            nodes.push(Entry {
                kind,
                field: cursor.field_id().map_or(0, std::num::NonZeroU16::get),
                flags,
                parent,
                first_child: NONE,
                next: NONE,
                prev,
                child_count: 0,
                named_child_count: 0,
                start_byte: to_u32(node.start_byte()),
                end_byte: to_u32(node.end_byte()),
                start: point(node.start_position()),
                end: point(node.end_position()),
            });
            if let Some((_, last, _)) = path.last_mut() {
                *last = at;
                let p = &mut nodes[parent as usize];
                p.child_count += 1;
                if flags & NAMED != 0 {
                    p.named_child_count += 1;
                }
                if p.first_child == NONE {
                    p.first_child = at;
                }
                if prev != NONE {
                    nodes[prev as usize].next = at;
                }
            }
            if child_count > 0 && cursor.goto_first_child() {
                path.push((at, NONE, child_count - 1));
                continue;
            }
            loop {
                match path.last_mut() {
                    None => return Tree { nodes, names },
                    Some((_, _, 0)) => {
                        path.pop();
                        cursor.goto_parent();
                    }
                    Some((_, _, left)) => {
                        *left -= 1;
                        if cursor.goto_next_sibling() {
                            break;
                        }
                        // Not reached: a node has the children it counts.
                        path.pop();
                        cursor.goto_parent();
                    }
                }
            }
        }
    }

    pub fn root_node(&self) -> Node<'_> {
        Node { tree: self, at: 0 }
    }
}

/// A node of a [`Tree`].
#[derive(Clone, Copy)]
pub struct Node<'t> {
    tree: &'t Tree,
    at: u32,
}

impl PartialEq for Node<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at && std::ptr::eq(self.tree, other.tree)
    }
}

impl Eq for Node<'_> {}

impl std::hash::Hash for Node<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.at.hash(state);
    }
}

impl std::fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{{{} {:?} - {:?}}}",
            self.kind(),
            self.start_position(),
            self.end_position()
        )
    }
}

impl<'t> Node<'t> {
    fn entry(&self) -> &'t Entry {
        &self.tree.nodes[self.at as usize]
    }

    fn node(&self, at: u32) -> Option<Node<'t>> {
        (at != NONE).then_some(Node { tree: self.tree, at })
    }

    /// Unique among the nodes of its tree.
    pub fn id(&self) -> usize {
        self.at as usize
    }

    pub fn kind(&self) -> &'static str {
        match self.entry().kind {
            // tree-sitter's error symbol, outside the grammar's own.
            u16::MAX => "ERROR",
            id => self.tree.names.kinds.get(usize::from(id)).copied().unwrap_or(""),
        }
    }

    /// A comment of any sort (`comment`, `line_comment`, `block_comment`, ..).
    pub fn is_comment(&self) -> bool {
        self.tree
            .names
            .comment
            .get(usize::from(self.entry().kind))
            .copied()
            .unwrap_or(false)
    }

    pub fn is_named(&self) -> bool {
        self.entry().flags & NAMED != 0
    }

    /// A comment or anything else the grammar allows anywhere.
    pub fn is_extra(&self) -> bool {
        self.entry().flags & EXTRA != 0
    }

    pub fn is_error(&self) -> bool {
        self.entry().flags & ERROR != 0
    }

    pub fn is_missing(&self) -> bool {
        self.entry().flags & MISSING != 0
    }

    /// This node or one under it is a syntax error.
    pub fn has_error(&self) -> bool {
        self.entry().flags & HAS_ERROR != 0
    }

    pub fn start_byte(&self) -> usize {
        self.entry().start_byte as usize
    }

    pub fn end_byte(&self) -> usize {
        self.entry().end_byte as usize
    }

    pub fn byte_range(&self) -> Range<usize> {
        self.start_byte()..self.end_byte()
    }

    pub fn start_position(&self) -> Point {
        let (row, column) = self.entry().start;
        Point::new(row as usize, column as usize)
    }

    pub fn end_position(&self) -> Point {
        let (row, column) = self.entry().end;
        Point::new(row as usize, column as usize)
    }

    pub fn utf8_text<'s>(&self, source: &'s [u8]) -> Result<&'s str, std::str::Utf8Error> {
        std::str::from_utf8(&source[self.byte_range()])
    }

    pub fn parent(&self) -> Option<Node<'t>> {
        self.node(self.entry().parent)
    }

    pub fn next_sibling(&self) -> Option<Node<'t>> {
        self.node(self.entry().next)
    }

    pub fn prev_sibling(&self) -> Option<Node<'t>> {
        self.node(self.entry().prev)
    }

    pub fn next_named_sibling(&self) -> Option<Node<'t>> {
        std::iter::successors(self.next_sibling(), Node::next_sibling).find(Node::is_named)
    }

    pub fn prev_named_sibling(&self) -> Option<Node<'t>> {
        std::iter::successors(self.prev_sibling(), Node::prev_sibling).find(Node::is_named)
    }

    pub fn child_count(&self) -> usize {
        self.entry().child_count as usize
    }

    pub fn named_child_count(&self) -> usize {
        self.entry().named_child_count as usize
    }

    fn first_child(&self) -> Option<Node<'t>> {
        self.node(self.entry().first_child)
    }

    pub fn child(&self, i: usize) -> Option<Node<'t>> {
        self.all_children().nth(i)
    }

    pub fn named_child(&self, i: usize) -> Option<Node<'t>> {
        self.all_children().filter(Node::is_named).nth(i)
    }

    fn all_children(&self) -> Children<'t> {
        Children {
            next: self.first_child(),
            left: self.child_count(),
            named: false,
        }
    }

    /// Every child, named or not. The cursor is tree-sitter's signature; nothing is kept in it.
    pub fn children(&self, _cursor: &mut TreeCursor<'t>) -> Children<'t> {
        self.all_children()
    }

    pub fn named_children(&self, _cursor: &mut TreeCursor<'t>) -> Children<'t> {
        Children {
            next: self.all_children().find(Node::is_named),
            left: self.named_child_count(),
            named: true,
        }
    }

    fn field_name(&self) -> &'static str {
        self.tree
            .names
            .fields
            .get(usize::from(self.entry().field))
            .copied()
            .unwrap_or("")
    }

    /// The first child filling field `name`.
    pub fn child_by_field_name(&self, name: &str) -> Option<Node<'t>> {
        self.all_children()
            .find(|c| c.entry().field != 0 && c.field_name() == name)
    }

    pub fn children_by_field_name<'n>(
        &self,
        name: &'n str,
        _cursor: &mut TreeCursor<'t>,
    ) -> impl Iterator<Item = Node<'t>> + 'n
    where
        't: 'n,
    {
        self.all_children()
            .filter(move |c| c.entry().field != 0 && c.field_name() == name)
    }

    /// The smallest named node holding `start..end`.
    pub fn named_descendant_for_byte_range(&self, start: usize, end: usize) -> Option<Node<'t>> {
        let holds = |n: &Node| n.start_byte() <= start && end <= n.end_byte();
        if !holds(self) {
            return None;
        }
        let mut at = *self;
        while let Some(child) = at.all_children().find(|c| holds(c) && c.start_byte() != c.end_byte()) {
            at = child;
        }
        while !at.is_named() {
            at = at.parent()?;
        }
        Some(at)
    }

    pub fn walk(&self) -> TreeCursor<'t> {
        TreeCursor { root: *self, at: *self }
    }
}

/// The children of a node, in order.
pub struct Children<'t> {
    next: Option<Node<'t>>,
    left: usize,
    named: bool,
}

impl<'t> Iterator for Children<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        let node = self.next?;
        let mut next = node.next_sibling();
        if self.named {
            while let Some(n) = next.filter(|n| !n.is_named()) {
                next = n.next_sibling();
            }
        }
        self.next = next;
        self.left = self.left.saturating_sub(1);
        Some(node)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Children<'_> {}

/// A position in a [`Tree`], moved within the subtree it started on.
pub struct TreeCursor<'t> {
    root: Node<'t>,
    at: Node<'t>,
}

impl<'t> TreeCursor<'t> {
    pub fn node(&self) -> Node<'t> {
        self.at
    }

    pub fn goto_first_child(&mut self) -> bool {
        self.go(self.at.first_child())
    }

    pub fn goto_next_sibling(&mut self) -> bool {
        self.at != self.root && self.go(self.at.next_sibling())
    }

    pub fn goto_parent(&mut self) -> bool {
        self.at != self.root && self.go(self.at.parent())
    }

    fn go(&mut self, to: Option<Node<'t>>) -> bool {
        to.map(|n| self.at = n).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    /// A node's field, kind, flags, span, counts and links, in one line: the
    /// two node types share these method names, not a trait.
    macro_rules! describe {
        ($node:expr, $field:expr) => {{
            let node = $node;
            format!(
                "{:?} {} {}{}{}{}{} {:?} {:?} {} {} p={:?} n={:?} v={:?}",
                $field,
                node.kind(),
                u8::from(node.is_named()),
                u8::from(node.is_extra()),
                u8::from(node.is_error()),
                u8::from(node.is_missing()),
                u8::from(node.has_error()),
                node.byte_range(),
                (node.start_position(), node.end_position()),
                node.child_count(),
                node.named_child_count(),
                node.parent().map(|p| p.kind()),
                node.next_sibling().map(|p| p.kind()),
                node.prev_named_sibling().map(|p| p.kind()),
            )
        }};
    }

    /// Every visible node, described, read through tree-sitter and through the flat tree.
    fn describe_ts(node: tree_sitter::Node, field: Option<&str>, out: &mut Vec<String>) {
        out.push(describe!(node, field));
        let mut cursor = node.walk();
        if cursor.goto_first_child() {
            loop {
                describe_ts(cursor.node(), cursor.field_name(), out);
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
    }

    fn describe_flat(node: Node, field: Option<&str>, out: &mut Vec<String>) {
        out.push(describe!(node, field));
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            let name = (child.entry().field != 0).then(|| child.field_name());
            // Every field lookup by name finds the first child filling it.
            if let Some(name) = name {
                assert!(node.child_by_field_name(name).is_some());
            }
            describe_flat(child, name, out);
        }
    }

    #[test]
    fn the_flat_tree_reads_as_the_tree_sitter_tree() {
        let samples: [(Lang, &str); 5] = [
            (
                Lang::Python,
                "import os\n\n@pytest.mark.x\ndef test_a(tmp):\n    # c\n    assert f(1) == 2, 'm'\n    x = [1, (2,)]\n",
            ),
            (
                Lang::TypeScript,
                "import { f } from './f'\ndescribe('d', () => {\n  it('a', async () => { expect(f<number>(1)).toBe(2) /* c */ })\n})\n",
            ),
            (Lang::Tsx, "const a = <div id=\"x\">{b}</div>;\nlet c = (d as E) ?? 1\n"),
            (
                Lang::Rust,
                "#[test]\nfn a() { let x = vec![1, 2]; assert_eq!(x.len(), 2); }\nmod m { use super::*; }\n",
            ),
            (
                Lang::Go,
                "package p\n\nfunc TestA(t *testing.T) {\n\tif got := f(); got != 2 {\n\t\tt.Fatal(got)\n\t}\n}\n",
            ),
        ];
        for (lang, source) in samples {
            let tree = lang.parse_tree(source.as_bytes()).expect("parses");
            let flat = Tree::new(&tree);
            let mut a = Vec::new();
            let mut b = Vec::new();
            describe_ts(tree.root_node(), None, &mut a);
            describe_flat(flat.root_node(), None, &mut b);
            assert_eq!(a, b, "{lang:?}");
            // Fields, first named child, and a cursor kept inside its subtree.
            let root = tree.root_node();
            let froot = flat.root_node();
            assert_eq!(
                root.named_child(0).map(|n| n.kind()),
                froot.named_child(0).map(|n| n.kind())
            );
            let first = froot.named_child(0).expect("a child");
            let mut cursor = first.walk();
            assert!(!cursor.goto_next_sibling());
            assert!(!cursor.goto_parent());
        }
    }

    /// Error recovery: the same nodes and flags. (tree-sitter's own
    /// `next_sibling` does not find a zero-width sibling, a missing `)`;
    /// the flat tree does, so links are not compared here.)
    #[test]
    fn syntax_errors_are_kept() {
        let source = b"def g(:\n    x = (1\n";
        let tree = Lang::Python.parse_tree(source).expect("parses");
        let flat = Tree::new(&tree);
        let strip = |lines: Vec<String>| -> Vec<String> {
            lines
                .into_iter()
                .map(|l| l.split(" p=").next().unwrap_or_default().to_string())
                .collect()
        };
        let mut a = Vec::new();
        let mut b = Vec::new();
        describe_ts(tree.root_node(), None, &mut a);
        describe_flat(flat.root_node(), None, &mut b);
        assert_eq!(strip(a), strip(b));
        assert!(flat.root_node().has_error());
    }

    #[test]
    fn fields_are_found_by_name() {
        let source = b"def f(a, b=1):\n    return a\n";
        let tree = Lang::Python.parse_tree(source).expect("parses");
        let flat = Tree::new(&tree);
        let function = flat.root_node().named_child(0).expect("function");
        assert_eq!(function.kind(), "function_definition");
        let name = function.child_by_field_name("name").expect("name");
        assert_eq!(name.utf8_text(source), Ok("f"));
        assert_eq!(function.child_by_field_name("body").map(|b| b.kind()), Some("block"));
        assert!(function.child_by_field_name("nothing").is_none());
        let at = flat.root_node().named_descendant_for_byte_range(6, 7).expect("a");
        assert_eq!(at.utf8_text(source), Ok("a"));
    }
}
