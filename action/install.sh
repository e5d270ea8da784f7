#!/usr/bin/env bash
# Install loki-gate into LOKI_GATE_ROOT (restored from the cache when it is
# there) and put it on PATH for the steps after this one.
set -euo pipefail

root="${LOKI_GATE_ROOT:?}"
if [ -x "$root/bin/loki-gate" ]; then
  echo "loki-gate: using the cached build in $root"
else
  if ! command -v cargo >/dev/null 2>&1; then
    echo "::error title=loki-gate::cargo is needed to build loki-gate: add a Rust toolchain step (e.g. dtolnay/rust-toolchain@stable) before this action"
    exit 1
  fi
  if [ -n "${INPUT_VERSION:-}" ]; then
    echo "loki-gate: building loki-gate ${INPUT_VERSION} from crates.io"
    cargo install --locked --root "$root" loki-gate --version "${INPUT_VERSION}"
  else
    echo "loki-gate: building the action's own checkout (${GITHUB_ACTION_PATH:?})"
    cargo install --locked --root "$root" --path "${GITHUB_ACTION_PATH}"
  fi
fi
echo "$root/bin" >> "${GITHUB_PATH:?}"
"$root/bin/loki-gate" --version
