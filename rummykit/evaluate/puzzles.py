"""Puzzles for learners: positions where one choice is clearly best, with the reason.

:func:`generate` plays seeded rounds with GreedyBots in every seat and weighs decisions
with a choice as the game review does (:func:`rummykit.evaluate.reviews.judge`: every legal choice
played out on the same sampled deals, drawn from the deciding seat's own view; the best
chosen on half of the samples and every gain measured on the other half). A position is a
*candidate* when the best choice beats **every** other by a margin: the lower end of the
95% interval of its paired gain over each of them is at least :data:`MARGIN` points
(points at the round's end relative to the opponents' mean).

**Confirmed on fresh samples.** Of the many positions weighed, the ones kept are those
whose measured margin came out large, and a margin comes out large partly by luck: a
position picked because it looked clearly best is picked partly for its luck (the
winner's curse, as the best of several noisy measurements reads high). So each candidate
is weighed again on ``budget`` new samples of its own (sample splitting): it stays a
puzzle only if that second verdict chooses the same answer and still puts it at least
:data:`MARGIN` ahead of every other choice at the lower end. Every number a puzzle keeps
(its values, margin, samples and sentences) is the second verdict's, measured on samples
on which the answer was chosen neither the first time nor the second; only the decision
to keep it looked at them, so a shown margin close to :data:`MARGIN` may still read a
little high.

**Balanced answers.** Within each kind, no answer given every time scores more than half:
no :attr:`Puzzle.answer_label` (buy or pass; take discard or draw stock; the verb of a
play; the card of a discard) is that of more than half of the kind's puzzles. A puzzle
confirmed is admitted if its kind stays within the rule with it; otherwise it is *held*
(a kind's held puzzles all have one label: the one at half), and the oldest held puzzle
of a kind is admitted, just before it, with the next puzzle of that kind with another
label: the two together keep the rule. Buy-or-pass and draw puzzles therefore come in
such pairs, one of each answer. The puzzles are admitted in one order whatever ``count``
is, and a call returns the first ``count`` of them, so a longer set begins with a shorter
one; every set a call returns keeps the rule, except when its last puzzle is the first of
a pair: then that puzzle's kind is one puzzle short of balance (its held label one puzzle
more than all the kind's others together: two "pass" of three buys; a set of one puzzle
is such a set). No rule does better while a longer set begins with a shorter one: a kind
of two labels is balanced only at an even count, and each puzzle more changes one kind's
count by one.

The kinds (:data:`KINDS`): find the discard, buy or pass, take the discard or draw, and
what to play (a lay-down, a lay-off or a discard). Buying decisions come up most, so at
most :data:`BUY_SHARE` of every set are buys (a buy decision is weighed only while a pair
of buys more would keep the share); the rounds are played in turn, 1 to 7, so every
contract has its puzzles, and a round played gives at most :data:`PER_ROUND` puzzles,
held ones included, from decisions chosen at random through it.

**A learner's own mistakes.** :func:`from_review` makes a puzzle of each decision a
review (:func:`rummykit.evaluate.reviews.review`) classed a mistake or a blunder: the position as
the seat saw it, the answer the review's best, every number and sentence the review's own
(measured on the samples apart from those the best was chosen on), the solution the best
against the choice played. A learner's :class:`~rummykit.evaluate.puzzle_book.PuzzleBook` keeps
such puzzles in a file they name, with every attempt, across sessions.

The book's set is ``data/puzzles.json`` (:func:`load`), written by ``rummykit puzzles``
(the command and the time it took are in the file). Checking an answer needs no game
and no samples (:meth:`Puzzle.check`), so the puzzles' page works without the compiled
core, and its boxes check themselves in the page (:meth:`Puzzle._repr_html_`).

>>> found = generate(seed=1, count=2, budget=16, players=3)
>>> [p.kind in KINDS for p in found], len({p.key for p in found})
([True, True], 2)
>>> first = found[0]
>>> first.check(first.answer)[0], first.check(first.choices[-1])[0] == (first.choices[-1] == first.answer)
(True, True)
>>> Puzzle.from_dict(first.to_dict()) == first
True
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import os
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from rummykit import svg
from rummykit.agents.bots import GreedyBot
from rummykit.engine.actions import Action, Discard, parse_action
from rummykit.engine.cards import parse_cards
from rummykit.engine.checks import choice as one_of
from rummykit.engine.checks import instance, items, whole
from rummykit.engine.game import Game
from rummykit.engine.legal import PlayerView
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, ArgumentTypeError, RummyError, SaveFileError
from rummykit.evaluate.reviews import CLASSES, MAX_BUDGET, Review, Verdict, judge

__all__ = [
    "BUDGET",
    "BUY_SHARE",
    "KINDS",
    "MARGIN",
    "MISTAKE_CLASSES",
    "PER_ROUND",
    "PUZZLES_FILE",
    "Puzzle",
    "answer_label",
    "choice_words",
    "from_review",
    "generate",
    "load",
    "position_key",
]

#: The kinds of puzzle, with the question each asks.
KINDS = {
    "discard": "Find the discard",
    "buy": "Buy or pass?",
    "draw": "Take the discard or draw from the stock?",
    "play": "What do you play?",
}
#: Samples a decision when looking for puzzles.
BUDGET = 64
#: The least gain, in points, of the best choice over every other at the lower end of
#: its 95% interval, when found and again when confirmed.
MARGIN = 1.0
#: The largest share of a set that may be buying decisions.
BUY_SHARE = 0.4
#: The most puzzles (held ones included) taken from one round played, and the share of
#: its decisions
#: weighed, by phase (chosen by the seed): a set spreads over many rounds and over every
#: stage of a round, not the first turns of a few; more of the play phase's decisions
#: are weighed, since a clearly best discard among ten or more is rarer.
PER_ROUND = 3
WEIGHED_SHARE = {"draw": 0.3, "buy": 0.3, "play": 0.6}
#: The book's set.
PUZZLES_FILE = Path(__file__).resolve().parents[2] / "data" / "puzzles.json"
#: The most puzzles a call looks for.
MAX_COUNT = 10_000


@dataclass(frozen=True)
class Puzzle:
    """One position and its choices; see the module notes."""

    key: str
    """A unique id: ``p<seed>-<round played>-<decision>`` (:func:`generate`), or ``m`` and
    a digest of the position (:func:`from_review`)."""
    kind: str
    """One of :data:`KINDS`."""
    rules: str
    round: int
    contract: str
    phase: str
    hand: tuple[str, ...]
    """The seat's cards, by code."""
    discard_top: str | None
    offer: str | None
    """The card on offer (buy phase), by code."""
    melds: tuple[tuple[str, ...], ...]
    """The melds on the table, by code."""
    meld_owners: tuple[str, ...]
    """Who laid each meld: "you" or a player's name."""
    others: tuple[tuple[str, int, bool], ...]
    """The other players in the order they play after the seat: name, cards in hand,
    laid down."""
    laid_down: bool
    """Whether the seat has laid its contract down."""
    choices: tuple[str, ...]
    """Every legal choice (engine notation, :func:`~rummykit.engine.actions.parse_action`)."""
    answer: str
    """The best choice."""
    values: tuple[tuple[float, float, float], ...]
    """Per choice: its value (mean, 95% low, high), points at the round's end
    relative to the opponents' mean."""
    margin: float
    """The least lower end, over the other choices, of the best's paired gain (points)."""
    samples: int
    """Sampled deals behind the values."""
    explanations: tuple[str, ...]
    """Per choice: the review's sentence had that choice been played."""
    solution: str
    """Why the answer is best: it against the next best choice, in words."""

    @property
    def question(self) -> str:
        """The question the puzzle asks (:data:`KINDS`)."""
        return KINDS[self.kind]

    @property
    def answer_label(self) -> str:
        """The answer as a fixed rule gives it (:func:`answer_label`)."""
        return answer_label(self.kind, self.answer)

    def explanation(self, choice: str) -> str:
        """The sentence of ``choice`` (one of :attr:`choices`)."""
        return self.explanations[self._index(choice)]

    def _index(self, choice: object) -> int:
        if not isinstance(choice, str):
            raise ArgumentTypeError(f"choice must be the text of a choice, got {choice!r:.80}")
        text = " ".join(choice.split())
        if text not in self.choices:
            raise ArgumentError(
                f"choice must be one of the puzzle's choices ({', '.join(self.choices)}), "
                f"got {choice!r:.80}"
            )
        return self.choices.index(text)

    def check(self, choice: str) -> tuple[bool, str]:
        """Whether ``choice`` is the answer, and the feedback: the review's sentence."""
        index = self._index(choice)
        if self.choices[index] == self.answer:
            return True, f"Right. {self.solution}"
        return False, f"Not the best choice. {self.explanations[index]}"

    def to_dict(self) -> dict:
        """As plain data (JSON-ready)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Puzzle:
        """The puzzle :meth:`to_dict` gave."""
        if not isinstance(data, dict):
            raise SaveFileError(f"a puzzle must be a JSON object, got {data!r:.80}")
        try:
            fields = dict(data)
            for name in ("hand", "meld_owners", "choices", "explanations"):
                fields[name] = tuple(fields[name])
            fields["melds"] = tuple(tuple(m) for m in fields["melds"])
            fields["others"] = tuple((n, int(c), bool(d)) for n, c, d in fields["others"])
            fields["values"] = tuple(tuple(float(x) for x in v) for v in fields["values"])
            puzzle = cls(**fields)
        except (KeyError, TypeError, ValueError) as error:
            raise SaveFileError(f"a puzzle could not be read: {error}") from None
        if puzzle.kind not in KINDS or puzzle.answer not in puzzle.choices:
            raise SaveFileError(f"puzzle {puzzle.key!r}: its kind or its answer is not valid")
        if not len(puzzle.choices) == len(puzzle.values) == len(puzzle.explanations):
            raise SaveFileError(f"puzzle {puzzle.key!r}: a value or sentence per choice is due")
        return puzzle

    def __str__(self) -> str:
        top = self.discard_top or "none"
        return (
            f"Puzzle {self.key}: {self.question} Round {self.round} ({self.contract}); your "
            f"hand {' '.join(self.hand)}; discard {top}; choices: {', '.join(self.choices)}"
        )

    def _repr_html_(self) -> str:
        name = html.escape(self.key)
        data = html.escape(
            json.dumps(
                {
                    "answer": self.choices.index(self.answer),
                    "messages": [self.check(c)[1] for c in self.choices],
                }
            ),
            quote=True,
        )
        choices = "".join(
            f'<label style="display:block"><input type="radio" name="{name}" value="{i}"> '
            f"{html.escape(choice_words(choice))}</label>"
            for i, choice in enumerate(self.choices)
        )
        return (
            f'<div class="rk-puzzle" id="{name}" data-puzzle="{data}" '
            'style="border-left:3px solid #4a6fa5;padding:.2em .8em;margin:.8em 0">'
            f"<script>{_PAGE_SCRIPT}</script>"
            f"{self.position_html()}"
            f'<fieldset style="border:none;padding:0">{choices}</fieldset>'
            '<button type="button" class="rk-check" onclick="rummykitPuzzle(this)">'
            "Check</button>"
            '<p class="rk-verdict" role="status" aria-live="polite" style="min-height:1.2em">'
            "</p>"
            f'<p style="font-size:80%;color:#555">Puzzle {name}</p></div>'
        )

    def position_html(self) -> str:
        """The question and the position as HTML: the situation in words, the hand, the
        discard pile's top card and the melds on the table (what the puzzle's box on the
        page shows above its choices, and the PlayWidget's retry area)."""
        return (
            f"<p><strong>{html.escape(self.question)}</strong> {self._situation()}</p>"
            f"{self._pictures()}"
        )

    def _situation(self) -> str:
        others = "; ".join(
            f"{n} {c} card{'s' if c != 1 else ''}" + (", laid down" if d else "")
            for n, c, d in self.others
        )
        where = {
            "draw": "Your turn begins",
            "buy": f"The {_symbols(self.offer or '')} is on offer to buy",
            "play": "You have drawn",
        }.get(self.phase, f"The {self.phase} phase")
        mine = "you have laid down" if self.laid_down else "you have not laid down yet"
        return html.escape(
            f"Round {self.round} ({self.contract}). {where}; {mine}. After you: {others}."
        )

    def _pictures(self) -> str:
        parts = [_figure(svg.hand_svg(parse_cards(" ".join(self.hand)), width=44), "your hand")]
        if self.discard_top is not None:
            top = svg.card_svg(parse_cards(self.discard_top)[0], width=44)
            parts.append(_figure(top, "the discard pile"))
        if self.melds:
            melds = [parse_cards(" ".join(m)) for m in self.melds]
            labels = [f"{i}: {owner}" for i, owner in enumerate(self.meld_owners, 1)]
            parts.append(
                _figure(svg.melds_svg(melds, width=36, labels=labels), "the melds on the table")
            )
        return '<div style="display:flex;flex-wrap:wrap;gap:1em">' + "".join(parts) + "</div>"


