"""Game review: each decision a seat made, valued against every alternative it had.

:func:`review` replays a played game (a :class:`~rummykit.engine.game.GameState` or its save)
and, at every decision of one seat with more than one legal choice, weighs the action
played and every other legal action **from that seat's own view**: the hidden cards
(the other hands, the stock) are sampled afresh from what the seat could see
(:func:`~rummykit.agents.determinize.determinize`), never read from the game, so a verdict
uses no hindsight. Every alternative is played on the same samples and rolled out with
the same chance (:func:`~rummykit.agents.rollouts.best_outcome`, GreedyBots in every seat), so
the comparison is paired.

Each alternative gets its value, the seat's points at the end of the round better than
its opponents' mean (the measure SearchBot plays by, signed so that higher is better),
and its chance of going out first, each with a 95% interval.

**Chosen on one sample, measured on another.** The best alternative is the one with the
best mean on half of a decision's samples (the *selection* set), and every value and loss
shown is measured on the other half (the *measurement* set), drawn independently. Picking
the best of several noisy means and measuring against it on the same samples overstates
the loss of every other choice (the winner's curse: the chosen mean is high partly by
luck); measured on fresh samples the loss is unbiased. This is sample splitting
(D. R. Cox, "A note on data-splitting for the evaluation of significance levels",
*Biometrika* 62(2), 1975, pp. 441-444). The **loss** of the action played is the chosen
best's value minus its own, paired on the measurement set, and the decision's class
follows from its 95% interval:

========== ===========================================================
class      when
========== ===========================================================
best       the action played is the one chosen as best
good       anything else whose loss is not surely 2 points or more
inaccuracy the loss's interval lies above 2 points
mistake    the loss's interval lies above 5 points
blunder    the loss's interval lies above 10 points
========== ===========================================================

(:data:`THRESHOLDS`, in points relative to the opponents' mean at the round's end.
Why these: a round's points run from 0 to well over 100, but one decision moves their
expected difference by a few points; throwing away a joker that a seat one card from
its contract holds costs about 6, with its chance of going out first down from 30% to
19%, and is a mistake.) A class needs the lower end of the interval past its threshold,
so a decision is never called a mistake on a loss its samples cannot tell from a smaller
one. On 345 decisions of four seeded games, each also weighed on 2,048 samples, the
default budget (256 samples: 128 to choose on, 128 to measure) called a move a mistake or
a blunder where the 2,048 samples say it is best, good or an inaccuracy in 0, 1 and 0 of
them at three seeds (at 128 samples 0, 2 and 1; chosen and measured on the same samples,
the old way, 6 to 9), and called 18 to 23 of the 44 true mistakes and blunders best or
good: a verdict errs toward "good" (``benchmarks/bench_review_calibration.py``; a round's
review takes at most about 20 s on one core, ``benchmarks/bench_review.py``).
**Accuracy** is the share of the seat's decisions classed best or good: it counts what a
learner can act on (how many choices were measurably wrong), not how much they cost,
which the total loss gives.

**Mistakes by decision type** (:func:`mistakes_by_type`, :meth:`Review.mistakes_by_type`):
the verdicts of one review or several, grouped by the kind of choice they were (a buy,
taking the discard or drawing, when to lay down, a lay-off, a discard:
:func:`decision_type` gives the rule), each type with its share classed inaccuracy or
worse and mistake or worse, a Wilson 95% interval on each, and its total loss.
:mod:`rummykit.evaluate.beside` sets a seat's accuracy beside the bots' on the same deals.

>>> from rummykit.agents.bots import GreedyBot
>>> from rummykit.engine.game import Game, play_game
>>> state = play_game(Game("standard", players=2, seed=3, turn_limit=6).new_state(),
...                   [GreedyBot(), GreedyBot()])
>>> result = review(state, seat=0, budget=4, seed=1, round=1)
>>> result.verdicts[0].kind in CLASSES, 0 <= result.accuracy <= 1
(True, True)
>>> review(state, seat=5)
Traceback (most recent call last):
...
rummykit.errors.ArgumentError: seat must be a seat 0..1, got 5
"""

from __future__ import annotations

import dataclasses
import html
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from rummykit.agents.weigh import seat_value, weigh
from rummykit.chance import estimate_text, wilson_interval
from rummykit.engine.actions import (
    Action,
    Discard,
    InvalidLayDown,
    LayDown,
    LayOff,
    Swap,
)
from rummykit.engine.checks import whole
from rummykit.engine.game import GameState
from rummykit.engine.legal import PlayerView
from rummykit.engine.saves import load
from rummykit.errors import ArgumentError, ArgumentTypeError
from rummykit.evaluate.estimate import Estimate, interval
from rummykit.evaluate.review_words import action_words, card_reason, discard_reason, outs_words
from rummykit.evaluate.stories import Story

