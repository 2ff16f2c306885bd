//! Passwords: Argon2id (the `argon2` crate's defaults, OWASP's: 19 MiB, 2 passes, 1 lane), in
//! PHC form, the only thing of a password the store keeps. Hashing takes tens of
//! milliseconds on purpose: it runs on a blocking thread, a few at a time, so sign-ins never
//! hold up the tables. A sign-in under a name no account has checks the password against a
//! hash made at start, so it takes as long as one under an account's name.

use std::sync::OnceLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use tokio::sync::Semaphore;

use crate::AccountError;

/// The fewest and most characters of a password.
pub const MIN_CHARS: usize = 8;
pub const MAX_CHARS: usize = 128;

/// Hashes at once at most: each holds 19 MiB and a core while it runs.
fn permits() -> &'static Semaphore {
    static P: OnceLock<Semaphore> = OnceLock::new();
    P.get_or_init(|| Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get()).max(2)))
}

/// A password fit to be set: within [`MIN_CHARS`]..=[`MAX_CHARS`] characters.
pub(crate) fn check(password: &str) -> Result<(), AccountError> {
    let n = password.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&n) {
        return Err(AccountError::BadPassword(format!("a password has {MIN_CHARS} to {MAX_CHARS} characters")));
    }
    Ok(())
}

fn hash_now(password: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::default().hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| e.to_string())
}

/// Passwords checked against a hash since the server started (the stand-in's included).
pub(crate) static CHECKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn verify_now(hash: &str, password: &str) -> bool {
    CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    PasswordHash::new(hash).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// The hash a password is stored as.
pub(crate) async fn hash(password: String) -> Result<String, crate::ApiError> {
    let _permit = permits().acquire().await.map_err(|e| crate::ApiError::Internal(e.to_string()))?;
    tokio::task::spawn_blocking(move || hash_now(&password))
        .await
        .map_err(|e| crate::ApiError::Internal(e.to_string()))?
        .map_err(crate::ApiError::Internal)
}

/// Whether `password` is the one `hash` was made from; with no hash (no such account, or an
/// account without a password), checked against a stand-in so it takes as long, and false.
pub(crate) async fn verify(hash: Option<String>, password: String) -> bool {
    let Ok(_permit) = permits().acquire().await else { return false };
    tokio::task::spawn_blocking(move || match hash {
        Some(h) => verify_now(&h, &password),
        None => {
            verify_now(stand_in(), &password);
            false
        }
    })
    .await
    .unwrap_or(false)
}

/// A hash of a random password no one knows, made once.
fn stand_in() -> &'static str {
    static H: OnceLock<String> = OnceLock::new();
    H.get_or_init(|| hash_now(&crate::host::seats::random_hex(16)).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_argon2id_and_verifies_only_its_password() {
        let h = hash_now("correct horse").expect("hash");
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(!h.contains("correct horse"));
        assert!(verify_now(&h, "correct horse"));
        assert!(!verify_now(&h, "correct horsE"));
        assert!(!verify_now("not a hash", "correct horse"));
        assert_ne!(hash_now("correct horse").expect("hash"), h, "a fresh salt each time");
    }

    #[test]
    fn passwords_have_8_to_128_characters() {
        assert!(check("1234567").is_err());
        assert!(check("12345678").is_ok());
        assert!(check(&"é".repeat(128)).is_ok());
        assert!(check(&"x".repeat(129)).is_err());
    }
}
