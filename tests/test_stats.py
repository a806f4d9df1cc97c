"""paiju.stats: an interval needs two samples or more."""

from __future__ import annotations

import math

from paiju.stats import NO_INTERVAL, Interval, format_difference, mean_interval, paired_difference


def test_one_sample_gives_no_interval_and_is_never_significant() -> None:
    one = mean_interval([12.5])
    assert one.mean == 12.5 and one.n == 1
    assert math.isnan(one.lo) and math.isnan(one.hi)
    assert not one.defined
    assert not one.excludes_zero
    assert one.verdict == NO_INTERVAL == "n < 2: no interval"
    d = paired_difference([30.0], [-10.0])  # one deal: a large difference, but no interval
    assert not d.excludes_zero and d.verdict == NO_INTERVAL
    line = format_difference("a", "b", d, "胡/hand")
    assert line == "a − b = +40.00 胡/hand (n < 2: no interval)"


def test_two_samples_or_more_give_an_interval() -> None:
    d = paired_difference([3.0, 1.0, 2.0, 6.0], [1.0, 0.0, 1.0, 2.0])
    assert d.defined and d.lo < d.mean < d.hi
    assert d.verdict == "not significant"
    assert Interval(2.0, 1.0, 3.0, 10).verdict == "significant"
