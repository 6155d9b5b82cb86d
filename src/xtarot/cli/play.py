"""``xtarot play``: one human seat in the terminal against bots.

The human only ever sees ``state.view(seat)``: before each of their decisions the
whole table screen, and after every action what they saw happen (the action as
``state.action_seen_by`` shows it to them, so a face-down bid stays hidden).
Bots choose through :func:`xtarot.agents.decision_for`, which hands them only their
own view; so does the hint (``?``) for the human's seat.

Every bot decision is made by a bot created afresh from ``(match seed, seat, move
number)``: a bot's choice depends only on the position, which makes ``undo`` and
``--resume`` exact — the continued match is the one that would have been played.

At the prompt: a move's number, its canonical text or just its last words (a card
code); ``?`` a hint with the bot's explanation; ``rules`` the rules summary;
``undo`` takes back the human's own last decision (with the bots' moves after it);
``q`` quits and offers to save the record, which ``xtarot play --resume FILE``
continues.
"""

from __future__ import annotations

import copy
import difflib
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

import xtarot
from xtarot.agents import Agent, ISMCTSAgent, decision_for, make_agent
from xtarot.agents.heuristic import STRATEGIES
from xtarot.cards import UNIVERSE
from xtarot.cli.i18n import rules_text, seat_label, t
from xtarot.cli.render import GameUI, SafeUI, action_text, as_card, ui_for
from xtarot.engine import Action, Game, IllegalAction, RecordError, State
from xtarot.record import save_record

__all__ = [
    "PlaySession",
    "RecordError",
    "bot_seed",
    "example",
    "load_for_resume",
    "make_bot",
    "move_seed",
    "rebuild",
]

_QUIT = {"q", "quit", "exit", ":q", "終了", "中断"}
_YES = {"y", "yes", "はい", "h"}
_HINT = {"?", "？", "hint", "ヒント"}
_RULES = {"rules", "rule", "ルール"}
_UNDO = {"undo", "u", "取り消し", "待った"}
#: Thinking time of the hint's search bot (games without a heuristic bot); the
#: environment variable ``XTAROT_HINT_SECONDS`` changes it.
HINT_SECONDS = 0.5


