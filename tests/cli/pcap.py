#!/usr/bin/python3
"""--pcap=PREFIX on the Wi-Fi backend: ns-3's pcap files of the 802.11 frames.

d2d-exchange --backend=wifi, 4 devices, half the messages to the server, 5 s:
- one file PREFIX-NODE-0.pcap per device and PREFIX-d2s-NODE-DEVICE.pcap per node of the D2S
  network (the server included), each a pcap file of link type 105 (IEEE 802.11) that
  tcpdump reads (`tcpdump -r`, when installed: Debian's tcpdump, in setup.sh's test list);
- the UDP payload bytes of the frames each device transmits (the fragments of its messages,
  as its own file shows them sent from its address) are at least the bytes messages.csv
  says it sent over D2D (retries add more, never fewer);
- --pcap on the channel backend is refused in one line (nothing 802.11 to capture), as is a
  prefix whose folder does not exist; neither writes an output folder.

Usage: pcap.py BIN_DIR
"""

import csv
import glob
import os
import shutil
import struct
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: pcap.py BIN_DIR")
TMP = tempfile.mkdtemp(prefix="pcap.")
failures = 0


def fail(message):
    global failures
    print("  FAIL: " + message)
    failures += 1


def frames(path):
    """(link type, [frame bytes]) of a classic pcap file, read independently of tcpdump."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    if magic not in (0xA1B2C3D4, 0xA1B23C4D):
        raise ValueError("%s: not a pcap file (magic %08x)" % (path, magic))
    link = struct.unpack("<I", data[20:24])[0]
    out, at = [], 24
    while at + 16 <= len(data):
        incl = struct.unpack("<I", data[at + 8:at + 12])[0]
        out.append(data[at + 16:at + 16 + incl])
        at += 16 + incl
    if at != len(data):
        raise ValueError("%s: truncated record at byte %d" % (path, at))
    return link, out


def udp_payload_from(frame, source_ip):
    """The UDP payload length of an 802.11 data frame (LLC/SNAP, IPv4) sent from source_ip,
    else 0."""
    if len(frame) < 24 + 8 + 20 + 8 or (frame[0] & 0x0C) != 0x08:  # not a data frame
        return 0
    llc = frame[24:32]
    if llc[:3] != b"\xaa\xaa\x03" or llc[6:8] != b"\x08\x00":
        return 0
    ip = frame[32:]
    if ip[9] != 17 or ip[12:16] != bytes(source_ip):
        return 0
    header = (ip[0] & 0x0F) * 4
    return struct.unpack(">H", ip[header + 4:header + 6])[0] - 8


def main():
    prefix = os.path.join(TMP, "run")
    out = os.path.join(TMP, "out")
    r = subprocess.run([os.path.join(BIN, "d2d-exchange"), "--backend=wifi", "--nDevices=4",
                        "--duration=5s", "--d2sFraction=0.5", "--quiet", "--pcap=" + prefix,
                        "--outDir=" + out], capture_output=True, text=True, timeout=300)
    print("check: d2d-exchange --backend=wifi --pcap=PREFIX -> exit 0, one pcap per device")
    if r.returncode != 0:
        fail("exit %d: %s" % (r.returncode, r.stderr.strip()[:300]))
        return
    d2d = sorted(glob.glob(prefix + "-[0-9]*-0.pcap"))
    d2s = sorted(glob.glob(prefix + "-d2s-*.pcap"))
    print("  files: %s" % ", ".join(os.path.basename(p) for p in d2d + d2s))
    if len(d2d) != 4 or len(d2s) != 5:
        fail("expected 4 D2D files and 5 D2S files (4 devices and the server), got %d and %d"
             % (len(d2d), len(d2s)))
    sent = {}
    with open(os.path.join(out, "messages.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if int(row["dst"]) < 4:  # to a device (4 is the server: the D2S network)
                sent[int(row["src"])] = sent.get(int(row["src"]), 0) + int(row["bytes"])
    tcpdump = shutil.which("tcpdump")
    for node, path in enumerate(d2d):
        link, fs = frames(path)
        if link != 105:
            fail("%s: link type %d (expected 105, IEEE 802.11)" % (path, link))
        # The devices' D2D addresses: 10.1.0.(node + 1) (D2dWifiHelper's base 10.1.0.0).
        payload = sum(udp_payload_from(fr, [10, 1, 0, node + 1]) for fr in fs)
        print("  device %d: %d frames, %d UDP payload bytes sent, messages.csv %d bytes"
              % (node, len(fs), payload, sent.get(node, 0)))
        if payload < sent.get(node, 0):
            fail("device %d: its frames carry %d bytes, fewer than the %d it sent"
                 % (node, payload, sent.get(node, 0)))
        if tcpdump:
            t = subprocess.run([tcpdump, "-r", path], capture_output=True, text=True)
            lines = t.stdout.splitlines()
            if t.returncode != 0 or len(lines) != len(fs):
                fail("tcpdump -r %s: exit %d, %d lines for %d frames"
                     % (path, t.returncode, len(lines), len(fs)))
    if not tcpdump:
        print("  note: tcpdump is not installed: the files were read by this test only")

    for name, args, want in (
            ("channel", ["--pcap=" + prefix], "--pcap=%s cannot change this run" % prefix),
            ("no-folder", ["--backend=wifi", "--pcap=" + os.path.join(TMP, "none", "x")],
             "is not a folder this run can write in")):
        bad = os.path.join(TMP, "bad-" + name)
        print("check: --pcap refused (%s) in one line, no output folder" % name)
        r = subprocess.run([os.path.join(BIN, "d2d-exchange"), "--duration=1s", "--outDir=" + bad]
                           + args, capture_output=True, text=True, timeout=60)
        lines = r.stderr.splitlines()
        if r.returncode != 2 or len(lines) != 1 or want not in lines[0] or os.path.exists(bad):
            fail("%s: exit %d, stderr %r" % (name, r.returncode, r.stderr.strip()[:300]))


main()
shutil.rmtree(TMP)
if failures:
    print("pcap: %d failure(s)" % failures)
    sys.exit(1)
print("pcap: the Wi-Fi backend's frames in pcap files, refusals in one line")
