//! The testbed's scenes. Each is built from parameters (`key=value` pairs from the page's URL
//! or its controls), reacts to the pointer, wheel and keys, draws itself through
//! [`DebugDraw`], and reports a fixed list of numbers ([`Scene::results`]) that the page shows
//! and that CI compares with a native run.
mod cast;
mod gallery;
mod pair;
mod toi;
mod tree;
mod world;

pub use cast::Cast;
pub use gallery::Gallery;
pub use pair::Pair;
pub use toi::Toi;
pub use tree::Tree;
pub use world::WorldScene;

use collide2d::draw::DebugDraw;
use collide2d::*;

/// Pointer event kinds passed by the page.
pub const POINTER_DOWN: u32 = 0;
/// The pointer moved (with or without a button held).
pub const POINTER_MOVE: u32 = 1;
/// The button was released.
pub const POINTER_UP: u32 = 2;

/// Keys the page passes (its arrow keys / A, D, W, space).
pub const KEY_LEFT: u32 = 0;
/// Walk right.
pub const KEY_RIGHT: u32 = 1;
/// Jump.
pub const KEY_JUMP: u32 = 2;
/// Rotate the selected shape counter-clockwise (Q).
pub const KEY_ROTATE_CCW: u32 = 3;
/// Rotate the selected shape clockwise (E).
pub const KEY_ROTATE_CW: u32 = 4;
/// Remove the selected box (Delete).
pub const KEY_DELETE: u32 = 5;

/// Labels the page writes on the canvas ([`Scene::labels`]): shape A.
pub const LABEL_A: u32 = 0;
/// Shape B.
pub const LABEL_B: u32 = 1;
/// A's sweep start, "A t = 0".
pub const LABEL_A_START: u32 = 2;
/// A's sweep end, "A t = 1".
pub const LABEL_A_END: u32 = 3;
/// B's sweep start, "B t = 0".
pub const LABEL_B_START: u32 = 4;
/// B's sweep end, "B t = 1".
pub const LABEL_B_END: u32 = 5;

/// A contact point's feature id, `LABEL_FEATURE + id` (ids are 16 bits: the feature bytes of A
/// and B; the page writes the id in hex).
pub const LABEL_FEATURE: u32 = 0x1_0000;
/// A cast target's index, `LABEL_TARGET + index` (the page writes `#index`).
pub const LABEL_TARGET: u32 = 0x2_0000;

/// The shape kinds the pair explorer, casts and time of impact offer, by name.
pub const SHAPE_KINDS: [&str; 6] = ["circle", "capsule", "box", "rounded", "polygon", "segment"];

/// A shape of kind `name` ([`SHAPE_KINDS`]), about one unit across, centred on its origin.
pub fn shape_of(name: &str) -> Option<Shape> {
    Some(match name {
        "circle" => Shape::circle(0.5),
        "capsule" => Shape::capsule(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.3),
        "box" => Shape::rect(0.5, 0.5),
        "rounded" => Shape::Polygon(Polygon::make_rounded_box(0.4, 0.25, 0.15).ok()?),
        "polygon" => Shape::Polygon(
            Polygon::new(&[
                Vec2::new(-0.6, -0.4),
                Vec2::new(0.5, -0.5),
                Vec2::new(0.7, 0.2),
                Vec2::new(0.1, 0.6),
                Vec2::new(-0.5, 0.4),
            ])
            .ok()?,
        ),
        "segment" => Shape::capsule(Vec2::new(-0.7, -0.2), Vec2::new(0.7, 0.2), 0.0),
        _ => return None,
    })
}

/// Draws every node of `tree` down to depth `max_depth` (all with `u32::MAX`), each box in its
/// depth's colour ([`crate::palette::depth`], root violet to deepest red); returns the depth
/// the colours span (the deepest node's).
pub fn draw_tree_by_depth<S: collide2d::tree::NodeStorage>(
    d: &mut impl DebugDraw,
    tree: &collide2d::tree::DynamicTree<S>,
    max_depth: u32,
) -> u32 {
    let mut deepest = 0;
    tree.visit_nodes(|_, depth, _| deepest = deepest.max(depth));
    tree.visit_nodes(|aabb, depth, _| {
        if depth <= max_depth {
            collide2d::draw::draw_aabb(d, *aabb, crate::palette::depth(depth, deepest));
        }
    });
    deepest
}

/// A small deterministic generator (the same numbers in the browser and natively).
#[derive(Clone, Copy)]
pub struct Lcg(pub u32);

impl Lcg {
    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (self.0 >> 8) as f32 / (1u32 << 24) as f32
    }
    /// A number in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

fn num(v: &str) -> Option<f32> {
    v.parse::<f32>().ok().filter(|x| x.is_finite())
}

