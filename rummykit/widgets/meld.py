"""MeldBuilder: select cards, check them as a meld, and read the verdict in plain words."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable

from rummykit import svg
from rummykit.engine.cards import Card, Hand, Shoe, parse_cards
from rummykit.engine.melds import MeldCheck, check_meld
from rummykit.engine.rules import RuleSet
from rummykit.errors import ArgumentError, RummyError
from rummykit.widgets._common import (
    CardPicker,
    display_widget,
    figure_html,
    four_colour_box,
    ipywidgets,
    message_html,
    preset_dropdown,
    seed_problem,
)

__all__ = ["MeldBuilder", "shoe_problem"]

#: A hand with a set, a run that needs its joker, and cards that make neither.
TEACHING_HAND = "5C 5D 5S 7H 8H JK 10H QS KS 2D"


class MeldBuilder:
    """Click cards to select them, then check them as a set or a run.

    The verdict is :func:`~rummykit.engine.melds.check_meld`'s, in its words: ``"valid run, the
    joker is the 9♥"`` or ``"not a meld: "`` and the rule that fails. Cards no shoe of the
    rules chosen holds (five 8♠ where the largest shoe has three decks) are refused first,
    the shoe named (:func:`shoe_problem`). ``hand`` is a :class:`~rummykit.engine.cards.Hand` or
    card codes; "Deal" replaces it with a seeded hand.

    The Cards box is the hand's source: codes typed there replace the hand when the box
    sends them (Enter, or leaving the box) and when "Use these cards" is pressed, and
    the widget never writes the box while applying it. (A browser may deliver the click
    before the box's last edit; the edit, when it arrives, is applied in its turn, so the
    hand always ends as the box reads.) An empty box or a typo is refused with a message,
    and the hand stays.

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

        self._writing_codes = False  # set while the widget itself writes the Cards box
        self.use_button.on_click(lambda _: self.use_codes())
        self.codes.observe(self._codes_changed, "value")
        self.seed.observe(self._seed_changed, "value")
        self.deal_button.on_click(lambda _: self._deal_clicked())
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
        """Offer ``cards`` to choose from, none selected; the Cards box shows their codes."""
        self._offer(cards)
        with self._writing():
            self.codes.value = self.hand.codes

    def _offer(self, cards: Iterable[Card] | str) -> None:
        self.dealt_seed = None
        self.picker.set_cards(cards)
        self.picker.set_four_colour(self.four_colour.value)
        self._forget_verdict()

    @contextlib.contextmanager
    def _writing(self):
        self._writing_codes = True
        try:
            yield
        finally:
            self._writing_codes = False

    def use_codes(self) -> bool:
        """Offer the cards the Cards box holds now (True if it did). A typo or an empty box
        is shown, not raised, and the hand stays; the box is left as typed."""
        text = self.codes.value
        try:
            cards = parse_cards(text)
        except RummyError as error:
            self.verdict_html.value = message_html(f"{error}: the hand stays as it was.", "error")
            return False
        if not cards:
            self.verdict_html.value = message_html(
                "The Cards box is empty: type the codes of the cards to choose from "
                "(e.g. 7H 8H JK 10H). The hand stays as it was.",
                "error",
            )
            return False
        self._offer(cards)
        return True

    def _codes_changed(self, change: dict) -> None:
        if not self._writing_codes:
            self.use_codes()

    def _seed_changed(self, change: dict) -> None:
        problem = seed_problem(change["new"])
        if problem is not None:
            self.verdict_html.value = message_html(problem, "error")

    def deal(self) -> Hand:
        """Deal 10 cards from the preset's four-player shoe: from the seed shown the first
        time, then from the seed moved on by one, so the Seed box names the hand shown.

        A seed out of :data:`~rummykit.widgets._common.SEED_RANGE` is refused (an
        :class:`~rummykit.errors.ArgumentError`, shown under the cards): nothing is dealt.
        """
        seed = self.seed.value
        if self.dealt_seed is not None and self.dealt_seed == seed:
            seed += 1
        problem = seed_problem(seed)
        if problem is not None:
            self.verdict_html.value = message_html(problem, "error")
            raise ArgumentError(problem)
        self.seed.value = seed
        rules = self.rules
        decks = rules.decks_for(min(4, rules.max_players))
        hand = Shoe(decks=decks, jokers=rules.jokers_for(decks)).deal(10, seed=self.seed.value)
        self.set_hand(hand.sorted())
        self.dealt_seed = self.seed.value
        return hand

    def _deal_clicked(self) -> None:
        with contextlib.suppress(RummyError):  # (shown under the cards)
            self.deal()

    def check(self) -> MeldCheck:
        """Check the selected cards with :func:`~rummykit.engine.melds.check_meld`; show the verdict.
        Cards no shoe of the rules holds are refused first (:func:`shoe_problem`)."""
        kind = None if self.kind.value == "either" else self.kind.value
        rules = self.rules
        problem = shoe_problem(self.selected, rules)
        if problem is not None:
            self.result = MeldCheck(False, None, problem)
        else:
            self.result = check_meld(self.selected, rules, kind=kind)
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
        display_widget(
            self.box,
            f"The meld builder, with the cards {self.hand}: select some and press Check to "
            "see whether they make a set or a run. It needs a running Python kernel: run "
            "this cell to use it.",
        )


def shoe_problem(cards: Iterable[Card], rules: RuleSet) -> str | None:
    """Why ``cards`` cannot all come from one shoe of ``rules`` (its largest: the most
    decks any table of the rules uses, with its jokers), naming the shoe; None if they can.

    >>> standard = RuleSet.preset("standard")
    >>> shoe_problem(parse_cards("8S 8S 8S"), standard) is None
    True
    >>> shoe_problem(parse_cards("8S 8S 8S 8S 8S"), standard)
    'these cards hold 5 8♠, and no shoe of standard has that many: its largest, 3 decks and 6 jokers (for 5 to 8 players), has 3'
    """
    decks = max(count for _, count in rules.decks_by_players)
    shoe = Shoe(decks=decks, jokers=rules.jokers_for(decks))
    players = [n for n, count in rules.decks_by_players if count == decks]
    table = f"{players[0]}" if len(players) == 1 else f"{players[0]} to {players[-1]}"
    held = Counter("JK" if card.is_joker else card.symbol for card in cards)
    for face, count in held.items():
        has = shoe.jokers if face == "JK" else shoe.decks
        if count > has:
            what = (
                f"{count} joker{'s' if count != 1 else ''}" if face == "JK" else f"{count} {face}"
            )
            return (
                f"these cards hold {what}, and no shoe of {rules.name} has that many: its "
                f"largest, {shoe.words} (for {table} players), has {has}"
            )
    return None
