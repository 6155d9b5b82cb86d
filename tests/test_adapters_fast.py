"""The fast encoders equal a straightforward reference encoding; the tensor-spec
registry; xtarot agents as OpenSpiel bots; the Gymnasium single-seat environment.

The reference below is the encoder as first written (one pass over the JSON view,
every field re-read, a Python list of floats); the fast path (compiled field writers,
memoised card and action lookups, the state's view read without its JSON copy, numpy
buffers filled in place, the seen-moves part of the OpenSpiel information state kept
up to date as moves are applied) must give exactly the same numbers.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import xtarot
from xtarot.adapters import tensors
from xtarot.adapters.tensors import Encoder, Field, encoder_for

CONFIGS = [(info, n) for info in xtarot.games() for n in info.players]
IDS = [f"{info.id}-{n}" for info, n in CONFIGS]


# -- the reference encoding ------------------------------------------------------------
def _ref_cards(value: Any, index: dict[str, int], out: list[int]) -> list[int]:
    if isinstance(value, str):
        i = index.get(value)
        if i is None and "=" in value:
            i = index.get(value.split("=", 1)[0])
        if i is not None:
            out.append(i)
    elif isinstance(value, list | tuple):
        for item in value:
            _ref_cards(item, index, out)
    elif isinstance(value, dict):
        for item in value.values():
            _ref_cards(item, index, out)
    return out


def _ref_pairs(value: Any, out: list[tuple[int, str]]) -> list[tuple[int, str]]:
    if isinstance(value, dict):
        seat, found = value.get("seat"), value.get("card")
        if type(seat) is int and isinstance(found, str):
            out.append((seat, found))
            return out
        for item in value.values():
            if isinstance(item, list | dict):
                _ref_pairs(item, out)
    elif isinstance(value, list | tuple):
        if len(value) == 2 and type(value[0]) is int and isinstance(value[1], str):
            out.append((value[0], value[1]))
            return out
        for item in value:
            if isinstance(item, list | dict | tuple):
                _ref_pairs(item, out)
    return out


def _ref_action_ids(game: xtarot.Game, value: Any) -> list[int]:
    if isinstance(value, str):
        found = game.actions.parse(value)
        return [] if found is None else [found.id]
    if isinstance(value, list | tuple):
        return [i for item in value for i in _ref_action_ids(game, item)]
    return []


def reference_encode(enc: Encoder, view: dict[str, Any]) -> list[float]:
    """The tensor of a view, field after field, straight from the definitions."""
    out = [0.0] * enc.size
    n, c, a = enc.players, len(enc.cards), enc.game.num_actions
    me = view.get("seat") or 0
    for f, start, _size in enc.offsets:
        value = f.get(view)
        if f.kind == "cards":
            for i in _ref_cards(value, enc.index, []):
                out[start + i] = 1.0
        elif f.kind == "seat cards":
            for seat, item in enumerate(value or ()):
                for i in _ref_cards(item, enc.index, []):
                    out[start + ((seat - me) % n) * c + i] = 1.0
        elif f.kind == "played":
            for seat, code in _ref_pairs(value, []):
                for i in _ref_cards(code, enc.index, []):
                    out[start + ((seat - me) % n) * c + i] = 1.0
        elif f.kind == "number":
            out[start] = float(value or 0) / f.scale
        elif f.kind == "seat numbers":
            for seat, x in enumerate(value or ()):
                out[start + (seat - me) % n] = float(x or 0) / f.scale
        elif f.kind == "seat":
            out[start + (n if value is None else (value - me) % n)] = 1.0
        elif f.kind == "seats":
            for seat in value or ():
                out[start + (seat - me) % n] = 1.0
        elif f.kind == "choice":
            k = f.choices.index(value) if value in f.choices else len(f.choices)
            out[start + k] = 1.0
        elif f.kind == "actions":
            for i in _ref_action_ids(enc.game, value):
                out[start + i] = 1.0
        else:  # seat actions
            for seat, item in enumerate(value or ()):
                for i in _ref_action_ids(enc.game, item):
                    out[start + ((seat - me) % n) * a + i] = 1.0
    return out


def _positions(game: xtarot.Game, seeds: range, every: int, rng: random.Random):  # type: ignore[no-untyped-def]
    """States along random matches (every ``every``-th position and the last)."""
    for seed in seeds:
        state = game.new_state(seed=seed)
        step = 0
        while not state.is_terminal:
            if step % every == 0:
                yield state
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            step += 1
        yield state


@pytest.mark.parametrize(("info", "n"), CONFIGS, ids=IDS)
def test_fast_encoder_equals_the_reference(info: xtarot.GameInfo, n: int) -> None:
    np = pytest.importorskip("numpy")
    game = xtarot.load(info.id, players=n, **dict(info.bulk_options))
    enc = encoder_for(game)
    buf = np.full(enc.size, 7.0, np.float32)  # stale numbers: encode_into must clear them
    rng = random.Random(n)
    checked = nonzero = 0
    for state in _positions(game, range(3), 3, rng):
        for seat in range(n):
            view = state.view(seat)
            ref = reference_encode(enc, view)
            assert enc.encode(view) == ref
            assert enc.encode_state(state, seat) == ref
            enc.encode_state(state, seat, buf)
            assert buf.tolist() == np.asarray(ref, np.float32).tolist()
            checked += 1
            nonzero += sum(1 for x in ref if x not in (0.0, 1.0))
    assert checked > 20 and nonzero > 0  # numbers were compared, not only one-hots


# configurations beyond the bulk ones: options that change what the views hold
# (teams, several hands, the classical auction, the open misère ...)
DIRECT_CONFIGS = [
    ("sono-arcana", 3, {}),
    ("sono-arcana", 4, {"teams": True}),
    ("sono-arcana", 5, {}),
    ("matto", 3, {}),
    ("matto", 5, {}),
    ("arcana-duel", 2, {}),
    ("extendori", 3, {}),
    ("extendori", 4, {"teams": "pairs", "hands": 2}),
    ("extendori", 6, {"between_hands": "keep", "hands": 2}),
    ("extendori", 8, {"single_deal": True, "hands": 1}),
    ("fairy500", 3, {"hands": 2}),
    ("fairy500", 4, {"pairs": True, "hands": 1}),
    ("fairy500", 5, {"classical": True, "all_pass": "redeal", "hands": 2}),
    ("fairy500", 6, {"all_pass": "ten_per_trick", "hands": 1}),
    ("grail-mahjong", 2, {"hands": 2}),
    ("grail-mahjong", 4, {"chi_extension_draws": True, "hands": 2}),
]


@pytest.mark.parametrize(
    ("game_id", "n", "options"), DIRECT_CONFIGS, ids=[f"{g}-{n}-{o}" for g, n, o in DIRECT_CONFIGS]
)
def test_direct_encoders_equal_the_reference(game_id: str, n: int, options: dict) -> None:  # type: ignore[type-arg]
    """A direct encoder (the state read without a view) gives the reference encoding
    of the view for every seat at every position, whole multi-hand matches included,
    and also when states of other matches are encoded in between (its history memo
    must notice a different match)."""
    game = xtarot.load(game_id, players=n, **options)
    enc = encoder_for(game)
    assert enc._fast is not None and enc._fast[0] is type(game.new_state(seed=0))
    rng = random.Random(n)
    other = game.new_state(seed=99)
    checked = 0
    for seed in range(2):
        state = game.new_state(seed=seed)
        while True:
            for seat in range(n):
                assert enc.encode_state(state, seat) == reference_encode(enc, state.view(seat))
                checked += 1
            if checked % 7 == 0:  # another match's state through the same encoder
                assert enc.encode_state(other, 0) == reference_encode(enc, other.view(0))
                if not other.is_terminal:
                    legal = other.legal_actions()
                    other.apply(legal[rng.randrange(len(legal))])
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


@pytest.mark.parametrize(
    ("game_id", "n", "options"), DIRECT_CONFIGS, ids=[f"{g}-{n}-{o}" for g, n, o in DIRECT_CONFIGS]
)
def test_incremental_tensors_equal_the_reference(game_id: str, n: int, options: dict) -> None:  # type: ignore[type-arg]
    """Every seat's tensor kept between observations (only changed blocks rewritten)
    equals the reference encoding of its view: one seat looks at each of its turns,
    one only at the end of each hand, the others now and then (so tricks and hands
    pass between two looks); whole multi-hand matches; another match observed in
    between and then this one again (the caches start afresh); and the arrays handed
    out are fresh (a later observation does not change an earlier one)."""
    np = pytest.importorskip("numpy")
    from xtarot.adapters.incremental import BLOCKS, SeatTensors

    game = xtarot.load(game_id, players=n, **options)
    enc = encoder_for(game)
    tensors_ = SeatTensors(enc)
    assert tensors_.incremental == (game_id in BLOCKS)
    rng = random.Random(n * 31 + len(options))
    other = game.new_state(seed=99)
    checked = 0
    kept: list[tuple[Any, list[float]]] = []
    hand_ends = 0
    for seed in range(3):
        state = game.new_state(seed=seed)
        while True:
            legal = [] if state.is_terminal else state.legal_actions()
            move = legal[rng.randrange(len(legal))] if legal else None
            passes = [a for a in legal if a.text == "pass"]
            if passes and rng.random() < 0.85:  # random fairy500 bids end a match in one hand
                move = passes[0]
            last_of_hand = False  # the last seat looks only at the last move of a hand
            if move is not None:
                after = state.clone()
                after.apply(move)
                last_of_hand = len(after.deals) != len(state.deals) or after.is_terminal
                hand_ends += seed > 0 and len(after.deals) != len(state.deals)
            for seat in range(n):
                # seat 0 looks at every turn of its own, the last seat at the end of
                # every hand (histories as long as the last hand's, another hand's),
                # the others now and then
                if seat == 0:
                    if state.current_player != 0:
                        continue
                elif seat == n - 1:
                    if not last_of_hand:
                        continue
                elif rng.random() > 0.3:
                    continue
                got = tensors_.observe(state, seat)
                assert got.dtype == np.float32 and got.shape == (enc.size,)
                ref = reference_encode(enc, state.view(seat))
                assert got.tolist() == np.asarray(ref, np.float32).tolist(), (seed, seat)
                if checked % 50 == 0:
                    kept.append((got, got.tolist()))
                checked += 1
            if seed == 0 and checked % 13 == 0:  # another match, then back to this one
                ref = reference_encode(enc, other.view(0))
                assert tensors_.observe(other, 0).tolist() == np.asarray(ref, np.float32).tolist()
                if not other.is_terminal:
                    legal = other.legal_actions()
                    other.apply(legal[rng.randrange(len(legal))])
            if move is None:
                break
            state.apply(move)
    assert checked > 40
    assert all(array.tolist() == values for array, values in kept)
    if options.get("hands", 1) > 1:  # a seat looked at two hands' ends, nothing between
        assert hand_ends > 0


def test_incremental_tensors_refuse_a_bad_seat() -> None:
    pytest.importorskip("numpy")
    from xtarot.adapters.incremental import SeatTensors

    game = xtarot.load("sono-arcana", players=3)
    tensors_ = SeatTensors(encoder_for(game))
    with pytest.raises(ValueError, match="seat"):
        tensors_.observe(game.new_state(seed=1), 3)


@pytest.mark.parametrize(
    "game_id", ["sono-arcana", "matto", "arcana-duel", "extendori", "fairy500", "grail-mahjong"]
)
def test_direct_encoders_see_nothing_hidden(game_id: str) -> None:
    """The direct path's tensor of a seat is the same in every world the seat cannot
    tell apart (``sample_world``), and its clones and their futures stay exact."""
    info = next(i for i in xtarot.games() if i.id == game_id)
    game = xtarot.load(game_id, players=info.min_players, **dict(info.bulk_options))
    enc = encoder_for(game)
    rng = random.Random(3)
    state = game.new_state(seed=4)
    step = 0
    while not state.is_terminal:
        if step % 5 == 0:
            for seat in range(game.players):
                mine = enc.encode_state(state, seat)
                for _ in range(2):
                    world = state.sample_world(seat, rng)
                    assert enc.encode_state(world, seat) == mine
            branch = state.clone()
            for _ in range(4):
                if branch.is_terminal:
                    break
                legal = branch.legal_actions()
                branch.apply(legal[rng.randrange(len(legal))])
                seat = step % game.players
                assert enc.encode_state(branch, seat) == reference_encode(enc, branch.view(seat))
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        step += 1


def test_a_replaced_spec_drops_the_direct_encoder() -> None:
    game = xtarot.load("sono-arcana", players=3)
    assert encoder_for(game)._fast is not None

    def same(g: xtarot.Game) -> list[Field]:
        return tensors._sono_arcana(g)

    tensors.register_tensor_spec("sono-arcana", same, replace=True)
    try:
        enc = encoder_for(game)
        assert enc._fast is None  # the spec may differ: the view's way
        state = game.new_state(seed=1)
        assert enc.encode_state(state, 1) == reference_encode(enc, state.view(1))
    finally:
        tensors.unregister_tensor_spec("sono-arcana")
    assert encoder_for(game)._fast is not None


def test_encoders_copy_and_pickle_as_the_cached_one() -> None:
    import copy
    import pickle

    enc = encoder_for(xtarot.load("matto", players=4))
    assert copy.copy(enc) is enc and copy.deepcopy(enc) is enc
    assert pickle.loads(pickle.dumps(enc)) is enc


def test_encode_list_rounds_numbers_through_float32() -> None:
    np = pytest.importorskip("numpy")
    game = xtarot.load("extendori", players=3)
    enc = encoder_for(game)
    state = game.new_state(seed=2)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    view = state.view(1)
    ref = np.asarray(reference_encode(enc, view), np.float32).tolist()
    assert enc.encode_list(view) == ref
    assert enc.encode_state_list(state, 1, enc.size + 3) == [*ref, 0.0, 0.0, 0.0]
    assert any(x not in (0.0, 1.0) and x != float(repr(x)[:5]) for x in ref)
    assert tensors._float32(1e300) == float("inf") and tensors._float32(-1e300) == float("-inf")


def test_encoder_wilds_unknown_texts_and_bad_seats() -> None:
    game = xtarot.load("grail-mahjong", players=2)
    enc = encoder_for(game)
    state = game.new_state(seed=0)
    view = state.view(0)
    ((_, start, _, _, _),) = [x for x in enc.layout() if x[0] == "claim"]
    view["claim"] = {"card": "Oc=3c", "seat": 1}
    t = enc.encode(view)
    assert t[start + enc.index["Oc"]] == 1.0 and t == reference_encode(enc, view)
    view["claim"] = {"card": "not a card", "seat": 1}
    assert enc.encode(view) == reference_encode(enc, view)
    with pytest.raises(ValueError, match=r"seats are 0\.\.1"):
        enc.encode_state(state, 2)


# -- the registry ----------------------------------------------------------------------
def test_registered_spec_is_used_and_unregistering_restores() -> None:
    game = xtarot.load("matto", players=3)
    built_in = encoder_for(game).size

    def tiny(g: xtarot.Game) -> list[Field]:
        return [
            *tensors.common_fields(("draw", "buy", "pay", "over"), 22.0),
            Field("field", "cards", lambda v: v.get("field"), meaning="majors on the field"),
        ]

    with pytest.raises(ValueError, match="already has a tensor spec"):
        tensors.register_tensor_spec("matto", tiny)
    tensors.register_tensor_spec("matto", tiny, replace=True)
    try:
        assert tensors.tensor_spec("matto") is tiny
        enc = encoder_for(game)
        assert [x[0] for x in enc.layout()][-1] == "field"
        assert enc.size < built_in
        state = game.new_state(seed=2)
        t = enc.encode(state.view(0))
        ((_, start, size, _, _),) = [x for x in enc.layout() if x[0] == "field"]
        field = sorted(enc.cards[i - start] for i in range(start, start + size) if t[i])
        assert field == sorted(state.view(0)["field"]) and field
    finally:
        tensors.unregister_tensor_spec("matto")
    assert encoder_for(game).size == built_in


def test_unknown_game_uses_the_generic_spec() -> None:
    assert tensors.tensor_spec("no-such-plugin-game") is tensors.generic_fields
    tensors.register_tensor_spec("no-such-plugin-game", tensors.generic_fields)
    try:
        assert tensors.tensor_spec("no-such-plugin-game") is tensors.generic_fields
    finally:
        tensors.unregister_tensor_spec("no-such-plugin-game")
    assert "no-such-plugin-game" not in tensors._SPECS


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ([], "non-empty list of Field"),
        (["hand"], "is not a Field"),
        ([Field("hand", "cardz", lambda v: None)], "kind 'cardz'; kinds: cards, seat cards"),
        ([Field("a", "cards", lambda v: None)] * 2, "field name 'a' is used twice"),
        ([Field("a", "number", lambda v: 1, scale=0.0)], "scale 0"),
        (
            [Field("a", "cards", lambda v: None, stable_items=True)],
            "field 'a' has stable_items, which only a 'played' field can have",
        ),
    ],
)
def test_bad_specs_are_refused_with_the_reason(fields: list[Any], message: str) -> None:
    tensors.register_tensor_spec("matto", lambda g: fields, replace=True)
    try:
        with pytest.raises(ValueError, match=message):
            encoder_for(xtarot.load("matto", players=3))
    finally:
        tensors.unregister_tensor_spec("matto")


def test_register_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="non-empty string"):
        tensors.register_tensor_spec("", tensors.generic_fields)
    with pytest.raises(TypeError, match="expected a function game -> list"):
        tensors.register_tensor_spec("plugin-x", "fields")  # type: ignore[arg-type]


# -- OpenSpiel ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pyspiel():  # type: ignore[no-untyped-def]
    spiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed")
    import xtarot.adapters.openspiel  # noqa: F401  (registers the games)

    return spiel


def _short(game_id: str) -> str:
    return "xtarot_" + game_id.replace("-", "_")


def _reference_infostate(state: Any, player: int) -> list[float]:
    """The information-state tensor as first written: view tensor, then a replay of
    every move the seat saw (float32 sums of 0.01 for the masked ones)."""
    import numpy as np

    game = state.get_game()
    n, a = game.engine.players, game.engine.num_actions
    enc = game.encoder
    seen = np.zeros((n, a), np.float32)
    masked = np.zeros(n, np.float32)
    for actor, aid, _text in state._seen[player]:
        rel = (actor - player) % n
        if aid >= 0:
            seen[rel, aid] = 1.0
        else:
            masked[rel] += 0.01
    view = np.asarray(reference_encode(enc, state.engine.view(player)), np.float32)
    return np.concatenate([view, seen.ravel(), masked]).tolist()


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_openspiel_tensors_equal_the_reference(pyspiel, info: xtarot.GameInfo) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    n = info.min_players
    game = pyspiel.load_game(_short(info.id), {"players": n, **dict(info.bulk_options)})
    rng = random.Random(5)
    masked_seen = 0
    for _ in range(2):
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if state.is_chance_node():
                assert state.information_state_tensor(0) == [0.0] * len(
                    state.information_state_tensor(0)
                )
                state.apply_action(rng.randrange(256))
                continue
            if step % 4 == 0:
                for p in range(n):
                    ref = _reference_infostate(state, p)
                    assert state.information_state_tensor(p) == ref
                    obs = np.asarray(reference_encode(game.encoder, state.engine.view(p)))
                    assert state.observation_tensor(p) == obs.astype(np.float32).tolist()
                    masked_seen += sum(state._masked[p])
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            step += 1
        clone = state.clone()
        for p in range(n):
            assert clone.information_state_tensor(p) == _reference_infostate(state, p)
    if info.id in ("sono-arcana", "arcana-duel", "fairy500"):
        assert masked_seen > 0  # games with hidden moves exercised the masked counts


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_openspiel_python_tensors_equal_openspiel_own_path(pyspiel, info) -> None:  # type: ignore[no-untyped-def]
    """``information_state_tensor`` / ``observation_tensor`` called from Python build
    the list directly; OpenSpiel's own path (the observer filling its buffer) must
    give the same floats, for every seat, the default seat, chance nodes and the end."""
    n = info.min_players
    game = pyspiel.load_game(_short(info.id), {"players": n, **dict(info.bulk_options)})
    base = pyspiel.State
    rng = random.Random(8)
    state = game.new_initial_state()
    step = 0
    while True:
        if state.is_chance_node():
            assert state.information_state_tensor(1) == base.information_state_tensor(state, 1)
            state.apply_action(rng.randrange(256))
            continue
        if step % 3 == 0 or state.is_terminal():
            for p in range(n):
                assert state.information_state_tensor(p) == base.information_state_tensor(state, p)
                assert state.observation_tensor(p) == base.observation_tensor(state, p)
            if not state.is_terminal():
                assert state.information_state_tensor() == base.information_state_tensor(state)
                assert state.observation_tensor() == base.observation_tensor(state)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    with pytest.raises(pyspiel.SpielError):
        state.information_state_tensor(n)  # no such seat: OpenSpiel's own error


def test_xtarot_bots_play_through_both_evaluate_bots(pyspiel) -> None:  # type: ignore[no-untyped-def]
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots

    from xtarot.adapters.openspiel import XtarotBot

    game = pyspiel.load_game("xtarot_matto", {"players": 3})
    bots = [XtarotBot("heuristic", player_id=s, seed=s) for s in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert sorted(returns) == [-1.0, 0.0, 1.0] or len(set(returns)) < 3
    assert all(-1.0 <= r <= 1.0 for r in returns)
    again = evaluate_bots.evaluate_bots(
        game.new_initial_state(),
        [XtarotBot("heuristic", player_id=s, seed=s) for s in range(3)],
        np.random.RandomState(1),
    )
    assert again == returns  # seeded bots, seeded chance: the same match
    cpp = pyspiel.evaluate_bots(
        game.new_initial_state(), [XtarotBot("random", seed=s) for s in range(3)], 7
    )
    assert len(cpp) == 3 and all(-1.0 <= r <= 1.0 for r in cpp)


class _Spy:
    """An agent that records what it was given and plays the first legal action."""

    name = "spy"

    def __init__(self) -> None:
        self.decisions: list[Any] = []

    def act(self, decision: Any) -> Any:
        self.decisions.append(decision)
        return decision.legal[0]

    def explain(self) -> None:
        return None


def test_bot_sees_only_the_seat_view_and_a_sampler(pyspiel) -> None:  # type: ignore[no-untyped-def]
    from xtarot.adapters.openspiel import XtarotBot

    game = pyspiel.load_game("xtarot_sono_arcana", {"players": 3})
    state = game.new_initial_state()
    for b in (1, 2, 3, 4):
        state.apply_action(b)
    spy = _Spy()
    bot = XtarotBot(spy)
    seat = state.current_player()
    action = bot.step(state)
    (decision,) = spy.decisions
    assert set(vars(decision)) == {"seat", "view", "legal", "sample_world"}
    assert decision.seat == seat and decision.view == state.engine.view(seat)
    others = [c for s, h in enumerate(state.engine.deals[0]["hands"]) if s != seat for c in h]
    assert not any(f'"{c}"' in str(decision.view).replace("'", '"') for c in others)
    assert action == decision.legal[0].id and action in state.legal_actions()
    world = decision.sample_world(random.Random(0))
    assert world.view(seat) == decision.view
    assert bot.step_with_policy(state) == ([(action, 1.0)], action)
    assert not bot.provides_policy() and bot.player_id() == -1


def test_bot_errors_say_what_is_wrong(pyspiel) -> None:  # type: ignore[no-untyped-def]
    from xtarot.adapters.openspiel import XtarotBot

    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        XtarotBot("nobody")
    with pytest.raises(TypeError, match="bot name or an xtarot agent"):
        XtarotBot(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="an agent instance is used as it is"):
        XtarotBot(_Spy(), seed=3)
    game = pyspiel.load_game("xtarot_matto", {"players": 3})
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="chance node"):
        XtarotBot("random").step(state)
    for b in (0, 0, 0, 9):
        state.apply_action(b)
    other = (state.current_player() + 1) % 3
    with pytest.raises(ValueError, match=f"plays seat {other}, but seat"):
        XtarotBot("random", player_id=other).step(state)
    with pytest.raises(TypeError, match="not 'kuhn_poker'"):
        XtarotBot("random").step(pyspiel.load_game("kuhn_poker").new_initial_state())


# -- Gymnasium -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def gym_env():  # type: ignore[no-untyped-def]
    pytest.importorskip("gymnasium", reason="gymnasium is not installed")
    pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")
    from xtarot.adapters import gymnasium as module

    return module


def _episode(env: Any, seed: int, pick: random.Random) -> tuple[list[int], float, dict[str, Any]]:
    import numpy as np

    obs, info = env.reset(seed=seed)
    actions: list[int] = []
    while True:
        assert (obs["action_mask"] == info["action_mask"]).all()
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        action = int(legal[pick.randrange(len(legal))])
        actions.append(action)
        obs, reward, term, trunc, info = env.step(action)
        assert not trunc
        if term:
            return actions, reward, info["scores"]
        assert reward == 0.0


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_gym_env_passes_check_env(gym_env, info: xtarot.GameInfo) -> None:  # type: ignore[no-untyped-def]
    from gymnasium.utils.env_checker import check_env

    env = gym_env.XtarotGymEnv(info.id, players=info.min_players, **dict(info.bulk_options))
    check_env(env, skip_render_check=True)


def test_gym_env_is_seeded_and_rewards_like_pettingzoo(gym_env) -> None:  # type: ignore[no-untyped-def]
    from xtarot.adapters.pettingzoo import rank_returns

    env = gym_env.XtarotGymEnv("sono-arcana", players=3, seat=1, opponents="heuristic")
    first = _episode(env, 11, random.Random(0))
    state = env.state
    assert state.is_terminal and first[1] == rank_returns(state)[1]
    assert first[2] == state.scores().to_dict()
    assert [a.id for s, a in _seat_moves(state) if s == 1] == first[0]
    again = _episode(env, 11, random.Random(0))
    assert again == first and env.state.record()["actions"] == state.record()["actions"]
    other = _episode(env, 12, random.Random(0))
    assert env.state.record()["actions"] != state.record()["actions"] or other != first


def _seat_moves(state: xtarot.State) -> list[tuple[int, Any]]:
    replay = xtarot.replay(state.record(), upto=0)
    out = []
    for action in state.history:
        out.append((replay.current_player, action))
        replay.apply(action)
    return out


def test_gym_env_opponents_and_illegal_actions(gym_env) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    from xtarot.agents import RandomAgent

    env = gym_env.XtarotGymEnv(
        "matto", players=3, seat=2, opponents=[("random", {}), RandomAgent(5)]
    )
    obs, info = env.reset(seed=3)
    assert env.state.current_player == 2
    assert isinstance(env.opponents[0], RandomAgent) and env.opponents[1].rng is not None
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    strict = gym_env.XtarotGymEnv("matto", players=3, on_illegal="raise")
    obs, _ = strict.reset(seed=3)
    with pytest.raises(xtarot.IllegalAction):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="2 other seats"):
        gym_env.XtarotGymEnv("matto", players=3, opponents=["random"] * 3)
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        gym_env.XtarotGymEnv("matto", players=3, opponents="nobody")
    with pytest.raises(TypeError, match="expected a bot name"):
        gym_env.XtarotGymEnv("matto", players=3, opponents=[1, 2])
    with pytest.raises(ValueError, match=r"seats are 0\.\.2"):
        gym_env.XtarotGymEnv("matto", players=3, seat=3)
    with pytest.raises(ValueError, match="use 'end' or 'raise'"):
        gym_env.XtarotGymEnv("matto", players=3, on_illegal="ignore")