__all__ = [
    "CLASSES",
    "DECISION_TYPES",
    "MARKS",
    "MARKS_LEGEND",
    "THRESHOLDS",
    "Alternative",
    "MistakesByType",
    "Review",
    "TypeTally",
    "Verdict",
    "checked_review",
    "decision_type",
    "game_state",
    "judge",
    "mistakes_by_type",
    "review",
    "review_steps",
]

#: The classes of a decision, best first.
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: The least loss (points relative to the opponents' mean at the round's end) of each
#: class below "good": the lower end of the loss's 95% interval must reach it.
THRESHOLDS = {"inaccuracy": 2.0, "mistake": 5.0, "blunder": 10.0}
#: Each class's mark, as chess annotators write them, and its colour (text on white).
MARKS: dict[str, tuple[str, str]] = {
    "best": ("", "#1a7f37"),
    "good": ("", "#1a7f37"),
    "inaccuracy": ("?!", "#8a6100"),
    "mistake": ("?", "#b35900"),
    "blunder": ("??", "#c62828"),
}
#: The marks in words, for wherever a review shows them.
MARKS_LEGEND = (
    f"Marks: {MARKS['inaccuracy'][0]} inaccuracy (a loss of {THRESHOLDS['inaccuracy']:g} points "
    f"or more), {MARKS['mistake'][0]} mistake ({THRESHOLDS['mistake']:g} or more), "
    f"{MARKS['blunder'][0]} blunder ({THRESHOLDS['blunder']:g} or more), "
    "each only where the loss's 95% interval lies past it; no mark: best or good."
)
#: The types of decision, in the order of a turn (see :func:`decision_type`); "call" (a
#: Liverpool or rummy call on a discard) only under rules with a discard call.
DECISION_TYPES = ("buy", "take or draw", "lay down", "lay off", "discard", "call")
#: Most samples a decision: a budget beyond it is refused.
MAX_BUDGET = 10_000


@dataclass(frozen=True)
class Alternative:
    """One action that was legal at a decision, and what it was worth."""

    action: Action
    """The action."""
    value: Estimate
    """Points at the round's end better than the opponents' mean (higher is better)."""
    out: Estimate
    """The chance of going out first (a share of the samples)."""
    loss: Estimate
    """The best alternative's value minus this one's, paired over the samples."""


@dataclass(frozen=True)
class Verdict:
    """One decision of the seat under review."""

    number: int
    """The action's place in the game's history (0 first)."""
    round: int
    """The round it was made in."""
    phase: str
    """The phase: draw, buy, play, call or call discard."""
    view: PlayerView
    """What the seat saw when it chose."""
    played: Action
    """The action played."""
    alternatives: tuple[Alternative, ...]
    """Every legal action weighed, the best first."""
    kind: str
    """The class (one of :data:`CLASSES`)."""
    samples: int
    """Determinizations behind the values and losses shown (the measurement set; every
    alternative played on each)."""
    sentence: str
    """The verdict in words, for a learner."""
    chosen_on: int = 0
    """Determinizations the best alternative was chosen on (the selection set, drawn apart
    from the measurement set)."""

    @property
    def best(self) -> Alternative:
        """The alternative with the best mean value."""
        return self.alternatives[0]

    @property
    def chosen(self) -> Alternative:
        """The alternative played."""
        return next(a for a in self.alternatives if a.action == self.played)

    @property
    def loss(self) -> Estimate:
        """The loss of the action played against the best."""
        return self.chosen.loss

    def as_played(self, action: Action) -> Verdict:
        """The verdict had ``action`` (one of the alternatives) been played instead: the
        same values, its own class and sentence."""
        chosen = next((a for a in self.alternatives if a.action == action), None)
        if chosen is None:
            raise ArgumentError(f"action must be one of the alternatives weighed, got {action}")
        kind = _kind(action == self.best.action, chosen.loss)
        sentence = _sentence(self.view, chosen, self.best, kind)
        return dataclasses.replace(self, played=action, kind=kind, sentence=sentence)

    def versus(self, action: Action) -> str:
        """The best choice against ``action`` (another alternative) in words, not saying
        which was played: "Discarding 4♥ rather than 9♣ was better by about 6 points
        ..." (where the review's sentence says "You discarded 9♣; ...")."""
        other = next((a for a in self.alternatives if a.action == action), None)
        if other is None or other is self.best:
            raise ArgumentError(f"action must be an alternative other than the best, got {action}")
        kind = _kind(False, other.loss)
        return _sentence(self.view, other, self.best, kind, you=False)

    def to_dict(self) -> dict:
        """As plain data (JSON-ready)."""
        return {
            "number": self.number,
            "round": self.round,
            "phase": self.phase,
            "played": str(self.played),
            "best": str(self.best.action),
            "kind": self.kind,
            "samples": self.samples,
            "chosen_on": self.chosen_on,
            "sentence": self.sentence,
            "alternatives": [
                {
                    "action": str(a.action),
                    "value": a.value.to_dict(),
                    "out": a.out.to_dict(),
                    "loss": a.loss.to_dict(),
                }
                for a in self.alternatives
            ],
        }


