#!/usr/bin/python3
# d2dlearn model zoo: AlexNet for 32x32 images, exported as TorchScript for
# --model=torchscript:PATH.
# SPDX-License-Identifier: GPL-2.0-only
#
# The model of Wagle, Das, Love, Brinton 2025 (MARL for D2D graph discovery in FL) on CIFAR-10
# and SVHN: the paper says only "We use the Alexnet [47] model" / "the Alexnet [47]
# architecture" (sec. V.A and appendix C), [47] being Krizhevsky, Sutskever, Hinton 2012;
# it gives no layer table and no code. AlexNet itself takes 224x224 images (11x11 stride-4
# first convolution, 3x3 stride-2 pooling, 6x6x256 features), so a 32x32 port is needed;
# this is the common one of the PyTorch federated-learning code bases: torchvision's
# single-tower AlexNet widths (64-192-384-256-256, Krizhevsky 2014, "One weird trick") with
# the first convolution 3x3 stride 2 and 2x2 max pooling, so that 32x32 ends at 2x2x256, and
# AlexNet's classifier (dropout, 4096, 4096, classes). Read for this port: the CIFAR-10 AlexNet
# of beiyuouo/fedhf (fedhf/model/nn/alexnet_cifar10.py), the same layer table as several
# other public FL repositories.
#   conv 3x3/2 pad 1, 3 -> 64, ReLU, max pool 2       32 -> 16 -> 8
#   conv 3x3 pad 1, 64 -> 192, ReLU, max pool 2       8 -> 4
#   conv 3x3 pad 1, 192 -> 384, ReLU
#   conv 3x3 pad 1, 384 -> 256, ReLU
#   conv 3x3 pad 1, 256 -> 256, ReLU, max pool 2      4 -> 2
#   dropout, dense 1024 -> 4096, ReLU, dropout, dense 4096 -> 4096, ReLU, dense 4096 -> classes
# 23,272,266 parameters for 10 classes (93 MB of float32). PyTorch's default initialisation.
#
# Dropout draws from LibTorch's global generator, not a per-device one: with --dropout above 0
# (0.5 by default, as in Krizhevsky et al. 2012), training is reproducible only if every
# training job reseeds and holds that generator by itself. --dropout 0 removes every random
# draw from the forward pass.
#
#   /usr/bin/python3 examples/models/alexnet_cifar.py alexnet.pt [--seed 0] [--classes 10] \
#       [--dropout 0.5]
#
# forward(x): x float32 [B, 3, 32, 32] -> logits [B, classes].

import os
import sys
from typing import List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

import export_common  # noqa: E402

if __name__ == "__main__":
    export_common.rerun_under_fixed_hash_seed()  # byte-identical files for one seed

import argparse  # noqa: E402

import torch  # noqa: E402
from torch import nn  # noqa: E402

INPUT_SHAPE = [3, 32, 32]


class AlexNetCifar(nn.Module):
    input_shape: List[int]
    num_classes: int

    def __init__(self, classes=10, dropout=0.5):
        super().__init__()
        self.input_shape = list(INPUT_SHAPE)
        self.num_classes = classes
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, 3, stride=2, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 192, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(192, 384, 3, padding=1), nn.ReLU(),
            nn.Conv2d(384, 256, 3, padding=1), nn.ReLU(),
            nn.Conv2d(256, 256, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(
            nn.Dropout(dropout), nn.Linear(256 * 2 * 2, 4096), nn.ReLU(),
            nn.Dropout(dropout), nn.Linear(4096, 4096), nn.ReLU(),
            nn.Linear(4096, classes))

    def forward(self, x):
        if x.dim() != 4 or list(x.shape[1:]) != self.input_shape:
            raise ValueError("alexnet_cifar: expected input [B, 3, 32, 32] (float32), got "
                             + str(list(x.shape)))
        return self.classifier(self.features(x).flatten(1))


def build(seed=0, classes=10, dropout=0.5):
    torch.manual_seed(seed)
    return AlexNetCifar(classes, dropout)


def probability(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number (accepted range [0, 1))")
    if not 0 <= v < 1:
        raise argparse.ArgumentTypeError(f"{v} is outside the accepted range [0, 1)")
    return v


def add_options(p):
    p.add_argument("--dropout", type=probability, default=0.5,
                   help="dropout probability before the two 4096 layers (default 0.5; 0: no "
                        "random draw in the forward pass)")


if __name__ == "__main__":
    sys.exit(export_common.main("alexnet_cifar", "AlexNet for 32x32 images (the CIFAR port of "
                                "torchvision's widths) as TorchScript", build, 10, add_options))
