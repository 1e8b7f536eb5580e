#!/usr/bin/env python3
"""Checks of the testbed that need the clock to run (real time over the DevTools protocol,
scripts/cdp.py), which testbed_check.sh's virtual-time page loads cannot make:

- a long scripted run (`?scene=tumbler&size=100&steps=100000`, minutes of stepping) runs in
  slices: the page shows its progress and keeps drawing, and Cancel stops it, leaving the
  scene where it got to (the page then says so instead of the numbers);
- the tree's 20 000 boxes with 20 000 moves and removals finish within 10 s (they are sliced
  the same way; a removal takes its pick out of the live list in O(1));
- a short script still finishes by itself with the numbers a run at once gives.

    testbed_live.py URL_BASE
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402


def text(b, name):
    return b.evaluate(f"document.getElementById('{name}')?.textContent ?? ''")


def check_cancel(base, query, unit):
    b = Browser((1280, 800), 1.0)
    try:
        b.open(f"{base}/?{query}")
        shown = ""
        end = time.time() + 60
        while time.time() < end:
            shown = text(b, "progress-text")
            visible = b.evaluate("getComputedStyle(document.getElementById('progress')).display") != "none"
            if visible and "Running the script" in shown and not shown.startswith("Running the script: 0 "):
                break
            time.sleep(0.1)
        else:
            return f"no progress shown within 60 s (progress: {shown!r}, status {text(b, 'status')!r})"
        frames0 = b.evaluate("frameTimes.length")
        time.sleep(0.5)
        frames1 = b.evaluate("frameTimes.length")
        b.evaluate("document.getElementById('cancel').click()")
        status = b.wait_done(60)
        result = text(b, "result")
        done = b.evaluate("Array.from(new Float32Array(wasm.memory.buffer, wasm.tb_results(), wasm.tb_results_len()))")
        problems = []
        if status != "done":
            problems.append(f"the page did not finish after Cancel ({status!r})")
        if not result.endswith(" cancelled"):
            problems.append(f"the result does not say cancelled: {result[:80]!r}")
        if frames1 <= frames0:
            problems.append("the page did not draw while the script ran")
        if unit == "steps" and not (0 < done[0] < 100000):
            problems.append(f"the world stepped {done[0]} of 100 000 steps")
        return "; ".join(problems) or None
    finally:
        b.close()


def check_finishes(base, query, within=120.0):
    b = Browser((1280, 800), 1.0)
    try:
        t0 = time.time()
        b.open(f"{base}/?{query}")
        status = b.wait_done(within)
        took = time.time() - t0
        result = text(b, "result")
        if status != "done" or result.endswith("cancelled") or len(result.split()) < 8:
            return f"status {status!r} after {took:.1f} s, result {result[:80]!r}"
        return None
    finally:
        b.close()


def main():
    base = sys.argv[1].rstrip("/")
    checks = [
        ("a 100 000-step tumbler of 10 000 boxes shows progress, keeps drawing and cancels",
         lambda: check_cancel(base, "scene=tumbler&size=100&steps=100000", "steps")),
        ("20 000 tree boxes with 20 000 moves and removals finish within 10 s",
         lambda: check_finishes(base, "scene=tree&n=20000&moves=20000&removes=20000", 10.0)),
        ("a short script finishes by itself",
         lambda: check_finishes(base, "scene=pyramid&size=10&steps=60")),
    ]
    failed = 0
    for what, run in checks:
        problem = run()
        print(f"{'ok ' if problem is None else 'FAIL'} {what}" + ("" if problem is None else f": {problem}"))
        failed += problem is not None
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
