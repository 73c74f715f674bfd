"""The registry of the audit's checks (CHECKS: each check function, what it takes, when it
runs, in the order they run) and the audit of one run folder (audit): run.json's radio
environment and sigma^2, the main traces read and parsed (Traces: messages.csv, energy.csv,
rounds.csv, availability.csv), then every check of CHECKS. The files: each check's module.
"""

from d2dlearn_analysis.reader import read_run_json
from d2dlearn_analysis.audit.availability import (
    away_intervals, check_availability, check_available_rows)
from d2dlearn_analysis.audit.committee import check_committee
from d2dlearn_analysis.audit.consensus import (
    check_belief_consensus, check_beliefs, check_trust, check_trust_matrix)
from d2dlearn_analysis.audit.core import AVAILABILITY_COLUMNS, Audit, ENERGY_COLUMNS, parse_times
from d2dlearn_analysis.audit.discovery import check_discovery
from d2dlearn_analysis.audit.energy import check_energy
from d2dlearn_analysis.audit.environment import Environment, noise_in_force
from d2dlearn_analysis.audit.gd_energy import check_group_rounds
from d2dlearn_analysis.audit.link_rss import LinkRss
from d2dlearn_analysis.audit.messages import (
    MESSAGE_COLUMNS, check_complete, check_fragments, check_message_times, check_p_drop,
    check_resolution, parse_messages)
from d2dlearn_analysis.audit.partition import check_partition
from d2dlearn_analysis.audit.periods import check_periods
from d2dlearn_analysis.audit.positions import check_positions
from d2dlearn_analysis.audit.power import check_power
from d2dlearn_analysis.audit.rounds import (
    check_async_rounds, check_fl_rounds, check_network_mean, check_round_energy, check_rounds)
from d2dlearn_analysis.audit.rss import (
    check_interference, check_link_columns, check_rss, check_sinr)
from d2dlearn_analysis.audit.run_json import check_noise, check_run_json, check_trace_files
from d2dlearn_analysis.audit.spectrum import (
    Spectrum, check_airtime, check_receive_chains, check_spectrum, check_spectrum_times,
    check_sub_channel_use)
from d2dlearn_analysis.audit.summary import check_summary
from d2dlearn_analysis.audit.times import check_files


class Traces:
    """The traces the checks of one run take, read and parsed once, in this order (the order
    of their format and header violations): messages.csv (its
    columns those of the backend and the run's d2dlearn: Spectrum), energy.csv, rounds.csv
    and availability.csv (its away intervals: Audit.away). sp is the run's Spectrum,
    spectrum whether messages.csv has the spectrum columns, rss the run's LinkRss (made at
    its first use: after check positions, whose static devices' positions it needs)."""

    def __init__(self, a):
        self.a = a
        self.sp = sp = Spectrum(a)
        messages = a.read_csv("messages.csv",
                              MESSAGE_COLUMNS + sp.with_columns(a),
                              required=True, why=sp.columns_why()) or []
        energy = a.read_csv("energy.csv", ENERGY_COLUMNS, required=True,
                            why=" (the same at every trace level)") or []
        rounds = a.read_csv("rounds.csv")
        availability = a.read_csv("availability.csv", AVAILABILITY_COLUMNS,
                                  why=" (devices that come and go)")
        if availability is not None:
            parse_times(a, availability, "availability.csv", ("sim_time_s",))
            a.number(availability, "availability.csv", "device", int, "availability")
        a.away = away_intervals(a, availability)
        self.spectrum = parse_messages(a, messages)
        a.number(energy, "energy.csv", "node", int)
        a.number(energy, "energy.csv", "energy_j")
        a.number(energy, "energy.csv", "remaining_j")
        a.number(energy, "energy.csv", "power_w")
        a.number(energy, "energy.csv", "periods", int)
        parse_times(a, energy, "energy.csv", ("start_s", "duration_s"))
        parse_times(a, energy, "energy.csv", ("sim_time_s",))
        if rounds is not None:
            a.number(rounds, "rounds.csv", "round", int)
            a.number(rounds, "rounds.csv", "node", int)
            a.number(rounds, "rounds.csv", "value")
            parse_times(a, rounds, "rounds.csv", ("sim_time_s",))
        self.messages, self.energy, self.rounds = messages, energy, rounds
        self.availability = availability
        self._rss = None

    @property
    def rss(self):
        if self._rss is None:
            self._rss = LinkRss(self.a, self.sp, self.messages)
        return self._rss

    @property
    def rss_columns(self):
        """Whether messages.csv has the channel columns rss_w and sinr."""
        return bool(self.messages) and "rss_w" in self.messages[0]


