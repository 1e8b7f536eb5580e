//! Conversions of collide2d's types to Box2D v3's (through `boxdd-sys`) and Box2D's queries
//! with their results converted back to collide2d's conventions (world space, depth =
//! −separation), so the tests, benchmarks and scenes compare the two on the same input.

use collide2d::*;

use crate::common::pyramid_starts;

/// Box2D v3's C API as `boxdd-sys` binds it (`b2Vec2`, `b2CollidePolygons`, `b2CreateWorld`,
/// …).
pub mod b2 {
    pub use boxdd_sys::ffi::*;
}

/// A vector in Box2D's form.
pub fn b2v(v: Vec2) -> b2::b2Vec2 {
    b2::b2Vec2 { x: v.x, y: v.y }
}

/// A transform in Box2D's form (same position and cosine/sine pair).
pub fn b2xf(x: Transform) -> b2::b2Transform {
    b2::b2Transform {
        p: b2v(x.p),
        q: b2::b2Rot { c: x.q.c, s: x.q.s },
    }
}

/// A circle in Box2D's form.
pub fn b2circle(c: &Circle) -> b2::b2Circle {
    b2::b2Circle {
        center: b2v(c.center),
        radius: c.radius,
    }
}

/// A capsule in Box2D's form (a segment when the radius is 0).
pub fn b2capsule(c: &Capsule) -> b2::b2Capsule {
    b2::b2Capsule {
        center1: b2v(c.center1),
        center2: b2v(c.center2),
        radius: c.radius,
    }
}

/// A polygon in Box2D's form: the same vertices, normals, centroid and radius.
pub fn b2polygon(p: &Polygon) -> b2::b2Polygon {
    b2::b2Polygon {
        vertices: p.vertices.map(b2v),
        normals: p.normals.map(b2v),
        centroid: b2v(p.centroid),
        radius: p.radius,
        count: p.count as i32,
    }
}

/// A shape in Box2D's form, built once and passed by reference.
pub enum B2Shape {
    /// A circle.
    Circle(b2::b2Circle),
    /// A capsule (a segment when the radius is 0).
    Capsule(b2::b2Capsule),
    /// A convex polygon, possibly rounded.
    Polygon(b2::b2Polygon),
    /// A one-sided chain segment with its ghost vertices.
    ChainSegment(b2::b2ChainSegment),
}

/// A chain segment in Box2D's form (chain id 0).
pub fn b2chain_segment(c: &ChainSegment) -> b2::b2ChainSegment {
    b2::b2ChainSegment {
        ghost1: b2v(c.ghost1),
        segment: b2::b2Segment {
            point1: b2v(c.point1),
            point2: b2v(c.point2),
        },
        ghost2: b2v(c.ghost2),
        chainId: 0,
    }
}

/// Any shape in Box2D's form.
pub fn b2shape(s: &Shape) -> B2Shape {
    match s {
        Shape::Circle(c) => B2Shape::Circle(b2circle(c)),
        Shape::Capsule(c) => B2Shape::Capsule(b2capsule(c)),
        Shape::Polygon(p) => B2Shape::Polygon(b2polygon(p)),
        Shape::ChainSegment(c) => B2Shape::ChainSegment(b2chain_segment(c)),
    }
}

