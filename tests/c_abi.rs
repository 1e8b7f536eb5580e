//! The C ABI: the committed header is current, and the C tour program builds against the
//! static library (with AddressSanitizer and UBSan, `-Wall -Wextra -Wpedantic -Werror`) and
//! prints exactly what the Rust API computes. Needs `--features capi`.
#![cfg(feature = "capi")]
use collide2d::capi::*;
use collide2d::solver;
use collide2d::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[cfg(feature = "header")]
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
        let far = [Vec2::new(-1e30, 0.0), Vec2::new(1e30, 0.0), Vec2::new(0.0, 1e30)];
        assert_eq!(c2d_make_polygon(far.as_ptr(), 3, 0.0, &mut s), Status::OutOfRange);
        assert_eq!(Status::OutOfRange as u32, 20);
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

/// Builds the C library (`clib/`, a `no_std` static library) once per test process and
/// returns its target directory. Programs link it with `-lm` only.
fn static_lib() -> PathBuf {
    static ONCE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ONCE.get_or_init(|| {
        let root = root();
        let target = root.join("target/capi-test");
        // A separate target dir avoids the outer cargo's lock.
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(&cargo)
            .current_dir(&root)
            .args([
                "build",
                "--quiet",
                "--manifest-path",
                "clib/Cargo.toml",
                "--target-dir",
            ])
            .arg(&target)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        target
    })
    .clone()
}

/// Compiles `c_examples/<file>` with warnings as errors and the sanitizers, runs it, returns
/// its output.
fn build_and_run(file: &str, compiler: &str, std: &str) -> String {
    build_and_run_source(&root().join("c_examples").join(file), compiler, std)
}

/// [`build_and_run`] for a C or C++ file anywhere.
fn build_and_run_source(source: &std::path::Path, compiler: &str, std: &str) -> String {
    let root = root();
    let target = static_lib();
    let file = source.file_name().unwrap().to_str().unwrap();
    let exe = target.join(file.replace('.', "_"));
    let mut cc = Command::new(compiler);
    cc.args([
        std,
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
    .arg(source)
    .arg(target.join("debug/libcollide2d.a"))
    .arg("-lm")
    .arg("-o")
    .arg(&exe);
    run(&mut cc);
    run(&mut Command::new(&exe))
}

/// The README's C example, cut from the README as it stands, compiled as the examples are and
/// run: the ground's normal (0, 1) and the 0.1 overlap of a ball of radius 0.5 at height 0.9
/// over a box whose top is at 0.5.
#[test]
fn the_readme_c_example_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("```c\n").expect("the README has a C example") + 5;
    let len = readme[start..].find("```").unwrap();
    let source = static_lib().join("readme_example.c");
    std::fs::write(&source, &readme[start..start + len]).unwrap();
    let printed = build_and_run_source(&source, "cc", "-std=c11");
    assert_eq!(printed.trim(), "normal (0, 1) depth 0.1");
}

#[test]
fn shape_layout_matches_the_hand_written_c_declaration() {
    // include/collide2d.h declares c2d_Shape as { uint32_t tag; union { ... } u; }: payload at
    // offset 4, total 148 bytes, alignment 4.
    assert_eq!(core::mem::size_of::<Shape>(), 148);
    assert_eq!(core::mem::align_of::<Shape>(), 4);
    let s = Shape::Capsule(Capsule::new(Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0), 5.0).unwrap());
    let p = &s as *const Shape as *const u8;
    // SAFETY: reading plain bytes of a live, fully initialised repr(C, u32) value.
    let (tag, c1x, r) = unsafe {
        (
            core::ptr::read_unaligned(p as *const u32),
            core::ptr::read_unaligned(p.add(4) as *const f32),
            core::ptr::read_unaligned(p.add(4 + 16) as *const f32),
        )
    };
    assert_eq!((tag, c1x, r), (1, 1.0, 5.0));
}

#[test]
fn c_tour_prints_what_rust_computes() {
    let printed = build_and_run("tour.c", "cc", "-std=c99");
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

#[test]
fn c_broadphase_prints_what_rust_computes() {
    let printed = build_and_run("broadphase.c", "cc", "-std=c99");
    // The same scene through the Rust API.
    let mut seed: u32 = 12345;
    let mut rnd = || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / 16777216.0
    };
    let mut shapes = Vec::new();
    let mut boxes = Vec::new();
    for _ in 0..40 {
        let (cx, cy) = (rnd() * 100.0, rnd() * 100.0);
        let (hx, hy) = (1.0 + rnd() * 4.0, 1.0 + rnd() * 4.0);
        let corners = [
            Vec2::new(cx - hx, cy - hy),
            Vec2::new(cx + hx, cy - hy),
            Vec2::new(cx + hx, cy + hy),
            Vec2::new(cx - hx, cy + hy),
        ];
        shapes.push(Shape::Polygon(Polygon::new(&corners).unwrap()));
        boxes.push(Aabb::new(corners[0], corners[2]));
    }
    let mut buf = vec![TreeNode::default(); 63];
    let mut fixed = DynamicTree::from_buffer(&mut buf);
    let mut heap = DynamicTree::new();
    let mut full = 0;
    let mut ids = Vec::new();
    let mut heap_ids = Vec::new();
    for (i, b) in boxes.iter().enumerate() {
        match fixed.create_proxy(*b, 1, i as u64) {
            Ok(id) => ids.push(id),
            Err(TreeError::Full) => full += 1,
            Err(e) => panic!("{e:?}"),
        }
        heap_ids.push(heap.create_proxy(*b, 1, i as u64).unwrap());
    }
    let mut want = format!("fixed proxies {} full {full} validate 0\n", fixed.proxy_count());
    let mut sum = 0u64;
    fixed.query(
        Aabb::new(Vec2::new(20.0, 20.0), Vec2::new(60.0, 60.0)),
        u64::MAX,
        |_, u| {
            sum += u + 1;
            Visit::Continue
        },
    );
    want += &format!("query sum {sum}\n");
    let ray = Ray::new(Vec2::new(-5.0, 50.0), Vec2::new(110.0, 3.0));
    let (mut best, mut best_user) = (2.0f32, 999u64);
    heap.ray_cast(&ray, u64::MAX, |r, _, u| {
        match ray_cast(&shapes[u as usize], Transform::IDENTITY, r) {
            Some(h) => {
                if h.fraction < best {
                    best = h.fraction;
                    best_user = u;
                }
                Visit::Clip(h.fraction)
            }
            None => Visit::Continue,
        }
    });
    want += &format!("ray user {best_user} fraction {best:.6}\n");
    // The shape-level queries (checked against brute force in tests/tree_shapes.rs).
    let shapes_of = |_: ProxyId, u: u64| Some((&shapes[u as usize], Transform::IDENTITY));
    let h = heap.ray_cast_closest(&ray, u64::MAX, shapes_of).unwrap();
    want += &format!(
        "closest hit 1 user {} fraction {:.6}\n",
        h.user_data, h.hit.fraction
    );
    let small = Shape::circle(2.0);
    let moving = CastShape::new(
        &small,
        Transform::from(Vec2::new(-10.0, 50.0)),
        Vec2::new(120.0, 1.5),
    );
    let c = heap.cast_closest(&moving, 0.0, u64::MAX, shapes_of).unwrap();
    want += &format!(
        "cast hit 1 user {} state {} fraction {:.6}\n",
        c.user_data, c.output.state as u32, c.output.fraction
    );
    let big = Shape::circle(15.0);
    let at = Transform::from(Vec2::new(50.0, 50.0));
    let over: Vec<u64> = heap
        .overlapping(&big, at, u64::MAX, shapes_of)
        .map(|(_, u)| u)
        .collect();
    want += &format!(
        "overlapping {} {}\n",
        over.len(),
        over.iter().map(|u| u + 1).sum::<u64>()
    );
    let (mut n, mut points, mut deepest) = (0, 0, -1.0f32);
    for (_, _, m) in heap.contacts(&big, at, 1.0, u64::MAX, shapes_of) {
        n += 1;
        points += m.count;
        deepest = deepest.max(m.max_depth().unwrap());
    }
    want += &format!("contacts {n} points {points} deepest {deepest:.5}\n");
    assert!(
        !over.is_empty() && n > over.len(),
        "the scene must exercise the shape queries"
    );
    let mut acc = [[0u64; 2]; 2];
    fixed.query_pairs(|_, ua, _, ub| {
        acc[0][0] += 1;
        acc[0][1] += (ua + 1) * (ub + 1);
    });
    heap.query_pairs(|_, ua, _, ub| {
        acc[1][0] += 1;
        acc[1][1] += (ua + 1) * (ub + 1);
    });
    want += &format!(
        "pairs fixed {} {} heap {} {}\n",
        acc[0][0], acc[0][1], acc[1][0], acc[1][1]
    );
    // Every box shifted by the same amount: the same pairs again, each reported once.
    let mut moved = 0;
    for (id, b) in heap_ids.iter().zip(&boxes) {
        let shifted = Aabb::new(b.min + Vec2::new(30.0, 0.0), b.max + Vec2::new(30.0, 0.0));
        moved += heap.move_proxy_lazy(*id, shifted).unwrap() as u32;
    }
    let mut scratch = [0u32; 40];
    assert_eq!(heap.rebuild_enlarged(&mut scratch[..10]), Err(TreeError::Full));
    heap.rebuild_enlarged(&mut scratch).unwrap();
    heap.validate().unwrap();
    let mut lazy = [0u64; 2];
    heap.query_pairs(|_, ua, _, ub| {
        lazy[0] += 1;
        lazy[1] += (ua + 1) * (ub + 1);
    });
    assert_eq!(
        (moved, lazy),
        (40, acc[1]),
        "the shifted scene has the same pairs"
    );
    want += &format!(
        "lazy moved {moved} short {} rebuild 0 validate 0 pairs {} {}\n",
        Status::TreeFull as u32,
        lazy[0],
        lazy[1]
    );
    // Per-proxy margins, derived by hand: the unit box at (200, 200) grown by 0.5; moved by
    // 0.25 it stays inside; moved by 1 more it leaves and is grown by 0.25; moved up by 2
    // with a negative margin (counted as 0) the fat box is the tight box.
    want += "margin fat 199.50 199.50 201.50 201.50\n";
    want += "margin moved 0 1 fat 201.00 199.75 202.50 201.25\n";
    want += "margin lazy 1 fat 201.25 202.00 202.25 203.00\n";
    want += &format!("destroy 0 again {}\n", Status::InvalidProxy as u32);
    want += &format!("null {} validate 0\n", Status::NullPointer as u32);
    assert_eq!(printed, want);
    assert!(full > 0, "the fixed buffer must fill up in this scene");
}

/// The header's constants are usable from C99 and from C++11, 17 and 20 under `-Wpedantic
/// -Werror` (macros are plain numbers with one `C2D_` prefix; the value-type constants are
/// inline functions), and the version macros, `c2d_get_version` and the crate version agree.
#[test]
fn header_constants_and_version_work_in_c_and_every_cpp_standard() {
    let want = format!(
        "header {0}.{1}.{2} library {0}.{1}.{2}\n\
         identity 0 0 1 0 zero 0 0 rot 1 0\n\
         filter 1 {3} 0 max vertices {4} last 7 null node {5} status 0\n",
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
        Filter::DEFAULT.mask_bits,
        MAX_POLYGON_VERTICES,
        NULL_NODE,
    );
    let v = c2d_get_version();
    assert_eq!(
        format!("{}.{}.{}", v.major, v.minor, v.patch),
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(build_and_run("constants.c", "cc", "-std=c99"), want);
    for std in ["-std=c++11", "-std=c++17", "-std=c++20"] {
        assert_eq!(build_and_run("constants.cpp", "c++", std), want, "{std}");
    }
    // One prefix style: every macro the header defines is C2D_ or COLLIDE2D_, and no comment
    // carries Rust link syntax.
    let header = std::fs::read_to_string(root().join("include/collide2d.h")).unwrap();
    for line in header.lines() {
        if let Some(name) = line.strip_prefix("#define ") {
            assert!(
                name.starts_with("C2D_") || name.starts_with("COLLIDE2D_"),
                "{line}"
            );
        }
        if line.trim_start().starts_with("//") {
            assert!(
                !line.contains("[`") && !line.contains("](") && !line.contains("crate::"),
                "{line}"
            );
        }
    }
}

/// The C library's hooks (`c_examples/hooks.c`, under ASan and UBSan): a counting allocator
/// sees every allocation of a tree and a world, `c2d_get_byte_count` agrees with it, the
/// balance is zero after freeing; an allocator that runs out gives `C2D_STATUS_OUT_OF_MEMORY`
/// (25) from creation and growth instead of an abort, logs, and leaves the objects usable;
/// replacing the allocator while memory is held is `C2D_STATUS_IN_USE` (26); steps under a
/// budget either run or report out of memory, and the world steps on once memory is back.
#[test]
fn allocator_and_log_hooks_count_everything_and_fail_cleanly() {
    let printed = build_and_run("hooks.c", "cc", "-std=c11");
    let oom = Status::OutOfMemory as u32;
    let want = format!(
        "bytes before 0\n\
         half a hook {null}\n\
         set 0\n\
         built 1 counted 1 agree 1\n\
         replace while in use {in_use}\n\
         after free: live 0 bytes 0 balanced 1\n\
         tree create {oom} world create {oom}\n\
         tree out of memory 1 after some 1\n\
         world out of memory 1 after some 1, body count kept 1, logged 1\n\
         then: proxy 0 validate 0 body 0 step 0\n\
         steps under a budget: some ran 1, some refused 1, other statuses 0\n\
         end: live 0 bytes 0 balanced 1\n\
         restore 0\n",
        null = Status::NullPointer as u32,
        in_use = Status::InUse as u32,
    );
    assert_eq!(printed, want);
}

/// Prints the primitives as `c_examples/draw.c` does.
#[derive(Default)]
struct PrintDraw(String);

impl collide2d::draw::DebugDraw for PrintDraw {
    fn polygon(&mut self, v: &[Vec2], color: collide2d::draw::Color) {
        self.0 += &format!("polygon {:06x}", color.0);
        for p in v {
            self.0 += &format!(" {:.4},{:.4}", p.x, p.y);
        }
        self.0 += "\n";
    }
    fn solid_polygon(&mut self, xf: Transform, v: &[Vec2], r: f32, color: collide2d::draw::Color) {
        self.0 += &format!(
            "solid_polygon {:06x} at {:.4},{:.4} rot {:.4},{:.4} radius {:.3}",
            color.0, xf.p.x, xf.p.y, xf.q.c, xf.q.s, r
        );
        for p in v {
            self.0 += &format!(" {:.4},{:.4}", p.x, p.y);
        }
        self.0 += "\n";
    }
    fn solid_circle(&mut self, xf: Transform, r: f32, color: collide2d::draw::Color) {
        self.0 += &format!(
            "solid_circle {:06x} at {:.4},{:.4} radius {:.3}\n",
            color.0, xf.p.x, xf.p.y, r
        );
    }
    fn segment(&mut self, a: Vec2, b: Vec2, color: collide2d::draw::Color) {
        self.0 += &format!(
            "segment {:06x} {:.4},{:.4} {:.4},{:.4}\n",
            color.0, a.x, a.y, b.x, b.y
        );
    }
    fn point(&mut self, p: Vec2, size: f32, color: collide2d::draw::Color) {
        self.0 += &format!("point {:06x} {:.4},{:.4} size {:.1}\n", color.0, p.x, p.y, size);
    }
    fn transform(&mut self, xf: Transform) {
        self.0 += &format!("transform {:.4},{:.4}\n", xf.p.x, xf.p.y);
    }
}

/// `c_examples/draw.c` draws a world, a tree and a ray through a `c2d_DebugDraw` table; every
/// primitive it prints is the one the Rust `DebugDraw` trait receives on the same scene.
#[test]
fn c_debug_draw_sees_what_rust_draws() {
    use collide2d::world::{BodyDef, BodyKind, DrawFlags, World};
    let printed = build_and_run("draw.c", "cc", "-std=c11");
    let mut w = World::default();
    let add = |w: &mut World, kind, x: f32, y: f32, shape: Shape, sensor: bool| {
        let def = BodyDef {
            sensor,
            ..BodyDef::new(kind, Transform::from(Vec2::new(x, y)), shape)
        };
        w.add_body(&def).unwrap();
    };
    add(&mut w, BodyKind::Static, 0.0, 0.0, Shape::rect(4.0, 0.5), false);
    add(&mut w, BodyKind::Dynamic, -1.0, 1.0, Shape::rect(0.5, 0.5), false);
    add(&mut w, BodyKind::Dynamic, -1.0, 2.0, Shape::rect(0.5, 0.5), false);
    add(&mut w, BodyKind::Dynamic, 2.0, 3.0, Shape::circle(0.4), false);
    add(&mut w, BodyKind::Static, 3.0, 1.5, Shape::circle(1.0), true);
    for _ in 0..90 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    let mut d = PrintDraw::default();
    w.draw(
        &mut d,
        DrawFlags {
            shapes: true,
            bounds: false,
            contacts: true,
            transforms: true,
            tree: false,
            joints: false,
        },
    );
    d.0 += "world 0\n";
    let pill = Shape::capsule(Vec2::new(0.0, -0.3), Vec2::new(0.0, 0.3), 0.3);
    let moved = collide2d::mover::move_and_slide(
        &w.mover_level(&collide2d::world::QueryFilter::ALL),
        &pill,
        Transform::from(Vec2::new(-1.95, 1.11)),
        Vec2::new(0.2, -0.02),
        Vec2::new(12.0, -1.2),
        &collide2d::mover::MoveOptions::default(),
    );
    // It stands on the ground and is stopped by the stack: two planes to draw.
    assert!(moved.on_ground && moved.contact_count >= 2, "{moved:?}");
    moved.draw(&mut d, 0.5);
    d.0 += &format!("mover 0 contacts {}\n", moved.contact_count);
    let mut tree = DynamicTree::new();
    for i in 0..3 {
        tree.create_proxy(
            Aabb::new(Vec2::new(i as f32, 0.0), Vec2::new(i as f32 + 0.5, 0.5)),
            1,
            i,
        )
        .unwrap();
    }
    tree.draw(&mut d);
    d.0 += "tree 0\n";
    let ray = Ray::new(Vec2::new(-6.0, 0.25), Vec2::new(4.0, 0.0));
    let hit = ray_cast(&Shape::rect(4.0, 0.5), Transform::IDENTITY, &ray);
    collide2d::draw::draw_ray(&mut d, &ray, hit.as_ref(), 0.5);
    d.0 += &format!("ray 0\nnull table {}\n", Status::NullPointer as u32);
    assert_eq!(printed, d.0);
}

#[test]
fn cpp_queries_print_what_rust_computes() {
    let printed = build_and_run("queries.cpp", "c++", "-std=c++17");
    let bx = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let pill = Shape::Capsule(Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.2).unwrap());
    let xa = Transform::IDENTITY;
    let xb = Transform {
        p: Vec2::new(2.0, 0.5),
        q: Rot { c: 0.8, s: 0.6 },
    };
    let d = shape_distance(&bx, xa, &pill, xb, &mut SimplexCache::default());
    let mut want = format!(
        "distance {:.6} status {} normal {:.6} {:.6}\n",
        d.distance, d.status as u32, d.normal.x, d.normal.y
    );
    let c = shape_cast(&bx, xa, Vec2::ZERO, &pill, xb, Vec2::new(-3.0, -0.5), 0.0);
    want += &format!(
        "cast state {} fraction {:.6} normal {:.6} {:.6}\n",
        c.state as u32, c.fraction, c.normal.x, c.normal.y
    );
    let sa = Sweep {
        local_center: Vec2::ZERO,
        c1: Vec2::ZERO,
        c2: Vec2::ZERO,
        q1: Rot::IDENTITY,
        q2: Rot::IDENTITY,
    };
    let sb = Sweep {
        local_center: Vec2::ZERO,
        c1: Vec2::new(2.0, 0.5),
        c2: Vec2::new(-1.0, 0.5),
        q1: Rot { c: 0.8, s: 0.6 },
        q2: Rot { c: 0.6, s: 0.8 },
    };
    let t = time_of_impact(&bx, &sa, &pill, &sb, 1.0);
    want += &format!("toi state {} fraction {:.6}\n", t.state as u32, t.fraction);
    assert_eq!(printed, want);
    assert_eq!(c.state, CastState::Hit);
    assert_eq!(t.state, ToiState::Hit);
}

