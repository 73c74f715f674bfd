"""energy.csv's power_w (check power): energy_j = power_w x duration_s on every row, and each
radio row's power_w the state's power from run.json's parameters (RadioPowers: the channel
backend's D2dRadioEnergyModel, the Wi-Fi backend's WifiRadioEnergyModel), each compute row's
the compute model's.
"""

from d2dlearn_analysis.audit.core import REL, close
from d2dlearn_analysis.audit.energy import (
    RADIO_MODEL, RADIO_PREFIXES, RADIO_STATES, per_device, radio_state)
from d2dlearn_analysis.audit.environment import dbm_w

# The Wi-Fi backend's radios (--backend=wifi): ns-3's WifiRadioEnergyModel (IdleCurrentA
# 0.273 A, CcaBusyCurrentA 0.273 A, SwitchingCurrentA 0.273 A, RxCurrentA 0.313 A) with its
# LinearWifiTxCurrentModel (I = P / (V eta) + I_idle, Voltage 3 V, Eta 0.10, IdleCurrent
# 0.273333 A), the defaults from ns-3.37 to 3.48, drawn at the source's supply voltage (3 V:
# D2dEnergySource's SupplyVoltageV, BasicEnergySource's BasicEnergySupplyVoltageV). run.json
# records none of them: command-line arguments that change them skip the power check.
WIFI_VOLTAGE_V = 3.0
# A PHY sleeps at SleepCurrentA 0.033 A (a radio_sleep row; no transition: WifiPhy sleeps
# and resumes at once).
WIFI_CURRENT_A = {"idle": 0.273, "rx": 0.313, "sleep": 0.033}
WIFI_TX_ETA = 0.10
WIFI_TX_IDLE_A = 0.273333
WIFI_TX_VOLTAGE_V = 3.0
WIFI_UNRECORDED = ("WifiRadioEnergyModel", "WifiTxCurrentModel", "SupplyVoltage")


