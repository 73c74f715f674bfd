#!/usr/bin/python3
"""Tests of analysis/audit.py, the independent auditor of a run's numbers.

Run:  /usr/bin/python3 tests/analysis/test_audit.py BIN_DIR
BIN_DIR holds the built scenario programs (fedavg, cmfl, consensus, bayes-consensus,
graph-discovery, d2d-exchange). Each program runs once on a small setting (a few seconds),
and three runs have a finite spectrum (messages.csv's t_start_s, airtime_s, sub_channel and
interference_w: uploads queued on the server's sub-channels, co-channel interference under
immediate access, reliable airtimes), and three runs in other radio environments (3GPP UMi with
thermal noise on a finite band, Friis, Rayleigh fading: messages.csv's rss_w and sinr tied to
p_drop and sigma^2, Friis' RSS recomputed from the positions), and four fedavg runs with
devices that come and go (availability.csv: the on/off model at both trace levels, fedbuff,
an --availabilityFile whose devices are all away for a while) and one whose batteries empty;
the audit must pass on each
(and its checks must have run: not skipped wholesale); then, for each check, a
copy of a real run with one number changed by hand must make the audit exit 1 with a line
naming that check. Over Wi-Fi, devices that come and go are refused
(test_wifi_availability_refused). Two runs that once reported wrong numbers pass, and their
old numbers written back by hand are flagged: consensus --algorithm=local with flipped agents in node -1 (network-mean), and
graph-discovery's D2S rows at another P_D than --d2sDropProbability (p_drop).
"""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "analysis", "audit.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
BIN = None

# One small, fast setting per program (the bugs below are avoided here).
RUNS = {
    "d2d-exchange": ["--nDevices=6", "--duration=2s", "--d2sFraction=0.2",
                     "--radioProfile=custom", "--ns3::D2dRadioEnergyModel::IdlePowerW=0.01"],
    "d2d-exchange-drop": ["--nDevices=6", "--duration=2s", "--d2sFraction=0.3",
                          "--dropProbability=0.2", "--d2sDropProbability=0.5"],
    "d2d-exchange-wifi": ["--backend=wifi", "--nDevices=4", "--duration=1s"],
    # More than 4,096 delivered rows of one kind: run.json's p95 is the P-squared estimate.
    "d2d-exchange-p2": ["--nDevices=50", "--duration=100s", "--meanInterval=0.5s"],
    "fedavg": ["--nDevices=6", "--rounds=2", "--dataFraction=0.03", "--model=mlp:32"],
    "fedavg-decentralized": ["--algorithm=decentralized", "--nDevices=5", "--rounds=2",
                             "--dataFraction=0.02", "--model=mlp:16", "--flipDevices=1"],
    "fedavg-semi-decentralized": ["--algorithm=semi-decentralized", "--nDevices=4",
                                  "--rounds=2", "--dataFraction=0.02", "--model=mlp:16"],
    "cmfl": ["--nDevices=20", "--activationFraction=0.5", "--rounds=2", "--dataFraction=0.02",
             "--model=logistic"],
    "consensus": ["--dataset=gaussian-mixture", "--dataFraction=0.05", "--nDevices=4",
                  "--rounds=4", "--warmupRounds=1", "--model=mlp:8", "--flipList=3"],
    "bayes-consensus": ["--seed=3", "--steps=5"],
    "graph-discovery": ["--nDevices=8", "--dataFraction=0.02", "--iterations=40",
                        "--bufferSize=16", "--traceEvery=1", "--rounds=1", "--model=logistic",
                        "--threads=0"],
    # A finite spectrum (messages.csv's t_start_s, airtime_s, sub_channel, interference_w):
    # the server's cell on 2 sub-channels, scheduled: the 6 uploads queue in waves of 2.
    "fedavg-spectrum-d2s": ["--nDevices=6", "--rounds=2", "--dataFraction=0.03",
                            "--model=mlp:32", "--d2sSubChannels=2", "--access=scheduled"],
    # 8 devices on 2 sub-channels at once (immediate access): co-channel interference in
    # eq. 18 (interference_w > 0) and receptions lost with every chain taken (rx_busy).
    "fedavg-spectrum-interference": ["--algorithm=decentralized", "--nDevices=8", "--rounds=2",
                                     "--dataFraction=0.02", "--model=mlp:16",
                                     "--subChannels=2", "--access=immediate"],
    # Reliable: airtimes with retransmissions; D2D and D2S both scheduled on 2 sub-channels.
    "d2d-exchange-spectrum-reliable": ["--nDevices=8", "--duration=3s", "--subChannels=2",
                                       "--access=scheduled", "--reliable=true",
                                       "--d2sFraction=0.3", "--meanInterval=0.2s"],
    # Runs the audit once flagged wrongly (its checks' false positives, fixed): beliefs.csv
    # of the modes other than discrete (other columns); graph-discovery's decentralized
    # downstream (no bytes_sent rows, as fedavg --algorithm=decentralized); a server outside
    # the square (serverPosition, not areaSideM) with a D2S band of its own (d2sLinkRateBps
    # from d2sBandwidthHz).
    "bayes-consensus-gaussian-linear": ["--mode=gaussian-linear", "--steps=5"],
    "bayes-consensus-variational": ["--mode=variational", "--steps=3", "--dataFraction=0.02"],
    "graph-discovery-decentralized": ["--downstream=decentralized", "--iterations=10",
                                      "--rounds=2", "--dataFraction=0.02"],
    "d2d-exchange-far-server": ["--nDevices=6", "--duration=2s", "--d2sFraction=0.5",
                                "--serverPosition=5000,0", "--d2sBandwidthHz=5e6",
                                "--d2sSubChannels=2", "--access=scheduled"],
    # Radio environments (--propagation, --noise, fading): messages.csv's rss_w and sinr tied
    # to p_drop and sigma^2 in each; 3GPP UMi (random LOS state and shadowing: no RSS from
    # the positions) with thermal noise over m / K = 1/4 of the band, co-channel
    # interference on the D2D band and the D2S cell (immediate access); Friis (its RSS
    # recomputed from the positions, the D2S links to the server too); Rayleigh fading
    # (every evaluation draws: no constant RSS a link).
    "d2d-exchange-umi-thermal": ["--nDevices=8", "--duration=3s", "--d2sFraction=0.3",
                                 "--propagation=3gpp-umi", "--noise=thermal",
                                 "--subChannels=4", "--access=immediate",
                                 "--meanInterval=0.2s"],
    "d2d-exchange-friis": ["--nDevices=8", "--duration=3s", "--d2sFraction=0.3",
                           "--propagation=friis", "--subChannels=2", "--access=immediate"],
    "d2d-exchange-rayleigh": ["--nDevices=6", "--duration=2s", "--d2sFraction=0.3",
                              "--nakagamiM=1"],
    # Devices that come and go (availability.csv): on and off periods of 1 s on average over
    # rounds of about 0.3 s (devices away from time 0, leaves during a round: known failures,
    # sender_off and receiver_off rows), at both trace levels; fedbuff; and the intervals of
    # an --availabilityFile (AVAILABILITY_INTERVALS, written to the test's folder) that
    # leave every device away from 0.3 s to 1 s, when the server waits for one to start round 2.
    "fedavg-availability": ["--nDevices=10", "--rounds=5", "--dataFraction=0.03",
                            "--model=mlp:32", "--meanOnTime=1s", "--meanOffTime=1s"],
    "fedavg-availability-full": ["--nDevices=10", "--rounds=5", "--dataFraction=0.03",
                                 "--model=mlp:32", "--meanOnTime=1s", "--meanOffTime=1s",
                                 "--traces=full"],
    "fedavg-availability-fedbuff": ["--algorithm=fedbuff", "--nDevices=10", "--rounds=3",
                                    "--dataFraction=0.03", "--model=mlp:32",
                                    "--meanOnTime=1s", "--meanOffTime=1s"],
    "fedavg-availability-file": ["--nDevices=4", "--rounds=4", "--dataFraction=0.03",
                                 "--model=mlp:32",
                                 "--availabilityFile={tmp}/availability-intervals.csv"],
    # Batteries that empty during round 2 (3 J each): the server gives up the depleted
    # devices at once (a known failure, as a leave), the round ends with no answer.
    "fedavg-depleted": ["--nDevices=6", "--rounds=2", "--dataFraction=0.03", "--model=mlp:32",
                        "--initialEnergyJ=3"],
}
# --availabilityFile's intervals (device,start_s,end_s: when a device is there) of the run
# fedavg-availability-file: device 2 away until 0.1 s, every device away from 0.3 s (round 1
# ends with its last leave) to 1 s, devices 0 and 2 back then together, 1 at 1.2 s, 3 at 2 s.
AVAILABILITY_INTERVALS = """device,start_s,end_s
0,0,0.2
0,1.0,1000
1,0,0.25
1,1.2,1000
2,0.1,0.3
2,1.0,1000
3,0,0.3
3,2,1000
"""
# The Wi-Fi backend with devices that come and go: refused (test_wifi_availability_refused).
WIFI_AVAILABILITY = ["--backend=wifi", "--nDevices=6", "--rounds=3", "--dataFraction=0.03",
                     "--model=mlp:32", "--meanOnTime=2s", "--meanOffTime=1s"]