#[test]
fn hand_written_shape_tags_match_the_rust_enum() {
    // c2d_Shape is declared by hand in cbindgen.toml; its tag values must follow the enum.
    let header = std::fs::read_to_string(root().join("include/collide2d.h")).unwrap();
    let tag = |s: &Shape| -> u32 {
        // SAFETY: the first 4 bytes of a repr(C, u32) enum are its u32 tag.
        unsafe { core::ptr::read_unaligned(s as *const Shape as *const u32) }
    };
    let c = Circle::new(Vec2::ZERO, 1.0).unwrap();
    let k = Capsule::new(Vec2::ZERO, Vec2::X, 1.0).unwrap();
    let p = Polygon::make_box(1.0, 1.0).unwrap();
    for (name, s) in [
        ("CIRCLE", Shape::Circle(c)),
        ("CAPSULE", Shape::Capsule(k)),
        ("POLYGON", Shape::Polygon(p)),
        (
            "CHAIN_SEGMENT",
            Shape::ChainSegment(ChainSegment::lone(Vec2::ZERO, Vec2::X).unwrap()),
        ),
    ] {
        // Exhaustive: a new variant fails to compile here until it is added to the header.
        let member = match s {
            Shape::Circle(_) => "c2d_Circle circle;",
            Shape::Capsule(_) => "c2d_Capsule capsule;",
            Shape::Polygon(_) => "c2d_Polygon polygon;",
            Shape::ChainSegment(_) => "c2d_ChainSegment chain_segment;",
        };
        assert!(
            header.contains(&format!("#define C2D_SHAPE_{name} {}u", tag(&s))),
            "tag of {name}"
        );
        assert!(header.contains(member), "union member for {name}");
    }
}

#[test]
fn shape_utilities_through_the_c_abi_match_rust() {
    let mut s = Shape::Circle(Circle::new(Vec2::ZERO, 1.0).unwrap());
    let mut mass = MassData::default();
    let mut bb = Aabb::default();
    let mut inside = false;
    let mut hit = false;
    let mut rh = RayHit::default();
    let mut sd = SegmentDistance::default();
    let xf = Transform::new(Vec2::new(1.0, 2.0), 0.5);
    // SAFETY: every pointer is a live local of the right type.
    unsafe {
        assert_eq!(
            c2d_make_offset_rounded_box(1.0, 0.5, Vec2::new(0.2, 0.1), Rot::from_angle(0.3), 0.1, &mut s),
            Status::Ok
        );
        let rust = Shape::Polygon(
            Polygon::make_offset_rounded_box(1.0, 0.5, Vec2::new(0.2, 0.1), Rot::from_angle(0.3), 0.1)
                .unwrap(),
        );
        assert_eq!(s, rust);
        assert_eq!(c2d_shape_mass(&s, 2.0, &mut mass), Status::Ok);
        assert_eq!(mass, rust.mass(2.0));
        assert_eq!(c2d_shape_aabb(&s, &xf, &mut bb), Status::Ok);
        assert_eq!(bb, rust.aabb(xf));
        assert_eq!(
            c2d_shape_contains_point(&s, &xf, Vec2::new(1.0, 2.0), &mut inside),
            Status::Ok
        );
        assert!(inside);
        let mut grown = s;
        assert_eq!(c2d_shape_inflate(&s, 0.25, &mut grown), Status::Ok);
        assert_eq!(grown, rust.inflated(0.25).unwrap());
        assert_eq!(c2d_shape_inflate(&s, -5.0, &mut grown), Status::Collapsed);
        let a = Aabb::new(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0));
        assert_eq!(c2d_make_box_from_aabb(&a, &mut s), Status::Ok);
        assert_eq!(s, Shape::Polygon(Polygon::from_aabb(a).unwrap()));
        assert_eq!(c2d_overlaps_aabb_shape(&a, &rust, &xf, &mut inside), Status::Ok);
        assert_eq!(inside, overlaps_aabb_shape(a, &rust, xf));
        let ray = Ray::new(Vec2::new(-3.0, 0.5), Vec2::new(4.0, 0.0));
        assert_eq!(c2d_ray_cast_aabb(&a, &ray, &mut hit, &mut rh), Status::Ok);
        assert!(hit && rh == ray_cast_aabb(a, &ray).unwrap());
        assert_eq!(
            c2d_segment_distance(
                Vec2::ZERO,
                Vec2::X,
                Vec2::new(0.5, 1.0),
                Vec2::new(0.5, 2.0),
                &mut sd
            ),
            Status::Ok
        );
        assert_eq!(
            sd,
            segment_distance(Vec2::ZERO, Vec2::X, Vec2::new(0.5, 1.0), Vec2::new(0.5, 2.0))
        );
        assert_eq!(
            c2d_shape_mass(core::ptr::null(), 1.0, &mut mass),
            Status::NullPointer
        );
        assert_eq!(
            c2d_make_box_from_aabb(&Aabb::new(Vec2::X, Vec2::ZERO), &mut s),
            Status::InvalidExtent
        );
    }
}

unsafe extern "C" fn count_box_hits(max: f32, _id: u32, _user: u64, ctx: *mut core::ffi::c_void) -> f32 {
    // SAFETY: ctx is the test's live counter.
    unsafe { *(ctx as *mut u32) += 1 };
    max
}

#[test]
fn tree_through_the_c_abi_matches_rust() {
    let mut t: *mut Tree = core::ptr::null_mut();
    let boxes: Vec<Aabb> = (0..30)
        .map(|i| {
            let c = Vec2::new((i * 7 % 50) as f32, (i * 13 % 40) as f32);
            Aabb::from_center_half_extents(c, Vec2::new(1.5, 1.0))
        })
        .collect();
    let mut rust = DynamicTree::new();
    rust.set_margin(0.25);
    // SAFETY: every pointer is a live local; the tree handle is freed at the end.
    unsafe {
        assert_eq!(c2d_tree_create(&mut t), Status::Ok);
        assert_eq!(c2d_tree_set_margin(t, 0.25), Status::Ok);
        let mut ids = Vec::new();
        for (i, b) in boxes.iter().enumerate() {
            let mut id = 0;
            assert_eq!(c2d_tree_create_proxy(t, b, 1, i as u64 * 3, &mut id), Status::Ok);
            ids.push(id);
            rust.create_proxy(*b, 1, i as u64 * 3).unwrap();
        }
        let mut u = 0u64;
        assert_eq!(c2d_tree_user_data(t, ids[4], &mut u), Status::Ok);
        assert_eq!(u, 12);
        let mut grew = false;
        let big = Aabb::from_center_half_extents(Vec2::new(100.0, 100.0), Vec2::new(1.0, 1.0));
        assert_eq!(c2d_tree_enlarge_proxy(t, ids[0], &big, &mut grew), Status::Ok);
        assert!(grew);
        rust.enlarge_proxy(ProxyId::from_index(ids[0]), big).unwrap();
        assert_eq!(c2d_tree_rebuild(t), Status::Ok);
        rust.rebuild();
        assert_eq!(c2d_tree_validate(t), Status::Ok);
        assert!((c2d_tree_area_ratio(t) - rust.area_ratio()).abs() < 1e-4);
        let cast = Aabb::from_center_half_extents(Vec2::new(-10.0, 20.0), Vec2::new(2.0, 2.0));
        let mut n = 0u32;
        assert_eq!(
            c2d_tree_box_cast(
                t,
                &cast,
                Vec2::new(80.0, 0.0),
                u64::MAX,
                Some(count_box_hits),
                &mut n as *mut u32 as *mut core::ffi::c_void
            ),
            Status::Ok
        );
        let mut want = 0;
        rust.box_cast(cast, Vec2::new(80.0, 0.0), u64::MAX, |_, _, _| {
            want += 1;
            Visit::Continue
        });
        assert_eq!(n, want);
        assert!(n > 0);
        assert_eq!(
            c2d_tree_box_cast(t, &cast, Vec2::X, 1, None, core::ptr::null_mut()),
            Status::NullPointer
        );
        assert_eq!(
            c2d_tree_enlarge_proxy(t, 99_999, &big, core::ptr::null_mut()),
            Status::InvalidProxy
        );
        c2d_tree_free(t);
        c2d_tree_free(core::ptr::null_mut());
    }
    // Caller memory: misaligned and too small are refused.
    let mut mem = vec![0u64; 64];
    let mut h: *mut Tree = core::ptr::null_mut();
    let base = mem.as_mut_ptr() as *mut u8;
    // SAFETY: pointers into `mem`, sizes within it.
    unsafe {
        assert_eq!(
            c2d_tree_init(base.add(4) as *mut core::ffi::c_void, 256, &mut h),
            Status::Misaligned
        );
        assert_eq!(
            c2d_tree_init(base as *mut core::ffi::c_void, 8, &mut h),
            Status::BufferTooSmall
        );
        assert!(h.is_null());
        assert_eq!(
            c2d_tree_init(base as *mut core::ffi::c_void, 64 * 8, &mut h),
            Status::Ok
        );
        assert_eq!(c2d_tree_validate(h), Status::Ok);
    }
}

#[test]
fn mover_obstacle_layout_matches_the_hand_written_c_declaration() {
    // include/collide2d.h declares c2d_MoverObstacle by hand (it embeds c2d_Shape): c2d_Shape,
    // c2d_Transform, uint64_t, c2d_Vec2, float, c2d_Vec2.
    use core::mem::offset_of;
    assert_eq!(offset_of!(MoverObstacle, shape), 0);
    assert_eq!(offset_of!(MoverObstacle, xf), 148);
    assert_eq!(offset_of!(MoverObstacle, user_data), 168);
    assert_eq!(offset_of!(MoverObstacle, velocity), 176);
    assert_eq!(offset_of!(MoverObstacle, angular_velocity), 184);
    assert_eq!(offset_of!(MoverObstacle, center), 188);
    assert_eq!(core::mem::size_of::<MoverObstacle>(), 200);
    assert_eq!(core::mem::align_of::<MoverObstacle>(), 8);
}

#[test]
fn body_def_layout_matches_the_hand_written_c_declaration() {
    // include/collide2d.h declares c2d_BodyDef by hand (it embeds c2d_Shape): uint32_t kind,
    // c2d_Transform, c2d_Vec2, float, c2d_Shape, c2d_Material, uint64_t, c2d_Filter, three floats, five bools.
    use core::mem::offset_of;
    assert_eq!(offset_of!(BodyDef, kind), 0);
    assert_eq!(offset_of!(BodyDef, transform), 4);
    assert_eq!(offset_of!(BodyDef, linear_velocity), 20);
    assert_eq!(offset_of!(BodyDef, angular_velocity), 28);
    assert_eq!(offset_of!(BodyDef, shape), 32);
    assert_eq!(offset_of!(BodyDef, material), 180);
    assert_eq!(offset_of!(BodyDef, user_data), 192);
    assert_eq!(offset_of!(BodyDef, filter), 200);
    assert_eq!(core::mem::size_of::<Filter>(), 24);
    assert_eq!(offset_of!(BodyDef, linear_damping), 224);
    assert_eq!(offset_of!(BodyDef, angular_damping), 228);
    assert_eq!(offset_of!(BodyDef, gravity_scale), 232);
    assert_eq!(offset_of!(BodyDef, enable_sleep), 236);
    assert_eq!(offset_of!(BodyDef, awake), 237);
    assert_eq!(offset_of!(BodyDef, bullet), 238);
    assert_eq!(offset_of!(BodyDef, fixed_rotation), 239);
    assert_eq!(offset_of!(BodyDef, sensor), 240);
    assert_eq!(core::mem::size_of::<BodyDef>(), 248);
    assert_eq!(core::mem::align_of::<BodyDef>(), 8);
    assert_eq!(
        (
            BodyKind::Static as u32,
            BodyKind::Kinematic as u32,
            BodyKind::Dynamic as u32
        ),
        (0, 1, 2)
    );
}

#[test]
fn c_stack_prints_what_rust_computes() {
    let printed = build_and_run("stack.c", "cc", "-std=c99");
    // The same world through the Rust API.
    let mut w = World::default();
    let ground = Shape::Polygon(Polygon::make_box(20.0, 0.5).unwrap());
    let unit = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(0.0, -0.5)),
        ground,
    ))
    .unwrap();
    let ids: Vec<BodyId> = (0..8)
        .map(|i| {
            let p = Vec2::new(0.02 * (i % 3) as f32, 0.6 + 1.1 * i as f32);
            let mut d = BodyDef::new(BodyKind::Dynamic, Transform::from_translation(p), unit);
            d.user_data = 100 + i as u64;
            w.add_body(&d).unwrap()
        })
        .collect();
    let (mut begins, mut ends) = (0, 0);
    for _ in 0..180 {
        w.step(1.0 / 60.0, 4).unwrap();
        begins += w.begin_events().len();
        ends += w.end_events().len();
    }
    let mut want = format!(
        "bodies {} contacts {} begins {begins} ends {ends}\n",
        w.body_count(),
        w.contact_count()
    );
    for (i, id) in ids.iter().enumerate() {
        let x = w.transform(*id).unwrap();
        want += &format!("box {i} x {:.6} y {:.6} angle_sin {:.6}\n", x.p.x, x.p.y, x.q.s);
    }
    let hit = w.ray_cast(Vec2::new(5.0, 3.2), Vec2::new(-10.0, 0.0)).unwrap();
    want += &format!(
        "ray 1 body {} user {} fraction {:.6}\n",
        hit.body.index,
        w.user_data(hit.body).unwrap(),
        hit.hit.fraction
    );
    want += &format!("stale remove status {}\n", Status::InvalidBody as u32);
    want += &format!("bad step status {}\n", Status::InvalidStep as u32);
    want += &format!("short step status {}\n", Status::InvalidStep as u32);
    want += &format!("bad kind status {}\n", Status::InvalidBodyKind as u32);
    // Immediate mode.
    let gshape = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
    let mut bodies = [
        solver::Body::new_static(Transform::IDENTITY),
        solver::Body::new_dynamic(Transform::from_translation(Vec2::new(0.0, 1.01)), unit.mass(1.0)).unwrap(),
    ];
    let settings = SolverSettings::default();
    let mut prev: Option<ContactConstraint> = None;
    for _ in 0..60 {
        let m = collide_with_margin(&gshape, bodies[0].transform, &unit, bodies[1].transform, 0.02);
        let mut c = [solver::prepare_contact(&bodies, 0, 1, &m, 0.6, 0.0, prev.as_ref()).unwrap()];
        let n = if m.count > 0 { 1 } else { 0 };
        solver::step(&mut bodies, &mut c[..n], &settings, 1.0 / 60.0).unwrap();
        prev = (m.count > 0).then_some(c[0]);
    }
    want += &format!(
        "immediate y {:.6} vy {:.6}\n",
        bodies[1].transform.p.y, bodies[1].linear_velocity.y
    );
    assert_eq!(printed, want);
    // Physically: the stack stands (every box above the one below, within 5 cm sideways).
    for (i, id) in ids.iter().enumerate().take(7) {
        let p = w.transform(*id).unwrap().p;
        assert!((p.y - (0.5 + i as f32)).abs() < 0.05, "box {i} at {p:?}");
    }
}

#[test]
fn typed_pair_functions_match_the_dispatcher() {
    let circle = Circle::new(Vec2::new(0.1, 0.0), 0.5).unwrap();
    let capsule = Capsule::new(Vec2::new(-0.4, 0.0), Vec2::new(0.4, 0.1), 0.2).unwrap();
    let poly = Polygon::make_offset_box(0.5, 0.3, Vec2::new(0.05, 0.0), Rot::from_angle(0.2)).unwrap();
    let xa = Transform::new(Vec2::new(1.0, 2.0), 0.3);
    let xb = Transform::new(Vec2::new(1.5, 2.3), -0.7);
    let m = 0.05;
    let mut out = Manifold::default();
    let mut hit = false;
    // SAFETY: every pointer refers to a live local.
    unsafe {
        macro_rules! check {
            ($collide:ident, $overlap:ident, $a:expr, $b:expr) => {{
                let want = collide_with_margin(&Shape::from($a), xa, &Shape::from($b), xb, m);
                assert_eq!($collide(&$a, &xa, &$b, &xb, m, &mut out), Status::Ok);
                assert_eq!(out, want, stringify!($collide));
                assert_eq!($overlap(&$a, &xa, &$b, &xb, &mut hit), Status::Ok);
                assert_eq!(
                    hit,
                    overlaps(&Shape::from($a), xa, &Shape::from($b), xb),
                    stringify!($overlap)
                );
                assert_eq!(
                    $collide(&$a, &xa, &$b, core::ptr::null(), m, &mut out),
                    Status::NullPointer
                );
            }};
        }
        check!(c2d_collide_circles, c2d_overlaps_circles, circle, circle);
        check!(
            c2d_collide_capsule_circle,
            c2d_overlaps_capsule_circle,
            capsule,
            circle
        );
        check!(c2d_collide_capsules, c2d_overlaps_capsules, capsule, capsule);
        check!(
            c2d_collide_polygon_circle,
            c2d_overlaps_polygon_circle,
            poly,
            circle
        );
        check!(
            c2d_collide_polygon_capsule,
            c2d_overlaps_polygon_capsule,
            poly,
            capsule
        );
        check!(c2d_collide_polygons, c2d_overlaps_polygons, poly, poly);
        let chain = ChainSegment::new(
            Vec2::new(1.5, -0.3),
            Vec2::new(0.8, -0.2),
            Vec2::new(-0.8, -0.2),
            Vec2::new(-1.5, -0.35),
        )
        .unwrap();
        check!(
            c2d_collide_chain_segment_circle,
            c2d_overlaps_chain_segment_circle,
            chain,
            circle
        );
        check!(
            c2d_collide_chain_segment_capsule,
            c2d_overlaps_chain_segment_capsule,
            chain,
            capsule
        );
        check!(
            c2d_collide_chain_segment_polygon,
            c2d_overlaps_chain_segment_polygon,
            chain,
            poly
        );
        let mut cs = Shape::Circle(circle);
        assert_eq!(
            c2d_make_chain_segment(chain.ghost1, chain.point1, chain.point2, chain.ghost2, &mut cs),
            Status::Ok
        );
        assert_eq!(cs, Shape::ChainSegment(chain));
        assert_eq!(
            c2d_make_chain_segment(chain.ghost1, chain.point1, chain.point1, chain.ghost2, &mut cs),
            Status::TooFewPoints
        );
        // A degenerate hand-filled segment is refused, not queried.
        let bad = ChainSegment {
            point2: chain.point1,
            ..chain
        };
        assert_eq!(
            c2d_collide_chain_segment_circle(&bad, &xa, &circle, &xb, m, &mut out),
            Status::TooFewPoints
        );
        // One-sided ray casts: from the front a hit, from behind none.
        let (mut rh, mut hit2) = (RayHit::default(), false);
        let down = Ray::new(xa.apply(Vec2::new(0.0, 1.0)), xa.q.rotate(Vec2::new(0.0, -2.0)));
        assert_eq!(
            c2d_ray_cast_chain_segment(&chain, &xa, &down, &mut hit2, &mut rh),
            Status::Ok
        );
        assert!(hit2);
        assert_eq!(Some(rh), ray_cast_chain_segment(&chain, xa, &down));
        let up = Ray::new(xa.apply(Vec2::new(0.0, -1.0)), xa.q.rotate(Vec2::new(0.0, 2.0)));
        assert_eq!(
            c2d_ray_cast_chain_segment(&chain, &xa, &up, &mut hit2, &mut rh),
            Status::Ok
        );
        assert!(!hit2);
        // Polylines: segments without welding, and welding into a caller buffer.
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
        ];
        let mut seg = ChainSegment::default();
        assert_eq!(
            c2d_chain_segment_from_polyline(pts.as_ptr(), 4, true, 3, &mut seg),
            Status::Ok
        );
        assert_eq!(seg, ChainSegment::from_polyline(&pts, true, 3).unwrap());
        assert_eq!(
            c2d_chain_segment_from_polyline(pts.as_ptr(), 4, false, 3, &mut seg),
            Status::TooFewPoints
        );
        let mut welded = [Vec2::ZERO; 4];
        let mut n = 0u32;
        assert_eq!(
            c2d_chain_weld(pts.as_ptr(), 4, false, welded.as_mut_ptr(), &mut n),
            Status::Ok
        );
        assert_eq!(&welded[..n as usize], Chain::open(&pts).unwrap().points());
        assert_eq!(n, 3);

        let (a, b) = (
            Aabb::from_center_half_extents(Vec2::ZERO, Vec2::new(1.0, 1.0)),
            Aabb::from_center_half_extents(Vec2::new(2.0, 0.0), Vec2::new(1.0, 1.0)),
        );
        assert_eq!(c2d_overlaps_aabbs(&a, &b, &mut hit), Status::Ok);
        assert!(hit, "touching boxes overlap");

        // Proxies and proxy distance equal the Rust calls (and warm start through the cache).
        let (sa, sb) = (Shape::from(poly), Shape::from(capsule));
        let far = Transform::new(Vec2::new(4.0, 2.5), 0.4);
        let mut pa = core::mem::zeroed::<ShapeProxy>();
        let mut pb = core::mem::zeroed::<ShapeProxy>();
        assert_eq!(c2d_make_proxy(&sa, &mut pa), Status::Ok);
        assert_eq!(c2d_make_proxy(&sb, &mut pb), Status::Ok);
        let mut cache = SimplexCache::default();
        let mut d = core::mem::zeroed::<DistanceOutput>();
        assert_eq!(
            c2d_proxy_distance(&pa, &xa, &pb, &far, &mut cache, &mut d),
            Status::Ok
        );
        let want = proxy_distance(
            &ShapeProxy::from_shape(&sa),
            xa,
            &ShapeProxy::from_shape(&sb),
            far,
            &mut SimplexCache::default(),
        );
        assert_eq!(d, want);
        let mut d2 = core::mem::zeroed::<DistanceOutput>();
        assert_eq!(
            c2d_proxy_distance(&pa, &xa, &pb, &far, &mut cache, &mut d2),
            Status::Ok
        );
        assert!((d2.distance - d.distance).abs() < 1e-6);

        let sweep = Sweep::from_transforms(Vec2::new(0.1, 0.0), xa, xb);
        let mut t = Transform::IDENTITY;
        assert_eq!(c2d_sweep_transform_at(&sweep, 0.25, &mut t), Status::Ok);
        assert_eq!(t, sweep.transform_at(0.25));
    }
}

