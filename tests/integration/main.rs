//! The one integration test binary: loki-gate run as a user runs it, on real
//! temporary git repositories.

mod support;

mod action;
mod agent;
mod agent_e2e;
mod architecture;
mod bad_input;
mod check;
mod cli;
mod config;
mod council;
mod coverage;
mod determinism;
mod docs;
mod docs_base;
mod docs_gate;
mod evidence;
mod git_layer;
mod github;
mod heldout;
mod hold_the_line;
mod hooks;
mod hostile_paths;
mod mock;
mod mutation;
mod mutation_misses;
mod mutation_refactors;
mod pipeline;
mod pre_commit;
mod release;
mod repo_shapes;
mod report;
mod state;
mod static_gate;
mod static_new_only;
mod static_projects;
mod static_tools;
mod trust;
mod trust_tools;
mod uncertainty;
mod verdicts;
