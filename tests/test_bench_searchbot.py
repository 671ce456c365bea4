"""benchmarks/bench_searchbot.py: the deals played in parts (``--part K/N --out F``) and
combined (``--combine``) give the issue's line of one process playing every deal; without
an experiment its bot plays as SearchBot; its experiments' doctests (moved there from
tests/test_searchbot.py with the options SearchBot no longer has) pass; a seeing bot
(``--see``, the bound of issue 52 item 1 (a)) rolls out from the true hands."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.agents.bots import GreedyBot, RandomBot
from rummykit.agents.determinize import determinize
from rummykit.agents.searchbot import SearchBot
from rummykit.engine.game import Game
from rummykit.errors import ArgumentError
from rummykit.evaluate.duplicate import compare

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_searchbot.py"
SMALL = ["--deals", "3", "--rounds", "1", "--rollouts", "3", "--seed", "5", "--prior", "outs"]


def without_time(line: str) -> str:
    """The issue's line without its median decision time (which differs from run to run)
    and what follows it."""
    return line.split(", median decision ")[0]


def last_line(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_parts_combine_to_the_whole_run(tmp_path):
    whole = last_line(*SMALL)
    assert whole.startswith("searchbot: went out first ")
    parts = [tmp_path / f"part{k}.json" for k in range(2)]
    for k, path in enumerate(parts):
        last_line(*SMALL, "--part", f"{k}/2", "--out", str(path))
    # The median decision time differs from run to run; every other figure must not.
    assert without_time(last_line("--combine", *map(str, parts))) == without_time(whole)
    summed = last_line("--summary", *map(str, parts))
    assert without_time(summed) == without_time(whole)
    merged = tmp_path / "merged.json"
    last_line("--merge", *map(str, parts[::-1]), "--out", str(merged))
    assert json.loads(merged.read_text())["deals"] == [0, 1, 2]
    assert last_line("--summary", str(merged)) == summed
    assert summed.endswith(", 12 seat-rounds") and whole.endswith(", 12 seat-rounds")
    with pytest.raises(subprocess.CalledProcessError):
        last_line("--combine", str(parts[0]), str(parts[0]))  # a deal twice
    other = tmp_path / "other.json"  # part 1 played with another option
    last_line(*SMALL, "--out-bonus", "60", "--part", "1/2", "--out", str(other))
    with pytest.raises(subprocess.CalledProcessError):
        last_line("--combine", str(parts[0]), str(other))
    with pytest.raises(subprocess.CalledProcessError):
        last_line("--summary", str(parts[0]), str(other))
    # A deal is the same deal whatever the number of deals: a run of the first two and
    # the third deal of a longer run make the whole.
    first, third = tmp_path / "first.json", tmp_path / "third.json"
    last_line(*SMALL, "--deals", "2", "--out", str(first))
    last_line(*SMALL, "--deals", "5", "--part", "2/5", "--out", str(third))
    assert without_time(last_line("--summary", str(first), str(third))) == without_time(whole)


def test_parts_are_compared_by_how_they_were_played():
    """``played_with``: ``deals`` names deals, not play; an option added since a run was
    committed counts at the value that run's play had; any other difference counts."""
    bench = _bench()
    old = {"options": "deals=6 margin=None read=True rounds=7 seed=52"}
    new = {
        "options": "attempts=32 deals=72 margin=None read=True reads=None rounds=7 seed=52 "
        "slip=0.0 sweeps=0 turns=1"
    }
    assert bench.played_with(old) == bench.played_with(new)
    buys = {"options": "deals=6 margin=None read=True reads=['draws', 'buys'] rounds=7 seed=52"}
    assert dict(bench.played_with(buys))["reads"] == "['draws', 'buys']"
    assert bench.played_with(buys) != bench.played_with(old)
    soft = {"options": new["options"].replace("slip=0.0", "slip=0.2")}
    assert bench.played_with(soft) != bench.played_with(new)


