#!/usr/bin/env bash
# What the install step puts on PATH, and the cache keys:
# - `version`: the release to download, when there is one to ask for: the
#   `version` input, else the version the action's own checkout declares
#   when `uses:` names a release tag (v1.2.3, or the moving v1). A branch
#   or a commit (`@main`, `@<sha>`) has no release: it is built from source.
# - `target`: the release artifact for this runner's OS and architecture.
# - `bin-key`: the release and target, or a hash of the action's own source
#   (so a moving ref such as @main rebuilds when the code changes).
# - `state`, `state-key`: the state directory (`.loki-gate` at the root of
#   the repository `working-directory` is in) and the branch (and
#   directory) it is kept for.
# - `ref`, `repository`: the action's own, from github.action_ref and
#   github.action_repository, or, where a runner leaves those empty (inside
#   composite actions), from the path it checked the action out to
#   (_actions/OWNER/NAME/REF).
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:?}"
ref="${ACTION_REF:-}"
repository="${ACTION_REPOSITORY:-}"
case "$action_path" in
  */_actions/*/*/*)
    checked_out="${action_path##*/_actions/}"
    owner="${checked_out%%/*}"
    rest="${checked_out#*/}"
    [ -n "$repository" ] || repository="${owner}/${rest%%/*}"
    [ -n "$ref" ] || ref="${rest#*/}"
    ;;
esac

dir="${INPUT_WORKING_DIRECTORY:-}"
dir="${dir%/}"
top=$(git -C "${dir:-.}" rev-parse --show-toplevel 2>/dev/null) || top="$dir"
state="${top:+$top/}.loki-gate"

version="${INPUT_VERSION:-}"
version="${version#v}"
if [ -z "$version" ]; then
  case "$ref" in
    v[0-9]*)
      version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' "$action_path/Cargo.toml" | head -n 1)
      ;;
  esac
fi
if [ -n "$version" ] && ! printf '%s' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'; then
  echo "::error title=loki-gate::version \`${INPUT_VERSION:-$version}\` is not a release version (X.Y.Z): see the releases of the loki-gate repository"
  exit 1
fi

case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
  Linux/X64) target=x86_64-unknown-linux-musl ;;
  Linux/ARM64) target=aarch64-unknown-linux-musl ;;
  macOS/X64) target=x86_64-apple-darwin ;;
  macOS/ARM64) target=aarch64-apple-darwin ;;
  Windows/X64 | Windows/ARM64) target=x86_64-pc-windows-msvc ;;
  *) target="" ;;
esac

if [ -n "$version" ] && [ -n "$target" ]; then
  bin_key="release-${version}-${target}"
else
  source_hash=$(cd "$action_path" && find Cargo.toml Cargo.lock src hooks -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)
  bin_key="src-${source_hash:0:16}"
fi

# The branch being worked on: the pull request's head branch, else the pushed ref.
branch="${GITHUB_HEAD_REF:-${GITHUB_REF_NAME:-detached}}"
# Cache keys are plain text; keep them to characters every cache backend takes.
state_key=$(printf '%s' "${branch}${dir:+-$dir}" | tr -c 'A-Za-z0-9._-' '-')

{
  echo "version=${version}"
  echo "target=${target}"
  echo "bin-key=${bin_key}"
  echo "ref=${ref}"
  echo "repository=${repository}"
  echo "state=${state}"
  echo "state-key=${state_key}"
} >> "${GITHUB_OUTPUT:?}"
echo "loki-gate: build key ${bin_key}, state ${state} kept for ${state_key}"
