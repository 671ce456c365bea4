"""The PlayWidget's buttons: which are enabled, and why each disabled one is, in the
engine's words (a part of :class:`~rummykit.widgets.play.PlayWidget`)."""

from __future__ import annotations

import html

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
from rummykit.widgets._common import (
    ipywidgets,
)
from rummykit.widgets.play.words import refusal_words, sentence_case

#: A disabled button: grey, with dimmed text (ipywidgets keeps a coloured style bright).
DISABLED_TEXT = "#6b6b6b"


class ButtonStates:
    """The PlayWidget's buttons: which are enabled, and why each disabled one is, in the
    engine's words (a part of :class:`~rummykit.widgets.play.PlayWidget`)."""

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
            button.style.text_color = DISABLED_TEXT
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
            return sentence_case(self._engine_refusal(self._lay_down_aside()))
        if button in (self.lay_down_button, self.add_meld_button, self.auto_lay_down_button):
            if self.state.phase == "play" and not self.view.laid_down[self.seat]:
                contract = self.view.contract
                return f"The engine finds no lay-down of your contract, {contract}, in your hand"
            tries[button] = [LayDown(())]
        actions = tries.get(button, [])
        # Tried with each card: a reason the same for every card but for the card is said
        # once, of "a card" (a reason that names a card in its own words, not as a card of
        # the refusal, "the 5♥ is not a diamond", differs by card and is not).
        reasons = {self._engine_refusal(action, any_card=len(actions) > 1) for action in actions}
        if len(actions) > 1 and len(reasons) == 1 and next(iter(reasons)).count("a card") > 1:
            reasons = set()  # "a card taken from the pile ... (a card)" says nothing
        if len(reasons) == 1:
            return sentence_case(reasons.pop())
        what = {
            self.discard_button: "none of your cards can be discarded now",
            self.lay_off_button: "none of your cards fits a meld on the table now",
            self.swap_button: "none of your cards can take a joker from the table now",
        }
        return what.get(button, "not possible now")

    def _engine_refusal(self, action: Action, *, any_card: bool = False) -> str:
        """The engine's reason for refusing ``action``, in the widget's words."""
        refusal = self.state.why_not(action)
        return "not possible now" if refusal is None else refusal_words(refusal, any_card=any_card)
