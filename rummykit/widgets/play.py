"""PlayWidget: play Liverpool Rummy from one seat against bots, one round or a whole game.

The widget holds a :class:`~rummykit.game.GameState` and the bots of the other seats.
It shows the human seat's :class:`~rummykit.game.PlayerView` only (the others' cards
stay hidden), turns clicks into actions, and lets the engine judge them: a refused
action shows the engine's reason and changes nothing. Between the human's decisions the
bots play, and their turns are told in plain words by :mod:`rummykit.narrate`.
"""

from __future__ import annotations

import html
import random
import re
import threading
import time
from collections.abc import Callable

from rummykit import svg
from rummykit.actions import (
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
from rummykit.bots import BuyerBot, GreedyBot, OutsBot, RandomBot
from rummykit.cards import Card, Hand
from rummykit.errors import ArgumentError, RuleSetError, RummyError
from rummykit.game import DEFAULT_NAMES, Game, GameState, PlayerView, RoundResult
from rummykit.hints import seen_text
from rummykit.melds import check_meld, lay_off_options
from rummykit.narrate import sentence
from rummykit.rules import RuleSet
from rummykit.saves import load
from rummykit.search import contract_distance
from rummykit.searchbot import SearchBot
from rummykit.widgets._common import (
    CAN_THREAD,
    CardPicker,
    display_widget,
    figure_html,
    four_colour_box,
    ipywidgets,
    message_html,
    preset_dropdown,
    round_options,
    seed_problem,
)
from rummykit.widgets.hints import OutsPane, view_seen
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
    "plain_words",
]

#: The strong level's budget per decision: this many samples (sampled deals, each choice
#: played out on each) ...
STRONG_SAMPLES = 300
#: ... or this many seconds, whichever comes first: on 2026-12-02's rollouts, 300 samples
#: took 0.1 to 1.5 s a decision (the discards of the run rounds the longest), so the cap
#: binds on the slowest; only a decision the cap did not cut is reproducible from the seed.
#: A bot's move is two decisions or more (its draw, its discard, a buy): measured for
#: issue 50 (standard, 4 players, rounds 1, 4 and 7, 45 moves of the strong bots, a 2-core
#: machine with other work on it), a move took 1.26 s (median; 2.0 s at the 90th
#: percentile, 3.2 s at most) of wall time, 0.64 s (at most 1.7 s) of CPU: the level's
#: words say "about 1 to 3 s a move".
STRONG_SECONDS = 1.0

#: The bots to play against, by the name shown in the widget: seed -> bot.
BOTS: dict[str, Callable[[int], object]] = {
    "Greedy": lambda seed: GreedyBot(seed=seed),
    "Greedy, always buys": lambda seed: BuyerBot("always", seed=seed),
    "Greedy, never buys": lambda seed: BuyerBot("never", seed=seed),
    # Weighs the outs of every discard: a fraction of a second a discard, up to seconds
    # in the run rounds (benchmarks/bench_outsbot.py).
    "Greedy, discards by outs": lambda seed: OutsBot(seed=seed),
    "Random": lambda seed: RandomBot(seed=seed),
    # Weighs each choice by playing it on over sampled deals (rummykit.searchbot): up to
    # a second a decision, 1 to 3 s a move (STRONG_SECONDS), so it thinks in a thread and
    # the widget says so.
    "Strong (searches ahead)": lambda seed: SearchBot(
        seed=seed, rollouts=STRONG_SAMPLES, seconds=STRONG_SECONDS
    ),
}

#: The levels a learner picks from: level -> (the words shown, the bot of :data:`BOTS`).
LEVELS: dict[str, tuple[str, str]] = {
    "random": ("Random (beginner)", "Random"),
    "greedy": ("Greedy (goes for its contract)", "Greedy"),
    "outs": ("Careful (discards by outs)", "Greedy, discards by outs"),
    "strong": ("Strong (searches ahead, about 1 to 3 s a move)", "Strong (searches ahead)"),
}

#: The one dropdown's words for each bot of :data:`BOTS`: a level's bot in the level's
#: words, the buying variants by their own names (they play at the greedy level).
_BOT_WORDS = {bot: words for words, bot in LEVELS.values()}
_BOT_ORDER = (
    "Random",
    "Greedy",
    "Greedy, always buys",
    "Greedy, never buys",
    "Greedy, discards by outs",
    "Strong (searches ahead)",
)

#: The level of each bot of :data:`BOTS` (the buying variants play at the greedy level).
_LEVEL_OF = {
    "Greedy": "greedy",
    "Greedy, always buys": "greedy",
    "Greedy, never buys": "greedy",
    "Greedy, discards by outs": "outs",
    "Random": "random",
    "Strong (searches ahead)": "strong",
}


class _LevelChoice:
    """The bots' level (a key of :data:`LEVELS`), read from and written to the one
    dropdown of bots (``PlayWidget.bot_kind``): setting a level picks its bot unless the
    bot chosen already plays at that level (a greedy bot's buying variant stays)."""

    def __init__(self, bots: ipywidgets.Dropdown) -> None:
        self._bots = bots

    @property
    def value(self) -> str:
        return _LEVEL_OF[self._bots.value]

    @value.setter
    def value(self, level: str) -> None:
        if level not in LEVELS:
            raise ArgumentError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
        if self.value != level:
            self._bots.value = LEVELS[level][1]


