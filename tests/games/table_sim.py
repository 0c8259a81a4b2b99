"""The simulated Rat-a-Tat Cat table lives beside the engine, in referee/games/ratatat_sim.py (what the
simulated tables share: referee/games/sim.py). This name only forwards to it, for the tests and benchmarks
that still import ``table_sim``; new code imports ``referee.games.ratatat_sim``."""
from referee.games.ratatat_sim import SLOTS, SimError, Table, expected_round_winners, play_match, play_round

__all__ = ["SLOTS", "SimError", "Table", "expected_round_winners", "play_match", "play_round"]
