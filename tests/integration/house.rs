//! The house's shape, read from the code's own paths: no two modules of the library import
//! each other (directly or around a circle), nor do two folders, the outbox names no concern
//! above it nor does any concern below the matches change one, the pure layers (`game`, `tournament`,
//! `computer`, `render`, `input`) name no outer one, no source file is over 600 lines, and
//! `impl Service` itself (construction, the concerns it holds, the clock's round, the workers)
//! stays small: the commands are the concerns' own methods.
//!
//! The engine and the renderer are crates of their own, so the compiler holds that they name
//! nothing of the bot's; they are read here too, as the bot names them (`game`, `render`, …).
//! A module is a file under a crate's `src/` (a `mod.rs` or `lib.rs` stands for its folder;
//! binaries, `src/bin` and the lab's, count for the length of files only). Module `a` depends on `b` when `a`'s text names a path `crate::…`, `super::…` or
//! `self::…` (one level of `use` braces expanded) whose longest module prefix is `b`. A
//! folder re-exporting what its own child defines is no circle: a pair of a module and its
//! ancestor is left out, as are test modules and comments.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

const MAX_LINES: usize = 600;
/// Methods on `impl Service` blocks at most.
const MAX_SERVICE_METHODS: usize = 40;
const PURE: [&str; 5] = ["game", "tournament", "computer", "render", "input"];
const OUTER: [&str; 6] = [
    "service", "store", "discord", "console", "postgres", "config",
];

/// The workspace's crates whose modules are read: each crate's `src/`, and the module its
/// root stands for in the bot's paths.
const CRATES: [(&str, &[&str]); 3] = [
    ("src", &[]),
    ("crates/engine/src", &[]),
    ("crates/render/src", &["render"]),
];
/// Folders of binaries, read for the length of their files.
const BINARIES: [&str; 2] = ["src/bin", "crates/lab/src"];

