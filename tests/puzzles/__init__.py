"""Each type's rules, solvers and generator, the shared layers (SAT, grid) and the published data."""
