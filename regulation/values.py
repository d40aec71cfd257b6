"""The base of the engine's values: immutable, compared by content, cheap to build.

A jogo's values are built on every scoring, so they are msgspec structs (built in C, several
times faster than NamedTuples or frozen dataclasses). They hold no reference cycles, so the
cyclic garbage collector need not track them (gc=False).
"""
import msgspec


class Value(msgspec.Struct, frozen=True, gc=False):
    pass
