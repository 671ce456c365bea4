"""The outs of a hand and the advice for its discard, as the widgets show them.

:class:`OutsPane` is one HTML pane that shows :func:`rummykit.outs` of a hand (before a
draw, or a dealt hand) or :func:`rummykit.discard_advice` of a hand after its draw. Both
can take a second or more for the contracts of runs (pure Python, measured up to 0.9 s
for the outs of a 12-card hand and 4 s for the advice of a 13-card one), so the pane
computes them in one background thread: the pane says "Counting the outs ..." at once
and the result replaces it when it is ready, unless the position has moved on by then.
Results are kept by position, so selecting cards or redrawing never counts again.

Chances are written for a student by :func:`rummykit.chance.chance_text`
(``"9.9% (1 in 10)"``, never ``"0.0%"``).
"""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Callable, Iterable

from rummykit import svg
from rummykit.agents.hints import DiscardAdvice, Outs, discard_advice, outs, seen_text, view_seen
from rummykit.chance import chance_text
from rummykit.engine.cards import Card
from rummykit.engine.legal import PlayerView
from rummykit.engine.rules import Contract, RuleSet
from rummykit.errors import RummyError
from rummykit.widgets._common import CAN_THREAD, ipywidgets, message_html

__all__ = ["OutsPane", "advice_html", "outs_html", "view_seen"]

#: Out faces drawn in one row under the outs sentence; more wrap to the next row.
OUT_FACES_PER_ROW = 13
#: Positions whose outs or advice a pane keeps (the oldest is forgotten first).
KEPT_POSITIONS = 64


def _faces(cards: dict[str, int]) -> str:
    return ", ".join(f"{Card.parse(code)} ×{count}" for code, count in cards.items())


def _note(seen: str) -> str:
    """What the counts take as seen, under them (a sentence, capitalised)."""
    if not seen:
        return ""
    return (
        "<p class='rk-seen' style='color:#555;margin:.2em 0'>"
        f"{html.escape(seen[:1].upper() + seen[1:])}.</p>"
    )


def outs_html(
    result: Outs, contract: Contract, *, four_colour: bool = False, seen: str = ""
) -> str:
    """The outs of a hand in words (the faces, their count, the next card's chance) and
    as card faces, each with its unseen copies under it; ``seen`` says what the count
    takes as seen (:func:`~rummykit.agents.hints.seen_text`), written under it.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> result = outs(parse_cards("8S 8H 8D JH JS 2C 5D"), rules.contracts[0], rules,
    ...               decks=2, jokers=4)
    >>> text = outs_html(result, rules.contracts[0])
    >>> "10 of the 101 unseen cards complete 2 sets" in text, "9.9% (1 in 10)" in text
    (True, True)
    """
    if result.distance == 0:
        return message_html(f"Outs: none needed, the hand holds {contract}.", "ok")
    if not result.cards:
        return message_html(
            f"Outs: none. The hand is {result.distance} cards from {contract}, and no unseen "
            "card brings it closer."
        ) + _note(seen)
    what = (
        f"complete {contract}"
        if result.distance == 1
        else f"bring it one card closer to {contract} ({result.distance} cards away now)"
    )
    words = (
        f"Outs: {result.total} of the {result.unseen} unseen cards {what}: "
        f"{_faces(result.cards)}. The next card is one of them: {chance_text(result.p_next)}."
    )
    faces = [Card.parse(code) for code in result.cards]
    labels = [f"×{count}" for count in result.cards.values()]
    # Rows of at most OUT_FACES_PER_ROW faces, wrapping at the pane's edge: a contract of
    # runs can have 40 out faces, one row of which ran far past the page.
    images = []
    for start in range(0, len(faces), OUT_FACES_PER_ROW):
        row = slice(start, start + OUT_FACES_PER_ROW)
        image = svg.hand_svg(
            faces[row], four_colour=four_colour, overlap=0, width=40, labels=labels[row]
        )
        # A row of faces, not a hand: named so, for a reader and for a page's selectors.
        label = f'aria-label="{len(faces[row])} out faces"'
        images.append(re.sub(r'aria-label="hand of [^"]*"', label, image, count=1))
    # The sentence wraps within the pane (white-space: normal), whatever the page's style.
    return message_html(words).replace('style="', 'style="white-space:normal;', 1) + (
        '<div class="rk-outs" style="display:flex;flex-wrap:wrap;max-width:100%" '
        f'aria-hidden="true">{"".join(images)}</div>' + _note(seen)
    )


