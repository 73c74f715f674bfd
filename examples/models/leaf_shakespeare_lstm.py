#!/usr/bin/python3
# d2dlearn model zoo: the LEAF Shakespeare next-character LSTM, as TorchScript for
# --model=torchscript:PATH.
# SPDX-License-Identifier: GPL-2.0-only
#
# Caldas et al. 2018, "LEAF: A Benchmark for Federated Settings", the Shakespeare baseline
# (after McMahan et al. 2017), as LEAF's own code builds it (github.com/TalwalkarLab/leaf,
# models/shakespeare/stacked_lstm.py, read for this port; seq_len 80, num_classes 80,
# n_hidden 256 from models/baseline_constants.py):
#   80 character indices -> embedding of the 80 letters into 8 dimensions
#   2 stacked LSTM layers of 256 units over the 80 steps
#   dense 256 -> 80 on the last step's output (the next character's logits)
# Input: float32 [B, 80] holding exact integer indices in [0, 80): the position of each
# character in LEAF's utils/language_utils.py ALL_LETTERS (80 characters); forward casts them
# with .long(). LEAF's word_to_indices gives -1 for a character not in ALL_LETTERS, which the
# embedding refuses (index out of range): a reader must map or drop such characters.
# 819,920 parameters (80 classes, 256 units). LEAF's TensorFlow BasicLSTMCell has one bias
# vector of 4H per layer where PyTorch's LSTM has two (b_ih and b_hh): 2 x 4 x 256 = 2,048 more
# parameters than LEAF's 817,872, the same function class. LEAF's initialisation is kept:
# Glorot uniform over each layer's [I + H, 4H] kernel (both PyTorch matrices with that
# bound), zero biases except the forget gate's 1.0 (BasicLSTMCell's forget_bias, put in
# b_ih), Glorot uniform embedding and dense kernel, zero dense bias.
# CMFL (Che et al. 2022) describes its Shakespeare model as this one "with 100 hidden units":
# --hidden 100 gives that (133,520 parameters).
#
#   /usr/bin/python3 examples/models/leaf_shakespeare_lstm.py shakespeare_lstm.pt \
#       [--seed 0] [--classes 80] [--hidden 256]
#
# forward(x): x float32 [B, 80] -> logits [B, classes].

import os
import sys
from typing import List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

import export_common  # noqa: E402

if __name__ == "__main__":
    export_common.rerun_under_fixed_hash_seed()  # byte-identical files for one seed

import torch  # noqa: E402
from torch import nn  # noqa: E402

SEQ_LEN = 80
EMBEDDING = 8
LAYERS = 2


def _glorot_bound(fan_in, fan_out):
    return (6.0 / (fan_in + fan_out)) ** 0.5


class ShakespeareLstm(nn.Module):
    input_shape: List[int]
    num_classes: int

    def __init__(self, classes=80, hidden=256):
        super().__init__()
        self.input_shape = [SEQ_LEN]
        self.num_classes = classes
        # LEAF's embedding table has num_classes rows: the vocabulary is the class set.
        self.embedding = nn.Embedding(classes, EMBEDDING)
        self.lstm = nn.LSTM(EMBEDDING, hidden, num_layers=LAYERS, batch_first=True)
        self.fc = nn.Linear(hidden, classes)
        nn.init.xavier_uniform_(self.embedding.weight)
        for layer in range(LAYERS):
            i = EMBEDDING if layer == 0 else hidden
            bound = _glorot_bound(i + hidden, 4 * hidden)
            for name in ("weight_ih_l", "weight_hh_l"):
                nn.init.uniform_(getattr(self.lstm, name + str(layer)), -bound, bound)
            b_ih = getattr(self.lstm, "bias_ih_l" + str(layer))
            b_hh = getattr(self.lstm, "bias_hh_l" + str(layer))
            with torch.no_grad():
                b_ih.zero_()
                b_hh.zero_()
                b_ih[hidden:2 * hidden] = 1.0  # PyTorch's gate order: input, forget, cell, output
        nn.init.xavier_uniform_(self.fc.weight)
        nn.init.zeros_(self.fc.bias)

    def forward(self, x):
        if x.dim() != 2 or list(x.shape[1:]) != self.input_shape:
            raise ValueError("leaf_shakespeare_lstm: expected input [B, 80] (float32 "
                             "character indices), got " + str(list(x.shape)))
        out, _ = self.lstm(self.embedding(x.long()))
        return self.fc(out[:, -1, :])


def build(seed=0, classes=80, hidden=256):
    torch.manual_seed(seed)
    return ShakespeareLstm(classes, hidden)


def add_options(p):
    p.add_argument("--hidden", type=export_common.int_at_least(1), default=256,
                   help="LSTM units per layer (default 256, LEAF's; CMFL's text says 100)")


if __name__ == "__main__":
    sys.exit(export_common.main("leaf_shakespeare_lstm", "The LEAF Shakespeare LSTM (Caldas "
                                "et al. 2018) as TorchScript", build, 80, add_options))
