#!/usr/bin/python3
"""Test of bench/perf_numbers.py's parsers: the benchmarks' printed output (in the formats of
bench-fast-path, bench-scale, bench-fedavg, bench-roofline, bench-startup, bench-devices.py
and bench-cmfl.py) into the rows of doc/performance.md's tables, against values read off the
text by hand:

fast-path: unreliable fast 86 events, 0.00010 s; per-fragment 123392 events, 0.03650 s:
  wall 0.100 and 36.500 ms, events ratio 86 / 123392 = 6.97e-04, wall ratio 2.74e-03;
  reliable: retransmissions 11789.0 and 11806.9 kept.
scale: 100930 sends, 414721 events: 4.11 events per message; run 0.567 s wall, 0.545 s CPU,
  169034 deliveries per wall s, peak 31.9 MB (not the 31.1 MB before Run).
fedavg: medians 1.34 / 2.89 / 1.31 s, ratios 0.454 and 0.977, the 1000-device round 6.00 s
  and 1210 MB.
roofline: peak 102.3 GFLOP/s; step row 5 at 57.4 %; the breakdown's negative row (-16.01 us,
  -6.1 %) is kept.
startup: four cases, the warm / no cache ratio 0.723 and the 0.527 s above the floor, each
  with the floor's 302 libraries.
devices: two rows, the decentralized one with its bound note.
blas: two runs, then the medians' ratio 3.50 as a row of its own.
ci: the whole run, build and tests, the tests summed with their count, compilation in all
  and per target (CMake's checks under a name of their own), the slowest tests.
torchscript: the JSON line's figures: the MLP ratio 1.047 with its target, ResNet-20's
  146.2 ms against 150.0 ms, and per device count (1,000 and 10,000, sorted) four rows.
cmfl: two algorithms at two rates pivot to one row each, rounds' time per rate, the wall
  range over the rates.
spectrum: 10000 devices, 10010 sends, 305383 delivery rows, 918888 events: (918888 - 10000)
  / 10010 = 90.80 events per message, / 305383 = 2.98 per row, 3.769 s / 10010 = 376.5 us
  per message, mean latency 16.97 ms; against the unlimited band of the same workload,
  devices and access (640787 events, 1.090 s, 1.023 s CPU, 59.8 MB): events 90.80 / 63.02 =
  1.44, wall 376.5 / 108.9 = 3.46, CPU 340.06 / 102.20 us = 3.33, peak 60.2 / 59.8 = 1.01;
  a finite spectrum with no such baseline
  (other access) gets no ratios, nor does the baseline itself.

Then the kept outputs: every doc/data/perf/NAME.out.json re-parses to the committed
NAME.csv and NAME.md (nobody edited a table or a stamp by hand; a stamp's commands name
paths from the repository, also for an output measured in another checkout; a kept note,
doc-numbers.py --note, ends the stamp). Run it directly:
/usr/bin/python3 tests/analysis/test_perf_numbers.py"""

import csv
import io
import json
import os
import sys
import unittest

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(TOP, "bench"))
import perf_numbers as pn  # noqa: E402

FAST_PATH = """\
bench-fast-path: one message of 100000000 bytes, 2 devices 100.0 m apart, target P_D 0.150
(means over the runs; lost/retransm also their standard deviation; wall_s is Simulator::Run only)
mode       path            P_D     events     wall_s    latency_s  fragments  frag_lost       sd   retransm       sd delivered
unreliable fast         0.1500         86    0.00010      40.0000      66667    10015.9     75.5        0.0      0.0   10/10
unreliable per-fragment 0.1500     123392    0.03650      40.0000      66667    10026.8     67.8        0.0      0.0   10/10
reliable   fast         0.1500        101    0.00009      47.0746      66667        0.1      0.3    11789.0    110.4    9/10
reliable   per-fragment 0.1500     145241    0.04264      47.0841      66667        0.0      0.0    11806.9    102.3   10/10

ratios fast / per-fragment (of the means):
mode             events    wall_time      latency    frag_lost     retransm
unreliable     0.000697      0.00263     1.000000       0.9989          nan
reliable       0.000693      0.00213     0.999797          nan       0.9985
"""

