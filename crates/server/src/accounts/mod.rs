//! Accounts over HTTP (documented in docs/accounts.md): sign up and sign in with a name and a
//! password, sign out here or everywhere, the account as JSON, its data to download, and its
//! deletion. Every route is under `/api/account`:
//!
//! | route | what |
//! |---|---|
//! | `POST /api/account/sign-up` `{name, password}` | a new account, signed in (201) |
//! | `POST /api/account/sign-in` `{name, password}` | signed in (200) |
//! | `POST /api/account/sign-out` | this browser signed out (204) |
//! | `POST /api/account/sign-out-everywhere` | every session of the account ended (200 `{sessions}`) |
//! | `GET /api/account` | `{account}`: the signed-in person's [`AccountView`], or `null` |
//! | `GET /api/account/data` | everything kept about the account, as a JSON download |
//! | `POST /api/account/delete` | the account deleted, its games kept (200) |
//! | `POST /api/account/claim` `{seats: [{table, token}]}` | a guest's seats, now the account's games (200 `{seats}`) |
//! | `/api/account/passkey/…`, `/api/account/passkeys` | passkeys: see [`passkeys`] |
//!
//! A session is a cookie ([`session::COOKIE`], HttpOnly, SameSite=Lax, Secure off loopback);
//! routes learn who asks from the extractor [`Person`] (a guest, or a signed-in account), and
//! a route only for the signed-in from `session::Signed`. Every state-changing request a cookie
//! authenticates passes the same-site check of [`csrf`]. Sign-ins are counted per name and per
//! address, sign-ups per address, in the store (so across a cluster), and a sign-in is refused
//! in the same words, after the same work, whether its name is an account's or not.

pub(crate) mod csrf;
pub mod passkeys;
pub(crate) mod password;
pub mod players;
pub mod session;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use store::people::{Attempt, CredentialKind, Limit, NewAccount, NewCredential, NewSession};
use store::{SharedPeople, StoreError};

use crate::client::Client;
use crate::host::person::now_ms;
use crate::host::seats::{check_name, name_key, same_name};
use crate::host::{store_read, Person};
use crate::{limits, AccountError, ApiError, AppState};
use session::Signed;

pub use crate::host::person::DELETED_NAME;

pub fn routes(state: AppState) -> Router {
    Router::new()
        .route("/api/account", get(me))
        .route("/api/account/sign-up", post(sign_up))
        .route("/api/account/sign-in", post(sign_in))
        .route("/api/account/sign-out", post(sign_out))
        .route("/api/account/sign-out-everywhere", post(sign_out_everywhere))
        .route("/api/account/data", get(data))
        .route("/api/account/delete", post(delete))
        .route("/api/account/claim", post(claim))
        .merge(passkeys::routes())
        .with_state(state.clone())
        .merge(players::routes(state))
}

/// Passwords checked against an Argon2id hash since the process started: a sign-in under a
/// name no account has counts one too (checked against a stand-in).
pub fn password_checks() -> u64 {
    password::CHECKS.load(std::sync::atomic::Ordering::Relaxed)
}

/// An account as its owner sees it.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct AccountView {
    pub id: String,
    pub name: String,
    /// When it was made (Unix milliseconds).
    #[ts(type = "number")]
    pub created_at: i64,
    /// Whether it has a password, and how many passkeys.
    pub password: bool,
    pub passkeys: u32,
}

/// `GET /api/account`: the signed-in person's account, or `null` for a guest.
#[derive(Serialize, ts_rs::TS)]
pub struct Me {
    pub account: Option<AccountView>,
}

/// The body of a sign-up or a sign-in with a password.
#[derive(Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct PasswordRequest {
    pub name: String,
    pub password: String,
}

/// The answer to `POST /api/account/sign-out-everywhere`: the sessions it ended.
#[derive(Serialize, ts_rs::TS)]
pub struct SignedOut {
    #[ts(type = "number")]
    pub sessions: i64,
}

fn people(app: &AppState) -> Result<SharedPeople, ApiError> {
    app.store().people().ok_or(AccountError::Unavailable.into())
}

fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    b.map(|Json(v)| v).map_err(ApiError::from)
}

/// Counts one attempt under `key`, or refuses it (429 `too_many_attempts`) past `limit`.
async fn count(people: &SharedPeople, key: &str, limit: Limit) -> Result<(), ApiError> {
    match store_read(people.attempt(key, now_ms(), limit)).await? {
        Attempt::Allowed => Ok(()),
        Attempt::Wait(ms) => {
            Err(AccountError::TooManyAttempts { retry: (ms.max(0) as u64).div_ceil(1000).max(1) }.into())
        }
    }
}

/// A fresh account id: a random (version 4) UUID, as passkeys name their user.
fn new_account_id() -> String {
    let mut b = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(b);
    format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
}

/// A name an account may take: one a seat could (visible, within the limit, no direction
/// tricks), and none that reads as a bot's or as the deleted players' name.
pub(crate) fn account_name(name: &str) -> Result<String, ApiError> {
    let name = check_name(name, "name", limits::MAX_NAME_CHARS)?;
    let bots = uno_bots::BOT_NAMES.iter().chain(&[DELETED_NAME, "guest", "bot"]);
    if bots.into_iter().any(|b| same_name(b, &name)) {
        return Err(AccountError::NameUnavailable.into());
    }
    Ok(name)
}

