"""The test tiers: ``make test-fast`` deselects the tests marked ``slow``; ``make test`` runs all.

A test (or one case of a parametrized test) belongs in the slow tier when it takes
:data:`FAST_SECONDS` or more under ``make test-fast`` (its set-up, call and tear-down, on the
project's 2-core machine): the fast tier's goal is 30 s for the whole command (issue 51,
item 6). It is marked in one of three ways, all read by ``-m "not slow"``:

- at the test, with ``@pytest.mark.slow`` or :func:`slow` (the cases of 2 s or more, marked
  when they were written);
- in :data:`MOVED` below, a list the conftest applies at collection: the tests and cases of
  0.5 s to 2 s, moved out of the fast tier together (issue 28) so that the test modules,
  which many hands edit, did not have to change;
- in ``tests/support/tier_times.json``, the tests the last measurement found at
  :data:`FAST_SECONDS` or more (``make tier-times`` measures the fast tier again, every
  test the file moved included, and rewrites it).

``tests/test_tiers.py`` checks that every entry of the list and the file still names a test.
The slow tier is no weaker tier: ``make test`` (CI) runs every test, with Hypothesis's full
example counts (the ``fast`` profile of ``tests/conftest.py``, which ``make test-fast``
loads, runs 10 examples where a test sets no count of its own).
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from pathlib import Path

import pytest

#: The fast tier's budget for one test, in seconds (see the module's docstring).
FAST_SECONDS = 0.05
#: A file goes to the slow tier whole when one of its tests' set-up alone took this long:
#: a module's shared fixture is set up by whichever of its tests runs first.
FILE_SECONDS = 0.5
#: The tests last measured at :data:`FAST_SECONDS` or more and the files of a set-up of
#: :data:`FILE_SECONDS`: ``{"measured": how, "files": [path, ...], "tests": {node id:
#: seconds}}`` (node ids without xdist's ``@group`` suffix).
TIMES = Path(__file__).with_name("tier_times.json")
#: Set to ``off``, the file is not read: ``make tier-times`` measures every test it names.
TIMES_SWITCH = "RUMMYKIT_TIER_TIMES"


def slow(*values, id: str | None = None):
    """One case of a parametrized test, in the slow tier."""
    return pytest.param(*values, marks=pytest.mark.slow, id=id)


def chosen_for_coverage(items, *keys) -> list:
    """The first item of ``items`` for each value of each of ``keys`` (functions of an
    item), in ``items``' order: the cases ``make test`` keeps of a volume check."""
    items = list(items)
    chosen: set[int] = set()
    for key in keys:
        first: dict = {}
        for position, item in enumerate(items):
            first.setdefault(key(item), position)
        chosen |= set(first.values())
    return [items[position] for position in sorted(chosen)]


def soak_left_out(items: list[pytest.Item], soak: bool) -> list[pytest.Item]:
    """The items of the soak tier, unless ``soak``: taken out of ``items`` and returned."""
    if soak:
        return []
    out = [item for item in items if item.get_closest_marker("soak")]
    items[:] = [item for item in items if not item.get_closest_marker("soak")]
    return out


def soak(*values, id: str | None = None):
    """One case of a parametrized test in the soak tier (``make soak``, not ``make test``):
    the volume beyond the cases chosen for coverage, which ``make test`` runs."""
    return pytest.param(*values, marks=[pytest.mark.slow, pytest.mark.soak], id=id)


