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
