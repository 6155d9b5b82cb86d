"""The part of Cython's pure-Python mode xtarot uses, for a run without Cython.

A module compiled by ``setup.py`` reads ``import cython`` at compile time: its
declarations (``@cython.locals``) type local variables in C.  Run as plain Python, the
same module imports ``cython`` for the decorators only, and they change nothing; where
Cython is not installed this module stands in for it.

>>> @locals(p=Py_ssize_t, cells=float[::1])
... def f(p): return p
>>> f(3), compiled
(3, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

compiled = False


class _Type:
    """A C type name: ``float[::1]`` (a memoryview type) is one too."""

    def __getitem__(self, item: object) -> _Type:
        return self


float = _Type()  # Cython's name for C float (shadows the builtin in this module only)
double = _Type()
bint = _Type()  # a C int used as a truth value
Py_ssize_t = _Type()


def locals(**types: object) -> Callable[[F], F]:
    """``@cython.locals(name=type, ...)``: the function, unchanged."""

    def keep(function: F) -> F:
        return function

    return keep


def cclass(cls: F) -> F:
    """``@cclass``: the class, unchanged (compiled: an extension type with C fields)."""
    return cls


def cfunc(function: F) -> F:
    """``@cfunc``: the function, unchanged (compiled: a C function)."""
    return function


def returns(type_: object) -> Callable[[F], F]:
    """``@returns(type)``: the function, unchanged (compiled: its C return type)."""

    def keep(function: F) -> F:
        return function

    return keep


def declare(type_: object = None, value: object = None, **kwargs: object) -> object:
    """``declare(type)`` (a C variable, or a C field of a ``cclass``): ``value``."""
    return value
