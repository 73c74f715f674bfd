"""The finite spectrum: messages.csv's t_start_s, airtime_s, sub_channel, interference_w and
sleep_wait_s (the channel backend's spectrum columns), against run.json's band (Spectrum:
K in force on each channel, m, the receive chains, the access, the reuse rule, the rates):
checks spectrum, airtime, time-order (the queueing and propagation delays, DRX's wait) and
receive-chains.
"""

import bisect
import csv
import math
import os

from d2dlearn_analysis.audit.core import NS_TOL, seconds_ns_or_none
from d2dlearn_analysis.audit.environment import LIGHT_SPEED_MPS
from d2dlearn_analysis.audit.messages import (
    CHANNEL_COLUMNS, CUT_SHORT_REASONS, ENVIRONMENT_KEYS, MESSAGE_COLUMNS, NEVER_ON_AIR_REASONS,
    NOT_RECEIVED_REASONS, ON_AIR_REASONS, RECEIVED_REASONS, SPECTRUM_COLUMNS,
    SPECTRUM_COLUMNS_BEFORE_DRX)

PROPAGATION_S = 1e-4  # propagation delay bound where the geometry is unknown


class Spectrum:
    """What run.json's parameters say of the band: K in force on the D2D channel and on the
    D2S cell, m, the receive chains, the access, the reuse rule; the rate of a transmission
    on each channel. A row is on the D2S cell when src or dst is the server (nDevices)."""

    def __init__(self, a):
        p = a.params
        channel = p.get("backend", "channel") == "channel"
        self.on_channel = channel
        # a run.json of the current d2dlearn: the seven channel columns on the channel backend
        self.current = any(k in p for k in ENVIRONMENT_KEYS)
        self.n = p.get("nDevices")
        # the D2D band's K on the links the run uses (0 when it sends no D2D messages)
        k = p.get("subChannelsInForce", p.get("subChannels", 0))
        d2s = p.get("d2sSubChannelsInForce", 0)  # recorded only when the run has a server
        self.k = {"D2D": int(k) if channel and isinstance(k, (int, float)) else 0,
                  "D2S": int(d2s) if channel and isinstance(d2s, (int, float)) else 0}
        self.finite = self.k["D2D"] > 0 or self.k["D2S"] > 0
        self.m = p.get("subChannelsPerTransmission", 1)
        self.chains_flag = p.get("receiveChains", p.get("ns3::D2dRadio::ReceiveChains", 0)) or 0
        self.scheduled = p.get("access") == "scheduled"
        self.interference = p.get("interference", True) is not False
        self.reuse = {"D2D": p.get("spectrumReuse", "none"), "D2S": "none"}  # a cell: none
        self.rate = {"D2D": p.get("linkRateBps"), "D2S": p.get("d2sLinkRateBps")}
        self.mtu = p.get("mtuBytes")
        self.header = p.get("ns3::D2dChannel::FragmentHeaderBytes", 0)
        self.max_tx = (p["maxRetransmissions"] + 1
                       if isinstance(p.get("maxRetransmissions"), int) else None)
        self.untraced = bool(a.run.get("untraced_message_rows"))
        self.propagation_ns = {c: int(math.ceil(propagation_bound_s(a, c == "D2S") * 1e9))
                               + NS_TOL for c in ("D2D", "D2S")}

    def with_columns(self, a):
        """messages.csv's channel columns (CHANNEL_COLUMNS) on the channel backend: d2dlearn
        writes them in every channel run (D2dTraceHelper::SetSpectrumColumns, whatever K), and
        a run.json of the current d2dlearn (ENVIRONMENT_KEYS among its parameters) must have
        all seven; an older run is read as it was: the five spectrum columns (before rss_w and
        sinr), four before DRX (no sleep_wait_s), or none without a finite band (before the
        radio profiles). The Wi-Fi backend has none. [] for none."""
        if not self.on_channel:
            return []
        if self.current:
            return CHANNEL_COLUMNS
        try:
            with open(os.path.join(a.dir, "messages.csv"), newline="", encoding="utf-8",
                      errors="replace") as fh:
                header = next(csv.reader(fh), [])
        except OSError:
            header = []
        tail = header[len(MESSAGE_COLUMNS):]
        if tail == SPECTRUM_COLUMNS_BEFORE_DRX:
            return SPECTRUM_COLUMNS_BEFORE_DRX
        if self.finite or tail == SPECTRUM_COLUMNS:
            return SPECTRUM_COLUMNS
        return []

    def columns_why(self):
        if not self.on_channel:
            return " (the Wi-Fi backend: no channel columns)"
        if self.current:
            return (" (the channel backend writes its columns %s after reason in every run, "
                    "whatever K: %d on the D2D channel, %d on the D2S cell)"
                    % (",".join(CHANNEL_COLUMNS), self.k["D2D"], self.k["D2S"]))
        if self.finite:
            return (" (a run of an older d2dlearn, K in force %d on the D2D channel, %d on the "
                    "D2S cell: the spectrum columns %s after reason)"
                    % (self.k["D2D"], self.k["D2S"], ",".join(SPECTRUM_COLUMNS)))
        return " (a run of an older d2dlearn without a finite spectrum: subChannels and the " \
               "D2S cell's K are 0, no spectrum columns)"

    def channel(self, row):
        return "D2S" if self.n is not None and self.n in (row["src#"], row["dst#"]) else "D2D"

    def chains(self, channel):
        """Receptions a radio of that channel takes part in at once (None: unlimited):
        D2dChannel::GetReceiveChains."""
        k, own = self.k[channel], self.chains_flag
        if k == 0:
            return own if own > 0 else None
        return k if own == 0 else min(own, k)

    def single_cell(self, channel):
        """No two transmissions on one sub-channel at once: scheduled access, reuse none."""
        return self.scheduled and self.k[channel] > 0 and self.reuse[channel] == "none"