/// Box2D's manifold for the canonical order (A the more complex kind), in frame A.
/// Returns None for pairs Box2D does not offer in this order.
pub fn b2collide_local(a: &B2Shape, b: &B2Shape, xf: b2::b2Transform) -> Option<b2::b2LocalManifold> {
    // SAFETY: all pointers refer to live, initialised locals for the duration of the call.
    unsafe {
        Some(match (a, b) {
            (B2Shape::Circle(a), B2Shape::Circle(b)) => b2::b2CollideCircles(a, b, xf),
            (B2Shape::Capsule(a), B2Shape::Circle(b)) => b2::b2CollideCapsuleAndCircle(a, b, xf),
            (B2Shape::Capsule(a), B2Shape::Capsule(b)) => b2::b2CollideCapsules(a, b, xf),
            (B2Shape::Polygon(a), B2Shape::Circle(b)) => b2::b2CollidePolygonAndCircle(a, b, xf),
            (B2Shape::Polygon(a), B2Shape::Capsule(b)) => b2::b2CollidePolygonAndCapsule(a, b, xf),
            (B2Shape::Polygon(a), B2Shape::Polygon(b)) => b2::b2CollidePolygons(a, b, xf),
            (B2Shape::ChainSegment(a), B2Shape::Circle(b)) => b2::b2CollideChainSegmentAndCircle(a, b, xf),
            (B2Shape::ChainSegment(a), B2Shape::Capsule(b)) => {
                let mut cache: b2::b2SimplexCache = std::mem::zeroed();
                b2::b2CollideChainSegmentAndCapsule(a, b, xf, &mut cache)
            }
            (B2Shape::ChainSegment(a), B2Shape::Polygon(b)) => {
                let mut cache: b2::b2SimplexCache = std::mem::zeroed();
                b2::b2CollideChainSegmentAndPolygon(a, b, xf, &mut cache)
            }
            _ => return None,
        })
    }
}

