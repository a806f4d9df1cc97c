"""Mazhan mahjong (馬站麻將): tiles, hands and scoring, in pure standard-library Python.

>>> from paiju.mazhan import is_complete
>>> is_complete("123m456p789s111z22z")
True
"""

from paiju.mazhan.hand import decompositions, is_complete, waiting_faces
from paiju.mazhan.tiles import Tile, format_tiles, parse_tiles

__all__ = ["Tile", "decompositions", "format_tiles", "is_complete", "parse_tiles", "waiting_faces"]
