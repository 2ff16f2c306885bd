//! Passkeys (WebAuthn, by `webauthn-rs`): sign up with one (no password), add one to a
//! signed-in account, sign in with one without typing a name (a discoverable credential: the
//! passkey names its account), list and remove them. Each ceremony is two requests: `start`
//! answers the options for `navigator.credentials.create` or `.get` and keeps the library's
//! state in the store (any instance of a cluster finishes it), `finish` takes that state back,
//! once, and checks the browser's answer against it. The relying party is the server's public
//! origin ([`PublicOrigin`], `--public-origin`; `http://localhost` on any port by default).
//!
//! | route | what |
//! |---|---|
//! | `POST /api/account/passkey/sign-up/start` `{name}` | options to make a passkey for a new account |
//! | `POST /api/account/passkey/sign-up/finish` `{ceremony, credential}` | the account, signed in (201) |
//! | `POST /api/account/passkey/add/start` | options to add a passkey to this account |
//! | `POST /api/account/passkey/add/finish` `{ceremony, credential}` | the account's passkeys |
//! | `POST /api/account/passkey/sign-in/start` | options to sign in with any passkey of this site |
//! | `POST /api/account/passkey/sign-in/finish` `{ceremony, credential}` | signed in (200) |
//! | `GET /api/account/passkeys` | the account's passkeys |
//! | `DELETE /api/account/passkeys/{id}` | one removed (refused for the last way to sign in) |
//!
//! Ceremonies are bounded: each runs out after [`CEREMONY_LIFE`], starting one is counted per
//! address (as sign-ins and sign-ups are), and at most `AccountLimits::passkey_ceremonies` are
//! under way at once in the whole store (past that, 429 `too_many_attempts`). A passkey's
//! signature counter is checked by the library (a counter that did not grow, for a passkey that
//! counts, is refused as a cloned key's) and the grown one stored.

use std::fmt;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use store::people::{Ceremony, CredentialKind, NewAccount, NewCredential};
use store::{SharedPeople, StoreError};
use webauthn_rs::prelude::{
    CredentialID, DiscoverableAuthentication, DiscoverableKey, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Uuid,
};

use super::{account_name, body, count, new_account_id, people, start_session, view, Me};
use crate::client::Client;
use crate::host::person::now_ms;
use crate::host::seats::{name_key, random_hex};
use crate::host::store_read;
use crate::{AccountError, ApiError, AppState};

pub use crate::origin::{OriginError, PublicOrigin, CEREMONY_LIFE};

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/account/passkey/sign-up/start", post(sign_up_start))
        .route("/api/account/passkey/sign-up/finish", post(sign_up_finish))
        .route("/api/account/passkey/add/start", post(add_start))
        .route("/api/account/passkey/add/finish", post(add_finish))
        .route("/api/account/passkey/sign-in/start", post(sign_in_start))
        .route("/api/account/passkey/sign-in/finish", post(sign_in_finish))
        .route("/api/account/passkeys", get(list))
        .route("/api/account/passkeys/{id}", delete(remove))
}

/// The body of `POST /api/account/passkey/sign-up/start`: the new account's name.
#[derive(Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct PasskeySignUp {
    pub name: String,
}

/// The answer to a ceremony's start: its id, to send back with the browser's answer, and the
/// options for the browser (WebAuthn's JSON form: `{publicKey: …}`, its binary fields in
/// base64url).
#[derive(Serialize, ts_rs::TS)]
pub struct PasskeyChallenge {
    pub ceremony: String,
    #[ts(type = "{ publicKey: Record<string, unknown> }")]
    pub options: Value,
}

/// The body of a ceremony's finish: its id and the browser's credential, in WebAuthn's JSON
/// form (`id`, `rawId`, `type`, `response` with its binary fields in base64url).
#[derive(Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct PasskeyFinish {
    pub ceremony: String,
    #[ts(type = "Record<string, unknown>")]
    pub credential: Value,
}

/// One of an account's passkeys.
#[derive(Serialize, ts_rs::TS)]
pub struct PasskeyView {
    /// Its credential id (base64url), which `DELETE /api/account/passkeys/{id}` takes.
    pub id: String,
    /// When it was added, and last used to sign in (Unix milliseconds).
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number | null")]
    pub used_at: Option<i64>,
}

/// `GET /api/account/passkeys`, and the answer to adding or removing one.
#[derive(Serialize, ts_rs::TS)]
pub struct Passkeys {
    pub passkeys: Vec<PasskeyView>,
}

