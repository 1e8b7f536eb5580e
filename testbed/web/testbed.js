// collide2d testbed: loads collide2d_testbed.wasm (plain exported functions; its one import is
// the clock), forwards the pointer, wheel and keys to it, steps world scenes, and puts the
// pixels it draws (testbed/src/raster.rs) on the canvas, with text on an overlay.
//
// A query in the URL (`?scene=pair&a=box&b=capsule&bx=0.9`) loads that scene with those
// parameters and the interaction they script; the numbers the scene reports are written into
// <pre id="result"> as `QUERY HEX…` (each f32 as its bits) and <div id="status"> says `done`,
// which scripts/testbed_check.sh compares with the native run. `pause=1` starts paused.
//
// Camera: the scene's view rectangle (tb_view) is fitted into the canvas at any size and
// aspect; the wheel zooms at the pointer, a drag that grabs nothing (or with the middle or
// right button) pans, F fits again. Canvas pixels are device pixels (devicePixelRatio), so
// lines, points and text keep their CSS size on high-DPI screens. World scenes step 1/60 s per
// tick of a fixed-timestep loop, at most MAX_STEPS per frame.
"use strict";

// A transform's axes in the 2D path: x, y (testbed/src/palette.rs, AXIS_X and AXIS_Y).
const AXIS_COLORS = ["#ffd60a", "#64d2ff"];
const SHAPES = ["circle", "capsule", "box", "rounded", "polygon", "segment"];
const canvas = document.getElementById("canvas");
// The scene is drawn on `canvas` (its 2D context `ctx`); text (labels, the frame readout) goes
// on `overlay`, a 2D canvas over it.
const ctx = canvas.getContext("2d");
const overlay = document.getElementById("overlay");
const octx = overlay.getContext("2d");
const readout = document.getElementById("readout");
let wasm = null;
let paused = false;
let stepTimes = [];
let drawTimes = [];
let frameTimes = [];
let loadMs = 0;
// `hud=0` in the URL leaves the frame readout off the canvas (reference images).
const showHud = new URLSearchParams(location.search).get("hud") !== "0";
let sceneName = "pair";
// The query the page runs: `[key, value]` pairs, decoded; controls edit it and write it back
// into the URL, and Reset loads it again.
let current = [];

// The fixed-timestep loop: one step is DT seconds; a frame runs at most MAX_STEPS of them and
// drops the rest of the time it owes ("behind" shows for BEHIND_MS after that happens).
const DT = 1 / 60;
const MAX_STEPS = 4;
const BEHIND_MS = 500;
let owed = 0;
let lastFrame = null;
let behindUntil = -Infinity;
let stepsLastFrame = 0;
// Set while a `ui=` script runs: the script alone steps the world (Step, `advance`), so what it
// checks does not depend on how many animation frames ran meanwhile.
let scripted = false;

function writeInput(text) {
  const bytes = new TextEncoder().encode(text);
  const ptr = wasm.tb_input(bytes.length);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
}
function floats(ptr, len) {
  return Float32Array.from(new Float32Array(wasm.memory.buffer, ptr, len));
}
function load(query) { writeInput(query); wasm.tb_load_unscripted(); }
function configure(query) { writeInput(query); wasm.tb_configure(); }
function results() { const p = wasm.tb_results(); return floats(p, wasm.tb_results_len()); }
function hex(values) {
  return Array.from(new Uint32Array(Float32Array.from(values).buffer), (u) => u.toString(16).padStart(8, "0"));
}

// ---- camera -------------------------------------------------------------------------------
// The camera: the world point at the canvas centre and the zoom in device pixels per world
// unit. `fitted` keeps the scene's view fitted while the canvas changes size, until the user
// zooms or pans.
let dpr = 1;
let view = [-4, -3, 4, 3];
let cam = { x: 0, y: 0, zoom: 1, fitted: true };
let scale = 1, originX = 0, originY = 0;
// The share of the canvas left around a fitted view.
const FIT_MARGIN = 0.02;

function applyCamera() {
  scale = cam.zoom;
  originX = canvas.width / 2 - cam.zoom * cam.x;
  originY = canvas.height / 2 + cam.zoom * cam.y;
  // The visible world rectangle and the scene's, for scripts/testbed_check.sh.
  const hw = canvas.width / 2 / cam.zoom, hh = canvas.height / 2 / cam.zoom;
  document.getElementById("camera").textContent = [
    cam.x - hw, cam.y - hh, cam.x + hw, cam.y + hh, ...view, canvas.width, canvas.height, dpr,
    canvas.clientWidth, canvas.clientHeight,
  ].join(" ");
}
function fitView() {
  view = Array.from(floats(wasm.tb_view(), 4));
  const w = canvas.width, h = canvas.height;
  cam.zoom = (1 - 2 * FIT_MARGIN) * Math.min(w / (view[2] - view[0]), h / (view[3] - view[1]));
  cam.x = (view[0] + view[2]) / 2;
  cam.y = (view[1] + view[3]) / 2;
  cam.fitted = true;
  applyCamera();
}
// Matches the canvas's pixel size to its CSS size times the device pixel ratio.
function fit() {
  dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
  const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w; canvas.height = h;
    overlay.width = w; overlay.height = h;
    if (cam.fitted) fitView(); else applyCamera();
  }
}
const sx = (x) => originX + scale * x;
const sy = (y) => originY - scale * y;
// A pointer event's position in canvas (device) pixels.
function toPixels(e) {
  const r = canvas.getBoundingClientRect();
  const k = canvas.width / r.width;
  return [(e.clientX - r.left) * k, (e.clientY - r.top) * k];
}
function toWorld(e) {
  const [px, py] = toPixels(e);
  return [(px - originX) / scale, (originY - py) / scale];
}
// Zooms by `factor` keeping the world point under canvas pixel (px, py) where it is.
function zoomAt(px, py, factor) {
  const wx = (px - originX) / scale, wy = (originY - py) / scale;
  cam.zoom = Math.min(1e5, Math.max(1e-3, cam.zoom * factor));
  cam.x = wx - (px - canvas.width / 2) / cam.zoom;
  cam.y = wy + (py - canvas.height / 2) / cam.zoom;
  cam.fitted = false;
  applyCamera();
}
// Moves the view by (dx, dy) canvas pixels (the content follows the pointer).
function panBy(dx, dy) {
  cam.x -= dx / cam.zoom;
  cam.y += dy / cam.zoom;
  cam.fitted = false;
  applyCamera();
}

