#!/usr/bin/env bash
# System packages the GUI tests and scripts/screenshots.py need on a fresh Debian/Ubuntu machine:
# the shared libraries PySide6's offscreen platform loads (found with ldd over QtCore/QtGui/
# QtWidgets and plugins/platforms/libqoffscreen.so) and CJK fonts, without which Chinese text
# renders as empty boxes in the screenshots.
#
# Idempotent and quiet: when every package is installed it does nothing (no apt-get update).
# Installs as root or with password-less sudo; otherwise it warns and exits 0. On a machine without apt-get it only reports and exits 0
# (Windows/macOS CI runners bring these libraries with the OS).
set -euo pipefail

# One entry per need; "a|b" = first name apt knows (package names changed in Debian 13 / Ubuntu 24.04).
NEEDS=(
  "fonts-noto-cjk"          # Chinese glyphs (Noto Sans CJK SC)
  "fontconfig"              # fc-list/fc-match, font discovery
  "libfontconfig1"
  "libfreetype6"
  "libegl1"
  "libgl1"
  "libxkbcommon0"
  "libdbus-1-3"
  "libglib2.0-0t64|libglib2.0-0"
  "libx11-6"
)

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "ci_system_deps: no dpkg/apt-get here; install the equivalents of: ${NEEDS[*]}" >&2
  exit 0
fi

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing=()
for need in "${NEEDS[@]}"; do
  IFS='|' read -r -a names <<<"$need"
  ok=0
  for name in "${names[@]}"; do
    if installed "$name"; then ok=1; break; fi
  done
  [[ $ok == 1 ]] || missing+=("$need")
done

if [[ ${#missing[@]} == 0 ]]; then
  exit 0
fi

SUDO=""
if [[ $(id -u) != 0 ]]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    # Not fatal: the tests still run, Chinese may render as boxes in screenshots.
    echo "ci_system_deps: missing ${missing[*]}; not root and no password-less sudo," \
      "install them by hand" >&2
    exit 0
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null

to_install=()
for need in "${missing[@]}"; do
  IFS='|' read -r -a names <<<"$need"
  chosen=""
  for name in "${names[@]}"; do
    if apt-cache show "$name" >/dev/null 2>&1; then chosen=$name; break; fi
  done
  if [[ -z $chosen ]]; then
    echo "ci_system_deps: no package named ${need//|/ or } in the apt sources; skipped" >&2
    continue
  fi
  to_install+=("$chosen")
done

[[ ${#to_install[@]} == 0 ]] && exit 0
echo "ci_system_deps: installing ${to_install[*]}"
$SUDO apt-get install -y -qq --no-install-recommends "${to_install[@]}" >/dev/null
if command -v fc-cache >/dev/null 2>&1; then
  fc-cache -f >/dev/null 2>&1 || true
fi
