//! Passkeys through the HTTP API, against a software authenticator written here (ES256 keys,
//! "none" attestation, discoverable credentials that name their account, a counter it can be
//! told to repeat): sign up with a passkey and no password, sign out, sign in without a name,
//! add and remove passkeys, and the attacks: a cloned key's counter, a ceremony answered twice,
//! another site's origin, a signature of another key, too many ceremonies at once.

use axum::http::StatusCode;
use openssl::bn::BigNumContext;
use openssl::ec::{EcGroup, EcKey};
use openssl::ecdsa::EcdsaSig;
use openssl::nid::Nid;
use openssl::pkey::Private;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

const ORIGIN: &str = "http://localhost:8080";
const ME: &str = "10.0.0.1";

mod common;

use common::people::{server, Answer};

async fn send(app: &axum::Router, method: &str, uri: &str, headers: &[(&str, &str)], body: Option<Value>) -> Answer {
    common::people::send_from(app, "localhost:8080", ME, method, uri, headers, body).await
}

fn b64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn unb64(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' | b'+' => 62,
        b'_' | b'/' => 63,
        _ => panic!("not base64url: {text}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|c| *c != b'=').map(val).collect();
    let mut out = Vec::new();
    for chunk in digits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, d)| n | (u32::from(*d) << (18 - 6 * i)));
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// CBOR, the few shapes an attestation needs.
enum Cbor {
    Int(i64),
    Bytes(Vec<u8>),
    Text(&'static str),
    Map(Vec<(Cbor, Cbor)>),
}

fn cbor(v: &Cbor, out: &mut Vec<u8>) {
    fn head(major: u8, n: u64, out: &mut Vec<u8>) {
        match n {
            0..=23 => out.push(major << 5 | n as u8),
            24..=0xff => out.extend([major << 5 | 24, n as u8]),
            _ => {
                out.push(major << 5 | 25);
                out.extend((n as u16).to_be_bytes());
            }
        }
    }
    match v {
        Cbor::Int(i) if *i >= 0 => head(0, *i as u64, out),
        Cbor::Int(i) => head(1, (-1 - *i) as u64, out),
        Cbor::Bytes(b) => {
            head(2, b.len() as u64, out);
            out.extend(b);
        }
        Cbor::Text(t) => {
            head(3, t.len() as u64, out);
            out.extend(t.as_bytes());
        }
        Cbor::Map(m) => {
            head(5, m.len() as u64, out);
            for (k, v) in m {
                cbor(k, out);
                cbor(v, out);
            }
        }
    }
}

/// One passkey a software authenticator holds: its key, its id, the user it names.
struct SoftKey {
    key: EcKey<Private>,
    id: Vec<u8>,
    user: Vec<u8>,
    counter: u32,
}

const UP: u8 = 0x01;
const UV: u8 = 0x04;
const AT: u8 = 0x40;

fn client_data(kind: &str, challenge: &str, origin: &str) -> Vec<u8> {
    json!({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": false}).to_string().into_bytes()
}

impl SoftKey {
    /// Answers a registration's options: a new key for the user they name.
    fn register(options: &Value, origin: &str) -> (SoftKey, Value) {
        let pk = &options["publicKey"];
        assert_eq!(pk["authenticatorSelection"]["residentKey"], "required", "{pk}");
        let rp_id = pk["rp"]["id"].as_str().expect("rp id");
        let user = unb64(pk["user"]["id"].as_str().expect("user id"));
        let group = EcGroup::from_curve_name(Nid::X9_62_PRIME256V1).expect("P-256");
        let key = EcKey::generate(&group).expect("a key");
        let mut id = vec![0u8; 16];
        openssl::rand::rand_bytes(&mut id).expect("random");
        let soft = SoftKey { key, id, user, counter: 0 };
        let (mut x, mut y) = (openssl::bn::BigNum::new().expect("bn"), openssl::bn::BigNum::new().expect("bn"));
        let mut ctx = BigNumContext::new().expect("ctx");
        soft.key.public_key().affine_coordinates(&group, &mut x, &mut y, &mut ctx).expect("coordinates");
        let cose = Cbor::Map(vec![
            (Cbor::Int(1), Cbor::Int(2)),
            (Cbor::Int(3), Cbor::Int(-7)),
            (Cbor::Int(-1), Cbor::Int(1)),
            (Cbor::Int(-2), Cbor::Bytes(x.to_vec_padded(32).expect("x"))),
            (Cbor::Int(-3), Cbor::Bytes(y.to_vec_padded(32).expect("y"))),
        ]);
        let mut auth = Sha256::digest(rp_id.as_bytes()).to_vec();
        auth.push(UP | UV | AT);
        auth.extend(soft.counter.to_be_bytes());
        auth.extend([0u8; 16]);
        auth.extend((soft.id.len() as u16).to_be_bytes());
        auth.extend(&soft.id);
        cbor(&cose, &mut auth);
        let mut attestation = Vec::new();
        let statement = Cbor::Map(vec![]);
        cbor(
            &Cbor::Map(vec![
                (Cbor::Text("fmt"), Cbor::Text("none")),
                (Cbor::Text("attStmt"), statement),
                (Cbor::Text("authData"), Cbor::Bytes(auth)),
            ]),
            &mut attestation,
        );
        let data = client_data("webauthn.create", pk["challenge"].as_str().expect("challenge"), origin);
        let credential = json!({
            "id": b64(&soft.id), "rawId": b64(&soft.id), "type": "public-key",
            "response": {"attestationObject": b64(&attestation), "clientDataJSON": b64(&data)},
            "extensions": {},
        });
        (soft, credential)
    }

    /// Answers a sign-in's options, the counter grown by `step` (0: a clone's repeat).
    fn sign(&mut self, options: &Value, origin: &str, step: u32, signer: Option<&EcKey<Private>>) -> Value {
        let pk = &options["publicKey"];
        assert!(pk.get("allowCredentials").is_none_or(|a| a.as_array().is_some_and(Vec::is_empty)), "{pk}");
        assert!(options.get("mediation").is_none(), "asked at a button, not in autofill: {options}");
        let rp_id = pk["rpId"].as_str().expect("rp id");
        self.counter += step;
        let mut auth = Sha256::digest(rp_id.as_bytes()).to_vec();
        auth.push(UP | UV);
        auth.extend(self.counter.to_be_bytes());
        let data = client_data("webauthn.get", pk["challenge"].as_str().expect("challenge"), origin);
        let mut signed = auth.clone();
        signed.extend(Sha256::digest(&data));
        let digest = Sha256::digest(&signed);
        let sig = EcdsaSig::sign(&digest, signer.unwrap_or(&self.key)).expect("sign").to_der().expect("der");
        json!({
            "id": b64(&self.id), "rawId": b64(&self.id), "type": "public-key",
            "response": {"authenticatorData": b64(&auth), "clientDataJSON": b64(&data), "signature": b64(&sig),
                         "userHandle": b64(&self.user)},
            "extensions": {},
        })
    }
}

async fn sign_up(app: &axum::Router, name: &str) -> (SoftKey, String, Value) {
    let start = send(app, "POST", "/api/account/passkey/sign-up/start", &[], Some(json!({"name": name}))).await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
    let (key, credential) = SoftKey::register(&start.body["options"], ORIGIN);
    let ceremony = start.body["ceremony"].clone();
    let finish = send(
        app,
        "POST",
        "/api/account/passkey/sign-up/finish",
        &[],
        Some(json!({"ceremony": ceremony, "credential": credential})),
    )
    .await;
    assert_eq!(finish.status, StatusCode::CREATED, "{}", finish.body);
    let cookie = finish.cookie().expect("a session");
    (key, cookie, finish.body["account"].clone())
}

/// Signs in with `key`: the answer.
async fn sign_in(app: &axum::Router, key: &mut SoftKey, origin: &str, step: u32) -> Answer {
    let start = send(app, "POST", "/api/account/passkey/sign-in/start", &[], None).await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
    let credential = key.sign(&start.body["options"], origin, step, None);
    let body = json!({"ceremony": start.body["ceremony"], "credential": credential});
    send(app, "POST", "/api/account/passkey/sign-in/finish", &[], Some(body)).await
}

async fn me(app: &axum::Router, cookie: &str) -> Value {
    send(app, "GET", "/api/account", &[("cookie", cookie)], None).await.body["account"].clone()
}

#[tokio::test]
async fn sign_up_with_a_passkey_sign_out_and_sign_in_with_it_naming_no_one() {
    let (app, dir) = server(server::Config::default()).await;
    let (mut key, cookie, account) = sign_up(&app, "Ann").await;
    assert_eq!((account["name"].as_str(), account["password"].as_bool()), (Some("Ann"), Some(false)));
    assert_eq!(account["passkeys"], 1);
    let list = send(&app, "GET", "/api/account/passkeys", &[("cookie", &cookie)], None).await;
    assert_eq!(list.body["passkeys"].as_array().map(Vec::len), Some(1), "{}", list.body);
    assert_eq!(list.body["passkeys"][0]["id"], b64(&key.id));
    assert_eq!(list.body["passkeys"][0]["used_at"], Value::Null);

    let out = send(&app, "POST", "/api/account/sign-out", &[("cookie", &cookie)], None).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    assert_eq!(me(&app, &cookie).await, Value::Null);

    let a = sign_in(&app, &mut key, ORIGIN, 1).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.body["account"]["name"], "Ann");
    let again = a.cookie().expect("a new session");
    assert_eq!(me(&app, &again).await["id"], account["id"]);
    let list = send(&app, "GET", "/api/account/passkeys", &[("cookie", &again)], None).await;
    assert!(list.body["passkeys"][0]["used_at"].is_i64(), "{}", list.body);

    // The store keeps the public key, never a private one; the name is the account's.
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir.path()).expect("dir") {
        bytes.extend(std::fs::read(entry.expect("entry").path()).expect("file"));
    }
    let private = key.key.private_key().to_vec();
    assert!(!bytes.windows(private.len()).any(|w| w == private.as_slice()), "a private key in the database");
    let taken = send(&app, "POST", "/api/account/passkey/sign-up/start", &[], Some(json!({"name": "ANN"}))).await;
    assert_eq!((taken.status, taken.body["code"].as_str()), (StatusCode::CONFLICT, Some("name_unavailable")));
    let pw =
        send(&app, "POST", "/api/account/sign-in", &[], Some(json!({"name": "Ann", "password": "whatever1"}))).await;
    assert_eq!(pw.status, StatusCode::UNAUTHORIZED, "no password to sign in with");
}

#[tokio::test]
async fn a_cloned_key_a_replayed_ceremony_another_origin_and_another_key_are_refused() {
    let (app, _dir) = server(server::Config::default()).await;
    let (mut key, _, _) = sign_up(&app, "Bea").await;
    let refused = |a: &Answer| (a.status, a.body["code"].as_str().map(str::to_string));
    let no = (StatusCode::UNAUTHORIZED, Some("passkey_failed".to_string()));
    assert_eq!(sign_in(&app, &mut key, ORIGIN, 5).await.status, StatusCode::OK);
    // A clone presents the same counter again (or a lower one): refused.
    assert_eq!(refused(&sign_in(&app, &mut key, ORIGIN, 0).await), no, "a counter that did not grow");
    // Another site's page asking this site's passkey.
    assert_eq!(refused(&sign_in(&app, &mut key, "https://evil.example", 1).await), no, "another origin");
    // A signature made by another key.
    let start = send(&app, "POST", "/api/account/passkey/sign-in/start", &[], None).await;
    let other = EcKey::generate(&EcGroup::from_curve_name(Nid::X9_62_PRIME256V1).expect("P-256")).expect("key");
    let forged = key.sign(&start.body["options"], ORIGIN, 1, Some(&other));
    let body = json!({"ceremony": start.body["ceremony"], "credential": forged});
    let a = send(&app, "POST", "/api/account/passkey/sign-in/finish", &[], Some(body)).await;
    assert_eq!(refused(&a), no, "another key's signature");
    // A ceremony answers once: a good answer to a spent one is refused.
    let start = send(&app, "POST", "/api/account/passkey/sign-in/start", &[], None).await;
    let good = key.sign(&start.body["options"], ORIGIN, 1, None);
    let body = json!({"ceremony": start.body["ceremony"], "credential": good});
    assert_eq!(
        send(&app, "POST", "/api/account/passkey/sign-in/finish", &[], Some(body.clone())).await.status,
        StatusCode::OK
    );
    assert_eq!(refused(&send(&app, "POST", "/api/account/passkey/sign-in/finish", &[], Some(body)).await), no, "twice");
    // A passkey this site never registered.
    let stranger_options =
        send(&app, "POST", "/api/account/passkey/sign-up/start", &[], Some(json!({"name": "Cy"}))).await;
    let (mut stranger, _) = SoftKey::register(&stranger_options.body["options"], ORIGIN);
    assert_eq!(refused(&sign_in(&app, &mut stranger, ORIGIN, 1).await), no, "an unknown passkey");
    // And the key still works after all that, its counter grown.
    assert_eq!(sign_in(&app, &mut key, ORIGIN, 1).await.status, StatusCode::OK);
    // Another site cannot even start one with the visitor's browser.
    let cross =
        send(&app, "POST", "/api/account/passkey/sign-in/start", &[("sec-fetch-site", "cross-site")], None).await;
    assert_eq!(refused(&cross), (StatusCode::FORBIDDEN, Some("cross_site".to_string())));
}

#[tokio::test]
async fn passkeys_are_added_to_an_account_listed_and_removed_never_the_last_way_in() {
    let (app, _dir) = server(server::Config::default()).await;
    // A password account adds a passkey, then signs in with it.
    let up =
        send(&app, "POST", "/api/account/sign-up", &[], Some(json!({"name": "Dee", "password": "pass word 1"}))).await;
    assert_eq!(up.status, StatusCode::CREATED, "{}", up.body);
    let cookie = up.cookie().expect("session");
    let signed = [("cookie", cookie.as_str())];
    let start = send(&app, "POST", "/api/account/passkey/add/start", &signed, None).await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
    assert_eq!(start.body["options"]["publicKey"]["user"]["name"], "Dee");
    let (mut first, credential) = SoftKey::register(&start.body["options"], ORIGIN);
    let body = json!({"ceremony": start.body["ceremony"], "credential": credential});
    let added = send(&app, "POST", "/api/account/passkey/add/finish", &signed, Some(body)).await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.body);
    assert_eq!(added.body["passkeys"].as_array().map(Vec::len), Some(1));
    let a = sign_in(&app, &mut first, ORIGIN, 1).await;
    assert_eq!((a.status, a.body["account"]["name"].as_str()), (StatusCode::OK, Some("Dee")));
    assert_eq!(a.body["account"]["passkeys"], 1);

