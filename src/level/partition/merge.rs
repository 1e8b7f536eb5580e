//! Triangles to convex pieces of at most [`MAX_POLYGON_VERTICES`] vertices.
//!
//! A corner of a union of triangles may be exactly straight (by the exact orientation): its
//! vertex is left out of the piece, whose edge then passes through it (it stays a vertex of
//! the neighbours), so the pieces still tile the polygon exactly.
//!
//! 1. An exact dynamic programme over the triangulation's dual forest: the fewest pieces that
//!    are unions of at most 6 triangles (8 vertices), convex and valid by
//!    [`Polygon::is_valid`]. For each triangle, the candidates are the convex unions of at
//!    most 6 triangles reaching down from it into its subtree, each with the fewest pieces the
//!    rest of that subtree needs; gluing across a diagonal changes only the two corners at its
//!    ends, and a corner turning right stays so as triangles are added, so such unions are
//!    dropped as soon as they appear. A candidate is kept for the parent only when it could
//!    beat closing the piece here, and only the best of those that meet the parent's diagonal
//!    alike, so the lists stay short: O(n) in all. Subtrees are visited lightest first, so at
//!    most O(log n) lists wait at once.
//! 2. Greedy merging of the pieces across their shared edges while the union is a valid
//!    piece. This joins what the 6-triangle bound kept apart, such as a fan of triangles over
//!    collinear vertices (the base of a comb) into one piece.

use super::exact::{above, orient, P};
use super::push;
use super::treap::NIL;
use crate::geometry::chain::try_vec;
use crate::geometry::{GeometryError, Polygon, MAX_POLYGON_VERTICES};
use crate::math::Vec2;
use alloc::vec::Vec;

/// A convex piece: indices into the loop, counter-clockwise.
#[derive(Clone, Copy)]
pub(super) struct Piece {
    idx: [u32; MAX_POLYGON_VERTICES],
    len: u8,
}

impl Piece {
    pub(super) fn indices(&self) -> &[u32] {
        &self.idx[..self.len as usize]
    }

    fn from_slice(s: &[u32]) -> Piece {
        let mut idx = [0; MAX_POLYGON_VERTICES];
        idx[..s.len()].copy_from_slice(s);
        Piece {
            idx,
            len: s.len() as u8,
        }
    }
}

/// The most triangles in a piece: each adds one vertex to the first's three.
const MAX_TRIANGLES: u8 = (MAX_POLYGON_VERTICES - 2) as u8;

/// The cost of a piece that is not valid (kept only when nothing valid covers its triangles;
/// more than any count of valid pieces).
const PENALTY: u64 = 1 << 40;

/// A union of triangles reaching down from one triangle into its subtree.
#[derive(Clone, Copy)]
struct Cand {
    piece: Piece,
    /// Its triangles.
    size: u8,
    /// Which of the subtree's triangles it holds: for each of its triangles in preorder, one
    /// bit per child (in the children's visiting order), set when that child is held.
    code: u32,
    code_len: u8,
    /// The fewest pieces the rest of the subtree needs.
    cost: u64,
}

/// What [`glue`] does with a corner that becomes exactly straight.
#[derive(Clone, Copy, PartialEq)]
enum Straight {
    /// Keeps its vertex (left out when the piece is closed).
    Keep,
    /// Leaves its vertex out of the piece.
    Drop,
}

