//! The bot's configuration: a TOML file, with `DISCORD_TOKEN` and `DATABASE_URL` from the
//! environment winning over it. Every key is optional; `config.example.toml` documents them.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::service::ServiceConfig;
use crate::store::DatabaseConfig;

/// The file read when `--config` is not given; it may be absent.
pub const DEFAULT_PATH: &str = "config.toml";

/// How this process takes part in Discord's sharding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Shards {
    /// Ask Discord how many shards to run, and run them all here.
    #[default]
    Auto,
    /// Of `total` shards, run `first..=last` in this process; other processes run the rest
    /// against the same database.
    Range { total: u32, first: u32, last: u32 },
}

impl<'de> Deserialize<'de> for Shards {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shards, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Word(String),
            Range { total: u32, first: u32, last: u32 },
        }
        match Raw::deserialize(d)? {
            Raw::Word(w) if w == "auto" => Ok(Shards::Auto),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "shards is \"auto\" or {{ total = N, first = A, last = B }}, not \"{w}\""
            ))),
            Raw::Range { total, first, last } => {
                if total == 0 || first > last || last >= total {
                    return Err(serde::de::Error::custom(format!(
                        "shards: need 0 <= first <= last < total, got first = {first}, last = {last}, total = {total}"
                    )));
                }
                Ok(Shards::Range { total, first, last })
            }
        }
    }
}

/// Everything the bot reads at start-up.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// The bot token from the Discord developer portal.
    pub discord_token: Option<String>,
    /// Send Discord REST calls through this proxy (such as a shared rate-limiting proxy)
    /// instead of straight to discord.com.
    pub discord_proxy: Option<String>,
    /// A `postgres://` URL; unset runs a managed local PostgreSQL in `data_dir/postgres`.
    pub database_url: Option<String>,
    /// Where the bot keeps its data (the managed database, console pictures).
    pub data_dir: PathBuf,
    /// Register commands in this guild only (instant, for development) instead of globally.
    pub development_guild: Option<u64>,
    /// Open a thread for each match, so one channel can host many matches.
    pub threads: bool,
    /// Ask Discord for the privileged GUILD_MEMBERS intent (enable it in the developer portal
    /// first), so a tournament player who leaves the server is withdrawn at once.
    pub members_intent: bool,
    /// Hours a challenge stays open.
    pub challenge_expiry_hours: u32,
    /// Forfeit a match this many hours after a missed deadline; unset leaves it to a claim.
    pub auto_forfeit_hours: Option<u32>,
    /// The days of vacation each player may take in any year.
    pub vacation_days_per_year: u32,
    /// How often the clock looks for due reminders and forfeits, in seconds.
    pub clock_interval_seconds: u64,
    /// How long to keep trying to reach Discord and register the commands at start-up.
    pub startup_patience_seconds: u64,
    /// How long one request to Discord may take before it counts as failed, in seconds.
    pub request_timeout_seconds: u64,
    pub shards: Shards,
    /// A tracing filter such as `info` or `thudbot=debug,info`.
    pub log_level: String,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            discord_token: None,
            discord_proxy: None,
            database_url: None,
            data_dir: PathBuf::from("data"),
            development_guild: None,
            threads: false,
            members_intent: false,
            challenge_expiry_hours: 24,
            auto_forfeit_hours: None,
            vacation_days_per_year: 14,
            clock_interval_seconds: 60,
            startup_patience_seconds: 300,
            request_timeout_seconds: 15,
            shards: Shards::Auto,
            log_level: "info".to_string(),
        }
    }
}

impl fmt::Debug for Config {
    /// Like the derived form, but the token is never shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field(
                "discord_token",
                &self.discord_token.as_ref().map(|_| "<set>"),
            )
            .field("discord_proxy", &self.discord_proxy)
            .field("database_url", &self.database_url.as_ref().map(|_| "<set>"))
            .field("data_dir", &self.data_dir)
            .field("development_guild", &self.development_guild)
            .field("threads", &self.threads)
            .field("members_intent", &self.members_intent)
            .field("challenge_expiry_hours", &self.challenge_expiry_hours)
            .field("auto_forfeit_hours", &self.auto_forfeit_hours)
            .field("vacation_days_per_year", &self.vacation_days_per_year)
            .field("clock_interval_seconds", &self.clock_interval_seconds)
            .field("startup_patience_seconds", &self.startup_patience_seconds)
            .field("request_timeout_seconds", &self.request_timeout_seconds)
            .field("shards", &self.shards)
            .field("log_level", &self.log_level)
            .finish()
    }
}

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the config file {path} is not valid: {message}")]
    Invalid { path: PathBuf, message: String },
}