class _Stopped(Exception):
    """Raised in the bots' thread to abandon a decision (a new game, a closed widget)."""


#: What the human seat is asked to do in each phase.
_PROMPTS = {
    "draw": "Your turn: draw from the stock or take the discard.",
    "buy": "buy it (it comes with penalty cards) or pass?",
    "play": "Lay down, lay off or swap a joker if you like, then discard.",
    "call": "The last discard could have been laid off: call, or pass?",
    "call discard": "You claimed the discard: now discard a card.",
}

#: Said when the widget passes for the human on their own discard's buy offer.
OWN_DISCARD_NOTE = (
    "Your own discard was not offered to you to buy back: the rule books let only the "
    "other players buy it (you passed)."
)

#: The Meld dropdown's one option while the table has no meld.
_NO_MELD = -1

#: A disabled button: grey, with dimmed text (ipywidgets keeps a coloured style bright).
_DISABLED_TEXT = "#6b6b6b"


def bot_range(rules: RuleSet) -> tuple[int, int]:
    """The fewest and most bots a table of ``rules`` takes (one seat is the human's).

    >>> bot_range(RuleSet.preset("family"))
    (1, 5)
    """
    return rules.min_players - 1, rules.max_players - 1


def check_bots(rules: RuleSet, bots: int) -> None:
    """Raise :class:`~rummykit.errors.RuleSetError` unless ``bots`` bots and one human may
    play under ``rules``; the message names the preset and the range of bots.

    >>> check_bots(RuleSet.preset("family"), 7)
    Traceback (most recent call last):
    ...
    rummykit.errors.RuleSetError: family is played by 2 to 6 players: choose 1 to 5 bots, not 7
    """
    try:
        whole = isinstance(bots, int) and not isinstance(bots, bool)
        rules.check_players(bots + 1 if whole else bots)
    except RuleSetError:
        low, high = bot_range(rules)
        raise RuleSetError(
            f"{rules.name} is played by {rules.min_players} to {rules.max_players} players: "
            f"choose {low} to {high} bots, not {bots}"
        ) from None