# The known bugs: the exact commands (besides --quiet --outDir).
BUG_LOCAL_FLIPPED = ["--algorithm=local", "--flipList=2,9", "--rounds=4"]
BUG_GD_D2S_DROP = ["--nDevices=8", "--dataFraction=0.05", "--paradigm=unsupervised",
                   "--pcaDims=8", "--clusters=7", "--edges=2", "--iterations=50",
                   "--downstream=none", "--threads=0", "--seed=1", "--d2sDropProbability=0.3",
                   "--maxRetransmissions=0"]


PROGRAMS = ("d2d-exchange", "bayes-consensus", "graph-discovery", "consensus", "fedavg", "cmfl")


def program(name):
    """The program of a RUNS entry: its name, or the name before a -variant."""
    return os.path.join(BIN, next(p for p in PROGRAMS if name == p or name.startswith(p + "-")))


def simulate(name, args, out):
    proc = subprocess.run([program(name)] + args + ["--quiet", "--outDir=" + out],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise AssertionError("%s failed: %s" % (name, proc.stderr.strip()[-300:]))


def audit(*dirs, skipped=False):
    return subprocess.run([PYTHON, SCRIPT] + (["--skipped"] if skipped else []) + list(dirs),
                          capture_output=True, text=True, timeout=300)


def read_rows(path):
    with open(path, newline="") as fh:
        reader = csv.DictReader(fh)
        return reader.fieldnames, list(reader)


def write_rows(path, header, rows):
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def ns_text(ns):
    """A time in ns as the traces print it (9 decimals)."""
    return "%d.%09d" % divmod(ns, 1000000000)


def text_ns(text):
    whole, _, frac = text.partition(".")
    return int(whole) * 1000000000 + int((frac + "000000000")[:9])


def away_intervals(folder):
    """{device: [(t_leave, t_back), ...]} in ns of a run's availability.csv (t_back None:
    never back)."""
    _, rows = read_rows(os.path.join(folder, "availability.csv"))
    left, away = {}, {}
    for r in rows:
        device, t = int(r["device"]), text_ns(r["sim_time_s"])
        if r["available"] == "0":
            left[device] = t
        else:
            away.setdefault(device, []).append((left.pop(device), t))
    for device, t in left.items():
        away.setdefault(device, []).append((t, None))
    return away


def insert_by_time(rows, row):
    """row put among rows (in sim_time_s order) after those stamped up to its time."""
    t = text_ns(row["sim_time_s"])
    i = next((k for k, r in enumerate(rows) if text_ns(r["sim_time_s"]) > t), len(rows))
    rows.insert(i, row)
    return rows


class AuditTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="audit-test-")
        with open(os.path.join(cls.tmp, "availability-intervals.csv"), "w") as fh:
            fh.write(AVAILABILITY_INTERVALS)
        cls.runs = {}
        for name, args in RUNS.items():
            out = os.path.join(cls.tmp, name)
            simulate(name, [a.replace("{tmp}", cls.tmp) for a in args], out)
            cls.runs[name] = out

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def copy(self, name):
        """A fresh copy of a real run to corrupt."""
        dst = tempfile.mkdtemp(prefix="corrupt-", dir=self.tmp)
        shutil.rmtree(dst)
        shutil.copytree(self.runs[name], dst)
        return dst

    def assertViolation(self, folder, check, text=""):
        proc = audit(folder)
        self.assertEqual(proc.returncode, 1, proc.stdout[-2000:] + proc.stderr)
        lines = [l for l in proc.stdout.splitlines() if ": %s: " % check in l and text in l]
        self.assertTrue(lines, "no '%s' violation with %r in:\n%s"
                        % (check, text, proc.stdout[-2000:]))
        self.assertTrue(all(l.startswith(folder + ": ") for l in proc.stdout.splitlines()[:-1]))
        return lines

    def edit_csv(self, folder, name, change):
        path = os.path.join(folder, name)
        header, rows = read_rows(path)
        rows = change(rows) or rows
        write_rows(path, header, rows)

    def edit_json(self, folder, change):
        path = os.path.join(folder, "run.json")
        with open(path) as fh:
            run = json.load(fh)
        change(run)
        with open(path, "w") as fh:
            json.dump(run, fh, indent=2)

    # -- real runs pass ------------------------------------------------------------
    def test_every_program_passes(self):
        for name, folder in self.runs.items():
            with self.subTest(program=name):
                proc = audit(folder)
                self.assertEqual(proc.returncode, 0, proc.stdout[-3000:] + proc.stderr)
                self.assertRegex(proc.stdout, r"^audit: 1 runs, \d+ checks, 0 violations\n$")

    def test_several_runs_in_one_call(self):
        proc = audit(*self.runs.values())
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:])
        self.assertIn("audit: %d runs," % len(self.runs), proc.stdout)

    # Runs that once reported wrong numbers (fixed; the audit keeps them fixed).
    def test_consensus_local_leaves_flipped_agents_out_of_node_minus_1(self):
        # consensus --algorithm=local --flipList=2,9 once reported node -1 (and
        # summary.final_accuracy) as the mean over all 10 agents, flipped ones included.
        out = os.path.join(self.tmp, "local-flipped")
        simulate("consensus", BUG_LOCAL_FLIPPED, out)
        proc = audit(out)
        self.assertEqual(proc.returncode, 0, proc.stdout[-1500:])

        def all_agents(rows):  # node -1 back to the mean over every agent, flipped included
            last = max(int(r["round"]) for r in rows)
            acc = [float(r["value"]) for r in rows if int(r["round"]) == last
                   and r["metric"] == "accuracy" and int(r["node"]) >= 0]
            for r in rows:
                if int(r["round"]) == last and r["metric"] == "accuracy" and r["node"] == "-1":
                    r["value"] = "%.9g" % (sum(acc) / len(acc))

        self.edit_csv(out, "rounds.csv", all_agents)
        self.assertViolation(out, "network-mean", "regular agents")

    def test_graph_discovery_d2s_rows_have_the_d2s_drop_probability(self):
        # graph-discovery --d2sDropProbability=0.3 once gave its D2S rows (pca_sketch,
        # pca_subspace) p_drop 0.0177: the RSS was derived with --noisePowerW, then the D2S
        # channel got --d2sNoisePowerW.
        out = os.path.join(self.tmp, "gd-d2s")
        simulate("graph-discovery", BUG_GD_D2S_DROP, out)
        proc = audit(out)
        self.assertEqual(proc.returncode, 0, proc.stdout[-1500:])

        def as_before(rows):
            for r in rows:
                if r["kind"].startswith("pca_"):
                    r["p_drop"] = "0.017675667042795107"

        self.edit_csv(out, "messages.csv", as_before)
        self.assertViolation(out, "p_drop", "expected 0.3 got 0.0176756")

    # -- bad arguments -------------------------------------------------------------
    def test_bad_arguments(self):
        for args in ([], [os.path.join(self.tmp, "none")], [self.tmp]):
            proc = audit(*args)
            self.assertEqual(proc.returncode, 2, args)
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
            self.assertIn("RUN_DIR", proc.stderr)

    # -- each check catches a hand-made corruption ---------------------------------
    def test_p_drop_eq18_changed(self):
        d = self.copy("d2d-exchange-drop")

        def change(rows):
            row = next(r for r in rows if r["dst"] != "6" and r["src"] != "6")
            row["p_drop"] = "0.2000001"
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "p_drop", "--dropProbability")

    def test_p_drop_of_a_link_changed(self):
        d = self.copy("d2d-exchange")

        def change(rows):
            rows[0]["p_drop"] = repr(float(rows[0]["p_drop"]) * 0.5)
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "p_drop")

    def test_d2s_p_drop_of_a_device_changed(self):
        # fedavg's D2S links follow each device's distance to the server (--d2sLinks=distance):
        # a static device keeps one p_drop on its uplink and downlink.
        d = self.copy("fedavg")

        def change(rows):
            d2s = [r for r in rows if r["src"] == "6" or r["dst"] == "6"]
            device = d2s[0]["dst"] if d2s[0]["src"] == "6" else d2s[0]["src"]
            other = [r for r in d2s[1:] if device in (r["src"], r["dst"])]
            self.assertTrue(other, "device %s has one D2S row" % device)
            other[-1]["p_drop"] = repr(float(other[-1]["p_drop"]) * 1.001)
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "p_drop", "keeps the p_drop")

    def test_d2s_distance_out_of_reach(self):
        # The same p_drop values, but run.json's server 10 km away: no device in the 50 m square
        # is as close to it as the p_drop values say.
        d = self.copy("fedavg")
        self.edit_json(d, lambda run: run["parameters"].update(serverPosition="10000,0,0"))
        self.assertViolation(d, "p_drop", "within the server's reach")

    def test_p_drop_from_rss_file(self):
        d = self.copy("d2d-exchange")
        n = 6
        matrix = os.path.join(d, "w.csv")
        with open(matrix, "w") as fh:
            for i in range(n + 1):
                fh.write(",".join("0" if i == j else "1e-12" for j in range(n + 1)) + "\n")
        self.edit_json(d, lambda run: run["parameters"].update(rssFile=matrix))
        self.assertViolation(d, "p_drop", "eq. 18 of W[")

    def test_duplicate_resolution(self):
        d = self.copy("fedavg")
        self.edit_csv(d, "messages.csv", lambda rows: rows + [dict(rows[0])])
        self.assertViolation(d, "resolution", "resolved once")

    def test_delivered_and_lost(self):
        d = self.copy("d2d-exchange")

        def change(rows):
            row = next(r for r in rows if r["delivered"] == "1")
            row["reason"] = "loss"
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "resolution", "never both")

    def test_complete_without_delivered(self):
        d = self.copy("bayes-consensus")

        def change(rows):
            row = next(r for r in rows if r["delivered"] == "0")
            row["complete"] = "1"
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "complete", "complete implies delivered")

    def test_fragments_changed(self):
        d = self.copy("d2d-exchange")
        self.edit_csv(d, "messages.csv",
                      lambda rows: rows[0].update(fragments=str(int(rows[0]["fragments"]) + 1)))
        self.assertViolation(d, "fragments", "ceil(bytes / mtuBytes)")

    def test_energy_total_of_a_device_broken(self):
        d = self.copy("fedavg")
        self.edit_csv(d, "energy.csv",
                      lambda rows: rows[-1].update(energy_j=repr(float(rows[-1]["energy_j"])
                                                                 + 0.001)))
        self.assertViolation(d, "energy", "total")

    def test_energy_group_broken(self):
        d = self.copy("graph-discovery")
        self.edit_csv(d, "gd_energy.csv",
                      lambda rows: rows[-1].update(total_j=repr(float(rows[-1]["total_j"])
                                                                + 0.01)))
        self.assertViolation(d, "energy", "total_j = d2d_j + d2s_j + compute_j")

    def test_reception_before_send(self):
        d = self.copy("d2d-exchange")

        def change(rows):
            row = next(r for r in rows if r["delivered"] == "1")
            row["t_send_s"], row["t_recv_s"] = row["t_recv_s"], row["t_send_s"]
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "time-order", "reception not before the send")

    def test_round_times_swapped(self):
        d = self.copy("fedavg")

        def change(rows):
            t1 = next(r["sim_time_s"] for r in rows if r["round"] == "1")
            t2 = next(r["sim_time_s"] for r in rows if r["round"] == "2")
            for r in rows:
                if r["round"] in ("1", "2"):
                    r["sim_time_s"] = t2 if r["round"] == "1" else t1
        self.edit_csv(d, "rounds.csv", change)
        self.assertViolation(d, "time-order", "rounds.csv")

    def test_network_mean_broken(self):
        d = self.copy("consensus")

        def change(rows):
            row = [r for r in rows if r["node"] == "-1" and r["metric"] == "accuracy"][-1]
            row["value"] = "0.5"
        self.edit_csv(d, "rounds.csv", change)
        self.assertViolation(d, "network-mean", "regular agents")

    def test_summary_value_changed(self):
        for key, value in (("fragments", 1), ("delivered_rate", 0.5),
                           ("final_accuracy", 0.99)):
            with self.subTest(key=key):
                d = self.copy("cmfl")
                self.edit_json(d, lambda run: run["summary"].update({key: value}))
                self.assertViolation(d, "summary", "summary." + key)

    def test_summary_nested_value_changed(self):
        d = self.copy("d2d-exchange")

        def change(run):
            run["summary"]["energy_j"]["radio_tx"] *= 1.001
            kind = next(iter(run["summary"]["kinds"].values()))
            kind["latency_p95_s"] *= 1.001
        self.edit_json(d, change)
        self.assertViolation(d, "summary", "energy_j.radio_tx")
        self.assertViolation(d, "summary", "latency_p95_s")

    def test_p2_estimate_window(self):
        # Beyond 4,096 latencies the summary's p95 is P-squared's estimate; the audit accepts
        # it between the exact 0.93 and 0.97 percentiles, and not the exact 0.99 one.
        d = self.copy("d2d-exchange-p2")
        with open(os.path.join(d, "run.json")) as fh:
            kind = json.load(fh)["summary"]["kinds"]["data"]
        self.assertEqual(kind["latency_p95_estimator"], "p2")
        self.assertGreater(kind["latency_n"], 4096)
        _, rows = read_rows(os.path.join(d, "messages.csv"))
        lat = sorted(float(r["t_recv_s"]) - float(r["t_send_s"]) for r in rows
                     if r["delivered"] == "1")
        far = lat[int(0.99 * (len(lat) - 1))]
        self.edit_json(d, lambda run: run["summary"]["kinds"]["data"].update(
            {"latency_p95_s": far}))
        self.assertViolation(d, "summary", "latency_p95_s")

    def test_results_changed(self):
        # Each headline result, off by a little, against its recomputation from the traces.
        for program, key, change in (
                ("graph-discovery", "gdEdgesFound", lambda v: v + 1),
                ("graph-discovery", "gdMeanLinkPDrop", lambda v: v * 1.001),
                ("graph-discovery", "gdRlEnergyJ", lambda v: v * 1.001),
                ("graph-discovery", "gdExchangeEnergyJ", lambda v: v * 1.001),
                ("graph-discovery", "gdDeliveredFraction", lambda v: v * 0.999),
                ("graph-discovery", "gdMeanW1ToUniformAfter", lambda v: v * 1.001),
                ("graph-discovery", "finalAccuracy", lambda v: v + 0.001),
                ("fedavg", "roundsCompleted", lambda v: v + 1),
                ("cmfl", "bytesSent", lambda v: v + 1)):
            with self.subTest(key=key):
                d = self.copy(program)
                self.edit_json(d, lambda run: run["summary"]["results"].update(
                    {key: change(run["summary"]["results"][key])}))
                self.assertViolation(d, "results", "results." + key)

    def test_stage_energy_broken(self):
        d = self.copy("graph-discovery")
        self.edit_csv(d, "gd_stages.csv",
                      lambda rows: rows[0].update(d2d_j=repr(float(rows[0]["d2d_j"]) * 1.01)))
        self.assertViolation(d, "energy", "gd_stages.csv")
        self.assertViolation(d, "results", "gdRlEnergyJ")

    def test_unknown_result(self):
        d = self.copy("fedavg")
        self.edit_json(d, lambda run: run["summary"]["results"].update(newResult=1))
        self.assertViolation(d, "results", "result newResult: no independent recomputation")

    def test_unknown_summary_key(self):
        d = self.copy("bayes-consensus")
        self.edit_json(d, lambda run: run["summary"].update(new_metric=1))
        self.assertViolation(d, "summary", "summary key new_metric: no independent "
                                           "recomputation")

    def test_summary_key_missing(self):
        d = self.copy("fedavg")
        self.edit_json(d, lambda run: run["summary"].pop("bytes_sent"))
        self.assertViolation(d, "summary", "key missing")

    def test_row_counts(self):
        d = self.copy("consensus")
        self.edit_json(d, lambda run: run.update(energy_rows=run["energy_rows"] + 1))
        self.assertViolation(d, "run-json", "energy.csv")

    # -- the finite spectrum ---------------------------------------------------------
    def spectrum_rows(self, name):
        header, rows = read_rows(os.path.join(self.runs[name], "messages.csv"))
        self.assertEqual(header[-7:], ["t_start_s", "airtime_s", "sub_channel", "interference_w",
                                       "sleep_wait_s", "rss_w", "sinr"])
        return rows

    def test_spectrum_runs_exercise_the_checks(self):
        # The clean audits above are not vacuous: uploads queued, interference, rx_busy and
        # retransmissions occurred.
        rows = self.spectrum_rows("fedavg-spectrum-d2s")
        uploads = [r for r in rows if r["dst"] == "6" and r["t_start_s"]]
        self.assertTrue(any(r["t_start_s"] > r["t_send_s"] for r in uploads))
        self.assertEqual({r["sub_channel"] for r in uploads}, {"0", "1"})
        rows = self.spectrum_rows("fedavg-spectrum-interference")
        self.assertTrue(any(float(r["interference_w"]) > 0 for r in rows))
        self.assertIn("rx_busy", {r["reason"] for r in rows})
        rows = self.spectrum_rows("d2d-exchange-spectrum-reliable")
        self.assertTrue(any(int(r["retransmissions"]) > 0 for r in rows if r["t_start_s"]))

    def test_round_energy_rows(self):
        # rounds.csv's energy at each round's end (node -1): the total rises with the round,
        # is the sum of its components and lies within energy.csv's bounds (the audit passes
        # on the unmutated runs); halved, or its row removed, it is found.
        header, rows = read_rows(os.path.join(self.runs["fedavg"], "rounds.csv"))
        total = [(int(r["round"]), float(r["value"])) for r in rows
                 if r["metric"] == "energy_j" and r["node"] == "-1"]
        self.assertEqual([k for k, _ in total], [0, 1, 2])
        self.assertTrue(all(b[1] > a[1] for a, b in zip(total, total[1:])), total)
        d = self.copy("fedavg")

        def halve(rows):
            row = [r for r in rows if r["metric"] == "energy_j"][-1]
            row["value"] = repr(float(row["value"]) / 2)
        self.edit_csv(d, "rounds.csv", halve)
        self.assertViolation(d, "round-energy", "within energy.csv's bounds")
        self.assertViolation(d, "round-energy", "the sum of its energy_j.COMPONENT rows")
        d = self.copy("fedavg")
        self.edit_csv(d, "rounds.csv", lambda rows: [
            r for r in rows if not (r["round"] == "1" and r["metric"].startswith("energy_j"))])
        self.assertViolation(d, "round-energy", "an energy_j row at round 1")

    def test_spectrum_overlap_on_a_sub_channel(self):
        # Two uploads on the air at once on sub-channels 0 and 1 of the scheduled D2S cell:
        # the second moved onto the first's sub-channel.
        d = self.copy("fedavg-spectrum-d2s")

        def change(rows):
            up = [r for r in rows if r["dst"] == "6" and r["t_start_s"]]
            a, b = next((a, b) for a in up for b in up
                        if a["sub_channel"] != b["sub_channel"]
                        and float(a["t_start_s"]) <= float(b["t_start_s"])
                        < float(a["t_start_s"]) + float(a["airtime_s"]))
            b["sub_channel"] = a["sub_channel"]
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "spectrum", "one transmission per sub-channel")

    def test_spectrum_airtime_off_by_a_microsecond(self):
        d = self.copy("fedavg-spectrum-d2s")

        def change(rows):
            row = next(r for r in rows if r["t_start_s"])
            for r in rows:
                if r["msg_id"] == row["msg_id"]:
                    r["airtime_s"] = "%.9f" % (float(r["airtime_s"]) + 1e-6)
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "airtime", "bit/s")

    def test_spectrum_airtime_reliable(self):
        # A reliable message with retransmissions: its airtime 1 us longer (10 bits at
        # 10 Mbit/s, no whole number of bytes: no other count of last fragments gives it).
        d = self.copy("d2d-exchange-spectrum-reliable")

        def change(rows):
            row = next(r for r in rows if r["t_start_s"] and r["reason"] != "unfinished"
                       and int(r["retransmissions"]) > 0)
            for r in rows:
                if r["msg_id"] == row["msg_id"]:
                    r["airtime_s"] = "%.9f" % (float(r["airtime_s"]) + 1e-6)
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "airtime", "reliable")

    def test_spectrum_start_before_send(self):
        d = self.copy("fedavg-spectrum-d2s")

        def change(rows):
            row = next(r for r in rows if r["t_start_s"] and float(r["t_send_s"]) > 0)
            for r in rows:
                if r["msg_id"] == row["msg_id"]:
                    r["t_start_s"] = "%.9f" % (float(r["t_send_s"]) - 1e-6)
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "time-order", "t_start_s not before t_send_s")

    def test_spectrum_interference_changed(self):
        # interference_w doubled on a row of a link with other rows: the RSS W it stands for
        # in eq. 18 (sigma^2 + I) is no longer the link's.
        d = self.copy("fedavg-spectrum-interference")

        def change(rows):
            usable = [r for r in rows if 0 < float(r["p_drop"]) < 1]
            row = next(r for r in usable if float(r["interference_w"]) > 0
                       and sum((o["src"], o["dst"]) == (r["src"], r["dst"]) for o in usable) > 1)
            row["interference_w"] = repr(2 * float(row["interference_w"]))
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "sinr", "sigma^2 + interference_w")

    def test_spectrum_interference_without_a_co_channel_transmission(self):
        # Under scheduled access on a single cell every interference_w is 0.
        d = self.copy("fedavg-spectrum-d2s")
        self.edit_csv(d, "messages.csv",
                      lambda rows: next(r for r in rows if r["t_start_s"]).update(
                          interference_w="1e-12"))
        self.assertViolation(d, "spectrum", "interference_w 0 (scheduled access")

    def test_spectrum_receptions_beyond_the_chains(self):
        # rx_busy under scheduled access, and a third upload moved into a wave of two at the
        # server (2 receive chains).
        d = self.copy("fedavg-spectrum-d2s")

        def change(rows):
            up = [r for r in rows if r["dst"] == "6" and r["t_start_s"]]
            up[2]["t_start_s"] = up[0]["t_start_s"]
            up[2]["t_recv_s"] = up[0]["t_recv_s"]
            rows[-1]["reason"], rows[-1]["delivered"] = "rx_busy", "0"
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "receive-chains", "receptions at once at the server")
        self.assertViolation(d, "receive-chains", "rx_busy only under immediate access")

    def test_spectrum_sub_channel_out_of_range(self):
        d = self.copy("fedavg-spectrum-d2s")
        self.edit_csv(d, "messages.csv", lambda rows: next(
            r for r in rows if r["sub_channel"]).update(sub_channel="2"))
        self.assertViolation(d, "spectrum", "sub-channels of the D2S link's 0..1")

    def test_spectrum_columns_missing_or_extra(self):
        d = self.copy("fedavg-spectrum-d2s")
        path = os.path.join(d, "messages.csv")
        header, rows = read_rows(path)
        write_rows(path, header[:-4], [{k: r[k] for k in header[:-4]} for r in rows])
        self.assertViolation(d, "header", "channel backend writes its columns")
        # K = 0 on both channels (d2d-exchange's default): the channel columns all the same,
        # rss_w and sinr last.
        d = self.copy("d2d-exchange")
        path = os.path.join(d, "messages.csv")
        header, rows = read_rows(path)
        self.assertEqual(header[-2:], ["rss_w", "sinr"])
        write_rows(path, header[:-2], [{k: r[k] for k in header[:-2]} for r in rows])
        self.assertViolation(d, "header", "in every run, whatever K")
        # The Wi-Fi backend: no channel columns.
        d = self.copy("d2d-exchange-wifi")
        path = os.path.join(d, "messages.csv")
        header, rows = read_rows(path)
        extra = ["t_start_s", "airtime_s", "sub_channel", "interference_w"]
        write_rows(path, header + extra, [dict(r, **{k: "" for k in extra}) for r in rows])
        self.assertViolation(d, "header", "no channel columns")

    def test_spectrum_rate_changed(self):
        d = self.copy("fedavg-spectrum-d2s")
        self.edit_json(d, lambda run: run["parameters"].update(
            d2sLinkRateBps=run["parameters"]["d2sLinkRateBps"] * 2))
        self.assertViolation(d, "run-json", "subChannelsPerTransmission / K")
        self.assertViolation(d, "airtime", "bit/s")

    # -- radio environments: rss_w, sinr and sigma^2 ------------------------------------
    def test_environment_runs_exercise_the_checks(self):
        # The clean audits are not vacuous: rss_w and sinr on every row, thermal noise in
        # force, interference under UMi, Friis recomputed (check rss not skipped), UMi's
        # and Rayleigh's RSS not (skipped with the reason), Rayleigh's links redrawn.
        rows = self.spectrum_rows("d2d-exchange-umi-thermal")
        self.assertTrue(all(r["rss_w"] and r["sinr"] for r in rows
                            if r["reason"] != "out_of_range"))
        self.assertTrue(any(float(r["interference_w"]) > 0 for r in rows))
        with open(os.path.join(self.runs["d2d-exchange-umi-thermal"], "run.json")) as fh:
            p = json.load(fh)["parameters"]
        self.assertEqual(p["noise"], "thermal")
        self.assertNotEqual(p["noisePowerInForceW"], p["noisePowerW"])
        self.assertTrue(p["shadowingInForce"])
        proc = audit(self.runs["d2d-exchange-umi-thermal"], skipped=True)
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:])
        self.assertRegex(proc.stdout, r"skipped: messages.csv: rss: D2D rows: "
                                      r"--propagation=3gpp-umi")
        self.assertNotIn("skipped: messages.csv: sinr", proc.stdout)
        proc = audit(self.runs["d2d-exchange-friis"], skipped=True)
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:])
        self.assertNotIn(": rss: ", proc.stdout)
        proc = audit(self.runs["d2d-exchange-rayleigh"], skipped=True)
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:])
        self.assertIn("skipped: messages.csv: p_drop: a link keeps one p_drop: "
                      "--propagation=log-distance with Nakagami-m fading", proc.stdout)
        rows = self.spectrum_rows("d2d-exchange-rayleigh")
        per_link = {}
        for r in rows:
            if r["rss_w"]:
                per_link.setdefault((r["src"], r["dst"]), set()).add(r["rss_w"])
        self.assertTrue(any(len(v) > 1 for v in per_link.values()))

    def test_sinr_changed(self):
        # One sinr value off by 0.1%: no longer rss_w / (sigma^2 + interference_w), nor what
        # p_drop says.
        d = self.copy("d2d-exchange-umi-thermal")

        def change(rows):
            row = next(r for r in rows if r["sinr"] and 0 < float(r["p_drop"]) < 1)
            row["sinr"] = repr(float(row["sinr"]) * 1.001)
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "sinr", "sinr = rss_w / (sigma^2 + interference_w)")
        self.assertViolation(d, "sinr", "p_drop = 1 - exp(-(2^r - 1) / sinr)")

    def test_rss_w_changed(self):
        # One rss_w value off by 0.1%: sinr is no longer rss_w / (sigma^2 + I), and the
        # link's rows no longer share one RSS (UMi: not recomputable from the positions);
        # under Friis it is no longer the RSS at the positions either.
        d = self.copy("d2d-exchange-umi-thermal")

        def change(rows):
            row = next(r for r in rows if r["rss_w"])
            row["rss_w"] = repr(float(row["rss_w"]) * 1.001)
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "sinr", "sinr = rss_w / (sigma^2 + interference_w)")
        d = self.copy("d2d-exchange-friis")
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "rss", "rss_w equals the link's RSS (Friis at")
        self.assertViolation(d, "sinr", "sinr = rss_w / (sigma^2 + interference_w)")

    def test_noise_figure_changed(self):
        # run.json's noiseFigureDb 1 dB up: sigma^2 = k T0 B F recomputed from it is not
        # noisePowerInForceW (nor the sigma^2 behind each row's sinr).
        d = self.copy("d2d-exchange-umi-thermal")
        self.edit_json(d, lambda run: run["parameters"].update(
            noiseFigureDb=run["parameters"]["noiseFigureDb"] + 1))
        self.assertViolation(d, "run-json", "sigma^2 of the D2D links, k T0 B F")
        self.assertViolation(d, "run-json", "sigma^2 of the D2S links, k T0 B F")
        self.assertViolation(d, "sinr", "sinr = rss_w / (sigma^2 + interference_w)")

    def test_noise_in_force_changed(self):
        # noisePowerInForceW rewritten to noisePowerW (constant noise's): not the thermal
        # noise the inputs give.
        d = self.copy("d2d-exchange-umi-thermal")
        self.edit_json(d, lambda run: run["parameters"].update(
            noisePowerInForceW=run["parameters"]["noisePowerW"]))
        self.assertViolation(d, "run-json", "sigma^2 of the D2D links")

    # -- devices that come and go (availability.csv) ---------------------------------
    def test_availability_runs_exercise_the_checks(self):
        # The clean audits of the runs with devices that come and go are not vacuous:
        # devices away from time 0 come back, others leave and come back, transmissions are
        # cut by a leave (sender_off, receiver_off), rounds sample among fewer devices, and
        # a full run's radios have gaps over the away time.
        for name in ("fedavg-availability", "fedavg-availability-full"):
            folder = self.runs[name]
            away = away_intervals(folder)
            self.assertTrue(any(ivs[0][0] == 0 and ivs[0][1] is not None
                                for ivs in away.values()), away)
            self.assertTrue(any(lo > 0 and hi is not None for ivs in away.values()
                                for lo, hi in ivs), away)
            _, messages = read_rows(os.path.join(folder, "messages.csv"))
            self.assertLessEqual({"sender_off", "receiver_off"},
                                 {r["reason"] for r in messages})
            _, rounds = read_rows(os.path.join(folder, "rounds.csv"))
            available = [int(r["value"]) for r in rounds if r["metric"] == "available"]
            self.assertEqual(len(available), 5)
            self.assertTrue(all(0 < v < 10 for v in available), available)
            self.assertTrue(any(float(r["value"]) > 0 for r in rounds
                                if r["metric"] == "stragglers"))
        _, rows = read_rows(os.path.join(self.runs["fedavg-availability-full"], "energy.csv"))
        device, (lo, hi) = next((d, iv) for d, ivs in sorted(away.items()) for iv in ivs
                                if iv[0] > 0 and iv[1] is not None)
        d2s = [r for r in rows if r["node"] == str(device) and r["component"][:4] == "d2s_"]
        self.assertTrue(any(text_ns(r["sim_time_s"]) == lo for r in d2s))
        self.assertTrue(any(text_ns(r["start_s"]) == hi for r in d2s))
        # The run of --availabilityFile: every device away from 0.3 s, the server samples
        # round 2 when devices 0 and 2 come back at 1 s.
        folder = self.runs["fedavg-availability-file"]
        _, rounds = read_rows(os.path.join(folder, "rounds.csv"))
        self.assertEqual([r["value"] for r in rounds if r["metric"] == "available"],
                         ["3", "2", "3", "3"])
        _, messages = read_rows(os.path.join(folder, "messages.csv"))
        self.assertEqual({r["dst"] for r in messages if r["kind"] == "global_model"
                          and r["t_send_s"] == "1.000000000" and r["delivered"] == "1"},
                         {"0", "2"})

    def test_wifi_availability_refused(self):
        # Over Wi-Fi, devices that come and go are refused (an away 802.11 PHY can only
        # sleep, and ns-3's WifiRadioEnergyModel never leaves OFF): one line, nothing written.
        out = os.path.join(self.tmp, "wifi-availability")
        proc = subprocess.run([program("fedavg")] + WIFI_AVAILABILITY + ["--quiet",
                              "--outDir=" + out], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("--backend=channel", proc.stderr)
        self.assertFalse(os.path.exists(out))

    def test_availability_return_removed(self):
        # A device's first return deleted: its next leave repeats 0; away until its next
        # return, its radio's rows then are too many.
        d = self.copy("fedavg-availability")

        def change(rows):
            i = next(i for i, r in enumerate(rows) if r["available"] == "1" and any(
                q["device"] == r["device"] for q in rows[i + 1:]))
            del rows[i]
        self.edit_csv(d, "availability.csv", change)
        self.assertViolation(d, "availability", "rows alternate 0, 1, 0, ... from 0")
        self.assertViolation(d, "partition", "less its device's away time (availability.csv)")

    def test_availability_rows_malformed(self):
        d = self.copy("fedavg-availability")

        def change(rows):
            rows[1]["device"] = "10"  # no such device (nDevices 10)
            rows[2]["available"] = "2"
            i = next(i for i in range(4, len(rows)) if text_ns(rows[i - 1]["sim_time_s"]) > 0)
            rows[i]["sim_time_s"] = "0.000000000"  # before the previous row's
            rows[-1]["sim_time_s"] = "99.000000000"  # after the run's end
        self.edit_csv(d, "availability.csv", change)
        self.assertViolation(d, "availability", "a device (0..9)")
        self.assertViolation(d, "availability", "available 0 or 1")
        self.assertViolation(d, "availability", "sim_time_s not before the previous row's")
        self.assertViolation(d, "availability", "sim_time_s not after simulated_time_s")

    def test_availability_file_there_exactly_when_devices_come_and_go(self):
        d = self.copy("fedavg-availability")
        os.remove(os.path.join(d, "availability.csv"))
        self.assertViolation(d, "availability", "written exactly when devices come and go")
        self.assertViolation(d, "availability", "no `available` row without availability.csv")
        d = self.copy("fedavg")
        with open(os.path.join(d, "availability.csv"), "w") as fh:
            fh.write("sim_time_s,device,available\n")
        self.assertViolation(d, "availability", "written exactly when devices come and go")

    def test_message_sent_while_away(self):
        d = self.copy("fedavg-availability")
        away = away_intervals(d)

        def change(rows):
            for r in rows:
                later = [(lo, hi) for lo, hi in away.get(int(r["src"]), ())
                         if hi is not None and lo > text_ns(r["t_send_s"])]
                if later:
                    r["t_send_s"] = ns_text(sum(later[0]) // 2)
                    return
            self.fail("no device sends before an away interval")
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "availability", "sends nothing while away")

    def test_message_delivered_while_away(self):
        d = self.copy("fedavg-availability")
        away = away_intervals(d)

        def change(rows):
            for r in rows:
                later = [(lo, hi) for lo, hi in away.get(int(r["dst"]), ())
                         if hi is not None and lo > text_ns(r["t_send_s"])]
                if r["delivered"] == "1" and later:
                    r["t_recv_s"] = ns_text(sum(later[0]) // 2)
                    return
            self.fail("no delivered row before its receiver's away interval")
        self.edit_csv(d, "messages.csv", change)
        self.assertViolation(d, "availability", "receives nothing while away")

    def test_available_count_changed(self):
        d = self.copy("fedavg-availability")

        def change(rows):
            row = next(r for r in rows if r["metric"] == "available" and r["round"] == "2")
            row["value"] = str(int(row["value"]) + 1)
        self.edit_csv(d, "rounds.csv", change)
        self.assertViolation(d, "availability", "round 2: `available` = nDevices less")
        self.assertViolation(d, "fl-round", "min(available, round(overSelection x m)) sampled")

    def test_available_row_missing_or_extra(self):
        d = self.copy("fedavg-availability")
        self.edit_csv(d, "rounds.csv", lambda rows: [
            r for r in rows if not (r["metric"] == "available" and r["round"] == "3")])
        self.assertViolation(d, "availability", "round 3: node -1's `available` row")
        d = self.copy("fedavg")

        def add(rows):
            row = next(r for r in rows if r["metric"] == "round_time_s")
            rows.insert(rows.index(row), dict(row, metric="available", value="6"))
        self.edit_csv(d, "rounds.csv", add)
        self.assertViolation(d, "availability", "no `available` row without availability.csv")

    def test_round_waits_for_a_device(self):
        # Device 1 back at 0.9 s instead of 1.2 s: round 2 should have begun then, with one
        # device (the global_model rows are at 1 s, with two).
        d = self.copy("fedavg-availability-file")

        def change(rows):
            row = next(r for r in rows if r["sim_time_s"] == "1.200000000")
            rows.remove(row)
            return insert_by_time(rows, dict(row, sim_time_s="0.900000000"))
        self.edit_csv(d, "availability.csv", change)
        self.assertViolation(d, "availability", "round 2: `available` = nDevices less the "
                             "devices away at its start, 0.900000000 s")
        self.assertViolation(d, "fl-round", "round 2: devices sent w^t at its start")
        self.assertViolation(d, "availability", "device 1's away intervals: those "
                             "--availabilityFile")

    def test_availability_file_changed(self):
        # The run's file with device 3 back at 1.5 s, not 2 s; a file that cannot be read
        # here: the comparison skipped, with its reason.
        d = self.copy("fedavg-availability-file")
        path = os.path.join(d, "intervals.csv")
        with open(path, "w") as fh:
            fh.write(AVAILABILITY_INTERVALS.replace("3,2,1000", "3,1.5,1000"))
        self.edit_json(d, lambda run: run["parameters"].update(availabilityFile=path))
        self.assertViolation(d, "availability", "device 3's away intervals: those "
                             "--availabilityFile=%s leaves it, expected 0.300000000 s to "
                             "1.500000000 s" % path)
        os.remove(path)
        proc = audit(d, skipped=True)
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:])
        self.assertIn("skipped: availability.csv: availability: --availabilityFile=%s cannot "
                      "be read here" % path, proc.stdout)

    def test_fl_round_leave_is_a_known_failure(self):
        # A round closed early without a sampled device that left after its global_model
        # came and before it answered; its leave deleted, the round ended for no reason.
        d = self.copy("fedavg-availability")
        _, rounds = read_rows(os.path.join(d, "rounds.csv"))
        ends = {int(r["round"]): text_ns(r["sim_time_s"]) for r in rounds
                if r["metric"] == "round_time_s"}
        _, messages = read_rows(os.path.join(d, "messages.csv"))

        def leaver(row):
            t, device = text_ns(row["sim_time_s"]), row["device"]
            k = next((k for k, end in sorted(ends.items())
                      if ends.get(k - 1, 0) < t <= end), None)
            if row["available"] != "0" or k is None:
                return False
            start, end = ends.get(k - 1, 0), ends[k]
            return any(m["kind"] == "global_model" and m["dst"] == device
                       and m["delivered"] == "1" and text_ns(m["t_send_s"]) == start
                       for m in messages) and not any(
                m["kind"] == "update" and m["src"] == device and m["delivered"] == "1"
                and start < text_ns(m["t_recv_s"]) <= end for m in messages)

        def change(rows):
            i = next(i for i, r in enumerate(rows) if leaver(r))
            back = [k for k in range(i + 1, len(rows)) if rows[k]["device"] == rows[i]["device"]]
            return [r for k, r in enumerate(rows) if k != i and k not in back[:1]]
        self.edit_csv(d, "availability.csv", change)
        self.assertViolation(d, "fl-round", "ended before --roundDeadline")

    def test_fl_round_depletion_is_a_known_failure(self):
        # Round 2 ends when the last sampled device's battery empties (remaining_j 0); with
        # those rows at 1e-9 J left, no device is known to have failed.
        _, rounds = read_rows(os.path.join(self.runs["fedavg-depleted"], "rounds.csv"))
        self.assertEqual([r["value"] for r in rounds if r["metric"] == "participants"],
                         ["6", "0"])
        d = self.copy("fedavg-depleted")

        def change(rows):
            empty = [r for r in rows if r["remaining_j"] == "0"]
            self.assertTrue(empty)
            for r in empty:
                r["remaining_j"] = "1e-9"
        self.edit_csv(d, "energy.csv", change)
        self.assertViolation(d, "fl-round", "round 2 ended before --roundDeadline")

    def test_periods_parted_by_a_leave(self):
        # --traces=standard: a radio idle through a flush in which its device left and came
        # back has an idle period more a leave (no busy one between them); its periods
        # raised from 2 to 4, more than its leaves allow.
        d = self.copy("fedavg-availability-fedbuff")

        def change(rows):
            for r in rows:
                flush = [q for q in rows if q["node"] == r["node"]
                         and q["sim_time_s"] == r["sim_time_s"] and q["component"][:4] == "d2s_"]
                if r["component"] == "d2s_idle" and r["periods"] == "2" and len(flush) == 1:
                    r["periods"] = "4"
                    return
            self.fail("no radio idle through a flush in two periods")
        self.edit_csv(d, "energy.csv", change)
        self.assertViolation(d, "periods", "idle through its flush: one period; leaves "
                             "(availability.csv) within it")

    def test_radio_draws_while_away(self):
        # --traces=full: a d2s_idle period over a device's away interval.
        d = self.copy("fedavg-availability-full")
        away = away_intervals(d)
        device, (lo, hi) = next((dev, iv) for dev, ivs in sorted(away.items()) for iv in ivs
                                if iv[0] > 0 and iv[1] is not None)

        def change(rows):
            idle = next(r for r in rows if r["node"] == str(device)
                        and r["component"] == "d2s_idle")
            return insert_by_time(rows, dict(
                idle, sim_time_s=ns_text(hi), start_s=ns_text(lo), duration_s=ns_text(hi - lo),
                energy_j=repr(float(idle["power_w"]) * (hi - lo) / 1e9)))
        self.edit_csv(d, "energy.csv", change)
        self.assertViolation(d, "partition", "draws nothing while its device is away")

    def test_radio_gap_outside_away(self):
        # --traces=full: a leave 1 us later than the run wrote it: the radio's periods stop
        # 1 us before its device is away.
        d = self.copy("fedavg-availability-full")

        def change(rows):
            i = next(i for i, r in enumerate(rows) if r["available"] == "0"
                     and text_ns(r["sim_time_s"]) > 0 and i + 1 < len(rows)
                     and text_ns(rows[i + 1]["sim_time_s"]) > text_ns(r["sim_time_s"]) + 1000)
            rows[i]["sim_time_s"] = ns_text(text_ns(rows[i]["sim_time_s"]) + 1000)
        self.edit_csv(d, "availability.csv", change)
        self.assertViolation(d, "partition", "(away only over availability.csv's intervals)")

    def test_radio_sum_over_the_away_time(self):
        # --traces=standard: one of a device's away intervals deleted (its leave and return):
        # its radio's states no longer add up to the run less its away time.
        d = self.copy("fedavg-availability")
        away = away_intervals(d)
        device, (lo, hi) = next((dev, iv) for dev, ivs in sorted(away.items()) for iv in ivs
                                if iv[0] > 0 and iv[1] is not None)
        self.edit_csv(d, "availability.csv", lambda rows: [
            r for r in rows if not (r["device"] == str(device)
                                    and text_ns(r["sim_time_s"]) in (lo, hi))])
        self.assertViolation(d, "partition", "node %d's D2S radio: its states' summed "
                             "duration_s = the run's end (simulated_time_s) less its device's "
                             "away time" % device)

    def test_compute_while_away(self):
        d = self.copy("fedavg-availability-full")
        away = away_intervals(d)

        def change(rows):
            for r in rows:
                if r["component"] != "compute":
                    continue
                duration = text_ns(r["duration_s"])
                inside = [(lo, hi) for lo, hi in away.get(int(r["node"]), ())
                          if hi is not None and hi - lo > duration + 2000]
                if inside:
                    rows.remove(r)
                    start = inside[0][0] + 1000
                    return insert_by_time(rows, dict(r, start_s=ns_text(start),
                                                     sim_time_s=ns_text(start + duration)))
            self.fail("no compute row of a device with a long enough away interval")
        self.edit_csv(d, "energy.csv", change)
        self.assertViolation(d, "availability", "computes nothing while away")

    def test_radio_rows_of_a_device_back(self):
        # A device away from time 0 that came back listens (its radio has rows): all its
        # d2s_* rows deleted.
        d = self.copy("fedavg-availability")
        device = next(dev for dev, ivs in sorted(away_intervals(d).items())
                      if ivs[0][0] == 0 and ivs[0][1] is not None)
        self.edit_csv(d, "energy.csv", lambda rows: [
            r for r in rows if not (r["node"] == str(device) and r["component"][:4] == "d2s_")])
        self.assertViolation(d, "partition", "every device's d2s radio has rows")

    def test_header(self):
        d = self.copy("d2d-exchange")
        path = os.path.join(d, "energy.csv")
        with open(path) as fh:
            text = fh.read()
        with open(path, "w") as fh:
            fh.write(text.replace("remaining_j", "left_j", 1))
        self.assertViolation(d, "header", "columns")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_audit.py BIN_DIR")
    BIN = os.path.abspath(sys.argv[1])
    unittest.main(argv=sys.argv[:1] + sys.argv[2:])
