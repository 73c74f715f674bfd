# d2dlearn model zoo: the command line every export script shares.
# SPDX-License-Identifier: GPL-2.0-only
#
#   /usr/bin/python3 examples/models/NAME.py OUT.pt [--seed S] [--classes C] [model options]
#
# builds the model after torch.manual_seed(S) (so the saved weights, every device's initial
# weights, depend on S only), scripts it (torch.jit.script, not frozen: the parameters stay
# trainable), saves it to a temporary file beside OUT.pt, loads that file back and checks its
# input_shape / num_classes attributes and parameter count, then renames it to OUT.pt (a
# failed export leaves no OUT.pt that looks complete) and prints one line:
#   NAME parameters=P input_shape=[...] classes=C multiply_adds=M forward_flops=2M seed=S out=OUT.pt
# The same seed gives a byte-identical file (the command runs itself under PYTHONHASHSEED=0).
# Bad arguments stop it with one line naming the argument and its accepted range, exit 2.

import argparse
import io
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree


def rerun_under_fixed_hash_seed():
    """Run this command again under PYTHONHASHSEED=0 unless it already is (call it before
    importing torch, which then loads once). TorchScript writes a module's constants in the
    order of a Python set of their names, which string hashing randomises per process: one
    seed gives byte-identical files only under a fixed hash seed."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        env = dict(os.environ, PYTHONHASHSEED="0")
        sys.stdout.flush()
        os.execve(sys.executable, [sys.executable] + sys.argv, env)


def parameter_count(model):
    """Trainable parameters (BatchNorm's running statistics are buffers, not counted)."""
    return sum(p.numel() for p in model.parameters())


def save_atomic(scripted, out, expect_parameters):
    """scripted.save to a temporary file in OUT's folder, checked by a reload, renamed to OUT."""
    import torch
    folder = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(out) + ".", suffix=".tmp",
                               dir=folder)
    os.close(fd)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would hide OUT from other users
        # Saved through a buffer: a file name would become the archive's top folder (a
        # random temporary name), so that two exports of one seed would differ in bytes.
        buf = io.BytesIO()
        torch.jit.save(scripted, buf)
        with open(tmp, "wb") as f:
            f.write(buf.getvalue())
            f.flush()
            os.fsync(f.fileno())
        loaded = torch.jit.load(tmp)
        got = (list(loaded.input_shape), int(loaded.num_classes), parameter_count(loaded))
        want = (list(scripted.input_shape), int(scripted.num_classes), expect_parameters)
        if got != want:
            raise RuntimeError(f"the reloaded module has (input_shape, num_classes, "
                               f"parameters) {got}, not {want}")
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def int_at_least(low):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not an integer "
                                             f"(accepted range [{low}, inf))")
        if v < low:
            raise argparse.ArgumentTypeError(f"{v} is outside the accepted range "
                                             f"[{low}, inf)")
        return v
    return parse


def main(name, description, build, default_classes, add_options=None, argv=None):
    """The export command of one model. build(seed=, classes=, **options) returns the eager
    nn.Module (seeded by build itself); add_options(parser) adds the model's own options."""
    import torch
    import flops
    p = argparse.ArgumentParser(prog=f"{name}.py", description=description)
    p.add_argument("out", help="the TorchScript file to write (e.g. {}.pt)".format(name))
    p.add_argument("--seed", type=int_at_least(0), default=0,
                   help="torch.manual_seed before building: the initial weights (default 0)")
    p.add_argument("--classes", type=int_at_least(2), default=default_classes,
                   help=f"number of classes, the logits' width (default {default_classes})")
    if add_options:
        add_options(p)
    a = p.parse_args(argv)
    options = {k: v for k, v in vars(a).items() if k != "out"}
    folder = os.path.dirname(os.path.abspath(a.out))
    if not os.path.isdir(folder):
        p.exit(2, f"{name}.py: out: the folder {folder} does not exist\n")
    if os.path.isdir(a.out):
        p.exit(2, f"{name}.py: out: {a.out} is a folder, not a file name\n")
    model = build(**options)
    params = parameter_count(model)
    shape = list(model.input_shape)
    macs = flops.multiply_adds(model, shape)
    scripted = torch.jit.script(model)
    try:
        save_atomic(scripted, a.out, params)
    except OSError as e:
        p.exit(1, f"{name}.py: out: cannot write {a.out}: {e.strerror or e}\n")
    print(f"{name} parameters={params} input_shape=[{','.join(map(str, shape))}] "
          f"classes={model.num_classes} multiply_adds={macs} forward_flops={2 * macs} "
          f"seed={a.seed} out={a.out}")
    return 0
