"""Pieces every widget shares: card buttons, SVG and message panes, the install hint."""

from __future__ import annotations

import functools
import html
import importlib.util
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from types import ModuleType

from rummykit import _optional, svg
from rummykit.chance import exact_text, impossible_reason
from rummykit.engine.cards import Card, Hand
from rummykit.engine.rules import SHOE_DECKS, SHOE_JOKERS, Contract, RuleSet
from rummykit.odds.answer import count_seconds


def require(name: str) -> ModuleType:
    """Import the optional module ``name`` or raise MissingDependencyError saying what to
    install (the ``notebook`` extra)."""
    return _optional.require(name, extra="notebook", feature="rummykit.widgets")


ipywidgets = require("ipywidgets")

#: Whether this Python can start threads. Pyodide (the book's live notebooks run the
#: widgets in the reader's browser) cannot: there the widgets do all their work in the
#: handler of the control that asked for it.
CAN_THREAD = sys.platform not in ("emscripten", "wasi")


#: What the explorers' charts by altair need, beside polars for their tables.
CHARTING = ("altair", "vl_convert", "polars")


@functools.cache
def plain_charts() -> bool:
    """Whether the explorers draw their charts plainly (:mod:`rummykit.widgets.plain`):
    where one of :data:`CHARTING` cannot be found, as in a browser's Python (the book's
    live notebooks). Nothing is imported to tell.

    >>> plain_charts()   # this Python has the analysis extra
    False
    """
    return not all(_findable(name) for name in CHARTING)


def _findable(name: str) -> bool:
    if name in sys.modules:
        return sys.modules[name] is not None  # None: an import blocked on purpose
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


#: Whether vl-convert has drawn in this process (see :func:`engine_started`).
_engine_started = False


def chart_svg(chart) -> str:
    """An altair chart as a standalone SVG string, drawn by vl-convert in this process
    (no browser, no CDN): the explorers' charts and the table panel's alike."""
    global _engine_started
    vl_convert = require("vl_convert")
    svg = vl_convert.vegalite_to_svg(chart.to_json())
    _engine_started = True
    return svg


def engine_started() -> bool:
    """Whether :func:`chart_svg` has drawn in this process. Its first drawing starts
    vl-convert's engine (with altair's import, about 2 s, a second of it holding the GIL);
    until then the explorers draw what they can plainly
    (:func:`~rummykit.widgets.plain.convergence_svg`,
    :func:`~rummykit.widgets.plain.odds_lines_svg`)."""
    return _engine_started


#: The shoes every widget deals from and counts: decks and jokers, inclusive (the
#: DealWidget's boxes, the explorers' sliders), those of ``rummykit odds`` too.
DECKS, JOKERS = SHOE_DECKS, SHOE_JOKERS

#: Colours of messages: text on white at least 4.5:1.
_TONES = {"ok": "#1a7f37", "error": "#b42318", "info": "#333333"}


def message_html(text: str, tone: str = "info") -> str:
    """A paragraph in the colour of ``tone`` (``"ok"``, ``"error"`` or ``"info"``).

    Errors are announced by screen readers at once (``role="alert"``), the rest politely.

    >>> message_html("not a meld: a run needs 4 cards", "error")
    '<p class="rk-message rk-error" role="alert" style="color:#b42318">not a meld: a run needs 4 cards</p>'
    """
    role = "alert" if tone == "error" else "status"
    return (
        f'<p class="rk-message rk-{tone}" role="{role}" style="color:{_TONES[tone]}">'
        f"{html.escape(text)}</p>"
    )


def figure_html(image: str, caption: str | None = None) -> str:
    """An SVG (already a string) in a scrollable block, with an optional caption.

    The caption comes first, in bold, as the image's heading, and a margin below the
    figure parts it from what follows (under the image, it read as the next item's).

    >>> figure_html("<svg></svg>", "Melds")
    '<figure class="rk-figure" style="overflow-x:auto;margin:.5em 0 1em"><figcaption class="rk-caption" style="font-weight:bold">Melds</figcaption><svg></svg></figure>'
    """
    text = ""
    if caption is not None:
        text = f'<figcaption class="rk-caption" style="font-weight:bold">{html.escape(caption)}'
        text += "</figcaption>"
    style = "overflow-x:auto;margin:.5em 0 1em"
    return f'<figure class="rk-figure" style="{style}">{text}{image}</figure>'


