//! The testbed's colours: every overlay a scene can show at once has its own hue, and each has
//! a name for the page's legend ([`LEGEND`]).
//!
//! The library draws with its own palette ([`Color::STATIC`], [`Color::CONTACT`], …); the
//! recorders pass every colour through [`map`], which keeps the body colours and moves the
//! overlays apart: contact points red, normals green arrows, rays and distance lines white,
//! casts purple, bounds pink, joints teal, and the transform axes yellow (x) and sky blue (y), colours no
//! other overlay uses. The pair explorer and time of impact draw shape A in blue and B in
//! orange ([`SHAPE_A`], [`SHAPE_B`]); tree boxes are coloured by their depth ([`depth`]).
use collide2d::draw::Color;

/// Shape A of the pair explorer and the time of impact (blue).
pub const SHAPE_A: Color = Color(0x2F_7B_FF);
/// Shape B (orange).
pub const SHAPE_B: Color = Color(0xFF_9F_1C);
/// Contact points, hit points and the time of impact's closest points (red).
pub const POINT: Color = Color(0xFF_45_3A);
/// Contact and hit normals, drawn as arrows (green).
pub const NORMAL: Color = Color(0x30_D1_58);
/// Rays, the distance between separated shapes, query boxes and the pointer's grip (white).
pub const RAY: Color = Color(0xEE_EE_F2);
/// Shape casts and their sweeps (purple).
pub const CAST: Color = Color(0xBF_5A_F2);
/// Body bounds (pink).
pub const BOUNDS: Color = Color(0xFF_4F_A8);
/// A transform's x axis (yellow), in the page as `AXIS_COLORS[0]`.
pub const AXIS_X: Color = Color(0xFF_D6_0A);
/// A transform's y axis (sky blue), in the page as `AXIS_COLORS[1]`.
pub const AXIS_Y: Color = Color(0x64_D2_FF);
/// A joint's lower limit (tan; the upper limit is drawn in [`POINT`]'s red).
pub const LOWER_LIMIT: Color = Color(0xC0_8A_4A);

/// Colours the page's legend names: `(colour, name)`. Colours a frame paints that are not here
/// (a shade of a body colour, a tree depth) are named by the scene's own legend lines.
pub const LEGEND: [(Color, &str); 16] = [
    (Color::STATIC, "static body"),
    (Color::KINEMATIC, "kinematic body"),
    (Color::DYNAMIC, "dynamic body"),
    (Color::SLEEPING, "sleeping body"),
    (Color::SENSOR, "sensor"),
    (SHAPE_A, "shape A"),
    (SHAPE_B, "shape B"),
    (POINT, "contact / hit point, upper limit"),
    (NORMAL, "normal"),
    (RAY, "ray / distance / query"),
    (CAST, "shape cast"),
    (BOUNDS, "bounds"),
    (Color::JOINT, "joint"),
    (LOWER_LIMIT, "lower limit"),
    (AXIS_X, "x axis"),
    (AXIS_Y, "y axis"),
];

/// The library colour `c` in the testbed's palette.
pub fn map(c: Color) -> Color {
    match c {
        Color::CONTACT => POINT,
        Color::NORMAL => NORMAL,
        Color::RAY => RAY,
        Color::CAST => CAST,
        Color::BOUNDS => BOUNDS,
        Color::LOWER_LIMIT => LOWER_LIMIT,
        other => other,
    }
}

/// Whether segments of colour `c` (after [`map`]) are drawn as arrows (normals point).
pub fn is_arrow(c: Color) -> bool {
    c == NORMAL
}

/// The colour of a tree box at `depth` below the root of a tree `height` levels tall: a ramp
/// from violet at the root through blue, green and yellow to red at the deepest level.
pub fn depth(depth: u32, height: u32) -> Color {
    const RAMP: [u32; 5] = [0x8E_5C_FF, 0x3C_8C_FF, 0x2E_C8_7A, 0xF2_D0_2E, 0xFF_4F_4F];
    let t = if height == 0 {
        0.0
    } else {
        (depth.min(height) as f32 / height as f32) * (RAMP.len() - 1) as f32
    };
    let i = (t as usize).min(RAMP.len() - 2);
    let f = t - i as f32;
    let ch = |c: u32, shift: u32| ((c >> shift) & 0xFF) as f32;
    let mix = |shift: u32| {
        let v = ch(RAMP[i], shift) + (ch(RAMP[i + 1], shift) - ch(RAMP[i], shift)) * f;
        (v.round() as u32).min(255) << shift
    };
    Color(mix(16) | mix(8) | mix(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgb(c: Color) -> [f32; 3] {
        [16, 8, 0].map(|s| ((c.0 >> s) & 0xFF) as f32)
    }

    /// Every overlay colour of the legend is far (in RGB distance) from every other legend
    /// colour: none of the pairs the library's palette confused (normals and y axes both
    /// green, contact points and x axes both red, A and B both salmon) is left. (The body
    /// colours are the library's and are told apart by their fill among themselves.)
    #[test]
    fn legend_colours_are_distinct() {
        let body = |c: &Color| {
            [
                Color::STATIC,
                Color::KINEMATIC,
                Color::DYNAMIC,
                Color::SLEEPING,
                Color::SENSOR,
            ]
            .contains(c)
        };
        for (i, (a, na)) in LEGEND.iter().enumerate() {
            for (b, nb) in LEGEND[i + 1..].iter().filter(|(b, _)| !(body(a) && body(b))) {
                let (p, q) = (rgb(*a), rgb(*b));
                let d = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt();
                assert!(d > 50.0, "{na} and {nb} are {d:.0} apart");
            }
        }
    }

    /// The depth ramp starts and ends on its end colours and changes at every level of a tall
    /// tree.
    #[test]
    fn the_depth_ramp_spans_its_colours() {
        assert_eq!(depth(0, 10), Color(0x8E_5C_FF));
        assert_eq!(depth(10, 10), Color(0xFF_4F_4F));
        assert_eq!(depth(0, 0), Color(0x8E_5C_FF));
        for k in 0..20 {
            assert_ne!(depth(k, 20), depth(k + 1, 20), "level {k}");
        }
    }
}
