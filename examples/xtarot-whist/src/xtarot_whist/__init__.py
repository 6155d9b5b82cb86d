"""xtarot-whist: plain whist (ホイスト) on the Xtarot deck, as an xtarot game plugin.

The package is an example of a rulebook turned into an installable game: the rules
(:mod:`xtarot_whist.game`), a heuristic bot (:mod:`xtarot_whist.heuristic`), a
terminal screen (:mod:`xtarot_whist.screen`), a web table layout
(``xtarot_whist/web/whist.js``) and the player-facing rules text
(``xtarot_whist/rules/whist.en.md`` / ``whist.ja.md``).  xtarot finds each of them
through the entry points in ``pyproject.toml``; nothing here registers itself.
"""

__version__ = "0.1.0"