def preset_dropdown(value: str = "standard") -> ipywidgets.Dropdown:
    """A dropdown of the rule presets."""
    return ipywidgets.Dropdown(
        options=list(RuleSet.presets()), value=value, description="Rules", tooltip="rule preset"
    )


def round_options(rules: RuleSet) -> list[tuple[str, int]]:
    """``("Round 1: 2 sets", 1)`` for each round of ``rules``."""
    return [
        (f"Round {number}: {contract}", number)
        for number, contract in enumerate(rules.contracts, 1)
    ]


#: Exact counts planned to take longer than this (CPU seconds, see
#: :func:`rummykit.odds.answer.count_seconds`) run only when "Count exactly" is pressed;
#: shorter ones run in the background unasked.
COUNT_UNASKED_SECONDS = 20.0


def dealt_cell(rules: RuleSet, contract: Contract, decks: int, jokers: int, cards: int):
    """The dealt cell (:class:`~rummykit.odds.cells.ExactCell`) of a widget's settings."""
    from rummykit.odds.cells import ExactCell

    return ExactCell(rules, None, contract, decks, jokers, cards)


def slow_to_count(cell) -> bool:
    """Whether an exact count of ``cell`` is planned to take more than
    :data:`COUNT_UNASKED_SECONDS`: then the widgets show a simulated estimate and count
    only when asked to ("Count exactly")."""
    return count_seconds(cell) > COUNT_UNASKED_SECONDS


def chance_sentence(cell, p: Fraction) -> str:
    """The exact chance ``p`` of the dealt ``cell``, as the odds widgets say it.

    >>> standard = RuleSet.preset("standard")
    >>> chance_sentence(dealt_cell(standard, standard.contracts[0], 2, 4, 10), Fraction(1, 3))
    'The chance of being dealt 2 sets in 10 cards from 2 decks and 4 jokers: 1/3 = 33%.'
    """
    reason = impossible_reason(cell.contract, cell.rules, cell.cards)
    return (
        f"The chance of being dealt {cell.contract} in {cell.cards} cards from "
        f"{cell.shoe.words}: {exact_text(p, reason=reason)}."
    )


def estimate_text(cell) -> str:
    """A seeded simulation of :data:`~rummykit.odds.answer.ESTIMATE_HANDS` hands, in
    words, with its interval and what an exact count would take
    (:func:`rummykit.odds.answer.answer` with no budget for counting)."""
    from rummykit.chance import duration_text
    from rummykit.odds.answer import answer

    found = answer(cell, 0.0)
    if found.exact:  # known meanwhile (a count of another widget)
        return f"The exact chance: {found.words()}."
    return (
        f"Simulated from {found.estimate.n:,} hands: {found.words()}. "
        f"An exact count of {cell.contract} with this shoe would take "
        f'{duration_text(found.seconds)} on one core (planned): press "Count exactly" to run it.'
    )


#: A count planned to take longer than this shows a quick simulated estimate meanwhile
#: (a planned second can take several while other work shares the machine).
QUICK_SECONDS = 0.25
#: Hands dealt for that quick estimate (a few hundredths of a second).
QUICK_HANDS = 20_000


def interim_text(cell, *, slow: bool) -> str:
    """What a widget says at once for odds not known yet: a quick seeded simulation of
    :data:`QUICK_HANDS` hands with its interval and the planned time of the exact count,
    which runs now (or, if ``slow``, when "Count exactly" is pressed). A count planned
    at most :data:`QUICK_SECONDS` is simply "Counting".

    >>> pagat = RuleSet.preset("pagat")
    >>> interim_text(dealt_cell(pagat, pagat.contracts[1], 3, 8, 15), slow=False)[:70]
    'Counting the exact odds (about 4 s planned) ... Meanwhile, simulated f'
    """
    seconds = count_seconds(cell)
    if not slow and seconds <= QUICK_SECONDS:
        return "Counting the exact odds ..."
    from rummykit.chance import duration_text
    from rummykit.odds.answer import answer

    found = answer(cell, 0.0, hands=QUICK_HANDS)
    if found.exact:  # known meanwhile (a count of another widget)
        return f"The exact chance: {found.words()}."
    quick = f"simulated from {found.estimate.n:,} hands: {found.words()}"
    if slow:
        return (
            f"At a first look, {quick}; dealing more hands ... An exact count would take "
            f'{duration_text(seconds)} on one core (planned): press "Count exactly" to run it.'
        )
    return f"Counting the exact odds ({duration_text(seconds)} planned) ... Meanwhile, {quick}."