// ---- painting: the raster -----------------------------------------------------------------
// The scene is drawn into an RGBA buffer in WebAssembly (tb_render; testbed/src/raster.rs:
// antialiased convex polygons, lines and points at their pixel size) and put on the canvas in
// one call: a few milliseconds for thousands of bodies with their contacts, where the
// canvas's own paths cost a call or more per shape.
let raster = true;
function paintRaster() {
  const w = canvas.width, h = canvas.height;
  const p = wasm.tb_render(w, h, originX, originY, scale, dpr);
  if (!p) return;
  ctx.putImageData(new ImageData(new Uint8ClampedArray(wasm.memory.buffer, p, w * h * 4), w, h), 0, 0);
}

// ---- painting: the canvas's paths (with paint=canvas in the URL) ----------------------------
// The draw list (tb_draw; testbed/src/record.rs) painted shape by shape with the 2D canvas's
// own paths: kept to compare with the raster (BENCHMARKS.md).
function rgb(c, k) {
  const r = ((c >> 16) & 255) * k, g = ((c >> 8) & 255) * k, b = (c & 255) * k;
  return `rgb(${r | 0},${g | 0},${b | 0})`;
}
function pathPolygon(d, i, n) {
  ctx.beginPath();
  for (let k = 0; k < n; k++) {
    const x = sx(d[i + 2 * k]), y = sy(d[i + 2 * k + 1]);
    if (k === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
  }
  ctx.closePath();
}
// A rounded outline: the path stroked wide in the outline colour, then a little narrower in
// the fill colour, then filled (so the edge is the shape's offset curve).
function solid(path, radiusPx, color) {
  ctx.lineJoin = "round"; ctx.lineCap = "round";
  path();
  ctx.strokeStyle = rgb(color, 1); ctx.lineWidth = 2 * radiusPx + 2 * dpr; ctx.stroke();
  ctx.strokeStyle = rgb(color, 0.45); ctx.lineWidth = Math.max(0, 2 * radiusPx); 
  if (radiusPx > 0) ctx.stroke();
  ctx.fillStyle = rgb(color, 0.45); ctx.fill();
}
function arrowHead(x1, y1, x2, y2) {
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy);
  if (!(len > 0)) return;
  const size = Math.min(9 * dpr, 0.5 * len), ux = dx / len, uy = dy / len;
  ctx.beginPath();
  ctx.moveTo(x2, y2);
  ctx.lineTo(x2 - size * ux + 0.5 * size * uy, y2 - size * uy - 0.5 * size * ux);
  ctx.lineTo(x2 - size * ux - 0.5 * size * uy, y2 - size * uy + 0.5 * size * ux);
  ctx.closePath();
  ctx.fill();
}
function arrow(x1, y1, x2, y2, style) {
  ctx.strokeStyle = ctx.fillStyle = style;
  ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); ctx.stroke();
  arrowHead(x1, y1, x2, y2);
}
function paint(d) {
  ctx.fillStyle = "#111216";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  let i = 0;
  while (i < d.length) {
    const op = d[i], c = d[i + 1];
    i += 2;
    ctx.lineWidth = 1.5 * dpr;
    switch (op) {
      case 1: { const n = d[i]; pathPolygon(d, i + 1, n); ctx.strokeStyle = rgb(c, 1); ctx.stroke(); i += 1 + 2 * n; break; }
      case 2: { const r = d[i], n = d[i + 1]; solid(() => pathPolygon(d, i + 2, n), r * scale, c); i += 2 + 2 * n; break; }
      case 3: { ctx.beginPath(); ctx.arc(sx(d[i]), sy(d[i + 1]), d[i + 2] * scale, 0, 2 * Math.PI); ctx.strokeStyle = rgb(c, 1); ctx.stroke(); i += 3; break; }
      case 4: {
        const x = sx(d[i]), y = sy(d[i + 1]), r = d[i + 2] * scale;
        ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
        ctx.fillStyle = rgb(c, 0.45); ctx.fill(); ctx.strokeStyle = rgb(c, 1); ctx.stroke();
        ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(sx(d[i + 3]), sy(d[i + 4])); ctx.stroke();
        i += 5; break;
      }
      case 5: {
        const x1 = sx(d[i]), y1 = sy(d[i + 1]), x2 = sx(d[i + 2]), y2 = sy(d[i + 3]), r = d[i + 4] * scale;
        solid(() => { ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); }, r, c);
        i += 5; break;
      }
      case 6: {
        ctx.beginPath(); ctx.moveTo(sx(d[i]), sy(d[i + 1])); ctx.lineTo(sx(d[i + 2]), sy(d[i + 3]));
        ctx.strokeStyle = rgb(c, 1); ctx.stroke(); i += 4; break;
      }
      case 7: {
        const x = d[i], y = d[i + 1], qc = d[i + 2], qs = d[i + 3], k = 0.5;
        arrow(sx(x), sy(y), sx(x + k * qc), sy(y + k * qs), AXIS_COLORS[0]);
        arrow(sx(x), sy(y), sx(x - k * qs), sy(y + k * qc), AXIS_COLORS[1]);
        i += 4; break;
      }
      case 8: {
        const s = d[i + 2] * dpr;
        ctx.fillStyle = rgb(c, 1); ctx.fillRect(sx(d[i]) - s / 2, sy(d[i + 1]) - s / 2, s, s); i += 3; break;
      }
      case 9: arrow(sx(d[i]), sy(d[i + 1]), sx(d[i + 2]), sy(d[i + 3]), rgb(c, 1)); i += 4; break;
      default: return; // unknown op: stop rather than misread the rest
    }
  }
}

