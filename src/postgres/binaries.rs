//! Finding the PostgreSQL server binaries (`initdb`, `postgres`) installed on the machine.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::{LocalServerError, DEBIAN_BINARIES_ROOT};

/// An installation of the PostgreSQL server binaries (`initdb`, `postgres`).
#[derive(Clone, Debug)]
pub struct Binaries {
    dir: PathBuf,
    major: u32,
    version: String,
}

impl Binaries {
    /// Finds the highest installed version, on PATH or under `/usr/lib/postgresql/*/bin`.
    pub fn find() -> Result<Binaries, LocalServerError> {
        Self::find_in(
            std::env::var_os("PATH").as_deref(),
            Path::new(DEBIAN_BINARIES_ROOT),
            None,
        )
    }

    /// Finds the binaries in the directories of `path_var` and `versions_root/*/bin`: the
    /// version `major` when given (an existing cluster needs its own), else the highest.
    pub fn find_in(
        path_var: Option<&OsStr>,
        versions_root: &Path,
        major: Option<u32>,
    ) -> Result<Binaries, LocalServerError> {
        let mut found: Vec<Binaries> = Vec::new();
        for dir in candidate_dirs(path_var, versions_root) {
            if found.iter().any(|b| b.dir == dir) {
                continue;
            }
            if let Some(binaries) = Self::probe(&dir) {
                found.push(binaries);
            }
        }
        if found.is_empty() {
            return Err(LocalServerError::NoBinaries);
        }
        match major {
            Some(major) => found
                .iter()
                .find(|b| b.major == major)
                .cloned()
                .ok_or_else(|| {
                    let mut versions: Vec<String> =
                        found.iter().map(|b| b.version.clone()).collect();
                    versions.dedup();
                    LocalServerError::VersionMismatch {
                        dir: PathBuf::new(),
                        cluster_major: major,
                        found: versions.join(", "),
                    }
                }),
            // Stable sort: among equal versions the first on PATH wins.
            None => {
                found.sort_by_key(|b| std::cmp::Reverse(b.major));
                Ok(found.swap_remove(0))
            }
        }
    }

    fn probe(dir: &Path) -> Option<Binaries> {
        let output = Command::new(dir.join("postgres"))
            .arg("--version")
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        if !output.status.success() {
            return None;
        }
        // "postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)"
        let text = String::from_utf8_lossy(&output.stdout);
        let version = text
            .split_whitespace()
            .find(|word| word.starts_with(|c: char| c.is_ascii_digit()))?
            .to_string();
        let major = leading_number(&version)?;
        Some(Binaries {
            dir: dir.to_path_buf(),
            major,
            version,
        })
    }

    /// The directory holding `initdb` and `postgres`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The major version, such as 15.
    pub fn major(&self) -> u32 {
        self.major
    }

    /// The full version, such as "15.20".
    pub fn version(&self) -> &str {
        &self.version
    }
}

/// The number a text starts with, such as 15 in "15.20".
pub(super) fn leading_number(text: &str) -> Option<u32> {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn candidate_dirs(path_var: Option<&OsStr>, versions_root: &Path) -> Vec<PathBuf> {
    let is_install = |dir: &Path| dir.join("initdb").is_file() && dir.join("postgres").is_file();
    let mut dirs = Vec::new();
    for dir in path_var.map(std::env::split_paths).into_iter().flatten() {
        if !is_install(&dir) {
            continue;
        }
        // `/usr/local/bin/initdb` may link into a versioned directory; name that one, so the
        // same installation found twice is probed once.
        let real = fs::canonicalize(dir.join("initdb"))
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .filter(|real| is_install(real));
        dirs.push(real.unwrap_or(dir));
    }
    let mut versioned: Vec<PathBuf> = fs::read_dir(versions_root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .filter(|dir| is_install(dir))
        .collect();
    versioned.sort();
    dirs.extend(versioned);
    dirs
}
