//! collide2d's browser testbed: the scenes (pair explorer, casts, time of impact, dynamic tree,
//! `World` pyramid / tumbler / tile map with a character) and a handful of plain exported
//! functions (`tb_*`) that `web/testbed.js` calls. No wasm-bindgen: the page passes numbers,
//! and reads the draw list, results and view straight out of the module's memory through the
//! pointers these functions return. The one `unsafe` call is the page's clock ([`clock`]).
//!
//! A scene is loaded from a URL-style query (`scene=pair&a=box&b=capsule&bx=0.9`): the
//! parameters configure it and may script an interaction (`steps=120` steps a world,
//! `input=R90,RJ1` holds keys for the character, `n=200&moves=50` fills and moves the tree), so
//! CI can load the page with a query and compare the numbers it writes into the DOM with
//! [`Testbed::load`] run natively (`testbed-native`).
pub mod clock;
pub mod mesh;
pub mod palette;
pub mod raster;
pub mod record;
pub mod scenes;

use core::cell::RefCell;

use collide2d::Vec2;
use mesh::Mesh;
use raster::{Camera, Raster};
use record::Recorder;
use scenes::Scene;

/// The testbed's state: the scene and the buffers the page reads.
pub struct Testbed {
    /// The scene.
    pub scene: Scene,
    /// The scene's name, as loaded.
    pub name: String,
    draw: Vec<f32>,
    mesh: Mesh,
    raster: Raster,
    results: Vec<f32>,
    labels: Vec<f32>,
    view: [f32; 4],
    profile: [f32; 7],
}

/// The canvas background, #111216, as a pixel (`0xAABBGGRR`).
pub const BACKGROUND: u32 = 0xFF16_1211;

/// `key=value` pairs of a query (`&`-separated; a leading `?` is ignored).
pub fn params(query: &str) -> impl Iterator<Item = (&str, &str)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
}

impl Testbed {
    /// Loads the scene a query names (`scene=…`; the pair explorer if none or unknown),
    /// applies its parameters in order, then runs what they scripted.
    pub fn load(query: &str) -> Testbed {
        let mut tb = Testbed::load_unscripted(query);
        tb.scene.run_script();
        tb
    }

    /// [`Testbed::load`] without running the script: the page runs it in slices
    /// ([`scenes::Scene::script_step`]), to the same result.
    pub fn load_unscripted(query: &str) -> Testbed {
        let name = params(query)
            .find(|(k, _)| *k == "scene")
            .map(|(_, v)| v)
            .filter(|v| Scene::new(v).is_some())
            .unwrap_or("pair");
        let scene = Scene::new(name).unwrap_or_else(|| Scene::Pair(scenes::Pair::new()));
        let mut tb = Testbed {
            scene,
            name: name.to_string(),
            draw: Vec::new(),
            mesh: Mesh::default(),
            raster: Raster::default(),
            results: Vec::new(),
            labels: Vec::new(),
            view: [0.0; 4],
            profile: [0.0; 7],
        };
        tb.configure(query);
        tb
    }

    /// Applies parameters to the current scene (the page's controls), without rebuilding it.
    pub fn configure(&mut self, query: &str) {
        for (k, v) in params(query) {
            if k != "scene" {
                self.scene.set(k, v);
            }
        }
    }

    /// The scene's numbers, refreshed.
    pub fn results(&mut self) -> &[f32] {
        self.results.clear();
        self.scene.results(&mut self.results);
        &self.results
    }

    /// The scene drawn into the command list ([`record`]).
    pub fn render(&mut self) -> &[f32] {
        self.draw.clear();
        self.scene.draw(&mut Recorder { out: &mut self.draw });
        &self.draw
    }

    /// The scene drawn into a `width × height` RGBA buffer ([`raster`]) through `camera`;
    /// `None` when the buffer cannot be that size ([`raster::MAX_SIDE`],
    /// [`raster::MAX_PIXELS`]).
    pub fn render_pixels(&mut self, width: u32, height: u32, camera: Camera) -> Option<&[u32]> {
        self.mesh.reset(camera.scale, camera.dpr);
        self.scene.draw(&mut self.mesh);
        self.mesh.finish();
        if !self.raster.resize(width, height) {
            return None;
        }
        self.raster.clear(BACKGROUND);
        self.raster.draw(&self.mesh.out, camera);
        Some(&self.raster.pixels)
    }