@pytest.mark.slow
def test_a_deal_replayed_from_its_seed_reproduces_its_seat_rounds(tmp_path):
    """Every seat-round kept in an ``--out`` file (issue 52 item 4): the deal played again
    from the seed kept with it (``--deal-seeds``) gives the same records, and the same
    number of decisions in each SearchBot seat-round."""
    kept, again = tmp_path / "kept.json", tmp_path / "again.json"
    last_line(*SMALL, "--rounds", "2", "--out", str(kept))
    rows = json.loads(kept.read_text())["seat_rounds"]
    assert len(rows) == 3 * 2 * 8  # 3 deals: the baseline's 4 seats and SearchBot's 4, 2 rounds
    seed = rows[-1]["record"]["deal_seed"]
    last_line(*SMALL, "--rounds", "2", "--deal-seeds", str(seed), "--out", str(again))

    def deal(found, seed):
        return [
            ({**row["record"], "deal": None}, len(row["decisions"]))
            for row in found
            if row["record"]["deal_seed"] == seed
        ]

    replayed = json.loads(again.read_text())["seat_rounds"]
    assert deal(replayed, seed) == deal(rows, seed) and len(deal(rows, seed)) == 16
    assert sum(n for _, n in deal(rows, seed)) > 0


@pytest.mark.slow
def test_without_an_experiment_the_benchmark_plays_as_searchbot():
    """The benchmark weighs and chooses with its own copy of SearchBot's loop (to time the
    rollouts and hold the experiments): at its defaults that copy plays as SearchBot."""
    small = ["--deals", "1", "--rounds", "1", "--rollouts", "3", "--seed", "5"]
    done = subprocess.run(
        [sys.executable, str(BENCH), *small], capture_output=True, text=True, check=True
    )
    result = compare(
        SearchBot(seed=5, rollouts=3), GreedyBot(), deals=1, rules="standard", players=4,
        rounds=1, seed=5,
    )  # fmt: skip
    # The comparison's lines but the first, which names the bots (the benchmark's by its
    # budget only).
    figures = str(result).splitlines()[1:]
    assert figures and "\n".join(figures) in done.stdout