def propagation_bound_s(a, d2s):
    """The longest propagation delay of a D2D (or D2S) link at the speed of light, where the
    devices stay in the square with the default delay model: the square's diagonal; a D2S
    link the server's farthest corner (--d2sLinks=distance) or d2sDistanceFactor times the
    diagonal (equal: the links' fixed length, that factor times the mean D2D distance).
    Elsewhere (--rssFile, gauss-markov, another delay model) PROPAGATION_S."""
    p = a.params
    command = str(p.get("commandLine", ""))
    if p.get("rssFile") or p.get("mobility") == "gauss-markov" \
            or "PropagationDelayModel" in command:
        return PROPAGATION_S
    try:
        diagonal = float(p["areaSideM"]) * math.sqrt(2.0)
        if not d2s:
            # (A D2D channel with FixedDistanceM puts every pair that far apart.)
            fixed = float(p.get("ns3::D2dChannel::FixedDistanceM") or 0.0)
            return max(diagonal, fixed) / LIGHT_SPEED_MPS
        if p.get("d2sLinks", "equal") == "equal":
            return float(p["d2sDistanceFactor"]) * diagonal / LIGHT_SPEED_MPS
        side = float(p["areaSideM"])
        sx, sy, sz = [float(x) for x in str(p.get("serverPosition")).split(",")]
    except (KeyError, TypeError, ValueError):
        return PROPAGATION_S
    dz = sz - getattr(getattr(a, "env", None), "height", 0.0)  # the devices' height
    far = max(math.sqrt((cx - sx) ** 2 + (cy - sy) ** 2 + dz ** 2)
              for cx in (0.0, side) for cy in (0.0, side))
    return far / LIGHT_SPEED_MPS


