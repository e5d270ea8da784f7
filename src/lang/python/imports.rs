//! What a Python test file imports and uses.

use super::*;

/// Imports, and the identifiers used outside them, for the whole module.
/// Calls that mock, with what [`mock_site`] made of each.
pub(super) type MockCalls<'a> = Vec<(Node<'a>, Result<Vec<Mock>, ()>)>;

/// The imports and the names used, and (with `mocks`) every call that mocks.
pub(super) fn imports_and_uses<'a>(
    root: &Node<'a>,
    source: &[u8],
    file: &mut TestFile,
    mut mocks: Option<&mut MockCalls<'a>>,
) {
    visit_named(*root, |n| {
        match n.kind() {
            "import_statement" => {
                let mut c = n.walk();
                for item in n.named_children(&mut c) {
                    let (module, alias) = match item.kind() {
                        "aliased_import" => (item.field("name"), item.field("alias")),
                        "dotted_name" => (Some(item), None),
                        _ => continue,
                    };
                    let Some(module) = module else { continue };
                    let specifier = text(&module, source).into_owned();
                    // `import a.b` binds `a`; `import a.b as m` binds `m` to `a.b`.
                    let (local, origin) = match alias {
                        Some(a) => (text(&a, source).into_owned(), specifier.clone()),
                        None => {
                            let head = specifier.split('.').next().unwrap_or_default().to_string();
                            (head.clone(), head)
                        }
                    };
                    let kind = import_kind(&n);
                    file.imports.push(Import {
                        specifier,
                        names: vec![local],
                        origins: vec![origin],
                        span: Span::of(&n),
                        kind,
                    });
                }
                return false;
            }
            "import_from_statement" => {
                let module_name = n.field("module_name");
                let specifier = module_name.map(|m| text(&m, source).into_owned()).unwrap_or_default();
                let mut names = Vec::new();
                let mut origins = Vec::new();
                let qualified = |name: &str| {
                    if specifier.ends_with('.') {
                        format!("{specifier}{name}")
                    } else {
                        format!("{specifier}.{name}")
                    }
                };
                let mut c = n.walk();
                for item in n.named_children(&mut c) {
                    if Some(item.id()) == module_name.map(|m| m.id()) {
                        continue;
                    }
                    match item.kind() {
                        "wildcard_import" => {
                            names.push("*".to_string());
                            origins.push(qualified("*"));
                        }
                        "aliased_import" => {
                            if let (Some(a), Some(name)) = (item.field("alias"), item.field("name")) {
                                names.push(text(&a, source).into_owned());
                                origins.push(qualified(&text(&name, source)));
                            }
                        }
                        "dotted_name" => {
                            names.push(text(&item, source).into_owned());
                            origins.push(qualified(&text(&item, source)));
                        }
                        _ => {}
                    }
                }
                let kind = import_kind(&n);
                file.imports.push(Import {
                    specifier,
                    names,
                    origins,
                    span: Span::of(&n),
                    kind,
                });
                return false;
            }
            "call" => {
                if let Some(calls) = mocks.as_deref_mut()
                    && let Some(site) = mock_site(&n, source)
                {
                    calls.push((n, site));
                }
                // importlib.import_module("pkg.mod") / __import__("pkg")
                if let Some(f) = n.field("function") {
                    let callee = text(&f, source);
                    if (callee.ends_with("import_module") || callee == "__import__")
                        && let Some(spec) = positional_args(&n).first().and_then(|a| string_value(a, source))
                    {
                        file.imports.push(Import {
                            specifier: spec,
                            names: Vec::new(),
                            origins: Vec::new(),
                            span: Span::of(&n),
                            kind: ImportKind::Dynamic,
                        });
                    }
                }
            }
            "string" => {
                if let Some(value) = string_value(&n, source)
                    && is_dotted_path(&value)
                {
                    file.module_names.push(value);
                }
            }
            "identifier" => {
                // Most names repeat: allocate only the first time one is seen.
                let name = text(&n, source);
                if !file.used.contains(name.as_ref()) {
                    file.used.insert(name.into_owned());
                }
            }
            _ => {}
        }
        true
    });
}

/// [`imports_and_uses`] statement by statement of the module, each
/// remembered by its text: an unchanged statement of the version before is
/// not walked again (only for its mock calls, when it made one).
pub(super) fn imports_and_uses_by_statement<'a>(
    root: &Node<'a>,
    source: &[u8],
    file: &mut TestFile,
    calls: &mut MockCalls<'a>,
    memo: &mut Memo,
) {
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        let key = Memo::key(&statement, &statement, source, &["imports"]);
        let row = statement.start_position().row;
        if let Some(item) = memo.recall(&key, row) {
            if item.mock_sites {
                visit_named(statement, |n| {
                    if n.kind() == "call"
                        && let Some(site) = mock_site(&n, source)
                    {
                        calls.push((n, site));
                    }
                    true
                });
            }
            file.imports.extend(item.imports);
            file.module_names.extend(item.module_names);
            file.used.extend(item.used);
            continue;
        }
        let mut read = TestFile::default();
        let before = calls.len();
        imports_and_uses(&statement, source, &mut read, Some(calls));
        let item = Item {
            imports: read.imports,
            module_names: read.module_names,
            used: read.used,
            mock_sites: calls.len() > before,
            ..Item::default()
        };
        memo.remember(key, row, &item);
        file.imports.extend(item.imports);
        file.module_names.extend(item.module_names);
        file.used.extend(item.used);
    }
}

/// An import inside a function runs the module when the test runs: that is a use.
pub(super) fn import_kind(node: &Node) -> ImportKind {
    if inside_function(node) {
        ImportKind::Dynamic
    } else {
        ImportKind::Static
    }
}

pub(super) fn inside_function(node: &Node) -> bool {
    crate::lang::has_ancestor(node, &["function_definition"], &[])
}

/// `pass`, `...`, a docstring or comments only.
pub(super) fn is_empty_block(block: &Node) -> bool {
    let mut cursor = block.walk();
    block.named_children(&mut cursor).all(|s| match s.kind() {
        "pass_statement" | COMMENT => true,
        "expression_statement" => {
            let mut c = s.walk();
            s.named_children(&mut c)
                .all(|e| matches!(e.kind(), "string" | "ellipsis" | "concatenated_string"))
        }
        _ => false,
    })
}