impl Config {
    /// Reads `path` (or `config.toml` if present), then applies the environment.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        Config::load_with(path, |name| std::env::var(name).ok())
    }

    /// [`Config::load`] with the environment given by `lookup`.
    pub fn load_with(
        path: Option<&Path>,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let (path, required) = match path {
            Some(p) => (p.to_path_buf(), true),
            None => (PathBuf::from(DEFAULT_PATH), false),
        };
        let mut config = match std::fs::read_to_string(&path) {
            Ok(text) => Config::parse(&text).map_err(|message| ConfigError::Invalid {
                path: path.clone(),
                message,
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => Config::default(),
            Err(source) => return Err(ConfigError::Read { path, source }),
        };
        let set = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        if let Some(token) = set("DISCORD_TOKEN") {
            config.discord_token = Some(token);
        }
        if let Some(url) = set("DATABASE_URL") {
            config.database_url = Some(url);
        }
        Ok(config)
    }

    /// Reads configuration text.
    pub fn parse(text: &str) -> Result<Config, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// The database settings.
    pub fn database(&self) -> DatabaseConfig {
        let mut db = DatabaseConfig::new(&self.data_dir);
        db.url = self.database_url.clone().filter(|u| !u.trim().is_empty());
        db
    }

    /// The match-flow settings.
    pub fn service(&self) -> ServiceConfig {
        ServiceConfig {
            challenge_expiry: chrono::Duration::hours(self.challenge_expiry_hours.max(1) as i64),
            auto_forfeit_after: self
                .auto_forfeit_hours
                .map(|h| chrono::Duration::hours(h as i64)),
            vacation_per_year: chrono::Duration::days(self.vacation_days_per_year.min(365) as i64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_config_reads_and_documents_every_key() {
        let text = include_str!("../config.example.toml");
        let config = Config::parse(text).expect("config.example.toml is valid");
        assert_eq!(config.challenge_expiry_hours, 24);
        // Every key of the file format appears in the example.
        let keys = [
            "discord_token",
            "discord_proxy",
            "database_url",
            "data_dir",
            "development_guild",
            "threads",
            "members_intent",
            "challenge_expiry_hours",
            "auto_forfeit_hours",
            "clock_interval_seconds",
            "startup_patience_seconds",
            "request_timeout_seconds",
            "shards",
            "log_level",
        ];
        for key in keys {
            assert!(
                text.contains(&format!("{key} =")) || text.contains(&format!("# {key} =")),
                "{key}"
            );
        }
    }

    #[test]
    fn the_environment_wins_and_the_token_is_never_shown() {
        let dir = std::env::temp_dir().join(format!("thudbot-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.toml");
        std::fs::write(&path, "discord_token = \"from-file\"\nthreads = true\nshards = { total = 4, first = 2, last = 3 }\n").unwrap();
        let env = |name: &str| match name {
            "DISCORD_TOKEN" => Some("secret-from-env".to_string()),
            _ => None,
        };
        let config = Config::load_with(Some(&path), env).unwrap();
        assert_eq!(config.discord_token.as_deref(), Some("secret-from-env"));
        assert!(config.threads);
        assert_eq!(
            config.shards,
            Shards::Range {
                total: 4,
                first: 2,
                last: 3
            }
        );
        assert!(!format!("{config:?}").contains("secret"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn bad_configs_say_what_is_wrong() {
        assert!(Config::parse("thread = true")
            .unwrap_err()
            .contains("thread"));
        assert!(Config::parse("shards = \"many\"")
            .unwrap_err()
            .contains("auto"));
        assert!(Config::parse("shards = { total = 2, first = 1, last = 2 }").is_err());
        assert!(Config::load_with(Some(Path::new("/nonexistent/thud.toml")), |_| None).is_err());
        assert!(Config::load_with(None, |_| None).is_ok());
    }
}
