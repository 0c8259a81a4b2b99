"""Scoring a Cabo / Cambio round and the match (RULES.md §2.2, CAB-40..45): the round's scores under the
table's scoring (CAB-V9), Kamikaze (CAB-42), the round's winners under Rat-a-Tat Cat's tie switch (RTC-V1,
CAB-A4), exactly 100 → 50 (CAB-43, CAB-V11) and who deals and plays first next (CAB-45)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .cabo_cards import point_table, points
from .ratatat_scoring import lowest_totals, round_winners  # noqa: F401 - lowest_totals for cabo_apply
from .ratatat_state import next_seat

KAMIKAZE = (12, 12, 13, 13)


def names(seats: Sequence[int], players: Sequence[str]) -> str:
    out = [players[s] for s in seats]
    if len(out) <= 2:
        return " and ".join(out)
    return ", ".join(out[:-1]) + " and " + out[-1]


def round_scores(cards: Mapping[int, tuple[str, ...]], caller: int | None, rules: Mapping[str, Any],
                 players: Sequence[str], deck_out: bool = False
                 ) -> tuple[dict[int, int], dict[int, int], tuple[int, ...], str, int | None]:
    """(sums, scores, winners, explanation, kamikaze seat) of a round whose cards are all revealed."""
    table = point_table(rules)
    pts = {s: [table[c] if c in table else points(c, rules) for c in cs] for s, cs in cards.items()}
    sums = {s: sum(p) for s, p in pts.items()}
    low = min(sums.values())
    kamikaze = None
    if rules["kamikaze"]:
        for s, p in pts.items():
            if len(p) == 4 and tuple(sorted(p)) == KAMIKAZE:
                kamikaze = s
    why: list[str] = []
    if deck_out:
        why.append("The draw pile ran out and ended the round (CAB-22).")
    if kamikaze is not None:
        scores = {s: 0 if s == kamikaze else 50 for s in sums}
        why.append(f"Kamikaze: {players[kamikaze]} ended on 12, 12, 13 and 13, so scores 0 and everyone else "
                   "scores 50 (CAB-42).")
    elif rules["round_score"] == "cabo_2e":
        scores = dict(sums)
        if caller is None:
            why.append("Nobody called, so everyone scores their sum and nobody gets the caller's 0 (CAB-40).")
        elif sums[caller] == low:
            scores[caller] = 0
            why.append(f"{players[caller]} called with the lowest sum, {low}"
                       f"{' (a tie counts)' if list(sums.values()).count(low) > 1 else ''}, so scores 0; "
                       "everyone else scores their sum (CAB-40).")
        else:
            scores[caller] = sums[caller] + 10
            why.append(f"{players[caller]} called with {sums[caller]}, not the lowest sum ({low}), so scores "
                       f"{sums[caller]} + 10 = {scores[caller]} (CAB-40).")
    elif rules["round_score"] == "cabo_1e":
        lowest = tuple(s for s in sums if sums[s] == low)
        scores = {s: 0 if sums[s] == low else sums[s] for s in sums}
        why.append(f"{names(lowest, players)} {'has' if len(lowest) == 1 else 'have'} the lowest sum, {low}, "
                   f"and score{'s' if len(lowest) == 1 else ''} 0 (CAB-41).")
        if caller is not None and sums[caller] != low:
            scores[caller] = sums[caller] + 5
            why.append(f"{players[caller]} called but was not lowest: {sums[caller]} + 5 = {scores[caller]}.")
    else:
        scores = dict(sums)
        why.append("Everyone scores their sum (CAB-44).")
    policy = rules["tie_policy"]
    winners, _ = round_winners(scores, caller, policy, players)
    best = min(scores.values())
    tied = tuple(s for s in scores if scores[s] == best)
    if len(tied) == 1:
        why.append(f"{players[tied[0]]} has the lowest score, {best}, and wins the round.")
    elif not winners:
        why.append(f"{names(tied, players)} tie on {best}: under this table's tie rule a tied round has no "
                   "winner (CAB-V9).")
    else:
        why.append(f"{names(tied, players)} tie on {best}: under this table's tie rule (CAB-V9, CAB-A4) "
                   f"{names(winners, players)} win{'s' if len(winners) == 1 else ''} the round.")
    return sums, scores, winners, " ".join(why), kamikaze


def resets(totals: list[int], seats: Sequence[int], mode: str, used: frozenset[int]
           ) -> tuple[tuple[int, ...], frozenset[int]]:
    """CAB-43 / CAB-V11: every total of exactly 100 drops to 50 — once per player per match (``once``),
    every time (``unlimited``), or never (``off``). Changes ``totals`` in place."""
    if mode == "off":
        return (), used
    reset = []
    for s in seats:
        if totals[s] == 100 and (mode == "unlimited" or s not in used):
            totals[s] = 50
            reset.append(s)
    return tuple(reset), used | set(reset)


def next_order(scores: Mapping[int, int], totals: Sequence[int], seats: tuple[int, ...], dealer: int,
               n_players: int, mode: str, winners: Sequence[int] = ()) -> tuple[int, int]:
    """(dealer, first player) of the next round. ``clockwise``: the deal passes to the left, and the
    dealer's left plays first. ``winner_first`` (CAB-45): the round's winner plays first and its loser
    deals; a tie for winner goes to the lowest total, a tie for loser to the highest total, and a tie
    after that to the seat nearest the last dealer's left. If one player would do both, the winner
    plays first and the player on their right deals. ``winners``: the round's winners under the tie
    switch (RTC-V1, CAB-A4), when it named any; a caller who loses a tie does not play first."""
    left = next_seat(seats, dealer, n_players)
    if mode == "clockwise":
        return left, next_seat(seats, left, n_players)

    def distance(s: int) -> int:
        return (s - left) % n_players

    first = min(tuple(winners) or seats, key=lambda s: (scores[s], totals[s], distance(s)))
    new_dealer = min(seats, key=lambda s: (-scores[s], -totals[s], distance(s)))
    if new_dealer == first:
        new_dealer = next(x for x in sorted(seats, key=lambda s: -((s - first) % n_players)))
    return new_dealer, first


def match_outcome(winners: Sequence[int], totals: Sequence[int], players: Sequence[str], why: str) -> str:
    if len(winners) == 1:
        return f"{players[winners[0]]} wins the match with {totals[winners[0]]} ({why})."
    return f"{names(winners, players)} share the win on {totals[winners[0]]} ({why})."