SCALE = """\
bench-scale: 1000 devices in 1000 m x 1000 m, unreliable unicast messages of 10000 bytes
sends                     100930 (refused 0)
delivery records          100930
delivered                 95783 (94.9 % of records)
simulator events          414721
simulated time            11.000 s
wall time: setup 0.050 s, run 0.567 s (run CPU time 0.545 s)
deliveries per wall s     169034
records per wall s        178117
events per wall s         731882
simulated s per wall s    19.412
peak RSS (VmHWM)          31.9 MB (VmRSS before Run 31.1 MB)
"""

SPECTRUM_HEAD = ("bench-scale: 10000 devices in 3162 m x 3162 m, unreliable broadcast "
                 "messages of 10000 bytes, Poisson 0.2 msg/s per device for 5 s (+1 s drain), "
                 "FastPath=true, radio energy on, seed 1 run 1\n")
SPECTRUM_K4 = SPECTRUM_HEAD + """\
sends                     10010 (refused 0)
delivery records          305383
delivered                 305383 (100.0 % of records)
not delivered: half-duplex 0, other non-loss 0
mean P_D of records       0.0006
fragments lost / sent     0.0006 (retransmissions 0)
mean latency (delivered)  0.016968 s
simulator events          918888
simulated time            6.000 s
wall time: setup 0.357 s, run 3.769 s (run CPU time 3.404 s)
deliveries per wall s     81031
records per wall s        81031
events per wall s         243818
simulated s per wall s    1.592
peak RSS (VmHWM)          60.2 MB (VmRSS before Run 56.4 MB)
"""
SPECTRUM_K0 = SPECTRUM_HEAD + """\
sends                     10010 (refused 0)
delivery records          305383
delivered                 305379 (100.0 % of records)
mean latency (delivered)  0.004061 s
simulator events          640787
simulated time            6.000 s
wall time: setup 0.378 s, run 1.090 s (run CPU time 1.023 s)
peak RSS (VmHWM)          59.8 MB (VmRSS before Run 56.3 MB)
"""

WIFI_SCALE = """\
bench-wifi-scale: 30 devices in 137 m x 137 m (625 m^2 each), 802.11a 6 Mbit/s at 16.02 dBm, unreliable unicast messages of 10000 bytes, Poisson 1 msg/s per device for 2 s (+1 s drain), energy on, seed 1
mean devices heard        7.87
sends                     64
delivery records          64
delivered                 64 (100.0 % of records)
fragments lost / sent     0.0000
mean latency (delivered)  0.021210 s
packets sent              512
simulator events          116147
events per packet sent    226.8
wall time: setup 0.021 s, run 0.288 s (run CPU time 0.288 s)
events per wall s         402726
simulated s per wall s    10.4021
peak RSS (VmHWM)          41.0 MB
memory per device         67.5 kB (VmRSS after set-up minus at start, / N)
"""

FOOTPRINT = """\
bench-footprint: 10000 devices, FedAvg over D2S, gaussian-mixture, model mlp:16, 20000 samples; 0.8 s to assemble
the assembly (heap bytes in use after each step):
  data + shards                                     120 B per device  (      1.1 MB in all)
  network (Build)                                  5847 B per device  (     55.8 MB in all)
  learners + protocol (Install)                    1972 B per device  (     18.8 MB in all)
  total                                            7939 B per device  (     75.7 MB in all)
idle per-device footprint 7819 B (network + learners + protocol)
the network's objects, built alone on 10000 further nodes:
  ns3::Node (and its device list)                   314 B per device  (      3.0 MB in all)
  ConstantPositionMobilityModel                      96 B per device  (      0.9 MB in all)
  energy source + compute model                    1632 B per device  (     15.6 MB in all)
  D2D radio + its energy model + channel            938 B per device  (      8.9 MB in all)
peak RSS (VmHWM) 323.1 MB; heap at start 44.5 MB
"""