@dataclass(frozen=True)
class Review:
    """The verdicts of one seat's decisions in a game (see the module notes)."""

    seat: int
    """The seat reviewed."""
    name: str
    """Its player's name."""
    budget: int
    """Samples a decision."""
    seed: int
    """The seed the samples were drawn from."""
    verdicts: tuple[Verdict, ...]
    """Every decision with a choice, in the order played."""
    results: tuple[tuple[int, float], ...] = ()
    """``(round, result)`` of each round the seat finished: its points at the round's end
    better than the opponents' mean (the measure of the values), as it happened."""

    def story(self, round: int) -> Story:
        """Round ``round``'s story (:class:`Story`): the seat's expected standing decision by
        decision, each change split into the decision's part and luck's."""
        finished = dict(self.results)
        if round not in finished:
            rounds = ", ".join(str(r) for r in finished) or "none"
            raise ArgumentError(
                f"round must be a round the seat finished in this review ({rounds}), got {round!r}"
            )
        return Story.of(
            self.name, round, [v for v in self.verdicts if v.round == round], finished[round]
        )

    @property
    def accuracy(self) -> float | None:
        """The share of decisions classed best or good (None with no decision to judge)."""
        if not self.verdicts:
            return None
        return sum(v.kind in ("best", "good") for v in self.verdicts) / len(self.verdicts)

    @property
    def total_loss(self) -> float:
        """The mean losses of every decision, added up (points)."""
        return sum(v.loss.mean for v in self.verdicts)

    def mistakes(self, count: int = 3) -> list[Verdict]:
        """The ``count`` costliest decisions classed inaccuracy or worse, costliest first."""
        marked = [v for v in self.verdicts if CLASSES.index(v.kind) >= 2]
        return sorted(marked, key=lambda v: -v.loss.mean)[:count]

    def mistakes_by_type(self) -> MistakesByType:
        """The verdicts grouped by decision type, with the share of each type classed
        inaccuracy or worse and mistake or worse (:func:`mistakes_by_type`)."""
        return mistakes_by_type(self)

    def rows(self) -> list[dict]:
        """One row per decision and alternative, long form (for a DataFrame)."""
        return [
            {
                "number": v.number,
                "round": v.round,
                "phase": v.phase,
                "played": str(v.played),
                "kind": v.kind,
                "action": str(a.action),
                "is_played": a.action == v.played,
                "value": a.value.mean,
                "value_low": a.value.low,
                "value_high": a.value.high,
                "out": a.out.mean,
                "loss": a.loss.mean,
                "loss_low": a.loss.low,
                "loss_high": a.loss.high,
                "samples": v.samples,
            }
            for v in self.verdicts
            for a in v.alternatives
        ]

    def to_dict(self) -> dict:
        """As plain data (JSON-ready)."""
        return {
            "seat": self.seat,
            "name": self.name,
            "budget": self.budget,
            "seed": self.seed,
            "accuracy": self.accuracy,
            "total_loss": self.total_loss,
            "thresholds": dict(THRESHOLDS),
            "verdicts": [v.to_dict() for v in self.verdicts],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def __str__(self) -> str:
        counts = {kind: sum(v.kind == kind for v in self.verdicts) for kind in CLASSES}
        if not self.verdicts:
            return (
                f"Review of {self.name} (seat {self.seat}): no decision with a choice to "
                "judge, so no accuracy"
            )
        lines = [
            f"Review of {self.name} (seat {self.seat}): {len(self.verdicts)} decisions, "
            f"accuracy {round(100 * self.accuracy)} in 100, total loss about "
            f"{points_words(self.total_loss)} ({self.budget} samples a decision)",
            "  " + ", ".join(class_count_words(counts[k], k) for k in CLASSES),
        ]
        lines += [f"  - {v.sentence}" for v in self.mistakes()]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = html.escape(str(self).splitlines()[0])
        rows = "".join(
            f"<tr><td>{v.round}</td><td>{html.escape(v.phase)}</td>"
            f"<td>{html.escape(action_words(v.played))} {MARKS[v.kind][0]}</td>"
            f"<td>{html.escape(action_words(v.best.action))}</td>"
            f"<td>{v.loss.mean:.1f} [{v.loss.low:.1f}, {v.loss.high:.1f}]</td>"
            f'<td style="color:{MARKS[v.kind][1]}">{v.kind}</td></tr>'
            for v in self.verdicts
        )
        return (
            f"<p>{head}</p><table><tr><th>round</th><th>phase</th><th>played</th>"
            f"<th>best</th><th>loss (95%)</th><th>class</th></tr>{rows}</table>"
            f"<p>{html.escape(MARKS_LEGEND)}</p>"
        )


# -- mistakes by decision type --------------------------------------------------------


def decision_type(verdict: Verdict) -> str:
    """The type of decision ``verdict`` judged, one of :data:`DECISION_TYPES`, from its
    phase and its actions:

    - **buy**: the buy window (buy or pass);
    - **take or draw**: the draw (take the discard or draw from the stock);
    - **lay down**: a play-phase decision where a lay-down was played (a valid one or
      not) or was among the choices: the question of *when* to lay down is asked at
      every turn the contract is ready, and holding back is an answer to it;
    - **lay off**: otherwise, a play-phase decision where the action played or the best
      is a lay-off or a joker swap (each puts a card on a table meld): a lay-off made,
      or one missed;
    - **discard**: every other play-phase decision (which card to discard, or ending the
      turn without one), and the discard of a Liverpool caller;
    - **call**: a Liverpool or rummy call on a discard, or not calling (rules with a
      discard call only).

    >>> from types import SimpleNamespace as Seen
    >>> from rummykit.engine.actions import parse_action
    >>> def verdict(phase, played, best, *others):  # the alternatives, the best first
    ...     actions = [parse_action(a) for a in (best, played, *others)]
    ...     return Seen(phase=phase, played=actions[1],
    ...                 alternatives=[Seen(action=a) for a in actions])
    >>> decision_type(verdict("draw", "take discard", "draw stock"))
    'take or draw'
    >>> decision_type(verdict("play", "discard 9C", "discard 2D", "lay down 8S 8H 8D | JH JH JS"))
    'lay down'
    >>> decision_type(verdict("play", "discard 9C", "discard 2D", "lay off 4H -> 0"))
    'discard'
    >>> decision_type(verdict("play", "discard 9C", "lay off 4H -> 0"))
    'lay off'
    """
    phase = getattr(verdict, "phase", None)
    alternatives = getattr(verdict, "alternatives", None)
    if not isinstance(phase, str) or not isinstance(alternatives, (list, tuple)):
        raise ArgumentTypeError(f"verdict must be a review's Verdict, got {verdict!r:.80}")
    if phase == "buy":
        return "buy"
    if phase == "draw":
        return "take or draw"
    if phase == "call":
        return "call"
    if phase == "call discard":
        return "discard"
    if phase != "play":
        raise ArgumentError(f"verdict: a decision of no known phase, got {phase!r}")
    actions = [getattr(a, "action", None) for a in alternatives]
    if isinstance(verdict.played, (LayDown, InvalidLayDown)) or any(
        isinstance(a, LayDown) for a in actions
    ):
        return "lay down"
    # The best is the first alternative (as Verdict.best has it).
    if any(isinstance(a, (LayOff, Swap)) for a in (verdict.played, actions[0])):
        return "lay off"
    return "discard"


@dataclass(frozen=True)
class TypeTally:
    """The verdicts of one decision type (a row of :class:`MistakesByType`)."""

    type: str
    """The decision type (one of :data:`DECISION_TYPES`)."""
    decisions: int
    """Decisions of this type judged."""
    inaccuracies: int
    """Those classed inaccuracy or worse (inaccuracy, mistake or blunder)."""
    inaccuracy_share: Estimate
    """Their share of the decisions, with its Wilson 95% interval."""
    mistakes: int
    """Those classed mistake or worse (mistake or blunder)."""
    mistake_share: Estimate
    """Their share of the decisions, with its Wilson 95% interval."""
    loss: float
    """The mean losses of the decisions, added up (points)."""

    def to_dict(self) -> dict:
        """The row as plain data, long form (one column per figure)."""
        return {
            "type": self.type,
            "decisions": self.decisions,
            "inaccuracies": self.inaccuracies,
            "inaccuracy_share": self.inaccuracy_share.mean,
            "inaccuracy_low": self.inaccuracy_share.low,
            "inaccuracy_high": self.inaccuracy_share.high,
            "mistakes": self.mistakes,
            "mistake_share": self.mistake_share.mean,
            "mistake_low": self.mistake_share.low,
            "mistake_high": self.mistake_share.high,
            "loss": self.loss,
        }


@dataclass(frozen=True)
class MistakesByType:
    """Verdicts grouped by decision type (see :func:`mistakes_by_type`)."""

    tallies: tuple[TypeTally, ...]
    """One per type with at least one decision, in the order of :data:`DECISION_TYPES`."""

    @property
    def decisions(self) -> int:
        """Decisions judged, every type."""
        return sum(t.decisions for t in self.tallies)

    def tally(self, decision: str) -> TypeTally | None:
        """The row of the decision type ``decision`` (None if no decision was of it)."""
        if decision not in DECISION_TYPES:
            raise ArgumentError(
                f"decision must be a decision type ({', '.join(map(repr, DECISION_TYPES))}), "
                f"got {decision!r:.80}"
            )
        return next((t for t in self.tallies if t.type == decision), None)

    def rows(self) -> list[dict]:
        """One row per decision type, long form (for a DataFrame)."""
        return [t.to_dict() for t in self.tallies]

    def to_dict(self) -> dict:
        """As plain data (JSON-ready)."""
        return {"decisions": self.decisions, "rows": self.rows()}

    def __str__(self) -> str:
        if not self.tallies:
            return "Mistakes by decision type: no decision to judge"
        lines = [
            f"Mistakes by decision type ({self.decisions} decisions; the shares with their "
            "95% intervals):",
            f"  {'type':<13}{'decisions':>9}  {'inaccuracy or worse':<48}"
            f"{'mistake or worse':<48}{'loss':>6}",
        ]
        for t in self.tallies:
            lines.append(
                f"  {t.type:<13}{t.decisions:>9}  "
                f"{_count_share(t.inaccuracies, t.inaccuracy_share):<48}"
                f"{_count_share(t.mistakes, t.mistake_share):<48}{t.loss:>6.1f}"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(t.type)}</td><td>{t.decisions}</td>"
            f"<td>{_count_share(t.inaccuracies, t.inaccuracy_share)}</td>"
            f"<td>{_count_share(t.mistakes, t.mistake_share)}</td>"
            f"<td>{t.loss:.1f}</td></tr>"
            for t in self.tallies
        )
        if not rows:
            return "<p>Mistakes by decision type: no decision to judge.</p>"
        return (
            f"<p>Mistakes by decision type ({self.decisions} decisions; the shares with "
            "their 95% intervals)</p><table><tr><th>type</th><th>decisions</th>"
            "<th>inaccuracy or worse</th><th>mistake or worse</th><th>loss (points)</th></tr>"
            f"{rows}</table>"
        )