/// Starts a session for `account`: stored as its token's hash, the token in the cookie.
async fn start_session(
    app: &AppState,
    people: &SharedPeople,
    account: &str,
    headers: &HeaderMap,
) -> Result<(header::HeaderName, axum::http::HeaderValue), ApiError> {
    let (token, token_hash) = session::new_token();
    let life = app.config().accounts.session;
    let agent = headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let expires_at = now_ms().saturating_add(life.as_millis() as i64);
    people.create_session(NewSession { token_hash, account: account.to_string(), expires_at, agent }).await?;
    Ok(session::set_cookie(&token, life.as_secs(), headers))
}

async fn view(people: &SharedPeople, id: &str) -> Result<Option<AccountView>, ApiError> {
    let Some(a) = store_read(people.account(id)).await? else { return Ok(None) };
    if a.deleted_at.is_some() {
        return Ok(None);
    }
    let creds = store_read(people.credentials(id)).await?;
    Ok(Some(AccountView {
        id: a.id,
        name: a.name,
        created_at: a.created_at,
        password: creds.iter().any(|c| c.kind == CredentialKind::Password),
        passkeys: creds.iter().filter(|c| c.kind == CredentialKind::Passkey).count() as u32,
    }))
}

async fn me(State(app): State<AppState>, person: Person) -> Result<Json<Me>, ApiError> {
    let account = match (person.id(), app.store().people()) {
        (Some(id), Some(people)) => view(&people, id).await?,
        _ => None,
    };
    Ok(Json(Me { account }))
}

async fn sign_up(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    req: Result<Json<PasswordRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let people = people(&app)?;
    let req = body(req)?;
    let name = account_name(&req.name)?;
    password::check(&req.password)?;
    count(&people, &format!("sign_up:addr:{}", client.0), app.config().accounts.sign_up_per_address).await?;
    let hash = password::hash(req.password).await?;
    let id = new_account_id();
    let credential = NewCredential { id: NewCredential::password_id(&id), kind: CredentialKind::Password, data: hash };
    let account = NewAccount { id: id.clone(), name_key: name_key(&name), name, credential };
    match people.create_account(account).await {
        Err(StoreError::NameTaken) => return Err(AccountError::NameUnavailable.into()),
        other => other?,
    }
    let cookie = start_session(&app, &people, &id, &headers).await?;
    let account = view(&people, &id).await?;
    Ok((StatusCode::CREATED, [cookie], Json(Me { account })).into_response())
}

async fn sign_in(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    req: Result<Json<PasswordRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let people = people(&app)?;
    let req = body(req)?;
    let limits = app.config().accounts;
    // Counted before anything is looked up, under the name as typed (folded) whether or not
    // an account holds it: the limit says nothing about which names exist.
    let key = name_key(&req.name);
    count(&people, &format!("sign_in:addr:{}", client.0), limits.sign_in_per_address).await?;
    count(&people, &format!("sign_in:name:{key}"), limits.sign_in_per_name).await?;
    let account = if key.is_empty() || req.password.chars().count() > password::MAX_CHARS {
        None
    } else {
        store_read(people.account_named(&key)).await?
    };
    let credential = match &account {
        Some(a) => {
            store_read(people.credentials(&a.id)).await?.into_iter().find(|c| c.kind == CredentialKind::Password)
        }
        None => None,
    };
    let hash = credential.as_ref().map(|c| c.data.clone());
    let password = req.password.chars().take(password::MAX_CHARS).collect();
    let (Some(account), Some(credential), true) = (account, credential, password::verify(hash, password).await) else {
        return Err(AccountError::SignInFailed.into());
    };
    people.used_credential(&credential.id, None, now_ms()).await?;
    let cookie = start_session(&app, &people, &account.id, &headers).await?;
    let account = view(&people, &account.id).await?;
    Ok((StatusCode::OK, [cookie], Json(Me { account })).into_response())
}

async fn sign_out(State(app): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let (Some(token), Some(people)) = (session::token(&headers), app.store().people()) {
        people.end_session(&crate::host::seats::hash_token(&token)).await?;
    }
    Ok((StatusCode::NO_CONTENT, [session::clear_cookie(&headers)]).into_response())
}

async fn sign_out_everywhere(
    State(app): State<AppState>,
    signed: Signed,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let people = people(&app)?;
    let sessions = people.end_sessions(&signed.who.id).await?;
    Ok((StatusCode::OK, [session::clear_cookie(&headers)], Json(SignedOut { sessions })).into_response())
}

fn kind_name(k: CredentialKind) -> &'static str {
    match k {
        CredentialKind::Passkey => "passkey",
        CredentialKind::Password => "password",
    }
}

/// Everything the server keeps about an account, for its owner to download.
#[derive(Serialize)]
struct AccountData {
    account: AccountView,
    credentials: Vec<serde_json::Value>,
    sessions: Vec<serde_json::Value>,
    ratings: Vec<serde_json::Value>,
    seats: Vec<serde_json::Value>,
}

