//! Contact and sensor events: every begin is matched by exactly one end, whatever happens
//! between steps. Ends caused between steps (a body removed, a filter changed) are delivered
//! with the next step's events, ahead of the step's own; a removed body's events carry its
//! id as it was.

use std::collections::HashMap;

use collide2d::solver::SolverError;
use collide2d::*;
use quickcheck::{QuickCheck, TestResult};

mod common;

const DT: f32 = 1.0 / 60.0;
const N: u32 = 4;

fn boxed(hw: f32, hh: f32) -> Shape {
    Shape::Polygon(Polygon::make_box(hw, hh).unwrap())
}

fn add(w: &mut World, kind: BodyKind, p: Vec2, shape: Shape) -> BodyId {
    w.add_body(&BodyDef::new(kind, Transform::from_translation(p), shape))
        .unwrap()
}

fn sensor(w: &mut World, kind: BodyKind, p: Vec2, shape: Shape) -> BodyId {
    let mut d = BodyDef::new(kind, Transform::from_translation(p), shape);
    d.sensor = true;
    w.add_body(&d).unwrap()
}

fn pair(a: BodyId, b: BodyId) -> ContactEvent {
    ContactEvent {
        body_a: a.min(b),
        body_b: a.max(b),
        manifold: Manifold::default(),
        shape_a: a.min(b).first_shape(),
        shape_b: a.max(b).first_shape(),
    }
}

/// A ground and a unit box resting on it, stepped once: the pair has begun.
fn resting() -> (World, BodyId, BodyId) {
    let mut w = World::default();
    let g = add(&mut w, BodyKind::Static, Vec2::new(0.0, -0.5), boxed(20.0, 0.5));
    let b = add(&mut w, BodyKind::Dynamic, Vec2::new(0.0, 0.5), boxed(0.5, 0.5));
    w.step(DT, N).unwrap();
    assert_eq!(w.begin_events().len(), 1);
    (w, g, b)
}

#[test]
fn removing_a_resting_box_ends_its_contact_in_the_next_steps_events() {
    let (mut w, g, b) = resting();
    w.remove_body(b).unwrap();
    // Between steps the events are still those of the last step.
    assert!(w.end_events().is_empty());
    w.step(DT, N).unwrap();
    assert_eq!(w.end_events(), &[pair(g, b)], "delivered once, by the next step");
    // The event carries the id as it was: the body is gone, and so is its user data.
    assert_eq!(w.user_data(b), Err(SolverError::InvalidBody));
    w.step(DT, N).unwrap();
    assert!(w.end_events().is_empty(), "and only once");
}

#[test]
fn a_refused_step_keeps_the_ends_for_the_next_step() {
    let (mut w, g, b) = resting();
    w.remove_body(b).unwrap();
    assert_eq!(w.step(f32::NAN, N), Err(SolverError::InvalidStep));
    assert!(w.end_events().is_empty());
    w.step(DT, N).unwrap();
    assert_eq!(w.end_events(), &[pair(g, b)]);
}

#[test]
fn removing_a_sensors_visitor_or_the_sensor_ends_the_overlap_in_the_next_step() {
    for remove_sensor in [false, true] {
        let mut w = World::default();
        let zone = sensor(&mut w, BodyKind::Static, Vec2::ZERO, boxed(1.0, 1.0));
        let ball = add(&mut w, BodyKind::Dynamic, Vec2::ZERO, Shape::circle(0.25));
        w.set_gravity_scale(ball, 0.0).unwrap();
        w.step(DT, N).unwrap();
        let overlap = SensorEvent {
            sensor: zone,
            visitor: ball,
            sensor_shape: zone.first_shape(),
            visitor_shape: ball.first_shape(),
        };
        assert_eq!(w.sensor_begin_events(), &[overlap]);
        w.remove_body(if remove_sensor { zone } else { ball }).unwrap();
        assert!(w.sensor_end_events().is_empty());
        w.step(DT, N).unwrap();
        assert_eq!(
            w.sensor_end_events(),
            &[overlap],
            "sensor removed: {remove_sensor}"
        );
        w.step(DT, N).unwrap();
        assert!(w.sensor_end_events().is_empty());
    }
}

