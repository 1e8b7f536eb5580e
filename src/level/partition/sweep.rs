//! Triangulation of weakly simple loops by one sweep line (Hertel and Mehlhorn's sweep with
//! a reflex chain per interval), O(n log n).
//!
//! The sweep runs from the top down (ties from left to right). The status holds the intervals
//! of the interior crossing the sweep line, west to east, each bounded by a left edge (heading
//! down) and a right edge (heading up). Each interval keeps a chain: the processed vertices
//! bounding its untriangulated part from above, from the top of its left edge to the top of
//! its right edge, every inner vertex of the chain reflex or flat as seen from below. A vertex
//! entering an interval at one end of the chain cuts ears from that end while they are convex;
//! a split vertex is joined to the interval's lowest chain vertex (the last one processed there,
//! which it sees) and splits the chain there; a merge vertex joins two chains; an end vertex
//! cuts every remaining ear. Each ear is a triangle of the loop.
//!
//! Points the loop visits more than once are perturbed symbolically: each visit moves by an
//! infinitesimal `ε·d` into its own wedge (`d` the sum of its two edge directions, negated for
//! a reflex wedge, or the inward normal of a straight one), which makes the loop simple without
//! moving any vertex. A predicate whose exact value is zero is decided by the perturbation's
//! first- and second-order terms, computed exactly; triangles with no area in the unperturbed
//! plane (two visits of one point) are dropped.

use super::exact::{above, cross_terms, orient, sum_sign, MAX_TERMS, P};
use super::push;
use super::treap::{Treap, NIL};
use crate::geometry::chain::try_vec;
use crate::geometry::GeometryError;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// A visit's perturbation direction, each component a sum of three exact terms.
#[derive(Clone, Copy, Default)]
pub(super) struct Dir {
    x: [f64; 3],
    y: [f64; 3],
}

impl Dir {
    /// The direction into the wedge of the visit at `c` between its neighbours `p` (before)
    /// and `q` (after).
    pub(super) fn into_wedge(p: P, c: P, q: P) -> Dir {
        match orient(p, c, q) {
            // Convex: (q − c) + (p − c), strictly inside a wedge below a half-turn.
            1 => Dir {
                x: [q.0, p.0, -2.0 * c.0],
                y: [q.1, p.1, -2.0 * c.1],
            },
            // Reflex: the negated sum, strictly outside the convex exterior.
            -1 => Dir {
                x: [-q.0, -p.0, 2.0 * c.0],
                y: [-q.1, -p.1, 2.0 * c.1],
            },
            // Straight: the interior is left of the outgoing edge.
            _ => Dir {
                x: [-q.1, c.1, 0.0],
                y: [q.0, -c.0, 0.0],
            },
        }
    }
}

/// The loops' points and the perturbation of the points they visit more than once.
pub(super) struct Geometry<'a> {
    /// The points.
    pub(super) v: &'a [P],
    /// Each vertex's successor and predecessor: the interior lies left of each edge
    /// `i → next[i]`.
    pub(super) next: &'a [u32],
    pub(super) prev: &'a [u32],
    /// For each visit, its index in `dirs`, or `NIL` when it is not perturbed.
    pub(super) pert: &'a [u32],
    /// Perturbation directions.
    pub(super) dirs: &'a [Dir],
}

