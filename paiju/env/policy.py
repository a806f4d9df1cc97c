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
>>> from paiju.mazhan.rules import Ruleset, new_hand, legal_actions_for
>>> from paiju.mazhan.views import observe
>>> from paiju.mazhan.seats import Seat
>>> state = new_hand(Ruleset(), seed=2)
>>> bot = PolicyBot(First(), "mazhan")
>>> bot.act(observe(state, Seat.E), legal_actions_for(state, Seat.E), random.Random(0))
Action.parse('E discard 2m')
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.env.table import spec_of

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
    >>> d = tempfile.mkdtemp(); p = save_metadata(os.path.join(d, "p.zip"), "mazhan", "flat")
    >>> json.loads(p.read_text())["game"]
    'mazhan'
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


def _mazhan_state(view: Any) -> Any:
    """The fields the Mazhan encoder reads, from a view (another seat's tiles unknown).

    Reads both view formats: format 2 (``table_melds``, ``discards`` with who claimed,
    ``turn``, ``window``) and the earlier one (``melds``, claimed flags, ``current``,
    ``claim_tile``/``claim_from``).
    """
    me = view.seat.number - 1
    seats = list(view.bonus)
    counts = [0] * 34
    for t in view.hand:
        counts[t.index] += 1
    fmt2 = hasattr(view, "table_melds")
    melds = view.table_melds if fmt2 else view.melds
    extra: dict[str, Any] = {}
    if fmt2:
        extra["claimed_by"] = [
            [-1 if by is None else by.number - 1 for _t, by in view.discards[s]] for s in seats
        ]
        window = view.window
        current = me if view.turn is None else view.turn.number - 1
        claim_tile = -1 if window is None else window.tile.index
        claim_from = -1 if window is None else window.source.number - 1
    else:
        extra["claimed"] = [[c for _t, c in view.discards[s]] for s in seats]
        current = view.current.number - 1
        claim_tile = -1 if view.claim_tile is None else view.claim_tile.index
        claim_from = -1 if view.claim_from is None else view.claim_from.number - 1
    return SimpleNamespace(
        hands=[counts if k == me else [0] * 34 for k in range(4)],
        melds=[list(melds[s]) for s in seats],
        bonus=[[t.index for t in view.bonus[s]] for s in seats],
        discards=[[t.index for t, _c in view.discards[s]] for s in seats],
        set_aside=tuple(t.index for t in view.set_aside),
        wild=view.wild.index,
        ruleset=SimpleNamespace(dead_wall=view.dead_wall),
        phase=view.phase,
        current=current,
        drawn=-1 if view.drawn is None else view.drawn.index,
        claim_tile=claim_tile,
        claim_from=claim_from,
        head=0,
        tail=view.wall_left,
        **extra,
    )


def _madiao_state(view: Any) -> Any:
    """The fields the Ma Diao encoder reads, from a view (either format)."""
    seats = list(view.table)
    me = view.seat.number - 1
    trick = [(s.number - 1, 0 if c is None else c.index, up) for s, c, up in view.trick]
    on_table = {c.index for s in seats for c in view.table[s]}
    in_trick = {c for _s, c, up in trick if up}
    out_up = [c.index for c in view.seen if c.index not in on_table and c.index not in in_trick]
    if hasattr(view, "leader"):
        leader = view.leader.number - 1
        turn = leader if view.turn is None else view.turn.number - 1
    else:
        leader = trick[0][0] if trick else (view.acting[0].number - 1 if view.acting else 0)
        turn = view.acting[0].number - 1 if view.acting else leader
    return SimpleNamespace(
        hands=[
            [c.index for c in view.hand] if k == me else [0] * view.hand_sizes[s]
            for k, s in enumerate(seats)
        ],
        trick=trick,
        table=[[c.index for c in view.table[s]] for s in seats],
        tricks_won=[view.tricks_won[s] for s in seats],
        captured={
            c.index: tuple(o.index for o in others)
            for c, others in getattr(view, "captured", {}).items()
        },
        out_up=out_up,
        stock=(view.mian.index,),
        banker=view.banker.number - 1,
        turn=turn,
        leader=leader,
        phase=view.phase,
        trick_no=view.trick_no,
    )


def _madiao_plays(view: Any) -> list[list[tuple[int, bool]]] | None:
    """What a format-2 view tells of each seat's plays: the face-up ones in finished tricks,
    the face-down ones (own cards, others' counts), the one in the trick being played last
    (the encoder reads the cards and counts, not their order); ``None`` for the earlier
    format."""
    if not hasattr(view, "face_down_cards"):
        return None
    me = view.seat
    in_trick = {s: (0 if c is None else c.index, up) for s, c, up in view.trick}
    played_up = getattr(view, "played_up", {})
    plays: list[list[tuple[int, bool]]] = []
    for s in view.table:  # finished tricks first, the trick being played last
        now = in_trick.get(s)
        down_now = now is not None and not now[1]
        if s is me:
            cards = [c.index for c in view.face_down_cards]
            if down_now:
                cards.remove(now[0])  # type: ignore[index]
            done = [(c, False) for c in cards]
        else:
            done = [(0, False)] * (view.face_down[s] - down_now)
        ups = [(c.index, True) for c in played_up.get(s, ())]
        plays.append(ups + done + ([now] if now is not None else []))
    return plays


def observation_of_view(
    game: str,
    view: Any,
    encoder: Any,
    hints: bool = False,
    legal: Sequence[int] = (),
    lookahead: bool = False,
) -> npt.NDArray[np.float32]:
    """The observation the environment would give the view's seat, built from the view.

    What a view does not carry is left at zero: who claimed each discard (Mazhan ``seq_by``;
    views of format 2 carry it), and in Ma Diao views before format 2 each seat's plays in
    finished tricks and the capture counts. With a format-2 view the observation is the
    environment's exactly, in both games (a test).

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> from paiju.madiao.views import observe
    >>> from paiju.madiao.seats import Seat
    >>> from paiju.env.madiao_obs import MadiaoEncoder
    >>> s = new_hand(Ruleset(), seed=5)
    >>> enc = MadiaoEncoder(); enc.reset(s)
    >>> bool((observation_of_view("madiao", observe(s, Seat.N), MadiaoEncoder())
    ...       == enc.encode(s, 3)).all())
    True
    """
    if game == "mazhan":
        state = _mazhan_state(view)
        encoder.reset(state)
    else:
        state = _madiao_state(view)
        encoder.reset(state, _madiao_plays(view))
    obs = np.array(encoder.encode(state, view.seat.number - 1), dtype=np.float32)
    parts = [obs]
    if hints:
        from paiju.env.mazhan_obs import hints as hints_of

        parts.append(hints_of(state, view.seat.number - 1, legal))
    if lookahead:
        from paiju.env.lookahead import lookahead as lookahead_of

        parts.append(lookahead_of(view))
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
