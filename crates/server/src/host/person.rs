//! Who is asking, as the host sees it: a guest, or a signed-in person with an account
//! ([`Person`]). The HTTP side reads it from the session cookie (`crate::accounts`); the host
//! uses it to seat people under their own names, to keep an account's name its own, and to
//! rate tables whose every seat is a signed-in person.

use super::seats::{name_key, same_name};
use super::{TableError, Tables};

/// A signed-in person: their account's id and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedIn {
    pub id: String,
    pub name: String,
}

/// Who a request is from: a guest (no session, or one that ended), or a signed-in person.
/// Routes take it as an extractor (`crate::accounts`): a request without a session cookie is
/// a guest's at no cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Person {
    #[default]
    Guest,
    Account(SignedIn),
}

impl Person {
    /// The signed-in person, if any.
    pub fn account(&self) -> Option<&SignedIn> {
        match self {
            Person::Guest => None,
            Person::Account(a) => Some(a),
        }
    }

    /// The account's id, if signed in.
    pub fn id(&self) -> Option<&str> {
        self.account().map(|a| a.id.as_str())
    }
}

impl Tables {
    /// Refuses `name` for `person` when it is another account's name (case and invisible
    /// characters aside): a signed-in person's name is theirs. A store that keeps no people
    /// has no accounts.
    pub(crate) async fn check_name_free(&self, name: &str, person: &Person) -> Result<(), TableError> {
        if person.account().is_some_and(|a| same_name(&a.name, name)) {
            return Ok(());
        }
        let Some(people) = self.store().people() else { return Ok(()) };
        match super::store_read(people.account_named(&name_key(name))).await? {
            Some(a) if Some(a.id.as_str()) != person.id() => Err(TableError::NameOwned),
            _ => Ok(()),
        }
    }

    /// Notes that an account holds seat `seat` of table `id` (its profile's games). A failure
    /// is logged: the seat is taken all the same.
    pub(crate) async fn link_seat(&self, account: &str, id: &str, seat: super::Seat) {
        let Some(people) = self.store().people() else { return };
        let at = crate::host::person::now_ms();
        if let Err(e) = people.link_seat(account, id, seat.index() as i64, at).await {
            tracing::warn!(error = %e, table = id, "an account's seat was not linked");
        }
    }
}

/// What the statistics' tally of an account's games is kept under (`crate::stats`): a name no
/// seat can have (seat names hold no control characters), so no guest's is counted as one.
pub(crate) const ACCOUNT_TALLY: &str = "\u{1}account:";

/// The tally key of `account`'s games.
pub(crate) fn account_tally(account: &str) -> String {
    format!("{ACCOUNT_TALLY}{account}")
}

/// The name every deleted account's seats are shown under (a name nobody can take).
pub const DELETED_NAME: &str = "deleted player";

impl Tables {
    /// The seats of stored game `id` that a since-deleted account held: shown under
    /// [`DELETED_NAME`], with no account. None when the store keeps no people or cannot be read
    /// now (the names kept are shown then).
    pub(crate) async fn deleted_seats(&self, id: &str) -> Vec<usize> {
        let Some(people) = self.store().people() else { return Vec::new() };
        match super::store_read(people.seat_holders(id)).await {
            Ok(holders) => holders
                .into_iter()
                .filter(|(_, a)| a.deleted_at.is_some())
                .filter_map(|(seat, _)| usize::try_from(seat).ok())
                .collect(),
            Err(e) => {
                tracing::warn!(error = %e, table = id, "a game's seat holders were not read");
                Vec::new()
            }
        }
    }

    /// Forgets the finished tables in memory where `account` sat, so they are read again from
    /// the store (with its seats under [`DELETED_NAME`]) once it is deleted.
    pub(crate) async fn forget_finished_of(&self, game_ids: &[String]) {
        for id in game_ids {
            if let Some(t) = self.in_memory(id) {
                if t.finished().await {
                    self.remove(id);
                }
            }
        }
    }
}

/// A stored table's meta with the seats `deleted` under [`DELETED_NAME`] and no account.
pub(crate) fn anonymised(meta: &store::Meta, deleted: &[usize]) -> Option<store::Meta> {
    let mut v: serde_json::Value = serde_json::from_str(meta.as_json()).ok()?;
    let seats = v.get_mut("seats")?.as_array_mut()?;
    for &i in deleted {
        if let Some(serde_json::Value::Object(seat)) = seats.get_mut(i) {
            seat.insert("name".into(), serde_json::Value::String(DELETED_NAME.into()));
            seat.remove("account");
            seat.remove("rating");
        }
    }
    store::Meta::new(&v).ok()
}

/// The most seats one claim may name (`POST /api/account/claim`).
pub const MAX_CLAIMED_SEATS: usize = 200;

impl Tables {
    /// A guest who became `account` claims the seats their browser holds, `(table, token)`
    /// pairs: each guest's seat whose token matches is linked to the account (its profile's
    /// games). A seat another account holds, a token that holds no seat, and a table this
    /// instance cannot read now are passed over. Answers how many seats are the account's.
    pub(crate) async fn claim_seats(&self, account: &str, seats: &[(String, String)]) -> usize {
        let mut claimed = 0;
        for (id, token) in seats.iter().take(MAX_CLAIMED_SEATS) {
            let Ok(table) = self.table(id).await else { continue };
            match table.holder(token).await {
                Some((seat, None)) => {
                    self.link_seat(account, id, seat).await;
                    claimed += 1;
                }
                Some((_, Some(a))) if a == account => claimed += 1,
                _ => {}
            }
        }
        claimed
    }
}

/// Now, in Unix milliseconds (the store's clock for people).
pub(crate) fn now_ms() -> i64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}
