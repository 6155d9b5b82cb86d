"""``xtarot play``: one human seat in the terminal against bots.

The human only ever sees ``state.view(seat)``: before each of their decisions the
whole view, and after every action what changed in it (so a face-down bid shows
as hidden until the round reveals it).  Bots choose through
:func:`xtarot.agents.decision_for`, which also hands them only their own view.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from xtarot.agents import Agent, decision_for
from xtarot.cli.i18n import seat_label, t
from xtarot.cli.render import GameUI, action_text, ui_for
from xtarot.engine import Action, Game, IllegalAction, State
from xtarot.record import save_record

__all__ = ["PlaySession", "bot_seed"]

_QUIT = {"q", "quit", "exit", ":q"}
_YES = {"y", "yes", "はい", "h"}


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a match with ``seed`` (reproducible).

    >>> bot_seed(7, 0) != bot_seed(7, 1)
    True
    """
    return (seed * 1_000_003 + 7919 * (seat + 1)) % (1 << 48)


class _Quit(Exception):
    """The human asked to stop (or closed the input)."""

    def __init__(self, ask: bool) -> None:
        super().__init__("quit")
        self.ask = ask


class PlaySession:
    """One interactive match: ``run()`` plays it and returns the exit code."""

    def __init__(
        self,
        console: Console,
        game: Game,
        seat: int,
        agents: Sequence[Agent | None],
        seed: int,
        lang: str,
        *,
        save: Path | None = None,
        fast: bool = False,
        meta: dict[str, Any] | None = None,
        command: str | None = None,
    ) -> None:
        self.console = console
        self.game = game
        self.seat = seat
        self.agents = agents
        self.seed = seed
        self.lang = lang
        self.save = save
        self.fast = fast or not console.is_terminal
        self.meta = meta or {}
        self.command = command
        self.ui: GameUI = ui_for(game.id)
        self.title = f"{game.info.name(lang)} — {seat_label(seat, lang, seat)}"

    # -- output helpers ------------------------------------------------------------
    def say(self, *items: Any, style: str | None = None) -> None:
        self.console.print(*items, style=style, highlight=False)

    def pause(self, seconds: float = 0.35) -> None:
        if not self.fast:
            time.sleep(seconds)

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
    def run(self) -> int:
        state = self.game.new_state(seed=self.seed)
        before = state.view(self.seat)
        for line in self.ui.opening(before, self.lang):
            self.say(line)
        try:
            while not state.is_terminal:
                actor = state.current_player
                assert actor is not None
                if actor == self.seat:
                    action = self.human_turn(state)
                else:
                    action = self.bot_turn(state, actor)
                after = state.view(self.seat)
                if actor == self.seat:
                    self.say(
                        Text(t("you_did", self.lang, action="")).append_text(
                            action_text(action.text, self.lang)
                        )
                    )
                for line in self.ui.announce(before, after, actor, self.lang):
                    if actor == self.seat and line.plain.startswith(
                        seat_label(actor, self.lang, self.seat)
                    ):
                        continue  # the "You: ..." line said it already
                    self.say(line)
                if actor != self.seat:
                    self.pause()
                before = after
        except _Quit as q:
            self.say(t("quit_done", self.lang), style="yellow")
            self.show_reproduce()
            if q.ask and (self.save is not None or self.confirm(t("quit_save", self.lang))):
                self.write_record(state)
            return 0
        self.finish(state)
        return 0

    def bot_turn(self, state: State, seat: int) -> Action:
        """Let the bot at ``seat`` choose (from its own view only) and apply its move."""
        agent = self.agents[seat]
        assert agent is not None
        decision = decision_for(state)
        console = self.console
        if console.is_terminal and not console.is_dumb_terminal:
            label = t("thinking", self.lang, seat=seat_label(seat, self.lang))
            with console.status(label, spinner="dots"):
                action = agent.act(decision)
        else:
            action = agent.act(decision)
        return state.apply(action)

    def human_turn(self, state: State) -> Action:
        """Show the view and the numbered moves; read until a legal move; apply it."""
        lang = self.lang
        view = state.view(self.seat)
        self.say("")
        self.say(self.ui.view(view, lang, self.title))
        legal = sorted(state.legal_actions(), key=lambda a: a.id)
        self.show_moves(legal)
        while True:
            try:
                raw = self.ask(t("prompt", lang))
            except (EOFError, KeyboardInterrupt):
                self.say("")
                raise _Quit(ask=False) from None
            text = raw.strip()
            if not text:
                self.say(t("empty_input", lang), style="yellow")
                continue
            if text.lower() in _QUIT:
                raise _Quit(ask=True)
            if text.isdigit():
                n = int(text)
                if 1 <= n <= len(legal):
                    return state.apply(legal[n - 1])
                self.say(Text(t("bad_number", lang, n=n, last=len(legal)), style="red"))
                self.show_moves(legal)
                continue
            matches = self.by_suffix(state, legal, text)
            if len(matches) == 1:
                return state.apply(matches[0])
            if len(matches) > 1:
                options = ", ".join(a.text for a in matches)
                self.say(Text(t("ambiguous", lang, text=text, options=options), style="yellow"))
                continue
            try:
                return state.apply(text)
            except IllegalAction as err:
                self.say(Text(t("illegal", lang, why=str(err)), style="red"))
                self.show_moves(legal)

    @staticmethod
    def by_suffix(state: State, legal: Sequence[Action], text: str) -> list[Action]:
        """Legal moves that ``text`` names by their last words (e.g. just a card code),
        when ``text`` is not itself an action's text."""
        if state.game.actions.parse(text) is not None:
            return []
        words = text.lower().split()
        return [a for a in legal if a.text.lower().split()[-len(words) :] == words]

    def show_moves(self, legal: Sequence[Action]) -> None:
        self.say(Text(t("legal_moves", self.lang), style="bold"))
        width = len(str(len(legal)))
        cells = []
        for i, a in enumerate(legal, 1):
            cell = Text()
            cell.append(f"{i:>{width}}. ", style="cyan")
            cells.append(cell.append_text(action_text(a.text, self.lang)))
        self.say(Columns(cells, padding=(0, 3), column_first=True))

    def finish(self, state: State) -> None:
        view = state.view(self.seat)
        scores = state.scores().to_dict()
        self.say("")
        self.say(Text(t("game_over", self.lang), style="bold"))
        for item in self.ui.final(view, scores, self.lang):
            self.say(item)
        self.show_reproduce()
        if self.save is not None or self.confirm(t("end_save", self.lang)):
            self.write_record(state)

    def show_reproduce(self) -> None:
        if self.command:
            self.say(Text(t("reproduce", self.lang, command=self.command), style="dim"))

    def write_record(self, state: State) -> None:
        path = self.save
        if path is None:
            default = f"xtarot-{self.game.id}-{self.seed}.json"
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
