"""Keep the built book offline: no page may load a script or stylesheet from the network.

Jupyter Book 1 always loads sphinx-thebe, which writes the address of its CDN-hosted bundle
into every page even when thebe is switched off. Thebe needs a remote kernel anyway, so this
extension drops sphinx-thebe's scripts from every page, and the widget state myst-nb embeds
in a page that ran widgets: with no widget manager (``nb_ipywidgets_js: {}``) nothing reads
it, and its SVG markup names URLs (``xmlns``). Then it warns (an error under
``--warningiserror``) about any other script or stylesheet that would come from the network,
so that a new extension, MathJax on a page with math, or a widget CDN fails the build instead
of shipping a book that needs the internet.
"""

from __future__ import annotations

import re
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

_REMOTE = re.compile(r"^(https?:)?//", re.IGNORECASE)
_REMOTE_IN_BODY = re.compile(r"https?://", re.IGNORECASE)


def _is_thebe(script: Any) -> bool:
    body = script.attributes.get("body", "")
    return str(script.filename or "").endswith("sphinx-thebe.js") or "THEBE_JS_URL" in body


def _is_widget_state(script: Any) -> bool:
    return script.attributes.get("type") == "application/vnd.jupyter.widget-state+json"


def _check_page(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    # A new list: the builder shares the original one between pages.
    scripts = [
        script
        for script in context.get("script_files", [])
        if not _is_thebe(script) and not _is_widget_state(script)
    ]
    context["script_files"] = scripts
    for script in scripts:
        source = str(script.filename or "")
        if _REMOTE.match(source) or _REMOTE_IN_BODY.search(script.attributes.get("body", "")):
            logger.warning(
                "page %r would load a script from the network (%s); the book must work "
                "offline: serve it from _static or switch the feature off in _config.yml",
                pagename,
                source or "inline script naming a URL",
            )
    for stylesheet in context.get("css_files", []):
        if _REMOTE.match(str(stylesheet.filename)):
            logger.warning(
                "page %r would load a stylesheet from the network (%s); the book must work offline",
                pagename,
                stylesheet.filename,
            )


def setup(app: Sphinx) -> dict[str, Any]:
    # Late priority: run after myst-nb and the theme have added their page assets.
    app.connect("html-page-context", _check_page, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
