// collide2d testbed: loads collide2d_testbed.wasm (plain exported functions, no imports),
// forwards the pointer, wheel and keys to it, steps world scenes, and paints the draw list it
// records (see testbed/src/record.rs for the format).
//
// A query in the URL (`?scene=pair&a=box&b=capsule&bx=0.9`) loads that scene with those
// parameters and the interaction they script; the numbers the scene reports are written into
// <pre id="result"> as `QUERY HEX…` (each f32 as its bits) and <div id="status"> says `done`,
// which scripts/testbed_check.sh compares with the native run. `pause=1` starts paused.
"use strict";

const SHAPES = ["circle", "capsule", "box", "rounded", "polygon", "segment"];
const canvas = document.getElementById("canvas");
const ctx = canvas.getContext("2d");
const readout = document.getElementById("readout");
let wasm = null;
let paused = false;
let stepTimes = [];
let loadMs = 0;
let view = [-4, -3, 4, 3];
let scale = 1, originX = 0, originY = 0;
let pointerDown = false;
let sceneName = "pair";
let config = {};

function writeInput(text) {
  const bytes = new TextEncoder().encode(text);
  const ptr = wasm.tb_input(bytes.length);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
}
function floats(ptr, len) {
  return Float32Array.from(new Float32Array(wasm.memory.buffer, ptr, len));
}
function load(query) { writeInput(query); wasm.tb_load(); }
function configure(query) { writeInput(query); wasm.tb_configure(); }
function results() { const p = wasm.tb_results(); return floats(p, wasm.tb_results_len()); }
function hex(values) {
  return Array.from(new Uint32Array(Float32Array.from(values).buffer), (u) => u.toString(16).padStart(8, "0"));
}

// ---- camera -------------------------------------------------------------------------------
function fit() {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
  const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  const v = floats(wasm.tb_view(), 4);
  view = Array.from(v);
  scale = Math.min(w / (view[2] - view[0]), h / (view[3] - view[1]));
  originX = w / 2 - scale * (view[0] + view[2]) / 2;
  originY = h / 2 + scale * (view[1] + view[3]) / 2;
}
const sx = (x) => originX + scale * x;
const sy = (y) => originY - scale * y;
function toWorld(e) {
  const r = canvas.getBoundingClientRect();
  const dpr = canvas.width / r.width;
  const px = (e.clientX - r.left) * dpr, py = (e.clientY - r.top) * dpr;
  return [(px - originX) / scale, (originY - py) / scale];
}

// ---- painting the draw list ---------------------------------------------------------------
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
  ctx.strokeStyle = rgb(color, 1); ctx.lineWidth = 2 * radiusPx + 2; ctx.stroke();
  ctx.strokeStyle = rgb(color, 0.45); ctx.lineWidth = Math.max(0, 2 * radiusPx); 
  if (radiusPx > 0) ctx.stroke();
  ctx.fillStyle = rgb(color, 0.45); ctx.fill();
}
function paint(d) {
  ctx.fillStyle = "#111216";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  let i = 0;
  while (i < d.length) {
    const op = d[i], c = d[i + 1];
    i += 2;
    ctx.lineWidth = 1.5;
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
        ctx.beginPath(); ctx.moveTo(sx(x), sy(y)); ctx.lineTo(sx(x + k * qc), sy(y + k * qs)); ctx.strokeStyle = "#e33"; ctx.stroke();
        ctx.beginPath(); ctx.moveTo(sx(x), sy(y)); ctx.lineTo(sx(x - k * qs), sy(y + k * qc)); ctx.strokeStyle = "#3c3"; ctx.stroke();
        i += 4; break;
      }
      case 8: {
        const s = d[i + 2];
        ctx.fillStyle = rgb(c, 1); ctx.fillRect(sx(d[i]) - s / 2, sy(d[i + 1]) - s / 2, s, s); i += 3; break;
      }
      default: return; // unknown op: stop rather than misread the rest
    }
  }
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
      return `${r[0] ? "shape cast" : "ray cast"}\nhit       ${r[1] ? "yes" : "no"}\n` +
        (r[1] ? `target    ${r[2]}\nfraction  ${f(r[3])}\npoint     (${f(r[4])}, ${f(r[5])})\nnormal    (${f(r[6])}, ${f(r[7])})` : "");
    case "toi":
      return `state     ${TOI_STATES[r[0]] ?? r[0]}\nfraction  ${f(r[1])}\niterations ${r[2]}\n` +
        `A at t    (${f(r[3])}, ${f(r[4])}) ${f(r[5])} rad\nB at t    (${f(r[6])}, ${f(r[7])}) ${f(r[8])} rad\ndistance  ${f(r[9])}`;
    case "tree":
      return `proxies   ${r[0]}\nheight    ${r[1]}\narea ratio ${f(r[2])}\nquery hits ${r[3]} (brute force ${r[5]})\nvalid     ${r[7] ? "yes" : "NO"}`;
    default: {
      const ms = stepTimes.length ? stepTimes.reduce((a, b) => a + b, 0) / stepTimes.length : 0;
      const hash = [r[4], r[5], r[6], r[7]].map((v) => (v >>> 0).toString(16).padStart(4, "0")).join("");
      const time = stepTimes.length
        ? `${ms.toFixed(3)} ms (mean of last ${stepTimes.length})`
        : `-- (loading and ${r[0]} scripted steps: ${loadMs.toFixed(1)} ms)`;
      let s = `step      ${r[0]}\nstep time ${time}\n` +
        `bodies    ${r[1]}\nawake     ${r[2]}\ncontacts  ${r[3]}\nhash      ${hash}`;
      if (sceneName === "tiles") s += `\ncharacter (${f(r[8])}, ${f(r[9])}) ${r[10] ? "on ground" : "in the air"}`;
      return s;
    }
  }
}

