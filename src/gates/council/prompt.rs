//! What reviewers are told: their role (a persona, rotating across
//! reviewers), the project (the README's opening), the change (the diff,
//! capped, and the full text of changed files within a budget) and the
//! answer schema. `docs/gates/council.md` shows the prompts in full.

use std::path::Path;

use super::verdict::SCHEMA;

/// A reviewer's focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Persona {
    pub name: &'static str,
    pub focus: &'static str,
}

/// The personas of the blind reviewers, in rotation.
pub const PERSONAS: &[Persona] = &[
    Persona {
        name: "correctness",
        focus: "Focus on correctness: logic errors, wrong edge cases (empty, zero, negative, huge, missing), broken error handling, data loss, races, and behaviour that differs from what the change claims to do.",
    },
    Persona {
        name: "security",
        focus: "Focus on security and robustness: injection, path traversal, unsafe deserialization, secrets in code or logs, missing authorization or validation of untrusted input, and resource exhaustion.",
    },
    Persona {
        name: "tests-and-spec",
        focus: "Focus on tests and the spec: whether the tests would fail if the change were wrong, tests that assert nothing or mock the code they test, expectations edited to match a bug, and requirements the change leaves undone.",
    },
];

/// The devil's advocate, asked when every reviewer approved.
pub const DEVILS_ADVOCATE: Persona = Persona {
    name: "devils-advocate",
    focus: "Every other reviewer approved this change. Your job is to find what they missed: assume there is a serious problem and look for it, in correctness, security and tests alike. Report only problems you can point to in the change; if after a careful search there is none, approve.",
};

/// The reviewer's role, sent as the system message (or first, for a command).
pub fn system(persona: &Persona, index: usize, of: usize) -> String {
    format!(
        "You are reviewer {index} of {of} on a code review council. You review alone: you will not see the other reviews, and they will not see yours.\n{}\n\nAnswer with one JSON object and nothing else, in exactly this form:\n{SCHEMA}\nUse \"reject\" when you found any critical or high problem, \"approve\" otherwise. Severity: critical = must not ship (data loss, security hole, crash on common input); high = a real bug or a test that cannot catch one; medium = should fix; low = nit. Give each finding the path and the line in the NEW version of the file, as the diff shows it.",
        persona.focus
    )
}

/// The change as the prompt shows it.
pub struct Change<'a> {
    /// The opening of the README, if any.
    pub readme: Option<String>,
    /// The unified diff.
    pub diff: &'a str,
    /// Changed files still present: path and text.
    pub files: Vec<(String, String)>,
}

/// What the prompt had to leave out.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Cuts {
    /// Files whose diff was cut.
    pub diff_files: Vec<String>,
    /// Files whose full text was left out.
    pub full_files: Vec<String>,
}

/// The user message: the project, the diff (cut at `max_diff` bytes, whole
/// files' diffs first), the changed files' text (smallest first, within
/// `max_files` bytes), and notes of what was cut.
pub fn user(change: &Change<'_>, max_diff: usize, max_files: usize) -> (String, Cuts) {
    let mut cuts = Cuts::default();
    let mut out = String::new();
    if let Some(readme) = &change.readme {
        out.push_str("## The project (from its README)\n\n");
        out.push_str(readme);
        out.push_str("\n\n");
    }
    out.push_str("## The change (unified diff)\n\n```diff\n");
    let mut used = 0;
    for file in split_diff(change.diff) {
        if used + file.text.len() <= max_diff {
            out.push_str(file.text);
            used += file.text.len();
        } else {
            cuts.diff_files.push(file.path.to_string());
        }
    }
    out.push_str("```\n");
    if !cuts.diff_files.is_empty() {
        out.push_str(&format!(
            "\nNOTE: the diff was cut at {max_diff} bytes; the changes to these files are not shown: {}\n",
            cuts.diff_files.join(", ")
        ));
    }
    let mut files: Vec<&(String, String)> = change.files.iter().collect();
    files.sort_by_key(|(path, text)| (text.len(), path.clone()));
    let mut shown = Vec::new();
    let mut used = 0;
    for (path, text) in files {
        if used + text.len() <= max_files {
            used += text.len();
            shown.push((path, text));
        } else {
            cuts.full_files.push(path.clone());
        }
    }
    shown.sort();
    if !shown.is_empty() {
        out.push_str("\n## The changed files in full (new version)\n");
        for (path, text) in shown {
            out.push_str(&format!("\n### {path}\n\n```\n{text}"));
            if !text.ends_with('\n') {
                out.push('\n');
            }
            out.push_str("```\n");
        }
    }
    if !cuts.full_files.is_empty() {
        cuts.full_files.sort();
        out.push_str(&format!(
            "\nNOTE: over the {max_files}-byte budget, these changed files are shown only through the diff: {}\n",
            cuts.full_files.join(", ")
        ));
    }
    (out, cuts)
}

