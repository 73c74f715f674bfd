#!/usr/bin/python3
"""Audit every number a d2dlearn run reports against its own traces.

Usage:  /usr/bin/python3 analysis/audit.py [--skipped] RUN_DIR [RUN_DIR ...]

Standard library only (csv, json, math), no code shared with the C++ writers, nor with the
plotting scripts but the reading of run.json (d2dlearn_analysis.reader) and the one-line
errors (d2dlearn_analysis.errors): every number is recomputed here. For each RUN_DIR (a
folder holding run.json) every check below runs; each violation is one line

    RUN_DIR: FILE:ROW: CHECK: what, expected X got Y

(ROW is the line number in the CSV file, header = line 1; for run.json the key path). Exit
status 1 if any violation, else 0 with one line "audit: N runs, M checks, 0 violations".
With --skipped, one line per check left out on purpose, with its reason ("RUN_DIR: skipped:
FILE: CHECK: why"), before that last line.
A missing folder, a folder without run.json or a run.json of UTF-8 text that is no JSON
object: one line on stderr (audit.py: error: RUN_DIR: ...), exit status 2, before any run is
audited. Bytes that are not UTF-8 in run.json or in a trace, a NUL byte, text the csv module
refuses: a violation naming the file ("format", exit status 1), never a codec error; a
trace the checks cannot read otherwise is a violation, in one line ("could not be
audited"), never a traceback.

The CRC-32 of run.json's trace_files is an integrity check only: a trace whose record in
run.json was refitted to it (a buggy writer, a hand edit) must still fail the semantic
checks below, which recompute what the configuration and the other columns and files fix
(tests/analysis/test_audit_mutations.py lists what they cannot see, and why).

The radio environment (run.json's propagation, shadowingInForce, nakagamiM and the values in
force, D2dPropagationOptions::Record; a run.json without them: the defaults) decides which
RSS checks can run (Environment):
  default: --propagation=log-distance (propagationLossModel ns-3's LogDistance...), no
    shadowing (shadowingInForce false), no fading (nakagamiM 0): each link's RSS is ns-3's
    log-distance loss at positions.csv's positions, recomputed (checks rss, interference, the
    D2S distance of check p_drop);
  friis: --propagation=friis without shadowing nor fading: ns-3's FriisPropagationLossModel at
    frequencyInForceHz over the 3-D distance, recomputed the same way (no D2S distance);
  held: any other environment whose static links keep their RSS (no fading; the TR 38.901
    presets umi, uma, rma, indoor-office, whose LOS state, O2I loss and shadowing are drawn
    once a link; log-normal shadowing; a deterministic ns-3 loss model such as Cost231): the
    RSS is no function of the positions, so rss_w is tied to p_drop and sigma^2 (check sinr)
    and each link's rows keep one RSS and p_drop (checks p_drop, sinr; gd_links.csv's p_drop,
    check discovery), and a co-channel sender's W_ij in check interference is the rss_w of
    link j->i's rows;
  neither (nakagamiM > 0: fading drawn at each evaluation, or each coherence block; the V2V
    presets, whose NLOSv blockage loss is drawn at each evaluation; an ns-3 loss model the
    audit does not know; ns-3's own shadowing of a 3GPP TypeId that is no preset): only check
    sinr's per-row relations, and check interference as a lower bound.
sigma^2 of eq. 18 is recomputed from the inputs (noise_in_force): --noise=constant
noisePowerW (the D2S cell d2sNoisePowerW where >= 0); --noise=thermal k T0 B F, k =
1.380649e-23 J/K, T0 = 290 K, F = 10^(noiseFigureDb / 10), B the bandwidth a transmission
uses: bandwidthHz x min(m, K) / K (m = subChannelsPerTransmission, K the D2D channel's
ns3::D2dChannel::SubChannels, else subChannels; K = 0: all of it), the D2S cell
d2sBandwidthHz where > 0 (else bandwidthHz) with K = d2sSubChannelsInForce. Every check
below that names sigma^2 uses it.

Checks (CHECK names as printed):

summary
    run.json's `summary`, recomputed from the CSV files. Tolerances per key:
    exact: message_rows, messages, fragments, retransmissions, bytes_sent,
      rounds_completed, best_<m>_round, metric, metric_from, kinds.*.rows,
      kinds.*.latency_n, kinds.*.latency_p95_estimator (integers and strings);
    relative 1e-9: complete_delivery_rate, delivered_rate, retransmissions_per_fragment,
      energy_j.* (rows summed in file order), kinds.*.complete_rate,
      kinds.*.latency_mean_s and kinds.*.latency_p95_s (t_recv_s - t_send_s from the
      nanosecond text; p95 linear interpolation between order statistics while a kind has
      at most 4,096 delivered rows; beyond, run.json's P-squared estimate must lie between
      the exact 0.93 and 0.97 percentiles),
      final_<m> and best_<m> (the values as rounds.csv prints them, 9 significant digits:
      node -1's rows, else the per-round mean of the device rows);
    simulated_time_s: equal to run.json's top-level value (1e-9 s, 9 decimals printed) and
      not before any time in a trace (it cannot be derived exactly: the run may stop after
      its last event);
    a summary key with no recomputation here is itself a violation ("no independent
    recomputation"), and so is a recomputed key missing from the summary.
    Allow-list (ALLOW_LISTED): wall_time_s, the wall clock, which no trace records; it is
    only compared with run.json's top-level wall_time_s.
results
    run.json's `summary.results`, a scenario's headline results, each recomputed from the
    traces (RESULTS); a result with no recomputation is a violation unless allow-listed
    (RESULTS_ALLOW_LISTED, with its reason). Learning scenarios: roundsCompleted and
    finalAccuracy / finalTestMse (rounds.csv node -1 at the highest round), bytesSent (the
    bytes of the distinct messages of the learning protocol: every kind but graph
    discovery's gd_* and pca_*); cmfl: ccpAttempts and consensusVotes (ccp.csv: its vote
    rows, those with outcome consensus); bayes-consensus: missedLocalUpdates (missed.csv). Graph discovery: gdEdgesFound and gdMeanLinkPDrop
    (gd_graph.csv), gdPointsSent / gdPointsReceived / gdPointsMoved / gdDeliveredFraction
    (gd_links.csv), gdRlEnergyJ / gdExchangeEnergyJ (gd_stages.csv: the D2D energy between
    stages; each row's d2d_j = energy.csv's radio_* rows up to its time), gdDiscoveryEndS
    (gd_energy.csv's round-0 row; and gd_energy.csv one row per (round, time) of rounds.csv's
    node -1 energy_j rows, its accuracy rounds.csv's node -1 accuracy of that round, 1e-8:
    check energy), gdMeanW1ToUniformBefore / After (W1 to uniform of the
    label histograms: gd_diversity.csv's first "before" and last "after" rows over every
    device; unsupervised: gd_subspace.csv's label_w1 columns over the devices that took
    part) and the ends of gdMeanW1ToUniformPerEdge, the PCA's bytes, sketches and D2S energy
    (messages.csv pca_* rows, energy.csv), the labelling's mean accuracies
    (gd_labelling.csv), the devices in the subspace (gd_subspace.csv) and targetsReached
    (gd_energy.csv: the first round whose accuracy reaches each target, and its energies).
    Tolerances: relative 1e-8 for values from 9-significant-digit columns, else 1e-9.
run-json
    message_rows / energy_rows equal the data rows of messages.csv / energy.csv; traces is
    standard or full, and messages.csv has no row of a kind untraced_message_rows lists
    (--traces=standard leaves those kinds out; the summary describes the rows written);
    linkRateBps equals spectralEfficiency x bandwidthHz (the rate eq. 18 assumes), times
    m / K with a finite spectrum (m = subChannelsPerTransmission, K = subChannels > 0); with
    a server, d2sLinkRateBps the same with K = d2sSubChannelsInForce, which equals
    d2sSubChannels (subChannels where it is -1), and d2sBandwidthHz where it is > 0 (the D2S
    cell's own band). noisePowerInForceW and d2sNoisePowerInForceW (sigma^2 the D2D channel
    and the D2S cell used, where recorded) equal sigma^2 recomputed from the inputs above
    (relative 1e-12); noise is constant or thermal.
header
    messages.csv and energy.csv have their documented columns (energy.csv the same nine at
    both trace levels: sim_time_s, node, component, energy_j, remaining_j, start_s,
    duration_s, power_w, periods); messages.csv on the channel backend has the seven channel
    columns t_start_s, airtime_s, sub_channel, interference_w, sleep_wait_s, rss_w, sinr
    after reason in every run, whatever K (D2dTraceHelper::SetSpectrumColumns; a run.json
    with propagationLossModel or noisePowerInForceW is of a d2dlearn that writes them); the
    Wi-Fi backend none. A run of an older d2dlearn (a run.json without them) is read as it
    was: the five spectrum columns (four before DRX: no sleep_wait_s) on the channel backend
    when its header has them or a K in force is > 0 (subChannelsInForce, or
    d2sSubChannelsInForce), else none.
trace-files
    run.json's trace_files lists every CSV file of the folder, and each listed file is there
    with the data rows (lines after the header) and the CRC-32 (zlib's) the run wrote it
    with: a file that lost rows, was cut or had a value changed since is a violation.
format
    every CSV file ends with a newline (a file cut while written does not), is UTF-8 text
    without NUL bytes (a byte that is not UTF-8 is read as U+FFFD: its value fails its own
    check too) and each of its rows has as many fields as its header (a row cut mid-way, or
    with a field too many, is a violation with its line, and left out of the other checks);
    the columns the writers always fill (ALWAYS_WRITTEN: in messages.csv all but t_recv_s,
    reason, t_start_s, airtime_s, sub_channel, rss_w and sinr; every column of energy.csv,
    rounds.csv, positions.csv and availability.csv; every column of gd_links.csv but trust)
    are not empty.
    run.json: UTF-8 too.
resolution
    each (msg_id, dst) has exactly one row (delivered or lost, never twice); a row is
    delivered exactly when its reason is empty; reason is one of the documented ones
    (rx_busy among them: see receive-chains).
complete
    complete = 1 implies delivered = 1; complete = delivered and fragments_lost = 0.
fragments
    fragments = max(1, ceil(bytes / mtuBytes)) (D2D backend); 0 <= fragments_lost <=
    fragments; a row that is not delivered lost all its fragments unless the reason is
    retry_limit (then at least one); reliable rows that are delivered lost none;
    unreliable rows have no retransmissions; the rows of one msg_id agree on kind, src,
    bytes, fragments, t_send_s and mode.
p_drop
    0 <= p_drop <= 1 on every row; out_of_range rows have p_drop 1; and the value of
    the link:
      --backend=wifi: 0 (no eq. 18 at packet level);
      D2S rows (src or dst = nDevices, the server) with --d2sDropProbability >= 0: that
        value; D2D rows with --dropProbability >= 0: that value;
      D2D rows with --rssFile (when the file is readable): eq. 18,
        1 - exp(-(2^r - 1) sigma^2 / W[dst][src]) with r = spectralEfficiency, sigma^2
        recomputed (constant: noisePowerW; thermal: k T0 B F) (W <= 0: 1);
      D2D rows with --dynamicRssLevels=L > 0: eq. 18 of one of the L bin centres
        MinW + (k + 1/2)(MaxW - MinW)/L (ns3::DynamicRssModel attributes in parameters);
      all to 1e-9. With the spectrum columns, sigma^2 + interference_w in eq. 18 (a fixed
      drop probability P is an RSS inverted with sigma^2 alone: 1 - (1 - P)^((sigma^2 + I)
      / sigma^2)); the rows below that keep one p_drop are those with interference_w 0
      (the others: check sinr). Where a static link keeps its RSS (the environment's
      "held", or links whose RSS is a drop probability or --rssFile; skipped with the
      reason under fading and the other environments): D2S rows with --d2sLinks=equal (or
      a run.json without d2sLinks) every one the same p_drop (every D2S link has the same
      length); D2S rows with --d2sLinks=distance on the channel, without movement (mobility
      constant), each device's rows (uplink and downlink) one p_drop; without movement and
      without dynamic RSS, each D2D link (src, dst) one p_drop. In the default environment
      only (log-distance, no shadowing, no fading, no loss model attribute on the command
      line; no --d2sDropProbability, a mobility that keeps the devices in the square: not
      gauss-markov), the D2S distance that p_drop stands for (eq. 18 and the log-distance
      loss inverted: exponent 3, 46.6777 dB at 1 m, at d2sTxPowerDbm, the D2S sigma^2 plus
      interference_w) lies between the server's (run.json serverPosition) least and
      greatest distance to the square [0, areaSideM]^2 at deviceHeightInForceM, relative
      1e-6.
time-order
    messages.csv: t_recv_s is empty exactly when delivered = 0, and not before t_send_s;
    every sim_time_s / t_send_s / t_recv_s not after simulated_time_s; every CSV with a
    sim_time_s column has it non-decreasing in file order; with a round column too, the
    rounds are non-decreasing in file order, and in rounds.csv each round's time is after
    the previous round's.
energy
    energy.csv: documented components (radio_sleep, radio_transition, d2s_sleep and
    d2s_transition among them: see power), rows of devices 0..nDevices-1 only (the server is
    mains powered), energy_j >= 0, 0 <= remaining_j, non-increasing per
    device but with --energySource=generic (a voltage-dependent remaining energy); with
    --energySource=linear or basic: remaining_j <= max(0, initialEnergyJ - the device's
    energy so far), and its last row's remaining_j = max(0, initialEnergyJ - its total
    energy) (initialEnergyJ: the device's own, run.json's initialEnergyJPerDevice, with
    --deviceProfiles' initial_energy_j; skipped where run.json does not list them, over
    10,000 devices) (tolerance (1e-14 x initialEnergyJ + 1e-9 J) x (periods + 10): the battery's
    float rounding and 1 ns of a 1 W draw a period of draw, the simulator's time step; a
    row holds the `periods` its last column counts: 1 at --traces=full);
    gd_energy.csv (graph-discovery, per group): total_j = d2d_j + d2s_j + compute_j, and
    each group equals energy.csv's rows of that group up to the row's sim_time_s
    (radio_* = d2d, d2s_* = d2s, compute), relative 1e-8 (9 significant digits printed).
power
    energy.csv: energy_j = power_w x duration_s on every row (relative 1e-9); each radio
    row's power_w (components radio_STATE and d2s_STATE) the state's power from run.json's
    parameters (relative 1e-9; at --traces=standard a row's power_w is its mean,
    energy_j / duration_s):
      the channel backend (ns3::D2dRadioEnergyModel::*): idle = IdlePowerW; rx = k x
        RxPowerW for an integer k, 1 <= k <= nDevices (RxPowerW per reception under way;
        standard: between RxPowerW and nDevices x RxPowerW); tx with Model=Power
        10^((P - 30)/10) / PaEfficiency + TxCircuitPowerW, P = txPowerDbm for radio_tx and
        d2sTxPowerDbm for d2s_tx; with Model=Constant TxCircuitPowerW; with
        Model=FirstOrder rx = k x rate x ElecJPerBit (rate: linkRateBps, for d2s_*
        d2sLinkRateBps) and tx >= rate x ElecJPerBit (its eps_amp d^2 term is skipped: no
        trace records the receiver's distance); sleep = SleepPowerW; transition =
        SleepPowerW + SleepTransitionEnergyJ / SleepTransitionTime (an ns-3 Time); a sleep
        or transition row without SleepPowerW in the parameters is a violation;
      --backend=wifi (run.json records none of ns-3's currents): ns-3's
        WifiRadioEnergyModel with its LinearWifiTxCurrentModel at 3 V, which is the
        ns3-wifi profile by construction: idle (IDLE, CCA_BUSY, SWITCHING) 0.273 A x 3 V,
        rx 0.313 A x 3 V (one frame at a time: never a multiple), sleep 0.033 A x 3 V (no
        transition row: WifiPhy sleeps and resumes at once), tx (10^((P - 30)/10) /
        (3 V x 0.10) + 0.273333 A) x 3 V, P as above; relative 1e-12 plus 4 ulps of the
        model's running energy total (its radio's rows stamped up to the row's sim_time_s)
        a period, over duration_s: a row's energy is the difference of that total, so a
        period of a few nanoseconds carries up to 1e-7 relative. Skipped (with the reason)
        with --energySource=liion or generic (the supply voltage varies) and with a command
        line that sets a WifiRadioEnergyModel, WifiTxCurrentModel or SupplyVoltage
        attribute;
      compute (Model=Flops): ns3::D2dComputeModel::BusyPowerW (the device's own,
        run.json's busyPowerWPerDevice, with --deviceProfiles' busy_power_w; skipped where
        run.json does not list them) or IdlePowerW (standard: between them); skipped with Model=Cpu, whose draw (alpha/2) f^3 follows each
        device's own CPU frequency, which run.json does not list.
partition
    energy.csv: at --traces=full, periods = 1 and duration_s = sim_time_s - start_s > 0
    exactly (nanoseconds); at standard, periods >= 1, duration_s >= periods ns and start_s +
    duration_s <= sim_time_s (the periods end by the flush). Per device and radio (prefix
    radio or d2s), its periods of the exclusive states tx, rx, idle, sleep and transition:
      full: follow each other from 0 to simulated_time_s with neither gap nor overlap, to
        the nanosecond; tx and rx may overlap only on the channel backend with
        ns3::D2dRadio::HalfDuplex false (an 802.11 PHY is in one state at a time);
      standard: their summed duration_s equals simulated_time_s exactly (full-duplex:
        between the sum less the shorter of tx and rx and the sum);
      a device with a row of remaining_j 0 (its battery depleted) ends there instead: full,
        at that row's sim_time_s; standard, between the end of the radio's last period and
        that row's stamp;
      devices that come and go (availability.csv): a radio draws nothing while its device
        is away, so its periods leave out its away intervals [t_leave, t_back), exactly:
        full, a gap over each and no period within one (its periods end at its last leave
        if it never came back); standard, the sum is the run's end (or the depletion) less
        its away time;
      with d2dRadioOff (the D2D radios off from time 0) no radio_* row; every other prefix
        that has rows has them on every device 0..nDevices-1, but a device away from time 0
        that never came back, or, over Wi-Fi, whose PHY (off since time 0) neither sent nor
        received a message of that radio (messages.csv; one that did without rows is a
        violation at that message's row).
    Skipped (with the reason) where it cannot hold: a state that draws 0 W writes no rows
    (IdlePowerW 0, as --radioProfile=first-order; a reception or transmission of 0 W;
    SleepPowerW 0). The server's radio has no energy model and no rows. Over Wi-Fi, a
    radio whose rows stop before the run's end with energy left (its WifiRadioEnergyModel
    switched to OFF) is a violation.
periods
    energy.csv at --traces=standard (--traces=full: periods = 1, check partition), on the
    channel backend. A row sums the periods of draw of its (device, component) that ended
    within one energy period (D2dTraceHelper::WriteEnergy: periods counts them, start_s the
    first one's start, duration_s their sum); the rows of one flush share its sim_time_s
    (the latest period's end) and follow the order of their last periods
    (D2dTraceHelper::FlushEnergy). A radio's model (D2dEnergyModel) closes the period of all
    its states whenever one state's draw changes (SetDraw -> ClosePeriod; 0 ns periods are
    not reported), so its periods follow each other without a gap; idle is drawn exactly
    when the radio is awake, neither transmits nor receives (D2dRadioEnergyModel::
    UpdateIdle), and no other change ends it. So within one flush its idle periods
    alternate with its runs of other periods: with B the periods of the radio's other rows
    of that flush, F = 1 if the flush begins with idle (the idle row's start_s the earliest
    of the radio's rows), L = 1 if it ends with idle (the radio's last row of the flush),
    and J the instants in the flush (after its first start, before start + the summed
    duration_s: half-duplex; full-duplex the latest row's start_s + duration_s) at which
    the radio is busy before and after and its draw changes, from messages.csv's air times
    (see busy_joins: a transmission or reception on record begins or ends there while
    another is under way across it or ends or begins there), the idle row's periods lie in
    [F + L, B - J + F + L - 1], and are 1 when B = 0; each leave of its device within the
    flush (availability.csv: the radio draws nothing until it is back) may part two idle
    periods as a busy one does: one more each (and the flush's periods end that much later).
    Skipped (with the reason) where a 0 ns busy state might join two idle periods into two
    rows' worth: a radio that may sleep
    (drx / d2sDrx, sleepWhileTraining, sleepBetweenIterations, a sleep or transition row:
    D2dDrx wakes a radio at the instant it fell asleep when a message comes then), a depleted
    battery (its radio switched off ends the receptions of its transmission, maybe where
    they began), linkRateBps / d2sLinkRateBps above 8e9 b/s or an air time of 0 ns on
    record (a one-byte message could take 0 ns), a state of 0 W (no rows), and the Wi-Fi
    backend (idle holds ns-3's IDLE, CCA_BUSY and SWITCHING, which may follow each other).
round-energy
    rounds.csv's energy rows (node -1: `energy_j`, the energy of all devices up to that
    time, and `energy_j.COMPONENT`): one set at every (round, sim_time_s) that has rows,
    when energy.csv has rows; each at least energy.csv's rows of its components stamped up
    to that time and at most those plus, per (node, component), the first row after it
    (--traces=full: the row closing the period of draw open then) or plus every later row
    (standard: no flush at a round's end, so no exact value but at the run's last stamp,
    where the bounds meet); the total the sum of its components; relative 1e-8; every set
    has every component's row (the writer writes them all, zeros too).
positions
    positions.csv (sim_time_s,node,x_m,y_m,z_m; written unless --rssFile, which has no
    positions): the samples at 0, positionEvery_s, 2 positionEvery_s, ... with none missing
    (time 0 only when positionEvery_s is 0); each sample one row per device 0..N-1 in order
    (N = nDevices), then the server's (node N) if any sample has it, and in each sample when
    the run has a server (energy.csv's d2s_* rows); the devices at 0 <= x_m, y_m <=
    areaSideM (1e-6 m) and z_m = deviceHeightInForceM (0 in a run.json without it: the
    plane; the 3GPP presets' antennas 1.5 m or 1.6 m up), the server at run.json's
    serverPosition (5e-7 m: 6 decimals; outside the square too); with mobility constant,
    every device where its first row puts it;
    with constant mobility, a positive rangeM on the D2D channel and RSS from the positions
    (no --rssFile, no --dynamicRssLevels; any environment: the range is a distance), every
    messages.csv D2D row that is not out_of_range joins devices closer than rangeM at
    positions.csv's positions (3-D, 1e-5 m: 6 decimals).
spectrum
    (messages.csv with the spectrum columns; a row is on the D2S cell when src or dst is the
    server, N = nDevices, else on the D2D channel, each with its own K.) t_start_s and
    airtime_s are both given or both empty; given on every row whose transmission went on
    the air (delivered, loss, retry_limit, half_duplex, rx_busy, receiver_off,
    receiver_asleep), empty on
    out_of_range and cancelled rows (sender_off and unfinished: either); sub_channel empty
    off the air or on a channel with K = 0, else m distinct ascending indices in 0..K-1
    joined by '+'; interference_w >= 0, and 0 off the air, with K = 0, with
    --interference=false and on a single cell (scheduled access and spectrumReuse none:
    the D2S cell always); the rows of one msg_id on the air agree on t_start_s, airtime_s
    and sub_channel. On a single cell no two messages are on one sub-channel at once:
    each starts at or after (1 ns) the end t_start_s + airtime_s of every earlier one (a
    message cut short, sender_off or unfinished, left the air at an unknown time: only its
    start counts). interference_w > 0 needs another message on one of its sub-channels on
    the air at its t_start_s (1 ns; not checked at --traces=standard with untraced kinds,
    which may have been on the air).
airtime
    airtime_s = bits / rate of its channel (linkRateBps, D2S d2sLinkRateBps), to 1 ns (the
    simulator's Time rounding): full fragments (mtuBytes + FragmentHeaderBytes) x 8 bits,
    the last (bytes - (fragments - 1) mtuBytes + header) x 8; unreliable (fragments - 1)
    full and one last; reliable (fragments + retransmissions - L) full and L last for some
    L in 1..maxRetransmissions + 1 (the last fragment's transmissions, between the bounds
    (fragments + retransmissions) x last and x full bits). sender_off and unfinished rows
    (the transmission may have stopped early): between 0 and (fragments +
    retransmissions) full fragments.
time-order (spectrum)
    t_start_s not before t_send_s (the queueing delay >= 0) nor after simulated_time_s; a
    delivered row's t_recv_s - (t_start_s + airtime_s), the propagation delay, between 0 and
    P (1 ns): P the light time over the square's diagonal on D2D links; on D2S links over the
    server's farthest distance to the square (--d2sLinks=distance) or d2sDistanceFactor
    diagonals (equal: the fixed D2S length is that factor times the mean D2D distance);
    1e-4 s where the audit does not know the geometry (--rssFile, gauss-markov, another
    PropagationDelayModel).
receive-chains
    on a channel with K > 0, at most C = min(receiveChains or K, K) receptions at once at a
    receiver: the rows received to the end (delivered, loss, retry_limit) each take a chain
    over [t_start_s + P, t_start_s + airtime_s - 1 ns) (the part certainly at the receiver
    whatever its propagation delay, P as above). An rx_busy row: only under immediate
    access with finite chains (K > 0 or receiveChains > 0), and (spectrum columns, no
    untraced kinds) C other messages possibly in progress at its receiver when it arrived
    (started by t_start_s + P, not ended before t_start_s).
sinr
    (the channel columns rss_w and sinr: every channel run of the current d2dlearn, every
    environment) rss_w and sinr are empty on out_of_range rows (the link was not
    evaluated) and given on every other row, rss_w > 0 (these three: check rss); sinr =
    rss_w / (sigma^2 + interference_w) with sigma^2 recomputed (relative 1e-12; both
    printed shortest round-trip); p_drop = 1 - exp(-(2^r - 1) / sinr), eq. 18 in its SINR
    form, r = spectralEfficiency on D2D and D2S rows alike, within 1e-15 + 1e-12 p_drop;
    but a row D2dChannel::DropUnsent wrote (cancelled, sender_off, unfinished) may have
    p_drop 1 for a link not heard (unless LinkRss knows it is heard). So in every
    environment p_drop, sigma^2, interference_w and the W_ij behind them agree.
    Where each link's RSS W stays constant (mobility constant, no --dynamicRssLevels, the
    environment "held": no fading, no loss model that draws at each evaluation; a
    --dropProbability is a constant W too; skipped with the reason elsewhere), W =
    -(2^r - 1)(sigma^2 + interference_w) / ln(1 - p_drop) from each row with 0 < p_drop < 1
    is the same on every row of a D2D link (src, dst), of a device's D2S uplink and
    downlink, of every D2S link with --d2sLinks=equal: relative 1e-9 plus 4.4e-16 / ((1 -
    p) |ln(1 - p)|) (p_drop = 1 - exp(-x) in double carries no more digits of x); and so is
    rss_w, relative 1e-15 (the same double). It can hold only if the channel used I as
    eq. 18 says: a changed interference_w (or p_drop) moves that row's W.
rss
    where the audit recomputes a link's RSS from run.json and positions.csv (static
    devices, channel backend; LinkRss): each row's rss_w (relative the recomputation's
    tolerance plus 1e-12) and, each row with 0 < p_drop < 1, the RSS W = (2^r - 1)(sigma^2 +
    interference_w) / -ln(1 - p_drop) it stands for (eq. 18) equal the link's RSS:
    D2D links with --dropProbability P the constant (2^r - 1) sigma^2 / -ln(1 - P), with
    --rssFile the matrix, else, in the default environment, ns-3's log-distance loss
    (exponent 3, 46.6777 dB at 1 m) at txPowerDbm over the positions' 3-D distance
    (FixedDistanceM if > 0), and with --propagation=friis without shadowing nor fading
    ns-3's Friis loss (FriisPropagationLossModel::DoCalcRxPower, SystemLoss 1, MinLoss 0):
    P_rx = P_tx + 10 log10(lambda^2 / (16 pi^2 d^2)), lambda = 299792458 / frequencyInForceHz,
    the loss at least 0 dB (d below lambda / (4 pi): P_tx; ns-3 only warns below 3 lambda),
    watts 10^((dBm - 30) / 10); D2S links the same with d2sDropProbability, d2sTxPowerDbm
    and, --d2sLinks=distance, the device's distance to the server, equal, max(1,
    d2sDistanceFactor x the mean distance of the devices' pairs); relative 1e-9 + 4.5e-6 m /
    distance (6 decimals printed) plus p_drop's rounding 4.4e-16 / ((1 - p) |ln(1 - p)|).
    Skipped (with the reason) with moving devices, dynamic RSS, a loss, RSS or channel
    condition model's attribute set on the command line, Wi-Fi, and in the other
    environments (3GPP presets, shadowing, fading, another ns-3 loss model: random LOS
    states, shadowing and fading are no function of the positions; there check sinr ties
    rss_w to p_drop).
interference
    (spectrum columns) interference_w recomputed as D2dSpectrum::InterferenceW: at the
    row's receiver i, the sum over the other transmissions of that channel on one of its
    sub-channels at its t_start_s, from a sender j != i that i hears (RxSensitivityW; the
    D2D channel's RangeM), of W_ij x shared sub-channels / the row's m, W_ij as in rss (in
    a "held" environment that check rss does not recompute: the rss_w of link j->i's rows,
    the one value the channel keeps for it; a link with an out_of_range row is not heard). A
    transmission starting or ending within 1 ns of t_start_s, or cut short (sender_off,
    unfinished), or whose hearing is within the positions' rounding of RangeM, may count or
    not: between the certain sum and that plus the uncertain ones, relative the RSS's
    tolerance plus 1e-12. Only a lower bound where a sender's RSS is unknown (fading: drawn
    at each evaluation; a link without a row); skipped at
    --traces=standard with untraced kinds (they were on the air too).
rounds
    rounds.csv: each (round, node, metric) exactly once; node -1's bytes_sent rows (there
    whenever its round_time_s rows are, but with the peer-to-peer algorithms decentralized,
    semi-decentralized and local, which write none; graph-discovery: its --downstream) sum
    to the bytes of messages.csv's distinct messages of the learning protocol (every kind
    but gd_* and pca_*), exactly; in a run stopped before its last round (--maxSimTime:
    run.json's summary rounds_completed below --rounds) those sent before the last row's
    time, up to those sent by it (the next round's first messages leave at that instant).
fl-round
    fedavg, fedprox, fedsgd (rounds.csv's participants and stragglers rows, node -1): with
    m = max(1, round(clientFraction x nDevices)), participants + stragglers is the number
    sampled, n = min(nDevices, round(s x m)) (--overSelection s), with devices that come and
    go n = min(available, round(s x m)) (rounds.csv's `available` of the round, check
    availability); the global_model rows sent at the round's start (1 ns; every device away
    then: the first return after it, when the server samples) go to n devices with
    --ns3::D2dFedAvg::Downlink=unicast, to at most n with a broadcast to all (n = nDevices;
    none for a device out of range), to at least n with a broadcast naming them (n <
    nDevices: every device in range gets a row; a failed row of a device not named then
    counts as failed below, so the rule is checked leniently); participants <= m and at
    most the sampled devices whose update reached the server complete during the round; a
    round that ended before --roundDeadline (1 ns) ended for a reason: m answers, every
    sampled device answered, or (--waitForFailed=false) every sampled device answered or is
    a known failure: its reliable global_model row not delivered, a busy reply, a leave
    during the round (availability.csv: t_leave in (start, end]) or its battery depleted
    then (energy.csv's first row of remaining_j 0, after the end of its periods before it).
    Skipped at --traces=standard with untraced kinds.
async-round
    fedasync, fedbuff: each version's `updates` row is 1 (fedasync) or --bufferSize
    (fedbuff), its staleness_mean and staleness_max >= 0, and the updates applied up to the
    last version are at most the complete update rows to the server by then (skipped at
    --traces=standard with untraced kinds).
availability
    devices that come and go (--meanOnTime and --meanOffTime, or --availabilityFile):
    availability.csv (sim_time_s,device,available) is there exactly when run.json's
    meanOnTime_s and meanOffTime_s are > 0 or its availabilityFile is given (a run.json
    without these keys: not checked); one row per change of a device's state: device in
    0..nDevices-1, available 0 or 1, each device's rows alternating 0, 1, 0, ... from 0 (a
    device is available until its first 0 row), sim_time_s non-decreasing and not after
    simulated_time_s. Its away intervals [t_leave, t_back) (t_back: never, for a device
    that did not come back): no messages.csv row sent by a device while away (t_leave <
    t_send_s < t_back) and none delivered to one (t_recv_s so); no compute period (a row of
    one period) overlapping one; with --availabilityFile (read from run.json's path, when
    it can be read here: else skipped), each device's away intervals those the file leaves
    it (before, between and after its intervals; 1 ns, within the run). The FedAvg family,
    decentralized FL and local training: rounds.csv has a node -1 `available` row in every round with a round_time_s row exactly
    when availability.csv is there, nDevices less the devices away at the round's start (the
    previous round's round_time_s row, 0 for round 1; the FedAvg family, every device away
    then: the first return after it, when the server samples), a change stamped at that
    instant counted either way. Checks partition, periods and fl-round take the away intervals in too.
beliefs
    bayes-consensus's beliefs.csv: one row per (step, node); --mode=discrete (the other
    modes write other columns): belief_true = exp(log_belief_true) (relative 1e-12), error
    0 or 1; rounds.csv's belief_true and error rows of each (round = step, node) its values
    (belief_true with 9 significant digits, exactly), both there for each of its rows.
consensus
    consensus (trust.csv, consensus.csv): each trust row's received is fresh, reused or
    missing, counted per (round, node) as consensus.csv's fresh, reused and missing; the
    row of the node itself has w = self_trust; each (round, node) in both files. From W,
    trust.csv's w of the round (9 significant digits; a node without trust rows keeps its
    own predictions, row e_i): column_sum and column_sum_offdiag W's column sums with and
    without the diagonal, trace its diagonal's sum, delta max_j (max_i - min_i w_ij),
    lambda 1 - the least sum_j min(w_aj, w_bj) over row pairs, each within 5e-9 of every
    term and of the value; product_delta delta of the product of the rounds' W so far
    (plus 2e-8 a round); consensus_weight >= 0 summing to 1; trace, delta, lambda,
    product_delta and disagreement the same on every row of a round.
    bayes-consensus: consensus.csv one row per (step, node) of beliefs.csv; each node's
    fresh + reused + renormalized_out (its in-neighbours) the same at every step;
    renormalized_out 0 with lossRule reuse, reused 0 with renormalize.
committee
    cmfl: committee.csv one row per round of rounds.csv's node -1 training_clients, at that
    row's time, its training, committee and aggregation rounds.csv's training_clients,
    committee_clients and aggregated (exactly); n1 <= training, n2 <= committee, n3 <=
    aggregation, each and next_n2 at most the devices of run.json's maliciousDevices;
    next_committee elected, drawn or kept; next_n2 the next row's n2 (n2 itself when kept);
    ccp.csv's last row of each round at committee.csv's time of that round (the vote that
    ends the round). aggregation.csv one row per device 0..N-1 in order, malicious = 1
    exactly for maliciousDevices, each column summing over the devices to committee.csv's
    training, committee and aggregation over its rounds, and over the malicious devices to
    its n1, n2 and n3.
discovery
    graph-discovery: gd_iterations.csv one row per (edge of gd_graph.csv, traced iteration:
    i % traceEvery = 0 or the last, node 0..N-1) in that order; exchanged 0 or 1; reward =
    local_reward + gamma x global_reward within 5e-9 of each term (9 significant digits).
    gd_policy.csv: chosen = 1 exactly where its transmitter is gd_graph.csv's for (edge,
    node); value = total_reward / count (5e-9); with --graph=rl, per-action buffers and
    iterations <= bufferSize, the counts of a node with a transmitter in gd_graph.csv sum
    to the iterations. gd_nodes.csv: one row per device in order; static devices: x_m, y_m
    positions.csv's text; supervised: min_labels = minLabels if > 0, else min(labels of
    gd_diversity.csv, satisfied_before + 1). gd_links.csv: transmitter gd_graph.csv's of
    (edge, receiver); sent = allocated (exactly); static links (mobility constant, no
    --dynamicRssLevels, an environment that keeps a static link's RSS: not with fading):
    p_drop gd_graph.csv's of that link (5e-9 relative: 9 significant
    digits against 17); trust empty exactly for the unsupervised paradigm, else one 0/1 a
    label (the labels of gd_diversity.csv); shareable recomputed from the transmitter j's
    gd_diversity.csv "before" counts c_j of that edge (the exchange starts from them):
    supervised and semi-supervised, the integer sum over the labels of trust[l] x
    1[c_j[l] > b_j], b_j = floor(thresholdFraction x |D_j| + 1e-9), |D_j| the sum of j's
    edge-0 "before" counts (D2dMessagePassing::Available), exactly (whole counts, printed
    exactly); unsupervised, sum over the clusters of
    max(0, c_j[l] - ceil(RetainFraction x c_j[l])) (D2dUnsupervisedParadigm::Offer; the
    receiver plays no part) within 5e-9 of it and of each count (exact for whole counts).
network-mean
    where node -1 is a mean over the devices, in every round and metric that has device
    rows, node -1 equals the mean of the device rows over the regular agents, relative
    1e-8 (9 significant digits printed): consensus (run.json parameters `flipList`,
    `flippedDevices`) leaves the flipped agents out; bayes-consensus with `cooperation` =
    network and fedavg's decentralized and local algorithms average every device row.
"""

import sys

# The implementation: the package beside this script (analysis/d2dlearn_analysis/audit/: core,
# the registry of checks, and one module per trace file or family of files).
from d2dlearn_analysis.audit import cli
# The names researchers' scripts use, as before the package.
from d2dlearn_analysis.audit.checks import CHECKS, audit
from d2dlearn_analysis.audit.core import Audit
from d2dlearn_analysis.audit.run_json import load_run_json

__all__ = ["main", "audit", "Audit", "CHECKS", "load_run_json"]


def main(argv):
    """The command line (d2dlearn_analysis.audit.cli.main), with this docstring as its --help."""
    return cli.main(argv, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