#[test]
fn tree_extras_and_solver_passes_through_the_c_abi() {
    // SAFETY: every pointer refers to a live local; the tree is freed once.
    unsafe {
        let mut t: *mut Tree = core::ptr::null_mut();
        assert_eq!(c2d_tree_create(&mut t), Status::Ok);
        let (mut has, mut root) = (true, Aabb::default());
        assert_eq!(c2d_tree_root_bounds(t, &mut has, &mut root), Status::Ok);
        assert!(!has);
        let b = Aabb::from_center_half_extents(Vec2::new(1.0, 1.0), Vec2::new(0.5, 0.5));
        let mut id = 0;
        assert_eq!(c2d_tree_create_proxy(t, &b, 0b10, 7, &mut id), Status::Ok);
        let (mut bits, mut moved) = (0u64, false);
        assert_eq!(c2d_tree_category_bits(t, id, &mut bits), Status::Ok);
        assert_eq!(bits, 0b10);
        assert_eq!(c2d_tree_set_category_bits(t, id, 0b100), Status::Ok);
        assert_eq!(c2d_tree_category_bits(t, id, &mut bits), Status::Ok);
        assert_eq!(bits, 0b100);
        assert_eq!(c2d_tree_was_moved(t, id, &mut moved), Status::Ok);
        assert!(moved, "a new proxy counts as moved");
        assert_eq!(c2d_tree_root_bounds(t, &mut has, &mut root), Status::Ok);
        assert!(has && root.contains(b));
        assert_eq!(c2d_tree_was_moved(t, id + 100, &mut moved), Status::InvalidProxy);
        c2d_tree_free(t);
    }

    // The solver passes, run by hand in c2d_solver_step's order, give the same bodies.
    let ground = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
    let unit = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let start = [
        solver::Body::new_static(Transform::IDENTITY),
        solver::Body::new_dynamic(Transform::new(Vec2::new(0.2, 0.98), 0.05), unit.mass(1.0)).unwrap(),
    ];
    let m = collide_with_margin(&ground, start[0].transform, &unit, start[1].transform, 0.02);
    let c0 = solver::prepare_contact(&start, 0, 1, &m, 0.6, 0.3, None).unwrap();
    let s = SolverSettings::default();
    let dt = 1.0 / 60.0;
    let (mut whole, mut wc) = (start, [c0]);
    let (mut parts, mut pc) = (start, [c0]);
    // SAFETY: arrays are live locals of the stated lengths.
    unsafe {
        assert_eq!(
            c2d_solver_step(whole.as_mut_ptr(), 2, wc.as_mut_ptr(), 1, &s, dt),
            Status::Ok
        );
        let h = dt / s.substeps as f32;
        for p in parts.iter_mut() {
            p.delta_position = Vec2::ZERO;
            p.delta_rotation = Rot::IDENTITY;
        }
        for _ in 0..s.substeps {
            let (b, c) = (parts.as_mut_ptr(), pc.as_mut_ptr());
            assert_eq!(c2d_solver_integrate_velocities(b, 2, &s.gravity, h), Status::Ok);
            assert_eq!(
                c2d_solver_contacts(b, 2, c, 1, &s, h, SolverPass::WarmStart as u32),
                Status::Ok
            );
            assert_eq!(
                c2d_solver_contacts(b, 2, c, 1, &s, h, SolverPass::Solve as u32),
                Status::Ok
            );
            assert_eq!(
                c2d_solver_integrate_positions(b, 2, h, s.max_linear_speed),
                Status::Ok
            );
            assert_eq!(
                c2d_solver_contacts(b, 2, c, 1, &s, h, SolverPass::Relax as u32),
                Status::Ok
            );
        }
        let (b, c) = (parts.as_mut_ptr(), pc.as_mut_ptr());
        assert_eq!(
            c2d_solver_contacts(b, 2, c, 1, &s, h, SolverPass::Restitution as u32),
            Status::Ok
        );
        assert_eq!(c2d_solver_contacts(b, 2, c, 1, &s, h, 9), Status::InvalidInput);
        assert_eq!(
            c2d_solver_contacts(b, 2, c, 1, &s, f32::NAN, 0),
            Status::InvalidStep
        );
        assert_eq!(
            c2d_solver_step(core::ptr::null_mut(), 2, c, 1, &s, dt),
            Status::NullPointer
        );
    }
    assert_eq!(whole, parts);
    assert_eq!(wc, pc);
}

/// `c2d_solver_step_with_scratch` gives the plain step's bodies and impulses bit for bit,
/// with scratch enough for every run, too small for all, at an unaligned address, and none
/// (which is `c2d_solver_step`); it rejects NULL scratch with a size.
#[test]
fn solver_step_with_scratch_through_the_c_abi_matches_the_plain_step() {
    // 13 boxes resting apart on one static ground: 13 constraints, any 4 consecutive of which
    // share only the ground, so 3 blocks pack (and one constraint is left over).
    let ground = Shape::Polygon(Polygon::make_box(20.0, 0.5).unwrap());
    let unit = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let mut bodies = vec![solver::Body::new_static(Transform::IDENTITY)];
    for i in 0..13 {
        let xf = Transform::new(Vec2::new(-15.0 + 2.5 * i as f32, 0.99), 0.02 * (i % 3) as f32);
        bodies.push(solver::Body::new_dynamic(xf, unit.mass(1.0)).unwrap());
    }
    let contacts: Vec<ContactConstraint> = (1..bodies.len())
        .map(|i| {
            let m = collide_with_margin(&ground, bodies[0].transform, &unit, bodies[i].transform, 0.02);
            assert!(m.count > 0);
            solver::prepare_contact(&bodies, 0, i as u32, &m, 0.6, 0.3, None).unwrap()
        })
        .collect();
    let s = SolverSettings::default();
    let dt = 1.0 / 60.0;
    // Miri checks the pointer work, which one step exercises fully.
    let steps = if cfg!(miri) { 1 } else { 20 };
    // One C step of copies of the scene with the given scratch.
    let step =
        |b: &mut Vec<Body>, c: &mut Vec<ContactConstraint>, scratch: *mut core::ffi::c_void, bytes: usize| {
            // SAFETY: live vectors of the stated lengths; the scratch is the caller's buffer (or
            // NULL, which the function checks before any use).
            unsafe {
                c2d_solver_step_with_scratch(
                    b.as_mut_ptr(),
                    b.len(),
                    c.as_mut_ptr(),
                    c.len(),
                    scratch,
                    bytes,
                    &s,
                    dt,
                )
            }
        };
    let run = |scratch: *mut core::ffi::c_void, bytes: usize| {
        let (mut b, mut c) = (bodies.clone(), contacts.clone());
        for _ in 0..steps {
            assert_eq!(step(&mut b, &mut c, scratch, bytes), Status::Ok);
        }
        (b, c)
    };
    // The reference: the Rust plain step, which gathers every run on each pass (and which
    // the solver's unit test holds to one-at-a-time Gauss–Seidel bit for bit).
    let (mut plain_b, mut plain_c) = (bodies.clone(), contacts.clone());
    for _ in 0..steps {
        solver::step(&mut plain_b, &mut plain_c, &s, dt).unwrap();
    }
    let need = c2d_solver_scratch_bytes(contacts.len());
    assert!(need >= 3 * core::mem::size_of::<solver::ContactBlock>());
    // Zeroed memory, entered one byte past an aligned start.
    let mut buf = vec![0u8; need + 64];
    let base = buf.as_mut_ptr();
    let off = base.align_offset(16) + 1;
    for (ptr, bytes) in [
        // SAFETY (all three): inside `buf`.
        (unsafe { base.add(off) }, need),
        (unsafe { base.add(off) }, need / 3),
        (unsafe { base.add(off - 1) }, need),
        (core::ptr::null_mut(), 0),
    ] {
        let (b, c) = run(ptr.cast(), bytes);
        assert_eq!(b, plain_b, "scratch of {bytes} bytes");
        assert_eq!(c, plain_c, "scratch of {bytes} bytes");
    }
    // The boxes did settle (the scene is not trivial).
    assert!(plain_c
        .iter()
        .all(|c| c.points.iter().any(|p| p.normal_impulse > 0.0)));
    let (mut b, mut c) = (bodies.clone(), contacts.clone());
    assert_eq!(
        step(&mut b, &mut c, core::ptr::null_mut(), 64),
        Status::NullPointer
    );
}

unsafe extern "C" fn count_bodies(_b: BodyId, ctx: *mut core::ffi::c_void) -> bool {
    // SAFETY: the context is the test's live counter.
    unsafe { *(ctx as *mut u32) += 1 };
    true
}

#[test]
fn world_through_the_c_abi_matches_rust() {
    let ground = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
    let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.25).unwrap());
    let mut rust = World::default();
    // SAFETY: every pointer refers to a live local; the world is freed once.
    unsafe {
        let mut w = WorldId::default();
        assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok);
        let mut def = core::mem::zeroed::<BodyDef>();
        let xf = Transform::from_translation(Vec2::new(0.0, -0.5));
        assert_eq!(c2d_body_def(0, &xf, &ground, &mut def), Status::Ok);
        let mut g = BodyId::default();
        assert_eq!(c2d_world_add_body(w, &def, &mut g), Status::Ok);
        // Two worlds: the same slot, but ids that only their own world accepts.
        let rg = rust.add_body(&def).unwrap();
        assert_eq!(rg.index, g.index);
        assert_ne!(rg, g);
        assert_eq!(rust.body(g).err(), Some(SolverError::InvalidBody));
        let xb = Transform::from_translation(Vec2::new(0.3, 0.6));
        assert_eq!(c2d_body_def(2, &xb, &ball, &mut def), Status::Ok);
        def.material.friction = 0.4;
        let mut b = BodyId::default();
        assert_eq!(c2d_world_add_body(w, &def, &mut b), Status::Ok);
        let rb = rust.add_body(&def).unwrap();
        assert_eq!(rb.index, b.index);
        assert_eq!(c2d_body_def(3, &xb, &ball, &mut def), Status::InvalidBodyKind);
        let mut bad = def;
        // SAFETY: writes an out-of-range tag into the plain u32 at the kind's offset.
        *(&mut bad as *mut BodyDef as *mut u32) = 9;
        assert_eq!(c2d_world_add_body(w, &bad, &mut b), Status::InvalidBodyKind);
        let (mut begins, mut n) = (0usize, 0usize);
        let mut events = [ContactEvent::default(); 2];
        for _ in 0..30 {
            assert_eq!(c2d_world_step(w, 1.0 / 60.0, 4), Status::Ok);
            rust.step(1.0 / 60.0, 4).unwrap();
            assert_eq!(
                c2d_world_begin_events(w, events.as_mut_ptr(), 2, &mut n),
                Status::Ok
            );
            assert_eq!(n, rust.begin_events().len());
            if n > 0 {
                let (c, r) = (events[0], rust.begin_events()[0]);
                assert_eq!(
                    (
                        c.body_a.index,
                        c.body_b.index,
                        c.shape_a.index,
                        c.shape_b.index,
                        c.manifold
                    ),
                    (
                        r.body_a.index,
                        r.body_b.index,
                        r.shape_a.index,
                        r.shape_b.index,
                        r.manifold
                    )
                );
            }
            begins += n;
        }
        assert_eq!(begins, 1);
        let mut body = core::mem::zeroed::<solver::Body>();
        assert_eq!(c2d_world_get_body(w, b, &mut body), Status::Ok);
        assert_eq!(&body, rust.body(rb).unwrap());
        let (o, t) = (Vec2::new(0.3, 3.0), Vec2::new(0.0, -5.0));
        let (mut any, mut hit) = (false, WorldRayHit::default());
        assert_eq!(c2d_world_ray_cast(w, &o, &t, &mut any, &mut hit), Status::Ok);
        assert!(any);
        let r = rust.ray_cast(o, t).unwrap();
        assert_eq!((hit.body.index, hit.hit), (r.body.index, r.hit));
        let mut count = 0u32;
        let q = Aabb::from_center_half_extents(Vec2::ZERO, Vec2::new(1.0, 1.0));
        let ctx = &mut count as *mut u32 as *mut core::ffi::c_void;
        assert_eq!(c2d_world_query_aabb(w, &q, Some(count_bodies), ctx), Status::Ok);
        assert_eq!(count, 2);
        let v = Vec2::new(1.0, 0.0);
        assert_eq!(c2d_world_set_velocity(w, b, &v, 0.0), Status::Ok);
        assert_eq!(c2d_world_set_transform(w, b, &xb), Status::Ok);
        let mut user = 1u64;
        assert_eq!(c2d_world_user_data(w, b, &mut user), Status::Ok);
        assert_eq!(user, 0);
        let mut last_ends = usize::MAX;
        assert_eq!(
            c2d_world_end_events(w, core::ptr::null_mut(), 0, &mut last_ends),
            Status::Ok
        );
        assert_eq!(c2d_world_remove_body(w, b), Status::Ok);
        assert_eq!(c2d_world_remove_body(w, b), Status::InvalidBody);
        let (mut nb, mut nc) = (0u32, 0u32);
        assert_eq!(c2d_world_counts(w, &mut nb, &mut nc), Status::Ok);
        assert_eq!((nb, nc), (1, 0));
        // The removal's end is reported by the next step (a refused one reports nothing).
        assert_eq!(c2d_world_step(w, f32::NAN, 4), Status::InvalidStep);
        assert_eq!(
            c2d_world_end_events(w, core::ptr::null_mut(), 0, &mut n),
            Status::Ok
        );
        assert_eq!(n, last_ends, "still the last step's ends");
        assert_eq!(c2d_world_step(w, 1.0 / 60.0, 4), Status::Ok);
        assert_eq!(
            c2d_world_end_events(w, events.as_mut_ptr(), 2, &mut n),
            Status::Ok
        );
        assert_eq!(n, 1, "removing a touching body ends its contact");
        assert_eq!((events[0].body_a, events[0].body_b), (g, b));
        assert_eq!(c2d_world_step(WorldId::default(), 0.1, 4), Status::InvalidWorld);
        assert!(c2d_world_is_valid(w));
        assert_eq!(c2d_world_destroy(w), Status::Ok);
        // A destroyed world's id names nothing: destroying twice and using it are errors.
        assert!(!c2d_world_is_valid(w));
        assert_eq!(c2d_world_destroy(w), Status::InvalidWorld);
        assert_eq!(c2d_world_step(w, 0.1, 4), Status::InvalidWorld);
        assert_eq!(c2d_world_remove_body(w, b), Status::InvalidWorld);
        assert_eq!(c2d_world_destroy(WorldId::default()), Status::InvalidWorld);
        // The slot is reused with a new generation: the old id still names nothing.
        let mut again = WorldId::default();
        assert_eq!(c2d_world_create(core::ptr::null(), &mut again), Status::Ok);
        assert!(!c2d_world_id_equals(again, w));
        assert_eq!(c2d_world_step(w, 0.1, 4), Status::InvalidWorld);
        assert_eq!(c2d_world_step(again, 0.1, 4), Status::Ok);
        assert_eq!(c2d_world_destroy(again), Status::Ok);
    }
}

/// Hand-filled polygons are checked on entry (the fuzz finding: a polygon with 8 denormal
/// vertices and normals of length 4.5e11 made `c2d_ray_cast` report a fraction of 1.069 for a
/// ray whose `max_fraction` is 1, with a non-unit normal). Every entry point that takes a shape
/// refuses it with `InvalidShape` and writes nothing; `c2d_shape_validate` says the same; made
/// shapes pass.
#[test]
fn hand_filled_polygons_are_checked_on_entry() {
    let mut raw = Polygon::make_box(1.0, 1.0).unwrap();
    raw.count = 8;
    for (i, w) in raw.vertices.iter_mut().enumerate() {
        let a = i as f32 * 0.785;
        *w = Vec2::new(a.cos(), a.sin()) * 1e-39;
    }
    for (i, n) in raw.normals.iter_mut().enumerate() {
        *n = Vec2::new(4.5e11, -(i as f32) * 1e10);
    }
    let bad = Shape::Polygon(raw);
    let good = Shape::Polygon(Polygon::make_box(1.0, 1.0).unwrap());
    let circle = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    let id = Transform::IDENTITY;
    let ray = Ray::new(Vec2::new(-2.0, 0.0), Vec2::new(4.0, 0.0));
    let sentinel = RayHit {
        fraction: 7.0,
        ..RayHit::default()
    };
    // SAFETY: every pointer refers to a live local of its type.
    unsafe {
        assert_eq!(c2d_shape_validate(&bad), Status::InvalidShape);
        assert_eq!(c2d_shape_validate(&good), Status::Ok);
        assert_eq!(c2d_shape_validate(&circle), Status::Ok);
        assert_eq!(c2d_shape_validate(core::ptr::null()), Status::NullPointer);
        let (mut hit, mut out) = (false, sentinel);
        assert_eq!(
            c2d_ray_cast(&bad, &id, &ray, &mut hit, &mut out),
            Status::InvalidShape
        );
        assert_eq!(out, sentinel);
        assert_eq!(c2d_ray_cast(&good, &id, &ray, &mut hit, &mut out), Status::Ok);
        assert!(hit && (out.fraction - 0.25).abs() < 1e-6);
        let mut m = Manifold::default();
        assert_eq!(
            c2d_collide(&bad, &id, &circle, &id, 0.0, &mut m),
            Status::InvalidShape
        );
        assert_eq!(
            c2d_collide(&circle, &id, &bad, &id, 0.0, &mut m),
            Status::InvalidShape
        );
        let mut over = false;
        assert_eq!(
            c2d_overlaps(&bad, &id, &good, &id, &mut over),
            Status::InvalidShape
        );
        assert_eq!(
            c2d_collide_polygons(&raw, &id, &raw, &id, 0.0, &mut m),
            Status::InvalidShape
        );
        let c = Circle::new(Vec2::ZERO, 1.0).unwrap();
        assert_eq!(
            c2d_collide_polygon_circle(&raw, &id, &c, &id, 0.0, &mut m),
            Status::InvalidShape
        );
        let mut def = core::mem::zeroed::<BodyDef>();
        assert_eq!(c2d_body_def(2, &id, &bad, &mut def), Status::InvalidShape);
        let mut w = WorldId::default();
        assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok);
        assert_eq!(c2d_body_def(2, &id, &good, &mut def), Status::Ok);
        if let Shape::Polygon(p) = &mut def.shape {
            p.normals[0] = -p.normals[0];
        }
        let mut b = BodyId::default();
        assert_eq!(c2d_world_add_body(w, &def, &mut b), Status::InvalidShape);
        c2d_world_destroy(w);
        // A shape callback of the tree's shape queries that returns it ends the query so.
        unsafe extern "C" fn give(
            _: u32,
            _: u64,
            xf: *mut Transform,
            ctx: *mut core::ffi::c_void,
        ) -> *const Shape {
            // SAFETY: the test passes a live Transform slot and a live shape as context.
            unsafe { *xf = Transform::IDENTITY };
            ctx as *const Shape
        }
        let mut tree: *mut Tree = core::ptr::null_mut();
        assert_eq!(c2d_tree_create(&mut tree), Status::Ok);
        let mut id = 0u32;
        let bounds = Aabb::new(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0));
        assert_eq!(c2d_tree_create_proxy(tree, &bounds, 1, 0, &mut id), Status::Ok);
        let (mut hit, mut out) = (false, core::mem::zeroed::<TreeRayHit>());
        let ctx = &bad as *const Shape as *mut core::ffi::c_void;
        assert_eq!(
            c2d_tree_ray_cast_closest(tree, &ray, u64::MAX, Some(give), ctx, &mut hit, &mut out),
            Status::InvalidShape
        );
        let ok = &good as *const Shape as *mut core::ffi::c_void;
        assert_eq!(
            c2d_tree_ray_cast_closest(tree, &ray, u64::MAX, Some(give), ok, &mut hit, &mut out),
            Status::Ok
        );
        assert!(hit && out.id.index() == id);
        c2d_tree_free(tree);
    }
}

