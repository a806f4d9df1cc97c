"""Build ``paiju/web/paiju-tiles.woff2``: the Chinese characters the page uses, taken from
WenQuanYi Micro Hei (Debian's fonts-wqy-microhei; Apache 2.0 / GPLv3), so that a machine
without a CJK font still shows every tile, card and label.

    python scripts/build_font.py   (needs fonttools and brotli, and the Debian font)
"""

from __future__ import annotations

import re
from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
OUT = ROOT / "paiju" / "web" / "paiju-tiles.woff2"
EXTRA = "一二三四五六七八九十萬筒索東南西北白發中梅蘭菊竹春夏秋冬千百文空沒半貫■◀▶—·"


def main() -> None:
    text = EXTRA
    for path in [
        *(ROOT / "paiju" / "web").glob("*.js"),
        *(ROOT / "paiju" / "web").glob("*.html"),
        *(ROOT / "paiju" / "mazhan").glob("*.py"),
        *(ROOT / "paiju" / "madiao").glob("*.py"),
        ROOT / "paiju" / "server" / "rooms.py",
    ]:
        text += "".join(re.findall(r"[^\x00-\x7f]", path.read_text(encoding="utf-8")))
    chars = "".join(sorted(set(text)))
    options = subset.Options()
    options.flavor = "woff2"
    options.font_number = 0
    options.layout_features = ["*"]
    font = subset.load_font(str(SOURCE), options)
    sub = subset.Subsetter(options)
    sub.populate(text=chars)
    sub.subset(font)
    subset.save_font(font, str(OUT), options)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(chars)} characters)")


if __name__ == "__main__":
    main()