/// Joins convex loops `a` (holding the edge `x → y`) and `b` (holding `y → x`) across that
/// edge. Each corner at `x` and `y` must turn left, or be exactly straight (handled as
/// `straight` says). `None` when a corner turns right or folds back, or the result has more
/// than [`MAX_POLYGON_VERTICES`] vertices.
fn glue(a: &[u32], b: &[u32], x: u32, y: u32, v: &[P], straight: Straight) -> Option<Piece> {
    let (na, nb) = (a.len(), b.len());
    let ia = (0..na).find(|&k| a[k] == x && a[(k + 1) % na] == y)?;
    let ib = (0..nb).find(|&k| b[k] == y && b[(k + 1) % nb] == x)?;
    // `a` from `y` round to `x`, then `b` strictly between `x` and `y`.
    let mut raw = [0u32; 2 * MAX_POLYGON_VERTICES];
    let m = na + nb - 2;
    for k in 0..na {
        raw[k] = a[(ia + 1 + k) % na];
    }
    for k in 0..nb - 2 {
        raw[na + k] = b[(ib + 2 + k) % nb];
    }
    // `y` at 0, `x` at na − 1.
    let mut keep = [true; 2 * MAX_POLYGON_VERTICES];
    for at in [0, na - 1] {
        let (p, c, q) = (
            v[raw[(at + m - 1) % m] as usize],
            v[raw[at] as usize],
            v[raw[at + 1] as usize],
        );
        match orient(p, c, q) {
            1 => {}
            0 if above(p, c) != above(q, c) => keep[at] = straight == Straight::Keep,
            _ => return None,
        }
    }
    let kept = (0..m).filter(|&k| keep[k]).count();
    if kept > MAX_POLYGON_VERTICES {
        return None;
    }
    let mut piece = Piece {
        idx: [0; MAX_POLYGON_VERTICES],
        len: 0,
    };
    for k in (0..m).filter(|&k| keep[k]) {
        piece.idx[piece.len as usize] = raw[k];
        piece.len += 1;
    }
    Some(piece)
}

/// The piece without its exactly straight corners.
fn without_straight(piece: &Piece, v: &[P]) -> Piece {
    let s = piece.indices();
    let m = s.len();
    let mut out = Piece {
        idx: [0; MAX_POLYGON_VERTICES],
        len: 0,
    };
    for k in 0..m {
        let (p, c, q) = (
            v[s[(k + m - 1) % m] as usize],
            v[s[k] as usize],
            v[s[(k + 1) % m] as usize],
        );
        if orient(p, c, q) == 0 && above(p, c) != above(q, c) {
            continue;
        }
        out.idx[out.len as usize] = s[k];
        out.len += 1;
    }
    out
}

/// Whether the piece is a valid [`Polygon`] with exactly its vertices.
fn valid(piece: &Piece, pts: &[Vec2]) -> bool {
    let mut q = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for (k, &i) in piece.indices().iter().enumerate() {
        q[k] = pts[i as usize];
    }
    Polygon::from_convex_loop(&q[..piece.len as usize]).is_some()
}

/// The triangles `tris` (counter-clockwise, positive area) of the loop `v` (with `pts` its
/// `f32` points) merged into convex pieces (see the [module docs](self)).
pub(super) fn merge(v: &[P], pts: &[Vec2], tris: &[[u32; 3]]) -> Result<Vec<Piece>, GeometryError> {
    let t = tris.len();
    // Neighbours across each triangle's edges `k → k + 1`.
    let mut nb: Vec<[u32; 3]> = try_vec(t)?;
    nb.resize(t, [NIL; 3]);
    {
        let mut edges: Vec<(u64, u32)> = try_vec(3 * t)?;
        for (i, tri) in tris.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                let key = (u64::from(a.min(b)) << 32) | u64::from(a.max(b));
                edges.push((key, ((i as u32) << 2) | k as u32));
            }
        }
        edges.sort_unstable();
        for w in edges.windows(2) {
            let ((ka, sa), (kb, sb)) = (w[0], w[1]);
            let (ta, ea, tb, eb) = (sa >> 2, sa & 3, sb >> 2, sb & 3);
            let dir = |t: u32, e: u32| {
                let tri = tris[t as usize];
                (tri[e as usize], tri[(e as usize + 1) % 3])
            };
            // A diagonal: one edge held both ways by two triangles.
            if ka == kb && dir(ta, ea) == (dir(tb, eb).1, dir(tb, eb).0) {
                nb[ta as usize][ea as usize] = tb;
                nb[tb as usize][eb as usize] = ta;
            }
        }
    }
    let dp = Forest::new(&nb)?;
    let mut pieces = dp.pieces(v, pts, tris, &nb)?;
    merge_greedy(v, pts, &mut pieces)?;
    Ok(pieces)
}