def answer_label(kind: str, answer: str) -> str:
    """What ``answer`` (a choice of a puzzle of kind ``kind``) says as an answer given
    every time: "buy" or "pass", "take discard" or "draw stock", a play's verb ("lay
    down", "lay off", "swap", "discard"), a discard's card. Within a kind of a set, no
    label is more than half of the puzzles (module notes).

    >>> answer_label("buy", "pass"), answer_label("draw", "take discard")
    ('pass', 'take discard')
    >>> answer_label("play", "lay off 7H -> 2 high"), answer_label("discard", "discard 10C")
    ('lay off', '10C')
    """
    if not isinstance(kind, str) or kind not in KINDS:
        raise ArgumentError(f"kind must be one of {', '.join(KINDS)}, got {kind!r:.80}")
    if not isinstance(answer, str):
        raise ArgumentTypeError(f"answer must be the text of a choice, got {answer!r:.80}")
    action = parse_action(answer)
    if kind != "discard":
        return action.kind
    if not isinstance(action, Discard):
        raise ArgumentError(f"a discard puzzle's answer is a discard, got {answer!r:.80}")
    return action.card.code


def _figure(image: str, caption: str) -> str:
    return f"<figure style='margin:0'>{image}<figcaption>{caption}</figcaption></figure>"