FEDAVG = """\
FedAvg, 10 devices, 5 rounds x 1 epochs, MLP 784-128-10, data fraction 0.20; LibTorch loop and fedavg on 2 threads, PyTorch loop on 1
  median of 3               wall s     CPU s
  plain LibTorch loop         1.34      2.50
  plain PyTorch loop          2.89      2.80
  fedavg scenario             1.31      2.40
  last runs (seconds):
    libtorch setup=0.1 rounds=1.2 accuracy=0.7 total=1.3 blas=x
  fedavg / PyTorch loop   wall 0.454 (target <= 0.6)   CPU 0.857
  fedavg / LibTorch loop  wall 0.977 (target <= 1.05)  CPU 0.960
1000 devices, MLP 784-128-10, one round: 6.00 s wall, peak RSS 1210 MB (max over the children so far)
"""

ROOFLINE = """\
sgemm 1024 x 1024 x 1024: 102.3 GFLOP/s (peak reference)

MLP 784-128-10, batch 32: the step's matrix products through sgemm_ (process CPU time, median of 15)
  fwd  h = x W1^T      32 x  128 x  784     80.15 us    80.1 GFLOP/s
  roofline: 151.75 us per step, 86.3 GFLOP/s, 210880 samples/s

LibTorch, one thread: microseconds per step, throughput, fraction of the roofline
  0. sgemm_ alone                    151.75 us    210880 samples/s  100.0 %
  5. D2dLearner job                  264.57 us    120951 samples/s   57.4 %  (  -16.01 us)     0.0 page faults

Where a D2dLearner step's 264.57 us go:
     81.98 us   31.0 %  forward products (sgemm_)
    -16.01 us   -6.1 %  D2dLearner beyond the plain loop
"""

STARTUP = """\
fedavg --rounds=1, 5 runs each, interleaved; medians
  case                      wall s     CPU s
  floor (load only)          1.202     1.164
  fedavg, warm cache         1.729     1.679
  fedavg, no cache           2.392     2.339
  fedavg, cold cache         2.749     2.668
  warm cache / no cache   wall 0.723  CPU 0.718
  above the floor: warm cache 0.527 s wall, 0.515 s CPU

the floor loads 302 shared libraries; LD_DEBUG=statistics:
  runtime linker statistics:
  total startup time in dynamic loader: 86526925 cycles
"""

DEVICES = """\
devices  algorithm       model     data    rounds  wall_s  peak_MB  KB/device  load  note
   1000  fedavg          mlp       fmnist       1     3.8      450      450.0   1.7  
   1000  decentralized   mlp       fmnist       1     6.0      898      898.0   1.9  bound 1.2 x N x P x 4 + data = 708 MB
"""

BLAS = """\
fedavg --rounds=3 --threads=0, 1 runs each, interleaved
run reference blas=/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0 user_s=7.00 wall_s=7.50 accuracy=0.6916
run selected  blas=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 user_s=2.00 wall_s=2.40 accuracy=0.6916
median user CPU: reference 7.00 s, selected 2.00 s, reference / selected 3.50
"""

DISCOVERY = """\
  run unsupervised     N=25   iterations/edge 41     done 82     wall     8.73 s  reward clusters 10, largest 5, pairs 58
paradigm            N  E wall_I1_s wall_I2_s     iters    ms/iter   prep_s   x_sup  default_s def_x_sup
supervised         25  1      0.89      3.58    1,2001       1.35     0.89    1.00        7.6      1.00
unsupervised       25  2      4.88      8.73    2,82        48.18     4.78   35.79      486.6     63.87
regression        100  1      1.18     15.66    1,2001       7.24     1.18       -       37.4         -
growth unsupervised 25 -> 100 devices: per-iteration cost x 11.90; ordered pairs in reward clusters 58 -> 882
load at the end 1.08
"""

DISCOVERY_WHOLE = """\
whole supervised       N=10   iterations 5000   wall     1.58 s  x supervised   1.00
whole unsupervised     N=10   iterations 10000  wall    20.35 s  x supervised  12.88
kernel: no bench-kl-blocks in --bin; the roofline is not measured
"""

KL_BLOCKS = """\
bench-kl-blocks: d 50, blocks of 21 x 7 Gaussians, 2 threads at once, best of 3 rounds
gemm_gflops 77.53 (dgemm 1024 x 1024 x 1024 on each thread)
kernel_gflops 32.68 (41.3 % of gemm; 67.9 us a block on one thread's share, 4327977 divergences/s)
prepare_gflops 9.16 (27.3 us a Gaussian on one thread's share)
"""

