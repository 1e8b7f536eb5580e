mod common;
use collide2d::*;
use common::*;
#[test]
fn dbg() {
    let mut rng = Rng(0x64B0);
    let mut level = vec![(
        Shape::Polygon(Polygon::make_box(10.0, 0.5).unwrap()),
        Transform::from_translation(v(0.0, -0.5)),
    )];
    while level.len() < 65 {
        let s = Shape::Polygon(Polygon::make_box(rng.range(0.2, 0.6), rng.range(0.2, 0.6)).unwrap());
        level.push((
            s,
            Transform::new(v(rng.range(-8.0, 8.0), rng.range(0.5, 8.0)), rng.range(-0.5, 0.5)),
        ));
    }
    let capsule = Shape::Capsule(Capsule::new(v(0.0, -0.2), v(0.0, 0.2), 0.3).unwrap());
    let mut moves = Vec::new();
    while moves.len() < 256 {
        let p = v(rng.range(-8.0, 8.0), rng.range(0.6, 8.0));
        if level
            .iter()
            .all(|(s, xf)| surface_distance(s, *xf, &capsule, Transform::from_translation(p)) > 0.05)
        {
            moves.push((
                p,
                Rot::from_angle(rng.range(-3.2, 3.2)).x_axis() * rng.range(0.1, 0.5),
            ));
        }
    }
    let obs: Vec<Obstacle> = level
        .iter()
        .enumerate()
        .map(|(i, (s, x))| Obstacle::fixed(s, *x, i as u64))
        .collect();
    let opts = MoveOptions {
        up: Vec2::ZERO,
        ..MoveOptions::default()
    };
    let mut hist = [0; 6];
    let mut cands = 0;
    for (p, t) in &moves {
        let r = move_and_slide(&obs[..], &capsule, Transform::from_translation(*p), *t, *t, &opts);
        hist[r.iterations as usize] += 1;
        let a = capsule.aabb(Transform::from_translation(*p));
        cands += obs
            .iter()
            .filter(|o| {
                o.shape
                    .aabb(o.xf)
                    .overlaps(a.union(Aabb::new(a.min + *t, a.max + *t)))
            })
            .count();
    }
    println!(
        "iterations histogram {hist:?}, swept candidates per move {}",
        cands as f32 / 256.0
    );
}
