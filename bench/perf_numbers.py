#!/usr/bin/python3
"""The benchmarks of doc/performance.md, run and parsed into the tables that page includes.

    bench/doc-numbers.py --no-main-job --perf NAME [--perf NAME ...]   (or --perf all)
    bench/perf_numbers.py --parse-only [--out DIR]   (re-parse the kept outputs)

Each entry of BENCHES runs one benchmark program of bench/ (build/bin/bench-*, bench/*.py)
once or a few times at settings that finish in about two minutes on the 2-core machine,
keeps what they printed in doc/data/perf/NAME.out.json (argv, output, wall time of each
run), parses it into doc/data/perf/NAME.csv (the rows of the page's table) and writes
doc/data/perf/NAME.md: the stamp, naming the commands, the machine, the date, the commit
and the 1-minute load average at the start and at the end of the runs (other work on the
machine slows wall times: the page prefers ratios), and what --note said of the conditions
(doc-numbers.py --note: e.g. a build running beside the benchmark). The parsers are plain functions of the
printed text, tested by tests/analysis/test_perf_numbers.py; --parse-only re-parses the kept
outputs without running anything (after a change to a parser).
"""
import argparse
import csv
import io
import json
import os
import re
import shlex
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
PYTHON = "/usr/bin/python3"


def _num(s):
    return float(s.replace(",", ""))


# --- parsers: the printed text of one run -> rows (dicts) ------------------------------------

def parse_fast_path(text):
    """bench-fast-path: the ratio lines fast / per-fragment per mode, and the means per (mode,
    path): one row per mode with events and wall time on both paths."""
    lines = text.splitlines()
    head = None
    rows = {}
    for i, line in enumerate(lines):
        f = line.split()
        if f and f[0] == "mode" and "events" in f:
            head = f
            continue
        if line.startswith("ratios"):
            head = None
            continue
        if head and len(f) >= len(head) - 1 and f[0] in ("unreliable", "reliable"):
            r = dict(zip(head, f))
            rows.setdefault(f[0], {})[f[1]] = r
    out = []
    for mode in ("unreliable", "reliable"):
        if mode not in rows:
            continue
        paths = rows[mode]
        fast = next(v for k, v in paths.items() if k.startswith("fast"))
        frag = next(v for k, v in paths.items() if not k.startswith("fast"))
        row = dict(mode=mode,
                   events_fast=fast["events"], events_per_fragment=frag["events"],
                   wall_ms_fast="%.3f" % (float(fast["wall_s"]) * 1e3),
                   wall_ms_per_fragment="%.3f" % (float(frag["wall_s"]) * 1e3),
                   events_ratio="%.2e" % (float(fast["events"]) / float(frag["events"])),
                   wall_ratio="%.2e" % (float(fast["wall_s"]) / float(frag["wall_s"])))
        for k in ("retransm", "latency_s"):
            if k in fast and k in frag:
                row[k + "_fast"] = fast[k]
                row[k + "_per_fragment"] = frag[k]
        out.append(row)
    return out


SCALE_KEYS = {
    "simulator events": "events",
    "simulated time": "simulated_s",
    "deliveries per wall s": "deliveries_per_wall_s",
    "records per wall s": "records_per_wall_s",
    "events per wall s": "events_per_wall_s",
    "delivered": "delivered",
    "sends": "sends",
}


def _parse_network_bench(text, program, keys):
    """The lines bench-scale and bench-wifi-scale share: `PROGRAM: N devices in S m`, the
    wall and CPU times, the peak RSS, and `label   value` counters (keys: label -> column)."""
    row = {}
    for line in text.splitlines():
        m = re.match(re.escape(program) + r": (\d+) devices in ([\d.]+) m", line)
        if m:
            row["devices"], row["side_m"] = m.group(1), m.group(2)
        m = re.match(r"wall time: setup ([\d.]+) s, run ([\d.]+) s \(run CPU time ([\d.]+) s\)",
                     line)
        if m:
            row["setup_s"], row["run_wall_s"], row["run_cpu_s"] = m.groups()
        m = re.match(r"peak RSS \(VmHWM\)\s+([\d.]+) MB", line)
        if m:
            row["peak_rss_mb"] = m.group(1)
        for label, key in keys.items():
            m = re.match(re.escape(label) + r"\s+(-?[\d.]+)", line)
            if m and line.startswith(label + " "):
                row[key] = m.group(1)
    return row


def parse_scale(text, keys=SCALE_KEYS):
    """bench-scale: one row (its counters, rates, wall and CPU time, peak memory; keys: the
    counters to read)."""
    row = _parse_network_bench(text, "bench-scale", keys)
    if "events" in row and "sends" in row and float(row["sends"]):
        row["events_per_message"] = "%.2f" % (float(row["events"]) / float(row["sends"]))
    return [row]


SPECTRUM_KEYS = dict(SCALE_KEYS, **{"delivery records": "records",
                                     "mean latency (delivered)": "latency_s"})


SLEEP_KEYS = dict(SCALE_KEYS, **{"radio energy per device": "radio_j_per_device",
                                  "mean latency (delivered)": "latency_s"})


def parse_sleep(text):
    """bench-scale with and without DRX: parse_scale's row, the radio energy per device
    and the mean latency."""
    return parse_scale(text, SLEEP_KEYS)


def parse_spectrum(text):
    """bench-scale, for the finite spectrum's benchmark: one row with its counters, wall
    times and peak memory, and the costs per message: events_per_message = (simulator events
    - devices) / messages sent (ns-3 initialises each node in an event of its own at time 0:
    N events that no message causes), events_per_row the same per delivery row (one per
    (message, receiver)), us_per_message the run's wall time per message sent and
    cpu_us_per_message its CPU time (other work on the machine slows the one more than the
    other)."""
    row = _parse_network_bench(text, "bench-scale", SPECTRUM_KEYS)
    if not all(k in row for k in ("devices", "events", "sends", "records", "run_wall_s")):
        return [row] if row else []
    sends, records = float(row["sends"]), float(row["records"])
    above = float(row["events"]) - float(row["devices"])
    if sends:
        row["events_per_message"] = "%.2f" % (above / sends)
        row["us_per_message"] = "%.1f" % (float(row["run_wall_s"]) / sends * 1e6)
        if "run_cpu_s" in row:
            row["cpu_us_per_message"] = "%.2f" % (float(row["run_cpu_s"]) / sends * 1e6)
    if records:
        row["events_per_row"] = "%.2f" % (above / records)
    return [row]