    // Adding needs the session; another account's ceremony is not this one's.
    let guest = send(&app, "POST", "/api/account/passkey/add/start", &[], None).await;
    assert_eq!(guest.status, StatusCode::UNAUTHORIZED);
    let (_, other_cookie, _) = sign_up(&app, "Eve").await;
    let start = send(&app, "POST", "/api/account/passkey/add/start", &signed, None).await;
    let excluded = start.body["options"]["publicKey"]["excludeCredentials"].as_array().map(Vec::len);
    assert_eq!(excluded, Some(1), "the passkey it has is excluded: {}", start.body);
    let (_, credential) = SoftKey::register(&start.body["options"], ORIGIN);
    let body = json!({"ceremony": start.body["ceremony"], "credential": credential});
    let stolen = send(&app, "POST", "/api/account/passkey/add/finish", &[("cookie", &other_cookie)], Some(body)).await;
    assert_eq!(stolen.body["code"], "passkey_failed", "{}", stolen.body);

    // Removing: not another's, not an unknown one; the password stays the way in.
    let id = b64(&first.id);
    let path = format!("/api/account/passkeys/{id}");
    let theirs = send(&app, "DELETE", &path, &[("cookie", &other_cookie)], None).await;
    assert_eq!((theirs.status, theirs.body["code"].as_str()), (StatusCode::NOT_FOUND, Some("no_such_passkey")));
    let gone = send(&app, "DELETE", &path, &signed, None).await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.body);
    assert_eq!(gone.body["passkeys"], json!([]));
    assert_eq!(sign_in(&app, &mut first, ORIGIN, 1).await.body["code"], "passkey_failed", "a removed passkey");

    // A passkey-only account keeps its last passkey.
    let eve = send(&app, "GET", "/api/account/passkeys", &[("cookie", &other_cookie)], None).await;
    let eve_key = eve.body["passkeys"][0]["id"].as_str().expect("id").to_string();
    let last =
        send(&app, "DELETE", &format!("/api/account/passkeys/{eve_key}"), &[("cookie", &other_cookie)], None).await;
    assert_eq!((last.status, last.body["code"].as_str()), (StatusCode::CONFLICT, Some("last_credential")));
}