def _key(option) -> tuple:
    return (option.distance, option.outs.total, option.p_two)


def advice_html(advice: DiscardAdvice, *, selected: Card | None = None, seen: str = "") -> str:
    """The discard advice as a table: each discard with the distance it leaves, its outs,
    the chance that the next card is an out and the chance of the contract within two
    draws; the best discard (and any as good) marked "best", the card selected marked
    "selected"; ``seen`` (:func:`~rummykit.agents.hints.seen_text`) under it.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> advice = discard_advice(parse_cards("8S 8H 8D JH JS 2C KD"), rules.contracts[0],
    ...                         rules, decks=2, jokers=4)
    >>> table = advice_html(advice)
    >>> table.count("rk-advice-row"), table.count("best")  # 2C and KD keep as much
    (7, 2)
    """
    if not advice:
        return ""
    best = _key(advice[0])
    rows = []
    for option in advice:
        card = Card.parse(option.discard)
        marks = []
        if _key(option) == best:
            marks.append("best")
        if selected is not None and selected.code == option.discard:
            marks.append("selected")
        style = " style='font-weight:bold'" if "best" in marks else ""
        rows.append(
            f"<tr class='rk-advice-row'{style}><th scope='row'>{html.escape(str(card))}</th>"
            f"<td>{option.distance}</td><td>{option.outs.total}</td>"
            f"<td title='exactly {option.p_next}'>{html.escape(chance_text(option.p_next))}</td>"
            f"<td title='exactly {option.p_two}'>{html.escape(chance_text(option.p_two))}</td>"
            f"<td>{', '.join(marks)}</td></tr>"
        )
    unseen = advice[0].outs.unseen
    return (
        "<table class='rk-advice'><caption>Which discard keeps the most: after each discard, "
        f"the cards still needed and the outs among the {unseen} unseen cards</caption>"
        "<thead><tr><th scope='col'>Discard</th><th scope='col'>Cards away</th>"
        "<th scope='col'>Outs</th><th scope='col'>Next card helps</th>"
        "<th scope='col'>Contract within two draws</th><th scope='col'></th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>" + _note(seen)
    )