_JOKER = re.compile(r"\bJK\b")
_ON_MELD = re.compile(r"^(lay off|swap) (\S+) -> (\d+)(?: (low|high))?$")


def choice_words(choice: str) -> str:
    """A choice as the puzzle shows it: card symbols, melds counted from 1.

    >>> choice_words("lay off JK -> 2 high"), choice_words("swap 7H -> 0")
    ('lay off a joker on meld 3, at its high end', 'swap 7♥ for the joker in meld 1')
    >>> choice_words("lay down 8S 8H 8D | 9C 9C 9D")
    'lay down 8♠ 8♥ 8♦ | 9♣ 9♣ 9♦'
    """
    if not isinstance(choice, str):
        raise ArgumentTypeError(f"choice must be the text of an action, got {choice!r:.80}")
    match = _ON_MELD.match(choice)
    if match is None:
        return _symbols(choice)
    verb, card, meld, end = match.groups()
    card = _symbols(card)
    if verb == "swap":
        return f"swap {card} for the joker in meld {int(meld) + 1}"
    return f"lay off {card} on meld {int(meld) + 1}" + (f", at its {end} end" if end else "")


def _symbols(text: str) -> str:
    """Card codes in ``text`` as their suit symbols ("discard 9♣"; "a joker")."""
    words = []
    for word in text.split():
        try:
            card = parse_cards(word)[0]
            words.append("a joker" if card.is_joker else card.symbol)
        except RummyError:  # not a card: a word of the action
            words.append(word)
    return " ".join(words)


