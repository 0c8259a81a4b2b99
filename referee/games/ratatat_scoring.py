"""Round winners under the four tie policies (RTC-51, RTC-V1) and match standings (RTC-52..55)."""
from __future__ import annotations

from typing import Mapping, Sequence


def _names(seats: Sequence[int], players: Sequence[str]) -> str:
    names = [players[s] for s in seats]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def round_winners(scores: Mapping[int, int], caller: int | None, policy: str,
                  players: Sequence[str]) -> tuple[tuple[int, ...], str]:
    """The round's winners and a sentence saying how the tie policy decided (RTC-V1)."""
    low = min(scores.values())
    lowest = tuple(sorted(s for s, v in scores.items() if v == low))
    if len(lowest) == 1:
        return lowest, f"{players[lowest[0]]} has the lowest score, {low}, and wins the round (RTC-51)."
    tie = f"{_names(lowest, players)} tie on {low}."
    two = len(lowest) == 2  # "both" for two, "all" for three or more
    if policy == "all_lowest":
        return lowest, (f"{tie} Tie policy all_lowest (RTC-V1): "
                        + ("both players on the lowest score win." if two
                           else "every player on the lowest score wins."))
    if policy == "no_winner":
        return (), f"{tie} Tie policy no_winner (RTC-V1): a tied round has no winner."
    if caller is None or caller not in lowest:
        return lowest, (f"{tie} Tie policy {policy} (RTC-V1): the caller is not among them, "
                        f"so they {'both' if two else 'all'} win.")
    if policy == "all_lowest_except_caller":
        winners = tuple(s for s in lowest if s != caller)
        return winners, (f"{tie} Tie policy all_lowest_except_caller (RTC-V1): the caller "
                         f"{players[caller]} loses the tie, so {_names(winners, players)} "
                         f"win{'s' if len(winners) == 1 else ''}.")
    if policy == "caller_wins_ties":
        return (caller,), (f"{tie} Tie policy caller_wins_ties (RTC-V1): the caller "
                           f"{players[caller]} wins the tie.")
    raise ValueError(f"unknown tie policy {policy!r}")


def lowest_totals(totals: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    low = min(totals[s] for s in seats)
    return tuple(s for s in seats if totals[s] == low)


def eliminated_now(totals: Sequence[int], seats: Sequence[int], threshold: int,
                   inclusive: bool) -> tuple[int, ...]:
    """Seats whose cumulative total reaches (or, not inclusive, exceeds) the threshold (RTC-V15)."""
    return tuple(s for s in seats if totals[s] > threshold or (inclusive and totals[s] == threshold))


def match_winners_sentence(winners: Sequence[int], totals: Sequence[int], players: Sequence[str],
                           why: str) -> str:
    if len(winners) == 1:
        return f"{players[winners[0]]} wins the match with {totals[winners[0]]} ({why})."
    return (f"{_names(winners, players)} share the win on {totals[winners[0]]} "
            f"({why}; a tie shares the win, RTC-55).")
