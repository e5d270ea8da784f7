//! Cobertura XML: coverage.py `coverage xml`, gocover-cobertura, JaCoCo and
//! .NET converters, PHPUnit, and many more.
//!
//! `<sources><source>` holds the roots the `filename` of each `<class>` is
//! relative to; each `<line number= hits=>` under a class is an executable
//! line (lines listed again under `<methods>` merge with them).

use std::collections::BTreeMap;

use super::{Entry, Hits, Keep};

/// The classes whose file `keep` wants; `keep` is given the source roots.
pub fn parse(text: &str, keep: &mut Keep<'_>) -> Result<Vec<Entry>, String> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = crate::gates::evidence::xml::parse(text, options, "XML")?;
    let root = doc.root_element();
    if root.tag_name().name() != "coverage" {
        return Err(format!(
            "XML with root <{}> is not a Cobertura report (root <coverage>)",
            root.tag_name().name()
        ));
    }
    if root.children().any(|n| n.has_tag_name("project")) {
        return Err("this is a Clover report, which is not read: write Cobertura XML or LCOV instead".into());
    }
    let sources: Vec<String> = root
        .descendants()
        .filter(|n| n.has_tag_name("source"))
        .filter_map(|n| n.text())
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let mut entries: Vec<Entry> = Vec::new();
    for class in root.descendants().filter(|n| n.has_tag_name("class")) {
        let Some(name) = class.attribute("filename") else {
            continue;
        };
        if !keep(name, &sources) {
            continue;
        }
        let mut lines = BTreeMap::new();
        for line in class.descendants().filter(|n| n.has_tag_name("line")) {
            let number = line.attribute("number").and_then(|n| n.trim().parse::<u32>().ok());
            let hits = line.attribute("hits").and_then(|h| h.trim().parse::<f64>().ok());
            let (Some(number), Some(hits)) = (number, hits) else {
                return Err(format!(
                    "line {}: <line> needs a whole `number` and a numeric `hits`",
                    // Only on the error path: finding a position scans the text.
                    doc.text_pos_at(line.range().start).row
                ));
            };
            if number > 0 {
                *lines.entry(number).or_default() |= hits != 0.0;
            }
        }
        entries.push(Entry {
            name: name.to_string(),
            hits: Hits::Lines(lines),
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_classes_and_method_lines() {
        let xml = r#"<?xml version="1.0" ?>
<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">
<coverage line-rate="0.5">
  <sources><source>/ci/work/proj</source><source> src </source></sources>
  <packages><package name="p"><classes>
    <class name="a" filename="pkg/a.py">
      <methods><method name="f"><lines><line number="3" hits="1"/></lines></method></methods>
      <lines><line number="3" hits="0"/><line number="4" hits="0" branch="true" condition-coverage="50% (1/2)"/></lines>
    </class>
  </classes></package></packages>
</coverage>"#;
        let mut sources = Vec::new();
        let entries = parse(xml, &mut |_, roots| {
            sources = roots.to_vec();
            true
        })
        .unwrap();
        assert_eq!(sources, vec!["/ci/work/proj", "src"]);
        assert_eq!(entries.len(), 1);
        let Hits::Lines(lines) = &entries[0].hits else { panic!() };
        assert_eq!(
            lines.iter().map(|(n, c)| (*n, *c)).collect::<Vec<_>>(),
            vec![(3, true), (4, false)]
        );
    }

    #[test]
    fn other_xml_is_named() {
        let all = &mut |_: &str, _: &[String]| true;
        assert!(parse("<testsuites/>", all).unwrap_err().contains("root <testsuites>"));
        assert!(
            parse("<coverage><project/></coverage>", all)
                .unwrap_err()
                .contains("Clover")
        );
        assert!(
            parse(
                "<coverage><class filename='a'><line number='x' hits='1'/></class></coverage>",
                all
            )
            .unwrap_err()
            .starts_with("line 1: <line>")
        );
    }
}