CMFL = """\
cmfl-1          1 Mbit/s  round    73.200 s sim    569.30 MB/round  accuracy 0.361  wall    8.0 s
fedavg          1 Mbit/s  round     4.170 s sim     22.20 MB/round  accuracy 0.263  wall    6.0 s
cmfl-1         10 Mbit/s  round     7.330 s sim    569.30 MB/round  accuracy 0.361  wall   13.0 s
fedavg         10 Mbit/s  round     0.418 s sim     22.20 MB/round  accuracy 0.263  wall   12.0 s

algorithm  rate_mbps  round_time_s
"""

CI = """\
bench-ci: clean clones of /work/main at f879de2aa1b2, `bash .ci/run`, runs cold,warm; shared/ beside: /work/shared
ci cold: total 1050.1 s, build 571.2 s, tests 478.9 s; load average 0.1 at the start, 1.9 at the end
phases cold: packages 1.5 s, configure 9.8 s, build 560.0 s, tests 478.8 s
cache cold: 0 of 265 compilations were hits (0 %)
tests cold: 292 of 292 passed, 956.5 s summed over 292 tests
label cold quick: 300.2 s summed over 250 tests
compile cold: 1243.0 s in 265 sources
compile cold d2dlearn-learning: 323.7 s in 39 sources
compile cold (configure checks): 0.2 s in 1 sources
test cold analysis-sweep: 83.3 s
test cold gtest.D2dTorchRuntime.ExitRightAfterPoolStartDoesNotHang: 11.6 s
ci warm: total 500.0 s, build 60.5 s, tests 439.5 s; load average 1.9 at the start, 2.0 at the end
cache warm: 260 of 265 compilations were hits (98 %)
"""

TORCHSCRIPT = """\
bench-torchscript: BLAS x (y); CPU z; 1 LibTorch thread, 1 BLAS thread, jobs on 1 worker
  torchscript / built-in      wall 1.047   CPU 1.040   (target <= 1.15: met)

{"bench": "torchscript", "mlp_builtin_us": 250.5, "mlp_torchscript_us": 262.3, \
"mlp_ratio": 1.04711, "mlp_ratio_cpu": 1.04, "resnet_d2dlearn_ms": 146.24, \
"resnet_python_ms": 150, "resnet_ratio": 0.974933, "devices_10000_setup_bytes": 900.4, \
"devices_10000_holding_bytes": 1000, "devices_10000_own_bytes": 1087654, \
"devices_10000_released_bytes": 5000, \
"devices_10000_state_bytes": 1084200, "devices_1000_setup_bytes": 950, \
"devices_1000_holding_bytes": 1090000, "devices_1000_released_bytes": 5100, \
"devices_1000_state_bytes": 1084200}
"""