// The scene's labels (tb_labels: x, y, code triples; testbed/src/scenes/mod.rs LABEL_*) next
// to their points: names of poses, contact points' feature ids in hex, cast targets' numbers.
const LABELS = ["A", "B", "A t = 0", "A t = 1", "B t = 0", "B t = 1"];
const LABEL_FEATURE = 0x10000, LABEL_TARGET = 0x20000;
function labelText(code) {
  if (code >= LABEL_TARGET) return `#${code - LABEL_TARGET}`;
  if (code >= LABEL_FEATURE) return "id 0x" + (code - LABEL_FEATURE).toString(16).padStart(4, "0");
  return LABELS[code] ?? "?";
}
function paintLabels(d) {
  octx.font = `${13 * dpr}px system-ui, sans-serif`;
  octx.textBaseline = "bottom";
  octx.lineWidth = 3 * dpr;
  octx.strokeStyle = "#111216";
  for (let i = 0; i + 2 < d.length; i += 3) {
    const code = d[i + 2], text = labelText(code);
    // Feature ids sit below and right of their point, names above.
    const below = code >= LABEL_FEATURE && code < LABEL_TARGET;
    const x = sx(d[i]) + 6 * dpr, y = sy(d[i + 1]) + (below ? 18 : -6) * dpr;
    octx.fillStyle = below ? "#ffb3ad" : "#f2f2f2";
    octx.strokeText(text, x, y);
    octx.fillText(text, x, y);
  }
}

// The legend: the palette's colours the last frame drew (tb_legend; testbed/src/palette.rs),
// each with its name, in the side panel.
let legendLines = null;
let legendShown = -1;
let legendDepth = -2;
function updateLegend() {
  if (!raster) return;
  if (!legendLines) {
    const bytes = new Uint8Array(wasm.memory.buffer, wasm.tb_legend_text(), wasm.tb_legend_text_len());
    legendLines = new TextDecoder().decode(bytes).trim().split("\n").map((l) => [l.slice(0, 6), l.slice(7)]);
  }
  const bits = wasm.tb_legend(), depth = wasm.tb_tree_depth();
  if (bits === legendShown && depth === legendDepth) return;
  legendShown = bits;
  legendDepth = depth;
  const box = document.getElementById("legend");
  box.innerHTML = "";
  if (depth >= 0) {
    // The tree's depth colours (testbed/src/palette.rs, depth): root to deepest level.
    const row = document.createElement("div");
    const swatch = document.createElement("span");
    swatch.className = "swatch ramp";
    swatch.style.background = "linear-gradient(90deg, #8e5cff, #3c8cff, #2ec87a, #f2d02e, #ff4f4f)";
    row.appendChild(swatch);
    row.append(`tree depth 0 (root) to ${depth}`);
    box.appendChild(row);
  }
  legendLines.forEach(([hexColor, name], i) => {
    if (!((bits >>> i) & 1)) return;
    const row = document.createElement("div");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = "#" + hexColor;
    row.appendChild(swatch);
    row.append(name);
    box.appendChild(row);
  });
}
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
// Frame rate, frame time, step and draw time, and the World's per-phase profile of its last
// step in the canvas's top-left corner; "behind" when the loop dropped time it could not step.
function paintHud(now) {
  const frameMs = mean(frameTimes);
  const lines = [
    `${frameMs > 0 ? (1000 / frameMs).toFixed(0) : "--"} fps   frame ${frameMs.toFixed(1)} ms`,
  ];
  if (wasm.tb_simulates()) {
    lines.push(`step ${mean(stepTimes).toFixed(2)} ms × ${stepsLastFrame}   draw ${mean(drawTimes).toFixed(2)} ms`);
    // The World's own profile of its last step (World::profile), by phase.
    const p = floats(wasm.tb_profile(), 7);
    lines.push(`pairs ${p[1].toFixed(2)}  narrow ${p[2].toFixed(2)}  solve ${p[3].toFixed(2)}  finalize ${p[4].toFixed(2)}  continuous ${p[5].toFixed(2)}  sleep ${p[6].toFixed(2)} ms`);
  } else {
    lines.push(`draw ${mean(drawTimes).toFixed(2)} ms`);
  }
  if (paused) lines.push("paused");
  const behind = now < behindUntil;
  if (behind) lines.push("behind");
  document.getElementById("hud").textContent = lines.join("\n");
  if (!showHud) return;
  octx.font = `${12 * dpr}px ui-monospace, monospace`;
  octx.textBaseline = "top";
  const pad = 8 * dpr, lh = 16 * dpr;
  octx.fillStyle = "rgba(17,18,22,0.7)";
  octx.fillRect(0, 0, pad * 2 + Math.max(...lines.map((l) => octx.measureText(l).width)), pad + lh * lines.length);
  lines.forEach((l, k) => {
    octx.fillStyle = l === "behind" ? "#f66" : "#cfc";
    octx.fillText(l, pad, pad + k * lh);
  });
}
// Draws the scene (WebGL, or the 2D list) and its text.
function paintScene() {
  if (raster) paintRaster(); else paint(floats(wasm.tb_draw(), wasm.tb_draw_len()));
  updateLegend();
  octx.clearRect(0, 0, overlay.width, overlay.height);
  paintLabels(floats(wasm.tb_labels(), wasm.tb_labels_len()));
}
function paintAll(now) {
  const t0 = performance.now();
  paintScene();
  drawTimes.push(performance.now() - t0);
  if (drawTimes.length > 60) drawTimes.shift();
  paintHud(now);
}

