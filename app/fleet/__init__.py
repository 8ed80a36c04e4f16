"""Generation on a worker fleet: the broker and its settings (``broker``), the chunk task and its worker
(``tasks``), the pool refiller (``pools``), the workers' metrics exporter (``metrics``) and the fleet's
commands (``cli``)."""
