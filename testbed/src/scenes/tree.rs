//! A dynamic tree of boxes and a box query.
use collide2d::draw::{draw_aabb, Color, DebugDraw};
use collide2d::tree::{DynamicTree, ProxyId, TreeNode, Visit};
use collide2d::*;

use super::*;

/// A dynamic tree of boxes, a box query, and the tree drawn by depth.
pub struct Tree {
    tree: DynamicTree<Vec<TreeNode>>,
    /// The boxes by index: tight box and proxy, `None` once removed.
    boxes: Vec<Option<(Aabb, ProxyId)>>,
    rng: Lcg,
    query: Aabb,
    /// Scripted operations to run: boxes to add, random moves, random removals.
    script: (u32, u32, u32),
    selected: Option<usize>,
    drag: Option<Vec2>,
    querying: bool,
    /// The deepest tree level drawn (`depth`; all by default).
    max_depth: u32,
    /// Script operations run so far, and the boxes live after its adds (for its moves and
    /// removals).
    script_done: u32,
    script_live: Option<Vec<usize>>,
}

impl Tree {
    pub(super) fn new() -> Tree {
        Tree {
            tree: DynamicTree::new(),
            boxes: Vec::new(),
            rng: Lcg(1),
            query: Aabb {
                min: Vec2::new(-6.0, -4.0),
                max: Vec2::new(6.0, 4.0),
            },
            script: (64, 0, 0),
            selected: None,
            drag: None,
            querying: false,
            max_depth: u32::MAX,
            script_done: 0,
            script_live: None,
        }
    }

    pub(super) fn set(&mut self, key: &str, value: &str) {
        let count = || value.parse::<u32>().ok().map(|n| n.min(20_000));
        match key {
            "n" => self.script.0 = count().unwrap_or(self.script.0),
            "moves" => self.script.1 = count().unwrap_or(self.script.1),
            "removes" => self.script.2 = count().unwrap_or(self.script.2),
            "seed" => self.rng = Lcg(value.parse().unwrap_or(self.rng.0)),
            "depth" => self.max_depth = value.parse().unwrap_or(self.max_depth),
            "qx0" => self.query.min.x = num(value).unwrap_or(self.query.min.x),
            "qy0" => self.query.min.y = num(value).unwrap_or(self.query.min.y),
            "qx1" => self.query.max.x = num(value).unwrap_or(self.query.max.x),
            "qy1" => self.query.max.y = num(value).unwrap_or(self.query.max.y),
            _ => {}
        }
    }

    pub(super) fn random_box(&mut self) -> Aabb {
        let c = Vec2::new(self.rng.range(-20.0, 20.0), self.rng.range(-12.0, 12.0));
        let h = Vec2::new(self.rng.range(0.2, 1.2), self.rng.range(0.2, 1.2));
        Aabb {
            min: c - h,
            max: c + h,
        }
    }

    pub(super) fn add(&mut self, b: Aabb) {
        let index = self.boxes.len() as u64;
        if let Ok(id) = self.tree.create_proxy(b, 1, index) {
            self.boxes.push(Some((b, id)));
        }
    }

    pub(super) fn remove(&mut self, i: usize) {
        if let Some((_, id)) = self.boxes.get_mut(i).and_then(Option::take) {
            // The id came from this tree and was not destroyed: cannot fail.
            let _ = self.tree.destroy_proxy(id);
        }
        if self.selected == Some(i) {
            self.selected = None;
        }
    }

    pub(super) fn move_to(&mut self, i: usize, b: Aabb) {
        if let Some(Some((old, id))) = self.boxes.get_mut(i) {
            if self.tree.move_proxy(*id, b).is_ok() {
                *old = b;
            }
        }
    }

    pub(super) fn live(&self) -> Vec<usize> {
        (0..self.boxes.len())
            .filter(|&i| self.boxes[i].is_some())
            .collect()
    }

    /// Operations the script still has to run (adds, then moves, then removals).
    pub(super) fn script_remaining(&self) -> u32 {
        let (n, moves, removes) = self.script;
        n.saturating_add(moves)
            .saturating_add(removes)
            .saturating_sub(self.script_done)
    }

    /// Runs up to `budget` of the script's operations: `n` random boxes added, then `moves`
    /// random moves and `removes` random removals among the boxes live after the adds (picked
    /// from a list of them kept between calls). Returns the operations left.
    pub(super) fn script_step(&mut self, budget: u32) -> u32 {
        let (n, moves, removes) = self.script;
        for _ in 0..budget {
            let k = self.script_done;
            if self.script_remaining() == 0 {
                break;
            }
            self.script_done += 1;
            if k < n {
                let b = self.random_box();
                self.add(b);
                continue;
            }
            let mut live = match self.script_live.take() {
                Some(live) => live,
                None => self.live(),
            };
            if live.is_empty() {
                // Nothing left to move or remove: the script is done.
                self.script_done = n.saturating_add(moves).saturating_add(removes);
            } else if k - n < moves {
                let i = live[(self.rng.unit() * live.len() as f32) as usize % live.len()];
                let d = Vec2::new(self.rng.range(-2.0, 2.0), self.rng.range(-2.0, 2.0));
                if let Some((b, _)) = self.boxes[i] {
                    self.move_to(
                        i,
                        Aabb {
                            min: b.min + d,
                            max: b.max + d,
                        },
                    );
                }
            } else {
                let at = (self.rng.unit() * live.len() as f32) as usize % live.len();
                self.remove(live.swap_remove(at));
            }
            self.script_live = Some(live);
        }
        self.script_remaining()
    }

