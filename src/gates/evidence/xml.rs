//! The one seam between the evidence gate and its XML parser (JUnit
//! results, Cobertura coverage).
//!
//! roxmltree reads nested elements by recursion, one stack frame pair per
//! level, and has no depth limit: a report nested 20,000 deep aborted the
//! run with a stack overflow (issue 54). Each document is scanned for its
//! depth first, without recursion, and one deeper than [`MAX_DEPTH`] is an
//! error. The scan never counts less than the parser would descend:
//! comments, CDATA, processing instructions and quoted attribute values are
//! skipped as the parser skips them, and an entity declared in the
//! document's DTD (whose markup the parser would nest wherever it is
//! referenced) is refused outright.

/// How deep elements may nest. Real reports nest under ten levels
/// (Cobertura: `coverage/packages/package/classes/class/lines/line`).
pub const MAX_DEPTH: usize = 256;

/// Parse `text` with `options`, after checking its depth; `kind` names
/// what it should be in a syntax error (`JUnit XML`).
pub fn parse<'a>(
    text: &'a str,
    options: roxmltree::ParsingOptions,
    kind: &str,
) -> Result<roxmltree::Document<'a>, String> {
    check_depth(text)?;
    roxmltree::Document::parse_with_options(text, options).map_err(|e| format!("invalid {kind}: {e}"))
}

/// An error when elements in `text` nest deeper than [`MAX_DEPTH`], or its
/// DTD declares an entity.
pub fn check_depth(text: &str) -> Result<(), String> {
    let b = text.as_bytes();
    let find = |from: usize, what: &[u8]| -> usize {
        b[from.min(b.len())..]
            .windows(what.len())
            .position(|w| w == what)
            .map_or(b.len(), |at| from + at + what.len())
    };
    let (mut depth, mut i) = (0usize, 0usize);
    while let Some(at) = b[i..].iter().position(|&c| c == b'<') {
        i += at;
        let rest = &b[i..];
        if rest.starts_with(b"<!--") {
            i = find(i + 4, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = find(i + 9, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = find(i + 2, b"?>");
        } else if rest.starts_with(b"<!") {
            i = declaration(b, i)?;
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i = find(i + 2, b">");
        } else {
            let (end, empty) = start_tag(b, i + 1);
            if !empty {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(format!(
                        "elements nest more than {MAX_DEPTH} levels deep (line {}): not a report loki-gate reads",
                        line_of(b, i)
                    ));
                }
            }
            i = end;
        }
    }
    Ok(())
}

/// The end of the start tag whose name begins at `from`, and whether it is
/// empty (`<a/>`): a `>` outside quotes ends it.
fn start_tag(b: &[u8], from: usize) -> (usize, bool) {
    let mut quote = None;
    for (k, &c) in b.iter().enumerate().skip(from) {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'>') => return (k + 1, k > from && b[k - 1] == b'/'),
            (None, _) => {}
        }
    }
    (b.len(), false)
}

/// The end of the declaration (`<!DOCTYPE ...>`) at `from`, its internal
/// subset included; an error when that declares an entity.
fn declaration(b: &[u8], from: usize) -> Result<usize, String> {
    let (mut quote, mut brackets) = (None, 0usize);
    for k in from + 2..b.len() {
        let c = b[k];
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'[') => brackets += 1,
            (None, b']') => brackets = brackets.saturating_sub(1),
            (None, b'<') if b[k..].starts_with(b"<!ENTITY") => {
                return Err(format!(
                    "its DTD declares an entity (line {}), which loki-gate does not expand in a report",
                    line_of(b, k)
                ));
            }
            (None, b'>') if brackets == 0 => return Ok(k + 1),
            (None, _) => {}
        }
    }
    Ok(b.len())
}

fn line_of(b: &[u8], at: usize) -> usize {
    b[..at].iter().filter(|&&c| c == b'\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(n: usize) -> String {
        format!("<r>{}{}</r>", "<a x=\"/>\">".repeat(n), "</a>".repeat(n))
    }

    #[test]
    fn depth_is_counted_as_the_parser_descends() {
        assert!(check_depth(&nested(MAX_DEPTH - 1)).is_ok());
        let err = check_depth(&nested(MAX_DEPTH)).unwrap_err();
        assert!(
            err.starts_with("elements nest more than 256 levels deep (line 1)"),
            "{err}"
        );
        assert!(check_depth(&nested(100_000)).is_err());
        // Siblings, empty elements, and markup in comments, CDATA and
        // processing instructions add no depth.
        let flat = format!(
            "<?xml version=\"1.0\"?><!DOCTYPE coverage SYSTEM \"x.dtd\"><r>{}<!-- {} --><![CDATA[{}]]><?pi {} ?></r>",
            "<a></a><b/>".repeat(10_000),
            "<a>".repeat(1000),
            "<a>".repeat(1000),
            "<a>".repeat(1000)
        );
        assert!(check_depth(&flat).is_ok());
    }

    #[test]
    fn an_entity_in_the_dtd_is_refused() {
        let text = "<!DOCTYPE r [<!ENTITY e \"<a><a></a></a>\">]><r>&e;</r>";
        let err = check_depth(text).unwrap_err();
        assert!(err.contains("declares an entity"), "{err}");
    }

    /// The deepest document the limit lets through parses on a 2 MiB
    /// stack (a gate's worker thread), in a debug build.
    #[test]
    fn the_deepest_allowed_document_parses_on_a_small_stack() {
        let text = nested(MAX_DEPTH - 1);
        let parsed = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || parse(&text, roxmltree::ParsingOptions::default(), "XML").is_ok())
            .unwrap()
            .join()
            .unwrap();
        assert!(parsed);
    }
}
