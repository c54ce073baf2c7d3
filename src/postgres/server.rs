//! Running the server: starting `postgres` on the cluster, waiting until it is ready, and
//! stopping it, also when this process ends.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitid, Id, WaitPidFlag};
use nix::unistd::Pid;
use sqlx::postgres::{PgConnectOptions, PgSslMode};

use super::cluster::{
    cluster_major, first_blocked_ancestor, init_cluster, server_user, ServerUser,
};
use super::error::io_error;
use super::{Binaries, Durability, LocalServerError, DEBIAN_BINARIES_ROOT, SUPERUSER};

/// The port only names the socket file (`.s.PGSQL.5432`): the server opens no TCP port.
const PORT: u16 = 5432;
const SOCKET_FILE: &str = ".s.PGSQL.5432";
/// `sizeof(sockaddr_un.sun_path) - 1` on Linux: longer socket paths cannot be connected to.
const SOCKET_PATH_MAX: usize = 107;
const LOG_FILE: &str = "server.log";
const START_TIMEOUT: Duration = Duration::from_secs(120);
const STOP_TIMEOUT: Duration = Duration::from_secs(60);
const ORPHAN_TIMEOUT: Duration = Duration::from_secs(10);
const POLL: Duration = Duration::from_millis(20);

/// The socket directory as clients name it.
#[derive(Debug)]
enum SocketDir {
    /// The cluster directory itself.
    Path(PathBuf),
    /// `/proc/self/fd/N` of an open handle on the cluster directory, for a directory whose path
    /// is too long for a unix socket address.
    Handle { path: PathBuf, _dir: File },
}

impl SocketDir {
    fn for_cluster(cluster: &Path) -> Result<SocketDir, LocalServerError> {
        let socket = cluster.join(SOCKET_FILE);
        if socket.as_os_str().len() <= SOCKET_PATH_MAX {
            return Ok(SocketDir::Path(cluster.to_path_buf()));
        }
        let dir = File::open(cluster).map_err(io_error(format!(
            "opening {} to reach its socket",
            cluster.display()
        )))?;
        let path = PathBuf::from(format!("/proc/self/fd/{}", dir.as_raw_fd()));
        Ok(SocketDir::Handle { path, _dir: dir })
    }

    fn path(&self) -> &Path {
        match self {
            SocketDir::Path(path) | SocketDir::Handle { path, .. } => path,
        }
    }
}

/// What the keeper thread knows of the server process.
#[derive(Debug, Default)]
struct ProcessState {
    /// How the process ended, once it has been reaped.
    exit: Option<String>,
    /// Set by `stop`, so an exit is not reported as a crash.
    stopping: bool,
}

type SharedState = Arc<(Mutex<ProcessState>, Condvar)>;

fn lock(state: &SharedState) -> MutexGuard<'_, ProcessState> {
    state.0.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A started server process and the thread that owns it.
#[derive(Debug)]
struct Running {
    pid: Pid,
    state: SharedState,
    keeper: Option<JoinHandle<()>>,
}

/// A private PostgreSQL server on a cluster directory, stopped when dropped.
#[derive(Debug)]
pub struct LocalServer {
    cluster: PathBuf,
    binaries: Binaries,
    user: Option<ServerUser>,
    durability: Durability,
    socket: SocketDir,
    running: Option<Running>,
}

impl LocalServer {
    /// Starts a server on `cluster` (the directory PostgreSQL keeps its data in), creating the
    /// cluster with `initdb` on first use and reusing it afterwards.
    pub fn open(
        cluster: impl AsRef<Path>,
        durability: Durability,
    ) -> Result<LocalServer, LocalServerError> {
        let cluster = std::path::absolute(cluster.as_ref()).map_err(io_error(format!(
            "resolving the path {}",
            cluster.as_ref().display()
        )))?;
        let user = server_user()?;
        let parent = cluster
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("/"));
        // Checked before anything is created, so a refusal leaves no empty folder behind,
        // and again after, for folders made where the umask keeps others out.
        let reachable = |user: &Option<ServerUser>| match user {
            Some(user) => match first_blocked_ancestor(&parent, user) {
                Some(blocked) => Err(LocalServerError::Inaccessible {
                    dir: cluster.clone(),
                    blocked,
                    user: user.name.clone(),
                }),
                None => Ok(()),
            },
            None => Ok(()),
        };
        reachable(&user)?;
        fs::create_dir_all(&parent).map_err(io_error(format!(
            "creating the data directory {}",
            parent.display()
        )))?;
        reachable(&user)?;