// ---- readouts -----------------------------------------------------------------------------
const f = (v) => (Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(3) : v.toFixed(4));
const idHex = (v) => "0x" + (v >>> 0).toString(16).padStart(4, "0");
const CAST_STATES = ["miss", "hit", "overlapping", "failed", "invalid input"];
const TOI_STATES = ["failed", "overlapped", "hit", "separated", "invalid input"];
function describe(r) {
  switch (sceneName) {
    case "pair": {
      let s = `overlap   ${r[0] ? "yes" : "no"}\npoints    ${r[1]}\nnormal    (${f(r[2])}, ${f(r[3])})\n`;
      for (let k = 0; k < r[1]; k++) {
        const o = 4 + 4 * k;
        s += `point ${k}   (${f(r[o])}, ${f(r[o + 1])}) depth ${f(r[o + 2])} id ${idHex(r[o + 3])}\n`;
      }
      s += `distance  ${f(r[12])}\nclosest A (${f(r[13])}, ${f(r[14])})\nclosest B (${f(r[15])}, ${f(r[16])})`;
      return s;
    }
    case "cast":
      return `${r[0] ? "shape cast" : "ray cast"}\n` + (r[8] ? "input     REFUSED (invalid input)\n" : "") +
        `hit       ${r[1] ? "yes" : "no"}\n` +
        (r[1] ? `target    ${r[2]}\nfraction  ${f(r[3])}\npoint     (${f(r[4])}, ${f(r[5])})\nnormal    (${f(r[6])}, ${f(r[7])})` : "");
    case "toi":
      return `state     ${TOI_STATES[r[0]] ?? r[0]}\nfraction  ${f(r[1])}\niterations ${r[2]}\n` +
        `A at t    (${f(r[3])}, ${f(r[4])}) ${f(r[5])} rad\nB at t    (${f(r[6])}, ${f(r[7])}) ${f(r[8])} rad\ndistance  ${f(r[9])}`;
    case "gallery":
      return `pairs     ${r.length}\npoints    ${Array.from(r).join(" ")}`;
    case "tree":
      return `proxies   ${r[0]}\nheight    ${r[1]}\narea ratio ${f(r[2])}\nquery hits ${r[3]} (brute force ${r[5]})\nvalid     ${r[7] ? "yes" : "NO"}`;
    default: {
      const ms = stepTimes.length ? stepTimes.reduce((a, b) => a + b, 0) / stepTimes.length : 0;
      const hash = [r[4], r[5], r[6], r[7]].map((v) => (v >>> 0).toString(16).padStart(4, "0")).join("");
      const time = stepTimes.length
        ? `${ms.toFixed(3)} ms (mean of last ${stepTimes.length})`
        : `-- (loading and ${r[0]} scripted steps: ${loadMs.toFixed(1)} ms)`;
      let s = `step      ${r[0]}\nstep time ${time}\ndraw time ${mean(drawTimes).toFixed(3)} ms\n` +
        `bodies    ${r[1]}\nawake     ${r[2]}\ncontacts  ${r[3]}\nhash      ${hash}`;
      if (sceneName === "tiles") s += `\ncharacter (${f(r[8])}, ${f(r[9])}) ${r[10] ? "on ground" : "in the air"}`;
      if (sceneName === "bullets") s += `\npast the first wall ${r[16]}`;
      if (sceneName === "sensors") s += `\nsensor events  ${r[17]} begin, ${r[18]} end (${r[17] - r[18]} inside)`;
      if (sceneName === "bridge" || sceneName === "joints" || sceneName === "ragdoll" || sceneName === "car") s += `\nlargest hinge gap ${f(r[19])} m`;
      return s;
    }
  }
}