def note_server(a, energy):
    """Not a check: whether the run has a server, its D2S radios drawing (energy.csv's d2s_*
    rows), for check positions (the server's row in every sample)."""
    a.energy_d2s = any(r["component"].startswith("d2s_") for r in energy)


# The registry of the checks, in the order they run: the order of the violation lines and of
# the checks left out (--skipped); some use what an earlier one found (fl-round the
# depletions of partition, positions note_server's finding, discovery and LinkRss the static
# devices' positions of check positions). Each entry: (function, what it takes after the
# Audit: Traces' attributes, None or the Traces attribute that must be true for it to run).
CHECKS = (
    (check_summary, ("messages", "energy", "rounds"), None),
    (check_run_json, ("messages", "energy"), None),
    (check_noise, (), None),
    (check_trace_files, (), None),
    (check_resolution, ("messages",), None),
    (check_complete, ("messages",), None),
    (check_fragments, ("messages",), None),
    (check_p_drop, ("messages",), None),
    (check_message_times, ("messages",), None),
    (check_spectrum, ("messages", "sp"), "spectrum"),
    (check_sub_channel_use, ("messages", "sp"), "spectrum"),
    (check_airtime, ("messages", "sp"), "spectrum"),
    (check_spectrum_times, ("messages", "sp"), "spectrum"),
    (check_sinr, ("messages", "sp"), "spectrum"),
    (check_receive_chains, ("messages", "sp"), None),  # (rx_busy: with or without the columns)
    (check_energy, ("energy",), None),
    (check_power, ("energy",), None),
    (check_partition, ("energy", "messages"), None),
    (check_periods, ("energy", "messages", "sp"), None),
    (check_round_energy, ("energy", "rounds"), None),
    (check_network_mean, ("rounds",), None),
    (check_rounds, ("rounds", "messages"), None),
    (check_fl_rounds, ("rounds", "messages"), None),  # (after check_partition: a.depleted)
    (check_async_rounds, ("rounds", "messages"), None),
    (check_availability, ("availability", "messages", "energy"), None),
    (check_available_rows, ("rounds",), None),
    (check_beliefs, ("rounds",), None),
    (check_trust, (), None),
    (check_group_rounds, ("rounds",), None),
    (note_server, ("energy",), None),
    (check_positions, ("messages",), None),
    (check_committee, ("rounds",), None),
    (check_trust_matrix, (), None),
    (check_belief_consensus, (), None),
    (check_discovery, (), None),  # (after check_positions: the devices' positions)
    (check_rss, ("messages", "sp", "rss"), None),  # (LinkRss: after check_positions too)
    (check_link_columns, ("messages", "sp", "rss"), "rss_columns"),
    (check_interference, ("messages", "sp", "rss"), "spectrum"),
    (check_files, ("energy", "rounds"), None),
)


def audit(run_dir, run=None):
    """The Audit of a run folder (run: its parsed run.json, read here if None)."""
    a = Audit(run_dir, read_run_json(run_dir) if run is None else run)
    a.env = Environment(a.params)  # the RSS: --propagation, --shadowing, --nakagamiM
    a.noise = noise_in_force(a.params)  # sigma^2 of each channel, recomputed
    traces = Traces(a)
    for check, takes, when in CHECKS:
        if when is None or getattr(traces, when):
            check(a, *[getattr(traces, name) for name in takes])
    return a