/// Which of `centres` lies nearest `p`, if any is within `reach`.
fn nearest(centres: impl Iterator<Item = Vec2>, p: Vec2, reach: f32) -> Option<usize> {
    let mut best = None;
    let mut best_d = reach * reach;
    for (i, c) in centres.enumerate() {
        let d = (c - p).length_squared();
        if d <= best_d {
            best_d = d;
            best = Some(i);
        }
    }
    best
}

/// Dragging and turning one of a scene's poses (the pair explorer's two shapes, the time of
/// impact's four sweep ends): the pose picked last and the grab offset while dragging.
pub struct PoseDrag {
    /// The pose picked last (the one the wheel turns).
    pub selected: usize,
    offset: Option<Vec2>,
}

impl PoseDrag {
    /// Pose `selected` picked, nothing grabbed.
    pub fn new(selected: usize) -> PoseDrag {
        PoseDrag {
            selected,
            offset: None,
        }
    }

    /// A pointer event: down picks the pose whose origin is nearest `p` within `reach`, move
    /// drags it, up lets go. Returns whether a down picked a pose.
    pub fn pointer(&mut self, poses: &mut [Transform], kind: u32, p: Vec2, reach: f32) -> bool {
        match kind {
            POINTER_DOWN => {
                if let Some(i) = nearest(poses.iter().map(|x| x.p), p, reach) {
                    self.selected = i;
                    self.offset = Some(poses[i].p - p);
                    return true;
                }
            }
            POINTER_MOVE => {
                if let (Some(offset), Some(xf)) = (self.offset, poses.get_mut(self.selected)) {
                    xf.p = p + offset;
                }
            }
            _ => self.offset = None,
        }
        false
    }

    /// Turns the selected pose by `angle` (radians, counter-clockwise).
    pub fn rotate(&self, poses: &mut [Transform], angle: f32) {
        if let Some(xf) = poses.get_mut(self.selected) {
            xf.q = Rot::from_angle(xf.q.angle() + angle);
        }
    }
}

/// One of the scenes.
pub enum Scene {
    /// Two shapes: manifold, distance, overlap.
    Pair(Pair),
    /// Every pair of shape kinds at once, with their manifolds.
    Gallery(Gallery),
    /// A ray or a shape cast through a few shapes and a chain.
    Cast(Cast),
    /// Two sweeps and their time of impact.
    Toi(Toi),
    /// A dynamic tree of boxes and a box query.
    Tree(Tree),
    /// A `World`: pyramid, tumbler, or a tile map with a character.
    World(Box<WorldScene>),
}

impl Scene {
    /// The scene named `name` with its defaults, or `None`.
    pub fn new(name: &str) -> Option<Scene> {
        Some(match name {
            "pair" => Scene::Pair(Pair::new()),
            "gallery" => Scene::Gallery(Gallery::new()),
            "cast" => Scene::Cast(Cast::new()),
            "toi" => Scene::Toi(Toi::new()),
            "tree" => Scene::Tree(Tree::new()),
            "pyramid" | "tumbler" | "tiles" | "bullets" | "sensors" | "bridge" | "pyramids" | "joints"
            | "car" | "ragdoll" => Scene::World(Box::new(WorldScene::new(name))),
            _ => return None,
        })
    }

    /// Applies one parameter; unknown keys and bad values are ignored.
    pub fn set(&mut self, key: &str, value: &str) {
        match self {
            Scene::Pair(s) => s.set(key, value),
            Scene::Gallery(s) => s.set(key, value),
            Scene::Cast(s) => s.set(key, value),
            Scene::Toi(s) => s.set(key, value),
            Scene::Tree(s) => s.set(key, value),
            Scene::World(s) => s.set(key, value),
        }
    }

    /// Runs what the parameters scripted (steps of a world, moves of the tree), all of it.
    pub fn run_script(&mut self) {
        while self.script_step(u32::MAX) > 0 {}
    }

    /// Runs up to `budget` units of the script (a world's frames, the tree's operations);
    /// returns the units left (the page runs long scripts in slices, showing progress).
    pub fn script_step(&mut self, budget: u32) -> u32 {
        match self {
            Scene::Tree(s) => s.script_step(budget),
            Scene::World(s) => s.script_step(budget),
            _ => 0,
        }
    }

    /// A pointer event at world point `p` (`kind`: [`POINTER_DOWN`], [`POINTER_MOVE`],
    /// [`POINTER_UP`]; `button`: 0 primary, 2 secondary). Returns whether the scene took a
    /// down (picked, grabbed or started something); the page pans the camera when it did not.
    pub fn pointer(&mut self, kind: u32, p: Vec2, button: u32) -> bool {
        match self {
            Scene::Pair(s) => s.pointer(kind, p),
            // The secondary button is left to the page (it pans).
            Scene::Cast(_) if kind == POINTER_DOWN && button == 2 => false,
            Scene::Cast(s) => {
                s.pointer(kind, p);
                true
            }
            Scene::Toi(s) => s.pointer(kind, p),
            Scene::Tree(s) => {
                s.pointer(kind, p, button);
                true
            }
            Scene::World(s) => s.pointer(kind, p),
            // The gallery is to look at: every drag pans.
            Scene::Gallery(_) => false,
        }
    }

