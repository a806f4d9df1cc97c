"""Pieces the game cores share (each game's folder, ``paiju/<game>/``), written once.

Standard library and :mod:`paiju.errors` only, like the cores: each module is small and
named for what it holds (seats, the notation's tokenizer, positions, input checks, views).

>>> from paiju.kit.seats import SeatEnum
>>> SeatEnum.__members__
mappingproxy({})
"""