#: The page's checker: the choice ticked against the answer, and its sentence shown.
_PAGE_SCRIPT = (
    "if (!window.rummykitPuzzle) { window.rummykitPuzzle = function (button) {"
    " var box = button.closest('.rk-puzzle');"
    " var data = JSON.parse(box.getAttribute('data-puzzle'));"
    " var ticked = box.querySelector('input[type=radio]:checked');"
    " var out = box.querySelector('.rk-verdict');"
    " if (!ticked) { out.textContent = 'Choose one of the choices first.'; return; }"
    " var i = parseInt(ticked.value, 10);"
    " out.textContent = data.messages[i];"
    " out.style.color = i === data.answer ? '#1a7f37' : '#b35900'; }; }"
)


def _kind(view: PlayerView, choices) -> str:
    if view.phase == "buy":
        return "buy"
    if view.phase == "draw":
        return "draw"
    if all(isinstance(a, Discard) for a in choices):
        return "discard"
    return "play"


def _puzzle(
    key: str, view: PlayerView, verdict: Verdict, margin: float, against: Action | None = None
) -> Puzzle:
    """The puzzle of ``verdict`` at ``view``: its choices best first, its values and
    sentences; the solution is the best against ``against`` (default the next best)."""
    seat, players = view.seat, len(view.names)
    order = [(seat + k) % players for k in range(1, players)]
    alternatives = verdict.alternatives
    choices = tuple(str(a.action) for a in alternatives)
    return Puzzle(
        key=key,
        kind=_kind(view, [a.action for a in alternatives]),
        rules=view.rules.name,
        round=view.round,
        contract=str(view.contract),
        phase=view.phase,
        hand=tuple(c.code for c in view.hand),
        discard_top=None if view.discard_top is None else view.discard_top.code,
        offer=None if view.offer is None else view.offer.code,
        melds=tuple(tuple(c.code for c in m.cards) for m in view.melds),
        meld_owners=tuple(
            "you" if owner == seat else view.names[owner] for owner in view.meld_owners
        ),
        others=tuple((view.names[s], view.hand_sizes[s], view.laid_down[s]) for s in order),
        laid_down=view.laid_down[seat],
        choices=choices,
        answer=choices[0],
        values=tuple(
            (round(a.value.mean, 2), round(a.value.low, 2), round(a.value.high, 2))
            for a in alternatives
        ),
        margin=round(margin, 2),
        samples=verdict.samples,
        explanations=tuple(
            _worded(verdict.as_played(a.action).sentence, choices) for a in alternatives
        ),
        solution=_worded(
            verdict.versus(alternatives[1].action if against is None else against), choices
        ),
    )


