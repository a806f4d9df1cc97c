"""Statistics that settle arena questions: means and paired differences with 95% intervals.

The arena plays duplicate deals: each deal (one seed) is played four times with the bots
rotated one seat each time, so every bot meets the same tiles or cards from every seat. The
unit of independence is the deal, not the hand: for two bots A and B, the paired sample of a
deal is (mean result of A's seats) − (mean result of B's seats) over that deal's four hands,
and the interval is taken over deals with Student's t (the normal quantile once there are
many deals). Fewer than two samples give no interval: its bounds are NaN, it is never
significant and it prints as ``n < 2: no interval``.

>>> d = paired_difference([3.0, 1.0, 2.0, 6.0], [1.0, 0.0, 1.0, 2.0])
>>> d.mean, d.n
(2.0, 4)
>>> format_difference("expert", "strong", d, "胡/hand")
'expert − strong = +2.00 [-0.25, +4.25] 胡/hand'
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "NO_INTERVAL",
    "Interval",
    "format_difference",
    "mean_interval",
    "paired_difference",
    "t_quantile",
]

#: What is shown in place of an interval over fewer than two samples.
NO_INTERVAL = "n < 2: no interval"

_Z975 = statistics.NormalDist().inv_cdf(0.975)

#: Two-sided 95% quantiles of Student's t for small degrees of freedom (exact to 3 places).
_T975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    11: 2.201,
    12: 2.179,
    13: 2.160,
    14: 2.145,
    15: 2.131,
    16: 2.120,
    17: 2.110,
    18: 2.101,
    19: 2.093,
    20: 2.086,
    25: 2.060,
    30: 2.042,
}


def t_quantile(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (the half-width
    factor of a two-sided 95% interval): a table up to 30, a Cornish–Fisher expansion
    beyond (error below 0.001), tending to the normal 1.96.

    >>> t_quantile(1), t_quantile(9)
    (12.706, 2.262)
    >>> round(t_quantile(120), 3), round(t_quantile(10**9), 3)
    (1.98, 1.96)
    >>> t_quantile(0)
    Traceback (most recent call last):
    ...
    ValueError: degrees of freedom must be 1 or more, got 0

    Raises ``ValueError`` for fewer than one degree of freedom.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be 1 or more, got {df}")
    if df in _T975:
        return _T975[df]
    if df < 30:
        lo = max(k for k in _T975 if k < df)
        hi = min(k for k in _T975 if k > df)
        w = (1 / df - 1 / hi) / (1 / lo - 1 / hi)  # linear in 1/df
        return _T975[hi] + w * (_T975[lo] - _T975[hi])
    z = _Z975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean with its 95% interval over ``n`` independent samples; ``lo`` and ``hi`` are
    NaN when there is no interval (fewer than two samples).

    >>> Interval(2.0, 1.0, 3.0, 10).excludes_zero
    True
    """

    mean: float
    lo: float
    hi: float
    n: int

    @property
    def defined(self) -> bool:
        """Whether there is an interval at all (two samples or more, finite bounds).

        >>> Interval(2.0, 1.0, 3.0, 10).defined, mean_interval([5.0]).defined
        (True, False)
        """
        return self.n >= 2 and not (math.isnan(self.lo) or math.isnan(self.hi))

    @property
    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly above or wholly below 0 (never when there is no
        interval).

        >>> Interval(0.5, -0.1, 1.1, 8).excludes_zero
        False
        >>> mean_interval([5.0]).excludes_zero
        False
        """
        return self.defined and (self.lo > 0 or self.hi < 0)

    @property
    def verdict(self) -> str:
        """``"significant"`` when the interval excludes 0, ``"not significant"`` when it does
        not, and ``"n < 2: no interval"`` without one.

        >>> Interval(2.0, 1.0, 3.0, 10).verdict, Interval(0.5, -0.1, 1.1, 8).verdict
        ('significant', 'not significant')
        >>> mean_interval([5.0]).verdict
        'n < 2: no interval'
        """
        if not self.defined:
            return NO_INTERVAL
        return "significant" if self.excludes_zero else "not significant"

    @property
    def half_width(self) -> float:
        """Half the interval's width.

        >>> Interval(2.0, 1.0, 3.0, 10).half_width
        1.0

        NaN when there is no interval.
        """
        return (self.hi - self.lo) / 2


def mean_interval(samples: Sequence[float]) -> Interval:
    """The mean of independent samples and its 95% interval (Student's t over n − 1 degrees
    of freedom). A single sample gives no interval: NaN bounds (one sample says nothing of
    the spread, and a zero-width interval would read as certainty).

    >>> mean_interval([1.0, 2.0, 3.0, 4.0])
    Interval(mean=2.5, lo=0.446..., hi=4.553..., n=4)
    >>> mean_interval([7.0])
    Interval(mean=7.0, lo=nan, hi=nan, n=1)
    >>> mean_interval([])
    Traceback (most recent call last):
    ...
    ValueError: no samples

    Raises ``ValueError`` for no samples.
    """
    n = len(samples)
    if n == 0:
        raise ValueError("no samples")
    m = statistics.fmean(samples)
    if n < 2:
        return Interval(m, math.nan, math.nan, n)
    half = t_quantile(n - 1) * statistics.stdev(samples) / math.sqrt(n)
    return Interval(m, m - half, m + half, n)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Interval:
    """The mean of ``a[i] − b[i]`` and its 95% interval: ``a`` and ``b`` are two bots'
    results on the same deals, one number per deal (each bot's mean over its seats in that
    deal), so the luck of the deal cancels in each difference.

    >>> paired_difference([5.0, -3.0, 10.0], [4.0, -4.0, 9.0])
    Interval(mean=1.0, lo=1.0, hi=1.0, n=3)
    >>> paired_difference([1.0], [1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: paired samples differ in length: 1 and 2

    Raises ``ValueError`` when the lengths differ or there are no samples.
    """
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    return mean_interval([x - y for x, y in zip(a, b, strict=True)])


def format_difference(a: str, b: str, d: Interval, unit: str) -> str:
    """One line: ``A − B = +X [lo, hi] UNIT``, or ``A − B = +X UNIT (n < 2: no interval)``
    without an interval.

    >>> format_difference("strong", "greedy", Interval(21.9, 10.6, 33.1, 500), "胡/hand")
    'strong − greedy = +21.90 [+10.60, +33.10] 胡/hand'
    >>> format_difference("strong", "greedy", paired_difference([3.0], [1.0]), "胡/hand")
    'strong − greedy = +2.00 胡/hand (n < 2: no interval)'
    """
    if not d.defined:
        return f"{a} − {b} = {d.mean:+.2f} {unit} ({NO_INTERVAL})"
    return f"{a} − {b} = {d.mean:+.2f} [{d.lo:+.2f}, {d.hi:+.2f}] {unit}"
