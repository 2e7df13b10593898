#!/usr/bin/env bash
# What `npm run dev` and `npm test` need from Debian, installed when missing:
#   sudo bash scripts/setup.sh     installs what is missing (with nothing missing: no apt-get at all)
# `npm test` and `npm run dev` run it first: as root it installs; as any other user, when something
# is missing, it stops at once (exit 1), naming the packages and the command above.
# When Chromium is there and it runs as the user (not under sudo), it also places the Chromium wrapper
# Miniflare launches (scripts/install-chromium.sh, in that user's cache).
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t APERTIUM < <(bash scripts/install-apertium.sh --list)
OTHERS=(
  # Local Browser Rendering (vector-only PDF pages) and the browser end-to-end test.
  chromium
  # Independent readers the export tests check files with: pdftotext/pdfinfo, xmllint and the XHTML DTDs.
  poppler-utils libxml2-utils w3c-sgml-lib
  # OCR models the npm registry does not publish (scripts/models.mjs reads Debian's tessdata):
  # seeded by `npm run dev` by default (rus, chi_sim_vert, kor_vert) and read by the tests.
  tesseract-ocr-rus tesseract-ocr-chi-sim-vert tesseract-ocr-kor-vert
)

absent() { for p in "$@"; do [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] || echo "$p"; done; }
mapfile -t apertium < <(absent "${APERTIUM[@]}")
mapfile -t others < <(absent "${OTHERS[@]}")
missing=("${apertium[@]}" "${others[@]}")

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: install them with:  sudo bash scripts/setup.sh" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Apertium's server package ships a service unit; with no init system here, keep its postinst
  # from starting it (the project starts the server itself, scripts/apertium.mjs).
  policy="${POLICY_RC_D:-/usr/sbin/policy-rc.d}"
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  if [ ${#apertium[@]} -gt 0 ]; then apt-get install -y -qq --no-install-recommends "${apertium[@]}" >/dev/null; fi
  if [ ${#others[@]} -gt 0 ]; then apt-get install -y -qq "${others[@]}" >/dev/null; fi
  echo "setup: installed ${#missing[@]} package(s)"
else
  echo "setup: all $((${#APERTIUM[@]} + ${#OTHERS[@]})) Debian packages installed"
fi

# The wrapper lives in the user's cache: under sudo it is left to the user's own `npm test`/`npm run dev`.
if [ -z "${SUDO_USER:-}" ]; then bash scripts/install-chromium.sh; fi
