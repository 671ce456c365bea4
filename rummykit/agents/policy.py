"""A discard policy learned from the search (issue 52, item 2, its first step).

:class:`GreedyBot` discards, before it has laid down, the first card in a fixed order
(jokers kept, most points shed) that keeps its contract distance. :class:`PolicyBot`
discards instead the card a :class:`LinearPolicy` scores highest: a weighted sum of the
:data:`DISCARD_FEATURES` of each discard (:func:`discard_features`), ties broken in
GreedyBot's order; everything else (drawing, buying, laying down and off, discarding
once laid down) is GreedyBot's. The weights are fitted by
:func:`rummykit.evaluate.learn.fit` to :class:`~rummykit.agents.searchbot.SearchBot`'s
weighing of every discard on positions of seeded games, and carry their provenance.

>>> from rummykit.engine.game import Game
>>> state = Game("standard", players=3, seed=5).new_state()
>>> policy = LinearPolicy(dict.fromkeys(DISCARD_FEATURES, 0.0) | {"points": 1.0})
>>> bots = [PolicyBot(policy, seed=1), GreedyBot(seed=2), GreedyBot(seed=3)]
>>> while not state.round_scores:  # the first round
...     state.apply(bots[state.to_act].choose(state.view(state.to_act)))
>>> len(state.round_scores)
1
>>> LinearPolicy({"points": 1.0})
Traceback (most recent call last):
...
rummykit.errors.ArgumentError: weights: give one weight for each of DISCARD_FEATURES, missing 'farther', 'outs', 'joker', 'fits', 'pairs', 'near', 'next_took', 'dead'
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
from collections.abc import Mapping
from pathlib import Path

from rummykit.agents.bots import GreedyBot
from rummykit.agents.hints import discard_outs, view_seen
from rummykit.engine.actions import Discard
from rummykit.engine.cards import Card
from rummykit.engine.checks import instance
from rummykit.engine.legal import PlayerView
from rummykit.engine.melds import lay_off_options
from rummykit.errors import ArgumentError, ArgumentTypeError, SaveFileError

__all__ = ["DISCARD_FEATURES", "LinearPolicy", "PolicyBot", "discard_features"]

#: What :func:`discard_features` says of each discard of a seat that has not laid down.
DISCARD_FEATURES = (
    "farther",  # 1 if the hand left is farther from the contract than the best discard leaves
    "outs",  # the unseen cards that bring the hand left one card closer, / 10
    "points",  # the card's points, / 10
    "joker",  # 1 for a joker
    "fits",  # 1 if it lays off on a meld on the table (an opponent may call or use it)
    "pairs",  # the other cards of its rank in the hand
    "near",  # the cards of its suit within two ranks in the hand (the ace low too)
    "next_took",  # 1 if the next seat took from the pile a card of its rank or near it
    "dead",  # the cards of its rank seen out of play (pile, table, taken), / decks
)
#: The version of the weights file :meth:`LinearPolicy.save` writes.
VERSION = 1


def _near(a: Card, b: Card) -> bool:
    """Same suit, within two ranks (the ace counts low as well as high).

    >>> [_near(Card.parse("AS"), Card.parse(code)) for code in ("2S", "3S", "4S", "QS", "JS", "2H")]
    [True, True, False, True, False, False]
    """
    if a.is_joker or b.is_joker or a.suit != b.suit or a.rank == b.rank:
        return False
    gap = abs(a.rank - b.rank)
    if 14 in (a.rank, b.rank):
        gap = min(gap, min(a.rank, b.rank) - 1)  # the ace as a 1
    return gap <= 2


def discard_features(view: PlayerView) -> dict[str, tuple[float, ...]]:
    """The :data:`DISCARD_FEATURES` of each discard ``view``'s seat may make, by the
    card's code (each face once), for a seat that has not laid down.

    >>> from rummykit.engine.game import Game
    >>> state = Game("standard", players=3, seed=5).new_state()
    >>> while state.phase != "play":  # seat 1 draws, the others are asked to buy
    ...     state.apply(GreedyBot().choose(state.view(state.to_act)))
    >>> view = state.view(state.to_act)
    >>> found = discard_features(view)
    >>> len(found) == len({c.code for c in view.hand})
    True
    >>> all(len(values) == len(DISCARD_FEATURES) for values in found.values())
    True
    """
    instance("view", view, PlayerView, "a PlayerView")
    if view.phase != "play" or view.to_act != view.seat or view.laid_down[view.seat]:
        raise ArgumentError(
            "view: discard features are for a seat in its play phase that has not laid "
            f"down (seat {view.seat}, phase {view.phase!r})"
        )
    hand = list(view.hand)
    outs = discard_outs(view)
    now = min(o.distance for o in outs.values()) if outs else 0
    decks = view.rules.decks_for(len(view.names))
    seen = view_seen(view)
    after = (view.seat + 1) % len(view.names)
    took = [
        m.card
        for m in view.pile_moves
        if m.kind in ("take", "buy", "call") and m.seat == after and m.card is not None
    ]
    found: dict[str, tuple[float, ...]] = {}
    for card in hand:
        if card.code in found:
            continue
        left = outs[card.code]
        natural = not card.is_joker
        found[card.code] = (
            float(left.distance > now),
            left.total / 10,
            view.rules.point_value(card) / 10,
            float(card.is_joker),
            float(any(lay_off_options(meld, card, view.rules) for meld in view.melds)),
            float(sum(c.rank == card.rank for c in hand) - 1) if natural else 0.0,
            float(sum(_near(card, c) for c in hand)) if natural else 0.0,
            float(natural and any(t.rank == card.rank or _near(t, card) for t in took)),
            sum(c.rank == card.rank for c in seen) / decks if natural else 0.0,
        )
    return found


class LinearPolicy:
    """A score for each discard: the sum of its :data:`DISCARD_FEATURES` times their
    ``weights`` (a mapping of every feature's name to a finite number).
    ``provenance`` says where the weights came from (a mapping, kept as given).

    >>> policy = LinearPolicy(dict.fromkeys(DISCARD_FEATURES, 0.0) | {"points": 2.0})
    >>> policy.score((0, 0, 0.5, 0, 0, 0, 0, 0, 0))
    1.0
    """

    def __init__(self, weights: Mapping[str, float], provenance: Mapping | None = None) -> None:
        instance("weights", weights, Mapping, "a mapping of feature names to numbers")
        missing = [name for name in DISCARD_FEATURES if name not in weights]
        if missing:
            raise ArgumentError(
                "weights: give one weight for each of DISCARD_FEATURES, missing "
                + ", ".join(repr(name) for name in missing)
            )
        extra = [name for name in weights if name not in DISCARD_FEATURES]
        if extra:
            raise ArgumentError(f"weights: no feature is called {extra[0]!r} (DISCARD_FEATURES)")
        values = []
        for name in DISCARD_FEATURES:
            value = weights[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ArgumentTypeError(f"weights[{name!r}] must be a number, got {value!r}")
            if not math.isfinite(value):
                raise ArgumentError(f"weights[{name!r}] must be finite, got {value!r}")
            values.append(float(value))
        self.weights = tuple(values)
        if provenance is not None:
            instance("provenance", provenance, Mapping, "a mapping (where the weights came from)")
        self.provenance = dict(provenance or {})

    def __repr__(self) -> str:
        pairs = ", ".join(
            f"{n}={w:.3g}" for n, w in zip(DISCARD_FEATURES, self.weights, strict=True)
        )
        return f"LinearPolicy({pairs})"

    def score(self, features) -> float:
        """The score of one discard's features (in :data:`DISCARD_FEATURES`' order)."""
        return sum(w * x for w, x in zip(self.weights, features, strict=True))

    def save(self, path: str | Path) -> None:
        """Write the weights and their provenance as JSON (:meth:`load` reads them): the
        whole file or, if it cannot be written, none (the one there before is kept)."""
        data = {
            "version": VERSION,
            "features": list(DISCARD_FEATURES),
            "weights": list(self.weights),
            "provenance": self.provenance,
        }
        text = json.dumps(data, indent=1, sort_keys=True) + "\n"
        path = Path(path)
        part = path.with_name(path.name + ".part")  # written whole, then put in place
        try:
            part.write_text(text, encoding="utf-8")
            os.replace(part, path)
        except OSError as error:
            with contextlib.suppress(OSError):
                part.unlink()
            raise SaveFileError(f"{path}: cannot write the policy's weights ({error})") from None

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        """Read what :meth:`save` wrote; weights of another version or other features are
        refused (:class:`~rummykit.errors.SaveFileError`, naming the field)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise SaveFileError(f"{path}: cannot read the policy's weights ({error})") from None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            got = data.get("version") if isinstance(data, dict) else data
            raise SaveFileError(f"{path}: version must be {VERSION}, got {got!r:.40}")
        if data.get("features") != list(DISCARD_FEATURES):
            raise SaveFileError(
                f"{path}: features must be DISCARD_FEATURES {list(DISCARD_FEATURES)}, got "
                f"{data.get('features')!r:.120}"
            )
        weights = data.get("weights")
        if not isinstance(weights, list) or len(weights) != len(DISCARD_FEATURES):
            raise SaveFileError(
                f"{path}: weights must be {len(DISCARD_FEATURES)} numbers, got {weights!r:.80}"
            )
        provenance = data.get("provenance", {})
        try:
            return cls(dict(zip(DISCARD_FEATURES, weights, strict=True)), provenance)
        except ArgumentError as error:
            raise SaveFileError(f"{path}: {error}") from None

    def choose(self, view: PlayerView, discards: list[Discard], order) -> Discard:
        """The discard of ``discards`` with the highest score; ties go to the first in
        ``order`` (a key)."""
        found = discard_features(view)
        scores = [self.score(found[a.card.code]) for a in discards]
        best = max(scores)
        return min((a for a, s in zip(discards, scores, strict=True) if s == best), key=order)


class PolicyBot(GreedyBot):
    """A :class:`GreedyBot` that discards, before laying down, by ``policy`` (a
    :class:`LinearPolicy`); the rest is GreedyBot's (see the module notes).

    >>> PolicyBot(LinearPolicy(dict.fromkeys(DISCARD_FEATURES, 0.0)))
    PolicyBot(buy='improves')
    """

    def __init__(
        self,
        policy: LinearPolicy,
        seed: int | random.Random | None = None,
        *,
        buy: str = "improves",
    ) -> None:
        instance("policy", policy, LinearPolicy, "a LinearPolicy")
        super().__init__(seed, buy=buy)
        self.policy = policy

    def _contract_discard(self, view: PlayerView, discards: list[Discard]) -> Discard:
        return self.policy.choose(view, discards, lambda a: self._discard_key(view, a.card))