/// The dual forest rooted, with subtree sizes.
struct Forest {
    parent: Vec<u32>,
    size: Vec<u32>,
    roots: Vec<u32>,
}

impl Forest {
    fn new(nb: &[[u32; 3]]) -> Result<Forest, GeometryError> {
        let t = nb.len();
        let mut parent = try_vec(t)?;
        parent.resize(t, NIL);
        let mut seen = try_vec(t)?;
        seen.resize(t, false);
        let mut bfs: Vec<u32> = try_vec(t)?;
        let mut roots = try_vec(0)?;
        for r in 0..t {
            if seen[r] {
                continue;
            }
            push(&mut roots, r as u32)?;
            seen[r] = true;
            let start = bfs.len();
            bfs.push(r as u32);
            let mut k = start;
            while k < bfs.len() {
                let x = bfs[k];
                k += 1;
                for &c in &nb[x as usize] {
                    if c != NIL && !seen[c as usize] {
                        seen[c as usize] = true;
                        parent[c as usize] = x;
                        bfs.push(c);
                    }
                }
            }
        }
        let mut size = try_vec(t)?;
        size.resize(t, 1u32);
        for &x in bfs.iter().rev() {
            let p = parent[x as usize];
            if p != NIL {
                size[p as usize] += size[x as usize];
            }
        }
        Ok(Forest { parent, size, roots })
    }

    /// The children of `x`, lightest subtree first (ties by edge), with the edge of `x`
    /// each lies across.
    fn children(&self, nb: &[[u32; 3]], x: u32) -> ([(u32, u8); 3], usize) {
        let mut c = [(NIL, 0u8); 3];
        let mut k = 0;
        for e in 0..3u8 {
            let y = nb[x as usize][e as usize];
            if y != NIL && y != self.parent[x as usize] {
                c[k] = (y, e);
                k += 1;
            }
        }
        c[..k].sort_unstable_by_key(|&(y, e)| (self.size[y as usize], e));
        (c, k)
    }

