"""The packaged rules texts (``xtarot rules``, the web rules dialog) and the rules pages
in ``docs/rules/`` against the games' real options and behaviour.

A renamed or added option must not leave a text stale: every option of a game is named
in both languages and on its docs page, and every ``name=value`` a text shows is an
option and value the game accepts.  A few statements that were once wrong are pinned
here next to the behaviour they describe.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

import xtarot
from xtarot.engine import GameInfo, Option

GAMES = {info.id: info for info in xtarot.games()}
LANGS = ("en", "ja")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
#: `name=value` or `--option name=value` inside backticks; values may list choices a|b.
SETTING = re.compile(r"`(?:--option )?([a-z_]+)=([^`\s]*)`")


def text(game_id: str, lang: str) -> str:
    return (resources.files("xtarot") / "rules" / f"{game_id}.{lang}.md").read_text("utf-8")


def count_for(info: GameInfo, option: Option) -> int:
    """A player count at which the option may take any of its values."""
    return min(option.players) if option.players else info.min_players


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_option_is_named(game_id: str, lang: str) -> None:
    body = text(game_id, lang)
    for option in GAMES[game_id].options:
        assert re.search(rf"`(--option )?{option.name}\b", body), (
            f"rules/{game_id}.{lang}.md does not name option {option.name}"
        )
        for choice in option.choices or ():
            if option.kind is str:
                assert choice in body, f"rules/{game_id}.{lang}.md misses {option.name}={choice}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_setting_shown_is_accepted(game_id: str, lang: str) -> None:
    info = GAMES[game_id]
    known = {o.name: o for o in info.options}
    shown = SETTING.findall(text(game_id, lang))
    for name, values in shown:
        assert name in known, f"rules/{game_id}.{lang}.md shows {name}=, not an option"
        for value in values.split("|"):
            if value.isupper():  # a placeholder such as hands=N
                continue
            game = xtarot.load(game_id, players=count_for(info, known[name]), **{name: value})
            assert game.options[name] == known[name].check(value, game.players, game_id)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_docs_pages_name_every_option(game_id: str) -> None:
    page = (DOCS / f"{game_id}.md").read_text("utf-8")
    for option in GAMES[game_id].options:
        assert f"`{option.name}`" in page, f"docs/rules/{game_id}.md does not name {option.name}"


def test_a_stale_setting_would_be_caught() -> None:
    # the check above must fail on a text that shows an option the game no longer has
    assert SETTING.findall("with `--option reseat_every_hand=true` or `keep_first=true`") == [
        ("reseat_every_hand", "true"),
        ("keep_first", "true"),
    ]
    assert "reseat_every_hand" not in {o.name for o in GAMES["extendori"].options}


# -- statements pinned next to the behaviour they describe ------------------------------
def test_extendori_between_hands_texts() -> None:
    option = GAMES["extendori"].option("between_hands")
    assert option.default == "rotate"
    en, ja = text("extendori", "en"), text("extendori", "ja")
    assert "`rotate` (the default)" in en and "`rotate`（標準）" in ja
    assert "reseat_each_hand=true" in en and "reseat_each_hand=true" in ja
    older = xtarot.load("extendori", players=4, reseat_each_hand=True)
    assert older.options["between_hands"] == "reseat"


def test_fairy500_classical_all_pass_texts() -> None:
    en, ja = text("fairy500", "en"), text("fairy500", "ja")
    assert "all pass means a **redeal**" in en and "全員パスは**配り直し**" in ja
    assert xtarot.load("fairy500", players=4, classical=True).options["all_pass"] == "redeal"
    kept = xtarot.load("fairy500", players=4, classical=True, all_pass="ramsch")
    assert kept.options["all_pass"] == "ramsch"


@pytest.mark.parametrize("all_pass", ["ramsch", "ten_per_trick"])
def test_fairy500_no_declarer_games_lead_from_the_dealers_left(all_pass: str) -> None:
    assert "dealer's left" in text("fairy500", "en")
    assert "ディーラーの左隣から打ち出します" in text("fairy500", "ja")
    state = xtarot.load("fairy500", players=4, all_pass=all_pass).new_state(seed=3)
    for _ in range(4):
        state.apply("pass")
    assert state.public_view()["contract"]["kind"] == all_pass
    assert state.current_player == (state.deals[0]["dealer"] + 1) % 4


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {"pairs": True})])
def test_fairy500_no_call_texts(players: int, options: dict[str, object]) -> None:
    assert "**No call** at 3 players, in pairs mode" in text("fairy500", "en")
    assert "3人のとき、ペア戦" in text("fairy500", "ja")
    state = xtarot.load("fairy500", players=players, **options).new_state(seed=1)
    state.apply("bid 6s")
    while state.public_view()["phase"] == "auction":
        state.apply("pass")
    assert state.public_view()["phase"] == "discard"  # straight to the kitty, no call


def test_fairy500_match_end_texts() -> None:
    en, ja = text("fairy500", "en"), text("fairy500", "ja")
    assert "**after the hand**" in en and "tied players share the win" in en
    assert "**ハンドの終わりで**" in ja and "同点なら全員が勝者" in ja


def test_grail_mahjong_claimer_melds_then_discards_texts() -> None:
    en, ja = text("grail-mahjong", "en"), text("grail-mahjong", "ja")
    assert "**melds** the discard" in en and "**then discards**" in en
    assert "**場に出し**" in ja and "**最後に1枚捨てます**" in ja
