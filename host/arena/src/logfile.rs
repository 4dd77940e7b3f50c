//! The game log file: one JSON document per line. The first line is the header
//! (format version, seed, config, bots), then one line per event with the seats
//! that saw it, then a summary line with each seat's outcome.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clue_engine::{GameConfig, GameRecord, LogEntry, SeatRecord};
use clue_plugin_api::{Card, Seat};
use serde::{Deserialize, Serialize};

use clue_runtime::bots::BotSpec;

pub const LOG_FORMAT: &str = "1";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    #[serde(rename = "clue-arena-log")]
    pub format: String,
    pub seed: u64,
    pub config: GameConfig,
    pub bots: Vec<BotSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub winner: Option<Seat>,
    pub rounds: u32,
    pub envelope: Vec<Card>,
    pub hands: Vec<Vec<Card>>,
    pub seats: Vec<SeatRecord>,
}

#[derive(Serialize, Deserialize)]
struct SummaryLine {
    summary: Summary,
}

/// A game log as read back from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLog {
    pub header: Header,
    pub entries: Vec<LogEntry>,
    pub summary: Option<Summary>,
}

#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A line that is not what a log holds: `FILE:LINE:COLUMN: message`
    /// (the column where JSON parsing stopped; none for a whole line).
    #[error("{path}:{line}{}: {message}", column.map(|c| format!(":{c}")).unwrap_or_default())]
    Parse {
        path: String,
        line: usize,
        column: Option<usize>,
        message: String,
    },
    #[error("{path}: the file is empty")]
    Empty { path: String },
}

/// A game log's file, opened before the game is played, so that a path that
/// cannot be written is refused then and not once the game (perhaps a long
/// one against a person) is over. A file already there keeps its content
/// until the log is written over it; one made here is removed again if no
/// log is written (the game did not start, say).
pub struct LogFile {
    path: PathBuf,
    file: Option<std::fs::File>,
    made_here: bool,
}

impl LogFile {
    pub fn create(path: &Path) -> Result<LogFile, LogError> {
        let made_here = !path.exists();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|source| LogError::Io {
                path: path.display().to_string(),
                source,
            })?;
        Ok(LogFile {
            path: path.to_path_buf(),
            file: Some(file),
            made_here,
        })
    }

    /// Writes `log` over the file's content and closes it.
    pub fn write(mut self, log: &GameLog) -> Result<(), LogError> {
        let io = |source| LogError::Io {
            path: self.path.display().to_string(),
            source,
        };
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        file.set_len(0).map_err(io)?;
        let mut out = std::io::BufWriter::new(file);
        log.write_to(&mut out).map_err(io)?;
        out.flush().map_err(io)
    }
}

impl Drop for LogFile {
    fn drop(&mut self) {
        if self.file.take().is_some() && self.made_here {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl GameLog {
    pub fn from_record(record: &GameRecord, bots: &[BotSpec]) -> GameLog {
        GameLog {
            header: Header {
                format: LOG_FORMAT.to_string(),
                seed: record.seed,
                config: record.config.clone(),
                bots: bots.to_vec(),
            },
            entries: record.log.clone(),
            summary: Some(Summary {
                winner: record.winner,
                rounds: record.rounds,
                envelope: record.envelope.clone(),
                hands: record.hands.clone(),
                seats: record.seats.clone(),
            }),
        }
    }

    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "{}", serde_json::to_string(&self.header)?)?;
        for entry in &self.entries {
            writeln!(out, "{}", serde_json::to_string(entry)?)?;
        }
        if let Some(summary) = &self.summary {
            let line = SummaryLine {
                summary: summary.clone(),
            };
            writeln!(out, "{}", serde_json::to_string(&line)?)?;
        }
        Ok(())
    }

    pub fn load(path: &Path) -> Result<GameLog, LogError> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|source| LogError::Io {
            path: name.clone(),
            source,
        })?;
        GameLog::read(std::io::BufReader::new(file), &name)
    }

    pub fn read(reader: impl BufRead, name: &str) -> Result<GameLog, LogError> {
        let mut header = None;
        let mut entries = Vec::new();
        let mut summary = None;
        for (i, line) in reader.lines().enumerate() {
            let line = line.map_err(|source| LogError::Io {
                path: name.to_string(),
                source,
            })?;
            // Each line is parsed alone: serde_json's place is always its
            // line 1, so only the column is kept, and its words for the
            // place are dropped.
            let parse_err = |e: serde_json::Error| {
                let message = e.to_string();
                let place = format!(" at line {} column {}", e.line(), e.column());
                LogError::Parse {
                    path: name.to_string(),
                    line: i + 1,
                    column: (e.column() > 0).then_some(e.column()),
                    message: message.strip_suffix(&place).unwrap_or(&message).to_string(),
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            if header.is_none() {
                header = Some(serde_json::from_str::<Header>(&line).map_err(parse_err)?);
            } else if line.starts_with("{\"summary\"") {
                summary = Some(
                    serde_json::from_str::<SummaryLine>(&line)
                        .map_err(parse_err)?
                        .summary,
                );
            } else {
                entries.push(serde_json::from_str::<LogEntry>(&line).map_err(parse_err)?);
            }
        }
        let header = header.ok_or_else(|| LogError::Empty {
            path: name.to_string(),
        })?;
        if header.format != LOG_FORMAT {
            return Err(LogError::Parse {
                path: name.to_string(),
                line: 1,
                column: None,
                message: format!(
                    "log format {} is not the format {LOG_FORMAT} this host reads",
                    header.format
                ),
            });
        }
        Ok(GameLog {
            header,
            entries,
            summary,
        })
    }
}
