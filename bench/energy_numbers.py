#!/usr/bin/python3
"""Each scenario's default run, energy by component, with the radio powers before and now.

    bench/doc-numbers.py --no-main-job --energy     (its --bin, --out and stamp)

Runs every scenario program on its defaults (--quiet) twice:
- now: the default radio profile (ns3-wifi: transmit 1.14 W, receive 0.939 W, idle 0.819 W)
  with the D2D radios off where the protocol sends no D2D messages;
- former: d2dlearn's radio powers before the profiles (the Power model, transmit
  0.1 W / 0.5 + 0.1 W = 0.3 W at 20 dBm, receive 0.1 W, idle 0.819 W, every radio on), as
  custom powers (--radioProfile=custom ... --allowUnorderedRadioPowers=true, and
  --d2dRadio=on where the run switched its D2D radios off);
and sums energy.csv by component. Writes into OUT/energy-by-component/ (default
doc/data): results.csv (program, powers, component, energy_j, simulated_time_s), table.md
(the manual's table: J per component and in all, the share of idle listening) and stamp.md
(machine, date, commit, the commands). tests/analysis/test_energy_numbers.py recomputes the
table from results.csv.
"""

import csv
import json
import os
import subprocess
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = ["fedavg", "cmfl", "consensus", "bayes-consensus", "graph-discovery", "d2d-exchange"]
FORMER = ["--radioProfile=custom", "--ns3::D2dRadioEnergyModel::Model=Power",
          "--ns3::D2dRadioEnergyModel::PaEfficiency=0.5",
          "--ns3::D2dRadioEnergyModel::TxCircuitPowerW=0.1",
          "--ns3::D2dRadioEnergyModel::RxPowerW=0.1", "--allowUnorderedRadioPowers=true"]
# The table's columns: (component, heading).
COLUMNS = [("radio_tx", "D2D transmit"), ("radio_rx", "D2D receive"), ("radio_idle", "D2D idle"),
           ("d2s_tx", "D2S transmit"), ("d2s_rx", "D2S receive"), ("d2s_idle", "D2S idle"),
           ("compute", "compute")]
POWERS = {"former": "former (0.3 / 0.1 / 0.819 W, radios always on)",
          "now": "now (ns3-wifi, unused radios off)"}


def run(bindir, program, args, out):
    """Run program into out; return (energy per component, simulated time, run.json params)."""
    subprocess.run([os.path.join(bindir, program), "--quiet", "--outDir=" + out] + args,
                   check=True, stdout=subprocess.DEVNULL)
    energy = {}
    with open(os.path.join(out, "energy.csv"), newline="") as f:
        for row in csv.DictReader(f):
            energy[row["component"]] = energy.get(row["component"], 0.0) + float(row["energy_j"])
    with open(os.path.join(out, "run.json")) as f:
        runj = json.load(f)
    return energy, runj["simulated_time_s"], runj["parameters"]


def measure(bindir):
    """The rows of results.csv: (program, powers, component, energy_j, simulated_time_s)."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="d2dlearn-energy-numbers.") as tmp:
        for program in PROGRAMS:
            now, t_now, params = run(bindir, program, [], os.path.join(tmp, program + "-now"))
            former_args = FORMER + (["--d2dRadio=on"] if params.get("d2dRadioOff") else [])
            former, t_former, _ = run(bindir, program, former_args,
                                      os.path.join(tmp, program + "-former"))
            for powers, energy, t in (("former", former, t_former), ("now", now, t_now)):
                for component in sorted(energy):
                    rows.append({"program": program, "powers": powers, "component": component,
                                 "energy_j": repr(energy[component]),
                                 "simulated_time_s": repr(t)})
            print("energy-numbers: %s: %.1f J now, %.1f J former"
                  % (program, sum(now.values()), sum(former.values())), flush=True)
    return rows


def table(rows):
    """The manual's Markdown table from results.csv's rows."""
    by = {}
    times = {}
    for r in rows:
        key = (r["program"], r["powers"])
        by.setdefault(key, {})[r["component"]] = float(r["energy_j"])
        times[key] = float(r["simulated_time_s"])
    head = ["program", "radio powers", "simulated (s)"] + [h + " (J)" for _, h in COLUMNS] + [
        "total (J)", "idle listening (%)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for program in PROGRAMS:
        for powers in ("former", "now"):
            energy = by.get((program, powers))
            if energy is None:
                continue
            total = sum(energy.values())
            idle = energy.get("radio_idle", 0.0) + energy.get("d2s_idle", 0.0)
            cells = [program, POWERS[powers], "%.1f" % times[(program, powers)]]
            cells += ["%.1f" % energy.get(c, 0.0) for c, _ in COLUMNS]
            cells += ["%.1f" % total, "%.0f" % (100.0 * idle / total) if total > 0 else "-"]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write(rows, outdir, stamp):
    folder = os.path.join(outdir, "energy-by-component")
    os.makedirs(folder, exist_ok=True)

    def atomic(name, text):
        path = os.path.join(folder, name)
        with open(path + ".tmp", "w", newline="") as f:
            f.write(text)
        os.replace(path + ".tmp", path)

    fields = ["program", "powers", "component", "energy_j", "simulated_time_s"]
    text = ",".join(fields) + "\n" + "".join(
        ",".join(r[k] for k in fields) + "\n" for r in rows)
    atomic("results.csv", text)
    atomic("table.md", "<!-- Written by bench/energy_numbers.py; do not edit: re-run it. -->\n"
           + table(rows))
    atomic("stamp.md", "<!-- Written by bench/energy_numbers.py; do not edit: re-run it. -->\n"
           "Measured by `bench/doc-numbers.py --no-main-job --energy` (each program of %s on "
           "its defaults with `--quiet`, then with `%s` (and `--d2dRadio=on` where the first "
           "run switched its D2D radios off), energy.csv summed by component) on %s, %s, "
           "commit %s.\n" % (", ".join(PROGRAMS), " ".join(FORMER), stamp["machine"],
                             stamp["date"], stamp["commit"]))
