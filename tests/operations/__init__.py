"""Running it: the store, the CLI and the printed book, upkeep, database faults, replicas and the fleet."""
