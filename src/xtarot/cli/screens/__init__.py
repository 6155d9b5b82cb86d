"""One table screen per game (a :class:`~xtarot.cli.render.GameUI` subclass each).

Importing this package registers every screen in :data:`xtarot.cli.render.UIS`;
a game without a screen of its own is shown by the generic renderer.
"""

from __future__ import annotations

from xtarot.cli.render import UIS
from xtarot.cli.screens.arcana_duel import ArcanaDuelUI
from xtarot.cli.screens.fairy500 import Fairy500UI
from xtarot.cli.screens.grail_mahjong import GrailMahjongUI
from xtarot.cli.screens.matto import MattoUI
from xtarot.cli.screens.sono_arcana import SonoArcanaUI
from xtarot.cli.screens.tricks import ExtendoriUI, TrickUI

__all__ = [
    "ArcanaDuelUI",
    "ExtendoriUI",
    "Fairy500UI",
    "GrailMahjongUI",
    "MattoUI",
    "SonoArcanaUI",
    "TrickUI",
]

UIS.setdefault("arcana-duel", ArcanaDuelUI())
UIS.setdefault("extendori", ExtendoriUI())
UIS.setdefault("fairy500", Fairy500UI())
UIS.setdefault("grail-mahjong", GrailMahjongUI())
UIS.setdefault("matto", MattoUI())
UIS.setdefault("sono-arcana", SonoArcanaUI())
