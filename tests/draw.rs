//! Debug drawing: a recording backend captures the primitives each drawing function emits and
//! they are compared with the geometry computed independently (world points by hand from the
//! transform's cosine and sine, the manifold's own points, the tree's node count).
#![cfg(all(feature = "solver", feature = "alloc"))]
use collide2d::draw::*;
use collide2d::*;

#[derive(Clone, Debug, PartialEq)]
enum Prim {
    Polygon(Vec<Vec2>, Color),
    SolidPolygon(Transform, Vec<Vec2>, f32, Color),
    SolidCircle(Transform, f32, Color),
    SolidCapsule(Vec2, Vec2, f32, Color),
    Segment(Vec2, Vec2, Color),
    Point(Vec2, Color),
    Axes(Transform),
}

#[derive(Default)]
struct Recorder(Vec<Prim>);

impl DebugDraw for Recorder {
    fn polygon(&mut self, vertices: &[Vec2], color: Color) {
        self.0.push(Prim::Polygon(vertices.to_vec(), color));
    }
    fn solid_polygon(&mut self, xf: Transform, vertices: &[Vec2], radius: f32, color: Color) {
        self.0
            .push(Prim::SolidPolygon(xf, vertices.to_vec(), radius, color));
    }
    fn solid_circle(&mut self, xf: Transform, radius: f32, color: Color) {
        self.0.push(Prim::SolidCircle(xf, radius, color));
    }
    fn solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        self.0.push(Prim::SolidCapsule(p1, p2, radius, color));
    }
    fn segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        self.0.push(Prim::Segment(p1, p2, color));
    }
    fn point(&mut self, p: Vec2, _size: f32, color: Color) {
        self.0.push(Prim::Point(p, color));
    }
    fn transform(&mut self, xf: Transform) {
        self.0.push(Prim::Axes(xf));
    }
}

/// `xf` applied to `v` by hand, in f64.
fn world(xf: Transform, v: Vec2) -> Vec2 {
    let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
    let (x, y) = (f64::from(v.x), f64::from(v.y));
    Vec2::new(
        (c * x - s * y + f64::from(xf.p.x)) as f32,
        (s * x + c * y + f64::from(xf.p.y)) as f32,
    )
}

fn close(a: Vec2, b: Vec2) -> bool {
    (a - b).length() <= 1e-5 * (1.0 + a.length())
}