/// The ends queued between steps come first, in the order they happened, then the step's
/// own: a ball teleported away (its contact ends during the step) and, after the teleport, a
/// box removed (its contact ends at once).
#[test]
fn queued_ends_come_before_the_steps_own() {
    let (mut w, g, b) = resting();
    let ball = add(
        &mut w,
        BodyKind::Dynamic,
        Vec2::new(5.0, 0.25),
        Shape::circle(0.25),
    );
    w.step(DT, N).unwrap();
    let begun: Vec<_> = w.begin_events().iter().map(|e| (e.body_a, e.body_b)).collect();
    assert_eq!(begun, [(g, ball)]);
    w.set_transform(ball, Transform::from_translation(Vec2::new(5.0, 30.0)))
        .unwrap();
    w.remove_body(b).unwrap();
    w.step(DT, N).unwrap();
    assert_eq!(w.end_events(), &[pair(g, b), pair(g, ball)]);
}

/// A new filter ends the body's contacts at once; the next step reports the end and, when
/// the new filter still lets the pair collide, the pair beginning again (process a step's
/// end events before its begin events).
#[test]
fn a_filter_change_ends_contacts_in_the_next_steps_events() {
    let (mut w, g, b) = resting();
    w.set_filter(b, Filter::DEFAULT).unwrap();
    w.step(DT, N).unwrap();
    assert_eq!(w.end_events(), &[pair(g, b)]);
    assert_eq!(w.begin_events().len(), 1);
    let mut none = Filter::DEFAULT;
    none.mask_bits = 0;
    w.set_filter(b, none).unwrap();
    w.step(DT, N).unwrap();
    assert_eq!(w.end_events(), &[pair(g, b)]);
    assert!(w.begin_events().is_empty());
}

/// Per pair, how many begins are not yet matched by an end (0 or 1).
#[derive(Default)]
struct Ledger {
    contacts: HashMap<(BodyId, BodyId), u32>,
    sensors: HashMap<(BodyId, BodyId), u32>,
}

impl Ledger {
    /// Books one step's events: its ends first (all of them concern pairs that touched
    /// before the step), then its begins. An error names the broken rule.
    fn book(&mut self, w: &World) -> Result<(), String> {
        fn end(
            map: &mut HashMap<(BodyId, BodyId), u32>,
            k: (BodyId, BodyId),
            what: &str,
        ) -> Result<(), String> {
            match map.get_mut(&k) {
                Some(n) if *n == 1 => {
                    *n = 0;
                    Ok(())
                }
                _ => Err(format!("{what} end without a begin: {k:?}")),
            }
        }
        fn begin(
            map: &mut HashMap<(BodyId, BodyId), u32>,
            k: (BodyId, BodyId),
            what: &str,
        ) -> Result<(), String> {
            let n = map.entry(k).or_insert(0);
            if *n != 0 {
                return Err(format!("{what} begins twice: {k:?}"));
            }
            *n = 1;
            Ok(())
        }
        for e in w.end_events() {
            if e.body_a >= e.body_b {
                return Err(format!("unordered pair {e:?}"));
            }
            end(&mut self.contacts, (e.body_a, e.body_b), "contact")?;
        }
        for e in w.sensor_end_events() {
            end(&mut self.sensors, (e.sensor, e.visitor), "sensor")?;
        }
        for e in w.begin_events() {
            begin(&mut self.contacts, (e.body_a, e.body_b), "contact")?;
        }
        for e in w.sensor_begin_events() {
            begin(&mut self.sensors, (e.sensor, e.visitor), "sensor")?;
        }
        Ok(())
    }