fn source_files(dir: &Path, out: &mut Vec<PathBuf>, with_bin: bool) {
    for entry in std::fs::read_dir(dir).expect("a source folder is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            if with_bin || path.file_name().is_some_and(|n| n != "bin") {
                source_files(&path, out, with_bin);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file under `src` is: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`, under
/// the crate's `root`.
fn module_of(src: &Path, root: &[&str], file: &Path) -> Module {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Module = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    root.iter().map(|r| r.to_string()).chain(parts).collect()
}

/// The code of a file without its comments and its trailing `mod tests`.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            rest = &rest[end..];
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(rest.len(), |e| e + 2);
            rest = &rest[end..];
        } else if rest.starts_with('"') {
            // A string literal names no module (a poise attribute's string is a path poise
            // resolves in the same module family, kept as code).
            let end = rest[1..].find('"').map_or(rest.len(), |e| e + 2);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Every path starting `crate`, `super` or `self` in `code`, with `use a::{b, c::d}` read as
/// `a::b` and `a::c::d`.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut paths = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .find(|s| code_at(&bytes, i, s) && (i == 0 || !is_word(bytes[i - 1])));
        let Some(_) = starts else {
            i += 1;
            continue;
        };
        let mut path = Vec::new();
        let mut word = String::new();
        let mut j = i;
        loop {
            while j < bytes.len() && is_word(bytes[j]) {
                word.push(bytes[j]);
                j += 1;
            }
            path.push(std::mem::take(&mut word));
            if code_at(&bytes, j, "::{") {
                // One level of braces: each item joins the path so far.
                let close = (j..bytes.len())
                    .find(|&k| bytes[k] == '}')
                    .unwrap_or(bytes.len());
                let inner: String = bytes[j + 3..close].iter().collect();
                for item in inner.split(',') {
                    let item = item.split(" as ").next().unwrap_or("").trim();
                    if !item.is_empty() && item != "self" && !item.contains('{') {
                        let mut p = path.clone();
                        p.extend(item.split("::").map(|s| s.trim().to_string()));
                        paths.push(p);
                    }
                }
                j = close;
                path.clear();
                break;
            }
            if code_at(&bytes, j, "::") && j + 2 < bytes.len() && is_word(bytes[j + 2]) {
                j += 2;
                continue;
            }
            break;
        }
        if !path.is_empty() {
            paths.push(path);
        }
        i = j.max(i + 1);
    }
    paths
}

fn code_at(chars: &[char], at: usize, s: &str) -> bool {
    s.chars()
        .enumerate()
        .all(|(k, c)| chars.get(at + k) == Some(&c))
}

/// The module `path` (seen from `here`) names: its longest prefix that is a module.
fn target(
    path: &[String],
    here: &Module,
    root: &[&str],
    modules: &BTreeSet<Module>,
) -> Option<Module> {
    let mut full: Module;
    let mut rest = path;
    if rest.first().is_some_and(|p| p == "crate") {
        full = root.iter().map(|r| r.to_string()).collect();
        rest = &rest[1..];
    } else {
        full = here.clone();
        while let Some(first) = rest.first() {
            match first.as_str() {
                "super" => {
                    full.pop();
                }
                "self" => {}
                _ => break,
            }
            rest = &rest[1..];
        }
    }
    full.extend(rest.iter().cloned());
    (1..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|m| modules.contains(m))
}

fn is_ancestor(a: &Module, b: &Module) -> bool {
    a.len() < b.len() && b[..a.len()] == a[..]
}

struct House {
    edges: BTreeMap<Module, BTreeSet<Module>>,
    /// The same dependencies between folders: a module stands for its folder (a `mod.rs` or
    /// `lib.rs` for the folder it heads).
    folder_edges: BTreeMap<Module, BTreeSet<Module>>,
    long_files: Vec<(String, usize)>,
    /// `fn`s in `impl Service` blocks.
    service_methods: usize,
}

fn read_house() -> House {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Every module of every crate, as the bot names it, with the file and its crate's root.
    let mut files = Vec::new();
    for (dir, root) in CRATES {
        let src = top.join(dir);
        let mut found = Vec::new();
        source_files(&src, &mut found, false);
        files.extend(
            found
                .into_iter()
                .map(|f| (module_of(&src, root, &f), f, root)),
        );
    }
    let modules: BTreeSet<Module> = files.iter().map(|(m, _, _)| m.clone()).collect();
    let heads: BTreeSet<Module> = files
        .iter()
        .filter(|(_, f, _)| {
            f.file_name()
                .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
        })
        .map(|(m, _, _)| m.clone())
        .collect();
    let folder_of = |m: &Module| -> Module {
        if heads.contains(m) || m.is_empty() {
            m.clone()
        } else {
            m[..m.len() - 1].to_vec()
        }
    };
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    let mut long_files = Vec::new();
    let mut binaries = Vec::new();
    for dir in BINARIES {
        source_files(&top.join(dir), &mut binaries, true);
    }
    for file in files.iter().map(|(_, f, _)| f).chain(&binaries) {
        let lines = std::fs::read_to_string(file)
            .expect("a source file")
            .lines()
            .count();
        if lines > MAX_LINES {
            long_files.push((file.display().to_string(), lines));
        }
    }
    let mut service_methods = 0;
    for (here, file, root) in &files {
        let text = std::fs::read_to_string(file).expect("a source file");
        if file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let here = here.clone();
        service_methods += methods_of_service(&code_of(&text));
        for path in paths_in(&code_of(&text)) {
            if let Some(to) = target(&path, &here, root, &modules) {
                if to != here && !is_ancestor(&to, &here) && !is_ancestor(&here, &to) {
                    edges.entry(here.clone()).or_default().insert(to);
                }
            }
        }
    }
    let mut folder_edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (from, tos) in &edges {
        let from = folder_of(from);
        for to in tos.iter().map(folder_of) {
            if to != from && !is_ancestor(&to, &from) && !is_ancestor(&from, &to) {
                folder_edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    House {
        edges,
        folder_edges,
        long_files,
        service_methods,
    }
}

/// How many `fn`s the `impl Service { … }` blocks of `code` hold.
fn methods_of_service(code: &str) -> usize {
    let mut count = 0;
    for (at, _) in code.match_indices("impl Service {") {
        let mut depth = 0;
        let mut end = code.len();
        for (i, c) in code[at..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = at + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let block = &code[at..end];
        count += block
            .match_indices("fn ")
            .filter(|(i, _)| {
                *i == 0 || !block[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            })
            .count();
    }
    count
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        found: Vec<Vec<String>>,
    }
    fn visit(w: &mut Walk, v: &Module) {
        let n = w.index.len();
        w.index.insert(v.clone(), n);
        w.low.insert(v.clone(), n);
        w.stack.push(v.clone());
        for next in w.edges.get(v).into_iter().flatten() {
            if !w.index.contains_key(next) {
                visit(w, next);
                let low = w.low[v].min(w.low[next]);
                w.low.insert(v.clone(), low);
            } else if w.stack.contains(next) {
                let low = w.low[v].min(w.index[next]);
                w.low.insert(v.clone(), low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut component = Vec::new();
            while let Some(m) = w.stack.pop() {
                let done = &m == v;
                component.push(m.join("::"));
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            visit(&mut walk, v);
        }
    }
    walk.found
}

#[test]
fn no_two_modules_import_each_other_around_any_circle() {
    let house = read_house();
    let found = circles(&house.edges);
    assert!(found.is_empty(), "import circles: {found:?}");
    // The reading finds what it looks for: the match flow depends on the store.
    let flow = house.edges.get(&vec![
        "service".to_string(),
        "flow".to_string(),
        "play".to_string(),
    ]);
    assert!(
        flow.is_some_and(|to| to.contains(&vec!["store".to_string()])),
        "no edges read: {flow:?}"
    );
    // The engine's crate and the renderer's are read as well.
    for crate_module in [vec!["computer", "search"], vec!["render", "picture"]] {
        let m: Module = crate_module.iter().map(|p| p.to_string()).collect();
        assert!(house.edges.contains_key(&m), "{m:?} was not read");
    }
}

#[test]
fn no_two_folders_import_each_other_around_any_circle() {
    let house = read_house();
    let found = circles(&house.folder_edges);
    assert!(
        found.is_empty(),
        "import circles between folders: {found:?}"
    );
    // The reading finds what it looks for: the match flow's folder depends on the store.
    let flow = house
        .folder_edges
        .get(&vec!["service".to_string(), "flow".to_string()]);
    assert!(
        flow.is_some_and(|to| to.contains(&vec!["store".to_string()])),
        "no folder edges read: {flow:?}"
    );
}

#[test]
fn a_circle_is_found_when_there_is_one() {
    let m = |s: &str| s.split("::").map(String::from).collect::<Module>();
    let mut edges = BTreeMap::new();
    edges.insert(m("a::x"), BTreeSet::from([m("b")]));
    edges.insert(m("b"), BTreeSet::from([m("c")]));
    edges.insert(m("c"), BTreeSet::from([m("a::x")]));
    edges.insert(m("d"), BTreeSet::from([m("a::x")]));
    assert_eq!(circles(&edges), vec![vec!["a::x", "b", "c"]]);
    let modules: BTreeSet<Module> = [m("a"), m("a::x"), m("b")].into();
    let code = code_of("use super::{x, b::C};\n// crate::b\nfn f() { crate::b::g(); }");
    let found: Vec<_> = paths_in(&code)
        .iter()
        .filter_map(|p| target(p, &m("a::y"), &[], &modules))
        .collect();
    assert_eq!(found, vec![m("a::x"), m("a"), m("b")]);
}

#[test]
fn the_pure_layers_name_no_outer_one() {
    let house = read_house();
    let mut up = Vec::new();
    for (from, to) in &house.edges {
        if PURE.contains(&from[0].as_str()) {
            for t in to.iter().filter(|t| OUTER.contains(&t[0].as_str())) {
                up.push(format!("{} -> {}", from.join("::"), t.join("::")));
            }
        }
    }
    assert!(up.is_empty(), "pure layers name outer ones: {up:?}");
}

#[test]
fn no_source_file_is_over_600_lines() {
    let house = read_house();
    assert!(house.long_files.is_empty(), "{:?}", house.long_files);
}

#[test]
fn the_service_itself_has_few_methods() {
    let house = read_house();
    assert!(house.service_methods > 0, "no impl Service read");
    assert!(
        house.service_methods <= MAX_SERVICE_METHODS,
        "impl Service has {} methods (at most {MAX_SERVICE_METHODS})",
        house.service_methods
    );
}

#[test]
fn the_outbox_names_no_concern_above_it() {
    let house = read_house();
    let above = ["flow", "tournaments", "people", "records", "watch"];
    let mut up = Vec::new();
    for (from, to) in &house.edges {
        if from.len() < 2 || from[..2] != ["service", "notices"] {
            continue;
        }
        for t in to {
            let concern = t.len() >= 2 && t[0] == "service" && above.contains(&t[1].as_str());
            if concern || OUTER[2..].contains(&t[0].as_str()) {
                up.push(format!("{} -> {}", from.join("::"), t.join("::")));
            }
        }
    }
    assert!(up.is_empty(), "the outbox names what is above it: {up:?}");
    // The reading finds what it looks for: the outbox depends on the store.
    let edges = house
        .edges
        .get(&vec!["service".to_string(), "notices".to_string()]);
    assert!(
        edges.is_some_and(|to| to.contains(&vec!["store".to_string()])),
        "{edges:?}"
    );
}

/// The store's functions that write a match or its clock: those whose query updates, adds or
/// deletes rows of `matches` or `clocks`.
fn match_writers() -> BTreeSet<String> {
    let mut files = Vec::new();
    source_files(Path::new("src/store"), &mut files, false);
    let mut writers = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a store file is readable");
        // Each piece after "fn " is one function: its name, then its body up to the next.
        for piece in text.split("fn ").skip(1) {
            let name: String = piece
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let writes = ["UPDATE ", "INSERT INTO ", "DELETE FROM "]
                .iter()
                .any(|verb| {
                    ["matches ", "matches\n", "clocks ", "clocks\n", "clocks("]
                        .iter()
                        .any(|table| piece.contains(&format!("{verb}{table}")))
                });
            if writes && !name.is_empty() {
                writers.insert(name);
            }
        }
    }
    writers
}

#[test]
fn no_concern_below_the_matches_changes_a_match() {
    let writers = match_writers();
    // The reading finds what it looks for: pausing a clock writes one.
    assert!(writers.contains("pause_clock"), "{writers:?}");
    let below = ["notices", "people", "records"];
    let mut files = Vec::new();
    for folder in below {
        source_files(&Path::new("src/service").join(folder), &mut files, false);
    }
    let mut found = Vec::new();
    for file in files {
        let code = code_of(&std::fs::read_to_string(&file).expect("readable"));
        for w in &writers {
            if code.contains(&format!(".{w}(")) {
                found.push(format!("{} calls {w}", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a concern below the matches changes one: {found:?}"
    );
}
