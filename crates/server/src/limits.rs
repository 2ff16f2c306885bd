//! Fixed input limits. Over-limit input is refused with a clear `{code, message}`, never a crash.
//! The per-client and rate limits that a deployment may want to tune live in [`crate::Config`].

/// Largest request body (JSON, including a rules file sent inline).
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Largest WebSocket message a client may send.
pub const MAX_WS_MESSAGE_BYTES: usize = 16 * 1024;
/// A WebSocket connection's read buffer (grown as needed up to the message limit); zeroed on
/// every read, and client messages are small (an action is under 100 bytes).
pub const WS_READ_BUFFER_BYTES: usize = 1024;
/// The longest a request waits for a read from the store (a game loaded, its kept results, who
/// holds its lease) before it is answered 503 `store_unavailable` with `Retry-After`: a database
/// that went silent (rather than refusing) would otherwise hold the request until the
/// connection gives up, up to a lease in a cluster.
pub const STORE_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);
/// Display names, in characters.
pub const MAX_NAME_CHARS: usize = 32;
/// Bot names, in characters.
pub const MAX_BOT_NAME_CHARS: usize = 32;
/// Longest turn timer a table may set, in seconds.
pub const MAX_TURN_SECONDS: u32 = 3600;
/// Longest bot delay a table may set, in milliseconds.
pub const MAX_BOT_DELAY_MS: u32 = 10_000;
/// The longest a search bot thinks about one move (its iterations, at most
/// `uno_bots::MAX_ISMCTS_ITERATIONS`, are the other bound).
pub const MAX_BOT_MOVE_TIME: std::time::Duration = std::time::Duration::from_millis(1000);
/// Recent events kept per table for readers who were not connected.
pub const RECENT_EVENTS: usize = 64;
/// Tables `GET /api/tables` lists at most.
pub const MAX_LISTED: usize = 200;
/// How long a table of bots only shows a round's result before dealing the next round.
pub const ROUND_PAUSE_MS: u64 = 5_000;
/// The most worlds per action an analysis on the server may sample (the intervals are then
/// ±2.2 points at most; the engine's own bound is `uno_lab::analysis::MAX_SAMPLES`).
pub const MAX_ANALYSIS_SAMPLES: u32 = 2_000;
/// Analyses one client (IP address) may have under way at once.
pub const ANALYSES_PER_CLIENT: usize = 1;
/// Value-network analyses (`method=value`) one client may have under way at once: they cost
/// about 70× less than playouts, so the limit is looser, and they have workers and a queue of
/// their own (`games/uno/analysis.rs`).
pub const VALUE_ANALYSES_PER_CLIENT: usize = 4;
/// The value network's queue is this many times the playouts' (`Config::analysis_queue`).
pub const VALUE_ANALYSIS_QUEUE_FACTOR: usize = 4;
/// Finished analyses kept for the next viewer, the oldest forgotten first.
pub const ANALYSIS_CACHE_ENTRIES: usize = 256;
/// Players one page of `GET /api/stats` lists at most.
pub const MAX_STATS_PAGE: usize = 200;
/// Largest record file `POST /api/records` takes (a 500-action game is about 30 KB).
pub const MAX_RECORD_BYTES: usize = 512 * 1024;
/// The longest `engine_version` an imported record may state (the engine's own are short:
/// `uno 0.4.0`).
pub const MAX_ENGINE_VERSION_CHARS: usize = 64;
/// Most actions an imported record may have (it is replayed, checked, on every frame asked).
pub const MAX_IMPORTED_ACTIONS: usize = 5_000;
