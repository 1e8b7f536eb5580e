//! Build script. With the `header` feature it generates the C header with cbindgen into
//! `$OUT_DIR/collide2d.h`; the committed copy lives in `include/collide2d.h` and a test fails
//! when the two differ. Without it nothing is generated and cbindgen is not built: building
//! the C ABI (feature `capi`) or the C library needs no build-time dependency.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src");
    #[cfg(feature = "header")]
    generate_header();
}

#[cfg(feature = "header")]
fn generate_header() {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let config =
        cbindgen::Config::from_file(format!("{crate_dir}/cbindgen.toml")).expect("cbindgen.toml is valid");
    let mut raw = Vec::new();
    cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("the C ABI is expressible in C")
        .write(&mut raw);
    let text = String::from_utf8(raw).expect("cbindgen writes UTF-8");
    std::fs::write(format!("{out_dir}/collide2d.h"), header::polish(&text)).expect("OUT_DIR is writable");
}

/// Turns cbindgen's output into the header C and C++ users see: one prefix style for macros
/// (`C2D_`), no compound-literal constants (they are not C++; the header's trailer has inline
/// functions instead), no Rust link syntax in comments, and the version macros.
#[cfg(feature = "header")]
mod header {
    use std::collections::HashMap;

    pub fn polish(text: &str) -> String {
        let mut renames: HashMap<String, String> = HashMap::new();
        let mut lines: Vec<String> = Vec::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("#define c2d_") {
                let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
                if value.trim_start().starts_with("(c2d_") {
                    // A struct constant (compound literal): dropped with its doc comment.
                    while lines.last().is_some_and(|l| l.trim_start().starts_with("//")) {
                        lines.pop();
                    }
                    continue;
                }
                renames.insert(format!("c2d_{name}"), format!("C2D_{}", name.to_uppercase()));
            }
            lines.push(line.to_string());
        }
        let mut out = String::new();
        for line in &lines {
            let line = rename_identifiers(line, &renames);
            let line = if line.trim_start().starts_with("//") {
                strip_links(&line).replace("crate::", "")
            } else {
                line
            };
            out.push_str(&line);
            out.push('\n');
            if line == "#define COLLIDE2D_H" {
                out.push_str("\n/* The crate version this header belongs to (see c2d_get_version). */\n");
                for (part, var) in [
                    ("MAJOR", "CARGO_PKG_VERSION_MAJOR"),
                    ("MINOR", "CARGO_PKG_VERSION_MINOR"),
                    ("PATCH", "CARGO_PKG_VERSION_PATCH"),
                ] {
                    let v = std::env::var(var).expect("cargo sets the package version");
                    out.push_str(&format!("#define C2D_VERSION_{part} {v}\n"));
                }
            }
        }
        out
    }

    /// Replaces whole identifiers found in `renames`.
    fn rename_identifiers(line: &str, renames: &HashMap<String, String>) -> String {
        let mut out = String::with_capacity(line.len());
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            out.push_str(renames.get(word.as_str()).map_or(word.as_str(), String::as_str));
            word.clear();
        };
        for ch in line.chars() {
            if ch.is_ascii_alphanumeric() || ch == '_' {
                word.push(ch);
            } else {
                flush(&mut word, &mut out);
                out.push(ch);
            }
        }
        flush(&mut word, &mut out);
        out
    }

    /// Rust doc links in a comment line become their text: "[`X`](path)" and "[`X`]" give
    /// "`X`", "[text](path)" gives "text". Brackets that are not links ("[0, 1]") stay.
    fn strip_links(line: &str) -> String {
        let chars: Vec<char> = line.chars().collect();
        let mut out = String::with_capacity(line.len());
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == '[' {
                if let Some(close) = chars[i + 1..].iter().position(|&c| c == ']').map(|k| i + 1 + k) {
                    let inner: String = chars[i + 1..close].iter().collect();
                    let target_end = if chars.get(close + 1) == Some(&'(') {
                        chars[close + 2..]
                            .iter()
                            .position(|&c| c == ')')
                            .map(|k| close + 2 + k)
                    } else {
                        None
                    };
                    let code = inner.len() >= 2 && inner.starts_with('`') && inner.ends_with('`');
                    if let Some(end) = target_end {
                        out.push_str(&inner);
                        i = end + 1;
                        continue;
                    }
                    if code {
                        out.push_str(&inner);
                        i = close + 1;
                        continue;
                    }
                }
            }
            out.push(chars[i]);
            i += 1;
        }
        out
    }
}