    fn unmatched(&self) -> Vec<(BodyId, BodyId)> {
        let open = |m: &HashMap<(BodyId, BodyId), u32>| {
            m.iter()
                .filter(|(_, &n)| n != 0)
                .map(|(k, _)| *k)
                .collect::<Vec<_>>()
        };
        let mut all = open(&self.contacts);
        all.extend(open(&self.sensors));
        all
    }
}

/// Random adds (dynamic, static and sensor bodies of every shape kind), removals, teleports
/// into and out of the crowd, filter changes and steps at scale `s`, single-shape bodies (so
/// a pair of bodies has at most one contact): after every step each pair's events alternate
/// begin, end, begin... for contacts and for sensors; once everything is removed and the
/// world stepped once more, every begin has its end.
fn p_events_pair_up(seed: u64, ops: Vec<u8>, scale: u8) -> TestResult {
    let s = [0.01f32, 1.0, 100.0][scale as usize % 3];
    let mut rng = common::Rng(seed);
    let mut w = World::default();
    let mut ids: Vec<BodyId> = Vec::new();
    let mut ledger = Ledger::default();
    let step = |w: &mut World, ledger: &mut Ledger| -> Result<(), String> {
        w.step(DT, N).map_err(|e| format!("step: {e:?}"))?;
        ledger.book(w)
    };
    for op in ops.iter().take(80) {
        let r = match op % 8 {
            0..=3 => {
                let k = rng.index(5);
                let shape = common::random_shape(&mut rng, k, s);
                let xf = common::random_transform(&mut rng, 2.0 * s);
                let (kind, is_sensor) = match op % 8 {
                    0 | 1 => (BodyKind::Dynamic, false),
                    2 => (BodyKind::Static, false),
                    _ => (
                        [BodyKind::Static, BodyKind::Kinematic, BodyKind::Dynamic][rng.index(3)],
                        true,
                    ),
                };
                let mut d = BodyDef::new(kind, xf, shape);
                d.sensor = is_sensor;
                d.awake = rng.index(4) != 0;
                if let Ok(id) = w.add_body(&d) {
                    ids.push(id);
                }
                Ok(())
            }
            4 if !ids.is_empty() => {
                let id = ids.swap_remove(rng.index(ids.len()));
                w.remove_body(id).map_err(|e| format!("remove: {e:?}"))
            }
            5 if !ids.is_empty() => {
                // Into the crowd, or far out of it.
                let id = ids[rng.index(ids.len())];
                let spread = if rng.index(2) == 0 { 2.0 * s } else { 50.0 * s };
                w.set_transform(id, common::random_transform(&mut rng, spread))
                    .map_err(|e| format!("teleport: {e:?}"))
            }
            6 if !ids.is_empty() => {
                let id = ids[rng.index(ids.len())];
                let mut f = Filter::DEFAULT;
                if rng.index(2) == 0 {
                    f.mask_bits = 0;
                }
                w.set_filter(id, f).map_err(|e| format!("filter: {e:?}"))
            }
            _ => (0..1 + rng.index(8)).try_for_each(|_| step(&mut w, &mut ledger)),
        };
        if let Err(e) = r.and_then(|()| w.check_invariants(false).map_err(String::from)) {
            eprintln!("seed {seed}, scale {s}, op {op}: {e}");
            return TestResult::failed();
        }
    }
    for id in ids.drain(..) {
        w.remove_body(id).unwrap();
    }
    if let Err(e) = step(&mut w, &mut ledger) {
        eprintln!("seed {seed}, scale {s}, final step: {e}");
        return TestResult::failed();
    }
    let open = ledger.unmatched();
    if !open.is_empty() {
        eprintln!("seed {seed}, scale {s}: begins without an end: {open:?}");
        return TestResult::failed();
    }
    TestResult::passed()
}

#[test]
fn prop_every_begin_is_matched_by_exactly_one_end() {
    QuickCheck::new()
        .tests(500)
        .quickcheck(p_events_pair_up as fn(u64, Vec<u8>, u8) -> TestResult);
}
