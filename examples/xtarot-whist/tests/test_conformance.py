"""xtarot's conformance kit on whist: every configuration, through the pytest helper.

The kit plays random matches (one hand each, as ``bulk_options`` says, and some whole
matches), checks card conservation, the game's invariants, masks, replay and clones
at every step, runs the leak test on sampled worlds, and asks every bot (random,
heuristic, ismcts, pimc) for moves.  ``xtarot check whist`` runs the same checks.
"""

from xtarot.testing import conformance_tests

test_conformance = conformance_tests("whist", games=200)