/// `c_examples/tile_level.c` against the same level through the Rust API, line by line, and the
/// resting heights against the level's geometry.
#[test]
fn c_tile_level_prints_what_rust_computes() {
    let printed = build_and_run("tile_level.c", "cc", "-std=c11");
    let rows = [
        "################",
        "######...#######",
        "##.......###.###",
        "#........#.#.###",
        "#........###...#",
        "#..............#",
    ];
    let cells: Vec<bool> = rows.iter().flat_map(|r| r.bytes().map(|c| c == b'#')).collect();
    let chains = tile_outlines_from_cells(16, 6, &cells, 1.0, Vec2::ZERO).unwrap();
    let total: usize = chains.iter().map(|c| c.points().len()).sum();
    let mut want = format!(
        "outline needs {total} points in {} loops (status 15)\n",
        chains.len()
    );
    let mut w = World::default();
    let mut segments = 0;
    for c in &chains {
        w.add_chain(&ChainDef::new(c)).unwrap();
        segments += c.segment_count();
    }
    want += &format!(
        "level: {} loops, {segments} segments, {} bodies\n",
        chains.len(),
        w.body_count()
    );
    let ledge = [
        Vec2::new(2.0, 3.0),
        Vec2::new(5.0, 3.0),
        Vec2::new(5.0, 3.25),
        Vec2::new(2.5, 3.25),
        Vec2::new(2.5, 3.75),
        Vec2::new(2.0, 3.75),
    ];
    let pieces = decompose(&ledge).unwrap();
    want += &format!("ledge: {} pieces\n", pieces.len());
    let ledge_id = w
        .add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::IDENTITY,
            Shape::Polygon(pieces[0]),
        ))
        .unwrap();
    for p in &pieces[1..] {
        w.add_shape(ledge_id, &Shape::Polygon(*p)).unwrap();
    }
    let u = [
        Vec2::new(-0.5, 0.0),
        Vec2::new(0.5, 0.0),
        Vec2::new(0.5, 0.6),
        Vec2::new(0.3, 0.6),
        Vec2::new(0.3, 0.2),
        Vec2::new(-0.3, 0.2),
        Vec2::new(-0.3, 0.6),
        Vec2::new(-0.5, 0.6),
    ];
    let u_pieces = decompose(&u).unwrap();
    let crate_id = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(8.0, 3.0)),
            Shape::Polygon(u_pieces[0]),
        ))
        .unwrap();
    for p in &u_pieces[1..] {
        w.add_shape(crate_id, &Shape::Polygon(*p)).unwrap();
    }
    want += &format!("crate: {} pieces\n", u_pieces.len());
    let frame = [
        (20.0, 0.0),
        (24.0, 0.0),
        (24.0, 4.0),
        (20.0, 4.0),
        (20.0, 0.0),
        (21.0, 1.0),
        (21.0, 3.0),
        (23.0, 3.0),
        (23.0, 1.0),
        (21.0, 1.0),
    ]
    .map(|(x, y)| Vec2::new(x, y));
    let frame_pieces = decompose(&frame).unwrap();
    let frame_id = w
        .add_body(&BodyDef::new(
            BodyKind::Static,
            Transform::IDENTITY,
            Shape::Polygon(frame_pieces[0]),
        ))
        .unwrap();
    for p in &frame_pieces[1..] {
        w.add_shape(frame_id, &Shape::Polygon(*p)).unwrap();
    }
    want += &format!("frame: {} pieces\n", frame_pieces.len());
    let shapes = [
        Shape::Polygon(Polygon::make_box(0.25, 0.25).unwrap()),
        Shape::circle(0.25),
        Shape::Capsule(Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.15).unwrap()),
        Shape::Polygon(Polygon::make_box(0.25, 0.25).unwrap()),
    ];
    let xs = [6.5f32, 1.5, 13.5, 3.5];
    let ids: Vec<BodyId> = (0..4)
        .map(|i| {
            w.add_body(&BodyDef::new(
                BodyKind::Dynamic,
                Transform::from_translation(Vec2::new(xs[i], 5.0)),
                shapes[i],
            ))
            .unwrap()
        })
        .collect();
    for _ in 0..180 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    let mut ys = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let p = w.transform(*id).unwrap().p;
        ys.push(p.y);
        want += &format!("body {i} rests at x {:.4} y {:.4}\n", p.x, p.y);
    }
    let c = w.transform(crate_id).unwrap();
    want += &format!(
        "crate rests at x {:.4} y {:.4} angle sin {:.4}\n",
        c.p.x, c.p.y, c.q.s
    );
    let near = closest_point(&shapes[0], w.transform(ids[0]).unwrap(), Vec2::new(5.0, 3.0)).unwrap();
    want += &format!(
        "closest point {:.4} {:.4} distance {:.4} inside {}\n",
        near.point.x, near.point.y, near.distance, near.inside
    );
    let plane = |n: Vec2, offset: f32| CollisionPlane {
        plane: Plane { normal: n, offset },
        push_limit: 3.4e38,
        push: 0.0,
        clip_velocity: 1,
    };
    let mut planes = [plane(Vec2::new(0.0, 1.0), 0.0), plane(Vec2::new(-1.0, 0.0), -0.5)];
    let solved = solve_planes(Vec2::new(2.0, -1.0), &mut planes);
    let clipped = clip_vector(Vec2::new(3.0, -2.0), &planes);
    want += &format!(
        "planes: move {:.4} {:.4} in {} iterations, velocity {:.4} {:.4}\n",
        solved.translation.x, solved.translation.y, solved.iteration_count, clipped.x, clipped.y
    );
    assert_eq!(printed, want);
    // The U crate lands upright in the pit (x 6..9, floor at y = 1): its bottom on the floor.
    assert!((c.p.y - 1.0).abs() < 0.01 && c.q.s.abs() < 0.01, "{c:?}");
    // Independently: each body rests on the surface below its drop point (the pit floor at
    // y = 1 under x = 6.5, the left shelf at 3 under x = 1.5, the step at 4 under x = 13.5, the
    // ledge top at 3.25 under x = 3.5), by its half height, within the solver's contact slop.
    for (y, want_y) in ys.iter().zip([1.25, 3.25, 4.15, 3.5]) {
        assert!((y - want_y).abs() < 0.01, "rests at {y}, expected {want_y}");
    }
}

/// `c_examples/world_features.c` against the same scene through the Rust API, line by line.
#[test]
fn c_world_features_print_what_rust_computes() {
    let printed = build_and_run("world_features.c", "cc", "-std=c11");
    let mut out = Vec::new();
    let mut w = World::default();
    let add = |w: &mut World, kind, x: f32, y: f32, shape: Shape| {
        w.add_body(&BodyDef::new(
            kind,
            Transform::from_translation(Vec2::new(x, y)),
            shape,
        ))
        .unwrap()
    };
    let boxed = |hx, hy| Shape::Polygon(Polygon::make_box(hx, hy).unwrap());
    let ball = Shape::circle(0.25);
    let step = |w: &mut World| w.step(1.0 / 60.0, 4).unwrap();
    add(&mut w, BodyKind::Static, 0.0, -0.5, boxed(20.0, 0.5));
    let low = add(&mut w, BodyKind::Dynamic, 0.0, 0.5, boxed(0.5, 0.5));
    let high = add(&mut w, BodyKind::Dynamic, 0.0, 1.5, boxed(0.5, 0.5));
    for _ in 0..240 {
        step(&mut w);
    }
    out.push(format!(
        "asleep awake_count {} high_awake {}",
        w.awake_body_count(),
        w.is_awake(high).unwrap() as u8
    ));
    w.apply_force_to_center(high, Vec2::new(5.0, 0.0)).unwrap();
    out.push(format!("force wakes island {}", w.is_awake(low).unwrap() as u8));
    w.set_awake(low, false).unwrap();
    out.push(format!("set_awake false awake_count {}", w.awake_body_count()));
    let free_box = add(&mut w, BodyKind::Dynamic, 10.0, 10.0, boxed(0.5, 0.5));
    w.apply_linear_impulse_to_center(free_box, Vec2::new(2.0, 0.0))
        .unwrap();
    w.set_gravity_scale(free_box, 0.0).unwrap();
    out.push(format!(
        "impulse vx {:.6}",
        w.body(free_box).unwrap().linear_velocity.x
    ));
    let mut zone = BodyDef::new(
        BodyKind::Static,
        Transform::from_translation(Vec2::new(-5.0, 3.0)),
        boxed(1.0, 1.0),
    );
    zone.sensor = true;
    w.add_body(&zone).unwrap();
    add(&mut w, BodyKind::Dynamic, -5.0, 6.0, ball);
    let (mut begins, mut ends) = (0, 0);
    for _ in 0..90 {
        step(&mut w);
        begins += w.sensor_begin_events().len();
        ends += w.sensor_end_events().len();
    }
    out.push(format!("sensor begins {begins} ends {ends}"));
    let mut g = BodyDef::new(
        BodyKind::Dynamic,
        Transform::from_translation(Vec2::new(5.0, 0.5)),
        boxed(0.5, 0.5),
    );
    g.filter.mask_bits = !1;
    g.filter.category_bits = 2;
    let ghost = w.add_body(&g).unwrap();
    for _ in 0..60 {
        step(&mut w);
    }
    out.push(format!(
        "ghost below ground {}",
        (w.transform(ghost).unwrap().p.y < -1.0) as u8
    ));
    out.push(format!(
        "filter collide {}",
        g.filter.should_collide(&Filter::DEFAULT) as u8
    ));
    let (origin, along) = (Vec2::new(-15.0, 0.5), Vec2::new(30.0, 0.0));
    let hit = w.ray_cast_filtered(origin, along, &QueryFilter::ALL);
    out.push(format!(
        "ray hit {} body {} fraction {:.6}",
        hit.is_some() as u8,
        hit.map_or(0, |h| h.body.index),
        hit.map_or(0.0, |h| h.hit.fraction)
    ));
    let ignoring = w.ray_cast_filtered(
        origin,
        along,
        &QueryFilter {
            ignore: &[low],
            ..QueryFilter::ALL
        },
    );
    out.push(format!("ray ignoring low hit {}", ignoring.is_some() as u8));
    let mut hits = 0;
    w.ray_cast_all(origin, along, &QueryFilter::ALL, |_| {
        hits += 1;
        Visit::Continue
    });
    out.push(format!("ray all hits {hits}"));
    let mut overlapping = 0;
    w.overlap_shape(
        &boxed(1.0, 1.0),
        Transform::from_translation(Vec2::new(0.0, 1.0)),
        &QueryFilter::ALL,
        |_| {
            overlapping += 1;
            true
        },
    );
    out.push(format!("overlap bodies {overlapping}"));
    let cast = w.cast_shape(
        &ball,
        Transform::from_translation(Vec2::new(0.0, 6.0)),
        Vec2::new(0.0, -10.0),
        &QueryFilter::ALL,
    );
    out.push(format!(
        "cast hit {} body {} fraction {:.5}",
        cast.is_some() as u8,
        cast.map_or(0, |h| h.body.index),
        cast.map_or(0.0, |h| h.output.fraction)
    ));
    add(&mut w, BodyKind::Static, 30.0, 3.0, boxed(0.05, 3.0));
    let shot = add(&mut w, BodyKind::Dynamic, 20.0, 3.0, ball);
    w.set_velocity(shot, Vec2::new(300.0, 0.0), 0.0).unwrap();
    w.set_bullet(shot, true).unwrap();
    for _ in 0..30 {
        step(&mut w);
    }
    out.push(format!(
        "shot stopped before wall {}",
        (w.transform(shot).unwrap().p.x < 30.0) as u8
    ));
    let resting = add(&mut w, BodyKind::Dynamic, -10.0, 0.5, boxed(0.5, 0.5));
    let visitor = add(&mut w, BodyKind::Dynamic, -5.0, 3.0, ball);
    w.set_gravity_scale(visitor, 0.0).unwrap();
    for _ in 0..60 {
        step(&mut w);
    }
    w.remove_body(resting).unwrap();
    w.remove_body(visitor).unwrap();
    let ends = |w: &World| {
        let contact = w
            .end_events()
            .iter()
            .filter(|e| e.body_a == resting || e.body_b == resting)
            .count();
        let sensor = w
            .sensor_end_events()
            .iter()
            .filter(|e| e.visitor == visitor)
            .count();
        (contact, sensor)
    };
    for when in ["before the step", "next step", "step after"] {
        if when != "before the step" {
            step(&mut w);
        }
        let (contact, sensor) = ends(&w);
        out.push(format!(
            "removed, {when}: box ends {contact} ball sensor ends {sensor}"
        ));
    }
    // One tick per clock read: each phase spans one tick, the step six (hand-derived).
    out.push("profile total 6 pairs 1 narrow 1 solve 1 finalize 1 continuous 1 sleep 1".into());
    out.push("profile without clock 0".into());
    out.push(format!("nan force status {}", Status::InvalidInput as u32));
    out.push(format!("stale set_awake status {}", Status::InvalidBody as u32));
    out.push(format!(
        "null filter ignore status {}",
        Status::NullPointer as u32
    ));
    let expected = out.join("\n") + "\n";
    assert_eq!(printed, expected);
    // The scene itself says something: asleep, woken, sensed once, filtered, stopped, the
    // removed bodies' ends reported once, by the next step.
    for line in [
        "asleep awake_count 0 high_awake 0",
        "force wakes island 1",
        "set_awake false awake_count 0",
        "impulse vx 2.000000",
        "sensor begins 1 ends 1",
        "ghost below ground 1",
        "filter collide 0",
        "ray ignoring low hit 0",
        "overlap bodies 3",
        "shot stopped before wall 1",
        "removed, before the step: box ends 0 ball sensor ends 0",
        "removed, next step: box ends 1 ball sensor ends 1",
        "removed, step after: box ends 0 ball sensor ends 0",
    ] {
        assert!(printed.contains(line), "missing {line:?} in\n{printed}");
    }
}

#[test]
fn closest_point_through_the_c_abi_matches_rust() {
    let shape = Shape::Polygon(Polygon::make_rounded_box(1.0, 0.5, 0.1).unwrap());
    let xf = Transform::new(Vec2::new(1.0, 2.0), 0.4);
    let mut out = PointProjection::default();
    // SAFETY: every pointer is a live local or NULL where the test says so.
    unsafe {
        for p in [Vec2::new(3.0, 3.0), Vec2::new(1.1, 2.0), Vec2::new(-5.0, 0.0)] {
            assert_eq!(c2d_closest_point(&shape, &xf, p, &mut out), Status::Ok);
            assert_eq!(Some(out), closest_point(&shape, xf, p));
        }
        assert_eq!(
            c2d_closest_point(&shape, &xf, Vec2::new(f32::NAN, 0.0), &mut out),
            Status::NonFinite
        );
        assert_eq!(
            c2d_closest_point(core::ptr::null(), &xf, Vec2::ZERO, &mut out),
            Status::NullPointer
        );
        assert_eq!(
            c2d_closest_point(&shape, &xf, Vec2::ZERO, core::ptr::null_mut()),
            Status::NullPointer
        );
        // The plane solver: NULL planes only with count 0.
        let mut r = PlaneSolverResult::default();
        assert_eq!(
            c2d_solve_planes(Vec2::new(1.0, 2.0), core::ptr::null_mut(), 0, &mut r),
            Status::Ok
        );
        assert_eq!(r.translation, Vec2::new(1.0, 2.0));
        assert_eq!(
            c2d_solve_planes(Vec2::ZERO, core::ptr::null_mut(), 1, &mut r),
            Status::NullPointer
        );
        assert_eq!(
            c2d_solve_planes(Vec2::new(f32::NAN, 0.0), core::ptr::null_mut(), 0, &mut r),
            Status::NonFinite
        );
        let mut out = Vec2::ZERO;
        assert_eq!(
            c2d_clip_vector(Vec2::X, core::ptr::null(), 1, &mut out),
            Status::NullPointer
        );
        assert_eq!(
            c2d_clip_vector(Vec2::X, core::ptr::null(), 0, &mut out),
            Status::Ok
        );
        assert_eq!(out, Vec2::X);
    }
}

#[test]
fn level_geometry_through_the_c_abi_reports_sizes_and_errors() {
    // SAFETY: every pointer refers to a live local or is NULL where the test says so.
    unsafe {
        let cells = [1u8, 0, 1, 1];
        let (mut np, mut nl) = (0u32, 0u32);
        let mut pts = [Vec2::ZERO; 4];
        let mut loops = [0u32; 4];
        // Sizes only, then too small, then enough.
        assert_eq!(
            c2d_tile_outlines(
                cells.as_ptr(),
                2,
                2,
                1.0,
                Vec2::ZERO,
                core::ptr::null_mut(),
                0,
                core::ptr::null_mut(),
                0,
                &mut np,
                &mut nl
            ),
            Status::BufferTooSmall
        );
        assert_eq!((np, nl), (6, 1));
        assert_eq!(
            c2d_tile_outlines(
                cells.as_ptr(),
                2,
                2,
                1.0,
                Vec2::ZERO,
                pts.as_mut_ptr(),
                4,
                loops.as_mut_ptr(),
                4,
                &mut np,
                &mut nl
            ),
            Status::BufferTooSmall
        );
        let mut pts = [Vec2::ZERO; 6];
        assert_eq!(
            c2d_tile_outlines(
                cells.as_ptr(),
                2,
                2,
                1.0,
                Vec2::ZERO,
                pts.as_mut_ptr(),
                6,
                loops.as_mut_ptr(),
                4,
                &mut np,
                &mut nl
            ),
            Status::Ok
        );
        let bools: Vec<bool> = cells.iter().map(|&c| c != 0).collect();
        assert_eq!(
            &pts[..],
            tile_outlines_from_cells(2, 2, &bools, 1.0, Vec2::ZERO).unwrap()[0].points()
        );
        assert_eq!(
            c2d_tile_outlines(
                cells.as_ptr(),
                2,
                2,
                -1.0,
                Vec2::ZERO,
                pts.as_mut_ptr(),
                6,
                loops.as_mut_ptr(),
                4,
                &mut np,
                &mut nl
            ),
            Status::InvalidGrid
        );
        assert_eq!(
            c2d_tile_outlines(
                core::ptr::null(),
                2,
                2,
                1.0,
                Vec2::ZERO,
                pts.as_mut_ptr(),
                6,
                loops.as_mut_ptr(),
                4,
                &mut np,
                &mut nl
            ),
            Status::NullPointer
        );
        // Decomposition.
        let l = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        let mut out = [Polygon::make_box(1.0, 1.0).unwrap(); 2];
        let mut n = 0u32;
        assert_eq!(
            c2d_decompose(l.as_ptr(), 6, out.as_mut_ptr(), 1, &mut n),
            Status::BufferTooSmall
        );
        assert_eq!(n, 2);
        assert_eq!(
            c2d_decompose(l.as_ptr(), 6, out.as_mut_ptr(), 2, &mut n),
            Status::Ok
        );
        assert_eq!(out.to_vec(), decompose(&l).unwrap());
        let bow = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
        ];
        assert_eq!(
            c2d_decompose(bow.as_ptr(), 4, out.as_mut_ptr(), 2, &mut n),
            Status::SelfIntersecting
        );
        // Chains in a world: one body with a shape per segment; a dynamic chain is refused.
        let mut w = WorldId::default();
        assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok);
        let floor = [Vec2::new(3.0, 0.0), Vec2::new(0.0, 0.0), Vec2::new(-3.0, 0.5)];
        let mut def: CChainDef = core::mem::zeroed();
        assert_eq!(c2d_chain_def_default(&mut def), Status::Ok);
        def.points = floor.as_ptr();
        def.count = 3;
        let mut chain = ChainId::default();
        let dynamic = CChainDef { kind: 2, ..def };
        assert_eq!(c2d_world_add_chain(w, &dynamic, &mut chain), Status::Unsupported);
        let bad_kind = CChainDef { kind: 3, ..def };
        assert_eq!(
            c2d_world_add_chain(w, &bad_kind, &mut chain),
            Status::InvalidBodyKind
        );
        let no_points = CChainDef {
            points: core::ptr::null(),
            ..def
        };
        assert_eq!(
            c2d_world_add_chain(w, &no_points, &mut chain),
            Status::NullPointer
        );
        assert_eq!(world_of(w).unwrap().body_count(), 0);
        assert_eq!(c2d_world_add_chain(w, &def, &mut chain), Status::Ok);
        let mut chain_id = BodyId::default();
        assert_eq!(c2d_world_chain_body(w, chain, &mut chain_id), Status::Ok);
        let mut count = 0u32;
        assert_eq!(c2d_world_body_count(w, &mut count), Status::Ok);
        assert_eq!(count, 1);
        // Removed as a whole; its id is then refused.
        let mut other = ChainId::default();
        assert_eq!(c2d_world_add_chain(w, &def, &mut other), Status::Ok);
        assert_eq!(c2d_world_remove_chain(w, other), Status::Ok);
        assert_eq!(c2d_world_remove_chain(w, other), Status::InvalidChainId);
        let mut gone = BodyId::default();
        assert_eq!(c2d_world_chain_body(w, other, &mut gone), Status::InvalidChainId);
        assert_eq!(c2d_world_body_count(w, &mut count), Status::Ok);
        assert_eq!(count, 1);
        assert_eq!(world_of(w).unwrap().shapes(chain_id).unwrap().count(), 2);
        assert!(world_of(w)
            .unwrap()
            .shapes(chain_id)
            .unwrap()
            .all(|s| matches!(s, Shape::ChainSegment(_))));
        // A second shape on a dynamic body: the mass of both.
        let mut crate_id = BodyId::default();
        let unit = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.0, 2.0)),
            Shape::rect(0.5, 0.5),
        );
        assert_eq!(c2d_world_add_body(w, &unit, &mut crate_id), Status::Ok);
        let offset =
            Shape::Polygon(Polygon::make_offset_box(0.5, 0.5, Vec2::new(1.0, 0.0), Rot::IDENTITY).unwrap());
        assert_eq!(
            c2d_world_add_shape(w, crate_id, &offset, core::ptr::null_mut()),
            Status::Ok
        );
        let b = world_of(w).unwrap().body(crate_id).unwrap();
        assert!((1.0 / b.inv_mass - 2.0).abs() < 1e-5 && (b.local_center.x - 0.5).abs() < 1e-6);
        assert_eq!(
            c2d_world_add_shape(w, BodyId::default(), &offset, core::ptr::null_mut()),
            Status::InvalidBody
        );
        assert_eq!(
            c2d_world_add_shape(w, crate_id, core::ptr::null(), core::ptr::null_mut()),
            Status::NullPointer
        );
        // A chain-segment shape on a dynamic body is refused through add_body too.
        let seg = Shape::ChainSegment(ChainSegment::lone(Vec2::ZERO, Vec2::X).unwrap());
        let mut id = BodyId::default();
        let bad = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, seg);
        assert_eq!(c2d_world_add_body(w, &bad, &mut id), Status::Unsupported);
        c2d_world_destroy(w);
    }
}

