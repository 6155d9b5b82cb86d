"""Soft auction evidence: fairy500 worlds weighed by how well they explain the bids.

A world drawn by ``state.sample_world(seat, rng)`` gives every other seat a hand that
agrees with what the seat has seen, but not with what those seats said in the
auction: a uniform world happily hands a seat that bid ``8c`` a hand without a cup.
:class:`AuctionEvidence` weighs a world by the likelihood of each other seat's
auction moves of the current hand, had it held its dealt hand *in that world* and bid
by the heuristic's rule (:class:`~xtarot.agents.heuristic.fairy500.Fairy500Heuristic`,
through :func:`~xtarot.agents.heuristic.fairy500.bid_inputs`), made **soft**:

- per trump ``d`` the heuristic counts ``r_d = est_d - margin`` tricks and may bid
  ``min(10, int(r_d))`` of them; here each ``r_d`` is blurred by logistic noise of
  scale ``temperature`` (tricks), independently per trump, and each misère danger by
  logistic noise of scale ``misere_temperature``;
- the heuristic bids the most valuable legal contract in reach, or passes when none
  is.  A bid ``k d`` of value ``V`` so says ``k <= r_d < k + 1`` (``r_d >= 10`` for
  ten tricks), that every other trump's reach stays under its cheapest contract worth
  more than ``V``, and that no misère worth more than ``V`` was safe enough; a misère
  bid says its danger was under its limit (and over the limit of a more valuable
  kind), and that no trick contract worth more was in reach; a pass says that no
  legal contract (worth more than the standing bid) was in reach;
- the probability of the move is that of its conditions under the noise, taken as
  independent, mixed with ``floor`` of a uniform choice among the legal moves (a seat
  need not bid as the heuristic does: a bid the heuristic never makes, a double, is
  not ruled out, and a world is never weighed 0).

The log-likelihood of a world is the sum over the other seats' auction moves of the
current hand.  It reads only the world: its current deal (the dealt hands, before
any kitty) and its public auction, which are the same in every world of a position;
so from the true state and from any state the seat cannot tell from it the weights
are the same (tested).  The seat's own moves are never weighed.

It plugs into :func:`xtarot.engine.sample_world_weighted` (:meth:`log_weight`) and
:func:`xtarot.agents.inference.inferred_decision` (a weighted pool per decision), as
inference by policy does; the expert uses it in fairy500 with ``auction=T`` (the
temperature; off by default: measured, it did not make the expert's contracts more
often).  Where, why and what it measured: docs/agents.md, *Soft auction evidence
(fairy500)*.

>>> import xtarot
>>> from xtarot.agents import decision_for, make_agent
>>> state = xtarot.load("fairy500", players=4, hands=1).new_state(seed=3)
>>> bot = make_agent("heuristic", 0)
>>> for _ in range(4):
...     _ = state.apply(bot.act(decision_for(state)))
>>> evidence = AuctionEvidence(temperature=0.5)
>>> seat = state.current_player
>>> evidence.informs(state.view(seat), seat)
True
>>> evidence.log_likelihood(state, seat) <= 0.0
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from xtarot.agents.heuristic import fairy500 as f5
from xtarot.cards import card
from xtarot.engine import State
from xtarot.games.fairy500.setup import bid_value, misere_value

__all__ = ["TEMPERATURE", "AuctionEvidence"]

#: the default blur of the trick counts, in tricks
TEMPERATURE: Final = 0.5
#: the default blur of the misère dangers (the heuristic's limits are 0.15 and 0.35)
MISERE_TEMPERATURE: Final = 0.1
#: the default share of a uniform choice among the legal moves in a move's probability
FLOOR: Final = 0.02

_TRICKS: Final = range(6, 11)


def _cdf(x: float) -> float:
    """The logistic distribution's ``P(noise < x)`` (scale 1)."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