def _codes(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(sorted(card.code for card in cards))


class OutsPane:
    """One HTML pane (:attr:`html`) with the outs or the discard advice of a position,
    computed in one background thread (here, without ``background``).

    :meth:`show_outs` and :meth:`show_advice` ask for a position; :attr:`result` is its
    :class:`~rummykit.agents.hints.Outs` or :class:`~rummykit.agents.hints.DiscardAdvice` once known
    (None while it is counted); :meth:`clear` empties the pane. An input the rules refuse
    shows the rule's error (:attr:`error`) and leaves :attr:`result` as it was.

    >>> from rummykit import RuleSet, parse_cards
    >>> rules = RuleSet.preset("standard")
    >>> pane = OutsPane(background=False)
    >>> pane.show_outs(parse_cards("8S 8H 8D JH JS 2C 5D"), rules.contracts[0], rules,
    ...                decks=2, jokers=4)
    >>> pane.result.total, "(1 in 10)" in pane.html.value
    (10, True)
    >>> pane.show_outs(parse_cards("8S 8S 8S"), rules.contracts[0], rules, decks=2, jokers=4)
    >>> pane.result.total, "3 copies of 8S" in pane.html.value
    (10, True)
    """

    def __init__(self, *, background: bool = True) -> None:
        self.background = background and CAN_THREAD
        """Count in a thread, so a slow count never blocks the notebook (never where
        threads cannot start, as in Pyodide: there the count runs when asked for)."""
        self.html = ipywidgets.HTML()
        self.result: Outs | DiscardAdvice | None = None
        """The outs or advice of the position shown, or None while it is counted."""
        self.error: str | None = None
        """The rule's error for the last position asked for, or None."""
        self.four_colour = False
        """Draw the out faces in four colours (set before asking for a position)."""
        self.selected: Card | None = None
        """The card marked in the advice table."""
        self._known: dict[tuple, Outs | DiscardAdvice] = {}
        self._wanted: tuple | None = None  # the position to show
        self._pending: tuple | None = None  # (key, compute, what was shown) to count next
        self._thread: threading.Thread | None = None
        # Held while the pane is written or a job handed over, so a thread's result and a
        # newer position cannot interleave.
        self._lock = threading.RLock()
        self._hidden = False

    def show_outs(
        self,
        hand: Iterable[Card],
        contract: Contract,
        rules: RuleSet,
        *,
        decks: int,
        jokers: int,
        seen: Iterable[Card] = (),
        seen_note: str = "",
    ) -> None:
        """Show the outs of ``hand`` (see :func:`rummykit.outs`); ``seen_note`` says in
        words what ``seen`` holds (:func:`~rummykit.agents.hints.seen_text`)."""
        hand, seen = list(hand), list(seen)
        key = ("outs", _codes(hand), contract, rules, decks, jokers, _codes(seen), seen_note)
        self._ask(key, lambda: outs(hand, contract, rules, decks=decks, jokers=jokers, seen=seen))

    def show_advice(self, view: PlayerView, *, selected: Card | None = None) -> None:
        """Show the discard advice of ``view`` (see :func:`rummykit.discard_advice`), the
        ``selected`` card marked."""
        decks = view.rules.decks_for(len(view.names))
        key = ("advice", _codes(view.hand), view.contract, view.rules, decks)
        key += (_codes(view_seen(view)), seen_text(view))
        with self._lock:
            self.selected = selected
            self._ask(key, lambda: discard_advice(view))

    def hide(self) -> None:
        """Empty the pane but keep the position and its :attr:`result` (the next
        ``show_...`` of it shows it again at once)."""
        with self._lock:
            self._hidden = True
            self.html.value = ""

    def clear(self) -> None:
        """Show nothing (a count under way is left to finish, unseen)."""
        with self._lock:
            self._wanted = None
            self.result = self.error = None
            self.html.value = ""

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the background count (for scripts and tests)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _ask(self, key: tuple, compute: Callable) -> None:
        with self._lock:
            self._hidden = False
            if key == self._wanted and self.result is not None:
                self.error = None
                self._draw(key, self.result)
                return
            if key in self._known:
                self._wanted, self.error = key, None
                self._draw(key, self._known[key])
                return
            if not self.background:
                self._count(key, compute)
                return
            before = (self._wanted, self.result)  # kept again if the rules refuse the input
            self.error = None
            self._wanted, self.result = key, None
            what = "outs" if key[0] == "outs" else "outs of every discard"
            self.html.value = message_html(f"Counting the {what} ...")
            self._pending = (key, compute, before)
            # (A thread a bug stopped is replaced, so the pane never stays on "Counting".)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._work, name="rummykit-outs", daemon=True
                )
                self._thread.start()

    def _count(self, key: tuple, compute: Callable) -> None:
        try:
            found = compute()
        except RummyError as error:
            self._refused(error)
            return
        self._keep(key, found)
        self._wanted, self.error = key, None
        self._draw(key, found)

    def _refused(self, error: RummyError) -> None:
        self.error = str(error)
        if self._hidden:
            return
        self.html.value = message_html(self.error, "error")

    def _keep(self, key: tuple, found) -> None:
        self._known[key] = found
        while len(self._known) > KEPT_POSITIONS:
            del self._known[next(iter(self._known))]

    def _work(self) -> None:
        """In the thread: count the newest position asked for until none is left."""
        while True:
            with self._lock:
                job = self._pending
                self._pending = None
                if job is None:
                    self._thread = None
                    return
            key, compute, before = job
            try:
                found = compute()
            except RummyError as error:
                with self._lock:
                    if self._wanted == key:
                        self._wanted, self.result = before
                        self._refused(error)
                continue
            with self._lock:
                self._keep(key, found)
                if self._wanted == key:
                    self._draw(key, found)

    def _draw(self, key: tuple, found) -> None:
        self.result = found
        if self._hidden:
            return
        # Every key ends with what the count takes as seen, in words.
        if isinstance(found, Outs):
            self.html.value = outs_html(found, key[2], four_colour=self.four_colour, seen=key[-1])
        else:
            self.html.value = advice_html(found, selected=self.selected, seen=key[-1])