def table_spectrum(rows):
    """The page's table: one row per (workload, devices, access, spectrum), the run's label
    being "WORKLOAD | ACCESS | SPECTRUM"; with each finite spectrum the ratios of its events
    per message, its run's wall time and CPU time per message and its peak memory to those
    of the unlimited band (a SPECTRUM starting "K=0") under the same workload, devices and access."""
    def key(r):
        workload, access, _ = r["run"].split(" | ")
        return workload, r.get("devices"), access

    base = {key(r): r for r in rows if r["run"].split(" | ")[2].startswith("K=0")}
    out = []
    for r in rows:
        workload, access, spectrum = r["run"].split(" | ")
        o = dict(workload=workload, devices=r.get("devices", ""), access=access,
                 spectrum=spectrum, messages=r.get("sends", ""),
                 rows_per_message=("%.1f" % (float(r["records"]) / float(r["sends"]))
                                   if r.get("records") and float(r.get("sends", 0)) else ""),
                 events_per_message=r.get("events_per_message", ""),
                 events_per_row=r.get("events_per_row", ""),
                 run_wall_s=r.get("run_wall_s", ""), us_per_message=r.get("us_per_message", ""),
                 peak_rss_mb=r.get("peak_rss_mb", ""),
                 latency_ms=("%.2f" % (float(r["latency_s"]) * 1e3)
                             if r.get("latency_s") else ""))
        b = base.get(key(r))
        for col, src in (("events_ratio", "events_per_message"), ("wall_ratio", "us_per_message"),
                         ("cpu_ratio", "cpu_us_per_message"), ("peak_ratio", "peak_rss_mb")):
            o[col] = ("%.2f" % (float(r[src]) / float(b[src]))
                      if b is not None and b is not r and r.get(src) and b.get(src)
                      and float(b[src]) else "")
        out.append(o)
    return out


WIFI_SCALE_KEYS = {
    "mean devices heard": "devices_heard",
    "sends": "sends",
    "delivered": "delivered",
    "packets sent": "packets",
    "simulator events": "events",
    "events per packet sent": "events_per_packet",
    "events per wall s": "events_per_wall_s",
    "simulated s per wall s": "sim_s_per_wall_s",
    "memory per device": "kb_per_device",
}


def parse_wifi_scale(text):
    """bench-wifi-scale: one row (devices, its counters and rates, wall times, memory)."""
    return [_parse_network_bench(text, "bench-wifi-scale", WIFI_SCALE_KEYS)]


def parse_footprint(text):
    """bench-footprint: one row per line of the breakdown (devices, part, bytes per device,
    MB in all), then the idle footprint and the peak RSS as rows of their own."""
    rows = []
    devices = section = None
    for line in text.splitlines():
        m = re.match(r"bench-footprint: (\d+) devices, ([^,]+),", line)
        if m:
            devices = m.group(1)
            continue
        if line.startswith("the assembly"):
            section = "assembly"
        elif line.startswith("the network's objects"):
            section = "built alone"
        m = re.match(r"\s+(.+?)\s+(-?\d+) B per device\s+\(\s*(-?[\d.]+) MB in all\)", line)
        if m:
            rows.append(dict(devices=devices, section=section, part=m.group(1),
                             bytes_per_device=m.group(2), mb=m.group(3)))
        m = re.match(r"idle per-device footprint (\d+) B", line)
        if m:
            rows.append(dict(devices=devices, section="summary", part="idle footprint",
                             bytes_per_device=m.group(1), mb=""))
        m = re.match(r"peak RSS \(VmHWM\) ([\d.]+) MB", line)
        if m:
            rows.append(dict(devices=devices, section="summary", part="peak RSS",
                             bytes_per_device="%.0f" % (float(m.group(1)) * 1048576
                                                        / float(devices)),
                             mb=m.group(1)))
    return rows


def parse_fedavg(text):
    """bench-fedavg: the medians of the three (LibTorch loop, PyTorch loop, fedavg), the two
    ratios, and with --scale the 1000-device round: one row."""
    row = {}
    for line in text.splitlines():
        m = re.match(r"FedAvg, (\d+) devices, (\d+) rounds x (\d+) epochs, .*data fraction "
                     r"([\d.]+)", line)
        if m:
            row.update(devices=m.group(1), rounds=m.group(2), epochs=m.group(3),
                       data_fraction=m.group(4))
        m = re.match(r"\s+median of (\d+)", line)
        if m:
            row["repeats"] = m.group(1)
        m = re.match(r"\s+(plain LibTorch loop|plain PyTorch loop|fedavg scenario)\s+"
                     r"([\d.]+)\s+([\d.]+)\s*$", line)
        if m:
            key = {"plain LibTorch loop": "libtorch", "plain PyTorch loop": "pytorch",
                   "fedavg scenario": "fedavg"}[m.group(1)]
            row[key + "_wall_s"] = m.group(2)
            row[key + "_cpu_s"] = m.group(3)
        m = re.match(r"\s+fedavg / (PyTorch|LibTorch) loop\s+wall ([\d.]+).*CPU ([\d.]+)", line)
        if m:
            row["fedavg_over_%s_wall" % m.group(1).lower()] = m.group(2)
            row["fedavg_over_%s_cpu" % m.group(1).lower()] = m.group(3)
        m = re.match(r"1000 devices, .*one round: ([\d.]+) s wall, peak RSS ([\d.]+) MB", line)
        if m:
            row["scale_1000_wall_s"], row["scale_1000_peak_mb"] = m.groups()
    return [row]


def parse_roofline(text):
    """bench-roofline: the sgemm peak, the LibTorch steps (us, % of the roofline) and where a
    D2dLearner step's time goes: rows (what, us, percent)."""
    rows = []
    section = None
    for line in text.splitlines():
        m = re.match(r"sgemm 1024 x 1024 x 1024: ([\d.]+) GFLOP/s", line)
        if m:
            rows.append(dict(section="peak", what="sgemm 1024^3 GFLOP/s", us="",
                             percent="", value=m.group(1)))
        m = re.match(r"\s+roofline: ([\d.]+) us per step", line)
        if m:
            rows.append(dict(section="roofline", what="matrix products per step",
                             us=m.group(1), percent="100.0", value=""))
        if line.startswith("LibTorch, one thread"):
            section = "step"
            continue
        if line.startswith("Where a D2dLearner step"):
            section = "breakdown"
            continue
        if section == "step":
            m = re.match(r"\s+(.+?)\s+([\d.]+) us\s+(\d+) samples/s\s+([\d.]+) %", line)
            if m:
                rows.append(dict(section="step", what=m.group(1), us=m.group(2),
                                 percent=m.group(4), value=m.group(3)))
        elif section == "breakdown":
            m = re.match(r"\s+(-?[\d.]+) us\s+(-?[\d.]+) %\s+(.+)$", line)
            if m:
                rows.append(dict(section="breakdown", what=m.group(3).strip(), us=m.group(1),
                                 percent=m.group(2), value=""))
    return rows


def parse_startup(text):
    """bench-startup: the medians per case (wall, CPU) and the shared-library count."""
    rows = []
    libs = ""
    for line in text.splitlines():
        m = re.match(r"the floor loads (\d+) shared libraries", line)
        if m:
            libs = m.group(1)
        m = re.match(r"\s{2}(\S.*?)\s+([\d.]+)\s+([\d.]+)\s*$", line)
        if m and not line.strip().startswith(("warm cache /", "case")):
            rows.append(dict(case=m.group(1), wall_s=m.group(2), cpu_s=m.group(3)))
        m = re.match(r"\s+warm cache / no cache\s+wall ([\d.]+)\s+CPU ([\d.]+)", line)
        if m:
            rows.append(dict(case="warm cache / no cache (ratio)", wall_s=m.group(1),
                             cpu_s=m.group(2)))
        m = re.match(r"\s+above the floor: warm cache ([\d.]+) s wall, ([\d.]+) s CPU", line)
        if m:
            rows.append(dict(case="above the floor (warm cache - floor)", wall_s=m.group(1),
                             cpu_s=m.group(2)))
    for r in rows:
        r["floor_shared_libraries"] = libs
    return rows