#[test]
fn c_platformer_prints_what_rust_computes() {
    let printed = build_and_run("platformer.c", "cc", "-std=c11");
    let dt = 1.0f32 / 60.0;
    let mut w = World::default();
    let tile = Shape::Polygon(Polygon::make_box(0.5, 0.5).unwrap());
    let add = |w: &mut World, kind: BodyKind, x: f32, y: f32, s: Shape| {
        w.add_body(&BodyDef::new(
            kind,
            Transform::from_translation(Vec2::new(x, y)),
            s,
        ))
        .unwrap()
    };
    for i in 0..24 {
        add(&mut w, BodyKind::Static, i as f32 + 0.5, -0.5, tile);
    }
    let ramp = Polygon::new(&[
        Vec2::new(14.0, 0.0),
        Vec2::new(18.0, 0.0),
        Vec2::new(18.0, 2.309401),
    ])
    .unwrap();
    add(&mut w, BodyKind::Static, 0.0, 0.0, Shape::Polygon(ramp));
    let lift = add(
        &mut w,
        BodyKind::Kinematic,
        8.0,
        0.9,
        Shape::Polygon(Polygon::make_box(1.5, 0.2).unwrap()),
    );
    w.set_velocity(lift, Vec2::new(1.0, 0.0), 0.0).unwrap();
    let body = Shape::Capsule(Capsule::new(Vec2::new(0.0, -0.3), Vec2::new(0.0, 0.3), 0.3).unwrap());
    let mut p = Vec2::new(1.0, 0.61);
    let mut v = Vec2::ZERO;
    let opts = MoveOptions {
        ground_snap: 0.2,
        time_step: dt,
        ..MoveOptions::default()
    };
    let mut on_ground = true;
    let mut want = String::new();
    let (mut rode_lift, mut climbed) = (false, false);
    for frame in 1..=300 {
        w.step(dt, 4).unwrap();
        v.x = if frame < 270 { 4.0 } else { 0.0 };
        if frame == 70 && on_ground {
            v.y = 5.0;
        }
        v.y -= 9.8 * dt;
        let r = move_and_slide(
            &w.mover_level(&QueryFilter::ALL),
            &body,
            Transform::from_translation(p),
            v * dt,
            v,
            &opts,
        );
        p = r.position;
        v = r.velocity;
        on_ground = r.on_ground;
        rode_lift |= r.on_ground && BodyId::from_bits(r.ground.user_data) == lift;
        climbed |= r.on_ground && r.ground.plane.normal.x < -0.4;
        if frame % 30 == 0 {
            want += &format!(
                "frame {frame} pos {:.4} {:.4} vel {:.4} {:.4} ground {} supported {} on {} contacts {}\n",
                p.x,
                p.y,
                v.x,
                v.y,
                r.on_ground as i32,
                r.supported as i32,
                if r.on_ground {
                    r.ground.user_data & 0xffff_ffff
                } else {
                    0
                },
                r.contact_count
            );
        }
    }
    // Independently of the printout: the character landed on the moving platform and walked up
    // the ramp (a ground normal tilted 30 degrees).
    assert!(rode_lift && climbed, "lift {rode_lift} ramp {climbed}");
    let floor = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
    let wall = Shape::Polygon(Polygon::make_box(0.5, 2.0).unwrap());
    let level = [
        Obstacle::fixed(&floor, Transform::from_translation(Vec2::new(0.0, -0.5)), 100),
        Obstacle::fixed(&wall, Transform::from_translation(Vec2::new(3.5, 2.0)), 101),
    ];
    let crate_shape = Shape::Polygon(Polygon::make_box(0.4, 0.4).unwrap());
    let mut c = Vec2::new(0.0, 0.41);
    let mut cv = Vec2::new(6.0, -2.0);
    for _ in 0..40 {
        let r = move_and_slide(
            &level[..],
            &crate_shape,
            Transform::from_translation(c),
            cv * dt,
            cv,
            &MoveOptions::default(),
        );
        c = r.position;
        cv = Vec2::new(6.0, r.velocity.y - 9.8 * dt);
    }
    want += &format!("crate in the corner at {:.4} {:.4}\n", c.x, c.y);
    // Independently: the corner is at x = 3 (wall) and y = 0 (floor); the crate rests a skin
    // (0.01) from both.
    assert!(
        (c.x - (3.0 - 0.4 - 0.01)).abs() < 1e-3 && (c.y - 0.41).abs() < 1e-3,
        "{c:?}"
    );
    let mut planes = Vec::new();
    collide_mover(
        &level[..],
        &crate_shape,
        Transform::from_translation(c),
        0.02,
        |pl| {
            planes.push(*pl);
            true
        },
    );
    want += &format!("planes {}:", planes.len());
    for pl in &planes {
        want += &format!(
            " [{:.4} {:.4} sep {:.4} from {}]",
            pl.plane.normal.x, pl.plane.normal.y, -pl.plane.offset, pl.user_data
        );
    }
    want += "\n";
    let h = cast_mover(
        &level[..],
        &crate_shape,
        Transform::from_translation(Vec2::new(-3.0, 0.41)),
        Vec2::new(10.0, 0.0),
        0.01,
    )
    .unwrap();
    want += &format!(
        "cast hit 1 fraction {:.4} normal {:.4} {:.4} from {}\n",
        h.fraction, h.normal.x, h.normal.y, h.user_data
    );
    // Independently: the crate's right side (x + 0.4) reaches the wall face (x = 3) less the
    // skin after 10·f: f = (3 − 0.01 − 0.4 + 3) / 10.
    assert!(
        (h.fraction - 0.559).abs() < 1e-4 && h.normal == Vec2::new(-1.0, 0.0),
        "{h:?}"
    );
    assert_eq!(printed, want);
}

unsafe extern "C" fn two_obstacle_query(
    aabb: Aabb,
    out: *mut MoverObstacle,
    capacity: u32,
    context: *mut core::ffi::c_void,
) -> u32 {
    // SAFETY: the context is the test's obstacle array, `out` has `capacity` slots.
    let level = unsafe { &*(context as *const [MoverObstacle; 2]) };
    let mut n = 0;
    for o in level {
        if n < capacity && o.shape.aabb(o.xf).overlaps(aabb) {
            // SAFETY: n < capacity.
            unsafe { out.add(n as usize).write(*o) };
            n += 1;
        }
    }
    n
}

#[test]
fn mover_through_the_c_abi_matches_rust_and_rejects_bad_input() {
    let floor = Shape::Polygon(Polygon::make_box(5.0, 0.5).unwrap());
    let wall = Shape::Polygon(Polygon::make_box(0.5, 2.0).unwrap());
    let ob = |shape: Shape, p: Vec2, user_data: u64| MoverObstacle {
        shape,
        xf: Transform::from_translation(p),
        user_data,
        velocity: Vec2::ZERO,
        angular_velocity: 0.0,
        center: p,
    };
    let level = [
        ob(floor, Vec2::new(0.0, -0.5), 1),
        ob(wall, Vec2::new(3.5, 2.0), 2),
    ];
    let mover = Shape::circle(0.5);
    let xf = Transform::from_translation(Vec2::new(2.0, 0.6));
    let t = Vec2::new(1.0, -0.5);
    let rust_level = [
        Obstacle::fixed(&floor, level[0].xf, 1),
        Obstacle::fixed(&wall, level[1].xf, 2),
    ];
    let want = move_and_slide(&rust_level[..], &mover, xf, t, t, &MoveOptions::default());
    // SAFETY: every pointer below refers to a live local of the right type (or is NULL where
    // the test checks the rejection), for the duration of each call.
    unsafe {
        let mut opts = core::mem::zeroed::<MoveOptions>();
        assert_eq!(c2d_move_options_default(&mut opts), Status::Ok);
        assert_eq!(opts, MoveOptions::default());
        let mut r = core::mem::zeroed::<MoveResult>();
        assert_eq!(
            c2d_move_and_slide(level.as_ptr(), 2, &mover, &xf, t, t, core::ptr::null(), &mut r),
            Status::Ok
        );
        assert_eq!(r, want);
        let mut r2 = core::mem::zeroed::<MoveResult>();
        let ctx = &level as *const [MoverObstacle; 2] as *mut core::ffi::c_void;
        assert_eq!(
            c2d_move_and_slide_query(Some(two_obstacle_query), ctx, &mover, &xf, t, t, &opts, &mut r2),
            Status::Ok
        );
        assert_eq!(r2, want);
        // Rejections: NULL pointers, NaN, a bad shape tag in an obstacle, a bool that is not
        // 0 or 1, a buffer too small; the output is left alone.
        let mut untouched = core::mem::zeroed::<MoveResult>();
        assert_eq!(
            c2d_move_and_slide(
                core::ptr::null(),
                1,
                &mover,
                &xf,
                t,
                t,
                core::ptr::null(),
                &mut untouched
            ),
            Status::NullPointer
        );
        assert_eq!(
            c2d_move_and_slide(
                level.as_ptr(),
                2,
                &mover,
                &xf,
                Vec2::new(f32::NAN, 0.0),
                t,
                core::ptr::null(),
                &mut untouched
            ),
            Status::NonFinite
        );
        // A mover transform that is not finite, or whose rotation is not unit length, in
        // every mover entry point.
        let bad_xfs = [
            Transform::from_translation(Vec2::new(f32::NAN, 0.6)),
            Transform {
                p: Vec2::new(2.0, 0.6),
                q: Rot { c: 2.0, s: 0.0 },
            },
        ];
        for bad_xf in &bad_xfs {
            assert_eq!(
                c2d_move_and_slide(
                    level.as_ptr(),
                    2,
                    &mover,
                    bad_xf,
                    t,
                    t,
                    core::ptr::null(),
                    &mut untouched
                ),
                Status::NonFinite
            );
            assert_eq!(
                c2d_move_and_slide_query(
                    Some(two_obstacle_query),
                    ctx,
                    &mover,
                    bad_xf,
                    t,
                    t,
                    &opts,
                    &mut untouched
                ),
                Status::NonFinite
            );
            let mut w = WorldId::default();
            assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok);
            assert_eq!(
                c2d_world_move_and_slide(w, &mover, bad_xf, t, t, &opts, core::ptr::null(), &mut untouched),
                Status::NonFinite
            );
            assert_eq!(c2d_world_destroy(w), Status::Ok);
        }
        let mut bad = level;
        core::ptr::write(&mut bad[1].shape as *mut Shape as *mut u32, 9);
        assert_eq!(
            c2d_move_and_slide(
                bad.as_ptr(),
                2,
                &mover,
                &xf,
                t,
                t,
                core::ptr::null(),
                &mut untouched
            ),
            Status::InvalidShapeTag
        );
        let mut bad_opts = opts;
        core::ptr::write(&mut bad_opts.slide_on_steep as *mut bool as *mut u8, 2);
        assert_eq!(
            c2d_move_and_slide(level.as_ptr(), 2, &mover, &xf, t, t, &bad_opts, &mut untouched),
            Status::OutOfRange
        );
        assert_eq!(untouched, core::mem::zeroed::<MoveResult>());
        assert_eq!(
            c2d_move_and_slide_query(None, ctx, &mover, &xf, t, t, &opts, &mut untouched),
            Status::NullPointer
        );
        // collide / cast against Rust.
        let mover_at = Transform::from_translation(Vec2::new(2.49, 0.5));
        let mut planes = [MoverPlane::default(); 1];
        let mut n = 0u32;
        assert_eq!(
            c2d_collide_mover(
                level.as_ptr(),
                2,
                &mover,
                &mover_at,
                0.02,
                planes.as_mut_ptr(),
                1,
                &mut n
            ),
            Status::BufferTooSmall
        );
        assert_eq!(n, 2);
        let mut rust_planes = Vec::new();
        collide_mover(&rust_level[..], &mover, mover_at, 0.02, |p| {
            rust_planes.push(*p);
            true
        });
        assert_eq!(planes[0], rust_planes[0]);
        let (mut hit, mut h) = (false, MoverHit::default());
        assert_eq!(
            c2d_cast_mover(
                level.as_ptr(),
                2,
                &mover,
                &xf,
                Vec2::new(3.0, 0.0),
                0.01,
                &mut hit,
                &mut h
            ),
            Status::Ok
        );
        let rust_hit = cast_mover(&rust_level[..], &mover, xf, Vec2::new(3.0, 0.0), 0.01).unwrap();
        assert!(hit);
        assert_eq!(h, rust_hit);
        assert_eq!(
            c2d_cast_mover(
                level.as_ptr(),
                2,
                &mover,
                &xf,
                Vec2::new(3.0, 0.0),
                0.01,
                core::ptr::null_mut(),
                &mut h
            ),
            Status::NullPointer
        );
    }
}

/// The C door checks what the Rust door checks: a circle with a negative or NaN radius is
/// refused by `c2d_shape_aabb`, `c2d_shape_mass` and `c2d_world_move_and_slide` (they returned
/// OK with garbage, or without moving); `c2d_world_create` refuses NaN gravity, a negative contact hertz,
/// a negative contact stiffness and a NaN speed limit (every step then failed); velocities
/// above the speed limit are refused, not clamped (1e30 became 0, 1000 became 400); a step of
/// 1e20 s is refused (it froze a falling box asleep in mid-air).
#[test]
fn the_c_door_refuses_what_the_rust_door_refuses() {
    unsafe {
        let id = Transform::IDENTITY;
        for radius in [-1.0f32, f32::NAN, 1.0e30] {
            let bad = Shape::Circle(Circle {
                center: Vec2::ZERO,
                radius,
            });
            let mut aabb = Aabb::default();
            let mut mass = MassData::default();
            assert_ne!(
                c2d_shape_aabb(&bad, &id, &mut aabb),
                Status::Ok,
                "radius {radius}"
            );
            assert_ne!(
                c2d_shape_mass(&bad, 1.0, &mut mass),
                Status::Ok,
                "radius {radius}"
            );
            assert_ne!(c2d_shape_validate(&bad), Status::Ok, "radius {radius}");
            let mut w = WorldId::default();
            assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok);
            let opts = MoveOptions::default();
            let mut out = MoveResult::default();
            assert_ne!(
                c2d_world_move_and_slide(
                    w,
                    &bad,
                    &id,
                    Vec2::new(1.0, 0.0),
                    Vec2::new(60.0, 0.0),
                    &opts,
                    core::ptr::null(),
                    &mut out
                ),
                Status::Ok,
                "radius {radius}"
            );
            c2d_world_destroy(w);
        }
        let good = SolverSettings::default();
        for (s, e) in [
            (
                SolverSettings {
                    gravity: Vec2::new(f32::NAN, 0.0),
                    ..good
                },
                Status::InvalidInput,
            ),
            (
                SolverSettings {
                    contact_hertz: -1.0,
                    ..good
                },
                Status::OutOfRange,
            ),
            (
                SolverSettings {
                    max_linear_speed: f32::NAN,
                    ..good
                },
                Status::InvalidInput,
            ),
        ] {
            let mut w = WorldId::default();
            assert_eq!(c2d_world_create(&s, &mut w), e, "{s:?}");
            assert_eq!(w, WorldId::default());
        }
        let mut w = WorldId::default();
        assert_eq!(c2d_world_create(&good, &mut w), Status::Ok);
        let def = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.0, 5.0)),
            Shape::rect(0.5, 0.5),
        );
        let mut body = BodyId::default();
        assert_eq!(c2d_world_add_body(w, &def, &mut body), Status::Ok);
        for speed in [1.0e30f32, 1000.0] {
            let v = Vec2::new(speed, 0.0);
            assert_eq!(c2d_world_set_velocity(w, body, &v, 0.0), Status::OutOfRange);
        }
        assert_eq!(c2d_world_set_gravity_scale(w, body, f32::MAX), Status::OutOfRange);
        assert_eq!(
            c2d_world_apply_angular_impulse(w, body, f32::MAX),
            Status::OutOfRange
        );
        assert_eq!(c2d_world_step(w, 1.0e20, 4), Status::InvalidStep);
        assert_eq!(c2d_world_step(w, 1.0 / 60.0, 4), Status::Ok);
        let b = world_of(w).unwrap().body(body).unwrap();
        assert!(b.linear_velocity.x == 0.0 && b.linear_velocity.y < 0.0 && b.transform.p.y < 5.0);
        c2d_world_destroy(w);
    }
}

/// `c_examples/seams.c`: a box sliding across 20 separate box tiles, with internal-edge
/// removal on (no vertical speed, no spin) and off (it snags), each line checked against the
/// Rust API on the same floor.
#[test]
fn c_seams_prints_what_rust_computes() {
    let printed = build_and_run("seams.c", "cc", "-std=c11");
    let mut want = String::new();
    for removal in [true, false] {
        let mut w = World::default();
        w.set_internal_edge_removal(removal);
        let tile = Shape::rect(0.5, 0.5);
        for i in 0..20 {
            let mut def = BodyDef::new(
                BodyKind::Static,
                Transform::from_translation(Vec2::new(i as f32 + 0.5, -0.5)),
                tile,
            );
            def.material.friction = 0.0;
            w.add_body(&def).unwrap();
        }
        let mut def = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(1.3, 0.25)),
            Shape::rect(0.25, 0.25),
        );
        def.material.friction = 0.0;
        def.linear_velocity = Vec2::new(8.0, 0.0);
        let id = w.add_body(&def).unwrap();
        let (mut max_vy, mut max_w) = (0.0f32, 0.0f32);
        for step in 0..120 {
            w.step(1.0 / 60.0, 4).unwrap();
            let b = w.body(id).unwrap();
            if b.transform.p.x > 18.0 {
                break;
            }
            if step >= 10 {
                max_vy = max_vy.max(b.linear_velocity.y.abs());
                max_w = max_w.max(b.angular_velocity.abs());
            }
        }
        if removal {
            assert!(max_vy < 0.05 && max_w < 0.5, "{max_vy} {max_w}");
        } else {
            assert!(max_vy > 0.05 || max_w > 0.5, "{max_vy} {max_w}");
        }
        want += &format!(
            "removal {}: max |vy| {max_vy:.6} max |w| {max_w:.6}\n",
            u8::from(removal)
        );
    }
    assert_eq!(printed, want);
}