    pub(super) fn remove_selected(&mut self) {
        if let Some(i) = self.selected {
            self.remove(i);
        }
    }

    /// The box under `p`, the last drawn on top.
    pub(super) fn box_at(&self, p: Vec2) -> Option<usize> {
        (0..self.boxes.len())
            .rev()
            .find(|&i| self.boxes[i].is_some_and(|(b, _)| b.contains_point(p)))
    }

    pub(super) fn pointer(&mut self, kind: u32, p: Vec2, button: u32) {
        match (kind, button) {
            (POINTER_DOWN, 2) => match self.box_at(p) {
                Some(i) => self.remove(i),
                None => {
                    let h = Vec2::new(self.rng.range(0.3, 1.2), self.rng.range(0.3, 1.2));
                    self.add(Aabb {
                        min: p - h,
                        max: p + h,
                    });
                }
            },
            (POINTER_DOWN, _) => match self.box_at(p) {
                Some(i) => {
                    self.selected = Some(i);
                    self.drag = self.boxes[i].map(|(b, _)| b.min - p);
                }
                None => {
                    self.query = Aabb { min: p, max: p };
                    self.querying = true;
                }
            },
            (POINTER_MOVE, _) => {
                if let (Some(i), Some(offset)) = (self.selected, self.drag) {
                    if let Some((b, _)) = self.boxes[i] {
                        let min = p + offset;
                        self.move_to(
                            i,
                            Aabb {
                                min,
                                max: min + (b.max - b.min),
                            },
                        );
                    }
                } else if self.querying {
                    let (a, b) = (self.query.min, p);
                    self.query = Aabb { min: a, max: b };
                }
            }
            _ => {
                self.drag = None;
                if self.querying {
                    self.query = self.normalised_query();
                    self.querying = false;
                }
            }
        }
    }

    /// The query's hits through the tree (box indices, sorted).
    pub(super) fn hits(&self) -> Vec<usize> {
        let q = self.normalised_query();
        let mut hits = Vec::new();
        self.tree.query(q, u64::MAX, |_, data| {
            hits.push(data as usize);
            Visit::Continue
        });
        hits.sort_unstable();
        hits
    }

    /// The tree's deepest level (the depth colours' range).
    pub(super) fn deepest(&self) -> u32 {
        let mut deepest = 0;
        self.tree.visit_nodes(|_, depth, _| deepest = deepest.max(depth));
        deepest
    }

    pub(super) fn normalised_query(&self) -> Aabb {
        let (a, b) = (self.query.min, self.query.max);
        Aabb {
            min: Vec2::new(a.x.min(b.x), a.y.min(b.y)),
            max: Vec2::new(a.x.max(b.x), a.y.max(b.y)),
        }
    }

    pub(super) fn draw(&self, d: &mut impl DebugDraw) {
        draw_tree_by_depth(d, &self.tree, self.max_depth);
        let hits = self.hits();
        for (i, b) in self.boxes.iter().enumerate() {
            if let Some((b, _)) = b {
                let color = if hits.binary_search(&i).is_ok() {
                    Color::CONTACT
                } else if self.selected == Some(i) {
                    Color::KINEMATIC
                } else {
                    Color::DYNAMIC
                };
                draw_aabb(d, *b, color);
            }
        }
        draw_aabb(d, self.normalised_query(), Color::RAY);
    }

    /// `[proxies, height, area ratio, hits, sum of hit indices, hits by brute force over
    /// the fat boxes, their index sum, tree valid?]`.
    pub(super) fn results(&self, out: &mut Vec<f32>) {
        let hits = self.hits();
        let q = self.normalised_query();
        let brute: Vec<usize> = (0..self.boxes.len())
            .filter(|&i| {
                self.boxes[i].is_some_and(|(_, id)| self.tree.fat_aabb(id).is_ok_and(|f| f.overlaps(q)))
            })
            .collect();
        out.extend([
            self.tree.proxy_count() as f32,
            self.tree.height() as f32,
            self.tree.area_ratio(),
            hits.len() as f32,
            hits.iter().sum::<usize>() as f32,
            brute.len() as f32,
            brute.iter().sum::<usize>() as f32,
            f32::from(u8::from(self.tree.validate().is_ok())),
        ]);
    }
}
