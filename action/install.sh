#!/usr/bin/env bash
# Put loki-gate on PATH for the steps after this one, from the first of:
# 1. the copy in LOKI_GATE_ROOT that the cache restored;
# 2. the release archive for this runner (RELEASE_VERSION, RELEASE_TARGET
#    from cache-key.sh), checked against the SHA-256 published beside it;
# 3. when no release matches (a branch or a commit of the action, or no
#    archive for this runner), a build from source with cargo: the action's
#    own checkout, or the crates.io package of the `version` input.
# A download that fails for any other reason, or an archive whose checksum
# differs, stops the step: it never falls back to something unchecked.
set -euo pipefail

root="${LOKI_GATE_ROOT:?}"
exe=loki-gate
[ "${RUNNER_OS:-}" = Windows ] && exe=loki-gate.exe
version="${RELEASE_VERSION:-}"
target="${RELEASE_TARGET:-}"
fail() {
  echo "::error title=loki-gate::$1"
  exit 1
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

# Download $1 to $2: prints the HTTP status (000 when there was no answer).
fetch() {
  curl --silent --show-error --location --proto-redir '=https' --retry 3 --retry-connrefused \
    --connect-timeout 20 --max-time 300 --output "$2" --write-out '%{http_code}' "$1" || true
}

# Install the release archive; sets `missing` when the release has no archive for this runner.
missing=""
from_release() {
  local releases="${LOKI_GATE_RELEASES_URL:-${GITHUB_SERVER_URL:-https://github.com}/${ACTION_REPOSITORY:?}/releases/download}"
  local archive="loki-gate-${target}.tar.gz"
  [ "${target}" = x86_64-pc-windows-msvc ] && archive="loki-gate-${target}.zip"
  local url="${releases}/v${version}/${archive}"
  local work
  work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/loki-gate.XXXXXX")
  echo "loki-gate: downloading ${url}"
  local status
  status=$(fetch "$url" "$work/$archive")
  case "$status" in
    200) ;;
    404)
      missing=yes
      rm -rf "$work"
      return 0
      ;;
    *) fail "could not download ${url} (HTTP ${status}): try again, or set the \`version\` input to a release that exists" ;;
  esac
  status=$(fetch "$url.sha256" "$work/$archive.sha256")
  [ "$status" = 200 ] || fail "could not download the checksum ${url}.sha256 (HTTP ${status}): the archive is not installed unchecked"
  local want got
  want=$(tr -s ' \t\r' ' ' < "$work/$archive.sha256" | cut -d' ' -f1 | tr 'A-F' 'a-f')
  got=$(sha256_of "$work/$archive")
  printf '%s' "$want" | grep -Eq '^[0-9a-f]{64}$' || fail "${url}.sha256 holds no SHA-256: the archive is not installed unchecked"
  [ "$want" = "$got" ] || fail "the checksum of ${archive} is ${got}, but the release publishes ${want}: not installed"
  echo "loki-gate: checksum ${got} matches ${archive}.sha256"
  case "$archive" in
    *.zip) (cd "$work" && { unzip -q "$archive" || powershell -NoProfile -Command "Expand-Archive -Path '$archive' -DestinationPath ."; }) ;;
    *) tar -xzf "$work/$archive" -C "$work" ;;
  esac
  local found
  found=$(find "$work" -type f -name "$exe" | head -n 1)
  [ -n "$found" ] || fail "${archive} holds no ${exe}"
  mkdir -p "$root/bin"
  cp "$found" "$root/bin/$exe.partial"
  chmod +x "$root/bin/$exe.partial"
  mv -f "$root/bin/$exe.partial" "$root/bin/$exe"
  rm -rf "$work"
}

from_source() {
  command -v cargo >/dev/null 2>&1 ||
    fail "$1, and cargo is not there to build loki-gate from source: pin a release tag (uses: …/loki-gate@vX.Y.Z) or add a Rust toolchain step"
  echo "loki-gate: $1; building from source"
  if [ -n "${INPUT_VERSION:-}" ]; then
    cargo install --locked --root "$root" loki-gate --version "${version}"
  else
    cargo install --locked --root "$root" --path "${GITHUB_ACTION_PATH:?}"
  fi
}

if [ -x "$root/bin/$exe" ]; then
  echo "loki-gate: using the cached copy in $root"
elif [ -n "$version" ] && [ -n "$target" ]; then
  from_release
  [ -z "$missing" ] || from_source "release v${version} has no archive for ${target}"
elif [ -n "$version" ]; then
  from_source "no release archive is built for ${RUNNER_OS:-this OS}/${RUNNER_ARCH:-this architecture}"
else
  from_source "the action's ref (${ACTION_REF:-unknown}) is not a release tag"
fi
echo "$root/bin" >> "${GITHUB_PATH:?}"
"$root/bin/$exe" --version
