//! Tests a module declares with their data in a call: through a function
//! of its own (`function runTests({title, cases}) { test(title, t => ..) }`,
//! called once per title as `runTests({title: 'compact', cases: [..]})`),
//! or through an AVA macro (`test('compact', verify, {cases: [..]})`).

use super::*;

/// Where a function takes the title of the test it declares.
enum Title {
    /// Its parameter at this position.
    At(usize),
    /// This property of the object its parameter at this position destructures.
    Property(usize, String),
}

impl Walker<'_, '_> {
    /// Each call, at the top of the module, of a function the module
    /// declares there whose body declares a test titled by its parameter,
    /// with the title it hands; and each test declared through a macro.
    pub(super) fn declared_through_functions(&self, root: &Node) -> Vec<(String, Span)> {
        let mut templates: Vec<(String, Title)> = Vec::new();
        let mut cursor = root.walk();
        let statements: Vec<Node> = root.named_children(&mut cursor).collect();
        for statement in &statements {
            let (name, function) = match statement.kind() {
                "function_declaration" => (statement.field("name"), Some(*statement)),
                "lexical_declaration" | "variable_declaration" => {
                    let mut c = statement.walk();
                    let declarator = statement
                        .named_children(&mut c)
                        .find(|d| d.kind() == "variable_declarator");
                    (
                        declarator.and_then(|d| d.field("name")),
                        declarator.and_then(|d| d.field("value")).filter(is_function),
                    )
                }
                _ => continue,
            };
            if let (Some(name), Some(function)) = (name, function)
                && let Some(title) = self.titled_by_parameter(&function)
            {
                templates.push((text(&name, self.source).into_owned(), title));
            }
        }
        let mut declared = Vec::new();
        for statement in statements.iter().filter(|s| s.kind() == "expression_statement") {
            let Some(call) = first_child(statement)
                .map(|e| unwrap(e))
                .filter(|e| e.kind() == "call_expression")
            else {
                continue;
            };
            // An AVA macro's test: `test('title', macro, {..})`, its data
            // handed after the macro.
            if let Some(title) = self.macro_test(&call) {
                declared.push((title, Span::of(&call)));
                continue;
            }
            let Some(callee) = call.field("function").filter(|f| f.kind() == "identifier") else {
                continue;
            };
            let Some((_, title)) = templates.iter().find(|(name, _)| name == &text(&callee, self.source)) else {
                continue;
            };
            let args = arguments(&call);
            let handed = match title {
                Title::At(i) => args.get(*i).and_then(|a| self.string_value(a)),
                Title::Property(i, key) => args
                    .get(*i)
                    .filter(|a| a.kind() == "object")
                    .and_then(|object| self.property_string(object, key)),
            };
            if let Some(title) = handed {
                declared.push((title, Span::of(&call)));
            }
        }
        declared
    }

    /// The title of a test declared through an AVA macro (`test('title',
    /// macro, ..args)`, `test.serial(..)`): a name where the function goes.
    fn macro_test(&self, call: &Node) -> Option<String> {
        let path = callee_path(&call.field("function")?, self.source)?;
        if !TEST_NAMES.contains(&path[0].as_str()) || path.iter().any(|p| p == "skip" || p == "todo") {
            return None;
        }
        let args = arguments(call);
        let [title, macro_, ..] = args.as_slice() else {
            return None;
        };
        matches!(macro_.kind(), "identifier" | "member_expression")
            .then(|| self.string_value(title))
            .flatten()
    }

    /// Where `function` takes the title of a test its body declares
    /// (`test(title, ..)` with `title` one of its parameters).
    fn titled_by_parameter(&self, function: &Node) -> Option<Title> {
        let parameters = function.field("parameters").or_else(|| function.field("parameter"))?;
        let mut found = None;
        visit_named(function.field("body")?, |n| {
            if found.is_some() {
                return false;
            }
            if n.kind() == "call_expression"
                && let Some(path) = n.field("function").and_then(|f| callee_path(&f, self.source))
                && TEST_NAMES.contains(&path[0].as_str())
                && let Some(first) = arguments(&n).first().filter(|a| a.kind() == "identifier")
            {
                found = self.parameter_named(&parameters, &text(first, self.source));
            }
            true
        });
        found
    }

    /// Where the parameters `parameters` bind `name`.
    fn parameter_named(&self, parameters: &Node, name: &str) -> Option<Title> {
        if parameters.kind() == "identifier" {
            return (text(parameters, self.source) == name).then_some(Title::At(0));
        }
        let mut cursor = parameters.walk();
        for (i, parameter) in parameters.named_children(&mut cursor).enumerate() {
            let pattern = parameter.field("pattern").unwrap_or(parameter);
            match pattern.kind() {
                "identifier" if text(&pattern, self.source) == name => return Some(Title::At(i)),
                "object_pattern" => {
                    let mut c = pattern.walk();
                    for property in pattern.named_children(&mut c) {
                        let (key, value) = match property.kind() {
                            "shorthand_property_identifier_pattern" => (Some(property), Some(property)),
                            "pair_pattern" => (property.field("key"), property.field("value")),
                            "object_assignment_pattern" => (property.field("left"), property.field("left")),
                            _ => (None, None),
                        };
                        if let (Some(key), Some(value)) = (key, value)
                            && text(&value, self.source) == name
                        {
                            return Some(Title::Property(i, string_or_name(&key, self.source)));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The string an object literal's property `key` is given.
    fn property_string(&self, object: &Node, key: &str) -> Option<String> {
        let mut cursor = object.walk();
        let pair = object
            .named_children(&mut cursor)
            .filter(|p| p.kind() == "pair")
            .find(|p| p.field("key").is_some_and(|k| string_or_name(&k, self.source) == key))?;
        self.string_value(&pair.field("value")?)
    }
}