    /// Text labels at world points, appended to `out` as `x, y, label` triples (`label` one
    /// of the `LABEL_*` codes, exact in an `f32`): the pair explorer's shapes and its contact
    /// points' feature ids, the cast targets' numbers, the time of impact's sweep ends.
    pub fn labels(&self, out: &mut Vec<f32>) {
        let mut put = |p: Vec2, label: u32| out.extend([p.x, p.y, label as f32]);
        match self {
            Scene::Pair(s) => {
                put(s.xf[0].p, LABEL_A);
                put(s.xf[1].p, LABEL_B);
                for p in s.manifold().points() {
                    put(p.point, LABEL_FEATURE + (p.id & 0xFFFF));
                }
            }
            Scene::Gallery(g) => {
                for ((_, xa, _, xb), m) in g.pairs.iter().zip(g.manifolds()) {
                    put(xa.p, LABEL_A);
                    put(xb.p, LABEL_B);
                    for p in m.points() {
                        put(p.point, LABEL_FEATURE + (p.id & 0xFFFF));
                    }
                }
            }
            Scene::Cast(s) => {
                // At the centre of each target's box (a chain's segments share one origin).
                for (i, (shape, xf)) in s.targets.iter().enumerate() {
                    let b = shape.aabb(*xf);
                    put((b.min + b.max) * 0.5, LABEL_TARGET + i as u32);
                }
            }
            Scene::Toi(s) => {
                for (i, label) in [LABEL_A_START, LABEL_A_END, LABEL_B_START, LABEL_B_END]
                    .into_iter()
                    .enumerate()
                {
                    put(s.poses[i].p, label);
                }
            }
            _ => {}
        }
    }

    /// The wheel turned by `delta` notches (rotates the selected shape).
    pub fn wheel(&mut self, delta: f32) {
        match self {
            Scene::Pair(s) => s.rotate(delta * 0.1),
            Scene::Cast(s) => s.angle += delta * 0.1,
            Scene::Toi(s) => s.rotate(delta * 0.1),
            _ => {}
        }
    }

    /// A key went down or up.
    pub fn key(&mut self, code: u32, down: bool) {
        match self {
            Scene::World(s) => s.key(code, down),
            _ if down && code == KEY_ROTATE_CCW => self.wheel(1.0),
            _ if down && code == KEY_ROTATE_CW => self.wheel(-1.0),
            Scene::Tree(s) if down && code == KEY_DELETE => s.remove_selected(),
            _ => {}
        }
    }

    /// One simulation step (worlds only).
    pub fn step(&mut self) {
        if let Scene::World(s) = self {
            s.step();
        }
    }

    /// Shift-click at `p`: a world scene drops a body there; returns whether one was added.
    pub fn spawn(&mut self, p: Vec2) -> bool {
        match self {
            Scene::World(s) => s.spawn(p),
            _ => false,
        }
    }

    /// Whether the scene simulates (the page's pause and step buttons apply).
    pub fn simulates(&self) -> bool {
        matches!(self, Scene::World(_))
    }

    /// Draws the scene.
    pub fn draw(&self, d: &mut impl DebugDraw) {
        match self {
            Scene::Pair(s) => s.draw(d),
            Scene::Gallery(s) => s.draw(d),
            Scene::Cast(s) => s.draw(d),
            Scene::Toi(s) => s.draw(d),
            Scene::Tree(s) => s.draw(d),
            Scene::World(s) => s.draw(d),
        }
    }

    /// The scene's numbers (see each scene's `results`).
    pub fn results(&self, out: &mut Vec<f32>) {
        match self {
            Scene::Pair(s) => s.results(out),
            Scene::Gallery(s) => s.results(out),
            Scene::Cast(s) => s.results(out),
            Scene::Toi(s) => s.results(out),
            Scene::Tree(s) => s.results(out),
            Scene::World(s) => s.results(out),
        }
    }

    /// The depth range the scene's tree colours span when it draws a tree (the page's legend
    /// ramp), or `None`.
    pub fn tree_depth(&self) -> Option<u32> {
        match self {
            Scene::Tree(s) => Some(s.deepest()),
            Scene::World(s) => s.tree_depth(),
            _ => None,
        }
    }

    /// The world rectangle the page shows.
    pub fn view(&self) -> Aabb {
        let b = |x0, y0, x1, y1| Aabb {
            min: Vec2::new(x0, y0),
            max: Vec2::new(x1, y1),
        };
        match self {
            Scene::Pair(_) | Scene::Toi(_) => b(-4.0, -3.0, 4.0, 3.0),
            Scene::Gallery(g) => g.view(),
            Scene::Cast(_) => b(-6.0, -4.0, 6.0, 4.0),
            Scene::Tree(_) => b(-22.0, -14.0, 22.0, 14.0),
            Scene::World(s) => s.view,
        }
    }
}
