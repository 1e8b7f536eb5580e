//! Prints the determinism hash: the cross-platform determinism scene (`collide2d`'s hidden
//! `world::determinism` module) after 300 steps, as 16 hex digits. `scripts/determinism.sh`
//! runs it on every platform and compares the lines with the constant pinned in
//! `tests/determinism.rs`. An optional argument sets the number of steps.

fn main() {
    let steps = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let start = std::time::Instant::now();
    match collide2d::world::determinism::scene_hash(steps) {
        Ok(h) => println!(
            "determinism hash {h:016x} ({steps} steps, {:.2} s)",
            start.elapsed().as_secs_f64()
        ),
        Err(e) => {
            eprintln!("determinism scene failed: {e:?}");
            std::process::exit(1);
        }
    }
}