    /// The dynamic programme, then the chosen pieces.
    fn pieces(
        &self,
        v: &[P],
        pts: &[Vec2],
        tris: &[[u32; 3]],
        nb: &[[u32; 3]],
    ) -> Result<Vec<Piece>, GeometryError> {
        let t = tris.len();
        let mut best: Vec<u64> = try_vec(t)?;
        best.resize(t, 0);
        let mut code: Vec<u32> = try_vec(t)?;
        code.resize(t, 0);
        // Candidate lists of finished subtrees whose parent is not yet finished, as a stack.
        let mut cands: Vec<Cand> = Vec::new();
        let mut starts: Vec<usize> = Vec::new();
        let (mut cur, mut nxt): (Vec<Cand>, Vec<Cand>) = (Vec::new(), Vec::new());
        let mut stack: Vec<(u32, u8)> = try_vec(t)?;
        let tri_piece = |x: u32| Piece::from_slice(&tris[x as usize]);
        // The edge of `x` toward neighbour `y`.
        let edge_to = |x: u32, y: u32| {
            let e = (0..3).find(|&e| nb[x as usize][e] == y).unwrap_or(0);
            (tris[x as usize][e], tris[x as usize][(e + 1) % 3])
        };
        for &root in &self.roots {
            stack.push((root, 0));
            while let Some(&(x, visited)) = stack.last() {
                let (ch, nc) = self.children(nb, x);
                if (visited as usize) < nc {
                    if let Some(top) = stack.last_mut() {
                        top.1 += 1;
                    }
                    stack.push((ch[visited as usize].0, 0));
                    continue;
                }
                stack.pop();
                // Every child is finished: their lists are the top `nc`, in visiting order.
                let base = starts.len() - nc;
                cur.clear();
                push(
                    &mut cur,
                    Cand {
                        piece: tri_piece(x),
                        size: 1,
                        code: 0,
                        code_len: nc as u8,
                        cost: 0,
                    },
                )?;
                for (j, &(c, _)) in ch[..nc].iter().enumerate() {
                    let (a, b) = edge_to(x, c);
                    let end = if j + 1 < nc {
                        starts[base + j + 1]
                    } else {
                        cands.len()
                    };
                    let list = &cands[starts[base + j]..end];
                    nxt.clear();
                    for y in &cur {
                        push(
                            &mut nxt,
                            Cand {
                                cost: y.cost + best[c as usize],
                                ..*y
                            },
                        )?;
                        for z in list {
                            if y.size + z.size > MAX_TRIANGLES {
                                continue;
                            }
                            if let Some(piece) =
                                glue(y.piece.indices(), z.piece.indices(), a, b, v, Straight::Keep)
                            {
                                push(
                                    &mut nxt,
                                    Cand {
                                        piece,
                                        size: y.size + z.size,
                                        code: y.code | (1 << j) | (z.code << y.code_len),
                                        code_len: y.code_len + z.code_len,
                                        cost: y.cost + z.cost,
                                    },
                                )?;
                            }
                        }
                    }
                    core::mem::swap(&mut cur, &mut nxt);
                }
                if nc > 0 {
                    cands.truncate(starts[base]);
                    starts.truncate(base);
                }
                // Close a piece here: the cheapest valid candidate, the largest among equals.
                cur.sort_unstable_by_key(|y| (y.cost, core::cmp::Reverse(y.size)));
                let closing = cur.iter().find(|y| valid(&without_straight(&y.piece, v), pts));
                let (b, c) = match closing {
                    Some(y) => (y.cost + 1, y.code),
                    None => (cur[0].cost + 1 + PENALTY, cur[0].code),
                };
                best[x as usize] = b;
                code[x as usize] = c;
                let p = self.parent[x as usize];
                if p == NIL {
                    continue;
                }
                // Candidates worth extending: cheaper than closing here, room for the parent,
                // and not beaten by one meeting the parent's diagonal alike.
                let pa = edge_to(x, p).0;
                let iface = |y: &Cand| {
                    let s = y.piece.indices();
                    let k = s.iter().position(|&i| i == pa).unwrap_or(0);
                    let m = s.len();
                    // Counter-clockwise, `pa → pb` is an edge of `x`.
                    (s[(k + m - 1) % m], s[(k + 2) % m])
                };
                cur.sort_unstable_by_key(|y| (y.cost, y.size));
                push(&mut starts, cands.len())?;
                let first = cands.len();
                for y in &cur {
                    if y.size >= MAX_TRIANGLES || y.cost >= b {
                        continue;
                    }
                    let f = iface(y);
                    let beaten = |z: &Cand| iface(z) == f && z.cost <= y.cost && z.size <= y.size;
                    if cands[first..].iter().any(beaten) {
                        continue;
                    }
                    push(&mut cands, *y)?;
                }
            }
        }
        // The pieces: from each root, each closed piece's triangles, and a new piece at every
        // child it leaves out.
        let mut pieces: Vec<Piece> = try_vec(t)?;
        let mut tops: Vec<u32> = try_vec(t)?;
        for &root in &self.roots {
            tops.push(root);
            while let Some(top) = tops.pop() {
                let mut bits = code[top as usize];
                let mut piece = tri_piece(top);
                let mut inner = [NIL; MAX_TRIANGLES as usize];
                inner[0] = top;
                let mut k = 1;
                while k > 0 {
                    k -= 1;
                    let x = inner[k];
                    let (ch, nc) = self.children(nb, x);
                    let mask = bits & ((1 << nc) - 1);
                    bits >>= nc;
                    for j in (0..nc).rev() {
                        let c = ch[j].0;
                        if mask & (1 << j) != 0 && k < inner.len() {
                            let (a, b) = edge_to(x, c);
                            let tri = tri_piece(c);
                            piece = glue_raw(&piece, &tri, a, b);
                            inner[k] = c;
                            k += 1;
                        } else {
                            push(&mut tops, c)?;
                        }
                    }
                }
                push(&mut pieces, without_straight(&piece, v))?;
            }
        }
        Ok(pieces)
    }
}

