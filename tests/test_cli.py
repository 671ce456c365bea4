"""The rummykit command: odds, simulate, tables; messages and exit status 2 on bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

import rummykit
from rummykit import RuleSet, _native
from rummykit.cli import EXAMPLES, count_plan, main, parse_contract
from rummykit.engine.rules import SHOE_DECKS, SHOE_JOKERS
from rummykit.odds import dealt_probability
from rummykit.odds.data.schemas import SCHEMAS

STANDARD = RuleSet.preset("standard")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def fails(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


# --------------------------------------------------------------------------- odds


def test_odds_prints_fraction_percentage_and_one_in_n(capsys):
    status, out, _ = run(
        capsys, "odds", "--contract", "4", "--decks", "2", "--jokers", "4", "--cards", "10"
    )
    assert status == 0
    p = dealt_probability(STANDARD.contracts[3], decks=2, jokers=4, cards=10, rules=STANDARD)
    lines = out.splitlines()
    assert lines[0] == (
        "standard, round 4 contract (3 sets), 10 cards from 2 decks + 4 jokers (108 cards), exact"
    )
    assert lines[1] == f"P = {p}"
    assert Fraction(lines[1].removeprefix("P = ")) == p
    assert lines[1:] == ["P = 2039363/1546561995", "  = 1 in 758"]  # rummykit.chance words


def test_odds_defaults_and_contract_in_words(capsys):
    _, by_round, _ = run(capsys, "odds", "--contract", "1", "--rules", "family")
    assert by_round.startswith("family, round 1 contract (2 sets), 7 cards from 2 decks + 2 jokers")
    _, in_words, _ = run(capsys, "odds", "--contract", "2 sets", "--rules", "family")
    assert in_words == by_round
    _, compact, _ = run(capsys, "odds", "--contract", "2s", "--cards", "6", "--decks", "1")
    assert "round 1 contract (2 sets), 6 cards from 1 deck + 2 jokers (54 cards)" in compact


def test_odds_of_a_contract_no_round_plays(capsys):
    _, out, _ = run(
        capsys, "odds", "--contract", "1 set", "--cards", "3", "--decks", "1", "--jokers", "0"
    )
    assert out.splitlines()[:2] == [
        "standard, contract 1 set, 3 cards from 1 deck + 0 jokers (52 cards), exact",
        "P = 1/425",  # 13 ranks x C(4, 3) / C(52, 3)
    ]


def test_odds_of_an_impossible_hand_says_so_with_its_reason(capsys):
    _, out, _ = run(capsys, "odds", "--contract", "4", "--cards", "5")
    assert out.splitlines()[1:] == ["P = 0", "  = impossible: 3 sets need 9 cards"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds"], "the following arguments are required: --contract"),
        (["odds", "--contract", "2", "--rules", "vegas"], "unknown preset 'vegas'"),
        (["odds", "--contract", "9"], "standard has rounds 1-7, not 9"),
        (["odds", "--contract", "lots"], "cannot read the contract 'lots'"),
        (["odds", "--contract", "0 sets"], "a contract needs at least one set or run"),
        (["odds", "--contract", "2", "--cards", "200"], "cannot deal 200 cards from 2 decks"),
        (["odds", "--contract", "2", "--decks", "0"], "--decks: must be from 1 to 4, got 0"),
        (["odds", "--contract", "2", "--decks", "1000"], "--decks: must be from 1 to 4"),
        (["odds", "--contract", "2", "--jokers", "-1"], "--jokers: must be from 0 to 16, got -1"),
        (["odds", "--contract", "2", "--cards", "ten"], "'ten' is not a whole number"),
        (["odds", "--contract", "2", "--decks", "two"], "'two' is not a whole number"),
        (["odds", "--contract", "2", "--decks", "5"], "--decks: must be from 1 to 4, got 5"),
        (["odds", "--contract", "2", "--jokers", "17"], "--jokers: must be from 0 to 16"),
        (["odds", "--contract", "1 set"], "--cards is needed: 1 set is no round of standard"),
        (["simulate", "--contract", "2", "--n", "0"], "must be a positive integer"),
        (["tables", "--only", "everything"], "invalid choice: 'everything'"),
        (["tables", "--n", str(10**11)], "--n: must be from 1 to 1,000,000, got 100,000,000,000"),
        (["tables", "--n", "0"], "--n: must be from 1 to 1,000,000, got 0"),
        (["tables", "--preset-n", "1000001"], "--preset-n: must be from 1 to 1,000,000"),
        (["shuffle"], "invalid choice: 'shuffle'"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(capsys, argv, message):
    err = fails(capsys, *argv)
    assert message in err
    assert err.startswith("usage: rummykit")


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["odds", "--contract", "9"], "usage: rummykit odds "),
        (["odds", "--contract", "2", "--rules", "vegas"], "usage: rummykit odds "),
        (["odds", "--contract", "1 set"], "usage: rummykit odds "),
        (["simulate", "--contract", "2", "--decks", "9"], "usage: rummykit simulate "),
        (["simulate", "--contract", "2", "--decks", "two"], "usage: rummykit simulate "),
        (["shuffle"], "usage: rummykit [-h]"),
    ],
)
def test_errors_print_the_usage_of_their_command(capsys, argv, usage):
    assert fails(capsys, *argv).startswith(usage)


def test_the_command_takes_the_shoes_the_widgets_take(capsys):
    # One range (rummykit.engine.rules, the widgets' too), named by --help and the errors.
    assert (SHOE_DECKS, SHOE_JOKERS) == ((1, 4), (0, 16))
    with pytest.raises(SystemExit):
        main(["odds", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "52-card decks, 1 to 4 (default 2)" in help_text
    assert "jokers in the shoe, in all, 0 to 16" in help_text
    # Every preset gives its jokers for each deck count, so --jokers is never needed.
    for name in RuleSet.presets():
        assert all(RuleSet.preset(name).jokers_for(d) >= 0 for d in range(1, SHOE_DECKS[1] + 1))
    _, out, _ = run(
        capsys, "odds", "--contract", "1", "--decks", "4", "--jokers", "16", "--cards", "3"
    )
    assert "3 cards from 4 decks + 16 jokers (224 cards)" in out


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"rummykit {rummykit.__version__}\n"


@pytest.mark.parametrize("command", ["odds", "simulate", "tables"])
def test_each_command_has_examples_in_its_help(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert out.startswith(f"usage: rummykit {command} ")
    examples = out.split("examples:\n", 1)[1]
    assert examples.count(f"  rummykit {command}") >= 2
    assert EXAMPLES[command] in out  # shown as written (not re-wrapped)


def test_a_count_planned_to_take_a_while_is_announced_first(capsys, monkeypatch):
    import rummykit.odds.counting.exact as exact

    monkeypatch.setattr(exact, "_CACHE", {})
    # 1 set + 1 run, 3 decks, 8 jokers, 14 cards: planned (and measured) at 1.4 s.
    argv = ("odds", "--contract", "2", "--decks", "3", "--jokers", "8", "--cards", "14")
    status, out, err = run(capsys, *argv)
    assert status == 0 and out.startswith("standard, round 2 contract (1 set + 1 run)")
    assert err.splitlines()[0] == (
        "counting exactly: about 1 s on one core (planned); for an estimate in a second, "
        "use rummykit simulate"
    )
    # Counted now: the second time is known, so nothing is announced.
    _, again, err = run(capsys, *argv)
    assert again == out and err == ""
    # The 45-second count of the issue is announced with its plan (not run here).
    plan = count_plan(STANDARD, STANDARD.contracts[5], 4, 8, 15)
    assert plan.startswith("counting exactly: about 1 min 35 s on one core (planned)")
    # Quick counts and the values of data/ are not announced.
    assert count_plan(STANDARD, STANDARD.contracts[1], 2, 4, 10) is None
    assert count_plan(STANDARD, STANDARD.contracts[5], 3, 6, 14) is None  # committed


def test_a_count_shows_a_bar_from_its_start_moving_with_each_step(capsys, monkeypatch):
    import tqdm

    import rummykit.odds.counting.exact as exact

    monkeypatch.setattr(exact, "_CACHE", {})
    shown = []  # (done, total) each time the bar is drawn

    class Bar:  # tqdm's bar as the command uses it (a real one hides off a terminal)
        def __init__(self, **options):
            assert options["disable"] is None and options["delay"] == 0
            self.n, self.total = 0, options["total"]

        def __enter__(self):
            return self

        def __exit__(self, *exc_info):
            return False

        def refresh(self):
            shown.append((self.n, self.total))

    monkeypatch.setattr(tqdm, "tqdm", Bar)
    run(capsys, "odds", "--contract", "2", "--decks", "1", "--jokers", "1", "--cards", "9")
    # Drawn before the count's first step, then after each step of the sweep.
    assert shown[0] == (0, None) and len(shown) > 10
    steps = shown[-1][1]
    assert shown[1:] == [(done, steps) for done in range(1, steps + 1)]


def test_parse_contract_reads_rounds_and_words():
    assert parse_contract("2 sets + 1 run", STANDARD) == (STANDARD.contracts[4], 5)
    assert parse_contract("2s1r", STANDARD) == (STANDARD.contracts[4], 5)
    assert parse_contract(" 1 SET, 2 RUNS ", STANDARD) == (STANDARD.contracts[5], 6)
    assert parse_contract("4 runs", STANDARD)[1] is None


# --------------------------------------------------------------------------- simulate


def test_simulate_prints_its_interval(capsys):
    pytest.importorskip("rummykit.odds.dealt.simulate")
    argv = ("simulate", "--contract", "1", "--decks", "2", "--jokers", "4", "--cards", "10")
    argv += ("--n", "20000", "--seed", "3")
    status, out, _ = run(capsys, *argv)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].endswith("simulated, n = 20,000, seed 3")
    # In rummykit.chance's words: the estimate with its interval, then its standard error.
    assert re.fullmatch(r"P: about \d+(\.\d+)?% \(95%: \d+(\.\d+)?% to \d+(\.\d+)?%\)", lines[1])
    assert re.fullmatch(
        r"  95% interval by Wilson's score; standard error \d\.\d+ percentage points", lines[2]
    )
    assert len(lines) == 3
    _, again, _ = run(capsys, *argv)
    assert again == out


# --------------------------------------------------------------------------- tables


def read_provenance(path: Path) -> dict:
    provenance = json.loads(path.read_text())
    provenance.pop("run_time_seconds")
    provenance.pop("run")  # the time and the workers of the whole run
    provenance.pop("cpu_seconds", None)  # the CPU time of the units (ladder, SearchBot)
    return provenance


@pytest.mark.slow
def test_tables_quick_writes_parquet_csv_and_provenance(tmp_path, capsys):
    first, second = tmp_path / "one", tmp_path / "two"
    assert main(["tables", "--quick", "--out", str(first), "--no-progress"]) == 0
    assert main(["tables", "--quick", "--out", str(second), "--workers", "1", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert f"wrote {3 * len(SCHEMAS)} files" in err
    for name, schema in SCHEMAS.items():
        table = pl.read_parquet(first / f"{name}.parquet")
        assert dict(table.schema) == schema, name
        assert table.height > 0
        assert pl.read_csv(first / f"{name}.csv", schema=schema).equals(table), name
        provenance = json.loads((first / f"{name}.json").read_text())
        assert provenance["command"] == "rummykit tables --seed 2026 --quick"
        assert provenance["rows"] == table.height
        assert provenance["rummykit_version"] == "0.1.0"
        assert list(provenance["schema"]) == list(schema)
        assert isinstance(provenance["run_time_seconds"], float)
        # Deterministic: the same bytes whatever the number of workers.
        for ext in ("parquet", "csv"):
            assert (first / f"{name}.{ext}").read_bytes() == (second / f"{name}.{ext}").read_bytes()
        assert read_provenance(first / f"{name}.json") == read_provenance(second / f"{name}.json")


def test_tables_engine_plays_the_same_rounds(tmp_path, capsys):
    # --engine plays every round with the engine's bots, the default the compiled
    # simulator where it is built: the same tables, byte for byte; the run says which.
    simulated = [
        "completion_by_turn",
        "completion_summary",
        "seat_position",
        "buying_value",
        "outs_bot",
    ]
    quick = ["tables", "--quick", "--only", *simulated, "--workers", "1", "--no-progress"]
    fast, engine = tmp_path / "fast", tmp_path / "engine"
    assert main([*quick, "--out", str(fast)]) == 0
    assert main([*quick, "--engine", "--out", str(engine)]) == 0
    for name in simulated:
        for ext in ("parquet", "csv"):
            assert (fast / f"{name}.{ext}").read_bytes() == (engine / f"{name}.{ext}").read_bytes()
        played = json.loads((engine / f"{name}.json").read_text())["run"]["rounds_played_by"]
        assert played == "the engine and its bots (completion.play_rounds)"
    expected = "the compiled simulator" if _native.available()["table"] else "the engine"
    run = json.loads((fast / "buying_value.json").read_text())["run"]
    assert run["rounds_played_by"].startswith(expected)


def test_tables_only_and_n(tmp_path, capsys):
    out = tmp_path / "data"
    main(
        [
            "tables",
            "--quick",
            "--only",
            "exact_odds",
            "--n",
            "2",
            "--out",
            str(out),
            "--no-progress",
            "--workers",
            "1",
        ]
    )
    assert sorted(p.name for p in out.iterdir()) == [
        "exact_odds.csv",
        "exact_odds.json",
        "exact_odds.parquet",
    ]
    assert json.loads((out / "exact_odds.json").read_text())["command"] == (
        "rummykit tables --seed 2026 --quick --n 2"
    )


# --------------------------------------------------------------------------- processes


def test_command_through_a_subprocess():
    command = [sys.executable, "-m", "rummykit.cli"]
    good = subprocess.run(
        [
            *command,
            "odds",
            "--contract",
            "1",
            "--decks",
            "2",
            "--jokers",
            "4",
            "--cards",
            "10",
            "--rules",
            "standard",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert good.returncode == 0, good.stderr
    assert good.stdout.splitlines()[0].startswith("standard, round 1 contract (2 sets)")
    assert "  = 8.9% (1 in 11)" in good.stdout
    bad = subprocess.run(
        [*command, "odds", "--contract", "2", "--rules", "vegas"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2
    assert "unknown preset 'vegas'" in bad.stderr


def test_the_pipeline_lives_in_the_odds_package_only():
    import rummykit.cli as cli
    from rummykit.odds import cells, pipeline

    # One home: the command line offers none of the pipeline's names (no second way in).
    for name in ("DATA_SEED", "DESCRIPTIONS", "RECIPES", "Recipe", "build_tables", "write_tables"):
        assert hasattr(pipeline, name)
        assert name not in cli.__all__
        with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
            getattr(cli, name)
    # One default seed: the committed data's is the odds package's.
    assert pipeline.DATA_SEED is cells.DEFAULT_SEED


# -- rummykit review ---------------------------------------------------------------


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory):
    from rummykit.agents.bots import GreedyBot, RandomBot
    from rummykit.engine.game import Game

    state = Game("standard", players=3, seed=4, turn_limit=30).new_state()
    bots = [RandomBot(seed=1), GreedyBot(), GreedyBot()]
    while not state.round_scores:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(state.save(), encoding="utf-8")
    return path


def test_review_prints_each_decision_and_writes_a_page(capsys, saved_game, tmp_path):
    from rummykit.evaluate.reviews import review

    page = tmp_path / "review.html"
    argv = ["review", str(saved_game), "--seat", "0", "--budget", "4", "--html", str(page)]
    code, out, _ = run(capsys, *argv)
    expected = review(saved_game.read_text(encoding="utf-8"), 0, budget=4, seed=0)
    assert code == 0
    assert out.splitlines()[0] == str(expected).splitlines()[0]
    assert sum(line.startswith("round ") for line in out.splitlines()) == len(expected.verdicts)
    story = expected.story(1)
    assert story.summary() in out  # each finished round's story, in words
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and expected.verdicts[0].sentence[:20] in text
    assert "<h2>Round 1</h2>" in text and story.chart().svg() in text
    assert not (tmp_path / "review.html.partial").exists()


def test_review_counts_the_mistakes_by_decision_type(capsys, saved_game, tmp_path):
    from rummykit.evaluate.reviews import review

    page = tmp_path / "review.html"
    argv = ["review", str(saved_game), "--seat", "0", "--budget", "2", "--html", str(page)]
    code, out, _ = run(capsys, *argv)
    table = review(saved_game.read_text(encoding="utf-8"), 0, budget=2).mistakes_by_type()
    assert code == 0 and str(table) in out
    assert "Accuracy beside the bots" not in out  # only with --beside: it costs more
    text = page.read_text(encoding="utf-8")
    assert "<h2>Mistakes by decision type</h2>" + table._repr_html_() in text
    assert "Beside the bots" not in text


@pytest.mark.slow
def test_review_beside_sets_the_seat_beside_the_bots(capsys, saved_game, tmp_path):
    from rummykit.evaluate.beside import DEFAULT_BOTS, beside_bots
    from rummykit.evaluate.reviews import review

    page = tmp_path / "review.html"
    argv = ["review", str(saved_game), "--seat", "0", "--budget", "2", "--beside"]
    code, out, _ = run(capsys, *argv, "--html", str(page))
    save = saved_game.read_text(encoding="utf-8")
    expected = beside_bots(save, 0, budget=2, own=review(save, 0, budget=2))
    assert code == 0 and str(expected) in out
    assert [p.player for p in expected.players] == ["Ann", *DEFAULT_BOTS]
    # After the review's summary, before the mistakes by type and every decision.
    assert out.index("Accuracy beside the bots") < out.index("Mistakes by decision type")
    text = page.read_text(encoding="utf-8")
    assert "<h2>Beside the bots</h2>" + expected._repr_html_() in text


def test_review_beside_refuses_a_bad_seat_before_any_replay(capsys, saved_game):
    err = fails(capsys, "review", str(saved_game), "--seat", "4", "--beside")
    assert "seat must be a seat 0..2, got 4" in err


def test_review_refuses_a_missing_save_a_bad_seat_and_an_unwritable_page(
    capsys, saved_game, tmp_path
):
    assert "SAVE: cannot read" in fails(
        capsys, "review", str(tmp_path / "none.json"), "--seat", "0"
    )
    assert "seat must be a seat 0..2, got 7" in fails(
        capsys, "review", str(saved_game), "--seat", "7"
    )
    assert "--budget: must be from 1" in fails(
        capsys, "review", str(saved_game), "--seat", "0", "--budget", "0"
    )
    out = tmp_path / "missing-folder" / "page.html"
    err = fails(
        capsys, "review", str(saved_game), "--seat", "0", "--budget", "1", "--html", str(out)
    )
    assert "--html: cannot write" in err
    assert not out.parent.exists()


def test_review_round_is_the_rounds_number_in_a_game_started_later(capsys, tmp_path):
    """Issue 48 item 6: a game begun at round 3 reviews --round 3, refuses --round 1 by
    the rounds it played, and a review with nothing to judge claims no accuracy."""
    from rummykit.agents.bots import GreedyBot, RandomBot
    from rummykit.engine.game import Game

    state = Game("standard", players=3, seed=5, turn_limit=30).new_state(round=3)
    bots = [RandomBot(seed=2), GreedyBot(), GreedyBot()]
    while not state.round_scores:
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    path = tmp_path / "late.json"
    path.write_text(state.save(), encoding="utf-8")
    code, out, _ = run(capsys, "review", str(path), "--seat", "0", "--budget", "2", "--round", "3")
    assert code == 0 and "decisions, accuracy" in out.splitlines()[0]
    lines = [line for line in out.splitlines() if line.startswith("round ")]
    assert lines and all(line.split()[1] == "3" for line in lines)
    err = fails(capsys, "review", str(path), "--seat", "0", "--round", "1")
    assert "round must be the number of a round this game played (3..4), got 1" in err


def test_a_review_with_no_decision_claims_no_accuracy():
    from rummykit.evaluate.reviews import Review

    empty = Review(seat=0, name="Ann", budget=4, seed=0, verdicts=())
    assert empty.accuracy is None and "no accuracy" in str(empty)
    assert "100" not in str(empty)


def test_a_count_may_be_written_as_the_help_prints_it(capsys):
    # Issue 50 item 14: --help prints defaults with thousands separators ("2,000").
    assert main(["simulate", "--contract", "1", "--n", "2,000", "--seed", "1"]) == 0
    with_commas = capsys.readouterr().out
    assert main(["simulate", "--contract", "1", "--n", "2000", "--seed", "1"]) == 0
    assert capsys.readouterr().out == with_commas and "n = 2,000" in with_commas
    with pytest.raises(SystemExit):
        main(["simulate", "--contract", "1", "--n", "2,00"])
    assert "'2,00' is not a whole number" in capsys.readouterr().err


def test_ctrl_c_stops_a_command_in_one_line(capsys, monkeypatch):
    # Issue 50 item 14: Ctrl-C printed a traceback where SIGTERM prints one line.
    import rummykit.cli as cli

    def interrupted(args, parser):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_simulate", interrupted)
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--contract", "1"])
    assert stop.value.code == cli.INTERRUPTED_STATUS == 130
    err = capsys.readouterr().err
    assert err == "rummykit simulate: stopped by Ctrl-C, its worker processes with it\n"


def test_an_argument_the_command_does_not_take_is_refused_with_its_usage(capsys):
    # Issue 50 item 14: `simulate --players 4` printed the top level's usage.
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--contract", "1", "--players", "4"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "usage: rummykit simulate" in err
    assert "rummykit simulate: error: unrecognized arguments: --players 4" in err
    with pytest.raises(SystemExit):
        main(["odds", "--contract", "1", "--checkpoint", "x"])
    err = capsys.readouterr().err
    assert "usage: rummykit odds" in err
    assert "(--checkpoint is an option of rummykit tables)" in err