def parse_devices(text):
    """bench-devices.py: its table, one row per configuration."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s*(\d+)\s+(fedavg|decentralized)\s+(\S+)\s+(\S+)\s+(\d+)\s+([\d.]+)\s+"
                     r"(\d+)\s+([\d.]+)\s+([\d.]+)\s*(.*)$", line)
        if m:
            rows.append(dict(devices=m.group(1), algorithm=m.group(2), model=m.group(3),
                             data=m.group(4), rounds=m.group(5), wall_s=m.group(6),
                             peak_mb=m.group(7), kb_per_device=m.group(8), load=m.group(9),
                             note=m.group(10).strip()))
    return rows


def parse_cmfl(text):
    """bench-cmfl.py: its progress lines, one row per (algorithm, link rate)."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"(\S+)\s+(\d+) Mbit/s\s+round\s+([\d.]+) s sim\s+([\d.]+) MB/round\s+"
                     r"accuracy ([\d.]+)\s+wall\s+([\d.]+) s", line)
        if m:
            rows.append(dict(algorithm=m.group(1), rate_mbps=m.group(2),
                             round_time_s=m.group(3), mbytes_per_round=m.group(4),
                             accuracy=m.group(5), wall_s=m.group(6)))
    return rows


def parse_discovery_paradigms(text):
    """bench-discovery-paradigms.py: its table, one row per (paradigm, devices): the cost per
    RL iteration, the preparation (the fit's intercept), the projected default run and both
    as ratios to supervised at the same devices, and the ordered pairs in reward clusters
    (from the run lines); then one row per growth line: the growth of the cost per
    iteration and of the pairs."""
    rows = []
    pairs = {}
    for line in text.splitlines():
        m = re.match(r"\s+run (\S+)\s+N=(\d+) .* pairs (\d+)$", line)
        if m:
            pairs[(m.group(1), m.group(2))] = m.group(3)
            continue
        f = line.split()
        if len(f) == 11 and f[1].isdigit():
            rows.append(dict(paradigm=f[0], devices=f[1], edges=f[2], ms_per_iteration=f[6],
                             preparation_s=f[7], x_supervised_per_iteration=f[8],
                             default_run_s=f[9], default_x_supervised=f[10],
                             growth_per_iteration="",
                             reward_pairs=pairs.get((f[0], f[1]), "")))
        m = re.match(r"growth (\S+) (\d+) -> (\d+) devices: per-iteration cost x ([\d.]+)"
                     r"(?:; ordered pairs in reward clusters (\d+) -> (\d+))?", line)
        if m:
            rows.append(dict(paradigm=m.group(1), devices="%s -> %s" % (m.group(2), m.group(3)),
                             edges="", ms_per_iteration="", preparation_s="",
                             x_supervised_per_iteration="", default_run_s="",
                             default_x_supervised="", growth_per_iteration="x " + m.group(4),
                             reward_pairs=("%s -> %s" % (m.group(5), m.group(6))
                                           if m.group(5) else "")))
    return rows


def parse_discovery_whole(text):
    """bench-discovery-paradigms.py --whole: one row per default run run whole: paradigm,
    devices, RL iterations done, wall time and its ratio to supervised's."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"whole (\S+)\s+N=(\d+)\s+iterations (\d+)\s+wall\s+([\d.]+) s\s+"
                     r"x supervised\s+([\d.]+)", line)
        if m:
            rows.append(dict(paradigm=m.group(1), devices=m.group(2), rl_iterations=m.group(3),
                             wall_s=m.group(4), x_supervised=m.group(5)))
    return rows


def parse_kl_blocks(text):
    """bench-kl-blocks: one row: the block, the kernel's and dgemm's rates on the same threads,
    their ratio, and the preparation's rate."""
    head = re.search(r"d (\d+), blocks of (\d+) x (\d+) Gaussians, (\d+) threads", text)
    rates = {k: re.search(r"^%s ([\d.]+)" % k, text, re.M)
             for k in ("gemm_gflops", "kernel_gflops", "prepare_gflops")}
    if not head or not all(rates.values()):
        return []
    g = {k: float(m.group(1)) for k, m in rates.items()}
    timing = re.search(r"([\d.]+) us a block on one thread's share, (\d+) divergences/s", text)
    return [dict(d=head.group(1), block="%s x %s" % (head.group(2), head.group(3)),
                 threads=head.group(4),
                 us_per_block=timing.group(1) if timing else "",
                 divergences_per_s="%.3g" % float(timing.group(2)) if timing else "",
                 kernel_gflops="%.1f" % g["kernel_gflops"],
                 dgemm_gflops="%.1f" % g["gemm_gflops"],
                 kernel_x_dgemm="%.2f" % (g["kernel_gflops"] / g["gemm_gflops"]),
                 prepare_gflops="%.1f" % g["prepare_gflops"])]


def parse_blas(text):
    """bench-blas.py: one row per run (case, the BLAS it loaded, user CPU, wall, accuracy),
    then the medians' ratio reference / selected as a row of its own."""
    rows = []
    for line in text.splitlines():
        m = re.match(r"run (\S+)\s+blas=(\S+) user_s=([\d.]+) wall_s=([\d.]+) "
                     r"accuracy=([\d.]+)", line)
        if m:
            rows.append(dict(case=m.group(1), blas=m.group(2), user_s=m.group(3),
                             wall_s=m.group(4), accuracy=m.group(5)))
        m = re.match(r"median user CPU: reference ([\d.]+) s, selected ([\d.]+) s, "
                     r"reference / selected ([\d.]+)", line)
        if m:
            rows.append(dict(case="median ratio reference / selected", blas="",
                             user_s=m.group(3), wall_s="", accuracy=""))
    return rows