def _count_share(count: int, share: Estimate) -> str:
    """A count and its share with the interval, in words: "2: about 10% of the decisions
    (95%: 3% to 30%)"."""
    return f"{count}: {estimate_text(share.mean, share.low, share.high, of='decisions')}"


def mistakes_by_type(reviews: Review | Verdict | Sequence[Review | Verdict]) -> MistakesByType:
    """The verdicts of ``reviews`` (a :class:`Review`, several, or verdicts), grouped by
    decision type (:func:`decision_type`): for each type the decisions judged, how many
    were classed inaccuracy or worse and mistake or worse, each as a share with its
    Wilson 95% interval (:func:`~rummykit.chance.wilson_interval`), and the total loss.

    The intervals treat the decisions as independent draws, which they are not quite:
    the decisions of one round share its cards, and a player's habits repeat. Read them
    as a guide to how far a share could move with more games, not as exact.

    >>> from rummykit.agents.bots import GreedyBot
    >>> from rummykit.engine.game import Game, play_game
    >>> state = play_game(Game("standard", players=2, seed=3, turn_limit=6).new_state(),
    ...                   [GreedyBot(), GreedyBot()])
    >>> result = review(state, seat=0, budget=4, seed=1, round=1)
    >>> table = mistakes_by_type(result)
    >>> [row["type"] for row in table.rows()], table.decisions == len(result.verdicts)
    (['buy', 'take or draw', 'lay down', 'lay off', 'discard'], True)
    """
    if isinstance(reviews, (Review, Verdict)):
        reviews = [reviews]
    if not isinstance(reviews, (list, tuple)):
        raise ArgumentTypeError(
            f"reviews must be a Review, verdicts or a list of them, got {reviews!r:.80}"
        )
    verdicts: list[Verdict] = []
    for item in reviews:
        if isinstance(item, Review):
            verdicts.extend(item.verdicts)
        elif isinstance(item, Verdict):
            verdicts.append(item)
        else:
            raise ArgumentTypeError(f"reviews must hold reviews or verdicts only, got {item!r:.80}")
    groups: dict[str, list[Verdict]] = {kind: [] for kind in DECISION_TYPES}
    for verdict in verdicts:
        groups[decision_type(verdict)].append(verdict)
    tallies = []
    for kind, group in groups.items():
        if not group:
            continue
        n = len(group)
        worse = [CLASSES.index(v.kind) for v in group]
        inaccuracies = sum(w >= CLASSES.index("inaccuracy") for w in worse)
        mistakes = sum(w >= CLASSES.index("mistake") for w in worse)
        tallies.append(
            TypeTally(
                type=kind,
                decisions=n,
                inaccuracies=inaccuracies,
                inaccuracy_share=Estimate(inaccuracies / n, *wilson_interval(inaccuracies, n), n),
                mistakes=mistakes,
                mistake_share=Estimate(mistakes / n, *wilson_interval(mistakes, n), n),
                loss=sum(v.loss.mean for v in group),
            )
        )
    return MistakesByType(tuple(tallies))


