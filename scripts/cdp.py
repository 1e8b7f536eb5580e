#!/usr/bin/env python3
"""Drives headless Chromium over the DevTools protocol on a pipe (no network port, no
third-party package): loads pages in real time (not the virtual time of `--dump-dom`, which
stops the clock that timings read), waits until an element says `done`, and reads elements or
takes screenshots.

    cdp.py [--window W,H] [--scale S] URL ELEMENT_ID...
        loads URL, waits for <div id="status">done</div> (at most 120 s), prints each named
        element's text on its own line as `ID TEXT`.
    cdp.py [--window W,H] [--scale S] --screenshot OUT.png URL
        loads URL, waits for done, saves a PNG of the window.

Chromium is the `CHROMIUM` environment variable, or `chromium` on the PATH.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    """Headless Chromium with `--remote-debugging-pipe`: commands are written to its fd 3 and
    answers read from its fd 4, each message JSON followed by a NUL byte."""

    def __init__(self, window=(1280, 800), scale=1.0):
        self.profile = tempfile.mkdtemp()
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():
            # Through fresh descriptors: either pipe end may already be 3 or 4, and os.pipe's
            # descriptors close on exec unless dup2 makes the copies.
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            sys.exit("cdp.py: chromium is not installed")
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--disable-background-networking", "--hide-scrollbars",
             f"--user-data-dir={self.profile}", f"--window-size={window[0]},{window[1]}",
             f"--force-device-scale-factor={scale}", "--remote-debugging-pipe", "about:blank"],
            close_fds=False, preexec_fn=fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def send(self, method, params=None, session=True):
        """Sends a command and returns its result (raises on a protocol error)."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_child, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self.buffer += chunk
            raw, _, self.buffer = self.buffer.partition(b"\0")
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def open(self, url):
        """Opens `url` in a new page and attaches to it."""
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        self.send("Page.enable")
        self.send("Page.navigate", {"url": url})

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page."""
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return r.get("result", {}).get("value")

    def wait_done(self, timeout=120.0):
        """Waits until <div id="status"> says done (or an error); returns its text."""
        end = time.time() + timeout
        status = None
        while time.time() < end:
            status = self.evaluate("document.getElementById('status')?.textContent ?? ''")
            if status == "done" or (status or "").startswith("error"):
                return status
            time.sleep(0.05)
        return status

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    args = sys.argv[1:]
    window, scale, shot = (1280, 800), 1.0, None
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--window":
            window = tuple(int(v) for v in args.pop(0).split(","))
        elif flag == "--scale":
            scale = float(args.pop(0))
        elif flag == "--screenshot":
            shot = args.pop(0)
        else:
            sys.exit(f"cdp.py: unknown flag {flag}")
    url, ids = args[0], args[1:]
    b = Browser(window, scale)
    try:
        b.open(url)
        status = b.wait_done()
        if status != "done":
            print(f"status {status}")
            sys.exit(1)
        for name in ids:
            text = b.evaluate(f"document.getElementById({json.dumps(name)})?.textContent ?? ''")
            print(name, text)
        if shot:
            data = b.send("Page.captureScreenshot", {"format": "png"})["data"]
            with open(shot, "wb") as f:
                f.write(base64.b64decode(data))
    finally:
        b.close()


if __name__ == "__main__":
    main()