async fn data(State(app): State<AppState>, signed: Signed) -> Result<Response, ApiError> {
    use serde_json::json;
    let people = people(&app)?;
    let id = &signed.who.id;
    let Some(account) = view(&people, id).await? else { return Err(AccountError::NotSignedIn.into()) };
    let credentials = store_read(people.credentials(id))
        .await?
        .into_iter()
        .map(|c| json!({"kind": kind_name(c.kind), "created_at": c.created_at, "used_at": c.used_at}))
        .collect();
    let sessions = store_read(people.sessions(id, now_ms()))
        .await?
        .into_iter()
        .map(|s| {
            json!({"created_at": s.created_at, "expires_at": s.expires_at, "agent": s.agent,
                   "this_browser": s.token_hash == signed.hash})
        })
        .collect();
    let mut ratings = Vec::new();
    for r in store_read(people.ratings(id)).await? {
        let history = store_read(people.rating_history(id, &r.pool, 10_000)).await?;
        let history: Vec<_> = history
            .into_iter()
            .map(|p| {
                json!({"game_id": p.game_id, "game": p.game, "at": p.at, "finish": p.finish, "seats": p.seats,
                       "mean": p.after.mean, "deviation": p.after.deviation})
            })
            .collect();
        ratings.push(json!({"pool": r.pool, "mean": r.rating.mean, "deviation": r.rating.deviation,
                            "games": r.rating.games, "last_played": r.rating.last_played, "history": history}));
    }
    let seats = store_read(people.seat_links(id, 100_000))
        .await?
        .into_iter()
        .map(|l| json!({"game_id": l.game_id, "seat": l.seat, "since": l.since}))
        .collect();
    let all = AccountData { account, credentials, sessions, ratings, seats };
    let text = serde_json::to_string_pretty(&all).map_err(|e| ApiError::Internal(e.to_string()))?;
    let disposition = "attachment; filename=\"tabletop-account.json\"";
    Ok((StatusCode::OK, [(header::CONTENT_TYPE, "application/json"), (header::CONTENT_DISPOSITION, disposition)], text)
        .into_response())
}

/// The answer to `POST /api/account/delete`: what went with the account.
#[derive(Serialize, ts_rs::TS)]
pub struct AccountDeleted {
    #[ts(type = "number")]
    pub sessions: i64,
    #[ts(type = "number")]
    pub credentials: i64,
    #[ts(type = "number")]
    pub ratings: i64,
}

async fn delete(State(app): State<AppState>, signed: Signed, headers: HeaderMap) -> Result<Response, ApiError> {
    let people = people(&app)?;
    let games: Vec<String> =
        store_read(people.seat_links(&signed.who.id, 100_000)).await?.into_iter().map(|l| l.game_id).collect();
    let d = people.delete_account(&signed.who.id).await?;
    // Its finished tables are read again from the store, their seats under "deleted player".
    app.tables().forget_finished_of(&games).await;
    let answer = AccountDeleted { sessions: d.sessions, credentials: d.credentials, ratings: d.ratings };
    Ok((StatusCode::OK, [session::clear_cookie(&headers)], Json(answer)).into_response())
}

/// A seat a guest's browser holds: its table and its token.
#[derive(Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct HeldSeat {
    pub table: String,
    pub token: String,
}

/// The body of `POST /api/account/claim`: the seats this browser held as a guest.
#[derive(Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    pub seats: Vec<HeldSeat>,
}

/// The answer to `POST /api/account/claim`: how many of the seats are the account's now.
#[derive(Serialize, ts_rs::TS)]
pub struct Claimed {
    pub seats: u32,
}

/// A guest turned into an account in place: the games they played in this browser (its seat
/// tokens) become the account's, on its profile. Their records keep the names typed then.
async fn claim(
    State(app): State<AppState>,
    signed: Signed,
    req: Result<Json<ClaimRequest>, JsonRejection>,
) -> Result<Json<Claimed>, ApiError> {
    let req = body(req)?;
    let max = crate::host::person::MAX_CLAIMED_SEATS;
    if req.seats.len() > max {
        return Err(ApiError::InvalidBody(format!("at most {max} seats in one claim")));
    }
    let seats: Vec<(String, String)> = req.seats.into_iter().map(|s| (s.table, s.token)).collect();
    let n = app.tables().claim_seats(&signed.who.id, &seats).await;
    Ok(Json(Claimed { seats: n as u32 }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_ids_are_version_4_uuids() {
        let id = new_account_id();
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        assert!(matches!(&id[19..20], "8" | "9" | "a" | "b"), "{id}");
        assert_ne!(id, new_account_id());
    }

    #[test]
    fn bots_names_and_the_deleted_players_are_nobody_s() {
        for n in ["heuristic", "Heuristic", "deleted player", "Deleted\u{200B} Player", "guest"] {
            assert!(account_name(n).is_err(), "{n}");
        }
        assert_eq!(account_name(" Ann ").expect("a name"), "Ann");
    }
}
