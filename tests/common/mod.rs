//! Shared pieces of the integration tests.

use std::path::{Path, PathBuf};

/// A directory under the system temp dir (reachable by the database server's OS user), removed
/// when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates a fresh, uniquely named directory, first removing those of test processes that
    /// were killed before they could clean up.
    pub fn new(label: &str) -> TempDir {
        sweep();
        let path = std::env::temp_dir().join(format!(
            "thudbot-{label}-{}-{:08x}",
            std::process::id(),
            rand::random::<u32>()
        ));
        std::fs::create_dir_all(&path).expect("the temp dir is writable");
        TempDir(path)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Removes `thudbot-<label>-<pid>-<hex>` directories whose process is gone.
fn sweep() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if !name.starts_with("thudbot-") || name.starts_with("thudbot-test-postgres") {
            continue;
        }
        let mut parts = name.rsplit('-');
        let (Some(_), Some(pid)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
