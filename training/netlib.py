"""The Q network in numpy: a small MLP with hand-written backprop and Adam, and safetensors I/O.

The network scores one (observation, action) pair: ``Q(s, a) = MLP([obs * input_scale,
action_features[a]])``, a Monte-Carlo estimate of the acting seat's round reward (+1 win, -1
loss), as DouZero does. Everything the Rust side needs to run it is in the model file:

* ``input_scale`` (OBS_SIZE): multiplies the observation (counts brought to about 0..1);
* ``action_features`` (NUM_ACTIONS x F): one row per action index;
* ``layers.{k}.weight`` (out x in) and ``layers.{k}.bias`` (out): dense layers, ReLU between
  them, none after the last (one output).

The file format is written by hand: an 8-byte little-endian header length, a JSON header
(``dtype``, ``shape``, ``data_offsets`` per tensor, ``__metadata__`` of strings), then the raw
little-endian f32 data.
"""

from __future__ import annotations

import json
import struct

import numpy as np
from tabletop.uno import OBS_LAYOUT_VERSION

# Card faces of the engine's card index (`color * 13 + face` for the 52 coloured cards, then
# Wild and Wild Draw Four): digits 0-9, skip, reverse, draw two, wild, wild draw four.
FACES = 15
COLORS = 4
FORMAT = "tabletop-uno-dmc-1"
#: The observation layout's version (``uno_nn::space::obs::LAYOUT_VERSION``), written into every
#: model file and checked when one is read.
OBS_LAYOUT = str(OBS_LAYOUT_VERSION)


def action_features(num_actions: int) -> np.ndarray:
    """The fixed feature row of each action index: one-hot index, the card's colour (for a
    wild, the colour it names) and face. The play indices come first in the action space:
    0..52 the coloured cards by card index, 52..56 Wild naming each colour, 56..60 Wild Draw
    Four naming each colour (``docs/python.md``)."""
    f = np.zeros((num_actions, num_actions + COLORS + FACES), np.float32)
    for i in range(num_actions):
        f[i, i] = 1.0
        if i < 52:
            color, face = divmod(i, 13)
        elif i < 56:
            color, face = i - 52, 13
        elif i < 60:
            color, face = i - 56, 14
        else:
            continue
        f[i, num_actions + color] = 1.0
        f[i, num_actions + COLORS + face] = 1.0
    return f


class Mlp:
    """Dense layers with ReLU between them; the last layer has one output."""

    def __init__(self, sizes, rng: np.random.Generator):
        self.w = []
        self.b = []
        for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
            self.w.append((rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(np.float32))
            self.b.append(np.zeros(fan_out, np.float32))
        self.w[-1] *= 0.1

    @property
    def params(self):
        return self.w + self.b

    def layer_tensors(self):
        """The layers as a model file stores them (`layers.K.weight` is output × input)."""
        t = {}
        for k, (w, b) in enumerate(zip(self.w, self.b)):
            t[f"layers.{k}.weight"] = np.ascontiguousarray(w.T)
            t[f"layers.{k}.bias"] = b
        return t

    @staticmethod
    def from_tensors(tensors):
        """The layers of a model file's tensors, as `layer_tensors` wrote them."""
        mlp = Mlp.__new__(Mlp)
        mlp.w, mlp.b = [], []
        while f"layers.{len(mlp.w)}.weight" in tensors:
            k = len(mlp.w)
            mlp.w.append(np.ascontiguousarray(tensors[f"layers.{k}.weight"].T))
            mlp.b.append(tensors[f"layers.{k}.bias"])
        return mlp

    def forward(self, x, keep=False):
        acts = [x]
        h = x
        n = len(self.w)
        for k in range(n):
            h = h @ self.w[k] + self.b[k]
            if k < n - 1:
                h = np.maximum(h, 0.0)
            if keep:
                acts.append(h)
        return (h[:, 0], acts) if keep else h[:, 0]

    def backward(self, acts, dout):
        """Gradients of the loss for `dout` = dLoss/dOutput (batch,), after `forward(keep=True)`."""
        n = len(self.w)
        gw = [None] * n
        gb = [None] * n
        d = dout[:, None].astype(np.float32)
        for k in range(n - 1, -1, -1):
            gw[k] = acts[k].T @ d
            gb[k] = d.sum(axis=0)
            if k > 0:
                d = d @ self.w[k].T
                d *= acts[k] > 0
        return gw + gb


class Adam:
    def __init__(self, params, lr=3e-4, b1=0.9, b2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps = lr, b1, b2, eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, params, grads, clip=10.0):
        norm = np.sqrt(sum(float((g * g).sum()) for g in grads))
        scale = min(1.0, clip / (norm + 1e-12))
        self.t += 1
        c1 = 1 - self.b1**self.t
        c2 = 1 - self.b2**self.t
        for p, g, m, v in zip(params, grads, self.m, self.v):
            g = g * scale
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)
        return norm


