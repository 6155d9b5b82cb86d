"""xtarot: the card games of the Xtarot rules collection and the classic tarot deck.

>>> import xtarot
>>> game = xtarot.load("sono-arcana", players=3)
>>> state = game.new_state(seed=7)
>>> state.current_player in range(3), len(state.legal_actions()) > 0
(True, True)
"""

from xtarot import _pure

if _pure.wanted():  # XTAROT_PURE_PYTHON=1: the .py sources even where compiled ones exist
    _pure.install()

from xtarot import games as _games  # noqa: F401  (registers every game)
from xtarot._version import __version__
from xtarot.engine import (
    Action,
    ConfigError,
    DealError,
    Game,
    GameInfo,
    IllegalAction,
    RecordError,
    Scores,
    State,
    games,
    load,
)
from xtarot.record import load_record, replay, save_record

__all__ = [
    "Action",
    "ConfigError",
    "DealError",
    "Game",
    "GameInfo",
    "IllegalAction",
    "RecordError",
    "Scores",
    "State",
    "__version__",
    "games",
    "load",
    "load_record",
    "replay",
    "save_record",
]
