//! Whether a loop is weakly simple in the sense [`decompose`](super::decompose) accepts, and
//! its passes through repeated points paired so that they can be pulled apart.
//!
//! At a point the loop passes through more than once, its edges ordered by angle must
//! alternate between leaving and arriving (an arriving edge first where the two run along one
//! ray: a bridge); each leaving edge is then paired with the next arriving edge
//! counter-clockwise, so the interior wedge of every pass lies between its own two edges and
//! no two wedges overlap. This may split the loop into several loops (two squares drawn as one
//! loop through their common corner). Then a sweep over the edges (Shamos–Hoey) finds any two
//! edges meeting other than at a shared endpoint or as one edge traversed both ways.
//! O(n log n), exact predicates.

use super::exact::{above, orient, P};
use super::treap::Treap;
use crate::geometry::chain::try_vec;
use crate::geometry::GeometryError;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// The sweep order of two points: higher first, then further left.
#[inline]
pub(super) fn sweep_cmp(a: P, b: P) -> Ordering {
    if above(a, b) {
        Ordering::Less
    } else if above(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// The loops: the point of each vertex and its neighbours, the interior on the left of every
/// edge `i → next[i]`.
pub(super) struct Loops<'a> {
    pub(super) v: &'a [P],
    pub(super) next: &'a mut [u32],
    pub(super) prev: &'a mut [u32],
}

/// The direction from `o` to `x` by angle counter-clockwise from +x: the half-turn it lies
/// in, then the turn between two in one half-turn.
fn by_angle(o: P, x: P, y: P) -> Ordering {
    let half = |x: P| !(x.1 > o.1 || (x.1 == o.1 && x.0 > o.0));
    half(x).cmp(&half(y)).then_with(|| match orient(o, x, y) {
        1 => Ordering::Less,
        -1 => Ordering::Greater,
        _ => Ordering::Equal,
    })
}

/// Whether the loops are counter-clockwise, from the edges at their lowest point: the first of
/// them counter-clockwise from +x leaves that point exactly when the loops wind
/// counter-clockwise (below the point is outside). `None` when an arriving and a leaving edge
/// run along that first direction together.
pub(super) fn counter_clockwise(v: &[P], next: &[u32], prev: &[u32], order: &[u32]) -> Option<bool> {
    let low = v[order[order.len() - 1] as usize];
    let mut first: Option<(P, bool)> = None;
    let mut tie = false;
    for &w in order.iter().rev().take_while(|&&w| v[w as usize] == low) {
        for (x, leaving) in [
            (v[next[w as usize] as usize], true),
            (v[prev[w as usize] as usize], false),
        ] {
            match first {
                None => first = Some((x, leaving)),
                Some((f, l)) => match by_angle(low, x, f) {
                    Ordering::Less => {
                        first = Some((x, leaving));
                        tie = false;
                    }
                    Ordering::Equal if l != leaving => tie = true,
                    _ => {}
                },
            }
        }
    }
    match first {
        Some((_, leaving)) if !tie => Some(leaving),
        _ => None,
    }
}

/// Checks and pairs the loops (see the [module docs](self)); `order` is the vertices in sweep
/// order (ties by index). Errors: [`GeometryError::SelfIntersecting`],
/// [`GeometryError::OutOfMemory`].
pub(super) fn check(l: &mut Loops, order: &[u32]) -> Result<(), GeometryError> {
    let v = l.v;
    let n = v.len();
    // Points visited more than once: their edges alternate, then are paired.
    let mut most = 0;
    let mut g = 0;
    while g < n {
        let h = run_end(v, order, g);
        most = most.max(h - g);
        g = h;
    }
    if most > 1 {
        let mut rays: Vec<(P, bool, u32)> = try_vec(2 * most)?;
        let mut g = 0;
        while g < n {
            let h = run_end(v, order, g);
            if h - g > 1 {
                pair(l, &order[g..h], &mut rays)?;
            }
            g = h;
        }
    }
    // An edge doubling back on the one before: a spike of zero width.
    for i in 0..n {
        let (p, c, q) = (v[l.prev[i] as usize], v[i], v[l.next[i] as usize]);
        if p == c || c == q || (orient(p, c, q) == 0 && above(p, c) == above(q, c)) {
            return Err(GeometryError::SelfIntersecting);
        }
    }
    sweep(v, l.next, order)
}

/// The end of the run of `order` from `g` at one point.
fn run_end(v: &[P], order: &[u32], g: usize) -> usize {
    let mut h = g + 1;
    while h < order.len() && v[order[h] as usize] == v[order[g] as usize] {
        h += 1;
    }
    h
}

/// The visits `at` of one point: their edges must alternate by angle; each leaving edge is
/// then paired with the next arriving edge counter-clockwise.
fn pair(l: &mut Loops, at: &[u32], rays: &mut Vec<(P, bool, u32)>) -> Result<(), GeometryError> {
    let v = l.v;
    let o = v[at[0] as usize];
    rays.clear();
    // (the far end, leaving, the edge's source)
    for &w in at {
        let (w, p) = (w as usize, l.prev[w as usize]);
        rays.push((v[l.next[w] as usize], true, w as u32));
        rays.push((v[p as usize], false, p));
    }
    // Along one ray an arriving edge comes first: that is how a bridge's two sides meet.
    rays.sort_unstable_by(|a, b| by_angle(o, a.0, b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let k = rays.len();
    for i in 0..k {
        let (a, b) = (rays[i], rays[(i + 1) % k]);
        if a.1 == b.1 {
            return Err(GeometryError::SelfIntersecting);
        }
        if a.1 {
            // Leaving edge `a.2 → …` starts the wedge that arriving edge `b.2 → o` ends.
            l.prev[a.2 as usize] = b.2;
            l.next[b.2 as usize] = a.2;
        }
    }
    Ok(())
}

/// Shamos–Hoey over the edges `i → next[i]`: the status holds the edges crossing the sweep
/// line, west to east; an edge is compared with its neighbours when it enters and the two edges
/// around it when it leaves, so the first forbidden meeting in sweep order is found.
fn sweep(v: &[P], next: &[u32], order: &[u32]) -> Result<(), GeometryError> {
    let n = v.len();
    let nx = |e: usize| next[e] as usize;
    // An edge's upper end (first in sweep order) and lower end.
    let upper = |e: usize| if above(v[e], v[nx(e)]) { e } else { nx(e) };
    let lower = |e: usize| if above(v[e], v[nx(e)]) { nx(e) } else { e };
    // The edges at each vertex: its own and the one arriving (found from `next`).
    let mut arriving: Vec<u32> = try_vec(n)?;
    arriving.resize(n, 0);
    for e in 0..n {
        arriving[nx(e)] = e as u32;
    }
    let mut status = Treap::new(n)?;
    let mut bad = false;
    let mut g = 0;
    while g < n {
        let h = run_end(v, order, g);
        // Edges ending here leave first: an edge starting here never meets them elsewhere.
        for &w in &order[g..h] {
            let w = w as usize;
            for e in [w, arriving[w] as usize] {
                if lower(e) == w {
                    let (a, b) = (status.prev(e as u32), status.next(e as u32));
                    status.remove(e as u32);
                    if let (Some(a), Some(b)) = (a, b) {
                        if !compatible(v, next, a as usize, b as usize) {
                            return Err(GeometryError::SelfIntersecting);
                        }
                    }
                }
            }
        }
        for &w in &order[g..h] {
            let w = w as usize;
            for e in [w, arriving[w] as usize] {
                if upper(e) != w {
                    continue;
                }
                let (p, q) = (v[w], v[lower(e)]);
                status.insert(e as u32, |t| {
                    let t = t as usize;
                    let (u, l) = (v[upper(t)], v[lower(t)]);
                    // East of an edge heading down is its left.
                    match orient(u, l, p) {
                        1 => return Ordering::Greater,
                        -1 => return Ordering::Less,
                        _ => {}
                    }
                    if p != u {
                        // On `t` between its ends.
                        bad = true;
                        return Ordering::Less;
                    }
                    match orient(u, l, q) {
                        1 => Ordering::Greater,
                        -1 => Ordering::Less,
                        _ => {
                            // Collinear from one point: only a bridge (the same edge both
                            // ways) may overlap.
                            let reversed = (upper(e) == e) != (upper(t) == t);
                            if !(q == l && reversed) {
                                bad = true;
                            }
                            e.cmp(&t)
                        }
                    }
                });
                if bad {
                    return Err(GeometryError::SelfIntersecting);
                }
                for other in [status.prev(e as u32), status.next(e as u32)]
                    .into_iter()
                    .flatten()
                {
                    if !compatible(v, next, e, other as usize) {
                        return Err(GeometryError::SelfIntersecting);
                    }
                }
            }
        }
        g = h;
    }
    Ok(())
}

/// Whether edges `s` and `t` (`i → next[i]`) meet only as the accepted loops allow:
/// consecutive edges (their fold-back is checked apart), a shared endpoint, the same edge both
/// ways, or not at all.
fn compatible(v: &[P], next: &[u32], s: usize, t: usize) -> bool {
    let (ns, nt) = (next[s] as usize, next[t] as usize);
    if ns == t || nt == s {
        return true;
    }
    let (a, b, c, d) = (v[s], v[ns], v[t], v[nt]);
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    // Within the closed segment `p`–`q`, for a point on its line.
    let on = |p: P, q: P, x: P| !((above(x, p) && above(x, q)) || (above(p, x) && above(q, x)));
    if o1 == 0 && o2 == 0 {
        // Collinear: overlapping in more than a point only as a bridge.
        let (s0, s1) = if above(a, b) { (a, b) } else { (b, a) };
        let (t0, t1) = if above(c, d) { (c, d) } else { (d, c) };
        let overlap = above(s0, t1) && above(t0, s1);
        return !overlap || (a == d && b == c);
    }
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return false;
    }
    // Touching: only at a point that ends both.
    let touches_inside = |o: i32, p: P, q: P, x: P| o == 0 && on(p, q, x) && x != p && x != q;
    !(touches_inside(o1, a, b, c)
        || touches_inside(o2, a, b, d)
        || touches_inside(o3, c, d, a)
        || touches_inside(o4, c, d, b))
}
