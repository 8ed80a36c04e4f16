"""The HTTP layer: routes, settings, storage and the worker pool for CPU work."""