def check_spectrum(a, messages, sp):
    """Each row's spectrum columns against its reason, its channel's K and m, the access and
    the reuse rule; the rows of one msg_id agree on t_start_s, airtime_s and sub_channel."""
    first = {}
    for r in messages:
        where = "messages.csv:%d" % r["_line"]
        ch = sp.channel(r)
        k = sp.k[ch]
        start, air, subs, i_w = (r["t_start_ns"], r["airtime_ns"], r["sub_channels"],
                                 r["interference_w#"])
        on_air = start is not None
        a.expect(on_air == (air is not None), where, "spectrum",
                 "t_start_s and airtime_s both given or both empty",
                 "both" if on_air else "neither",
                 "t_start_s=%s airtime_s=%s" % (r["t_start_s"] or "empty",
                                                r["airtime_s"] or "empty"))
        if r["reason"] in ON_AIR_REASONS:
            a.expect(on_air, where, "spectrum",
                     "a transmission on the air (reason %s) has its t_start_s"
                     % (r["reason"] or "none: delivered"), "a time", "empty")
        elif r["reason"] in NEVER_ON_AIR_REASONS:
            a.expect(not on_air, where, "spectrum",
                     "a message never on the air (%s) has no t_start_s" % r["reason"],
                     "empty", r["t_start_s"])
        if subs is None:
            a.expect(False, where, "spectrum", "sub_channel: sub-channel indices joined by +",
                     "e.g. 3 or 1+2", r["sub_channel"])
        elif not on_air or k == 0:
            a.expect(subs == [], where, "spectrum",
                     "no sub_channel %s" % ("off the air" if not on_air else
                                            "on the %s link's unlimited band (K = 0)" % ch),
                     "empty", r["sub_channel"])
        else:
            ok = (len(subs) == sp.m and subs == sorted(set(subs))
                  and all(0 <= c < k for c in subs))
            a.expect(ok, where, "spectrum",
                     "sub_channel: %s distinct ascending sub-channels of the %s link's 0..%d"
                     % (sp.m, ch, k - 1), "%s of 0..%d" % (sp.m, k - 1), r["sub_channel"])
        if i_w is not None:
            a.expect(i_w >= 0 and not math.isinf(i_w), where, "spectrum",
                     "interference_w >= 0 (W)", ">= 0", i_w)
            zero = None
            if not on_air:
                zero = "off the air"
            elif k == 0:
                zero = "on the %s link's unlimited band" % ch
            elif not sp.interference:
                zero = "--interference=false"
            elif sp.single_cell(ch):
                zero = "scheduled access, one transmission per sub-channel on the %s channel" % ch
            if zero is not None:
                a.expect(i_w == 0.0, where, "spectrum", "interference_w 0 (%s)" % zero, 0.0, i_w)
        if on_air:
            key = (ch, r["msg_id"])
            same = (r["t_start_s"], r["airtime_s"], r["sub_channel"])
            if key in first:
                line, other = first[key]
                a.expect(same == other, where, "spectrum",
                         "msg_id %s: t_start_s, airtime_s, sub_channel as at row %d"
                         % (r["msg_id"], line), ",".join(other), ",".join(same))
            else:
                first[key] = (r["_line"], same)


def transmissions(messages, sp):
    """{(channel, msg_id): [row, start ns, planned end ns, cut short]} of the rows on the
    air (the first row of each message: its rows agree, check_spectrum)."""
    out = {}
    for r in messages:
        if r["t_start_ns"] is None or r["airtime_ns"] is None or r["sub_channels"] is None:
            continue
        key = (sp.channel(r), r["msg_id"])
        cut = r["reason"] in CUT_SHORT_REASONS
        if key not in out:
            out[key] = [r, r["t_start_ns"], r["t_start_ns"] + r["airtime_ns"], cut]
        elif cut:
            out[key][3] = True
    return out