def _worded(sentence: str, choices: tuple[str, ...]) -> str:
    """``sentence`` with each choice in it as the puzzle shows it (:func:`choice_words`:
    card symbols, melds counted from 1), at a sentence's start too, and a joker named."""
    for choice in sorted(choices, key=len, reverse=True):
        words = choice_words(choice)
        sentence = sentence.replace(choice, words)
        sentence = sentence.replace(choice[:1].upper() + choice[1:], words[:1].upper() + words[1:])
    return _JOKER.sub("the joker", sentence)


def _signature(view: PlayerView, choices) -> tuple:
    """What makes two positions the same puzzle."""
    return (
        view.round,
        view.phase,
        tuple(sorted(c.code for c in view.hand)),
        None if view.discard_top is None else view.discard_top.code,
        None if view.offer is None else view.offer.code,
        tuple(sorted(tuple(sorted(c.code for c in m.cards)) for m in view.melds)),
        tuple(sorted(str(a) for a in choices)),
    )


def _clear_margin(verdict, margin: float) -> float | None:
    """The least lower end, over the other choices, of the best's paired gain, if it is
    at least ``margin``; else None."""
    least = min(a.loss.low for a in verdict.alternatives[1:])
    return least if least >= margin else None


def _confirmed(
    key: str, view: PlayerView, choices: list, *, budget: int, margin: float, rng_name: str
) -> Puzzle | None:
    """The puzzle at ``view``, if one choice is clearly best on ``budget`` samples and
    again on ``budget`` fresh ones (module notes), with the second verdict's numbers."""
    first = judge(view, choices[0], choices, samples=budget, rng=random.Random(rng_name))
    if _clear_margin(first, margin) is None:
        return None
    again = judge(
        view, choices[0], choices, samples=budget, rng=random.Random(f"{rng_name}/confirm")
    )
    least = _clear_margin(again, margin)
    if least is None or again.best.action != first.best.action:
        return None
    return _puzzle(key, view, again, least)


def _balanced(labels: list[str]) -> bool:
    """Whether no label is more than half of ``labels``."""
    return all(2 * labels.count(label) <= len(labels) for label in set(labels))


