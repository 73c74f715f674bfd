"""messages.csv: its columns and reasons, its rows parsed (parse_messages), and the checks of
its base columns: resolution (each (msg_id, dst) once, delivered exactly without a reason),
complete, fragments, p_drop (against eq. 18 and the configuration; one p_drop a static
link) and time-order (t_send_s, t_recv_s). The channel backend's further columns: modules
spectrum (t_start_s, airtime_s, sub_channel, interference_w, sleep_wait_s) and rss (rss_w,
sinr).
"""

import math

from d2dlearn_analysis.audit.core import is_number, parse_times, seconds_ns_or_none
from d2dlearn_analysis.audit.environment import (
    LOG_DISTANCE_EXPONENT, LOG_DISTANCE_REF_LOSS_DB, held, moves, read_matrix)

MESSAGE_COLUMNS = ["msg_id", "kind", "src", "dst", "bytes", "t_send_s", "t_recv_s",
                   "fragments", "fragments_lost", "retransmissions", "delivered", "complete",
                   "mode", "p_drop", "reason"]
REASONS = {"", "loss", "retry_limit", "half_duplex", "out_of_range", "receiver_off",
           "sender_off", "cancelled", "unfinished", "rx_busy", "receiver_asleep"}
# messages.csv's further columns on the channel backend (doc/reference/traces.md): the
# spectrum columns, then the W_ij and SINR of eq. 18 behind p_drop (rss_w, sinr).
CHANNEL_COLUMNS = ["t_start_s", "airtime_s", "sub_channel", "interference_w", "sleep_wait_s",
                   "rss_w", "sinr"]
# The channel columns of the runs before rss_w and sinr, read as they were.
SPECTRUM_COLUMNS = CHANNEL_COLUMNS[:5]
# The spectrum columns of the runs before DRX (no sleep_wait_s), read as they were.
SPECTRUM_COLUMNS_BEFORE_DRX = SPECTRUM_COLUMNS[:4]
# run.json parameters only the runs with rss_w and sinr record (D2dPropagationOptions::Record,
# every backend): a run.json with one of them has the seven channel columns on the channel
# backend, one without them is of an older d2dlearn.
ENVIRONMENT_KEYS = ("propagationLossModel", "noisePowerInForceW")
# Reasons of a transmission that went on the air and ran to its end (t_start_s given, its
# airtime the formula's); out_of_range and cancelled rows never went on the air; sender_off
# and unfinished rows may have (their airtime may stop short).
ON_AIR_REASONS = {"", "loss", "retry_limit", "half_duplex", "rx_busy", "receiver_off",
                  "receiver_asleep"}
NEVER_ON_AIR_REASONS = {"out_of_range", "cancelled"}
CUT_SHORT_REASONS = {"sender_off", "unfinished"}
# Rows whose reception began and ran to the transmission's end (a receive chain taken).
RECEIVED_REASONS = {"", "loss", "retry_limit"}
# Rows whose reception never began at the receiver.
NOT_RECEIVED_REASONS = {"rx_busy", "receiver_off", "half_duplex", "out_of_range", "cancelled",
                        "receiver_asleep"}
P_DROP_TOL = 1e-9   # absolute tolerance of p_drop


def parse_messages(a, messages):
    for col, kind in (("msg_id", int), ("src", int), ("dst", int), ("bytes", int),
                      ("fragments", int), ("fragments_lost", int), ("retransmissions", int),
                      ("p_drop", float)):
        a.number(messages, "messages.csv", col, kind)
    parse_times(a, messages, "messages.csv", ("t_send_s", "t_recv_s"))
    spectrum = bool(messages) and all(c in messages[0] for c in SPECTRUM_COLUMNS_BEFORE_DRX)
    if spectrum:
        parse_times(a, messages, "messages.csv", ("t_start_s", "airtime_s"))
        a.number(messages, "messages.csv", "interference_w", float, "spectrum")
    if bool(messages) and "sleep_wait_s" in messages[0]:
        parse_times(a, messages, "messages.csv", ("sleep_wait_s",))
    if bool(messages) and "rss_w" in messages[0]:
        a.number(messages, "messages.csv", "rss_w", float, "rss")
    if bool(messages) and "sinr" in messages[0]:
        a.number(messages, "messages.csv", "sinr", float, "sinr")
    for r in messages:
        r["t_send_ns"], r["t_recv_ns"] = r.get("t_send_s#"), r.get("t_recv_s#")
        # Without the spectrum columns: nothing on record of the air (checks skip the row).
        r["t_start_ns"], r["airtime_ns"] = r.get("t_start_s#"), r.get("airtime_s#")
        r["sleep_wait_ns"] = r.get("sleep_wait_s#")
        r["sub_channels"] = parse_sub_channels(r["sub_channel"]) if spectrum else []
        r.setdefault("interference_w#", None)
        r.setdefault("rss_w#", None)
        r.setdefault("sinr#", None)
    return spectrum