class Superseded(Exception):
    """Raised inside a background count whose settings the controls have left: it stops."""


class CountProgress:
    """A progress bar for an exact count, shown only while a count runs.

    Pass :meth:`report` as the ``progress`` of
    :func:`~rummykit.odds.counting.exact.dealt_probability`; call :meth:`done` when it returns
    (a cached count reports nothing).

    >>> bar = CountProgress()
    >>> bar.report(3, 10); (bar.widget.value, bar.widget.max, bar.widget.layout.display)
    (3, 10, None)
    >>> bar.done(); bar.widget.layout.display
    'none'
    """

    def __init__(self, description: str = "Counting") -> None:
        self.widget = ipywidgets.IntProgress(
            value=0, min=0, max=1, description=description, bar_style="info"
        )
        self.widget.layout.display = "none"
        self.button = ipywidgets.Button(
            description="Count exactly",
            tooltip="count the exact odds of this shoe (it takes a while: see the time planned)",
            icon="calculator",
        )
        """Shown when a count would be slow: the widgets count only when it is pressed."""
        self.button.layout.display = "none"

    def report(self, done: int, total: int) -> None:
        self.widget.max = total
        self.widget.value = done
        self.widget.layout.display = None

    def done(self) -> None:
        self.widget.layout.display = "none"

    def count(self, cell, *, stale: Callable[[], bool] | None = None):
        """The exact odds of the dealt ``cell`` (:func:`rummykit.odds.answer.answer` with no
        limit on the count), the count shown on this bar; when ``stale()`` turns true the count stops (raising
        :class:`Superseded`)."""
        from rummykit.odds.answer import answer

        def progress(done: int, total: int) -> None:
            if stale is not None and stale():
                raise Superseded
            self.report(done, total)

        try:
            # The widget plans a count and asks before a slow one: the reader chose it.
            return answer(cell, math.inf, progress=progress).value
        finally:
            self.done()


def four_colour_box(value: bool = False) -> ipywidgets.Checkbox:
    """The four-colour switch: clubs green and diamonds blue."""
    return ipywidgets.Checkbox(
        value=value,
        description="Four colours",
        tooltip="clubs green, diamonds blue: every suit its own colour",
        indent=False,
    )