@pytest.mark.slow
def test_the_experiments_doctests_pass():
    """TimedSearchBot's doctests: the prior, the margin and the pool (moved here from
    tests/test_searchbot.py), and its list of candidates against SearchBot's."""
    done = subprocess.run(
        [sys.executable, "-m", "doctest", str(BENCH)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _bench():
    """benchmarks/bench_searchbot.py as a module (it imports its neighbours by name)."""
    sys.path.insert(0, str(BENCH.parent))
    try:
        return importlib.import_module("bench_searchbot")
    finally:
        sys.path.remove(str(BENCH.parent))


def _mid_round(seed: int):
    """A table of ``standard`` at 4 players some turns into round 2, GreedyBots playing."""
    state = Game("standard", players=4, seed=seed).new_state(round=2)
    bots = [GreedyBot() for _ in range(4)]
    for _ in range(25 + seed % 7):
        state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    return state


@pytest.mark.parametrize("seed", range(4))
def test_a_seeing_bots_samples_hold_the_true_hands_and_a_shuffled_stock(seed):
    """``--see`` (issue 52, item 1's bound (a)): every sample a seeing bot rolls out from
    holds the table's true hands and the table's stock cards, reordered; the seat's view of
    it is its own; every candidate of one sample starts from the same state."""
    bench = _bench()
    table = _mid_round(seed)
    view = table.view(table.to_act)
    actions = view.legal_actions()
    branch = bench.seen_branch(view, table)
    orders = set()
    for number in range(5):
        sample = determinize(view, number)
        played = [branch(sample, action) for action in actions]
        start = bench.seen(view, table, sample)
        assert start.view(view.seat) == view
        for seat in range(4):
            if seat != view.seat:
                assert start.hands[seat] == table.hands[seat]
        assert sorted(start.stock) == sorted(table.stock)
        orders.add(tuple(start.stock))
        for action, state in zip(actions, played, strict=True):
            again = start.clone()
            again.apply(action)
            assert state.snapshot() == again.snapshot()
    assert len(orders) == 5  # a fresh shuffle each sample


def test_a_seeing_bot_refuses_a_table_that_is_not_its_views():
    bench = _bench()
    table = _mid_round(1)
    view = table.view(table.to_act)
    bot = bench.TimedSearchBot(3, rollouts=2, see=True)
    with pytest.raises(ArgumentError, match="table"):
        bot.weigh(view, view.legal_actions())  # no table told
    bot.table = _mid_round(2)
    with pytest.raises(ArgumentError, match="table"):
        bot.weigh(view, view.legal_actions())
    bot.table = table
    assert {len(v) for v in bot.weigh(view, view.legal_actions())} == {2}
    with pytest.raises(ArgumentError, match="see, rotate"):
        bench.TimedSearchBot(3, see=True, rotate=True)


@pytest.mark.slow
def test_the_summary_by_round_adds_up_to_the_comparison():
    """``--summary``'s lines by round: each round's seat-rounds, and the rounds' paired
    differences of going out first averaging to the comparison's (a deal's mean over its
    seats, then over deals, is linear)."""
    bench = _bench()
    result = compare(
        RandomBot(), GreedyBot(), deals=3, rules="standard", players=4, rounds=2, seed=2
    )
    lines = bench.by_round(list(result.seat_rounds))
    assert [line.split(":")[0] for line in lines] == ["  round 1", "  round 2"]
    assert all("12 seat-rounds (3 deals)" in line for line in lines)
    differences = [float(line.split("difference ")[1].split(" pp")[0]) for line in lines]
    assert sum(differences) / 2 == pytest.approx(100 * result.went_out.mean, abs=0.06)
    assert any(differences)


def test_a_reading_bot_draws_its_samples_from_the_reading_sampler():
    bench = _bench()
    table = _mid_round(3)
    view = table.view(table.to_act)
    before = list(bench.READS)
    bot = bench.TimedSearchBot(3, rollouts=4, read=True)
    bot.weigh(view, view.legal_actions())
    assert bench.READS[0] == before[0] + 4
    with pytest.raises(ArgumentError, match="see, read"):
        bench.TimedSearchBot(3, see=True, read=True)
    # --read reads the draws, as the committed runs did; --reads and --slip say more.
    assert bot.reading == bench.TimedSearchBot.READING
    assert bot.reading == {"reads": ("draws",), "slip": 0.0, "turns": 1, "sweeps": 0,
                           "attempts": 32}  # fmt: skip
    more = bench.TimedSearchBot(3, rollouts=4, reads=["draws", "buys"], slip=0.25, turns=0)
    assert more.read and more.reading["reads"] == ("draws", "buys")
    assert (more.reading["slip"], more.reading["turns"]) == (0.25, None)
    assert bench.TimedSearchBot(3, sweeps=2).read and not bench.TimedSearchBot(3).read


@pytest.mark.slow
def test_two_runs_compare_seat_round_by_seat_round():
    """``--summary --against``: a run against itself differs by exactly 0; against a
    run of another bot on the same deals, the paired differences average to the
    comparisons' own difference; runs of other deals are refused."""
    bench = _bench()

    def run(bot, seed=2):
        return list(compare(bot, GreedyBot(), deals=3, players=4, rounds=2, seed=seed).seat_rounds)

    random_bot, greedy = run(RandomBot()), run(GreedyBot())
    same = bench.versus(random_bot, random_bot)
    assert all(" difference +0.0 pp [+0.0, +0.0], points a round +0.00 [+0.00, +0.00]" in line
               for line in same)  # fmt: skip
    assert [line.split(":")[0] for line in same] == [
        "  versus, round 1", "  versus, round 2", "  versus, in all"
    ]  # fmt: skip
    # GreedyBot against GreedyBot in its seat is the baseline itself: the difference
    # between two runs is then the first run's own (a mean of the same seat-rounds).
    apart = bench.versus(random_bot, greedy)[-1]
    result = compare(RandomBot(), GreedyBot(), deals=3, players=4, rounds=2, seed=2)
    difference = float(apart.split("difference ")[1].split(" pp")[0])
    assert difference == pytest.approx(100 * result.went_out.mean, abs=0.06)
    with pytest.raises(SystemExit, match="share no seat-round"):
        bench.versus(random_bot, run(RandomBot(), seed=3))


RESULTS = BENCH.parent / "results"


@pytest.mark.slow
def test_the_committed_bounds_give_the_readmes_figures():
    """benchmarks/README.md's bounds (issue 52, item 1) and reading runs (item 3) are what
    ``--summary`` and ``--against`` compute from the seat-rounds committed in
    benchmarks/results/."""
    readme = (BENCH.parent / "README.md").read_text()

    def summary(*names, against=()):
        args = ["--summary", *(str(RESULTS / n) for n in names)]
        if against:
            args += ["--against", *(str(RESULTS / n) for n in against)]
        done = subprocess.run(
            [sys.executable, str(BENCH), *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    seeing = summary(
        "issue52-see-seed52-part0.json",
        "issue52-see-seed52-part1.json",
        against=["issue52-plain-seed52.json"],
    )
    assert "went out first 40.3% [37.3, 43.2]" in seeing and "+79.2 [+66.0, +92.5]" in seeing
    assert seeing.rstrip().endswith("1,008 seat-rounds")
    paired = "392 seat-rounds (14 deals), went out first 41.6% vs 26.8%, difference +14.8 pp"
    assert paired in seeing and "[+7.8, +21.7], points a round +8.98 [+5.08, +12.88]" in seeing
    plain = summary("issue52-plain-seed52.json")
    assert "26.8% [23.4, 30.2]" in plain and "+27.1 [+0.9, +53.4]" in plain
    reading = summary("issue52-read-seed52.json", against=["issue52-plain-seed52.json"])
    assert "29.8% [27.8, 31.7]" in reading and "+56.7 [+13.0, +100.3]" in reading
    assert "difference +6.0 pp [+2.1, +9.8], points a round +4.11 [-2.32, +10.54]" in reading
    # Session 32: reading draws and buys (14 deals), reading draws (8 deals).
    buys = summary("issue52-buys-seed52.json", against=["issue52-plain-seed52.json"])
    assert "26.3% [22.0, 30.5]" in buys and "+39.1 [+12.0, +66.2]" in buys
    assert "difference -0.5 pp [-5.3, +4.3], points a round +1.71 [-2.46, +5.88]" in buys
    assert buys.rstrip().endswith("median decision 0.190 s, 392 seat-rounds")
    draws = summary(
        "issue52-read-seed52.json",
        "issue52-read-seed52-deals6-7.json",
        against=["issue52-plain-seed52.json"],
    )
    assert "30.4% [26.8, 33.9]" in draws and "+51.2 [+15.3, +87.2]" in draws
    assert "difference +4.9 pp [-0.1, +9.9], points a round +2.50 [-2.67, +7.67]" in draws
    both = summary(
        "issue52-buys-seed52.json",
        against=["issue52-read-seed52.json", "issue52-read-seed52-deals6-7.json"],
    )
    assert "difference -4.9 pp [-10.9, +1.0]" in both
    for figure in (
        "26.3% [22.0, 30.5]", "+39.1 [+12.0, +66.2]", "-0.5 pp [-5.3, +4.3]",
        "+1.71 [-2.46, +5.88]", "30.4% [26.8, 33.9]", "+51.2 [+15.3, +87.2]",
        "+4.9 pp [-0.1, +9.9]", "+2.50 [-2.67, +7.67]", "-4.9 pp [-10.9, +1.0]",
        "40.3% [37.3, 43.2]", "+79.2 [+66.0, +92.5]", "26.8% [23.4, 30.2]",
        "+27.1 [+0.9, +53.4]", "29.8% [27.8, 31.7]", "+56.7 [+13.0, +100.3]",
        "+14.8 pp [+7.8, +21.7]", "+8.98 [+5.08, +12.88]", "+6.0 pp [+2.1, +9.8]",
        "+4.11 [-2.32, +10.54]",
    ):  # fmt: skip
        assert figure in readme, figure
