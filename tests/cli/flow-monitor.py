#!/usr/bin/python3
"""--flowMonitor on the Wi-Fi backend: flowmon.xml, ns-3's FlowMonitor statistics.

d2d-exchange --backend=wifi, 4 devices, a third of the messages to the server, 5 s:
flowmon.xml is ns-3's FlowMonitor XML (FlowMonitor root, FlowStats and Ipv4FlowClassifier
with the same flow ids); every (sender, receiver) pair of messages.csv has exactly one UDP
flow between their addresses (D2D: 10.1.0.i+1; D2S: 10.2.0.i+1, the server 10.2.0.N+1), whose
transmitted and received bytes are each at least the bytes of the pair's delivered messages
(their fragments travel with UDP and IP headers); the run audits clean. On the channel backend the flag is
refused in one line. Skipped (77) where d2dlearn was built without ns-3's flow-monitor module
(the run then refuses the flag: checked too).

Usage: flow-monitor.py BIN_DIR
"""

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: flow-monitor.py BIN_DIR")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TMP = tempfile.mkdtemp(prefix="flow-monitor.")
N = 4
failures = 0


def fail(message):
    global failures
    print("  FAIL: " + message)
    failures += 1


def address(node, dst, server):
    """A node's address on the network a message between node and dst used."""
    d2s = server in (node, dst)
    return "10.%d.0.%d" % (2 if d2s else 1, node + 1)


def main():
    out = os.path.join(TMP, "run")
    args = [os.path.join(BIN, "d2d-exchange"), "--backend=wifi", "--flowMonitor=true",
            "--nDevices=%d" % N, "--duration=5s", "--d2sFraction=0.3", "--quiet",
            "--outDir=" + out]
    print("check: %s" % " ".join(args[1:]))
    r = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if r.returncode == 2 and "without its flow-monitor module" in r.stderr:
        print("flow-monitor: SKIP: " + r.stderr.strip())
        shutil.rmtree(TMP)
        sys.exit(77)
    if r.returncode != 0:
        fail("exit %d: %s" % (r.returncode, r.stderr.strip()[:300]))
        return
    root = ET.parse(os.path.join(out, "flowmon.xml")).getroot()
    stats = {f.get("flowId"): f for f in root.findall("FlowStats/Flow")}
    flows = {}
    for f in root.findall("Ipv4FlowClassifier/Flow"):
        if f.get("flowId") not in stats:
            fail("classifier flow %s has no FlowStats entry" % f.get("flowId"))
        key = (f.get("sourceAddress"), f.get("destinationAddress"), f.get("protocol"))
        if key in flows:
            fail("two flows for %s" % (key,))
        flows[key] = stats.get(f.get("flowId"))
    print("  %d flows in flowmon.xml" % len(flows))
    pairs = {}
    with open(os.path.join(out, "messages.csv"), newline="") as fh:
        for m in csv.DictReader(fh):
            src, dst = int(m["src"]), int(m["dst"])
            key = (address(src, dst, N), address(dst, src, N), "17")
            # Only delivered messages were sent whole (a message in flight at the end, or
            # given up, was not).
            delivered = int(m["bytes"]) if m["delivered"] == "1" else 0
            pairs[key] = pairs.get(key, 0) + delivered
    for key, delivered in sorted(pairs.items()):
        f = flows.get(key)
        if f is None:
            fail("no flow %s -> %s for its messages" % (key[0], key[1]))
            continue
        tx, rx = int(f.get("txBytes")), int(f.get("rxBytes"))
        print("  %s -> %s: delivered messages %d bytes; flow txBytes %d, rxBytes %d"
              % (key[0], key[1], delivered, tx, rx))
        # The flow's bytes carry the messages' fragments with their UDP and IP headers.
        if tx < delivered or rx < delivered:
            fail("%s -> %s: the flow sent %d and received %d bytes, fewer than the %d its "
                 "delivered messages hold" % (key[0], key[1], tx, rx, delivered))
    a = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "analysis", "audit.py"), out],
                       capture_output=True, text=True)
    if a.returncode != 0:
        fail("audit: %s" % (a.stdout + a.stderr).strip()[-300:])
    print("check: --flowMonitor on the channel backend: refused in one line")
    bad = os.path.join(TMP, "bad")
    r = subprocess.run([os.path.join(BIN, "d2d-exchange"), "--flowMonitor=true",
                        "--duration=1s", "--outDir=" + bad], capture_output=True, text=True,
                       timeout=60)
    lines = r.stderr.splitlines()
    if r.returncode != 2 or len(lines) != 1 or "--flowMonitor" not in lines[0] \
            or os.path.exists(bad):
        fail("channel: exit %d, %r" % (r.returncode, r.stderr[:300]))


main()
shutil.rmtree(TMP)
if failures:
    print("flow-monitor: %d failure(s)" % failures)
    sys.exit(1)
print("flow-monitor: one flow per pair that exchanged messages, as messages.csv says")
