#!/usr/bin/env bash
# The value network (crates/uno-nn/model/uno-value.safetensors, docs/model.md "The value
# network") from scratch, in one command: rounds of cheap bots at every table size the official
# rules allow (uno-lab's value_data example, release build), then train_value.py on all of them.
#
#   bash training/value_sizes.sh OUT
#
# OUT/train-K.bin and OUT/valid-K.bin hold size K's records (about 3 GB in all), OUT/value.safetensors
# the network. Expected wall time on the project's 2-core machine: seconds of data, 5 to 8
# minutes of training. PYTHON (.venv/bin/python) may be set.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${1:?usage: bash training/value_sizes.sh OUT}
PYTHON=${PYTHON:-.venv/bin/python}

mkdir -p "$OUT"
cargo build --release -q -p uno-lab --example value_data
train=()
valid=()
for k in 2 3 4 5 6 7 8 9 10; do
  # Four seats keep the first file's data (30,000 rounds, seeds 11 and 12).
  case $k in
    2 | 3) rounds=8000 seed=$((1000 * k + 11)) ;;
    4) rounds=30000 seed=11 ;;
    *) rounds=8000 seed=$((11 + 100 * (k - 4))) ;;
  esac
  target/release/examples/value_data "$OUT/train-$k.bin" "$rounds" "$seed" --players "$k"
  target/release/examples/value_data "$OUT/valid-$k.bin" 3000 $((seed + 1)) --players "$k"
  train+=("$OUT/train-$k.bin:$k")
  valid+=("$OUT/valid-$k.bin:$k")
done
"$PYTHON" training/train_value.py --train "${train[@]}" --valid "${valid[@]}" \
  --out "$OUT/value.safetensors" --epochs 3 --seed 1
