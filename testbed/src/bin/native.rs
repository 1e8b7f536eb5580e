//! The testbed natively: `testbed-native QUERY…` loads each query as the page does and prints
//! one line per query, `QUERY RESULT_BITS…` (each result as 8 hexadecimal digits of its `f32`
//! bits), the line `scripts/testbed_check.sh` compares with what the page writes into its DOM.
//! `testbed-native --time QUERY…` prints the milliseconds each query takes instead.
use collide2d_testbed::Testbed;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--time QUERY…`: milliseconds each query takes to load and run its script (best of 3).
    if args.first().map(String::as_str) == Some("--time") {
        args.remove(0);
        for query in &args {
            let best = (0..3)
                .map(|_| {
                    let t = std::time::Instant::now();
                    let tb = Testbed::load(query);
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    drop(tb);
                    ms
                })
                .fold(f64::INFINITY, f64::min);
            println!("{query} {best:.3}");
        }
        return;
    }
    // `--render QUERY…`: milliseconds to draw each query's scene into a 1100 × 700 buffer
    // fitted to its view (median of 21).
    if args.first().map(String::as_str) == Some("--render") {
        args.remove(0);
        for query in &args {
            let mut tb = Testbed::load(query);
            let v = *tb.view();
            let (w, h) = (1100u32, 700u32);
            let scale = 0.96 * (w as f32 / (v[2] - v[0])).min(h as f32 / (v[3] - v[1]));
            let camera = collide2d_testbed::raster::Camera {
                origin_x: w as f32 / 2.0 - scale * (v[0] + v[2]) / 2.0,
                origin_y: h as f32 / 2.0 + scale * (v[1] + v[3]) / 2.0,
                scale,
                dpr: 1.0,
            };
            let mut ms: Vec<f64> = (0..21)
                .map(|_| {
                    let t = std::time::Instant::now();
                    let _ = tb.render_pixels(w, h, camera);
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            println!("{query} {:.3}", ms[10]);
        }
        return;
    }
    for query in args {
        let mut tb = Testbed::load(&query);
        let bits: Vec<String> = tb
            .results()
            .iter()
            .map(|v| format!("{:08x}", v.to_bits()))
            .collect();
        println!("{} {}", query, bits.join(" "));
    }
}
