#!/usr/bin/env bash
# The `net` bot's model of the other table sizes (two, three, five and six seats;
# crates/uno-nn/model/uno-dmc-sizes.safetensors, docs/model.md "Table sizes"), in one command:
# teacher data from `flat:1000` at each size (uno-lab's teacher_data example, release build),
# then train_distill.py on all four, starting from the four-seat model.
#
#   bash training/distill_sizes.sh OUT [THREADS]
#
# OUT/teacher-K holds size K's data, OUT/net the checkpoints, log.jsonl and model.safetensors
# (the checkpoint with the least regret on the held-out games). The game counts are those the
# shipped file was made from (each size was given six minutes of one core on the project's
# 2-core machine; the data depend on the arguments only, not on THREADS). Expected wall time
# there: about 20 minutes of data on one core (half on two), then about 2 minutes of training.
# PYTHON (.venv/bin/python) may be set.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${1:?usage: bash training/distill_sizes.sh OUT [THREADS]}
THREADS=${2:-2}
PYTHON=${PYTHON:-.venv/bin/python}

mkdir -p "$OUT"
cargo build --release -q -p uno-lab --example teacher_data
dirs=()
for spec in 2:3000 3:1749 5:2450 6:1803; do
  SEATS=${spec%%:*}
  GAMES=${spec##*:}
  echo "-- teacher data, $SEATS seats: $GAMES games of flat:1000, seed $((40 + SEATS)), $THREADS threads"
  target/release/examples/teacher_data --out "$OUT/teacher-$SEATS" --games "$GAMES" --seed $((40 + SEATS)) \
    --players "$SEATS" --playouts 1000 --threads "$THREADS"
  dirs+=("$OUT/teacher-$SEATS")
done
echo "-- distillation: 12 epochs from the four-seat model"
"$PYTHON" training/train_distill.py --data "${dirs[@]}" --out "$OUT/net" --seed 1 --epochs 12 --eval-every 1000 \
  --init crates/uno-nn/model/uno-dmc.safetensors
