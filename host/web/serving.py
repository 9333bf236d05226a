"""Serving the web pages: WebServer runs the app (host/web/routes.py) under uvicorn on a
thread of its own beside the board's link threads, binds its port (a WebError in one line
when it cannot), names the pages' URLs, and stops it; uvicorn logs nothing (QUIET_LOGS),
since `play`'s view owns the terminal."""

from __future__ import annotations

import socket
import threading
from typing import TYPE_CHECKING, Any

from host.web import sockets
from host.web.address import DEFAULT_HOST, DEFAULT_PORT, WebError, lan_address
from host.web.hub import Hub
from host.web.routes import make_app

if TYPE_CHECKING:
    from host.web.sources import Source

QUIET_LOGS = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"null": {"class": "logging.NullHandler"}},
    "loggers": {
        name: {"handlers": ["null"], "propagate": False}
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
    },
}


class WebServer:
    """The app under uvicorn on its own thread: start() binds (raising WebError in one
    line), stop() ends it."""

    def __init__(self, source: Source, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT):
        self.host, self.port = host, port
        self.hub = Hub(source)  # the token the game's journal keeps, or a new one
        self.app = make_app(self.hub)
        self._thread: threading.Thread | None = None
        self._server: Any = None

    @property
    def shown_host(self) -> str:
        """The address the URLs name: bound to every address, this machine's address on
        its network (what a phone scanning the QR code can reach), not 0.0.0.0."""
        if self.host in ("0.0.0.0", "::", ""):
            return lan_address(self.host == "::")
        return self.host

    @property
    def base(self) -> str:
        host = self.shown_host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}"

    @property
    def player_url(self) -> str:
        return self.base + "/"

    @property
    def gm_url(self) -> str:
        return f"{self.base}/gm?token={self.hub.token}"

    def start(self, timeout: float = 10.0) -> WebServer:
        import uvicorn

        from host.web.ws_protocol import PageProtocol

        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        # Named TCP, so that asyncio sets TCP_NODELAY on every connection it accepts (it
        # checks the socket's proto): else a reply right after a view waited for the
        # page's delayed ACK, 40 ms.
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as err:
            sock.close()
            raise WebError(f"--web {self.host}:{self.port}: {err.strerror or err}") from None
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            lifespan="on",
            access_log=False,
            # Nothing on the terminal: play's view (or its full screen) owns it.
            log_config=QUIET_LOGS,
            timeout_graceful_shutdown=2,
            # One view goes to every page: compressing it once per page costs more CPU than
            # the few kilobytes save on a local network.
            ws_per_message_deflate=False,
            ws=PageProtocol,
            ws_max_size=sockets.MAX_MESSAGE,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True, name="web"
        )
        self._thread.start()
        started = threading.Event()

        def wait() -> None:
            import time

            deadline = time.monotonic() + timeout
            while not self._server.started and time.monotonic() < deadline:
                if self._thread is None or not self._thread.is_alive():
                    return
                time.sleep(0.01)
            started.set()

        wait()
        if not self._server.started:
            self.stop()
            raise WebError(f"--web {self.host}:{self.port}: the server did not start")
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
