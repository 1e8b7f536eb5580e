//! `World` scenes: pyramid, tumbler, tile map with a character.
use collide2d::draw::{draw_shape, Color, DebugDraw};
use collide2d::*;

use super::*;

/// Category bits of the tile-map scene.
const LEVEL: u64 = 1;
const PROPS: u64 = 2;

/// The tile map, top row first: `#` solid, `=` a one-way platform's span.
const MAP: [&str; 14] = [
    "#......................................#",
    "#......................................#",
    "#......................................#",
    "#......................................#",
    "#......................................#",
    "#......................................#",
    "#..................=======.............#",
    "#...........###.................##.....#",
    "#..............................####....#",
    "#.......##....................#####....#",
    "#......####..................######....#",
    "#.....######...........########..##....#",
    "########################################",
    "########################################",
];

/// The character of the tile-map scene: a capsule moved by `move_and_slide`.
pub struct Character {
    shape: Shape,
    xf: Transform,
    velocity: Vec2,
    on_ground: bool,
    /// The last move, for its mover planes.
    last: MoveResult,
}

/// A `World` scene.
/// A body held by the pointer: a motor joint from the scene's mouse body pulls the point of
/// the body under the pointer (`local`, body frame) towards the pointer (`target`) with a
/// spring of 5 Hz, damping ratio 0.7 and at most [`GRAB_FORCE_PER_KG`] newtons per kilogram of
/// the body (Box2D's samples use 1 000): it lifts the body and drags it against friction, but
/// pulling a box out of a pile pushes its neighbours no harder than that.
#[derive(Clone, Copy)]
struct Grab {
    body: BodyId,
    joint: JointId,
    local: Vec2,
    target: Vec2,
}

/// The grip's force bound per kilogram of the held body (N/kg): 50 times gravity.
pub const GRAB_FORCE_PER_KG: f32 = 500.0;

pub struct WorldScene {
    world: World,
    /// Every body, in creation order (for the end-state hash).
    bodies: Vec<BodyId>,
    character: Option<Character>,
    /// Held keys: bit 0 left, 1 right, 2 jump.
    keys: u32,
    /// Scripted key states: (keys, frames).
    input: Vec<(u32, u32)>,
    steps_script: u32,
    /// Frames of the script stepped so far.
    steps_scripted: u32,
    steps: u32,
    flags: DrawFlags,
    pub(super) view: Aabb,
    /// The pointer's grip on a body (a force-limited motor joint), if any.
    grab: Option<Grab>,
    /// The static body the grip's joint pulls from (frame A at the pointer), made on the
    /// first grab; it collides with nothing.
    mouse: Option<BodyId>,
    name: &'static str,
    size: u32,
    settings: Settings,
    /// The deepest tree level drawn (`depth`; all by default).
    max_depth: u32,
    /// The sensor zones' bodies (the sensors scene) and the joints (the bridge).
    sensors: Vec<BodyId>,
    joints: Vec<JointId>,
    /// The car scene's chassis.
    car: Option<BodyId>,
    /// Sensor begin and end events seen since the scene was built.
    sensor_events: (u32, u32),
    /// Bodies spawned by shift-click so far (the next one's shape follows from it).
    spawned: u32,
}

/// The live settings of a world scene (the page's controls, written into its URL), kept when
/// the scene is rebuilt (`size`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Sub-steps per step, 1 to 64 (`substeps`).
    pub substeps: u32,
    /// Gravity along y in m/s², −1000 to 1000 (`gravity`).
    pub gravity: f32,
    /// Contact stiffness in hertz, 1 to 1000 (`hertz`).
    pub contact_hertz: f32,
    /// Whether bodies fall asleep (`sleep`).
    pub sleep: bool,
    /// Whether fast bodies are swept (`continuous`).
    pub continuous: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            substeps: 4,
            gravity: -10.0,
            contact_hertz: SolverSettings::default().contact_hertz,
            sleep: true,
            continuous: true,
        }
    }
}

impl WorldScene {
    pub(super) fn new(name: &str) -> WorldScene {
        let mut s = WorldScene {
            world: World::default(),
            bodies: Vec::new(),
            character: None,
            keys: 0,
            input: Vec::new(),
            steps_script: 0,
            steps_scripted: 0,
            steps: 0,
            flags: DrawFlags::default(),
            view: Aabb::default(),
            grab: None,
            mouse: None,
            name: "pyramid",
            size: 0,
            settings: Settings::default(),
            max_depth: u32::MAX,
            sensors: Vec::new(),
            joints: Vec::new(),
            sensor_events: (0, 0),
            car: None,
            spawned: 0,
        };
        s.build(name, 0);
        s
    }

