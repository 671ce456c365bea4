"""DealWidget: deal a hand and see whether it holds the contract, how far it is, and the odds."""

from __future__ import annotations

import contextlib
import threading
from fractions import Fraction

from rummykit import svg
from rummykit.agents.hints import Outs
from rummykit.engine.cards import Card, Hand, Shoe
from rummykit.engine.melds import Meld
from rummykit.engine.rules import Contract, RuleSet
from rummykit.engine.search import contract_completion, find_contract
from rummykit.errors import RummyError
from rummykit.odds.answer import can_count, known_probability
from rummykit.odds.cells import ExactCell
from rummykit.widgets._common import (
    CAN_THREAD,
    DECKS,
    JOKERS,
    CountProgress,
    Superseded,
    chance_sentence,
    display_widget,
    estimate_text,
    figure_html,
    four_colour_box,
    interim_text,
    ipywidgets,
    message_html,
    seed_problem,
    slow_to_count,
)
from rummykit.widgets.hints import OutsPane
from rummykit.widgets.shoe import CountText, ShoeControls

__all__ = ["DECKS", "JOKERS", "DealWidget"]


class DealWidget:
    """Deal a seeded hand for a round of a preset; show it with its contract and odds.

    The hand is drawn as card faces (sorted by rank or by suit) with the contract's melds
    outlined when the hand holds it; otherwise the contract distance ("2 cards away").
    Below are the odds of being dealt the contract. When they are known (the committed
    tables of ``data/``, a sweep made before) the exact value is shown at once. Otherwise
    the time of the exact count is planned from the sweep's measured cost
    (:func:`rummykit.odds.answer.count_seconds`): a count planned at up to
    :data:`~rummykit.widgets._common.COUNT_UNASKED_SECONDS` runs in the background with
    a progress bar, and meanwhile a quick seeded simulated estimate with its interval and
    the planned time is shown (only "Counting" for a count planned under
    :data:`~rummykit.widgets._common.QUICK_SECONDS`); the exact value replaces it when the
    count ends. A longer count shows a simulated estimate and the planned time, and runs
    only when "Count exactly" is pressed. Nothing slow runs in a control's handler, and a
    count the controls have left stops without showing anything.

    The odds are asked of :func:`rummykit.odds.answer.answer` (known ones of
    :func:`~rummykit.odds.answer.known_probability`, read with the standard library):
    without polars (as in the book's live notebooks, which run in the reader's browser)
    a shoe the tables lack is said to need the analysis extra. Where threads cannot start
    (Pyodide), ``background`` is off: a count runs in the handler that asks for it.

    The Seed box always names the hand on screen: the first deal uses the seed shown,
    each later one moves it on by one first, and a seed typed in is dealt at once. Once
    a hand is up, changing the rules, the round, the decks or the jokers deals that seed
    again with the new settings, so the verdict and the odds never describe another
    shoe. A value that is not a whole number in range (:data:`DECKS`, :data:`JOKERS`, as
    for ``rummykit odds``; a seed in :data:`~rummykit.widgets._common.SEED_RANGE`) is
    named in the status line, and nothing is dealt until it is fixed ("2.5" decks is
    refused, never read as 2 or 25; a seed is never changed behind the reader's back).
    When the hand changes, the outs and the odds of the hand before are replaced
    at once by a line saying they are being counted. A hand that is short of the contract
    shows which cards would complete it (:func:`~rummykit.engine.search.contract_completion`).

    Under the verdict are the outs of the hand for the contract (:func:`rummykit.outs`,
    the shoe's copies less the hand's): which faces bring it one card closer and the
    chance that the next card is one. They are counted in the same background (they take
    up to about a second for contracts of runs) and shown by :attr:`outs_pane`;
    :attr:`outs` holds them once known.

    >>> widget = DealWidget(seed=3, background=False)
    >>> widget.deal_button.click()
    >>> len(widget.hand), widget.seed.value
    (10, 3)
    >>> widget.deal_button.click()
    >>> widget.seed.value
    4
    >>> "away" in widget.status_html.value or "holds" in widget.status_html.value
    True
    """

    def __init__(
        self,
        rules: RuleSet | str = "standard",
        *,
        round: int = 1,
        decks: int | None = None,
        jokers: int | None = None,
        seed: int = 0,
        odds: bool = True,
        background: bool = True,
    ) -> None:
        self.background = background and CAN_THREAD
        """Compute the exact odds in a thread, so a slow count never blocks the notebook
        (never where threads cannot start, as in Pyodide)."""
        self.hand: Hand = Hand()
        self.melds: list[Meld] | None = None
        self.distance: int | None = None
        self.completion: Hand | None = None
        """Cards that would complete the contract (as few as :attr:`distance`), or None."""
        self.dealt_seed: int | None = None
        """The seed of the hand on screen (None before the first deal)."""
        self._quiet = False  # set while the widget itself changes its controls
        self.probability: Fraction | None = None
        self.estimate_text: str | None = None
        """A simulated estimate, shown where an exact count would be slow, else None."""
        self._odds_cache: dict[tuple, Fraction] = {}
        self._asked: tuple | None = None  # the settings "Count exactly" was pressed for
        self._odds_thread: threading.Thread | None = None
        self._odds_job: tuple | None = None  # (settings, slow) of the thread's work
        # Held while the odds line is written, so a thread's result and the controls' newer
        # settings cannot interleave.
        self._odds_lock = threading.RLock()

        self.shoe = ShoeControls(
            rules,
            round=round,
            decks=decks,
            jokers=jokers,
            sliders=False,
            hand_size=False,
            jokers_follow_rules=True,
        )
        """The rules, round, decks and jokers (the preset fixed for a rule set of one's own)."""
        self.seed = ipywidgets.IntText(
            value=seed, description="Seed", tooltip="the random seed of the hand shown"
        )
        self.sort = ipywidgets.Dropdown(
            options=[("rank", "rank"), ("suit", "suit")],
            value="rank",
            description="Sort by",
            tooltip="sort the hand by rank or by suit",
        )
        self.four_colour = four_colour_box()
        self.show_odds = ipywidgets.Checkbox(
            value=odds,
            description="Exact odds",
            tooltip="count the exact probability of being dealt the contract",
            indent=False,
        )
        self.deal_button = ipywidgets.Button(
            description="Deal", button_style="primary", tooltip="deal a new hand", icon="refresh"
        )
        self.hand_html = ipywidgets.HTML()
        self.status_html = ipywidgets.HTML()
        self.odds_html = ipywidgets.HTML()
        self.outs_pane = OutsPane(background=background)
        self.count_progress = CountProgress()
        """Shown while the exact odds are counted (contracts mixing sets and runs take a while)."""

        # After the shoe's own listeners: the controls have moved one another.
        for control in (self.preset, self.round, self.decks, self.jokers, self.seed):
            control.observe(self._settings_changed, "value")
        self.deal_button.on_click(lambda _: self._deal_clicked())
        for control in (self.sort, self.four_colour):
            control.observe(lambda _: self._show_hand(), "value")
        self.four_colour.observe(lambda _: self._show_outs(), "value")
        self.show_odds.observe(lambda _: self._show_odds(), "value")

        controls = ipywidgets.VBox(
            [
                *self.shoe.rows,
                ipywidgets.HBox([self.seed, self.deal_button]),
                ipywidgets.HBox([self.sort, self.four_colour, self.show_odds]),
            ]
        )
        self.count_progress.button.on_click(lambda _: self._count_asked())
        self.box = ipywidgets.VBox(
            [
                controls,
                self.hand_html,
                self.status_html,
                self.outs_pane.html,
                self.odds_html,
                self.count_progress.button,
                self.count_progress.widget,
            ]
        )
        self.box.add_class("rk-deal")

    # -- reading the controls
    @property
    def preset(self) -> ipywidgets.Dropdown:
        """The preset control (of :attr:`shoe`)."""
        return self.shoe.preset

    @property
    def round(self) -> ipywidgets.Dropdown:
        """The round control (of :attr:`shoe`)."""
        return self.shoe.round

    @property
    def decks(self) -> CountText:
        """The decks box (of :attr:`shoe`)."""
        return self.shoe.decks

    @property
    def jokers(self) -> CountText:
        """The jokers box (of :attr:`shoe`)."""
        return self.shoe.jokers

    @property
    def rules(self) -> RuleSet:
        """The rule set chosen."""
        return self.shoe.rules

    @property
    def contract(self) -> Contract:
        """The contract of the round chosen."""
        return self.shoe.contract

    @property
    def outs(self) -> Outs | None:
        """The outs of the hand on screen for the contract, or None while they are counted
        (or before the first deal)."""
        return self.outs_pane.result

    @property
    def hand_size(self) -> int:
        """Cards dealt in the round chosen."""
        return self.shoe.hand_size

    @contextlib.contextmanager
    def _quietly(self):
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    def _settings_changed(self, change: dict | None = None) -> None:
        """A control changed: deal the seed shown again with the new settings (once a
        hand is up), or name the value out of range."""
        if self._quiet or self.shoe.changing:
            return
        problem = self.problem()
        if problem is not None:
            self._show_problem(problem)
        elif self.dealt_seed is not None:
            self._deal_seed()

    def problem(self) -> str | None:
        """What is out of range in the controls, in words, or None when all is well.

        >>> widget = DealWidget(background=False)
        >>> widget.decks.value = 9
        >>> widget.problem()
        'Decks must be a whole number from 1 to 4, not 9: nothing is dealt until it is.'
        >>> widget.decks.value = 2; widget.seed.value = 10**20
        >>> widget.problem()[:63]
        'Seed must be a whole number from 0 to 9,007,199,254,740,991 (a '
        """
        seed = seed_problem(self.seed.value)
        if seed is not None:
            return seed
        return self.shoe.problem()

    def _show_problem(self, problem: str) -> None:
        self.hand_html.value = ""
        self.outs_pane.hide()  # the outs of the hand dealt stay, unseen
        with self._odds_lock:
            self.probability = self.estimate_text = None
            self.odds_html.value = ""
            self.count_progress.button.layout.display = "none"
        self.status_html.value = message_html(problem, "error")

    # -- acting
    def deal(self) -> Hand:
        """Deal the next hand: from the seed shown the first time, then from the seed moved
        on by one (so the Seed box names the hand on screen).

        Raises :class:`~rummykit.errors.RummyError` (and deals nothing) when a control is
        out of range; the status line says which.
        """
        problem = self.problem()
        if problem is not None:
            self._show_problem(problem)
            raise RummyError(problem)
        if self.dealt_seed is not None and self.dealt_seed == self.seed.value:
            problem = seed_problem(self.seed.value + 1)
            if problem is not None:
                self._show_problem(problem)
                raise RummyError(problem)
            with self._quietly():
                self.seed.value += 1
        return self._deal_seed()

    def _deal_clicked(self) -> None:
        with contextlib.suppress(RummyError):  # (shown in the status line)
            self.deal()

    def _deal_seed(self) -> Hand:
        """Deal from the seed shown, with the settings shown."""
        self._counting()
        shoe = Shoe(decks=self.decks.value, jokers=self.jokers.value)
        self.hand = shoe.deal(self.hand_size, seed=self.seed.value)
        self.dealt_seed = self.seed.value
        rules, contract = self.rules, self.contract
        self.melds = find_contract(self.hand, contract, rules)
        # Cards that exist in this shoe: as many copies as it has decks, at most.
        self.completion = (
            Hand()
            if self.melds
            else contract_completion(self.hand, contract, rules, decks=shoe.decks)
        )
        self.distance = len(self.completion)
        self._show_hand()
        self._show_outs()
        self._show_odds()
        return self.hand

    def _counting(self) -> None:
        """Replace the outs and the odds on screen (the hand before's) with a line saying
        they are being counted: where they are counted in the handler (no threads, as in
        the book's live notebooks), the old ones stayed under the new hand meanwhile."""
        if self.hand:
            self.outs_pane.clear()
            self.outs_pane.html.value = message_html("Counting the outs of the new hand ...")
        with self._odds_lock:
            self.probability = self.estimate_text = None
            if self.show_odds.value:
                self.odds_html.value = message_html("Counting the odds ...")

    def _show_hand(self) -> None:
        problem = self.problem()
        if problem is not None:
            self._show_problem(problem)
            return
        if not self.hand:
            self.hand_html.value = ""
            self.status_html.value = message_html("Press Deal to deal a hand.")
            return
        four = self.four_colour.value
        shown = self.hand.sorted(by=self.sort.value)
        highlight = [meld.cards for meld in self.melds or ()]
        image = svg.hand_svg(shown, four_colour=four, highlight=highlight or None)
        contract = self.contract
        decks, jokers = self.decks.value, self.jokers.value
        caption = (
            f"This hand: seed {self.dealt_seed}, {len(self.hand)} cards from "
            f"{_count(decks, 'deck')} and {_count(jokers, 'joker')}"
        )
        self.hand_html.value = figure_html(image, caption)
        if self.melds:
            words = "; ".join(f"{meld} ({meld.describe()})" for meld in self.melds)
            text = f"This hand holds the contract, {contract}: {words}."
            self.status_html.value = message_html(text, "ok")
        else:
            text = (
                f"{_count(self.distance, 'card')} away from the contract, {contract}: "
                f"for example, the {_and(self.completion)} would complete it."
            )
            self.status_html.value = message_html(text)

    def _show_outs(self) -> None:
        if not self.hand or self.problem() is not None:
            return
        self.outs_pane.four_colour = self.four_colour.value
        self.outs_pane.show_outs(
            self.hand, self.contract, self.rules, decks=self.decks.value, jokers=self.jokers.value
        )

    def _odds_key(self) -> ExactCell:
        return self.shoe.cell()

    def _known_odds(self, key: ExactCell) -> Fraction | None:
        """The exact odds of ``key`` if known without counting: counted here before, or
        known to :func:`rummykit.odds.answer.known_probability` (a sweep made before, the
        committed tables, read with the standard library even where polars is missing)."""
        if key not in self._odds_cache:
            p = known_probability(key)
            if p is None:
                return None
            self._odds_cache[key] = p
        return self._odds_cache[key]

    def exact_probability(self) -> Fraction:
        """The exact probability of being dealt the contract with the controls' settings."""
        key = self._odds_key()
        known = self._known_odds(key)
        if known is None:
            known = self._odds_cache[key] = self.count_progress.count(key)
        return known

    def _odds_text(self, p: Fraction) -> str:
        return chance_sentence(self._odds_key(), p)

    def _uncounted_text(self) -> str:
        decks, jokers = self.decks.value, self.jokers.value
        return (
            f"The chance of being dealt {self.contract} in {self.hand_size} cards from "
            f"{_count(decks, 'deck')} and {_count(jokers, 'joker')} is not in the tables "
            "that come with rummykit, and counting it needs the analysis extra "
            '(pip install "rummykit[analysis]"), which this Python does not have.'
        )

    def _odds_wanted(self, key: ExactCell) -> bool:
        """Whether the odds of ``key`` are the ones to show now."""
        return (
            self.show_odds.value
            and bool(self.hand)
            and self.problem() is None
            and self._odds_key() == key
        )

    def _show_odds(self) -> None:
        """Show the odds of the settings shown: the exact value when it is known (or, without
        ``background``, counted here); else at once a quick simulated estimate (or, for a
        count under :data:`~rummykit.widgets._common.QUICK_SECONDS`, "Counting"), which a
        thread replaces with the exact value (or, for a slow count not asked for, with a
        longer simulation)."""
        with self._odds_lock:
            if not self.show_odds.value or not self.hand or self.problem() is not None:
                self.probability = self.estimate_text = None
                self.odds_html.value = ""
                self.count_progress.button.layout.display = "none"
                return
            key = self._odds_key()
            if self._known_odds(key) is None and not can_count():
                self.probability = self.estimate_text = None
                self.count_progress.button.layout.display = "none"
                self.odds_html.value = message_html(self._uncounted_text())
                return
            if self._known_odds(key) is not None or not self.background:
                self.count_progress.button.layout.display = "none"
                self.estimate_text = None
                self.probability = self.exact_probability()
                self.odds_html.value = message_html(self._odds_text(self.probability))
                return
            self.probability = None
            slow = self._asked != key and slow_to_count(key)
            self.count_progress.button.layout.display = None if slow else "none"
            self.estimate_text = interim_text(key, slow=slow)
            self.odds_html.value = message_html(self.estimate_text)
            job = (key, slow)
            if self._odds_job == job and self._odds_thread and self._odds_thread.is_alive():
                return  # a thread is at work on these settings already: it shows its result
            self._odds_job = job
            self._odds_thread = threading.Thread(
                target=self._odds_work, args=job, name="rummykit-odds", daemon=True
            )
            self._odds_thread.start()

    def _odds_work(self, key: ExactCell, slow: bool) -> None:
        """In a thread: count ``key`` exactly (or, if ``slow``, simulate it longer) and show
        it unless the settings have moved on; a count they left stops."""
        if slow:
            text = estimate_text(key)
            with self._odds_lock:
                if self._odds_wanted(key) and self._asked != key:
                    self.estimate_text = text
                    self.odds_html.value = message_html(text)
            return
        try:
            p = self.count_progress.count(key, stale=lambda: self._odds_key() != key)
        except Superseded:
            return
        with self._odds_lock:
            self._odds_cache[key] = p
            if self._odds_wanted(key):
                self.probability, self.estimate_text = p, None
                self.odds_html.value = message_html(self._odds_text(p))

    def _count_asked(self) -> None:
        self._asked = self._odds_key()
        self._show_odds()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the odds and the outs being counted in the background (for scripts and
        tests)."""
        if self._odds_thread is not None:
            self._odds_thread.join(timeout)
        self.outs_pane.wait(timeout)

    def _ipython_display_(self) -> None:
        display_widget(
            self.box,
            f"The deal widget: press Deal to deal a hand for round {self.round.value} "
            f"({self.contract}) from seed {self.seed.value} and see whether it holds the "
            "contract, and its odds. It needs a running Python kernel: run this cell to use it.",
        )


def _count(number: int, what: str) -> str:
    return f"{number} {what}{'s' if number != 1 else ''}"


def _and(cards: Hand | list[Card]) -> str:
    """``8♣``, ``8♣ and J♦``, ``8♣, J♦ and 2♥``."""
    names = [str(card) for card in cards]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
