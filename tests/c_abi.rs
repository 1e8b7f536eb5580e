//! The C ABI: the committed header is current, and the C tour program builds against the
//! static library (with AddressSanitizer and UBSan, `-Wall -Wextra -Wpedantic -Werror`) and
//! prints exactly what the Rust API computes. Needs `--features capi`.
#![cfg(feature = "capi")]
use collide2d::capi::*;
use collide2d::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn committed_header_is_current() {
    let generated = std::fs::read_to_string(Path::new(env!("OUT_DIR")).join("collide2d.h")).unwrap();
    let committed = std::fs::read_to_string(root().join("include/collide2d.h")).unwrap();
    assert!(
        generated == committed,
        "include/collide2d.h is stale: copy $OUT_DIR/collide2d.h over it"
    );
}

#[test]
fn c_abi_checks_pointers_and_tags() {
    let id = Transform::IDENTITY;
    let mut s = Shape::Circle(Circle::new(Vec2::ZERO, 1.0).unwrap());
    let mut m = Manifold::default();
    // SAFETY: valid pointers except the ones under test, which are NULL.
    unsafe {
        assert_eq!(
            c2d_collide(core::ptr::null(), &id, &s, &id, 0.0, &mut m),
            Status::NullPointer
        );
        assert_eq!(
            c2d_collide(&s, &id, &s, &id, 0.0, core::ptr::null_mut()),
            Status::NullPointer
        );
        assert_eq!(c2d_make_box(1.0, 1.0, core::ptr::null_mut()), Status::NullPointer);
        assert_eq!(
            c2d_make_polygon(core::ptr::null(), 3, 0.0, &mut s),
            Status::NullPointer
        );
    }
    // A shape with a garbage tag coming from C is refused, not read as an enum.
    let mut raw = [0u32; 37];
    raw[0] = 7;
    let bogus = raw.as_ptr() as *const Shape;
    let mut flag = false;
    // SAFETY: `raw` is 148 readable bytes, the size of c2d_Shape; the tag is checked first.
    unsafe {
        assert_eq!(
            c2d_overlaps(bogus, &id, &s, &id, &mut flag),
            Status::InvalidShapeTag
        );
    }
    // Out-parameters are untouched on failure.
    let before = m;
    // SAFETY: valid pointers; the manifold must stay unchanged on error.
    unsafe {
        assert_eq!(
            c2d_collide(bogus, &id, &s, &id, 0.0, &mut m),
            Status::InvalidShapeTag
        )
    };
    assert_eq!(m, before);
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn c_tour_prints_what_rust_computes() {
    let root = root();
    let target = root.join("target/capi-test");
    // The static library, built with the same features (a separate target dir avoids the
    // outer cargo's lock).
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(&cargo)
        .current_dir(&root)
        .args([
            "rustc",
            "--quiet",
            "--lib",
            "--features",
            "capi",
            "--crate-type",
            "staticlib",
            "--target-dir",
        ])
        .arg(&target)
        .args(["--", "--print", "native-static-libs"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let native = String::from_utf8_lossy(&out.stderr)
        .lines()
        .find_map(|l| l.split("native-static-libs: ").nth(1).map(str::to_owned))
        .unwrap_or_default();
    let exe = target.join("tour");
    let mut cc = Command::new("cc");
    cc.args([
        "-std=c11",
        "-Wall",
        "-Wextra",
        "-Wpedantic",
        "-Werror",
        "-g",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
    ])
    .arg("-I")
    .arg(root.join("include"))
    .arg(root.join("c_examples/tour.c"))
    .arg(target.join("debug/libcollide2d.a"))
    .args(native.split_whitespace())
    .arg("-lm")
    .arg("-o")
    .arg(&exe);
    run(&mut cc);
    let printed = run(&mut Command::new(&exe));

    // The same calls through the Rust API, formatted like the C program.
    let ground = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
    let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    let id = Transform::IDENTITY;
    let xb = Transform::from_translation(Vec2::new(1.0, 0.9));
    let m = collide(&ground, id, &ball, xb);
    let mut want = format!("overlaps {}\n", overlaps(&ground, id, &ball, xb) as u32);
    want += &format!(
        "manifold {} normal {:.6} {:.6}\n",
        m.count, m.normal.x, m.normal.y
    );
    for p in m.points() {
        want += &format!(
            "point {:.6} {:.6} depth {:.6} id {}\n",
            p.point.x, p.point.y, p.depth, p.id
        );
    }
    let h = ray_cast(
        &ground,
        id,
        &Ray::new(Vec2::new(-10.0, 0.25), Vec2::new(20.0, 0.0)),
    )
    .unwrap();
    want += &format!(
        "ray 1 fraction {:.6} normal {:.6} {:.6}\n",
        h.fraction, h.normal.x, h.normal.y
    );
    want += &format!("collinear status {}\n", Status::Collinear as u32);
    want += &format!("null status {}\n", Status::NullPointer as u32);
    assert_eq!(printed, want);
}
