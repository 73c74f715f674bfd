"""energy.csv: its components and radio states, and check energy (documented components of the
devices, energy_j >= 0, the battery: remaining_j against initialEnergyJ less the device's
energy so far). Its power_w: module power; its periods of draw: modules partition and
periods.
"""

from d2dlearn_analysis.audit.core import is_number

COMPONENTS = ["radio_tx", "radio_rx", "radio_idle", "compute", "d2s_tx", "d2s_rx", "d2s_idle"]
# The radios' sleep states, documented components that need the sleep attributes in run.json
# (no row of them without ns3::D2dRadioEnergyModel::SleepPowerW in its parameters).
SLEEP_COMPONENTS = ["radio_sleep", "radio_transition", "d2s_sleep", "d2s_transition"]
RADIO_PREFIXES = ("radio", "d2s")
# A radio's exclusive states: at every time of the run exactly one of them (tx and rx may
# overlap when ns3::D2dRadio::HalfDuplex is false, on the channel backend).
RADIO_STATES = ("tx", "rx", "idle", "sleep", "transition")
RADIO_MODEL = "ns3::D2dRadioEnergyModel::"


def radio_state(component):
    """(prefix, state) of a radio component (radio_tx -> ("radio", "tx")), else None."""
    prefix, _, state = component.partition("_")
    if prefix in RADIO_PREFIXES and state in RADIO_STATES:
        return prefix, state
    return None


def per_device(a, name, column):
    """--deviceProfiles' column (or --computeSpread's speeds) as run.json lists it:
    (the list, None), ({}, None) when every device has the run's one value, or
    (None, why) when the devices differ and run.json does not list them (over
    MAX_RECORDED devices)."""
    values = a.params.get(name)
    if isinstance(values, list) and all(is_number(v) for v in values):
        return values, None
    if a.params.get("deviceProfiles") and column in device_profile_columns(a):
        return None, ("--deviceProfiles sets each device's %s and run.json lists none (over "
                      "10,000 devices)" % column)
    return {}, None


def device_profile_columns(a):
    """The header of --deviceProfiles' file, if it can be read (else every column)."""
    path = a.params.get("deviceProfiles")
    try:
        with open(path, newline="") as fh:
            return [c.strip() for c in fh.readline().split(",")]
    except (OSError, TypeError, UnicodeDecodeError):
        return ["flops_per_second", "busy_power_w", "initial_energy_j"]


def battery_tolerance(initial_j, rows):
    """The battery's rounding after rows of a device: its float rounding (1e-14 of the
    initial energy a row) and one nanosecond of a 1 W draw a row (the source and the rows
    see the periods rounded to the simulator's nanosecond)."""
    return (1e-14 * initial_j + 1e-9) * (rows + 10)


def check_energy(a, energy):
    init_of, why = per_device(a, "initialEnergyJPerDevice", "initial_energy_j")
    init = a.params.get("initialEnergyJ")
    source = a.params.get("energySource", "basic")
    basic = source in ("linear", "basic") and isinstance(init, (int, float)) and why is None
    if why:
        a.skip("energy.csv", "energy", why)

    def initial(node):
        try:
            return init_of[int(node)] if init_of else init
        except (IndexError, ValueError, TypeError):
            return init
    # GenericBatteryModel's remaining energy is (capacity - charge drawn) x its present
    # voltage, which recovers when a draw stops: not an integral of the draws.
    monotone = source != "generic"
    devices = a.params.get("nDevices")
    spent = {}
    count = {}
    last = {}
    for r in energy:
        where = "energy.csv:%d" % r["_line"]
        e, rem, node = r["energy_j#"], r["remaining_j#"], r["node"]
        a.expect(r["component"] in COMPONENTS + SLEEP_COMPONENTS, where, "energy",
                 "a documented component", "|".join(COMPONENTS + SLEEP_COMPONENTS),
                 r["component"])
        if isinstance(devices, int) and r.get("node#") is not None:
            # The server is mains powered: no energy model, no rows.
            a.expect(0 <= r["node#"] < devices, where, "energy", "a device's row (node "
                     "0..%d)" % (devices - 1), "0..%d" % (devices - 1), r["node#"])
        if e is None or rem is None:
            continue
        a.expect(e >= 0, where, "energy", "energy_j >= 0", ">= 0", e)
        a.expect(rem >= 0, where, "energy", "remaining_j >= 0", ">= 0", rem)
        if node in last and monotone:
            a.expect(rem <= last[node][1], where, "energy",
                     "node %s's remaining_j non-increasing" % node, "<= %r" % last[node][1],
                     rem)
        spent[node] = spent.get(node, 0.0) + e
        # --traces=standard: a row sums `periods` periods of draw, each rounded.
        count[node] = count.get(node, 0) + (r.get("periods#") or 1)
        last[node] = (r["_line"], rem)
        if basic:
            e0 = initial(node)
            tol = battery_tolerance(e0, count[node])
            a.expect(rem <= max(0.0, e0 - spent[node]) + tol, where, "energy",
                     "node %s: remaining_j <= initialEnergyJ - its energy so far" % node,
                     "<= %r" % (e0 - spent[node]), rem)
    if basic:
        for node, (line, rem) in sorted(last.items()):
            e0 = initial(node)
            tol = battery_tolerance(e0, count[node])
            a.expect_close("energy.csv:%d" % line, "energy",
                           "node %s's total: last remaining_j = initialEnergyJ - sum of its "
                           "energy_j" % node, max(0.0, e0 - spent[node]), rem, rel=0.0,
                           abs_tol=tol)
