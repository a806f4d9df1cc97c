"""The process's metrics in Prometheus' text format (``prometheus-client``), for an operator
(docs/operate.md: every name, and how to expose them).

Each server process (each app) has its own :class:`Metrics` and its own registry: the
counters and histograms are fed where things happen (the table runners, the writer thread,
the throttles, the cluster), the gauges (tables by state, people seated, sockets, the
writer's queue) are read from the hub when scraped. Nothing is public by default:
``PAIJU_METRICS_TOKEN`` serves ``/metrics`` on the app's port to a bearer of that token,
``PAIJU_METRICS_ADDRESS`` (``host:port``) on a listener of its own.

>>> m = Metrics()
>>> m.write("Step"); m.batch(3, 0.002, 0.004, ["Step", "Step", "CloseHand"])
>>> text = m.render().decode()
>>> "paiju_actions_total 1.0" in text, 'paiju_writes_total{kind="Step"} 1.0' in text
(True, True)
>>> "paiju_settlements_total 1.0" in text
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any
from wsgiref.simple_server import WSGIServer

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from paiju.server.hub import Hub

__all__ = ["CONTENT_TYPE", "NOWHERE", "Metrics", "serve_metrics", "table_state"]

#: The content type of :meth:`Metrics.render` (Prometheus' text format 0.0.4).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: Latencies of a step, seconds: a commit is ~1–5 ms, a frame follows it; a stall is seconds.
_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_SIZES = (1, 2, 5, 10, 20, 50, 100, 200, 500)
_STATES = ("waiting", "playing", "paused", "empty")


def table_state(machine: Any) -> str:
    """What a table is doing, as the ``paiju_tables`` gauge counts it: ``paused`` (its
    storage is in trouble), ``playing`` (a hand is live), ``waiting`` (people seated between
    hands) or ``empty``.

    >>> from types import SimpleNamespace as NS
    >>> table_state(NS(_paused=False, live=True, accounts=[1]))
    'playing'
    >>> table_state(NS(_paused=False, live=False, accounts=[]))
    'empty'
    """
    if getattr(machine, "_paused", False):
        return "paused"
    if machine.live:
        return "playing"
    return "waiting" if machine.accounts else "empty"


class _Live(Collector):
    """The gauges read at each scrape from the hub (on the scraping thread: the hub's dicts
    are copied in one C call each, never iterated while the event loop changes them)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        hub = self.metrics.hub
        tables = GaugeMetricFamily(
            "paiju_tables", "tables of this process by state", labels=["state"]
        )
        seated = GaugeMetricFamily("paiju_seated_people", "people seated at this process's tables")
        sockets = GaugeMetricFamily("paiju_sockets", "people with a socket open on this process")
        queued = GaugeMetricFamily("paiju_writer_queue", "writes waiting for the writer thread")
        draining = GaugeMetricFamily("paiju_draining", "1 while this process drains")
        counts = dict.fromkeys(_STATES, 0)
        people = 0
        if hub is not None:
            for runner in list(hub.tables.values()):
                counts[table_state(runner.machine)] += 1
                people += len(runner.machine.accounts)
            sockets.add_metric([], len(hub.conns))
            queued.add_metric([], hub.writer.queued())
        else:
            sockets.add_metric([], 0)
            queued.add_metric([], 0)
        for state in _STATES:
            tables.add_metric([state], counts[state])
        seated.add_metric([], people)
        draining.add_metric([], 1 if self.metrics.draining() else 0)
        yield from (tables, seated, sockets, queued, draining)


