#!/usr/bin/env bash
# Run `loki-gate check` once into a JSON report (posting the sticky comment
# with --comment), then render that one report as annotations and as SARIF.
# The step itself never fails: verdict.sh decides, after the state is saved.
set -uo pipefail

out_dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
report="$out_dir/loki-gate-report.json"
sarif="$out_dir/loki-gate.sarif"
rm -f "$report" "$sarif"

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
      if [ -n "$before" ] && [ "$before" != "0000000000000000000000000000000000000000" ] &&
        git cat-file -e "${before}^{commit}" 2>/dev/null; then
        base="$before"
      fi
      ;;
  esac
fi

args=(check --format json --output "$report")
[ -n "$base" ] && args+=(--base "$base")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_GATES:-}" ] && args+=(--gates "$INPUT_GATES")
[ "${INPUT_COMMENT:-true}" = "true" ] && args+=(--comment)

echo "loki-gate ${args[*]}"
loki-gate "${args[@]}"
code=$?

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
