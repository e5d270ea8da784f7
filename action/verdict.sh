#!/usr/bin/env bash
# Fail the step per the `fail-on` input, from the exit status run.sh recorded.
set -euo pipefail

code="${EXIT_CODE:-}"
if [ -z "$code" ]; then
  echo "::error title=loki-gate::loki-gate did not run: see the steps above"
  exit 1
fi
case "${INPUT_FAIL_ON:-blocked}" in
  blocked) fail=$([ "$code" != 0 ] && echo yes || echo no) ;;
  error) fail=$([ "$code" = 2 ] && echo yes || echo no) ;;
  never) fail=no ;;
  *)
    echo "::error title=loki-gate::fail-on must be blocked, error or never, not \`${INPUT_FAIL_ON}\`"
    exit 1
    ;;
esac
if [ "$fail" = yes ]; then
  echo "loki-gate: exit $code; failing the step (fail-on: ${INPUT_FAIL_ON:-blocked})"
  exit 1
fi
echo "loki-gate: exit $code; the step passes (fail-on: ${INPUT_FAIL_ON:-blocked})"