def parse_sub_channels(text):
    """'3' or '1+2' -> [1, 2]; '' -> []; None if not sub-channel indices."""
    if text in (None, ""):
        return []
    parts = text.split("+")
    if not all(x.isdigit() for x in parts):
        return None
    return [int(x) for x in parts]


def check_resolution(a, messages):
    seen = {}
    for r in messages:
        where = "messages.csv:%d" % r["_line"]
        key = (r["msg_id"], r["dst"])
        a.expect(key not in seen, where, "resolution",
                 "(msg_id %s, dst %s) resolved once" % key,
                 "one row", "another at row %s" % seen.get(key))
        seen.setdefault(key, r["_line"])
        a.expect(r["reason"] in REASONS, where, "resolution", "a documented reason",
                 "one of " + "|".join(sorted(REASONS - {""})), r["reason"])
        a.expect((r["delivered"] == "1") == (r["reason"] == ""), where, "resolution",
                 "delivered exactly when reason is empty (delivered or lost, never both)",
                 "delivered=%d" % (r["reason"] == ""),
                 "delivered=%s reason=%s" % (r["delivered"], r["reason"]))


def check_complete(a, messages):
    for r in messages:
        where = "messages.csv:%d" % r["_line"]
        if r["complete"] == "1":
            a.expect(r["delivered"] == "1", where, "complete", "complete implies delivered",
                     "delivered=1", "delivered=" + r["delivered"])
        whole = r["delivered"] == "1" and r["fragments_lost#"] == 0
        a.expect(r["complete"] == ("1" if whole else "0"), where, "complete",
                 "complete = delivered and fragments_lost = 0", "1" if whole else "0",
                 r["complete"])


