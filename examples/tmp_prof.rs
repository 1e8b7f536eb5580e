use collide2d::*;
use std::hint::black_box;
fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let mut s = 1u64;
    let mut r = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 40) as f32) / 16777216.0
    };
    let n = 4096;
    let xa: Vec<Transform> = (0..n)
        .map(|_| Transform::new(Vec2::new(r() * 10.0, r() * 10.0), r() * 6.0))
        .collect();
    let xb: Vec<Transform> = xa
        .iter()
        .map(|x| Transform::new(x.p + Vec2::new(r() * 1.2 - 0.6, r() * 1.2 - 0.6), r() * 6.0))
        .collect();
    let circles: Vec<Circle> = (0..n)
        .map(|_| Circle::new(Vec2::ZERO, 0.3 + 0.4 * r()).unwrap())
        .collect();
    let boxes: Vec<Polygon> = (0..n)
        .map(|_| Polygon::make_box(0.3 + 0.4 * r(), 0.3 + 0.4 * r()).unwrap())
        .collect();
    let caps: Vec<Capsule> = (0..n)
        .map(|_| {
            let h = 0.2 + 0.3 * r();
            Capsule::new(Vec2::new(-h, 0.0), Vec2::new(h, 0.0), 0.1 + 0.2 * r()).unwrap()
        })
        .collect();
    let mut c = 0u32;
    for _ in 0..200 {
        for i in 0..n {
            c += match which.as_str() {
                "circle" => collide_circles(&circles[i], xa[i], &circles[(i + 1) % n], xb[i], 0.0).count,
                "box" => collide_polygons(&boxes[i], xa[i], &boxes[(i + 1) % n], xb[i], 0.0).count,
                "boxov" => overlaps_polygons(&boxes[i], xa[i], &boxes[(i + 1) % n], xb[i]) as u32,
                "cap" => collide_capsules(&caps[i], xa[i], &caps[(i + 1) % n], xb[i], 0.0).count,
                "boxcap" => collide_polygon_capsule(&boxes[i], xa[i], &caps[(i + 1) % n], xb[i], 0.0).count,
                "boxcircle" => {
                    collide_polygon_circle(&boxes[i], xa[i], &circles[(i + 1) % n], xb[i], 0.0).count
                }
                "capcircle" => {
                    collide_capsule_circle(&caps[i], xa[i], &circles[(i + 1) % n], xb[i], 0.0).count
                }
                "ray" => ray_cast_polygon(
                    &boxes[i],
                    xa[i],
                    &Ray::new(xb[i].p - Vec2::new(1.0, 0.3), Vec2::new(2.0, 0.5)),
                )
                .is_some() as u32,
                _ => 0,
            };
        }
    }
    println!("{}", black_box(c));
}
