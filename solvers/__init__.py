"""Rules checkers and solvers: one module per puzzle type, plus the shared SAT layer."""