// ---- the query and the URL ----------------------------------------------------------------
const queryText = (pairs) => pairs.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join("&");
// Escapes only what would change how the query splits or decodes.
const escape = (v) => String(v).replace(/[%&#+\s]/g, encodeURIComponent);
// The page's query string, each parameter decoded on its own: one with a malformed escape (a
// stray `%`, which decodeURIComponent throws on) is left out and named in the side panel's
// note, and the rest run.
function pageQuery() {
  const pairs = [], bad = [];
  for (const part of location.search.replace(/^\?/, "").split("&")) {
    if (!part) continue;
    try {
      const text = decodeURIComponent(part);
      const eq = text.indexOf("=");
      pairs.push(eq < 0 ? [text, null] : [text.slice(0, eq), text.slice(eq + 1)]);
    } catch (_) {
      bad.push(part);
    }
  }
  const note = document.getElementById("note");
  note.textContent = bad.length ? `Ignored in the URL (malformed % escape): ${bad.join(", ")}` : "";
  note.style.display = bad.length ? "" : "none";
  return pairs;
}
// Sets one parameter of the running query (appended if new) and writes the query into the URL.
function setParam(key, value) {
  const at = current.findIndex(([k]) => k === key);
  if (at >= 0) current[at] = [key, String(value)]; else current.push([key, String(value)]);
  writeUrl();
}
function writeUrl() {
  const text = current.map(([k, v]) => (v === null ? escape(k) : `${escape(k)}=${escape(v)}`)).join("&");
  history.replaceState(null, "", "?" + text);
}

// ---- controls -----------------------------------------------------------------------------
const HELP = {
  pair: "Drag a shape to move it; Shift + wheel or Q / E rotates the one picked last.",
  cast: "Drag to set the ray or cast (start → end); Shift + wheel rotates the cast shape.",
  toi: "Drag any of the four poses (A start/end, B start/end); Shift + wheel or Q / E rotates the one picked.",
  tree: "Drag a box to move it; drag on empty space for a query box; right-click adds or removes a box; Delete removes the selected one.",
  gallery: "Every pair of shape kinds, each pushed a little into the other: the manifold's points with their feature ids and the normal from A to B.",
  bullets: "Balls at 250 m/s against walls 5 cm thick: continuous collision stops them at the first wall; untick it and they pass through.",
  sensors: "Bodies rain through two sensor zones; the readout counts the zones' begin and end events.",
  bridge: "Forty planks on hinges (revolute joints) carry dropped boxes; drag a plank or a box.",
  ragdoll: "Ragdolls on hinges with limits fall onto the ground; drag a limb.",
  car: "Arrows or A / D drive the car (wheel joints: suspension springs and motors) over the hills.",
  pyramids: "Box2D's benchmark: n × n pyramids of 55 boxes (20 × 20 at full size, 22 000 boxes; set the grid side).",
  joints: "Box2D's benchmark: an n × n grid of circles hinged to their neighbours (100 × 100 at full size; set the side).",
  pyramid: "Drag a box to pull it; Shift + click drops a body.",
  tumbler: "Drag a box to pull it; Shift + click drops a body.",
  tiles: "Arrows or A / D walk, W / Up / Space jumps; drag a prop to pull it; Shift + click drops a body.",
};
const CAMERA_HELP = {
  gallery: "Wheel zooms at the pointer; drag pans; F fits the scene.",
  cast: "Wheel zooms at the pointer; middle or right drag pans; F fits the scene.",
  tree: "Wheel zooms at the pointer; middle drag pans; F fits the scene.",
};
const DEFAULT_CAMERA_HELP = "Wheel zooms at the pointer; drag empty space (or middle / right drag) pans; F fits the scene.";
const SIM_HELP = " P pauses, O steps once, R resets.";
// Gives the keyboard back to the canvas after a control, so arrow keys and hotkeys act on the
// scene rather than on the control.
const refocus = () => canvas.focus({ preventScroll: true });
function select(label, key, options, value) {
  const wrap = document.createElement("div");
  wrap.innerHTML = `<label for="ctl-${key}">${label}</label>`;
  const s = document.createElement("select");
  s.id = `ctl-${key}`;
  for (const o of options) { const e = document.createElement("option"); e.value = e.textContent = o; s.appendChild(e); }
  s.value = value;
  s.onchange = () => { setParam(key, s.value); configure(`${key}=${s.value}`); refocus(); };
  wrap.appendChild(s);
  return wrap;
}
function checkbox(id, label, onchange, checked) {
  const l = document.createElement("label");
  const c = document.createElement("input");
  c.type = "checkbox"; c.id = id; c.checked = checked;
  c.onchange = () => { onchange(c.checked); refocus(); };
  l.appendChild(c); l.append(" " + label);
  return l;
}
// A number field: a change is written into the URL and applied to the scene.
function number(label, key, value, min, max, step) {
  const wrap = document.createElement("div");
  wrap.className = "num";
  wrap.innerHTML = `<label for="ctl-${key}">${label}</label>`;
  const input = document.createElement("input");
  Object.assign(input, { type: "number", id: `ctl-${key}`, min, max, step, value });
  input.onchange = () => {
    const v = Number(input.value);
    if (!Number.isFinite(v) || v < min || v > max) { input.value = value; return; }
    value = v;
    setParam(key, v);
    configure(`${key}=${v}`);
    if (key === "size") fitView();
    refocus();
  };
  wrap.appendChild(input);
  return wrap;
}
function buildControls(params) {
  const box = document.getElementById("controls");
  box.innerHTML = "";
  const p = (k, d) => params.get(k) ?? d;
  if (sceneName === "pair" || sceneName === "toi") {
    box.appendChild(select("Shape A", "a", SHAPES, p("a", sceneName === "pair" ? "box" : "capsule")));
    box.appendChild(select("Shape B", "b", SHAPES, p("b", sceneName === "pair" ? "capsule" : "box")));
  } else if (sceneName === "cast") {
    box.appendChild(select("Cast", "mode", ["ray", "shape"], p("mode", "ray")));
    box.appendChild(select("Cast shape", "shape", SHAPES, p("shape", "box")));
  } else if (sceneName === "tree") {
    box.appendChild(number("Tree depth shown", "depth", Number(p("depth", 64)), 0, 64, 1));
  } else if (wasm.tb_simulates()) {
    const names = ["shapes", "bounds", "contacts", "transforms", "tree"];
    let bits = Number(p("draw", 5));
    for (let k = 0; k < names.length; k++) {
      box.appendChild(checkbox(`draw-${names[k]}`, names[k], (on) => {
        bits = on ? bits | (1 << k) : bits & ~(1 << k);
        setParam("draw", bits);
        configure(`draw=${bits}`);
      }, (bits >> k) & 1));
    }
    box.appendChild(checkbox("sleeping", "sleeping", (on) => {
      setParam("sleep", on ? 1 : 0);
      configure(`sleep=${on ? 1 : 0}`);
    }, p("sleep", "1") !== "0"));
    box.appendChild(checkbox("continuous", "continuous collision", (on) => {
      setParam("continuous", on ? 1 : 0);
      configure(`continuous=${on ? 1 : 0}`);
    }, p("continuous", "1") !== "0"));
    const settings = document.createElement("div");
    settings.className = "settings";
    settings.appendChild(number("Sub-steps", "substeps", Number(p("substeps", 4)), 1, 64, 1));
    settings.appendChild(number("Gravity y (m/s²)", "gravity", Number(p("gravity", -10)), -1000, 1000, 1));
    settings.appendChild(number("Contact hertz", "hertz", Number(p("hertz", 30)), 1, 1000, 1));
    settings.appendChild(number("Tree depth shown", "depth", Number(p("depth", 64)), 0, 64, 1));
    const sizes = {
      pyramid: ["Pyramid base", 20, 100], tumbler: ["Grid side", 45, 100], bullets: ["Bullets", 12, 100],
      sensors: ["Bodies", 30, 1000], bridge: ["Planks", 40, 400],
      pyramids: ["Grid side", 4, 20], joints: ["Grid side", 30, 100], ragdoll: ["Ragdolls", 4, 100],
    };
    if (sizes[sceneName]) {
      const [label, value, max] = sizes[sceneName];
      settings.appendChild(number(label, "size", Number(p("size", value)), 1, max, 1));
    }
    box.appendChild(settings);
  }
  document.getElementById("help").textContent =
    (HELP[sceneName] ?? "") + " " + (CAMERA_HELP[sceneName] ?? DEFAULT_CAMERA_HELP) +
    (wasm.tb_simulates() ? SIM_HELP : "");
  document.getElementById("sim").style.display = wasm.tb_simulates() ? "" : "none";
}

// Loads the scene of `pairs` (the running query from then on) and fits the camera to it.
function start(pairs) {
  current = pairs.map(([k, v]) => [k, v]);
  const query = queryText(current);
  const params = new URLSearchParams(current.map(([k, v]) => [k, v ?? ""]));
  sceneName = params.get("scene") ?? "pair";
  if (!HELP[sceneName]) sceneName = "pair";
  document.getElementById("scene").value = sceneName;
  scriptStart = performance.now();
  load(query);
  loadMs = performance.now() - scriptStart;
  stepTimes = [];
  drawTimes = [];
  owed = 0;
  paused = params.get("pause") === "1";
  document.getElementById("pause").textContent = paused ? "Play" : "Pause";
  buildControls(params);
  fit();
  fitView();
  return query;
}

// The scene's script (`steps=`, the tree's `n`, `moves`, `removes`) runs in slices of about
// SLICE_MS, the page drawing and showing progress between them; Cancel (or loading another
// scene) stops it where it is. Resolves to whether it finished. (Under a headless browser's
// virtual time the clock stands still while the page computes, so it runs in one slice.)
const SLICE_MS = 25;
let scriptToken = 0;
let scriptRunning = false;
let scriptStart = 0;
async function runScript() {
  const token = ++scriptToken;
  let left = wasm.tb_script(0);
  const total = left;
  const box = document.getElementById("progress");
  scriptRunning = left > 0;
  while (left > 0) {
    if (token !== scriptToken) return false;
    const t0 = performance.now();
    let slice = 1;
    while (left > 0 && performance.now() - t0 < SLICE_MS) {
      left = wasm.tb_script(slice);
      slice = Math.min(2 * slice, 4096);
    }
    if (left > 0) {
      box.style.display = "";
      document.getElementById("progress-text").textContent =
        `Running the script: ${total - left} of ${total} ${wasm.tb_simulates() ? "steps" : "operations"}`;
      document.getElementById("progress-bar").value = (total - left) / total;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  if (token !== scriptToken) return false;
  box.style.display = "none";
  scriptRunning = false;
  loadMs = performance.now() - scriptStart;
  return true;
}
function cancelScript() {
  scriptToken++;
  scriptRunning = false;
  document.getElementById("progress").style.display = "none";
}

function stepOnce() {
  const t0 = performance.now();
  wasm.tb_step();
  stepTimes.push(performance.now() - t0);
  if (stepTimes.length > 60) stepTimes.shift();
}

// Steps a running world scene for `elapsed` seconds of real time at the frame time `now`.
function advance(elapsed, now) {
  stepsLastFrame = 0;
  if (!wasm.tb_simulates() || paused || scriptRunning) {
    owed = 0;
    return;
  }
  owed += elapsed;
  while (owed >= DT && stepsLastFrame < MAX_STEPS) {
    stepOnce();
    owed -= DT;
    stepsLastFrame++;
  }
  if (owed >= DT) {
    // More owed than a frame may step: drop it rather than fall further behind.
    owed = 0;
    behindUntil = now + BEHIND_MS;
  }
}

function frame(now) {
  fit();
  const elapsed = lastFrame === null ? 0 : (now - lastFrame) / 1000;
  if (lastFrame !== null) {
    frameTimes.push(now - lastFrame);
    if (frameTimes.length > 60) frameTimes.shift();
  }
  lastFrame = now;
  if (!scripted) advance(elapsed, now);
  paintAll(now);
  readout.textContent = describe(results());
  requestAnimationFrame(frame);
}

async function main() {
  const bytes = await (await fetch("collide2d_testbed.wasm")).arrayBuffer();
  // Compiled synchronously: a headless browser's virtual time (as CI runs the page) does not
  // wait for an asynchronous compile, and the page would be captured before it started.
  // The module's one import: the clock its World scenes profile their steps with.
  const imports = { env: { tb_now_us: () => performance.now() * 1000 } };
  let instance;
  try {
    instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports);
  } catch (e) {
    instance = (await WebAssembly.instantiate(bytes, imports)).instance;
  }
  wasm = instance.exports;
  raster = new URLSearchParams(location.search).get("paint") !== "canvas";
  const query = start(pageQuery());
  document.getElementById("cancel").onclick = () => { cancelScript(); refocus(); };
  requestAnimationFrame(frame);
  const finished = await runScript();
  if (query) {
    // Scripted: the numbers right after the scripted interaction, before any frame steps.
    document.getElementById("result").textContent = finished
      ? query + " " + hex(results()).join(" ")
      : query + " cancelled";
    document.getElementById("timing").textContent = loadMs.toFixed(3);
  }
  paintAll(performance.now());
  readout.textContent = describe(results());

  document.getElementById("scene").onchange = (e) => {
    cancelScript();
    start([["scene", e.target.value]]);
    runScript();
    writeUrl();
    refocus();
  };
  const togglePause = () => {
    paused = !paused; document.getElementById("pause").textContent = paused ? "Play" : "Pause";
  };
  const stepOne = () => {
    paused = true; document.getElementById("pause").textContent = "Play";
    stepOnce();
  };
  const reset = () => { cancelScript(); start(current); runScript(); };
  document.getElementById("pause").onclick = () => { togglePause(); refocus(); };
  document.getElementById("stepone").onclick = () => { stepOne(); refocus(); };
  document.getElementById("reset").onclick = () => { reset(); refocus(); };
  document.getElementById("fit").onclick = () => { fitView(); refocus(); };
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  // A drag the scene did not take pans: `pan` is the last pointer position in canvas pixels.
  let pan = null;
  canvas.addEventListener("pointerdown", (e) => {
    refocus();
    try { canvas.setPointerCapture(e.pointerId); } catch (_) { /* a synthetic pointer */ }
    const [x, y] = toWorld(e);
    if (e.shiftKey && e.button === 0 && wasm.tb_spawn(x, y)) return;
    if (e.button === 1 || !wasm.tb_pointer(0, x, y, e.button)) {
      e.preventDefault();
      pan = toPixels(e);
    }
  });
  canvas.addEventListener("pointermove", (e) => {
    if (pan) {
      const p = toPixels(e);
      panBy(p[0] - pan[0], p[1] - pan[1]);
      pan = p;
      return;
    }
    const [x, y] = toWorld(e); wasm.tb_pointer(1, x, y, 0);
  });
  canvas.addEventListener("pointerup", (e) => {
    if (pan) { pan = null; return; }
    const [x, y] = toWorld(e); wasm.tb_pointer(2, x, y, e.button);
  });
  // The wheel zooms at the pointer; with Shift (or Alt) it turns the selected shape.
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const delta = e.deltaY || e.deltaX;
    if (e.shiftKey || e.altKey) {
      if (delta) wasm.tb_wheel(delta < 0 ? 1 : -1);
      return;
    }
    const lines = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 800 : 1;
    const [px, py] = toPixels(e);
    zoomAt(px, py, Math.exp(-Math.max(-300, Math.min(300, delta * lines)) * 0.002));
  }, { passive: false });
  const KEYS = { ArrowLeft: 0, KeyA: 0, ArrowRight: 1, KeyD: 1, ArrowUp: 2, KeyW: 2, Space: 2, KeyQ: 3, KeyE: 4, Delete: 5, Backspace: 5 };
  const key = (down) => (e) => {
    if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
    const plain = !e.ctrlKey && !e.metaKey && !e.altKey;
    if (e.code === "KeyF" && plain) {
      if (down) fitView();
      e.preventDefault();
      return;
    }
    // P pauses or plays, O steps once, R resets (world scenes).
    const sim = { KeyP: togglePause, KeyO: stepOne, KeyR: reset }[e.code];
    if (sim && plain && wasm.tb_simulates()) {
      if (down && !e.repeat) sim();
      e.preventDefault();
      return;
    }
    const code = KEYS[e.code];
    if (code === undefined) return;
    e.preventDefault();
    wasm.tb_key(code, down ? 1 : 0);
  };
  window.addEventListener("keydown", key(true));
  window.addEventListener("keyup", key(false));
  refocus();
  const bench = Number(new URLSearchParams(query).get("bench"));
  if (bench > 0) runBench(Math.min(bench, 1000));
  const ui = new URLSearchParams(query).get("ui");
  scripted = Boolean(ui);
  if (ui) await runUi(ui);
  scripted = false;
  document.getElementById("status").textContent = "done";
}

// `bench=N`: N steps (world scenes, their mean) and then N frames drawn, each timed, the drawing forced
// through (reading back a pixel makes the browser finish what it was asked to draw, which it
// otherwise defers past the timer); medians in <pre id="bench"> as `step_ms build_ms draw_ms
// renderer` (build: the scene drawn into pixels, or into the canvas path's list, in
// WebAssembly alone; draw: a whole frame's drawing, building included, with its text).
function runBench(n) {
  const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); return s.length ? s[s.length >> 1] : 0; };
  const builds = [], draws = [];
  // Steps are timed together (the browser's clock has 0.1 ms steps; one step can be shorter).
  let stepMs = 0;
  if (wasm.tb_simulates()) {
    const t0 = performance.now();
    for (let k = 0; k < n; k++) wasm.tb_step();
    stepMs = (performance.now() - t0) / n;
  }
  for (let k = 0; k < n; k++) {
    const t0 = performance.now();
    if (raster) wasm.tb_render(canvas.width, canvas.height, originX, originY, scale, dpr); else wasm.tb_draw();
    const t1 = performance.now();
    paintScene();
    ctx.getImageData(0, 0, 1, 1);
    octx.getImageData(0, 0, 1, 1);
    const t2 = performance.now();
    builds.push(t1 - t0);
    draws.push(t2 - t1);
  }
  document.getElementById("bench").textContent =
    [stepMs, median(builds), median(draws)].map((v) => v.toFixed(3)).join(" ") + (raster ? " raster" : " canvas");
}

