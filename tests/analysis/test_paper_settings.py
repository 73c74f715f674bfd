#!/usr/bin/python3
"""The campaigns of the papers' own settings (analysis/campaigns/real-data/: prediction
consensus with ResNet-20 on CIFAR-10, CMFL with LEAF's CNN on FEMNIST's natural split, graph
discovery with AlexNet on CIFAR-10) need data and models that cannot be downloaded here. Each
is validated here as a user would run it, unchanged: the campaign files are copied into a
temporary repository-like folder whose data/ holds stand-in files in the exact formats
(CIFAR-10's binary version, LEAF's JSON with 40 writers) and the models exported by
examples/models at test time, then `sweep.py run FILE --dry-run` has every run's command
checked by the program's --validate (data read, model loaded and checked against the
data's shape, every flag's value): exit 0, and one command line per run. Without the
stand-ins, the same command stops with one line naming the missing file.

Usage: test_paper_settings.py BIN_DIR
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PYTHON = "/usr/bin/python3"
BIN = None

try:
    import numpy as np
    import torch  # noqa: F401  (the models' export needs it)
except ImportError as e:
    print(f"analysis-paper-settings: SKIP: {e} (install python3-torch)")
    sys.exit(77)

CAMPAIGNS = {  # file: runs
    "paper-consensus-resnet20.toml": 18,
    "paper-cmfl-femnist.toml": 21,
    "paper-graph-discovery-alexnet.toml": 6,
}
MODELS = ("resnet20", "leaf_femnist_cnn", "alexnet_cifar")


def write_cifar10(folder, per_batch, test_count):
    os.makedirs(folder)
    rng = np.random.default_rng(1)

    def records(n):
        labels = (np.arange(n) % 10).astype(np.uint8)[:, None]
        pixels = rng.integers(0, 256, size=(n, 3072), dtype=np.uint8)
        return np.concatenate([labels, pixels], axis=1).tobytes()

    for b in range(1, 6):
        with open(os.path.join(folder, f"data_batch_{b}.bin"), "wb") as f:
            f.write(records(per_batch))
    with open(os.path.join(folder, "test_batch.bin"), "wb") as f:
        f.write(records(test_count))


def write_leaf_femnist(folder, writers, per_writer):
    rng = np.random.default_rng(2)
    for split in ("train", "test"):
        os.makedirs(os.path.join(folder, split))
        users = [f"f{k:04d}_{k % 7:02d}" for k in range(writers)]
        data = {"users": users, "num_samples": [], "user_data": {}}
        for k, u in enumerate(users):
            n = per_writer + k % 3
            y = [(k + i) % 62 for i in range(n)]
            x = rng.random((n, 784)).round(3).tolist()
            data["num_samples"].append(n)
            data["user_data"][u] = {"x": x, "y": y}
        with open(os.path.join(folder, split, f"all_data_0_niid_05_keep_0_{split}_9.json"), "w") as f:
            json.dump(data, f)


class PaperSettings(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="paper-settings-")
        cls.campaigns = os.path.join(cls.tmp, "analysis", "campaigns", "real-data")
        shutil.copytree(os.path.join(REPO, "analysis", "campaigns", "real-data"), cls.campaigns)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def dry_run(self, name):
        return subprocess.run([PYTHON, os.path.join(REPO, "analysis", "sweep.py"), "run",
                               os.path.join(self.campaigns, name), "--dry-run", "--bin", BIN,
                               "-j", "2"],
                              capture_output=True, text=True, timeout=900)

    def test_1_without_the_data_one_line(self):
        proc = self.dry_run("paper-consensus-resnet20.toml")
        self.assertEqual(proc.returncode, 2, proc.stdout[-500:] + proc.stderr)
        last = proc.stderr.strip().splitlines()[-1]
        self.assertIn("refused by", last)
        self.assertIn("(nothing run)", last)

    def test_2_every_run_validates_on_stand_in_files(self):
        data = os.path.join(self.tmp, "data")
        write_cifar10(os.path.join(data, "cifar-10-batches-bin"), per_batch=120, test_count=100)
        write_leaf_femnist(os.path.join(data, "leaf-femnist"), writers=40, per_writer=4)
        os.makedirs(os.path.join(data, "models"))
        for model in MODELS:
            subprocess.run([PYTHON, os.path.join(REPO, "examples", "models", model + ".py"),
                            os.path.join(data, "models", model + ".pt")],
                           check=True, capture_output=True)
        for name, runs in CAMPAIGNS.items():
            with self.subTest(campaign=name):
                proc = self.dry_run(name)
                self.assertEqual(proc.returncode, 0, proc.stdout[-500:] + proc.stderr)
                lines = proc.stdout.splitlines()
                self.assertTrue(lines[0].startswith(f"# {runs} runs, {runs} to run"), lines[0])
                self.assertEqual(len(lines), runs + 1)


if __name__ == "__main__":
    BIN = sys.argv.pop(1)
    unittest.main(verbosity=2)
