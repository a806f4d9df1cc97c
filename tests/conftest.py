"""Test options: ``--soak`` runs the long checks (marked ``soak``).

Every Mazhan hand the tests play is validated and scored as it ends
(:func:`paiju.mazhan.rules.check_every_hand`), not only when its settlement is read."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", help="run the long soak checks")


def pytest_configure(config: pytest.Config) -> None:
    from paiju.mazhan.rules import check_every_hand

    check_every_hand(True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--soak"):
        return
    skip = pytest.mark.skip(reason="a long check: run with --soak")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)