class QNet:
    """Q(s, a) over the observation and the action's features."""

    def __init__(self, obs_size, num_actions, hidden=(256, 256, 128), seed=0, input_scale=None):
        rng = np.random.default_rng(seed)
        self.obs_size = obs_size
        self.num_actions = num_actions
        self.feats = action_features(num_actions)
        self.scale = np.ones(obs_size, np.float32) if input_scale is None else input_scale.astype(np.float32)
        self.mlp = Mlp([obs_size + self.feats.shape[1], *hidden, 1], rng)

    def inputs(self, obs, actions):
        return np.concatenate([obs * self.scale, self.feats[actions]], axis=1).astype(np.float32)

    def q(self, obs, actions):
        return self.mlp.forward(self.inputs(obs, actions))

    def q_all(self, obs, mask):
        """Q of every legal action of each row (-inf where illegal): the first layer splits into
        an observation part (once per row) and an action part (a table per index)."""
        w0, b0 = self.mlp.w[0], self.mlp.b[0]
        h_obs = (obs * self.scale) @ w0[: self.obs_size] + b0  # (n, H)
        h_act = self.feats @ w0[self.obs_size :]  # (A, H)
        rows, cols = np.nonzero(mask)
        h = np.maximum(h_obs[rows] + h_act[cols], 0.0)
        n = len(self.mlp.w)
        for k in range(1, n):
            h = h @ self.mlp.w[k] + self.mlp.b[k]
            if k < n - 1:
                h = np.maximum(h, 0.0)
        out = np.full(mask.shape, -np.inf, np.float32)
        out[rows, cols] = h[:, 0]
        return out

    def copy(self):
        other = QNet.__new__(QNet)
        other.obs_size, other.num_actions = self.obs_size, self.num_actions
        other.feats, other.scale = self.feats, self.scale.copy()
        other.mlp = Mlp.__new__(Mlp)
        other.mlp.w = [w.copy() for w in self.mlp.w]
        other.mlp.b = [b.copy() for b in self.mlp.b]
        return other

    def tensors(self):
        return {"input_scale": self.scale, "action_features": self.feats, **self.mlp.layer_tensors()}

    def save(self, path, metadata=None):
        meta = {
            "format": FORMAT,
            "obs_layout": OBS_LAYOUT,
            "obs_size": str(self.obs_size),
            "num_actions": str(self.num_actions),
        }
        meta.update({k: str(v) for k, v in (metadata or {}).items()})
        save_safetensors(path, self.tensors(), meta)

    @staticmethod
    def load(path):
        tensors, meta = load_safetensors(path)
        check_versions(path, meta, FORMAT)
        net = QNet.__new__(QNet)
        net.scale = tensors["input_scale"]
        net.feats = tensors["action_features"]
        net.obs_size = net.scale.shape[0]
        net.num_actions = net.feats.shape[0]
        net.mlp = Mlp.from_tensors(tensors)
        return net


def check_versions(path, meta, fmt):
    """Refuses a model file of another format, or trained on another observation layout than
    the one this ``tabletop`` build observes (``OBS_LAYOUT_VERSION``): its numbers would mean
    other things. The Rust readers (``uno_nn::model::check_versions``) refuse the same files."""
    if meta.get("format") != fmt:
        raise ValueError(f"{path}: not a {fmt} model (its format is {meta.get('format', 'not stated')})")
    if meta.get("obs_layout") != OBS_LAYOUT:
        raise ValueError(
            f"{path}: trained on observation layout {meta.get('obs_layout', 'not stated')}, this build"
            f" observes layout {OBS_LAYOUT}: retrain it, or use the build it was made for"
        )


def save_safetensors(path, tensors, metadata):
    header = {"__metadata__": metadata}
    blobs = []
    offset = 0
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def load_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    meta = header.pop("__metadata__", {})
    base = 8 + n
    tensors = {}
    for name, info in header.items():
        if info["dtype"] != "F32":
            raise ValueError(f"{name}: dtype {info['dtype']}, expected F32")
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(raw[base + start : base + end], dtype="<f4").reshape(info["shape"]).copy()
    return tensors, meta
