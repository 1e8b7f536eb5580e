//! A tour of collide2d: shapes, overlap tests and contact manifolds, printed as a table, and
//! drawn: one SVG picture per scenario (through the crate's own `draw::svg` backend) written to
//! `target/demo-svg/`. Run with `cargo run --example demo`.
use collide2d::draw::svg::Svg;
use collide2d::draw::{draw_cast, draw_manifold, draw_ray, draw_shape, draw_sweep, Color, DebugDraw};
use collide2d::*;

/// Pictures are this many pixels wide.
pub const WIDTH: f32 = 960.0;
/// Caption lines: the title's height and each further line's, in pixels.
const TITLE: f32 = 26.0;
const LINE: f32 = 20.0;

/// The world rectangle a picture of `boxes` shows with `lines` caption lines (a title and
/// numbers) above them: the boxes' union grown by half a unit, and room at the top for the
/// caption at the picture's scale.
pub fn view_of(boxes: &[Aabb], lines: usize) -> Aabb {
    let mut view = boxes[0];
    for b in &boxes[1..] {
        view = view.union(*b);
    }
    let mut view = view.inflated(0.5);
    let scale = WIDTH / (view.max.x - view.min.x);
    view.max.y += (TITLE + LINE * lines.saturating_sub(1) as f32 + 10.0) / scale;
    view
}

/// A picture of `boxes` with the caption `lines` (the first is the title) in its top-left
/// corner, drawn by `paint`.
fn picture(boxes: &[Aabb], lines: &[String], paint: impl FnOnce(&mut Svg<String>)) -> String {
    let mut svg = Svg::begin(String::new(), view_of(boxes, lines.len()), WIDTH);
    paint(&mut svg);
    for (k, line) in lines.iter().enumerate() {
        let (y, size) = if k == 0 {
            (TITLE - 6.0, 18.0)
        } else {
            (TITLE + LINE * k as f32 - 4.0, 14.0)
        };
        svg.text(12.0, y, size, line, Color(0x20_20_20), k == 0);
    }
    svg.finish().expect("a String takes any write")
}

/// The caption of a pair: its title, then the manifold's normal and points, or for a pair
/// apart its distance.
fn pair_caption(name: &str, a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> Vec<String> {
    let m = collide(a, xa, b, xb);
    let mut lines = vec![name.to_string()];
    if m.count == 0 {
        let d = shape_distance(a, xa, b, xb, &mut SimplexCache::default());
        lines.push(format!("no contact: distance {:.3}", d.distance));
    } else {
        lines.push(format!(
            "normal ({:+.3}, {:+.3}), from the first shape to the second",
            m.normal.x, m.normal.y
        ));
        for p in m.points() {
            lines.push(format!(
                "point ({:.3}, {:.3})  depth {:.3}  id {:#06x}",
                p.point.x, p.point.y, p.depth, p.id
            ));
        }
    }
    lines
}

/// The picture of one pair: both shapes, their manifold, and for a pair apart the line
/// between their closest points; captioned with its name and numbers.
fn pair_svg(name: &str, a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> String {
    let m = collide(a, xa, b, xb);
    let lines = pair_caption(name, a, xa, b, xb);
    picture(&[a.aabb(xa), b.aabb(xb)], &lines, |svg| {
        draw_shape(svg, a, xa, Color::STATIC);
        draw_shape(svg, b, xb, Color::DYNAMIC);
        draw_manifold(svg, &m, 0.4);
        if m.count == 0 {
            let d = shape_distance(a, xa, b, xb, &mut SimplexCache::default());
            svg.segment(d.point_a, d.point_b, Color::RAY);
            svg.point(d.point_a, 6.0, Color::RAY);
            svg.point(d.point_b, 6.0, Color::RAY);
        }
    })
}

/// A file name from a scenario's name: lower case, words joined by '-'.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for word in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&word.to_ascii_lowercase());
    }
    out
}

