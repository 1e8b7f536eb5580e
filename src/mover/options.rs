//! What one [`move_and_slide`] call takes and gives: its options, its result (position,
//! clipped velocity, ground, contacts) and the limits on its work.

use super::query::MoverPlane;
use crate::math::Vec2;

#[allow(unused_imports)] // doc links
use super::move_and_slide;

/// The most contacts a [`MoveResult`] reports.
pub const MAX_MOVER_CONTACTS: usize = 8;

/// Most collide–solve–cast iterations one [`move_and_slide`] call makes, whatever
/// [`MoveOptions::max_iterations`] asks: each iteration queries the level, so the cap bounds
/// a call's work.
pub const MAX_MOVE_ITERATIONS: u32 = 32;

/// Longest translation (m) [`move_and_slide`] takes: a longer one is invalid input (the mover
/// stays where it is). It equals the World's extent (`world::limits::MAX_COORDINATE`). A cast
/// resolves where it stops to about 1e-7 of its path (`f32`): keep a call's translation below
/// `skin / 4 × 1e7` (25 km for the default skin) for the skin to hold exactly.
pub const MAX_MOVE_TRANSLATION: f32 = 1.0e6;

/// Options of [`move_and_slide`]. Lengths are in the level's units; the defaults suit a
/// mover about 1 unit tall (a metre-scale character) and are named in each field.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveOptions {
    /// Clearance the mover keeps from every surface (default 0.01). The mover rests this far
    /// from what it touches, and no move brings it closer than a quarter of it. Scale it with
    /// the mover (about 1 % of its size), and keep it above 64 float spacings of the
    /// coordinates the mover moves at (at 10 000 a spacing is 0.001: a skin of 0.064 or more),
    /// or round-off decides where it rests.
    pub skin: f32,
    /// Most collide–solve–cast iterations per call (default 5, as Box2D's mover; 0 counts as
    /// 1, and more than [`MAX_MOVE_ITERATIONS`] as that many).
    pub max_iterations: u32,
    /// The world's up direction (default `(0, 1)`), normalised on use; ground faces up.
    /// `Vec2::ZERO` is top-down movement (no gravity direction): no ground, no slopes, no
    /// snapping, every surface a wall to slide along, as Box2D's mover.
    pub up: Vec2,
    /// Steepest walkable slope, radians from horizontal (default π/4). Steeper surfaces facing
    /// up are not climbed.
    pub max_slope: f32,
    /// How far down the mover is pulled onto walkable ground after walking off it, e.g. down a
    /// step or onto a steeper stretch of slope (default 0: no snapping). Only when it stood on
    /// ground at the start and is not moving up (a jump is never snapped back).
    pub ground_snap: f32,
    /// Whether the mover slides down steep slopes under the downward part of its translation
    /// (default `true`); when `false` it stays put on them (it still cannot climb them).
    pub slide_on_steep: bool,
    /// Duration of the frame in seconds, for moving platforms (default 0: no carry). When
    /// positive, the velocity of the ground under the mover at the start times `time_step` is
    /// added to the translation. Call `move_and_slide` after the level has moved for the frame.
    pub time_step: f32,
    /// Tallest step the mover walks up without being told to jump (default 0: no stepping;
    /// rapier's autostep, Unity's step offset). A mover standing on ground and walking (not
    /// moving up) into something that holds it back tries, in the same call: rise by up to
    /// this height (less under a low ceiling), move on laterally at that height, and come back
    /// down onto what it passed over. It keeps that path when it lands on walkable ground at
    /// least a hundredth of the skin higher than it started and got further along its walk
    /// than the plain move did; otherwise the plain move stands. So a step taller than this,
    /// a top steeper than `max_slope`, or a top without room for the mover (a ceiling or wall
    /// over it) is not climbed. Walking down steps is `ground_snap`'s (set it at least this
    /// high to walk down the stairs the mover walks up).
    pub max_step_height: f32,
}

impl Default for MoveOptions {
    fn default() -> Self {
        MoveOptions {
            skin: 0.01,
            max_iterations: 5,
            up: Vec2::new(0.0, 1.0),
            max_slope: core::f32::consts::FRAC_PI_4,
            ground_snap: 0.0,
            slide_on_steep: true,
            time_step: 0.0,
            max_step_height: 0.0,
        }
    }
}

/// Result of [`move_and_slide`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveResult {
    /// The mover's new world position (its transform's translation; the rotation is unchanged).
    pub position: Vec2,
    /// The velocity passed in, with its part into every surface touched at the end removed
    /// (ground: only the downward part).
    pub velocity: Vec2,
    /// Whether the mover ends on walkable ground (within the skin band).
    pub on_ground: bool,
    /// Whether the surfaces the mover touches at the end hold it against gravity together:
    /// on walkable ground, or wedged between surfaces none of which is walkable alone (a
    /// steep V, a ball and a crate) whose normals span the up direction (`up` lies between two
    /// of them, or along one). A game may allow a jump when supported. Always `false` in
    /// top-down movement (`up = 0`).
    pub supported: bool,
    /// The ground (when `on_ground`): its normal, contact point, velocity and user data.
    pub ground: MoverPlane,
    /// The surfaces the mover touches at the end (separation at most the skin, within 1 %),
    /// and its ground, closest first.
    pub contacts: [MoverPlane; MAX_MOVER_CONTACTS],
    /// Number of valid entries of `contacts`.
    pub contact_count: u32,
    /// Iterations used (the auto-step's moves included).
    pub iterations: u32,
    /// Height the mover climbed by auto-step in this call (see [`MoveOptions::max_step_height`];
    /// 0 when it did not step): a game can smooth its camera over it.
    pub stepped_up: f32,
}

impl MoveResult {
    /// The valid contacts.
    #[must_use]
    pub fn contacts(&self) -> &[MoverPlane] {
        &self.contacts[..(self.contact_count as usize).min(MAX_MOVER_CONTACTS)]
    }

    /// Draws the mover planes (debug drawing), in world space: for each contact, the plane as
    /// a segment through its point along the surface, `normal_length` to each side
    /// ([`Color::CAST`](crate::draw::Color::CAST), the ground's
    /// [`Color::STATIC`](crate::draw::Color::STATIC)), the point
    /// ([`Color::CONTACT`](crate::draw::Color::CONTACT)) and the normal from the point toward
    /// the mover, `normal_length` long ([`Color::NORMAL`](crate::draw::Color::NORMAL)).
    pub fn draw(&self, d: &mut (impl crate::draw::DebugDraw + ?Sized), normal_length: f32) {
        use crate::draw::Color;
        for c in self.contacts() {
            let n = c.plane.normal;
            let along = n.left_perp() * normal_length;
            let ground = self.on_ground && c.point == self.ground.point && n == self.ground.plane.normal;
            let color = if ground { Color::STATIC } else { Color::CAST };
            d.segment(c.point - along, c.point + along, color);
            d.point(c.point, 5.0, Color::CONTACT);
            d.segment(c.point, c.point + n * normal_length, Color::NORMAL);
        }
    }
}