    /// The scene's text labels ([`Scene::labels`]), refreshed.
    pub fn labels(&mut self) -> &[f32] {
        self.labels.clear();
        self.scene.labels(&mut self.labels);
        &self.labels
    }

    /// The world rectangle to show: `[min x, min y, max x, max y]`.
    pub fn view(&mut self) -> &[f32; 4] {
        let v = self.scene.view();
        self.view = [v.min.x, v.min.y, v.max.x, v.max.y];
        &self.view
    }
}

thread_local! {
    static TESTBED: RefCell<Option<Testbed>> = const { RefCell::new(None) };
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn input() -> String {
    INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned())
}

fn with<R>(f: impl FnOnce(&mut Testbed) -> R) -> R {
    TESTBED.with(|t| {
        let mut t = t.borrow_mut();
        let tb = t.get_or_insert_with(|| Testbed::load(""));
        f(tb)
    })
}

/// A buffer of `len` bytes the page writes a query into before [`tb_load`] or
/// [`tb_configure`]; returns its address in the module's memory.
#[no_mangle]
pub extern "C" fn tb_input(len: u32) -> *mut u8 {
    INPUT.with(|i| {
        let mut i = i.borrow_mut();
        i.clear();
        i.resize(len as usize, 0);
        i.as_mut_ptr()
    })
}

/// Loads the scene of the query in the input buffer (see [`Testbed::load`]).
#[no_mangle]
pub extern "C" fn tb_load() {
    let q = input();
    TESTBED.with(|t| *t.borrow_mut() = Some(Testbed::load(&q)));
}

/// Loads the scene of the query in the input buffer without running its script (see
/// [`Testbed::load_unscripted`]; [`tb_script`] runs it).
#[no_mangle]
pub extern "C" fn tb_load_unscripted() {
    let q = input();
    TESTBED.with(|t| *t.borrow_mut() = Some(Testbed::load_unscripted(&q)));
}

/// Runs up to `budget` units of the scene's script (frames of a world, operations of the
/// tree); returns the units left (`tb_script(0)` only asks).
#[no_mangle]
pub extern "C" fn tb_script(budget: u32) -> u32 {
    with(|tb| tb.scene.script_step(budget))
}

/// Applies the query in the input buffer to the current scene.
#[no_mangle]
pub extern "C" fn tb_configure() {
    let q = input();
    with(|tb| tb.configure(&q));
}

/// A pointer event at world point (x, y): `kind` 0 down, 1 move, 2 up; `button` 0 primary,
/// 2 secondary. Returns 1 when the scene took a down (the page pans the camera otherwise).
#[no_mangle]
pub extern "C" fn tb_pointer(kind: u32, x: f32, y: f32, button: u32) -> u32 {
    with(|tb| u32::from(tb.scene.pointer(kind, Vec2::new(x, y), button)))
}

/// Shift-click at world point (x, y): world scenes drop a body there. Returns 1 if one was
/// added.
#[no_mangle]
pub extern "C" fn tb_spawn(x: f32, y: f32) -> u32 {
    with(|tb| u32::from(tb.scene.spawn(Vec2::new(x, y))))
}

/// The wheel turned by `delta` notches (positive: counter-clockwise).
#[no_mangle]
pub extern "C" fn tb_wheel(delta: f32) {
    with(|tb| tb.scene.wheel(delta));
}

/// A key went down (`down` 1) or up (0); codes in [`scenes`] (`KEY_*`).
#[no_mangle]
pub extern "C" fn tb_key(code: u32, down: u32) {
    with(|tb| tb.scene.key(code, down != 0));
}

/// One simulation step (world scenes; others ignore it).
#[no_mangle]
pub extern "C" fn tb_step() {
    with(|tb| tb.scene.step());
}

/// 1 when the scene simulates (the page's pause, step and timing apply).
#[no_mangle]
pub extern "C" fn tb_simulates() -> u32 {
    with(|tb| u32::from(tb.scene.simulates()))
}

/// Draws the scene; returns the command list's address ([`tb_draw_len`] floats).
#[no_mangle]
pub extern "C" fn tb_draw() -> *const f32 {
    with(|tb| tb.render().as_ptr())
}

