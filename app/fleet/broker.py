"""The fleet's broker: its settings, the Celery app every fleet process shares, and the queue's depth.

Kept apart from the task and the metrics exporter, which both need it, so neither imports the other.
"""

from __future__ import annotations

from celery import Celery
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class FleetSettings(BaseSettings):
    """Kept apart from the service's settings: only fleet processes (and /metrics) read them."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    broker_url: str | None = Field(
        None, description="Celery broker (redis://host:6379/0 or amqp://user:pass@host:5672//); unset: local pools only."
    )
    fleet_queue: str = Field("puzzlegen", description="Queue the fleet's tasks go through.")
    fleet_chunk_size: int = Field(5, ge=1, description="Seeds per task.")
    fleet_budget_seconds: float = Field(120.0, gt=0, description="Time budget of one puzzle in a task.")
    fleet_visibility_timeout: int = Field(
        3600, ge=10, description="Redis only: seconds before a dead worker's unacknowledged task is handed out again."
    )
    fleet_pools: str = Field(
        "", description="Pools the refiller keeps full: 'type[:difficulty]=target' separated by commas."
    )
    fleet_refill_seconds: float = Field(30.0, gt=0, description="How often the refiller looks at the pools.")


def fleet_settings() -> FleetSettings:
    return FleetSettings()


def redis_redelivery(visibility_timeout: int) -> dict[str, int]:
    """Kombu sweeps Redis for a dead worker's tasks only every 10 × 10 s by default, which adds up to
    100 s to any visibility timeout; sweep every tenth of it instead (1-10 s, one cheap range query).
    A worker killed mid-sweep leaves the sweep's lock behind; 30 s, not kombu's 300, frees it
    (sweeps restore each task in a watched transaction, so two at once repeat nothing)."""
    return {"visibility_timeout": visibility_timeout, "unacked_restore_interval": max(1, min(10, visibility_timeout // 10)),
            "unacked_restore_throttle": 1, "unacked_mutex_expire": 30}


def transport_options(settings: FleetSettings) -> dict[str, int | bool]:
    """RabbitMQ confirms each publish, so a send returns only once the broker holds the message (for a
    durable queue, on disk): `pregenerate --queue` is done only when its work would survive a broker restart.
    Redis takes its redelivery options instead."""
    if (settings.broker_url or "").startswith(("amqp", "pyamqp")):
        return {"confirm_publish": True}
    return redis_redelivery(settings.fleet_visibility_timeout)


def make_celery(settings: FleetSettings) -> Celery:
    engine = Celery("puzzlegen", broker=settings.broker_url or "memory://", set_as_current=False)
    engine.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,  # a chunk that failed or overran is not run again and again
        worker_prefetch_multiplier=1,  # a worker holds only what it runs: the rest stays in the queue for others
        task_ignore_result=True,  # results live in the database
        task_default_queue=settings.fleet_queue,
        task_default_delivery_mode="persistent",
        broker_transport_options=transport_options(settings),
        broker_connection_retry_on_startup=True,
        worker_send_task_events=False,
        worker_hijack_root_logger=False,
    )
    return engine


celery_app = make_celery(fleet_settings())


def queue_depth(engine: Celery | None = None) -> int:
    """Messages waiting in the queue (not those a worker is running)."""
    engine = engine or celery_app
    with engine.connection_for_write() as connection:
        queue = engine.conf.task_default_queue
        return connection.default_channel.queue_declare(queue, durable=True, auto_delete=False).message_count
