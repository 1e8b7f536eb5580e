//! Decomposition at scale beside parry2d: circles, regular stars (radii 1 and 0.5) and combs of
//! 64, 1 024, 4 096, 16 384 and 100 000 vertices, cut by `decompose` and by parry2d 0.31 (its
//! ear clipping, `TriMesh::from_polygon`, then `hertel_mehlhorn`; no vertex cap), one
//! Markdown row per polygon: pieces and milliseconds of each.
//!
//! Every call runs in a child process of this program with a time limit (default 120 s, or the
//! first argument in seconds), so a row whose parry2d call does not finish says so and the run
//! goes on. Small polygons are cut 5 times and the median is printed.
//!
//! `cargo run --release -p collide2d-peers --example decompose_scale [limit_s]`
use collide2d_peers::{comb_polygon, regular_polygon, regular_star};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SIZES: [usize; 5] = [64, 1024, 4096, 16_384, 100_000];
const SHAPES: [&str; 3] = ["circle", "star", "comb"];

fn polygon(shape: &str, n: usize) -> Vec<collide2d::Vec2> {
    match shape {
        "circle" => regular_polygon(n, 1.0, (0.0, 0.0)),
        "star" => regular_star(n, 0.5, 1.0),
        _ => comb_polygon((n - 1) / 4),
    }
}

/// One engine's cut of one polygon, in this process: `pieces ms` (median of the runs).
fn cut(engine: &str, shape: &str, n: usize) -> String {
    let poly = polygon(shape, n);
    let runs = if n <= 4096 { 5 } else { 1 };
    let mut times = Vec::new();
    let mut pieces = 0;
    for _ in 0..runs {
        let t = Instant::now();
        pieces = if engine == "collide2d" {
            collide2d::decompose(&poly).map_or(0, |p| p.len())
        } else {
            let pv: Vec<parry2d::math::Vector> = poly
                .iter()
                .map(|p| parry2d::math::Vector::new(p.x, p.y))
                .collect();
            parry2d::shape::TriMesh::from_polygon(pv).map_or(0, |mesh| {
                parry2d::transformation::hertel_mehlhorn(mesh.vertices(), mesh.indices()).len()
            })
        };
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    format!("{pieces} {:.3}", times[times.len() / 2])
}

/// `cut` in a child process, or `None` when it does not finish within `limit`.
fn cut_in_child(engine: &str, shape: &str, n: usize, limit: Duration) -> Option<String> {
    let mut child = Command::new(std::env::current_exe().ok()?)
        .args(["--cut", engine, shape, &n.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().ok()? {
            let mut out = String::new();
            child.stdout.take()?.read_to_string(&mut out).ok()?;
            return status.success().then(|| out.trim().to_string());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 5 && args[1] == "--cut" {
        println!("{}", cut(&args[2], &args[3], args[4].parse().unwrap()));
        return;
    }
    let limit = Duration::from_secs(args.get(1).and_then(|s| s.parse().ok()).unwrap_or(120));
    println!(
        "| polygon | vertices | collide2d pieces | parry2d pieces | collide2d ms | parry2d ms | ratio |"
    );
    println!("|---|---|---|---|---|---|---|");
    for n in SIZES {
        for shape in SHAPES {
            let vertices = polygon(shape, n).len();
            let ours = cut_in_child("collide2d", shape, n, limit);
            let theirs = cut_in_child("parry2d", shape, n, limit);
            let split = |r: &Option<String>| {
                r.as_ref()
                    .and_then(|s| s.split_once(' '))
                    .map(|(p, t)| (p.to_string(), t.parse::<f64>().unwrap_or(f64::NAN)))
            };
            let (op, ot) = split(&ours).map_or(("—".into(), None), |(p, t)| (p, Some(t)));
            let (pp, pt) = split(&theirs).map_or(("—".into(), None), |(p, t)| (p, Some(t)));
            let ms = |t: Option<f64>| t.map_or(format!("> {} s", limit.as_secs()), |t| format!("{t:.2}"));
            let ratio = match (ot, pt) {
                (Some(a), Some(b)) => format!("{:.3}", a / b),
                (Some(a), None) => format!("< {:.1e}", a / (limit.as_secs_f64() * 1e3)),
                _ => "—".to_string(),
            };
            println!(
                "| {shape} | {vertices} | {op} | {pp} | {} | {} | {ratio} |",
                ms(ot),
                ms(pt)
            );
        }
    }
}