#: Moved to the slow tier at collection (see the module's docstring): ``(file, test)`` for
#: every case of a test, ``(file, test, (case id, ...))`` for some cases (their ids as
#: pytest writes them, shell-style patterns allowed). ``file`` is the file's name (a test
#: module under tests/ or, for a doctest, a module of rummykit), ``test`` the test function's
#: name or the doctest's. Measured with ``--durations=0`` on 2026-12-02, on a loaded 2-core
#: machine: each takes 0.5 s or more, and a test keeps its cases under 0.5 s in the fast tier.
MOVED: list[tuple] = [
    # Doctests that play or sample (their code paths also have unit tests in the fast tier).
    ("bots.py", "rummykit.agents.bots.OutsBot"),
    ("searchbot.py", "rummykit.agents.searchbot"),
    # Session 14's tests of 0.5 s or more: the compiled rollouts against the engine on
    # many states, reviews of whole rounds.
    ("test_rollouts.py", "test_the_states_cover_every_round_and_table_size"),
    ("test_rollouts.py", "test_a_batch_of_seeds_is_the_engine_round_by_round"),
    ("test_rollouts.py", "test_a_few_mid_round_states_play_on_as_the_engines"),
    ("test_reviews.py", "test_greedy_play_reviews_more_accurately_than_random_play"),
    ("test_reviews.py", "test_same_seed_same_review_and_the_seed_matters"),
    ("reviews.py", "rummykit.evaluate.reviews"),
    ("test_widgets_play_strong.py", "test_a_strong_bot_thinks_in_the_background_and_plays_as_without"),
    ("test_widgets_play_levels.py", "test_a_click_returns_before_the_strong_bots_decide"),
    ("test_widgets_play_levels.py", "test_strong_bots_think_off_the_main_thread"),
    # Two decisions of the strong level's default budget (300 samples): 0.4 s quiet.
    ("test_widgets_play_strong.py", "test_the_bot_dropdown_offers_every_level"),
    # Session 13's tests of 0.5 s or more (measured on a quiet two-core machine, two
    # workers): the brute-force oracles of determinization, whole games by SearchBot on
    # engine rollouts, duplicate comparisons, a memory measurement.
    ("test_determinize.py", "test_sampler_matches_the_exact_distribution_and_a_biased_one_fails"),
    ("test_determinize.py", "test_consistent_deals_are_the_model_and_uniform"),
    ("test_determinize.py", "test_samples_are_legal_states_that_keep_what_the_seat_sees"),
    ("test_determinize.py", "test_samples_play_on_to_the_end_of_the_round"),
    ("test_determinize.py", "test_whole_sampler_marginals_match_the_model"),
    ("test_searchbot.py", "test_plays_whole_games_under_every_preset"),
    ("test_searchbot.py", "test_same_seed_same_game"),
    ("test_searchbot.py", "test_without_evidence_it_plays_as_greedybot"),
    ("test_searchbot.py", "test_keeps_the_cards_of_its_contract_and_discards_a_dead_one"),
    ("test_duplicate.py", "test_two_equal_but_different_bots_have_an_interval_holding_zero"),
    ("test_duplicate.py", "test_greedy_is_clearly_better_than_random"),
    # Session 14: the ladder's split and merge plays 54 games of three seats (0.5 s).
    ("test_ladder.py", "test_a_split_and_merge_of_the_units_is_the_whole"),
    ("test_native.py", "test_near_hands_are_the_brute_force_oracles"),
    ("test_write_faults.py", "test_the_planned_memory_bounds_the_records_measured"),
    ("test_modules.py", "test_the_compiled_cores_face_is_standard_library_engine"),
    ("odds.py", "rummykit.widgets.odds.SimulationExplorer"),
    ("test_buy_timing.py", "test_random_games_buy_before_the_draw"),
    ("test_chance.py", "test_no_module_formats_a_chance_itself"),
    ("test_charts.py", "test_contract_heatmap"),
    ("test_charts.py", "test_no_legend_of_one_entry"),
    ("test_cli.py", "test_a_count_planned_to_take_a_while_is_announced_first"),
    ("test_cli.py", "test_command_through_a_subprocess"),
    ("test_cli.py", "test_tables_engine_plays_the_same_rounds"),
    ("test_completion.py", "test_process_pool_gives_the_serial_result"),
    ("test_completion.py", "test_round_records_are_consistent", ("pagat", "wikipedia")),
    ("test_dask.py", "test_a_run_failing_midway_leaves_the_out_directory_unchanged"),
    ("test_dask.py", "test_a_scheduler_without_workers_is_named"),
    ("test_dask_faults.py", "test_a_peer_that_is_no_scheduler_is_named_within_the_timeout", ("silent",)),
    ("test_dask_faults.py", "test_cli_on_a_babbling_or_closing_peer_exits_2_without_traceback", ("close",)),
    # The outs exercises count outs for every card; their checker is the same for all.
    ("test_exercises.py", "test_every_exercise_accepts_its_answer_and_rejects_wrong_ones", ("outs-*", "ch9-paired")),
    ("test_exercises.py", "test_identical_sets_by_listing_every_set_for_small_shoes"),
    ("test_fastplay.py", "test_a_few_rounds_are_the_engines"),
    ("test_known_odds.py", "test_deal_widget_counts_in_the_handler_where_threads_cannot_start"),
    ("test_meld_rules.py", "test_meld_functions_read_only_meld_rules", ("standard", "wikipedia", "bga", "family")),
    ("test_melds_properties.py", "test_check_meld_matches_the_oracle"),
    ("test_melds_properties.py", "test_contract_distance_is_the_fewest_cards_to_add"),
    ("test_melds_properties.py", "test_contract_within_is_contract_distance_at_most"),
    ("test_modules.py", "test_import_graph_sees_the_engine_imports"),
    # Enumeration oracles: the larger shoes; the small shoes stay in the fast tier.
    ("test_odds_exact.py", "test_distance_equals_enumeration", ("contract[2356]-*",)),
    ("test_odds_exact.py", "test_exact_equals_enumeration", (
        "2 runs-standard-5r2s-1d2j8c",
        "2 runs-standard-5r1s-2d2j8c",
        "3 runs-short runs-5r1s-2d1j9c",
        "1 set + 1 run-no ace low-5r2s-1d2j7c",
        "1 set + 1 run-short runs-4r3s-1d1j6c",
        "1 set + 2 runs-sep short-5r2s-1d2j8c",
    )),
    ("test_odds_keep.py", "test_one_sweep_of_the_largest_hand_serves_the_smaller_ones"),
    ("test_odds_native.py", "test_compiled_sweep_equals_python", (
        "1 set + 1 run-standard-13r2s-1d-dealt",
        "2 sets + 1 run-standard-5r4s-1d-dealt",
        "2 sets + 1 run-short runs-4r4s-2d-dealt",
        "1 set + 1 run-loose-4r4s-4d-dealt",
        "1 set + 1 run-no ace high-13r2s-1d-dealt",
    )),
    ("test_odds_native.py", "test_kept_successors_change_nothing", ("contract1-2-11", "contract2-1-11")),
    # One rule set's cost table (the cheapest) stays: the same code path for every preset.
    ("test_odds_simulate.py", "test_run_cost_table_against_every_window", (
        "standard", "pagat", "wikipedia", "bga", "family", "wild", "no-ace-low", "strict",
        "long", "natural-runs",
    )),
    ("test_teach_probability.py", "test_listing_every_hand_agrees_with_the_hypergeometric_formula", ("5",)),
    ("test_outs.py", "test_chances_are_written_as_the_project_writes_them"),
    ("test_outs.py", "test_two_draw_chance_property_on_tiny_pools"),
    ("test_outsbot.py", "test_keeps_a_third_pair_where_greedy_sheds_points"),
    ("test_outsbot.py", "test_seeded_and_picklable"),
    ("test_outsbot.py", "test_the_discard_is_the_best_by_discard_advice_on_random_positions"),
    ("test_outsbot.py", "test_ties_on_outs_are_broken_by_the_two_draw_chance"),
    # Every preset's seeded games at 4 players (all three bots) stay in the fast tier; the
    # other player counts run the same engine code with another seat count.
    ("test_preset_saves.py", "test_seeded_game_replays_as_recorded", ("*-[235678]p-*",)),
    ("test_search_fast.py", "test_discard_advice_is_the_same_with_and_without_the_core"),
    ("test_search_fast.py", "test_outs_are_the_same_with_and_without_the_core"),
    ("test_tables.py", "test_dealt_odds_simulates_where_asked_and_agrees_with_exact"),
    ("test_tables.py", "test_simulated_distance_rows_hold_the_exact_values"),
    ("test_teach_concepts.py", "test_the_variance_of_the_number_of_sets_matches_a_list_of_every_hand"),
    ("test_widgets.py", "test_deal_and_explorer_show_a_progress_bar_while_counting"),
    ("test_widgets.py", "test_odds_explorer_shows_the_exact_odds_and_a_chart_of_the_neighbourhood"),
    ("test_widgets.py", "test_play_a_whole_round_through_the_controls_against_seeded_bots"),
    ("test_widgets.py", "test_play_buying_answered_by_the_human_and_seen_from_the_bots"),
    ("test_widgets.py", "test_play_lay_down_lay_off_and_swap_a_joker"),
    ("test_widgets.py", "test_play_reasons_use_the_buttons_words_not_the_engines"),
    ("test_widgets.py", "test_play_refuses_illegal_clicks_with_the_engines_reason"),
    ("test_widgets.py", "test_simulation_explorer_converges_on_the_exact_value"),
    ("test_widgets_hints.py", "test_a_refused_click_leaves_the_outs_as_they_were"),
    ("test_widgets_hints.py", "test_after_the_draw_the_hint_shows_the_advice_for_every_discard"),
    ("test_widgets_hints.py", "test_selecting_a_card_marks_its_row_without_counting_again"),
    ("test_widgets_hints.py", "test_the_advice_is_counted_off_the_main_thread"),
    ("test_widgets_hints.py", "test_the_hint_follows_the_play_and_goes_with_the_checkbox"),
    ("test_widgets_odds.py", "test_a_count_left_behind_by_the_controls_stops_and_shows_nothing"),
    ("test_widgets_odds.py", "test_a_new_contract_is_drawn_at_once_and_marked_while_points_recompute"),
    ("test_widgets_odds.py", "test_simulation_counts_a_quick_exact_value_after_the_hands"),
    ("test_widgets_odds.py", "test_simulation_run_returns_at_once_and_never_counts_a_slow_cell_unasked"),
    ("test_widgets_table.py", "test_a_player_count_the_preset_does_not_allow_shows_its_rule_and_is_put_back"),
    # Session 26 (issue 47/48): 20,000 students' numbers and answers a question, the
    # library probe over 30 students, the review's constructed errors and the
    # stories and beside-the-bots reviews of whole rounds (0.5 s to 24 s each, measured
    # on a loaded 2-core machine).
    ("test_homework.py", "test_a_question_has_500_parameter_sets_and_500_answers"),
    ("test_homework.py", "test_no_single_library_call_is_the_answer"),
    ("test_homework.py", "test_the_library_probe_finds_the_one_call_answers_of_simpler_questions"),
    ("test_homework_hw1.py", "test_a_key_agrees_with_listing_every_hand_of_a_small_shoe"),
    ("test_exercises.py", "test_bayes_by_simulation"),
]  # fmt: skip


