"""Pieces every widget shares: card buttons, SVG and message panes, the install hint."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType

from rummykit import _optional, svg
from rummykit.cards import Card, Hand
from rummykit.rules import Contract, RuleSet


def require(name: str) -> ModuleType:
    """Import the optional module ``name`` or raise MissingDependencyError saying what to
    install (the ``notebook`` extra)."""
    return _optional.require(name, extra="notebook", feature="rummykit.widgets")


ipywidgets = require("ipywidgets")

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


#: Hands dealt for the estimate shown while a slow exact count runs.
ESTIMATE_HANDS = 200_000


def slow_to_count(rules: RuleSet, contract: Contract, decks: int, jokers: int, cards: int) -> bool:
    """Whether an exact count may take more than a few minutes (see
    :func:`rummykit.odds.tables.counts_in_minutes`): then the widgets show a simulated
    estimate and count only when asked to ("Count exactly")."""
    from rummykit.odds.tables import ExactCell, counts_in_minutes

    return not counts_in_minutes(ExactCell(rules, None, contract, decks, jokers, cards))


def estimate_text(rules: RuleSet, contract: Contract, decks: int, jokers: int, cards: int) -> str:
    """A seeded simulation of :data:`ESTIMATE_HANDS` hands, in words, with its interval."""
    from rummykit.odds.simulate import simulate_dealt

    estimate = simulate_dealt(
        contract, decks=decks, jokers=jokers, cards=cards, rules=rules, n=ESTIMATE_HANDS, seed=0
    )
    return (
        f"Simulated from {estimate.n:,} hands: {float(estimate.p):.3%} "
        f"(95% interval {float(estimate.ci_low):.3%} to {float(estimate.ci_high):.3%}). "
        "An exact count of a contract mixing sets and runs takes many minutes with this "
        'shoe: press "Count exactly" to run it.'
    )


class CountProgress:
    """A progress bar for an exact count, shown only while a count runs.

    Pass :meth:`report` as the ``progress`` of
    :func:`~rummykit.odds.exact.dealt_probability`; call :meth:`done` when it returns
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
            tooltip="count the exact odds of this shoe (it may take many minutes)",
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

    def estimate_instead(self, key: tuple, asked: tuple | None) -> str | None:
        """A simulated estimate to show instead of counting ``key`` (rules, contract,
        decks, jokers, cards), or None to count it.

        A count that would be slow (:func:`slow_to_count`) runs only once "Count exactly"
        was pressed for these settings (``asked``); until then the button is shown.
        """
        slow = asked != key and slow_to_count(*key)
        self.button.layout.display = None if slow else "none"
        return estimate_text(*key) if slow else None

    def count(self, rules: RuleSet, contract, decks: int, jokers: int, cards: int):
        """:func:`~rummykit.odds.exact.dealt_probability`, shown on this bar."""
        from rummykit.odds import dealt_probability

        try:
            return dealt_probability(
                contract, decks=decks, jokers=jokers, cards=cards, rules=rules, progress=self.report
            )
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
        from rummykit.cards import parse_cards

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
