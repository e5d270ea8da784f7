#!/usr/bin/env bash
# The action's cache keys: the loki-gate build (a crates.io version, or a
# hash of the action's own source, so a moving ref such as @main rebuilds
# when the code changes) and the branch the state directory is kept for.
set -euo pipefail

if [ -n "${INPUT_VERSION:-}" ]; then
  bin_key="crates-${INPUT_VERSION}"
else
  cd "${GITHUB_ACTION_PATH:?}"
  source_hash=$(find Cargo.toml Cargo.lock src hooks -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)
  bin_key="src-${source_hash:0:16}"
fi

# The branch being worked on: the pull request's head branch, else the pushed ref.
branch="${GITHUB_HEAD_REF:-${GITHUB_REF_NAME:-detached}}"
# Cache keys are plain text; keep them to characters every cache backend takes.
branch=$(printf '%s' "$branch" | tr -c 'A-Za-z0-9._-' '-')

{
  echo "bin-key=${bin_key}"
  echo "branch=${branch}"
} >> "${GITHUB_OUTPUT:?}"
echo "loki-gate: build key ${bin_key}, state kept for branch ${branch}"
