"""The PlayWidget's set-up controls: the rules, the bots and their level, what waits for New
game (a part of :class:`~rummykit.widgets.play.PlayWidget`)."""

from __future__ import annotations

from rummykit.agents.searchbot import SearchBot
from rummykit.engine.game import DEFAULT_NAMES
from rummykit.engine.rules import RuleSet
from rummykit.widgets._common import (
    four_colour_box,
    ipywidgets,
    message_html,
    preset_dropdown,
    round_options,
    seed_problem,
)
from rummykit.widgets.play.levels import (
    BOT_ORDER,
    BOT_WORDS,
    BOTS,
    STRONG_SAMPLES,
    STRONG_SECONDS,
    LevelChoice,
    bot_range,
    settings_words,
)


class GameSetup:
    """The PlayWidget's set-up controls: the rules, the bots and their level, what waits
    for New game (a part of :class:`~rummykit.widgets.play.PlayWidget`)."""

    # ------------------------------------------------------------------ setting up
    def _make_setup_controls(
        self, preset: str, bots: int, bot: str, whole_game: bool, round: int, seed: int, hint: bool
    ) -> None:
        """The set-up controls (rules, bots, level, one round or the whole game, round,
        seed, New game, hints), each change said on the settings line."""
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
            options=[(BOT_WORDS.get(kind, kind), kind) for kind in BOT_ORDER],
            value=bot,
            description="Level",
            tooltip="how well the bots play (from the next New game)",
            layout=ipywidgets.Layout(width="auto", max_width="100%"),
        )
        self.level = LevelChoice(self.bot_kind)
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
            f"Takes effect at New game: {settings_words(now, changed)}. "
            f"The game in play: {settings_words(played, changed)}."
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

    def _names(self, players: int) -> tuple[str, ...]:
        others = [n for n in DEFAULT_NAMES if n != self.name]
        return (self.name, *others[: players - 1])