    /// (Re)builds the scene `name`; `size` is the pyramid's base or the tumbler's grid (0 for
    /// the default).
    pub(super) fn build(&mut self, name: &str, size: u32) {
        self.world = World::default();
        self.world
            .set_settings(SolverSettings {
                gravity: Vec2::new(0.0, -10.0),
                ..*self.world.settings()
            })
            .unwrap();
        self.bodies.clear();
        self.sensors.clear();
        self.joints.clear();
        self.sensor_events = (0, 0);
        self.car = None;
        self.character = None;
        self.grab = None;
        self.mouse = None;
        self.steps = 0;
        match name {
            "tumbler" => self.build_tumbler(if size == 0 { 45 } else { size.min(100) }),
            "tiles" => self.build_tiles(),
            "bullets" => self.build_bullets(if size == 0 { 12 } else { size.min(100) }),
            "sensors" => self.build_sensors(if size == 0 { 30 } else { size.min(1000) }),
            "bridge" => self.build_bridge(if size == 0 { 40 } else { size.clamp(2, 400) }),
            "pyramids" => self.build_many_pyramids(if size == 0 { 4 } else { size.min(20) }),
            "joints" => self.build_joint_grid(if size == 0 { 30 } else { size.clamp(2, 100) }),
            "car" => self.build_car(),
            "ragdoll" => self.build_ragdolls(if size == 0 { 4 } else { size.min(100) }),
            _ => self.build_pyramid(if size == 0 { 20 } else { size.min(100) }),
        }
        self.size = size;
        self.spawned = 0;
        self.apply_settings();
    }

    /// The depth range of the broad-phase tree when it is drawn.
    pub fn tree_depth(&self) -> Option<u32> {
        self.flags.tree.then(|| {
            let mut deepest = 0;
            self.world
                .tree()
                .visit_nodes(|_, depth, _| deepest = deepest.max(depth));
            deepest
        })
    }

    /// The last step's profile, in [`crate::clock`] ticks.
    pub fn profile(&self) -> StepProfile {
        self.world.profile()
    }

    /// Gives the world the scene's [`Settings`] (each was checked when set).
    fn apply_settings(&mut self) {
        let s = self.settings;
        let _ = self.world.set_settings(SolverSettings {
            gravity: Vec2::new(0.0, s.gravity),
            contact_hertz: s.contact_hertz,
            ..*self.world.settings()
        });
        self.world.set_sleep_enabled(s.sleep);
        self.world.set_continuous_enabled(s.continuous);
        self.world.set_profile_clock(Some(crate::clock::now));
    }

