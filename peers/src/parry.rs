//! Conversions of collide2d's types to parry2d's, so the tests and benchmarks query both
//! libraries on the same input.

use collide2d::*;

/// A vector in parry2d's form.
pub fn parry_vec(v: Vec2) -> parry2d::math::Vector {
    parry2d::math::Vector::new(v.x, v.y)
}

/// A transform as a parry2d pose (position and angle).
pub fn parry_pose(x: Transform) -> parry2d::math::Pose {
    parry2d::math::Pose::new(parry_vec(x.p), x.q.angle())
}

/// The same shape in parry (ball, capsule or segment, convex polygon, round convex polygon).
pub fn parry_shape(s: &Shape) -> Box<dyn parry2d::shape::Shape> {
    use parry2d::shape as ps;
    match s {
        Shape::Circle(c) if c.center == Vec2::ZERO => Box::new(ps::Ball::new(c.radius)),
        Shape::Circle(c) => Box::new(ps::Capsule::new(
            parry_vec(c.center),
            parry_vec(c.center),
            c.radius,
        )),
        Shape::Capsule(c) if c.radius == 0.0 => {
            Box::new(ps::Segment::new(parry_vec(c.center1), parry_vec(c.center2)))
        }
        Shape::Capsule(c) => Box::new(ps::Capsule::new(
            parry_vec(c.center1),
            parry_vec(c.center2),
            c.radius,
        )),
        Shape::Polygon(p) => {
            let poly =
                ps::ConvexPolygon::from_convex_polyline(p.vertices().iter().map(|&v| parry_vec(v)).collect())
                    .unwrap();
            if p.radius > 0.0 {
                Box::new(ps::RoundShape {
                    inner_shape: poly,
                    border_radius: p.radius,
                })
            } else {
                Box::new(poly)
            }
        }
        // parry has no one-sided segment: the two-sided segment (distance, two-sided queries).
        Shape::ChainSegment(c) => Box::new(ps::Segment::new(parry_vec(c.point1), parry_vec(c.point2))),
    }
}
