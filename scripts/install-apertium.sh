#!/usr/bin/env bash
# Installs the local machine-translation provider: Debian's Apertium HTTP server (apertium-apy)
# and the language pairs the service offers offline (English plus the Romance pairs).
# Idempotent: when every package is already installed it does nothing (no apt-get update).
# Needs root (or sudo) and Debian 12 apt sources. Start the server with `node scripts/apertium.mjs start`.
# `--list` prints the packages, one a line, and installs nothing (scripts/setup.sh reads it).
set -euo pipefail

PACKAGES=(
  apertium-apy
  # English
  apertium-eng-spa apertium-eng-cat apertium-en-gl
  # Romance
  apertium-spa-cat apertium-fr-es apertium-es-pt apertium-spa-ita apertium-es-gl
  apertium-fra-cat apertium-por-cat apertium-cat-ita apertium-pt-gl
)
if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${PACKAGES[@]}"
  exit 0
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" != "installed" ]; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "apertium: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

echo "apertium: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# The package ships a service unit; there is no init system here, and the project starts the
# server itself (scripts/apertium.mjs), so keep postinst from trying to start it.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod +x "$policy"
  created_policy=1
fi
cleanup() { if [ "$created_policy" -eq 1 ]; then $SUDO rm -f "$policy"; fi; }
trap cleanup EXIT

$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "apertium: installed; modes in /usr/share/apertium/modes"