def _alternatives(view: PlayerView, played: Action) -> list[Action]:
    actions = list(dict.fromkeys(view.legal_actions()))
    if played not in actions:
        actions.append(played)
    return actions


def _share_of(flags: list[float]) -> Estimate:
    """The share of samples where a flag is set, with its Wilson 95% interval (which,
    unlike a t-interval, says "up to 3%" of none in 100, not "0")."""
    hits = sum(flags)
    low, high = wilson_interval(hits, len(flags))
    return Estimate(hits / len(flags), low, high, len(flags))


def _kind(played_is_best: bool, loss: Estimate) -> str:
    """The class of a choice: "best" if it is the one chosen as best, else the worst class
    whose threshold the loss's interval lies above (its lower end), else "good"."""
    if played_is_best:
        return "best"
    if loss.n < 2:  # one sample has no interval: nothing is sure
        return "good"
    for kind in ("blunder", "mistake", "inaccuracy"):
        if loss.low >= THRESHOLDS[kind]:
            return kind
    return "good"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _whole(points: float) -> str:
    """Points to the nearest whole one, never "-0".

    >>> _whole(-0.31), _whole(2.5), _whole(-3.6)
    ('0', '2', '-4')
    """
    text = f"{points:.0f}"
    return "0" if text == "-0" else text