def parse_ci(text):
    """bench-ci.py: per run (cold, warm), one row per part (the whole run, the build, the
    tests; setup.sh's phases; the compiler cache's hits; the tests summed, in all and per
    label; compilation in all and per CMake target; the slowest tests), its seconds, and
    for the tests, compilations and cache hits how many. An output of the former bench-ci.py
    (one run, no run word in its lines) is the run "clean clone"."""
    rows = []

    def add(name, part, seconds, count=""):
        rows.append(dict(run=name or "clean clone", part=part, seconds=seconds, count=count))

    for line in text.splitlines():
        m = re.match(r"(ci|phases|cache|tests|label|compile|test)(?: (cold|warm))?(?=[ :])(.*)$",
                     line)
        if not m:
            continue
        kind, name, rest = m.groups()
        if kind == "ci":
            m = re.match(r": total ([\d.]+) s, build ([\d.]+) s, tests ([\d.]+) s", rest)
            if m:
                add(name, "`.ci/run`, in all", m.group(1))
                add(name, "build (set-up, configure, compile, link)", m.group(2))
                add(name, "tests (`ctest -j2`)", m.group(3))
        elif kind == "phases":
            for phase, secs in re.findall(r"(\S+) ([\d.]+) s", rest):
                add(name, "setup.sh phase: " + phase, secs)
        elif kind == "cache":
            m = re.match(r": (\d+) of (\d+) compilations were hits", rest)
            if m:
                add(name, "compiler cache: hits (count) of compilations", "",
                    "%s of %s" % (m.group(1), m.group(2)))
        elif kind == "tests":
            m = re.match(r": (\d+) of (\d+) passed, ([\d.]+) s summed over (\d+) tests", rest)
            if m:
                add(name, "tests, each one's time summed (%s of %s passed)"
                    % (m.group(1), m.group(2)), m.group(3), m.group(4))
        elif kind == "label":
            m = re.match(r" (\S+): ([\d.]+) s summed over (\d+) tests", rest)
            if m:
                add(name, "tests labelled %s, summed" % m.group(1), m.group(2), m.group(3))
        elif kind == "compile":
            m = re.match(r"(?: (.+?))?: ([\d.]+) s in (\d+) sources", rest)
            if m:
                add(name, "compile: " + (m.group(1) or "all sources"), m.group(2), m.group(3))
        else:
            m = re.match(r" (\S+): ([\d.]+) s$", rest)
            if m:
                add(name, "test: " + m.group(1), m.group(2))
    return rows


def parse_torchscript(text):
    """bench-torchscript: its JSON line, one row per figure (figure, what, value, unit,
    target): (a) the MLP's step built in and as TorchScript and their ratio, (b) ResNet-20's
    step in d2dlearn and in python3-torch, their ratio, and where the time goes, (c) heap
    bytes per idle device at each device count."""
    data = None
    for line in text.splitlines():
        if line.startswith('{"bench": "torchscript"'):
            data = json.loads(line)
    if data is None:
        return []
    rows = []

    def add(figure, what, key, unit, target="", fmt="%.2f"):
        if key in data:
            rows.append(dict(figure=figure, what=what, value=fmt % data[key], unit=unit,
                             target=target))

    a = "(a) MLP 784-128-10 step"
    add(a, "built-in mlp:128, D2dLearner", "mlp_builtin_us", "us wall")
    add(a, "torchscript (same module), D2dLearner", "mlp_torchscript_us", "us wall")
    add(a, "torchscript / built-in", "mlp_ratio", "ratio (wall)", "<= 1.15", "%.3f")
    add(a, "torchscript / built-in", "mlp_ratio_cpu", "ratio (CPU)", "", "%.3f")
    b = "(b) ResNet-20 step"
    add(b, "d2dlearn (D2dLearner, torchscript)", "resnet_d2dlearn_ms", "ms wall")
    add(b, "python3-torch (torch-step.py)", "resnet_python_ms", "ms wall")
    add(b, "d2dlearn / python", "resnet_ratio", "ratio (wall)", "<= 1.0", "%.3f")
    add(b, "d2dlearn / python", "resnet_ratio_cpu", "ratio (CPU)", "", "%.3f")
    add(b, "plain LibTorch loop, main thread, executor unoptimised", "resnet_plain_ms",
        "ms wall")
    add(b, "plain LibTorch loop, main thread, executor optimised", "resnet_plain_optimised_ms",
        "ms wall")
    add(b, "plain LibTorch loop, worker thread, executor unoptimised", "resnet_plain_worker_ms",
        "ms wall")
    add(b, "torch-step.py, executor unoptimised", "resnet_python_unoptimised_ms", "ms wall")
    add(b, "minor page faults: D2dLearner job", "resnet_faults_learner", "per step", "", "%.1f")
    add(b, "minor page faults: plain loop, main thread", "resnet_faults_main", "per step", "",
        "%.1f")
    add(b, "minor page faults: plain loop, worker thread", "resnet_faults_worker", "per step",
        "", "%.1f")
    counts = sorted({int(k.split("_")[1]) for k in data if k.startswith("devices_")})
    for n in counts:
        c = "(c) ResNet-20, %s idle devices" % "{:,}".format(n)
        k = "devices_%d_" % n
        add(c, "state (parameters and buffers, 4 B a value)", k + "state_bytes", "B per device",
            "floor", "%.0f")
        add(c, "set up (initial state not drawn yet)", k + "setup_bytes", "B per device", "",
            "%.0f")
        add(c, "holding its initial state (the file's, shared)", k + "holding_bytes",
            "B per device", "", "%.0f")
        if k + "own_bytes" in data:
            add(c, "holding weights of its own (as after a job)", k + "own_bytes",
                "B per device", "", "%.0f")
        add(c, "released (stateless FedAvg client)", k + "released_bytes", "B per device", "",
            "%.0f")
    return rows


def pivot_cmfl(rows):
    """The page's table: one row per algorithm, a round's simulated time per link rate."""
    out = {}
    for r in rows:
        o = out.setdefault(r["algorithm"], {"algorithm": r["algorithm"]})
        o["round_s_%s_mbps" % r["rate_mbps"]] = r["round_time_s"]
        o["mbytes_per_round"] = r["mbytes_per_round"]
        o["accuracy"] = r["accuracy"]
        walls = o.setdefault("_walls", [])
        walls.append(float(r["wall_s"]))
    rates = sorted({r["rate_mbps"] for r in rows}, key=float)
    table = []
    for o in out.values():
        w = o.pop("_walls")
        t = {"algorithm": o["algorithm"]}
        t.update(("round_s_%s_mbps" % r, o.get("round_s_%s_mbps" % r, "")) for r in rates)
        t.update(mbytes_per_round=o["mbytes_per_round"], accuracy=o["accuracy"],
                 wall_s="%.1f-%.1f" % (min(w), max(w)) if len(w) > 1 else "%.1f" % w[0])
        table.append(t)
    return table


# --- what runs: per benchmark, its runs (label, argv, cwd) and how each is parsed ------------

