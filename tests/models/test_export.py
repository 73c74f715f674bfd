#!/usr/bin/python3
"""Test of the model zoo's export scripts (examples/models/): each of the four models is
exported at test time into a temporary folder (no .pt file is committed), loaded back with
torch.jit.load and checked against hand counts from its layer table:

- the attributes input_shape / num_classes the C++ loader reads, and trainable parameters
  (the module is not frozen);
- the parameter count (ResNet-20 269,722 with the paper's option-A shortcuts, 272,474 with
  option B; FEMNIST CNN, Shakespeare LSTM, AlexNet by hand);
- the logits' shape on a stand-in batch, and that a mis-shaped input is refused;
- multiply-adds per sample: examples/models/flops.py (forward hooks) against the hand count
  (ResNet-20 40,551,040: about 40.6 M), the printed line, and the FLOPs LibTorch's profiler
  attributes to aten::conv2d / addmm / mm / bmm (2 x multiply-adds, the C++ side's count);
- one SGD step: the loss is finite, the parameters change, BatchNorm's running statistics
  change in train mode and not in eval mode; the saved buffers are the initial ones, the
  LSTM's initialisation LEAF's (forget-gate bias 1);
- the export is deterministic: one seed gives identical state_dicts and byte-identical files
  (the command run twice), another seed other weights;
- bench/torch-step.py's JSON line on two exported files (a smoke test of the benchmark).

Needs Debian's python3-torch: without it the test is skipped (exit 77, the reason printed).
Run it directly: /usr/bin/python3 tests/models/test_export.py"""

import contextlib
import io
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in examples/models

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MODELS = os.path.join(TOP, "examples", "models")
SKIP = 77

try:
    import torch
    import torch.nn.functional as F
except ImportError as e:
    print(f"SKIPPED: test_export.py needs torch (Debian's python3-torch for /usr/bin/python3): "
          f"{e}")
    sys.exit(SKIP)

sys.path.insert(0, MODELS)
import alexnet_cifar  # noqa: E402
import export_common  # noqa: E402
import flops  # noqa: E402
import leaf_femnist_cnn  # noqa: E402
import leaf_shakespeare_lstm  # noqa: E402
import resnet20  # noqa: E402

torch.set_num_threads(1)


# ---- hand counts from the layer tables --------------------------------------------------

def conv_params(c_in, c_out, k, bias):
    return c_out * c_in * k * k + (c_out if bias else 0)


def conv_macs(h_out, w_out, c_in, c_out, k):
    return h_out * w_out * c_out * c_in * k * k


def linear_params(i, o):
    return i * o + o


def resnet20_params(classes, shortcut="A"):
    bn = lambda c: 2 * c  # noqa: E731  (weight and bias; running stats are buffers)
    n = conv_params(3, 16, 3, False) + bn(16)
    c_in = 16
    for c in (16, 32, 64):
        for b in range(3):
            n += conv_params(c_in, c, 3, False) + bn(c) + conv_params(c, c, 3, False) + bn(c)
            if c_in != c and shortcut == "B":
                n += conv_params(c_in, c, 1, False) + bn(c)
            c_in = c
    return n + linear_params(64, classes)


def resnet20_macs(classes, shortcut="A"):
    m = conv_macs(32, 32, 3, 16, 3)
    c_in, size = 16, 32
    for c, stride in ((16, 1), (32, 2), (64, 2)):
        size //= stride
        for b in range(3):
            m += conv_macs(size, size, c_in, c, 3) + conv_macs(size, size, c, c, 3)
            if c_in != c and shortcut == "B":
                m += conv_macs(size, size, c_in, c, 1)
            c_in = c  # option A: the subsampling and zero padding cost nothing
    return m + 64 * classes


def femnist_params(classes):
    return (conv_params(1, 32, 5, True) + conv_params(32, 64, 5, True)
            + linear_params(7 * 7 * 64, 2048) + linear_params(2048, classes))


def femnist_macs(classes):
    return (conv_macs(28, 28, 1, 32, 5) + conv_macs(14, 14, 32, 64, 5)
            + 7 * 7 * 64 * 2048 + 2048 * classes)


def lstm_params(classes, hidden, emb=8):
    layer = lambda i: 4 * hidden * (i + hidden) + 2 * 4 * hidden  # noqa: E731  (b_ih, b_hh)
    return classes * emb + layer(emb) + layer(hidden) + linear_params(hidden, classes)