/// Prints one pair's line and returns its picture, named.
fn show(name: &str, a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> (String, String) {
    let picture = (format!("{}.svg", slug(name)), pair_svg(name, a, xa, b, xb));
    let m = collide(a, xa, b, xb);
    print!("{name:<34} overlaps={:<5}", overlaps(a, xa, b, xb));
    if m.count == 0 {
        println!(" no contact");
        return picture;
    }
    print!(" normal=({:+.3}, {:+.3})", m.normal.x, m.normal.y);
    for p in m.points() {
        print!(
            "  [point=({:.3}, {:.3}) depth={:.3} id={:#06x}]",
            p.point.x, p.point.y, p.depth, p.id
        );
    }
    println!();
    picture
}

/// Runs the tour: prints it and returns every picture (file name, SVG text).
pub fn tour() -> Result<Vec<(String, String)>, GeometryError> {
    let mut pictures = Vec::new();
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
    pictures.push(show(
        "box resting on ground",
        &ground,
        id,
        &crate_box,
        at(1.0, 0.95, 0.0),
    ));
    pictures.push(show(
        "tilted box corner on ground",
        &ground,
        id,
        &crate_box,
        at(-1.0, 1.1, 0.6),
    ));
    pictures.push(show("ball on ground", &ground, id, &ball, at(3.0, 0.9, 0.0)));
    pictures.push(show(
        "capsule lying on ground",
        &ground,
        id,
        &pill,
        at(0.0, 0.7, 0.0),
    ));
    pictures.push(show(
        "rounded rock vs ball",
        &rock,
        at(0.0, 3.0, 0.3),
        &ball,
        at(0.9, 3.4, 0.0),
    ));
    pictures.push(show(
        "ball vs capsule (flipped order)",
        &ball,
        at(0.0, -2.0, 0.0),
        &pill,
        at(0.5, -2.6, 0.0),
    ));
    pictures.push(show(
        "far away: (10000, -10000)",
        &ground,
        at(10000.0, -10000.0, 0.0),
        &crate_box,
        at(10001.0, -9999.05, 0.0),
    ));
    pictures.push(show("apart", &ball, id, &crate_box, at(3.0, 3.0, 0.0)));

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
    let ray = Ray::new(Vec2::new(-5.0, 3.0), Vec2::new(10.0, 0.0));
    let hit = ray_cast(&rock, at(0.0, 3.0, 0.3), &ray);
    if let Some(h) = hit {
        println!(
            "  ray hits the rock at ({:.3}, {:.3}), fraction {:.3}, normal ({:+.3}, {:+.3})",
            h.point.x, h.point.y, h.fraction, h.normal.x, h.normal.y
        );
    }
    let ray_box = Aabb::new(ray.origin, ray.origin + ray.translation);
    pictures.push((
        "ray-hits-the-rock.svg".to_string(),
        picture(
            &[rock.aabb(at(0.0, 3.0, 0.3)), ray_box],
            &[
                "ray hits the rock".to_string(),
                match hit {
                    Some(h) => format!(
                        "fraction {:.3}, point ({:.3}, {:.3}), normal ({:+.3}, {:+.3})",
                        h.fraction, h.point.x, h.point.y, h.normal.x, h.normal.y
                    ),
                    None => "miss".to_string(),
                },
            ],
            |svg| {
                draw_shape(svg, &rock, at(0.0, 3.0, 0.3), Color::STATIC);
                draw_ray(svg, &ray, hit.as_ref(), 0.5);
            },
        ),
    ));
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
    // The same cast with the box as the moving shape, for the picture (normal from the box).
    let moving = CastShape::new(&crate_box, at(-3.0, 4.0, 0.4), Vec2::new(2.0, -6.0));
    let cast = shape_cast_pair(&moving, &CastShape::new(&ground, id, Vec2::ZERO), 0.0);
    pictures.push((
        "box-dropped-on-the-ground.svg".to_string(),
        picture(
            &[
                ground.aabb(id),
                crate_box.aabb(at(-3.0, 4.0, 0.4)),
                crate_box.aabb(at(-1.0, -2.0, 0.4)),
            ],
            &[
                "box dropped on the ground".to_string(),
                format!(
                    "{:?} at fraction {:.4}, normal ({:+.3}, {:+.3})",
                    cast.state, cast.fraction, cast.normal.x, cast.normal.y
                ),
            ],
            |svg| {
                draw_shape(svg, &ground, id, Color::STATIC);
                draw_cast(svg, &moving, &cast, 0.5);
            },
        ),
    ));
    let sweep_bar = Sweep::from_transforms(Vec2::ZERO, at(0.0, 6.0, 0.0), at(0.0, 6.0, 1.5));
    let sweep_ball = Sweep::from_transforms(Vec2::ZERO, at(-0.5, 6.8, 0.0), at(-0.5, 6.8, 0.0));
    let t = time_of_impact(&pill, &sweep_bar, &ball, &sweep_ball, 1.0);
    println!(
        "  spinning capsule vs ball: {:?} at fraction {:.4}",
        t.state, t.fraction
    );
    pictures.push((
        "spinning-capsule-vs-ball.svg".to_string(),
        picture(
            &[Aabb::new(Vec2::new(-1.5, 4.5), Vec2::new(1.5, 7.5))],
            &[
                "spinning capsule vs ball".to_string(),
                format!(
                    "{:?} at fraction {:.4} (the capsule there in red)",
                    t.state, t.fraction
                ),
            ],
            |svg| {
                draw_sweep(svg, &pill, &sweep_bar, 6);
                draw_shape(svg, &ball, at(-0.5, 6.8, 0.0), Color::DYNAMIC);
                // The capsule at the time of impact.
                draw_shape(svg, &pill, sweep_bar.transform_at(t.fraction), Color::CONTACT);
            },
        ),
    ));
    Ok(pictures)
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pictures = tour()?;
    let dir = std::path::Path::new("target").join("demo-svg");
    std::fs::create_dir_all(&dir)?;
    for (name, svg) in &pictures {
        std::fs::write(dir.join(name), svg)?;
    }
    println!("\nwrote {} pictures (SVG) to {}", pictures.len(), dir.display());
    Ok(())
}
