#!/usr/bin/env bash
# The `net` bot's model from scratch, in one command (docs/model.md): teacher data from `flat`
# (uno-lab's teacher_data example, release build), then train_distill.py on it.
#
#   bash training/distill.sh OUT [GAMES] [THREADS] [EPOCHS]
#
# OUT/teacher holds the data, OUT/net the checkpoints, log.jsonl and model.safetensors (the
# checkpoint with the least regret on the held-out games). The defaults made the shipped model:
# 12,500 games of flat:1000 on seed 31 (any THREADS gives the same data), 30 epochs, seed 1.
# PLAYOUTS (1000) and PYTHON (.venv/bin/python) may be set.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${1:?usage: bash training/distill.sh OUT [GAMES] [THREADS] [EPOCHS]}
GAMES=${2:-12500}
THREADS=${3:-2}
EPOCHS=${4:-30}
PLAYOUTS=${PLAYOUTS:-1000}
PYTHON=${PYTHON:-.venv/bin/python}

mkdir -p "$OUT"
echo "-- teacher data: $GAMES games, flat:$PLAYOUTS, $THREADS threads"
cargo build --release -q -p uno-lab --example teacher_data
target/release/examples/teacher_data --out "$OUT/teacher" --games "$GAMES" --seed 31 --playouts "$PLAYOUTS" \
  --threads "$THREADS"
echo "-- distillation: $EPOCHS epochs"
"$PYTHON" training/train_distill.py --data "$OUT/teacher" --out "$OUT/net" --seed 1 --epochs "$EPOCHS" \
  --eval-every 2000
