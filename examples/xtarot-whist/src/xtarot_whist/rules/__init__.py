"""The rules of whist for players: ``whist.en.md`` and ``whist.ja.md``."""
