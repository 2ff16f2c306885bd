//! Every refusal's status, code and answer, checked variant by variant.

use super::*;
use uno::IllegalAction;

#[test]
fn refusals_that_pass_by_themselves_say_when_to_try_again() {
    let resp = ApiError::RateLimited(20).into_response();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(resp.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
    let resp = ApiError::from(TableError::AnalysisBusy).into_response();
    assert_eq!(resp.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("5"));
    let resp = ApiError::from(TableError::TooManyImports { limit: 60, retry: 1234 }).into_response();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(resp.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1234"));
    // Waiting does not end these: no Retry-After.
    for e in [
        ApiError::from(TableError::TooManyTables(3)),
        ApiError::BodyTooLarge(10),
        ApiError::from(TableError::AnalysisTimeout(60)),
    ] {
        assert!(e.into_response().headers().get("retry-after").is_none());
    }
}

/// One value of every reason the table core has, with the status, code and `Retry-After`
/// the API answers it with (what the pages, Python and docs/api.md rely on).
fn every_table_refusal() -> Vec<(TableError, u16, &'static str, Option<u64>)> {
    use TableError::*;
    let bot = TableError::from("no-such-bot".parse::<uno_bots::BotSpec>().expect_err("no such bot"));
    let rules = TableError::from(uno::RulesError::EmptyHands);
    let store = store::StoreError::NoSuchGame("g".into());
    vec![
        (Invalid("x".into()), 400, "bad_request", None),
        (TooLong { field: "name", max: 3 }, 422, "too_long", None),
        (MissingToken, 401, "missing_token", None),
        (BadToken, 403, "bad_token", None),
        (SpectatorsNotAllowed, 403, "spectators_not_allowed", None),
        (NoSuchTable("t".into()), 404, "not_found", None),
        (StaleState { sent: 1, current: 2 }, 409, "stale_state", None),
        (Illegal(IllegalAction::DoesNotMatch.into()), 422, "does_not_match", None),
        (MalformedJson("x".into()), 400, "malformed_json", None),
        (InvalidBody("x".into()), 422, "invalid_body", None),
        (NotStarted, 409, "not_started", None),
        (NotFinished, 409, "not_finished", None),
        (GameNotOver, 403, "game_not_over", None),
        (NotKept("t".into()), 404, "not_found", None),
        (InvalidRecord("x".into()), 422, "invalid_record", None),
        (RecordOverLimits("x".into()), 422, "record_over_limits", None),
        (NoSuchPly { ply: 9, last: 3 }, 404, "no_such_ply", None),
        (SeatTaken(uno::Seat(1)), 409, "seat_taken", None),
        (TableFull, 409, "table_full", None),
        (NameTaken, 409, "name_taken", None),
        (NameOwned, 409, "name_owned", None),
        (SignInRequired, 401, "sign_in_required", None),
        (OneSeatEach, 409, "one_seat_each", None),
        (NotOwner, 403, "not_owner", None),
        (rules, 422, "invalid_rules", None),
        (bot, 422, "unknown_bot", None),
        (TooManyTables(20), 429, "too_many_tables", None),
        (ServerFull, 503, "server_full", Some(30)),
        (TooManyImports { limit: 60, retry: 7 }, 429, "too_many_imports", Some(7)),
        (OwnedElsewhere("t".into()), 409, "owned_elsewhere", None),
        (OwnerUnavailable("t".into()), 503, "owner_unavailable", Some(2)),
        (Store(store), 503, "store_unavailable", Some(2)),
        (StoreSilent(std::time::Duration::from_secs(2)), 503, "store_unavailable", Some(2)),
        (AnalysisBusy, 503, "analysis_busy", Some(5)),
        (TooManyAnalyses(1), 429, "too_many_analyses", Some(2)),
        (TooManyPhrases(2), 429, "rate_limited", Some(2)),
        (AnalysisTimeout(60), 503, "analysis_timeout", None),
        (Internal("x".into()), 500, "internal", None),
    ]
}

/// Which variant a value is. A reason added to `TableError` stops this compiling until it
/// is named here, and then the test below fails until `every_table_refusal` lists it.
fn variant(e: &TableError) -> &'static str {
    use TableError::*;
    match e {
        Invalid(_) => "Invalid",
        TooLong { .. } => "TooLong",
        MissingToken => "MissingToken",
        BadToken => "BadToken",
        SpectatorsNotAllowed => "SpectatorsNotAllowed",
        NoSuchTable(_) => "NoSuchTable",
        StaleState { .. } => "StaleState",
        Illegal(_) => "Illegal",
        MalformedJson(_) => "MalformedJson",
        InvalidBody(_) => "InvalidBody",
        NotStarted => "NotStarted",
        NotFinished => "NotFinished",
        GameNotOver => "GameNotOver",
        NotKept(_) => "NotKept",
        InvalidRecord(_) => "InvalidRecord",
        RecordOverLimits(_) => "RecordOverLimits",
        NoSuchPly { .. } => "NoSuchPly",
        SeatTaken(_) => "SeatTaken",
        TableFull => "TableFull",
        NameTaken => "NameTaken",
        NameOwned => "NameOwned",
        SignInRequired => "SignInRequired",
        OneSeatEach => "OneSeatEach",
        NotOwner => "NotOwner",
        Rules(_) => "Rules",
        UnknownBot(_) => "UnknownBot",
        TooManyTables(_) => "TooManyTables",
        TooManyPhrases(_) => "TooManyPhrases",
        ServerFull => "ServerFull",
        TooManyImports { .. } => "TooManyImports",
        OwnedElsewhere(_) => "OwnedElsewhere",
        OwnerUnavailable(_) => "OwnerUnavailable",
        Store(_) => "Store",
        StoreSilent(_) => "StoreSilent",
        AnalysisBusy => "AnalysisBusy",
        TooManyAnalyses(_) => "TooManyAnalyses",
        AnalysisTimeout(_) => "AnalysisTimeout",
        Internal(_) => "Internal",
    }
}

const TABLE_VARIANTS: usize = 38;

#[test]
fn every_table_refusal_has_its_status_code_and_retry() {
    let all = every_table_refusal();
    let named: std::collections::BTreeSet<&str> = all.iter().map(|(e, ..)| variant(e)).collect();
    assert_eq!(named.len(), all.len(), "a variant is listed twice");
    assert_eq!(named.len(), TABLE_VARIANTS, "every variant of TableError is listed once: {named:?}");
    for (e, status, code, retry) in all {
        let what = format!("{e:?}");
        let message = e.to_string();
        let api = ApiError::from(e);
        assert_eq!(api.status().as_u16(), status, "{what}");
        assert_eq!(api.code(), code, "{what}");
        assert_eq!(api.retry_after(), retry, "{what}");
        let body = api.body();
        assert_eq!(body.code, code, "{what}");
        // The message is the domain's own words, except where the detail is the
        // operator's (a fault, the store's words).
        if !matches!(code, "internal" | "store_unavailable") {
            assert_eq!(body.message, message, "{what}");
        }
        let resp = api.into_response();
        assert_eq!(resp.status().as_u16(), status, "{what}");
        let header = resp.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_string);
        assert_eq!(header, retry.map(|s| s.to_string()), "{what}");
    }
}