struct FileDiff<'a> {
    path: &'a str,
    text: &'a str,
}

/// The diff split at each `diff --git` header.
fn split_diff(diff: &str) -> Vec<FileDiff<'_>> {
    let mut starts: Vec<usize> = diff
        .match_indices("diff --git ")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || diff.as_bytes()[i - 1] == b'\n')
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts
        .iter()
        .enumerate()
        .map(|(k, &start)| {
            let end = starts.get(k + 1).copied().unwrap_or(diff.len());
            let text = &diff[start..end];
            let path = text
                .lines()
                .next()
                .and_then(|l| l.rsplit(" b/").next())
                .unwrap_or("")
                .trim();
            FileDiff { path, text }
        })
        .filter(|f| !f.text.is_empty())
        .collect()
}

/// The opening of the README at `root` (up to ~1,500 characters, whole paragraphs).
pub fn readme_summary(root: &Path) -> Option<String> {
    let names = ["README.md", "README", "README.rst", "README.txt", "readme.md"];
    let text = names.iter().find_map(|n| std::fs::read(root.join(n)).ok())?;
    let text = String::from_utf8_lossy(&text);
    let mut out = String::new();
    for paragraph in text.split("\n\n") {
        if !out.is_empty() && out.len() + paragraph.len() > 1500 {
            break;
        }
        out.push_str(paragraph.trim_end());
        out.push_str("\n\n");
        if out.len() > 1500 {
            out.truncate(out.char_indices().nth(1500).map_or(out.len(), |(i, _)| i));
            break;
        }
    }
    let out = out.trim().to_string();
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diff_is_cut_by_whole_files_and_the_cut_is_named() {
        let diff = "diff --git a/small.py b/small.py\n+x = 1\ndiff --git a/big.py b/big.py\n+".to_string()
            + &"y".repeat(500)
            + "\n";
        let change = Change {
            readme: Some("# shop\n\nA cart.".into()),
            diff: &diff,
            files: vec![
                ("big.py".into(), "y".repeat(500)),
                ("small.py".into(), "x = 1\n".into()),
            ],
        };
        let (text, cuts) = user(&change, 100, 100);
        assert!(text.contains("+x = 1"));
        assert!(!text.contains("yyyy"));
        assert_eq!(cuts.diff_files, ["big.py"]);
        assert_eq!(cuts.full_files, ["big.py"]);
        assert!(text.contains("changes to these files are not shown: big.py"));
        assert!(text.contains("### small.py"));
        assert!(text.starts_with("## The project (from its README)\n\n# shop"));
    }

    #[test]
    fn every_prompt_states_the_schema() {
        for (i, persona) in PERSONAS.iter().chain([&DEVILS_ADVOCATE]).enumerate() {
            let text = system(persona, i + 1, 4);
            assert!(text.contains(SCHEMA) && text.contains(persona.focus));
        }
    }
}
