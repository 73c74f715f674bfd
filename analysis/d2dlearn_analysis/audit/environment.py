"""The radio environment (--propagation, --shadowing, --nakagamiM) and sigma^2 (--noise) as
run.json's parameters record them: Environment, which says which RSS checks can run (the
default log-distance, friis, held, neither); the ns-3 loss models recomputed (log-distance,
Friis); sigma^2 of each channel recomputed from the inputs (noise_in_force); the --rssFile
matrix; whether the devices move. It reads run.json only (and the --rssFile matrix): the
checks of messages.csv (p_drop, sinr, rss, interference), positions.csv and gd_links.csv
use it.
"""

import math
import os

from d2dlearn_analysis.audit.core import fmt, is_number

LIGHT_SPEED_MPS = 299792458.0  # ns-3's ConstantSpeedPropagationDelayModel
LOG_DISTANCE_MODEL = "ns3::LogDistancePropagationLossModel"
FRIIS_MODEL = "ns3::FriisPropagationLossModel"
# The --propagation presets' path loss models (D2dPropagationHelper::GetPresets). A TypeId
# one of them names is that preset (its carrier, heights, condition model and shadowing).
PRESET_LOSS_MODELS = {
    "log-distance": LOG_DISTANCE_MODEL,
    "friis": FRIIS_MODEL,
    "3gpp-umi": "ns3::ThreeGppUmiStreetCanyonPropagationLossModel",
    "3gpp-uma": "ns3::ThreeGppUmaPropagationLossModel",
    "3gpp-rma": "ns3::ThreeGppRmaPropagationLossModel",
    "3gpp-indoor-office": "ns3::ThreeGppIndoorOfficePropagationLossModel",
    "3gpp-v2v-urban": "ns3::ThreeGppV2vUrbanPropagationLossModel",
    "3gpp-v2v-highway": "ns3::ThreeGppV2vHighwayPropagationLossModel",
    "d2d-3gpp": "ns3::D2dWinnerB1PropagationLossModel",
}
# Path loss models that draw nothing at an evaluation once a link's state is set: a link whose
# ends stay put keeps its RSS. The TR 38.901 presets draw the LOS state (ns-3's
# ThreeGppChannelConditionModel, UpdatePeriod 0: never again; TR 36.843's d2d-3gpp too) and
# the O2I loss once per link, and their shadowing is D2dShadowingLossModel's (a link that did
# not move keeps its value);
# ns-3's V2V models draw the NLOSv vehicle blockage loss at every evaluation
# (ThreeGppV2vUrbanPropagationLossModel::GetAdditionalNlosvLoss): not among them. The other
# ns-3 models listed are functions of the positions alone.
HELD_LOSS_MODELS = {
    LOG_DISTANCE_MODEL, FRIIS_MODEL,
    "ns3::ThreeGppUmiStreetCanyonPropagationLossModel", "ns3::ThreeGppUmaPropagationLossModel",
    "ns3::ThreeGppRmaPropagationLossModel", "ns3::ThreeGppIndoorOfficePropagationLossModel",
    "ns3::Cost231PropagationLossModel", "ns3::ThreeLogDistancePropagationLossModel",
    "ns3::TwoRayGroundPropagationLossModel", "ns3::FixedRssLossModel",
    "ns3::RangePropagationLossModel", "ns3::OkumuraHataPropagationLossModel",
    "ns3::ItuR1411LosPropagationLossModel", "ns3::ItuR1411NlosOverRooftopPropagationLossModel",
    "ns3::Kun2600MhzPropagationLossModel", "ns3::MatrixPropagationLossModel",
    "ns3::D2dWinnerB1PropagationLossModel",
}
BOLTZMANN_J_PER_K = 1.380649e-23  # k, exact in the SI since 2019 (D2dThermalNoise's)
NOISE_TEMPERATURE_K = 290.0       # T0, the reference temperature of a noise figure
LOG_DISTANCE_REF_LOSS_DB = 46.6777  # ns-3 LogDistancePropagationLossModel at 1 m
LOG_DISTANCE_EXPONENT = 3.0