def _admitted(puzzle: Puzzle, found: list[Puzzle], held: list[Puzzle]) -> list[Puzzle]:
    """The puzzles to add to ``found`` now that ``puzzle`` is confirmed (none, it, or the
    oldest held one of its kind and it), ``held`` updated: see the module notes."""
    label = puzzle.answer_label
    partner = next((p for p in held if p.kind == puzzle.kind), None)
    if partner is not None and partner.answer_label != label:
        # The kind was balanced, and its held label at half: with one of each more, no
        # label passes half.
        held.remove(partner)
        return [partner, puzzle]
    labels = [p.answer_label for p in found if p.kind == puzzle.kind]
    if partner is None and _balanced([*labels, label]):
        return [puzzle]
    held.append(puzzle)
    return []


def generate(
    seed: int,
    count: int,
    *,
    rules: RuleSet | str = "standard",
    players: int = 4,
    budget: int = BUDGET,
    margin: float = MARGIN,
    max_rounds: int = 10_000,
    progress: Callable[[int, int], None] | None = None,
) -> list[Puzzle]:
    """``count`` distinct puzzles from rounds played by GreedyBots, each confirmed on
    fresh samples, their answers balanced within each kind (see the module notes), the
    same for the same arguments; the first ``k`` of them are the ``k`` a call with
    ``count=k`` gives. ``budget`` is the samples a decision is weighed on, once to find
    it and once to confirm it (4 or more: half chooses, half measures, and an interval
    needs two). ``progress(found, count)`` is called after each round played;
    ``max_rounds`` bounds the rounds played (an ArgumentError if too few puzzles were
    found in them)."""
    whole("seed", seed, low=0)
    whole("count", count, low=1, high=MAX_COUNT)
    whole("budget", budget, low=4, high=MAX_BUDGET)
    whole("max_rounds", max_rounds, low=1)
    if isinstance(rules, str):
        rules = RuleSet.preset(rules)
    if not isinstance(rules, RuleSet):
        raise ArgumentTypeError(f"rules must be a RuleSet or a preset name, got {rules!r:.80}")
    whole("players", players, low=rules.min_players, high=rules.max_players)
    rules.check_players(players)
    if (
        not isinstance(margin, (int, float))
        or isinstance(margin, bool)
        or not math.isfinite(margin)
    ):
        raise ArgumentTypeError(f"margin must be a finite number of points, got {margin!r:.80}")
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be a callable or None, got {progress!r:.80}")
    chance = random.Random(f"puzzles/{seed}")
    found: list[Puzzle] = []  # admitted, in order
    held: list[Puzzle] = []  # confirmed, waiting for one of their kind with another label
    seen: set[tuple] = set()
    for played in range(max_rounds):
        number = played % rules.rounds + 1
        game = Game(rules, players, seed=chance.getrandbits(63), max_reshuffles=2)
        state = game.new_state(round=number)
        bots = [GreedyBot(seed=chance.getrandbits(63)) for _ in range(players)]
        decision = 0
        taken = 0
        while not state.results and len(found) < count and taken < PER_ROUND:
            seat = state.to_act
            view = state.view(seat)
            action = bots[seat].choose(view)
            choices = list(dict.fromkeys(view.legal_actions()))
            # Buys come in pairs (one buy, one pass): a buy decision is weighed only if
            # two buys more keep at most BUY_SHARE of the set buys (and so every set
            # between, one puzzle longer, too).
            buys = sum(p.kind == "buy" for p in found)
            wanted = view.phase != "buy" or buys + 2 <= BUY_SHARE * (len(found) + 2)
            if len(choices) > 1 and wanted and chance.random() < WEIGHED_SHARE.get(view.phase, 0.3):
                signature = _signature(view, choices)
                if signature not in seen:  # each position tried once
                    seen.add(signature)
                    puzzle = _confirmed(
                        f"p{seed}-{played}-{decision}",
                        view,
                        choices,
                        budget=budget,
                        margin=margin,
                        rng_name=f"puzzles/{seed}/{played}/{decision}",
                    )
                    if puzzle is not None:
                        found += _admitted(puzzle, found, held)
                        taken += 1
                decision += 1
            state.apply(action)
        if progress is not None:
            progress(min(len(found), count), count)
        if len(found) >= count:
            return found[:count]
    raise ArgumentError(
        f"max_rounds: {max_rounds} rounds gave {len(found)} puzzles of the {count} asked "
        "for: allow more rounds, or ask a smaller margin"
    )