/// `c2d_world_validate`: a live world passes (NULL is refused); after adding, stepping and
/// removing it still does.
#[test]
fn c_world_validate_checks_the_invariants() {
    unsafe {
        assert_eq!(c2d_world_validate(WorldId::default()), Status::InvalidWorld);
        let mut w = WorldId::default();
        assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok);
        assert_eq!(c2d_world_validate(w), Status::Ok);
        let def = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.0, 2.0)),
            Shape::rect(0.5, 0.5),
        );
        let ground = BodyDef::new(BodyKind::Static, Transform::IDENTITY, Shape::rect(5.0, 0.5));
        let (mut a, mut g) = (BodyId::default(), BodyId::default());
        assert_eq!(c2d_world_add_body(w, &ground, &mut g), Status::Ok);
        assert_eq!(c2d_world_add_body(w, &def, &mut a), Status::Ok);
        for _ in 0..60 {
            assert_eq!(c2d_world_step(w, 1.0 / 60.0, 4), Status::Ok);
            assert_eq!(c2d_world_validate(w), Status::Ok);
        }
        // No body was stopped by containment; the count is reported with no buffer.
        let mut faults = usize::MAX;
        assert_eq!(
            c2d_world_fault_events(w, core::ptr::null_mut(), 0, &mut faults),
            Status::Ok
        );
        assert_eq!(faults, 0);
        assert_eq!(
            c2d_world_fault_events(w, core::ptr::null_mut(), 0, core::ptr::null_mut()),
            Status::NullPointer
        );
        assert_eq!(c2d_world_remove_body(w, a), Status::Ok);
        assert_eq!(c2d_world_validate(w), Status::Ok);
        c2d_world_destroy(w);
    }
}

/// The `c2d_*` functions include/collide2d.h declares: every line that starts at column 0 with
/// a return type followed by `c2d_name(` (the header's declaration style), skipping the
/// `static inline` helpers, which are defined in the header rather than exported.
fn declared_entry_points(header: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in header.lines() {
        let starts_with_type = line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        if !starts_with_type || line.starts_with("static") || line.starts_with("typedef") {
            continue;
        }
        let Some(open) = line.find('(') else { continue };
        let Some(start) = line[..open].rfind(' ') else {
            continue;
        };
        let name = line[start + 1..open].trim_start_matches('*');
        if name.starts_with("c2d_") && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            names.push(name.to_string());
        }
    }
    names.sort();
    names.dedup();
    names
}

/// Whether `text` contains `name` as a whole identifier (so `c2d_collide` is not found inside
/// `c2d_collide_circles`).
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].bytes().next_back();
        let after = text[i + name.len()..].bytes().next();
        let ident = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_');
        !ident(before) && !ident(after)
    })
}

/// Rust source with its comments (`//` to the end of the line, `/* */` nested as Rust nests
/// them) and the contents of its string and character literals removed, so that what is left
/// names only what the code uses.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match (b[i], b.get(i + 1).copied()) {
            (b'/', Some(b'/')) => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                let mut depth = 0;
                loop {
                    if i + 1 >= b.len() {
                        i = b.len();
                        break;
                    }
                    match (b[i], b[i + 1]) {
                        (b'/', b'*') => {
                            depth += 1;
                            i += 2;
                        }
                        (b'*', b'/') => {
                            depth -= 1;
                            i += 2;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => i += 1,
                    }
                }
                out.push(b' ');
            }
            (b'"', _) => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.extend_from_slice(b"\"\"");
            }
            // A character literal ('x', '\n', '"'); a lone quote is a lifetime or a label.
            (b'\'', Some(c)) if c == b'\\' || b.get(i + 2) == Some(&b'\'') => {
                // Past the quote and the character (the backslash and the escaped character).
                i += if c == b'\\' { 3 } else { 2 };
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
                i += 1;
                out.extend_from_slice(b"' '");
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn code_only_drops_comments_and_literals() {
    let src = "let a = c2d_a(); // c2d_b()\n/* c2d_c /* c2d_d */ c2d_e */ f(\"c2d_f \\\" c2d_g\", '\"', 'x', '\\'', \"c2d_j\");\n\
               fn g<'a>(x: &'a u8) { c2d_h(x) } // c2d_i";
    let code = code_only(src);
    for name in ["c2d_a", "c2d_h"] {
        assert!(mentions(&code, name), "{name} in {code:?}");
    }
    for name in [
        "c2d_b", "c2d_c", "c2d_d", "c2d_e", "c2d_f", "c2d_g", "c2d_i", "c2d_j",
    ] {
        assert!(!mentions(&code, name), "{name} in {code:?}");
    }
}

/// Entry points no fuzz target needs to call, each with the reason. Everything else the header
/// declares must appear in some file of fuzz/fuzz_targets/. Empty: even the process-wide hooks
/// are fuzzed in-process, since a Rust program keeps Rust's allocator (the hooks are stored, not
/// consulted) and capi_queries restores every hook to its default before a run ends.
const NOT_FUZZED: &[(&str, &str)] = &[];

/// Every C entry point is reached by a fuzz target (or is on the commented allow-list above), so
/// a new entry point cannot go unfuzzed unnoticed. Only code counts: a name in a comment or a
/// string is not a call.
#[test]
fn every_c_entry_point_is_called_by_a_fuzz_target() {
    let header = std::fs::read_to_string(root().join("include/collide2d.h")).unwrap();
    let declared = declared_entry_points(&header);
    assert!(declared.len() > 100, "header parse found only {declared:?}");
    let mut targets = String::new();
    for entry in std::fs::read_dir(root().join("fuzz/fuzz_targets")).unwrap() {
        targets += &code_only(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    for (name, reason) in NOT_FUZZED {
        assert!(
            declared.iter().any(|d| d == name),
            "allow-listed {name} is not declared"
        );
        assert!(
            !reason.is_empty() && !mentions(&targets, name),
            "{name} is fuzzed after all"
        );
    }
    let missing: Vec<&String> = declared
        .iter()
        .filter(|name| !mentions(&targets, name) && !NOT_FUZZED.iter().any(|(n, _)| n == name))
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} C entry points are called by no fuzz target: {missing:?}",
        missing.len(),
        declared.len()
    );
}

/// `c_examples/door.c`: the C door refuses bad settings, a hand-filled polygon, a position
/// beyond the world's extent, a velocity above the speed limit, a gravity scale beyond its
/// bound and a 2 s step, each with its documented status; the world then validates with no
/// body stopped.
#[test]
fn c_door_prints_the_documented_statuses() {
    let printed = build_and_run("door.c", "cc", "-std=c11");
    let st = |s: Status| s as u32;
    let want = format!(
        "NaN gravity: status {}\nnegative contact hertz: status {}\ndefaults: status {}\n\
         body definition of it: status {}\npolygon with 9 vertices: status {}\nbody at 2e6 m: status {}\nbox: status {}\n\
         velocity 1000 m/s: status {}\ngravity scale 3e38: status {}\nstep of 2 s: status {}\n\
         validate: status {}, faults 0\n",
        st(Status::InvalidInput),
        st(Status::OutOfRange),
        st(Status::Ok),
        st(Status::InvalidShape),
        st(Status::InvalidShape),
        st(Status::OutOfRange),
        st(Status::Ok),
        st(Status::OutOfRange),
        st(Status::OutOfRange),
        st(Status::InvalidStep),
        st(Status::Ok),
    );
    assert_eq!(printed, want);
}

/// `c_examples/stairs.c`: a box character with auto-step walks up three 0.2 steps without
/// jumping and pushes a crate along the landing with `c2d_world_move_and_push`, line for line
/// as `World::move_and_push` on the same scene; independently of the printout, it climbed the
/// 0.6 of the stairs and the crate moved on.
#[cfg(feature = "solver")]
#[test]
fn c_stairs_prints_what_rust_computes() {
    let printed = build_and_run("stairs.c", "cc", "-std=c11");
    let dt = 1.0f32 / 60.0;
    let mut w = World::default();
    let add_box = |w: &mut World, kind: BodyKind, x0: f32, y0: f32, x1: f32, y1: f32| {
        w.add_body(&BodyDef::new(
            kind,
            Transform::from_translation(Vec2::new(0.5 * (x0 + x1), 0.5 * (y0 + y1))),
            Shape::rect(0.5 * (x1 - x0), 0.5 * (y1 - y0)),
        ))
        .unwrap()
    };
    add_box(&mut w, BodyKind::Static, -2.0, -1.0, 4.0, 0.0);
    for k in 0..3 {
        let x = 4.0 + k as f32;
        let right = if k == 2 { x + 20.0 } else { x + 1.0 };
        add_box(&mut w, BodyKind::Static, x, -1.0, right, 0.2 * (k + 1) as f32);
    }
    let crate_id = add_box(&mut w, BodyKind::Dynamic, 9.0, 0.6, 10.0, 1.6);
    let body = Shape::rect(0.3, 0.5);
    let mut p = Vec2::new(0.0, 0.51);
    let mut v = Vec2::ZERO;
    let opts = MoveOptions {
        max_step_height: 0.25,
        ground_snap: 0.25,
        time_step: dt,
        ..MoveOptions::default()
    };
    let mut climbed = 0.0f32;
    let mut want = String::new();
    for frame in 1..=240 {
        w.step(dt, 4).unwrap();
        v.x = 3.0;
        v.y -= 9.8 * dt;
        let r = w
            .move_and_push(
                &body,
                Transform::from_translation(p),
                v * dt,
                v,
                &opts,
                &QueryFilter::ALL,
                &MoverPush::default(),
            )
            .unwrap();
        p = r.position;
        v = r.velocity;
        climbed += r.stepped_up;
        if frame % 30 == 0 {
            let c = w.body(crate_id).unwrap().transform.p;
            want += &format!(
                "frame {frame} pos {:.4} {:.4} ground {} climbed {:.4} crate {:.4} {:.4}\n",
                p.x, p.y, r.on_ground as i32, climbed, c.x, c.y
            );
        }
    }
    assert!(
        (climbed - 0.6).abs() < 0.01 && p.y > 1.1,
        "climbed {climbed} to {p:?}"
    );
    assert!(w.body(crate_id).unwrap().transform.p.x > 10.5);
    assert_eq!(printed, want);
}

/// The header speaks C: a Rust path (`World::step`, `MoveOptions::skin`) appears in a comment
/// only as a reference labelled with "Rust" earlier on its line, and every C name a comment
/// quotes (`c2d_world_step`, `c2d_MoveOptions.skin`, `C2D_MAX_COORDINATE`) is declared by the
/// header: a function, type, macro, enum value or struct field.
#[test]
fn the_header_speaks_c() {
    let header = std::fs::read_to_string(root().join("include/collide2d.h")).unwrap();
    let mut declared = std::collections::HashSet::new();
    let mut open: Option<String> = None;
    for line in header.lines() {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with("/*") || t.starts_with('*') {
            continue;
        }
        if let Some(rest) = line
            .strip_prefix("typedef struct ")
            .or_else(|| line.strip_prefix("struct "))
        {
            open = rest.split_whitespace().next().map(str::to_string);
        } else if line.starts_with('}') {
            open = None;
        } else if let (Some(ty), Some(decl)) = (&open, t.strip_suffix(';')) {
            let decl = decl.split('[').next().unwrap();
            if let Some(field) = decl.split([' ', '*']).next_back() {
                declared.insert(format!("{ty}.{field}"));
            }
        }
        for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if word.starts_with("c2d_") || word.starts_with("C2D_") {
                declared.insert(word.to_string());
            }
        }
    }
    // `Polygon` where `c2d_Polygon` is declared, `shape_cast` where `c2d_shape_cast` is, or
    // `Overlapping` where a constant ends in `_OVERLAPPING`: a Rust name where the header
    // has the C one.
    let rust_name_of_c = |name: &str| -> bool {
        let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !plain {
            return false;
        }
        if declared.contains(&format!("c2d_{name}")) {
            return true;
        }
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) || name.contains('_') {
            return false;
        }
        let mut snake = String::new();
        for (k, c) in name.chars().enumerate() {
            if c.is_ascii_uppercase() && k > 0 {
                snake.push('_');
            }
            snake.push(c.to_ascii_uppercase());
        }
        let suffix = format!("_{snake}");
        declared.contains(&format!("c2d_{name}"))
            || declared
                .iter()
                .any(|d| d.starts_with("C2D_") && d.ends_with(&suffix))
    };
    let mut unlabelled = Vec::new();
    let mut unknown = Vec::new();
    let mut rust_names = Vec::new();
    for (n, line) in header.lines().enumerate() {
        let Some(at) = line.find("//") else { continue };
        let comment = &line[at..];
        if let Some(k) = comment.find("::") {
            if !comment[..k].contains("Rust") {
                unlabelled.push(format!("{}: {}", n + 1, line.trim()));
            }
        }
        for (i, span) in comment.split('`').enumerate() {
            let quoted = i % 2 == 1;
            let name = span.trim_end_matches("()");
            let labelled = comment.split('`').take(i).any(|s| s.contains("Rust"));
            if quoted && !labelled && rust_name_of_c(name) {
                rust_names.push(format!("{}: {name}", n + 1));
            }
            let c_name = (name.starts_with("c2d_") || name.starts_with("C2D_"))
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            if quoted && c_name && !declared.contains(name) {
                unknown.push(format!("{}: {name}", n + 1));
            }
        }
    }
    assert!(
        unlabelled.is_empty(),
        "Rust paths in the header's comments: {unlabelled:#?}"
    );
    assert!(
        unknown.is_empty(),
        "C names quoted but not declared: {unknown:#?}"
    );
    assert!(
        rust_names.is_empty(),
        "Rust names quoted where the header declares the C one: {rust_names:#?}"
    );
}

/// `c_examples/slopes.c` against the same map, terrain and crate through the Rust API, line by
/// line, and the crate's resting place against the level's geometry.
#[test]
fn c_slopes_prints_what_rust_computes() {
    let printed = build_and_run("slopes.c", "cc", "-std=c11");
    use Tile::*;
    let tiles = [
        Full,
        Full,
        Full,
        Full,
        Full,
        Full,
        Full,
        Full, //
        SlopeUp,
        Full,
        Full,
        Full,
        RampDownHigh,
        RampDownLow,
        Empty,
        HalfBottom, //
        Empty,
        SlopeUp,
        Full,
        CeilingDown,
        Empty,
        Empty,
        Empty,
        Empty,
    ];
    let (cell, origin) = (Vec2::new(1.0, 0.5), Vec2::ZERO);
    let chains = slope_outlines_from_tiles(8, 3, &tiles, cell, origin).unwrap();
    let total: usize = chains.iter().map(|c| c.points().len()).sum();
    let mut want = format!(
        "outline needs {total} points in {} loops (status {})\n",
        chains.len(),
        Status::BufferTooSmall as u32
    );
    for (i, c) in chains.iter().enumerate() {
        want += &format!("loop {i}:");
        for p in c.points() {
            want += &format!(" ({}, {})", p.x, p.y);
        }
        want += "\n";
    }
    want += &format!("tile 12: status {}\n", Status::InvalidGrid as u32);
    let heights = [1.0, 1.25, 1.5, 1.5, 1.0, 0.5, 0.5];
    let terrain = heightfield(
        Vec2::new(9.0, 0.0),
        0.5,
        &heights,
        HeightfieldKind::Samples,
        Some(-1.0),
    )
    .unwrap();
    want += "terrain:";
    for p in terrain.points() {
        want += &format!(" ({}, {})", p.x, p.y);
    }
    want += "\n";
    let mut w = World::default();
    for c in chains.iter().chain([&terrain]) {
        w.add_chain(&ChainDef::new(c)).unwrap();
    }
    let at = Transform {
        p: Vec2::new(4.55, 1.08),
        q: Rot {
            c: 0.970_142_5,
            s: -0.242_535_63,
        },
    };
    let mut def = BodyDef::new(BodyKind::Dynamic, at, Shape::rect(0.2, 0.2));
    def.material.friction = 0.0;
    let id = w.add_body(&def).unwrap();
    for _ in 0..120 {
        w.step(1.0 / 60.0, 4).unwrap();
    }
    let p = w.transform(id).unwrap().p;
    want += &format!("crate at x {:.4} y {:.4}\n", p.x, p.y);
    assert_eq!(printed, want);
    // It slid down the ramp onto the flat (top 0.5) and against the half block at x = 7.
    assert!((p.y - 0.7).abs() < 0.02 && p.x > 6.0 && p.x < 6.81, "{p:?}");
}

#[test]
fn shape_def_layout_matches_the_hand_written_c_declaration() {
    // include/collide2d.h declares c2d_ShapeDef by hand (it embeds c2d_Shape): c2d_Shape,
    // c2d_Material, c2d_Filter, bool, uint64_t.
    use core::mem::offset_of;
    assert_eq!(offset_of!(ShapeDef, shape), 0);
    assert_eq!(offset_of!(ShapeDef, material), 148);
    assert_eq!(offset_of!(ShapeDef, filter), 160);
    assert_eq!(offset_of!(ShapeDef, sensor), 184);
    assert_eq!(offset_of!(ShapeDef, user_data), 192);
    assert_eq!(core::mem::size_of::<ShapeDef>(), 200);
    assert_eq!(core::mem::align_of::<ShapeDef>(), 8);
}

