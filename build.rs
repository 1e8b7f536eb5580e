//! Build script. With the `capi` feature it generates the C header with cbindgen into
//! `$OUT_DIR/collide2d.h`; the committed copy lives in `include/collide2d.h` and a test fails
//! when the two differ. Without the feature nothing is generated and cbindgen is not built.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src");
    #[cfg(feature = "capi")]
    generate_header();
}

#[cfg(feature = "capi")]
fn generate_header() {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let config =
        cbindgen::Config::from_file(format!("{crate_dir}/cbindgen.toml")).expect("cbindgen.toml is valid");
    cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("the C ABI is expressible in C")
        .write_to_file(format!("{out_dir}/collide2d.h"));
}