# The spectrum benchmark's workloads (bench-scale flags at N devices: about 20,000 messages;
# one cell about 100,000, its runs being the shortest),
# its configurations ((access, spectrum) -> ns-3 attributes) and its runs (devices, workload,
# access, spectrum), each K = 4 configuration after the unlimited band of its access.
SPECTRUM_WORKLOADS = {
    "one cell": lambda n: ["--rate=%g" % (125.0 / n), "--simTime=800"],  # 100,000: short runs
    "range 100 m": lambda n: ["--broadcast", "--rate=0.2", "--simTime=%g" % (1e5 / n),
                              "--ns3::D2dChannel::RangeM=100"],
    "whole square": lambda n: ["--rate=1", "--simTime=%g" % (2e4 / n)],
}
_SCHEDULED = ["--ns3::D2dChannel::AccessPolicy=Scheduled"]
_K4 = ["--ns3::D2dChannel::SubChannels=4"]
SPECTRUM_CONFIGS = {
    ("immediate", "K=0 (unlimited)"): [],
    ("scheduled", "K=0 (unlimited)"): _SCHEDULED,
    ("scheduled", "K=4, reuse none"): _SCHEDULED + _K4,
    ("scheduled", "K=4, reuse hearing"): _SCHEDULED + _K4
    + ["--ns3::D2dChannel::SpectrumReuse=Hearing"],
    ("immediate", "K=4, interference"): _K4 + ["--ns3::D2dChannel::Interference=true"],
}
SPECTRUM_RUNS = [
    (n, w, a, k)
    for n in (1000, 10000, 100000)
    for w, configs in (
        ("one cell", [("immediate", "K=0 (unlimited)"), ("scheduled", "K=0 (unlimited)"),
                      ("scheduled", "K=4, reuse none")]),
        ("whole square", [("immediate", "K=0 (unlimited)"),
                          ("immediate", "K=4, interference")]),
        ("range 100 m", [("immediate", "K=0 (unlimited)"), ("scheduled", "K=0 (unlimited)"),
                         ("scheduled", "K=4, reuse hearing"),
                         ("immediate", "K=4, interference")]))
    for a, k in configs] + [
    (1000000, "one cell", "scheduled", "K=0 (unlimited)"),
    (1000000, "one cell", "scheduled", "K=4, reuse none")]