def check_fragments(a, messages):
    mtu = a.params.get("mtuBytes")
    wifi = a.params.get("backend") == "wifi"
    first = {}
    for r in messages:
        where = "messages.csv:%d" % r["_line"]
        frags, lost, size = r["fragments#"], r["fragments_lost#"], r["bytes#"]
        if None in (frags, lost, size, r["retransmissions#"]):
            continue
        if isinstance(mtu, int) and mtu > 0 and not wifi:
            a.expect(frags == max(1, -(-size // mtu)), where, "fragments",
                     "fragments = max(1, ceil(bytes / mtuBytes))",
                     max(1, -(-size // mtu)), frags)
        a.expect(0 <= lost <= frags, where, "fragments", "0 <= fragments_lost <= fragments",
                 "0..%d" % frags, lost)
        if r["delivered"] == "0":
            if r["reason"] == "retry_limit":
                a.expect(lost >= 1, where, "fragments", "retry_limit lost a fragment",
                         ">= 1", lost)
            else:
                a.expect(lost == frags, where, "fragments",
                         "a row not delivered (%s) lost every fragment" % r["reason"],
                         frags, lost)
        elif r["mode"] == "reliable":
            a.expect(lost == 0, where, "fragments", "reliable and delivered: nothing lost",
                     0, lost)
        if r["mode"] == "unreliable":
            a.expect(r["retransmissions#"] == 0, where, "fragments",
                     "unreliable: no retransmissions", 0, r["retransmissions#"])
        same = (r["kind"], r["src"], r["bytes"], r["fragments"], r["t_send_s"], r["mode"])
        if r["msg_id"] in first:
            line, other = first[r["msg_id"]]
            a.expect(same == other, where, "fragments",
                     "msg_id %s: kind, src, bytes, fragments, t_send_s, mode as at row %d"
                     % (r["msg_id"], line), ",".join(other), ",".join(same))
        else:
            first[r["msg_id"]] = (r["_line"], same)


def eq18(rss_w, spectral_efficiency, noise_w):
    """Eq. 18: P_D = 1 - exp(-(2^r - 1) sigma^2 / W), 1 for W <= 0."""
    if rss_w <= 0:
        return 1.0
    return 1.0 - math.exp(-(2.0 ** spectral_efficiency - 1.0) * noise_w / rss_w)


def link_expectation(a):
    """A function (row) -> (expected p_drop or a set of them or None, what)."""
    p = a.params
    r_eff = p.get("spectralEfficiency", 0.0)
    # sigma^2 of each channel, recomputed (noise_in_force: --noise=thermal too)
    noise = a.noise["D2D"][0] if is_number(a.noise["D2D"][0]) else 0.0
    d2s_sigma = a.noise["D2S"][0]
    n = p.get("nDevices")
    d2s_fixed = p.get("d2sDropProbability", -1)
    d2d_fixed = p.get("dropProbability", -1)
    wifi = p.get("backend") == "wifi"
    matrix = read_matrix(p.get("rssFile") or "")
    levels = p.get("dynamicRssLevels") or 0
    centres = None
    if levels > 0:
        lo = p.get("ns3::DynamicRssModel::MinW")
        hi = p.get("ns3::DynamicRssModel::MaxW")
        if isinstance(lo, (int, float)) and isinstance(hi, (int, float)):
            width = (hi - lo) / levels
            centres = [lo + (k + 0.5) * width for k in range(levels)]

    def expected(row):
        src, dst = row["src#"], row["dst#"]
        # sigma^2 + I: a finite spectrum's co-channel interference at this receiver (eq. 18).
        noise_i = noise + (row.get("interference_w#") or 0.0)
        with_i = (" (with interference_w: 1 - (1 - P)^((sigma^2 + I) / sigma^2))"
                  if row.get("interference_w#") else "")
        d2s = n is not None and (src == n or dst == n)
        if wifi:
            return 0.0, "--backend=wifi"
        if d2s:
            if isinstance(d2s_fixed, (int, float)) and d2s_fixed >= 0:
                return fixed_with_interference(d2s_fixed, d2s_sigma, row), \
                    "--d2sDropProbability on a D2S link" + with_i
            return None, ""
        if isinstance(d2d_fixed, (int, float)) and d2d_fixed >= 0:
            return fixed_with_interference(d2d_fixed, noise, row), \
                "--dropProbability on a D2D link" + with_i
        if matrix is not None and src is not None and dst is not None \
                and dst < len(matrix) and src < len(matrix[dst]):
            return eq18(matrix[dst][src], r_eff, noise_i), \
                "eq. 18 of W[%d][%d] = %r (--rssFile)" % (dst, src, matrix[dst][src])
        if centres is not None:
            return [eq18(w, r_eff, noise_i) for w in centres], \
                "eq. 18 of a dynamic RSS bin centre"
        return None, ""
    return expected


def fixed_with_interference(fixed, noise_w, row):
    """A fixed drop probability P is an RSS W inverted from eq. 18 with sigma^2 alone: with
    co-channel interference I, eq. 18 gives 1 - (1 - P)^((sigma^2 + I) / sigma^2)."""
    i_w = row.get("interference_w#") or 0.0
    if not i_w or fixed >= 1.0 or not isinstance(noise_w, (int, float)) or noise_w <= 0:
        return float(fixed)
    return -math.expm1(math.log1p(-fixed) * (noise_w + i_w) / noise_w)


def d2s_distance_bounds(a):
    """(least, greatest) distance of the server to the square and a function p_drop ->
    the D2S distance it stands for (m), or None where the audit cannot know the loss."""
    p = a.params
    # Only the default environment (log-distance, no shadowing, no fading) inverts to a
    # distance; another's p_drop stands for an RSS that is no function of the distance.
    if p.get("d2sLinks") != "distance" or p.get("backend") == "wifi" \
            or p.get("d2sDropProbability", -1) >= 0 or p.get("mobility") == "gauss-markov" \
            or not a.env.log_distance or a.env.attributes:
        return None
    try:
        server = [float(x) for x in str(p.get("serverPosition")).split(",")]
        side = float(p["areaSideM"])
        tx_dbm = float(p["d2sTxPowerDbm"])
        r_eff = float(p["spectralEfficiency"])
        noise = float(a.noise["D2S"][0])
    except (KeyError, TypeError, ValueError):
        return None
    if len(server) != 3 or not noise > 0:
        return None
    sx, sy, sz = server
    dz = sz - a.env.height  # the devices at deviceHeightInForceM
    near = math.sqrt(max(0.0, -sx, sx - side) ** 2 + max(0.0, -sy, sy - side) ** 2 + dz ** 2)
    far = max(math.sqrt((cx - sx) ** 2 + (cy - sy) ** 2 + dz ** 2)
              for cx in (0.0, side) for cy in (0.0, side))

    def distance(p_drop, interference_w=0.0):
        if not 0.0 < p_drop < 1.0:
            return None
        rss_w = -(2.0 ** r_eff - 1.0) * (noise + interference_w) / math.log1p(-p_drop)
        loss_db = tx_dbm - (10.0 * math.log10(rss_w) + 30.0)
        # Below the reference distance (1 m) the loss is the reference loss: "1 m or less".
        return 10.0 ** ((loss_db - LOG_DISTANCE_REF_LOSS_DB) / (10.0 * LOG_DISTANCE_EXPONENT))
    return near, far, distance


def check_p_drop(a, messages):
    expected = link_expectation(a)
    n = a.params.get("nDevices")
    # A link's rows keep one p_drop (interference_w 0) only where its RSS is held: not with
    # fading, nor a loss model that draws at each evaluation (Environment.held).
    d2d_held, d2d_why = held(a, "D2D")
    d2s_held, d2s_why = held(a, "D2S")
    for why in {d2d_why, d2s_why} - {None}:
        a.skip("messages.csv", "p_drop", "a link keeps one p_drop: " + why)
    static = not moves(a) and not a.params.get("dynamicRssLevels") and d2d_held
    # Runs from before --d2sLinks had equal D2S links.
    d2s_equal = a.params.get("d2sLinks", "equal") == "equal" and a.params.get("backend") != "wifi"
    d2s_static = not moves(a) and d2s_held
    bounds = d2s_distance_bounds(a)
    d2s_first = None
    d2s_device_first = {}
    link_first = {}
    for r in messages:
        where = "messages.csv:%d" % r["_line"]
        p = r["p_drop#"]
        if p is None:
            continue
        a.expect(0.0 <= p <= 1.0, where, "p_drop", "a probability", "0..1", p)
        if r["reason"] == "out_of_range":
            a.expect(p == 1.0, where, "p_drop", "a link that is not heard", 1.0, p)
            continue
        value, what = expected(r)
        # With co-channel interference a link's p_drop varies: rows with I > 0 are compared
        # through the W they stand for (check sinr), those with I = 0 keep one p_drop.
        quiet = not r.get("interference_w#")
        if isinstance(value, list):
            a.expect(any(abs(v - p) <= P_DROP_TOL for v in value), where, "p_drop", what,
                     "one of " + ",".join(repr(v) for v in value), p)
        elif value is not None:
            a.expect_close(where, "p_drop", what, value, p, rel=0.0, abs_tol=P_DROP_TOL)
        if n is not None and (r["src#"] == n or r["dst#"] == n):
            device = r["dst"] if r["src#"] == n else r["src"]
            if d2s_equal and quiet and d2s_held:
                if d2s_first is None:
                    d2s_first = (r["_line"], p)
                a.expect(p == d2s_first[1], where, "p_drop",
                         "every D2S link has the p_drop of row %d (--d2sLinks=equal)"
                         % d2s_first[0], d2s_first[1], p)
            elif d2s_static and quiet and not d2s_equal:
                first = d2s_device_first.setdefault(device, (r["_line"], p))
                a.expect(p == first[1], where, "p_drop",
                         "device %s's D2S link keeps the p_drop of row %d (static devices, "
                         "--d2sLinks=distance)" % (device, first[0]), first[1], p)
            if bounds is not None:
                near, far, distance = bounds
                d = distance(p, r.get("interference_w#") or 0.0)
                if d is not None:
                    a.expect(near * (1 - 1e-6) - 1e-6 <= max(d, 1.0)
                             and d <= max(far, 1.0) * (1 + 1e-6), where, "p_drop",
                             "the D2S distance of device %s's p_drop (eq. 18, log-distance) "
                             "within the server's reach of the square" % device,
                             "%.6g to %.6g m" % (near, far), "%.6g m" % d)
        elif static and quiet:
            link = (r["src"], r["dst"])
            first = link_first.setdefault(link, (r["_line"], p))
            a.expect(p == first[1], where, "p_drop",
                     "link %s->%s keeps the p_drop of row %d (static devices)"
                     % (link[0], link[1], first[0]), first[1], p)


def check_message_times(a, messages):
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    for r in messages:
        where = "messages.csv:%d" % r["_line"]
        send, recv = r["t_send_ns"], r["t_recv_ns"]
        a.expect((recv is None) == (r["delivered"] != "1"), where, "time-order",
                 "t_recv_s empty exactly when delivered = 0",
                 "empty" if r["delivered"] != "1" else "a time", r["t_recv_s"] or "empty")
        if send is not None and recv is not None:
            a.expect(recv >= send, where, "time-order", "reception not before the send",
                     ">= " + r["t_send_s"], r["t_recv_s"])
        for t, col in ((send, "t_send_s"), (recv, "t_recv_s")):
            if t is not None and end is not None:
                a.expect(t <= end, where, "time-order", col + " not after simulated_time_s",
                         "<= %.9f" % (end / 1e9), r[col])
