"""Where the seconds from a live notebook's start button to its widget go (issue 31, item 3).

Serves a built book (``book/_build/html`` unless given) on 127.0.0.1, opens chapter 1 in
headless Chromium (every request to another host aborted and listed), presses the "build
a meld" start button and prints, in seconds after the press, when the app, Pyodide's
core, its standard library and each wheel were requested and answered, and when the
page's status line said the cells had run::

    .venv/bin/python benchmarks/bench_lite_startup.py [HTML_DIR] [--runs N] [--notebook NAME]

Each run uses a fresh browser context (nothing cached between runs). ``--notebook all``
presses each of the five live notebooks' buttons in turn; the last line gives the range
of every run against the goal. The "(the kernel ready ...)" line of a run is when the
page's status line said the cells were starting.

Measured 2026-12-04 (session 19) with ``--runs 2 --notebook all`` on the book built at
this commit, the machine idle before the runs: every widget ready 7.7-9.5 s after the
press (deal 8.5-8.9, meld 8.4-9.5, odds 9.2-9.4, play 7.8-8.0, simulation 7.7-8.7);
with two busy loops on the two cores, deal 10.1-10.7 s and odds 10.8 s. Where a meld run
of 8.5 s goes: 3.8-4.2 s until the app asks for ``pyodide.mjs`` (JupyterLite's scripts
and plugins), 3.5-4.1 s more until the kernel is ready (the WebAssembly, 21 wheels
loaded with Pyodide, the kernel's imports), then about 1 s for the notebook's cells and
the widget drawn. What took it from 13.7-15.6 s (measured again at the session's
start) to there, each change measured on meld (book/_ext/live_book.py):

- every module compiled to bytecode at build time by Pyodide's own Python in Node
  (book/_ext/lite_bytecode.py), the standard library's included: nothing is compiled in
  the browser any more (10.4-11.5 s; in Node, ``import IPython`` went from 4.1 s to
  0.5 s and Pyodide's own start from 3.4 s to 1.2 s);
- micropip, piplite and jedi loaded with Pyodide, with the others, instead of one after
  the other by the kernel afterwards (8.5-11.0 s);
- only the two front-end extensions the notebooks use, and the page's steps polled every
  50 ms instead of 250 ms (9.1-9.7 s);
- jedi without typeshed's stubs of 198 PyPI packages and Django's (918 of its 5,710 files left):
  unpacking it had been 1.25 s of the 1.81 s Pyodide took to load the 21 wheels in Node
  (8.7-9.1 s on meld; every notebook 7.7-9.5 s).

Tried and left out: blocking JupyterLite's service worker (one meld run each way: 7.5 s
blocked, 8.2 s allowed, within the runs' spread) and disabling 14 of the app's plugins that an embedded notebook
does not use (help, console, table of contents, LSP, Vega, MathJax and others: the app's
part 3.5-3.9 s against 3.8-3.9 s, within the spread, for features a reader might miss).

Earlier measurements, before the changes above:

Measured 2026-12-02 on the book built from main at 8fce705 (two shared cores, load
about 1.5; then with two busy loops, load 3.3): the widget ready 11.9-12.6 s after the
press idle, 12.4 s under load. Where it goes: 3.7 s until the app in the frame asks for
``pyodide.mjs`` (JupyterLite's own scripts and settings); 3.0 s fetching and compiling
``pyodide.asm.wasm`` (the 21 wheels are fetched meanwhile, all in by 7 s, jedi the
largest at 4.9 MB); 1.3 s loading micropip then piplite, one after the other, after the
wheels; 3.7 s from piplite to the cells having run (the kernel's imports of IPython,
ipykernel and ipywidgets, then the notebook's own cells and the widget drawn). On the
book built from s14-lite with the machine shared (load average 6.7-8.3) the same steps
took 18.1-21.3 s: 5 s to ``pyodide.mjs``, 4.3 s for the wasm, 11.3-13 s to piplite, the
rest the kernel's imports and the cells. The 17-18 s seen before is this load, not the
site.

Measured 2026-12-03 on the book with the five live notebooks (load average 0.0 at the
start, two runs each, ``--notebook``): meld 13.1-16.1 s, odds 13.0-14.1 s, simulation
15.1-15.3 s. Of a meld run of 16.1 s: 4.3 s to ``pyodide.mjs``, the wasm in at 8.1 s
and the wheels at 8.5 s, micropip at 9.8 s and piplite at 10.5 s, the kernel's imports
and the cells the last 5.6 s. The same run with every request of the lite site fetched
into the page's cache before the press took as long (15.8 s against 15.7 s cold): the
time is the browser's work (the app's scripts, the WebAssembly, Python's imports
compiled from source), not the transfers, so prefetching would not reach 10 s
(``--warm`` repeats each run so).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import itertools
import os
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import CHROMIUM_ARGS  # noqa: E402

#: Each live notebook: (its page, its start button's label).
PAGES = {
    "meld": ("01_learn_the_rules", "Start the live notebook: build a meld"),
    "deal": ("01_learn_the_rules", "Start the live notebook: deal and read your odds"),
    "simulation": ("02_counting_hands", "Start the live notebook: deal and watch the estimate"),
    "odds": ("03_contract_odds", "Start the live notebook: explore the odds"),
    "play": ("play", "Start the live notebook: play a round against two bots"),
}
READY = "Python is running in your browser: the notebook's cells have run."
#: Requests worth naming in the timeline (the rest are summed).
MILESTONES = ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def run_once(
    browser, url: str, notebook: str = "meld", warm: list[str] | None = None
) -> tuple[float, list[tuple[float, float, str]], list[str], list[str]]:
    """One press of the start button in a fresh context; with ``warm`` (addresses), each
    is fetched into the page's cache first, as a page that prefetched them would. Returns
    the seconds to the widget, the timeline, the blocked requests and every address asked."""
    blocked: list[str] = []
    events: dict[str, list[float]] = {}
    context = browser.new_context()

    def route(route) -> None:
        host = urlsplit(route.request.url).hostname
        if host in ("127.0.0.1", None) or route.request.url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    page = context.new_page()
    chapter, button = PAGES[notebook]
    page.goto(f"{url}/notebooks/{chapter}.html")
    page.wait_for_load_state("networkidle")
    if warm:
        page.evaluate(
            "urls => Promise.all(urls.map(u => fetch(u).then(r => r.arrayBuffer())))", warm
        )
    page.evaluate(
        """() => {
          window.__rkPressed = performance.now();
          for (const status of document.querySelectorAll('.rk-live-status')) {
            new MutationObserver(() => {
              if (window.__rkRunning === undefined && status.textContent.startsWith('Running')) {
                window.__rkRunning = performance.now();
              }
            }).observe(status, {childList: true, characterData: true, subtree: true});
          }
        }"""
    )
    started = time.monotonic()
    context.on("request", lambda r: events.setdefault(r.url, [time.monotonic() - started]))
    context.on(
        "requestfinished",
        lambda r: events.get(r.url, [0.0]).append(time.monotonic() - started),
    )
    page.get_by_text(button).click()
    page.get_by_text(READY).wait_for(timeout=240_000)
    ready = time.monotonic() - started
    # When the status line first said the cells were running: the kernel was ready then.
    running = page.evaluate(
        """() => window.__rkRunning === undefined ? null
                 : (window.__rkRunning - window.__rkPressed) / 1000"""
    )
    if running is not None:
        events["(the kernel ready: the cells start)"] = [running, running]
    context.close()
    rows = sorted(
        (times[0], times[-1], urlsplit(address).path.rsplit("/", 1)[-1])
        for address, times in events.items()
    )
    return ready, rows, blocked, list(events)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", nargs="?", default=str(ROOT / "book" / "_build" / "html"))
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument(
        "--notebook", choices=[*sorted(PAGES), "all"], default="meld", help="all: each in turn"
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="after each cold run, a run with every request of the lite site cached first",
    )
    args = parser.parse_args()
    if not (Path(args.html) / "lite").is_dir():
        raise SystemExit(
            f"no built book with its live notebooks at {args.html}: run make book first"
        )
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Quiet, directory=args.html)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        notebooks = sorted(PAGES) if args.notebook == "all" else [args.notebook]
        seconds = []
        for notebook, run in itertools.product(notebooks, range(args.runs)):
            ready, rows, blocked, addresses = run_once(browser, url, notebook)
            seconds.append(ready)
            print(f"run {run + 1} ({notebook}): widget ready {ready:.1f} s after the start button")
            if args.warm:
                lite = [address for address in addresses if "/lite/" in address]
                warm = run_once(browser, url, notebook, warm=lite)[0]
                print(f"  warm: widget ready {warm:.1f} s, {len(lite)} addresses cached first")
            wheels = [row for row in rows if row[2].endswith(".whl")]
            for first, last, name in rows:
                if name in MILESTONES or name.endswith(".whl") or name.startswith("("):
                    print(f"  {first:6.2f} -> {last:6.2f}  {name}")
            if wheels:
                print(
                    f"  wheels: {len(wheels)}, first asked {wheels[0][0]:.2f} s, "
                    f"last answered {max(w[1] for w in wheels):.2f} s"
                )
            print(f"  {len(rows)} requests, {len(blocked)} blocked")
        browser.close()
    print(
        f"lite startup: {', '.join(notebooks)}, {len(seconds)} runs: widget ready "
        f"{min(seconds):.1f}-{max(seconds):.1f} s after the start button "
        f"(goal: at most 10 s idle, 40 s under load; load average {os.getloadavg()[0]:.1f})"
    )
    server.shutdown()


if __name__ == "__main__":
    main()