def benches(bindir):
    b = lambda name: os.path.join(bindir, name)  # noqa: E731
    sides = {1000: 1000, 3000: 1732, 10000: 3162, 30000: 5477}
    return {
        "fast-path": dict(
            runs=[("100 MB, P_D = 0.15", [b("bench-fast-path"), "--reps=10"], None),
                  ("the same, BasicEnergySource",
                   [b("bench-fast-path"), "--reps=10", "--energyUpdateS=1"], None)],
            parse=parse_fast_path,
            settings="one 100 MB message between two devices 100 m apart at P_D = 0.15, "
                     "10 runs per mode and path (the defaults: D2dEnergySource batteries, no "
                     "periodic event); again with ns-3's BasicEnergySource updated every "
                     "second (--energyUpdateS=1)"),
        "scale": dict(
            runs=[(label, [b("bench-scale"), "--simTime=30"] + a, None)
                  for label, a in [("unicast", []), ("broadcast", ["--broadcast"]),
                                   ("reliable unicast", ["--reliable"]),
                                   ("unicast, per-fragment path",
                                    ["--ns3::D2dChannel::FastPath=false"])]],
            parse=parse_scale,
            settings="1,000 devices in a 1 km square, 10 kB messages to a random peer, 30 "
                     "simulated seconds (`--simTime=30`; unicasts at 10 per second per device, "
                     "broadcasts at 0.05: the defaults)"),
        "scale-density": dict(
            runs=[("%d devices" % n, [b("bench-scale"), "--nDevices=%d" % n,
                                      "--side=%d" % s, "--rate=1", "--simTime=30"], None)
                  for n, s in sides.items()],
            parse=parse_scale,
            settings="constant density (1,000 devices per km^2: a square of side 1 km x "
                     "sqrt(N / 1,000)), 10 kB unicasts to a random peer at 1 per second per "
                     "device, 30 simulated seconds (+1 s drain)"),
        "scale-1m": dict(
            runs=[("%d devices" % n, [b("bench-scale"), "--nDevices=%d" % n, "--side=%d" % s,
                                      "--rate=1", "--simTime=1",
                                      "--ns3::D2dChannel::RangeM=100"], None)
                  for n, s in ((10000, 3162), (1000000, 31623))],
            parse=parse_scale,
            settings="the exchange of d2d-exchange (10 kB unicasts to a uniformly random "
                     "peer, Poisson, 1 per second per device) for 1 simulated second (+1 s "
                     "drain) at the density of the 1,000-device benchmark (1,000 devices per "
                     "km^2), on a range graph (RangeM 100 m: a peer out of range is an "
                     "out_of_range row, no transmission), 10,000 and 1,000,000 devices"),
        # The radio environment (D2dPropagationHelper's presets) at 100,000 devices: ns-3's
        # log-distance against TR 38.901's UMi and UMa (path loss, LOS/NLOS per pair and
        # shadowing per link) and TR 37.885's urban V2V, on broadcasts to the devices in range.
        "propagation": dict(
            runs=[(preset, [b("bench-scale"), "--nDevices=100000", "--side=10000",
                            "--broadcast", "--rate=0.05", "--simTime=2",
                            "--ns3::D2dChannel::RangeM=100", "--propagation=" + preset], None)
                  for preset in ("log-distance", "3gpp-umi", "3gpp-uma", "3gpp-v2v-urban")],
            parse=parse_scale,
            settings="bench-scale, 100,000 devices in a 10 km square (1,000 per km^2), 10 kB "
                     "broadcasts at 0.05 per second per device for 2 s (+1 s drain) to the "
                     "devices within RangeM = 100 m (about 31 each), unreliable, the fast "
                     "path; `--propagation` the preset (the devices at its antenna height)"),
        # Sleep (D2dDrx: cycle 100 ms, on-duration 10 ms, inactivity 20 ms) against none, at
        # 1,000 and 100,000 devices; and 1,000,000 with it for the memory.
        "sleep": dict(
            runs=[("%d devices, DRX %s" % (n, "on" if drx else "off"),
                   [b("bench-scale"), "--nDevices=%d" % n, "--side=%d" % side,
                    "--rate=%g" % rate, "--simTime=%g" % t] + extra
                   + (["--drx=true"] if drx else []), None)
                  for n, side, rate, t, extra, drxs in [
                      (1000, 1000, 1, 5, [], (False, True)),
                      (100000, 10000, 0.1, 2, [], (False, True)),
                      (1000000, 31623, 1, 1, ["--ns3::D2dChannel::RangeM=100"], (True,))]
                  for drx in drxs],
            parse=parse_sleep,
            settings="bench-scale, 10 kB unicasts to a random peer (Poisson), without and with "
                     "DRX on every radio (`--drx`: D2dDrx cycle 100 ms, on-duration 10 ms, "
                     "inactivity timer 20 ms; the ns3-wifi profile, sleep 0.099 W, no "
                     "transition): 1,000 devices in a 1 km square at 1 message per second per "
                     "device for 5 s, 100,000 devices in a 10 km square at 0.1 per second for "
                     "2 s, and 1,000,000 devices (the 1,000-device density, RangeM 100 m, 1 per "
                     "second for 1 s) with DRX for the memory (+1 s drain each)"),
        # The finite spectrum (D2dChannel SubChannels K) against the unlimited band (K = 0)
        # at 1,000 to 100,000 devices at constant density, on three workloads of about 20,000
        # messages each; and 1,000,000 devices in one cell for the memory.
        "spectrum": dict(
            runs=[("%s | %s | %s" % (w, access, spectrum),
                   [b("bench-scale"), "--nDevices=%d" % n,
                    "--side=%d" % round(1000 * (n / 1000) ** 0.5)] + SPECTRUM_WORKLOADS[w](n)
                   + SPECTRUM_CONFIGS[(access, spectrum)], None)
                  for n, w, access, spectrum in SPECTRUM_RUNS],
            parse=parse_spectrum, table=table_spectrum,
            settings="bench-scale at constant density (1,000 devices per km^2), 10 kB "
                     "messages, unreliable, the fast path, about 20,000 messages per run (+1 s "
                     "drain); workloads: one cell (unicasts to a random peer anywhere, 125 per "
                     "second in all: half of what K = 4 sub-channels carry with reuse none; "
                     "800 simulated seconds, about 100,000 messages), "
                     "range 100 m (`RangeM=100`, broadcasts at 0.2 per second per device to "
                     "the about 31 devices in range), whole square (unicasts to a random peer "
                     "anywhere, 1 per second per device: every device hears every "
                     "transmission); K = 4 sub-channels, one per transmission (5 Mbit/s, 16 ms "
                     "for 10 kB), receive chains K, interference on under immediate access"),
        # A million devices with a finite spectrum: the run of devices-1m (FedAvg over D2S,
        # the target of 8 GB) with the unlimited band and with K = 4, scheduled.
        "spectrum-1m": dict(
            runs=[(label, [PYTHON, os.path.join(HERE, "bench-devices.py"), "--bin=" + b("fedavg"),
                           "--sizes=1000000", "--only=fedavg", "--clientFraction=0.01",
                           "--rounds=3", "--model=mlp:16",
                           "--extra=--evaluateDevices=false " + extra], None)
                  for label, extra in [
                      ("K=0 (unlimited), scheduled", "--subChannels=0 --access=scheduled"),
                      ("K=4, scheduled", "--subChannels=4 --access=scheduled")]],
            parse=parse_devices,
            settings="as devices-1m (FedAvg over D2S, 1,000,000 devices, 1 % of the clients "
                     "per round, 3 rounds, the Gaussian mixture and the MLP 2-16-4, "
                     "`--threads=2`), scheduled access, with the unlimited band "
                     "(`--subChannels=0`) and with K = 4 sub-channels (`--subChannels=4`; the "
                     "server's cell follows it: 10,000 uploads a round share 4 sub-channels); "
                     "the target of 8 GB beside it (run it alone: about 7 GB each)"),
        "wifi-scale": dict(
            runs=[("%d devices" % n, [b("bench-wifi-scale"), "--nDevices=%d" % n,
                                      "--rate=0.5", "--simTime=1"], None)
                  for n in (10, 30, 100, 300, 1000)],
            parse=parse_wifi_scale,
            settings="the 802.11 backend (802.11a, 6 Mbit/s, one YansWifiChannel, "
                     "log-distance loss, 16 dBm) at constant density (625 m^2 per device), "
                     "10 kB unicasts to a random device in range at 0.5 per second per device, "
                     "1 simulated second (+1 s drain), batteries with WifiRadioEnergyModel"),
        "footprint": dict(
            runs=[("10,000 devices", [b("bench-footprint"), "--nDevices=10000"], None),
                  ("100,000 devices", [b("bench-footprint"), "--nDevices=100000"], None),
                  ("1,000,000 devices", [b("bench-footprint"), "--nDevices=1000000",
                                         "--stages=false"], None)],
            parse=parse_footprint,
            settings="FedAvg over D2S as the fedavg scenario assembles it, the Gaussian "
                     "mixture (2N samples, at least 20,000), MLP 2-16-4, nothing trained; heap "
                     "bytes in use (glibc mallinfo2) after each step, per device; the objects "
                     "built alone at 10,000 and 100,000 devices (`--stages=false` at "
                     "1,000,000)"),
        "fedavg": dict(
            runs=[(label, [b("bench-fedavg"), "--fedavg=" + b("fedavg"),
                           "--script=" + os.path.join(HERE, "bench-fedavg-pytorch.py")] + a,
                   bindir)
                  for label, a in [
                      ("10 devices, 20 % of the data, 5 rounds", ["--repeats=3"]),
                      ("10 devices, 20 % of the data, 20 rounds", ["--rounds=20",
                                                                   "--repeats=3"]),
                      ("10 devices, all the data, 10 rounds",
                       ["--dataFraction=1", "--rounds=10", "--repeats=1", "--scale"])]],
            parse=parse_fedavg,
            settings="MLP 784-128-10, 1 local epoch, 2 training threads for the LibTorch "
                     "loop and fedavg, 1 for the PyTorch loop; medians of the interleaved "
                     "repeats; the last row also runs `--scale` (1,000 devices, one round)"),
        "roofline": dict(
            runs=[("MLP 784-128-10, batch 32", [b("bench-roofline")], None)],
            parse=parse_roofline,
            settings="MLP 784-128-10, batch 32, 200 steps x 15 repetitions, medians "
                     "(the defaults)"),
        "startup": dict(
            # (--args takes one word: ns-3's CommandLine reads a value up to a space)
            runs=[("fedavg --rounds=1",
                   [b("bench-startup"), "--fedavg=" + b("fedavg"),
                    "--floor=" + b("bench-load-floor"), "--runs=5", "--args=--rounds=1"],
                   bindir)],
            parse=parse_startup,
            settings="`fedavg --rounds=1` (its default data fraction), 5 interleaved runs "
                     "per case, medians"),
        "devices": dict(
            runs=[(label, [PYTHON, os.path.join(HERE, "bench-devices.py"),
                           "--bin=" + b("fedavg")] + a, None)
                  for label, a in [
                      ("fedavg, 10 devices (the fixed part)",
                       ["--sizes=10", "--only=fedavg", "--clientFraction=1", "--rounds=1"]),
                      ("decentralized, 10 devices, logistic (the fixed part)",
                       ["--sizes=10", "--only=decentralized", "--decModel=logistic"]),
                      ("fedavg, deferred", ["--sizes=1000", "--only=fedavg",
                                            "--clientFraction=1", "--rounds=1"]),
                      ("fedavg, eager", ["--sizes=1000", "--only=fedavg", "--clientFraction=1",
                                         "--rounds=1", "--extra=--deferTraining=false"]),
                      ("decentralized, deferred", ["--sizes=1000", "--only=decentralized"]),
                      ("decentralized, eager", ["--sizes=1000", "--only=decentralized",
                                                "--extra=--deferTraining=false"])]],
            parse=parse_devices,
            settings="1,000 devices (and 10 for the fixed part: libraries and data set), "
                     "MLP 784-128-10 unless it says logistic, all of Fashion-MNIST, one round, "
                     "`--threads=2`; fedavg with every client sampled (`--clientFraction=1`), "
                     "decentralized on a range graph (about 6 neighbours each); eager = "
                     "`--deferTraining=false` (10,000 devices: `devices-10k`)"),
        "blas": dict(
            runs=[("fedavg --rounds=3 --threads=0",
                   [PYTHON, os.path.join(HERE, "bench-blas.py"), "--bin=" + b("fedavg"),
                    "--runs=2", "--args=--rounds=3 --threads=0"], None)],
            parse=parse_blas,
            settings="`fedavg --rounds=3 --threads=0` (10 devices, MLP 784-128-10, inline "
                     "training), 2 runs with each BLAS, interleaved; the reference BLAS "
                     "through LD_LIBRARY_PATH, the selected one as the system's alternatives "
                     "give it"),
        "devices-10k": dict(
            runs=[(label, [PYTHON, os.path.join(HERE, "bench-devices.py"),
                           "--bin=" + b("fedavg"), "--sizes=10000"] + a, None)
                  for label, a in [
                      ("fedavg, deferred", ["--only=fedavg", "--clientFraction=1",
                                            "--rounds=1"]),
                      ("fedavg, eager", ["--only=fedavg", "--clientFraction=1", "--rounds=1",
                                         "--extra=--deferTraining=false"]),
                      ("decentralized, deferred", ["--only=decentralized"]),
                      ("decentralized, eager", ["--only=decentralized",
                                                "--extra=--deferTraining=false"])]],
            parse=parse_devices,
            settings="as `devices` at 10,000 devices, without the fixed part (a little over "
                     "two minutes and up to 9 GB: run it alone)"),
        # The scale target: a million devices, 1 % of them training each round.
        "devices-1m": dict(
            runs=[("1,000,000 devices, FedAvg, 1 % per round, 3 rounds",
                   [PYTHON, os.path.join(HERE, "bench-devices.py"), "--bin=" + b("fedavg"),
                    "--sizes=1000000", "--only=fedavg", "--clientFraction=0.01",
                    "--rounds=3", "--model=mlp:16", "--extra=--evaluateDevices=false"], None)],
            parse=parse_devices,
            settings="FedAvg over D2S, 1,000,000 devices, 1 % of the clients per round, 3 "
                     "rounds, the 2-D Gaussian mixture with 2,000,000 samples and the MLP "
                     "2-16-4 (bench-devices.py's rule above 60,000 devices), `--threads=2`, "
                     "the global model evaluated (`--evaluateDevices=false`); "
                     "the target of 8 GB and 15 minutes beside it (run it alone: about 10 GB)"),
        # Devices that come and go at 100,000 devices: FedAvg as devices-1m, always there and
        # with the on/off model (each device there 2/3 of the time).
        "devices-availability": dict(
            runs=[(label, [PYTHON, os.path.join(HERE, "bench-devices.py"), "--bin=" + b("fedavg"),
                           "--sizes=100000", "--only=fedavg", "--clientFraction=0.01",
                           "--rounds=3", "--model=mlp:16",
                           "--extra=--evaluateDevices=false" + extra], None)
                  for label, extra in [
                      ("100,000 devices, always there", ""),
                      ("100,000 devices, on 6 s / off 3 s",
                       " --meanOnTime=6s --meanOffTime=3s")]],
            parse=parse_devices,
            settings="FedAvg over D2S, 100,000 devices, 1 % of the clients per round, 3 rounds, "
                     "the 2-D Gaussian mixture and the MLP 2-16-4, `--threads=2`, "
                     "`--evaluateDevices=false`; always there, and with devices that come and "
                     "go (`--meanOnTime=6s --meanOffTime=3s`: exponential periods, each device "
                     "there 2/3 of the time, so about 33,000 devices away from the start and "
                     "about 14,000 changes in the 0.64 s the three rounds last, each a row of "
                     "availability.csv)"),
        # The rows of the decentralized table beyond devices-10k's MLP round.
        "devices-decentralized": dict(
            runs=[(label, [PYTHON, os.path.join(HERE, "bench-devices.py"),
                           "--bin=" + b("fedavg"), "--only=decentralized"] + a, None)
                  for label, a in [
                      ("10,000 devices, logistic, deferred",
                       ["--sizes=10000", "--decModel=logistic"]),
                      ("10,000 devices, logistic, eager",
                       ["--sizes=10000", "--decModel=logistic",
                        "--extra=--deferTraining=false"]),
                      ("10,000 devices, MLP, 3 rounds, deferred",
                       ["--sizes=10000", "--decRounds=3"]),
                      ("100,000 devices, Gaussian mixture, deferred", ["--sizes=100000"])]],
            parse=parse_devices,
            settings="decentralized FL on a range graph (about 6 neighbours each), 16 devices "
                     "evaluated, `--threads=2`, one round unless it says 3; all of "
                     "Fashion-MNIST, or above 60,000 devices the 2-D Gaussian mixture with "
                     "the MLP 2-128-4 (bench-devices.py's rule); eager = "
                     "`--deferTraining=false`"),
        "devices-random": dict(
            runs=[("10,000 devices, MLP, --graph=random, deferred",
                   [PYTHON, os.path.join(HERE, "bench-devices.py"), "--bin=" + b("fedavg"),
                    "--only=decentralized", "--sizes=10000",
                    "--extra=--graph=random --areaSideM=50 --rangeM=0"], None)],
            parse=parse_devices,
            settings="as devices-10k's decentralized deferred row, but on the scenario's "
                     "defaults for the graph: 7 in-neighbours drawn among all devices "
                     "(`--graph=random`, no locality) in its 50 m square, no range limit"),
        "cmfl": dict(
            runs=[("3 rounds", [PYTHON, os.path.join(HERE, "bench-cmfl.py"),
                                "--bin=" + b("cmfl"), "--rounds=3"], None)],
            parse=parse_cmfl, table=pivot_cmfl,
            settings="108 devices on 10 % of Fashion-MNIST, MLP 784-64-10, 3 rounds, "
                     "43 committee and 65 training clients, no attack (bench-cmfl.py's "
                     "defaults)"),
        # Graph discovery's four paradigms at 10, 25 and 100 devices (the target:
        # each default run within 3x supervised's).
        "discovery-paradigms": dict(
            runs=[("10, 25, 100 devices", [PYTHON, os.path.join(HERE, "bench-discovery-paradigms.py"),
                                           "--bin=" + bindir], None)],
            parse=parse_discovery_paradigms,
            settings="`graph-discovery --downstream=none --quiet=true --seed=1` and the "
                     "paradigm's flags (regression: `--dataset=polynomial`), "
                     "Fashion-MNIST at its default fraction, PCA d = 50, K = 7 clusters, one "
                     "edge (unsupervised two); per paradigm and size two runs at two "
                     "iteration counts (the script's defaults), the cost per RL iteration "
                     "their slope and the preparation their intercept; the default run "
                     "projected at 5,000 iterations per edge"),
        # The unsupervised paradigm's speed as a user meets it: the default runs, run whole,
        # at 10 and 25 devices, and eq. (17)'s divergence kernel against the machine's dgemm.
        "discovery-whole": dict(
            runs=[("default runs, 10 and 25 devices",
                   [PYTHON, os.path.join(HERE, "bench-discovery-paradigms.py"), "--bin=" + bindir,
                    "--no-fit", "--whole=10,25"], None)],
            parse=parse_discovery_whole,
            settings="`graph-discovery --downstream=none --quiet=true --seed=1` and the "
                     "paradigm's flags at their defaults (5,000 RL iterations per edge, one "
                     "edge, unsupervised two; PCA d = 50, K = 7; --threads=2), each run whole "
                     "and timed, one after the other"),
        "discovery-kernel": dict(
            runs=[("%d-device reward cluster" % k,
                   [b("bench-kl-blocks"), "--d=50", "--rows=%d" % (7 * k),
                    "--cols=%d" % (7 * k), "--threads=2"], None) for k in (2, 4)],
            parse=parse_kl_blocks,
            settings="bench-kl-blocks: D2dKlBlocks::Divergences on the block of a 2- or 4-device "
                     "reward cluster (all its devices' 7 clusters against all of them, as "
                     "D2dAgreementCache forms it), d = 50, two threads each on its own blocks, "
                     "the BLAS held to one thread per call; flops: the multiply-adds the call "
                     "reports x 2 (its matrix product and the columns' P x_b); dgemm: 1024^3 "
                     "per thread on the same two threads; best of 3 rounds of about 0.5 s"),
        "torchscript": dict(
            runs=[("MLP, ResNet-20, idle devices", [b("bench-torchscript")], None)],
            parse=parse_torchscript,
            settings="one LibTorch and one BLAS thread; (a) MLP 784-128-10 on random 1 x 28 x 28 "
                     "samples, batch 32, SGD, jobs of 1,000 steps after a warm-up job, 7 per "
                     "model taking turns, medians per step; (b) ResNet-20 (examples/models/"
                     "resnet20.py) on random 3 x 32 x 32 samples, batch 32, 6 jobs of 8 steps "
                     "after a warm-up job taking turns with the plain loops (8 steps each), "
                     "against torch-step.py (30 steps after 5) on the same file; (c) learners of ResNet-20 with 2 samples each, heap "
                     "bytes per device at 1,000 and 10,000 devices (the defaults)"),
        # CI's own time: not a program of bindir but a clean clone of the committed tree.
        "ci": dict(
            runs=[("clean clones, .ci/run, cold then warm",
                   [PYTHON, os.path.join(HERE, "bench-ci.py")], None)],
            parse=parse_ci,  # its rows name their run (cold, warm)
            settings="`bash .ci/run` on two clean clones of the commit below, as CI runs it "
                     "(shared/ beside each): a Release build with the sanitized subset, then "
                     "`ctest -j2`; cold with an empty compiler cache and no ns-3 prefix for the "
                     "release tests, then warm with the cache and the prefix "
                     "the cold run left (about 40 minutes in all; run it alone on an idle "
                     "machine)"),
    }


