#!/usr/bin/env bash
# Installs what the project needs, only when missing: Debian packages, then `npm ci`
# when package-lock.json changed since the last install. Safe to run again and again.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

# package → a file that proves it is installed
declare -A PROOF=(
  [ffmpeg]=/usr/bin/ffmpeg
  [chromium]=/usr/bin/chromium
  [espeak-ng]=/usr/bin/espeak-ng
  [libespeak-ng1]=/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1
  [pocketsphinx]=/usr/bin/pocketsphinx
  [pocketsphinx-en-us]=/usr/share/pocketsphinx/model/en-us/en-us
)
missing=()
for pkg in "${!PROOF[@]}"; do
  if [ ! -e "${PROOF[$pkg]}" ] && ! dpkg -s "$pkg" >/dev/null 2>&1; then missing+=("$pkg"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  $SUDO apt-get update -qq >&2 || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

stamp=node_modules/.lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: npm ci (package-lock.json changed)" >&2
  npm ci --no-audit --no-fund >&2
  echo "$want" > "$stamp"
fi