class CardPicker:
    """A row of toggle buttons, one per card, to select cards from the keyboard or mouse.

    Each button shows the card's symbol (``8♥``) in its suit's colour and has the card's
    name (``8 of hearts``) as its tooltip; Tab reaches it and Space toggles it.

    >>> picker = CardPicker("8S 8H JK")
    >>> picker.buttons[1].value = True
    >>> picker.selected
    parse_cards('8♥')
    >>> picker.buttons[2].tooltip
    'joker'
    """

    def __init__(self, cards: Iterable[Card] | str = (), *, four_colour: bool = False) -> None:
        self.four_colour = four_colour
        self.box = ipywidgets.HBox(layout=ipywidgets.Layout(flex_flow="row wrap"))
        self.buttons: list[ipywidgets.ToggleButton] = []
        self.cards: Hand = Hand()
        self._listeners: list[Callable[[], None]] = []
        self.set_cards(cards)

    def set_cards(self, cards: Iterable[Card] | str) -> None:
        """Show ``cards`` (a hand or codes), none selected."""
        from rummykit.engine.cards import parse_cards

        self.cards = parse_cards(cards) if isinstance(cards, str) else Hand(cards)
        self.buttons = [self._button(card) for card in self.cards]
        self.box.children = self.buttons

    def _button(self, card: Card) -> ipywidgets.ToggleButton:
        button = ipywidgets.ToggleButton(
            value=False,
            description=card.symbol,
            tooltip=card.name,
            layout=ipywidgets.Layout(
                width="auto", min_width="3.4em", height="2.6em", margin="2px", padding="0 .4em"
            ),
        )
        button.style.font_weight = "bold"
        button.style.font_size = "1.05em"
        button.style.text_color = self._ink(card)
        button.observe(self._changed, "value")
        button.add_class("rk-card")
        return button

    def _ink(self, card: Card) -> str:
        if card.is_joker:
            return "#6a1b9a"
        return svg.suit_colour(card.suit, four_colour=self.four_colour)

    def set_four_colour(self, four_colour: bool) -> None:
        """Recolour the buttons."""
        self.four_colour = four_colour
        for card, button in zip(self.cards, self.buttons, strict=True):
            button.style.text_color = self._ink(card)

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` whenever the selection changes."""
        self._listeners.append(callback)

    def _changed(self, change: dict) -> None:
        for callback in self._listeners:
            callback()

    @property
    def selected(self) -> Hand:
        """The selected cards, in the order shown."""
        return Hand(c for c, b in zip(self.cards, self.buttons, strict=True) if b.value)

    def select(self, cards: Iterable[Card] | str) -> None:
        """Select exactly ``cards`` (codes such as ``"8S 8H"`` pick the first unselected copy)."""
        wanted = list(_faces(cards))
        for button in self.buttons:
            button.value = False
        for want in wanted:
            for card, button in zip(self.cards, self.buttons, strict=True):
                if not button.value and _same(card, want):
                    button.value = True
                    break
            else:
                raise ValueError(f"there is no unselected {want} to select")

    def clear(self) -> None:
        """Unselect every card."""
        for button in self.buttons:
            button.value = False


def _faces(cards: Iterable[Card] | str) -> Sequence[Card]:
    if isinstance(cards, str):
        return [Card.parse(code) for code in cards.replace(",", " ").split()]
    return list(cards)


def _same(card: Card, want: Card) -> bool:
    """Codes name a card by rank and suit; a Card with a deck names that copy."""
    return card.rank == want.rank and card.suit == want.suit and (card == want or want.deck == 0)


#: The seeds a widget's Seed box takes, inclusive: the whole numbers a browser keeps
#: exactly (JavaScript's safe integers). A longer number typed in the box reaches Python
#: already rounded by the browser, so it is refused, never dealt as another seed.
SEED_RANGE = (0, 2**53 - 1)


def seed_problem(seed: object) -> str | None:
    """Why a Seed box's value cannot be dealt, in words naming :data:`SEED_RANGE`; None
    when it can.

    >>> seed_problem(12345) is None
    True
    >>> seed_problem(12345678901234567000)
    'Seed must be a whole number from 0 to 9,007,199,254,740,991 (a longer number is rounded by the browser), not 12,345,678,901,234,567,000: nothing changes until it is.'
    """
    low, high = SEED_RANGE
    if isinstance(seed, int) and not isinstance(seed, bool) and low <= seed <= high:
        return None
    shown = f"{seed:,}" if isinstance(seed, int) else repr(seed)
    return (
        f"Seed must be a whole number from {low} to {high:,} (a longer number is rounded by "
        f"the browser), not {shown}: nothing changes until it is."
    )


def display_widget(box: ipywidgets.Widget, summary: str) -> None:
    """Display ``box`` as a live widget, with ``summary`` (what the widget does and that
    it needs a running kernel) as its plain text and HTML: what a notebook shows where
    the widget cannot be drawn (opened before its cells run, not yet trusted, read as a
    file), in place of ipywidgets' ``VBox(children=...)``.

    >>> from unittest import mock
    >>> with mock.patch("IPython.display.display") as shown:
    ...     display_widget(ipywidgets.VBox(), "A widget: run the cell.")
    >>> bundle = shown.call_args.args[0]
    >>> bundle["text/plain"], "application/vnd.jupyter.widget-view+json" in bundle
    ('A widget: run the cell.', True)
    """
    from IPython.display import display

    bundle = dict(box._repr_mimebundle_() or {})  # (None once the widget is closed)
    bundle["text/plain"] = summary
    bundle["text/html"] = f'<p class="rk-static"><em>{html.escape(summary)}</em></p>'
    display(bundle, raw=True)
