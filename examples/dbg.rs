use collide2d::*;
fn seg_dist_brute(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> f32 {
    let n = 4000;
    let mut best = f32::INFINITY;
    for i in 0..=n {
        let p = a0.lerp(a1, i as f32 / n as f32);
        let c = closest_point_on_segment(b0, b1, p);
        best = best.min(p.distance(c));
    }
    for i in 0..=n {
        let p = b0.lerp(b1, i as f32 / n as f32);
        let c = closest_point_on_segment(a0, a1, p);
        best = best.min(p.distance(c));
    }
    best
}
fn main() {
    let cases = [
        (
            Capsule {
                center1: Vec2 {
                    x: 0.68745685,
                    y: 0.3320573,
                },
                center2: Vec2 {
                    x: -0.24936083,
                    y: -0.92959803,
                },
                radius: 0.43892762,
            },
            Transform {
                p: Vec2 {
                    x: -1.2899941,
                    y: 0.6154027,
                },
                q: Rot {
                    c: 0.8779788,
                    s: 0.47869954,
                },
            },
            Capsule {
                center1: Vec2 {
                    x: -0.728196,
                    y: 0.40022874,
                },
                center2: Vec2 {
                    x: 0.66671324,
                    y: -0.45883065,
                },
                radius: 0.36795986,
            },
            Transform {
                p: Vec2 {
                    x: -0.020183682,
                    y: -0.29034328,
                },
                q: Rot {
                    c: -0.30944216,
                    s: -0.95091826,
                },
            },
        ),
        (
            Capsule {
                center1: Vec2 {
                    x: -0.19778737,
                    y: -1.0309542,
                },
                center2: Vec2 {
                    x: 0.7297392,
                    y: 0.6854727,
                },
                radius: 0.41479647,
            },
            Transform {
                p: Vec2 {
                    x: 0.42005754,
                    y: 2.0578613,
                },
                q: Rot {
                    c: 0.7408229,
                    s: 0.6717004,
                },
            },
            Capsule {
                center1: Vec2 {
                    x: 0.75492543,
                    y: 0.38127363,
                },
                center2: Vec2 {
                    x: -0.29092187,
                    y: -0.83548605,
                },
                radius: 0.32040584,
            },
            Transform {
                p: Vec2 {
                    x: 0.8622134,
                    y: 2.3189542,
                },
                q: Rot {
                    c: 0.2633415,
                    s: 0.96470267,
                },
            },
        ),
    ];
    for (a, xa, b, xb) in cases {
        let d = seg_dist_brute(
            xa.apply(a.center1),
            xa.apply(a.center2),
            xb.apply(b.center1),
            xb.apply(b.center2),
        );
        println!("brute dist {d} -> depth {}", a.radius + b.radius - d);
        let m = collide_capsules(&a, xa, &b, xb, 0.0);
        println!("ours {:?}", m);
    }
}
