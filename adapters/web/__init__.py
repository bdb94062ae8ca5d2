"""egmem's read-only decision-history web view (stdlib HTTP server, no scripts).

``serve_web(eg, host=, port=, token=)`` runs it; ``make_server`` / ``make_handler`` build it
without serving (tests bind port 0). Pages: ``/`` spaces and channels, ``/channel`` a
channel's states, ``/state`` one state's timeline, ``/ask`` a cited answer. It is an operator
view: it reads every channel, private ones included.
"""

from adapters.web.server import is_loopback, make_handler, make_server, serve_web

__all__ = ["is_loopback", "make_handler", "make_server", "serve_web"]