/// `c_examples/shapes.c` against the same scene through the Rust API, line by line.
#[test]
fn c_shapes_print_what_rust_computes() {
    let printed = build_and_run("shapes.c", "cc", "-std=c11");
    let dt = 1.0 / 60.0;
    let mut w = World::default();
    let at = |x: f32, y: f32| Transform::from_translation(Vec2::new(x, y));
    let ground = w
        .add_body(&BodyDef::new(
            BodyKind::Static,
            at(0.0, -0.5),
            Shape::rect(50.0, 0.5),
        ))
        .unwrap();
    let player = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            at(0.0, 1.5),
            Shape::rect(0.25, 0.5),
        ))
        .unwrap();
    let boxed = |hx: f32, hy: f32, x: f32, y: f32| {
        Shape::Polygon(
            Polygon::new(&[
                Vec2::new(x - hx, y - hy),
                Vec2::new(x + hx, y - hy),
                Vec2::new(x + hx, y + hy),
                Vec2::new(x - hx, y + hy),
            ])
            .unwrap(),
        )
    };
    let mut foot = ShapeDef::new(boxed(0.2, 0.05, 0.0, -0.5));
    foot.sensor = true;
    foot.material.density = 0.0;
    foot.user_data = 77;
    let foot_id = w.add_shape_def(player, &foot).unwrap();
    let ids: Vec<ShapeId> = w.shape_ids(player).unwrap().collect();
    let mut want = format!(
        "player has {} shapes, the foot second: {}\n",
        ids.len(),
        i32::from(ids[1] == foot_id)
    );
    let mut landed = -1;
    for i in 0..90 {
        w.step(dt, 4).unwrap();
        for e in w.sensor_begin_events() {
            if e.sensor_shape == foot_id && e.visitor.index == ground.index && landed < 0 {
                landed = i;
            }
        }
    }
    want += &format!(
        "foot touched the ground at step {landed}; player rests at y {:.4}\n",
        w.transform(player).unwrap().p.y
    );
    let mut sled_def = BodyDef::new(BodyKind::Dynamic, at(10.0, 0.25), boxed(0.5, 0.25, -0.5, 0.0));
    sled_def.material.friction = 0.0;
    let sled = w.add_body(&sled_def).unwrap();
    let mut rough = ShapeDef::new(boxed(0.5, 0.25, 0.5, 0.0));
    rough.material.friction = 0.64;
    let rough_id = w.add_shape_def(sled, &rough).unwrap();
    for pass in 0..2 {
        for _ in 0..30 {
            w.step(dt, 4).unwrap();
        }
        w.set_velocity(sled, Vec2::new(3.0, 0.0), 0.0).unwrap();
        for _ in 0..15 {
            w.step(dt, 4).unwrap();
        }
        let v = w.body(sled).unwrap().linear_velocity.x;
        want += &format!("pass {pass}: sled speed {v:.3}\n");
        w.set_shape_material(sled.first_shape(), rough.material).unwrap();
    }
    let read = w.shape_def(foot_id).unwrap();
    want += &format!(
        "foot: sensor {} density {} user data {}\n",
        i32::from(read.sensor),
        read.material.density,
        read.user_data
    );
    let mut none = Filter::DEFAULT;
    none.mask_bits = 0;
    w.set_shape_filter(rough_id, none).unwrap();
    w.set_shape_user_data(rough_id, 5).unwrap();
    w.set_shape_sensor(rough_id, false).unwrap();
    want += &format!(
        "rough shape belongs to the sled: {}\n",
        i32::from(w.shape_body(rough_id) == Ok(sled))
    );
    let status = |r: Result<(), SolverError>| r.map_or_else(Status::from, |()| Status::Ok) as u32;
    let removed = status(w.remove_shape(rough_id));
    let again = status(w.remove_shape(rough_id));
    want += &format!("removed: {removed}; again: {again}\n");
    want += &format!("sled has {} shape(s)\n", w.shape_ids(sled).unwrap().count());
    let bodies: Vec<BodyId> = w.body_ids().collect();
    want += &format!(
        "{} bodies, the player second: {}\n",
        bodies.len(),
        i32::from(bodies[1] == player)
    );
    w.set_gravity(Vec2::new(3.0, 0.0)).unwrap();
    want += &format!("gravity {} {}\n", w.gravity().x, w.gravity().y);
    // The one-way platform, the same rule in Rust.
    struct OneWay(ShapeId, usize);
    impl ContactHooks for OneWay {
        fn pre_solve(&mut self, _: &World, a: ShapeId, b: ShapeId, m: &Manifold) -> bool {
            self.1 += 1;
            let sign = if a == self.0 {
                1.0
            } else if b == self.0 {
                -1.0
            } else {
                return true;
            };
            sign * m.normal.y > 0.7
        }
    }
    let mut w = World::default();
    let plank = BodyDef::new(BodyKind::Static, at(0.0, 2.9), Shape::rect(2.0, 0.1));
    let platform = w.add_body(&plank).unwrap();
    let crate_id = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            at(0.0, 1.5),
            Shape::rect(0.25, 0.25),
        ))
        .unwrap();
    w.set_velocity(crate_id, Vec2::new(0.0, 8.0), 0.0).unwrap();
    let mut hooks = OneWay(platform.first_shape(), 0);
    let mut highest = -1e9f32;
    for _ in 0..240 {
        w.step_with_hooks(dt, 4, &mut hooks).unwrap();
        highest = highest.max(w.position(crate_id).unwrap().y);
    }
    let rest = w.position(crate_id).unwrap().y;
    want += &format!(
        "one-way: highest {highest:.4}, rests at {rest:.4}, hook asked {}\n",
        i32::from(hooks.1 > 0)
    );
    // Thrown from below, it passed the platform (top at 3.0) and rests on it.
    assert!(highest > 3.3 && (rest - 3.25).abs() < 0.02, "{highest} {rest}");
    let listed: Vec<ContactEvent> = w.contacts().collect();
    let c = &listed[0];
    want += &format!(
        "contacts {}: plank first {}, normal y {:.3}, points {}\n",
        listed.len(),
        i32::from(c.shape_a == platform.first_shape()),
        c.manifold.normal.y,
        c.manifold.count
    );
    // Landed on it: one contact, its normal from the plank up, both corners.
    assert!(
        listed.len() == 1 && c.manifold.normal.y > 0.99 && c.manifold.count == 2,
        "{listed:?}"
    );
    let ledge = Chain::open(&[Vec2::new(-6.0, 1.0), Vec2::new(-4.0, 1.0), Vec2::new(-3.0, 1.5)]).unwrap();
    let chain = w.add_chain(&ChainDef::new(&ledge)).unwrap();
    let segments = w.chain_shapes(chain).unwrap().count();
    let (removed, again) = (status(w.remove_chain(chain)), status(w.remove_chain(chain)));
    want += &format!("chain of {segments} segments: removed {removed}, again {again}\n");
    assert_eq!((segments, again), (2, Status::InvalidChainId as u32));
    let invalid = Status::InvalidWorld as u32;
    want += &format!("destroy 0, again {invalid}, step after {invalid}\n");
    assert_eq!(printed, want);
    // On ground of friction 0.6 each half carries half the weight: the rough half mixes to
    // sqrt(0.64 · 0.6) = 0.6197, so 10 · 0.6197 / 2 = 3.10 m/s² over 0.25 s leaves 2.23 m/s;
    // both rough, 6.20 m/s² leaves 1.45 m/s.
    let speeds: Vec<f32> = printed
        .lines()
        .filter_map(|l| l.strip_prefix("pass ").map(|r| r[r.len() - 5..].parse().unwrap()))
        .collect();
    assert!(
        (speeds[0] - 2.23).abs() < 0.1 && (speeds[1] - 1.45).abs() < 0.1,
        "{speeds:?}"
    );
}

mod world_lock {
    use super::*;
    use core::ffi::c_void;

    /// What a callback is given: the world, a live body and a shape of it, and the statuses
    /// of the changing calls it made.
    struct Probe {
        world: WorldId,
        body: BodyId,
        chain: ChainId,
        calls: Vec<(&'static str, Status)>,
        reads: Vec<(&'static str, Status)>,
        /// The body as `c2d_world_get_body` read it from the callback.
        read_body: Option<Body>,
    }

    /// Calls every function that changes a world, with arguments that would succeed.
    ///
    /// # Safety
    /// `p.world` live; called from inside a query or draw callback of that world.
    unsafe fn change_everything(p: &mut Probe) {
        let (w, b) = (p.world, p.body);
        let s = b.first_shape();
        let boxed = Shape::rect(0.5, 0.5);
        let def = BodyDef::new(
            BodyKind::Dynamic,
            Transform::from_translation(Vec2::new(0.0, 9.0)),
            boxed,
        );
        let shape_def = ShapeDef::new(Shape::circle(0.1));
        let (v, xf) = (Vec2::new(1.0, 0.0), Transform::IDENTITY);
        let pts = [Vec2::new(-3.0, -2.0), Vec2::new(3.0, -2.0)];
        // SAFETY: a writable definition.
        let mut chain_def: CChainDef = unsafe { core::mem::zeroed() };
        // SAFETY: as above.
        assert_eq!(unsafe { c2d_chain_def_default(&mut chain_def) }, Status::Ok);
        chain_def.points = pts.as_ptr();
        chain_def.count = 2;
        // A live chain of the world (`Probe::chain`), which the removal must not touch.
        let mut chain = p.chain;
        let (mut id, mut sid) = (BodyId::default(), ShapeId::default());
        let (material, filter) = (Material::default(), Filter::DEFAULT);
        let mut result = core::mem::MaybeUninit::<MoveResult>::zeroed();
        let opts = MoveOptions::default();
        let qf = WorldQueryFilter {
            mask: u64::MAX,
            ignore: core::ptr::null(),
            ignore_count: 0,
            sensors: 0,
        };
        let push = MoverPush::default();
        let joint_def = JointDef::new(JointKind::Filter, b, b);
        let mut joint = JointId::default();
        // SAFETY: every pointer is to a live local; the world is live (see above).
        let calls: Vec<(&'static str, Status)> = unsafe {
            vec![
                ("c2d_world_add_body", c2d_world_add_body(w, &def, &mut id)),
                (
                    "c2d_world_add_chain",
                    c2d_world_add_chain(w, &chain_def, &mut chain),
                ),
                ("c2d_world_remove_chain", c2d_world_remove_chain(w, chain)),
                ("c2d_world_add_shape", c2d_world_add_shape(w, b, &boxed, &mut sid)),
                (
                    "c2d_world_add_shape_def",
                    c2d_world_add_shape_def(w, b, &shape_def, &mut sid),
                ),
                (
                    "c2d_world_set_shape_material",
                    c2d_world_set_shape_material(w, s, &material),
                ),
                (
                    "c2d_world_set_shape_filter",
                    c2d_world_set_shape_filter(w, s, &filter),
                ),
                (
                    "c2d_world_set_shape_sensor",
                    c2d_world_set_shape_sensor(w, s, false),
                ),
                (
                    "c2d_world_set_shape_user_data",
                    c2d_world_set_shape_user_data(w, s, 1),
                ),
                ("c2d_world_remove_shape", c2d_world_remove_shape(w, s)),
                ("c2d_world_remove_body", c2d_world_remove_body(w, b)),
                ("c2d_world_step", c2d_world_step(w, 1.0 / 60.0, 4)),
                (
                    "c2d_world_set_recycle_distance",
                    c2d_world_set_recycle_distance(w, 0.0),
                ),
                ("c2d_world_set_velocity", c2d_world_set_velocity(w, b, &v, 0.0)),
                ("c2d_world_set_transform", c2d_world_set_transform(w, b, &xf)),
                ("c2d_world_reserve", c2d_world_reserve(w, 1, 1, 1)),
                // Bytes that are no snapshot: the lock refuses the call before reading them.
                ("c2d_world_restore", c2d_world_restore(w, pts.as_ptr().cast(), 16)),
                (
                    "c2d_world_add_joint",
                    c2d_world_add_joint(w, &joint_def, &mut joint),
                ),
                ("c2d_world_remove_joint", c2d_world_remove_joint(w, joint)),
                (
                    "c2d_world_set_joint_enabled",
                    c2d_world_set_joint_enabled(w, joint, false),
                ),
                (
                    "c2d_world_set_joint_frames",
                    c2d_world_set_joint_frames(w, joint, &xf, &xf),
                ),
                (
                    "c2d_world_set_joint_kind",
                    c2d_world_set_joint_kind(w, joint, &joint_def.kind),
                ),
                (
                    "c2d_world_set_joint_thresholds",
                    c2d_world_set_joint_thresholds(w, joint, 1.0, 1.0),
                ),
                (
                    "c2d_world_move_and_push",
                    c2d_world_move_and_push(w, &boxed, &xf, v, v, &opts, &qf, &push, result.as_mut_ptr()),
                ),
                ("c2d_world_set_awake", c2d_world_set_awake(w, b, true)),
                (
                    "c2d_world_set_sleep_enabled",
                    c2d_world_set_sleep_enabled(w, true),
                ),
                (
                    "c2d_world_set_body_sleep_enabled",
                    c2d_world_set_body_sleep_enabled(w, b, true),
                ),
                (
                    "c2d_world_set_continuous_enabled",
                    c2d_world_set_continuous_enabled(w, true),
                ),
                (
                    "c2d_world_set_internal_edge_removal",
                    c2d_world_set_internal_edge_removal(w, true),
                ),
                ("c2d_world_set_bullet", c2d_world_set_bullet(w, b, true)),
                (
                    "c2d_world_apply_force",
                    c2d_world_apply_force(w, b, &v, core::ptr::null()),
                ),
                ("c2d_world_apply_torque", c2d_world_apply_torque(w, b, 1.0)),
                (
                    "c2d_world_apply_linear_impulse",
                    c2d_world_apply_linear_impulse(w, b, &v, &v),
                ),
                (
                    "c2d_world_apply_angular_impulse",
                    c2d_world_apply_angular_impulse(w, b, 0.1),
                ),
                ("c2d_world_set_damping", c2d_world_set_damping(w, b, 0.1, 0.1)),
                (
                    "c2d_world_set_gravity_scale",
                    c2d_world_set_gravity_scale(w, b, 2.0),
                ),
                (
                    "c2d_world_set_fixed_rotation",
                    c2d_world_set_fixed_rotation(w, b, true),
                ),
                ("c2d_world_set_filter", c2d_world_set_filter(w, b, &filter)),
                (
                    "c2d_world_set_profile_clock",
                    c2d_world_set_profile_clock(w, None),
                ),
                ("c2d_world_set_gravity", c2d_world_set_gravity(w, &v)),
            ]
        };
        // SAFETY: as above; the hooks are never called (every call is refused).
        let more = unsafe {
            [
                ("c2d_world_destroy", c2d_world_destroy(w)),
                (
                    "c2d_world_set_custom_filter",
                    c2d_world_set_custom_filter(w, Some(refuse_all), core::ptr::null_mut()),
                ),
                (
                    "c2d_world_set_pre_solve",
                    c2d_world_set_pre_solve(w, Some(solve_none), core::ptr::null_mut()),
                ),
            ]
        };
        p.calls.extend(calls);
        p.calls.extend(more);
        // Reading works from every callback.
        let (mut count, mut body, mut gravity, mut owner) = (
            0u32,
            Body::new_static(Transform::IDENTITY),
            Vec2::ZERO,
            BodyId::default(),
        );
        let mut awake = false;
        // SAFETY: as above.
        let reads = unsafe {
            [
                ("c2d_world_body_count", c2d_world_body_count(w, &mut count)),
                ("c2d_world_get_body", c2d_world_get_body(w, b, &mut body)),
                ("c2d_world_get_gravity", c2d_world_get_gravity(w, &mut gravity)),
                ("c2d_world_is_awake", c2d_world_is_awake(w, b, &mut awake)),
                ("c2d_world_shape_body", c2d_world_shape_body(w, s, &mut owner)),
                ("c2d_world_validate", c2d_world_validate(w)),
            ]
        };
        p.reads.extend(reads);
        p.read_body = Some(body);
        assert!(c2d_world_is_valid(w));
    }

    /// A chain far below everything, added to `w`.
    ///
    /// # Safety
    /// `w` live and unlocked.
    unsafe fn add_chain(w: WorldId) -> ChainId {
        let pts = [Vec2::new(-3.0, -20.0), Vec2::new(3.0, -20.0)];
        // SAFETY: writable and readable locals; the caller's world.
        unsafe {
            let mut def: CChainDef = core::mem::zeroed();
            assert_eq!(c2d_chain_def_default(&mut def), Status::Ok);
            def.points = pts.as_ptr();
            def.count = 2;
            let mut chain = ChainId::default();
            assert_eq!(c2d_world_add_chain(w, &def, &mut chain), Status::Ok);
            chain
        }
    }

    unsafe extern "C" fn refuse_all(_: ShapeId, _: ShapeId, _: *mut c_void) -> bool {
        false
    }

    unsafe extern "C" fn solve_none(_: ShapeId, _: ShapeId, _: *const Manifold, _: *mut c_void) -> bool {
        false
    }

    /// The custom filter of the hook test: probes once, then lets every pair collide.
    unsafe extern "C" fn filter_probe(_: ShapeId, _: ShapeId, context: *mut c_void) -> bool {
        // SAFETY: the test passes a `Probe`.
        let p = unsafe { &mut *(context as *mut Probe) };
        if p.calls.is_empty() {
            // SAFETY: the probe's world is live.
            unsafe { change_everything(p) };
        }
        true
    }

    /// The pre-solve hook of the hook test: probes once, then solves every contact.
    unsafe extern "C" fn pre_solve_probe(
        _: ShapeId,
        _: ShapeId,
        m: *const Manifold,
        context: *mut c_void,
    ) -> bool {
        // SAFETY: the test passes a `Probe`; the manifold is live during the call.
        let (p, m) = unsafe { (&mut *(context as *mut Probe), &*m) };
        assert!(m.count > 0 && (m.normal.length() - 1.0).abs() < 1e-5);
        if p.calls.is_empty() {
            // SAFETY: the probe's world is live.
            unsafe { change_everything(p) };
        }
        true
    }

    unsafe extern "C" fn on_body(_: BodyId, context: *mut c_void) -> bool {
        // SAFETY: the test passes a `Probe`.
        unsafe { change_everything(&mut *(context as *mut Probe)) };
        false
    }

    unsafe extern "C" fn on_hit(_: *const WorldRayHit, context: *mut c_void) -> f32 {
        // SAFETY: the test passes a `Probe`.
        let p = unsafe { &mut *(context as *mut Probe) };
        if p.calls.is_empty() {
            // SAFETY: the probe's world is live.
            unsafe { change_everything(p) };
        }
        0.0
    }

    unsafe extern "C" fn on_polygon(
        _: Transform,
        _: *const Vec2,
        _: i32,
        _: f32,
        _: u32,
        context: *mut c_void,
    ) {
        // SAFETY: the test passes a `Probe`.
        let p = unsafe { &mut *(context as *mut Probe) };
        if p.calls.is_empty() {
            // SAFETY: the probe's world is live.
            unsafe { change_everything(p) };
        }
    }

    /// The functions that only read a world (they work inside its callbacks).
    const READING: [&str; 37] = [
        "c2d_world_awake_body_count",
        "c2d_world_begin_events",
        "c2d_world_body_count",
        "c2d_world_body_ids",
        "c2d_world_body_joints",
        "c2d_world_body_shapes",
        "c2d_world_cast_shape",
        "c2d_world_chain_body",
        "c2d_world_clone",
        "c2d_world_contacts",
        "c2d_world_counts",
        "c2d_world_draw",
        "c2d_world_end_events",
        "c2d_world_fault_events",
        "c2d_world_get_body",
        "c2d_world_get_gravity",
        "c2d_world_get_joint_def",
        "c2d_world_get_shape_def",
        "c2d_world_is_awake",
        "c2d_world_joint_count",
        "c2d_world_joint_enabled",
        "c2d_world_joint_events",
        "c2d_world_joint_reaction",
        "c2d_world_move_and_slide",
        "c2d_world_overlap_shape",
        "c2d_world_profile",
        "c2d_world_query_aabb",
        "c2d_world_ray_cast",
        "c2d_world_ray_cast_all",
        "c2d_world_ray_cast_filtered",
        "c2d_world_sensor_begin_events",
        "c2d_world_sensor_end_events",
        "c2d_world_shape_body",
        "c2d_world_snapshot",
        "c2d_world_snapshot_size",
        "c2d_world_user_data",
        "c2d_world_validate",
    ];

    /// The functions that change a world: every function of include/collide2d.h whose first
    /// parameter is a world id, except the reading ones.
    fn header_changing_entry_points() -> std::collections::BTreeSet<String> {
        let header = std::fs::read_to_string(root().join("include/collide2d.h")).unwrap();
        let taking_a_world: std::collections::BTreeSet<String> = header
            .lines()
            .filter_map(|l| l.strip_prefix("c2d_Status "))
            .filter(|l| l.contains("(struct c2d_WorldId world"))
            .map(|l| l.split('(').next().unwrap().to_string())
            .collect();
        for name in READING {
            assert!(taking_a_world.contains(name), "{name} is not in the header");
        }
        taking_a_world
            .into_iter()
            .filter(|n| !READING.contains(&n.as_str()))
            .collect()
    }

    /// Checks what a probe saw: every changing call refused, every reading one answered.
    fn check_probe(p: &Probe, from: &str) {
        let named: std::collections::BTreeSet<String> = p.calls.iter().map(|c| c.0.to_string()).collect();
        assert_eq!(named, header_changing_entry_points(), "{from}");
        for (name, s) in &p.calls {
            assert_eq!(*s, Status::Locked, "{name} from {from}");
        }
        for (name, s) in &p.reads {
            assert_eq!(*s, Status::Ok, "{name} from {from}");
        }
        assert_eq!(p.reads.len(), 6, "{from}");
    }

    /// Every function that changes a world returns `C2D_STATUS_LOCKED` from inside a query,
    /// ray-cast and draw callback of that world (and changes nothing; destroying it there is
    /// refused too), and reading works there; after the calls return, the world takes changes
    /// again.
    #[test]
    fn changing_a_world_from_its_callbacks_is_refused() {
        let mut w = WorldId::default();
        // SAFETY: a world made, used and freed here; every pointer is to a live local.
        unsafe {
            assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok);
            let def = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, Shape::rect(0.5, 0.5));
            let mut body = BodyId::default();
            assert_eq!(c2d_world_add_body(w, &def, &mut body), Status::Ok);
            let chain = add_chain(w);
            let before = world_of(w).unwrap().body(body).copied().unwrap();
            let mut probe = Probe {
                world: w,
                body,
                chain,
                calls: Vec::new(),
                reads: Vec::new(),
                read_body: None,
            };
            let ctx = &mut probe as *mut Probe as *mut c_void;
            let all = Aabb::new(Vec2::new(-10.0, -10.0), Vec2::new(10.0, 10.0));
            assert_eq!(c2d_world_query_aabb(w, &all, Some(on_body), ctx), Status::Ok);
            check_probe(&probe, "a query");
            assert_eq!(probe.read_body, Some(before));
            assert_eq!(world_of(w).unwrap().body_count(), 2);
            assert_eq!(
                *world_of(w).unwrap().body(body).unwrap(),
                before,
                "nothing changed"
            );
            probe.calls.clear();
            let (o, t) = (Vec2::new(-5.0, 0.0), Vec2::new(10.0, 0.0));
            let qf = WorldQueryFilter {
                mask: u64::MAX,
                ignore: core::ptr::null(),
                ignore_count: 0,
                sensors: 0,
            };
            probe.reads.clear();
            assert_eq!(
                c2d_world_ray_cast_all(w, &o, &t, &qf, Some(on_hit), ctx),
                Status::Ok
            );
            check_probe(&probe, "a ray cast");
            probe.calls.clear();
            probe.reads.clear();
            let mut table: DebugDrawFcns = core::mem::zeroed();
            table.draw_solid_polygon = Some(on_polygon);
            table.draw_shapes = true;
            table.context = ctx;
            assert_eq!(c2d_world_draw(w, &table), Status::Ok);
            check_probe(&probe, "a draw call");
            assert_eq!(world_of(w).unwrap().body_count(), 2);
            // Unlocked once the calls return.
            assert_eq!(c2d_world_remove_body(w, body), Status::Ok);
            assert_eq!(c2d_world_destroy(w), Status::Ok);
        }
    }

