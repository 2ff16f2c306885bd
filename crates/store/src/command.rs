//! The one command language of both backends, and the one layer that forwards [`GameStore`]
//! calls into it.
//!
//! A store handle sends a [`Cmd`] to its writer (a thread for SQLite, a task for PostgreSQL),
//! which applies the writes in batches and answers the reads between them. Both backends speak
//! these same commands: [`forward_commands!`] writes the `GameStore` methods that only build a
//! command, once for both, and each backend writes only what differs (its name, its location,
//! and for PostgreSQL the leases).
//!
//! [`GameStore`]: crate::GameStore

use tokio::sync::oneshot;

use crate::{Entry, GameResult, Kind, Meta, NewGame, NewResult, Record, Reply, Status, StoreError, StoredGame};
use crate::{Tally, TallyPage, Ticket};

/// Where a writer sends its answer.
pub(crate) type Answer<T> = oneshot::Sender<Result<T, StoreError>>;

/// A change to the store, applied in the order queued.
pub(crate) enum Write {
    Create(NewGame),
    Append {
        id: String,
        seq: i64,
        entry: Entry,
    },
    Meta {
        id: String,
        meta: Meta,
    },
    Status {
        id: String,
        status: Status,
    },
    /// A rematch: a new record, the log emptied.
    Reset {
        id: String,
        record: Record,
        meta: Meta,
    },
    Result(NewResult),
    ForgetResults {
        kind: Kind,
        before: i64,
    },
    Tally {
        kind: Kind,
        game_id: String,
        finished_at: i64,
        tallies: Option<Vec<Tally>>,
    },
}

/// What a store handle asks its writer.
pub(crate) enum Cmd {
    Write(Write, Answer<()>),
    /// The active games of a kind this store holds, after adopting those whose lease ran out:
    /// all of them (`true`, `load_active`), or only the ones adopted now (`false`, `adopt`).
    /// Without leases every active game is held and none is ever adopted.
    Adopt(Kind, bool, Answer<Vec<StoredGame>>),
    /// Stops renewing a game's lease, after the writes queued before (leases only).
    Release(String),
    Load(String, Answer<Option<StoredGame>>),
    /// Who took the game's lease last (leases only).
    Holder(String, Answer<Option<String>>),
    Results(Kind, Answer<Vec<GameResult>>),
    ResultsOf(String, Answer<Vec<GameResult>>),
    Untallied(Kind, Answer<Vec<GameResult>>),
    Tallies(Kind, u64, u64, Answer<TallyPage>),
}

/// A store handle: it can queue a command for its writer.
pub(crate) trait Queue {
    /// Queues `cmd`; if the writer is gone, the command (and its answer) is dropped, and the
    /// caller's reply reports [`StoreError::Closed`].
    fn queue(&self, cmd: Cmd);

    /// Queues a write; the ticket resolves once it is durable (or refused).
    fn write(&self, w: Write) -> Ticket {
        self.ask(|tx| Cmd::Write(w, tx))
    }

    /// Queues a read (or any command with an answer).
    fn ask<T>(&self, cmd: impl FnOnce(Answer<T>) -> Cmd) -> Reply<T> {
        let (tx, reply) = Reply::channel();
        self.queue(cmd(tx));
        reply
    }
}

/// The [`GameStore`](crate::GameStore) methods that only build a command, for a backend that
/// implements [`Queue`]: written once, inside each backend's `impl GameStore`.
macro_rules! forward_commands {
    () => {
        fn create(&self, game: $crate::NewGame) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::Create(game))
        }

        fn append(&self, id: &str, seq: u64, entry: $crate::Entry) -> $crate::Ticket {
            $crate::command::Queue::write(
                self,
                $crate::command::Write::Append { id: id.into(), seq: seq as i64, entry },
            )
        }

        fn set_meta(&self, id: &str, meta: $crate::Meta) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::Meta { id: id.into(), meta })
        }

        fn set_status(&self, id: &str, status: $crate::Status) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::Status { id: id.into(), status })
        }

        fn reset(&self, id: &str, record: $crate::Record, meta: $crate::Meta) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::Reset { id: id.into(), record, meta })
        }

        fn add_result(&self, result: $crate::NewResult) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::Result(result))
        }

        fn load_active(&self, kind: $crate::Kind) -> $crate::Reply<Vec<$crate::StoredGame>> {
            $crate::command::Queue::ask(self, |tx| $crate::command::Cmd::Adopt(kind, true, tx))
        }

        fn load(&self, id: &str) -> $crate::Reply<Option<$crate::StoredGame>> {
            $crate::command::Queue::ask(self, |tx| $crate::command::Cmd::Load(id.into(), tx))
        }

        fn results(&self, kind: $crate::Kind) -> $crate::Reply<Vec<$crate::GameResult>> {
            $crate::command::Queue::ask(self, |tx| $crate::command::Cmd::Results(kind, tx))
        }

        fn results_of(&self, game_id: &str) -> $crate::Reply<Vec<$crate::GameResult>> {
            $crate::command::Queue::ask(self, |tx| $crate::command::Cmd::ResultsOf(game_id.into(), tx))
        }

        fn forget_results(&self, kind: $crate::Kind, before: i64) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::ForgetResults { kind, before })
        }

        fn tallies(&self, kind: $crate::Kind, offset: u64, limit: u64) -> $crate::Reply<$crate::TallyPage> {
            $crate::command::Queue::ask(self, |tx| $crate::command::Cmd::Tallies(kind, offset, limit, tx))
        }

        fn untallied(&self, kind: $crate::Kind) -> $crate::Reply<Vec<$crate::GameResult>> {
            $crate::command::Queue::ask(self, |tx| $crate::command::Cmd::Untallied(kind, tx))
        }

        fn tally(
            &self,
            kind: $crate::Kind,
            game_id: &str,
            finished_at: i64,
            tallies: Option<Vec<$crate::Tally>>,
        ) -> $crate::Ticket {
            $crate::command::Queue::write(
                self,
                $crate::command::Write::Tally { kind, game_id: game_id.into(), finished_at, tallies },
            )
        }
    };
}

pub(crate) use forward_commands;
