"""Adapters to other game-AI frameworks: OpenSpiel and PettingZoo.

Import the submodules explicitly (they need the optional extras):
``xtarot.adapters.openspiel`` (``pip install "xtarot[openspiel]"``) and
``xtarot.adapters.pettingzoo`` (``pip install "xtarot[pettingzoo]"``).  This package
itself imports neither framework, so ``import xtarot`` never needs them.
``xtarot.adapters.tensors`` holds the per-game observation-tensor encoders (pure Python).
"""
