"""PettingZoo AEC environments: :mod:`paiju.env.mazhan_v0` and :mod:`paiju.env.madiao_v0`.

>>> from paiju.env import madiao_v0, mazhan_v0
>>> mazhan_v0.env().metadata["name"], madiao_v0.env().metadata["name"]
('paiju_mazhan_v0', 'paiju_madiao_v0')
"""

from paiju.env import madiao_v0, mazhan_v0

__all__ = ["madiao_v0", "mazhan_v0"]
