//! The layering of `src/`: lower layers never reach up into higher ones, and no two files
//! import each other (directly or around a loop).
//!
//! Read from the source text: every `crate::<module>` and `super::<sibling>` path outside
//! comments and outside the in-file `#[cfg(test)]` test modules (tests may reach anywhere). A
//! file inside a module folder may use its parent `mod.rs` (the parent owns the child's shared
//! helpers and dispatches to it); every other reference is an edge of the graph checked here.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The layers, lowest first. A module may use modules of its own layer index or lower only.
const LAYERS: &[&str] = &[
    "fmath",
    "math",
    "wire",
    "interop",
    "segment",
    "geometry",
    "level",
    "point",
    "distance",
    "narrowphase",
    "raycast",
    "toi",
    "cast",
    "draw",
    "tree",
    "mover",
    "solver",
    "world",
    "capi",
];

/// The files of `src/` as (node name, text): `narrowphase/polygon.rs` is `narrowphase::polygon`,
/// a `mod.rs` is its folder's module.
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
            if p.is_dir() {
                walk(&p, &format!("{prefix}{stem}::"), out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let name = match stem.as_str() {
                    "mod" => prefix.trim_end_matches("::").to_string(),
                    _ => format!("{prefix}{stem}"),
                };
                out.push((name, fs::read_to_string(&p).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), "", &mut out);
    out
}

/// The code of a file without comments and without its trailing `#[cfg(test)]` test module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers that follow `prefix` in `code` (`crate::math::Vec2` gives `math`).
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    code.match_indices(prefix)
        .filter(|(i, _)| {
            // A whole path segment: not `xcrate::`.
            *i == 0 || !code.as_bytes()[i - 1].is_ascii_alphanumeric() && code.as_bytes()[i - 1] != b'_'
        })
        .map(|(i, _)| {
            let rest = &code[i + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// Edges between files: `from` uses `to` (node names as in [`sources`]).
fn edges(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let names: BTreeSet<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, text) in files {
        let code = code(text);
        let parent = name.rsplit_once("::").map(|(p, _)| p.to_string());
        let targets = graph.entry(name.clone()).or_default();
        for first in paths_after(&code, "crate::") {
            if names.contains(first) && first != name {
                targets.insert(first.to_string());
            }
        }
        // `crate::narrowphase::polygon::X` names the file `narrowphase::polygon`.
        for m in paths_after(&code, "crate::narrowphase::") {
            let n = format!("narrowphase::{m}");
            if names.contains(n.as_str()) && &n != name {
                targets.insert(n);
            }
        }
        if let Some(parent) = &parent {
            for sib in paths_after(&code, "super::") {
                let n = format!("{parent}::{sib}");
                if names.contains(n.as_str()) && &n != name {
                    targets.insert(n);
                }
            }
        }
        // A child's use of its parent module (`super::helper`, `crate::narrowphase::Manifold`)
        // is the parent-owns-child relation, not an edge.
        if let Some(parent) = &parent {
            targets.remove(parent);
        }
    }
    graph
}

fn layer(name: &str) -> Option<usize> {
    let top = name.split("::").next().unwrap();
    LAYERS.iter().position(|l| *l == top)
}

#[test]
fn lower_layers_never_import_higher_ones() {
    let files = sources();
    let graph = edges(&files);
    let mut bad = Vec::new();
    for (from, tos) in &graph {
        let Some(lf) = layer(from) else { continue };
        for to in tos {
            if let Some(lt) = layer(to) {
                if lt > lf {
                    bad.push(format!("{from} (layer {lf}) uses {to} (layer {lt})"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "upward imports:\n{}", bad.join("\n"));
    // Every module of src/ (but the crate root and its test generator) has a layer.
    for (name, _) in &files {
        assert!(
            matches!(name.as_str(), "lib" | "test_rng") || layer(name).is_some(),
            "{name} has no layer in tests/layers.rs"
        );
    }
}

/// The first import cycle of `graph`, as the loop of node names, by depth-first search.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let i = stack.iter().position(|s| s == m).unwrap();
                    let mut cycle = stack[i..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_import_cycle_between_files() {
    if let Some(cycle) = find_cycle(&edges(&sources())) {
        panic!("import cycle: {}", cycle.join(" -> "));
    }
}

/// The checker itself: a made-up upward import and a made-up cycle are both caught.
#[test]
fn the_layer_check_catches_an_upward_import_and_a_cycle() {
    let files = vec![
        ("math".to_string(), "use crate::tree::DynamicTree;\n".to_string()),
        (
            "tree".to_string(),
            "use crate::narrowphase::Manifold;\n".to_string(),
        ),
        ("narrowphase".to_string(), "mod round;\n".to_string()),
        (
            "narrowphase::round".to_string(),
            "use super::polygon::X; // crate::capi\n".to_string(),
        ),
        (
            "narrowphase::polygon".to_string(),
            "use super::round::Y;\nuse super::Z;\n".to_string(),
        ),
    ];
    let g = edges(&files);
    assert!(g["math"].contains("tree"));
    assert!(g["narrowphase::round"].contains("narrowphase::polygon"));
    assert!(!g["narrowphase::round"].contains("capi"), "comments are not code");
    assert!(g["narrowphase::polygon"].contains("narrowphase::round"));
    assert!(
        !g["narrowphase::polygon"].contains("narrowphase"),
        "a child may use its parent"
    );
    let cycle = find_cycle(&g).expect("round <-> polygon is a cycle");
    assert!(
        cycle.contains(&"narrowphase::round".to_string()) && cycle.len() == 3,
        "{cycle:?}"
    );
    // Without the back edge there is none.
    let mut g = g;
    g.get_mut("narrowphase::polygon")
        .unwrap()
        .remove("narrowphase::round");
    assert_eq!(find_cycle(&g), None);
}
