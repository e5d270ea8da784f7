//! What a test binds, as written: the literal a local holds (a list or an
//! object too, over as many lines as it takes), read from the test's text
//! where the model keeps no value.

use super::inputs::bound_literal;
use super::*;
use crate::lang::is_plain_name;

impl Analysis<'_> {
    /// Did the deleted check `old` of `o` compare a local with the very
    /// literal the test bound it to, before anything was handed it
    /// (`var target = [..]` then `t.deepEqual(target, [..])` before the
    /// call)? It checked nothing, so nothing is lost (issue 64: deepmerge
    /// 9005f24). Lists and objects as much as scalars, written on as many
    /// lines as they take.
    pub(super) fn echoed(&self, of: &TestChange<'_>, o: &TestCase, old: &Assertion) -> bool {
        let crate::lang::Form::Equal(a, b) = old.form.demanded() else {
            return false;
        };
        let Some(version) = of.change.old.as_ref() else {
            return false;
        };
        let text = test_text(self.versions.bytes(version), o.extent);
        let lines: Vec<&str> = text.lines().collect();
        let flat = |value: &str| {
            squash(value)
                .trim_end_matches([';', ','])
                .replace(",]", "]")
                .replace(",}", "}")
        };
        [(a, b), (b, a)].into_iter().any(|(name, value)| {
            let literal = value.literal.is_some() || value.text.starts_with(['[', '{']);
            if name.literal.is_some() || !literal || !is_plain_name(&name.key) {
                return false;
            }
            let Some(binding) = o
                .bindings
                .iter()
                .rfind(|x| x.name == name.key && x.span.line < old.span.line)
            else {
                return false;
            };
            let (Some((bound, last)), Some(check)) = (
                written(&lines, o, binding),
                old.span.line.checked_sub(o.extent.line).map(|i| i as usize),
            ) else {
                return false;
            };
            // Nothing between the binding and the check reads the name.
            let untouched = lines
                .get(last + 1..check)
                .is_some_and(|between| !between.iter().any(|l| identifiers(l).any(|(w, _)| w == name.key)));
            untouched && assigned(&bound).is_some_and(|v| flat(v) == flat(&value.text))
        })
    }

    /// The value `t` (of `version`) last bound `name` to before `at`: the
    /// scalar literal the model keeps ([`bound_literal`]), or a list or
    /// object written out (`var expected = [ 'one', 'two' ]`, over as many
    /// lines as it takes), as written, whitespace dropped. A name bound to
    /// anything else (a call, another name) holds no value here.
    pub(super) fn bound_value(&self, version: Option<&String>, t: &TestCase, name: &str, at: Span) -> Option<String> {
        if let Some(scalar) = bound_literal(t, name, at) {
            return Some(scalar);
        }
        let binding = t.bindings.iter().rfind(|b| b.name == name && b.span.line <= at.line)?;
        if binding.literal.is_some() || t.aliases.iter().any(|(alias, _)| alias == name) {
            return None;
        }
        let text = test_text(self.versions.bytes(version?), t.extent);
        let lines: Vec<&str> = text.lines().collect();
        let (bound, _) = written(&lines, t, binding)?;
        let value = unspaced(assigned(&bound)?);
        // A formatter's quotes and trailing commas are no other value.
        let value = value
            .trim_end_matches([';', ','])
            .replace(",]", "]")
            .replace(",}", "}")
            .replace('\'', "\"");
        value.starts_with(['[', '{']).then_some(value)
    }
}

impl Gained<'_> {
    /// The text of each test file the step added or changed, squashed.
    pub(crate) fn whole_text(&self) -> Vec<String> {
        self.files
            .iter()
            .filter(|(_, bytes)| !bytes.is_empty())
            .map(|(_, bytes)| String::from_utf8_lossy(bytes).lines().map(squash).collect())
            .collect()
    }

    /// Are the values a test the step deleted binds to the locals its checks
    /// read (`var expected = [..]` then `deepEqual(merge(target, src),
    /// expected)`) written anywhere in the test files the step added or
    /// changed? A check as written says little when its values are in
    /// names: a sibling that makes the same check on its own values is not
    /// the deleted test again (issue 64: deepmerge 9005f24 deleted three
    /// tests whose one check every other test of the file makes). Only
    /// literals are looked for (a list, an object, a string, a number); a
    /// test whose checks read none is held as its checks are.
    pub(crate) fn holds_inputs(&self, t: &TestCase, text: &str) -> bool {
        let lines: Vec<&str> = text.lines().collect();
        let read: std::collections::BTreeSet<&str> = t
            .assertions
            .iter()
            .flat_map(|a| a.parts.iter())
            .flat_map(|p| identifiers(p).map(|(word, _)| word))
            .collect();
        let values: Vec<String> = t
            .bindings
            .iter()
            .filter(|b| read.contains(b.name.as_str()))
            .filter_map(|b| {
                let (bound, _) = written(&lines, t, b)?;
                let value = assigned(&bound)?;
                let value = squash(value);
                let value = value.trim_end_matches([';', ',']);
                let literal = b.literal.is_some()
                    || value.starts_with(['[', '{', '(', '-'])
                    || value.starts_with(|c: char| c.is_ascii_digit());
                literal.then(|| value.to_string())
            })
            .collect();
        if values.is_empty() {
            return true;
        }
        let read = self.read();
        read.whole
            .get_or_init(|| self.whole_text())
            .iter()
            .any(|file| values.iter().all(|v| file.contains(v.as_str())))
    }
}

/// The lines of `t` (its text's `lines`) that make `binding`, joined, and
/// the index of the last of them.
fn written(lines: &[&str], t: &TestCase, binding: &crate::lang::Binding) -> Option<(String, usize)> {
    let first = binding.span.line.checked_sub(t.extent.line)? as usize;
    let last =
        ((binding.span.end_line.max(binding.span.line) - t.extent.line) as usize).min(lines.len().checked_sub(1)?);
    Some((lines.get(first..=last)?.join("\n"), last))
}

/// What a binding's text assigns: the text after its first `=` that is no
/// part of `==`, `!=`, `<=`, `>=` or `=>` (Go's `:=` too).
fn assigned(binding: &str) -> Option<&str> {
    let bytes = binding.as_bytes();
    (0..bytes.len())
        .find(|&i| {
            bytes[i] == b'='
                && !matches!(bytes.get(i + 1), Some(b'=' | b'>'))
                && !matches!(i.checked_sub(1).map(|j| bytes[j]), Some(b'=' | b'!' | b'<' | b'>'))
        })
        .map(|i| &binding[i + 1..])
}