class Environment:
    """What run.json's parameters say of the RSS of a link (D2dPropagationOptions::Record; a
    run.json without them: the defaults, log-distance without shadowing nor fading):
      log_distance: ns-3's log-distance model at its defaults, no shadowing, no fading (the
        default environment: the RSS is a function of positions.csv's positions);
      friis: ns-3's Friis model (SystemLoss 1, MinLoss 0) at frequencyInForceHz, no
        shadowing, no fading (a function of the positions too);
      held: a link whose ends stay put keeps its RSS (no fading, a loss model of
        HELD_LOSS_MODELS, a shadowing that keeps a static link's value), so that its rows
        share one RSS, one p_drop where interference_w is 0;
    each with its reason where it is false (why_*)."""

    def __init__(self, p):
        command = str(p.get("commandLine", ""))
        self.propagation = p.get("propagation", "log-distance")
        model = p.get("propagationLossModel")
        if not isinstance(model, str) or not model:
            model = PRESET_LOSS_MODELS.get(self.propagation, self.propagation)
        self.model = model
        self.condition = p.get("propagationConditionModel") or ""
        self.shadowing = p.get("shadowingInForce", False) is True
        m = p.get("nakagamiM", 0)
        self.fading = isinstance(m, (int, float)) and not isinstance(m, bool) and m > 0
        self.frequency = p.get("frequencyInForceHz")
        height = p.get("deviceHeightInForceM", 0)
        self.height = float(height) if isinstance(height, (int, float)) else 0.0
        # an attribute of a loss model, an RSS model or a condition model set by hand
        self.attributes = ("PropagationLossModel::" in command or "RssModel" in command
                           or "ChannelConditionModel::" in command)
        what = "--propagation=%s" % self.propagation
        if self.shadowing:
            what += " with shadowing (shadowingInForce)"
        if self.fading:
            what += " with Nakagami-m fading (nakagamiM %s)" % m
        self.what = what
        plain = not self.shadowing and not self.fading and not self.condition
        self.log_distance = plain and model == LOG_DISTANCE_MODEL
        self.friis = plain and model == FRIIS_MODEL
        if self.attributes:
            self.why_recomputed = "the command line sets a propagation loss, RSS or channel " \
                                  "condition model's attribute"
        elif self.log_distance or self.friis:
            self.why_recomputed = None
        else:
            self.why_recomputed = ("%s: the RSS is not a function of positions.csv's positions "
                                   "(random LOS state, shadowing or fading, or a loss model "
                                   "the audit does not recompute): rss_w is checked against "
                                   "p_drop (check sinr)" % what)
        # A shadowing of ns-3's own (a 3GPP TypeId that is no preset, --shadowing=preset)
        # decorrelates a static link at its second evaluation; D2dShadowingLossModel's
        # (presets, --shadowing=log-normal) keeps it.
        own_shadowing = (self.shadowing and p.get("shadowing", "preset") != "log-normal"
                         and model not in PRESET_LOSS_MODELS.values())
        if self.fading:
            self.why_held = "%s: fading drawn anew at each evaluation (coherenceTime_s %s)" \
                % (what, p.get("coherenceTime_s", 0))
        elif model not in HELD_LOSS_MODELS:
            self.why_held = ("%s: the loss model %s may draw at each evaluation (not one the "
                             "audit knows to keep a static link's loss)" % (what, model))
        elif own_shadowing:
            self.why_held = "%s: ns-3's own shadowing of %s redraws a static link" % (what, model)
        elif "ChannelConditionModel::" in command:
            self.why_held = "the command line sets a channel condition model's attribute " \
                            "(its LOS state may be redrawn)"
        else:
            self.why_held = None
        self.held = self.why_held is None

    def rss_w(self, tx_dbm, d_m):
        """The RSS (W) of a link d_m long at tx_dbm: log-distance or Friis; None elsewhere."""
        if self.log_distance:
            return log_distance_w(tx_dbm, d_m)
        if self.friis and isinstance(self.frequency, (int, float)) and self.frequency > 0:
            return friis_w(tx_dbm, d_m, self.frequency)
        return None

    def model_name(self):
        return "log-distance" if self.log_distance else \
            "Friis at %s Hz" % fmt(self.frequency)


def friis_w(tx_dbm, d_m, frequency_hz):
    """ns-3's FriisPropagationLossModel::DoCalcRxPower (SystemLoss L 1, MinLoss 0), dBm -> W:
    loss = -10 log10(lambda^2 / (16 pi^2 d^2 L)), lambda = c / f (c = 299792458 m/s), at
    least MinLoss (a distance below lambda / (4 pi): 0 dB, the transmit power); d <= 0: the
    transmit power less MinLoss. (Below 3 lambda, outside the far field, ns-3 only warns.)"""
    min_loss = 0.0
    if d_m <= 0:
        return dbm_w(tx_dbm - min_loss)
    lam = LIGHT_SPEED_MPS / frequency_hz
    loss = -10.0 * math.log10(lam * lam / (16.0 * math.pi * math.pi * d_m * d_m * 1.0))
    return dbm_w(tx_dbm - max(loss, min_loss))


def log_distance_w(tx_dbm, d_m):
    """ns-3's LogDistancePropagationLossModel (exponent 3, 46.6777 dB at 1 m; at most the
    reference loss below 1 m), dBm -> W: the RSS PropagationRssModel gives at d_m."""
    if d_m <= 1.0:
        loss = LOG_DISTANCE_REF_LOSS_DB
    else:
        loss = LOG_DISTANCE_REF_LOSS_DB + 10.0 * LOG_DISTANCE_EXPONENT * math.log10(d_m)
    return dbm_w(tx_dbm - loss)


def dbm_w(dbm):
    return 10.0 ** ((dbm - 30.0) / 10.0)


