#!/usr/bin/env bash
# The page's CJK subset font (m3go-cjk.woff2): the few CJK glyphs the page and its figure show
# outside the quoted rule texts — the Chinese coordinates 一…九, the stones' symbols 黑 白 华 花,
# the figure's title and legend, the page's own labels (直弈 全息 上层, 机械式排局, …) — cut from
# Noto Sans CJK SC (SIL Open Font License 1.1, OFL.txt beside this script) with fontTools'
# pyftsubset, so that a machine without a CJK font still reads the board (style.css names it
# after the system's CJK fonts: a machine that has one keeps its own).
#
# The glyphs are every CJK character of the files listed below (the page's own files and the
# engine's figure code: comments included, a few glyphs more than needed): glyphs.txt, written
# here, is the list subset. Run again after adding CJK text to one of them.
# Needs Debian's fonts-noto-cjk, fonttools and python3-brotli (apt-get install fonts-noto-cjk
# fonttools python3-brotli). Usage: bash src/serve/page/font/subset.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
font="${NOTO_CJK:-/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc}"
# Noto Sans CJK SC in Debian's collection (JP, KR, SC, TC, HK, then the Mono ones)
number=2
/usr/bin/python3 - "$here/glyphs.txt" \
  "$root"/src/serve/page/index.html "$root"/src/serve/page/*.js \
  "$root"/crates/engine/src/formats/render/svg.rs "$root"/crates/engine/src/formats/render.rs \
  "$root"/crates/engine/src/board/coord.rs "$root"/crates/engine/src/game/order.rs <<'PY'
import sys
def cjk(c):
    o = ord(c)
    return 0x2E80 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF
chars = set()
for f in sys.argv[2:]:
    chars |= {c for c in open(f, encoding="utf-8").read() if cjk(c)}
with open(sys.argv[1], "w", encoding="utf-8") as out:
    out.write("".join(sorted(chars)) + "\n")
PY
pyftsubset "$font" --font-number="$number" --text-file="$here/glyphs.txt" \
  --flavor=woff2 --layout-features='*' --no-hinting --desubroutinize \
  --name-IDs='*' --output-file="$here/m3go-cjk.woff2"
echo "$(wc -m < "$here/glyphs.txt") characters, $(wc -c < "$here/m3go-cjk.woff2") bytes: $here/m3go-cjk.woff2"