class AuctionEvidence:
    """Weigh fairy500 worlds by the other seats' auction moves under the heuristic's
    bidding rule, softly (module docstring).

    ``temperature`` (> 0, tricks): the scale of the logistic blur of each trump's trick
    count (smaller is sharper); ``misere_temperature`` (> 0): the same for the misère
    dangers; ``floor`` (0 <= floor < 1): the share of a uniform choice among the legal
    moves in every move's probability.
    """

    game: Final = "fairy500"

    def __init__(
        self,
        *,
        temperature: float = TEMPERATURE,
        misere_temperature: float = MISERE_TEMPERATURE,
        floor: float = FLOOR,
    ) -> None:
        for label, value in (
            ("temperature", temperature),
            ("misere_temperature", misere_temperature),
        ):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 0 < value < math.inf
            ):
                raise ValueError(f"{label} must be a positive number of tricks, not {value!r}")
        if isinstance(floor, bool) or not isinstance(floor, int | float) or not 0 <= floor < 1:
            raise ValueError(f"floor must be a share from 0 (included) to 1, not {floor!r}")
        self.temperature = float(temperature)
        self.misere_temperature = float(misere_temperature)
        self.floor = float(floor)
        # the auction of the last position weighed: (its key, the parsed moves)
        self._plan: tuple[tuple[Any, ...], list[tuple[int, str, int, int]]] | None = None

    # -- one move -----------------------------------------------------------------------
    def move_probability(
        self,
        ests: Sequence[float],
        danger_ex: float,
        danger_hand: float,
        players: int,
        move: str,
        standing: int,
        legal: int,
    ) -> float:
        """The probability of ``move`` (``"pass"`` or a bid's text) from a hand whose
        :func:`~xtarot.agents.heuristic.fairy500.bid_inputs` are ``ests``,
        ``danger_ex``, ``danger_hand``, when the standing bid is worth ``standing``
        (0: none yet) and there are ``legal`` legal moves."""
        tau = self.temperature
        reach = [e - f5._MARGIN for e in ests]
        denoms = f5.DENOMINATIONS

        def under(i: int, above: int) -> float:
            """P(trump ``i`` reaches no contract worth more than ``above``)."""
            for t in _TRICKS:
                if bid_value(t, denoms[i]) > above:
                    return _cdf((t - reach[i]) / tau)
            return 1.0

        def misere_safe(above: int, skip: bool | None = None) -> float:
            """P(no misère kind worth more than ``above`` is safe enough to bid); the
            kinds read off the danger ``skip`` (whole hand or not) left out."""
            p = 1.0
            limit_ex = None
            for kind, limit, whole in f5.MISERE_RULES:
                if misere_value(kind, "", players) <= above or whole is skip:
                    continue
                if whole:
                    p *= 1.0 - _cdf((limit - danger_hand) / self.misere_temperature)
                else:
                    limit_ex = limit if limit_ex is None else max(limit_ex, limit)
            if limit_ex is not None:
                p *= 1.0 - _cdf((limit_ex - danger_ex) / self.misere_temperature)
            return p

        model = 0.0
        if move == "pass":
            model = misere_safe(standing)
            for i in range(len(denoms)):
                model *= under(i, standing)
        else:
            text = move[4:] if move.startswith("bid ") else move
            trick = _parse_trick(text)
            if trick is not None:
                k, d = trick
                value = bid_value(k, d)
                j = denoms.index(d)
                high = 1.0 if k == 10 else _cdf((k + 1 - reach[j]) / tau)
                model = (high - _cdf((k - reach[j]) / tau)) * misere_safe(value)
                for i in range(len(denoms)):
                    if i != j:
                        model *= under(i, value)
            else:
                model = self._misere_probability(text, danger_ex, danger_hand, players)
                if model > 0.0:
                    value = misere_value(text, "", players)
                    whole = next(w for k, _, w in f5.MISERE_RULES if k == text)
                    # (the kinds read off the same danger: in _misere_probability)
                    model *= misere_safe(value, skip=whole)
                    for i in range(len(denoms)):
                        model *= under(i, value)
        return (1.0 - self.floor) * model + self.floor / max(1, legal)

    def _misere_probability(
        self, kind: str, danger_ex: float, danger_hand: float, players: int
    ) -> float:
        """P(the misère ``kind`` is safe enough and the most valuable safe kind of those
        read off the same danger); 0 for a kind the heuristic never bids."""
        rules = {k: (limit, whole) for k, limit, whole in f5.MISERE_RULES}
        if kind not in rules:
            return 0.0
        limit, whole = rules[kind]
        tm = self.misere_temperature
        danger = danger_hand if whole else danger_ex
        p = _cdf((limit - danger) / tm)
        value = misere_value(kind, "", players)
        # a more valuable kind read off the same danger, with a lower limit: the danger
        # lies between the two limits
        tighter = [
            lim
            for k, lim, w in f5.MISERE_RULES
            if w == whole and misere_value(k, "", players) > value and lim < limit
        ]
        if tighter:
            p -= _cdf((max(tighter) - danger) / tm)
        return max(0.0, p)

    # -- a world --------------------------------------------------------------------------
    def informs(self, view: Mapping[str, Any], seat: int) -> bool:
        """Whether another seat has made an auction move in the current hand (else
        every world weighs the same)."""
        return view.get("game") == self.game and any(
            s != seat for s, _ in view.get("auction") or ()
        )

    def _moves(self, world: State, seat: int) -> list[tuple[int, str, int, int]]:
        """The other seats' auction moves of the world's current hand: (seat, move,
        the standing bid's value before it, the legal moves there).  Public: the same
        in every world of a position, so parsed once per position."""
        auction = world.peek_public_view()["auction"]
        key = (seat, len(world.history), *(tuple(x) for x in auction))
        if self._plan is not None and self._plan[0] == key:
            return self._plan[1]
        game: Any = world.game
        values: Mapping[int, int] = game.bid_values
        standing = 0
        out: list[tuple[int, str, int, int]] = []
        for s, text in auction:
            if s != seat:
                legal = len(game.bid_table.pass_or_above(standing))
                out.append((int(s), str(text), standing, legal))
            if text != "pass":
                standing = values[game.action(text).id]
        self._plan = (key, out)
        return out

    def log_likelihood(self, world: State, seat: int) -> float:
        """``sum log P(move)`` over the other seats' auction moves of the world's
        current hand, each from that seat's dealt hand in ``world``."""
        if world.game.id != self.game:
            raise ValueError(f"auction evidence is for {self.game}, not {world.game.id}")
        moves = self._moves(world, seat)
        if not moves:
            return 0.0
        players = world.game.players
        hands = world.deals[-1]["hands"]
        inputs: dict[int, tuple[list[float], float, float]] = {}
        total = 0.0
        for s, move, standing, legal in moves:
            got = inputs.get(s)
            if got is None:
                got = inputs[s] = f5.bid_inputs([card(c).index for c in hands[s]], players)
            ests, danger_ex, danger_hand = got
            p = self.move_probability(ests, danger_ex, danger_hand, players, move, standing, legal)
            total += math.log(p) if p > 0.0 else -math.inf
        return total

    def log_weight(self, seat: int) -> Callable[[State], float]:
        """``log_weight`` for ``xtarot.engine.sample_world_weighted`` (worlds of ``seat``)."""
        return lambda world: self.log_likelihood(world, seat)


def _parse_trick(text: str) -> tuple[int, str] | None:
    """``"8c"`` -> ``(8, "c")``, ``"6nt"`` -> ``(6, "nt")``; ``None`` for a misère."""
    digits = 0
    while digits < len(text) and text[digits].isdigit():
        digits += 1
    if not digits or text[digits:] not in f5.DENOMINATIONS:
        return None
    return int(text[:digits]), text[digits:]
