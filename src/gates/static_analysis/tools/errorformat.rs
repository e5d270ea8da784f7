//! Vim's `errorformat`, the single-line part reviewdog users know, for a
//! tool with only text output: `%f:%l:%c: %m`.
//!
//! | item | matches |
//! |---|---|
//! | `%f` | the file name |
//! | `%l`, `%c` | line, column |
//! | `%e`, `%k` | end line, end column |
//! | `%t` | one letter: `e` error, `w` warning, anything else (`i`, `n`, `c`, `r`) a note |
//! | `%n` | a number, the rule's (`%t%n` makes `W0611`) |
//! | `%m` | the message |
//! | `%*[...]` | any run of these characters, skipped (`%*[^)]`) |
//! | `%.`, `%#` | any character, and "any number of the one before" (`%.%#`: anything) |
//! | `%%` | a literal `%` |
//!
//! A pattern starting with `%-G` drops the lines it matches (a summary
//! line). Patterns are tried in order; lines no pattern matches are ignored,
//! as Vim and reviewdog ignore them.

use std::path::PathBuf;

use anyhow::{Result, bail};
use regex::Regex;

use super::ToolFinding;
use crate::finding::Severity;

pub struct Pattern {
    regex: Regex,
    /// `%-G`: matching lines are dropped.
    ignore: bool,
}

impl Pattern {
    pub fn new(pattern: &str) -> Result<Pattern> {
        let (ignore, body) = match pattern.strip_prefix("%-G") {
            Some(rest) => (true, rest),
            None => (false, pattern),
        };
        let mut regex = String::from("^");
        let mut chars = body.chars().peekable();
        let mut seen: Vec<char> = Vec::new();
        while let Some(c) = chars.next() {
            if c != '%' {
                regex.push_str(&regex::escape(&c.to_string()));
                continue;
            }
            let Some(item) = chars.next() else {
                bail!("errorformat `{pattern}` ends with a lone `%`: write `%%` for a literal one");
            };
            let group = match item {
                'f' => "(?P<f>.+?)",
                'l' => "(?P<l>\\d+)",
                'c' => "(?P<c>\\d+)",
                'e' => "(?P<e>\\d+)",
                'k' => "(?P<k>\\d+)",
                'n' => "(?P<n>\\d+)",
                't' => "(?P<t>[A-Za-z])",
                'm' => "(?P<m>.*?)",
                '%' => "%",
                '.' => ".",
                '#' => "*",
                '*' => {
                    if chars.next() != Some('[') {
                        bail!("errorformat `{pattern}`: `%*` must be followed by a character class, as in `%*[^)]`");
                    }
                    let mut class = String::from("[");
                    for c in chars.by_ref() {
                        // A `]` first in the class (`[]..]`, `[^]..]`) is a literal one.
                        let closes = c == ']' && class != "[" && class != "[^";
                        class.push(c);
                        if closes {
                            break;
                        }
                    }
                    if !class.ends_with(']') {
                        bail!("errorformat `{pattern}`: the class after `%*[` is not closed");
                    }
                    regex.push_str(&format!("(?:{class})*"));
                    continue;
                }
                other => bail!(
                    "errorformat `{pattern}`: `%{other}` is not supported (use %f %l %c %e %k %t %n %m %*[..] %. %# %%)"
                ),
            };
            if "flcektnm".contains(item) {
                if seen.contains(&item) {
                    bail!("errorformat `{pattern}` uses `%{item}` twice");
                }
                seen.push(item);
            }
            regex.push_str(group);
        }
        regex.push('$');
        let placed = seen.contains(&'f') && seen.contains(&'m');
        if !ignore && !placed {
            bail!("errorformat `{pattern}` needs at least `%f` (the file) and `%m` (the message)");
        }
        let regex = Regex::new(&regex).map_err(|e| anyhow::anyhow!("errorformat `{pattern}` is not valid: {e}"))?;
        Ok(Pattern { regex, ignore })
    }
}

/// The findings `patterns` read from `text`, one line at a time.
pub fn read(patterns: &[Pattern], text: &str) -> Vec<ToolFinding> {
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        let Some((pattern, caps)) = patterns.iter().find_map(|p| p.regex.captures(line).map(|c| (p, c))) else {
            continue;
        };
        if pattern.ignore {
            continue;
        }
        let number = |name: &str| {
            caps.name(name)
                .and_then(|m| m.as_str().parse::<u32>().ok())
                .filter(|n| *n > 0)
        };
        let kind = caps.name("t").map(|m| m.as_str().to_ascii_uppercase());
        let code = caps
            .name("n")
            .map(|n| format!("{}{}", kind.as_deref().unwrap_or(""), n.as_str()));
        found.push(ToolFinding {
            path: PathBuf::from(caps.name("f").map_or("", |m| m.as_str())),
            line: number("l"),
            column: number("c"),
            end_line: number("e"),
            end_column: number("k"),
            code,
            message: caps.name("m").map_or("", |m| m.as_str()).trim().to_string(),
            severity: match kind.as_deref() {
                None | Some("E") => Severity::Error,
                Some("W") => Severity::Warning,
                Some(_) => Severity::Note,
            },
            url: None,
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns(list: &[&str]) -> Vec<Pattern> {
        list.iter().map(|p| Pattern::new(p).unwrap()).collect()
    }

    #[test]
    fn reads_the_usual_formats() {
        let p = patterns(&["%f:%l:%c: %m"]);
        let found = read(&p, "src/a b.py:12:5: something: is wrong\nnot a finding\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, PathBuf::from("src/a b.py"));
        assert_eq!((found[0].line, found[0].column), (Some(12), Some(5)));
        assert_eq!(found[0].message, "something: is wrong");
        assert_eq!((found[0].severity, found[0].code.as_deref()), (Severity::Error, None));

        // pylint --output-format=parseable
        let p = patterns(&["%f:%l: [%t%n(%*[^)]), %*[^]]] %m"]);
        let found = read(&p, "app.py:3: [W0611(unused-import), ] Unused import os\n");
        assert_eq!(found[0].code.as_deref(), Some("W0611"));
        assert_eq!(found[0].severity, Severity::Warning);
        assert_eq!(found[0].message, "Unused import os");
    }

    #[test]
    fn ignore_patterns_drop_lines_and_order_decides() {
        let p = patterns(&["%-G%f: %*[0-9] problems%.%#", "%f:%l: %m", "%f: %m"]);
        let found = read(&p, "total: 3 problems found\na.sh:2: bad\nb.sh: whole file\n");
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].line, found[1].line), (Some(2), None));
    }

    #[test]
    fn bad_patterns_say_what_is_wrong() {
        for (pattern, says) in [
            ("%f:%l", "needs at least `%f`"),
            ("%f:%l:%q %m", "`%q` is not supported"),
            ("%f:%l: %m%", "lone `%`"),
            ("%f:%l:%l: %m", "twice"),
            ("%f %*x %m", "character class"),
            ("%f %*[abc %m", "not closed"),
        ] {
            let err = Pattern::new(pattern).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains(says), "{pattern}: {err}");
        }
    }
}
