"""Each type's rules, solvers and generator, the shared layers (SAT, grid), pictures and puzz.link."""