// ---- controls -----------------------------------------------------------------------------
const HELP = {
  pair: "Drag a shape to move it; wheel or Q / E rotates the one picked last.",
  cast: "Drag to set the ray or cast (start → end); wheel rotates the cast shape.",
  toi: "Drag any of the four poses (A start/end, B start/end); wheel rotates the one picked.",
  tree: "Drag a box to move it; drag on empty space for a query box; right-click adds or removes a box; Delete removes the selected one.",
  pyramid: "Drag a box to pull it.",
  tumbler: "Drag a box to pull it.",
  tiles: "Arrows or A / D walk, W / Up / Space jumps; drag a prop to pull it.",
};
function select(label, key, options, value) {
  const wrap = document.createElement("div");
  wrap.innerHTML = `<label>${label}</label>`;
  const s = document.createElement("select");
  for (const o of options) { const e = document.createElement("option"); e.value = e.textContent = o; s.appendChild(e); }
  s.value = value;
  s.onchange = () => { config[key] = s.value; configure(`${key}=${s.value}`); };
  wrap.appendChild(s);
  return wrap;
}
function checkbox(label, onchange, checked) {
  const l = document.createElement("label");
  const c = document.createElement("input");
  c.type = "checkbox"; c.checked = checked; c.onchange = () => onchange(c.checked);
  l.appendChild(c); l.append(" " + label);
  return l;
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
  } else if (sceneName === "pyramid" || sceneName === "tumbler" || sceneName === "tiles") {
    const names = ["shapes", "bounds", "contacts", "transforms", "tree"];
    let bits = Number(p("draw", 5));
    for (let k = 0; k < names.length; k++) {
      box.appendChild(checkbox(names[k], (on) => { bits = on ? bits | (1 << k) : bits & ~(1 << k); configure(`draw=${bits}`); }, (bits >> k) & 1));
    }
    box.appendChild(checkbox("sleeping", (on) => configure(`sleep=${on ? 1 : 0}`), p("sleep", "1") !== "0"));
  }
  document.getElementById("help").textContent = HELP[sceneName] ?? "";
  document.getElementById("sim").style.display = wasm.tb_simulates() ? "" : "none";
}

function start(query) {
  const params = new URLSearchParams(query);
  sceneName = params.get("scene") ?? "pair";
  if (!HELP[sceneName]) sceneName = "pair";
  document.getElementById("scene").value = sceneName;
  const t0 = performance.now();
  load(query);
  loadMs = performance.now() - t0;
  stepTimes = [];
  paused = params.get("pause") === "1";
  document.getElementById("pause").textContent = paused ? "Play" : "Pause";
  buildControls(params);
}

function frame() {
  fit();
  if (wasm.tb_simulates() && !paused) {
    const t0 = performance.now();
    wasm.tb_step();
    stepTimes.push(performance.now() - t0);
    if (stepTimes.length > 60) stepTimes.shift();
  }
  const p = wasm.tb_draw();
  paint(floats(p, wasm.tb_draw_len()));
  readout.textContent = describe(results());
  requestAnimationFrame(frame);
}

// The page's query string, decoded; a malformed escape (a stray `%`) is kept as it is rather
// than stopping the page (decodeURIComponent throws on it).
function pageQuery() {
  const raw = location.search.replace(/^\?/, "");
  try {
    return decodeURIComponent(raw);
  } catch (_) {
    return raw;
  }
}