def hint_seconds() -> float:
    try:
        return max(0.01, float(os.environ.get("XTAROT_HINT_SECONDS", HINT_SECONDS)))
    except ValueError:
        return HINT_SECONDS


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a match with ``seed`` (reproducible).

    >>> bot_seed(7, 0) != bot_seed(7, 1)
    True
    """
    return (seed * 1_000_003 + 7919 * (seat + 1)) % (1 << 48)


def move_seed(seed: int, seat: int, ply: int) -> int:
    """The seed of the bot making move number ``ply`` (0-based) for ``seat``.

    >>> move_seed(7, 1, 0) == move_seed(7, 1, 0) != move_seed(7, 1, 1)
    True
    """
    return (bot_seed(seed, seat) * 6_364_136_223 + 1_442_695_041 * (ply + 1)) % (1 << 48)


def make_bot(spec: str, seed: int | None) -> Agent:
    """A bot from its name, optionally with a budget: ``ismcts:200`` (iterations per
    move), ``pimc:20`` (worlds per move); raises ``ValueError`` for a bad spec.

    >>> make_bot("ismcts:50", 1).iterations, make_bot("random", 1).name
    (50, 'random')
    """
    name, sep, budget = spec.partition(":")
    if not sep:
        return make_agent(name, seed)
    if name not in ("ismcts", "pimc") or not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"bad bot {spec!r}: a budget is ismcts:N or pimc:N, N >= 1")
    key = "iterations" if name == "ismcts" else "worlds"
    return make_agent(name, seed, **{key: int(budget)})


def example(legal: Sequence[Action]) -> str:
    """The three ways to name one of these moves: ``2, play Kc, Kc``.

    >>> import xtarot
    >>> example(xtarot.load("matto", players=3).actions[1:4])
    '3, buy T1, T1'
    """
    for i, a in enumerate(legal, 1):
        words = a.text.split()
        if len(words) > 1 and as_card(words[-1].split("=")[0]) is not None:
            return f"{i}, {a.text}, {words[-1]}"
    return f"1, {legal[0].text}" if legal else "1"


_CODES = {c.code.lower(): c.code for c in UNIVERSE}


def canonical(text: str) -> str:
    """A typed move with its words lower-cased and its card codes spelt canonically.

    >>> canonical("ATTACK kc 10S at t3")
    'attack Kc 10s at T3'
    """
    return " ".join(_CODES.get(w.lower(), w.lower()) for w in text.split())


def rebuild(record: dict[str, Any], upto: int | None = None) -> State:
    """The state of a record after ``upto`` actions (all by default).

    A match started from its seed is rebuilt from the seed, so the hands that
    follow are shuffled exactly as they would have been; any other record (a
    hand-built deal) is replayed with :func:`xtarot.replay`.
    """
    actions = list(record.get("actions", []))
    limit = len(actions) if upto is None else min(upto, len(actions))
    full = xtarot.replay(record, upto=limit)  # validates the record (RecordError)
    game = full.game
    fresh = game.new_state(seed=record["seed"])
    try:
        for text in actions[:limit]:
            fresh.apply(text)
    except IllegalAction:
        return full
    if fresh.deals != full.deals:
        return full
    return fresh


class _Quit(Exception):
    """The human asked to stop (or closed the input)."""

    def __init__(self, ask: bool) -> None:
        super().__init__("quit")
        self.ask = ask


class _Undo(Exception):
    """The human asked to take back their last decision."""


class PlaySession:
    """One interactive match: ``run()`` plays it and returns the exit code.

    ``bots`` maps every other seat to a bot name (see :func:`xtarot.agents.make_agent`).
    ``state`` continues a match in progress (``--resume``); ``delay`` is the pause
    after each bot move in seconds (``fast`` or a non-terminal output: none).
    """

    def __init__(
        self,
        console: Console,
        game: Game,
        seat: int,
        bots: Mapping[int, str],
        seed: int,
        lang: str,
        *,
        save: Path | None = None,
        fast: bool = False,
        delay: float = 0.6,
        meta: dict[str, Any] | None = None,
        command: str | None = None,
        state: State | None = None,
        resumed_from: Path | None = None,
    ) -> None:
        self.console = console
        self.game = game
        self.seat = seat
        self.bots = dict(bots)
        self.seed = seed
        self.lang = lang
        self.save = save
        self.fast = fast or not console.is_terminal
        self.delay = 0.0 if self.fast else max(0.0, delay)
        self.meta = meta or {}
        self.command = command
        self.state = state
        self.resumed_from = resumed_from
        self.ui: GameUI = SafeUI(ui_for(game.id))
        self.title = f"{game.info.name(lang)} — {seat_label(seat, lang, seat)}"
        self.actors: list[int] = []
        self._helped = False

    # -- output helpers ------------------------------------------------------------
    def say(self, *items: Any, style: str | None = None) -> None:
        self.console.print(*items, style=style, highlight=False)

    def pause(self) -> None:
        if self.delay > 0:
            time.sleep(self.delay)

    def ask(self, prompt: str) -> str:
        """Read one line; ``EOFError`` / ``KeyboardInterrupt`` propagate."""
        return self.console.input(Text(prompt + " ", style="bold"))

    def confirm(self, prompt: str) -> bool:
        try:
            answer = self.ask(f"{prompt} {t('yes_no', self.lang)}")
        except (EOFError, KeyboardInterrupt):
            self.say("")
            return False
        return answer.strip().lower() in _YES

    # -- the match -----------------------------------------------------------------
    def seen(self, state: State) -> dict[str, Any]:
        """The human's view, copied: it must not change when the state moves on."""
        return copy.deepcopy(state.view(self.seat))

    def agent_for(self, state: State, seat: int) -> Agent:
        """A fresh bot for this one decision, seeded by the position (see module doc)."""
        return make_bot(self.bots[seat], move_seed(self.seed, seat, len(state.history)))

    def _actors_of(self, state: State) -> list[int]:
        """Who made each move of ``state.history`` (walking the record again)."""
        walk = rebuild(state.record(), upto=0)
        out: list[int] = []
        for a in state.history:
            assert walk.current_player is not None
            out.append(walk.current_player)
            walk.apply(a.text)
        return out

    def run(self) -> int:
        state = self.state if self.state is not None else self.game.new_state(seed=self.seed)
        self.actors = self._actors_of(state) if state.history else []
        if self.resumed_from is not None:
            self.say(
                Text(t("resumed", self.lang, path=self.resumed_from, moves=len(state.history)))
            )
            if state.is_terminal:
                self.say(Text(t("resume_over", self.lang), style="yellow"))
                self.finish(state, offer_save=False)
                return 0
        before = self.seen(state)
        for line in self.ui.opening(before, self.lang):
            self.say(line)
        hands = len(state.deals)
        start_totals = self._hand_start_totals(state)
        try:
            while not state.is_terminal:
                actor = state.current_player
                assert actor is not None
                if actor == self.seat:
                    try:
                        action = self.human_turn(state)
                    except _Undo:
                        state = self.undo(state)
                        before = self.seen(state)
                        hands = len(state.deals)
                        start_totals = self._hand_start_totals(state)
                        continue
                    seen = action if isinstance(action, str) else action.text
                else:
                    action = self.bot_choice(state, actor)
                    seen = state.action_seen_by(action, self.seat)
                done = len(state.history)
                state.apply(action)
                self.state = state
                self.actors += [actor] * (len(state.history) - done)
                after = self.seen(state)
                if actor == self.seat:
                    self.say(
                        Text(t("you_did", self.lang, action="")).append_text(
                            action_text(seen, self.lang)
                        )
                    )
                for line in self.ui.announce(before, after, actor, self.lang, seen=seen):
                    if actor == self.seat and line.plain.startswith(
                        seat_label(actor, self.lang, self.seat)
                    ):
                        continue  # the "You: ..." line said it already
                    self.say(line)
                if len(state.deals) > hands:
                    self.hand_break(state, before, after, hands, start_totals)
                    hands = len(state.deals)
                    start_totals = list(state.scores().totals)
                elif actor != self.seat:
                    self.pause()
                before = after
        except (_Quit, KeyboardInterrupt) as q:
            # Ctrl-C (also while a bot thinks) quits like ``q``: it offers to save.
            ask = q.ask if isinstance(q, _Quit) else True
            if not isinstance(q, _Quit):
                self.say("")
            self.say(t("quit_done", self.lang), style="yellow")
            self.show_reproduce()
            if ask and (self.save is not None or self.confirm(t("quit_save", self.lang))):
                self.write_record(state)
            return 0
        self.finish(state, start_totals=start_totals)
        return 0

    def _hand_start_totals(self, state: State) -> list[float]:
        """The running totals when the current hand began (after an undo)."""
        walk = rebuild(state.record(), upto=0)
        totals = list(walk.scores().totals)
        for a in state.history:
            n = len(walk.deals)
            walk.apply(a.text)
            if len(walk.deals) > n:
                totals = list(walk.scores().totals)
        return totals

    def bot_choice(self, state: State, seat: int) -> Action:
        """Let the bot at ``seat`` choose from its own view (not yet applied)."""
        agent = self.agent_for(state, seat)
        decision = decision_for(state)
        console = self.console
        if console.is_terminal and not console.is_dumb_terminal:
            label = t("thinking", self.lang, seat=seat_label(seat, self.lang))
            with console.status(label, spinner="dots"):
                return agent.act(decision)
        return agent.act(decision)

    def undo(self, state: State) -> State:
        """Go back to just before the human's last decision (and say which it was)."""
        mine = [i for i, s in enumerate(self.actors) if s == self.seat]
        if not mine:
            self.say(Text(t("undo_none", self.lang), style="yellow"))
            return state
        k = mine[-1]
        taken = state.history[k].text
        back = rebuild(state.record(), upto=k)
        self.actors = self.actors[:k]
        self.state = back
        self.say(Text(t("undo_done", self.lang, action=taken), style="yellow"))
        return back

    def hand_break(
        self,
        state: State,
        before: dict[str, Any],
        after: dict[str, Any],
        finished: int,
        start_totals: Sequence[float],
    ) -> None:
        """Between two hands: the hand's summary and the running score table."""
        self.say("")
        self.say(Text(t("hand_over", self.lang, n=finished), style="bold"))
        for item in self.ui.hand_end(before, after, self.lang):
            self.say(item)
        self.say(self.hand_table(state.scores().to_dict(), start_totals, finished))
        if not self.fast:
            try:
                self.console.input(Text(t("next_hand_enter", self.lang), style="dim"))
            except (EOFError, KeyboardInterrupt):
                self.say("")
                raise _Quit(ask=False) from None
        self.say(Text(t("hand_begins", self.lang, n=len(state.deals)), style="bold cyan"))
        for line in self.ui.opening(after, self.lang):
            self.say(line)

    def hand_table(self, scores: dict[str, Any], start: Sequence[float], n: int) -> Table:
        """Seat, points of hand ``n`` and running total, best first."""
        lang = self.lang
        totals = scores["totals"]
        table = Table(title=t("hand_title", lang, n=n), show_edge=False, pad_edge=False)
        table.add_column(t("col_rank", lang), justify="right")
        table.add_column(t("col_seat", lang))
        table.add_column(t("col_this_hand", lang), justify="right")
        table.add_column(t("col_total", lang), justify="right")
        order = sorted(range(len(totals)), key=lambda s: (scores["ranks"][s], s))
        for s in order:
            gained = totals[s] - (start[s] if s < len(start) else 0.0)
            table.add_row(
                str(scores["ranks"][s]),
                seat_label(s, lang, self.seat),
                f"{gained:+g}",
                f"{totals[s]:g}",
                style="bold" if s == self.seat else None,
            )
        return table

    # -- the human's turn ------------------------------------------------------------
    def human_turn(self, state: State) -> Action | str:
        """Show the table and the numbered moves; read until a legal move (not applied)."""
        lang = self.lang
        view = self.seen(state)
        self.say("")
        self.say(self.ui.view(view, lang, self.title))
        legal = sorted(state.legal_actions(), key=lambda a: a.id)
        if not self._helped:  # once, with an example from the moves at hand
            self._helped = True
            self.say(Text(t("help_line", lang, example=example(legal)), style="dim"))
        self.show_moves(legal)
        while True:
            try:
                raw = self.ask(t("prompt", lang))
            except EOFError:  # the input is closed: nobody can answer a question
                self.say("")
                raise _Quit(ask=False) from None
            text = " ".join(raw.split())
            low = text.lower()
            if not text:
                if len(legal) == 1:  # Enter plays the only legal move
                    return legal[0]
                self.say(t("empty_input", lang), style="yellow")
                self.say(Text(t("prompt_more", lang), style="dim"))
                continue
            if low in _QUIT:
                raise _Quit(ask=True)
            if low in _HINT:
                self.hint(state, legal)
                continue
            if low in _RULES:
                self.show_rules()
                continue
            if low in _UNDO:
                if any(s == self.seat for s in self.actors):
                    raise _Undo
                self.say(Text(t("undo_none", lang), style="yellow"))
                continue
            if low in ("help", "h", "ヘルプ"):
                self.say(Text(t("prompt_more", lang), style="dim"))
                self.show_moves(legal)
                continue
            if text.isdigit():
                n = int(text)
                if 1 <= n <= len(legal):
                    return legal[n - 1]
                self.say(Text(t("bad_number", lang, n=n, last=len(legal)), style="red"))
                self.show_moves(legal)
                continue
            chosen = self.parse(state, legal, text)
            if chosen is not None:
                return chosen

    def parse(self, state: State, legal: Sequence[Action], text: str) -> Action | str | None:
        """The legal move ``text`` names, or ``None`` after saying why not.

        A text the game accepts as several steps of the same seat (Arcana Duel's
        ``attack Kc 5s at T3``) comes back as the canonical text itself.
        """
        lang = self.lang
        by_text = {a.text.lower(): a for a in legal}
        if text.lower() in by_text:
            return by_text[text.lower()]
        typed, text = text, canonical(text)
        if state.game.actions.parse(text) is None and self.compound(state, text):
            return text
        matches = self.by_suffix(state, legal, text)
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            options = ", ".join(a.text for a in matches)
            self.say(Text(t("ambiguous", lang, text=typed, options=options), style="yellow"))
            return None
        known = state.game.actions.parse(text) or state.game.actions.parse(text.lower())
        if known is not None:  # a real action, just not legal now: the engine says why
            try:
                state.clone().apply(known)
            except IllegalAction as err:
                why = str(err).split("; legal now:")[0]
                self.say(Text(t("illegal", lang, why=why), style="red"))
        else:
            self.say(Text(t("unknown_move", lang, text=typed), style="red"))
            close = difflib.get_close_matches(text.lower(), list(by_text), n=3, cutoff=0.6)
            if close:
                shown = ", ".join(by_text[c].text for c in close)
                self.say(Text(t("did_you_mean", lang, options=shown), style="yellow"))
        self.show_moves(legal)
        return None

    @staticmethod
    def compound(state: State, text: str) -> bool:
        """Whether the game takes ``text`` as several moves of the seat to act."""
        trial = state.clone()
        try:
            trial.apply(text)
        except Exception:  # any refusal: it is not a move
            return False
        return len(trial.history) > len(state.history)

    @staticmethod
    def by_suffix(state: State, legal: Sequence[Action], text: str) -> list[Action]:
        """Legal moves that ``text`` names by their last words (e.g. just a card code),
        when ``text`` is not itself an action's text."""
        if state.game.actions.parse(text) is not None:
            return []
        words = text.lower().split()
        return [a for a in legal if a.text.lower().split()[-len(words) :] == words]

    def hint(self, state: State, legal: Sequence[Action]) -> None:
        """The bot's suggestion for the human's seat, from the human's view only."""
        lang = self.lang
        if self.game.id in STRATEGIES:
            agent: Agent = make_agent("heuristic", move_seed(self.seed, -1, len(state.history)))
        else:
            agent = ISMCTSAgent(
                move_seed(self.seed, -1, len(state.history)), seconds=hint_seconds()
            )
        decision = decision_for(state)
        if self.console.is_terminal and not self.console.is_dumb_terminal:
            with self.console.status(t("hint_thinking", lang), spinner="dots"):
                choice = agent.act(decision)
        else:
            choice = agent.act(decision)
        n = next((i for i, a in enumerate(legal, 1) if a.text == choice.text), 0)
        line = Text(t("hint", lang, bot=agent.name, n=n, move=""), style="bold green")
        self.say(line.append_text(action_text(choice.text, lang)))
        why = agent.explain()
        if why is not None:
            self.say(Text(t("hint_why", lang, why=why.text(lang)), style="green"))

    def show_rules(self) -> None:
        found = rules_text(self.game.id, self.lang)
        if found is None:
            self.say(Text(t("no_rules", self.lang), style="yellow"))
            return
        if found[1] != self.lang:
            self.say(Text(t("rules_fallback", self.lang), style="yellow"))
        self.say(Markdown(found[0]))

    def show_moves(self, legal: Sequence[Action]) -> None:
        head = Text(t("legal_moves", self.lang), style="bold")
        if len(legal) == 1:
            head.append("  " + t("only_move", self.lang), style="dim")
        self.say(head)
        width = len(str(len(legal)))
        cells = []
        for i, a in enumerate(legal, 1):
            cell = Text()
            cell.append(f"{i:>{width}}. ", style="cyan")
            cells.append(cell.append_text(action_text(a.text, self.lang)))
        self.say(Columns(cells, padding=(0, 3), column_first=True))

    # -- the end ---------------------------------------------------------------------
    def finish(
        self,
        state: State,
        *,
        start_totals: Sequence[float] | None = None,
        offer_save: bool = True,
    ) -> None:
        view = self.seen(state)
        scores = state.scores().to_dict()
        self.say("")
        self.say(Text(t("game_over", self.lang), style="bold"))
        if len(state.deals) > 1 and start_totals is not None:
            self.say(self.hand_table(scores, start_totals, len(state.deals)))
        for item in self.ui.final(view, scores, self.lang):
            self.say(item)
        self.show_reproduce()
        if offer_save and (self.save is not None or self.confirm(t("end_save", self.lang))):
            self.write_record(state)

    def show_reproduce(self) -> None:
        if self.command:
            self.say(Text(t("reproduce", self.lang, command=self.command), style="dim"))

    def write_record(self, state: State) -> None:
        path = self.save
        if path is None:
            default = str(self.resumed_from or f"xtarot-{self.game.id}-{self.seed}.json")
            try:
                answer = self.ask(f"{t('save_where', self.lang)} [{default}]").strip()
            except (EOFError, KeyboardInterrupt):
                answer = ""
            path = Path(answer or default)
        try:
            written = save_record(state, path, meta=self.meta)
        except OSError as err:
            self.say(Text(t("save_failed", self.lang, err=err), style="red"))
            return
        self.say(t("saved", self.lang, path=written), style="green")


def load_for_resume(path: Path) -> tuple[dict[str, Any], State]:
    """A saved record and its rebuilt state; raises :class:`RecordError`."""
    record = xtarot.load_record(path)
    return record, rebuild(record)
