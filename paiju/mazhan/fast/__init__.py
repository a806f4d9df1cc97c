"""Vectorised helpers (NumPy) built on the pure cores; never imported by them.

- :mod:`paiju.mazhan.fast.batch`: complete-hand checks over many hands at once (suit keys or
  34-count rows, the engine's tables).

>>> import numpy as np
>>> from paiju.mazhan.fast.batch import is_complete_batch, suit_keys_batch
>>> counts = np.zeros((1, 34), dtype=np.uint8); counts[0, :3] = 1; counts[0, 27] = 2
>>> is_complete_batch(suit_keys_batch(counts), np.zeros(1, dtype=np.uint8)).tolist()
[True]
"""
