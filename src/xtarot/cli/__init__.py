"""The ``xtarot`` command-line interface (typer + rich); see :mod:`xtarot.cli.main`."""