def lstm_macs(classes, hidden, emb=8, steps=80):
    return steps * (4 * hidden * (emb + hidden) + 4 * hidden * (hidden + hidden)) \
        + hidden * classes


def alexnet_params(classes):
    return (conv_params(3, 64, 3, True) + conv_params(64, 192, 3, True)
            + conv_params(192, 384, 3, True) + conv_params(384, 256, 3, True)
            + conv_params(256, 256, 3, True) + linear_params(1024, 4096)
            + linear_params(4096, 4096) + linear_params(4096, classes))


def alexnet_macs(classes):
    return (conv_macs(16, 16, 3, 64, 3) + conv_macs(8, 8, 64, 192, 3)
            + conv_macs(4, 4, 192, 384, 3) + conv_macs(4, 4, 384, 256, 3)
            + conv_macs(4, 4, 256, 256, 3) + 1024 * 4096 + 4096 * 4096 + 4096 * classes)


# ---- the four models: module, default classes, stand-in batch, hand counts ---------------

def image_batch(b, shape):
    return torch.randn([b] + shape)


def text_batch(b, classes=80):
    return torch.randint(0, classes, (b, 80)).float()


CASES = {
    "resnet20": dict(module=resnet20, classes=10, shape=[3, 32, 32],
                     batch=lambda b: image_batch(b, [3, 32, 32]),
                     bad=[torch.zeros(2, 1, 28, 28), torch.zeros(2, 3, 28, 28),
                          torch.zeros(3, 32, 32)],
                     params=resnet20_params(10), macs=resnet20_macs(10)),
    "leaf_femnist_cnn": dict(module=leaf_femnist_cnn, classes=62, shape=[1, 28, 28],
                             batch=lambda b: image_batch(b, [1, 28, 28]),
                             bad=[torch.zeros(2, 783), torch.zeros(2, 28, 28),
                                  torch.zeros(2, 3, 28, 28), torch.zeros(2, 1, 32, 32)],
                             params=femnist_params(62), macs=femnist_macs(62)),
    "leaf_shakespeare_lstm": dict(module=leaf_shakespeare_lstm, classes=80, shape=[80],
                                  batch=lambda b: text_batch(b),
                                  bad=[torch.zeros(2, 79), torch.zeros(2, 80, 1),
                                       torch.full((2, 80), 80.0)],  # index 80: no such letter
                                  params=lstm_params(80, 256), macs=lstm_macs(80, 256)),
    "alexnet_cifar": dict(module=alexnet_cifar, classes=10, shape=[3, 32, 32],
                          batch=lambda b: image_batch(b, [3, 32, 32]),
                          bad=[torch.zeros(2, 3, 64, 64), torch.zeros(2, 1, 32, 32)],
                          params=alexnet_params(10), macs=alexnet_macs(10)),
}

LINE = re.compile(r"^(\S+) parameters=(\d+) input_shape=\[([\d,]+)\] classes=(\d+) "
                  r"multiply_adds=(\d+) forward_flops=(\d+) seed=(\d+) out=(.+)$")

DISPATCHER_OPS = {"aten::conv2d", "aten::convolution", "aten::addmm", "aten::mm", "aten::bmm",
                  "aten::matmul"}


def export(name, out, *args):
    """The export command in this process (argv given: no re-run under PYTHONHASHSEED);
    returns its printed line, parsed."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        module = CASES[name]["module"]
        rc = export_common.main(name, "", module.build, CASES[name]["classes"],
                                getattr(module, "add_options", None), [out] + list(args))
    assert rc == 0, rc
    m = LINE.match(buf.getvalue().strip())
    assert m, buf.getvalue()
    return m


def profiler_flops(module, x):
    """FLOPs LibTorch's profiler attributes to the ops the C++ side counts (eval, no_grad)."""
    module.eval()
    with torch.no_grad(), torch.autograd.profiler.profile(with_flops=True) as prof:
        module(x)
    return sum(e.flops or 0 for e in prof.function_events if e.name in DISPATCHER_OPS)


def state(module):
    return {k: v.detach().clone() for k, v in module.state_dict().items()}


class ExportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="d2dlearn-models-")
        cls.lines = {}
        cls.paths = {}
        for name in CASES:
            path = os.path.join(cls.tmp.name, name + ".pt")
            cls.lines[name] = export(name, path)
            cls.paths[name] = path

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def load(self, name):
        return torch.jit.load(self.paths[name])

    def test_folder_holds_only_the_exports(self):
        # the temporary files were renamed or removed
        self.assertEqual(sorted(os.listdir(self.tmp.name)), sorted(n + ".pt" for n in CASES))

    def test_attributes_and_counts(self):
        for name, c in CASES.items():
            with self.subTest(name):
                m = self.load(name)
                self.assertEqual(list(m.input_shape), c["shape"])
                self.assertEqual(int(m.num_classes), c["classes"])
                params = sum(p.numel() for p in m.parameters())
                self.assertEqual(params, c["params"])
                self.assertTrue(all(p.requires_grad for p in m.parameters()), "frozen?")
                line = self.lines[name]
                self.assertEqual(line.group(1), name)
                self.assertEqual(int(line.group(2)), c["params"])
                self.assertEqual([int(v) for v in line.group(3).split(",")], c["shape"])
                self.assertEqual(int(line.group(4)), c["classes"])
                self.assertEqual(int(line.group(5)), c["macs"])
                self.assertEqual(int(line.group(6)), 2 * c["macs"])

    def test_known_totals(self):
        # the figures the README quotes, so a wrong hand formula cannot pass unnoticed
        self.assertEqual(resnet20_params(10), 269722)
        self.assertEqual(resnet20_params(10, "B"), 272474)
        self.assertEqual(resnet20_params(100), 275572)
        self.assertEqual(resnet20_macs(10), 40551040)
        self.assertAlmostEqual(resnet20_macs(10) / 1e6, 40.6, delta=0.05)
        self.assertEqual(femnist_params(62), 6603710)
        self.assertEqual(femnist_macs(62), 17211904)
        self.assertEqual(lstm_params(80, 256), 819920)
        self.assertEqual(lstm_params(80, 256) - 2 * 4 * 256, 817872)  # LEAF's TF, one bias
        self.assertEqual(lstm_macs(80, 256), 63590400)
        self.assertEqual(alexnet_params(10), 23272266)
        self.assertEqual(alexnet_macs(10), 62742528)

    def test_flops(self):
        for name, c in CASES.items():
            with self.subTest(name):
                model = c["module"].build(seed=0)
                self.assertEqual(flops.multiply_adds(model, c["shape"]), c["macs"])
                self.assertEqual(flops.multiply_adds(model, c["shape"], batch=3), c["macs"])
                x = torch.zeros([1] + c["shape"])
                self.assertEqual(profiler_flops(self.load(name), x), 2 * c["macs"])

    def test_variants(self):
        b = resnet20.build(shortcut="B")
        self.assertEqual(export_common.parameter_count(b), resnet20_params(10, "B"))
        self.assertEqual(flops.multiply_adds(b, [3, 32, 32]), resnet20_macs(10, "B"))
        r100 = resnet20.build(classes=100)
        self.assertEqual(export_common.parameter_count(r100), resnet20_params(100))
        self.assertEqual(flops.multiply_adds(r100, [3, 32, 32]), resnet20_macs(100))
        l100 = leaf_shakespeare_lstm.build(hidden=100)
        self.assertEqual(export_common.parameter_count(l100), lstm_params(80, 100))
        self.assertEqual(flops.multiply_adds(l100, [80]), lstm_macs(80, 100))

    def test_forward_shapes_and_bad_input(self):
        torch.manual_seed(1)
        for name, c in CASES.items():
            with self.subTest(name):
                m = self.load(name)
                m.eval()
                x = c["batch"](4)
                with torch.no_grad():
                    y = m(x)
                self.assertEqual(list(y.shape), [4, c["classes"]])
                self.assertEqual(y.dtype, torch.float32)
                self.assertTrue(torch.isfinite(y).all())
                for bad in c["bad"]:
                    with self.assertRaises(Exception, msg=str(list(bad.shape))):
                        m(bad)
        m = self.load("leaf_femnist_cnn")
        m.eval()
        x = torch.rand(3, 1, 28, 28)
        with torch.no_grad():
            self.assertTrue(torch.equal(m(x), m(x.reshape(3, 784))))
        with self.assertRaisesRegex(Exception, r"expected input \[B, 3, 32, 32\]"):
            self.load("resnet20")(torch.zeros(2, 1, 28, 28))

    def test_initial_buffers(self):
        # the FLOP count ran a forward pass before saving: it must not have moved BatchNorm
        sd = self.load("resnet20").state_dict()
        bns = [k[:-len(".running_mean")] for k in sd if k.endswith(".running_mean")]
        self.assertEqual(len(bns), 19)
        for k in bns:
            self.assertTrue(torch.equal(sd[k + ".running_mean"], torch.zeros_like(
                sd[k + ".running_mean"])), k)
            self.assertTrue(torch.equal(sd[k + ".running_var"], torch.ones_like(
                sd[k + ".running_var"])), k)
            self.assertEqual(int(sd[k + ".num_batches_tracked"]), 0, k)

    def test_lstm_initialisation(self):
        # LEAF's TensorFlow cell: zero biases but the forget gate's 1.0 (PyTorch gate order
        # input, forget, cell, output), Glorot bounds over the [I + H, 4H] kernel
        sd = self.load("leaf_shakespeare_lstm").state_dict()
        h = 256
        for layer, i in ((0, 8), (1, h)):
            b_ih, b_hh = sd[f"lstm.bias_ih_l{layer}"], sd[f"lstm.bias_hh_l{layer}"]
            self.assertTrue(torch.equal(b_hh, torch.zeros(4 * h)))
            want = torch.zeros(4 * h)
            want[h:2 * h] = 1.0
            self.assertTrue(torch.equal(b_ih, want))
            bound = math.sqrt(6.0 / (i + h + 4 * h))
            for w in ("weight_ih", "weight_hh"):
                t = sd[f"lstm.{w}_l{layer}"]
                self.assertLessEqual(t.abs().max().item(), bound)
                self.assertGreater(t.abs().max().item(), 0.9 * bound)
        self.assertTrue(torch.equal(sd["fc.bias"], torch.zeros(80)))

    def test_sgd_step(self):
        torch.manual_seed(2)
        for name, c in CASES.items():
            with self.subTest(name):
                m = self.load(name)
                x = c["batch"](8)
                y = torch.randint(0, c["classes"], (8,))
                before = state(m)
                m.train()
                opt = torch.optim.SGD(m.parameters(), lr=0.05)
                opt.zero_grad()
                loss = F.cross_entropy(m(x), y)
                self.assertTrue(math.isfinite(loss.item()), loss.item())
                loss.backward()
                opt.step()
                after = state(m)
                for k, p in m.named_parameters():
                    self.assertFalse(torch.equal(before[k], after[k]), f"{k} did not change")
                buffers = [k for k, _ in m.named_buffers()]
                for k in buffers:
                    if k.endswith(("running_mean", "running_var", "num_batches_tracked")):
                        self.assertFalse(torch.equal(before[k], after[k]),
                                         f"{k} did not change in train mode")
                # eval mode: no BatchNorm statistic moves, and the output is deterministic
                m.eval()
                with torch.no_grad():
                    y1 = m(x)
                    y2 = m(x)
                self.assertTrue(torch.equal(y1, y2))
                evaluated = state(m)
                for k in buffers:
                    self.assertTrue(torch.equal(after[k], evaluated[k]), f"{k} moved in eval")
                if name == "resnet20":
                    self.assertEqual(len(buffers), 3 * 19)

    def test_deterministic(self):
        again = os.path.join(self.tmp.name, "again")
        os.mkdir(again)
        try:
            for name in CASES:
                if name == "alexnet_cifar":
                    continue  # 93 MB: its seeding is the same code path as the others'
                with self.subTest(name):
                    path = os.path.join(again, name + ".pt")
                    export(name, path)
                    a, b = self.load(name).state_dict(), torch.jit.load(path).state_dict()
                    self.assertEqual(list(a), list(b))
                    for k in a:
                        self.assertTrue(torch.equal(a[k], b[k]), k)
                    export(name, path, "--seed", "1")
                    c = torch.jit.load(path).state_dict()
                    weights = [k for k in a if k.endswith("weight")]
                    self.assertFalse(any(torch.equal(a[k], c[k]) for k in weights
                                         if not k.split(".")[-2].startswith("bn")),
                                     "seed 1 gave a layer seed 0's weights")
        finally:
            for f in os.listdir(again):
                os.unlink(os.path.join(again, f))
            os.rmdir(again)

    def test_bench_torch_step(self):
        """bench/torch-step.py, the Python half of the step benchmark: its JSON line on an
        exported file (one step at batch 2: a smoke test, not a measurement)."""
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "torch_step", os.path.join(TOP, "bench", "torch-step.py"))
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
        for name in ("resnet20", "leaf_shakespeare_lstm"):
            with self.subTest(name):
                buf = io.StringIO()
                with contextlib.redirect_stdout(buf):
                    bench.main(["--model", self.paths[name], "--batch", "2", "--warmup", "0",
                                "--steps", "1"])
                row = json.loads(buf.getvalue())
                self.assertEqual(row["bench"], "torch-step")
                self.assertEqual(row["parameters"], CASES[name]["params"])
                self.assertEqual(row["forward_flops_per_sample"], 2 * CASES[name]["macs"])
                self.assertEqual(row["input_shape"], CASES[name]["shape"])
                self.assertGreater(row["median_ms"], 0)
                self.assertTrue(math.isfinite(row["loss"]))
        torch.set_num_threads(1)

    def test_command_line(self):
        """The one command, as a user runs it: twice, byte-identical; a missing folder refused in
        one line."""
        script = os.path.join(MODELS, "resnet20.py")
        with tempfile.TemporaryDirectory(prefix="d2dlearn-models-cmd-") as tmp:
            self.command_line(script, tmp)

    def command_line(self, script, tmp):
        outs = []
        for i in range(2):
            out = os.path.join(tmp, f"cmd{i}.pt")
            env = dict(os.environ)
            env.pop("PYTHONHASHSEED", None)  # the command fixes it itself
            r = subprocess.run([sys.executable, script, out], capture_output=True, text=True,
                               env=env, timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            m = LINE.match(r.stdout.strip())
            self.assertTrue(m, r.stdout)
            self.assertEqual(int(m.group(2)), 269722)
            self.assertEqual(int(m.group(5)), 40551040)
            with open(out, "rb") as f:
                outs.append(f.read())
            os.unlink(out)
        self.assertEqual(outs[0], outs[1], "two exports of seed 0 differ in bytes")
        r = subprocess.run([sys.executable, script, os.path.join(tmp, "no", "x.pt")],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.strip().splitlines(), [
            f"resnet20.py: out: the folder {os.path.join(tmp, 'no')} does not exist"])

    def test_bad_arguments(self):
        """Refused with exit 2, the last line naming the argument and its range; no file."""
        with tempfile.TemporaryDirectory(prefix="d2dlearn-models-bad-") as tmp:
            out = os.path.join(tmp, "bad.pt")
            for name, args, said in (
                    ("resnet20", [out, "--classes", "1"], "--classes: 1 is outside the "
                                                          "accepted range [2, inf)"),
                    ("resnet20", [out, "--seed", "-1"], "--seed: -1 is outside"),
                    ("resnet20", [out, "--seed", "x"], "--seed: 'x' is not an integer"),
                    ("resnet20", [out, "--shortcut", "C"], "--shortcut: invalid choice"),
                    ("resnet20", [], "out"),
                    ("resnet20", [tmp], f"out: {tmp} is a folder"),
                    ("leaf_shakespeare_lstm", [out, "--hidden", "0"], "--hidden: 0 is outside"),
                    ("alexnet_cifar", [out, "--dropout", "1"], "--dropout: 1.0 is outside the "
                                                               "accepted range [0, 1)")):
                with self.subTest(args=args):
                    module = CASES[name]["module"]
                    err = io.StringIO()
                    with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as e:
                        export_common.main(name, "", module.build, CASES[name]["classes"],
                                           getattr(module, "add_options", None), args)
                    self.assertEqual(e.exception.code, 2)
                    self.assertIn(said, err.getvalue().strip().splitlines()[-1])
                    self.assertEqual(os.listdir(tmp), [])
            if os.geteuid() != 0:  # root writes anywhere
                os.chmod(tmp, 0o500)
                err = io.StringIO()
                with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as e:
                    export("leaf_shakespeare_lstm", out)
                os.chmod(tmp, 0o700)
                self.assertEqual(e.exception.code, 1)
                self.assertIn("cannot write", err.getvalue())

if __name__ == "__main__":
    unittest.main(verbosity=2)
