"""A fleet worker's Prometheus exporter: tasks done, failed, retried and redelivered, and queue depth.

A Celery worker runs its tasks in child processes, so the counters use prometheus_client's
multiprocess mode: each child writes its own file, the exporter in the worker's main process sums them.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from typing import Any

from celery import signals
from prometheus_client import CollectorRegistry, Counter, multiprocess, start_http_server, values
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

TASKS = Counter("fleet_tasks_total", "Fleet tasks by outcome (done, failed, retried, redelivered)", ["outcome"],
                registry=None)


@signals.task_success.connect
def _done(**_: Any) -> None:
    TASKS.labels("done").inc()


@signals.task_failure.connect
def _failed(**_: Any) -> None:
    TASKS.labels("failed").inc()


@signals.task_retry.connect
def _retried(**_: Any) -> None:
    TASKS.labels("retried").inc()


@signals.task_prerun.connect
def _redelivered(task: Any = None, **_: Any) -> None:
    """A message handed out again: its worker died (or lost its connection) before acknowledging it."""
    if task is not None and (task.request.delivery_info or {}).get("redelivered"):
        TASKS.labels("redelivered").inc()


class QueueDepth(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        from app.fleet.broker import queue_depth

        try:
            depth = float(queue_depth())
        except Exception:  # broker unreachable: report no sample rather than break the scrape
            return
        yield GaugeMetricFamily("fleet_queue_depth", "Tasks waiting in the broker's queue", value=depth)


def serve(port: int) -> None:
    """Start the exporter on ``port``; call in the worker's main process before the children start."""
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="puzzlegen-worker-metrics-")
    values.ValueClass = values.get_value_class()  # the children's counters go to files from now on
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    registry.register(QueueDepth())
    start_http_server(port, registry=registry)