// The stage as the user sees it (the scene with its text), as base64 RGBA rows, for
// scripts/testbed_shots.py to compare with a reference image: `[width, height, base64]`.
window.tbStagePixels = () => {
  const c = document.createElement("canvas");
  c.width = canvas.width; c.height = canvas.height;
  const g = c.getContext("2d");
  g.drawImage(canvas, 0, 0);
  g.drawImage(overlay, 0, 0);
  const data = g.getImageData(0, 0, c.width, c.height).data;
  let text = "";
  for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
  return [c.width, c.height, btoa(text)];
};

// `ui=` commands, `;`-separated, world coordinates:
//   drag:x0:y0:x1:y1[:button]   a pointer drag (button 0 unless given)
//   click:x:y:button[:shift]    a press and release (with Shift held when the 4th is 1)
//   wheel:n                     n notches of Shift + wheel (turns the selected shape)
//   zoom:x:y:n                  n notches of the wheel at world point (x, y) (in if n > 0)
//   key:Code:steps              the key held down while the Step button is clicked `steps`
//                               times (sent to the focused element, as a user's would be)
//   press:Code                  a key pressed and released (the focused element's)
//   select:id:value             a control (a <select>) set to `value`, as if chosen
//   number:id:value             a number field set to `value`, as if typed
//   toggle:id                   a checkbox clicked
//   button:id                   a button clicked
//   advance:seconds             one frame of the fixed-timestep loop that took `seconds`
// Events are dispatched to the page's own listeners, then the scene's numbers go into
// <pre id="ui"> and the page's state (URL, focus, camera after and before, checkboxes) into
// <pre id="state">
// (scripts/testbed_check.sh checks what they did). Timers, not animation frames: a headless
// browser's virtual time does not wait for frames.
async function runUi(script) {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const at = (x, y) => {
    const r = canvas.getBoundingClientRect(), k = canvas.width / r.width;
    return { clientX: r.left + sx(x) / k, clientY: r.top + sy(y) / k, pointerId: 1, bubbles: true, cancelable: true };
  };
  const pointer = (type, x, y, button) => canvas.dispatchEvent(new PointerEvent(type, { ...at(x, y), button }));
  const camera0 = document.getElementById("camera").textContent;
  for (const cmd of script.split(";")) {
    const [op, ...args] = cmd.split(":");
    const a = args.map(Number);
    if (op === "drag") {
      const button = a[4] || 0;
      pointer("pointerdown", a[0], a[1], button);
      // The path is fixed in screen pixels: a pan moves the world under the pointer.
      const from = at(a[0], a[1]), to = at(a[2], a[3]);
      for (let k = 1; k <= 8; k++) {
        canvas.dispatchEvent(new PointerEvent("pointermove", {
          ...from, button,
          clientX: from.clientX + (to.clientX - from.clientX) * k / 8,
          clientY: from.clientY + (to.clientY - from.clientY) * k / 8,
        }));
      }
      canvas.dispatchEvent(new PointerEvent("pointerup", { ...to, button }));
    } else if (op === "click") {
      const shiftKey = a[3] === 1;
      canvas.dispatchEvent(new PointerEvent("pointerdown", { ...at(a[0], a[1]), button: a[2], shiftKey }));
      canvas.dispatchEvent(new PointerEvent("pointerup", { ...at(a[0], a[1]), button: a[2], shiftKey }));
    } else if (op === "wheel") {
      for (let k = 0; k < Math.abs(a[0]); k++) {
        canvas.dispatchEvent(new WheelEvent("wheel", { deltaY: a[0] > 0 ? -100 : 100, shiftKey: true, cancelable: true, bubbles: true }));
      }
    } else if (op === "zoom") {
      for (let k = 0; k < Math.abs(a[2]); k++) {
        canvas.dispatchEvent(new WheelEvent("wheel", { ...at(a[0], a[1]), deltaY: a[2] > 0 ? -100 : 100 }));
      }
    } else if (op === "key") {
      const target = document.activeElement ?? document.body;
      target.dispatchEvent(new KeyboardEvent("keydown", { code: args[0], bubbles: true, cancelable: true }));
      for (let k = 0; k < Number(args[1]); k++) document.getElementById("stepone").click();
      (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent("keyup", { code: args[0], bubbles: true, cancelable: true }));
    } else if (op === "press") {
      for (const type of ["keydown", "keyup"]) {
        (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent(type, { code: args[0], bubbles: true, cancelable: true }));
      }
    } else if (op === "number") {
      const el = document.getElementById(args[0]);
      el.focus();
      el.value = args[1];
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (op === "select") {
      const el = document.getElementById(args[0]);
      el.focus();
      el.value = args[1];
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (op === "advance") {
      const now = performance.now();
      advance(a[0], now);
      paintAll(now);
    } else if (op === "toggle" || op === "button") {
      const el = document.getElementById(args[0]);
      el.focus();
      el.click();
    }
    await settle();
  }
  document.getElementById("ui").textContent = Array.from(results()).join(" ");
  const checked = Array.from(document.querySelectorAll("#controls input:checked"), (c) => c.id);
  document.getElementById("state").textContent = [
    `search ${location.search}`,
    `focus ${document.activeElement?.id ?? ""}`,
    `camera ${document.getElementById("camera").textContent}`,
    `camera0 ${camera0}`,
    `checked ${checked.join(",")}`,
    `hud ${document.getElementById("hud").textContent.replace(/\n/g, " | ")}`,
    `legend ${Array.from(document.querySelectorAll("#legend div"), (d) => d.textContent).join(",")}`,
    `labels ${Array.from(floats(wasm.tb_labels(), wasm.tb_labels_len())).filter((_, i) => i % 3 === 2).map(labelText).join(",")}`,
  ].join("\n");
}

main().catch((err) => {
  document.getElementById("status").textContent = "error: " + err;
  readout.textContent = "Could not start: " + err;
});