/// Joins two loops across a shared edge as [`glue`] does, without checks (the union was
/// checked when it was chosen).
fn glue_raw(a: &Piece, b: &Piece, x: u32, y: u32) -> Piece {
    let (a, bs) = (a.indices(), b.indices());
    let (na, nb) = (a.len(), bs.len());
    let (Some(ia), Some(ib)) = (
        (0..na).find(|&k| a[k] == x && a[(k + 1) % na] == y),
        (0..nb).find(|&k| bs[k] == y && bs[(k + 1) % nb] == x),
    ) else {
        return Piece::from_slice(a);
    };
    let mut piece = Piece {
        idx: [0; MAX_POLYGON_VERTICES],
        len: 0,
    };
    let items = (0..na)
        .map(|k| a[(ia + 1 + k) % na])
        .chain((0..nb - 2).map(|k| bs[(ib + 2 + k) % nb]));
    for i in items.take(MAX_POLYGON_VERTICES) {
        piece.idx[piece.len as usize] = i;
        piece.len += 1;
    }
    piece
}

/// Merges pieces across shared edges while the union is a valid piece (see the
/// [module docs](self)). Each merge leaves one piece fewer, and a piece is looked at again only
/// after it grew: O(n log n).
fn merge_greedy(v: &[P], pts: &[Vec2], pieces: &mut Vec<Piece>) -> Result<(), GeometryError> {
    let np = pieces.len();
    let mut table: Vec<(u64, u32)> = try_vec(np * MAX_POLYGON_VERTICES)?;
    for (p, piece) in pieces.iter().enumerate() {
        let s = piece.indices();
        for k in 0..s.len() {
            let key = (u64::from(s[k]) << 32) | u64::from(s[(k + 1) % s.len()]);
            table.push((key, p as u32));
        }
    }
    table.sort_unstable();
    let mut rep: Vec<u32> = try_vec(np)?;
    rep.extend(0..np as u32);
    let mut alive: Vec<bool> = try_vec(np)?;
    alive.resize(np, true);
    // Each piece once, and once more after each merge it wins.
    let mut work: Vec<u32> = try_vec(2 * np)?;
    work.extend((0..np as u32).rev());
    let find = |rep: &mut Vec<u32>, mut x: u32| {
        while rep[x as usize] != x {
            let up = rep[rep[x as usize] as usize];
            rep[x as usize] = up;
            x = up;
        }
        x
    };
    while let Some(p) = work.pop() {
        if !alive[p as usize] {
            continue;
        }
        let s = pieces[p as usize];
        let s = s.indices();
        for k in 0..s.len() {
            let (a, b) = (s[k], s[(k + 1) % s.len()]);
            let key = (u64::from(b) << 32) | u64::from(a);
            let Ok(at) = table.binary_search_by_key(&key, |e| e.0) else {
                continue;
            };
            let q = find(&mut rep, table[at].1);
            if q == p || !alive[q as usize] {
                continue;
            }
            let Some(m) = glue(s, pieces[q as usize].indices(), a, b, v, Straight::Drop) else {
                continue;
            };
            if !valid(&m, pts) {
                continue;
            }
            pieces[p as usize] = m;
            alive[q as usize] = false;
            rep[q as usize] = p;
            push(&mut work, p)?;
            break;
        }
    }
    let mut kept = 0;
    for k in 0..np {
        if alive[k] {
            pieces[kept] = pieces[k];
            kept += 1;
        }
    }
    pieces.truncate(kept);
    Ok(())
}