        let existing = cluster_major(&cluster)?;
        let binaries = match Binaries::find_in(
            std::env::var_os("PATH").as_deref(),
            Path::new(DEBIAN_BINARIES_ROOT),
            existing,
        ) {
            Err(LocalServerError::VersionMismatch {
                cluster_major,
                found,
                ..
            }) => {
                return Err(LocalServerError::VersionMismatch {
                    dir: cluster,
                    cluster_major,
                    found,
                })
            }
            other => other?,
        };
        if existing.is_none() {
            init_cluster(&cluster, &binaries, user.as_ref(), durability)?;
        }
        let cluster = fs::canonicalize(&cluster).map_err(io_error(format!(
            "resolving the path {}",
            cluster.display()
        )))?;
        let socket = SocketDir::for_cluster(&cluster)?;
        let mut server = LocalServer {
            cluster,
            binaries,
            user,
            durability,
            socket,
            running: None,
        };
        server.start()?;
        Ok(server)
    }

    /// Starts the server again after [`LocalServer::stop`]; does nothing if it is running.
    pub fn start(&mut self) -> Result<(), LocalServerError> {
        if self.is_running() {
            return Ok(());
        }
        // A server that died on its own leaves its keeper thread to be joined.
        if let Some(keeper) = self.running.take().and_then(|mut r| r.keeper.take()) {
            let _ = keeper.join();
        }
        self.clear_stale_lock()?;
        let log = self.open_log()?;
        let running = self.spawn(log)?;
        let pid = running.pid;
        self.running = Some(running);
        if let Err(reason) = self.wait_until_ready(pid) {
            // Best effort: the start already failed, and the report says why.
            let _ = self.stop();
            return Err(self.start_error(reason));
        }
        tracing::info!(
            dir = %self.cluster.display(),
            pid = pid.as_raw(),
            version = %self.binaries.version(),
            "managed PostgreSQL server started"
        );
        Ok(())
    }

    /// Stops the server (fast shutdown: clients are disconnected, data is checkpointed).
    pub fn stop(&mut self) -> Result<(), LocalServerError> {
        let Some(mut running) = self.running.take() else {
            return Ok(());
        };
        let stopped = stop_process(&running, &self.cluster);
        if stopped {
            if let Some(keeper) = running.keeper.take() {
                let _ = keeper.join();
            }
            tracing::info!(dir = %self.cluster.display(), "managed PostgreSQL server stopped");
            Ok(())
        } else {
            let pid = running.pid.as_raw();
            self.running = Some(running);
            Err(LocalServerError::Stop {
                dir: self.cluster.clone(),
                pid,
            })
        }
    }

    /// Whether the server process is alive.
    pub fn is_running(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|running| lock(&running.state).exit.is_none())
    }

    /// The process id of the running server.
    pub fn pid(&self) -> Option<u32> {
        self.running
            .as_ref()
            .filter(|_| self.is_running())
            .map(|running| running.pid.as_raw().unsigned_abs())
    }

    /// The cluster directory (absolute), which also holds the socket and `server.log`.
    pub fn cluster_dir(&self) -> &Path {
        &self.cluster
    }

    /// The binaries this server runs.
    pub fn binaries(&self) -> &Binaries {
        &self.binaries
    }

    /// How to connect to `database` on this server as its superuser.
    pub fn connect_options(&self, database: &str) -> PgConnectOptions {
        PgConnectOptions::new_without_pgpass()
            .socket(self.socket.path())
            .port(PORT)
            .username(SUPERUSER)
            .database(database)
            .ssl_mode(PgSslMode::Disable)
    }

    fn log_path(&self) -> PathBuf {
        self.cluster.join(LOG_FILE)
    }

    /// Opens the server log, keeping the previous run's log as `server.log.1`.
    fn open_log(&self) -> Result<File, LocalServerError> {
        let log = self.log_path();
        if log.exists() {
            let _ = fs::rename(&log, self.cluster.join(format!("{LOG_FILE}.1")));
        }
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(io_error(format!(
                "opening the server log {}",
                log.display()
            )))
    }

    fn settings(&self) -> Vec<(&'static str, &'static str)> {
        let mut settings = vec![
            ("listen_addresses", ""),
            // Relative to the cluster directory, where the server runs: the server never meets
            // the unix socket path limit, however deep the data directory is.
            ("unix_socket_directories", "."),
            ("port", "5432"),
            ("cluster_name", "thudbot"),
            ("log_checkpoints", "off"),
        ];
        if self.durability == Durability::Throwaway {
            settings.extend([
                ("fsync", "off"),
                ("synchronous_commit", "off"),
                ("full_page_writes", "off"),
                ("max_connections", "300"),
            ]);
        }
        settings
    }

    /// Starts `postgres` from a thread that lives exactly as long as the server: the server
    /// gets a parent-death signal, so it stops when this process ends, however it ends.
    fn spawn(&self, log: File) -> Result<Running, LocalServerError> {
        let log_err = log
            .try_clone()
            .map_err(io_error("duplicating the server log handle"))?;
        let mut command = Command::new(self.binaries.dir().join("postgres"));
        command.arg("-D").arg(&self.cluster);
        for (name, value) in self.settings() {
            command.arg("-c").arg(format!("{name}={value}"));
        }
        command
            .current_dir(&self.cluster)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_err)
            // Out of the terminal's process group: Ctrl-C reaches thudbot, which then stops
            // the server in order.
            .process_group(0);
        if let Some(user) = &self.user {
            command.uid(user.uid).gid(user.gid);
        }
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent. It runs after
        // the uid change, which would otherwise clear the parent-death signal.
        unsafe {
            command.pre_exec(|| {
                nix::sys::prctl::set_pdeathsig(Signal::SIGINT).map_err(io::Error::from)
            });
        }

        let state: SharedState = Arc::default();
        let keeper_state = Arc::clone(&state);
        let dir = self.cluster.clone();
        let (started_tx, started_rx) = mpsc::channel();
        let keeper = thread::Builder::new()
            .name("postgres".into())
            .spawn(move || keep(command, dir, keeper_state, started_tx))
            .map_err(io_error("starting the PostgreSQL keeper thread"))?;
        match started_rx.recv() {
            Ok(Ok(pid)) => Ok(Running {
                pid,
                state,
                keeper: Some(keeper),
            }),
            Ok(Err(source)) => {
                let _ = keeper.join();
                Err(LocalServerError::Io {
                    action: format!("running {}", self.binaries.dir().join("postgres").display()),
                    source,
                })
            }
            Err(_) => {
                let _ = keeper.join();
                Err(LocalServerError::Io {
                    action: "starting the PostgreSQL server".into(),
                    source: io::Error::other("the keeper thread ended early"),
                })
            }
        }
    }

    /// Waits until the server reports itself ready in `postmaster.pid`, as `pg_ctl -w` does.
    fn wait_until_ready(&self, pid: Pid) -> Result<(), String> {
        let Some(running) = &self.running else {
            return Err("the server is not running".into());
        };
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Some(exit) = &lock(&running.state).exit {
                return Err(format!("the server exited: {exit}"));
            }
            if let Ok(text) = fs::read_to_string(self.cluster.join("postmaster.pid")) {
                let lines: Vec<&str> = text.lines().collect();
                let ours =
                    lines.first().and_then(|l| l.trim().parse::<i32>().ok()) == Some(pid.as_raw());
                if ours && lines.get(7).is_some_and(|status| status.trim() == "ready") {
                    return Ok(());
                }
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "not ready after {} seconds",
                    START_TIMEOUT.as_secs()
                ));
            }
            thread::sleep(POLL);
        }
    }

    fn start_error(&self, reason: String) -> LocalServerError {
        LocalServerError::Start {
            dir: self.cluster.clone(),
            reason,
            log: self.log_path(),
            log_tail: log_tail(&self.log_path(), 20),
        }
    }

    /// Deals with the lock file of a server that did not shut down cleanly. PostgreSQL itself
    /// refuses to start when the pid in `postmaster.pid` now belongs to another process, which
    /// is common after a reboot or in a container; only a live server on this very directory
    /// should stop us.
    fn clear_stale_lock(&self) -> Result<(), LocalServerError> {
        let pid_file = self.cluster.join("postmaster.pid");
        let Ok(text) = fs::read_to_string(&pid_file) else {
            return Ok(());
        };
        let recorded = text
            .lines()
            .next()
            .and_then(|l| l.trim().parse::<i32>().ok());
        if let Some(pid) = recorded {
            // A live process we may not inspect could be the server: leave its lock alone.
            let unknown = process_cwd(pid).is_none() && Path::new(&format!("/proc/{pid}")).exists();
            if unknown || process_cwd(pid).as_deref() == Some(self.cluster.as_path()) {
                return Err(LocalServerError::AlreadyRunning {
                    dir: self.cluster.clone(),
                    pid,
                });
            }
        }
        // Backends of a killed server notice within moments that it is gone; until they have,
        // they hold its shared memory and a new server would refuse to start.
        let deadline = Instant::now() + ORPHAN_TIMEOUT;
        loop {
            let orphans = processes_in(&self.cluster);
            match orphans.first() {
                None => break,
                Some(&pid) if Instant::now() >= deadline => {
                    return Err(LocalServerError::AlreadyRunning {
                        dir: self.cluster.clone(),
                        pid,
                    })
                }
                Some(_) => thread::sleep(Duration::from_millis(100)),
            }
        }
        tracing::warn!(
            dir = %self.cluster.display(),
            pid = ?recorded,
            "removing the lock file of a PostgreSQL server that did not shut down cleanly"
        );
        for stale in [
            pid_file,
            self.cluster.join(format!("{SOCKET_FILE}.lock")),
            self.cluster.join(SOCKET_FILE),
        ] {
            match fs::remove_file(&stale) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_error(format!("removing {}", stale.display()))(e)),
            }
        }
        Ok(())
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Err(error) = self.stop() {
            tracing::error!(%error, "could not stop the managed PostgreSQL server");
        }
    }
}

