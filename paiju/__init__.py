"""paiju (牌局): Mazhan mahjong and Ma Diao, from the rules core to the table.

The game cores (:mod:`paiju.mazhan`, :mod:`paiju.madiao`) are pure Python over plain data
and import only the standard library; everything else is built on top of them.

>>> import paiju
>>> paiju.__version__
'0.1.0'
"""

__version__ = "0.1.0"