    /// The same from the step's hooks: the custom filter (asked when a box first nears the
    /// ground) and the pre-solve hook (once it touches). Reads there see the world before
    /// the step moves it; the step goes on, and nothing the hooks asked for happened.
    #[test]
    fn changing_a_world_from_its_hooks_is_refused() {
        for pre_solve in [false, true] {
            let mut w = WorldId::default();
            // SAFETY: a world made, used and destroyed here; every pointer is to a live local.
            unsafe {
                assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok);
                let ground = BodyDef::new(BodyKind::Static, Transform::IDENTITY, Shape::rect(5.0, 0.5));
                let mut g = BodyId::default();
                assert_eq!(c2d_world_add_body(w, &ground, &mut g), Status::Ok);
                let at = Transform::from_translation(Vec2::new(0.0, 1.0));
                let def = BodyDef::new(BodyKind::Dynamic, at, Shape::rect(0.5, 0.5));
                let mut body = BodyId::default();
                assert_eq!(c2d_world_add_body(w, &def, &mut body), Status::Ok);
                let chain = add_chain(w);
                let mut probe = Probe {
                    world: w,
                    body,
                    chain,
                    calls: Vec::new(),
                    reads: Vec::new(),
                    read_body: None,
                };
                let ctx = &mut probe as *mut Probe as *mut c_void;
                if pre_solve {
                    assert_eq!(c2d_world_set_pre_solve(w, Some(pre_solve_probe), ctx), Status::Ok);
                } else {
                    assert_eq!(
                        c2d_world_set_custom_filter(w, Some(filter_probe), ctx),
                        Status::Ok
                    );
                }
                for _ in 0..30 {
                    assert_eq!(c2d_world_step(w, 1.0 / 60.0, 4), Status::Ok);
                }
                let from = if pre_solve { "pre-solve" } else { "custom filter" };
                check_probe(&probe, from);
                let world = world_of(w).unwrap();
                assert_eq!(world.body_count(), 3, "{from}");
                // The box rests on the ground: the hooks let it collide and nothing changed it.
                let y = world.position(body).unwrap().y;
                assert!((y - 1.0).abs() < 0.02, "{from}: {y}");
                assert_eq!(world.gravity(), Vec2::new(0.0, -10.0));
                assert_eq!(c2d_world_destroy(w), Status::Ok);
            }
        }
    }
}

/// `c_examples/rollback.c`: two peers hear each other's inputs 8 frames late, predict, and
/// roll back with `c2d_world_snapshot` / `c2d_world_restore` when a guess was wrong; after
/// 240 frames both hash the same as a run that knew every input at once.
#[test]
fn c_rollback_peers_end_where_a_run_without_delay_ends() {
    let printed = build_and_run("rollback.c", "cc", "-std=c11");
    let hash = |prefix: &str| {
        printed
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no line {prefix} in {printed}"))
            .to_string()
    };
    let reference = hash("no delay: ");
    assert_eq!(hash("peer 0: "), reference, "{printed}");
    assert_eq!(hash("peer 1: "), reference, "{printed}");
    let counts: Vec<u32> = hash("rollbacks ")
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .collect();
    assert!(counts.len() == 4 && counts.iter().all(|&n| n > 10), "{printed}");
}

/// `c_examples/joints.c`: the layout of the hand-declared `c2d_JointDef` and `c2d_JointKind`
/// (C's `offsetof` against Rust's), and a pendulum, a motorised slider, a motor-joint drag
/// and a weld that breaks, line by line against the same scene through the Rust API; bad
/// definitions refused with their statuses.
#[test]
fn c_joints_print_what_rust_computes() {
    use core::mem::{offset_of, size_of};
    let printed = build_and_run("joints.c", "cc", "-std=c11");
    let mut want = format!(
        "layout {} {} {} {} {} {} {} {} 4\n",
        size_of::<JointDef>(),
        size_of::<JointKind>(),
        offset_of!(JointDef, body_a),
        offset_of!(JointDef, local_frame_a),
        offset_of!(JointDef, force_threshold),
        offset_of!(JointDef, constraint_hertz),
        offset_of!(JointDef, user_data),
        offset_of!(JointDef, collide_connected),
    );
    let mut w = World::default();
    let (pin, bob, block) = (Shape::circle(0.05), Shape::circle(0.1), Shape::rect(0.2, 0.2));
    let add = |w: &mut World, kind, x: f32, y: f32, s: &Shape| {
        w.add_body(&BodyDef::new(
            kind,
            Transform::from_translation(Vec2::new(x, y)),
            *s,
        ))
        .unwrap()
    };
    let top = add(&mut w, BodyKind::Static, 0.0, 5.0, &pin);
    let at = Vec2::new(0.6, 5.0 - 0.8);
    let ball = add(&mut w, BodyKind::Dynamic, at.x, at.y, &bob);
    let def = JointDef::new(JointKind::Revolute(RevoluteJoint::default()), top, ball).at_world_anchor(
        Vec2::new(0.0, 5.0),
        Transform::from_translation(Vec2::new(0.0, 5.0)),
        Transform::from_translation(at),
    );
    let hinge = w.add_joint(&def).unwrap();
    let base = add(&mut w, BodyKind::Static, 5.0, 0.0, &pin);
    let slider = add(&mut w, BodyKind::Dynamic, 5.0, 0.0, &block);
    let kind = JointKind::Prismatic(PrismaticJoint {
        enable_motor: true,
        max_motor_force: 50.0,
        motor_speed: 1.0,
        enable_limit: true,
        lower_translation: 0.0,
        upper_translation: 0.5,
        ..PrismaticJoint::default()
    });
    w.add_joint(&JointDef::new(kind, base, slider)).unwrap();
    let ground = add(&mut w, BodyKind::Static, 10.0, 3.0, &pin);
    let dragged = add(&mut w, BodyKind::Dynamic, 12.0, 3.0, &block);
    let kind = JointKind::Motor(MotorJoint {
        linear_hertz: 4.0,
        linear_damping_ratio: 1.0,
        max_spring_force: 100.0,
        ..MotorJoint::default()
    });
    w.add_joint(&JointDef::new(kind, ground, dragged)).unwrap();
    let hook = add(&mut w, BodyKind::Static, -5.0, 5.0, &pin);
    let hanging = add(&mut w, BodyKind::Dynamic, -5.0, 4.5, &block);
    let mut def = JointDef::new(JointKind::Weld(WeldJoint::default()), hook, hanging);
    def.force_threshold = 1.0;
    def.user_data = 42;
    let weld = w.add_joint(&def).unwrap();
    let st = |s: Status| s as u32;
    want += &format!(
        "revolute: status 0\nprismatic: status 0\nmotor: status 0\nweld: status 0\n\
         tag 9: status {}\nbool 2: status {}\nlimits: status {}\n",
        st(Status::InvalidInput),
        st(Status::InvalidInput),
        st(Status::OutOfRange)
    );
    let mut broke = 0;
    for i in 0..90 {
        w.step(1.0 / 60.0, 4).unwrap();
        for e in w.joint_events() {
            want += &format!(
                "step {i}: joint {} event {} user {}\n",
                e.joint.index, e.kind as u32, e.user_data
            );
            broke += 1;
        }
    }
    for (k, id) in [ball, slider, dragged, hanging].into_iter().enumerate() {
        let p = w.transform(id).unwrap().p;
        want += &format!("body {k}: {:.6} {:.6}\n", p.x, p.y);
    }
    let (f, _) = w.joint_reaction(hinge).unwrap();
    want += &format!("hinge force {:.6} {:.6}\n", f.x, f.y);
    want += &format!(
        "weld enabled {}, joints {}, broke {broke}\n",
        i32::from(w.joint_enabled(weld).unwrap()),
        w.joint_count()
    );
    want += &format!("joints on the pin {}\n", w.joint_ids(top).unwrap().count());
    want += &format!("remove: status 0, again: status {}\n", st(Status::InvalidJoint));
    assert_eq!(printed, want);
    assert_eq!(broke, 1, "the weld breaks once");
}

/// The drawing table's flags are C `bool`s read as bytes first: 2 in one is refused with
/// `C2D_STATUS_INVALID_INPUT` by every drawing call, never read as a Rust `bool`.
#[test]
fn a_drawing_table_with_a_flag_that_is_not_a_bool_is_refused() {
    // The table as C would hold it: bytes (a Rust `DebugDrawFcns` may never hold a 2).
    let mut table = core::mem::MaybeUninit::<DebugDrawFcns>::zeroed();
    let shape = Shape::circle(1.0);
    let xf = Transform::IDENTITY;
    // SAFETY: a zeroed table (no callbacks, flags false), a live shape and transform.
    assert_eq!(
        unsafe { c2d_draw_shape(table.as_ptr(), &shape, &xf, 0) },
        Status::Ok
    );
    let at = core::mem::offset_of!(DebugDrawFcns, draw_joints);
    // SAFETY: writes one byte inside the table's memory.
    unsafe { *(table.as_mut_ptr() as *mut u8).add(at) = 2 };
    // SAFETY: the table is passed by pointer and read as bytes first.
    assert_eq!(
        unsafe { c2d_draw_shape(table.as_ptr(), &shape, &xf, 0) },
        Status::InvalidInput
    );
    let mut w = WorldId::default();
    // SAFETY: a world made and freed here.
    unsafe {
        assert_eq!(c2d_world_create(core::ptr::null(), &mut w), Status::Ok);
        assert_eq!(c2d_world_draw(w, table.as_ptr()), Status::InvalidInput);
        assert_eq!(c2d_world_destroy(w), Status::Ok);
    }
}

/// `c_examples/controller.c`: landings on two open chains laid end to end and on a chain loop,
/// and the character mover's one-way platform, fast slide along a chain room, push-out in one
/// call and support in a steep V, each line checked against the same scene through the Rust
/// API, and the figures against the README's bounds (flat landing: spin, hop and sideways
/// speed at most 0.01; a jump gains at most the skin from the platform, is never on ground
/// inside it and lands on it; the slide keeps the commanded motion along the wall within 1 %;
/// one call leaves the mover at least a quarter of the skin clear; the ball in the V is
/// supported and not on ground).
#[test]
fn c_controller_prints_what_rust_computes() {
    let printed = build_and_run("controller.c", "cc", "-std=c11");
    let dt = 1.0f32 / 60.0;
    let v = Vec2::new;
    let skin = MoveOptions::default().skin;
    let mut want = String::new();

    // Landings.
    let drop = |w: &mut World, name: &str, shape: Shape, q: Rot, lowest: f32, speed: f32| -> String {
        let xf = Transform {
            p: v(0.0, 0.05 - lowest),
            q,
        };
        let mut def = BodyDef::new(BodyKind::Dynamic, xf, shape);
        def.linear_velocity = v(0.0, -speed);
        let id = w.add_body(&def).unwrap();
        let (mut spin, mut hop, mut side) = (0.0f32, 0.0f32, 0.0f32);
        for _ in 0..90 {
            w.step(dt, 4).unwrap();
            let b = w.body(id).unwrap();
            spin = spin.max(b.angular_velocity.abs());
            hop = hop.max(b.linear_velocity.y);
            side = side.max(b.linear_velocity.x.abs());
        }
        let lowest = shape.aabb(w.body(id).unwrap().transform).min.y;
        assert!(
            spin <= 0.01 && hop <= 0.01 && side <= 0.01 && lowest.abs() < 0.02,
            "{name}: spin {spin} hop {hop} side {side} lowest {lowest}"
        );
        format!("{name} spin {spin:.6} hop {hop:.6} side {side:.6} lowest {lowest:.4}\n")
    };
    let mut w = World::default();
    for points in [[v(0.0, 0.0), v(-10.0, 0.0)], [v(10.0, 0.0), v(0.0, 0.0)]] {
        w.add_chain(&ChainDef::new(&Chain::open(&points).unwrap()))
            .unwrap();
    }
    let (c05, s05) = (0.99875027f32, 0.04997917f32);
    want += &drop(
        &mut w,
        "box across two chains",
        Shape::Polygon(Polygon::make_box(0.25, 0.25).unwrap()),
        Rot { c: c05, s: s05 },
        -0.25 * (c05 + s05),
        5.0,
    );
    let mut w = World::default();
    let block = [v(-10.0, -1.0), v(10.0, -1.0), v(10.0, 0.0), v(-10.0, 0.0)];
    w.add_chain(&ChainDef::new(&Chain::closed(&block).unwrap()))
        .unwrap();
    let (c1, s1) = (0.9950042f32, 0.09983342f32);
    want += &drop(
        &mut w,
        "capsule on a chain loop",
        Shape::Capsule(Capsule::new(v(-0.15, 0.0), v(0.15, 0.0), 0.1).unwrap()),
        Rot { c: c1, s: s1 },
        -(0.15 * s1 + 0.1),
        10.0,
    );

    // Standing weight: one frame of an 80 kg character on a floating 0.4 kg plank.
    let mut w = World::default();
    let plank = Shape::Polygon(Polygon::make_box(1.0, 0.1).unwrap());
    let mut def = BodyDef::new(BodyKind::Dynamic, Transform::IDENTITY, plank);
    def.gravity_scale = 0.0;
    let plank_id = w.add_body(&def).unwrap();
    let feet = Shape::Polygon(Polygon::make_box(0.3, 0.3).unwrap());
    let weigh = MoveOptions {
        time_step: dt,
        ..MoveOptions::default()
    };
    let push = MoverPush::default();
    let standing = w
        .move_and_push(
            &feet,
            Transform::from_translation(v(0.0, 0.1 + 0.3 + 0.01)),
            v(0.0, -9.8 * dt * dt),
            v(0.0, -9.8 * dt),
            &weigh,
            &QueryFilter::ALL,
            &push,
        )
        .unwrap();
    w.step(dt, 4).unwrap();
    let pressed = w.body(plank_id).unwrap().linear_velocity.y;
    // Hand-derived: the weight's impulse m g dt over the plank's mass (2 × 0.2 × density 1).
    let expected = push.mass * w.settings().gravity.y * dt / 0.4;
    assert!(
        standing.on_ground && (pressed - expected).abs() <= 1e-4 * expected.abs(),
        "pressed {pressed}, expected {expected}"
    );
    want += &format!(
        "standing {} presses the plank to {pressed:.5} m/s\n",
        standing.on_ground as i32
    );

    // The one-way platform.
    let floor = Shape::Polygon(Polygon::make_box(10.0, 0.5).unwrap());
    let platform = Shape::ChainSegment(ChainSegment::lone(v(2.0, 3.6), v(-2.0, 3.6)).unwrap());
    let hero = Shape::Capsule(Capsule::new(v(0.0, -0.3), v(0.0, 0.3), 0.3).unwrap());
    let level = [
        Obstacle::fixed(&floor, Transform::from_translation(v(0.0, -0.5)), 1),
        Obstacle::fixed(&platform, Transform::IDENTITY, 2),
    ];
    let opts = MoveOptions::default();
    let (mut p, mut vel) = (v(0.0, 0.61), v(0.0, 10.0));
    let (mut boost, mut ground_inside) = (0.0f32, 0);
    let mut r = MoveResult::default();
    for _ in 0..120 {
        vel.y -= 9.8 * dt;
        let t = vel * dt;
        r = move_and_slide(&level[..], &hero, Transform::from_translation(p), t, vel, &opts);
        boost = boost.max((r.position.y - p.y) - t.y);
        if r.on_ground && r.position.y - 0.6 < 3.6 - 1e-3 && r.position.y > 1.0 {
            ground_inside += 1;
        }
        (p, vel) = (r.position, r.velocity);
    }
    assert!(
        boost <= skin + 1e-4 && ground_inside == 0,
        "boost {boost}, {ground_inside} frames"
    );
    assert!(
        r.on_ground && p.y >= 4.2 + 0.25 * skin && p.y <= 4.2 + 2.0 * skin,
        "{r:?}"
    );
    want += &format!(
        "jump boost {boost:.5} ground inside {ground_inside} landed {} at {:.4}\n",
        r.on_ground as i32, p.y
    );

    // The fast slide along a clockwise room's wall, top-down.
    let room = [v(-10.0, -10.0), v(-10.0, 10.0), v(10.0, 10.0), v(10.0, -10.0)];
    let walls: Vec<Shape> = (0..4)
        .map(|i| Shape::ChainSegment(ChainSegment::from_polyline(&room, true, i).unwrap()))
        .collect();
    let obstacles: Vec<Obstacle<'_>> = walls
        .iter()
        .enumerate()
        .map(|(i, s)| Obstacle::fixed(s, Transform::IDENTITY, 10 + i as u64))
        .collect();
    let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.25).unwrap());
    let top = MoveOptions {
        up: Vec2::ZERO,
        ..MoveOptions::default()
    };
    let (c71, s71) = (0.32556814f32, 0.94551855f32);
    let drive = v(-s71 * 200.0 * dt, c71 * 200.0 * dt);
    let start = v(-10.0 + 0.25 + 0.01, -2.0);
    let r = move_and_slide(
        &obstacles[..],
        &ball,
        Transform::from_translation(start),
        drive,
        v(drive.x * 60.0, drive.y * 60.0),
        &top,
    );
    let slid = r.position.y - start.y;
    assert!(
        (slid - drive.y).abs() <= 0.01 * drive.y,
        "slid {slid} of {}",
        drive.y
    );
    want += &format!("slide {slid:.4} of {:.4}, x {:.4}\n", drive.y, r.position.x);

    // Push-out from both arms of a 30° V in one call.
    let (c15, s15) = (0.9659258f32, 0.25881904f32);
    let upper = Shape::Capsule(Capsule::new(Vec2::ZERO, v(-20.0 * c15, 20.0 * s15), 0.0).unwrap());
    let lower = Shape::Capsule(Capsule::new(Vec2::ZERO, v(-20.0 * c15, -20.0 * s15), 0.0).unwrap());
    let tall = Shape::Polygon(Polygon::make_box(0.3, 0.5).unwrap());
    let v_corner = [
        Obstacle::fixed(&upper, Transform::IDENTITY, 21),
        Obstacle::fixed(&lower, Transform::IDENTITY, 22),
    ];
    let wedge = v(-0.5 * c15 / s15 - 0.3 + 0.05, 0.0);
    let r = move_and_slide(
        &v_corner[..],
        &tall,
        Transform::from_translation(wedge),
        Vec2::ZERO,
        Vec2::ZERO,
        &opts,
    );
    let mut clearance = 1.0f32;
    collide_mover(
        &v_corner[..],
        &tall,
        Transform::from_translation(r.position),
        0.05,
        |pl| {
            clearance = clearance.min(-pl.plane.offset);
            true
        },
    );
    // Independently (f64): every corner of the box on the inside of both arms' lines, at least
    // a quarter of the skin from each (the arms run 20 from the apex, far past the box).
    let (c, s) = (c15 as f64, s15 as f64);
    for (nx, ny) in [(-s, -c), (-s, c)] {
        for (dx, dy) in [(0.3, 0.5), (-0.3, 0.5), (0.3, -0.5), (-0.3, -0.5)] {
            let d = nx * (r.position.x as f64 + dx) + ny * (r.position.y as f64 + dy);
            assert!(
                d >= 0.25 * skin as f64,
                "pushed out to {:?}: a corner {d} from an arm",
                r.position
            );
        }
    }
    want += &format!(
        "pushed out to {:.4} {:.4}, clearance {clearance:.5}\n",
        r.position.x, r.position.y
    );

    // Wedged in a steep V: supported, not on ground.
    let (c65, s65) = (0.42261827f32, 0.9063078f32);
    let arm_l = Shape::Capsule(Capsule::new(Vec2::ZERO, v(-3.0 * c65, 3.0 * s65), 0.0).unwrap());
    let arm_r = Shape::Capsule(Capsule::new(Vec2::ZERO, v(3.0 * c65, 3.0 * s65), 0.0).unwrap());
    let pebble = Shape::Circle(Circle::new(Vec2::ZERO, 0.3).unwrap());
    let steep = [
        Obstacle::fixed(&arm_l, Transform::IDENTITY, 31),
        Obstacle::fixed(&arm_r, Transform::IDENTITY, 32),
    ];
    let (mut p, mut vel) = (v(0.0, 1.5), Vec2::ZERO);
    let mut r = MoveResult::default();
    for _ in 0..120 {
        vel.y -= 9.8 * dt;
        r = move_and_slide(
            &steep[..],
            &pebble,
            Transform::from_translation(p),
            vel * dt,
            vel,
            &opts,
        );
        (p, vel) = (r.position, r.velocity);
    }
    assert!(r.supported && !r.on_ground && r.contact_count >= 2, "{r:?}");
    want += &format!(
        "wedged at {:.4} {:.4} on ground {} supported {} contacts {}\n",
        p.x, p.y, r.on_ground as i32, r.supported as i32, r.contact_count
    );
    assert_eq!(printed, want);
}