class Parsers(unittest.TestCase):
    def test_fast_path(self):
        rows = pn.parse_fast_path(FAST_PATH)
        self.assertEqual([r["mode"] for r in rows], ["unreliable", "reliable"])
        u, r = rows
        self.assertEqual((u["events_fast"], u["events_per_fragment"]), ("86", "123392"))
        self.assertEqual((u["wall_ms_fast"], u["wall_ms_per_fragment"]), ("0.100", "36.500"))
        self.assertEqual((u["events_ratio"], u["wall_ratio"]), ("6.97e-04", "2.74e-03"))
        self.assertEqual((r["retransm_fast"], r["retransm_per_fragment"]),
                         ("11789.0", "11806.9"))

    def test_scale(self):
        [r] = pn.parse_scale(SCALE)
        self.assertEqual((r["devices"], r["side_m"]), ("1000", "1000"))
        self.assertEqual((r["sends"], r["delivered"], r["events"]),
                         ("100930", "95783", "414721"))
        self.assertEqual(r["events_per_message"], "4.11")
        self.assertEqual((r["run_wall_s"], r["run_cpu_s"]), ("0.567", "0.545"))
        self.assertEqual(r["deliveries_per_wall_s"], "169034")
        self.assertEqual(r["events_per_wall_s"], "731882")
        self.assertEqual(r["peak_rss_mb"], "31.9")

    def test_spectrum(self):
        [r] = pn.parse_spectrum(SPECTRUM_K4)
        self.assertEqual((r["devices"], r["sends"], r["records"], r["events"]),
                         ("10000", "10010", "305383", "918888"))
        self.assertEqual((r["events_per_message"], r["events_per_row"], r["us_per_message"],
                          r["cpu_us_per_message"]), ("90.80", "2.98", "376.5", "340.06"))
        self.assertEqual((r["latency_s"], r["peak_rss_mb"]), ("0.016968", "60.2"))
        runs = [("range 100 m | immediate | K=0 (unlimited)", SPECTRUM_K0),
                ("range 100 m | immediate | K=4, interference", SPECTRUM_K4),
                ("range 100 m | scheduled | K=4, reuse hearing", SPECTRUM_K4)]
        table = pn.table(dict(parse=pn.parse_spectrum, table=pn.table_spectrum),
                         [dict(label=label, output=out) for label, out in runs])
        self.assertEqual([(t["workload"], t["devices"], t["access"], t["spectrum"])
                          for t in table],
                         [("range 100 m", "10000", "immediate", "K=0 (unlimited)"),
                          ("range 100 m", "10000", "immediate", "K=4, interference"),
                          ("range 100 m", "10000", "scheduled", "K=4, reuse hearing")])
        base, finite, alone = table
        self.assertEqual((base["events_per_message"], base["us_per_message"]),
                         ("63.02", "108.9"))
        self.assertEqual((finite["events_ratio"], finite["wall_ratio"], finite["cpu_ratio"],
                          finite["peak_ratio"]), ("1.44", "3.46", "3.33", "1.01"))
        self.assertEqual((finite["rows_per_message"], finite["latency_ms"]), ("30.5", "16.97"))
        for t in (base, alone):
            self.assertEqual((t["events_ratio"], t["wall_ratio"], t["cpu_ratio"],
                              t["peak_ratio"]), ("", "", "", ""))
        self.assertEqual(pn.parse_spectrum("nothing here\n"), [])

    def test_wifi_scale(self):
        [r] = pn.parse_wifi_scale(WIFI_SCALE)
        self.assertEqual((r["devices"], r["side_m"]), ("30", "137"))
        self.assertEqual((r["devices_heard"], r["sends"], r["delivered"]), ("7.87", "64", "64"))
        self.assertEqual((r["packets"], r["events"], r["events_per_packet"]),
                         ("512", "116147", "226.8"))
        self.assertEqual((r["run_wall_s"], r["run_cpu_s"]), ("0.288", "0.288"))
        self.assertEqual((r["events_per_wall_s"], r["sim_s_per_wall_s"]), ("402726", "10.4021"))
        self.assertEqual((r["peak_rss_mb"], r["kb_per_device"]), ("41.0", "67.5"))

    def test_footprint(self):
        rows = pn.parse_footprint(FOOTPRINT)
        self.assertEqual(len(rows), 10)
        by = {(r["section"], r["part"]): r for r in rows}
        self.assertEqual(by[("assembly", "network (Build)")]["bytes_per_device"], "5847")
        self.assertEqual(by[("assembly", "total")]["mb"], "75.7")
        self.assertEqual(by[("built alone", "ConstantPositionMobilityModel")]["bytes_per_device"],
                         "96")
        self.assertEqual(by[("summary", "idle footprint")]["bytes_per_device"], "7819")
        # 323.1 MB over 10,000 devices: 323.1 x 1048576 / 10000 = 33879 B.
        self.assertEqual(by[("summary", "peak RSS")]["bytes_per_device"], "33879")
        self.assertTrue(all(r["devices"] == "10000" for r in rows))

    def test_fedavg(self):
        [r] = pn.parse_fedavg(FEDAVG)
        self.assertEqual((r["devices"], r["rounds"], r["data_fraction"], r["repeats"]),
                         ("10", "5", "0.20", "3"))
        self.assertEqual((r["libtorch_wall_s"], r["pytorch_wall_s"], r["fedavg_wall_s"]),
                         ("1.34", "2.89", "1.31"))
        self.assertEqual((r["fedavg_over_pytorch_wall"], r["fedavg_over_libtorch_wall"]),
                         ("0.454", "0.977"))
        self.assertEqual((r["fedavg_over_pytorch_cpu"], r["fedavg_over_libtorch_cpu"]),
                         ("0.857", "0.960"))
        self.assertEqual((r["scale_1000_wall_s"], r["scale_1000_peak_mb"]), ("6.00", "1210"))
        self.assertNotIn("scale_1000_wall_s", pn.parse_fedavg(FEDAVG.rsplit("1000", 1)[0]
                                                              .rsplit("\n", 1)[0])[0])

    def test_roofline(self):
        rows = pn.parse_roofline(ROOFLINE)
        by = {(r["section"], r["what"]): r for r in rows}
        self.assertEqual(by[("peak", "sgemm 1024^3 GFLOP/s")]["value"], "102.3")
        self.assertEqual(by[("roofline", "matrix products per step")]["us"], "151.75")
        self.assertEqual(by[("step", "5. D2dLearner job")]["percent"], "57.4")
        self.assertEqual(by[("step", "0. sgemm_ alone")]["value"], "210880")
        neg = by[("breakdown", "D2dLearner beyond the plain loop")]
        self.assertEqual((neg["us"], neg["percent"]), ("-16.01", "-6.1"))
        self.assertEqual(len(rows), 6)  # the products' rows are not the table's

    def test_startup(self):
        rows = pn.parse_startup(STARTUP)
        self.assertEqual([r["case"] for r in rows],
                         ["floor (load only)", "fedavg, warm cache", "fedavg, no cache",
                          "fedavg, cold cache", "warm cache / no cache (ratio)",
                          "above the floor (warm cache - floor)"])
        self.assertEqual((rows[1]["wall_s"], rows[1]["cpu_s"]), ("1.729", "1.679"))
        self.assertEqual((rows[4]["wall_s"], rows[5]["wall_s"]), ("0.723", "0.527"))
        self.assertEqual({r["floor_shared_libraries"] for r in rows}, {"302"})

    def test_devices(self):
        rows = pn.parse_devices(DEVICES)
        self.assertEqual([(r["algorithm"], r["wall_s"], r["peak_mb"]) for r in rows],
                         [("fedavg", "3.8", "450"), ("decentralized", "6.0", "898")])
        self.assertEqual(rows[0]["note"], "")
        self.assertEqual(rows[1]["note"], "bound 1.2 x N x P x 4 + data = 708 MB")

    def test_discovery_paradigms(self):
        rows = pn.parse_discovery_paradigms(DISCOVERY)
        self.assertEqual([(r["paradigm"], r["devices"]) for r in rows],
                         [("supervised", "25"), ("unsupervised", "25"), ("regression", "100"),
                          ("unsupervised", "25 -> 100")])
        u = rows[1]
        self.assertEqual((u["edges"], u["ms_per_iteration"], u["preparation_s"],
                          u["x_supervised_per_iteration"], u["default_run_s"],
                          u["default_x_supervised"]),
                         ("2", "48.18", "4.78", "35.79", "486.6", "63.87"))
        self.assertEqual((rows[2]["x_supervised_per_iteration"], rows[2]["default_x_supervised"]),
                         ("-", "-"))
        self.assertEqual((u["reward_pairs"], rows[0]["reward_pairs"]), ("58", ""))
        self.assertEqual((rows[3]["growth_per_iteration"], rows[3]["reward_pairs"],
                          rows[3]["ms_per_iteration"]), ("x 11.90", "58 -> 882", ""))

    def test_discovery_whole(self):
        rows = pn.parse_discovery_whole(DISCOVERY_WHOLE)
        self.assertEqual([(r["paradigm"], r["devices"], r["rl_iterations"], r["wall_s"],
                           r["x_supervised"]) for r in rows],
                         [("supervised", "10", "5000", "1.58", "1.00"),
                          ("unsupervised", "10", "10000", "20.35", "12.88")])

    def test_kl_blocks(self):
        # 32.68 / 77.53 = 0.4215...: the ratio is recomputed, not read off the percentage.
        self.assertEqual(pn.parse_kl_blocks(KL_BLOCKS),
                         [dict(d="50", block="21 x 7", threads="2", us_per_block="67.9",
                               divergences_per_s="4.33e+06", kernel_gflops="32.7",
                               dgemm_gflops="77.5", kernel_x_dgemm="0.42",
                               prepare_gflops="9.2")])

    def test_cmfl(self):
        rows = pn.parse_cmfl(CMFL)
        self.assertEqual(len(rows), 4)
        table = pn.pivot_cmfl(rows)
        self.assertEqual([t["algorithm"] for t in table], ["cmfl-1", "fedavg"])
        self.assertEqual((table[0]["round_s_1_mbps"], table[0]["round_s_10_mbps"]),
                         ("73.200", "7.330"))
        self.assertEqual((table[0]["mbytes_per_round"], table[0]["accuracy"]),
                         ("569.30", "0.361"))
        self.assertEqual((table[0]["wall_s"], table[1]["wall_s"]), ("8.0-13.0", "6.0-12.0"))
        self.assertEqual(list(table[0]), ["algorithm", "round_s_1_mbps", "round_s_10_mbps",
                                          "mbytes_per_round", "accuracy", "wall_s"])

    def test_blas(self):
        rows = pn.parse_blas(BLAS)
        self.assertEqual([r["case"] for r in rows],
                         ["reference", "selected", "median ratio reference / selected"])
        self.assertEqual(rows[0]["blas"], "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0")
        self.assertEqual((rows[1]["user_s"], rows[1]["wall_s"], rows[1]["accuracy"]),
                         ("2.00", "2.40", "0.6916"))
        self.assertEqual(rows[2]["user_s"], "3.50")

    def test_ci(self):
        rows = pn.parse_ci(CI)
        self.assertEqual([(r["run"], r["part"], r["seconds"], r["count"]) for r in rows], [
            ("cold", "`.ci/run`, in all", "1050.1", ""),
            ("cold", "build (set-up, configure, compile, link)", "571.2", ""),
            ("cold", "tests (`ctest -j2`)", "478.9", ""),
            ("cold", "setup.sh phase: packages", "1.5", ""),
            ("cold", "setup.sh phase: configure", "9.8", ""),
            ("cold", "setup.sh phase: build", "560.0", ""),
            ("cold", "setup.sh phase: tests", "478.8", ""),
            ("cold", "compiler cache: hits (count) of compilations", "", "0 of 265"),
            ("cold", "tests, each one's time summed (292 of 292 passed)", "956.5", "292"),
            ("cold", "tests labelled quick, summed", "300.2", "250"),
            ("cold", "compile: all sources", "1243.0", "265"),
            ("cold", "compile: d2dlearn-learning", "323.7", "39"),
            ("cold", "compile: (configure checks)", "0.2", "1"),
            ("cold", "test: analysis-sweep", "83.3", ""),
            ("cold", "test: gtest.D2dTorchRuntime.ExitRightAfterPoolStartDoesNotHang", "11.6",
             ""),
            ("warm", "`.ci/run`, in all", "500.0", ""),
            ("warm", "build (set-up, configure, compile, link)", "60.5", ""),
            ("warm", "tests (`ctest -j2`)", "439.5", ""),
            ("warm", "compiler cache: hits (count) of compilations", "", "260 of 265")])

    def test_ci_former_output(self):
        # the former bench-ci.py measured one run and wrote no run word: "clean clone"
        rows = pn.parse_ci("ci: total 1234.4 s, build 453.6 s, tests 780.8 s; load average 3.1 "
                           "at the end\ntests: 380 of 380 passed, 1549.9 s summed over 380 "
                           "tests\ncompile d2dlearn: 94.6 s in 5 sources\n"
                           "test cli-flag-scope: 126.0 s\n")
        self.assertEqual([(r["run"], r["part"], r["seconds"], r["count"]) for r in rows], [
            ("clean clone", "`.ci/run`, in all", "1234.4", ""),
            ("clean clone", "build (set-up, configure, compile, link)", "453.6", ""),
            ("clean clone", "tests (`ctest -j2`)", "780.8", ""),
            ("clean clone", "tests, each one's time summed (380 of 380 passed)", "1549.9",
             "380"),
            ("clean clone", "compile: d2dlearn", "94.6", "5"),
            ("clean clone", "test: cli-flag-scope", "126.0", "")])

    def test_torchscript(self):
        rows = pn.parse_torchscript(TORCHSCRIPT)
        by = {(r["figure"], r["what"], r["unit"]): r for r in rows}
        ratio = by[("(a) MLP 784-128-10 step", "torchscript / built-in", "ratio (wall)")]
        self.assertEqual((ratio["value"], ratio["target"]), ("1.047", "<= 1.15"))
        self.assertEqual(by[("(b) ResNet-20 step", "d2dlearn (D2dLearner, torchscript)",
                             "ms wall")]["value"], "146.24")
        self.assertEqual(by[("(b) ResNet-20 step", "python3-torch (torch-step.py)",
                             "ms wall")]["value"], "150.00")
        self.assertEqual(by[("(b) ResNet-20 step", "d2dlearn / python", "ratio (wall)")]
                         ["target"], "<= 1.0")
        devices = [r for r in rows if r["figure"].startswith("(c)")]
        # 1,000 devices: no own_bytes (an older output): no row for it.
        self.assertEqual([r["figure"] for r in (devices[0], devices[4])],
                         ["(c) ResNet-20, 1,000 idle devices",
                          "(c) ResNet-20, 10,000 idle devices"])
        self.assertEqual([r["value"] for r in devices[4:]],
                         ["1084200", "900", "1000", "1087654", "5000"])
        self.assertEqual(len(rows), 7 + 9)  # absent keys (no side measurements) give no row

    def test_empty_output_gives_no_rows(self):
        for parse in (pn.parse_fast_path, pn.parse_roofline, pn.parse_torchscript, pn.parse_startup,
                      pn.parse_devices, pn.parse_cmfl, pn.parse_blas, pn.parse_ci,
                      pn.parse_discovery_paradigms, pn.parse_discovery_whole,
                      pn.parse_kl_blocks):
            self.assertEqual(parse("nothing here\n"), [])


