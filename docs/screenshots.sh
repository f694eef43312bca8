#!/usr/bin/env bash
# The README's screenshots of the adjudication page, regenerated from the page as it is: the
# browser test (tests/browser.rs, headless Chromium) takes them at Ke Jie vs AlphaGo move 288 of
# 003's mechanical replay, 1400 px wide (desktop) and 420 px wide (phone), light scheme; the end
# of that game (its last move, the passes that end it, a string marked dead: the scoring phase)
# at 1366x768 (tests/browser/reads.rs); and a match watched live (tests/browser/watch.rs). This
# script runs it into a folder of its own and copies them into docs/.
# Needs Debian's chromium and chromium-driver (README: Install). Usage: bash docs/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
M3GO_BROWSER_REQUIRED=1 M3GO_BROWSER_OUT="$out" cargo test --quiet --test browser
cp "$out/serve-kejie-288-1400-light.png" docs/serve-desktop.png
cp "$out/serve-kejie-288-420-light.png" docs/serve-phone.png
cp "$out/serve-kejie-end-1366-light.png" docs/serve-end.png
cp "$out/watch-match.png" docs/serve-watch.png
echo "docs/serve-desktop.png, docs/serve-phone.png, docs/serve-end.png (the end of a game) and docs/serve-watch.png (a match watched live, /watch) regenerated"
