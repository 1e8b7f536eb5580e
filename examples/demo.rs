//! A tour of collide2d: shapes, overlap tests and contact manifolds, printed as a table.
//! Run with `cargo run --example demo`.
use collide2d::*;

fn show(name: &str, a: &Shape, xa: Transform, b: &Shape, xb: Transform) {
    let m = collide(a, xa, b, xb);
    print!("{name:<34} overlaps={:<5}", overlaps(a, xa, b, xb));
    if m.count == 0 {
        println!(" no contact");
        return;
    }
    print!(" normal=({:+.3}, {:+.3})", m.normal.x, m.normal.y);
    for p in m.points() {
        print!(
            "  [point=({:.3}, {:.3}) depth={:.3} id={:#06x}]",
            p.point.x, p.point.y, p.depth, p.id
        );
    }
    println!();
}

fn main() -> Result<(), GeometryError> {
    let ground = Shape::Polygon(Polygon::make_box(5.0, 0.5)?);
    let crate_box = Shape::Polygon(Polygon::make_box(0.5, 0.5)?);
    let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.5)?);
    let pill = Shape::Capsule(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.25)?);
    let rock = Shape::Polygon(Polygon::new_rounded(
        &[
            Vec2::new(-0.6, -0.4),
            Vec2::new(0.7, -0.5),
            Vec2::new(0.4, 0.6),
            Vec2::new(-0.5, 0.5),
        ],
        0.05,
    )?);
    let id = Transform::IDENTITY;
    let at = |x: f32, y: f32, a: f32| Transform::new(Vec2::new(x, y), a);

    println!("collide2d demo: normals point from the first shape to the second, depth > 0 = penetration\n");
    show(
        "box resting on ground",
        &ground,
        id,
        &crate_box,
        at(1.0, 0.95, 0.0),
    );
    show(
        "tilted box corner on ground",
        &ground,
        id,
        &crate_box,
        at(-1.0, 1.1, 0.6),
    );
    show("ball on ground", &ground, id, &ball, at(3.0, 0.9, 0.0));
    show("capsule lying on ground", &ground, id, &pill, at(0.0, 0.7, 0.0));
    show(
        "rounded rock vs ball",
        &rock,
        at(0.0, 3.0, 0.3),
        &ball,
        at(0.9, 3.4, 0.0),
    );
    show(
        "ball vs capsule (flipped order)",
        &ball,
        at(0.0, -2.0, 0.0),
        &pill,
        at(0.5, -2.6, 0.0),
    );
    show(
        "far away: (10000, -10000)",
        &ground,
        at(10000.0, -10000.0, 0.0),
        &crate_box,
        at(10001.0, -9999.05, 0.0),
    );
    show("apart", &ball, id, &crate_box, at(3.0, 3.0, 0.0));

    let m = ground.mass(1.0);
    println!(
        "\nground mass {:.3}, inertia {:.3}; rock mass {:.4} (exact, rounding included)",
        m.mass,
        m.rotational_inertia,
        rock.mass(1.0).mass
    );
    let bb = pill.aabb(at(0.0, 0.7, 0.5));
    println!(
        "capsule world AABB: ({:.3}, {:.3}) - ({:.3}, {:.3})",
        bb.min.x, bb.min.y, bb.max.x, bb.max.y
    );
    println!(
        "bad hull: {:?}",
        Polygon::new(&[Vec2::ZERO, Vec2::new(1.0, 1.0), Vec2::new(2.0, 2.0)]).unwrap_err()
    );

    println!("\nadvanced queries:");
    let d = shape_distance(
        &ground,
        id,
        &ball,
        at(2.0, 3.0, 0.0),
        &mut SimplexCache::default(),
    );
    println!(
        "  distance ground-ball: {:.3} ({:?}), normal ({:+.3}, {:+.3})",
        d.distance, d.status, d.normal.x, d.normal.y
    );
    if let Some(h) = ray_cast(
        &rock,
        at(0.0, 3.0, 0.3),
        &Ray::new(Vec2::new(-5.0, 3.0), Vec2::new(10.0, 0.0)),
    ) {
        println!(
            "  ray hits the rock at ({:.3}, {:.3}), fraction {:.3}, normal ({:+.3}, {:+.3})",
            h.point.x, h.point.y, h.fraction, h.normal.x, h.normal.y
        );
    }
    let c = shape_cast(
        &ground,
        id,
        Vec2::ZERO,
        &crate_box,
        at(-3.0, 4.0, 0.4),
        Vec2::new(2.0, -6.0),
        0.0,
    );
    println!(
        "  box dropped on the ground: {:?} at fraction {:.4}, normal ({:+.3}, {:+.3})",
        c.state, c.fraction, c.normal.x, c.normal.y
    );
    let sweep_bar = Sweep::from_transforms(Vec2::ZERO, at(0.0, 6.0, 0.0), at(0.0, 6.0, 1.5));
    let sweep_ball = Sweep::from_transforms(Vec2::ZERO, at(-0.5, 6.8, 0.0), at(-0.5, 6.8, 0.0));
    let t = time_of_impact(&pill, &sweep_bar, &ball, &sweep_ball, 1.0);
    println!(
        "  spinning capsule vs ball: {:?} at fraction {:.4}",
        t.state, t.fraction
    );
    Ok(())
}