class KeptOutputs(unittest.TestCase):
    def test_committed_tables_are_the_kept_outputs_parsed(self):
        outdir = os.path.join(TOP, "doc", "data", "perf")
        specs = pn.benches(os.path.join(TOP, "build", "bin"))
        kept = [n for n in specs if os.path.exists(os.path.join(outdir, n + ".out.json"))]
        for name in kept:
            with open(os.path.join(outdir, name + ".out.json")) as f:
                kept_output = json.load(f)
            runs = kept_output["runs"]
            with open(os.path.join(outdir, name + ".csv")) as f:
                committed = list(csv.DictReader(f))
            again = list(csv.DictReader(io.StringIO(pn.to_csv(pn.table(specs[name], runs)))))
            self.assertEqual(committed, again, name)
            # The stamp too (its commands' paths from the repository, wherever measured).
            with open(os.path.join(outdir, name + ".md")) as f:
                self.assertEqual(f.read(), pn.stamp_md(name, specs[name], kept_output), name)

    def test_a_note_is_said_in_the_stamp(self):
        kept = dict(stamp=dict(machine="m", date="d", commit="c"), settings="s",
                    load_start="1.0", load_end="2.0", wall_s=3.0,
                    runs=[dict(label="x", argv=[pn.TOP + "/build/bin/bench-scale"], output="")])
        spec = dict(settings="s")
        self.assertNotIn("Note:", pn.stamp_md("x", spec, kept))
        kept["note"] = "a build ran beside it."
        self.assertTrue(pn.stamp_md("x", spec, kept).endswith(
            "measured together). Note: a build ran beside it.\n"))

    def test_commands_name_paths_from_the_repository(self):
        # Measured in another worktree: the stamp still shows bench/... and build/...
        self.assertEqual(pn.command(["/usr/bin/python3", "/work/other/bench/bench-blas.py",
                                     "--bin=/work/other/build/bin/fedavg", "--runs=2",
                                     pn.TOP + "/build/bin/bench-scale", "--x=/usr/lib/y"]),
                         "/usr/bin/python3 bench/bench-blas.py --bin=build/bin/fedavg --runs=2 "
                         "build/bin/bench-scale --x=/usr/lib/y")


if __name__ == "__main__":
    unittest.main()