#[test]
fn shapes_are_drawn_where_they_are() {
    let xf = Transform::new(Vec2::new(3.0, -2.0), 0.8);
    let mut r = Recorder::default();
    draw_shape(
        &mut r,
        &Shape::circle_at(Vec2::new(0.5, 0.25), 0.4),
        xf,
        Color::DYNAMIC,
    );
    draw_shape(
        &mut r,
        &Shape::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.5), 0.2),
        xf,
        Color::STATIC,
    );
    let poly = Polygon::make_rounded_box(0.5, 0.25, 0.1).unwrap();
    draw_shape(&mut r, &Shape::Polygon(poly), xf, Color::SENSOR);
    let seg = ChainSegment::lone(Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0)).unwrap();
    draw_shape(&mut r, &Shape::ChainSegment(seg), xf, Color::STATIC);
    match &r.0[..] {
        [Prim::SolidCircle(cxf, cr, Color::DYNAMIC), Prim::SolidCapsule(p1, p2, kr, Color::STATIC), Prim::SolidPolygon(pxf, pv, pr, Color::SENSOR), Prim::Segment(s1, s2, _), Prim::Segment(t1, t2, _)] =>
        {
            assert!(close(cxf.p, world(xf, Vec2::new(0.5, 0.25))) && *cr == 0.4 && cxf.q == xf.q);
            assert!(
                close(*p1, world(xf, Vec2::new(-1.0, 0.0))) && close(*p2, world(xf, Vec2::new(1.0, 0.5)))
            );
            assert_eq!(*kr, 0.2);
            assert_eq!((*pxf, pv.as_slice(), *pr), (xf, poly.vertices(), 0.1));
            assert!(close(*s1, world(xf, Vec2::ZERO)) && close(*s2, world(xf, Vec2::new(2.0, 0.0))));
            // The tick leaves the middle along the front normal (the right of point1 -> point2).
            assert!(close(*t1, world(xf, Vec2::new(1.0, 0.0))));
            assert!(close(*t2, world(xf, Vec2::new(1.0, -0.2))), "{t2:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn manifolds_rays_casts_and_sweeps_are_drawn_from_their_results() {
    let ground = Shape::rect(5.0, 0.5);
    let bx = Shape::rect(0.5, 0.5);
    let xb = Transform::new(Vec2::new(1.0, 0.95), 0.05);
    let m = collide(&ground, Transform::IDENTITY, &bx, xb);
    assert_eq!(m.count, 2);
    let mut r = Recorder::default();
    draw_manifold(&mut r, &m, 0.5);
    assert_eq!(r.0.len(), 4);
    for (k, p) in m.points().iter().enumerate() {
        assert_eq!(r.0[2 * k], Prim::Point(p.point, Color::CONTACT));
        // The normal arrow starts at its point and goes along the normal.
        assert_eq!(
            r.0[2 * k + 1],
            Prim::Segment(p.point, p.point + m.normal * 0.5, Color::NORMAL)
        );
    }

    let ray = Ray::new(Vec2::new(-8.0, 0.0), Vec2::new(4.0, 0.0));
    let hit = ray_cast(&ground, Transform::IDENTITY, &ray).unwrap();
    let mut r = Recorder::default();
    draw_ray(&mut r, &ray, Some(&hit), 1.0);
    assert_eq!(r.0[0], Prim::Segment(ray.origin, hit.point, Color::RAY));
    assert!(close(hit.point, Vec2::new(-5.0, 0.0)));
    assert_eq!(
        r.0[2],
        Prim::Segment(hit.point, hit.point + hit.normal, Color::NORMAL)
    );
    let miss = Ray::new(Vec2::new(-8.0, 3.0), Vec2::new(4.0, 0.0));
    let mut r = Recorder::default();
    draw_ray(&mut r, &miss, None, 1.0);
    assert_eq!(
        r.0,
        vec![Prim::Segment(miss.origin, Vec2::new(-4.0, 3.0), Color::RAY)]
    );

    let ball = Shape::circle(0.25);
    let moving = CastShape::new(&ball, Transform::from(Vec2::new(0.0, 3.0)), Vec2::new(0.0, -4.0));
    let out = shape_cast_pair(
        &moving,
        &CastShape::new(&ground, Transform::IDENTITY, Vec2::ZERO),
        0.0,
    );
    assert_eq!(out.state, CastState::Hit);
    let mut r = Recorder::default();
    draw_cast(&mut r, &moving, &out, 1.0);
    match &r.0[..2] {
        [Prim::SolidCircle(start, _, _), Prim::SolidCircle(stop, _, Color::CAST)] => {
            assert_eq!(start.p, Vec2::new(0.0, 3.0));
            // Stops touching the ground's top (y = 0.5) with its radius 0.25.
            assert!((stop.p.y - 0.75).abs() < 1e-4, "{stop:?}");
        }
        other => panic!("{other:?}"),
    }

    let sweep = Sweep::from_transforms(
        Vec2::ZERO,
        Transform::IDENTITY,
        Transform::new(Vec2::new(4.0, 0.0), 1.0),
    );
    let mut r = Recorder::default();
    draw_sweep(&mut r, &bx, &sweep, 4);
    assert_eq!(r.0.len(), 5);
    for (k, p) in r.0.iter().enumerate() {
        match p {
            Prim::SolidPolygon(x, ..) => assert_eq!(*x, sweep.transform_at(k as f32 / 4.0)),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn the_tree_draws_every_node_box() {
    let mut tree = DynamicTree::new();
    let mut fat = Vec::new();
    for i in 0..37 {
        let b = Aabb::new(
            Vec2::new(i as f32, (i % 5) as f32),
            Vec2::new(i as f32 + 0.5, (i % 5) as f32 + 0.5),
        );
        let id = tree.create_proxy(b, 1, i).unwrap();
        fat.push(tree.fat_aabb(id).unwrap());
    }
    let mut r = Recorder::default();
    tree.draw(&mut r);
    // A binary tree of 37 leaves has 36 internal nodes.
    assert_eq!(r.0.len(), 73);
    for b in fat {
        let corners = vec![
            b.min,
            Vec2::new(b.max.x, b.min.y),
            b.max,
            Vec2::new(b.min.x, b.max.y),
        ];
        assert!(r.0.contains(&Prim::Polygon(corners, Color::BOUNDS)), "{b:?}");
    }
}

#[test]
fn the_world_draws_bodies_by_state_and_its_contacts() {
    let mut w = World::default();
    let ground = w
        .add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::IDENTITY,
            Shape::rect(5.0, 0.5),
        ))
        .unwrap();
    let crate_ = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from(Vec2::new(0.0, 1.0)),
            Shape::rect(0.5, 0.5),
        ))
        .unwrap();
    let lift = w
        .add_body(&BodyDef::new(
            BodyKind::Kinematic,
            Transform::from(Vec2::new(8.0, 1.0)),
            Shape::rect(1.0, 0.1),
        ))
        .unwrap();
    let zone = w
        .add_body(&BodyDef {
            sensor: true,
            ..BodyDef::new(
                BodyKind::Static,
                Transform::from(Vec2::new(-8.0, 1.0)),
                Shape::circle(1.0),
            )
        })
        .unwrap();
    w.set_velocity(lift, Vec2::new(0.0, 0.5), 0.0).unwrap();
    for _ in 0..120 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    assert!(!w.is_awake(crate_).unwrap(), "the crate sleeps");
    let mut r = Recorder::default();
    w.draw(
        &mut r,
        DrawFlags {
            transforms: true,
            ..DrawFlags::default()
        },
    );
    let colors: Vec<Color> =
        r.0.iter()
            .filter_map(|p| match p {
                Prim::SolidPolygon(_, _, _, c) | Prim::SolidCircle(_, _, c) => Some(*c),
                _ => None,
            })
            .collect();
    assert_eq!(
        colors,
        vec![Color::STATIC, Color::SLEEPING, Color::KINEMATIC, Color::SENSOR]
    );
    let axes: Vec<Transform> =
        r.0.iter()
            .filter_map(|p| match p {
                Prim::Axes(x) => Some(*x),
                _ => None,
            })
            .collect();
    let want: Vec<Transform> = [ground, crate_, lift, zone]
        .iter()
        .map(|&b| w.transform(b).unwrap())
        .collect();
    assert_eq!(axes, want);
    // The resting crate's contacts are drawn where a fresh manifold puts them.
    let m = collide(
        w.shape(ground).unwrap(),
        w.transform(ground).unwrap(),
        w.shape(crate_).unwrap(),
        w.transform(crate_).unwrap(),
    );
    assert_eq!(m.count, 2);
    for p in m.points() {
        assert!(r.0.contains(&Prim::Point(p.point, Color::CONTACT)), "{p:?}");
    }
    // With the tree: every node box is added.
    let mut t = Recorder::default();
    w.draw(
        &mut t,
        DrawFlags {
            shapes: false,
            contacts: false,
            tree: true,
            ..DrawFlags::default()
        },
    );
    assert_eq!(t.0.len(), 2 * 4 - 1);
}

#[test]
fn mover_planes_are_drawn_at_their_points_along_their_normals() {
    // A capsule standing on a floor (top y = 0) and pushed into a wall (left face x = 1): a
    // ground plane with normal (0, 1) and a wall plane with normal (-1, 0).
    let floor = Shape::rect(5.0, 0.5);
    let wall = Shape::rect(0.5, 2.0);
    let obstacle = |shape, x: f32, y: f32, user_data| Obstacle {
        shape,
        xf: Transform::from(Vec2::new(x, y)),
        user_data,
        velocity: Vec2::ZERO,
        angular_velocity: 0.0,
        center: Vec2::new(x, y),
    };
    let level = [obstacle(&floor, 0.0, -0.5, 1), obstacle(&wall, 1.5, 2.0, 2)];
    let pill = Shape::capsule(Vec2::new(0.0, -0.3), Vec2::new(0.0, 0.3), 0.3);
    let r = move_and_slide(
        &level[..],
        &pill,
        Transform::from(Vec2::new(0.6, 0.61)),
        Vec2::new(0.2, -0.02),
        Vec2::new(12.0, -1.2),
        &MoveOptions::default(),
    );
    assert!(r.on_ground && r.contacts().len() == 2, "{r:?}");
    let mut rec = Recorder::default();
    r.draw(&mut rec, 0.5);
    assert_eq!(rec.0.len(), 6);
    let mut normals = Vec::new();
    for (c, prims) in r.contacts().iter().zip(rec.0.chunks(3)) {
        let p = c.point;
        let ground = c.user_data == 1;
        match prims {
            [Prim::Segment(a, b, line), Prim::Point(q, Color::CONTACT), Prim::Segment(s, e, Color::NORMAL)] =>
            {
                // The plane: through the point, perpendicular to the normal, 0.5 each way.
                assert!(close(*a + *b, p + p) && ((*b - *a).length() - 1.0).abs() < 1e-5);
                assert!((*b - *a).dot(c.plane.normal).abs() < 1e-6);
                assert_eq!(*line, if ground { Color::STATIC } else { Color::CAST });
                assert_eq!(*q, p);
                assert_eq!(*s, p);
                normals.push(((*e - *s) * 2.0, ground));
            }
            other => panic!("{other:?}"),
        }
    }
    // The normals, by hand: up from the floor, left from the wall.
    for (n, ground) in normals {
        let want = if ground {
            Vec2::new(0.0, 1.0)
        } else {
            Vec2::new(-1.0, 0.0)
        };
        assert!(close(n, want), "{n:?} against {want:?}");
    }
}

#[test]
fn world_draw_shows_joints_anchors_axes_and_limits() {
    let mut w = World::default();
    let base = w
        .add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::from_translation(Vec2::new(0.0, 4.0)),
            Shape::circle(0.1),
        ))
        .unwrap();
    let slider = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(1.0, 4.0)),
            Shape::rect(0.2, 0.2),
        ))
        .unwrap();
    let prismatic = JointKind::Prismatic(PrismaticJoint {
        enable_limit: true,
        lower_translation: -1.0,
        upper_translation: 2.0,
        ..PrismaticJoint::default()
    });
    let mut def = JointDef::new(prismatic, base, slider);
    def.local_frame_a = Transform::new(Vec2::new(0.5, 0.0), core::f32::consts::FRAC_PI_2); // axis: up
    w.add_joint(&def).unwrap();
    let revolute = JointKind::Revolute(RevoluteJoint {
        enable_limit: true,
        lower_angle: -0.5,
        upper_angle: 0.5,
        ..RevoluteJoint::default()
    });
    let disabled = w.add_joint(&JointDef::new(revolute, base, slider)).unwrap();
    w.set_joint_enabled(disabled, false).unwrap();
    let flags = DrawFlags {
        shapes: false,
        contacts: false,
        ..DrawFlags::default()
    };
    let mut r = Recorder::default();
    w.draw(&mut r, flags);
    let near = |a: Vec2, b: Vec2| a.distance(b) < 1e-5;
    let segment = |p: Vec2, q: Vec2, c: Color| {
        r.0.iter()
            .any(|x| matches!(x, Prim::Segment(a, b, k) if near(*a, p) && near(*b, q) && *k == c))
    };
    let point = |p: Vec2, c: Color| {
        r.0.iter()
            .any(|x| matches!(x, Prim::Point(a, k) if near(*a, p) && *k == c))
    };
    // Frame A's origin is 0.5 right of the base, frame B's at the slider's origin.
    let (fa, fb) = (Vec2::new(0.5, 4.0), Vec2::new(1.0, 4.0));
    assert!(segment(Vec2::new(0.0, 4.0), fa, Color::JOINT) && segment(fa, fb, Color::JOINT));
    assert!(point(fa, Color::JOINT) && point(fb, Color::JOINT));
    // The axis points up (frame A turned 90°): from the lower limit to the upper, ends marked.
    let (lo, hi) = (Vec2::new(0.5, 3.0), Vec2::new(0.5, 6.0));
    assert!(segment(lo, hi, Color::JOINT), "{:?}", r.0);
    assert!(point(lo, Color::LOWER_LIMIT) && point(hi, Color::CONTACT));
    // The disabled revolute joint draws nothing: 3 segments and 2 points for the anchors'
    // lines and 1 segment and 2 points for the axis.
    assert_eq!(r.0.len(), 3 + 2 + 1 + 2, "{:?}", r.0);
    let mut none = Recorder::default();
    w.draw(
        &mut none,
        DrawFlags {
            joints: false,
            ..flags
        },
    );
    assert!(none.0.is_empty());
}