impl Geometry<'_> {
    fn dir(&self, i: u32) -> Dir {
        match self.pert[i as usize] {
            NIL => Dir::default(),
            k => self.dirs[k as usize],
        }
    }

    /// The sign of the orientation of visits `a`, `b`, `c` in the perturbed plane, and whether
    /// it is already the unperturbed sign (false: the three are collinear unperturbed).
    pub(super) fn orient(&self, a: u32, b: u32, c: u32) -> (i32, bool) {
        let v = self.v;
        let (pa, pb, pc) = (v[a as usize], v[b as usize], v[c as usize]);
        let s = orient(pa, pb, pc);
        let n = |i: u32| self.pert[i as usize] == NIL;
        if s != 0 || (n(a) && n(b) && n(c)) {
            return (s, true);
        }
        // cross(u0 + ε·u1, v0 + ε·v1) with u = b − a, v = c − a: the ε term, then the ε² term.
        let (da, db, dc) = (self.dir(a), self.dir(b), self.dir(c));
        let u0 = ([pb.0, -pa.0], [pb.1, -pa.1]);
        let v0 = ([pc.0, -pa.0], [pc.1, -pa.1]);
        let diff = |p: [f64; 3], q: [f64; 3]| [p[0], p[1], p[2], -q[0], -q[1], -q[2]];
        let u1 = (diff(db.x, da.x), diff(db.y, da.y));
        let v1 = (diff(dc.x, da.x), diff(dc.y, da.y));
        let mut t = [0.0; MAX_TERMS];
        let mut len = 0;
        cross_terms((&u0.0, &u0.1), (&v1.0, &v1.1), &mut t, &mut len);
        cross_terms((&u1.0, &u1.1), (&v0.0, &v0.1), &mut t, &mut len);
        let s1 = sum_sign(&t[..len]);
        if s1 != 0 {
            return (s1, false);
        }
        len = 0;
        cross_terms((&u1.0, &u1.1), (&v1.0, &v1.1), &mut t, &mut len);
        (sum_sign(&t[..len]), false)
    }

    /// The sweep order of visits (perturbed: visits of one point by their directions).
    pub(super) fn sweep_cmp(&self, a: u32, b: u32) -> Ordering {
        let (pa, pb) = (self.v[a as usize], self.v[b as usize]);
        if pa != pb {
            return super::validate::sweep_cmp(pa, pb);
        }
        let (da, db) = (self.dir(a), self.dir(b));
        let sign = |p: [f64; 3], q: [f64; 3]| sum_sign(&[p[0], p[1], p[2], -q[0], -q[1], -q[2]]);
        // Higher first, then further left.
        match sign(da.y, db.y) {
            1 => Ordering::Less,
            -1 => Ordering::Greater,
            _ => match sign(da.x, db.x) {
                -1 => Ordering::Less,
                1 => Ordering::Greater,
                _ => a.cmp(&b),
            },
        }
    }
}

/// A node of a chain: a vertex and its neighbours in the chain.
#[derive(Clone, Copy)]
struct Link {
    v: u32,
    prev: u32,
    next: u32,
}

/// An interval of the interior crossing the sweep line.
#[derive(Clone, Copy)]
struct Interval {
    /// Its left edge (heading down) and right edge (heading up), as `i` for edge `i → next[i]`.
    left: u32,
    right: u32,
    /// The chain's ends and its lowest vertex (the last processed in the interval).
    head: u32,
    tail: u32,
    low: u32,
}

struct Sweep<'a> {
    g: &'a Geometry<'a>,
    links: Vec<Link>,
    iv: Vec<Interval>,
    status: Treap,
    /// The interval each boundary edge crossing the sweep line bounds.
    edge_iv: Vec<u32>,
    tris: Vec<[u32; 3]>,
}

