# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_loki_gate_global_optspecs
    string join \n C/repo= base= staged all-files format= o/output= config= no-cache state-dir= W/warn= D/deny= A/allow= baseline= write-baseline= show-settings statistics exit-zero fail-level= color= q/quiet v/verbose comment h/help V/version
end

function __fish_loki_gate_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_loki_gate_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_loki_gate_using_subcommand
    set -l cmd (__fish_loki_gate_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c loki-gate -n "__fish_loki_gate_needs_command" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_needs_command" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_needs_command" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_needs_command" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_needs_command" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "static" -d 'The project\'s own linters and type checkers (ruff, mypy, eslint, shellcheck), on the lines the change touched'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "evidence" -d 'Refuse "done" without a non-empty diff since the run start AND green tests'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "mock" -d 'Test integrity: tautological assertions, tests that assert nothing, empty and skipped tests'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "mutation" -d 'Tests bent to match the code in the commits since the base: changed expectations, deleted or weakened assertions, deleted or skipped tests'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "docs" -d 'Documentation: a README at the root, docs that keep up with the code, doc comments on the public symbols a change touches'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "heldout" -d 'Held-out acceptance checks, sealed outside the workspace and run at the ship gate'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "uncertainty" -d 'Stuck detection across runs: no change, oscillation, a split council, the same failing tests; escalates (exit 3) once per episode'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "council" -d 'Blind LLM reviewers of the change: severity blocking, a two-thirds quorum, a devil\'s advocate on unanimous approval'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "check" -d 'Every enabled gate in one run, one combined report, the worst outcome\'s exit status'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "comment" -d 'Post saved JSON reports as the one sticky comment on the pull request (GitHub Actions)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "render" -d 'Render saved JSON reports in another format (--format, -o): SARIF or annotations from one run'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "hook" -d 'Install, remove or run loki-gate\'s git hooks (pre-commit, pre-push)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "rules" -d 'List every rule with its default level (or one gate\'s)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "explain" -d 'Print one rule\'s documentation'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "completions" -d 'Print the shell completion script for SHELL (bash, zsh, fish, elvish, powershell)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "man" -d 'Print the man page (roff): `loki-gate man > loki-gate.1`'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "schema" -d 'Print the JSON Schema of .loki-gate.yaml (editors complete and check the file with it)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "init" -d 'Write .loki-gate.yaml for the stack found here (every key, its value and a comment)'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "agent" -d 'Answer a coding agent\'s hook (its JSON on stdin) in that agent\'s protocol: record the session start, gate "done", advise after an edit'
complete -c loki-gate -n "__fish_loki_gate_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l tool -d 'Run this tool (repeatable): auto (what the repository calls for), ruff, mypy, eslint, tsc, clippy, golangci-lint, shellcheck, or a name from gates.static.custom [default: gates.static.tools]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l filter -d 'Which findings count [default: gates.static.filter, added]' -r -f -a "added\t''
diff-context\t''
file\t''
nofilter\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l fail-on -d 'The least severe tool level that blocks [default: gates.static.fail-on, error]' -r -f -a "error\t''
warning\t''
note\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l timeout -d 'Time limit for each tool, e.g. 90s, 10m [default: gates.static.timeout]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l scope -d 'What the tools look at: the changed files, or each tool\'s whole project (with --new-only: new findings anywhere) [default: gates.static.scope]' -r -f -a "changed\t''
project\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l new-only -d 'Report only findings the base revision does not have (the tools run on it too, in a temporary worktree)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand static" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l test-command -d 'Test command to run (overrides gates.evidence.test-command)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l results -d 'Read test results from FILE instead of running tests (JUnit XML, cargo/nextest output, pytest JSON report, go test -json)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l timeout -d 'Time limit for the test command, e.g. 90s, 10m [default: gates.evidence.timeout]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l coverage -d 'Coverage report the tests wrote (LCOV, Cobertura XML, coverage.py JSON, Go cover profile); repeatable [default: gates.evidence.coverage]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l min-changed-coverage -d 'Block when the tests run less than N percent of the executable changed lines [default: gates.evidence.min-changed-coverage]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l require-anchor -d 'Block when no run start was recorded (default: pass with a disclosure)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -f -a "start" -d 'Record the run-start anchor (HEAD and the time); starts a new run'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and not __fish_seen_subcommand_from start help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from start" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from help" -f -a "start" -d 'Record the run-start anchor (HEAD and the time); starts a new run'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand evidence; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mock" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l max-commits -d 'Inspect at most the newest N commits of the range (0 = all) [default: gates.mutation.max-commits]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand mutation" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand docs" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l checks -d 'The directory holding the reserved checks [default: gates.heldout.checks]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l reveal -d 'Show each failing check\'s command and output (never inside the loop being gated)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l require -d 'Block when the checks cannot be evaluated (no selection, no checks directory)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -f -a "select" -d 'Reserve a deterministic slice of a checklist, write it to DIR, seal it; never reselects'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and not __fish_seen_subcommand_from select help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l checklist -d 'The checklist (YAML or JSON); the visible remainder is written back to it' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l into -d 'Where the reserved checks go: a directory outside the repository' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l force -d 'Select from a checklist git tracks, though its history keeps the reserved items readable'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from select" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from help" -f -a "select" -d 'Reserve a deterministic slice of a checklist, write it to DIR, seal it; never reselects'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand heldout; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand uncertainty" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l reviewers -d 'How many reviewers [default: gates.council.reviewers]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l provider -d 'Use only these providers (by name; repeatable or comma-separated)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l fresh -d 'Ask the reviewers again even when this diff was reviewed before'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand council" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l gates -d 'Run these gates (comma-separated or repeated) instead of every enabled one' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand check" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l report -d 'A JSON report (`--format json -o F`) of a gate or of `check` (repeatable)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand comment" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l report -d 'A JSON report (`--format json -o F`) of a gate or of `check` (repeatable)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand render" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -f -a "install" -d 'Put the hooks where git runs them (core.hooksPath respected), keeping any hook already there'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -f -a "uninstall" -d 'Remove loki-gate\'s hooks and put back the hooks they replaced'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -f -a "run" -d 'What an installed hook runs: `check` on the staged change (pre-commit) or on the commits being pushed (pre-push)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and not __fish_seen_subcommand_from install uninstall run help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l hook -d 'Only this hook (repeatable) [default: pre-commit and pre-push]' -r -f -a "pre-commit\t''
pre-push\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from install" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l hook -d 'Only this hook (repeatable) [default: pre-commit and pre-push]' -r -f -a "pre-commit\t''
pre-push\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l agent -d 'Remove only what `init --agent` added to this coding agent\'s settings (repeatable); the git hooks stay' -r -f -a "claude\t'Claude Code (`.claude/settings.json`)'
codex\t'OpenAI Codex CLI (`.codex/hooks.json`)'
cursor\t'Cursor (`.cursor/hooks.json`)'
gemini\t'Gemini CLI (`.gemini/settings.json`)'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l gates -d 'Run these gates [default: config `pre-commit-gates` / `pre-push-gates`, those enabled]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l remote -d 'pre-push: the remote pushed to (git\'s first argument to the hook); what its remote-tracking refs hold is what it has [default: every remote\'s refs]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from run" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "install" -d 'Put the hooks where git runs them (core.hooksPath respected), keeping any hook already there'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Remove loki-gate\'s hooks and put back the hooks they replaced'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "run" -d 'What an installed hook runs: `check` on the staged change (pre-commit) or on the commits being pushed (pre-push)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand rules" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand explain" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand completions" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand man" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand schema" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l agent -d 'Only wire loki-gate into this coding agent\'s hooks (its project settings file, merged; repeatable)' -r -f -a "claude\t'Claude Code (`.claude/settings.json`)'
codex\t'OpenAI Codex CLI (`.codex/hooks.json`)'
cursor\t'Cursor (`.cursor/hooks.json`)'
gemini\t'Gemini CLI (`.gemini/settings.json`)'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l force -d 'Overwrite an existing config file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l hooks -d 'Also install the git hooks (`loki-gate hook install`)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand init" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l agent -d 'Whose hook protocol the JSON on stdin and the answer follow (for `doctor`: the agent to check; every agent whose settings are here when left out)' -r -f -a "claude\t'Claude Code (`.claude/settings.json`)'
codex\t'OpenAI Codex CLI (`.codex/hooks.json`)'
cursor\t'Cursor (`.cursor/hooks.json`)'
gemini\t'Gemini CLI (`.gemini/settings.json`)'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -s C -l repo -d 'Repository to gate (git discovery upward from here)' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l base -d 'Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l format -d 'Report format' -r -f -a "text\t''
concise\t'One line per finding (`path:line:col: severity[rule] message`), then the summaries'
json\t''
junit\t'JUnit XML: one test suite per gate, one failing test case per error'
sarif\t''
github\t''
gitlab\t'GitLab Code Quality JSON (merge request widget)'
markdown\t''
agent\t'The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -s o -l output -d 'Write the report to FILE (atomically) instead of stdout' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l config -d 'Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l state-dir -d 'State directory [default: .loki-gate/ at the repo root]' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -s W -l warn -d 'Set a rule or a whole gate to warn (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -s D -l deny -d 'Set a rule or a whole gate to deny (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -s A -l allow -d 'Hide a rule or a whole gate (repeatable)' -r
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l baseline -d 'Report only findings whose fingerprints are not in this baseline file' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l write-baseline -d 'Record the fingerprints of this run\'s findings in FILE and pass' -r -F
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l fail-level -d 'The least severe finding that fails the run: error (what blocks), warning or note' -r -f -a "error\t'What the gates block on (the default)'
warning\t'A warning fails the run too'
note\t'Any finding fails the run'"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l color -d 'When to use colour (never when NO_COLOR is set, unless `always`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l staged -d 'Gate only what is staged (hook mode)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l all-files -d 'Ignore the diff; gate every tracked file'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l no-cache -d 'Neither read nor write the parse cache in the state directory'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l show-settings -d 'Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l statistics -d 'Count the findings per rule instead of listing them (text, concise or json)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l exit-zero -d 'Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -s q -l quiet -d 'Print less: only findings, no summary line'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -s v -l verbose -d 'Print more: timings and skipped files'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -l comment -d 'Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand agent" -s V -l version -d 'Print version'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "static" -d 'The project\'s own linters and type checkers (ruff, mypy, eslint, shellcheck), on the lines the change touched'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "evidence" -d 'Refuse "done" without a non-empty diff since the run start AND green tests'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "mock" -d 'Test integrity: tautological assertions, tests that assert nothing, empty and skipped tests'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "mutation" -d 'Tests bent to match the code in the commits since the base: changed expectations, deleted or weakened assertions, deleted or skipped tests'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "docs" -d 'Documentation: a README at the root, docs that keep up with the code, doc comments on the public symbols a change touches'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "heldout" -d 'Held-out acceptance checks, sealed outside the workspace and run at the ship gate'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "uncertainty" -d 'Stuck detection across runs: no change, oscillation, a split council, the same failing tests; escalates (exit 3) once per episode'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "council" -d 'Blind LLM reviewers of the change: severity blocking, a two-thirds quorum, a devil\'s advocate on unanimous approval'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "check" -d 'Every enabled gate in one run, one combined report, the worst outcome\'s exit status'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "comment" -d 'Post saved JSON reports as the one sticky comment on the pull request (GitHub Actions)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "render" -d 'Render saved JSON reports in another format (--format, -o): SARIF or annotations from one run'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "hook" -d 'Install, remove or run loki-gate\'s git hooks (pre-commit, pre-push)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "rules" -d 'List every rule with its default level (or one gate\'s)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "explain" -d 'Print one rule\'s documentation'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "completions" -d 'Print the shell completion script for SHELL (bash, zsh, fish, elvish, powershell)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "man" -d 'Print the man page (roff): `loki-gate man > loki-gate.1`'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "schema" -d 'Print the JSON Schema of .loki-gate.yaml (editors complete and check the file with it)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "init" -d 'Write .loki-gate.yaml for the stack found here (every key, its value and a comment)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "agent" -d 'Answer a coding agent\'s hook (its JSON on stdin) in that agent\'s protocol: record the session start, gate "done", advise after an edit'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and not __fish_seen_subcommand_from static evidence mock mutation docs heldout uncertainty council check comment render hook rules explain completions man schema init agent help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and __fish_seen_subcommand_from evidence" -f -a "start" -d 'Record the run-start anchor (HEAD and the time); starts a new run'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and __fish_seen_subcommand_from heldout" -f -a "select" -d 'Reserve a deterministic slice of a checklist, write it to DIR, seal it; never reselects'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "install" -d 'Put the hooks where git runs them (core.hooksPath respected), keeping any hook already there'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "uninstall" -d 'Remove loki-gate\'s hooks and put back the hooks they replaced'
complete -c loki-gate -n "__fish_loki_gate_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "run" -d 'What an installed hook runs: `check` on the staged change (pre-commit) or on the commits being pushed (pre-push)'
