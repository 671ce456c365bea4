"""ShoeControls: the rules, the round, the decks and the jokers of a dealt hand (and the
hand size), the one shoe control of the widgets (DealWidget, OddsExplorer,
SimulationExplorer)."""

from __future__ import annotations

import contextlib

import traitlets

from rummykit.engine.rules import Contract, RuleSet
from rummykit.widgets._common import (
    DECKS,
    JOKERS,
    dealt_cell,
    ipywidgets,
    preset_dropdown,
    round_options,
)

__all__ = ["CountText", "ShoeControls"]


class ShoeControls:
    """Preset, round (its contract), decks and jokers, and with ``hand_size`` a Hand size
    slider: the shoe a widget deals from and counts.

    The controls move one another as the rules say: a preset brings its rounds (the
    round kept where it exists), a round its deal size (``hand_size``), a deck count the
    rules' jokers for it, and with ``jokers_follow_rules`` a preset its jokers for the
    decks shown too. While they do, :attr:`changing` is true: a listener of every control
    waits for the last move (the controls' own listeners, added first, run first).

    ``sliders`` bounds decks and jokers to :data:`~rummykit.engine.rules.SHOE_DECKS` and
    :data:`~rummykit.engine.rules.SHOE_JOKERS` (the explorers); without it they are boxes that
    take any number, whole or not, so that a widget can name one it cannot deal
    (:meth:`problem`; DealWidget) instead of reading it as another. With
    ``hand_size`` the dropdown chooses a contract (the hand size apart), else a round.
    ``rules`` is a preset's name or a rule set of one's own (then the preset is fixed).

    >>> shoe = ShoeControls("standard", round=4, hand_size=True)
    >>> shoe.decks.value, shoe.jokers.value, shoe.cards.value, str(shoe.contract)
    (2, 4, 10, '3 sets')
    >>> shoe.decks.value = 3
    >>> shoe.jokers.value
    6
    >>> shoe.preset.value = "family"   # round 4 stays, its deal size follows, the shoe stays
    >>> cell = shoe.cell()
    >>> shoe.round.value, cell.decks, cell.jokers, cell.cards
    (4, 3, 6, 7)
    """

    def __init__(
        self,
        rules: RuleSet | str = "standard",
        *,
        round: int = 1,
        decks: int | None = None,
        jokers: int | None = None,
        sliders: bool = True,
        hand_size: bool = True,
        jokers_follow_rules: bool = False,
    ) -> None:
        name = rules if isinstance(rules, str) else rules.name
        self._custom = None if isinstance(rules, str) else rules
        self.jokers_follow_rules = jokers_follow_rules
        self.changing = False
        """True while a change moves the other controls: listeners wait for the end."""
        self.preset = preset_dropdown(name if name in RuleSet.presets() else "standard")
        if self._custom is not None:
            self.preset.disabled = True
        rules = self.rules
        self.round = ipywidgets.Dropdown(
            options=round_options(rules),
            value=round,
            description="Contract" if hand_size else "Round",
        )
        # The shoe of a four-player table (or the largest table the rules allow).
        decks = rules.decks_for(min(4, rules.max_players)) if decks is None else decks
        jokers = rules.jokers_for(decks) if jokers is None else jokers
        if sliders:
            self.decks = ipywidgets.IntSlider(
                value=decks,
                min=DECKS[0],
                max=DECKS[1],
                description="Decks",
                tooltip="52-card decks",
            )
            self.jokers = ipywidgets.IntSlider(
                value=jokers,
                min=JOKERS[0],
                max=JOKERS[1],
                description="Jokers",
                tooltip="jokers in the shoe, in all",
            )
        else:
            self.decks = CountText(
                value=decks,
                description="Decks",
                tooltip=f"52-card decks in the shoe ({DECKS[0]} to {DECKS[1]})",
            )
            self.jokers = CountText(
                value=jokers,
                description="Jokers",
                tooltip=f"jokers in the shoe, in all ({JOKERS[0]} to {JOKERS[1]})",
            )
        self.cards = None
        """The Hand size slider (None without ``hand_size``: the round's deal size)."""
        if hand_size:
            self.cards = ipywidgets.IntSlider(
                value=rules.deal_sizes[round - 1],
                min=3,
                max=15,
                description="Hand size",
                tooltip="cards in the hand",
            )
        self.preset.observe(self._preset_changed, "value")
        self.decks.observe(self._decks_changed, "value")
        self.round.observe(self._round_changed, "value")
        self.rows = [
            ipywidgets.HBox([self.preset, self.round]),
            ipywidgets.HBox([self.decks, self.jokers]),
        ]
        """The rows of controls (preset and round, decks and jokers), for a widget to lay
        out with its own; :attr:`box` holds them and the hand size."""
        self.box = ipywidgets.VBox(self.rows + ([self.cards] if hand_size else []))

    @property
    def rules(self) -> RuleSet:
        """The rule set chosen."""
        return self._custom if self._custom is not None else RuleSet.preset(self.preset.value)

    @property
    def contract(self) -> Contract:
        """The contract of the round chosen."""
        return self.rules.contracts[self.round.value - 1]

    @property
    def hand_size(self) -> int:
        """Cards in the hand: the Hand size slider, else the round's deal size."""
        if self.cards is not None:
            return self.cards.value
        return self.rules.deal_sizes[self.round.value - 1]

    def problem(self) -> str | None:
        """Why the decks or jokers shown cannot be dealt, in words naming the field and its
        range (:data:`~rummykit.engine.rules.SHOE_DECKS`, :data:`~rummykit.engine.rules.SHOE_JOKERS`),
        or None when they can.

        >>> shoe = ShoeControls(sliders=False, hand_size=False)
        >>> shoe.decks.value = 2.5
        >>> shoe.problem()
        'Decks must be a whole number from 1 to 4, not 2.5: nothing is dealt until it is.'
        >>> shoe.decks.value = 3.0   # a whole number, as the box sends it: an int
        >>> shoe.decks.value, shoe.problem()
        (3, None)
        """
        for name, control, (low, high) in (
            ("Decks", self.decks, DECKS),
            ("Jokers", self.jokers, JOKERS),
        ):
            value = control.value
            if isinstance(value, float) or not low <= value <= high:
                shown = f"{value:,}" if isinstance(value, int) else repr(value)
                return (
                    f"{name} must be a whole number from {low} to {high}, not {shown}: "
                    "nothing is dealt until it is."
                )
        return None

    def cell(self):
        """The dealt cell (:class:`~rummykit.odds.cells.ExactCell`) the controls show: the
        widgets' key for the odds they show, count and cache (a number :meth:`problem`
        names is kept as it is: such a cell is never dealt or counted)."""
        return dealt_cell(
            self.rules, self.contract, self.decks.value, self.jokers.value, self.hand_size
        )

    @contextlib.contextmanager
    def _moving(self):
        self.changing = True
        try:
            yield
        finally:
            self.changing = False

    def _preset_changed(self, change: dict) -> None:
        rules = self.rules
        with self._moving():
            number = min(self.round.value, rules.rounds)
            self.round.options = round_options(rules)
            self.round.value = number
            self._round_changed(None)
            if self.jokers_follow_rules:
                self._set_jokers()

    def _round_changed(self, change: dict | None) -> None:
        if self.cards is not None:
            self.cards.value = self.rules.deal_sizes[self.round.value - 1]

    def _decks_changed(self, change: dict) -> None:
        with self._moving():
            self._set_jokers()

    def _set_jokers(self) -> None:
        # With no joker count for this many decks, keep the one shown.
        with contextlib.suppress(ValueError):
            self.jokers.value = self.rules.jokers_for(self.decks.value)


class CountText(ipywidgets.FloatText):
    """A box for a count (decks, jokers) whose :attr:`value` is an int when it is whole
    and the float typed otherwise, so that "2.5" is refused by name (an integer box in the
    browser drops the "." and sends 25).

    >>> box = CountText(value=2)
    >>> box.value = 3.0
    >>> box.value
    3
    >>> box.set_state({"value": 2.5})   # as the browser sends "2.5"
    >>> box.value
    2.5
    """

    value = traitlets.Union([traitlets.Int(), traitlets.Float()], default_value=0).tag(sync=True)

    @traitlets.validate("value")
    def _whole_as_int(self, proposal: dict) -> int | float:
        value = proposal["value"]
        return int(value) if isinstance(value, float) and value.is_integer() else value
