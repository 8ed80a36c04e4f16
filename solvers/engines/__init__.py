"""Exact searches compiled with numba, one module per type that has one: the Othello bitboard engine, the
Sudoku bitset search and the Ubongo covering search. The rules modules in ``solvers/`` call them."""
