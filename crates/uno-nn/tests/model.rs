//! The Rust network computes what the trainer's numpy network computes: a tiny model written by
//! `training/make_fixture.py`, an observation, actions and the Q values numpy gave them. Also:
//! the shipped model loads, and broken files are refused with their reason.

use uno_nn::model::read_safetensors;
use uno_nn::{action, obs, ModelError, QNet};

const TINY: &[u8] = include_bytes!("fixtures/tiny.safetensors");
const TINY_JSON: &str = include_str!("fixtures/tiny.json");

#[test]
fn q_values_match_the_training_framework_within_1e_5() {
    let net = QNet::from_safetensors(TINY).expect("the fixture loads");
    let expected: serde_json::Value = serde_json::from_str(TINY_JSON).expect("json");
    let floats = |key: &str| -> Vec<f32> {
        expected[key].as_array().expect(key).iter().map(|v| v.as_f64().expect("number") as f32).collect()
    };
    let observation = floats("obs");
    let actions: Vec<usize> =
        expected["actions"].as_array().expect("actions").iter().map(|v| v.as_u64().expect("index") as usize).collect();
    let want = floats("q");
    let mut got = Vec::new();
    net.q_values(&observation, &actions, &mut got);
    assert_eq!(got.len(), want.len());
    for (a, (g, w)) in actions.iter().zip(got.iter().zip(&want)) {
        assert!((g - w).abs() <= 1e-5, "action {a}: rust {g}, numpy {w}");
    }
    let best = actions[got.iter().enumerate().fold(0, |b, (i, q)| if *q > got[b] { i } else { b })];
    assert_eq!(best as u64, expected["best"].as_u64().expect("best"), "the same decision");
}

#[test]
fn the_shipped_model_loads_and_scores_every_action() {
    let net = uno_nn::shipped_model();
    assert!(net.parameters() > 1_000);
    assert!(uno_nn::SHIPPED_MODEL.len() <= 5 * 1024 * 1024, "the model file stays under 5 MB");
    let mut q = Vec::new();
    let all: Vec<usize> = (0..action::COUNT).collect();
    net.q_values(&vec![0.5; obs::SIZE], &all, &mut q);
    assert_eq!(q.len(), action::COUNT);
    assert!(q.iter().all(|v| v.is_finite()));
}

#[test]
fn broken_files_are_refused_with_their_reason() {
    assert_eq!(QNet::from_safetensors(&TINY[..5]).err(), Some(ModelError::Truncated));
    let mut bad_header = TINY.to_vec();
    bad_header[8] = b'x';
    assert!(matches!(QNet::from_safetensors(&bad_header), Err(ModelError::Header(_))));
    let cut = &TINY[..TINY.len() - 4];
    assert!(matches!(QNet::from_safetensors(cut), Err(ModelError::Tensor { .. })));
    // A file without the network's tensors.
    let header = br#"{"__metadata__":{"format":"tabletop-uno-dmc-1","obs_layout":"1"},"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#;
    let mut file = (header.len() as u64).to_le_bytes().to_vec();
    file.extend_from_slice(header);
    file.extend_from_slice(&1.5f32.to_le_bytes());
    let (tensors, _) = read_safetensors(&file).expect("a valid file");
    assert_eq!(tensors["a"].data, vec![1.5]);
    assert_eq!(QNet::from_safetensors(&file).err(), Some(ModelError::Missing("input_scale".into())));
    let f16 = br#"{"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]}}"#;
    let mut file = (f16.len() as u64).to_le_bytes().to_vec();
    file.extend_from_slice(f16);
    file.extend_from_slice(&[0; 4]);
    assert!(matches!(read_safetensors(&file), Err(ModelError::Tensor { .. })));
}

#[test]
fn the_shipped_models_say_the_table_sizes_they_were_trained_at() {
    // Their teacher data was played at those sizes (`uno-lab/examples/teacher_data.rs --players`).
    assert_eq!(uno_nn::shipped_model().trained_seats(), Some(vec![4]));
    assert_eq!(uno_nn::shipped_sizes_model().trained_seats(), Some(vec![2, 3, 5, 6]));
}

#[test]
fn each_table_size_plays_the_model_trained_at_it() {
    let seats = |players| uno_nn::shipped_for(players).trained_seats();
    assert_eq!(seats(4), Some(vec![4]));
    for players in [2, 3, 5, 6] {
        assert_eq!(seats(players), Some(vec![2, 3, 5, 6]), "{players} seats");
    }
    // No model learned seven seats: the first one plays, with the bot's rule for that.
    assert_eq!(seats(7), Some(vec![4]));
    let trained = [Some(vec![4]), None];
    assert_eq!(uno_nn::trained_at(&trained, 4), Some(0));
    assert_eq!(uno_nn::trained_at(&trained, 9), Some(1), "a model that does not say is trusted everywhere");
    assert_eq!(uno_nn::trained_at(&[Some(vec![4])], 9), None);
}

/// The same file with its metadata's `key` set to `value` (or removed).
fn with_metadata(file: &[u8], key: &str, value: Option<&str>) -> Vec<u8> {
    let len = u64::from_le_bytes(file[..8].try_into().expect("8 bytes")) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&file[8..8 + len]).expect("json");
    let meta = header["__metadata__"].as_object_mut().expect("metadata");
    match value {
        Some(v) => meta.insert(key.to_string(), v.into()),
        None => meta.remove(key),
    };
    let text = serde_json::to_vec(&header).expect("json");
    let mut out = (text.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&text);
    out.extend_from_slice(&file[8 + len..]);
    out
}

#[test]
fn a_model_of_another_format_or_observation_layout_is_refused_and_says_why() {
    assert!(QNet::from_safetensors(&with_metadata(TINY, "obs_layout", Some("1"))).is_ok());
    let other = with_metadata(TINY, "obs_layout", Some("2"));
    let err = QNet::from_safetensors(&other).expect_err("another layout");
    assert_eq!(err, ModelError::ObsLayout { expected: uno_nn::space::obs::LAYOUT_VERSION, found: "2".into() });
    assert!(err.to_string().contains("observation layout 2"), "{err}");
    let unstated = with_metadata(TINY, "obs_layout", None);
    assert!(matches!(QNet::from_safetensors(&unstated), Err(ModelError::ObsLayout { .. })));
    let value = with_metadata(TINY, "format", Some("tabletop-uno-value-1"));
    assert!(matches!(QNet::from_safetensors(&value), Err(ModelError::Format { .. })));
    // The shipped files say the layout this build observes.
    for (name, bytes) in [("q", uno_nn::SHIPPED_MODEL), ("value", uno_nn::SHIPPED_VALUE)] {
        let (_, meta) = read_safetensors(bytes).expect("shipped");
        assert_eq!(meta.get("obs_layout").map(String::as_str), Some("1"), "{name}");
    }
}