def load(path: str | Path | None = None) -> list[Puzzle]:
    """The puzzles of ``path`` (default the book's set, :data:`PUZZLES_FILE`)."""
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path must be a file's path or None, got {path!r:.80}")
    path = PUZZLES_FILE if path is None else Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SaveFileError(f"puzzles: cannot read {str(path)!r}: {error.strerror}") from None
    except ValueError as error:
        raise SaveFileError(f"puzzles: {str(path)!r} is not JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
        raise SaveFileError(f"puzzles: {str(path)!r} holds no list of puzzles")
    return [Puzzle.from_dict(p) for p in data["puzzles"]]


# -- a learner's own mistakes, kept in a puzzle book -----------------------------------


#: The classes of a review's decisions :func:`from_review` makes puzzles of, unless told.
MISTAKE_CLASSES = ("mistake", "blunder")


def from_review(review: Review, *, kinds: Iterable[str] = MISTAKE_CLASSES) -> list[Puzzle]:
    """A puzzle of each decision of ``review`` classed one of ``kinds`` (any of
    "inaccuracy", "mistake" and "blunder"; default mistakes and blunders), in the order
    played: the position as the seat saw it, every choice it had, the answer the review's
    best, and the review's own values and sentences, measured on the samples apart from
    those the best was chosen on (:func:`rummykit.evaluate.reviews.judge`). The solution is the
    best against the choice played. Unlike :func:`generate`'s, the answer need not beat
    every choice clearly: :attr:`Puzzle.margin` (the least lower end, over the other
    choices, of the best's paired gain) may be below zero where another choice was about
    as good, and that choice's sentence says so ("within chance").

    A puzzle's key is ``m`` and 16 hex digits of a digest of the position (everything the
    seat saw, :meth:`~rummykit.engine.legal.PlayerView.to_dict`, but the players' names): the same
    position gives the same key in every review of it, and a learner's puzzle book
    (:class:`rummykit.evaluate.puzzle_book.PuzzleBook`) keeps it once.

    >>> from rummykit.agents.bots import RandomBot, GreedyBot
    >>> from rummykit.engine.game import Game, play_game
    >>> from rummykit.evaluate.reviews import review
    >>> state = play_game(Game("standard", players=3, seed=4, turn_limit=30).new_state(),
    ...                   [RandomBot(seed=1), GreedyBot(), GreedyBot()])
    >>> result = review(state, seat=0, budget=16, seed=0, round=1)   # a random player
    >>> found = from_review(result)
    >>> marked = [v for v in result.verdicts if v.kind in ("mistake", "blunder")]
    >>> len(found) > 0, [p.answer for p in found] == [str(v.best.action) for v in marked]
    (True, True)
    >>> found[0].check(str(marked[0].played))[0]
    False
    """
    instance("review", review, Review, "a Review (rummykit.review)")
    wanted = items(
        "kinds",
        kinds,
        lambda name, kind: one_of(name, kind, CLASSES[2:]),
        what="a list of classes (inaccuracy, mistake, blunder)",
        least=1,
    )
    found: dict[str, Puzzle] = {}
    for verdict in review.verdicts:
        if verdict.kind not in wanted:
            continue
        key = position_key(verdict.view)
        margin = min(a.loss.low for a in verdict.alternatives[1:])
        found.setdefault(key, _puzzle(key, verdict.view, verdict, margin, against=verdict.played))
    return list(found.values())


def position_key(view: PlayerView) -> str:
    """The key of the puzzle at ``view`` (:func:`from_review`): ``m`` and 16 hex digits of
    a SHA-256 digest of the view as JSON, the players' names left out (a position is the
    same whoever sits there).

    >>> from rummykit.engine.game import Game
    >>> view = Game(players=3, seed=7).new_state().view(1)
    >>> key = position_key(view)
    >>> len(key), key == position_key(Game(players=3, seed=7).new_state().view(1))
    (17, True)
    """
    instance("view", view, PlayerView, "a PlayerView")
    data = view.to_dict()
    del data["names"]
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "m" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
