"""``xtarot check`` and ``xtarot plugins``: is a game (a plugin's above all) ready?

``check`` runs the conformance kit (:mod:`xtarot.testing`) on every configuration of
a registered game, asks every bot for every move of a few random games, and looks
at the game's companions: its rules texts (English and Japanese), terminal screen,
web layout and adapter tensors.  Failures are errors (exit 1); a missing optional
part is a warning (the generic screen, table or encoder stands in); a part that needs
an optional extra that is not installed (numpy for the tensors, the web extra for the
layout) is skipped, saying what to install — neither fails the check.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

import xtarot
import xtarot.cli.screens
from xtarot.agents.heuristic import STRATEGIES
from xtarot.cli.render import UIS, ui_for
from xtarot.engine import Game
from xtarot.engine.plugins import found, problems
from xtarot.engine.registry import rules_markdown

__all__ = ["Finding", "companions", "plugin_rows"]


@dataclass
class Finding:
    """One line of ``xtarot check``'s verdict on a game's companions."""

    part: str
    ok: bool
    text_en: str
    text_ja: str
    warning: bool = False
    details: list[str] = field(default_factory=list)
    #: not checked: an optional extra it needs is not installed
    skipped: bool = False

    def text(self, lang: str) -> str:
        return self.text_ja if lang == "ja" else self.text_en


def _sample_views(game: Game, seed: int, points: int = 6) -> list[tuple[dict[str, Any], Any]]:
    """(view of the seat to act, legal texts) at a few moments of a random match."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    moments: list[tuple[dict[str, Any], Any]] = []
    step = 0
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        if step % 7 == 0 and len(moments) < points:
            moments.append((state.view(seat), [str(a) for a in state.legal_actions()]))
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        step += 1
    moments.append((state.view(0), []))
    return moments


def _screen(game: Game) -> Finding:
    if game.id not in UIS:
        return Finding(
            "screen",
            True,
            "terminal screen: none, the generic screen is used",
            "端末画面：なし（汎用画面で表示します）",
            warning=True,
        )
    ui = ui_for(game.id)
    buf = io.StringIO()
    console = Console(file=buf, width=80, color_system=None, force_terminal=False)
    try:
        for view, legal in _sample_views(game, 5):
            for lang in ("en", "ja"):
                console.print(ui.view(view, lang, game.info.name(lang)))
                if legal:
                    console.print(ui.menu(view, legal, lang))
    except Exception as exc:
        return Finding(
            "screen",
            False,
            f"terminal screen: fails on a view: {type(exc).__name__}: {exc}",
            f"端末画面：表示に失敗しました：{type(exc).__name__}: {exc}",
        )
    return Finding(
        "screen", True, "terminal screen: renders at 80 columns", "端末画面：80桁で表示可"
    )


def _rules(game_id: str) -> Finding:
    have = [lang for lang in ("en", "ja") if (r := rules_markdown(game_id, lang)) and r[0] == lang]
    if len(have) == 2:
        return Finding("rules", True, "rules texts: en, ja", "ルール説明：英語・日本語")
    missing = ", ".join(x for x in ("en", "ja") if x not in have)
    return Finding(
        "rules",
        True,
        f"rules texts: missing {missing} (`xtarot rules` and the web page fall back)",
        f"ルール説明：{missing} がありません（別の言語で表示します）",
        warning=True,
    )


def _heuristic(game_id: str) -> Finding:
    if game_id in STRATEGIES:
        return Finding("heuristic", True, "heuristic bot: yes", "ヒューリスティックボット：あり")
    return Finding(
        "heuristic",
        True,
        "heuristic bot: none (the default bot is random; hints are unavailable)",
        "ヒューリスティックボット：なし（既定のボットはランダム、ヒントなし）",
        warning=True,
    )


def _skipped(part: str, en: str, ja: str, exc: ImportError, install: str | None) -> Finding:
    """A part not checked because an optional package is missing: which one, and the
    command that installs it."""
    missing = (exc.name or "").split(".")[0] or str(exc)
    command = f"pip install {install or missing}"
    return Finding(
        part,
        True,
        f"{en}: skipped: {missing} is not installed ({command})",
        f"{ja}：省略：{missing} がインストールされていません（{command}）",
        skipped=True,
    )


