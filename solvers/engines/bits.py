"""Bit counts for compiled code as the single machine instructions LLVM has for them: the bit loops of
the covering search and the graders ask for them once per cell visited."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def trailing_zeros(typingctx, x):  # noqa: ANN001, ANN202
    """The index of the lowest set bit of a nonzero word (undefined for 0, which callers avoid)."""
    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@intrinsic
def popcount(typingctx, x):  # noqa: ANN001, ANN202
    """How many bits of a word are set."""
    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen
