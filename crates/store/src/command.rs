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

use crate::people::{
    Account, Attempt, Board, BoardQuery, Ceremony, Credential, Deleted, Limit, NewAccount, NewCredential, NewSession,
    PoolRating, RatedGame, RatingChange, RatingPoint, SeatLink, Session, Swept,
};
use crate::{Entry, GameResult, Header, Kind, Meta, NewGame, NewResult, Reply, Standing, StoreError, StoredGame};
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
    Standing {
        id: String,
        standing: Standing,
    },
    /// A rematch: a new header, the log emptied.
    Reset {
        id: String,
        header: Header,
        meta: Meta,
    },
    Result(NewResult),
    /// An imported record, and the budget every import's record shares.
    Import {
        result: NewResult,
        budget: u64,
    },
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
    /// Ends every lease this store holds, after the writes queued before, so that another
    /// instance may adopt the games at once (a draining instance); answers how many.
    HandOver(Answer<usize>),
    Load(String, Answer<Option<StoredGame>>),
    /// Who took the game's lease last (leases only).
    Holder(String, Answer<Option<String>>),
    Results(Kind, Answer<Vec<GameResult>>),
    ResultsOf(String, Answer<Vec<GameResult>>),
    Untallied(Kind, Answer<Vec<GameResult>>),
    Tallies(Kind, u64, u64, Answer<TallyPage>),
    /// Accounts, sessions, ratings (`people`): run in a transaction of their own.
    People(PeopleCmd),
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

    /// Queues a command of the people's side.
    fn ask_people<T>(&self, cmd: impl FnOnce(Answer<T>) -> PeopleCmd) -> Reply<T> {
        self.ask(|tx| Cmd::People(cmd(tx)))
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

        fn set_standing(&self, id: &str, standing: $crate::Standing) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::Standing { id: id.into(), standing })
        }

        fn reset(&self, id: &str, header: $crate::Header, meta: $crate::Meta) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::Reset { id: id.into(), header, meta })
        }

        fn add_result(&self, result: $crate::NewResult) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::Result(result))
        }

        fn add_import(&self, result: $crate::NewResult, budget: u64) -> $crate::Ticket {
            $crate::command::Queue::write(self, $crate::command::Write::Import { result, budget })
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

/// A request for the people's side, with where its answer goes.
pub(crate) enum PeopleCmd {
    CreateAccount(NewAccount, Answer<()>),
    Account(String, Answer<Option<Account>>),
    AccountNamed(String, Answer<Option<Account>>),
    AddCredential(String, NewCredential, Answer<()>),
    Credentials(String, Answer<Vec<Credential>>),
    Passkey(String, Answer<Option<Credential>>),
    UsedCredential(String, Option<String>, i64, Answer<()>),
    RemoveCredential(String, String, Answer<()>),
    DeleteAccount(String, Answer<Deleted>),
    CreateSession(NewSession, Answer<()>),
    Session(String, i64, Answer<Option<Session>>),
    Sessions(String, i64, Answer<Vec<Session>>),
    EndSession(String, Answer<()>),
    EndSessions(String, Answer<i64>),
    PutCeremony(Ceremony, i64, i64, Answer<()>),
    TakeCeremony(String, String, i64, Answer<Option<Ceremony>>),
    Attempt(String, i64, Limit, Answer<Attempt>),
    Forgive(String, Answer<()>),
    Sweep(i64, i64, Answer<Swept>),
    Rate(RatedGame, Answer<Vec<RatingChange>>),
    Ratings(String, Answer<Vec<PoolRating>>),
    RatingHistory(String, String, i64, Answer<Vec<RatingPoint>>),
    Leaderboard(BoardQuery, Answer<Board>),
    LinkSeat(String, String, i64, i64, Answer<()>),
    SeatLinks(String, i64, Answer<Vec<SeatLink>>),
    SeatHolders(String, Answer<Vec<(i64, Account)>>),
}

impl PeopleCmd {
    /// Answers the command with an error (the store could not run it).
    pub(crate) fn refuse(self, e: StoreError) {
        macro_rules! no {
            ($tx:expr) => {{
                let _ = $tx.send(Err(e));
            }};
        }
        match self {
            PeopleCmd::CreateAccount(_, tx)
            | PeopleCmd::AddCredential(_, _, tx)
            | PeopleCmd::UsedCredential(_, _, _, tx)
            | PeopleCmd::RemoveCredential(_, _, tx)
            | PeopleCmd::CreateSession(_, tx)
            | PeopleCmd::EndSession(_, tx)
            | PeopleCmd::PutCeremony(_, _, _, tx)
            | PeopleCmd::Forgive(_, tx)
            | PeopleCmd::LinkSeat(_, _, _, _, tx) => no!(tx),
            PeopleCmd::Account(_, tx) | PeopleCmd::AccountNamed(_, tx) => no!(tx),
            PeopleCmd::Credentials(_, tx) => no!(tx),
            PeopleCmd::Passkey(_, tx) => no!(tx),
            PeopleCmd::DeleteAccount(_, tx) => no!(tx),
            PeopleCmd::Session(_, _, tx) => no!(tx),
            PeopleCmd::Sessions(_, _, tx) => no!(tx),
            PeopleCmd::EndSessions(_, tx) => no!(tx),
            PeopleCmd::TakeCeremony(_, _, _, tx) => no!(tx),
            PeopleCmd::Attempt(_, _, _, tx) => no!(tx),
            PeopleCmd::Sweep(_, _, tx) => no!(tx),
            PeopleCmd::Rate(_, tx) => no!(tx),
            PeopleCmd::Ratings(_, tx) => no!(tx),
            PeopleCmd::RatingHistory(_, _, _, tx) => no!(tx),
            PeopleCmd::Leaderboard(_, tx) => no!(tx),
            PeopleCmd::SeatLinks(_, _, tx) => no!(tx),
            PeopleCmd::SeatHolders(_, tx) => no!(tx),
        }
    }
}

/// The [`PeopleStore`] methods of a backend whose handle queues [`crate::command::Cmd`]s
/// (both do): written once, inside each backend's `impl PeopleStore`.
macro_rules! people_commands {
    () => {
        fn create_account(&self, account: $crate::people::NewAccount) -> $crate::Ticket {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::CreateAccount(account, tx))
        }
        fn account(&self, id: &str) -> $crate::Reply<Option<$crate::people::Account>> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::Account(id.into(), tx))
        }
        fn account_named(&self, name_key: &str) -> $crate::Reply<Option<$crate::people::Account>> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::AccountNamed(name_key.into(), tx))
        }
        fn add_credential(&self, account: &str, credential: $crate::people::NewCredential) -> $crate::Ticket {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::AddCredential(account.into(), credential, tx)
            })
        }
        fn credentials(&self, account: &str) -> $crate::Reply<Vec<$crate::people::Credential>> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::Credentials(account.into(), tx))
        }
        fn passkey(&self, id: &str) -> $crate::Reply<Option<$crate::people::Credential>> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::Passkey(id.into(), tx))
        }
        fn used_credential(&self, id: &str, data: Option<String>, at: i64) -> $crate::Ticket {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::UsedCredential(id.into(), data, at, tx)
            })
        }
        fn remove_credential(&self, account: &str, id: &str) -> $crate::Ticket {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::RemoveCredential(account.into(), id.into(), tx)
            })
        }
        fn delete_account(&self, id: &str) -> $crate::Reply<$crate::people::Deleted> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::DeleteAccount(id.into(), tx))
        }
        fn create_session(&self, session: $crate::people::NewSession) -> $crate::Ticket {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::CreateSession(session, tx))
        }
        fn session(&self, token_hash: &str, now: i64) -> $crate::Reply<Option<$crate::people::Session>> {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::Session(token_hash.into(), now, tx)
            })
        }
        fn sessions(&self, account: &str, now: i64) -> $crate::Reply<Vec<$crate::people::Session>> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::Sessions(account.into(), now, tx))
        }
        fn end_session(&self, token_hash: &str) -> $crate::Ticket {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::EndSession(token_hash.into(), tx))
        }
        fn end_sessions(&self, account: &str) -> $crate::Reply<i64> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::EndSessions(account.into(), tx))
        }
        fn put_ceremony(&self, ceremony: $crate::people::Ceremony, now: i64, max_live: i64) -> $crate::Ticket {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::PutCeremony(ceremony, now, max_live, tx)
            })
        }
        fn take_ceremony(&self, id: &str, kind: &str, now: i64) -> $crate::Reply<Option<$crate::people::Ceremony>> {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::TakeCeremony(id.into(), kind.into(), now, tx)
            })
        }
        fn attempt(&self, key: &str, now: i64, limit: $crate::people::Limit) -> $crate::Reply<$crate::people::Attempt> {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::Attempt(key.into(), now, limit, tx)
            })
        }
        fn forgive(&self, key: &str) -> $crate::Ticket {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::Forgive(key.into(), tx))
        }
        fn sweep(&self, now: i64, window_ms: i64) -> $crate::Reply<$crate::people::Swept> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::Sweep(now, window_ms, tx))
        }
        fn rate(&self, game: $crate::people::RatedGame) -> $crate::Reply<Vec<$crate::people::RatingChange>> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::Rate(game, tx))
        }
        fn ratings(&self, account: &str) -> $crate::Reply<Vec<$crate::people::PoolRating>> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::Ratings(account.into(), tx))
        }
        fn rating_history(
            &self,
            account: &str,
            pool: &str,
            limit: i64,
        ) -> $crate::Reply<Vec<$crate::people::RatingPoint>> {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::RatingHistory(account.into(), pool.into(), limit, tx)
            })
        }
        fn leaderboard(&self, query: $crate::people::BoardQuery) -> $crate::Reply<$crate::people::Board> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::Leaderboard(query, tx))
        }
        fn link_seat(&self, account: &str, game_id: &str, seat: i64, at: i64) -> $crate::Ticket {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::LinkSeat(account.into(), game_id.into(), seat, at, tx)
            })
        }
        fn seat_links(&self, account: &str, limit: i64) -> $crate::Reply<Vec<$crate::people::SeatLink>> {
            $crate::command::Queue::ask_people(self, |tx| {
                $crate::command::PeopleCmd::SeatLinks(account.into(), limit, tx)
            })
        }
        fn seat_holders(&self, game_id: &str) -> $crate::Reply<Vec<(i64, $crate::people::Account)>> {
            $crate::command::Queue::ask_people(self, |tx| $crate::command::PeopleCmd::SeatHolders(game_id.into(), tx))
        }
    };
}

pub(crate) use people_commands;