def moved(file: str, test: str, case: str | None) -> bool:
    """Whether :data:`MOVED` puts this test (``case``: its parametrization's id) in the slow tier."""
    from fnmatch import fnmatchcase

    for entry in MOVED:
        if entry[:2] != (file, test):
            continue
        if len(entry) == 2:
            return True
        if case is not None and any(fnmatchcase(case, pattern) for pattern in entry[2]):
            return True
    return False


#: The longest tests, in seconds a case (a parametrized test's total over its cases), as
#: CI measured them on 2026-12-02 (a clean two-core machine, serially; its junit report):
#: under xdist the root conftest.py hands out the groups and tests longest first, counting
#: 1 s for another test of the slow tier and 0.1 s for the rest, so the run ends on short
#: tests. Only the order depends on these figures; tests/test_tiers.py checks the names.
LONG: dict[tuple[str, str], float] = {
    # The browser group (one worker, one after another).
    ("test_book_browser.py", "test_every_page_works_offline"): 123,
    ("test_widgets_browser.py", "test_slow_counts_wait_to_be_asked_and_a_run_leaves_the_kernel_free"): 79,
    ("test_widgets_browser.py", "test_widgets_in_jupyterlab"): 51,
    ("test_widgets_browser.py", "test_play_choices_start_selected_and_a_finished_round_stays_up"): 49,
    ("test_widgets_browser.py", "test_a_tiny_chance_reads_1_in_n_everywhere_and_a_stale_result_is_cleared"): 45,
    ("test_exercises_browser.py", "test_exercises_in_jupyterlab"): 44,
    ("test_book_live.py", "test_a_meld_built_in_the_live_notebook_offline"): 21,
    ("test_book_live.py", "test_a_turn_played_in_the_live_notebook_offline"): 20,
    ("test_book_live.py", "test_the_live_deal_reads_the_tables_odds_offline"): 19,
    ("test_widgets_table_browser.py", "test_players_control_in_jupyterlab"): 17,
    ("test_widgets_browser.py", "test_play_hints_count_a_buried_discard_as_seen"): 15,
    # The two longest checks, in cases that the workers share: 148 s and 115 s in CI as
    # one test each; the second now plays each round once in the engine (0.55x its CPU).
    ("test_tables.py", "test_committed_outs_bot_plays_recompute"): 18,
    ("test_fastplay.py", "test_many_rounds_are_the_engines"): 9,
    # The rest.
    # Measured here, not in CI (2026-12-06): 30 s of CPU in a child process, 61 s on a
    # 2-core machine loaded twice over.
    ("test_homework.py", "test_no_callable_of_the_package_returns_an_answer"): 30,
    # Session 26's modules with a module-scoped fixture (one worker each), by their tests'
    # times on a loaded 2-core machine: the homework checks (the 500-numbers draws, 90 s
    # in all), the class graded end to end under both isolations (about 150 s with the
    # builds), the zip under otter run in a clean environment (80 s), the constructed
    # review errors (33 s).
    ("test_homework.py", "test_a_question_has_500_parameter_sets_and_500_answers"): 3,
    ("test_grading_class.py", "test_a_hostile_class_under_bubblewrap_gets_what_its_answers_earn"): 45,
    ("test_grading_class.py", "test_a_hostile_class_as_plain_processes_gets_what_its_answers_earn"): 40,
    ("test_grading_class.py", "test_every_assignments_solutions_earn_full_marks"): 30,
    ("test_grading_class.py", "test_an_interrupted_run_resumes_without_running_anyone_twice"): 20,
    ("test_grading_otter.py", "test_the_zip_installs_rummykit_into_an_environment_of_its_own"): 50,
    ("test_grading_otter.py", "test_otter_run_grades_each_assignment_from_its_zip"): 8,
    ("test_review_errors.py", "test_a_constructed_error_is_marked_at_every_seed"): 3,
    ("test_fastplay.py", "test_random_rule_sets_are_the_engines"): 11,
    ("test_fastplay.py", "test_rule_variants_are_the_engines"): 2.8,
    ("test_odds_exact.py", "test_exact_equals_enumeration_for_any_rules"): 18,
    ("test_odds_native.py", "test_compiled_sweep_with_few_cards_equals_python"): 11,
    ("test_odds_native.py", "test_compiled_sweep_equals_python"): 2.6,
    ("test_odds_reference.py", "test_sweep_equals_reference"): 2.6,
    ("test_search_fast.py", "test_fast_distance_is_the_reference"): 2.2,
    ("test_tables.py", "test_committed_simulated_distance_recomputes_for_a_cell"): 14,
    ("test_dask.py", "test_an_unreachable_scheduler_fails_within_30_s_and_writes_nothing"): 11,
    ("test_dask_faults.py", "test_cli_on_a_silent_peer_fails_in_one_line_with_the_default_timeout"): 10,
    ("test_widgets.py", "test_a_slow_count_shows_an_estimate_and_counts_only_when_asked"): 9,
    ("test_fuzz.py", "test_fuzzing_every_table_finds_no_break_and_no_mishandled_input"): 8,
}  # fmt: skip