def check_sub_channel_use(a, messages, sp):
    """Scheduled access with reuse none (the D2S cell always): no two transmissions on one
    sub-channel at once. interference_w > 0: another transmission on one of its sub-channels
    on the air when it started."""
    on_air = transmissions(messages, sp)
    by_sub = {}
    for (ch, msg), (r, start, end, cut) in on_air.items():
        for c in r["sub_channels"]:
            # A transmission cut short (sender_off, unfinished) left the air at an unknown
            # time before its planned end: only its start is certain.
            by_sub.setdefault((ch, c), []).append((start, end, cut, msg, r))
    for (ch, c), lst in sorted(by_sub.items()):
        lst.sort(key=lambda t: (t[0], t[4]["_line"]))
        if sp.single_cell(ch):
            last = None  # (certain end, msg, row) of the latest-ending so far
            for start, end, cut, msg, r in lst:
                if last is not None:
                    a.expect(start >= last[0] - NS_TOL, "messages.csv:%d" % r["_line"],
                             "spectrum",
                             "msg_id %s on sub-channel %d of the %s channel starts while msg_id "
                             "%s (row %d) is on the air there (scheduled access, spectrumReuse "
                             "none: one transmission per sub-channel)"
                             % (msg, c, ch, last[1], last[2]["_line"]),
                             ">= %.9f" % (last[0] / 1e9), r["t_start_s"])
                certain = start if cut else end
                if last is None or certain > last[0]:
                    last = (certain, msg, r)
    if sp.untraced:
        return  # kinds left out of messages.csv may have been on the air
    index = {}
    for key, lst in by_sub.items():
        starts = [t[0] for t in lst]
        best = []  # running top two (planned end, msg) of the prefix
        top = []
        for t in lst:
            top = sorted(top + [(t[1], t[3])], reverse=True)[:2]
            best.append(top)
        index[key] = (starts, best)
    for r in messages:
        i_w = r.get("interference_w#")
        if not i_w or r["t_start_ns"] is None or not r["sub_channels"]:
            continue
        ch, s = sp.channel(r), r["t_start_ns"]
        found = False
        for c in r["sub_channels"]:
            starts, best = index.get((ch, c), ([], []))
            i = bisect.bisect_right(starts, s + NS_TOL) - 1
            if i >= 0:
                others = [e for e, msg in best[i] if msg != r["msg_id"]]
                if others and others[0] >= s - NS_TOL:
                    found = True
                    break
        a.expect(found, "messages.csv:%d" % r["_line"], "spectrum",
                 "interference_w > 0: another transmission on sub-channel %s of the %s channel "
                 "on the air at t_start_s" % (r["sub_channel"], ch), "one", "none")


