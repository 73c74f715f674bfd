"""The RSS of each link, recomputed from run.json and positions.csv (LinkRss: W_ij where run.json
and positions.csv say what it is, and whether receiver i hears transmitter j), for the checks
of messages.csv's rss_w, sinr and interference_w (module rss). It checks no file itself.
"""

import math

from d2dlearn_analysis.audit.environment import log_distance_w, moves, read_matrix

# positions.csv prints 6 decimals: a distance is off by at most 1.5e-6 m, W ~ d^-3 by 3 times
# that relative; the RSS of a link recomputed from it is good to 1e-9 + 4.5e-6 m / d.
POSITION_RSS_TOL_M = 4.5e-6


def mean_pair_distance(points):
    """D2dHelper::MeanPairDistanceM: every pair up to 2,000,000 pairs, else its fixed sample."""
    n = len(points)
    all_pairs = n * (n - 1) // 2
    total, pairs = 0.0, 0
    if all_pairs <= 2000000:
        for i in range(n):
            for j in range(i + 1, n):
                total += math.dist(points[i], points[j])
                pairs += 1
        return total / pairs if pairs else 0.0
    k = (2000000 + n - 1) // n
    for i in range(n):
        for m in range(k):
            total += math.dist(points[i], points[(i + 1 + m * (n - 1) // k) % n])
            pairs += 1
    return total / pairs


class LinkRss:
    """W_ij, the RSS at receiver i of transmitter j as the channel computes it, where run.json
    and positions.csv say what it is (static devices on the channel backend; sigma^2 of each
    channel: noise_in_force):
      D2D: --dropProbability P >= 0: every link (2^r - 1) sigma^2 / -ln(1 - P); --rssFile: the
        matrix W[i][j]; else the environment's (Environment) at txPowerDbm between the
        positions (3-D; ns3::D2dChannel::FixedDistanceM > 0: that distance): ns-3's
        log-distance (the default) or Friis at frequencyInForceHz (--propagation=friis
        without shadowing nor fading), unless the command line sets a loss, RSS or channel
        condition model's attribute;
      D2S: --d2sDropProbability P >= 0: as D2D with the D2S cell's sigma^2;
        --d2sLinks=distance: the environment's at d2sTxPowerDbm between the positions
        (devices and the server, node N); equal: every pair at max(1, d2sDistanceFactor x
        the mean distance of the devices' pairs) (D2dHelper::InstallServer).
    Another environment whose static links keep their RSS (Environment.held: 3GPP presets,
    shadowing, other deterministic ns-3 models) is not recomputed: its W_ij is the rss_w
    messages.csv gives link j->i ("observed": check sinr ties it to p_drop, check sinr's
    constancy to the link), known only for the links with a row (used by check
    interference, never by check rss). get(channel, i, j) is (W, relative tolerance) or
    None; hears(channel, i, j) is True, False, or None where it cannot be told (within the
    positions' rounding of RangeM)."""

    def __init__(self, a, sp, messages=()):
        p = a.params
        self.why = {}
        self.factor = None
        self.env = a.env
        self.noise = {"D2D": a.noise["D2D"][0], "D2S": a.noise["D2S"][0]}
        r_eff = p.get("spectralEfficiency")
        if isinstance(r_eff, (int, float)) and not isinstance(r_eff, bool):
            self.factor = 2.0 ** r_eff - 1.0
        self.pos = a.positions or {}
        self.n = sp.n
        self.range_m = p.get("ns3::D2dChannel::RangeM", p.get("rangeM", 0)) or 0
        self.sens = p.get("ns3::D2dChannel::RxSensitivityW", 0) or 0
        self.fixed_m = p.get("ns3::D2dChannel::FixedDistanceM", 0) or 0
        self.dbm = {"D2D": p.get("txPowerDbm", p.get("ns3::D2dRadio::TxPowerDbm")),
                    "D2S": p.get("d2sTxPowerDbm")}
        self.kind = {"D2D": None, "D2S": None}
        self.matrix = None
        self.constant = {}
        self.d2s_fixed_m = None
        self.observed = {}  # (channel, rx, tx) -> rss_w of its first row
        self.deaf = set()   # (channel, rx, tx) with an out_of_range row
        common = None
        if p.get("backend", "channel") != "channel":
            common = "--backend=%s (no eq. 18 at packet level)" % p.get("backend")
        elif moves(a):
            common = "the devices move (mobility %s)" % p.get("mobility")
        elif p.get("dynamicRssLevels"):
            common = "--dynamicRssLevels: each link's RSS changes over time"
        elif "RssModel" in str(p.get("commandLine", "")):
            common = "the command line sets an RSS model's attribute"
        elif self.factor is None:
            common = "run.json lacks spectralEfficiency"
        for ch, fixed_key in (("D2D", "dropProbability"), ("D2S", "d2sDropProbability")):
            if common:
                self.why[ch] = common
                continue
            fixed = p.get(fixed_key, -1)
            noise = self.noise[ch]
            if isinstance(fixed, (int, float)) and fixed >= 0:
                if 0 < fixed < 1 and isinstance(noise, (int, float)) and noise > 0:
                    self.kind[ch] = "constant"
                    self.constant[ch] = self.factor * noise / -math.log1p(-fixed)
                else:
                    self.why[ch] = "--%s=%r: no finite RSS" % (fixed_key, fixed)
                continue
            if ch == "D2D" and p.get("rssFile"):
                self.matrix = read_matrix(p.get("rssFile"))
                if self.matrix is None:
                    self.why[ch] = "the --rssFile matrix is not readable here"
                else:
                    self.kind[ch] = "matrix"
                continue
            if a.env.why_recomputed:
                self.why[ch] = a.env.why_recomputed
                if a.env.held and not a.env.attributes:
                    self.kind[ch] = "observed"
                continue
            if not isinstance(self.dbm[ch], (int, float)):
                self.why[ch] = "run.json records no transmit power of the %s links" % ch
                continue
            if a.positions is None:
                self.why[ch] = "no positions.csv of static devices"
                continue
            if ch == "D2D":
                self.kind[ch] = "positions"
            elif p.get("d2sLinks", "equal") == "distance":
                self.kind[ch] = "positions"
            else:
                factor = p.get("d2sDistanceFactor")
                devices = [self.pos.get(i) for i in range(self.n or 0)]
                if not isinstance(factor, (int, float)) or None in devices or not devices:
                    self.why[ch] = "run.json lacks d2sDistanceFactor or positions.csv a device"
                    continue
                self.kind[ch] = "equal"
                self.d2s_fixed_m = max(1.0, factor * mean_pair_distance(devices))
        if "observed" in self.kind.values():
            for r in messages:
                if r["src#"] is None or r["dst#"] is None:
                    continue
                key = (sp.channel(r), r["dst#"], r["src#"])
                if r["reason"] == "out_of_range":
                    self.deaf.add(key)
                elif r.get("rss_w#") is not None and r["rss_w#"] > 0:
                    self.observed.setdefault(key, r["rss_w#"])

    def recomputed(self, ch):
        """Whether get(ch, ...) is recomputed from run.json and positions.csv (check rss)."""
        return self.kind[ch] in ("constant", "matrix", "positions", "equal")

    def what(self, ch):
        return {"constant": "the fixed drop probability's", "matrix": "--rssFile",
                "positions": "%s at positions.csv's positions" % self.env.model_name(),
                "equal": "%s at the D2S links' fixed length" % self.env.model_name(),
                "observed": "rss_w of the link's rows"}.get(self.kind[ch], "")

    def distance(self, ch, rx, tx):
        if ch == "D2D" and self.fixed_m > 0:
            return self.fixed_m
        if ch == "D2S" and self.kind[ch] == "equal":
            return self.d2s_fixed_m
        a, b = self.pos.get(rx), self.pos.get(tx)
        if a is None or b is None:
            return None
        return math.dist(a, b)

    def get(self, ch, rx, tx):
        kind = self.kind[ch]
        if kind == "constant":
            return self.constant[ch], 1e-12
        if kind == "matrix":
            m = self.matrix
            if 0 <= rx < len(m) and 0 <= tx < len(m[rx]):
                return m[rx][tx], 1e-12
            return None
        if kind == "observed":
            w = self.observed.get((ch, rx, tx))
            return None if w is None else (w, 1e-15)
        if kind is None:
            return None
        d = self.distance(ch, rx, tx)
        if d is None:
            return None
        w = self.env.rss_w(self.dbm[ch], d)
        if w is None:
            return None
        exact = (ch == "D2D" and self.fixed_m > 0)
        rel = 1e-9 + (0.0 if exact else POSITION_RSS_TOL_M / max(d, 1.0))
        return w, rel

    def hears(self, ch, rx, tx):
        """Whether rx hears tx (D2dChannel::Hears): W above RxSensitivityW and, on the D2D
        channel with RangeM > 0, closer than RangeM (positions, a constant RSS) or W above
        log-distance's at RangeM (a matrix). The D2S channel has no range. Observed RSS: a
        link with an out_of_range row is not heard (its RSS held)."""
        if self.kind[ch] == "observed":
            if (ch, rx, tx) in self.deaf:
                return False
            if ch == "D2D" and self.range_m > 0 and self.fixed_m <= 0:
                d = self.distance(ch, rx, tx)
                if d is None or abs(d - self.range_m) <= 2e-6:
                    return None
                if d >= self.range_m:
                    return False
        got = self.get(ch, rx, tx)
        if got is None:
            return None
        w, rel = got
        if abs(w - self.sens) <= rel * max(w, self.sens):
            return None
        if w <= self.sens:
            return False
        if ch != "D2D" or self.range_m <= 0 or self.fixed_m > 0 or self.kind[ch] == "observed":
            return True
        if self.kind[ch] == "matrix":
            at = log_distance_w(self.dbm[ch], self.range_m) \
                if isinstance(self.dbm[ch], (int, float)) else None
            if at is None or abs(w - at) <= 1e-9 * max(w, at):
                return None
            return w > at
        d = math.dist(self.pos[rx], self.pos[tx]) if rx in self.pos and tx in self.pos \
            else None
        if d is None or abs(d - self.range_m) <= 2e-6:
            return None
        return d < self.range_m
