//! `--format github`: workflow commands that become annotations on the PR.
//!
//! `::error file=F,line=L,col=C,endLine=..,endColumn=..,title=T::message`,
//! escaped per GitHub's rules: in the message `%`, CR and LF; in property
//! values also `:` and `,`. Findings without a file become annotations on
//! the run itself.

use std::fmt::Write;

use super::GateReport;
use crate::finding::Severity;

fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(reports: &[GateReport]) -> String {
    let mut out = String::new();
    for report in reports {
        for f in &report.findings {
            let command = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "notice",
            };
            let mut props = Vec::new();
            if let Some(path) = &f.path {
                props.push(format!("file={}", escape_property(path)));
            }
            let fields = [
                ("line", f.line),
                ("col", f.column),
                ("endLine", f.end_line),
                ("endColumn", f.end_column),
            ];
            for (name, value) in fields {
                if let Some(v) = value
                    && f.path.is_some()
                {
                    props.push(format!("{name}={v}"));
                }
            }
            props.push(format!("title={}", escape_property(&format!("loki-gate {}", f.rule))));
            let mut message = f.message.clone();
            if let Some(help) = &f.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            for note in &f.notes {
                message.push_str("\nnote: ");
                message.push_str(note);
            }
            let _ = writeln!(out, "::{command} {}::{}", props.join(","), escape_data(&message));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_follow_githubs_rules() {
        assert_eq!(escape_data("100% done\r\nok"), "100%25 done%0D%0Aok");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
