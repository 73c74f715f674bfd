#!/usr/bin/python3
"""--netanim: netanim.xml, the run as ns-3's NetAnim animates it, on both backends.

d2d-exchange with a server and moving devices (random walk, positions every second), on the
channel and on the Wi-Fi backend: netanim.xml is well-formed XML with the root element
NetAnim reads (anim, ver netanim-3.108, filetype animation); one node element per device and
one for the server, at positions.csv's time-0 positions; one packet element `p` per
messages.csv row, in the same order, from its src to its dst, sent at the row's t_start_s
(t_send_s without spectrum columns) and received by t_recv_s when delivered; one node update
`nu` per device and sample of positions.csv after time 0, at its position. The audit passes
on the run, and --netanim on a run that sends no message is refused in one line.

Usage: netanim.py BIN_DIR
"""

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: netanim.py BIN_DIR")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TMP = tempfile.mkdtemp(prefix="netanim.")
failures = 0


def fail(message):
    global failures
    print("  FAIL: " + message)
    failures += 1


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check(backend):
    out = os.path.join(TMP, backend)
    args = [os.path.join(BIN, "d2d-exchange"), "--netanim=true", "--nDevices=6",
            "--duration=4s", "--d2sFraction=0.3", "--mobility=random-walk", "--speedMps=2",
            "--positionEvery=1s", "--backend=" + backend, "--quiet", "--outDir=" + out]
    print("check: %s" % " ".join(args[1:]))
    r = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        fail("%s: exit %d: %s" % (backend, r.returncode, r.stderr.strip()[:300]))
        return
    root = ET.parse(os.path.join(out, "netanim.xml")).getroot()
    if root.tag != "anim" or root.get("ver") != "netanim-3.108" or root.get("filetype") != "animation":
        fail("%s: root element %s %s" % (backend, root.tag, root.attrib))
    nodes = root.findall("node")
    packets = root.findall("p")
    updates = root.findall("nu")
    messages = rows(os.path.join(out, "messages.csv"))
    positions = rows(os.path.join(out, "positions.csv"))
    print("  %d nodes, %d packets, %d node updates; messages.csv %d rows" %
          (len(nodes), len(packets), len(updates), len(messages)))
    at0 = {int(p["node"]): p for p in positions if float(p["sim_time_s"]) == 0}
    if len(nodes) != 7 or sorted(int(n.get("id")) for n in nodes) != list(range(7)):
        fail("%s: %d node elements (expected 6 devices and the server)" % (backend, len(nodes)))
    for n in nodes:
        p = at0.get(int(n.get("id")))
        if p is None or abs(float(n.get("locX")) - float(p["x_m"])) > 1e-6 \
                or abs(float(n.get("locY")) - float(p["y_m"])) > 1e-6:
            fail("%s: node %s at (%s, %s), positions.csv at 0: %s"
                 % (backend, n.get("id"), n.get("locX"), n.get("locY"), p))
    if len(packets) != len(messages) or not messages:
        fail("%s: %d packets for %d messages.csv rows" % (backend, len(packets), len(messages)))
    for p, m in zip(packets, messages):
        start = float(m["t_start_s"]) if m.get("t_start_s") else float(m["t_send_s"])
        ok = (p.get("fId") == m["src"] and p.get("tId") == m["dst"]
              and abs(float(p.get("fbTx")) - start) < 1e-9
              and float(p.get("lbTx")) >= float(p.get("fbTx"))
              and p.get("meta-info").split()[:2] == [m["kind"], m["msg_id"]])
        if m["delivered"] == "1":
            ok = ok and abs(float(p.get("lbRx")) - float(m["t_recv_s"])) < 1e-9
        if not ok:
            fail("%s: packet %s does not match its row %s" % (backend, p.attrib, m))
            break
    later = [p for p in positions if float(p["sim_time_s"]) > 0 and int(p["node"]) < 6]
    moved = {(round(float(u.get("t")), 6), int(u.get("id"))): u for u in updates}
    for p in later:
        u = moved.get((round(float(p["sim_time_s"]), 6), int(p["node"])))
        if u is None or abs(float(u.get("x")) - float(p["x_m"])) > 1e-6:
            fail("%s: no node update matching positions.csv row %s" % (backend, p))
            break
    a = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "analysis", "audit.py"), out],
                       capture_output=True, text=True)
    if a.returncode != 0:
        fail("%s: audit: %s" % (backend, (a.stdout + a.stderr).strip()[-300:]))


check("channel")
check("wifi")
print("check: --netanim where no message is sent: refused in one line")
bad = os.path.join(TMP, "bad")
r = subprocess.run([os.path.join(BIN, "fedavg"), "--algorithm=local", "--netanim=true",
                    "--rounds=1", "--outDir=" + bad], capture_output=True, text=True, timeout=120)
lines = r.stderr.splitlines()
if r.returncode != 2 or len(lines) != 1 or "--netanim" not in lines[0] or os.path.exists(bad):
    fail("fedavg --algorithm=local --netanim: exit %d, %r" % (r.returncode, r.stderr[:300]))
shutil.rmtree(TMP)
if failures:
    print("netanim: %d failure(s)" % failures)
    sys.exit(1)
print("netanim: netanim.xml matches the devices, messages.csv and positions.csv on both backends")
