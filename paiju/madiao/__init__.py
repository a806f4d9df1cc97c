"""Ma Diao (馬吊): cards, tricks, 開沖 and the settlement, in pure standard-library Python.

>>> from paiju.madiao.chong import score_sequence
>>> score_sequence("9m", "87654321m")
[2, 2, 2, 2, 2, 2, 2, 3]
"""