def band_share(k, m):
    """D2dChannel::BandShare: the m of K sub-channels a transmission takes (1: K = 0)."""
    return 1.0 if k == 0 else min(m, k) / k


def thermal_noise_w(bandwidth_hz, noise_figure_db):
    """D2dChannel::ThermalNoiseW: k T0 B F, F = 10^(NF / 10)."""
    return BOLTZMANN_J_PER_K * NOISE_TEMPERATURE_K * bandwidth_hz \
        * 10.0 ** (noise_figure_db / 10.0)


def d2s_noise(p):
    """sigma^2 of the D2S cell: d2sNoisePowerW when >= 0 (graph-discovery), else
    noisePowerW."""
    d2s = p.get("d2sNoisePowerW", -1)
    return d2s if isinstance(d2s, (int, float)) and d2s >= 0 else p.get("noisePowerW")


def noise_in_force(p):
    """{channel: (sigma^2 of eq. 18 on its links, how)}, recomputed from run.json's inputs
    (never from noisePowerInForceW, which it is checked against): --noise=constant (or a
    run.json without noise) noisePowerW, the D2S cell d2sNoisePowerW where >= 0; --noise=
    thermal k T0 B F (k = 1.380649e-23 J/K, T0 = 290 K, F = 10^(noiseFigureDb / 10)) over
    the bandwidth a transmission uses, B = bandwidthHz x min(m, K) / K (m =
    subChannelsPerTransmission; K the D2D channel's ns3::D2dChannel::SubChannels, else
    subChannels; K = 0: all of bandwidthHz), the D2S cell over d2sBandwidthHz where > 0 with
    K = d2sSubChannelsInForce. A value None where run.json lacks an input."""
    kind = p.get("noise", "constant")
    if kind != "thermal":
        return {"D2D": (p.get("noisePowerW"), "noisePowerW (--noise=%s)" % kind),
                "D2S": (d2s_noise(p), "d2sNoisePowerW if >= 0, else noisePowerW (--noise=%s)"
                        % kind)}
    m = p.get("subChannelsPerTransmission", p.get("ns3::D2dChannel::SubChannelsPerTransmission",
                                                  1))
    nf = p.get("noiseFigureDb")
    k_d2d = p.get("ns3::D2dChannel::SubChannels", p.get("subChannels", 0))
    k_d2s = p.get("d2sSubChannelsInForce")
    if not is_number(k_d2s):
        k_d2s = p.get("d2sSubChannels", -1)
        k_d2s = p.get("subChannels", 0) if is_number(k_d2s) and k_d2s < 0 else k_d2s
    band = p.get("bandwidthHz")
    d2s_band = p.get("d2sBandwidthHz", -1)
    d2s_band, d2s_key = (d2s_band, "d2sBandwidthHz") if is_number(d2s_band) and d2s_band > 0 \
        else (band, "bandwidthHz")
    out = {}
    for ch, bw, key, k in (("D2D", band, "bandwidthHz", k_d2d), ("D2S", d2s_band, d2s_key, k_d2s)):
        how = ("k T0 B F (--noise=thermal, F = 10^(noiseFigureDb %s / 10), B = %s x min(m, "
               "K) / K, m %s, K %s; K = 0: all of it)" % (fmt(nf), key, fmt(m), fmt(k)))
        if not all(is_number(v) for v in (nf, bw, k, m)) or k < 0:
            out[ch] = (None, how)
            continue
        out[ch] = (thermal_noise_w(bw * band_share(int(k), int(m)), nf), how)
    return out


def read_matrix(path):
    """The --rssFile matrix (rows = receivers), or None if absent or unreadable."""
    if not path or not os.path.isfile(path):
        return None
    try:
        with open(path) as fh:
            rows = [[float(x) for x in line.replace(",", " ").split()]
                    for line in fh if line.strip() and not line.lstrip().startswith("#")]
    except (OSError, ValueError):
        return None
    return rows if rows and all(len(r) == len(rows) for r in rows) else None


def positional(a, ch):
    """Whether the links of channel ch take their RSS from the propagation chain (the
    environment: --propagation, --shadowing, --nakagamiM) rather than from --rssFile,
    --dynamicRssLevels or a drop probability (the D2S links: --d2sDropProbability)."""
    p = a.params
    if ch == "D2S":
        return not (is_number(p.get("d2sDropProbability")) and p["d2sDropProbability"] >= 0)
    return not (p.get("rssFile") or p.get("dynamicRssLevels")
                or (is_number(p.get("dropProbability")) and p["dropProbability"] >= 0))


def held(a, ch):
    """(True, None) where a static link of channel ch keeps one RSS (no movement checked
    here), else (False, why): fading, or a loss model that may draw anew (Environment)."""
    if not positional(a, ch) or a.env.held:
        return True, None
    return False, a.env.why_held


def moves(a):
    """Whether the devices move: run.json's mobility (a run of an older d2dlearn: speedMps)."""
    mobility = a.params.get("mobility")
    if mobility is None:
        return a.params.get("speedMps", 0) != 0
    return mobility != "constant"
