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
        speak_c(&out)
    }

    /// Every C name the header declares: functions, types, macros and enum constants, and
    /// each struct field as `c2d_Type.field`.
    fn declared(text: &str) -> std::collections::HashSet<String> {
        let mut names = std::collections::HashSet::new();
        let mut open_struct: Option<String> = None;
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            if let Some(rest) = line
                .strip_prefix("typedef struct ")
                .or_else(|| line.strip_prefix("struct "))
            {
                open_struct = rest.split_whitespace().next().map(str::to_string);
            } else if line.starts_with('}') {
                open_struct = None;
            } else if let (Some(ty), Some(decl)) = (&open_struct, line.trim().strip_suffix(';')) {
                let field = decl.split('[').next().unwrap_or(decl);
                if let Some(name) = field.split([' ', '*']).next_back() {
                    names.insert(format!("{ty}.{name}"));
                }
            }
            let mut word = String::new();
            for ch in line.chars().chain(core::iter::once(' ')) {
                if ch.is_ascii_alphanumeric() || ch == '_' {
                    word.push(ch);
                } else {
                    if word.starts_with("c2d_") || word.starts_with("C2D_") {
                        names.insert(word.clone());
                    }
                    word.clear();
                }
            }
        }
        names
    }

    /// Rust paths in the comments (`World::step`, `MoveOptions::skin`, `CastState::Hit`,
    /// `f32::MAX`) become the C names of the same things (`c2d_world_step`,
    /// `c2d_MoveOptions.skin`, `C2D_CAST_STATE_HIT`, `FLT_MAX`); a path after "Rust" on its
    /// line is a labelled reference to the Rust API and stays, and one with no C counterpart
    /// is labelled "Rust's".
    fn speak_c(text: &str) -> String {
        let names = declared(text);
        let mut out = String::with_capacity(text.len());
        for line in text.lines() {
            if line.trim_start().starts_with("//") {
                out.push_str(&rewrite_paths(line, &names));
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
        out
    }

    fn rewrite_paths(line: &str, names: &std::collections::HashSet<String>) -> String {
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(open) = rest.find('`') {
            let Some(len) = rest[open + 1..].find('`') else {
                break;
            };
            let (before, span) = (&rest[..open], &rest[open + 1..open + 1 + len]);
            out.push_str(before);
            let labelled = out.contains("Rust");
            // A bare Rust constant name whose C macro exists.
            let constant = format!("C2D_{span}");
            if !labelled
                && span.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                && names.contains(&constant)
            {
                out.push_str(&format!("`{constant}`"));
                rest = &rest[open + len + 2..];
                continue;
            }
            // A bare Rust type or function name whose C namesake exists.
            let type_name = format!("c2d_{span}");
            if !labelled
                && span.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && names.contains(&type_name)
            {
                out.push_str(&format!("`{type_name}`"));
                rest = &rest[open + len + 2..];
                continue;
            }
            match (span.contains("::") && !labelled).then(|| c_name(span, names)) {
                Some(Some(c)) => out.push_str(&format!("`{c}`")),
                Some(None) => out.push_str(&format!("Rust's `{span}`")),
                None => out.push_str(&format!("`{span}`")),
            }
            rest = &rest[open + len + 2..];
        }
        out.push_str(rest);
        out
    }

    /// `lower_snake` of a `CamelCase` name.
    fn snake(name: &str) -> String {
        let mut s = String::new();
        for (i, ch) in name.chars().enumerate() {
            if ch.is_ascii_uppercase() && i > 0 {
                s.push('_');
            }
            s.push(ch.to_ascii_lowercase());
        }
        s
    }

    /// The C name of the Rust path `path`, if the header has one.
    fn c_name(path: &str, names: &std::collections::HashSet<String>) -> Option<String> {
        let path = path.trim_end_matches("()");
        let fixed = match path {
            "f32::MAX" => Some("FLT_MAX"),
            "f32::INFINITY" => Some("INFINITY"),
            "Vec2::ZERO" => Some("(0, 0)"),
            "Polygon::new" => Some("c2d_make_polygon"),
            "SolverSettings::default" => Some("c2d_solver_default_settings"),
            "World::check_invariants" => Some("c2d_world_validate"),
            _ => None,
        };
        if let Some(c) = fixed {
            return Some(c.to_string());
        }
        let segments: Vec<&str> = path.split("::").collect();
        let (ty, item) = (segments[segments.len() - 2], segments[segments.len() - 1]);
        // Rust's error variants are C's statuses of the same name.
        let ty = match ty {
            "SolverError" | "GeometryError" => "Status",
            t => t,
        };
        let has = |n: &str| names.contains(n).then(|| n.to_string());
        let ty_c = match ty {
            "World" => "world".to_string(),
            "DynamicTree" => "tree".to_string(),
            t => snake(t),
        };
        let type_name = match ty {
            "Obstacle" => "c2d_MoverObstacle".to_string(),
            t => format!("c2d_{t}"),
        };
        // A constant, a function of the type's family, an enum value, a function of that
        // name, a maker, then a struct field (lower-case names not declared as functions).
        has(&format!("C2D_{}", item.to_uppercase()))
            .filter(|_| {
                item.chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
            })
            .or_else(|| has(&format!("c2d_{ty_c}_{item}")))
            .or_else(|| {
                has(&format!(
                    "C2D_{}_{}",
                    snake(ty).to_uppercase(),
                    snake(item).to_uppercase()
                ))
            })
            .or_else(|| has(&format!("c2d_{item}")))
            .or_else(|| has(&format!("{type_name}.{item}")))
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