class PlayWidget:
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
    greedy ones to ``"Strong (searches ahead)"`` (:class:`~rummykit.searchbot.SearchBot`,
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
    small budget, :data:`~rummykit.beside.SEARCH_BUDGET`); under it, **Keep my mistakes
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
    (:func:`~rummykit.melds.check_meld`): one that is no meld is not put aside, and the
    rule it breaks is shown. **Lay down** is enabled only when the engine would accept the
    melds put aside (:meth:`~rummykit.game.GameState.why_not`); until then its reason is
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

        # --- set-up controls
        self.preset = preset_dropdown(preset if preset in RuleSet.presets() else "standard")
        if self._custom is not None:
            self.preset.disabled = True
        # Not bounded: a count out of range is refused with the preset's range, never cut.
        self.bot_count = ipywidgets.IntText(
            value=bots, description="Bots", layout=ipywidgets.Layout(width="10em")
        )
        # One choice, one control: the level in a learner's words, the buying variants
        # of the greedy bot among them (a Level and a Bot dropdown moved each other).
        self.bot_kind = ipywidgets.Dropdown(
            options=[(_BOT_WORDS.get(kind, kind), kind) for kind in _BOT_ORDER],
            value=bot,
            description="Level",
            tooltip="how well the bots play (from the next New game)",
            layout=ipywidgets.Layout(width="auto", max_width="100%"),
        )
        self.level = _LevelChoice(self.bot_kind)
        """The bots' level chosen (``level.value``, a key of :data:`LEVELS`), read from and
        written to :attr:`bot_kind`."""
        self.whole_game = ipywidgets.ToggleButtons(
            options=[("One round", False), ("Whole game", True)],
            value=whole_game,
            description="Play",
            tooltips=["play one round", "play every round to the end of the game"],
        )
        self.round = ipywidgets.Dropdown(
            options=round_options(self.rules), value=round, description="Round"
        )
        self.seed = ipywidgets.IntText(
            value=seed,
            description="Seed",
            tooltip="random seed",
            layout=ipywidgets.Layout(width="14em"),
        )
        self.new_game_button = ipywidgets.Button(
            description="New game",
            button_style="primary",
            tooltip="deal a new game with the settings above",
            layout=ipywidgets.Layout(width="auto", min_width="7em"),
        )
        self.next_round_button = ipywidgets.Button(
            description="Next round",
            button_style="primary",
            tooltip="deal the next round (the finished one stays up until then)",
            layout=ipywidgets.Layout(width="auto", min_width="7em"),
        )
        self.settings_html = ipywidgets.HTML()
        """What the set-up controls will change at New game, and what the game in play
        uses (empty while they show the game in play)."""
        self.next_round_button.layout.display = "none"
        self.hint = ipywidgets.Checkbox(
            value=hint,
            description="Hints",
            tooltip="show how far you are and your outs",
            indent=False,
        )
        self.four_colour = four_colour_box()
        self.preset.observe(self._preset_changed, "value")
        for control in (
            self.preset,
            self.bot_count,
            self.bot_kind,
            self.whole_game,
            self.round,
            self.seed,
        ):
            control.observe(lambda _: self._show_settings(), "value")
        self._bot_tooltip()

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
            options=[("no meld on the table yet", _NO_MELD)],
            value=_NO_MELD,
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

    # ------------------------------------------------------------------ setting up
    def _preset_changed(self, change: dict) -> None:
        rules = self.rules
        number = min(self.round.value, rules.rounds)
        self.round.options = round_options(rules)
        self.round.value = number
        self._bot_tooltip()

    def _settings(self) -> dict[str, object]:
        """The set-up controls' values, by what they set."""
        return {
            "rules": self.rules.name,
            "bots": self.bot_count.value,
            "level": self.bot_kind.value,
            "play": self.whole_game.value,
            "round": self.round.value,
            "seed": self.seed.value,
        }

    def _show_settings(self) -> None:
        """Say which set-up controls differ from the game in play: they apply at New game."""
        problem = seed_problem(self.seed.value)
        if problem is not None:
            self.settings_html.value = message_html(problem, "error")
            return
        now, played = self._settings(), self._played
        changed = [key for key, value in now.items() if key in played and played[key] != value]
        if not changed:
            self.settings_html.value = ""
            return
        self.settings_html.value = message_html(
            f"Takes effect at New game: {_settings_words(now, changed)}. "
            f"The game in play: {_settings_words(played, changed)}."
        )

    def _make_bot(self, seed: int):
        """A bot of the kind chosen; the strong one with the widget's budget."""
        budget = (self.strong_samples, self.strong_seconds)
        if self.bot_kind.value == "Strong (searches ahead)" and budget != (
            STRONG_SAMPLES,
            STRONG_SECONDS,
        ):
            return SearchBot(seed=seed, rollouts=self.strong_samples, seconds=self.strong_seconds)
        return BOTS[self.bot_kind.value](seed)

    def _beside_others(self) -> list:
        """Who plays the other seats in the review's replays (Beside the bots): this game's
        kind of bot, the strong one at the replays' budget (a second a decision in
        every replayed round would take minutes)."""
        kind = self._kind_played
        make = "SearchBot" if kind == "Strong (searches ahead)" else BOTS[kind]
        return [None if seat == self.seat else make for seat in range(len(self.bots))]

    def _bot_tooltip(self) -> None:
        low, high = bot_range(self.rules)
        self.bot_count.tooltip = f"number of bot players: {low} to {high} under {self.rules.name}"

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

    def _names(self, players: int) -> tuple[str, ...]:
        others = [n for n in DEFAULT_NAMES if n != self.name]
        return (self.name, *others[: players - 1])

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
        except RummyError as error:
            return self._refuse(_sentence_case(plain_words(str(error))) + ".")
        self.message_html.value = ""
        self.play_bots()
        return True

    def _refuse(self, reason: str) -> bool:
        self.message_html.value = message_html(reason, "error")
        return False

    def play_bots(self, *, max_actions: int = 100_000) -> None:
        """Let the bots act until the human must decide or the play is over; redraw.

        The human is never asked to buy back their own discard: the engine offers it
        (docs/choices.md), but the sources let the other players buy, so the widget
        passes for the human and says so (:data:`OWN_DISCARD_NOTE`).
        """
        searching = any(isinstance(bot, SearchBot) for bot in self.bots)
        if searching and self.background:
            # A strong bot thinks for up to a second a decision: in a thread, so that the
            # notebook stays free; the human's buttons are off until the bots are done.
            with self._lock:
                self.thinking = True
                generation = self._generation
            self.refresh()
            self._thinker = threading.Thread(
                target=self._think,
                args=(generation, max_actions),
                name="rummykit-bots",
                daemon=True,
            )
            self._thinker.start()
            return
        skipped = self._bots_play(self._generation, max_actions)
        self.refresh()
        if skipped:
            self.message_html.value = message_html(OWN_DISCARD_NOTE)

    def _bots_play(self, generation: int, max_actions: int) -> bool:
        """The bots' moves up to the human's turn (True if the human's buy of its own
        discard was passed); stops, playing nothing more, once ``generation`` is stale."""
        skipped = False
        state = self.state
        for _ in range(max_actions):
            seat = state.to_act
            if seat is None or self.finished or self.between_rounds:
                break
            if seat == self.seat:
                view = state.view(seat)
                if not (view.phase == "buy" and view.offered_by == self.seat):
                    break
                action = Pass()
                skipped = True
            else:
                bot = self.bots[seat]
                if isinstance(bot, SearchBot) and self.thinking:
                    bot.progress = self._progress(state.game.names[seat], generation)
                action = bot.choose(state.view(seat))
            with self._lock:
                if generation != self._generation:
                    return skipped  # a new game: this move is not played
                state.apply(action)
        return skipped

    def _progress(self, name: str, generation: int) -> Callable[[int, int | None], None]:
        """A strong bot's progress line, written at most every 0.2 s; it abandons the
        decision once ``generation`` is stale (a new game, :meth:`stop`)."""
        last = [0.0]

        def show(done: int, total: int | None) -> None:
            if generation != self._generation:
                raise _Stopped
            now = time.monotonic()
            if now - last[0] < 0.2 and done != total:
                return
            last[0] = now
            planned = f" of {total}" if total is not None else ""
            self.thinking_html.value = message_html(
                f"{name} is thinking: {done}{planned} sampled deals weighed ..."
            )

        return show

    def _think(self, generation: int, max_actions: int) -> None:
        """The bots' turn in the background thread, then the table redrawn."""
        try:
            skipped = self._bots_play(generation, max_actions)
        except _Stopped:
            return
        except Exception as error:  # shown in the widget, never lost in the thread
            with self._lock:
                if generation != self._generation:
                    return
                self.thinking = False
                self.error = f"{type(error).__name__}: {error}"
            self.thinking_html.value = ""
            self.refresh()
            self.message_html.value = message_html(
                f"A bot stopped with an error: {self.error}", "error"
            )
            return
        with self._lock:
            if generation != self._generation:
                return
            self.thinking = False
        self.thinking_html.value = ""
        self.refresh()
        if skipped:
            self.message_html.value = message_html(OWN_DISCARD_NOTE)

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
        if self.meld_choice.value == _NO_MELD:
            return self._refuse("There is no meld on the table to lay off onto.")
        end = None if self.end_choice.value == "either" else self.end_choice.value
        return self.act(LayOff(card, self.meld_choice.value, end))

    def swap(self) -> bool:
        """Play the one selected card into the meld chosen in place of its joker."""
        card = self._one_selected("swap for a joker")
        if card is None:
            return False
        if self.meld_choice.value == _NO_MELD:
            return self._refuse("There is no meld on the table to take a joker from.")
        return self.act(Swap(card, self.meld_choice.value))

    def add_meld(self) -> bool:
        """Put the selected cards aside as one meld of the lay-down, if they are one (True
        then): checked at once as a kind the contract takes
        (:func:`~rummykit.melds.check_meld`); cards that are no meld, or a card put aside
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

    # ------------------------------------------------------------------ showing
    def refresh(self) -> None:
        """Redraw everything from the engine's state."""
        with self._lock:  # (not while the bots' thread plays a move)
            self._redraw()

    def _redraw(self) -> None:
        result = self.result
        if result is None:
            self._show_table()
            self.hand.set_cards(self.view.hand)
        else:
            self._show_result(result)
            self.hand.set_cards(result.hands[self.seat])
            for button in self.hand.buttons:
                button.disabled = True  # the cards left at the end, to count, not to play
        # The buttons next: the hint's outs can take a second where they are counted in
        # this handler (no threads, as in the book's live notebooks), and the buttons of
        # the position before stayed up meanwhile.
        self._enable()
        self._update_log()
        self._show_status()
        self.next_round_button.layout.display = None if self.between_rounds else "none"
        self.hand.set_four_colour(self.four_colour.value)
        self._show_hand()
        if self.hint.value and not self.outs_pane.background:
            # Counted here, after the rest is drawn: the old position's outs are not left up.
            self.outs_pane.html.value = message_html("Counting the outs ...")
        self._show_hint()

    def _update_log(self) -> None:
        log = self.state.log
        # The engine deals the next round as soon as one ends: its events are told only
        # once it is played (one round only: never; a whole game: after Next round).
        if not self._whole:
            last = self.start_round
        elif self.between_rounds:
            last = self.result.round
        else:
            last = None
        for event in log[self._seen :]:
            if last is not None and event.round > last:
                break
            self._seen += 1
            text = sentence(event, self.state)
            if event.seat == self.seat and event.cards and event.kind == "draw stock":
                text = f"{text[:-1]}: the {event.cards[0]}."  # your own card, not the table's
            if text:
                self.lines.append(plain_words(text))
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.lines[-60:])
        # A column laid out bottom-up stays scrolled to its newest line.
        self.log_html.value = (
            '<div class="rk-log" role="log" aria-live="polite" aria-label="what happened" '
            'style="max-height:14em;overflow-y:auto;display:flex;flex-direction:column-reverse;'
            'border:1px solid #ccc;padding:0 .5em">'
            f"<ol>{items}</ol></div>"
        )

    def _show_status(self) -> None:
        state, view = self.state, self.view
        result = self.result
        if result is not None:
            names = state.names
            if result.went_out is None:
                out = "Nobody went out: no card could be drawn any more."
            elif result.went_out == self.seat:
                out = "You went out."
            else:
                out = f"{names[result.went_out]} went out."
            points = result.points[self.seat]
            text = f"Round {result.round} is over. {out} You scored {points} points."
            if state.is_over:
                winners = " and ".join(names[s] for s in state.winners())
                text += f" The game is over. Winner: {winners}. Press New game to play again."
            elif self.between_rounds:
                text += f" Press Next round to deal round {result.round + 1}."
            else:
                text += " Press New game to play again."
            self.status_html.value = message_html(text, "ok")
            return
        head = f"Round {view.round} of {view.rounds}: your contract is {view.contract}. "
        if view.to_act == self.seat:
            prompt = _PROMPTS.get(view.phase, "")
            if view.phase == "buy":
                by = "The" if view.offered_by is None else f"{state.names[view.offered_by]}'s"
                when = (
                    f" before {state.names[view.current]} draws"
                    if view.buy_window == "before_draw"
                    else ""
                )
                prompt = f"{by} {view.offer} is on offer{when}: {prompt}"
            self.status_html.value = message_html(head + prompt)
        else:
            self.status_html.value = message_html(head)

    def _show_table(self) -> None:
        view = self.view
        four = self.four_colour.value
        rows = []
        for seat, who in enumerate(view.names):
            you = " (you)" if seat == self.seat else ""
            turn = " ◀" if seat == view.to_act else ""
            rows.append(
                f"<tr><th scope='row'>{html.escape(who)}{you}{turn}</th>"
                f"<td>{view.hand_sizes[seat]}</td>"
                f"<td>{'yes' if view.laid_down[seat] else 'no'}</td>"
                f"<td>{view.buys[seat]}</td><td>{view.scores[seat]}</td></tr>"
            )
        players = (
            "<table class='rk-players'><caption>Players</caption><thead><tr>"
            "<th scope='col'>Player</th><th scope='col'>Cards</th><th scope='col'>Laid down</th>"
            "<th scope='col'>Buys</th><th scope='col'>Score</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
        top = view.discard_top
        pile = svg.card_svg(top, four_colour=four, width=54) if top is not None else "empty"
        piles = (
            f"<div class='rk-piles'><p>Discard pile ({_count(view.discard_size)}), top card: "
            f"{'' if top is None else html.escape(top.name)}</p>{pile}"
            f"<p>Stock: {_count(view.stock_size)}</p></div>"
        )
        melds = self._melds_html(view.melds, view.meld_owners, "Melds on the table")
        self.table_html.value = (
            "<div class='rk-table' style='display:flex;gap:2em;flex-wrap:wrap'>"
            f"{players}{piles}</div>{melds}"
        )
        self._meld_options(view.melds, view.meld_owners)

    def _melds_html(self, melds, owners, caption: str) -> str:
        if not melds:
            return "<p>No melds on the table yet.</p>"
        names = self.state.names
        four = self.four_colour.value
        # One picture a meld, in a row that wraps: a single picture of six melds ran past
        # a narrow page's edge and hid the last ones.
        images = "".join(
            svg.melds_svg(
                [meld], four_colour=four, width=56, labels=[f"{meld_number(n)}: {names[owner]}"]
            )
            for n, (meld, owner) in enumerate(zip(melds, owners, strict=True))
        )
        row = (
            '<div class="rk-melds" style="display:flex;flex-wrap:wrap;gap:.5em 1.5em;'
            f'max-width:100%">{images}</div>'
        )
        return figure_html(row, caption)

    def _meld_options(self, melds, owners) -> None:
        """The Meld dropdown: the table's melds, the one chosen kept, else the first."""
        names = self.state.names
        choice = self.meld_choice.value
        options = [
            (f"{meld_number(number)}: {meld} ({names[owner]})", number)
            for number, (meld, owner) in enumerate(zip(melds, owners, strict=True))
        ]
        self.meld_choice.options = options or [("no meld on the table yet", _NO_MELD)]
        if 0 <= choice < len(options):
            self.meld_choice.value = choice
        else:
            self.meld_choice.value = options[0][1] if options else _NO_MELD

    def _show_result(self, result: RoundResult) -> None:
        """The table as the round ended: every hand, the melds and the points."""
        names = self.state.names
        rows = []
        for seat, who in enumerate(names):
            you = " (you)" if seat == self.seat else ""
            hand = result.hands[seat]
            left = str(hand) if hand else "none"
            if seat == result.went_out:
                left += " (went out)"
            rows.append(
                f"<tr><th scope='row'>{html.escape(who)}{you}</th>"
                f"<td>{html.escape(left)}</td>"
                f"<td>{'yes' if result.laid_down[seat] else 'no'}</td>"
                f"<td>{result.points[seat]}</td><td>{result.scores[seat]}</td></tr>"
            )
        players = (
            f"<table class='rk-players rk-result'><caption>Round {result.round}: the hands "
            "as it ended</caption><thead><tr><th scope='col'>Player</th>"
            "<th scope='col'>Cards left</th><th scope='col'>Laid down</th>"
            "<th scope='col'>Points this round</th><th scope='col'>Score</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
        melds = self._melds_html(
            result.melds, result.meld_owners, f"Melds on the table as round {result.round} ended"
        )
        self.table_html.value = f"<div class='rk-table'>{players}</div>{melds}"
        self._meld_options(result.melds, result.meld_owners)

    def _show_hand(self) -> None:
        # The hand is shown once, as the buttons below; this is their caption.
        if self.result is not None:
            text = "Your cards as the round ended" if self.hand.cards else "You had no cards left"
        elif not self.hand.cards:
            text = "Your hand is empty."
        else:
            text = "Your hand: click the cards to select them"
        aside = ""
        if self.melds_to_lay and self.result is None:
            groups = " | ".join(str(meld) for meld in self.melds_to_lay)
            aside = f"<div>Melds put aside to lay down: {html.escape(groups)}</div>"
        self.hand_html.value = (
            f'<div class="rk-caption" style="font-weight:bold;margin-top:.5em">{text}</div>{aside}'
        )

    def _show_hint(self) -> None:
        if not self.hint.value or self.finished or self.between_rounds:
            self.hint_html.value = ""
            self.outs_pane.clear()
            return
        view, rules = self.view, self.view.rules
        laid_down = view.laid_down[self.seat]
        self._show_outs(view, laid_down)
        parts = []
        if laid_down:
            parts.append("You have laid down: lay off what fits, then discard.")
            distance = 0
        else:
            distance = contract_distance(view.hand, view.contract, rules)
            if distance == 0 and view.phase == "play" and view.my_turn and view.can_lay_down():
                parts.append(
                    f"You hold your contract, {view.contract}: lay it down (Lay down for me, "
                    "or put the melds aside with Add meld and press Lay down)."
                )
            elif distance == 0:
                parts.append(f"Your hand holds your contract, {view.contract}.")
            else:
                parts.append(f"Your hand is {_count(distance)} away from {view.contract}.")
        offer = view.offer if view.phase == "buy" else view.discard_top
        if offer is not None and distance > 0 and view.phase in ("draw", "buy"):
            after = contract_distance([*view.hand, offer], view.contract, rules)
            if after == 0:
                parts.append(f"With the {offer} you would hold your contract.")
            elif after < distance:
                parts.append(f"With the {offer} you would be {_count(after)} away.")
            else:
                parts.append(f"The {offer} would not bring you closer.")
        selected = self.hand.selected
        if view.phase in ("play", "call discard") and len(selected) == 1:
            card = selected[0]
            fits = [
                f"{view.names[owner]}'s meld {meld_number(number)}"
                for number, (meld, owner) in enumerate(
                    zip(view.melds, view.meld_owners, strict=True)
                )
                if lay_off_options(meld, card, rules)
            ]
            if not laid_down:
                rest = list(view.hand)
                rest.remove(card)
                after = contract_distance(rest, view.contract, rules)
                if after == 0:
                    parts.append(f"If you discard the {card}, you will still hold your contract.")
                else:
                    parts.append(f"If you discard the {card}, you will be {_count(after)} away.")
            if fits:
                parts.append(
                    f"If you discard the {card}, an opponent could lay it off on "
                    f"{' or '.join(fits)}."
                )
        self.hint_html.value = message_html("Hint: " + " ".join(parts))

    def _show_outs(self, view: PlayerView, laid_down: bool) -> None:
        """The outs of the hand before the draw, the advice for each discard after it."""
        pane = self.outs_pane
        pane.four_colour = self.four_colour.value
        if laid_down or view.to_act != self.seat:
            pane.clear()
        elif view.phase == "play" and view.can_lay_down():
            # Every discard would keep the contract: the advice to give is to lay it down.
            pane.clear()
        elif view.phase in ("play", "call discard"):
            selected = self.hand.selected
            pane.show_advice(view, selected=selected[0] if len(selected) == 1 else None)
        else:
            decks = view.rules.decks_for(len(view.names))
            jokers = view.rules.jokers_for(decks)
            pane.show_outs(
                view.hand,
                view.contract,
                view.rules,
                decks=decks,
                jokers=jokers,
                seen=view_seen(view),
                seen_note=seen_text(view),
            )

    def stop(self, timeout: float | None = 5.0) -> None:
        """Abandon the bots' thread, if one runs (the decision it weighs is dropped, the
        state stays as before it), and wait for it to end; the human's buttons come back
        only with a new game or a load."""
        with self._lock:
            self._generation += 1
            thinker = self._thinker
        if thinker is not None and thinker is not threading.current_thread():
            thinker.join(timeout)

    def close(self) -> None:
        """Stop the bots' thread and the review's, and close the widget's views."""
        self.stop()
        self.review_panel.stop()
        self.box.close()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the bots playing in the background, then for the outs being counted
        (for scripts and tests)."""
        thinker = self._thinker
        if thinker is not None:
            thinker.join(timeout)
        self.outs_pane.wait(timeout)
        self.review_panel.wait(timeout)

    def _enable(self) -> None:
        """Enable the buttons of the kinds of action the engine lists for the human now;
        a disabled button is grey and says why (the engine's reason) on hover."""
        kinds = set() if self.thinking else {type(action) for action in self.legal_actions()}
        playing = (
            self.state.to_act == self.seat
            and not self.finished
            and not self.between_rounds
            and not self.thinking
        )
        if playing and self.state.phase == "play" and self.view.can_lay_down():
            kinds.add(LayDown)
        enabled = {
            self.draw_button: DrawStock,
            self.take_button: TakeDiscard,
            self.buy_button: Buy,
            self.pass_button: Pass,
            self.call_button: Call,
            self.lay_down_button: LayDown,
            self.auto_lay_down_button: LayDown,
            self.add_meld_button: LayDown,
            self.lay_off_button: LayOff,
            self.swap_button: Swap,
            self.discard_button: Discard,
            self.end_turn_button: EndTurn,
        }
        off = {button for button, kind in enabled.items() if kind not in kinds}
        # Melds may be put aside in the play phase (each is checked as it is added); Lay
        # down is on only when the engine would accept the melds put aside.
        trying = playing and self.state.phase == "play" and not self.view.laid_down[self.seat]
        for button in (self.add_meld_button, self.clear_melds_button):
            if trying:
                off.discard(button)
            else:
                off.add(button)
        if trying and self.melds_to_lay and self.state.is_legal(self._lay_down_aside()):
            off.discard(self.lay_down_button)
        else:
            off.add(self.lay_down_button)
        self.reasons = {button: self._why_disabled(button) for button in off}
        for button in enabled.keys() | {self.clear_melds_button}:
            self._look(button, self.reasons.get(button))
        shown = (self.lay_down_button, self.auto_lay_down_button, self.lay_off_button)
        lines = [
            f"{button.description}: {self.reasons[button]}"
            for button in (*shown, self.swap_button)
            if button in self.reasons and playing and self.state.phase == "play"
        ]
        self.why_html.value = (
            "<ul class='rk-why' style='color:#555;margin:0'>"
            + "".join(f"<li>{html.escape(line)}</li>" for line in lines)
            + "</ul>"
            if lines
            else ""
        )

    def _look(self, button: ipywidgets.Button, reason: str | None) -> None:
        """Enabled: the button's own colour. Disabled: grey, dimmed, and the reason."""
        base = self._tooltips[button]
        button.disabled = reason is not None
        if reason is None:
            button.button_style = self._styles[button]
            button.style.text_color = None
            button.tooltip = base
        else:
            button.button_style = ""
            button.style.text_color = _DISABLED_TEXT
            button.tooltip = f"{base} (not now: {reason})"

    def _why_disabled(self, button: ipywidgets.Button) -> str:
        """The engine's reason why the action of ``button`` cannot be played now.

        The action is tried on a copy of the game (the engine refuses it and says why);
        where the reason depends on the card, it is tried with each card of the hand.
        """
        if self.result is not None:
            if self.between_rounds:
                return f"round {self.result.round} is over: press Next round"
            return "the play is over: press New game"
        if self.thinking:
            return "the bots are playing: wait for your turn"
        if self.state.to_act != self.seat:
            return "it is not your turn"
        if button is self.clear_melds_button:
            return "no lay-down is being put together now"
        selected = self.hand.selected
        cards = list(selected) if len(selected) == 1 else list(self.view.hand)
        meld = max(self.meld_choice.value, 0)
        tries: dict[ipywidgets.Button, list[Action]] = {
            self.draw_button: [DrawStock()],
            self.take_button: [TakeDiscard()],
            self.buy_button: [Buy()],
            self.pass_button: [Pass()],
            self.call_button: [Call()],
            self.end_turn_button: [EndTurn()],
            self.discard_button: [Discard(card) for card in cards],
            self.lay_off_button: [LayOff(card, meld) for card in cards],
            self.swap_button: [Swap(card, meld) for card in cards if not card.is_joker],
        }
        if button is self.lay_down_button and self.state.phase == "play":
            if self.view.laid_down[self.seat]:
                return "You have laid down already: lay off what fits, then discard"
            if not self.melds_to_lay:
                return (
                    f"Put the melds of your contract, {self.view.contract}, aside first: "
                    "select each meld's cards and press Add meld"
                )
            return _sentence_case(plain_words(self._engine_refusal(self._lay_down_aside())))
        if button in (self.lay_down_button, self.add_meld_button, self.auto_lay_down_button):
            if self.state.phase == "play" and not self.view.laid_down[self.seat]:
                contract = self.view.contract
                return f"The engine finds no lay-down of your contract, {contract}, in your hand"
            tries[button] = [LayDown(())]
        actions = tries.get(button, [])
        reasons = {plain_words(self._engine_refusal(action)) for action in actions}
        if len(actions) > 1:
            # The same reason for every card but for the card's name: the reason of them all,
            # unless it names the card in the rule too ("a card is not a diamond").
            reasons = {
                plain_words(self._engine_refusal(action)).replace(
                    f"the {action.card.symbol}", "a card"
                )
                for action in actions
            }
            if len(reasons) == 1 and next(iter(reasons)).lower().count("a card") > 1:
                reasons = set()
        if len(reasons) == 1:
            return _sentence_case(reasons.pop())
        what = {
            self.discard_button: "none of your cards can be discarded now",
            self.lay_off_button: "none of your cards fits a meld on the table now",
            self.swap_button: "none of your cards can take a joker from the table now",
        }
        return what.get(button, "not possible now")

    def _engine_refusal(self, action: Action) -> str:
        return self.state.why_not(action) or "not possible now"

    def _ipython_display_(self) -> None:
        whole = "the whole game" if self._whole else f"round {self.start_round}"
        level = _BOT_WORDS.get(self._kind_played, self._kind_played)
        display_widget(
            self.box,
            f"The play widget: you against {_count(len(self.bots) - 1, 'bot')} at the level "
            f"{level}, {self.state.rules.name} rules, {whole}. It needs a running Python "
            "kernel: run this cell to deal and play.",
        )


def _settings_words(settings: dict[str, object], keys: list[str]) -> str:
    """The set-up settings ``keys`` in words: ``"3 bots, Strong (...), seed 4"``."""
    words = {
        "rules": lambda rules: f"{rules} rules",
        "bots": lambda bots: _count(bots, "bot"),
        "level": lambda bot: _BOT_WORDS.get(bot, bot),
        "play": lambda whole: "the whole game" if whole else "one round",
        "round": lambda number: f"round {number}",
        "seed": lambda seed: f"seed {seed}",
    }
    return ", ".join(words[key](settings[key]) for key in keys if key in settings)


def _sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def _count(number: int, what: str = "card") -> str:
    return f"{number} {what}{'s' if number != 1 else ''}"


# What the widget says for an action of the wrong phase: the engine names the phase and
# the actions' notation; a reader of the widget sees the buttons.
_PHASE_PLAIN = {
    "draw": "first draw a card: press Draw from stock or Take discard",
    "buy": "a discard is on offer: press Buy or Pass first",
    "play": (
        "you have drawn this turn: lay down, lay off or swap a joker if you like, then "
        "press Discard"
    ),
    "call": "the last discard could have been laid off: press Call or Pass first",
    "call discard": "you claimed the discard: select a card and press Discard",
    "over": "the game is over",
}
_WRONG_PHASE = re.compile(r"^\S+ cannot [a-z ]+ in the '([a-z ]+)' phase: .*$", re.DOTALL)
# The actions' notation, as the engine quotes it, and the button that plays each.
_BUTTON_NAMES = {
    "'draw stock'": "Draw from stock",
    "'take discard'": "Take discard",
    "'lay down'": "Lay down",
    "'end turn'": "End turn",
    "'buy'": "Buy",
    "'pass'": "Pass",
    "'call'": "Call",
}
_NO_MELD_YET = re.compile(r"[Tt]here is no meld -?\d+: no meld is on the table yet")
_NUMBERED = re.compile(r"numbered 0 to (\d+)")
# A table meld's number, not a card ("meld 3♠ 4♠ ...") nor a lay-down's own meld, which
# check_lay_down counts from 1 as the widget's "Meld 1: ..." does ("meld 1 (8♠ 8♥) is not").
_MELD_NUMBERS = re.compile(r"\b(melds?) (\d+(?:, \d+)*)(?![\d♠♥♦♣])(?! \([^()]*\) is not a meld)")


def meld_number(number: int) -> int:
    """The number the widget shows for the engine's meld ``number``: melds are counted
    from 1 on screen (the engine and the action notation count from 0).

    >>> meld_number(0)
    1
    """
    return number + 1


def plain_words(reason: str) -> str:
    """An engine message as the PlayWidget shows it: the button names for the actions,
    plain words for the phase, meld numbers counted from 1 as the widget shows them.

    >>> plain_words("Ann cannot discard in the 'draw' phase: first draw from the stock "
    ...             "('draw stock') or take the discard ('take discard')")
    'first draw a card: press Draw from stock or Take discard'
    >>> plain_words("There is no meld 0: no meld is on the table yet")
    'there is no meld on the table yet'
    >>> plain_words("cannot lay off the 5♥ onto meld 0: the run is full")
    'cannot lay off the 5♥ onto meld 1: the run is full'
    >>> plain_words("cannot lay down: meld 1 (8♠ 8♥) is not a meld: too few cards")
    'cannot lay down: meld 1 (8♠ 8♥) is not a meld: too few cards'
    >>> plain_words("the meld 3♠ 4♠ 5♠ 6♠ has no joker to take")
    'the meld 3♠ 4♠ 5♠ 6♠ has no joker to take'
    >>> plain_words("a turn ends with a discard; 'end turn' is only for the last round")
    'a turn ends with a discard; End turn is only for the last round'
    """
    wrong = _WRONG_PHASE.match(reason)
    if wrong and wrong.group(1) in _PHASE_PLAIN:
        return _PHASE_PLAIN[wrong.group(1)]
    text = _NO_MELD_YET.sub("there is no meld on the table yet", reason)
    text = _NUMBERED.sub(lambda m: f"numbered 1 to {meld_number(int(m.group(1)))}", text)
    text = _MELD_NUMBERS.sub(
        lambda m: (
            f"{m.group(1)} " + ", ".join(str(meld_number(int(n))) for n in m.group(2).split(", "))
        ),
        text,
    )
    for notation, name in _BUTTON_NAMES.items():
        text = text.replace(notation, name)
    return text