async function main() {
  const bytes = await (await fetch("collide2d_testbed.wasm")).arrayBuffer();
  // Compiled synchronously: a headless browser's virtual time (as CI runs the page) does not
  // wait for an asynchronous compile, and the page would be captured before it started.
  let instance;
  try {
    instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
  } catch (e) {
    instance = (await WebAssembly.instantiate(bytes, {})).instance;
  }
  wasm = instance.exports;
  const query = pageQuery();
  start(query);
  if (query) {
    // Scripted: the numbers right after the scripted interaction, before any frame steps.
    document.getElementById("result").textContent = query + " " + hex(results()).join(" ");
    document.getElementById("timing").textContent = loadMs.toFixed(3);
  }
  fit();
  paint(floats(wasm.tb_draw(), wasm.tb_draw_len()));
  readout.textContent = describe(results());

  document.getElementById("scene").onchange = (e) => {
    history.replaceState(null, "", "?scene=" + e.target.value);
    start("scene=" + e.target.value);
  };
  document.getElementById("pause").onclick = (e) => { paused = !paused; e.target.textContent = paused ? "Play" : "Pause"; };
  document.getElementById("stepone").onclick = () => {
    paused = true; document.getElementById("pause").textContent = "Play";
    const t0 = performance.now(); wasm.tb_step(); stepTimes.push(performance.now() - t0);
  };
  document.getElementById("reset").onclick = () => start(pageQuery() || "scene=" + sceneName);
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => {
    pointerDown = true;
    try { canvas.setPointerCapture(e.pointerId); } catch (_) { /* a synthetic pointer */ }
    const [x, y] = toWorld(e); wasm.tb_pointer(0, x, y, e.button);
  });
  canvas.addEventListener("pointermove", (e) => { const [x, y] = toWorld(e); wasm.tb_pointer(1, x, y, 0); });
  canvas.addEventListener("pointerup", (e) => { pointerDown = false; const [x, y] = toWorld(e); wasm.tb_pointer(2, x, y, e.button); });
  canvas.addEventListener("wheel", (e) => { e.preventDefault(); wasm.tb_wheel(e.deltaY < 0 ? 1 : -1); }, { passive: false });
  const KEYS = { ArrowLeft: 0, KeyA: 0, ArrowRight: 1, KeyD: 1, ArrowUp: 2, KeyW: 2, Space: 2, KeyQ: 3, KeyE: 4, Delete: 5, Backspace: 5 };
  const key = (down) => (e) => {
    if (e.target instanceof HTMLSelectElement) return;
    const code = KEYS[e.code];
    if (code === undefined) return;
    e.preventDefault();
    wasm.tb_key(code, down ? 1 : 0);
  };
  window.addEventListener("keydown", key(true));
  window.addEventListener("keyup", key(false));
  requestAnimationFrame(frame);
  const ui = new URLSearchParams(query).get("ui");
  if (ui) await runUi(ui);
  document.getElementById("status").textContent = "done";
}

// `ui=drag:x0:y0:x1:y1;click:x:y:button;wheel:n;key:Code:steps` (world coordinates): input
// events dispatched to the page's own listeners, as a user's would arrive (`key` holds the key
// down while the Step button is clicked `steps` times), then the scene's numbers into
// <pre id="ui"> (scripts/testbed_check.sh checks what they did). Timers, not animation frames:
// a headless browser's virtual time does not wait for frames.
async function runUi(script) {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const at = (x, y) => {
    const r = canvas.getBoundingClientRect(), dpr = canvas.width / r.width;
    return { clientX: r.left + sx(x) / dpr, clientY: r.top + sy(y) / dpr, pointerId: 1, bubbles: true };
  };
  const pointer = (type, x, y, button) => canvas.dispatchEvent(new PointerEvent(type, { ...at(x, y), button }));
  for (const cmd of script.split(";")) {
    const [op, ...args] = cmd.split(":");
    const a = args.map(Number);
    if (op === "drag") {
      pointer("pointerdown", a[0], a[1], 0);
      for (let k = 1; k <= 8; k++) pointer("pointermove", a[0] + (a[2] - a[0]) * k / 8, a[1] + (a[3] - a[1]) * k / 8, 0);
      pointer("pointerup", a[2], a[3], 0);
    } else if (op === "click") {
      pointer("pointerdown", a[0], a[1], a[2]);
      pointer("pointerup", a[0], a[1], a[2]);
    } else if (op === "wheel") {
      for (let k = 0; k < Math.abs(a[0]); k++) {
        canvas.dispatchEvent(new WheelEvent("wheel", { deltaY: a[0] > 0 ? -100 : 100, cancelable: true, bubbles: true }));
      }
    } else if (op === "key") {
      window.dispatchEvent(new KeyboardEvent("keydown", { code: args[0], bubbles: true, cancelable: true }));
      for (let k = 0; k < Number(args[1]); k++) document.getElementById("stepone").click();
      window.dispatchEvent(new KeyboardEvent("keyup", { code: args[0], bubbles: true, cancelable: true }));
    }
    await settle();
  }
  document.getElementById("ui").textContent = Array.from(results()).join(" ");
}

main().catch((err) => {
  document.getElementById("status").textContent = "error: " + err;
  readout.textContent = "Could not start: " + err;
});
