"""The lab: tournaments between bots and rule-balance studies at scale."""

from xtarot.lab.tournament import AgentResult, TournamentResult, run_tournament, wilson_interval

__all__ = ["AgentResult", "TournamentResult", "run_tournament", "wilson_interval"]
