# d2dlearn model zoo: multiply-adds of one sample's forward pass, counted by forward hooks.
# SPDX-License-Identifier: GPL-2.0-only
#
# An independent count for the tests and the export scripts' printed line, from the real
# output shapes of an eager (not scripted) nn.Module's layers:
#   nn.Conv2d     out.numel() * in_channels / groups * kh * kw
#   nn.Linear     out.numel() * in_features
#   nn.LSTM       per layer, per time step, per sample 4 * H * (I + H)  (I: the layer's input
#                 size, H: hidden size; biases and the gate nonlinearities are not counted)
#   nn.Embedding  0 (a table look-up)
# Everything else (BatchNorm, ReLU, pooling, the option-A shortcut, additions) counts 0.
# Forward FLOPs per sample = 2 x multiply-adds: the convention of d2dlearn's C++ side, which
# counts aten::convolution, addmm, mm, bmm and matmul as the dispatcher sees them.
#
# Usage: import flops; flops.multiply_adds(model, [3, 32, 32]) -> int (per sample).

import torch
from torch import nn


def _conv(module, out):
    kh, kw = module.kernel_size
    return out.numel() * (module.in_channels // module.groups) * kh * kw


def _linear(module, out):
    return out.numel() * module.in_features


def _lstm(module, out, batch, steps):
    h = module.hidden_size
    per_step = 0
    for layer in range(module.num_layers):
        i = module.input_size if layer == 0 else h * (2 if module.bidirectional else 1)
        per_step += 4 * h * (i + h) * (2 if module.bidirectional else 1)
    return per_step * steps * batch


def multiply_adds(model, sample_shape, batch=1, sample=None):
    """Multiply-adds of the forward pass of `batch` samples of `sample_shape`, divided by
    `batch` (an int: every counted layer is linear in the batch). The input is zeros (valid
    for the text models' character indices too) unless `sample` is given. The model runs in
    eval mode under no_grad, so BatchNorm's running statistics are left untouched; its
    training flag is restored."""
    counts = []
    hooks = []

    def hook(module, inputs, output):
        if isinstance(module, nn.Conv2d):
            counts.append(_conv(module, output))
        elif isinstance(module, nn.Linear):
            counts.append(_linear(module, output))
        elif isinstance(module, nn.LSTM):
            seq = output[0]
            if module.batch_first:
                b, t = seq.shape[0], seq.shape[1]
            else:
                t, b = seq.shape[0], seq.shape[1]
            counts.append(_lstm(module, seq, b, t))
        elif isinstance(module, nn.Embedding):
            counts.append(0)

    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear, nn.LSTM, nn.Embedding)):
            hooks.append(m.register_forward_hook(hook))
    was_training = model.training
    model.eval()
    try:
        x = sample if sample is not None else torch.zeros([batch] + list(sample_shape))
        with torch.no_grad():
            model(x)
    finally:
        model.train(was_training)
        for h in hooks:
            h.remove()
    total = sum(counts)
    if total % batch:
        raise ValueError(f"flops: {total} multiply-adds do not divide by the batch {batch}")
    return total // batch