def check_airtime(a, messages, sp):
    """airtime_s = the bits of its fragments (retransmissions included) / the rate of its
    channel, to 1 ns: unreliable (F - 1) full fragments and the last one; reliable
    (F + R - L) full and L last ones for some L in 1..maxRetransmissions + 1 (the last
    fragment's transmissions; F = 1: L = R + 1)."""
    if not isinstance(sp.mtu, int) or sp.mtu <= 0 or not isinstance(sp.header, int):
        return
    full = (sp.mtu + sp.header) * 8
    for r in messages:
        air = r["airtime_ns"]
        rate = sp.rate[sp.channel(r)]
        frags, retx, size = r["fragments#"], r["retransmissions#"], r["bytes#"]
        if air is None or not isinstance(rate, (int, float)) or rate <= 0 \
                or None in (frags, retx, size) or frags < 1:
            continue
        where = "messages.csv:%d" % r["_line"]
        last = (size - (frags - 1) * sp.mtu + sp.header) * 8
        if r["reason"] in CUT_SHORT_REASONS:
            bound = (frags + retx) * full / rate * 1e9
            a.expect(0 <= air <= bound + NS_TOL, where, "airtime",
                     "a transmission cut short (%s): airtime_s <= (fragments + "
                     "retransmissions) full fragments / rate" % r["reason"],
                     "0 to %.9f" % (bound / 1e9), r["airtime_s"])
            continue
        if r["mode"] != "reliable":
            lo = hi = 1
        else:
            total = frags + retx
            lo = max(1, total - (frags - 1) * sp.max_tx) if sp.max_tx else 1
            hi = min(retx + 1, sp.max_tx) if sp.max_tx else retx + 1
            if frags == 1:
                lo = max(lo, retx + 1)
        ok = False
        candidates = []
        for n_last in range(lo, hi + 1):
            expected = ((frags + retx - n_last) * full + n_last * last) / rate * 1e9
            candidates.append(expected)
            if abs(air - expected) <= NS_TOL + 1e-12 * expected:
                ok = True
                break
        if r["mode"] != "reliable":
            what = ("(fragments - 1) x (mtuBytes + header) x 8 + (last fragment + header) x 8 "
                    "bits at %r bit/s (%s)" % (rate, sp.channel(r)))
            want = "%.9f" % (candidates[0] / 1e9) if candidates else "none"
        else:
            what = ("(fragments + retransmissions - L) full and L last fragments for an L in "
                    "%d..%d at %r bit/s (%s, reliable)" % (lo, hi, rate, sp.channel(r)))
            want = ("%.9f to %.9f" % (min(candidates) / 1e9, max(candidates) / 1e9)
                    if candidates else "no L (retransmissions beyond maxRetransmissions)")
        a.expect(ok, where, "airtime", what, want, r["airtime_s"])


def check_spectrum_times(a, messages, sp):
    """t_start_s not before t_send_s (the queueing delay) nor after simulated_time_s;
    delivered rows: t_recv_s - (t_start_s + airtime_s), the propagation delay, between 0 and
    the link's longest (1 ns). sleep_wait_s (DRX's wait for a sleeping radio) >= 0, within
    the queueing delay on the air, and 0 on a link whose radios never sleep (--drx for the
    D2D links, --d2sDrx for the D2S ones empty, and neither --sleepWhileTraining nor
    --sleepBetweenIterations)."""
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    protocol = (a.params.get("sleepWhileTraining") is True
                or a.params.get("sleepBetweenIterations") is True)
    drx = {"D2D": a.params.get("drx") not in (None, "", "none") or protocol,
           "D2S": a.params.get("d2sDrx") not in (None, "", "none") or protocol}
    for r in messages:
        start, air = r["t_start_ns"], r["airtime_ns"]
        where = "messages.csv:%d" % r["_line"]
        wait = r.get("sleep_wait_ns")
        if wait is not None:
            ch = sp.channel(r)
            a.expect(wait >= 0 and (drx[ch] or wait == 0), where, "time-order",
                     "sleep_wait_s >= 0, and 0 on a %s link whose radios never sleep" % ch,
                     ">= 0" if drx[ch] else "0", r["sleep_wait_s"])
        if start is None:
            continue
        if r["t_send_ns"] is not None:
            a.expect(start >= r["t_send_ns"], where, "time-order",
                     "t_start_s not before t_send_s (a queueing delay >= 0)",
                     ">= " + r["t_send_s"], r["t_start_s"])
        if end is not None:
            a.expect(start <= end, where, "time-order", "t_start_s not after simulated_time_s",
                     "<= %.9f" % (end / 1e9), r["t_start_s"])
        wait = r.get("sleep_wait_ns")
        if wait is not None and r["t_send_ns"] is not None:
            a.expect(0 <= wait <= start - r["t_send_ns"], where, "time-order",
                     "sleep_wait_s, the wait for a sleeping radio, within the queueing delay "
                     "t_start_s - t_send_s", "0 to %.9f s" % ((start - r["t_send_ns"]) / 1e9),
                     r["sleep_wait_s"])
        if r["t_recv_ns"] is not None and air is not None:
            prop = r["t_recv_ns"] - start - air
            bound = sp.propagation_ns[sp.channel(r)]
            a.expect(-NS_TOL <= prop <= bound, where, "time-order",
                     "t_recv_s - (t_start_s + airtime_s), the propagation delay of a %s link"
                     % sp.channel(r), "0 to %.9f s" % (bound / 1e9), "%.9f s" % (prop / 1e9))


