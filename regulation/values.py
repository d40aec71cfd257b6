"""The base of the engine's values: immutable, compared by content, cheap to build.

A jogo's values are built on every scoring, so they are msgspec structs (built in C, several
times faster than NamedTuples or frozen dataclasses). They hold no reference cycles, so the
cyclic garbage collector need not track them (gc=False).

A subclass says `frozen=True` again, though msgspec inherits it: type checkers read each class's
own arguments only (PEP 681), and would take the subclass for a mutable one.
"""
import msgspec


class Value(msgspec.Struct, frozen=True, gc=False):
    pass