/// The keeper thread: spawns the server, then waits for it to end.
fn keep(
    mut command: Command,
    dir: PathBuf,
    state: SharedState,
    started: mpsc::Sender<io::Result<Pid>>,
) {
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => {
            let _ = started.send(Err(error));
            return;
        }
    };
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
    let _ = started.send(Ok(pid));
    // Wait without reaping: until the exit is recorded under the lock, the pid stays this
    // server's (a zombie at worst), so `stop` can never signal a stranger that reused it.
    while let Err(Errno::EINTR) = waitid(Id::Pid(pid), WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT)
    {
    }
    let mut guard = lock(&state);
    let exit = match child.wait() {
        Ok(status) => status.to_string(),
        Err(error) => format!("unknown exit ({error})"),
    };
    if !guard.stopping {
        tracing::error!(
            dir = %dir.display(),
            pid = pid.as_raw(),
            %exit,
            "the managed PostgreSQL server ended unexpectedly; see server.log in its directory"
        );
    }
    guard.exit = Some(exit);
    state.1.notify_all();
}

/// Asks the server to stop, escalating when it does not; true once it has exited.
fn stop_process(running: &Running, dir: &Path) -> bool {
    let (_, exited) = &*running.state;
    for (signal, patience) in [
        (Signal::SIGINT, STOP_TIMEOUT),
        (Signal::SIGQUIT, Duration::from_secs(10)),
        (Signal::SIGKILL, Duration::from_secs(10)),
    ] {
        let mut guard = lock(&running.state);
        if guard.exit.is_some() {
            return true;
        }
        guard.stopping = true;
        if signal != Signal::SIGINT {
            tracing::warn!(dir = %dir.display(), ?signal, "PostgreSQL is slow to stop");
        }
        let _ = kill(running.pid, signal);
        let (guard, _) = exited
            .wait_timeout_while(guard, patience, |state| state.exit.is_none())
            .unwrap_or_else(PoisonError::into_inner);
        if guard.exit.is_some() {
            return true;
        }
    }
    false
}

/// The working directory of process `pid`, if it can be read. A PostgreSQL server and all its
/// backends work in their cluster directory.
fn process_cwd(pid: i32) -> Option<PathBuf> {
    fs::read_link(format!("/proc/{pid}/cwd")).ok()
}

/// The processes working in `dir` (sorted), such as the backends of a killed server.
fn processes_in(dir: &Path) -> Vec<i32> {
    let mut pids: Vec<i32> = fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| process_cwd(pid).as_deref() == Some(dir))
        .collect();
    pids.sort_unstable();
    pids
}

/// The last `lines` lines of a log file (at most the last 16 KiB of it).
fn log_tail(path: &Path, lines: usize) -> String {
    let Ok(mut file) = File::open(path) else {
        return String::from("(no log)");
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = file.seek(SeekFrom::Start(len.saturating_sub(16 * 1024)));
    let mut bytes = Vec::new();
    let _ = file.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