@functools.cache
def measured() -> tuple[dict[str, float], frozenset[str]]:
    """The slow tests and files of ``tier_times.json`` (none when it is switched off)."""
    if os.environ.get(TIMES_SWITCH) == "off":
        return {}, frozenset()
    found = json.loads(TIMES.read_text(encoding="utf-8"))
    return found["tests"], frozenset(found["files"])


def measured_seconds(node_id: str) -> float | None:
    """The seconds the last measurement gave this test, if it listed it."""
    return measured()[0].get(node_id.partition("@")[0])


def measured_slow(node_id: str) -> bool:
    """Whether the last measurement put this test (its node id) in the slow tier."""
    tests, files = measured()
    node_id = node_id.partition("@")[0]
    return node_id in tests or node_id.partition("::")[0] in files


_DURATION = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(.+?)\s*$")


def times_from_durations(text: str) -> tuple[dict[str, float], dict[str, float]]:
    """Each test's seconds (set-up, call and tear-down together) and its set-up's alone, in
    the report of ``pytest --durations=0``, by node id without xdist's ``@group`` suffix."""
    times: dict[str, float] = {}
    setups: dict[str, float] = {}
    for line in text.splitlines():
        found = _DURATION.match(line)
        if found:
            seconds, when, node_id = float(found.group(1)), found.group(2), found.group(3)
            node_id = node_id.partition("@")[0]
            times[node_id] = times.get(node_id, 0.0) + seconds
            if when == "setup":
                setups[node_id] = seconds
    return times, setups


