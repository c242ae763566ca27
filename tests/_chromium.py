"""A small DevTools-protocol client for the system's headless chromium, over a pipe (no network,
no extra package): ``--remote-debugging-pipe`` makes chromium read commands from fd 3 and write
answers and events to fd 4, each one JSON message ended by a NUL byte.

    with Browser() as b:
        page = b.open("file:///tmp/report.html")
        page.evaluate("document.title")
        page.click("th[data-col=s0]")
        page.errors        # uncaught exceptions and console errors of the page

Used by the report tests and by ``benchmarks/run.py`` (scenario h).
"""

from __future__ import annotations

import base64
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time

CANDIDATES = ("chromium", "chromium-browser")


def find_chromium() -> str | None:
    """The path of Debian's chromium (or ``$CHROMIUM``), or None."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"]
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


def base_args(exe: str) -> list[str]:
    args = [exe, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check"]
    args += ["--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # chromium refuses to run as root with its sandbox
    return args


def run_cli(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    """Run chromium once with its command-line modes (``--dump-dom``, ``--screenshot``)."""
    exe = find_chromium()
    with tempfile.TemporaryDirectory() as profile:
        cmd = base_args(exe) + [f"--user-data-dir={profile}", *args]
        return subprocess.run(cmd, capture_output=True, timeout=timeout)


class Browser:
    """One headless chromium driven over the DevTools pipe."""

    def __init__(self, width: int = 1280, height: int = 1000, timeout: float = 60):
        exe = find_chromium()
        if exe is None:
            raise RuntimeError("chromium is not installed")
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory()
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        r, w = to_browser_r, from_browser_w

        def fds():  # in the child: the pipe ends at fd 3 (commands in) and fd 4 (messages out)
            hi_r, hi_w = os.dup(r), os.dup(w)
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        cmd = base_args(exe) + [
            "--remote-debugging-pipe",
            f"--user-data-dir={self._profile.name}",
            f"--window-size={width},{height}",
            "about:blank",
        ]
        # close_fds=False: the pipe ends must survive to fd 3 and 4; the other descriptors Python
        # opened are not inheritable and close at exec anyway
        self.proc = subprocess.Popen(
            cmd, preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        os.close(r)
        os.close(w)
        self._next = 0
        self._answers: dict[int, dict] = {}
        self._events: queue.Queue = queue.Queue()
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._answers[-1] = {"closed": True}
                    self._cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg:
                    with self._cond:
                        self._answers[msg["id"]] = msg
                        self._cond.notify_all()
                else:
                    self._events.put(msg)

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        """Send one command and wait for its answer (``RuntimeError`` on a protocol error)."""
        self._next += 1
        msg = {"id": self._next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        with self._cond:
            while self._next not in self._answers:
                if -1 in self._answers:
                    raise RuntimeError("chromium closed the DevTools pipe")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer to {method} in {self.timeout} s")
                self._cond.wait(left)
            answer = self._answers.pop(self._next)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def open(self, url: str) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.navigate(url)
        return page

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        self._profile.cleanup()

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Page:
    """One tab: evaluate JavaScript, click and type through the input domain, take screenshots."""

    def __init__(self, browser: Browser, session: str):
        self.b, self.session = browser, session
        self.errors: list[str] = []
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")

    def send(self, method: str, params: dict | None = None) -> dict:
        result = self.b.send(method, params, self.session)
        self._drain()
        return result

    def _drain(self, wait_for: str | None = None, timeout: float = 0.0) -> bool:
        """Collect the page's errors from the events; True when ``wait_for`` was seen."""
        deadline = time.monotonic() + timeout
        seen = False
        while True:
            left = deadline - time.monotonic()
            try:
                event = (
                    self.b._events.get(timeout=left)
                    if (wait_for and not seen and left > 0)
                    else self.b._events.get_nowait()
                )
            except queue.Empty:
                return seen
            if event.get("sessionId") != self.session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                d = params.get("exceptionDetails", {})
                self.errors.append(d.get("exception", {}).get("description") or d.get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                self.errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params["args"]))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                self.errors.append(params["entry"].get("text", "log error"))
            if method == wait_for:
                seen = True

    def navigate(self, url: str) -> None:
        self.send("Page.navigate", {"url": url})
        if not self._drain("Page.loadEventFired", self.b.timeout):
            raise TimeoutError(f"{url} did not load in {self.b.timeout} s")

    def evaluate(self, expression: str):
        """The value of a JavaScript expression (awaited when it is a promise)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 20.0):
        """Poll until the expression is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"{expression} stayed false for {timeout} s")
            time.sleep(0.05)

    def _center(self, selector: str) -> tuple[float, float]:
        box = self.evaluate(
            f"(function(){{var e=document.querySelector({json.dumps(selector)}); if(!e) return null;"
            "e.scrollIntoView({block:'center'}); var r=e.getBoundingClientRect();"
            "return [r.left + r.width/2, r.top + r.height/2];})()"
        )
        if box is None:
            raise LookupError(f"no element {selector}")
        return box[0], box[1]

    def click(self, selector: str) -> None:
        """A real mouse click (Input.dispatchMouseEvent) at the middle of the element."""
        x, y = self._center(selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def type(self, selector: str, text: str) -> None:
        """Focus the element with a click and type ``text`` (Input.insertText)."""
        self.click(selector)
        self.send("Input.insertText", {"text": text})

    def screenshot(self, path: str, full_page: bool = False) -> None:
        params: dict = {"format": "png"}
        if full_page:
            size = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(data))