def _optional_missing(exc: ImportError) -> bool:
    """Whether ``exc`` is a third-party package that is not installed (not a bug of
    xtarot or of a plugin's own module)."""
    name = (exc.name or "").split(".")[0]
    return isinstance(exc, ModuleNotFoundError) and bool(name) and name != "xtarot"


def _layout(game_id: str) -> Finding:
    try:  # the server's libraries are part of the install, but may have been removed
        from xtarot.server.app import STATIC, builtin_layouts, plugin_layouts
    except ImportError as exc:
        return _skipped("layout", "web layout", "Web レイアウト", exc, "--force-reinstall xtarot")

    if game_id in builtin_layouts():
        missing = [
            f"static/games/{game_id}.{ext}"
            for ext in ("js", "css")
            if not STATIC.joinpath("games", f"{game_id}.{ext}").is_file()
        ]
        if missing:
            return Finding(
                "layout",
                False,
                f"web layout: {', '.join(missing)} missing from this installation "
                "(reinstall xtarot: pip install --force-reinstall xtarot)",
                f"Web レイアウト：{', '.join(missing)} がインストールにありません"
                "（pip install --force-reinstall xtarot で入れ直してください）",
            )
        return Finding("layout", True, "web layout: built in", "Web レイアウト：組み込み")
    files = plugin_layouts().get(game_id)
    if files is None:
        return Finding(
            "layout",
            True,
            "web layout: none, the generic table is used",
            "Web レイアウト：なし（汎用テーブルで表示します）",
            warning=True,
        )
    if f'"{game_id}"' not in files["js"] and f"'{game_id}'" not in files["js"]:
        return Finding(
            "layout",
            False,
            f"web layout: {game_id}.js never names {game_id!r} (XLayouts.register({game_id!r}, …))",
            f"Web レイアウト：{game_id}.js が XLayouts.register({game_id!r}, …) をしていません",
        )
    css = " + css" if "css" in files else ""
    return Finding(
        "layout", True, f"web layout: {game_id}.js{css}", f"Web レイアウト：{game_id}.js{css}"
    )


def _tensors(game: Game) -> Finding:
    try:
        from xtarot.adapters.tensors import encoder_for

        enc = encoder_for(game)
        sizes = {len(enc.encode(view)) for view, _ in _sample_views(game, 9)}
    except ImportError as exc:
        if _optional_missing(exc):  # numpy: the adapters' extra
            return _skipped("tensors", "adapter tensors", "アダプタのテンソル", exc, None)
        return Finding(
            "tensors",
            False,
            f"adapter tensors: fail: {type(exc).__name__}: {exc}",
            f"アダプタのテンソル：失敗：{type(exc).__name__}: {exc}",
        )
    except Exception as exc:
        return Finding(
            "tensors",
            False,
            f"adapter tensors: fail: {type(exc).__name__}: {exc}",
            f"アダプタのテンソル：失敗：{type(exc).__name__}: {exc}",
        )
    if len(sizes) != 1:
        return Finding(
            "tensors",
            False,
            f"adapter tensors: lengths differ between views {sorted(sizes)}",
            f"アダプタのテンソル：長さが一定ではありません {sorted(sizes)}",
        )
    return Finding(
        "tensors",
        True,
        f"adapter tensors: {enc.size} floats per observation",
        f"アダプタのテンソル：観測あたり {enc.size} 要素",
    )


def companions(game: Game) -> list[Finding]:
    """Rules texts, heuristic, terminal screen, web layout, adapter tensors."""
    return [
        _rules(game.id),
        _heuristic(game.id),
        _screen(game),
        _layout(game.id),
        _tensors(game),
    ]


def plugin_rows() -> list[dict[str, str]]:
    """Every plugin entry point seen: group, name, package, target, status."""
    xtarot.games()  # the games group first, then every other group
    from xtarot.engine.plugins import load_all

    load_all()
    rows = [
        {
            "group": p.group,
            "name": p.name,
            "package": p.distribution,
            "value": p.value,
            "status": "ok",
        }
        for p in found()
    ]
    rows += [
        {
            "group": p.group,
            "name": p.name,
            "package": p.distribution,
            "value": p.value,
            "status": p.error,
        }
        for p in problems()
    ]
    return rows