def points_words(points: float) -> str:
    """A number of points in whole points, the word agreeing: "1 point", "8 points".

    >>> points_words(0.6), points_words(8.2), points_words(-1.2)
    ('1 point', '8 points', '-1 point')
    """
    text = _whole(points)
    return f"{text} point" if text in ("1", "-1") else f"{text} points"


def class_count_words(count: int, kind: str) -> str:
    """How many verdicts of a class, the noun agreeing ("1 mistake", "2 inaccuracies");
    "best" and "good" are no nouns and stay.

    >>> [class_count_words(2, k) for k in ("best", "inaccuracy", "mistake")]
    ['2 best', '2 inaccuracies', '2 mistakes']
    >>> class_count_words(1, "blunder")
    '1 blunder'
    """
    if count == 1 or kind in ("best", "good"):
        return f"{count} {kind}"
    return f"{count} {'inaccuracies' if kind == 'inaccuracy' else kind + 's'}"


def _size(loss: Estimate) -> str:
    """A loss in points with its interval, in whole points; one number where every sample
    gave the same, and a decimal where whole points would read "5 to 5".

    >>> _size(Estimate(6.2, 4.1, 8.3, 128)), _size(Estimate(5.0, 5.0, 5.0, 128))
    ('about 6 points (95%: 4 to 8)', '5 points in every sample')
    >>> _size(Estimate(5.1, 4.8, 5.4, 128))
    'about 5.1 points (95%: 4.8 to 5.4)'
    """
    low, high = _whole(loss.low), _whole(loss.high)
    if loss.low == loss.high:
        return f"{points_words(loss.mean)} in every sample"
    if low == high:
        return f"about {loss.mean:.1f} points (95%: {loss.low:.1f} to {loss.high:.1f})"
    return f"about {points_words(loss.mean)} (95%: {low} to {high})"