/// What a registration keeps between its two requests.
#[derive(Serialize, Deserialize)]
struct Registering {
    account: String,
    /// The new account's name (a sign-up); empty when adding to an account.
    name: String,
    state: PasskeyRegistration,
}

const SIGN_UP: &str = "sign_up";
const ADD: &str = "add_passkey";
const SIGN_IN: &str = "sign_in";

fn failed(why: impl fmt::Display) -> ApiError {
    tracing::debug!("passkey refused: {why}");
    AccountError::PasskeyFailed.into()
}

fn origin(app: &AppState) -> PublicOrigin {
    app.config().public_origin.clone()
}

/// A credential id as the store keeps it: base64url, as the browser names it.
fn credential_key(id: &CredentialID) -> Result<String, ApiError> {
    match serde_json::to_value(id) {
        Ok(Value::String(s)) => Ok(s),
        _ => Err(ApiError::Internal("a credential id that is not a string".into())),
    }
}

/// Keeps a ceremony's state for its finish; refused when too many are under way.
async fn keep(app: &AppState, people: &SharedPeople, kind: &str, state: &impl Serialize) -> Result<String, ApiError> {
    let state = serde_json::to_string(state).map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = random_hex(32);
    let now = now_ms();
    let ceremony =
        Ceremony { id: id.clone(), kind: kind.to_string(), state, expires_at: now + CEREMONY_LIFE.as_millis() as i64 };
    match people.put_ceremony(ceremony, now, app.config().accounts.passkey_ceremonies).await {
        Err(StoreError::TooManyCeremonies) => Err(AccountError::TooManyAttempts { retry: 60 }.into()),
        other => Ok(other.map(|()| id)?),
    }
}

/// Takes a ceremony's state back (once), or refuses: unknown, of another kind, run out.
async fn take<T: serde::de::DeserializeOwned>(people: &SharedPeople, id: &str, kind: &str) -> Result<T, ApiError> {
    if id.is_empty() || id.len() > 128 {
        return Err(failed("no such ceremony"));
    }
    let Some(c) = store_read(people.take_ceremony(id, kind, now_ms())).await? else {
        return Err(failed("no such ceremony, or it ran out"));
    };
    serde_json::from_str(&c.state).map_err(|e| ApiError::Internal(format!("a ceremony's state: {e}")))
}

/// Options as a browser takes them: without the members the library leaves `null` (a browser
/// refuses a `null` where it expects a list or a dictionary).
fn without_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(without_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(without_nulls),
        _ => {}
    }
}

/// Registration options that ask for a discoverable credential (a passkey that names its
/// account, so signing in needs no name), which the library leaves to the authenticator.
fn discoverable(options: &impl Serialize) -> Result<Value, ApiError> {
    let mut v = serde_json::to_value(options).map_err(|e| ApiError::Internal(e.to_string()))?;
    if let Some(sel) = v.pointer_mut("/publicKey/authenticatorSelection").and_then(Value::as_object_mut) {
        sel.insert("residentKey".into(), "required".into());
        sel.insert("requireResidentKey".into(), true.into());
    }
    without_nulls(&mut v);
    Ok(v)
}

fn account_uuid(id: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(id).map_err(|e| ApiError::Internal(format!("account id {id:?} is not a UUID: {e}")))
}

async fn sign_up_start(
    State(app): State<AppState>,
    client: Client,
    req: Result<Json<PasskeySignUp>, JsonRejection>,
) -> Result<Json<PasskeyChallenge>, ApiError> {
    let people = people(&app)?;
    let name = account_name(&body(req)?.name)?;
    count(&people, &format!("sign_up:addr:{}", client.0), app.config().accounts.sign_up_per_address).await?;
    // Sign-up says a name is taken (it must); said before the passkey is made, not after.
    if store_read(people.account_named(&name_key(&name))).await?.is_some() {
        return Err(AccountError::NameUnavailable.into());
    }
    let account = new_account_id();
    let (options, state) = origin(&app)
        .webauthn
        .start_passkey_registration(account_uuid(&account)?, &name, &name, None)
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let ceremony = keep(&app, &people, SIGN_UP, &Registering { account, name, state }).await?;
    Ok(Json(PasskeyChallenge { ceremony, options: discoverable(&options)? }))
}

/// The passkey a registration's answer makes, as the store keeps it.
fn registered(app: &AppState, credential: Value, reg: &Registering) -> Result<NewCredential, ApiError> {
    let credential: RegisterPublicKeyCredential = serde_json::from_value(credential).map_err(failed)?;
    let passkey = origin(app).webauthn.finish_passkey_registration(&credential, &reg.state).map_err(failed)?;
    let data = serde_json::to_string(&passkey).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(NewCredential { id: credential_key(passkey.cred_id())?, kind: CredentialKind::Passkey, data })
}