def check_receive_chains(a, messages, sp):
    """At most the receive chains C (receiveChains, at most K; K if 0) receptions at once at
    a receiver on a finite channel: the rows that received to the end (delivered, loss,
    retry_limit), each [t_start_s + P, t_start_s + airtime_s) with P the channel's longest
    propagation delay (certainly at the receiver, whatever the link's delay). rx_busy: only
    under immediate access, and C receptions possibly in progress at the receiver then."""
    received = {}
    possible = {}
    for r in messages:
        start, air = r["t_start_ns"], r["airtime_ns"]
        if start is None or air is None or r["dst#"] is None:
            continue
        key = (sp.channel(r), r["dst#"])
        if r["reason"] in RECEIVED_REASONS:
            received.setdefault(key, []).append((start, start + air, r))
        if r["reason"] not in NOT_RECEIVED_REASONS:
            possible.setdefault(key, []).append((start, start + air, r))
    for (ch, dst), lst in sorted(received.items()):
        chains = sp.chains(ch)
        if chains is None or sp.k[ch] == 0:
            continue
        prop = sp.propagation_ns[ch]
        events = []
        for start, end, r in lst:
            lo, hi = start + prop, end - NS_TOL
            if lo < hi:
                events.append((lo, 1, r))
                events.append((hi, 0, r))
        events.sort(key=lambda e: (e[0], e[1], e[2]["_line"]))  # ends first at one time
        on = {}
        for t, kind, r in events:
            if kind == 0:
                on.pop(r["_line"], None)
                continue
            on[r["_line"]] = r
            if len(on) > chains:
                a.expect(False, "messages.csv:%d" % r["_line"], "receive-chains",
                         "receptions at once at %s %d (rows %s)"
                         % ("the server" if ch == "D2S" and dst == sp.n else "device", dst,
                            ",".join(str(x) for x in sorted(on))),
                         "<= %d" % chains, len(on))
            else:
                a.checks += 1
    windows = {}
    for key, lst in possible.items():
        lst.sort(key=lambda t: t[0])
        windows[key] = ([t[0] for t in lst], lst, max(t[1] - t[0] for t in lst))
    for r in messages:
        if r["reason"] != "rx_busy":
            continue
        where = "messages.csv:%d" % r["_line"]
        ch = sp.channel(r)
        chains = sp.chains(ch)
        if not a.expect(not sp.scheduled and chains is not None, where, "receive-chains",
                        "rx_busy only under immediate access with finite receive chains "
                        "(scheduled access waits for a chain)", "--access=immediate",
                        "--access=%s, %s chains" % ("scheduled" if sp.scheduled else
                                                   "immediate", chains or "unlimited")):
            continue
        if sp.untraced or r["t_start_ns"] is None:
            continue
        s, prop = r["t_start_ns"], sp.propagation_ns[ch]
        starts, lst, longest = windows[(ch, r["dst#"])] if (ch, r["dst#"]) in windows \
            else ([], [], 0)
        busy = set()
        # Only those started at most the longest airtime before can still be on the air.
        lo = bisect.bisect_left(starts, s - NS_TOL - prop - longest)
        for start, end, other in lst[lo:bisect.bisect_right(starts, s + prop)]:
            if other["msg_id"] != r["msg_id"] and end + prop > s - NS_TOL:
                busy.add(other["msg_id"])
        a.expect(len(busy) >= chains, where, "receive-chains",
                 "rx_busy: every receive chain of %d taken when it arrived (receptions "
                 "possibly in progress there)" % r["dst#"], ">= %d" % chains, len(busy))
