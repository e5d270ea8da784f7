//! What tree-sitter-python is given to parse: the file with its comment
//! lines blanked.
//!
//! At the end of each line the grammar's scanner reads ahead past every
//! comment line that follows (a comment's indentation must not close a
//! block), and it does so again at the end of each of those comment lines:
//! a run of n comment lines costs n² reads. 10,000 of them took 20 seconds,
//! and a 2 MB file of them six minutes, so a test padded with comments held
//! the gates past any hook's timeout. A blank line is read once, so each
//! comment that is alone on its line becomes spaces of the same length: no
//! byte moves, a position in the parsed text is one in the file, and the
//! code parses to the same tree less those comment nodes, which nothing
//! loki-gate reads of Python needs (suppressions are read from the text).

use std::borrow::Cow;

/// `source` with every comment that is alone on its line turned into
/// spaces, up to the line's end (a `\r` stays). A `#` inside a string,
/// triple-quoted ones across lines included, is left alone. Borrowed when
/// there is no such comment.
pub(crate) fn without_comment_lines(source: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    // The open string's quote and whether it is triple, when in one.
    let mut string: Option<(u8, bool)> = None;
    // Only blanks and tabs since the line began, outside any string.
    let mut line_start = true;
    let mut i = 0;
    while i < source.len() {
        let byte = source[i];
        if let Some((quote, triple)) = string {
            match byte {
                // An escape is two bytes, a line continuation among them.
                b'\\' => i += 1,
                b'\n' if !triple => {
                    string = None;
                    line_start = true;
                }
                b if b == quote && (!triple || source[i..].starts_with(&[quote; 3])) => {
                    if triple {
                        i += 2;
                    }
                    string = None;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match byte {
            b'\n' => line_start = true,
            b' ' | b'\t' | b'\x0c' => {}
            b'#' => {
                let end = source[i..]
                    .iter()
                    .position(|&b| b == b'\n' || b == b'\r')
                    .map_or(source.len(), |n| i + n);
                if line_start {
                    out.get_or_insert_with(|| source.to_vec())[i..end].fill(b' ');
                }
                i = end;
                continue;
            }
            b'\'' | b'"' => {
                let triple = source[i..].starts_with(&[byte; 3]);
                string = Some((byte, triple));
                line_start = false;
                if triple {
                    i += 2;
                }
            }
            // A backslash joins the next line to this one: a `#` there
            // would follow code.
            b'\\' => {
                line_start = false;
                i += 1;
            }
            _ => line_start = false,
        }
        i += 1;
    }
    match out {
        Some(blanked) => Cow::Owned(blanked),
        None => Cow::Borrowed(source),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(source: &str) -> String {
        String::from_utf8(without_comment_lines(source.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn a_comment_alone_on_its_line_becomes_spaces_of_its_length() {
        let source = "# head\ndef test_a():\n    # why\n    x = 1  # kept\n\t# tab\r\nassert x\n";
        let out = blanked(source);
        assert_eq!(
            out,
            "      \ndef test_a():\n         \n    x = 1  # kept\n\t     \r\nassert x\n"
        );
        assert_eq!(out.len(), source.len());
        assert!(matches!(without_comment_lines(b"x = 1  # c\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_hash_inside_a_string_is_text() {
        let source =
            "s = \"\"\"\n# not a comment\n'''\n\"\"\"\nt = '# no'\nu = \"a\\\n# c\"\nv = '''x''' # yes\n# gone\n";
        let out = blanked(source);
        assert!(out.contains("\n# not a comment\n"), "{out}");
        assert!(out.contains("'# no'"), "{out}");
        // A backslash-newline continues a one-quote string.
        assert!(out.contains("\n# c\""), "{out}");
        assert!(out.contains("# yes"), "{out}");
        assert!(out.ends_with("\n      \n"), "{out}");
    }

    #[test]
    fn an_unterminated_one_quote_string_ends_at_its_line() {
        let out = blanked("x = 'open\n# gone\n");
        assert_eq!(out, "x = 'open\n      \n");
    }

    #[test]
    fn a_line_joined_by_a_backslash_is_not_a_line_start() {
        assert_eq!(blanked("x = 1 + \\\n  # c\n"), "x = 1 + \\\n  # c\n");
    }

    #[test]
    fn multibyte_comments_keep_every_byte_position() {
        let source = "# é ü 漢字\nx = 1\n";
        let out = blanked(source);
        assert_eq!(out.len(), source.len());
        assert!(out.ends_with("\nx = 1\n"));
        assert!(out.bytes().take_while(|&b| b != b'\n').all(|b| b == b' '));
    }
}
