#! /usr/bin/env python3
# ns-3's test.py runs these d2dlearn programs (inside an ns-3 source tree, contrib/d2dlearn,
# configured with --enable-examples --enable-tests): quick runs of the six scenario programs
# and the examples, each (command, do_run, do_valgrind_run) as ns-3's own lists. The outputs
# go to a temporary folder of test.py's choosing (--outDir under /tmp).
cpp_examples = [
    ("fedavg --rounds=1 --dataFraction=0.02 --quiet=true --outDir=/tmp/d2dlearn-examples/fedavg", "True", "False"),
    ("cmfl --rounds=1 --dataFraction=0.02 --quiet=true --outDir=/tmp/d2dlearn-examples/cmfl", "True", "False"),
    ("consensus --rounds=1 --warmupRounds=1 --dataFraction=0.02 --quiet=true --outDir=/tmp/d2dlearn-examples/consensus", "True", "False"),
    ("bayes-consensus --steps=5 --quiet=true --outDir=/tmp/d2dlearn-examples/bayes", "True", "False"),
    ("graph-discovery --iterations=10 --rounds=1 --dataFraction=0.02 --quiet=true --outDir=/tmp/d2dlearn-examples/gd", "True", "False"),
    ("d2d-exchange --nDevices=10 --quiet=true --outDir=/tmp/d2dlearn-examples/d2d", "True", "False"),
    ("send-message", "True", "False"),
    ("energy-trace", "True", "False"),
    ("wifi-backend", "True", "False"),
    ("range-graph", "True", "False"),
    ("gossip-averaging --nDevices=6 --rounds=2 --dataFraction=0.02", "True", "False"),
]

python_examples = []