class Metrics:
    """The metrics of one server process (names: docs/operate.md)."""

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry()
        self.hub: Hub | None = None
        #: whether the process is draining (the app sets it; read at each scrape)
        self.draining: Callable[[], bool] = lambda: False
        count = partial(Counter, registry=r)
        timed = partial(Histogram, buckets=_LATENCY, registry=r)
        self.actions = count(
            "paiju_actions", "actions played at this process's tables (people's and bots')"
        )
        self.writes = count("paiju_writes", "durable writes asked for, by kind", ["kind"])
        self.settlements = count("paiju_settlements", "hands settled")
        self.escapes = count("paiju_escapes", "hands ended by an escape")
        self.pauses = count(
            "paiju_table_pauses", "tables paused because their storage was in trouble"
        )
        self.durable = timed(
            "paiju_action_durable_seconds",
            "from an action's step being asked for to its being durable (committed)",
        )
        self.frame = timed(
            "paiju_action_frame_seconds",
            "from an action reaching its table to the first view frame it makes",
        )
        self.batch_size = Histogram(
            "paiju_writer_batch_size", "writes per writer transaction", buckets=_SIZES, registry=r
        )
        self.batch_wait = timed(
            "paiju_writer_wait_seconds",
            "how long a batch's oldest write waited for the writer thread",
        )
        self.batch_seconds = timed(
            "paiju_writer_batch_seconds", "a batch's transaction, retries included"
        )
        self.troubles = count(
            "paiju_storage_troubles", "batches the database could not take at once"
        )
        self.throttled = count(
            "paiju_throttled", "requests refused by a throttle, by what", ["what"]
        )
        self.leases_lost = count(
            "paiju_cluster_leases_lost", "tables let go: another process holds the lease"
        )
        self.takeovers = count(
            "paiju_cluster_takeovers", "tables taken over from a process that went away"
        )
        self.bot_decisions = timed(
            "paiju_bot_decision_seconds",
            "a bot's (or 托管's) decision, by where it ran (loop, search thread)",
            ["where"],
        )
        r.register(_Live(self))

    def watch(self, hub: Hub) -> None:
        """Read the gauges from this hub."""
        self.hub = hub

    def write(self, kind: str) -> None:
        """A durable write of ``kind`` (the write's class name) was asked for.

        >>> m = Metrics(); m.write("Step"); m.actions._value.get()
        1.0
        """
        self.writes.labels(kind).inc()
        if kind == "Step":
            self.actions.inc()

    def batch(self, size: int, waited: float, took: float, kinds: Sequence[str]) -> None:
        """The writer committed a batch of ``size`` writes (their kinds): its oldest write
        had waited ``waited`` s, the transaction took ``took`` s."""
        self.batch_size.observe(size)
        self.batch_wait.observe(waited)
        self.batch_seconds.observe(took)
        for kind in kinds:
            if kind == "CloseHand":
                self.settlements.inc()
            elif kind == "AbortHand":
                self.escapes.inc()

    def timed(self, where: str) -> _Timer:
        """A context that observes a bot's decision time.

        >>> m = Metrics()
        >>> with m.timed("loop"):
        ...     pass
        >>> m.bot_decisions.labels("loop")._sum.get() >= 0
        True
        """
        return _Timer(self.bot_decisions.labels(where))

    def render(self) -> bytes:
        """The text format of every metric, as a scrape reads it."""
        return generate_latest(self.registry)


class _Timer:
    __slots__ = ("_hist", "_start")

    def __init__(self, hist: Any) -> None:
        self._hist = hist
        self._start = 0.0

    def __enter__(self) -> None:
        self._start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self._hist.observe(time.perf_counter() - self._start)


#: The metrics of runners and writers built without a process's (unit tests): counted, never
#: served.
NOWHERE = Metrics()


def serve_metrics(metrics: Metrics, address: str | None) -> WSGIServer | None:
    """Serve ``metrics`` on a listener of their own at ``host:port`` (a thread; an empty
    host: every address), or nothing for no address; the server (``shutdown()`` stops it).

    >>> import urllib.request
    >>> server = serve_metrics(Metrics(), "127.0.0.1:0")
    >>> port = server.server_address[1]
    >>> b"paiju_tables" in urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read()
    True
    >>> server.shutdown(); serve_metrics(Metrics(), None) is None
    True
    """
    if not address:
        return None
    host, _, port = address.rpartition(":")
    server, _thread = start_http_server(int(port), host or "0.0.0.0", metrics.registry)
    return server
