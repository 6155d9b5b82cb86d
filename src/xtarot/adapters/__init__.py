"""Adapters to other game-AI frameworks: OpenSpiel, PettingZoo and Gymnasium.

Import the submodules explicitly (they need the optional extras):
``xtarot.adapters.openspiel`` (``pip install "xtarot[openspiel]"``; also ``XtarotBot``,
any xtarot agent as an OpenSpiel bot), ``xtarot.adapters.pettingzoo``
(``pip install "xtarot[pettingzoo]"``) and ``xtarot.adapters.gymnasium`` (one seat
against xtarot agents, ``pip install "xtarot[gymnasium]"``).  This package
itself imports neither framework, so ``import xtarot`` never needs them.
``xtarot.adapters.tensors`` holds the observation-tensor encoders and the tensor-spec
registry for plugin games (pure Python).
"""
