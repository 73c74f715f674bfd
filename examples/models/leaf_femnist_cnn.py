#!/usr/bin/python3
# d2dlearn model zoo: the LEAF FEMNIST CNN, exported as TorchScript for --model=torchscript:PATH.
# SPDX-License-Identifier: GPL-2.0-only
#
# Caldas et al. 2018, "LEAF: A Benchmark for Federated Settings", the FEMNIST baseline model,
# as LEAF's own code builds it (github.com/TalwalkarLab/leaf, models/femnist/cnn.py, read for
# this port; num_classes 62 from models/baseline_constants.py):
#   784 values reshaped to 28x28x1
#   conv 5x5, 32 filters, "same" padding, ReLU; max pool 2x2 stride 2   -> 14x14x32
#   conv 5x5, 64 filters, "same" padding, ReLU; max pool 2x2 stride 2   -> 7x7x64
#   dense 3136 -> 2048, ReLU; dense 2048 -> 62 (logits)
# 6,603,710 parameters for 62 classes. LEAF's initialisation is kept: tf.layers' defaults,
# Glorot (Xavier) uniform kernels and zero biases.
# CMFL (Che et al. 2022) trains FEMNIST with LEAF (its sec. on datasets cites Caldas et al.),
# though its text names the model "AlexNet"; this is LEAF's baseline.
#
# One difference from LEAF's TensorFlow: the flattening order. TensorFlow flattens 7x7x64
# channels-last, PyTorch 64x7x7 channels-first: the same function class, only the first dense
# layer's rows are permuted (a weight file from LEAF would need that permutation).
#
#   /usr/bin/python3 examples/models/leaf_femnist_cnn.py femnist_cnn.pt [--seed 0] [--classes 62]
#
# forward(x): x float32 [B, 784] (LEAF JSON's rows) or [B, 1, 28, 28] (idx images)
# -> logits [B, classes]. input_shape is [1, 28, 28].

import os
import sys
from typing import List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

import export_common  # noqa: E402

if __name__ == "__main__":
    export_common.rerun_under_fixed_hash_seed()  # byte-identical files for one seed

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402

INPUT_SHAPE = [1, 28, 28]


class FemnistCnn(nn.Module):
    input_shape: List[int]
    num_classes: int

    def __init__(self, classes=62):
        super().__init__()
        self.input_shape = list(INPUT_SHAPE)
        self.num_classes = classes
        self.conv1 = nn.Conv2d(1, 32, 5, padding=2)  # 5x5 "same" at stride 1
        self.conv2 = nn.Conv2d(32, 64, 5, padding=2)
        self.fc1 = nn.Linear(7 * 7 * 64, 2048)
        self.fc2 = nn.Linear(2048, classes)
        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                nn.init.xavier_uniform_(m.weight)
                nn.init.zeros_(m.bias)

    def forward(self, x):
        if x.dim() == 2 and x.shape[1] == 784:
            x = x.reshape(-1, 1, 28, 28)
        elif x.dim() != 4 or list(x.shape[1:]) != self.input_shape:
            raise ValueError("leaf_femnist_cnn: expected input [B, 784] or [B, 1, 28, 28] "
                             "(float32), got " + str(list(x.shape)))
        x = F.max_pool2d(F.relu(self.conv1(x)), 2, 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2, 2)
        x = F.relu(self.fc1(x.flatten(1)))
        return self.fc2(x)


def build(seed=0, classes=62):
    torch.manual_seed(seed)
    return FemnistCnn(classes)


if __name__ == "__main__":
    sys.exit(export_common.main("leaf_femnist_cnn", "The LEAF FEMNIST CNN (Caldas et al. "
                                "2018) as TorchScript", build, 62))
