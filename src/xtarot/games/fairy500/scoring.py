"""得点 (scoring) of one hand of Fairy Five Hundred: pure functions over the results.

Every function returns the hand's score per seat and a JSON-ready breakdown.
Amounts are exact (halves and x1.5 / x7.5 factors occur): whole numbers are
returned as ``int``, the rest as ``float``.

>>> contract_scores([6, 1, 2, 1], 0, {}, 0, tricks_bid=6, base=40, classical=False)[0]
[40, 10, 20, 10]
>>> misere_bonus(["Fc", "Fs"], "crazy")
4
>>> ramsch_scores([[], ["Fd"], []], [0, 0, 10], [0, 0, 10])[0]
[150, 300, -500]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

__all__ = [
    "RAMSCH_AMOUNTS",
    "contract_scores",
    "misere_bonus",
    "misere_scores",
    "number",
    "ramsch_scores",
    "ten_per_trick_scores",
]

#: ラムシュ: what each successful player scores, by how many succeeded (6 or more: 50).
RAMSCH_AMOUNTS = {1: 300, 2: 150, 3: 100, 4: 80, 5: 60}
_F_ORDER = ("Fc", "Fd", "Fw", "Fs")


def number(x: Fraction | int) -> int | float:
    """A whole amount as ``int``, any other as ``float``."""
    if type(x) is int:
        return x
    x = Fraction(x)
    return int(x) if x.denominator == 1 else float(x)


def _halves(k: int) -> Fraction | int:
    """k/2, exact (an ``int`` when whole)."""
    return k // 2 if k % 2 == 0 else Fraction(k, 2)


def _half(k: int) -> int | float:
    """``number(_halves(k))``: k/2 as an ``int`` when whole, else as a ``float`` (exact:
    a true division of whole numbers is rounded correctly), without a ``Fraction``,
    which cost a search's play-out a scoring as dear as its tricks.

    >>> [_half(k) for k in (6, 7, -7)] == [number(_halves(k)) for k in (6, 7, -7)]
    True
    """
    if type(k) is not int:
        return number(Fraction(k) / 2)
    return k // 2 if k % 2 == 0 else k / 2


def contract_scores(
    tricks: Sequence[int],
    declarer: int,
    partners: dict[int, int],
    held_by_declarer: int,
    *,
    tricks_bid: int,
    base: int,
    classical: bool,
) -> tuple[list[int | float], dict[str, Any]]:
    """A trick contract.  ``partners`` maps each partner (副官) to the number of called
    cards they held (the pair-mode partner counts as one); ``held_by_declarer`` is how
    many called cards ended in the declarer's hand or discards."""
    side = {declarer, *partners}
    side_tricks = sum(tricks[s] for s in side)
    made = side_tricks >= tricks_bid
    bonus = 0
    if made and tricks_bid == 9 and side_tricks >= 9:
        bonus = 100  # スモールスラム
    if made and tricks_bid == 10 and side_tricks == 10:
        bonus = 300  # グランドスラム
    value = base + bonus
    if classical and side_tricks == 10:
        value = max(value, 250)
    sign = 1 if made else -1
    factor2 = 2 + held_by_declarer  # twice the declarer's factor, 1 + held / 2
    out: list[int | float] = [10 * t for t in tricks]
    out[declarer] = _half(sign * value * factor2)
    for seat, held in partners.items():
        out[seat] = _half(sign * value * held)
    detail = {
        "side": sorted(side),
        "side_tricks": side_tricks,
        "made": made,
        "bonus": bonus,
        "value": number(value),
        "declarer_factor": _half(factor2),
    }
    return out, detail


def misere_bonus(play_hand_fairies: Sequence[str], declaration: str) -> Fraction | int:
    """ボーナスマルチプライ: the F of the playing hand taken strongest first."""
    return _halves(_twice_bonus(play_hand_fairies, declaration))


#: twice the first F's multiplier (x7.5 and x1.5 occur), by whether it is the cups F
_FIRST_TWICE: dict[bool, dict[str, int]] = {
    True: {"crazy": 4, "double": 15, "": 20},
    False: {"double": 3, "": 4},
}


def _twice_bonus(play_hand_fairies: Sequence[str], declaration: str) -> int:
    """Twice :func:`misere_bonus`, a whole number."""
    fs = [f for f in _F_ORDER if f in play_hand_fairies]
    if not fs:
        return 2
    if fs[0] == "Fc":
        first = _FIRST_TWICE[True][declaration]
    else:
        first = _FIRST_TWICE[False].get(declaration, 2)
    return first * (2 if len(fs) >= 2 else 1)


def misere_scores(
    tricks: Sequence[int],
    declarer: int,
    *,
    value: int,
    declaration: str,
    play_hand_fairies: Sequence[str],
) -> tuple[list[int | float], dict[str, Any]]:
    """A misère: the declarer must take no trick (and hold the F it declared)."""
    has_f = bool(play_hand_fairies)
    needed = {"": True, "double": has_f, "crazy": "Fc" in play_hand_fairies}[declaration]
    taken = tricks[declarer]
    made = taken == 0 and needed
    factor2 = _twice_bonus(play_hand_fairies, declaration) if made else 2
    out: list[int | float] = [10 * taken] * len(tricks)
    out[declarer] = _half(value * factor2) if made else number(-value)
    detail = {
        "made": made,
        "declarer_tricks": taken,
        "declared_f_held": needed,
        "value": value,
        "f_bonus": _half(factor2),
    }
    return out, detail


def ramsch_scores(
    dealt_fairies: Sequence[Sequence[str]],
    plain_tricks: Sequence[int],
    tricks_taken: Sequence[int],
) -> tuple[list[int | float], dict[str, Any]]:
    """ラムシュ.  ``plain_tricks[s]``: the tricks seat s took that were not won with an F
    (each costs 50); ``tricks_taken[s]``: every trick it took.  A seat succeeds with
    no trick at all and scores the amount, x2 per non-cups F and x10 for the cups F
    of ``dealt_fairies[s]``."""
    winners = [s for s, t in enumerate(tricks_taken) if t == 0]
    amount = RAMSCH_AMOUNTS.get(len(winners), 50)
    out: list[int] = []
    factors: list[int] = []
    for s, fs in enumerate(dealt_fairies):
        factor = 1
        for f in fs:
            factor *= 10 if f == "Fc" else 2
        factors.append(factor)
        out.append(amount * factor if s in winners else -50 * plain_tricks[s])
    detail = {"successful": winners, "amount": amount, "f_factors": factors}
    return out, detail


def ten_per_trick_scores(tricks: Sequence[int]) -> tuple[list[int | float], dict[str, Any]]:
    """The all-pass game of option ``all_pass=ten_per_trick``: 10 per trick for all."""
    return [10 * t for t in tricks], {}