def ns3_time_s(value):
    """Seconds of an ns-3 Time attribute as run.json records it ("+1e+08ns", "2ms"; a bare
    number is seconds, as ns-3 reads it), None if it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip()
    for unit, scale in (("min", 60.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9),
                        ("ps", 1e-12), ("fs", 1e-15), ("s", 1.0), ("h", 3600.0),
                        ("d", 86400.0)):
        if text.endswith(unit):
            text, factor = text[:-len(unit)], scale
            break
    else:
        factor = 1.0
    try:
        return float(text) * factor
    except ValueError:
        return None


class RadioPowers:
    """What each radio state of a run draws, from run.json (check power), and which states
    may draw 0 W (they write no rows: check partition cannot hold).

    exact[(prefix, state)]  the state's constant draw, W
    unit[prefix]            the draw of one reception, W (rx = k x unit, k >= 1 receptions)
    floor[prefix]           a lower bound of the transmit draw, W (first-order model)
    skip[(prefix, state)]   why that state's power is not checked
    zero                    reasons some state of the radios may draw 0 W
    wifi                    the Wi-Fi backend (rows are energy / duration of its model)
    """

    def __init__(self, a):
        p = a.params
        self.wifi = p.get("backend") == "wifi"
        self.exact, self.unit, self.floor, self.skip, self.zero = {}, {}, {}, {}, []
        self.receivers = p.get("nDevices") if isinstance(p.get("nDevices"), int) else None
        dbm = {"radio": p.get("txPowerDbm", p.get("ns3::D2dRadio::TxPowerDbm")),
               "d2s": p.get("d2sTxPowerDbm")}
        for prefix in RADIO_PREFIXES:
            if not isinstance(dbm[prefix], (int, float)) or isinstance(dbm[prefix], bool):
                self.skip[(prefix, "tx")] = "run.json records no transmit power (%s)" % (
                    "txPowerDbm" if prefix == "radio" else "d2sTxPowerDbm")
                dbm[prefix] = None
        sleep = self.number(p, RADIO_MODEL + "SleepPowerW")
        if self.wifi:
            pass  # ns-3's currents (wifi_powers): a sleeping PHY, no transition
        elif sleep is None:
            for prefix in RADIO_PREFIXES:
                for state in ("sleep", "transition"):
                    self.skip[(prefix, state)] = None  # no row may be of it
        else:
            transition_j = self.number(p, RADIO_MODEL + "SleepTransitionEnergyJ")
            transition_s = ns3_time_s(p.get(RADIO_MODEL + "SleepTransitionTime"))
            for prefix in RADIO_PREFIXES:
                self.exact[(prefix, "sleep")] = sleep
                if transition_j is None or transition_s is None:
                    self.skip[(prefix, "transition")] = (
                        "run.json lacks SleepTransitionEnergyJ or SleepTransitionTime")
                else:  # the ramps' energy over their time on top of the sleep draw
                    self.exact[(prefix, "transition")] = sleep + (
                        transition_j / transition_s if transition_s > 0 else 0.0)
            if sleep == 0:
                self.zero.append("SleepPowerW is 0: sleep writes no rows")
        if self.wifi:
            self.wifi_powers(a, dbm)
        else:
            self.channel_powers(a, dbm)

    @staticmethod
    def number(params, key):
        value = params.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return float(value)

    def skip_all(self, reason):
        for prefix in RADIO_PREFIXES:
            for state in RADIO_STATES:
                if self.skip.get((prefix, state), "") is not None:  # keep "no row may be"
                    self.skip[(prefix, state)] = reason

    def wifi_powers(self, a, dbm):
        p = a.params
        source = p.get("energySource", "linear")
        command = str(p.get("commandLine", ""))
        changed = [w for w in WIFI_UNRECORDED if w in command]
        if source not in ("linear", "basic"):
            self.skip_all("--backend=wifi draws current x the source's voltage, which varies "
                          "with --energySource=%s" % source)
            return
        if changed:
            self.skip_all("--backend=wifi: the command line sets %s, which run.json does not "
                          "record" % ", ".join(changed))
            return
        v = WIFI_VOLTAGE_V
        for prefix in RADIO_PREFIXES:
            self.exact[(prefix, "idle")] = WIFI_CURRENT_A["idle"] * v
            # One PHY receives one frame at a time: RX draws RxCurrentA, never a multiple.
            self.exact[(prefix, "rx")] = WIFI_CURRENT_A["rx"] * v
            self.exact[(prefix, "sleep")] = WIFI_CURRENT_A["sleep"] * v
            self.skip[(prefix, "transition")] = None  # WifiPhy has no ramps: no such row
            if dbm[prefix] is not None:
                self.exact[(prefix, "tx")] = (dbm_w(dbm[prefix]) / (WIFI_TX_VOLTAGE_V
                                                                     * WIFI_TX_ETA)
                                              + WIFI_TX_IDLE_A) * v

    def channel_powers(self, a, dbm):
        p = a.params
        model = p.get(RADIO_MODEL + "Model")
        get = {k: self.number(p, RADIO_MODEL + k) for k in (
            "PaEfficiency", "TxCircuitPowerW", "RxPowerW", "IdlePowerW", "ElecJPerBit")}
        if model not in ("Power", "Constant", "FirstOrder"):
            self.skip_all("run.json's %sModel is %r, none of Power, Constant, FirstOrder"
                          % (RADIO_MODEL, model))
            self.zero.append("the radio model is unknown")
            return
        idle = get["IdlePowerW"]
        rate = {"radio": self.number(p, "linkRateBps"), "d2s": self.number(p, "d2sLinkRateBps")}
        for prefix in RADIO_PREFIXES:
            if idle is None:
                self.skip[(prefix, "idle")] = "run.json lacks %sIdlePowerW" % RADIO_MODEL
            else:
                self.exact[(prefix, "idle")] = idle
            if model == "FirstOrder":
                elec = get["ElecJPerBit"]
                if elec is None or rate[prefix] is None:
                    self.skip[(prefix, "rx")] = self.skip[(prefix, "tx")] = (
                        "run.json lacks ElecJPerBit or the %s link rate" % prefix)
                    continue
                self.unit[prefix] = rate[prefix] * elec
                # rate (E_elec + eps_amp d^2), d the distance to the (farthest) receiver of
                # that transmission, which no trace records: only the d = 0 bound.
                self.floor[prefix] = rate[prefix] * elec
                a.skip("energy.csv", "power", "%s_tx with the first-order model: only >= "
                       "link rate x ElecJPerBit (the distance term eps_amp d^2 needs the "
                       "receiver's distance, which no trace records)" % prefix)
            else:
                if get["RxPowerW"] is None:
                    self.skip[(prefix, "rx")] = "run.json lacks %sRxPowerW" % RADIO_MODEL
                else:
                    self.unit[prefix] = get["RxPowerW"]
                circuit, eta = get["TxCircuitPowerW"], get["PaEfficiency"]
                if model == "Constant" and circuit is not None:
                    self.exact[(prefix, "tx")] = circuit
                elif model == "Power" and None not in (circuit, eta) and eta > 0 \
                        and dbm[prefix] is not None:
                    self.exact[(prefix, "tx")] = dbm_w(dbm[prefix]) / eta + circuit
                elif (prefix, "tx") not in self.skip:
                    self.skip[(prefix, "tx")] = ("run.json lacks TxCircuitPowerW or "
                                                 "PaEfficiency > 0")
        if idle == 0:
            self.zero.append("IdlePowerW is 0 (--radioProfile=first-order or a custom value): "
                             "idle listening writes no rows")
        if any(u == 0 for u in self.unit.values()):
            self.zero.append("a reception draws 0 W: receptions write no rows")
        if any(self.exact.get((pre, "tx")) == 0 for pre in RADIO_PREFIXES) \
                or any(f == 0 for f in self.floor.values()):
            self.zero.append("transmitting may draw 0 W: transmissions write no rows")


def check_power(a, energy):
    """energy_j = power_w x duration_s on every row; each radio row's power_w the state's
    power from run.json (RadioPowers)."""
    standard = a.run.get("traces") == "standard"
    powers = RadioPowers(a)
    # The Wi-Fi rows' energy is the increase of the model's running total (about the sum of
    # its radio's rows), rounded to that total's ulp: per (node, prefix), the energy of its
    # rows stamped up to each stamp (a --traces=standard flush is in no time order).
    cumulative = {}
    if powers.wifi:
        for r in energy:
            state = radio_state(r["component"])
            if state is not None and r.get("energy_j#") is not None:
                by = cumulative.setdefault((r["node"], state[0]), {})
                by[r["sim_time_ns"]] = by.get(r["sim_time_ns"], 0.0) + r["energy_j#"]
        for by in cumulative.values():
            run = 0.0
            for stamp in sorted(by, key=lambda t: -1 if t is None else t):
                run += by[stamp]
                by[stamp] = run
    for r in energy:
        where = "energy.csv:%d" % r["_line"]
        e, w, d = r.get("energy_j#"), r.get("power_w#"), r.get("duration_s#")
        if e is None or w is None or d is None:
            continue
        seconds = d / 1e9
        a.expect_close(where, "power", "energy_j = power_w x duration_s", w * seconds, e)
        state = radio_state(r["component"])
        if state is None:
            if r["component"] == "compute" and seconds > 0:
                check_compute_power(a, r, w, standard)
            continue
        prefix, name = state
        reason = powers.skip.get(state, "")
        if reason is None:  # a state the run cannot have
            a.expect(False, where, "power", "a %s row needs %sSleepPowerW in run.json's "
                     "parameters" % (r["component"], RADIO_MODEL), "no row", r["component"])
            continue
        if reason:
            a.skip("energy.csv", "power", "%s: %s" % (r["component"], reason))
            continue
        if seconds <= 0:
            continue  # no power to compare (check partition: duration_s > 0)
        if powers.wifi:
            # power_w = the model's energy increase / duration, each increase the difference
            # of its running total: 4 ulps of that total a period.
            total = cumulative[(r["node"], prefix)][r["sim_time_ns"]]
            abs_tol = 4 * 2.0 ** -52 * total * (r.get("periods#") or 1) / seconds
            rel = 1e-12
        else:
            abs_tol, rel = 0.0, REL
        what = "%s power_w = " % r["component"]
        if state in powers.exact:
            expected = powers.exact[state]
            a.expect_close(where, "power", what + ("the Wi-Fi model's state draw"
                                                   if powers.wifi else "run.json's power"),
                           expected, w, rel=rel, abs_tol=abs_tol)
        elif name == "rx" and prefix in powers.unit:
            unit = powers.unit[prefix]
            most = powers.receivers
            if unit <= 0:
                continue
            if standard:
                hi = unit * (most if most else float("inf"))
                a.expect(unit * (1 - REL) <= w <= hi * (1 + REL), where, "power",
                         what + "a mean of k x the draw of one reception, 1 <= k <= %s"
                         % (most or "N"), "[%r, %r]" % (unit, hi), w)
            else:
                k = max(1, int(round(w / unit)))
                ok = close(k * unit, w) and (not most or k <= most)
                a.expect(ok, where, "power", what + "k x the draw of one reception (k "
                         "receptions at once, 1 <= k <= %s)" % (most or "N"),
                         "k x %r" % unit, w)
        elif name == "tx" and prefix in powers.floor:
            a.expect(w >= powers.floor[prefix] * (1 - REL), where, "power",
                     what + ">= link rate x ElecJPerBit (first-order, distance >= 0)",
                     ">= %r" % powers.floor[prefix], w)


def check_compute_power(a, r, w, standard):
    """A compute row's power_w: BusyPowerW or IdlePowerW (the Flops model; a mean between
    them at --traces=standard)."""
    p = a.params
    model = p.get("ns3::D2dComputeModel::Model")
    busy = RadioPowers.number(p, "ns3::D2dComputeModel::BusyPowerW")
    idle = RadioPowers.number(p, "ns3::D2dComputeModel::IdlePowerW")
    if model != "Flops" or busy is None or idle is None:
        a.skip("energy.csv", "power", "compute rows: the Cpu model draws (alpha/2) f^3 at each "
               "device's own CPU frequency, which run.json does not list per device"
               if model == "Cpu" else "compute rows: run.json lacks the compute model's "
               "Model, BusyPowerW or IdlePowerW")
        return
    busy_of, why = per_device(a, "busyPowerWPerDevice", "busy_power_w")
    if why:
        a.skip("energy.csv", "power", "compute rows: " + why)
        return
    if busy_of:
        try:
            busy = busy_of[int(r["node"])]
        except (IndexError, ValueError):
            pass
    where = "energy.csv:%d" % r["_line"]
    what = "compute power_w = ns3::D2dComputeModel::BusyPowerW (the device's with " \
        "--deviceProfiles) or IdlePowerW"
    if standard:
        lo, hi = min(busy, idle), max(busy, idle)
        a.expect(lo * (1 - REL) <= w <= hi * (1 + REL), where, "power", what + " (a mean)",
                 "[%r, %r]" % (lo, hi), w)
    else:
        a.expect(close(busy, w) or close(idle, w), where, "power", what,
                 "%r or %r" % (busy, idle), w)
