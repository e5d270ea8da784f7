//! The mock gate's rules: one file per rule (metadata and a pure check over
//! a parsed test file), the doc beside it as `<rule>.md`.

mod catch_only_assertion;
mod conditional_assertion;
mod empty_test;
mod internal_mock_ratio;
mod literal_echo;
mod mock_return_echo;
mod mocks_subject;
mod never_imports_subject;
mod no_assertion;
mod skipped_test;
mod smoke_test;
mod swallowed_failure;
mod tautological_assertion;
mod unfinished_assertion;

pub use crate::gates::project::always::tautology;
pub use crate::gates::project::is_assertion_helper;
pub use catch_only_assertion::{CATCH_ONLY_ASSERTION, catch_only_assertion};
pub use conditional_assertion::{CONDITIONAL_ASSERTION, conditional_assertion};
pub use empty_test::{EMPTY_TEST, empty_test};
pub use internal_mock_ratio::{INTERNAL_MOCK_RATIO, MIN_INTERNAL, internal_mock_ratio};
pub use literal_echo::{LITERAL_ECHO, literal_echo};
pub use mock_return_echo::{MOCK_RETURN_ECHO, mock_return_echo};
pub use mocks_subject::{MOCKS_SUBJECT, Resolved, mocks_subject};
pub use never_imports_subject::{NEVER_IMPORTS_SUBJECT, never_imports_subject};
pub use no_assertion::{NO_ASSERTION, no_assertion};
pub use skipped_test::{SKIPPED_TEST, skipped_test};
pub use smoke_test::{SMOKE_TEST, smoke_test};
pub use swallowed_failure::{SWALLOWED_FAILURE, swallowed_failure};
pub use tautological_assertion::{TAUTOLOGICAL_ASSERTION, tautological_assertion};
pub use unfinished_assertion::{UNFINISHED_ASSERTION, unfinished_assertion};

use crate::finding::Finding;
use crate::lang::Span;
use crate::rule::RuleMeta;

/// A finding of `rule` covering `span` of `path`.
fn finding_at(rule: &RuleMeta, message: String, path: &str, span: Span) -> Finding {
    Finding::new(rule, message)
        .at(path, span.line, span.column)
        .until(span.end_line, span.end_column)
}

pub const ALL: &[&RuleMeta] = &[
    &TAUTOLOGICAL_ASSERTION,
    &UNFINISHED_ASSERTION,
    &NO_ASSERTION,
    &SMOKE_TEST,
    &EMPTY_TEST,
    &SKIPPED_TEST,
    &CONDITIONAL_ASSERTION,
    &CATCH_ONLY_ASSERTION,
    &SWALLOWED_FAILURE,
    &LITERAL_ECHO,
    &NEVER_IMPORTS_SUBJECT,
    &MOCKS_SUBJECT,
    &MOCK_RETURN_ECHO,
    &INTERNAL_MOCK_RATIO,
];
