//! Captures the warnings serenity and poise log, because that is the only trace serenity leaves
//! when it drops a payload it cannot parse.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use tracing::subscriber::DefaultGuard;

/// Log lines at WARN or above, collected while this value lives.
pub struct CapturedLogs {
    buffer: Arc<Mutex<Vec<u8>>>,
    _guard: DefaultGuard,
}

#[derive(Clone)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl io::Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Starts capturing on this thread. The default subscriber is per thread, so use it from a
/// current-thread runtime (`#[tokio::test]`'s default), where every spawned task runs here too.
pub fn capture_logs() -> CapturedLogs {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let writer = SharedBuffer(buffer.clone());
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    CapturedLogs {
        buffer,
        _guard: tracing::subscriber::set_default(subscriber),
    }
}

impl CapturedLogs {
    /// Every captured line but sqlx's slow-statement notes.
    pub fn lines(&self) -> Vec<String> {
        let bytes = self
            .buffer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        String::from_utf8_lossy(&bytes)
            .lines()
            // sqlx's note that a statement took over a second says how loaded the machine
            // running the tests is, not how the bot behaved.
            .filter(|line| !line.contains("sqlx::query: slow statement"))
            .map(str::to_string)
            .collect()
    }
}
