"""run.json: read (load_run_json: bytes that are not UTF-8 a `format` violation, never a codec
error) and checked against the folder and itself: check run-json (message_rows and
energy_rows against messages.csv and energy.csv, the trace level and its untraced kinds, the
link rates, sigma^2 in force) and check trace-files (run.json's trace_files: every CSV file
of the folder listed, with its data rows and CRC-32). Its summary: modules summary and
results.
"""

import json
import os
import zlib

from d2dlearn_analysis.reader import read_run_json
from d2dlearn_analysis.run_json import current_shares


def load_run_json(run_dir):
    """(run.json parsed, [violation lines]). A folder or run.json missing, or a run.json of
    UTF-8 text that is not a JSON object: AnalysisError (exit status 2, as every analysis
    script). A run.json with bytes that are not UTF-8 is a violation naming it ("format"),
    then read with those bytes replaced (U+FFFD); if it is no JSON object even so, the run
    cannot be audited (doc None) and that is a violation too, never a codec error."""
    path = os.path.join(run_dir, "run.json")
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        data.decode("utf-8")
    except OSError:
        return read_run_json(run_dir), []  # its one-line error (missing folder or file)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        problems = ["%s: run.json:%d: format: UTF-8 text (%s), expected UTF-8 got byte 0x%02x "
                    "at offset %d" % (run_dir, line, " ".join(str(e).split()),
                                      data[e.start], e.start)]
        try:
            doc = json.loads(data.decode("utf-8", errors="replace"))
        except ValueError as err:
            doc = None
            problems.append("%s: run.json: format: a JSON object once its bytes that are not "
                            "UTF-8 are replaced (%s): the run cannot be audited, expected JSON "
                            "got unparsable" % (run_dir, " ".join(str(err).split())))
        if doc is not None and not isinstance(doc, dict):
            problems.append("%s: run.json: format: a JSON object: the run cannot be audited, "
                            "expected an object got %s" % (run_dir, type(doc).__name__))
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("parameters"), dict):
            doc["parameters"] = current_shares(doc["parameters"])
        return doc, problems
    return read_run_json(run_dir), []


def check_run_json(a, messages, energy):
    a.expect(a.run.get("message_rows") == len(messages), "run.json:message_rows", "run-json",
             "data rows of messages.csv", len(messages), a.run.get("message_rows"))
    a.expect(a.run.get("energy_rows") == len(energy), "run.json:energy_rows", "run-json",
             "data rows of energy.csv", len(energy), a.run.get("energy_rows"))
    level = a.run.get("traces", "full")
    a.expect(level in ("standard", "full"), "run.json:traces", "run-json", "a trace level",
             "standard|full", level)
    untraced = a.run.get("untraced_message_rows") or {}
    a.expect(not untraced or level == "standard", "run.json:untraced_message_rows", "run-json",
             "kinds left out of messages.csv only at --traces=standard", "standard", level)
    for r in messages:
        if r["kind"] in untraced:
            a.expect(False, "messages.csv:%d" % r["_line"], "run-json",
                     "a row of a kind run.json lists as untraced", "no row", r["kind"])
            break
    p = a.params
    k_d2d = p.get("subChannels", 0)
    k_d2s = p.get("d2sSubChannels", -1)
    k_d2s = k_d2d if isinstance(k_d2s, (int, float)) and k_d2s < 0 else k_d2s
    if "d2sSubChannelsInForce" in p:
        a.expect(p["d2sSubChannelsInForce"] == k_d2s, "run.json:parameters.d2sSubChannelsInForce",
                 "run-json", "d2sSubChannels, or subChannels where it is -1", k_d2s,
                 p["d2sSubChannelsInForce"])
    m = p.get("subChannelsPerTransmission", 1)
    # The D2S cell's band: d2sBandwidthHz where > 0 (its own band), else bandwidthHz.
    d2s_band = p.get("d2sBandwidthHz", -1)
    d2s_band = ("d2sBandwidthHz", d2s_band) if isinstance(d2s_band, (int, float)) \
        and d2s_band > 0 else ("bandwidthHz", p.get("bandwidthHz"))
    for key, k, (band_key, band) in (
            ("linkRateBps", k_d2d, ("bandwidthHz", p.get("bandwidthHz"))),
            ("d2sLinkRateBps", p.get("d2sSubChannelsInForce"), d2s_band)):
        if not all(isinstance(v, (int, float)) for v in
                   (p.get(key), p.get("spectralEfficiency"), band, k, m)):
            continue
        share, what = 1.0, "spectralEfficiency x " + band_key
        if k > 0:
            share = min(m, k) / k
            what += " x subChannelsPerTransmission / K (%d of %d sub-channels)" % (min(m, k), k)
        a.expect_close("run.json:parameters." + key, "run-json", what,
                       p["spectralEfficiency"] * band * share, p[key])


def check_noise(a):
    """run.json's noisePowerInForceW and d2sNoisePowerInForceW (sigma^2 the channels used)
    equal sigma^2 recomputed from the inputs (noise_in_force), relative 1e-12; noise is
    constant or thermal."""
    p = a.params
    kind = p.get("noise", "constant")
    a.expect(kind in ("constant", "thermal"), "run.json:parameters.noise", "run-json",
             "the noise model", "constant|thermal", kind)
    for key, ch in (("noisePowerInForceW", "D2D"), ("d2sNoisePowerInForceW", "D2S")):
        if key not in p:
            continue
        want, how = a.noise[ch]
        a.expect_close("run.json:parameters." + key, "run-json",
                       "sigma^2 of the %s links, %s" % (ch, how), want, p[key], rel=1e-12)


def check_trace_files(a):
    """run.json's trace_files against the folder: every CSV file listed, each with the data
    rows (lines after the header) and the CRC-32 the run wrote it with."""
    listed = a.run.get("trace_files")
    if not a.expect(isinstance(listed, dict), "run.json:trace_files", "trace-files",
                    "the trace files' rows and CRC-32 (a run.json of an older d2dlearn has "
                    "none)", "an object", type(listed).__name__):
        return
    present = sorted(n for n in os.listdir(a.dir) if n.endswith(".csv"))
    for name in present:
        a.expect(name in listed, name, "trace-files", "a CSV file run.json lists",
                 "listed", "not listed")
    for name, entry in sorted(listed.items()):
        path = os.path.join(a.dir, name)
        if not a.expect(os.path.isfile(path), name, "trace-files", "a file run.json lists",
                        "present", "missing"):
            continue
        lines, crc = 0, 0
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 16), b""):
                lines += block.count(b"\n")
                crc = zlib.crc32(block, crc)
        entry = entry if isinstance(entry, dict) else {}
        a.expect(entry.get("rows") == max(lines - 1, 0), name, "trace-files",
                 "data rows (lines after the header)", entry.get("rows"), max(lines - 1, 0))
        a.expect(entry.get("crc32") == "%08x" % crc, name, "trace-files",
                 "CRC-32 of the file as the run wrote it (the file changed since)",
                 entry.get("crc32"), "%08x" % crc)