NAMES = ["fast-path", "scale", "scale-density", "scale-1m", "propagation", "sleep", "spectrum",
         "spectrum-1m",
         "wifi-scale", "footprint", "fedavg",
         "roofline", "torchscript",
         "startup", "blas", "devices", "devices-10k", "devices-1m", "devices-availability",
         "devices-decentralized",
         "devices-random", "cmfl", "discovery-paradigms", "discovery-whole", "discovery-kernel",
         "ci"]


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def to_csv(rows):
    fields = []
    for r in rows:
        fields += [k for k in r if k not in fields]
    s = io.StringIO()
    w = csv.DictWriter(s, fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return s.getvalue()


def table(spec, runs):
    """The rows of the page's table from the kept runs: each run's rows, labelled."""
    rows = []
    for r in runs:
        for row in spec["parse"](r["output"]):
            rows.append(dict({"run": r["label"]}, **row))
    if "table" in spec:
        rows = spec["table"](rows)
    return rows


# An absolute path into a checkout's bench/ or build/ (this one's, or another worktree's
# where a kept output was measured), alone or after "=".
CHECKOUT_PATH = re.compile(r"(^|=)/(?:[^/\s=]+/)+?((?:bench|build)/)")


def command(argv):
    """argv as the stamp shows it: paths from the repository (bench/..., build/...), also
    for an output kept from another checkout, so that re-parsing it writes the same stamp;
    quoted as a shell needs it, so that the command pasted runs (--extra='--a=1 --b=2' is one
    argument)."""
    return " ".join(shlex.quote(CHECKOUT_PATH.sub(r"\1\2", a.replace(TOP + "/", "")))
                    for a in argv)


def stamp_md(name, spec, kept):
    s = kept["stamp"]
    cmds = "; ".join("`%s`" % command(r["argv"]) for r in kept["runs"])
    return ("<!-- Written by bench/doc-numbers.py --perf %s; do not edit: re-run it. -->\n"
            "Measured by `bench/doc-numbers.py --perf %s` (%s; settings: %s) on %s, %s, "
            "commit %s, with a 1-minute load average of %s at the start and %s at the end "
            "(%.0f s of wall time in all; other work on the machine slows wall times, not "
            "ratios of runs measured together).%s\n"
            % (name, name, cmds, kept.get("settings", spec["settings"]), s["machine"], s["date"], s["commit"],
               kept["load_start"], kept["load_end"], kept["wall_s"],
               " Note: %s" % kept["note"] if kept.get("note") else ""))


def write(name, spec, kept, outdir):
    write_atomic(os.path.join(outdir, name + ".csv"), to_csv(table(spec, kept["runs"])))
    write_atomic(os.path.join(outdir, name + ".md"), stamp_md(name, spec, kept))


def run(name, bindir, outdir, stamp, note=""):
    """Runs benchmark NAME, keeps its output (NAME.out.json), writes NAME.csv and NAME.md
    (note: what the stamp should say of the conditions, e.g. a machine shared with a build)."""
    spec = benches(bindir)[name]
    os.makedirs(outdir, exist_ok=True)
    load_start = "%.1f" % os.getloadavg()[0]
    t0 = time.monotonic()
    runs = []
    for label, argv, cwd in spec["runs"]:
        t = time.monotonic()
        p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, text=True, check=True)
        runs.append(dict(label=label, argv=argv, output=p.stdout,
                         wall_s=round(time.monotonic() - t, 2)))
        print("doc-numbers: perf %s, %s: %.1f s" % (name, label, runs[-1]["wall_s"]),
              flush=True)
    kept = dict(stamp=stamp, settings=spec["settings"], load_start=load_start,
                load_end="%.1f" % os.getloadavg()[0],
                wall_s=round(time.monotonic() - t0, 1), runs=runs)
    if note:
        kept["note"] = note
    write_atomic(os.path.join(outdir, name + ".out.json"), json.dumps(kept, indent=1) + "\n")
    write(name, spec, kept, outdir)


def reparse(outdir, bindir=os.path.join(TOP, "build", "bin")):
    for name, spec in benches(bindir).items():
        path = os.path.join(outdir, name + ".out.json")
        if os.path.exists(path):
            with open(path) as f:
                write(name, spec, json.load(f), outdir)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--parse-only", action="store_true", required=True,
                   help="re-parse the kept outputs (runs go through bench/doc-numbers.py)")
    p.add_argument("--out", default=os.path.join(TOP, "doc", "data", "perf"))
    a = p.parse_args()
    reparse(a.out)


if __name__ == "__main__":
    main()
