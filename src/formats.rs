//! Readers of the config dialects other tools write that no crate here
//! reads: JSON with comments and trailing commas (tsconfig's), and one key
//! of an INI section (setup.cfg, tox.ini, mypy.ini).

/// JSON with comments and trailing commas (tsconfig's dialect) as JSON.
pub fn jsonc(text: &str) -> String {
    // Comments out, strings kept as they are.
    let mut bare = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                bare.push(c);
                while let Some(c) = chars.next() {
                    bare.push(c);
                    match c {
                        '\\' => bare.extend(chars.next()),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => while chars.next_if(|c| *c != '\n').is_some() {},
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                bare.push(' ');
            }
            _ => bare.push(c),
        }
    }
    // Then a comma before a closing bracket, outside strings, is dropped.
    let mut out = String::with_capacity(bare.len());
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in bare.char_indices() {
        if in_string {
            in_string = c != '"' || escaped;
            escaped = c == '\\' && !escaped;
        } else if c == '"' {
            in_string = true;
        } else if c == ',' && bare[i + 1..].trim_start().starts_with(['}', ']']) {
            continue;
        }
        out.push(c);
    }
    out
}

/// A key's value in an INI section; continuation lines (indented) are joined.
pub fn ini_value(text: &str, section: &str, key: &str) -> Option<String> {
    let mut in_section = false;
    let mut value: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if value.is_some() {
                break;
            }
            in_section = trimmed.trim_matches(['[', ']']).trim() == section;
            continue;
        }
        if !in_section || trimmed.starts_with(['#', ';']) {
            continue;
        }
        if let Some(v) = value.as_mut() {
            if line.starts_with([' ', '\t']) && !trimmed.is_empty() {
                v.push(' ');
                v.push_str(trimmed);
                continue;
            }
            break;
        }
        if let Some((k, v)) = trimmed.split_once(['=', ':'])
            && k.trim() == key
        {
            value = Some(v.trim().to_string());
        }
    }
    value
}
