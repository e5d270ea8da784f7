#!/usr/bin/env bash
# Run `loki-gate check` once into a JSON report (posting the sticky comment
# with --comment), then render that one report as annotations and as SARIF.
# The step itself never fails: verdict.sh decides, after the state is saved.
set -uo pipefail

out_dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
report="$out_dir/loki-gate-report.json"
sarif="$out_dir/loki-gate.sarif"
errors="$out_dir/loki-gate-stderr.txt"
rm -f "$report" "$sarif" "$errors"

# Could not run: the step's outputs say so, and each `error:` line of
# loki-gate's stderr becomes an annotation on the run.
could_not_run() {
  {
    echo "exit-code=2"
    echo "outcome=error"
  } >> "${GITHUB_OUTPUT:?}"
  exit 0
}

if [ -n "${INPUT_WORKING_DIRECTORY:-}" ]; then
  if ! cd "$INPUT_WORKING_DIRECTORY" 2>/dev/null; then
    echo "::error title=loki-gate could not run::working-directory \`${INPUT_WORKING_DIRECTORY}\` is not a directory of the checkout"
    could_not_run
  fi
fi
# More arguments for `loki-gate check`, split at whitespace (no quoting).
read -r -a extra <<< "${INPUT_ARGS:-}"

# actions/checkout fetches one commit by default. A gate that compares with
# history it does not have cannot say "passed" (mutation is inconclusive), so
# deepen the clone until `$@` succeeds: a bounded number of fetches, each
# twice as deep as the one before (50, 100, ... 1600 commits), then the rest.
deepen_until() {
  local depth=50 tries=0
  while ! "$@" >/dev/null 2>&1; do
    [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ] || return 0
    if [ "$tries" -ge 6 ]; then
      git fetch --quiet --no-tags --unshallow origin 2>/dev/null || true
      "$@" >/dev/null 2>&1 ||
        echo "::warning title=loki-gate::the history the gates compare with could not be fetched; use actions/checkout with fetch-depth: 0"
      return 0
    fi
    echo "loki-gate: the clone is shallow; fetching $depth more commit(s) of history"
    local before_fetch
    before_fetch=$(cat "$(git rev-parse --git-path shallow)" 2>/dev/null)
    if ! git fetch --quiet --no-tags --deepen="$depth" origin; then
      echo "::warning title=loki-gate::could not deepen the shallow clone; use actions/checkout with fetch-depth: 0"
      return 0
    fi
    # Nothing more came: the history ends here (a root commit).
    [ "$(cat "$(git rev-parse --git-path shallow)" 2>/dev/null)" != "$before_fetch" ] || return 0
    depth=$((depth * 2))
    tries=$((tries + 1))
  done
}

has_commit() { git cat-file -e "$1^{commit}"; }

base="${INPUT_BASE:-}"
if [ -z "$base" ]; then
  case "${GITHUB_EVENT_NAME:-}" in
    pull_request | pull_request_target)
      if [ -n "${GITHUB_BASE_REF:-}" ]; then
        base="origin/${GITHUB_BASE_REF}"
        if ! git rev-parse --verify --quiet "${base}^{commit}" >/dev/null; then
          # actions/checkout fetches one commit by default: get the base branch.
          git fetch --quiet --no-tags origin \
            "+refs/heads/${GITHUB_BASE_REF}:refs/remotes/origin/${GITHUB_BASE_REF}" ||
            echo "::warning title=loki-gate::could not fetch the base branch ${GITHUB_BASE_REF}; use actions/checkout with fetch-depth: 0"
        fi
      fi
      ;;
    push)
      # The commit the branch pointed at before this push, when it is known here.
      before=$(sed -n 's/.*"before": *"\([0-9a-f]\{40\}\)".*/\1/p' "${GITHUB_EVENT_PATH:-/dev/null}" 2>/dev/null | head -n 1)
      if [ -n "$before" ] && [ "$before" != "0000000000000000000000000000000000000000" ]; then
        deepen_until has_commit "$before"
        has_commit "$before" 2>/dev/null && base="$before"
      fi
      ;;
  esac
fi
if [ -n "$base" ]; then
  deepen_until git merge-base "$base" HEAD
else
  # The default base is HEAD~1 (or origin/HEAD's merge base).
  deepen_until has_commit HEAD~1
fi

# A partial clone (`--filter=blob:none`) holds no blobs of older revisions;
# git fetches one when git reads it, libgit2 (which the gates read through)
# cannot. Let git read the range once, so no gate meets a missing old version
# (mutation would be inconclusive; line-filtered gates would count such files
# as changed throughout).
if git config --get-regexp '^remote\..*\.promisor$' 2>/dev/null | grep -q ' true$'; then
  range_base=$(git merge-base "${base:-HEAD~1}" HEAD 2>/dev/null)
  if [ -n "$range_base" ]; then
    echo "loki-gate: a partial clone; fetching the file versions of $range_base..HEAD"
    git log -p --format= "$range_base..HEAD" >/dev/null 2>&1 ||
      echo "::warning title=loki-gate::could not fetch the file versions the gates compare; use actions/checkout without filter"
  fi
fi

args=(check --format json --output "$report")
[ -n "$base" ] && args+=(--base "$base")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_GATES:-}" ] && args+=(--gates "$INPUT_GATES")
[ "${INPUT_COMMENT:-true}" = "true" ] && args+=(--comment)
args+=(${extra[@]+"${extra[@]}"})

echo "loki-gate ${args[*]}"
loki-gate "${args[@]}" 2> "$errors"
code=$?
cat "$errors" >&2
if [ "$code" != 0 ] && [ "$code" != 1 ] && [ "$code" != 3 ] && [ ! -s "$report" ]; then
  # No report to render: what loki-gate said is the annotation.
  grep '^error: ' "$errors" | head -n 10 | while IFS= read -r line; do
    line="${line#error: }"
    line="${line//'%'/'%25'}"
    echo "::error title=loki-gate could not run::${line}"
  done
fi

case "$code" in
  0) outcome=pass ;;
  1) outcome=blocked ;;
  3) outcome=escalated ;;
  *) outcome=error ;;
esac
{
  echo "exit-code=$code"
  echo "outcome=$outcome"
} >> "${GITHUB_OUTPUT:?}"

if [ -s "$report" ]; then
  # The report for the log, then the same findings as annotations and SARIF.
  loki-gate render --report "$report" --color never
  loki-gate render --report "$report" --format github
  loki-gate render --report "$report" --format sarif --output "$sarif" &&
    echo "sarif=$sarif" >> "$GITHUB_OUTPUT"
  echo "report=$report" >> "$GITHUB_OUTPUT"
fi
exit 0
