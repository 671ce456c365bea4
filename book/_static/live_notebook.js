/* The book's live notebooks (jupyterlite-sphinx's notebooklite directive), made easy to enter.
 *
 * - The start button is a real button (keyboard: Tab, then Enter or Space).
 * - A status line says "Starting Python in your browser..." until the notebook's cells
 *   have run, and says so if they never do.
 * - The cells run by themselves once the kernel is ready: Run All Cells pressed while the
 *   kernel starts does nothing, and the reader need not find it. A widget shown while the
 *   page still wires the kernel's connection can miss it ("Error displaying widget"): the
 *   cells then run again, a few times at most.
 * - The frame grows to the notebook's height, so that the notebook never scrolls inside
 *   its frame (a widget redrawn on every turn made it jump), and "Full screen" gives it
 *   the whole window.
 *
 * It reaches the JupyterLite app in the frame (same origin) as window.jupyterapp, which
 * book/live/jupyter-lite.json exposes (exposeAppInBrowser). Plain script, no library, no
 * network: the book is offline (book/_ext/offline_book.py).
 */
"use strict";

(() => {
  /** Short: each step of a start waits for the one before by polling. */
  const POLL_MS = 50;
  /** Far above a cold start on a loaded machine (under 10 s idle, some 20 s under load). */
  const GIVE_UP_MS = 300000;
  /** How long a run's widgets may take to draw before the run counts as failed. */
  const DRAW_MS = 15000;
  const RUNS = 4;
  const SAY = {
    starting:
      "Starting Python in your browser\u2026 (about ten seconds, longer on a busy computer; " +
      "the cells then run by themselves)",
    running: "Running the notebook's cells\u2026",
    ready: "Python is running in your browser: the notebook's cells have run.",
    failed:
      "The notebook's cells did not run: choose Run \u25b8 Run All Cells in it, " +
      "or reload the page.",
  };

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /** The first truthy value of get(), polled; an error after `ms`. */
  async function until(get, what, ms = GIVE_UP_MS) {
    const deadline = Date.now() + ms;
    for (;;) {
      let value;
      try {
        value = get();
      } catch (error) {
        value = undefined; // the frame is still loading
      }
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`no ${what} after ${ms / 1000} s`);
      await sleep(POLL_MS);
    }
  }

  /** "shown" once every code cell's output holds a widget, "error" if one failed to draw. */
  function widgetState(doc) {
    const cells = [...doc.querySelectorAll(".jp-Notebook .jp-CodeCell")];
    if (cells.some((cell) => cell.textContent.includes("Error displaying widget"))) {
      return "error";
    }
    const drawn = cells.every((cell) =>
      cell.querySelector(".jp-OutputArea-output .jupyter-widgets"),
    );
    return cells.length && drawn ? "shown" : null;
  }

  /** Grow the frame to the notebook's height (never shrink it: no flicker while it redraws). */
  function fitFrame(container, iframe, minimum) {
    const doc = iframe.contentDocument;
    const outer = doc && doc.querySelector(".jp-NotebookPanel .jp-WindowedPanel-outer");
    const inner = outer && outer.querySelector(".jp-WindowedPanel-inner");
    if (!inner) return false;
    const chrome = doc.documentElement.clientHeight - outer.clientHeight;
    const wanted = Math.ceil(chrome + inner.scrollHeight + 24);
    const now = container.getBoundingClientRect().height;
    if (wanted > now + 4 || !container.style.getPropertyValue("--rk-live-height")) {
      container.style.setProperty("--rk-live-height", `${Math.max(minimum, wanted)}px`);
    }
    return true;
  }

  async function runWhenReady(wrapper, container, status, minimum) {
    const iframe = await until(
      () => container.querySelector("iframe.jupyterlite_sphinx_iframe"),
      "frame",
    );
    const app = await until(() => iframe.contentWindow.jupyterapp, "JupyterLite app");
    await app.restored;
    const panel = await until(() => {
      const widget = app.shell.currentWidget;
      return widget && widget.sessionContext && widget.content ? widget : null;
    }, "notebook");
    await panel.context.ready;
    await panel.sessionContext.ready;
    const kernel = await until(() => panel.sessionContext.session?.kernel, "kernel");
    await kernel.info;
    await until(
      () => kernel.connectionStatus === "connected" && kernel.status === "idle",
      "idle kernel",
    );
    const doc = iframe.contentDocument;
    const resize = new ResizeObserver(() => fitFrame(container, iframe, minimum));
    for (let run = 1; run <= RUNS; run += 1) {
      status.textContent = SAY.running;
      await app.commands.execute("notebook:run-all-cells");
      let state = null;
      try {
        state = await until(() => widgetState(doc), "widget", DRAW_MS);
      } catch (error) {
        state = null;
      }
      if (state === "shown") {
        status.textContent = SAY.ready;
        wrapper.classList.add("rk-live-ready");
        fitFrame(container, iframe, minimum);
        const inner = doc.querySelector(".jp-NotebookPanel .jp-WindowedPanel-inner");
        if (inner) resize.observe(inner);
        return;
      }
    }
    throw new Error("the widgets were not shown");
  }

  function start(wrapper, container, status, minimum) {
    if (wrapper.classList.contains("rk-live-started")) return;
    wrapper.classList.add("rk-live-started");
    status.textContent = SAY.starting;
    runWhenReady(wrapper, container, status, minimum).catch((error) => {
      status.textContent = SAY.failed;
      wrapper.classList.add("rk-live-failed");
      console.warn("rummykit live notebook:", error);
    });
  }

  function enhance(container) {
    const button = container.querySelector(".jupyterlite_sphinx_try_it_button");
    if (!button || container.closest(".rk-live")) return;
    // The directive's :height: is the least height; the frame grows from there.
    const minimum = parseInt(container.style.height, 10) || 680;
    container.style.removeProperty("height");

    const wrapper = document.createElement("div");
    wrapper.className = "rk-live";
    const bar = document.createElement("div");
    bar.className = "rk-live-bar";
    const status = document.createElement("span");
    status.className = "rk-live-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    const full = document.createElement("button");
    full.type = "button";
    full.className = "rk-live-fullscreen";
    full.textContent = "Full screen";
    full.title = "Give the notebook the whole window (Esc comes back)";
    full.addEventListener("click", () => {
      if (document.fullscreenElement) document.exitFullscreen();
      else if (wrapper.requestFullscreen) wrapper.requestFullscreen();
    });
    bar.append(status, full);
    container.before(wrapper);
    wrapper.append(bar, container);

    button.setAttribute("role", "button");
    button.tabIndex = 0;
    button.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        container.click();
      }
    });
    // The directive's own onclick on the container makes the frame; this runs after it.
    container.addEventListener("click", () => start(wrapper, container, status, minimum));
  }

  function enhanceAll() {
    document.querySelectorAll(".jupyterlite_sphinx_iframe_container").forEach(enhance);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", enhanceAll);
  } else {
    enhanceAll();
  }
})();