/// Box2D's manifold converted to our conventions: world space, depth = -separation.
pub fn b2collide_world(a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> Option<Manifold> {
    let rel = xa.inv_mul(xb);
    let lm = b2collide_local(&b2shape(a), &b2shape(b), b2xf(rel))?;
    Some(b2local_to_world(&lm, xa, 1.0))
}

/// A Box2D manifold in frame A, computed at `1 / scale` of the real size, as our manifold at
/// the real size: world space (A at `xa`), lengths times `scale`, depth = -separation.
pub fn b2local_to_world(lm: &b2::b2LocalManifold, xa: Transform, scale: f32) -> Manifold {
    let mut m = Manifold {
        count: lm.pointCount as u32,
        ..Manifold::default()
    };
    if m.count > 0 {
        m.normal = xa.q.rotate(Vec2::new(lm.normal.x, lm.normal.y));
    }
    for i in 0..m.count as usize {
        let p = lm.points[i];
        m.points[i] = ManifoldPoint {
            point: xa.apply(Vec2::new(p.point.x, p.point.y) * scale),
            depth: -p.separation * scale,
            id: u32::from(p.id),
        };
    }
    m
}

/// Box2D's speculative distance (4 × linear slop of 0.005 m).
pub const B2_SPECULATIVE_DISTANCE: f32 = 0.02;

/// A GJK proxy in Box2D's form.
pub fn b2proxy(p: &ShapeProxy) -> b2::b2ShapeProxy {
    b2::b2ShapeProxy {
        points: p.points.map(b2v),
        count: p.count as i32,
        radius: p.radius,
    }
}

/// Box2D's distance (with radii), converted to world space: (distance, point A, point B).
pub fn b2distance_world(a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> (f32, Vec2, Vec2) {
    let input = b2::b2DistanceInput {
        proxyA: b2proxy(&ShapeProxy::from_shape(a)),
        proxyB: b2proxy(&ShapeProxy::from_shape(b)),
        transform: b2xf(xa.inv_mul(xb)),
        useRadii: true,
    };
    let mut cache = b2::b2SimplexCache {
        count: 0,
        indexA: [0; 3],
        indexB: [0; 3],
    };
    // SAFETY: input and cache are live locals; a null simplex buffer with capacity 0 is allowed.
    let out = unsafe { b2::b2ShapeDistance(&input, &mut cache, core::ptr::null_mut(), 0) };
    let pa = xa.apply(Vec2::new(out.pointA.x, out.pointA.y));
    let pb = xa.apply(Vec2::new(out.pointB.x, out.pointB.y));
    (out.distance, pa, pb)
}

/// Box2D's ray cast against a shape, converted to world space; None on a miss.
pub fn b2raycast_world(s: &Shape, xf: Transform, ray: &Ray) -> Option<RayHit> {
    let input = b2::b2RayCastInput {
        origin: b2v(xf.inv_apply(ray.origin)),
        translation: b2v(xf.q.inv_rotate(ray.translation)),
        maxFraction: ray.max_fraction,
    };
    // SAFETY: shape and input are live locals for the duration of each call.
    let out = unsafe {
        match s {
            Shape::Circle(c) => b2::b2RayCastCircle(&b2circle(c), &input),
            Shape::Capsule(c) => b2::b2RayCastCapsule(&b2capsule(c), &input),
            Shape::Polygon(p) => b2::b2RayCastPolygon(&b2polygon(p), &input),
            Shape::ChainSegment(c) => b2::b2RayCastSegment(
                &b2::b2Segment {
                    point1: b2v(c.point1),
                    point2: b2v(c.point2),
                },
                &input,
                true,
            ),
        }
    };
    out.hit.then(|| RayHit {
        point: xf.apply(Vec2::new(out.point.x, out.point.y)),
        normal: xf.q.rotate(Vec2::new(out.normal.x, out.normal.y)),
        fraction: out.fraction,
    })
}

/// Box2D's pair shape cast (B moving relative to A), world-space result: Some(fraction, normal)
/// on a hit that is not an initial overlap.
pub fn b2shapecast_world(
    a: &Shape,
    xa: Transform,
    ta: Vec2,
    b: &Shape,
    xb: Transform,
    tb: Vec2,
) -> Option<(f32, Vec2)> {
    let input = b2::b2ShapeCastPairInput {
        proxyA: b2proxy(&ShapeProxy::from_shape(a)),
        proxyB: b2proxy(&ShapeProxy::from_shape(b)),
        transform: b2xf(xa.inv_mul(xb)),
        translationB: b2v(xa.q.inv_rotate(tb - ta)),
        maxFraction: 1.0,
        canEncroach: false,
    };
    // SAFETY: input is a live local.
    let out = unsafe { b2::b2ShapeCast(&input) };
    (out.hit && out.fraction > 0.0)
        .then(|| (out.fraction, xa.q.rotate(Vec2::new(out.normal.x, out.normal.y))))
}

/// A sweep in Box2D's form.
pub fn b2sweep(s: &Sweep) -> b2::b2Sweep {
    b2::b2Sweep {
        localCenter: b2v(s.local_center),
        c1: b2v(s.c1),
        c2: b2v(s.c2),
        q1: b2::b2Rot { c: s.q1.c, s: s.q1.s },
        q2: b2::b2Rot { c: s.q2.c, s: s.q2.s },
    }
}

/// Box2D's time of impact: (state, fraction) with Box2D's state numbering.
pub fn b2toi(a: &Shape, sa: &Sweep, b: &Shape, sb: &Sweep) -> (u32, f32) {
    let input = b2::b2TOIInput {
        proxyA: b2proxy(&ShapeProxy::from_shape(a)),
        proxyB: b2proxy(&ShapeProxy::from_shape(b)),
        sweepA: b2sweep(sa),
        sweepB: b2sweep(sb),
        maxFraction: 1.0,
    };
    // SAFETY: input is a live local.
    let out = unsafe { b2::b2TimeOfImpact(&input) };
    (out.state, out.fraction)
}

/// Serialises Box2D worlds across the test threads of one process: Box2D keeps its worlds in
/// a global array that `b2CreateWorld` and `b2DestroyWorld` change without a lock, so two
/// tests creating worlds at once can take the same slot (Box2D then asserts in
/// `physics_world.c`). Hold the guard for as long as the test's Box2D worlds live.
pub fn box2d_worlds_guard() -> std::sync::MutexGuard<'static, ()> {
    static WORLDS: std::sync::Mutex<()> = std::sync::Mutex::new(());
    WORLDS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The same pyramid in Box2D v3 (single-threaded, sleeping off). Destroy with
/// `b2::b2DestroyWorld(world)`.
pub fn box2d_pyramid(rows: usize) -> (b2::b2WorldId, Vec<b2::b2BodyId>) {
    // SAFETY: plain Box2D C calls on definitions it initialised itself.
    unsafe {
        let mut wd = b2::b2DefaultWorldDef();
        wd.gravity = b2::b2Vec2 { x: 0.0, y: -10.0 };
        wd.enableSleep = false;
        wd.workerCount = 1;
        let world = b2::b2CreateWorld(&wd);
        let mut bd = b2::b2DefaultBodyDef();
        bd.position = b2::b2Vec2 { x: 0.0, y: -0.5 };
        let ground = b2::b2CreateBody(world, &bd);
        let mut sd = b2::b2DefaultShapeDef();
        sd.material.friction = 0.6;
        sd.density = 1.0;
        let gp = b2::b2MakeBox(40.0, 0.5);
        b2::b2CreatePolygonShape(ground, &sd, &gp);
        let unit = b2::b2MakeBox(0.5, 0.5);
        let ids = pyramid_starts(rows)
            .into_iter()
            .map(|p| {
                let mut bd = b2::b2DefaultBodyDef();
                bd.type_ = b2::b2BodyType_b2_dynamicBody;
                bd.position = b2::b2Vec2 { x: p.x, y: p.y };
                bd.enableSleep = false;
                let b = b2::b2CreateBody(world, &bd);
                b2::b2CreatePolygonShape(b, &sd, &unit);
                b
            })
            .collect();
        (world, ids)
    }
}

/// Box2D's plane-result callback for `b2World_CollideMover`: collects each plane into the
/// `Vec<b2CollisionPlane>` passed as the context, rigid and clipping velocity (the defaults of
/// Box2D's `geometric_mover` sample).
///
/// # Safety
/// `context` must point to a live `Vec<b2::b2CollisionPlane>`; Box2D passes a valid result.
pub unsafe extern "C" fn b2_collect_plane(
    _shape: b2::b2ShapeId,
    result: *const b2::b2PlaneResult,
    context: *mut std::os::raw::c_void,
) -> bool {
    // SAFETY: by this function's contract.
    let (planes, result) = unsafe { (&mut *(context as *mut Vec<b2::b2CollisionPlane>), &*result) };
    planes.push(b2::b2CollisionPlane {
        plane: result.plane,
        pushLimit: f32::MAX,
        push: 0.0,
        clipVelocity: true,
    });
    true
}

/// Box2D v3's mover loop as its `geometric_mover` sample runs it, for the capsule `mover`
/// (centres relative to the position): up to 5 iterations of `b2World_CollideMover`,
/// `b2SolvePlanes` toward `target` and `b2World_CastMover`, stopping after a step shorter than
/// 0.01. Returns the final position, the length of the path and the iterations used; `planes`
/// holds the last iteration's planes (for `b2ClipVector`).
pub fn box2d_mover_loop(
    world: b2::b2WorldId,
    mover: &b2::b2Capsule,
    start: Vec2,
    target: Vec2,
    planes: &mut Vec<b2::b2CollisionPlane>,
) -> (Vec2, f32, u32) {
    let (mut pos, mut path, mut iterations) = (start, 0.0, 0);
    // SAFETY: plain Box2D C calls on the caller's world; the plane Vec outlives each collide
    // call.
    unsafe {
        let filter = b2::b2DefaultQueryFilter();
        while iterations < 5 {
            iterations += 1;
            planes.clear();
            b2::b2World_CollideMover(
                world,
                b2v(pos),
                mover,
                filter,
                Some(b2_collect_plane),
                planes as *mut Vec<b2::b2CollisionPlane> as *mut std::os::raw::c_void,
            );
            let r = b2::b2SolvePlanes(b2v(target - pos), planes.as_mut_ptr(), planes.len() as i32);
            let delta = Vec2::new(r.translation.x, r.translation.y);
            let fraction = b2::b2World_CastMover(world, b2v(pos), mover, b2v(delta), filter);
            let step = delta * fraction;
            pos += step;
            path += step.length();
            if step.length_squared() < 0.01 * 0.01 {
                break;
            }
        }
    }
    (pos, path, iterations)
}
