#!/usr/bin/env bash
# The `net` bot's model from scratch, in one command (docs/model.md): two sets of teacher data
# from `flat` (uno-lab's teacher_data example, release build), then train_distill.py on both.
#
#   bash training/distill.sh OUT [GAMES31] [GAMES32] [THREADS] [EPOCHS]
#
# OUT/teacher31 and OUT/teacher32 hold the data (seeds 31 and 32), OUT/net the checkpoints,
# log.jsonl and model.safetensors (the checkpoint with the least regret on the held-out games).
# The defaults made the shipped model: 12,500 games of flat:1000 on seed 31 and 10,098 on seed 32
# (any THREADS gives the same data), 12 epochs, seed 1. PLAYOUTS (1000) and PYTHON
# (.venv/bin/python) may be set.
# Expected wall time on the project's 2-core machine: about 37 CPU-minutes of data (7 ms a
# decision, 313,676 decisions), so about 20 minutes when both cores are free, then 3 to 10 minutes
# of training: about 30 minutes in all, about an hour under the usual load of other builds.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${1:?usage: bash training/distill.sh OUT [GAMES31] [GAMES32] [THREADS] [EPOCHS]}
GAMES31=${2:-12500}
GAMES32=${3:-10098}
THREADS=${4:-2}
EPOCHS=${5:-12}
PLAYOUTS=${PLAYOUTS:-1000}
PYTHON=${PYTHON:-.venv/bin/python}

mkdir -p "$OUT"
cargo build --release -q -p uno-lab --example teacher_data
for SEED in 31 32; do
  GAMES=$GAMES31
  [ "$SEED" = 32 ] && GAMES=$GAMES32
  echo "-- teacher data, seed $SEED: $GAMES games, flat:$PLAYOUTS, $THREADS threads"
  target/release/examples/teacher_data --out "$OUT/teacher$SEED" --games "$GAMES" --seed "$SEED" \
    --playouts "$PLAYOUTS" --threads "$THREADS"
done
echo "-- distillation: $EPOCHS epochs"
"$PYTHON" training/train_distill.py --data "$OUT/teacher31" "$OUT/teacher32" --out "$OUT/net" --seed 1 \
  --epochs "$EPOCHS" --eval-every 2000
