"""MeldBuilder: select cards, check them as a meld, and read the verdict in plain words."""

from __future__ import annotations

from collections.abc import Iterable

from rummykit import svg
from rummykit.cards import Card, Hand, Shoe, parse_cards
from rummykit.errors import RummyError
from rummykit.melds import MeldCheck, check_meld
from rummykit.rules import RuleSet
from rummykit.widgets._common import (
    CardPicker,
    figure_html,
    four_colour_box,
    ipywidgets,
    message_html,
    preset_dropdown,
)

__all__ = ["MeldBuilder"]

#: A hand with a set, a run that needs its joker, and cards that make neither.
TEACHING_HAND = "5C 5D 5S 7H 8H JK 10H QS KS 2D"


class MeldBuilder:
    """Click cards to select them, then check them as a set or a run.

    The verdict is :func:`~rummykit.melds.check_meld`'s, in its words: ``"valid run, the
    joker is the 9♥"`` or ``"not a meld: "`` and the rule that fails. ``hand`` is a
    :class:`~rummykit.cards.Hand` or card codes; "Deal" replaces it with a seeded hand.

    >>> builder = MeldBuilder(hand="5C 5D 5S QS")
    >>> builder.select("5C 5D QS")
    >>> builder.check().reason
    'a set is cards of one rank, these mix 5, Q'
    >>> builder.verdict
    'not a meld: a set is cards of one rank, these mix 5, Q'
    """

    def __init__(
        self,
        hand: Iterable[Card] | str = TEACHING_HAND,
        rules: RuleSet | str = "standard",
        *,
        seed: int = 0,
    ) -> None:
        name = rules if isinstance(rules, str) else rules.name
        self._custom = None if isinstance(rules, str) else rules
        self.result: MeldCheck | None = None
        self.dealt_seed: int | None = None
        """The seed of the hand shown, if it was dealt (None for cards given or typed)."""
        self.preset = preset_dropdown(name if name in RuleSet.presets() else "standard")
        if self._custom is not None:
            self.preset.disabled = True
        # "either": let the cards decide (no None value: ipywidgets shows it as no choice).
        self.kind = ipywidgets.ToggleButtons(
            options=[("Set or run", "either"), ("Set", "set"), ("Run", "run")],
            value="either",
            description="Check as",
            tooltips=["let the cards decide", "check as a set", "check as a run"],
        )
        self.four_colour = four_colour_box()
        self.picker = CardPicker(hand)
        self.codes = ipywidgets.Text(
            value=self.hand.codes,
            description="Cards",
            placeholder="e.g. 7H 8H JK 10H",
            tooltip="card codes: 7H, 10S, QD, JK",
            continuous_update=False,
        )
        self.use_button = ipywidgets.Button(description="Use these cards", tooltip="show them")
        self.seed = ipywidgets.IntText(value=seed, description="Seed", tooltip="random seed")
        self.deal_button = ipywidgets.Button(description="Deal 10", tooltip="deal 10 cards")
        self.check_button = ipywidgets.Button(
            description="Check", button_style="primary", tooltip="check the selected cards"
        )
        self.clear_button = ipywidgets.Button(description="Clear", tooltip="unselect every card")
        self.selection_html = ipywidgets.HTML()
        self.verdict_html = ipywidgets.HTML(message_html("Select cards, then press Check."))

        self.use_button.on_click(lambda _: self.use_codes())
        self.deal_button.on_click(lambda _: self.deal())
        self.check_button.on_click(lambda _: self.check())
        self.clear_button.on_click(lambda _: self.picker.clear())
        self.picker.on_change(self._selection_changed)
        self.four_colour.observe(self._colours_changed, "value")
        for control in (self.preset, self.kind):
            control.observe(lambda _: self._forget_verdict(), "value")

        self.box = ipywidgets.VBox(
            [
                ipywidgets.HBox([self.codes, self.use_button]),
                ipywidgets.HBox([self.seed, self.deal_button]),
                ipywidgets.HBox([self.preset, self.four_colour]),
                self.picker.box,
                ipywidgets.HBox([self.kind]),
                ipywidgets.HBox([self.check_button, self.clear_button]),
                self.selection_html,
                self.verdict_html,
            ]
        )
        self.box.add_class("rk-meld-builder")

    @property
    def rules(self) -> RuleSet:
        """The rule set chosen."""
        return self._custom if self._custom is not None else RuleSet.preset(self.preset.value)

    @property
    def hand(self) -> Hand:
        """The cards to choose from."""
        return self.picker.cards

    @property
    def selected(self) -> Hand:
        """The cards selected."""
        return self.picker.selected

    @property
    def verdict(self) -> str | None:
        """The last verdict in words (None before the first check)."""
        return None if self.result is None else self.result.describe()

    def select(self, cards: Iterable[Card] | str) -> None:
        """Select exactly ``cards`` (codes or cards of the hand)."""
        self.picker.select(cards)

    def set_hand(self, cards: Iterable[Card] | str) -> None:
        """Offer ``cards`` to choose from, none selected."""
        self.dealt_seed = None
        self.picker.set_cards(cards)
        self.picker.set_four_colour(self.four_colour.value)
        self.codes.value = self.hand.codes
        self._forget_verdict()

    def use_codes(self) -> None:
        """Offer the cards typed in the text box (a typo is shown, not raised)."""
        try:
            cards = parse_cards(self.codes.value)
        except RummyError as error:
            self.verdict_html.value = message_html(str(error), "error")
            return
        self.set_hand(cards)

    def deal(self) -> Hand:
        """Deal 10 cards from the preset's four-player shoe: from the seed shown the first
        time, then from the seed moved on by one, so the Seed box names the hand shown."""
        if self.dealt_seed is not None and self.dealt_seed == self.seed.value:
            self.seed.value += 1
        rules = self.rules
        decks = rules.decks_for(min(4, rules.max_players))
        hand = Shoe(decks=decks, jokers=rules.jokers_for(decks)).deal(10, seed=self.seed.value)
        self.set_hand(hand.sorted())
        self.dealt_seed = self.seed.value
        return hand

    def check(self) -> MeldCheck:
        """Check the selected cards with :func:`~rummykit.melds.check_meld`; show the verdict."""
        kind = None if self.kind.value == "either" else self.kind.value
        self.result = check_meld(self.selected, self.rules, kind=kind)
        tone = "ok" if self.result.ok else "error"
        self.verdict_html.value = message_html(self.result.describe(), tone)
        if self.result.ok:
            image = svg.melds_svg([self.result.meld], four_colour=self.four_colour.value)
            self.verdict_html.value += figure_html(image, self.result.meld.describe())
        return self.result

    def _forget_verdict(self) -> None:
        self.result = None
        self.verdict_html.value = message_html("Select cards, then press Check.")
        self._selection_changed()

    def _selection_changed(self) -> None:
        cards = self.selected
        if not cards:
            self.selection_html.value = message_html("No card selected.")
            return
        image = svg.hand_svg(cards, four_colour=self.four_colour.value, width=48)
        names = ", ".join(card.name for card in cards)
        self.selection_html.value = figure_html(image, f"Selected: {names}")
        if self.result is not None:
            self.result = None
            self.verdict_html.value = message_html("Press Check to check these cards.")

    def _colours_changed(self, change: dict) -> None:
        self.picker.set_four_colour(change["new"])
        self._selection_changed()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.box)
