"""The PlayWidget's drawing: the status line, the table, the hand, the hints, the round's
result and the log, from the game state (a part of
:class:`~rummykit.widgets.play.PlayWidget`)."""

from __future__ import annotations

import html

from rummykit import svg
from rummykit.agents.hints import seen_text
from rummykit.engine.game import PlayerView, RoundResult
from rummykit.engine.melds import lay_off_options
from rummykit.engine.narrate import sentence
from rummykit.engine.search import contract_distance
from rummykit.widgets._common import (
    figure_html,
    message_html,
)
from rummykit.widgets.hints import view_seen
from rummykit.widgets.play.words import NO_MELD, PROMPTS, count_words, meld_number


class TableDrawing:
    """The PlayWidget's drawing: the status line, the table, the hand, the hints, the
    round's result and the log, from the game state (a part of
    :class:`~rummykit.widgets.play.PlayWidget`)."""

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
            text = sentence(event, self.state, melds_from=meld_number(0))
            if event.seat == self.seat and event.cards and event.kind == "draw stock":
                text = f"{text[:-1]}: the {event.cards[0]}."  # your own card, not the table's
            if text:
                self.lines.append(text)
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
            prompt = PROMPTS.get(view.phase, "")
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
            f"<div class='rk-piles'><p>Discard pile ({count_words(view.discard_size)}), top card: "
            f"{'' if top is None else html.escape(top.name)}</p>{pile}"
            f"<p>Stock: {count_words(view.stock_size)}</p></div>"
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
        self.meld_choice.options = options or [("no meld on the table yet", NO_MELD)]
        if 0 <= choice < len(options):
            self.meld_choice.value = choice
        else:
            self.meld_choice.value = options[0][1] if options else NO_MELD

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
                parts.append(f"Your hand is {count_words(distance)} away from {view.contract}.")
        offer = view.offer if view.phase == "buy" else view.discard_top
        if offer is not None and distance > 0 and view.phase in ("draw", "buy"):
            after = contract_distance([*view.hand, offer], view.contract, rules)
            if after == 0:
                parts.append(f"With the {offer} you would hold your contract.")
            elif after < distance:
                parts.append(f"With the {offer} you would be {count_words(after)} away.")
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
                    parts.append(
                        f"If you discard the {card}, you will be {count_words(after)} away."
                    )
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
