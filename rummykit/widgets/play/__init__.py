"""PlayWidget: play Liverpool Rummy from one seat against bots, one round or a whole game.

The widget holds a :class:`~rummykit.engine.game.GameState` and the bots of the other seats.
It shows the human seat's :class:`~rummykit.engine.game.PlayerView` only (the others' cards
stay hidden), turns clicks into actions, and lets the engine judge them: a refused
action shows the engine's reason and changes nothing. Between the human's decisions the
bots play, and their turns are told in plain words by :mod:`rummykit.engine.narrate`.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from rummykit.agents.searchbot import SearchBot
from rummykit.engine.actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawStock,
    EndTurn,
    LayDown,
    LayOff,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.engine.cards import Card, Hand
from rummykit.engine.game import DEFAULT_NAMES, Game, GameState, PlayerView, RoundResult
from rummykit.engine.melds import check_meld
from rummykit.engine.rules import RuleSet
from rummykit.engine.saves import load
from rummykit.errors import ArgumentError, IllegalActionError, RummyError
from rummykit.widgets._common import (
    CAN_THREAD,
    CardPicker,
    display_widget,
    ipywidgets,
    message_html,
    seed_problem,
)
from rummykit.widgets.hints import OutsPane
from rummykit.widgets.play.buttons import ButtonStates
from rummykit.widgets.play.drawing import TableDrawing
from rummykit.widgets.play.levels import (
    BOT_WORDS,
    BOTS,
    LEVELS,
    STRONG_SAMPLES,
    STRONG_SECONDS,
    bot_range,
    check_bots,
)
from rummykit.widgets.play.setup import GameSetup
from rummykit.widgets.play.turns import BotTurns
from rummykit.widgets.play.words import (
    NO_MELD,
    OWN_DISCARD_NOTE,
    count_words,
    refusal_words,
    sentence_case,
)
from rummykit.widgets.review import ReviewPanel

__all__ = [
    "BOTS",
    "LEVELS",
    "OWN_DISCARD_NOTE",
    "STRONG_SAMPLES",
    "STRONG_SECONDS",
    "PlayWidget",
    "bot_range",
    "check_bots",
    "refusal_words",
]


class PlayWidget(GameSetup, TableDrawing, BotTurns, ButtonStates):
    """One human seat (seat 0) against bots (as many as the preset's table takes), under
    any preset.

    ``whole_game=False`` plays only round ``round``; ``True`` plays from that round to
    the end of the game. When a round ends, its table stays up: the melds, every hand
    and the points, under "Round N is over". In a whole game the bots wait until "Next
    round" is pressed (``next_round_button``). ``seed`` seeds the deal and every bot.
    ``hint`` shows the contract distance and what the discard would do for it, and the
    outs (:func:`rummykit.outs`): before the draw those of the hand, when a discard is
    due the advice for every discard (:func:`rummykit.discard_advice`), the best marked.
    They are counted in a thread (``background``; they can take seconds for contracts of
    runs) and shown by :attr:`outs_pane`, an :class:`~rummykit.widgets.hints.OutsPane`.
    ``bot`` is the bots' level, one of :data:`BOTS`: from ``"Random"`` through the
    greedy ones to ``"Strong (searches ahead)"`` (:class:`~rummykit.agents.searchbot.SearchBot`,
    which weighs each choice over sampled deals). A strong bot thinks in a thread
    (``background``): the cell and the notebook stay free, :attr:`thinking_html` says who
    is thinking and how far, the human's buttons are off until the bots are done, and an
    error in the thread is shown in the message line (:attr:`error`); :meth:`wait` waits
    for them. The moves are the same as without the thread (the same seeds).
    ``level`` (:data:`LEVELS`: random, greedy, outs, strong) picks ``bot`` by its level.
    One dropdown, **Level** (``bot_kind``, its values the names of :data:`BOTS`), offers
    the levels in a learner's words and the greedy bot's buying variants; ``level`` is
    that dropdown's level, read or set (``widget.level.value = "strong"``). Every bot
    seat plays the bot chosen. The set-up controls (rules, bots, level, one round or the
    whole game, round, seed) apply at the next New game: until then the line under them
    (:attr:`settings_html`) says what will change and what the game in play uses, and the
    game in play keeps its settings. The strong bots weigh ``strong_samples`` samples or ``strong_seconds``
    seconds a decision, whichever comes first (``strong_seconds=None``: the samples only,
    so a game is the same every time). New game, Load and :meth:`close` stop the thread
    (:meth:`stop`), abandoning a decision half weighed.
    Under the log, :attr:`review_panel` (a :class:`~rummykit.widgets.review.ReviewPanel`)
    reviews the human's decisions so far on **Review my play**, each weighed on
    ``review_budget`` sampled deals from the human's own view (:func:`rummykit.review`;
    default :func:`~rummykit.widgets.review.default_budget`),
    in a thread (``background``) and dropped if the game moves on before it is done; its
    **Beside the bots** replays the human's rounds with bots in the human's seat, the
    other seats played as this game's bots play (the strong level's at the replays'
    small budget, :data:`~rummykit.evaluate.beside.SEARCH_BUDGET`); under it, **Keep my mistakes
    as puzzles** keeps the review's mistakes and blunders in a puzzle file the learner
    names, and **Next puzzle** brings them back to try again
    (:mod:`rummykit.widgets.retry`).
    Too many or too few ``bots`` for the preset raise
    :class:`~rummykit.errors.RuleSetError`. A seed out of
    :data:`~rummykit.widgets._common.SEED_RANGE` is refused at New game, in words.

    A disabled button says why on hover (its tooltip, the engine's reason: the action
    is tried on a copy of the game), and the reasons for the play-phase actions (lay
    down, lay off, swap) are written under the buttons; :attr:`reasons` holds them all.

    Every control is an attribute a test or a script can use: ``draw_button``,
    ``take_button``, ``buy_button``, ``pass_button``, ``call_button``, ``add_meld_button``,
    ``lay_down_button``, ``auto_lay_down_button``, ``lay_off_button``, ``swap_button``,
    ``discard_button``, ``end_turn_button``, ``hand`` (a :class:`CardPicker`),
    ``meld_choice``, ``end_choice``, ``save_button``, ``load_button``, ``save_text``,
    ``next_round_button``, ``new_game_button``.

    A meld put aside with **Add meld** is checked at once as the contract's kinds
    (:func:`~rummykit.engine.melds.check_meld`): one that is no meld is not put aside, and the
    rule it breaks is shown. **Lay down** is enabled only when the engine would accept the
    melds put aside (:meth:`~rummykit.engine.game.GameState.why_not`); until then its reason is
    written under the buttons.

    >>> widget = PlayWidget(bots=2, seed=5)
    >>> widget.state.phase, widget.state.to_act == widget.seat
    ('draw', True)
    >>> widget.draw_button.click()
    >>> widget.state.phase
    'play'
    >>> widget.hand.buttons[0].value = True
    >>> widget.discard_button.click()
    >>> "discards" in widget.log_html.value
    True
    >>> strong = PlayWidget(bots=1, level="strong", seed=5, strong_samples=4, strong_seconds=None)
    >>> strong.wait()
    >>> strong.thinking, strong.bot_kind.value, type(strong.bots[1]).__name__
    (False, 'Strong (searches ahead)', 'SearchBot')
    >>> strong.level.value, strong.bot_count.value
    ('strong', 1)
    >>> strong.bot_count.value = 2; strong.level.value = "greedy"
    >>> strong.settings_html.value.count("Takes effect at New game: 2 bots, Greedy")
    1
    >>> len(strong.bots), type(strong.bots[1]).__name__  # the game in play keeps its own
    (2, 'SearchBot')
    """

    def __init__(
        self,
        rules: RuleSet | str = "standard",
        *,
        bots: int = 3,
        bot: str = "Greedy",
        level: str | None = None,
        strong_samples: int | None = STRONG_SAMPLES,
        strong_seconds: float | None = STRONG_SECONDS,
        whole_game: bool = False,
        round: int = 1,
        seed: int = 0,
        name: str = DEFAULT_NAMES[0],
        hint: bool = False,
        turn_limit: int | None = None,
        background: bool = True,
        review_budget: int | None = None,
    ) -> None:
        preset = rules if isinstance(rules, str) else rules.name
        self._custom = None if isinstance(rules, str) else rules
        self.seat = 0
        """The human's seat."""
        self.name = name
        self.turn_limit = turn_limit
        self.state: GameState | None = None
        self.bots: list = []
        self.start_round = round
        self.lines: list[str] = []
        """The log so far, one sentence per event the table saw."""
        self.melds_to_lay: list[Hand] = []
        """Melds gathered for a lay-down, in the order added."""
        self._seen = 0
        self._rounds_before = 0
        self._results_seen = 0  # finished rounds shown and left with "Next round"
        self.reasons: dict[ipywidgets.Button, str] = {}
        """Why each disabled action button is disabled (the engine's words)."""
        check_bots(self._custom or RuleSet.preset(preset), bots)
        if level is not None:
            if level not in LEVELS:
                raise ArgumentError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
            bot = LEVELS[level][1]
        if bot not in BOTS:
            raise ArgumentError(f"bot must be one of {', '.join(BOTS)}, got {bot!r}")
        self._kind_played = bot  # the kind of bot the game on the table was dealt with
        self._played: dict[str, object] = {}  # the set-up controls' values of that game
        self._whole = whole_game  # whether that game is played to its end
        # Checked here (a bad budget raises now, not in the bots' thread).
        SearchBot(rollouts=strong_samples, seconds=strong_seconds)
        self.strong_samples = strong_samples
        """The strong level's samples a decision (None: only the seconds bound it)."""
        self.strong_seconds = strong_seconds
        """The strong level's seconds a decision (None: only the samples bound it)."""

        self._make_setup_controls(preset, bots, bot, whole_game, round, seed, hint)

        # --- the table and the hand
        self.status_html = ipywidgets.HTML()
        self.table_html = ipywidgets.HTML()
        self.hand_html = ipywidgets.HTML()
        self.hand = CardPicker()
        self.message_html = ipywidgets.HTML()
        self.hint_html = ipywidgets.HTML()
        self.outs_pane = OutsPane(background=background)
        self.background = background and CAN_THREAD
        """Let a strong bot think in a thread (never where threads cannot start)."""
        self.thinking_html = ipywidgets.HTML()
        """The bots' progress line while a strong bot thinks."""
        self.thinking = False
        """True while the bots play in the background (the human's buttons are off)."""
        self.error: str | None = None
        """The error that stopped the bots' thread, if one did."""
        self._thinker: threading.Thread | None = None
        self._generation = 0  # a new game or a load makes the running thread's work stale
        self._lock = threading.RLock()
        self.why_html = ipywidgets.HTML()
        """Why the play-phase actions that are disabled are disabled."""
        self.log_html = ipywidgets.HTML()
        self.review_panel = ReviewPanel(
            lambda: self.state,
            seat=self.seat,
            budget=review_budget,
            background=background,
            lock=self._lock,
            others=self._beside_others,
        )
        """The review of the human seat's decisions so far (:mod:`rummykit.widgets.review`)."""

        # --- actions
        def button(description: str, tooltip: str, style: str = "") -> ipywidgets.Button:
            # As wide as its label: the default width cut "Draw from stock" to "Draw from sto...".
            return ipywidgets.Button(
                description=description,
                tooltip=tooltip,
                button_style=style,
                layout=ipywidgets.Layout(width="auto"),
            )

        self.draw_button = button("Draw from stock", "draw the top card of the stock", "info")
        self.take_button = button("Take discard", "take the top card of the discard pile", "info")
        self.buy_button = button("Buy", "buy the discard on offer (with penalty cards)")
        self.pass_button = button("Pass", "do not buy / do not call")
        self.call_button = button("Call", "call the last discard")
        self.add_meld_button = button("Add meld", "put the selected cards aside as one meld")
        self.clear_melds_button = button("Clear melds", "forget the melds put aside")
        self.lay_down_button = button("Lay down", "lay down the melds put aside", "success")
        self.auto_lay_down_button = button(
            "Lay down for me", "lay down the contract as the engine finds it"
        )
        self.meld_choice = ipywidgets.Dropdown(
            options=[("no meld on the table yet", NO_MELD)],
            value=NO_MELD,
            description="Meld",
            tooltip="a meld on the table",
        )
        # No None values: ipywidgets shows a None value as no selection at all.
        self.end_choice = ipywidgets.Dropdown(
            options=[("either end", "either"), ("low end", "low"), ("high end", "high")],
            value="either",
            description="End",
            tooltip="which end of a run, for a card that fits both",
        )
        self.lay_off_button = button("Lay off", "lay the selected card off onto the meld")
        self.swap_button = button("Swap joker", "play the selected card for the meld's joker")
        self.discard_button = button("Discard", "discard the selected card", "warning")
        self.end_turn_button = button("End turn", "end the turn without a discard")
        self.save_button = button("Save", "write the game as text below")
        self.load_button = button("Load", "load the game written below")
        self.save_text = ipywidgets.Textarea(
            placeholder="Save writes the game here; paste a saved game and press Load.",
            layout=ipywidgets.Layout(width="100%", height="5em"),
            tooltip="saved game",
        )

        self._actions: dict[ipywidgets.Button, Callable[[], None]] = {
            self.draw_button: lambda: self.act(DrawStock()),
            self.take_button: lambda: self.act(TakeDiscard()),
            self.buy_button: lambda: self.act(Buy()),
            self.pass_button: lambda: self.act(Pass()),
            self.call_button: lambda: self.act(Call()),
            self.add_meld_button: self.add_meld,
            self.clear_melds_button: self.clear_melds,
            self.lay_down_button: self.lay_down,
            self.auto_lay_down_button: self.auto_lay_down,
            self.lay_off_button: self.lay_off,
            self.swap_button: self.swap,
            self.discard_button: self.discard,
            self.end_turn_button: lambda: self.act(EndTurn()),
            self.save_button: self.save,
            self.load_button: self.load,
            self.new_game_button: self.new_game,
            self.next_round_button: self.next_round,
        }
        self._styles = {button: button.button_style for button in self._actions}
        self._tooltips = {button: button.tooltip for button in self._actions}
        for widget, handler in self._actions.items():
            widget.on_click(lambda _, handler=handler: handler())
        self.hand.on_change(self._show_hand)
        self.hand.on_change(self._show_hint)
        self.hand.on_change(self._enable)
        self.four_colour.observe(lambda _: self.refresh(), "value")
        self.hint.observe(lambda _: self._show_hint(), "value")

        def row(children: list) -> ipywidgets.HBox:
            # Wrapping: at a phone's width (390 px) a row's controls go onto the next line.
            return ipywidgets.HBox(
                children, layout=ipywidgets.Layout(flex_flow="row wrap", max_width="100%")
            )

        self.box = ipywidgets.VBox(
            [
                row([self.preset, self.bot_count, self.bot_kind]),
                row([self.whole_game, self.round]),
                row([self.seed, self.new_game_button, self.hint, self.four_colour]),
                self.settings_html,
                self.status_html,
                self.thinking_html,
                self.next_round_button,
                self.table_html,
                self.hand_html,
                self.hand.box,
                self.message_html,
                self.hint_html,
                self.outs_pane.html,
                row(
                    [
                        self.draw_button,
                        self.take_button,
                        self.buy_button,
                        self.pass_button,
                        self.call_button,
                    ]
                ),
                row(
                    [
                        self.add_meld_button,
                        self.clear_melds_button,
                        self.lay_down_button,
                        self.auto_lay_down_button,
                    ]
                ),
                row([self.meld_choice, self.end_choice, self.lay_off_button, self.swap_button]),
                row([self.discard_button, self.end_turn_button]),
                self.why_html,
                self.log_html,
                row([self.save_button, self.load_button]),
                self.save_text,
                self.review_panel.box,
            ]
        )
        self.box.layout.max_width = "100%"
        self.box.add_class("rk-play")
        self.new_game()

    # ------------------------------------------------------------------ reading
    @property
    def rules(self) -> RuleSet:
        """The rule set chosen."""
        return self._custom if self._custom is not None else RuleSet.preset(self.preset.value)

    @property
    def view(self) -> PlayerView:
        """What the human seat sees."""
        return self.state.view(self.seat)

    @property
    def finished(self) -> bool:
        """True once the game, or the one round being played, is over."""
        if self.state.is_over:
            return True
        if self._whole:
            return False
        return len(self.state.round_scores) > self._rounds_before

    @property
    def between_rounds(self) -> bool:
        """True in a whole game when a round has ended and "Next round" is not pressed yet."""
        return (
            self._whole and not self.state.is_over and len(self.state.results) > self._results_seen
        )

    @property
    def result(self) -> RoundResult | None:
        """The finished round on show, or None while a round is played: the round played
        (one-round mode), the round just ended (whole game, until Next round) or the
        last round (game over)."""
        results = self.state.results
        if not self._whole and self.finished and len(results) > self._rounds_before:
            return results[self._rounds_before]
        if self.between_rounds or (self.state.is_over and results):
            return results[-1]
        return None

    def legal_actions(self) -> list[Action]:
        """The human's legal actions now (empty when it is a bot's turn, between rounds or
        once the play is over)."""
        if self.finished or self.between_rounds:
            return []
        return self.view.legal_actions()

    def new_game(self) -> None:
        """Deal a new game with the set-up controls' settings and let the bots play.

        Settings the rules refuse (too many bots for the preset, say) are shown in the
        message line, and the game on the table stays.
        """
        rules = self.rules
        players = self.bot_count.value + 1
        problem = seed_problem(self.seed.value)
        if problem is not None:
            self._refuse(problem)
            return
        try:
            check_bots(rules, self.bot_count.value)
            game = Game(
                rules,
                players,
                seed=self.seed.value,
                names=self._names(players),
                turn_limit=self.turn_limit,
            )
            state = game.new_state(round=self.round.value)
        except RummyError as error:
            self.message_html.value = message_html(str(error), "error")
            return
        self.start_round = self.round.value
        self._start(state)
        self._played = self._settings()
        self._show_settings()

    def _start(self, state: GameState) -> None:
        self.stop()  # the old game's thread, if any, ends here
        with self._lock:
            self._generation += 1  # a thread still thinking about the old game stops
            self.thinking = False
        self.thinking_html.value = ""
        self.review_panel.reset()  # a review of the old game is dropped
        self.state = state
        self._rounds_before = len(state.round_scores)
        self._results_seen = len(state.results)
        seeds = random.Random(self.seed.value)
        self._kind_played = self.bot_kind.value
        self._whole = self.whole_game.value
        self.bots = [None] + [
            self._make_bot(seeds.getrandbits(63)) for _ in range(state.players - 1)
        ]
        self.lines = []
        self._seen = 0
        self.melds_to_lay = []
        self.message_html.value = ""
        self.play_bots()

    # ------------------------------------------------------------------ acting
    def act(self, action: Action | str) -> bool:
        """Play ``action`` for the human seat, then let the bots play; True if accepted.

        A refused action shows the engine's reason and changes nothing.
        """
        if self.finished:
            return self._refuse("The play is over: press New game to play again.")
        if self.thinking:
            return self._refuse("Wait: the bots are still playing.")
        if self.between_rounds:
            return self._refuse(self._next_round_prompt())
        if self.state.to_act != self.seat:
            return self._refuse("It is not your turn.")
        try:
            self.state.apply(action)
        except IllegalActionError as error:
            return self._refuse(sentence_case(refusal_words(error.refusal)) + ".")
        except RummyError as error:
            return self._refuse(sentence_case(str(error)) + ".")
        self.message_html.value = ""
        self.play_bots()
        return True

    def _refuse(self, reason: str) -> bool:
        self.message_html.value = message_html(reason, "error")
        return False

    def next_round(self) -> bool:
        """Leave the finished round (whole game): the bots play on into the next one."""
        if not self.between_rounds:
            return self._refuse("No round is waiting: Next round follows the end of a round.")
        self._results_seen = len(self.state.results)
        self.message_html.value = ""
        self.play_bots()
        return True

    def _next_round_prompt(self) -> str:
        return f"Round {self.result.round} is over: press Next round to deal the next one."

    def _one_selected(self, what: str) -> Card | None:
        cards = self.hand.selected
        if len(cards) != 1:
            self._refuse(f"Select exactly one card to {what} ({len(cards)} selected).")
            return None
        return cards[0]

    def discard(self) -> bool:
        """Discard the one selected card."""
        card = self._one_selected("discard")
        return card is not None and self.act(Discard(card))

    def lay_off(self) -> bool:
        """Lay the one selected card off onto the meld chosen (at the end chosen)."""
        card = self._one_selected("lay off")
        if card is None:
            return False
        if self.meld_choice.value == NO_MELD:
            return self._refuse("There is no meld on the table to lay off onto.")
        end = None if self.end_choice.value == "either" else self.end_choice.value
        return self.act(LayOff(card, self.meld_choice.value, end))

    def swap(self) -> bool:
        """Play the one selected card into the meld chosen in place of its joker."""
        card = self._one_selected("swap for a joker")
        if card is None:
            return False
        if self.meld_choice.value == NO_MELD:
            return self._refuse("There is no meld on the table to take a joker from.")
        return self.act(Swap(card, self.meld_choice.value))

    def add_meld(self) -> bool:
        """Put the selected cards aside as one meld of the lay-down, if they are one (True
        then): checked at once as a kind the contract takes
        (:func:`~rummykit.engine.melds.check_meld`); cards that are no meld, or a card put aside
        already, are refused with the reason, and nothing is put aside."""
        cards = self.hand.selected
        if not cards:
            return self._refuse("Select the cards of a meld first.")
        for number, meld in enumerate(self.melds_to_lay, 1):
            taken = [card for card in cards if card in meld]
            if taken:
                return self._refuse(
                    f"The {taken[0]} is in meld {number}, put aside already: each card goes "
                    "in one meld."
                )
        checks = self._meld_checks(cards)
        fits = [check for check in checks.values() if check.ok]
        if not fits:
            return self._refuse(f"Not put aside: {self._not_a_meld(checks)}.")
        self.melds_to_lay.append(cards)
        verdict = f"Meld {len(self.melds_to_lay)}: {fits[0].describe()}; put aside to lay down."
        self.message_html.value = message_html(verdict, "ok")
        self.hand.clear()
        self._show_hand()
        self._enable()
        return True

    def _meld_checks(self, cards: Hand) -> dict:
        """``cards`` checked as each kind of meld the lay-down may hold (the contract's
        kinds; both where the rules allow extra melds), by kind."""
        contract, rules = self.view.contract, self.state.rules
        kinds = [
            kind
            for kind, count in (("set", contract.sets), ("run", contract.runs))
            if count or rules.extra_melds
        ]
        return {kind: check_meld(cards, rules, kind=kind) for kind in kinds}

    @staticmethod
    def _not_a_meld(checks: dict) -> str:
        """The engine's reasons of checks that all failed, one per kind the contract takes."""
        if len(checks) == 1:
            ((kind, check),) = checks.items()
            return f"these cards are not a {kind}: {check.reason}"
        return "these cards are neither a " + " nor a ".join(
            f"{kind} ({check.reason})" for kind, check in checks.items()
        )

    def clear_melds(self) -> None:
        """Forget the melds put aside."""
        self.melds_to_lay = []
        self.message_html.value = ""
        self._show_hand()
        self._enable()

    def _lay_down_aside(self) -> LayDown:
        return LayDown(tuple(tuple(meld) for meld in self.melds_to_lay))

    def lay_down(self) -> bool:
        """Lay down the melds put aside (the engine checks them against the contract)."""
        if not self.melds_to_lay:
            return self._refuse("Select the cards of each meld and press Add meld first.")
        if self.act(self._lay_down_aside()):
            self.melds_to_lay = []
            self._show_hand()
            return True
        return False

    def auto_lay_down(self) -> bool:
        """Lay down the contract as the engine arranges it (its listed lay-down)."""
        for action in self.legal_actions():
            if isinstance(action, LayDown):
                return self.act(action)
        return self._refuse(
            f"The engine finds no lay-down of your contract, {self.view.contract}, now."
        )

    # ------------------------------------------------------------------ saving
    def save(self) -> str:
        """Write the game into ``save_text`` (and return it)."""
        self.save_text.value = self.state.save()
        self.message_html.value = message_html("Saved: copy the text below to keep the game.")
        return self.save_text.value

    def load(self, text: str | None = None) -> bool:
        """Load a saved game (from ``text`` or ``save_text``); the human plays seat 0."""
        try:
            state = load(self.save_text.value if text is None else text)
        except RummyError as error:
            return self._refuse(str(error))
        self.start_round = state.round
        self.bot_count.value = state.players - 1
        if self._custom is None and state.rules.name in RuleSet.presets():
            self.preset.value = state.rules.name
        if state.round in dict(self.round.options).values():
            self.round.value = state.round
        self._start(state)
        # The seed a saved game was dealt from is not in its save: the box stays as it is.
        self._played = {key: value for key, value in self._settings().items() if key != "seed"}
        self._played |= {"rules": state.rules.name, "round": state.round}
        self._show_settings()
        self.message_html.value = message_html("Game loaded.", "ok")
        return True

    def _ipython_display_(self) -> None:
        whole = "the whole game" if self._whole else f"round {self.start_round}"
        level = BOT_WORDS.get(self._kind_played, self._kind_played)
        display_widget(
            self.box,
            f"The play widget: you against {count_words(len(self.bots) - 1, 'bot')} at the level "
            f"{level}, {self.state.rules.name} rules, {whole}. It needs a running Python "
            "kernel: run this cell to deal and play.",
        )