def _sentence(
    view: PlayerView, played: Alternative, best: Alternative, kind: str, *, you: bool = True
) -> str:
    """The verdict in words, with what the best alternative changed where it can say;
    with ``you`` False, the best against ``played`` without saying which was played."""
    if played.action == best.action:
        return f"You played {action_words(played.action)}: the best of the choices weighed."
    loss = played.loss
    size = _size(loss)
    outs = ""
    if best.out.mean or played.out.mean:  # (no sample went out: nothing to compare)
        outs = "; " + outs_words(best.out, played.out)
    if isinstance(played.action, Discard) and isinstance(best.action, Discard):
        mine, other = played.action.card, best.action.card
        text = (
            f"You discarded {mine.symbol}; keeping it and discarding {other.symbol} was "
            f"better by {size}"
            if you
            else f"Discarding {other.symbol} rather than {mine.symbol} was better by {size}"
        )
        reason = discard_reason(view, mine, other)
    else:
        mine, other = action_words(played.action), action_words(best.action)
        text = (
            f"You played {mine}; {other} was better by {size}"
            if you
            else f"{_capital(other)} rather than {mine} was better by {size}"
        )
        reason = card_reason(view, played.action, best.action)
    if kind == "good" and loss.low <= 0:
        text = text.replace(" was better by ", " looked better by ") + ", within chance"
    elif kind == "good":
        text += ", too little to be sure of an inaccuracy (2 points)"
    return text + (f", because {reason}" if reason else "") + outs + "."


# -- the review -----------------------------------------------------------------------


def game_state(game: object) -> GameState:
    """The played game ``game`` names: a GameState as it is, a save (its JSON, or the JSON
    as a dict) loaded (:func:`~rummykit.engine.saves.load`)."""
    if isinstance(game, GameState):
        return game
    if isinstance(game, dict):
        game = json.dumps(game)
    if isinstance(game, str):
        return load(game)
    raise ArgumentTypeError(f"game must be a GameState or a save (its JSON), got {game!r}")


