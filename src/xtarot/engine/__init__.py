"""The engine contract every game implements (see ``docs/engine.md``)."""

from xtarot.engine.core import Action, ActionSpace, Game, GameInfo, Option, Scores, State
from xtarot.engine.deals import DealReader, parse_card
from xtarot.engine.errors import ConfigError, DealError, IllegalAction, RecordError, XtarotError
from xtarot.engine.registry import games, load, register
from xtarot.engine.sampling import count_deals, deal_uniform, sample_world_weighted

__all__ = [
    "Action",
    "ActionSpace",
    "ConfigError",
    "DealError",
    "DealReader",
    "Game",
    "GameInfo",
    "IllegalAction",
    "Option",
    "RecordError",
    "Scores",
    "State",
    "XtarotError",
    "count_deals",
    "deal_uniform",
    "games",
    "load",
    "parse_card",
    "register",
    "sample_world_weighted",
]
