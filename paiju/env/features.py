"""A features extractor and a policy for stable-baselines3 (need the ``[rl]`` extra).

:class:`ScaledFlat` divides the flat observation by the game's ``scale`` (its registered
:class:`~paiju.env.registry.GameSpec`), so that every input is about [0, 1].
:class:`SkipPolicy` is sb3-contrib's masked actor-critic with the game's look-ahead features
(its spec's ``lookahead``, laid out by action index: a section of ``n_actions`` values per
rating) also fed straight to the action logits: the logit of action ``i`` is a linear map of
the hidden layers' output plus one small network, shared by all actions, of action ``i``'s
own ratings (its look-ahead values). Sharing it across actions is what lets a few thousand
decisions teach it: it learns one way to read a rating, not one per action.

Saved with the model (the divisors are a buffer of the network), so a policy trained with it
plays from the raw observation everywhere, the arena's policy bots included.

>>> import pytest; torch = pytest.importorskip("torch")
>>> import numpy as np
>>> from gymnasium import spaces
>>> from paiju.env.registry import registered
>>> g = registered()[0]; spec = spec_of(g)
>>> n = spec.encoder(planes=False).shape[0]
>>> box = spaces.Box(-np.inf, np.inf, (n,), np.float32)
>>> ext = ScaledFlat(box, game=g)
>>> scale = spec.scale if spec.scale is not None else np.ones(n, dtype=np.float32)
>>> bool(torch.allclose(ext(torch.as_tensor(scale)[None]), torch.ones(1, n)))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from paiju.env.registry import spec_of

try:
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    HAVE_RL = True
except ImportError:  # the [rl] extra is not installed
    BaseFeaturesExtractor = object  # type: ignore[assignment,misc]
    MaskableActorCriticPolicy = object  # type: ignore[assignment,misc]
    HAVE_RL = False

__all__ = ["HAVE_RL", "ScaledFlat", "SkipPolicy", "lookahead_slice"]


def lookahead_slice(game: str, hints: bool = True) -> tuple[int, int]:
    """Where the look-ahead features sit in a flat observation of ``game`` with them:
    ``(start, stop)``, after the flat vector and, when ``hints``, the hints.

    >>> from paiju.env.registry import registered
    >>> g = next(name for name in registered() if spec_of(name).n_lookahead)
    >>> spec = spec_of(g); flat = spec.encoder(planes=False).shape[0]
    >>> lookahead_slice(g) == (flat + spec.n_hints, flat + spec.n_hints + spec.n_lookahead)
    True
    >>> lookahead_slice(g, hints=False)[0] == flat
    True
    """
    spec = spec_of(game)
    start = spec.encoder(planes=False).shape[0] + (spec.n_hints if hints else 0)
    return start, start + spec.n_lookahead


class ScaledFlat(BaseFeaturesExtractor):  # type: ignore[misc,valid-type]
    """``observation / scale`` of the game's flat layout (``game``: its name), with the
    hints' typical tops and ones for the look-ahead values appended when they are on.

    Raises ``ValueError`` for another observation shape, ``ImportError`` without the extra.
    """

    def __init__(
        self,
        observation_space: Any,
        game: str,
        hints: bool = False,
        lookahead: bool = False,
    ) -> None:
        if not HAVE_RL:
            raise ImportError("ScaledFlat needs the [rl] extra: pip install 'paiju[rl]'")
        super().__init__(observation_space, features_dim=int(observation_space.shape[0]))
        spec = spec_of(game)
        flat = spec.encoder(planes=False).shape
        scale = spec.scale if spec.scale is not None else np.ones(flat, dtype=np.float32)
        if hints:
            tops = spec.hints_scale
            scale = np.concatenate((scale, tops if tops is not None else np.ones(spec.n_hints)))
        if lookahead:
            scale = np.concatenate((scale, np.ones(spec.n_lookahead, dtype=np.float32)))
        if scale.shape != observation_space.shape:
            raise ValueError(f"ScaledFlat needs the flat {game} observation {scale.shape}")
        self.register_buffer("inv_scale", torch.as_tensor(1.0 / scale))

    def forward(self, observations: Any) -> Any:
        """The scaled observations."""
        return observations * self.inv_scale


class _SkipExtractor(torch.nn.Module if HAVE_RL else object):  # type: ignore[misc]
    """An ``MlpExtractor`` whose actor output also carries ``features[start:stop]``."""

    def __init__(self, inner: Any, start: int, stop: int) -> None:
        super().__init__()
        self.inner = inner
        self.start, self.stop = start, stop
        self.latent_dim_pi = inner.latent_dim_pi + (stop - start)
        self.latent_dim_vf = inner.latent_dim_vf

    def forward(self, features: Any) -> tuple[Any, Any]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: Any) -> Any:
        hidden = self.inner.forward_actor(features)
        return torch.cat((hidden, features[:, self.start : self.stop]), dim=1)

    def forward_critic(self, features: Any) -> Any:
        return self.inner.forward_critic(features)


class _SkipHead(torch.nn.Module if HAVE_RL else object):  # type: ignore[misc]
    """Logits = a linear map of the hidden output + a network shared by the actions of each
    action's own look-ahead values (``channels`` sections of ``n_actions`` values)."""

    def __init__(self, hidden: int, channels: int, n_actions: int, width: int = 32) -> None:
        super().__init__()
        self.hidden, self.channels, self.n_actions = hidden, channels, n_actions
        self.linear = torch.nn.Linear(hidden, n_actions)
        torch.nn.init.orthogonal_(self.linear.weight, gain=0.01)
        torch.nn.init.zeros_(self.linear.bias)
        self.per_action = torch.nn.Sequential(
            torch.nn.Linear(channels, width), torch.nn.ReLU(), torch.nn.Linear(width, 1)
        )

    def forward(self, latent: Any) -> Any:
        h = latent[:, : self.hidden]
        la = latent[:, self.hidden :].reshape(-1, self.channels, self.n_actions)
        own = self.per_action(la.transpose(1, 2)).squeeze(-1)  # (batch, n_actions)
        return self.linear(h) + own


class SkipPolicy(MaskableActorCriticPolicy):  # type: ignore[misc,valid-type]
    """``MaskableActorCriticPolicy`` with ``skip`` = ``(start, stop)`` of the (scaled)
    features, the look-ahead values, also given to the action logits through a network
    shared by the actions (see the module docstring). Saved and loaded with the model like
    any policy class (``MaskablePPO(SkipPolicy, env, policy_kwargs={"skip":
    lookahead_slice(game), ...})``).
    """

    def __init__(self, *args: Any, skip: tuple[int, int] = (0, 0), **kwargs: Any) -> None:
        if not HAVE_RL:
            raise ImportError("SkipPolicy needs the [rl] extra: pip install 'paiju[rl]'")
        self.skip = tuple(skip)
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        super()._build_mlp_extractor()
        inner: Any = getattr(self, "mlp_extractor")  # noqa: B009 (untyped without the extra)
        self.mlp_extractor = _SkipExtractor(inner, *self.skip)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        me: Any = self  # sb3's attributes, untyped here
        n_actions = int(me.action_space.n)
        size = self.skip[1] - self.skip[0]
        if size % n_actions:
            raise ValueError(f"skip {self.skip} is not a whole number of sections by action")
        hidden = int(me.mlp_extractor.inner.latent_dim_pi)
        self.action_net = _SkipHead(hidden, size // n_actions, n_actions)
        me.optimizer = me.optimizer_class(me.parameters(), lr=lr_schedule(1), **me.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data: dict[str, Any] = super()._get_constructor_parameters()
        data["skip"] = self.skip
        return data