/// Where visit `w` lies against interval `i`: west of it, inside, or east of it.
fn place(g: &Geometry, iv: &[Interval], i: u32, w: u32) -> Ordering {
    let j = iv[i as usize];
    if g.orient(j.left, g.next[j.left as usize], w).0 < 0 {
        Ordering::Less
    } else if g.orient(j.right, g.next[j.right as usize], w).0 < 0 {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// The triangles of the loops `g`, counter-clockwise index triples, each with a positive
/// area; `order` is the vertices in (perturbed) sweep order. The loops must have passed
/// [`super::validate::check`]; a state that only loops failing it can reach is reported as
/// [`GeometryError::SelfIntersecting`].
pub(super) fn triangulate(g: &Geometry, order: &[u32]) -> Result<Vec<[u32; 3]>, GeometryError> {
    let n = g.v.len();
    let mut edge_iv = try_vec(n)?;
    edge_iv.resize(n, NIL);
    let mut s = Sweep {
        g,
        // A vertex enters at most two chains, and a split copies one more.
        links: try_vec(3 * n)?,
        iv: try_vec(n)?,
        status: Treap::new(n)?,
        edge_iv,
        // n − 2 for one loop; loops that are holes add two each.
        tris: try_vec(n)?,
    };
    for &w in order {
        s.event(w)?;
    }
    Ok(s.tris)
}

impl Sweep<'_> {
    fn link(&mut self, v: u32) -> Result<u32, GeometryError> {
        let id = self.links.len() as u32;
        push(
            &mut self.links,
            Link {
                v,
                prev: NIL,
                next: NIL,
            },
        )?;
        Ok(id)
    }

    fn emit(&mut self, t: [u32; 3], real: bool) -> Result<(), GeometryError> {
        // Collinear unperturbed: two visits of one point, no area.
        if real {
            push(&mut self.tris, t)?;
        }
        Ok(())
    }

    /// Cuts the ears at the left end of interval `i`'s chain that `w`, joined to that end,
    /// makes convex.
    fn cut_left(&mut self, i: u32, w: u32) -> Result<(), GeometryError> {
        loop {
            let h = self.iv[i as usize].head;
            let n1 = self.links[h as usize].next;
            if n1 == NIL {
                return Ok(());
            }
            let (c0, c1) = (self.links[h as usize].v, self.links[n1 as usize].v);
            let (o, real) = self.g.orient(c1, c0, w);
            if o <= 0 {
                return Ok(());
            }
            self.emit([c1, c0, w], real)?;
            self.links[n1 as usize].prev = NIL;
            self.iv[i as usize].head = n1;
        }
    }

    /// As [`Sweep::cut_left`] at the right end.
    fn cut_right(&mut self, i: u32, w: u32) -> Result<(), GeometryError> {
        loop {
            let t = self.iv[i as usize].tail;
            let p1 = self.links[t as usize].prev;
            if p1 == NIL {
                return Ok(());
            }
            let (ck, ck1) = (self.links[t as usize].v, self.links[p1 as usize].v);
            let (o, real) = self.g.orient(w, ck, ck1);
            if o <= 0 {
                return Ok(());
            }
            self.emit([w, ck, ck1], real)?;
            self.links[p1 as usize].next = NIL;
            self.iv[i as usize].tail = p1;
        }
    }

    /// Joins `w` to the left end of interval `i`'s chain, cutting the ears it makes.
    fn push_left(&mut self, i: u32, w: u32) -> Result<(), GeometryError> {
        self.cut_left(i, w)?;
        let x = self.link(w)?;
        let h = self.iv[i as usize].head;
        self.links[x as usize].next = h;
        self.links[h as usize].prev = x;
        let j = &mut self.iv[i as usize];
        j.head = x;
        j.low = x;
        Ok(())
    }

    /// Joins `w` to the right end of interval `i`'s chain, cutting the ears it makes.
    fn push_right(&mut self, i: u32, w: u32) -> Result<(), GeometryError> {
        self.cut_right(i, w)?;
        let x = self.link(w)?;
        let t = self.iv[i as usize].tail;
        self.links[x as usize].prev = t;
        self.links[t as usize].next = x;
        let j = &mut self.iv[i as usize];
        j.tail = x;
        j.low = x;
        Ok(())
    }

    fn event(&mut self, w: u32) -> Result<(), GeometryError> {
        let inconsistent = Err(GeometryError::SelfIntersecting);
        let (p, q) = (self.g.prev[w as usize], self.g.next[w as usize]);
        let v = self.g.v;
        let (pw, pp, pq) = (v[w as usize], v[p as usize], v[q as usize]);
        let (p_above, q_above) = (above(pp, pw), above(pq, pw));
        let convex = self.g.orient(p, w, q).0 > 0;
        match (p_above, q_above) {
            (false, false) if convex => {
                // Start: a new interval between w → q (left) and p → w (right).
                let x = self.link(w)?;
                let i = self.iv.len() as u32;
                push(
                    &mut self.iv,
                    Interval {
                        left: w,
                        right: p,
                        head: x,
                        tail: x,
                        low: x,
                    },
                )?;
                let mut inside = false;
                let (g, iv) = (self.g, &self.iv);
                self.status.insert(i, |j| match place(g, iv, j, w) {
                    Ordering::Equal => {
                        inside = true;
                        Ordering::Less
                    }
                    o => o,
                });
                if inside {
                    return inconsistent;
                }
                self.edge_iv[w as usize] = i;
                self.edge_iv[p as usize] = i;
            }
            (false, false) => {
                // Split: joined to the lowest chain vertex of the interval holding it.
                let Some(j) = self.status.find(|j| place(self.g, &self.iv, j, w)) else {
                    return inconsistent;
                };
                let left = self.iv[j as usize];
                let m = left.low;
                let after = self.links[m as usize].next;
                self.links[m as usize].next = NIL;
                let m2 = self.link(self.links[m as usize].v)?;
                self.links[m2 as usize].next = after;
                if after != NIL {
                    self.links[after as usize].prev = m2;
                }
                let r = self.iv.len() as u32;
                push(
                    &mut self.iv,
                    Interval {
                        left: w,
                        right: left.right,
                        head: m2,
                        tail: if after == NIL { m2 } else { left.tail },
                        low: m2,
                    },
                )?;
                let jl = &mut self.iv[j as usize];
                jl.tail = m;
                jl.right = p;
                self.push_right(j, w)?;
                self.push_left(r, w)?;
                self.edge_iv[p as usize] = j;
                self.edge_iv[w as usize] = r;
                self.edge_iv[left.right as usize] = r;
                self.status.insert_after(j, r);
            }
            (true, true) if convex => {
                // End: the interval closes.
                let i = self.edge_iv[p as usize];
                if i == NIL || self.edge_iv[w as usize] != i {
                    return inconsistent;
                }
                self.cut_left(i, w)?;
                self.cut_right(i, w)?;
                self.status.remove(i);
            }
            (true, true) => {
                // Merge: the intervals on either side join.
                let (l, r) = (self.edge_iv[w as usize], self.edge_iv[p as usize]);
                if l == NIL || r == NIL || self.status.next(l) != Some(r) {
                    return inconsistent;
                }
                self.push_right(l, w)?;
                self.push_left(r, w)?;
                let (a, b) = (self.iv[l as usize].tail, self.iv[r as usize].head);
                let after = self.links[b as usize].next;
                if after != NIL {
                    self.links[a as usize].next = after;
                    self.links[after as usize].prev = a;
                    self.iv[l as usize].tail = self.iv[r as usize].tail;
                }
                let right = self.iv[r as usize].right;
                let jl = &mut self.iv[l as usize];
                jl.low = a;
                jl.right = right;
                self.edge_iv[right as usize] = l;
                self.status.remove(r);
            }
            (true, false) => {
                // On a left boundary: p → w leaves, w → q enters.
                let i = self.edge_iv[p as usize];
                if i == NIL {
                    return inconsistent;
                }
                self.push_left(i, w)?;
                self.iv[i as usize].left = w;
                self.edge_iv[w as usize] = i;
            }
            (false, true) => {
                // On a right boundary: w → q leaves, p → w enters.
                let i = self.edge_iv[w as usize];
                if i == NIL {
                    return inconsistent;
                }
                self.push_right(i, w)?;
                self.iv[i as usize].right = p;
                self.edge_iv[p as usize] = i;
            }
        }
        Ok(())
    }
}
