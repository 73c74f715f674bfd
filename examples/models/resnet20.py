#!/usr/bin/python3
# d2dlearn model zoo: ResNet-20 for CIFAR, exported as TorchScript for --model=torchscript:PATH.
# SPDX-License-Identifier: GPL-2.0-only
#
# He, Zhang, Ren, Sun 2016, "Deep Residual Learning for Image Recognition", sec. 4.2: a 3x3
# convolution to 16 channels, then 3 stages of n = 3 basic blocks (two 3x3 convolutions, each
# followed by BatchNorm) on 32x32, 16x16 and 8x8 maps with 16, 32 and 64 channels (the first
# block of stages 2 and 3 has stride 2), global average pooling and a fully connected layer:
# 6n + 2 = 20 weighted layers. The shortcuts are identities; where the shape changes, option A
# (the paper's choice for CIFAR): stride-2 subsampling and zero padding of the new channels,
# no parameters. Initialisation as in the paper (He et al. 2015: Kaiming normal, fan_in) for
# the convolutions and, as in the widely used PyTorch version (github.com/akamaster/
# pytorch_resnet_cifar10), for the fully connected layer; BatchNorm weight 1, bias 0.
# 269,722 parameters for 10 classes (0.27 M, the paper's Table 6).
# --shortcut=B gives projection shortcuts (1x1 convolution + BatchNorm, stride 2) where the
# shape changes instead: 272,474 parameters for 10 classes.
# The model of Fan, Mendler-Duenner, Jaggi 2023 (Collaborative Learning via Prediction
# Consensus, sec. 5.2) on CIFAR-10 and CIFAR-100.
#
#   /usr/bin/python3 examples/models/resnet20.py resnet20.pt [--seed 0] [--classes 10]
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

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402

INPUT_SHAPE = [3, 32, 32]


class BasicBlock(nn.Module):
    projection: bool
    subsample: bool
    pad: int

    def __init__(self, in_planes, planes, stride, shortcut):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        changes = stride != 1 or in_planes != planes
        self.projection = changes and shortcut == "B"
        # Option A: channels in_planes -> planes by zero padding, split on both sides.
        self.pad = (planes - in_planes) // 2 if changes and shortcut == "A" else 0
        self.subsample = changes and shortcut == "A"
        if self.projection:
            self.proj = nn.Sequential(
                nn.Conv2d(in_planes, planes, 1, stride=stride, bias=False),
                nn.BatchNorm2d(planes))
        else:
            self.proj = nn.Sequential()  # empty: scripted as the identity, never called

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.projection:
            short = self.proj(x)
        elif self.subsample:
            short = F.pad(x[:, :, ::2, ::2], [0, 0, 0, 0, self.pad, self.pad])
        else:
            short = x
        return F.relu(out + short)


class ResNet20(nn.Module):
    input_shape: List[int]
    num_classes: int

    def __init__(self, classes=10, shortcut="A"):
        super().__init__()
        self.input_shape = list(INPUT_SHAPE)
        self.num_classes = classes
        self.conv1 = nn.Conv2d(3, 16, 3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        blocks = []
        in_planes = 16
        for planes, stride in ((16, 1), (32, 2), (64, 2)):
            for b in range(3):
                blocks.append(BasicBlock(in_planes, planes, stride if b == 0 else 1, shortcut))
                in_planes = planes
        self.layer1 = nn.Sequential(*blocks[0:3])
        self.layer2 = nn.Sequential(*blocks[3:6])
        self.layer3 = nn.Sequential(*blocks[6:9])
        self.fc = nn.Linear(64, classes)
        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                nn.init.kaiming_normal_(m.weight)

    def forward(self, x):
        if x.dim() != 4 or list(x.shape[1:]) != self.input_shape:
            raise ValueError("resnet20: expected input [B, 3, 32, 32] (float32), got "
                             + str(list(x.shape)))
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layer3(self.layer2(self.layer1(out)))
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)
        return self.fc(out)


def build(seed=0, classes=10, shortcut="A"):
    torch.manual_seed(seed)
    return ResNet20(classes, shortcut)


def add_options(p):
    p.add_argument("--shortcut", choices=["A", "B"], default="A",
                   help="A: parameter-free (subsampling + zero padding, the paper's CIFAR "
                        "choice, default); B: 1x1 convolution + BatchNorm projections")


if __name__ == "__main__":
    sys.exit(export_common.main("resnet20", "ResNet-20 for CIFAR (He et al. 2016, sec. 4.2) "
                                "as TorchScript", build, 10, add_options))