async fn sign_up_finish(
    State(app): State<AppState>,
    headers: HeaderMap,
    req: Result<Json<PasskeyFinish>, JsonRejection>,
) -> Result<Response, ApiError> {
    let people = people(&app)?;
    let req = body(req)?;
    let reg: Registering = take(&people, &req.ceremony, SIGN_UP).await?;
    let credential = registered(&app, req.credential, &reg)?;
    let account =
        NewAccount { id: reg.account.clone(), name_key: name_key(&reg.name), name: reg.name.clone(), credential };
    match people.create_account(account).await {
        Err(StoreError::NameTaken) => return Err(AccountError::NameUnavailable.into()),
        Err(StoreError::Duplicate(_)) => return Err(failed("a passkey registered before")),
        other => other?,
    }
    let cookie = start_session(&app, &people, &reg.account, &headers).await?;
    let account = view(&people, &reg.account).await?;
    Ok((StatusCode::CREATED, [cookie], Json(Me { account })).into_response())
}

async fn add_start(State(app): State<AppState>, signed: super::Signed) -> Result<Json<PasskeyChallenge>, ApiError> {
    let people = people(&app)?;
    let id = signed.who.id;
    count(&people, &format!("passkey_add:account:{id}"), app.config().accounts.sign_up_per_address).await?;
    // The passkeys it has already: an authenticator holding one makes no second.
    let mut have = Vec::new();
    for c in store_read(people.credentials(&id)).await? {
        if c.kind == CredentialKind::Passkey {
            if let Ok(p) = serde_json::from_str::<Passkey>(&c.data) {
                have.push(p.cred_id().clone());
            }
        }
    }
    let (options, state) = origin(&app)
        .webauthn
        .start_passkey_registration(account_uuid(&id)?, &signed.who.name, &signed.who.name, Some(have))
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let ceremony = keep(&app, &people, ADD, &Registering { account: id, name: String::new(), state }).await?;
    Ok(Json(PasskeyChallenge { ceremony, options: discoverable(&options)? }))
}

async fn add_finish(
    State(app): State<AppState>,
    signed: super::Signed,
    req: Result<Json<PasskeyFinish>, JsonRejection>,
) -> Result<Json<Passkeys>, ApiError> {
    let people = people(&app)?;
    let req = body(req)?;
    let reg: Registering = take(&people, &req.ceremony, ADD).await?;
    if reg.account != signed.who.id {
        return Err(failed("a ceremony of another account"));
    }
    let credential = registered(&app, req.credential, &reg)?;
    match people.add_credential(&reg.account, credential).await {
        Err(StoreError::Duplicate(_)) => return Err(failed("a passkey registered before")),
        Err(StoreError::NoSuchAccount) => return Err(AccountError::NotSignedIn.into()),
        other => other?,
    }
    passkeys(&people, &reg.account).await.map(Json)
}

async fn sign_in_start(State(app): State<AppState>, client: Client) -> Result<Json<PasskeyChallenge>, ApiError> {
    let people = people(&app)?;
    count(&people, &format!("sign_in:addr:{}", client.0), app.config().accounts.sign_in_per_address).await?;
    let (options, state) =
        origin(&app).webauthn.start_discoverable_authentication().map_err(|e| ApiError::Internal(e.to_string()))?;
    let ceremony = keep(&app, &people, SIGN_IN, &state).await?;
    // The library asks for conditional mediation (passkeys offered in the name field's
    // autofill); the page asks at the press of a button instead, so it decides that itself.
    let mut options = serde_json::to_value(&options).map_err(|e| ApiError::Internal(e.to_string()))?;
    if let Some(o) = options.as_object_mut() {
        o.remove("mediation");
    }
    without_nulls(&mut options);
    Ok(Json(PasskeyChallenge { ceremony, options }))
}

