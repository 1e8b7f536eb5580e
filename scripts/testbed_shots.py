#!/usr/bin/env python3
"""Reference images of the testbed: every scene drawn in headless Chromium (1100 x 700 window,
device pixel ratio 1, the frame readout off) is compared, pixel by pixel, with its committed
reference in testbed/reference/, so a broken drawing fails CI.

    testbed_shots.py URL_BASE            compare; exit 1 on a difference or a missing image
    testbed_shots.py URL_BASE --update   write the references (look at them before committing)

The page's stage (the scene's pixels and its text, as the user sees them) is read out of the
page (`tbStagePixels` in testbed.js), not screenshotted, so the side panel's changing timings
do not enter. A pixel differs when a channel moved by more than TOLERANCE; a scene fails when
more than MAX_SHARE of its pixels differ or the size changed. Differences are written next to
the references' copies in target/testbed/shots/ (the new image and a diff mask) for a look.

References are PNGs written here with every row unfiltered, so reading them is one zlib call.
"""
import base64
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser  # noqa: E402

# name -> query (paused: the scripted steps only)
SHOTS = {
    "pair-box-capsule": "scene=pair&a=box&b=capsule&bx=0.9&by=0.45&ba=0.3",
    "pair-separated": "scene=pair&a=polygon&b=box&bx=2.5&by=0.4&ba=0.7",
    "cast-ray": "scene=cast&mode=ray&x0=-5&y0=3.5&x1=4&y1=-3.5",
    "cast-shape": "scene=cast&mode=shape&shape=capsule&angle=0.4&x0=-5&y0=0.5&x1=5&y1=0.2",
    "toi": "scene=toi",
    "tree": "scene=tree&n=300&seed=5&moves=100&removes=40&qx0=-8&qy0=-5&qx1=6&qy1=4",
    "pyramid": "scene=pyramid&size=10&steps=90&sleep=0&draw=31&pause=1",
    "tumbler": "scene=tumbler&size=20&steps=120&pause=1",
    "tiles": "scene=tiles&steps=300&input=R100,RJ1,R80,L40,LJ1,L60&draw=5&pause=1",
    "gallery": "scene=gallery",
    "bullets": "scene=bullets&steps=30&draw=5&pause=1",
    "sensors": "scene=sensors&steps=200&pause=1",
    "bridge": "scene=bridge&steps=180&draw=37&pause=1",
    "pyramids": "scene=pyramids&size=3&steps=30&pause=1",
    "joints": "scene=joints&size=12&steps=45&pause=1",
    "car": "scene=car&steps=90&input=R90&draw=33&pause=1",
    "ragdoll": "scene=ragdoll&steps=200&draw=33&pause=1",
}
TOLERANCE = 24
MAX_SHARE = 0.0005
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
REFERENCE = os.path.join(ROOT, "testbed", "reference")
OUT = os.path.join(ROOT, "target", "testbed", "shots")


def write_png(path, width, height, rgba):
    """An 8-bit RGBA PNG with unfiltered rows."""
    raw = b"".join(b"\0" + rgba[y * width * 4:(y + 1) * width * 4] for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def read_png(path):
    """(width, height, RGBA bytes) of a PNG written by write_png (unfiltered RGBA rows)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert (depth, ctype) == (8, 6), f"{path}: not 8-bit RGBA"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * 4
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        assert raw[start] == 0, f"{path}: a filtered row (write references with this script)"
        rows.append(raw[start + 1:start + 1 + stride])
    return width, height, b"".join(rows)


def differing(a, b):
    """Indices of the pixels of two equal-sized RGBA buffers whose channels differ by more
    than TOLERANCE (whole buffers compared first: equal ones cost one comparison)."""
    if a == b:
        return []
    out = []
    for i in range(0, len(a), 4):
        if a[i:i + 4] != b[i:i + 4] and max(abs(a[i + k] - b[i + k]) for k in range(3)) > TOLERANCE:
            out.append(i // 4)
    return out


def main():
    base, update = sys.argv[1].rstrip("/"), "--update" in sys.argv[2:]
    os.makedirs(OUT, exist_ok=True)
    if update:
        os.makedirs(REFERENCE, exist_ok=True)
    failed = 0
    for name, query in SHOTS.items():
        b = Browser((1100, 700), 1.0)
        try:
            b.open(f"{base}/?{query}&hud=0")
            status = b.wait_done()
            if status != "done":
                print(f"FAIL {name}: the page did not finish ({status})")
                failed += 1
                continue
            width, height, text = b.evaluate("tbStagePixels()")
        finally:
            b.close()
        pixels = base64.b64decode(text)
        ref = os.path.join(REFERENCE, f"{name}.png")
        if update:
            write_png(ref, width, height, pixels)
            print(f"wrote {ref} ({width} x {height})")
            continue
        if not os.path.exists(ref):
            print(f"FAIL {name}: no reference image {ref} (scripts/testbed_shots.py URL --update)")
            failed += 1
            continue
        rw, rh, want = read_png(ref)
        if (rw, rh) != (width, height):
            print(f"FAIL {name}: {width} x {height}, the reference is {rw} x {rh}")
            failed += 1
            continue
        diff = differing(pixels, want)
        share = len(diff) / (width * height)
        if share > MAX_SHARE:
            write_png(os.path.join(OUT, f"{name}.png"), width, height, pixels)
            mask = bytearray(want)
            for i in diff:
                mask[4 * i:4 * i + 4] = b"\xff\x00\xff\xff"
            write_png(os.path.join(OUT, f"{name}-diff.png"), width, height, bytes(mask))
            print(f"FAIL {name}: {len(diff)} pixels ({100 * share:.2f} %) differ from the reference "
                  f"(new image and diff in {OUT})")
            failed += 1
        else:
            print(f"ok  {name}: {len(diff)} of {width * height} pixels differ (at most {MAX_SHARE:.2%})")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
