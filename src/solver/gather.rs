//! One pass over the caller's constraints in slice order (Gauss–Seidel, [`run_pass`]): runs
//! packed into [`ContactBlock`]s are processed from there; other runs of [`BLOCK`] consecutive
//! constraints that share no moving body are gathered into lanes on the fly and processed in
//! one go; the rest one at a time. Constraints processed together cannot affect each other,
//! and every lane does exactly the scalar arithmetic, so the result is bit for bit that of
//! processing them one after another.

use super::block::{run_block, ContactBlock};
use super::layout::{independent, pair_indices, BodyLanes, ContactLanes, BLOCK};
use super::passes::{run_lanes, Pass};
use super::{Body, ContactConstraint};

/// One pass over `contacts` in order, the runs packed in `blocks` (from
/// [`pack`](super::block::pack) on the same slice) processed from there and all others
/// gathered on the fly: runs of independent constraints in lanes, the rest one at a time.
pub(crate) fn run_pass(
    bodies: &mut [Body],
    contacts: &mut [ContactConstraint],
    blocks: &mut [ContactBlock],
    pass: &Pass,
) {
    // One copy of the walk per kind of pass, each with its kernel specialised (and loads it
    // does not need, such as the bodies' motion for warm starting, removed).
    match *pass {
        Pass::WarmStart => walk(bodies, contacts, blocks, &Pass::WarmStart),
        Pass::Solve {
            soft_dynamic,
            soft_static,
            inv_h,
            push_max,
            use_bias,
        } => {
            let pass = |use_bias| Pass::Solve {
                soft_dynamic,
                soft_static,
                inv_h,
                push_max,
                use_bias,
            };
            if use_bias {
                walk(bodies, contacts, blocks, &pass(true));
            } else {
                walk(bodies, contacts, blocks, &pass(false));
            }
        }
        Pass::Restitution { threshold } => walk(bodies, contacts, blocks, &Pass::Restitution { threshold }),
    }
}

#[inline(always)]
fn walk(bodies: &mut [Body], contacts: &mut [ContactConstraint], blocks: &mut [ContactBlock], pass: &Pass) {
    let mut blocks = blocks.iter_mut().peekable();
    let mut k = 0;
    while k < contacts.len() {
        if let Some(blk) = blocks.next_if(|b| b.start as usize == k) {
            run_block(bodies, blk, pass);
            k += BLOCK;
            continue;
        }
        if let Some(run) = contacts.get_mut(k..k + BLOCK) {
            let run: &mut [ContactConstraint; BLOCK] = run.try_into().expect("BLOCK long");
            if let Some(pairs) = independent(bodies, run) {
                run_gathered(bodies, run, pairs, pass);
                k += BLOCK;
                continue;
            }
        }
        if let Some(pair) = pair_indices(bodies.len(), &contacts[k]) {
            run_gathered(bodies, core::array::from_mut(&mut contacts[k]), [pair], pass);
        }
        k += 1;
    }
}

/// Gathers `run` into lanes, runs the pass and scatters the results back.
#[inline(always)]
pub(super) fn run_gathered<const N: usize>(
    bodies: &mut [Body],
    run: &mut [ContactConstraint; N],
    pairs: [(usize, usize); N],
    pass: &Pass,
) {
    let (ia, ib) = (pairs.map(|p| p.0), pairs.map(|p| p.1));
    let mut a = BodyLanes::load(bodies, ia);
    let mut b = BodyLanes::load(bodies, ib);
    let mut c = ContactLanes::gather(run);
    if matches!(pass, Pass::Solve { .. }) {
        c.couple((a.inv_mass, a.inv_inertia), (b.inv_mass, b.inv_inertia));
    }
    run_lanes::<N, false, false>(&mut a, &mut b, &mut c, pass);
    a.store(bodies, ia);
    b.store(bodies, ib);
    c.scatter(run);
}
