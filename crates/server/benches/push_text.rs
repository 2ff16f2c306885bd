//! What a push costs each socket that sends it: the table renders a change once, as a
//! `text::Text` (shared bytes, a type of the server's own), and each socket turns its copy into a
//! WebSocket frame's text at the edge (`ws::frame_text`: `Utf8Bytes::try_from` the same bytes,
//! which checks them as UTF-8 again). Before, the table code held axum's `Utf8Bytes` itself and a
//! socket only cloned it. `text::Text` is private to the server, so this measures the two
//! operations it is made of, on texts of the sizes the server sends.
//!
//! `cargo bench -p server --bench push_text` (criterion's time per element is per socket and push).

use axum::extract::ws::Utf8Bytes;
use bytes::Bytes;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// A JSON text of about `len` bytes, as a push is: mostly ASCII, a name with an accent.
fn push_of(len: usize) -> String {
    let mut s = String::from(r#"{"type":"update","version":1234,"generation":2,"status":"active","events":["#);
    while s.len() < len {
        s.push_str(r#"{"version":1234,"event":{"type":"card_played","seat":2,"card":{"color":"red","kind":"number","number":7}},"name":"Zoë"},"#);
    }
    s.push_str("{}]}");
    s
}

fn per_socket(c: &mut Criterion) {
    let mut group = c.benchmark_group("push_text_per_socket");
    group.throughput(Throughput::Elements(1));
    // An update (one action's events, the public view, one seat's hand) and a full state.
    for len in [300, 3000] {
        let text = push_of(len);
        let before = Utf8Bytes::from(text.clone());
        let after = Bytes::from(text);
        group.bench_with_input(BenchmarkId::new("clone_utf8bytes", len), &before, |b, t| b.iter(|| t.clone()));
        group.bench_with_input(BenchmarkId::new("text_to_frame", len), &after, |b, t| {
            b.iter(|| Utf8Bytes::try_from(t.clone()).unwrap_or_default())
        });
    }
    group.finish();
}

criterion_group!(benches, per_socket);
criterion_main!(benches);