#[tokio::test]
async fn ceremonies_under_way_are_bounded_and_run_out() {
    let mut config = server::Config::default();
    config.accounts.passkey_ceremonies = 3;
    let (app, _dir) = server(config).await;
    for _ in 0..3 {
        assert_eq!(send(&app, "POST", "/api/account/passkey/sign-in/start", &[], None).await.status, StatusCode::OK);
    }
    let full = send(&app, "POST", "/api/account/passkey/sign-in/start", &[], None).await;
    assert_eq!((full.status, full.body["code"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_attempts")));
    assert!(full.headers.get("retry-after").is_some());
    let start = send(&app, "POST", "/api/account/passkey/sign-up/start", &[], Some(json!({"name": "Flo"}))).await;
    assert_eq!(start.status, StatusCode::TOO_MANY_REQUESTS, "sign-ups share the bound");
    assert_eq!(server::accounts::passkeys::CEREMONY_LIFE.as_secs(), 300);
}

#[test]
fn the_public_origin_names_the_relying_party() {
    use server::accounts::passkeys::PublicOrigin;
    let o = PublicOrigin::parse("https://uno.example.org").expect("origin");
    assert_eq!(o.rp_id(), "uno.example.org");
    assert!(PublicOrigin::parse("http://uno.example.org").is_err(), "passkeys need HTTPS off localhost");
}