def write_times(report: str, how: str) -> tuple[dict[str, float], list[str]]:
    """Rewrite ``tier_times.json`` from a ``--durations=0`` report: the tests of
    :data:`FAST_SECONDS` or more (rounded to 0.01 s) and the files of a set-up of
    :data:`FILE_SECONDS` or more."""
    times, setups = times_from_durations(report)
    tests = {
        node_id: round(seconds, 2)
        for node_id, seconds in sorted(times.items())
        if seconds >= FAST_SECONDS
    }
    files = sorted(
        {n.partition("::")[0] for n, seconds in setups.items() if seconds >= FILE_SECONDS}
    )
    tests = {n: seconds for n, seconds in tests.items() if n.partition("::")[0] not in files}
    text = json.dumps({"measured": how, "files": files, "tests": tests}, indent=1) + "\n"
    scratch = TIMES.with_name(TIMES.name + ".new")  # whole or not at all
    scratch.write_text(text, encoding="utf-8")
    os.replace(scratch, TIMES)
    return tests, files


if __name__ == "__main__":  # python -m tests.support.tiers REPORT "how it was measured"
    report_path, how = sys.argv[1:3]
    tests, files = write_times(Path(report_path).read_text(encoding="utf-8"), how)
    print(f"{TIMES}: {len(tests)} tests of {FAST_SECONDS} s or more, {len(files)} files whole")