async fn sign_in_finish(
    State(app): State<AppState>,
    headers: HeaderMap,
    req: Result<Json<PasskeyFinish>, JsonRejection>,
) -> Result<Response, ApiError> {
    let people = people(&app)?;
    let req = body(req)?;
    let state: DiscoverableAuthentication = take(&people, &req.ceremony, SIGN_IN).await?;
    let credential: PublicKeyCredential = serde_json::from_value(req.credential).map_err(failed)?;
    let webauthn = origin(&app).webauthn;
    let (user, raw_id) = webauthn.identify_discoverable_authentication(&credential).map_err(failed)?;
    let key = credential_key(&CredentialID::from(raw_id.to_vec()))?;
    let Some(stored) = store_read(people.passkey(&key)).await? else { return Err(failed("an unknown passkey")) };
    if account_uuid(&stored.account)? != user {
        return Err(failed("a passkey presented for another account"));
    }
    let mut passkey: Passkey = serde_json::from_str(&stored.data).map_err(|e| ApiError::Internal(e.to_string()))?;
    let result = webauthn
        .finish_discoverable_authentication(&credential, state, &[DiscoverableKey::from(&passkey)])
        .map_err(failed)?;
    // The counter grew (checked above), or its backup state changed: stored as it is now.
    let data = match passkey.update_credential(&result) {
        Some(true) => Some(serde_json::to_string(&passkey).map_err(|e| ApiError::Internal(e.to_string()))?),
        _ => None,
    };
    people.used_credential(&stored.id, data, now_ms()).await?;
    let cookie = start_session(&app, &people, &stored.account, &headers).await?;
    let account = view(&people, &stored.account).await?;
    Ok((StatusCode::OK, [cookie], Json(Me { account })).into_response())
}

async fn passkeys(people: &SharedPeople, account: &str) -> Result<Passkeys, ApiError> {
    let passkeys = store_read(people.credentials(account))
        .await?
        .into_iter()
        .filter(|c| c.kind == CredentialKind::Passkey)
        .map(|c| PasskeyView { id: c.id, created_at: c.created_at, used_at: c.used_at })
        .collect();
    Ok(Passkeys { passkeys })
}

async fn list(State(app): State<AppState>, signed: super::Signed) -> Result<Json<Passkeys>, ApiError> {
    let people = people(&app)?;
    passkeys(&people, &signed.who.id).await.map(Json)
}

async fn remove(
    State(app): State<AppState>,
    signed: super::Signed,
    Path(id): Path<String>,
) -> Result<Json<Passkeys>, ApiError> {
    let people = people(&app)?;
    let account = signed.who.id;
    // Only a passkey of this account: not its password, not another's passkey.
    match store_read(people.passkey(&id)).await? {
        Some(c) if c.account == account => {}
        _ => return Err(AccountError::NoSuchPasskey.into()),
    }
    match people.remove_credential(&account, &id).await {
        Err(StoreError::LastCredential) => return Err(AccountError::LastCredential.into()),
        Err(StoreError::NoSuchCredential) => return Err(AccountError::NoSuchPasskey.into()),
        other => other?,
    }
    passkeys(&people, &account).await.map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_origin_is_localhost_on_any_port() {
        let o = PublicOrigin::localhost();
        assert_eq!((o.origin(), o.rp_id()), ("http://localhost", "localhost"));
    }

    #[test]
    fn a_public_origin_is_https_and_a_host_name() {
        let o = PublicOrigin::parse("https://Uno.Example.org").expect("an origin");
        assert_eq!((o.origin(), o.rp_id()), ("https://uno.example.org", "uno.example.org"));
        let o = PublicOrigin::parse("https://uno.example.org:8443/").expect("with a port");
        assert_eq!(o.origin(), "https://uno.example.org:8443");
        assert!(PublicOrigin::parse("http://localhost:8080").is_ok());
        assert!(matches!(PublicOrigin::parse("http://uno.example.org"), Err(OriginError::Scheme(_))));
        assert!(matches!(PublicOrigin::parse("https://127.0.0.1"), Err(OriginError::NoDomain)));
        assert!(matches!(PublicOrigin::parse("https://[::1]:8080"), Err(OriginError::NoDomain)));
        assert!(matches!(PublicOrigin::parse("https://uno.example.org/play"), Err(OriginError::NotOrigin)));
        assert!(matches!(PublicOrigin::parse("https://u@uno.example.org"), Err(OriginError::NotOrigin)));
        assert!(matches!(PublicOrigin::parse("uno.example.org"), Err(OriginError::NotUrl(..))));
    }

    #[test]
    fn registration_asks_for_a_discoverable_passkey() {
        let o = PublicOrigin::localhost();
        let (options, _) =
            o.webauthn.start_passkey_registration(Uuid::new_v4(), "ann", "ann", None).expect("registration");
        let v = discoverable(&options).expect("json");
        assert_eq!(v["publicKey"]["authenticatorSelection"]["residentKey"], "required");
        assert_eq!(v["publicKey"]["authenticatorSelection"]["requireResidentKey"], true);
        assert_eq!(v["publicKey"]["authenticatorSelection"]["userVerification"], "required");
        assert_eq!(v["publicKey"]["rp"]["id"], "localhost");
    }
}