    /// The scene's live settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Drops a dynamic body at `p` (shift-click): a box, a ball, a capsule and a pentagon in
    /// turn, about one unit across. Returns whether it was added.
    pub fn spawn(&mut self, p: Vec2) -> bool {
        let shape = match self.spawned % 4 {
            0 => Shape::rect(0.5, 0.5),
            1 => Shape::circle(0.5),
            2 => Shape::capsule(Vec2::new(-0.4, 0.0), Vec2::new(0.4, 0.0), 0.3),
            _ => match shape_of("polygon") {
                Some(s) => s,
                None => Shape::rect(0.5, 0.5),
            },
        };
        self.spawned += 1;
        self.add(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::new(p, 0.3 * self.spawned as f32),
            shape,
        ))
        .is_some()
    }

    pub(super) fn add(&mut self, def: &BodyDef) -> Option<BodyId> {
        let id = self.world.add_body(def).ok()?;
        self.bodies.push(id);
        Some(id)
    }

    pub(super) fn build_pyramid(&mut self, base: u32) {
        self.name = "pyramid";
        let ground = Shape::rect(50.0, 1.0);
        self.add(&BodyDef::new(
            BodyKind::Static,
            Transform::from(Vec2::new(0.0, -1.0)),
            ground,
        ));
        let h = 0.5;
        for row in 0..base {
            for col in row..base {
                let x = (row as f32 + 1.0) * h + 2.0 * (col - row) as f32 * h - base as f32 * h;
                let y = (2.0 * row as f32 + 1.0) * h;
                self.add(&BodyDef::new(
                    BodyKind::Dynamic,
                    Transform::from(Vec2::new(x, y)),
                    Shape::rect(h, h),
                ));
            }
        }
        // The boxes span x in [-base h, base h] and y in [0, 2 base h]; a margin around them.
        let w = base as f32 * h + 2.0;
        self.view = Aabb {
            min: Vec2::new(-w, -2.0),
            max: Vec2::new(w, 2.0 * base as f32 * h + 1.5),
        };
    }

    /// Bullets through thin walls: `n` small balls fired at 250 m/s (four metres a step)
    /// at three static walls 5 cm thick; with continuous collision (the default) every ball
    /// stops at the first wall, without it they tunnel (the settings' checkbox).
    pub(super) fn build_bullets(&mut self, n: u32) {
        self.name = "bullets";
        self.add(&BodyDef::new(
            BodyKind::Static,
            Transform::from(Vec2::new(0.0, -1.0)),
            Shape::rect(40.0, 1.0),
        ));
        for x in [10.0f32, 14.0, 18.0] {
            self.add(&BodyDef::new(
                BodyKind::Static,
                Transform::from(Vec2::new(x, 5.0)),
                Shape::rect(0.025, 5.0),
            ));
        }
        for i in 0..n {
            let y = 0.5 + 8.0 * (i as f32 + 0.5) / n as f32;
            let def = BodyDef {
                linear_velocity: Vec2::new(250.0, 0.0),
                gravity_scale: 0.0,
                ..BodyDef::new(
                    BodyKind::Dynamic,
                    Transform::from(Vec2::new(-10.0, y)),
                    Shape::circle(0.1),
                )
            };
            self.add(&def);
        }
        self.view = Aabb {
            min: Vec2::new(-14.0, -2.0),
            max: Vec2::new(24.0, 11.0),
        };
    }

    /// Sensors: `n` balls and boxes rain through two sensor zones onto the ground; the readout
    /// counts the zones' begin and end events (their difference: the bodies inside now).
    pub(super) fn build_sensors(&mut self, n: u32) {
        self.name = "sensors";
        self.add(&BodyDef::new(
            BodyKind::Static,
            Transform::from(Vec2::new(0.0, -1.0)),
            Shape::rect(20.0, 1.0),
        ));
        for x in [-5.0f32, 5.0] {
            let zone = BodyDef {
                sensor: true,
                ..BodyDef::new(
                    BodyKind::Static,
                    Transform::from(Vec2::new(x, 6.0)),
                    Shape::rect(3.0, 2.0),
                )
            };
            if let Some(id) = self.add(&zone) {
                self.sensors.push(id);
            }
        }
        let mut rng = Lcg(11);
        for i in 0..n {
            let p = Vec2::new(rng.range(-9.0, 9.0), 10.5 + 5.0 * i as f32 / n as f32);
            let shape = if i % 2 == 0 {
                Shape::circle(0.3)
            } else {
                Shape::rect(0.3, 0.3)
            };
            self.add(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::new(p, rng.range(0.0, 3.0)),
                shape,
            ));
        }
        self.view = Aabb {
            min: Vec2::new(-12.0, -2.0),
            max: Vec2::new(12.0, 16.0),
        };
    }

    /// A bridge of `n` planks (each 1 m × 0.25 m, 1 kg) hinged end to end between two
    /// static posts 0.5 m apart from the deck's ends, with boxes dropped onto it; Box2D's
    /// bridge sample in this world.
    pub(super) fn build_bridge(&mut self, n: u32) {
        self.name = "bridge";
        let (half, y) = (0.5f32, 10.0f32);
        let span = 2.0 * half * n as f32;
        let x0 = -0.5 * span;
        let left = self.add(&BodyDef::new(
            BodyKind::Static,
            Transform::from(Vec2::new(x0 - 0.25, y)),
            Shape::rect(0.25, 0.25),
        ));
        let right = self.add(&BodyDef::new(
            BodyKind::Static,
            Transform::from(Vec2::new(-x0 + 0.25, y)),
            Shape::rect(0.25, 0.25),
        ));
        let mut prev = left.map(|id| (id, Vec2::new(0.25, 0.0)));
        for i in 0..n {
            let c = Vec2::new(x0 + half + 2.0 * half * i as f32, y);
            let Some(plank) = self.add(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from(c),
                Shape::rect(half, 0.125),
            )) else {
                continue;
            };
            if let Some((a, at)) = prev {
                self.join(
                    JointKind::Revolute(RevoluteJoint::default()),
                    (a, at),
                    (plank, Vec2::new(-half, 0.0)),
                );
            }
            prev = Some((plank, Vec2::new(half, 0.0)));
        }
        if let (Some((a, at)), Some(r)) = (prev, right) {
            self.join(
                JointKind::Revolute(RevoluteJoint::default()),
                (a, at),
                (r, Vec2::new(-0.25, 0.0)),
            );
        }
        for k in 0..(n / 4).max(1) {
            let x = x0 + span * (k as f32 + 0.5) / (n / 4).max(1) as f32;
            self.add(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from(Vec2::new(x, y + 3.0)),
                Shape::rect(0.4, 0.4),
            ));
        }
        let w = 0.5 * span + 3.0;
        self.view = Aabb {
            min: Vec2::new(-w, y - 0.25 * span.min(40.0) - 3.0),
            max: Vec2::new(w, y + 5.0),
        };
    }

    /// The world (for tests and readouts).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The scene's joints (bridge, joint grid, car, ragdolls).
    pub fn joints(&self) -> &[JointId] {
        &self.joints
    }

    /// The sensors scene's zones.
    pub fn sensor_zones(&self) -> &[BodyId] {
        &self.sensors
    }

    /// Box2D's "many pyramids" benchmark, `n × n` of them (20 × 20 at full size: 22 000
    /// boxes): pyramids of base 10 of unit boxes, a row of them on each of `n` static ground
    /// segments one pyramid height apart (the layout of `peers/src/scenes.rs`).
    pub(super) fn build_many_pyramids(&mut self, n: u32) {
        self.name = "pyramids";
        let (base, extent) = (10u32, 0.5f32);
        let dy = 2.0 * extent * (base as f32 + 1.0);
        let width = 2.0 * extent * n as f32 * (base as f32 + 1.0);
        for i in 0..n {
            let y = i as f32 * dy;
            let ground = Shape::capsule(Vec2::new(-0.5 * width, y), Vec2::new(0.5 * width, y), 0.0);
            self.add(&BodyDef::new(BodyKind::Static, Transform::IDENTITY, ground));
        }
        let base_w = 2.0 * extent * base as f32;
        for i in 0..n {
            for j in 0..n {
                let cx = -0.5 * width + j as f32 * (base_w + 2.0 * extent) + 2.0 * extent - 0.5;
                for row in 0..base {
                    let y = (2.0 * row as f32 + 1.0) * extent + i as f32 * dy;
                    for col in row..base {
                        let x = (row as f32 + 1.0) * extent + 2.0 * (col - row) as f32 * extent + cx;
                        self.add(&BodyDef::new(
                            BodyKind::Dynamic,
                            Transform::from(Vec2::new(x, y)),
                            Shape::rect(extent, extent),
                        ));
                    }
                }
            }
        }
        self.view = Aabb {
            min: Vec2::new(-0.5 * width - 1.0, -2.0),
            max: Vec2::new(0.5 * width + 1.0, n as f32 * dy + 1.0),
        };
    }

    /// Box2D's "joint grid" benchmark, `n × n` (100 × 100 at full size): circles of radius 0.4
    /// one metre apart, each hinged to the one above and the one to its left (anchors half-way),
    /// seven of the top row static; the circles do not collide with each other and never sleep.
    pub(super) fn build_joint_grid(&mut self, n: u32) {
        self.name = "joints";
        let filter = Filter {
            category_bits: 2,
            mask_bits: !2u64,
            group_index: 0,
        };
        let mut ids = Vec::with_capacity((n * n) as usize);
        for k in 0..n {
            for i in 0..n {
                let fixed = k + 3 >= n / 2 && k <= n / 2 + 3 && i == 0;
                let kind = if fixed {
                    BodyKind::Static
                } else {
                    BodyKind::Dynamic
                };
                let def = BodyDef {
                    filter,
                    enable_sleep: false,
                    ..BodyDef::new(
                        kind,
                        Transform::from(Vec2::new(k as f32, -(i as f32))),
                        Shape::circle(0.4),
                    )
                };
                let id = self.add(&def);
                ids.push(id);
                let hinge = JointKind::Revolute(RevoluteJoint::default());
                let index = ids.len() - 1;
                if let (true, Some(above), Some(b)) = (i > 0, ids[index.saturating_sub(1)], id) {
                    self.join(hinge, (above, Vec2::new(0.0, -0.5)), (b, Vec2::new(0.0, 0.5)));
                }
                if let (true, Some(left), Some(b)) = (k > 0, ids[index.saturating_sub(n as usize)], id) {
                    self.join(hinge, (left, Vec2::new(0.5, 0.0)), (b, Vec2::new(-0.5, 0.0)));
                }
            }
        }
        let side = n as f32;
        self.view = Aabb {
            min: Vec2::new(-0.5 * side, -1.6 * side),
            max: Vec2::new(1.5 * side, 1.0),
        };
    }

    /// A car on hilly ground: a chassis on two wheels, each on a wheel joint (a vertical
    /// suspension spring of 4 Hz, damping ratio 0.7, and a motor of at most 8 N·m); the arrow
    /// keys (or `input=R…`) drive the motors. The ground is one chain of slopes up to 0.5 and
    /// a ramp.
    pub(super) fn build_car(&mut self) {
        self.name = "car";
        let ground: [Vec2; 14] = [
            Vec2::new(-30.0, 6.0),
            Vec2::new(-30.0, 0.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(10.0, 1.5),
            Vec2::new(16.0, 0.5),
            Vec2::new(24.0, 3.0),
            Vec2::new(30.0, 3.0),
            Vec2::new(40.0, 0.0),
            Vec2::new(50.0, 0.0),
            Vec2::new(60.0, 5.0),
            Vec2::new(62.0, 5.0),
            Vec2::new(64.0, 0.0),
            Vec2::new(100.0, 0.0),
            Vec2::new(100.0, 6.0),
        ];
        // A chain's front side is to the right of its direction: listed right to left, the
        // solid side faces up.
        let mut ground = ground;
        ground.reverse();
        if let Ok(chain) = Chain::open(&ground) {
            if let Ok(id) = self.world.add_chain(&ChainDef::new(&chain)) {
                self.bodies.extend(self.world.chain_body(id));
            }
        }
        let at = Vec2::new(-20.0, 1.2);
        let Some(chassis) = self.add(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from(at),
            Shape::rect(1.25, 0.25),
        )) else {
            return;
        };
        self.car = Some(chassis);
        for dx in [-0.9f32, 0.9] {
            let wheel_at = at + Vec2::new(dx, -0.45);
            let def = BodyDef {
                material: Material {
                    friction: 1.2,
                    ..Material::default()
                },
                ..BodyDef::new(BodyKind::Dynamic, Transform::from(wheel_at), Shape::circle(0.4))
            };
            let Some(wheel) = self.add(&def) else { continue };
            let kind = JointKind::Wheel(WheelJoint {
                enable_spring: true,
                hertz: 4.0,
                damping_ratio: 0.7,
                enable_motor: true,
                max_motor_torque: 8.0,
                ..WheelJoint::default()
            });
            let mut def = JointDef::new(kind, chassis, wheel);
            // Frame A's x axis is the suspension's: straight up from the chassis.
            def.local_frame_a = Transform::new(Vec2::new(dx, -0.45), core::f32::consts::FRAC_PI_2);
            self.add_joint(&def);
        }
        // The start and the first hill (pan or zoom out for the rest).
        self.view = Aabb {
            min: Vec2::new(-31.0, -3.0),
            max: Vec2::new(11.0, 9.0),
        };
    }

    /// `n` ragdolls dropped onto the ground, one above the other: a torso, a head, two arms
    /// and two legs (capsules and a circle) on revolute joints with limits at the neck, the
    /// shoulders and the hips; the parts of one ragdoll do not collide with each other.
    pub(super) fn build_ragdolls(&mut self, n: u32) {
        self.name = "ragdoll";
        self.add(&BodyDef::new(
            BodyKind::Static,
            Transform::from(Vec2::new(0.0, -1.0)),
            Shape::rect(15.0, 1.0),
        ));
        let pi = core::f32::consts::PI;
        for k in 0..n {
            let hip = Vec2::new(
                -4.0 + 2.7 * (k % 4) as f32,
                2.0 + 3.0 * (k / 4) as f32 + 0.6 * k as f32,
            );
            let lean = 0.4 * (k as f32 - 1.5);
            let part = |this: &mut WorldScene, at: Vec2, shape: Shape| {
                this.add(&BodyDef::new(
                    BodyKind::Dynamic,
                    Transform::new(hip + at, lean),
                    shape,
                ))
            };
            let limb = |len: f32, r: f32| Shape::capsule(Vec2::new(0.0, 0.0), Vec2::new(0.0, -len), r);
            let Some(torso) = part(
                self,
                Vec2::ZERO,
                Shape::capsule(Vec2::ZERO, Vec2::new(0.0, 0.6), 0.16),
            ) else {
                continue;
            };
            let parts = [
                (
                    part(self, Vec2::new(0.0, 0.95), Shape::circle(0.18)),
                    Vec2::new(0.0, 0.78),
                    Vec2::new(0.0, -0.17),
                    (-0.5, 0.5),
                ),
                (
                    part(self, Vec2::new(-0.25, 0.55), limb(0.55, 0.07)),
                    Vec2::new(-0.2, 0.55),
                    Vec2::new(0.05, 0.0),
                    (-2.5, 1.0),
                ),
                (
                    part(self, Vec2::new(0.25, 0.55), limb(0.55, 0.07)),
                    Vec2::new(0.2, 0.55),
                    Vec2::new(-0.05, 0.0),
                    (-1.0, 2.5),
                ),
                (
                    part(self, Vec2::new(-0.1, -0.05), limb(0.75, 0.09)),
                    Vec2::new(-0.1, -0.05),
                    Vec2::ZERO,
                    (-1.5, 0.6),
                ),
                (
                    part(self, Vec2::new(0.1, -0.05), limb(0.75, 0.09)),
                    Vec2::new(0.1, -0.05),
                    Vec2::ZERO,
                    (-0.6, 1.5),
                ),
            ];
            for (body, on_torso, on_part, (lower, upper)) in parts {
                let (lower, upper): (f32, f32) = (lower, upper);
                let Some(body) = body else { continue };
                let kind = JointKind::Revolute(RevoluteJoint {
                    enable_limit: true,
                    lower_angle: lower.max(-0.99 * pi),
                    upper_angle: upper.min(0.99 * pi),
                    ..RevoluteJoint::default()
                });
                self.join(kind, (torso, on_torso), (body, on_part));
            }
        }
        self.view = Aabb {
            min: Vec2::new(-8.0, -2.0),
            max: Vec2::new(8.0, 4.0 + 3.6 * n.div_ceil(4) as f32 + 0.6 * n as f32),
        };
    }

    /// The car's motors from the held keys: right turns the wheels clockwise at 30 rad/s,
    /// left the other way, neither stops them (the motors brake up to their torque).
    fn drive(&mut self) {
        let speed = match (
            self.keys & (1 << KEY_LEFT) != 0,
            self.keys & (1 << KEY_RIGHT) != 0,
        ) {
            (false, true) => -30.0,
            (true, false) => 30.0,
            _ => 0.0,
        };
        for &j in &self.joints {
            if let Ok(JointDef {
                kind: JointKind::Wheel(mut w),
                ..
            }) = self.world.joint(j)
            {
                if w.motor_speed != speed {
                    w.motor_speed = speed;
                    let _ = self.world.set_joint_kind(j, JointKind::Wheel(w));
                }
            }
        }
    }

    /// The car's chassis, in the car scene.
    pub fn car(&self) -> Option<BodyId> {
        self.car
    }

    /// Adds a joint of `kind` between `(a, anchor on a)` and `(b, anchor on b)` (body frames,
    /// frames unturned) to the world and to the scene's joints.
    fn join(&mut self, kind: JointKind, (a, at_a): (BodyId, Vec2), (b, at_b): (BodyId, Vec2)) {
        let mut def = JointDef::new(kind, a, b);
        def.local_frame_a = Transform::from_translation(at_a);
        def.local_frame_b = Transform::from_translation(at_b);
        self.add_joint(&def);
    }

    /// Adds joint `def` to the world and to the scene's joints (a refused one is left out).
    fn add_joint(&mut self, def: &JointDef) {
        if let Ok(j) = self.world.add_joint(def) {
            self.joints.push(j);
        }
    }

    /// The largest distance between the two anchors of any of the scene's joints, in metres
    /// (how far the bridge's hinges have pulled apart).
    pub fn joint_gap(&self) -> f32 {
        let mut gap = 0.0f32;
        for &j in &self.joints {
            let Ok(def) = self.world.joint(j) else { continue };
            let (Ok(xa), Ok(xb)) = (self.world.transform(def.body_a), self.world.transform(def.body_b))
            else {
                continue;
            };
            let (a, b) = (xa.apply(def.local_frame_a.p), xb.apply(def.local_frame_b.p));
            gap = gap.max(a.distance(b));
        }
        gap
    }

    pub(super) fn build_tumbler(&mut self, n: u32) {
        self.name = "tumbler";
        let speed = 25.0 * core::f32::consts::PI / 180.0;
        for (hx, hy, c) in [
            (0.5, 10.0, Vec2::new(10.0, 0.0)),
            (0.5, 10.0, Vec2::new(-10.0, 0.0)),
            (10.0, 0.5, Vec2::new(0.0, 10.0)),
            (10.0, 0.5, Vec2::new(0.0, -10.0)),
        ] {
            let Ok(wall) = Polygon::make_offset_box(hx, hy, c, Rot::IDENTITY) else {
                continue;
            };
            self.add(&BodyDef {
                angular_velocity: speed,
                ..BodyDef::new(
                    BodyKind::Kinematic,
                    Transform::from(Vec2::new(0.0, 10.0)),
                    Shape::Polygon(wall),
                )
            });
        }
        let spacing = 8.0 / n as f32;
        let half = (0.3 * spacing).min(0.125);
        for i in 0..n {
            for j in 0..n {
                let p = Vec2::new(
                    -4.0 + (j as f32 + 0.5) * spacing,
                    6.0 + (i as f32 + 0.5) * spacing,
                );
                self.add(&BodyDef::new(
                    BodyKind::Dynamic,
                    Transform::from(p),
                    Shape::rect(half, half),
                ));
            }
        }
        self.view = Aabb {
            min: Vec2::new(-15.0, -5.0),
            max: Vec2::new(15.0, 25.0),
        };
    }

    pub(super) fn build_tiles(&mut self) {
        self.name = "tiles";
        let (w, h) = (MAP[0].len(), MAP.len());
        let mut cells = vec![false; w * h];
        let mut platform: Option<(usize, usize, usize)> = None;
        for (row, line) in MAP.iter().enumerate() {
            let y = h - 1 - row;
            for (x, c) in line.bytes().enumerate() {
                cells[y * w + x] = c == b'#';
                if c == b'=' {
                    let (x0, _, _) = platform.unwrap_or((x, x, y));
                    platform = Some((x0, x, y));
                }
            }
        }
        fn level(chain: &Chain) -> ChainDef<'_> {
            ChainDef {
                filter: Filter {
                    category_bits: LEVEL,
                    ..Filter::DEFAULT
                },
                ..ChainDef::new(chain)
            }
        }
        if let Ok(outlines) = tile_outlines_from_cells(w, h, &cells, 1.0, Vec2::ZERO) {
            for chain in &outlines {
                if let Ok(id) = self.world.add_chain(&level(chain)) {
                    self.bodies.extend(self.world.chain_body(id));
                }
            }
        }
        if let Some((x0, x1, y)) = platform {
            // A one-way platform along the top of the `=` cells, listed right to left so its
            // solid side faces up.
            let top = y as f32 + 1.0;
            if let Ok(chain) = Chain::open(&[Vec2::new(x1 as f32 + 1.0, top), Vec2::new(x0 as f32, top)]) {
                if let Ok(id) = self.world.add_chain(&level(&chain)) {
                    self.bodies.extend(self.world.chain_body(id));
                }
            }
        }
        // Props: boxes and balls dropped onto the terrain.
        let mut rng = Lcg(7);
        for i in 0..24 {
            let p = Vec2::new(rng.range(6.0, 37.0), rng.range(6.0, 12.0));
            let shape = if i % 3 == 0 {
                Shape::circle(0.35)
            } else {
                Shape::rect(0.35, 0.35)
            };
            self.add(&BodyDef {
                filter: Filter {
                    category_bits: PROPS,
                    ..Filter::DEFAULT
                },
                ..BodyDef::new(BodyKind::Dynamic, Transform::new(p, rng.range(0.0, 3.0)), shape)
            });
        }
        self.character = Some(Character {
            shape: Shape::capsule(Vec2::new(0.0, -0.3), Vec2::new(0.0, 0.3), 0.3),
            xf: Transform::from(Vec2::new(2.5, 2.61)),
            velocity: Vec2::ZERO,
            on_ground: false,
            last: MoveResult::default(),
        });
        self.view = Aabb {
            min: Vec2::new(-1.0, -1.0),
            max: Vec2::new(w as f32 + 1.0, h as f32 + 1.0),
        };
    }

    pub(super) fn set(&mut self, key: &str, value: &str) {
        let count = || value.parse::<u32>().ok();
        match key {
            "size" => {
                if let Some(n) = count() {
                    self.build(self.name, n);
                }
            }
            "depth" => self.max_depth = count().unwrap_or(self.max_depth),
            "steps" => self.steps_script = count().unwrap_or(0).min(100_000),
            "sleep" => {
                self.settings.sleep = value != "0";
                self.apply_settings();
            }
            "continuous" => {
                self.settings.continuous = value != "0";
                self.apply_settings();
            }
            "substeps" => {
                if let Some(n) = count().filter(|n| (1..=64).contains(n)) {
                    self.settings.substeps = n;
                }
            }
            "gravity" => {
                if let Some(g) = num(value).filter(|g| g.abs() <= 1000.0) {
                    self.settings.gravity = g;
                    self.apply_settings();
                }
            }
            "hertz" => {
                if let Some(hz) = num(value).filter(|hz| (1.0..=1000.0).contains(hz)) {
                    self.settings.contact_hertz = hz;
                    self.apply_settings();
                }
            }
            "draw" => {
                if let Some(bits) = count() {
                    self.flags = DrawFlags {
                        shapes: bits & 1 != 0,
                        bounds: bits & 2 != 0,
                        contacts: bits & 4 != 0,
                        transforms: bits & 8 != 0,
                        tree: bits & 16 != 0,
                        joints: bits & 32 != 0,
                    };
                }
            }
            // Held keys per frame: a comma-separated list of `<keys><frames>`, keys from
            // `L` (left), `R` (right), `J` (jump) or `-` (none), e.g. `R90,RJ1,R60`.
            "input" => {
                self.input = value
                    .split(',')
                    .filter_map(|part| {
                        let digits = part.find(|c: char| c.is_ascii_digit())?;
                        let frames = part[digits..].parse::<u32>().ok()?;
                        let keys = part[..digits].bytes().fold(0, |k, c| {
                            k | match c {
                                b'L' => 1 << KEY_LEFT,
                                b'R' => 1 << KEY_RIGHT,
                                b'J' => 1 << KEY_JUMP,
                                _ => 0,
                            }
                        });
                        Some((keys, frames.min(100_000)))
                    })
                    .collect();
            }
            _ => {}
        }
    }

    /// Frames the script still has to step.
    pub(super) fn script_remaining(&self) -> u32 {
        self.steps_script.saturating_sub(self.steps_scripted)
    }

    /// Steps up to `budget` of the script's frames, each with the keys its `input` holds
    /// down in that frame (none after the input runs out); returns the frames left.
    pub(super) fn script_step(&mut self, budget: u32) -> u32 {
        for _ in 0..budget.min(self.script_remaining()) {
            let frame = self.steps_scripted;
            let mut start = 0u32;
            self.keys = 0;
            for &(keys, frames) in &self.input {
                if frame < start.saturating_add(frames) {
                    self.keys = keys;
                    break;
                }
                start = start.saturating_add(frames);
            }
            self.step();
            self.steps_scripted += 1;
        }
        if self.script_remaining() == 0 {
            self.keys = 0;
            self.input.clear();
        }
        self.script_remaining()
    }

    pub(super) fn key(&mut self, code: u32, down: bool) {
        if code <= KEY_JUMP {
            if down {
                self.keys |= 1 << code;
            } else {
                self.keys &= !(1 << code);
            }
        }
    }

    /// Returns whether a down grabbed a body.
    pub(super) fn pointer(&mut self, kind: u32, p: Vec2) -> bool {
        match kind {
            POINTER_DOWN => {
                let mut found = None;
                self.world.overlap_shape(
                    &Shape::circle(0.01),
                    Transform::from(p),
                    &QueryFilter::ALL,
                    |id| {
                        if self.world.kind(id) == Ok(BodyKind::Dynamic) {
                            found = Some(id);
                            return false;
                        }
                        true
                    },
                );
                self.release();
                if let Some(id) = found {
                    self.grab = self.hold(id, p);
                }
                return self.grab.is_some();
            }
            POINTER_MOVE => {
                if let Some(g) = &mut self.grab {
                    g.target = p;
                    let frame_b = Transform::from_translation(g.local);
                    let _ = self
                        .world
                        .set_joint_frames(g.joint, Transform::from_translation(p), frame_b);
                }
            }
            _ => self.release(),
        }
        false
    }

    /// Takes hold of body `id` at the world point `p` (see [`Grab`]).
    fn hold(&mut self, id: BodyId, p: Vec2) -> Option<Grab> {
        let mouse = match self.mouse {
            Some(m) => m,
            None => {
                let mut def = BodyDef::new(BodyKind::Static, Transform::IDENTITY, Shape::circle(0.01));
                def.filter = Filter {
                    category_bits: 0,
                    mask_bits: 0,
                    group_index: 0,
                };
                let m = self.world.add_body(&def).ok()?;
                self.mouse = Some(m);
                m
            }
        };
        let xf = self.world.transform(id).ok()?;
        let body = self.world.body(id).ok()?;
        let mass = if body.inv_mass > 0.0 {
            1.0 / body.inv_mass
        } else {
            0.0
        };
        let local = xf.inv_mul(Transform::from_translation(p)).p;
        let kind = JointKind::Motor(MotorJoint {
            linear_hertz: 5.0,
            linear_damping_ratio: 0.7,
            max_spring_force: GRAB_FORCE_PER_KG * mass,
            ..MotorJoint::default()
        });
        let mut def = JointDef::new(kind, mouse, id);
        def.local_frame_a = Transform::from_translation(p);
        def.local_frame_b = Transform::from_translation(local);
        def.collide_connected = true;
        let joint = self.world.add_joint(&def).ok()?;
        Some(Grab {
            body: id,
            joint,
            local,
            target: p,
        })
    }

    /// Lets go of the held body, if any.
    fn release(&mut self) {
        if let Some(g) = self.grab.take() {
            let _ = self.world.remove_joint(g.joint);
        }
    }

    /// Every body's transform, in creation order (the grip's mouse body is not one of them).
    pub fn body_transforms(&self) -> Vec<Transform> {
        self.bodies
            .iter()
            .filter_map(|&id| self.world.transform(id).ok())
            .collect()
    }

    /// The union of the bounds of every body that is not static (for checking the view holds
    /// them), or `None` if there is none.
    pub fn moving_bounds(&self) -> Option<Aabb> {
        let mut out: Option<Aabb> = None;
        for &id in &self.bodies {
            if self.world.kind(id) == Ok(BodyKind::Static) {
                continue;
            }
            let (Ok(shape), Ok(xf)) = (self.world.shape(id), self.world.transform(id)) else {
                continue;
            };
            let b = shape.aabb(xf);
            out = Some(match out {
                None => b,
                Some(o) => Aabb {
                    min: o.min.min(b.min),
                    max: o.max.max(b.max),
                },
            });
        }
        out
    }

    pub(super) fn step(&mut self) {
        let dt = 1.0 / 60.0;
        if let Some(mut c) = self.character.take() {
            self.move_character(&mut c, dt);
            self.character = Some(c);
        }
        if self.car.is_some() {
            self.drive();
        }
        // Settings are valid (set above): the step cannot fail.
        let _ = self.world.step(dt, self.settings.substeps);
        self.steps += 1;
        self.sensor_events.0 += self.world.sensor_begin_events().len() as u32;
        self.sensor_events.1 += self.world.sensor_end_events().len() as u32;
    }

    pub(super) fn move_character(&self, c: &mut Character, dt: f32) {
        let walk = 6.0;
        let mut dir = 0.0;
        if self.keys & (1 << KEY_LEFT) != 0 {
            dir -= 1.0;
        }
        if self.keys & (1 << KEY_RIGHT) != 0 {
            dir += 1.0;
        }
        c.velocity.x = dir * walk;
        if c.on_ground && self.keys & (1 << KEY_JUMP) != 0 {
            c.velocity.y = 12.0;
        }
        c.velocity.y -= 20.0 * dt;
        let opts = MoveOptions {
            ground_snap: 0.2,
            time_step: dt,
            ..MoveOptions::default()
        };
        let solid = QueryFilter {
            mask: LEVEL | PROPS,
            ..QueryFilter::default()
        };
        let r = move_and_slide(
            &self.world.mover_level(&solid),
            &c.shape,
            c.xf,
            c.velocity * dt,
            c.velocity,
            &opts,
        );
        c.xf.p = r.position;
        c.velocity = r.velocity;
        c.on_ground = r.on_ground;
        c.last = r;
    }

    /// The world as its draw flags say, its broad-phase tree coloured by depth (down to
    /// `depth`), the character with its mover planes, and the pointer's grip.
    pub(super) fn draw(&self, d: &mut impl DebugDraw) {
        self.world.draw(
            d,
            DrawFlags {
                tree: false,
                ..self.flags
            },
        );
        if self.flags.tree {
            draw_tree_by_depth(d, self.world.tree(), self.max_depth);
        }
        if let Some(c) = &self.character {
            draw_shape(d, &c.shape, c.xf, Color::KINEMATIC);
            c.last.draw(d, 0.4);
        }
        if let Some(g) = self.grab {
            if let Ok(xf) = self.world.transform(g.body) {
                d.segment(xf.apply(g.local), g.target, Color::RAY);
            }
        }
    }

    /// FNV-1a over every body's transform bits, in creation order.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &id in &self.bodies {
            if let Ok(xf) = self.world.transform(id) {
                for v in [xf.p.x, xf.p.y, xf.q.c, xf.q.s] {
                    for byte in v.to_bits().to_le_bytes() {
                        h = (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
                    }
                }
            }
        }
        h
    }

    /// `[steps, bodies, awake bodies, contacts, hash as four 16-bit parts (high first),
    /// character x, y, on ground, sub-steps, gravity y, contact hertz, sleep, continuous,
    /// bullets past the first wall, sensor begin events, end events, largest joint gap (m)]`.
    pub(super) fn results(&self, out: &mut Vec<f32>) {
        let h = self.hash();
        out.extend([
            self.steps as f32,
            self.world.body_count() as f32,
            self.world.awake_body_count() as f32,
            self.world.contact_count() as f32,
            (h >> 48) as u16 as f32,
            (h >> 32) as u16 as f32,
            (h >> 16) as u16 as f32,
            h as u16 as f32,
        ]);
        match &self.character {
            Some(c) => out.extend([c.xf.p.x, c.xf.p.y, f32::from(u8::from(c.on_ground))]),
            None => out.extend([0.0; 3]),
        }
        let st = self.settings;
        out.extend([
            st.substeps as f32,
            st.gravity,
            st.contact_hertz,
            f32::from(u8::from(st.sleep)),
            f32::from(u8::from(st.continuous)),
        ]);
        // The scene's own numbers: bullets past the first wall (the bullets scene), sensor
        // begin and end events so far (sensors; their difference is the bodies inside now),
        // the largest hinge gap in metres (bridge); zeros elsewhere.
        let past = match self.name {
            "bullets" => self.bodies[4..]
                .iter()
                .filter(|&&id| self.world.position(id).is_ok_and(|p| p.x > 10.0))
                .count() as f32,
            _ => 0.0,
        };
        out.extend([
            past,
            self.sensor_events.0 as f32,
            self.sensor_events.1 as f32,
            self.joint_gap(),
        ]);
    }
}