#[test]
fn every_request_and_duel_refusal_has_its_status_and_code() {
    use duel::DuelError;
    let all: Vec<(ApiError, u16, &str)> = vec![
        (ApiError::MalformedJson("x".into()), 400, "malformed_json"),
        (ApiError::InvalidBody("x".into()), 422, "invalid_body"),
        (ApiError::NotJson, 415, "not_json"),
        (ApiError::BodyTooLarge(10), 413, "body_too_large"),
        (ApiError::BadRequest("x".into()), 400, "bad_request"),
        (ApiError::MissingToken, 401, "missing_token"),
        (ApiError::BadToken, 403, "bad_token"),
        (ApiError::TokenInUrl, 400, "token_in_url"),
        (ApiError::NoSuchRoute, 404, "not_found"),
        (ApiError::MethodNotAllowed { allow: "GET".into() }, 405, "method_not_allowed"),
        (
            ApiError::WebSocketRequired { status: StatusCode::UPGRADE_REQUIRED, reason: "x".into() },
            426,
            "websocket_required",
        ),
        (ApiError::ServerBusy, 503, "server_busy"),
        (ApiError::TooManyConnections, 429, "too_many_connections"),
        (ApiError::RateLimited(20), 429, "rate_limited"),
        (ApiError::Internal("x".into()), 500, "internal"),
        (DuelError::GameOver.into(), 409, DuelError::GameOver.code()),
        (DuelError::MustAttack.into(), 422, DuelError::MustAttack.code()),
        (DuelRefusal::NoSuchGame("d".into()).into(), 404, "not_found"),
        (DuelRefusal::TooManyGames(20).into(), 429, "too_many_tables"),
        (AccountError::SignInFailed.into(), 401, "sign_in_failed"),
        (AccountError::NotSignedIn.into(), 401, "not_signed_in"),
        (AccountError::CrossSite.into(), 403, "cross_site"),
        (AccountError::TooManyAttempts { retry: 9 }.into(), 429, "too_many_attempts"),
        (AccountError::NameUnavailable.into(), 409, "name_unavailable"),
        (AccountError::BadPassword("x".into()).into(), 422, "bad_password"),
        (AccountError::Unavailable.into(), 503, "accounts_unavailable"),
        (AccountError::NoSuchPlayer.into(), 404, "not_found"),
        (AccountError::PasskeyFailed.into(), 401, "passkey_failed"),
        (AccountError::LastCredential.into(), 409, "last_credential"),
        (AccountError::NoSuchPasskey.into(), 404, "no_such_passkey"),
    ];
    for (e, status, code) in all {
        assert_eq!((e.status().as_u16(), e.code()), (status, code), "{e:?}");
    }
}

/// Every reason the engine has: serde lists them all when asked for one it lacks.
fn every_illegal_action() -> Vec<(String, IllegalAction)> {
    let err = serde_json::from_value::<IllegalAction>(serde_json::json!("no_such_reason")).expect_err("unknown");
    let text = err.to_string();
    let listed = text.split("expected one of").nth(1).expect("serde lists the variants");
    listed
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|name| (name.to_string(), serde_json::from_value(serde_json::json!(name)).expect("a variant")))
        .collect()
}

#[test]
fn every_illegal_action_code_is_the_engines_serde_name() {
    let all = every_illegal_action();
    assert!(all.len() >= 34, "only {} reasons found", all.len());
    for (name, i) in &all {
        let e = ApiError::from(TableError::Illegal((*i).into()));
        assert_eq!(e.code(), name);
        assert_eq!(e.body().code, name);
        let want = if matches!(i, IllegalAction::GameOver | IllegalAction::RoundOver) {
            StatusCode::CONFLICT
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        assert_eq!(e.status(), want, "{name}");
    }
}

#[test]
fn internal_details_stay_in_the_log() {
    for e in [
        ApiError::Internal("table map poisoned at /srv/tabletop.db".into()),
        TableError::Internal("table map poisoned at /srv/tabletop.db".into()).into(),
    ] {
        let b = e.body();
        assert_eq!(b.code, "internal");
        assert!(!b.message.contains("/srv"), "{}", b.message);
    }
}
