#!/usr/bin/env bash
# Local Browser Rendering without the internet: Miniflare's BROWSER binding launches the Chrome
# build it would normally download into wrangler's cache. Debian's chromium stands in for it
# through a wrapper placed at that path (the sandbox needs privileges containers lack).
set -euo pipefail

if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# Keep in step with miniflare's BROWSER_VERSION (node_modules/miniflare/dist/src/index.js).
VERSION="$(grep -o 'BROWSER_VERSION = "[0-9.]*"' node_modules/miniflare/dist/src/index.js 2>/dev/null | grep -o '[0-9][0-9.]*' || echo 126.0.6478.182)"
DIR="${XDG_CACHE_HOME:-$HOME/.cache}/.wrangler/chrome/linux-${VERSION}/chrome-linux64"
mkdir -p "$DIR"
cat > "$DIR/chrome" <<'WRAP'
#!/bin/sh
exec /usr/bin/chromium --no-sandbox --disable-dev-shm-usage "$@"
WRAP
chmod +x "$DIR/chrome"
echo "chromium wrapper: $DIR/chrome"
