"""Generation on a worker fleet: the chunk task and its worker (``tasks``), the workers' metrics exporter
(``metrics``) and the fleet's commands (``cli``)."""