def judge(
    view: PlayerView,
    played: Action,
    actions: Sequence[Action],
    *,
    samples: int,
    rng: random.Random,
    number: int = 0,
) -> Verdict:
    """The verdict on ``played`` among ``actions`` (every legal choice at ``view``, the
    action played among them): the best chosen on half of ``samples`` determinizations
    of ``view`` and every value and loss measured on the other half, both drawn from
    ``rng`` (:func:`~rummykit.agents.weigh.weigh`; see the module notes); ``number`` is the decision's place in
    its game's history. :meth:`Verdict.as_played` gives the verdict on another choice
    from the same samples.
    """
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"view must be a PlayerView, got {view!r:.80}")
    if not isinstance(actions, (list, tuple)) or not all(isinstance(a, Action) for a in actions):
        raise ArgumentTypeError(f"actions must be a list of actions, got {actions!r:.80}")
    if played not in actions:
        raise ArgumentError(f"played must be one of the actions, got {played!r:.80}")
    whole("samples", samples, low=1, high=MAX_BUDGET)
    whole("number", number, low=0)
    if not isinstance(rng, random.Random):
        raise ArgumentTypeError(f"rng must be a random.Random, got {rng!r:.80}")
    chosen_on = max(1, samples // 2)
    measured = max(1, samples - chosen_on)
    selection, measurement = (random.Random(rng.getrandbits(64)) for _ in range(2))
    chosen_values, _ = weigh(view, actions, samples=chosen_on, rng=selection)
    means = [sum(v) / chosen_on for v in chosen_values]
    best = max(range(len(actions)), key=lambda k: (means[k], -k))
    values, outs = weigh(view, actions, samples=measured, rng=measurement)
    alternatives = []
    for k, act in enumerate(actions):
        diffs = [b - m for b, m in zip(values[best], values[k], strict=True)]
        alternatives.append(
            Alternative(
                action=act,
                value=interval(values[k]),
                out=_share_of(outs[k]),
                loss=interval(diffs),
            )
        )
    chosen = alternatives.pop(best)
    alternatives.sort(key=lambda a: -a.value.mean)
    alternatives.insert(0, chosen)
    first = Verdict(
        number=number,
        round=view.round,
        phase=view.phase,
        view=view,
        played=chosen.action,
        alternatives=tuple(alternatives),
        kind="best",
        samples=measured,
        sentence="",
        chosen_on=chosen_on,
    )
    return first.as_played(played)


def checked_review(game: object, seat: object, budget: object, seed: object) -> GameState:
    """``game`` as a GameState (a played state or a save's JSON), once ``seat``,
    ``budget`` and ``seed`` are checked as :func:`review` takes them; a
    :class:`~rummykit.errors.RummyError` naming the field otherwise."""
    state = game_state(game)
    players = state.players
    if type(seat) is not int or not 0 <= seat < players:
        raise ArgumentError(f"seat must be a seat 0..{players - 1}, got {seat!r}")
    if type(budget) is not int or not 1 <= budget <= MAX_BUDGET:
        raise ArgumentError(
            f"budget must be a whole number of samples 1..{MAX_BUDGET:,}, got {budget!r}"
        )
    if type(seed) is not int or seed < 0:
        raise ArgumentError(f"seed must be a non-negative integer, got {seed!r}")
    return state


def review(
    game: GameState | str | dict,
    seat: int,
    *,
    budget: int = 256,
    seed: int = 0,
    round: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``seat``'s decisions in ``game`` (a played GameState, or a save's JSON):
    every decision with more than one legal choice (of round ``round`` only, if given),
    weighed on ``budget`` samples (see the module notes). The same game, seat, budget
    and seed give the same review; each decision's samples are drawn from the seed and
    the decision's place alone. ``progress(done, total)`` is called after each."""
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be a callable or None, got {progress!r}")
    steps = review_steps(game, seat, budget=budget, seed=seed, round=round)
    for done, total, result in steps:  # noqa: B007 - the last step's result is the review
        if progress is not None and total:
            progress(done, total)
    return result


def review_steps(
    game: GameState | str | dict,
    seat: int,
    *,
    budget: int = 256,
    seed: int = 0,
    round: int | None = None,
) -> Iterator[tuple[int, int, Review | None]]:
    """:func:`review` a decision at a time, for a caller that may stop between two (a
    widget in a browser, where no thread runs beside it): yields ``(done, total, None)``
    after each decision judged but the last, then ``(total, total, review)``. The
    arguments are checked at the call, before any step.

    >>> from rummykit.agents.bots import GreedyBot
    >>> from rummykit.engine.game import Game, play_game
    >>> state = play_game(Game("standard", players=2, seed=3, turn_limit=6).new_state(),
    ...                   [GreedyBot(), GreedyBot()])
    >>> steps = list(review_steps(state, 0, budget=2, round=1))
    >>> [done for done, _, _ in steps] == list(range(1, steps[-1][1] + 1))
    True
    >>> steps[-1][2].verdicts == review(state, 0, budget=2, round=1).verdicts
    True
    """
    state = checked_review(game, seat, budget, seed)
    replay = GameState(state.game, state.setup)
    first = replay.round
    played = list(range(first, first + len(state.round_scores) + (0 if state.is_over else 1)))
    if round is not None and (type(round) is not int or round not in played):
        rounds = f"{played[0]}..{played[-1]}" if len(played) > 1 else f"{played[0]}"
        raise ArgumentError(
            f"round must be the number of a round this game played ({rounds}), got {round!r}"
        )
    decisions = []
    for number, (who, action) in enumerate(state.history):
        if who == seat and (round is None or replay.round == round):
            view = replay.view(seat)
            actions = _alternatives(view, action)
            if len(actions) > 1:
                decisions.append((number, view, action, actions))
        replay.apply(action)
    negative = state.game.rules.negative_scores
    results = tuple(
        (number, seat_value(points, seat, negative))
        for number, points in zip(played, state.round_scores, strict=False)
        if round is None or number == round
    )
    return _judged(state.game.names[seat], seat, budget, seed, decisions, results)


def _judged(name, seat, budget, seed, decisions, results):
    """The steps of :func:`review_steps`, once its arguments are checked."""
    verdicts = []
    for done, (number, view, action, actions) in enumerate(decisions, 1):
        rng = random.Random(f"review/{seed}/{number}")
        verdicts.append(judge(view, action, actions, samples=budget, rng=rng, number=number))
        if done < len(decisions):
            yield done, len(decisions), None
    yield (
        len(decisions),
        len(decisions),
        Review(
            seat=seat,
            name=name,
            budget=budget,
            seed=seed,
            verdicts=tuple(verdicts),
            results=results,
        ),
    )
