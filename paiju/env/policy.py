"""A saved policy as a bot: ``paiju arena --bots policy:PATH,greedy,greedy,greedy``.

A policy is saved by ``examples/train_ppo.py`` as ``PATH`` (sb3-contrib's ``MaskablePPO``
zip) beside ``PATH.json`` (``{"game", "obs", "hints", "lookahead", "algorithm"}``).
:class:`PolicyBot` plays it:
from the view a bot receives it builds the same observation the environment gives (see
:func:`observation_of_view`), masks the seat's legal actions and takes the policy's most
likely action. Loading needs the ``[rl]`` extra (PyTorch, sb3-contrib).

Any object with ``predict(obs, action_masks=..., deterministic=True) -> (action, state)``
can stand in for the model (tests use a small one):

>>> import numpy as np
>>> class First:
...     def predict(self, obs, action_masks, deterministic):
...         return int(np.flatnonzero(action_masks)[0]), None
>>> import random
>>> from paiju.env.registry import registered
>>> from paiju.games import game
>>> g = registered()[0]; rules = game(g)
>>> state = rules.new_hand(rules.default_ruleset(), 2, {})
>>> seat = rules.acting(state)[0]; legal = rules.legal_actions(state, seat)
>>> bot = PolicyBot(First(), g)
>>> chosen = bot.act(rules.observe(state, seat), legal, random.Random(0))
>>> chosen == min(legal, key=bot.spec.action_index)  # First takes the lowest legal index
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.env.registry import spec_of

__all__ = ["PolicyBot", "observation_of_view", "save_metadata"]


def save_metadata(
    path: str | Path,
    game: str,
    obs: str,
    algorithm: str = "MaskablePPO",
    hints: bool = False,
    lookahead: bool = False,
) -> Path:
    """Write ``PATH.json`` beside a saved policy; its path.

    >>> import tempfile, os
    >>> from paiju.env.registry import registered
    >>> g = registered()[0]
    >>> d = tempfile.mkdtemp(); p = save_metadata(os.path.join(d, "p.zip"), g, "flat")
    >>> p.name, json.loads(p.read_text())
    ('p.zip.json', {'game': '...', 'obs': 'flat', 'hints': False, 'lookahead': False,
    'algorithm': 'MaskablePPO'})
    >>> json.loads(p.read_text())["game"] == g
    True
    """
    meta = Path(str(path) + ".json")
    data = {
        "game": game,
        "obs": obs,
        "hints": hints,
        "lookahead": lookahead,
        "algorithm": algorithm,
    }
    meta.write_text(json.dumps(data) + "\n")
    return meta


def observation_of_view(
    game: str,
    view: Any,
    encoder: Any,
    hints: bool = False,
    legal: Sequence[int] = (),
    lookahead: bool = False,
) -> npt.NDArray[np.float32]:
    """The observation the environment would give the view's seat, built from the view.

    What a view does not carry is left at zero: views of an older format lack some of what
    the encoder reads (``docs/env.md`` §8, "Who claimed", says what). With a view of the current
    format the observation is the environment's exactly, in every built-in game (a test).

    >>> from paiju.env.registry import registered
    >>> from paiju.games import game
    >>> g = registered()[0]; rules, spec = game(g), spec_of(g)
    >>> state = rules.new_hand(rules.default_ruleset(), 5, {})
    >>> enc = spec.encoder(planes=False); enc.reset(state)
    >>> view = rules.observe(state, rules.seats[3])
    >>> bool((observation_of_view(g, view, spec.encoder(planes=False))
    ...       == enc.encode(state, 3)).all())
    True
    """
    spec = spec_of(game)
    if spec.state_of_view is None:
        raise ValueError(f"{game}: no observation from a view")
    state = spec.state_of_view(view, encoder)  # the encoder reset on it
    obs = encoder.encode(state, view.seat.number - 1, np.empty(encoder.shape, np.float32))
    parts = [obs]
    if hints:
        if spec.hints is None:
            raise ValueError(f"{game} has no hints")
        parts.append(spec.hints(state, view.seat.number - 1, legal))
    if lookahead:
        if spec.lookahead_of_view is None:
            raise ValueError(f"{game} has no look-ahead features")
        parts.append(spec.lookahead_of_view(view))
    return np.concatenate(parts) if len(parts) > 1 else obs


class PolicyBot:
    """A trained policy playing a seat (see the module docstring).

    ``model`` has ``predict(obs, action_masks=mask, deterministic=True)``.
    """

    needs_view = True

    def __init__(
        self,
        model: Any,
        game: str,
        obs: str = "flat",
        name: str = "policy",
        hints: bool = False,
        lookahead: bool = False,
    ) -> None:
        self.model = model
        self.game = game
        self.hints = hints
        self.lookahead = lookahead
        self.spec = spec_of(game)
        self.encoder = self.spec.encoder(planes=obs == "planes")
        self.name = name

    @staticmethod
    def load(path: str | Path, game: str | None = None) -> PolicyBot:
        """Load a policy saved by ``examples/train_ppo.py`` (needs the ``[rl]`` extra).

        Raises ``ValueError`` when the file or its ``.json`` is missing, or is for another
        game.
        """
        text = str(path)
        path = Path(path)
        meta_path = Path(text + ".json")
        if not path.exists() or not meta_path.exists():
            raise ValueError(f"no saved policy at {path} (and {meta_path.name} beside it)")
        meta = json.loads(meta_path.read_text())
        if game is not None and meta.get("game") != game:
            raise ValueError(f"the policy at {path} plays {meta.get('game')}, not {game}")
        try:
            from sb3_contrib import MaskablePPO
        except ImportError:
            raise ValueError(
                "loading a policy needs the [rl] extra: pip install 'paiju[rl]'"
            ) from None
        model = MaskablePPO.load(str(path), device="cpu")
        return PolicyBot(
            model,
            meta["game"],
            meta.get("obs", "flat"),
            name=f"policy:{text}",
            hints=bool(meta.get("hints", False)),
            lookahead=bool(meta.get("lookahead", False)),
        )

    def act(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """The policy's most likely legal action.

        Raises ``ValueError`` without a view (the policy reads the table).
        """
        if view is None:
            raise ValueError("a policy bot needs the seat's view")
        index_of = self.spec.action_index
        indices = [index_of(a) for a in legal]
        obs = observation_of_view(
            self.game, view, self.encoder, self.hints, indices, self.lookahead
        )
        mask = np.zeros(self.spec.n_actions, dtype=bool)
        mask[indices] = True
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        chosen = int(action)
        if chosen not in indices:  # a model that ignores the mask: fall back to the first
            return legal[0]
        return legal[indices.index(chosen)]