/// Floats in the last [`tb_draw`] list.
#[no_mangle]
pub extern "C" fn tb_draw_len() -> u32 {
    with(|tb| tb.draw.len() as u32)
}

/// Draws the scene into a `width × height` RGBA buffer (rows top first, 4 bytes a pixel: the
/// layout of the canvas's `ImageData`) with the world origin at pixel `(origin_x, origin_y)`,
/// `scale` pixels per world unit (y up) and device pixel ratio `dpr`; returns the buffer's
/// address, or null when it cannot be that size.
#[no_mangle]
pub extern "C" fn tb_render(
    width: u32,
    height: u32,
    origin_x: f32,
    origin_y: f32,
    scale: f32,
    dpr: f32,
) -> *const u32 {
    let camera = Camera {
        origin_x,
        origin_y,
        scale,
        dpr,
    };
    with(|tb| match tb.render_pixels(width, height, camera) {
        Some(p) => p.as_ptr(),
        None => core::ptr::null(),
    })
}

/// The depth range of the tree the scene draws (its colours run from the root's at 0 to the
/// deepest level's, [`palette::depth`]), or −1 when it draws none.
#[no_mangle]
pub extern "C" fn tb_tree_depth() -> i32 {
    with(|tb| {
        tb.scene
            .tree_depth()
            .map_or(-1, |d| d.min(i32::MAX as u32) as i32)
    })
}

/// Which colours of the palette's legend the last [`tb_render`] drew: bit `i` for line `i`
/// of [`tb_legend_text`].
#[no_mangle]
pub extern "C" fn tb_legend() -> u32 {
    with(|tb| tb.mesh.legend)
}

thread_local! {
    static LEGEND_TEXT: String = palette::LEGEND
        .iter()
        .map(|(c, name)| format!("{:06x} {name}\n", c.0))
        .collect();
}

/// The legend's lines, `rrggbb name` each (UTF-8, [`tb_legend_text_len`] bytes).
#[no_mangle]
pub extern "C" fn tb_legend_text() -> *const u8 {
    LEGEND_TEXT.with(|t| t.as_ptr())
}

/// Bytes of [`tb_legend_text`].
#[no_mangle]
pub extern "C" fn tb_legend_text_len() -> u32 {
    LEGEND_TEXT.with(|t| t.len() as u32)
}

/// The last step's profile in milliseconds (world scenes; zeros otherwise): total, pairs,
/// narrow phase, solve, finalize, continuous, sleep ([`collide2d::StepProfile`]); 7 floats.
#[no_mangle]
pub extern "C" fn tb_profile() -> *const f32 {
    with(|tb| {
        let p = match &tb.scene {
            scenes::Scene::World(w) => w.profile(),
            _ => collide2d::StepProfile::default(),
        };
        let ms = |ticks: u64| ticks as f32 / clock::TICKS_PER_MS;
        tb.profile = [
            p.total,
            p.pairs,
            p.narrow,
            p.solve,
            p.finalize,
            p.continuous,
            p.sleep,
        ]
        .map(ms);
        tb.profile.as_ptr()
    })
}

/// Computes the scene's numbers; returns their address ([`tb_results_len`] floats).
#[no_mangle]
pub extern "C" fn tb_results() -> *const f32 {
    with(|tb| tb.results().as_ptr())
}

/// Floats in the last [`tb_results`] list.
#[no_mangle]
pub extern "C" fn tb_results_len() -> u32 {
    with(|tb| tb.results.len() as u32)
}

/// Computes the scene's text labels; returns their address ([`tb_labels_len`] floats,
/// `x, y, label` triples, `label` a [`scenes`] `LABEL_*` code).
#[no_mangle]
pub extern "C" fn tb_labels() -> *const f32 {
    with(|tb| tb.labels().as_ptr())
}

/// Floats in the last [`tb_labels`] list.
#[no_mangle]
pub extern "C" fn tb_labels_len() -> u32 {
    with(|tb| tb.labels.len() as u32)
}

/// The view rectangle's address: 4 floats, min x, min y, max x, max y.
#[no_mangle]
pub extern "C" fn tb_view() -> *const f32 {
    with(|tb| tb.view().as_ptr())
}
