//! Making the cluster: the OS user the server runs as, and `initdb` run once on a fresh data
//! directory.

use std::fs;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use nix::unistd::{Uid, User};

use super::binaries::leading_number;
use super::error::io_error;
use super::{Binaries, Durability, LocalServerError, SERVER_OS_USER, SUPERUSER};

/// The unprivileged OS user the server runs as when thudbot itself runs as root.
#[derive(Clone, Debug)]
pub(super) struct ServerUser {
    pub(super) name: String,
    pub(super) uid: u32,
    pub(super) gid: u32,
}

/// The user to run the server as: none unless thudbot runs as root.
pub(super) fn server_user() -> Result<Option<ServerUser>, LocalServerError> {
    if !Uid::effective().is_root() {
        return Ok(None);
    }
    match User::from_name(SERVER_OS_USER) {
        Ok(Some(user)) => Ok(Some(ServerUser {
            name: user.name,
            uid: user.uid.as_raw(),
            gid: user.gid.as_raw(),
        })),
        Ok(None) => Err(LocalServerError::NoServerUser),
        Err(errno) => Err(LocalServerError::Io {
            action: format!("looking up the OS user `{SERVER_OS_USER}`"),
            source: errno.into(),
        }),
    }
}

/// Finds the first directory on the way to `dir` that `user` may not enter. Supplementary
/// groups do not count: the server is started with its primary group only.
pub(super) fn first_blocked_ancestor(dir: &Path, user: &ServerUser) -> Option<PathBuf> {
    let mut blocked = None;
    for ancestor in dir.ancestors() {
        let Ok(meta) = fs::metadata(ancestor) else {
            continue;
        };
        let mode = meta.mode();
        let may_enter = if meta.uid() == user.uid {
            mode & 0o100 != 0
        } else if meta.gid() == user.gid {
            mode & 0o010 != 0
        } else {
            mode & 0o001 != 0
        };
        if !may_enter {
            blocked = Some(ancestor.to_path_buf());
        }
    }
    blocked
}

/// The major version that created the cluster in `dir`, or None if there is no cluster yet.
pub(super) fn cluster_major(dir: &Path) -> Result<Option<u32>, LocalServerError> {
    match fs::read_to_string(dir.join("PG_VERSION")) {
        Ok(text) => Ok(leading_number(text.trim())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let occupied = fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
            if occupied {
                Err(LocalServerError::NotACluster {
                    dir: dir.to_path_buf(),
                })
            } else {
                Ok(None)
            }
        }
        Err(e) => Err(io_error(format!(
            "reading {}",
            dir.join("PG_VERSION").display()
        ))(e)),
    }
}

/// Creates the cluster next to `cluster` and moves it into place once complete, so an
/// interrupted `initdb` never leaves a half-made cluster where a real one is expected.
pub(super) fn init_cluster(
    cluster: &Path,
    binaries: &Binaries,
    user: Option<&ServerUser>,
    durability: Durability,
) -> Result<(), LocalServerError> {
    let mut staging_name = cluster.file_name().unwrap_or_default().to_os_string();
    staging_name.push(".initdb");
    let staging = cluster.with_file_name(staging_name);
    if staging.exists() {
        fs::remove_dir_all(&staging).map_err(io_error(format!(
            "removing the leftover {}",
            staging.display()
        )))?;
    }
    fs::create_dir(&staging).map_err(io_error(format!("creating {}", staging.display())))?;
    fs::set_permissions(&staging, fs::Permissions::from_mode(0o700))
        .map_err(io_error(format!("restricting {}", staging.display())))?;
    if let Some(user) = user {
        std::os::unix::fs::chown(&staging, Some(user.uid), Some(user.gid)).map_err(io_error(
            format!(
                "giving {} to the OS user `{}`",
                staging.display(),
                user.name
            ),
        ))?;
    }

    tracing::info!(
        dir = %cluster.display(),
        version = %binaries.version(),
        "creating the PostgreSQL cluster for the managed local server"
    );
    let mut command = Command::new(binaries.dir().join("initdb"));
    command
        .arg("-D")
        .arg(&staging)
        .args([
            "--username",
            SUPERUSER,
            // Only the socket reaches the server, and only its owner (and root) may enter
            // the directory the socket is in.
            "--auth-local=trust",
            "--auth-host=reject",
            "--encoding=UTF8",
            "--no-locale",
        ])
        .current_dir(&staging)
        .stdin(Stdio::null());
    if durability == Durability::Throwaway {
        command.arg("--no-sync");
    }
    if let Some(user) = user {
        command.uid(user.uid).gid(user.gid);
    }
    let output = command.output().map_err(io_error(format!(
        "running {}",
        binaries.dir().join("initdb").display()
    )))?;
    if !output.status.success() {
        let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&output.stderr));
        let _ = fs::remove_dir_all(&staging);
        return Err(LocalServerError::Initdb {
            dir: cluster.to_path_buf(),
            output: text.trim().to_string(),
        });
    }
    if cluster.exists() {
        // Checked empty by `cluster_major`.
        fs::remove_dir(cluster).map_err(io_error(format!("replacing {}", cluster.display())))?;
    }
    fs::rename(&staging, cluster).map_err(io_error(format!(
        "moving the new cluster to {}",
        cluster.display()
    )))
}
