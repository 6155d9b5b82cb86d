"""The package's version, in one place: ``pyproject.toml`` reads it from here
(``[tool.setuptools.dynamic]``), ``xtarot --version``, the web pages' footer and saved
records show it."""

__version__ = "0.1.0"
