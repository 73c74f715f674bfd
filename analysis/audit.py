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

import bisect
import csv
import io
import json
import math
import os
import sys
import zlib

from d2dlearn_analysis.errors import AnalysisError, ArgumentParser, report
from d2dlearn_analysis import run_flags
from d2dlearn_analysis.reader import read_run_json
from d2dlearn_analysis.run_json import current_shares

MESSAGE_COLUMNS = ["msg_id", "kind", "src", "dst", "bytes", "t_send_s", "t_recv_s",
                   "fragments", "fragments_lost", "retransmissions", "delivered", "complete",
                   "mode", "p_drop", "reason"]
# energy.csv's columns, the same at --traces=full and standard (doc/reference/traces.md).
ENERGY_COLUMNS = ["sim_time_s", "node", "component", "energy_j", "remaining_j", "start_s",
                  "duration_s", "power_w", "periods"]
COMPONENTS = ["radio_tx", "radio_rx", "radio_idle", "compute", "d2s_tx", "d2s_rx", "d2s_idle"]
# The radios' sleep states, documented components that need the sleep attributes in run.json
# (no row of them without ns3::D2dRadioEnergyModel::SleepPowerW in its parameters).
SLEEP_COMPONENTS = ["radio_sleep", "radio_transition", "d2s_sleep", "d2s_transition"]
RADIO_PREFIXES = ("radio", "d2s")
# A radio's exclusive states: at every time of the run exactly one of them (tx and rx may
# overlap when ns3::D2dRadio::HalfDuplex is false, on the channel backend).
RADIO_STATES = ("tx", "rx", "idle", "sleep", "transition")
RADIO_MODEL = "ns3::D2dRadioEnergyModel::"
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
REASONS = {"", "loss", "retry_limit", "half_duplex", "out_of_range", "receiver_off",
           "sender_off", "cancelled", "unfinished", "rx_busy", "receiver_asleep"}
# availability.csv (devices that come and go: --meanOnTime/--meanOffTime, --availabilityFile):
# one row per change of a device's state, 0 when it leaves, 1 when it comes back.
AVAILABILITY_COLUMNS = ["sim_time_s", "device", "available"]
# The algorithms of the FedAvg family (check fl-round; rounds.csv's `available` rows).
FEDAVG_FAMILY = ("fedavg", "fedprox", "fedsgd")
# The columns the writers fill on every row (empty only where a column says "none": t_recv_s
# of a row not delivered, reason of a delivered one, the air columns of a message never on
# the air): an empty one is a violation ("format").
ALWAYS_WRITTEN = {
    "messages.csv": ["msg_id", "kind", "src", "dst", "bytes", "t_send_s", "fragments",
                     "fragments_lost", "retransmissions", "delivered", "complete", "mode",
                     "p_drop", "interference_w", "sleep_wait_s"],
    "energy.csv": ENERGY_COLUMNS,
    "rounds.csv": ["round", "sim_time_s", "node", "metric", "value"],
    "positions.csv": ["sim_time_s", "node", "x_m", "y_m", "z_m"],
    "availability.csv": AVAILABILITY_COLUMNS,
    # trust is empty for the unsupervised paradigm (check discovery: only there).
    "gd_links.csv": ["edge", "receiver", "transmitter", "p_drop", "requested", "allocated",
                     "sent", "received", "shareable"],
}
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
LIGHT_SPEED_MPS = 299792458.0  # ns-3's ConstantSpeedPropagationDelayModel
PROPAGATION_S = 1e-4  # propagation delay bound where the geometry is unknown
NS_TOL = 1  # ns: the simulator's time step (Time rounding)
METRICS = [("accuracy", True), ("mse", False), ("error", False)]
ALLOW_LISTED = {"wall_time_s": "the wall clock of the run: no trace records it (compared "
                               "with run.json's top-level wall_time_s only)"}
RESULTS_ALLOW_LISTED = {
    "gdGcnSystems": "the GCN baseline trains at the server outside simulated time: no trace "
                    "records its training",
    "gdGcnLossBefore": "the GCN's training loss at the server: no trace records the training",
    "gdGcnLossAfter": "the GCN's training loss at the server: no trace records the training",
    "gdGcnBestLinkAgreement": "the GCN's agreement with the best links on its training "
                              "systems: no trace records them",
}
# The file each summary key and result is recomputed from (named in its violation).
ROUND_KEYS = ("metric", "metric_from", "rounds_completed")
RESULT_FILES = {
    "roundsCompleted": "rounds.csv", "finalAccuracy": "rounds.csv", "finalTestMse": "rounds.csv",
    "bytesSent": "messages.csv", "ccpAttempts": "ccp.csv", "consensusVotes": "ccp.csv",
    "missedLocalUpdates": "missed.csv", "gdEdgesFound": "gd_graph.csv",
    "gdMeanLinkPDrop": "gd_graph.csv", "gdPointsSent": "gd_links.csv",
    "gdPointsReceived": "gd_links.csv", "gdPointsMoved": "gd_links.csv",
    "gdDeliveredFraction": "gd_links.csv", "gdRlEnergyJ": "gd_stages.csv",
    "gdExchangeEnergyJ": "gd_stages.csv", "gdDiscoveryEndS": "gd_energy.csv",
    "targetsReached": "gd_energy.csv",
    "gdMeanW1ToUniformBefore": ("gd_subspace.csv", "gd_diversity.csv"),
    "gdMeanW1ToUniformAfter": ("gd_subspace.csv", "gd_diversity.csv"),
    "gdPcaSubspaceMissed": "gd_subspace.csv", "gdDevicesTakingPart": "gd_subspace.csv",
    "gdPcaEndS": ("gd_subspace.csv", "gd_labelling.csv"),
    "gdLabellingMeanAccuracy": "gd_labelling.csv",
    "gdLabellingMeanUnlabelledAccuracy": "gd_labelling.csv",
    "gdLabellingEndS": "gd_labelling.csv", "gdPcaBytes": "messages.csv",
    "gdPcaSketchesReceived": "messages.csv", "gdPcaD2sEnergyJ": "energy.csv",
}
REL = 1e-9          # relative tolerance of recomputed floats
PRINTED = 1e-8      # relative tolerance of values printed with 9 significant digits
P_DROP_TOL = 1e-9   # absolute tolerance of p_drop
# run.json's latency_p95_s is exact (type 7) while a kind has at most this many delivered
# rows (D2dRunSummary::LATENCIES_EXACT), then the P-squared estimate, accepted between the
# exact percentiles 0.95 -/+ P2_RANK_WINDOW (its rank error; the gtest
# D2dStreamingQuantile.P2RankErrorBelowOnePercent measures under 0.01 on 200,000 values).
LATENCIES_EXACT = 4096
P2_RANK_WINDOW = 0.02


class Audit:
    """The checks of one run folder; violations collects the lines."""

    def __init__(self, run_dir, run):
        self.dir = run_dir
        self.checks = 0
        self.violations = []
        self.skipped = []  # (where, check, reason): what a check could not check, and why
        self.filled = set()  # the files whose ALWAYS_WRITTEN columns were checked (once)
        self.run = run  # the parsed run.json
        self.positions = None  # {node: (x, y, z)} of static devices (check positions)
        # {device: [(t_leave, t_back) ns]} of availability.csv (None without the file)
        self.away = None
        self.depleted = {}  # node -> (earliest, latest) ns its battery may have depleted at
        self.params = self.run.get("parameters", {})
        self.summary = self.run.get("summary", {})
        for key in ("parameters", "summary"):  # a run.json of another shape: a violation
            value = self.run.get(key, {})
            if self.expect(isinstance(value, dict), "run.json:" + key, "run-json", "an object",
                           "{...}", type(value).__name__):
                continue
            if key == "parameters":
                self.params = {}
            else:
                self.summary = {}

    # -- reporting -----------------------------------------------------------------
    def expect(self, ok, where, check, what, expected, got):
        """Count one check; record a violation when ok is false."""
        self.checks += 1
        if not ok:
            self.violations.append("%s: %s: %s: %s, expected %s got %s"
                                   % (self.dir, where, check, what, fmt(expected), fmt(got)))
        return ok

    def skip(self, where, check, reason):
        """Record a check left out on purpose, with its reason (printed with --skipped)."""
        if (where, check, reason) not in self.skipped:
            self.skipped.append((where, check, reason))

    def expect_close(self, where, check, what, expected, got, rel=REL, abs_tol=0.0):
        return self.expect(close(expected, got, rel, abs_tol), where, check, what,
                           expected, got)

    # -- reading -------------------------------------------------------------------
    def read_csv(self, name, columns=None, required=False, why=""):
        """Rows of name as dicts with their line number in '_line'; None if absent. A file
        whose last line has no newline (cut while written) and a row with another number of
        fields than the header are violations ("format"); such a row is left out. A header
        other than columns is a violation ("header"), why saying why those columns."""
        path = os.path.join(self.dir, name)
        if not os.path.exists(path):
            self.expect(not required, name, "header", "file missing", "a file", "none")
            return None
        with open(path, "rb") as fh:
            data = fh.read()
        self.expect(not data or data.endswith(b"\n"), name, "format",
                    "the last line is cut (no newline at its end)", "a newline", "none")
        text = self.decode(name, data)
        # csv.DictReader, not reader.read_trace (pandas): a row with another number of fields
        # than the header must be a violation at its line (pandas refuses the whole file for
        # one too many, fills one too few with NaN), every row needs the line it ends on,
        # and a number must be Python's correctly rounded float(), compared at 1e-9 (pandas'
        # default parser is not round-trip exact).
        reader = csv.DictReader(io.StringIO(text, newline=""))
        rows = []
        try:
            for row in reader:
                # The line the row ends on (a quoted field may span lines).
                line = reader.line_num
                fields = len(reader.fieldnames or [])
                got = fields - sum(1 for k, v in row.items() if k is not None and v is None) \
                    + len(row.get(None) or [])
                if got != fields:  # one violation a row; the file's check counted below
                    self.expect(False, "%s:%d" % (name, line), "format", "fields in the row",
                                fields, got)
                    self.checks -= 1
                    continue
                row["_line"] = line
                rows.append(row)
        except csv.Error as e:  # not CSV (a field beyond the csv module's limit): one line
            self.expect(False, "%s:%d" % (name, reader.line_num + 1), "format",
                        "CSV text (%s)" % " ".join(str(e).split()), "CSV", "unreadable")
        self.checks += 1
        try:
            header = reader.fieldnames or []
        except csv.Error:
            header = []
        if columns is not None:
            self.expect(header == columns, name + ":1", "header", "columns" + why,
                        ",".join(columns), ",".join(header))
        for column in ALWAYS_WRITTEN.get(name, ()) if name not in self.filled else ():
            if column not in header:
                continue
            empty = [r["_line"] for r in rows if r.get(column) in (None, "")]
            self.expect(not empty, "%s:%d" % (name, empty[0]) if empty else name, "format",
                        "a value in column %s on every row (the writer always writes one)%s"
                        % (column, "; empty on %d rows" % len(empty) if len(empty) > 1
                           else ""), "a value", "empty")
        self.filled.add(name)  # a file read by several checks: its empty values once
        return rows

    def decode(self, name, data):
        """data as UTF-8 text; a byte that is not UTF-8 (or a NUL) is a violation naming the
        file and its line ("format"), and is read as U+FFFD (its value then fails its check)."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            self.expect(False, "%s:%d" % (name, line), "format",
                        "UTF-8 text (%s)" % " ".join(str(e).split()), "UTF-8",
                        "byte 0x%02x at offset %d" % (data[e.start], e.start))
            text = data.decode("utf-8", errors="replace")
        if "\0" in text:
            self.expect(False, "%s:%d" % (name, text.count("\n", 0, text.index("\0")) + 1),
                        "format", "text without NUL bytes", "none", "a NUL byte")
            text = text.replace("\0", "\ufffd")
        else:
            self.checks += 1
        return text

    def number(self, rows, name, column, kind=float, check="header"):
        """Parse column of every row into row[column + '#'] (None if unparsable)."""
        for r in rows:
            text = r.get(column)
            try:
                value = kind(text) if text not in (None, "") else None
            except ValueError:
                value = None
                self.expect(False, "%s:%d" % (name, r["_line"]), check,
                            "%s is not a number" % column, kind.__name__, text)
            r[column + "#"] = value


def fmt(value):
    if isinstance(value, float):
        return repr(value)
    if value is None:
        return "null"
    return str(value)


def close(expected, got, rel=REL, abs_tol=0.0):
    """Equal within rel (relative) or abs_tol; exact for ints, strings, None, bools."""
    if expected is None or got is None or isinstance(expected, (str, bool)) \
            or isinstance(got, (str, bool)):
        return expected == got and type(expected) is type(got)
    if isinstance(expected, int) and isinstance(got, int):
        return expected == got
    if not isinstance(got, (int, float)) or not isinstance(expected, (int, float)):
        return False
    if math.isnan(expected) or math.isnan(got):
        return False
    return abs(expected - got) <= max(abs_tol, rel * max(abs(expected), abs(got)))


def seconds_ns(text):
    """Integer nanoseconds of a time printed with 9 decimals ('' -> None)."""
    if text in (None, ""):
        return None
    whole, _, frac = text.partition(".")
    if not (whole.isdigit() and (frac == "" or frac.isdigit()) and len(frac) <= 9):
        raise ValueError(text)
    return int(whole) * 1000000000 + int((frac + "000000000")[:9])


def percentile(values, q):
    """Linear interpolation between order statistics (numpy's default)."""
    x = sorted(values)
    h = (len(x) - 1) * q
    lo = int(math.floor(h))
    if lo + 1 >= len(x):
        return x[-1]
    return x[lo] + (h - lo) * (x[lo + 1] - x[lo])


def ratio(num, den):
    return num / den if den > 0 else None


def eq18(rss_w, spectral_efficiency, noise_w):
    """Eq. 18: P_D = 1 - exp(-(2^r - 1) sigma^2 / W), 1 for W <= 0."""
    if rss_w <= 0:
        return 1.0
    return 1.0 - math.exp(-(2.0 ** spectral_efficiency - 1.0) * noise_w / rss_w)


# -- recomputation of the summary -------------------------------------------------------
def expected_message_summary(rows):
    n = len(rows)
    out = {"message_rows": n,
           "complete_delivery_rate": ratio(sum(r["complete"] == "1" for r in rows), n),
           "delivered_rate": ratio(sum(r["delivered"] == "1" for r in rows), n)}
    per_msg = {}
    kinds = {}
    for r in rows:
        m = per_msg.setdefault(r["msg_id"], {"retx": 0})
        m["bytes"] = r["bytes#"] or 0
        m["fragments"] = r["fragments#"] or 0
        m["retx"] = max(m["retx"], r["retransmissions#"] or 0)
        k = kinds.setdefault(r["kind"], {"rows": 0, "complete": 0, "latencies": []})
        k["rows"] += 1
        k["complete"] += r["complete"] == "1"
        if r["delivered"] == "1" and r["t_recv_ns"] is not None and r["t_send_ns"] is not None:
            k["latencies"].append((r["t_recv_ns"] - r["t_send_ns"]) / 1e9)
    out["messages"] = len(per_msg)
    out["fragments"] = sum(m["fragments"] for m in per_msg.values())
    out["retransmissions"] = sum(m["retx"] for m in per_msg.values())
    out["retransmissions_per_fragment"] = ratio(out["retransmissions"], out["fragments"])
    out["bytes_sent"] = sum(m["bytes"] for m in per_msg.values())
    out["kinds"] = {}
    for name, k in kinds.items():
        lat = k["latencies"]
        exact = len(lat) <= LATENCIES_EXACT
        p95 = percentile(lat, 0.95) if lat else None
        if not exact:
            # The P-squared estimate (Jain and Chlamtac 1985) has no exact recomputation:
            # it must lie between the exact percentiles P2_RANK_WINDOW either side of 0.95.
            p95 = RankWindow(percentile(lat, 0.95 - P2_RANK_WINDOW),
                             percentile(lat, 0.95 + P2_RANK_WINDOW))
        out["kinds"][name] = {
            "rows": k["rows"], "complete_rate": ratio(k["complete"], k["rows"]),
            "latency_n": len(lat),
            "latency_mean_s": sum(lat) / len(lat) if lat else None,
            "latency_p95_s": p95,
            "latency_p95_estimator": "exact" if exact else "p2"}
    return out


def expected_energy_summary(rows, run=None):
    """energy_j per component and total; the sleep components (SLEEP_COMPONENTS) are keys
    when the run has the sleep attributes, rows of them or such keys in its summary."""
    energy = {c: 0.0 for c in COMPONENTS}
    run = run or {}
    summary = (run.get("summary") or {}).get("energy_j")
    sleeping = RADIO_MODEL + "SleepPowerW" in (run.get("parameters") or {}) \
        or any(r["component"] in SLEEP_COMPONENTS for r in rows) \
        or (isinstance(summary, dict) and any(c in summary for c in SLEEP_COMPONENTS))
    if sleeping:
        energy.update({c: 0.0 for c in SLEEP_COMPONENTS})
    total = 0.0
    for r in rows:
        value = r["energy_j#"] or 0.0
        energy[r["component"]] = energy.get(r["component"], 0.0) + value
        total += value
    energy["total"] = total
    return energy


def curve(points, higher_is_better):
    """final (value of the highest round, its last row), best and best's first round."""
    final_round = final = best = best_round = None
    for rnd, value in points:
        if final_round is None or rnd >= final_round:
            final_round, final = rnd, value
        if math.isnan(value):
            continue
        better = best is None or (value > best if higher_is_better else value < best)
        if better or (value == best and rnd < best_round):
            best, best_round = value, rnd
    return final_round, final, best, best_round


def expected_round_summary(rows):
    if rows is None:
        return {}
    out = {}
    chosen = None
    for name, higher in METRICS:
        pts = [(r["round#"], r["value#"]) for r in rows
               if r["metric"] == name and r["node#"] == -1 and r["value#"] is not None]
        if pts:
            chosen = (name, higher, pts, "node -1")
            break
    if chosen is None:
        for name, higher in METRICS:
            sums = {}
            for r in rows:
                if r["metric"] == name and r["node#"] is not None and r["node#"] >= 0 \
                        and r["value#"] is not None:
                    s = sums.setdefault(r["round#"], [0.0, 0])
                    s[0] += r["value#"]
                    s[1] += 1
            if sums:
                pts = [(k, s / c) for k, (s, c) in sorted(sums.items())]
                chosen = (name, higher, pts, "device mean")
                break
    if chosen is not None:
        name, higher, pts, source = chosen
        final_round, final, best, best_round = curve(pts, higher)
        out.update({"metric": name, "metric_from": source, "final_" + name: final,
                    "best_" + name: best, "best_%s_round" % name: best_round,
                    "rounds_completed": final_round})
    else:
        rounds = [r["round#"] for r in rows if r["round#"] is not None]
        out["rounds_completed"] = max(rounds) if rounds else 0
    return out


class RankWindow:
    """An estimate's accepted range: between two exact order-statistic percentiles."""

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi


def key_tolerance(key):
    """(relative tolerance) of a summary key: 0 for exact keys."""
    exact = {"message_rows", "messages", "fragments", "retransmissions", "bytes_sent",
             "rounds_completed", "metric", "metric_from", "rows", "latency_n",
             "latency_p95_estimator"}
    if key in exact or key.endswith("_round"):
        return 0.0
    return REL


# -- checks ---------------------------------------------------------------------------
def check_summary(a, messages, energy, rounds):
    """Every summary key against its recomputation; unknown keys are violations."""
    expected = {}
    expected.update(expected_round_summary(rounds))
    expected["energy_j"] = expected_energy_summary(energy, a.run)
    expected.update(expected_message_summary(messages))
    for key, got in a.summary.items():
        where = "run.json:summary." + key
        if key in ALLOW_LISTED:
            a.expect(got == a.run.get(key), where, "summary", "equal to run.json's " + key,
                     a.run.get(key), got)
            continue
        if key == "simulated_time_s":
            check_simulated_time(a, got, messages, energy, rounds)
            continue
        if key == "results":
            check_results(a, got, messages, energy, rounds)
            continue
        if key not in expected:
            a.expect(False, where, "summary", "summary key %s: no independent recomputation"
                     % key, "a recomputed key", "unknown")
            continue
        compare_value(a, where, key, expected[key], got)
    for key in expected:
        a.expect(key in a.summary, "run.json:summary." + key, "summary", "key missing",
                 "present", "absent")


def distinct_bytes(messages, keep):
    """Bytes of the distinct messages (one per msg_id) whose kind keep() accepts."""
    seen = {}
    for r in messages:
        if r["msg_id#"] is not None and r["bytes#"] is not None and keep(r["kind"]):
            seen.setdefault(r["msg_id#"], r["bytes#"])
    return sum(seen.values())


def w1_to_uniform(counts):
    """W1 between a histogram over ordered labels and the uniform one: the sum over l < L-1
    of |CDF_p(l) - CDF_u(l)| (Wasserstein-1 on the label line, unit spacing)."""
    total = sum(counts)
    p = [c / total for c in counts] if total > 0 else [0.0] * len(counts)
    u = 1.0 / len(counts)
    w, cp, cu = 0.0, 0.0, 0.0
    for l in range(len(counts) - 1):
        cp += p[l]
        cu += u
        w += abs(cp - cu)
    return w


def expected_results(a, messages, energy, rounds):
    """{result name: (expected value, relative tolerance, absolute tolerance)}."""
    out = {}
    s = a.summary
    if "rounds_completed" in s:
        out["roundsCompleted"] = (s["rounds_completed"], 0.0, 0.0)
    if rounds is not None:
        for metric, key in (("accuracy", "finalAccuracy"), ("loss", "finalTestMse")):
            rows = [r for r in rounds if r["node#"] == -1 and r["metric"] == metric
                    and r["value#"] is not None]
            if rows:
                top = max(r["round#"] for r in rows)
                last = [r for r in rows if r["round#"] == top][-1]
                out[key] = (last["value#"], PRINTED, 1e-15)
    out["bytesSent"] = (distinct_bytes(messages, lambda k: not k.startswith(("gd_", "pca_"))),
                        0.0, 0.0)
    ccp = a.read_csv("ccp.csv")
    if ccp is not None:
        # One row per CCP attempt (consensus, timeout or failed); "scores" rows are no vote.
        out["ccpAttempts"] = (sum(r["step"] != "scores" for r in ccp), 0.0, 0.0)
        out["consensusVotes"] = (sum(r["outcome"] == "consensus" for r in ccp), 0.0, 0.0)
    missed = a.read_csv("missed.csv")
    if missed is not None:
        out["missedLocalUpdates"] = (len(missed), 0.0, 0.0)
    graph = a.read_csv("gd_graph.csv")
    if graph is not None:
        for col in ("transmitter", "p_drop"):
            a.number(graph, "gd_graph.csv", col)
        chosen = [r for r in graph
                  if r["transmitter#"] is not None and r["transmitter#"] >= 0]
        out["gdEdgesFound"] = (len(chosen), 0.0, 0.0)
        out["gdMeanLinkPDrop"] = (sum(r["p_drop#"] for r in chosen) / len(chosen)
                                  if chosen else None, REL, 1e-15)  # no link: null
    links = a.read_csv("gd_links.csv")
    if links is not None:
        for col in ("allocated", "received"):
            a.number(links, "gd_links.csv", col)
        sent = sum(r["allocated#"] or 0.0 for r in links)
        got = sum(r["received#"] or 0.0 for r in links)
        out["gdPointsSent"] = (sent, PRINTED, 1e-9)
        out["gdPointsReceived"] = (got, PRINTED, 1e-9)
        out["gdPointsMoved"] = (int(round(got)), 0.0, 0.0)
        out["gdDeliveredFraction"] = (got / sent if sent > 0 else None, PRINTED, 1e-15)
    stages = a.read_csv("gd_stages.csv")
    if stages is not None:
        a.number(stages, "gd_stages.csv", "d2d_j")
        sums = {"learned": 0.0, "exchanged": 0.0}
        previous = 0.0
        for r in stages:
            sums[r["stage"]] = sums.get(r["stage"], 0.0) + (r["d2d_j#"] or 0.0) - previous
            previous = r["d2d_j#"] or 0.0
        out["gdRlEnergyJ"] = (sums["learned"], REL, 1e-12)
        out["gdExchangeEnergyJ"] = (sums["exchanged"], REL, 1e-12)
        parse_times(a, stages, "gd_stages.csv", ("sim_time_s",))
        check_group_energy(a, energy, stages, "gd_stages.csv", ("d2d_j",))
    groups = a.read_csv("gd_energy.csv")
    if groups is not None:
        end = [r for r in groups if r["round"] == "0"]
        if end:
            out["gdDiscoveryEndS"] = (float(end[-1]["sim_time_s"]), REL, 1e-9)
        for col in ("d2d_j", "d2s_j", "compute_j", "total_j", "accuracy"):
            a.number(groups, "gd_energy.csv", col)
        targets = s.get("results", {}).get("targetsReached")
        if isinstance(targets, list):
            expected = []
            for t in targets:
                target = t.get("target") if isinstance(t, dict) else None
                hit = next((g for g in groups if g["round"] != "0" and g["accuracy#"] is not None
                            and target is not None and g["accuracy#"] >= target), None)
                if hit is None:
                    expected.append({"target": target, "round": None})
                else:
                    expected.append({"target": target, "round": int(hit["round"]),
                                     "energyJ": hit["total_j#"], "d2dJ": hit["d2d_j#"],
                                     "d2sJ": hit["d2s_j#"], "computeJ": hit["compute_j#"]})
            out["targetsReached"] = (expected, PRINTED, 1e-15)
    diversity = a.read_csv("gd_diversity.csv")
    subspace = a.read_csv("gd_subspace.csv")
    if subspace is not None:
        for col in ("label_w1_before", "label_w1_after", "pca_end_s"):
            a.number(subspace, "gd_subspace.csv", col)
        took = [r for r in subspace if r["subspace"] == "common"] or subspace
        out["gdMeanW1ToUniformBefore"] = (sum(r["label_w1_before#"] for r in took) / len(took),
                                          PRINTED, 1e-12)
        out["gdMeanW1ToUniformAfter"] = (sum(r["label_w1_after#"] for r in took) / len(took),
                                         PRINTED, 1e-12)
        out["gdPcaSubspaceMissed"] = (sum(r["subspace"] == "none" for r in subspace), 0.0, 0.0)
        out["gdDevicesTakingPart"] = (sum(r["subspace"] == "common" for r in subspace), 0.0, 0.0)
        if subspace:
            out["gdPcaEndS"] = (subspace[0]["pca_end_s#"], REL, 1e-9)
    elif diversity is not None:
        for col in ("count", "edge", "node", "label"):
            a.number(diversity, "gd_diversity.csv", col)
        for phase, key in (("before", "gdMeanW1ToUniformBefore"),
                           ("after", "gdMeanW1ToUniformAfter")):
            rows = [r for r in diversity if r["phase"] == phase]
            if not rows:
                continue
            edge = min(r["edge#"] for r in rows) if phase == "before" else \
                max(r["edge#"] for r in rows)
            hist = {}
            for r in rows:
                if r["edge#"] == edge:
                    hist.setdefault(int(r["node#"]), {})[int(r["label#"])] = r["count#"]
            w = [w1_to_uniform([h[l] for l in sorted(h)]) for h in hist.values()]
            out[key] = (sum(w) / len(w), PRINTED, 1e-12)
    labelling = a.read_csv("gd_labelling.csv")
    if labelling is not None and labelling:
        for col in ("accuracy", "unlabelled_accuracy", "pca_end_s"):
            a.number(labelling, "gd_labelling.csv", col)
        n = len(labelling)
        out["gdLabellingMeanAccuracy"] = (sum(r["accuracy#"] for r in labelling) / n,
                                          PRINTED, 1e-12)
        out["gdLabellingMeanUnlabelledAccuracy"] = (
            sum(r["unlabelled_accuracy#"] for r in labelling) / n, PRINTED, 1e-12)
        out["gdLabellingEndS"] = (labelling[0]["pca_end_s#"], REL, 1e-9)
        out["gdPcaEndS"] = (labelling[0]["pca_end_s#"], REL, 1e-9)
    if any(r["kind"].startswith("pca_") for r in messages):
        out["gdPcaBytes"] = (distinct_bytes(messages, lambda k: k.startswith("pca_")), 0.0, 0.0)
        out["gdPcaSketchesReceived"] = (
            sum(1 for r in messages if r["kind"] == "pca_sketch" and r["complete"] == "1"),
            0.0, 0.0)
        end = out.get("gdPcaEndS", (None,))[0]
        if end is not None:
            end_ns = int(round(end * 1e9))
            out["gdPcaD2sEnergyJ"] = (sum(r["energy_j#"] or 0.0 for r in energy
                                          if r["component"].startswith("d2s_")
                                          and (r["sim_time_ns"] or 0) <= end_ns), PRINTED,
                                      1e-12)
    return out


def check_results(a, got, messages, energy, rounds):
    """summary.results: every result against its recomputation (RESULTS)."""
    where = "run.json:summary.results"
    if not a.expect(isinstance(got, dict), where, "results", "an object", "{...}", got):
        return
    expected = expected_results(a, messages, energy, rounds)
    per_edge = got.get("gdMeanW1ToUniformPerEdge")
    if isinstance(per_edge, list) and per_edge:
        for key, index in (("gdMeanW1ToUniformBefore", 0), ("gdMeanW1ToUniformAfter", -1)):
            if key in expected:
                value, rel, abs_tol = expected[key]
                a.expect_close(where + ".gdMeanW1ToUniformPerEdge[%d]" % index, "results",
                               "the %s end equals %s" % ("first" if index == 0 else "last", key),
                               value, per_edge[index], rel=rel, abs_tol=abs_tol)
    for key, value in got.items():
        if key in RESULTS_ALLOW_LISTED or key == "gdMeanW1ToUniformPerEdge":
            continue
        if key not in expected:
            a.expect(False, where + "." + key, "results",
                     "result %s: no independent recomputation" % key, "a recomputed key",
                     "unknown")
            continue
        compare_result(a, where + "." + key, expected[key], value)


def compare_result(a, where, expected, got):
    value, rel, abs_tol = expected
    if isinstance(value, list):
        if not a.expect(isinstance(got, list) and len(got) == len(value), where, "results",
                        "a list of %d" % len(value), len(value),
                        len(got) if isinstance(got, list) else got):
            return
        for i, (e, g) in enumerate(zip(value, got)):
            compare_result(a, "%s[%d]" % (where, i), (e, rel, abs_tol), g)
        return
    if isinstance(value, dict):
        if not a.expect(isinstance(got, dict) and set(got) == set(value), where, "results",
                        "keys", sorted(value), sorted(got) if isinstance(got, dict) else got):
            return
        for k in value:
            compare_result(a, where + "." + k, (value[k], rel, abs_tol), got[k])
        return
    if isinstance(value, float) and isinstance(got, int) and not isinstance(got, bool):
        got = float(got)
    if isinstance(value, int) and isinstance(got, float) and got.is_integer() and rel == 0.0:
        got = int(got)
    key = where.split("run.json:summary.results.", 1)[-1].split(".")[0].split("[")[0]
    source = RESULT_FILES.get(key, "the traces")
    if isinstance(source, tuple):  # the first of the files the run has
        source = next((f for f in source if os.path.exists(os.path.join(a.dir, f))),
                      source[0])
    a.expect_close(where, "results", "recomputed from " + source, value, got, rel=rel,
                   abs_tol=abs_tol)


def compare_value(a, where, key, expected, got):
    """Compare recursively (energy_j, kinds): extra or missing sub-keys are violations."""
    if isinstance(expected, RankWindow):
        a.expect(isinstance(got, (int, float)) and expected.lo <= got <= expected.hi, where,
                 "summary", "P-squared estimate within the exact percentiles %g either side"
                 % P2_RANK_WINDOW, "[%r, %r]" % (expected.lo, expected.hi), got)
        return
    if isinstance(expected, dict):
        if not a.expect(isinstance(got, dict), where, "summary", "an object", "{...}", got):
            return
        for sub in sorted(set(expected) | set(got)):
            if sub not in got or sub not in expected:
                a.expect(False, where + "." + sub, "summary",
                         "sub-key %s: no independent recomputation" % sub if sub in got
                         else "sub-key missing", expected.get(sub), got.get(sub))
                continue
            compare_value(a, where + "." + sub, sub, expected[sub], got[sub])
        return
    tol = key_tolerance(key)
    if tol == 0.0 and isinstance(expected, float) and isinstance(got, int):
        got = float(got)
    if isinstance(expected, float) and isinstance(got, int):
        got = float(got)  # JSON writes 0 for 0.0
    top = where.split("run.json:summary.", 1)[-1].split(".")[0]
    source = "energy.csv" if top == "energy_j" else "rounds.csv" if top in ROUND_KEYS \
        or top.startswith(("final_", "best_")) else "messages.csv"
    a.expect_close(where, "summary", "recomputed from " + source, expected, got, rel=tol,
                   abs_tol=1e-15 if tol else 0.0)


def check_simulated_time(a, got, messages, energy, rounds):
    where = "run.json:summary.simulated_time_s"
    top = a.run.get("simulated_time_s")
    a.expect_close(where, "summary", "equal to run.json's simulated_time_s", top, got,
                   rel=0.0, abs_tol=1e-9)
    latest = 0
    for r in messages:
        latest = max(latest, r["t_send_ns"] or 0, r["t_recv_ns"] or 0)
    for rows in (energy, rounds or []):
        for r in rows:
            latest = max(latest, r.get("sim_time_ns") or 0)
    if isinstance(got, (int, float)):
        a.expect(got * 1e9 >= latest - 0.5, where, "summary",
                 "not before the last time in the traces", ">= %.9f" % (latest / 1e9), got)


def check_run_json(a, messages, energy):
    a.expect(a.run.get("message_rows") == len(messages), "run.json:message_rows", "run-json",
             "data rows of messages.csv", len(messages), a.run.get("message_rows"))
    a.expect(a.run.get("energy_rows") == len(energy), "run.json:energy_rows", "run-json",
             "data rows of energy.csv", len(energy), a.run.get("energy_rows"))
    level = a.run.get("traces", "full")
    a.expect(level in ("standard", "full"), "run.json:traces", "run-json", "a trace level",
             "standard|full", level)
    untraced = a.run.get("untraced_message_rows") or {}
    a.expect(not untraced or level == "standard", "run.json:untraced_message_rows", "run-json",
             "kinds left out of messages.csv only at --traces=standard", "standard", level)
    for r in messages:
        if r["kind"] in untraced:
            a.expect(False, "messages.csv:%d" % r["_line"], "run-json",
                     "a row of a kind run.json lists as untraced", "no row", r["kind"])
            break
    p = a.params
    k_d2d = p.get("subChannels", 0)
    k_d2s = p.get("d2sSubChannels", -1)
    k_d2s = k_d2d if isinstance(k_d2s, (int, float)) and k_d2s < 0 else k_d2s
    if "d2sSubChannelsInForce" in p:
        a.expect(p["d2sSubChannelsInForce"] == k_d2s, "run.json:parameters.d2sSubChannelsInForce",
                 "run-json", "d2sSubChannels, or subChannels where it is -1", k_d2s,
                 p["d2sSubChannelsInForce"])
    m = p.get("subChannelsPerTransmission", 1)
    # The D2S cell's band: d2sBandwidthHz where > 0 (its own band), else bandwidthHz.
    d2s_band = p.get("d2sBandwidthHz", -1)
    d2s_band = ("d2sBandwidthHz", d2s_band) if isinstance(d2s_band, (int, float)) \
        and d2s_band > 0 else ("bandwidthHz", p.get("bandwidthHz"))
    for key, k, (band_key, band) in (
            ("linkRateBps", k_d2d, ("bandwidthHz", p.get("bandwidthHz"))),
            ("d2sLinkRateBps", p.get("d2sSubChannelsInForce"), d2s_band)):
        if not all(isinstance(v, (int, float)) for v in
                   (p.get(key), p.get("spectralEfficiency"), band, k, m)):
            continue
        share, what = 1.0, "spectralEfficiency x " + band_key
        if k > 0:
            share = min(m, k) / k
            what += " x subChannelsPerTransmission / K (%d of %d sub-channels)" % (min(m, k), k)
        a.expect_close("run.json:parameters." + key, "run-json", what,
                       p["spectralEfficiency"] * band * share, p[key])


def check_trace_files(a):
    """run.json's trace_files against the folder: every CSV file listed, each with the data
    rows (lines after the header) and the CRC-32 the run wrote it with."""
    listed = a.run.get("trace_files")
    if not a.expect(isinstance(listed, dict), "run.json:trace_files", "trace-files",
                    "the trace files' rows and CRC-32 (a run.json of an older d2dlearn has "
                    "none)", "an object", type(listed).__name__):
        return
    present = sorted(n for n in os.listdir(a.dir) if n.endswith(".csv"))
    for name in present:
        a.expect(name in listed, name, "trace-files", "a CSV file run.json lists",
                 "listed", "not listed")
    for name, entry in sorted(listed.items()):
        path = os.path.join(a.dir, name)
        if not a.expect(os.path.isfile(path), name, "trace-files", "a file run.json lists",
                        "present", "missing"):
            continue
        lines, crc = 0, 0
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 16), b""):
                lines += block.count(b"\n")
                crc = zlib.crc32(block, crc)
        entry = entry if isinstance(entry, dict) else {}
        a.expect(entry.get("rows") == max(lines - 1, 0), name, "trace-files",
                 "data rows (lines after the header)", entry.get("rows"), max(lines - 1, 0))
        a.expect(entry.get("crc32") == "%08x" % crc, name, "trace-files",
                 "CRC-32 of the file as the run wrote it (the file changed since)",
                 entry.get("crc32"), "%08x" % crc)


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


# -- the radio environment (--propagation, --shadowing, --nakagamiM) and sigma^2 (--noise) --
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


def band_share(k, m):
    """D2dChannel::BandShare: the m of K sub-channels a transmission takes (1: K = 0)."""
    return 1.0 if k == 0 else min(m, k) / k


def thermal_noise_w(bandwidth_hz, noise_figure_db):
    """D2dChannel::ThermalNoiseW: k T0 B F, F = 10^(NF / 10)."""
    return BOLTZMANN_J_PER_K * NOISE_TEMPERATURE_K * bandwidth_hz \
        * 10.0 ** (noise_figure_db / 10.0)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


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


def check_noise(a):
    """run.json's noisePowerInForceW and d2sNoisePowerInForceW (sigma^2 the channels used)
    equal sigma^2 recomputed from the inputs (noise_in_force), relative 1e-12; noise is
    constant or thermal."""
    p = a.params
    kind = p.get("noise", "constant")
    a.expect(kind in ("constant", "thermal"), "run.json:parameters.noise", "run-json",
             "the noise model", "constant|thermal", kind)
    for key, ch in (("noisePowerInForceW", "D2D"), ("d2sNoisePowerInForceW", "D2S")):
        if key not in p:
            continue
        want, how = a.noise[ch]
        a.expect_close("run.json:parameters." + key, "run-json",
                       "sigma^2 of the %s links, %s" % (ch, how), want, p[key], rel=1e-12)


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


LOG_DISTANCE_REF_LOSS_DB = 46.6777  # ns-3 LogDistancePropagationLossModel at 1 m
LOG_DISTANCE_EXPONENT = 3.0


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


def moves(a):
    """Whether the devices move: run.json's mobility (a run of an older d2dlearn: speedMps)."""
    mobility = a.params.get("mobility")
    if mobility is None:
        return a.params.get("speedMps", 0) != 0
    return mobility != "constant"


POSITION_COLUMNS = ["sim_time_s", "node", "x_m", "y_m", "z_m"]
POSITION_TOL_M = 1e-6
PRINTED_M = 5.000001e-7  # a coordinate printed with 6 decimals: half its last digit


def check_positions(a, messages):
    """positions.csv: the sampling grid, the nodes of each sample, the square, and for static
    devices their positions against messages.csv's links within rangeM."""
    p = a.params
    if p.get("rssFile"):
        a.expect(not os.path.exists(os.path.join(a.dir, "positions.csv")), "positions.csv",
                 "positions", "no positions.csv with --rssFile", "none", "a file")
        return
    if "positionEvery_s" not in p:
        return  # a run of a d2dlearn before positions.csv
    rows = a.read_csv("positions.csv", POSITION_COLUMNS, required=True)
    if rows is None:
        return
    n = p.get("nDevices")
    side = p.get("areaSideM")
    every = seconds_ns_or_none(p.get("positionEvery_s"))
    a.number(rows, "positions.csv", "node", int, "positions")
    for col in ("x_m", "y_m", "z_m"):
        a.number(rows, "positions.csv", col, float, "positions")
    parse_times(a, rows, "positions.csv", ("sim_time_s",))
    samples = []  # [(time ns, [rows])]
    for r in rows:
        t = r.get("sim_time_ns")
        if samples and samples[-1][0] == t:
            samples[-1][1].append(r)
        else:
            samples.append((t, [r]))
    if not a.expect(bool(samples), "positions.csv", "positions", "samples", "at least one",
                    "none"):
        return
    server = any(len(group) == n + 1 for _, group in samples) if isinstance(n, int) else False
    # A run with a server (its D2S radios draw: energy.csv's d2s_* rows) has its position in
    # every sample.
    d2s = a.energy_d2s
    a.expect(server or not d2s, "positions.csv", "positions", "the server's row (node %s) in "
             "each sample: the run has a server (energy.csv's d2s_* rows)" % n, "a row",
             "none")
    server = server or d2s
    try:
        server_at = [float(v) for v in str(p.get("serverPosition")).split(",")]
        server_at = server_at if len(server_at) == 3 else None
    except ValueError:
        server_at = None
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    for k, (t, group) in enumerate(samples):
        where = "positions.csv:%d" % group[0]["_line"]
        if end is not None and t is not None:
            a.expect(t <= end, where, "time-order", "sim_time_s not after simulated_time_s",
                     "<= %.9f" % (end / 1e9), group[0]["sim_time_s"])
        if every is not None:
            a.expect(t == k * every, where, "positions",
                     "sample %d at %d x positionEvery_s" % (k, k), "%.9f" % (k * every / 1e9),
                     group[0]["sim_time_s"])
            if every == 0:
                a.expect(k == 0, where, "positions", "one sample (positionEvery_s = 0)",
                         "time 0 only", group[0]["sim_time_s"])
        if isinstance(n, int):
            want = list(range(n + (1 if server else 0)))
            a.expect([r.get("node#") for r in group] == want, where, "positions",
                     "one row per node 0..%d in order" % (want[-1] if want else -1),
                     "%d rows" % len(want), "%d rows" % len(group))
    first, text = {}, {}
    for r in rows:
        where = "positions.csv:%d" % r["_line"]
        x, y, z = r.get("x_m#"), r.get("y_m#"), r.get("z_m#")
        if None in (x, y, z):
            continue
        node = r.get("node#")
        is_server = isinstance(n, int) and node == n
        # The devices are in the square; the server stands where serverPosition puts it
        # (anywhere within 1e7 m: outside the square too).
        if isinstance(side, (int, float)) and not (is_server and server_at is not None):
            a.expect(-POSITION_TOL_M <= x <= side + POSITION_TOL_M
                     and -POSITION_TOL_M <= y <= side + POSITION_TOL_M, where, "positions",
                     "a position in the square of side areaSideM = %s m" % side,
                     "0..%s" % side, "(%s, %s)" % (r["x_m"], r["y_m"]))
        if is_server and server_at is not None:
            # The server stands at run.json's serverPosition (6 decimals printed: 5e-7 m).
            a.expect(all(abs(u - v) <= PRINTED_M for u, v in zip((x, y, z), server_at)),
                     where, "positions", "the server (node %d) at serverPosition" % n,
                     "(%s)" % p.get("serverPosition"),
                     "(%s, %s, %s)" % (r["x_m"], r["y_m"], r["z_m"]))
        else:
            height = a.env.height  # deviceHeightInForceM (0 in a run.json without it)
            a.expect(abs(z - height) <= PRINTED_M, where, "positions", "z_m at the devices' "
                     "height deviceHeightInForceM (printed with 6 decimals)", height, z)
        if not moves(a):
            text.setdefault(node, (r["x_m"], r["y_m"]))
            x0 = first.setdefault(node, (x, y, r["_line"], z))
            a.expect((x, y) == x0[:2], where, "positions",
                     "node %s where row %d puts it (constant mobility)" % (node, x0[2]),
                     "(%s, %s)" % x0[:2], "(%s, %s)" % (x, y))
    if not moves(a):
        a.positions = {node: (v[0], v[1], v[3]) for node, v in first.items()}
        a.position_text = text  # (x_m, y_m) as printed (check discovery: gd_nodes.csv)
    range_m = p.get("rangeM")
    if (moves(a) or p.get("backend", "channel") != "channel" or p.get("dynamicRssLevels")
            or not isinstance(range_m, (int, float)) or range_m <= 0 or not isinstance(n, int)):
        return
    at = {node: (v[0], v[1], v[3]) for node, v in first.items()}
    for r in messages:
        src, dst = r.get("src#"), r.get("dst#")
        if src is None or dst is None or src >= n or dst >= n or r["reason"] == "out_of_range":
            continue
        if src not in at or dst not in at:
            continue
        d = math.dist(at[src], at[dst])  # (D2dChannel::GetDistanceM: 3-D)
        a.expect(d < range_m + 1e-5, "messages.csv:%d" % r["_line"], "positions",
                 "a link %d->%d within rangeM at positions.csv's positions" % (src, dst),
                 "< %s m" % range_m, "%.6f m" % d)


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


def seconds_ns_or_none(value):
    return None if not isinstance(value, (int, float)) else int(round(value * 1e9))


# -- the finite spectrum (messages.csv's t_start_s, airtime_s, sub_channel, interference_w) --
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


def parse_sub_channels(text):
    """'3' or '1+2' -> [1, 2]; '' -> []; None if not sub-channel indices."""
    if text in (None, ""):
        return []
    parts = text.split("+")
    if not all(x.isdigit() for x in parts):
        return None
    return [int(x) for x in parts]


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


# Reasons of rows D2dChannel::DropUnsent writes (a message withdrawn or dropped from the
# queue): rss_w drawn, p_drop eq. 18's of it or 1 where the link is not heard.
UNSENT_REASONS = {"cancelled", "sender_off", "unfinished"}


def check_sinr(a, messages, sp):
    """Where each link's RSS stays constant (no movement, no dynamic RSS, no fading, a loss
    model that keeps a static link's loss: Environment.held; a drop probability override is
    an RSS inverted from eq. 18, constant too), W = -(2^r - 1)(sigma^2 + I) / ln(1 - p_drop)
    recovered from each row with 0 < p_drop < 1 is the same on every row of a (src, dst) D2D
    link, of a device's D2S links (every D2S link with --d2sLinks=equal): relative 1e-9, plus
    the rounding of p_drop = 1 - exp(-x) in the channel, 4.4e-16 / ((1 - p) |ln(1 - p)|) (a
    tiny p_drop carries few digits of W); and so is rss_w (relative 1e-15: the same double)."""
    p = a.params
    if moves(a) or p.get("dynamicRssLevels") or p.get("backend", "channel") != "channel":
        return
    r_eff = p.get("spectralEfficiency")
    if not isinstance(r_eff, (int, float)):
        return
    keeps = {}
    for ch in ("D2D", "D2S"):
        keeps[ch], why = held(a, ch)
        if why:
            a.skip("messages.csv", "sinr", "%s rows keep one RSS a link: %s" % (ch, why))
    factor = 2.0 ** r_eff - 1.0
    first = {}
    first_w = {}
    for r in messages:
        pd, i_w = r["p_drop#"], r.get("interference_w#")
        if r["reason"] == "out_of_range":
            continue
        ch = sp.channel(r)
        if not keeps[ch]:
            continue
        # The links of one RSS: a D2D link (src, dst); a device's D2S uplink and downlink,
        # or every D2S link with --d2sLinks=equal (as check p_drop holds their p_drop).
        if ch == "D2D":
            link, label = (r["src"], r["dst"]), "link %s->%s" % (r["src"], r["dst"])
        elif p.get("d2sLinks", "equal") == "equal":
            link, label = ("D2S",), "every D2S link (--d2sLinks=equal)"
        else:
            device = r["dst"] if r["src#"] == sp.n else r["src"]
            link, label = ("D2S", device), "device %s's D2S link" % device
        w_row = r.get("rss_w#")
        if w_row is not None:
            if link not in first_w:
                first_w[link] = (r["_line"], w_row)
            else:
                line, w0 = first_w[link]
                a.expect(abs(w_row - w0) <= 1e-15 * max(abs(w_row), abs(w0)),
                         "messages.csv:%d" % r["_line"], "sinr",
                         "%s: rss_w as at row %d (a constant RSS)" % (label, line), w0, w_row)
        if pd is None or i_w is None or not 0.0 < pd < 1.0:
            continue
        # (A drop probability override is a constant RSS too: inverted from eq. 18.)
        noise = a.noise[ch][0]
        if not isinstance(noise, (int, float)):
            continue
        x = -math.log1p(-pd)
        w = factor * (noise + i_w) / x
        tol = 1e-9 + 4.4e-16 / ((1.0 - pd) * x)
        if link not in first:
            first[link] = (r["_line"], w, tol)
            continue
        line, w0, tol0 = first[link]
        a.expect(abs(w - w0) <= (tol + tol0) * max(w, w0), "messages.csv:%d" % r["_line"],
                 "sinr", "%s: W = -(2^r - 1)(sigma^2 + interference_w) / ln(1 - p_drop) as at "
                 "row %d (a constant RSS)" % (label, line), w0, w)


def check_link_columns(a, messages, sp, rss):
    """messages.csv's rss_w and sinr (the channel backend's last two columns): empty on
    out_of_range rows (the link was not evaluated), given on every other row with rss_w > 0
    (check rss); sinr = rss_w / (sigma^2 + interference_w), sigma^2 recomputed
    (noise_in_force), relative 1e-12; p_drop = 1 - exp(-(2^r - 1) / sinr) (eq. 18 in its SINR
    form), within 1e-15 + 1e-12 p_drop (the channel computes it from sigma^2 + I over W:
    a few ulps of the exponent apart), on every row but those D2dChannel::DropUnsent wrote
    (cancelled, sender_off, unfinished) for a link not heard, whose p_drop is 1 (accepted
    there unless LinkRss knows the receiver hears the sender)."""
    r_eff = a.params.get("spectralEfficiency")
    factor = 2.0 ** r_eff - 1.0 if is_number(r_eff) else None
    for r in messages:
        where = "messages.csv:%d" % r["_line"]
        w, snr, pd, i_w = r.get("rss_w#"), r.get("sinr#"), r["p_drop#"], r.get("interference_w#")
        if r["reason"] == "out_of_range":
            a.expect(r.get("rss_w") == "" and r.get("sinr") == "", where, "rss",
                     "rss_w and sinr empty on an out_of_range row (the link not evaluated)",
                     "empty", "rss_w=%s sinr=%s" % (r.get("rss_w") or "empty",
                                                    r.get("sinr") or "empty"))
            continue
        if not a.expect(w is not None and snr is not None, where, "rss",
                        "rss_w and sinr given on a row whose link was evaluated (reason %s)"
                        % (r["reason"] or "none: delivered"), "both",
                        "rss_w=%s sinr=%s" % (r.get("rss_w") or "empty",
                                              r.get("sinr") or "empty")):
            continue
        a.expect(w > 0 and not math.isinf(w), where, "rss", "rss_w > 0 (W)", "> 0", w)
        ch = sp.channel(r)
        noise = a.noise[ch][0]
        if is_number(noise) and i_w is not None:
            den = noise + i_w
            want = w / den if den > 0 else math.inf
            a.expect(close(want, snr, 1e-12) or (want == snr), where, "sinr",
                     "sinr = rss_w / (sigma^2 + interference_w), sigma^2 %r of the %s links "
                     "(%s)" % (noise, ch, a.noise[ch][1]), want, snr)
        if factor is None or pd is None or math.isnan(snr) or snr < 0:
            continue
        want = 1.0 - math.exp(-factor / snr) if snr > 0 else 1.0
        ok = abs(want - pd) <= 1e-15 + 1e-12 * pd
        if not ok and pd == 1.0 and r["reason"] in UNSENT_REASONS and (
                None in (r["src#"], r["dst#"]) or rss.hears(ch, r["dst#"], r["src#"]) is not True):
            ok = True  # DropUnsent: a link not heard (or maybe not) has p_drop 1
        a.expect(ok, where, "sinr", "p_drop = 1 - exp(-(2^r - 1) / sinr) (eq. 18, r %s)"
                 % fmt(r_eff), want, pd)


# -- the RSS of each link, recomputed from run.json and positions.csv -------------------
def log_distance_w(tx_dbm, d_m):
    """ns-3's LogDistancePropagationLossModel (exponent 3, 46.6777 dB at 1 m; at most the
    reference loss below 1 m), dBm -> W: the RSS PropagationRssModel gives at d_m."""
    if d_m <= 1.0:
        loss = LOG_DISTANCE_REF_LOSS_DB
    else:
        loss = LOG_DISTANCE_REF_LOSS_DB + 10.0 * LOG_DISTANCE_EXPONENT * math.log10(d_m)
    return dbm_w(tx_dbm - loss)


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


# positions.csv prints 6 decimals: a distance is off by at most 1.5e-6 m, W ~ d^-3 by 3 times
# that relative; the RSS of a link recomputed from it is good to 1e-9 + 4.5e-6 m / d.
POSITION_RSS_TOL_M = 4.5e-6


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


def check_rss(a, messages, sp, rss):
    """Where LinkRss recomputes a link's RSS from run.json and positions.csv (the default
    log-distance, Friis, a drop probability, --rssFile): each row's rss_w equals it (the
    recomputation's tolerance plus 1e-12), and each row with 0 < p_drop < 1: the RSS W =
    (2^r - 1)(sigma^2 + interference_w) / -ln(1 - p_drop) it stands for (eq. 18) equals it,
    within the recomputation's tolerance and p_drop's rounding 4.4e-16 / ((1 - p) |ln(1 -
    p)|). Skipped (with the reason) where the RSS is not recomputable (LinkRss.why): there
    rss_w is tied to p_drop and sigma^2 by check sinr only."""
    for r in messages:
        pd, src, dst = r["p_drop#"], r["src#"], r["dst#"]
        if src is None or dst is None or r["reason"] == "out_of_range":
            continue
        ch = sp.channel(r)
        if not rss.recomputed(ch):
            if rss.why.get(ch):
                a.skip("messages.csv", "rss", "%s rows: %s" % (ch, rss.why[ch]))
            continue
        got = rss.get(ch, dst, src)
        if got is None:
            continue
        w_model, rel = got
        where = "messages.csv:%d" % r["_line"]
        w_row = r.get("rss_w#")
        if w_row is not None:
            a.expect(abs(w_row - w_model) <= (rel + 1e-12) * max(w_row, w_model), where, "rss",
                     "%s link %d->%d: rss_w equals the link's RSS (%s)"
                     % (ch, src, dst, rss.what(ch)), w_model, w_row)
        noise = rss.noise[ch]
        if pd is None or not 0.0 < pd < 1.0 or not isinstance(noise, (int, float)):
            continue
        x = -math.log1p(-pd)
        w = rss.factor * (noise + (r.get("interference_w#") or 0.0)) / x
        tol = rel + 1e-9 + 4.4e-16 / ((1.0 - pd) * x)
        a.expect(abs(w - w_model) <= tol * max(w, w_model), where,
                 "rss", "%s link %d->%d: W = (2^r - 1)(sigma^2 + interference_w) / "
                 "-ln(1 - p_drop) equals the link's RSS (%s)"
                 % (ch, src, dst, rss.what(ch)), w_model, w)


def check_interference(a, messages, sp, rss):
    """interference_w recomputed (D2dSpectrum::InterferenceW): at its receiver i, when the
    transmission started, the sum over every other transmission on the air on the same
    channel, from a sender j != i that i hears, of W_ij x (the sub-channels the two share) /
    (the row's sub-channels m). A transmission on the air at t_start_s for certain: started
    before and ending after it (1 ns, the order of events at one time unknown); one starting
    or ending at that very nanosecond, or cut short (sender_off, unfinished: left the air at
    an unknown time), or whose hearing is uncertain may count or not: interference_w must lie
    between the sum of the certain ones and that plus the uncertain ones, within the RSS's
    tolerance (LinkRss) plus 1e-12 relative."""
    if sp.untraced:
        a.skip("messages.csv", "interference", "kinds left out of messages.csv "
               "(untraced_message_rows) may have been on the air")
        return
    on_air = transmissions(messages, sp)
    by_sub = {}
    for (ch, msg), (r, start, end, cut) in on_air.items():
        for c in r["sub_channels"]:
            by_sub.setdefault((ch, c), []).append((start, end, cut, msg, r))
    index = {}
    for key, lst in by_sub.items():
        lst.sort(key=lambda t: t[0])
        longest = max(t[1] - t[0] for t in lst) if lst else 0
        index[key] = ([t[0] for t in lst], lst, longest)
    for r in messages:
        i_w, start, subs = r.get("interference_w#"), r["t_start_ns"], r["sub_channels"]
        if i_w is None or start is None or not subs or r["dst#"] is None:
            continue
        ch = sp.channel(r)
        if sp.k[ch] == 0 or not sp.interference:
            continue  # check spectrum: 0
        rx = r["dst#"]
        lo = hi = tol = 0.0
        unknown = None
        for c in subs:
            starts, lst, longest = index.get((ch, c), ([], [], 0))
            first = bisect.bisect_left(starts, start - longest - NS_TOL)
            last = bisect.bisect_right(starts, start + NS_TOL)
            for o_start, o_end, cut, msg, o in lst[first:last]:
                sender = o["src#"]
                if msg == r["msg_id"] or sender is None or sender == rx:
                    continue
                if o_end < start - NS_TOL and not cut:
                    continue
                if o_start > start + NS_TOL:
                    continue
                certain = (o_start < start - NS_TOL and o_end > start + NS_TOL and not cut)
                if cut and o_start > start + NS_TOL:
                    continue
                hears = rss.hears(ch, rx, sender)
                if hears is False:
                    continue
                got = rss.get(ch, rx, sender)
                if got is None:
                    unknown = sender
                    continue
                w, rel = got
                share = w / len(subs)
                if certain and hears:
                    lo += share
                hi += share
                tol += share * rel
        where = "messages.csv:%d" % r["_line"]
        if unknown is not None:
            a.skip("messages.csv", "interference", "%s: the RSS of a co-channel sender is "
                   "not known here (%s)" % (ch, "no row of its link gives its rss_w"
                                            if rss.kind[ch] == "observed"
                                            else rss.why.get(ch) or "no position"))
            a.expect(i_w >= lo - tol - 1e-12 * lo, where, "interference",
                     "interference_w at least the co-channel senders' RSS whose is known",
                     ">= %r" % lo, i_w)
            continue
        slack = tol + 1e-12 * hi + 1e-300
        a.expect(lo - slack <= i_w <= hi + slack, where, "interference",
                 "interference_w = the RSS at %s %d of the other %s transmissions on its "
                 "sub-channel(s) %s at t_start_s (x shared / %d sub-channels)"
                 % ("the server" if ch == "D2S" and rx == sp.n else "device", rx, ch,
                    r["sub_channel"], len(subs)),
                 repr(lo) if lo == hi else "[%r, %r]" % (lo, hi), i_w)


def d2s_noise(p):
    """sigma^2 of the D2S cell: d2sNoisePowerW when >= 0 (graph-discovery), else
    noisePowerW."""
    d2s = p.get("d2sNoisePowerW", -1)
    return d2s if isinstance(d2s, (int, float)) and d2s >= 0 else p.get("noisePowerW")


def check_csv_times(a, name, rows):
    """sim_time_s non-decreasing in file order; rounds too; rounds.csv: rounds' times rise."""
    if not rows or "sim_time_s" not in rows[0]:
        return
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    prev = None
    round_time = {}
    for r in rows:
        where = "%s:%d" % (name, r["_line"])
        t = r.get("sim_time_ns")
        if t is None:
            continue
        if end is not None:
            a.expect(t <= end, where, "time-order", "sim_time_s not after simulated_time_s",
                     "<= %.9f" % (end / 1e9), r["sim_time_s"])
        if prev is not None:
            a.expect(t >= prev[1], where, "time-order",
                     "sim_time_s not before the previous row's", ">= " + prev[2],
                     r["sim_time_s"])
            if "round" in r and r.get("round#") is not None and prev[0] is not None:
                a.expect(r["round#"] >= prev[0], where, "time-order",
                         "round not before the previous row's", ">= %d" % prev[0], r["round"])
        prev = (r.get("round#"), t, r["sim_time_s"])
        if r.get("round#") is not None:
            lo_hi = round_time.setdefault(r["round#"], [t, t, r["_line"]])
            lo_hi[0], lo_hi[1] = min(lo_hi[0], t), max(lo_hi[1], t)
    if name == "rounds.csv":
        ordered = sorted(round_time.items())
        for (k0, (_, hi0, _l0)), (k1, (lo1, _h1, line1)) in zip(ordered, ordered[1:]):
            a.expect(lo1 > hi0, "%s:%d" % (name, line1), "time-order",
                     "round %d's time after round %d's" % (k1, k0), "> %.9f" % (hi0 / 1e9),
                     "%.9f" % (lo1 / 1e9))


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


def dbm_w(dbm):
    return 10.0 ** ((dbm - 30.0) / 10.0)


def radio_state(component):
    """(prefix, state) of a radio component (radio_tx -> ("radio", "tx")), else None."""
    prefix, _, state = component.partition("_")
    if prefix in RADIO_PREFIXES and state in RADIO_STATES:
        return prefix, state
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


# -- devices that come and go (availability.csv) ----------------------------------------
def away_intervals(a, rows):
    """{device: [(t_leave, t_back), ...]} in ns of availability.csv's rows (None without the
    file): ascending, disjoint, t_back math.inf for a device that never came back (one that
    left at the run's very end too); a leave and a return at one instant (--availabilityFile's
    intervals that touch) an interval of 0 ns, kept (the device left: its transmissions and
    its round's job are lost). Rows that repeat a state, or go back in time, are read as far
    as they go (check availability flags them)."""
    if rows is None:
        return None
    left, away = {}, {}

    def add(device, leave, back):
        intervals = away.setdefault(device, [])
        if back >= leave and (not intervals or intervals[-1][1] <= leave):
            intervals.append((leave, back))
    for r in rows:
        t, device, value = r.get("sim_time_ns"), r.get("device#"), r.get("available")
        if t is None or device is None:
            continue
        if value == "0" and device not in left:
            left[device] = t
        elif value == "1" and device in left:
            add(device, left.pop(device), t)
    for device, t in left.items():
        add(device, t, math.inf)
    return away


def away_inside(intervals, t):
    """The away interval (t_leave, t_back) with t_leave < t < t_back, else None."""
    if t is None:
        return None
    return next(((lo, hi) for lo, hi in intervals or () if lo < t < hi), None)


def away_before(intervals, t):
    """The away time (ns) of intervals within [0, t]."""
    return sum(max(0, min(hi, t) - lo) for lo, hi in intervals if lo < t)


def on_until(intervals, t0, span):
    """The instant a radio on from t0 but over the away intervals has been on for span ns."""
    t = t0
    for lo, hi in intervals:
        if hi <= t:
            continue
        if lo >= t + span:
            break
        span -= max(0, lo - t)
        t = hi
    return t + span


def available_range(a, t):
    """(least, most) devices available at t: nDevices less those away with availability.csv's
    rows at t < t applied, and with those at t <= t applied (a change stamped at t itself
    may count either way); None without nDevices."""
    k = a.params.get("nDevices")
    if not isinstance(k, int) or isinstance(k, bool):
        return None
    intervals = [iv for ivs in (a.away or {}).values() for iv in ivs]
    at_or_before = k - sum(1 for lo, hi in intervals if lo <= t < hi)
    before = k - sum(1 for lo, hi in intervals if lo < t <= hi)
    return min(at_or_before, before), max(at_or_before, before)


def round_begin(a, start):
    """The instant the server samples a round it opens at start: start; with every device
    away then (availability.csv, the changes stamped at start applied: a leave that ends a
    round comes before the next round), the first return after it (D2dFedAvg waits)."""
    k = a.params.get("nDevices")
    if not a.away or not isinstance(k, int):
        return start
    backs = [hi for ivs in a.away.values() for lo, hi in ivs if lo <= start < hi]
    if len(backs) < k or min(backs) == math.inf:
        return start
    return min(backs)


def availability_active(a):
    """True / False: run.json's parameters say devices come and go (meanOnTime_s and
    meanOffTime_s > 0, or an availabilityFile) or not; None if it records neither."""
    p = a.params
    if not any(key in p for key in ("meanOnTime_s", "meanOffTime_s", "availabilityFile")):
        return None
    on, off = p.get("meanOnTime_s"), p.get("meanOffTime_s")
    model = is_number(on) and is_number(off) and on > 0 and off > 0
    return bool(model or p.get("availabilityFile") not in (None, ""))


def check_availability(a, rows, messages, energy):
    """Check availability: availability.csv written exactly when run.json says devices come
    and go, its rows well formed; no message sent by a device while away, none delivered to
    one; no compute period while away."""
    active = availability_active(a)
    if active is not None:
        p = a.params
        a.expect(active == (rows is not None), "availability.csv", "availability",
                 "availability.csv written exactly when devices come and go (run.json: "
                 "meanOnTime_s %s, meanOffTime_s %s, availabilityFile '%s')"
                 % (p.get("meanOnTime_s"), p.get("meanOffTime_s"),
                    p.get("availabilityFile", "")),
                 "a file" if active else "none", "a file" if rows is not None else "none")
    if rows is None:
        return
    k = a.params.get("nDevices")
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    state, prev = {}, None
    for r in rows:
        where = "availability.csv:%d" % r["_line"]
        t, device, value = r.get("sim_time_ns"), r.get("device#"), r["available"]
        if device is not None and isinstance(k, int):
            a.expect(0 <= device < k, where, "availability", "a device (0..%d)" % (k - 1),
                     "0..%d" % (k - 1), device)
        if a.expect(value in ("0", "1"), where, "availability", "available 0 or 1", "0|1",
                    value) and device is not None:
            want = "0" if state.get(device, "1") == "1" else "1"
            a.expect(value == want, where, "availability", "device %d's rows alternate 0, "
                     "1, 0, ... from 0 (it is available until its first 0 row)" % device,
                     want, value)
            state[device] = value
        if t is None:
            continue
        if end is not None:
            a.expect(t <= end, where, "availability", "sim_time_s not after "
                     "simulated_time_s", "<= %.9f" % (end / 1e9), r["sim_time_s"])
        if prev is not None:
            a.expect(t >= prev[0], where, "availability", "sim_time_s not before the "
                     "previous row's", ">= " + prev[1], r["sim_time_s"])
        prev = (t, r["sim_time_s"])
    check_availability_file(a)
    check_away_rows(a, messages, energy)


def availability_file(path):
    """{device: [(lo, hi) ns]} of the away intervals an --availabilityFile (device,start_s,
    end_s: when a device is there) leaves a device that it lists: before its first interval,
    between them, after its last (hi math.inf); ValueError if it is no such file."""
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    if not rows or [c.strip() for c in rows[0]] != ["device", "start_s", "end_s"]:
        raise ValueError("no header device,start_s,end_s")
    there = {}
    for row in rows[1:]:
        if row:
            there.setdefault(int(row[0]), []).append((int(round(float(row[1]) * 1e9)),
                                                       int(round(float(row[2]) * 1e9))))
    away = {}
    for device, intervals in there.items():
        t = 0
        for lo, hi in sorted(intervals):
            if lo > t:
                away.setdefault(device, []).append((t, lo))
            t = max(t, hi)
        away.setdefault(device, []).append((t, math.inf))
    return away


def check_availability_file(a):
    """Check availability: with --availabilityFile (run.json's availabilityFile, if it can
    be read here), each device's away intervals in availability.csv those the file leaves
    it, within the run (1 ns: a change at the run's very end may or may not be written)."""
    path = a.params.get("availabilityFile")
    end = seconds_ns_or_none(a.run.get("simulated_time_s"))
    if not path or a.away is None or end is None:
        return
    try:
        want = availability_file(path)
    except (OSError, ValueError, IndexError) as e:
        a.skip("availability.csv", "availability", "--availabilityFile=%s cannot be read "
               "here (%s): its intervals are not compared" % (path, e))
        return

    def within(intervals):  # (a leave and a return at one instant: the file's intervals touch)
        return [(lo, hi if hi < end - NS_TOL else math.inf) for lo, hi in intervals
                if lo < end - NS_TOL and hi > lo]
    for device in sorted(set(want) | set(a.away)):
        expected, got = within(want.get(device, [])), within(a.away.get(device, []))
        same = len(expected) == len(got) and all(
            abs(lo - lo2) <= NS_TOL and (hi == hi2 or abs(hi - hi2) <= NS_TOL)
            for (lo, hi), (lo2, hi2) in zip(expected, got))
        a.expect(same, "availability.csv", "availability", "device %d's away intervals: "
                 "those --availabilityFile=%s leaves it" % (device, path),
                 "; ".join(span_text(iv) for iv in expected) or "none",
                 "; ".join(span_text(iv) for iv in got) or "none")


def check_away_rows(a, messages, energy):
    """Check availability: messages.csv and energy.csv against the away intervals."""
    away = a.away or {}
    for m in messages:
        where = "messages.csv:%d" % m["_line"]
        sent = away_inside(away.get(m.get("src#")), m.get("t_send_ns"))
        a.expect(sent is None, where, "availability", "device %s sends nothing while away "
                 "(availability.csv: away from %s)" % (m["src"], span_text(sent)),
                 "no row", "t_send_s " + m["t_send_s"])
        if m["delivered"] == "1":
            got = away_inside(away.get(m.get("dst#")), m.get("t_recv_ns"))
            a.expect(got is None, where, "availability", "device %s receives nothing while "
                     "away (availability.csv: away from %s)" % (m["dst"], span_text(got)),
                     "not delivered (receiver_off)", "delivered at t_recv_s " + m["t_recv_s"])
    for r in energy:
        # A compute row of one period (every row at --traces=full) dates its period.
        if r["component"] != "compute" or r.get("periods#") != 1 \
                or None in (r.get("start_s#"), r.get("duration_s#")):
            continue
        s, e = r["start_s#"], r["start_s#"] + r["duration_s#"]
        hit = next(((lo, hi) for lo, hi in away.get(r.get("node#"), ()) if s < hi and e > lo),
                   None)
        a.expect(hit is None, "energy.csv:%d" % r["_line"], "availability",
                 "node %s computes nothing while away (availability.csv: away from %s)"
                 % (r["node"], span_text(hit)), "no compute period",
                 "from %.9f to %.9f s" % (s / 1e9, e / 1e9))


def span_text(interval):
    if interval is None:
        return ""
    return "%.9f s %s" % (interval[0] / 1e9, "on (never back)" if interval[1] == math.inf
                          else "to %.9f s" % (interval[1] / 1e9))


def check_available_rows(a, rounds):
    """Check availability: rounds.csv's node -1 `available` rows (the FedAvg family,
    decentralized FL and local training): one per round exactly when availability.csv is there, each nDevices
    less the devices away at the round's start (the previous round's round_time_s row, 0 for
    round 1; FedAvg, with every device away then: the first return after it, when the
    server samples)."""
    algorithm = a.params.get("algorithm")
    if algorithm not in FEDAVG_FAMILY + ("decentralized", "local") or not rounds:
        return
    rows = {}
    for r in rounds:
        if r.get("node#") == -1 and r["metric"] in ("available", "round_time_s") \
                and r.get("round#") is not None:
            rows.setdefault(r["round#"], {})[r["metric"]] = r
    start = 0
    for rnd in sorted(rows):
        got = rows[rnd]
        if a.away is None:
            if "available" in got:
                a.expect(False, "rounds.csv:%d" % got["available"]["_line"], "availability",
                         "round %d: no `available` row without availability.csv (devices "
                         "always there)" % rnd, "none", got["available"]["value"])
            continue
        timed = got.get("round_time_s")
        if timed is not None:
            a.expect("available" in got, "rounds.csv:%d" % timed["_line"], "availability",
                     "round %d: node -1's `available` row (availability.csv: devices come "
                     "and go)" % rnd, "a row", "none")
        if "available" in got and got["available"].get("value#") is not None:
            begin = round_begin(a, start) if algorithm in FEDAVG_FAMILY else start
            counts = available_range(a, begin)
            value = got["available"]["value#"]
            if counts is not None:
                lo, hi = counts
                a.expect(lo <= value <= hi, "rounds.csv:%d" % got["available"]["_line"],
                         "availability", "round %d: `available` = nDevices less the devices "
                         "away at its start, %.9f s (availability.csv)" % (rnd, begin / 1e9),
                         "%d" % lo if lo == hi else "%d or %d" % (lo, hi),
                         int(value) if value == int(value) else value)
        if timed is None or timed.get("sim_time_ns") is None:
            break  # (the next round's start is unknown)
        start = timed["sim_time_ns"]


def check_partition(a, energy, messages=()):
    """Each row's period (start_s, duration_s) against its stamp; each radio's exclusive
    states partition the run (full) or add up to it (standard), less its device's away
    intervals (availability.csv)."""
    standard = a.run.get("traces") == "standard"
    p = a.params
    powers = RadioPowers(a)
    top = a.run.get("simulated_time_s")
    end = int(round(top * 1e9)) if isinstance(top, (int, float)) else None
    groups = {}       # (node, prefix) -> rows
    depleted = {}     # node -> the stamp of its first row with remaining_j 0
    for r in energy:
        where = "energy.csv:%d" % r["_line"]
        t, s, d, n = r.get("sim_time_ns"), r.get("start_s#"), r.get("duration_s#"), \
            r.get("periods#")
        node = r.get("node#")
        if r.get("remaining_j#") == 0.0 and node not in depleted and t is not None:
            depleted[node] = t
        if None in (t, s, d):
            continue
        if standard:
            a.expect(n is not None and n >= 1 and d >= n, where, "partition",
                     "periods >= 1, each of at least 1 ns (duration_s >= periods ns)",
                     ">= 1, <= %d" % d, n)
            a.expect(s + d <= t, where, "partition", "start_s + duration_s <= sim_time_s "
                     "(the periods end by the row's stamp)", "<= %.9f" % (t / 1e9),
                     "%.9f" % ((s + d) / 1e9))
        else:
            a.expect(n == 1, where, "partition", "periods = 1 (one period a row)", 1, n)
            a.expect(d > 0 and s + d == t, where, "partition",
                     "duration_s = sim_time_s - start_s > 0", "%.9f" % ((t - s) / 1e9),
                     "%.9f" % (d / 1e9))
        state = radio_state(r["component"])
        if state is not None and node is not None:
            groups.setdefault((node, state[0]), []).append(r)
    # (check fl-round: a sampled device depleted during a round is a known failure; its
    # battery emptied after the end of its periods stamped by its first row of remaining_j 0.)
    for r in energy:
        node, t = r.get("node#"), r.get("sim_time_ns")
        if node in depleted and t is not None and t <= depleted[node] \
                and None not in (r.get("start_s#"), r.get("duration_s#")):
            lo = a.depleted.get(node, (0, 0))[0]
            a.depleted[node] = (max(lo, r["start_s#"] + r["duration_s#"]), depleted[node])
    for node, t in depleted.items():
        a.depleted[node] = (min(a.depleted.get(node, (t, t))[0], t), t)
    if end is None:
        return
    if powers.zero:
        a.skip("energy.csv", "partition", "; ".join(powers.zero))
        return
    devices = p.get("nDevices")
    off = p.get("d2dRadioOff") is True
    # A radio switched off at time 0 (--d2dRadio=auto with a protocol that sends no D2D
    # message: d2dRadioOff) has no rows; every other radio of a kind some device has listens
    # from time 0 on every device.
    if off:
        lines = [rows[0]["_line"] for (node, prefix), rows in groups.items()
                 if prefix == "radio"]
        a.expect(not lines, "energy.csv:%d" % min(lines) if lines else "energy.csv",
                 "partition", "no radio_* row: the D2D radios are off from time 0 "
                 "(d2dRadioOff)", "none", "%d rows" % len(lines))
    if isinstance(devices, int):
        for prefix in sorted({k[1] for k in groups}):
            if prefix == "radio" and off:
                continue
            missing = [i for i in range(devices) if (i, prefix) not in groups
                       and not rowless_away(a, i, prefix, messages, powers.wifi, end)]
            a.expect(not missing, "energy.csv", "partition",
                     "every device's %s radio has rows (on from time 0%s)" % (
                         prefix, "; but a device away at time 0 (availability.csv) that "
                         "never came back, or on Wi-Fi whose PHY neither sent nor received"
                         if a.away else ""),
                     "nodes 0..%d" % (devices - 1),
                     "none of node " + ",".join(str(i) for i in missing[:10]))
    # tx and rx overlap on a full-duplex channel radio; an 802.11 PHY is one state at a time.
    duplex = not powers.wifi and p.get("ns3::D2dRadio::HalfDuplex") is False
    for (node, prefix), rows in sorted(groups.items()):
        rows = [r for r in rows if r.get("start_s#") is not None
                and r.get("duration_s#") is not None]
        if not rows:
            continue
        last = max(rows, key=lambda r: r["_line"])
        dep = depleted.get(node)
        who = "node %d's %s radio" % (node, "D2D" if prefix == "radio" else "D2S")
        away = None if a.away is None else a.away.get(node, [])
        if standard:
            partition_standard(a, rows, last, who, end, dep, duplex, away)
        else:
            partition_full(a, rows, last, who, end if dep is None else dep, dep is not None,
                           duplex, away)


def rowless_away(a, device, prefix, messages, wifi, end):
    """True if device's radio (prefix) may have no row: away from time 0 (availability.csv)
    and never back, or, on Wi-Fi, its PHY (switched off at time 0) neither sent nor received
    a message of that radio on record (messages.csv: src, or dst of a delivered row)."""
    intervals = (a.away or {}).get(device)
    if not intervals or intervals[0][0] != 0:
        return False
    if end is not None and intervals[0][1] >= end:
        return True
    server = a.params.get("nDevices")
    for m in messages if wifi else ():
        d2s = server in (m.get("src#"), m.get("dst#"))
        if d2s == (prefix == "d2s") and (m.get("src#") == device or (
                m.get("dst#") == device and m["delivered"] == "1")):
            a.expect(False, "messages.csv:%d" % m["_line"], "partition", "node %d's %s radio "
                     "has rows: away at time 0 (availability.csv), back at %.9f s, it %s this "
                     "message" % (device, "D2S" if d2s else "D2D", intervals[0][1] / 1e9,
                                  "sent" if m.get("src#") == device else "received"),
                     "rows", "none")
            return True  # (flagged here, with the message)
    return wifi


def partition_full(a, rows, last, who, end, depleted, duplex, away=None):
    """The periods of one radio cover [0, end] without a gap or an overlap (but tx with rx
    when duplex); with availability.csv (away: its device's away intervals), [0, end] less
    them: a gap exactly over each, no period within one, and the periods end where it left
    if it never came back."""
    periods = sorted((r["start_s#"], r["sim_time_ns"], radio_state(r["component"])[1],
                      r["_line"]) for r in rows)
    listed = away is not None
    away = [(lo, min(hi, end)) for lo, hi in away or () if lo < end]
    cover = 0
    active = []  # the periods still open at the current start
    for start, stop, state, line in periods:
        where = "energy.csv:%d" % line
        if start > cover and not any(lo <= cover and start <= hi for lo, hi in away):
            a.expect(False, where, "partition", "%s in some state from %.9f to %.9f s%s"
                     % (who, cover / 1e9, start / 1e9, " (away only over availability.csv's "
                        "intervals)" if listed else ""), "a period", "none (a gap)")
        inside = next(((lo, hi) for lo, hi in away if start < hi and stop > lo), None)
        if away:
            a.expect(inside is None, where, "partition", "%s draws nothing while its device "
                     "is away (availability.csv: from %s)" % (who, span_text(inside)),
                     "no period", "a %s period from %.9f to %.9f s"
                     % (state, start / 1e9, stop / 1e9))
        active = [x for x in active if x[1] > start]
        for other in active:
            allowed = duplex and {state, other[2]} == {"tx", "rx"}
            a.expect(allowed, where, "partition", "%s: its %s period from %.9f s overlaps "
                     "line %d's %s period (until %.9f s)" % (who, state, start / 1e9,
                                                             other[3], other[2],
                                                             other[1] / 1e9),
                     "no overlap" + (" but tx with rx" if duplex else ""), "an overlap")
        if not active:
            a.checks += 1  # no overlap: one check passed
        active.append((start, stop, state, line))
        cover = max(cover, stop)
    final = away[-1][0] if away and away[-1][1] >= end else end
    a.expect(cover == final, "energy.csv:%d" % last["_line"], "partition",
             "%s's periods end at %s" % (who, "its battery's depletion (remaining_j 0)"
                                         if depleted and final == end else
                                         "the run's end (simulated_time_s%s)" % (
                                             ", there then by availability.csv" if listed
                                             else "") if final == end
                                         else "its last leave (availability.csv: it never "
                                         "came back)"),
             "%.9f" % (final / 1e9), "%.9f" % (cover / 1e9))


def partition_standard(a, rows, last, who, end, depleted_at, duplex, away=None):
    """The summed durations of one radio's states equal the run's end (or its battery's
    depletion, which a standard row does not date: between the end of its periods and the
    stamp of its first row with remaining_j 0), less its away time (availability.csv)."""
    sums = {state: 0 for state in RADIO_STATES}
    for r in rows:
        sums[radio_state(r["component"])[1]] += r["duration_s#"]
    total = sum(sums.values())
    exclusive = total - sums["tx"] - sums["rx"] + max(sums["tx"], sums["rx"])
    lo, hi = (exclusive, total) if duplex else (total, total)
    where = "energy.csv:%d" % last["_line"]
    less = " less its device's away time (availability.csv)" if away is not None else ""
    away = away or ()
    if depleted_at is None:
        end -= away_before(away, end)
        what = "%s: its states' summed duration_s = the run's end (simulated_time_s)%s" % (
            who, less)
        if duplex:
            what += " (tx and rx may overlap: between the sum without their overlap and the sum)"
        a.expect(lo <= end <= hi, where, "partition", what, "%.9f" % (end / 1e9),
                 "%.9f" % (lo / 1e9) if lo == hi else "[%.9f, %.9f]" % (lo / 1e9, hi / 1e9))
    else:
        latest = max(r["start_s#"] + r["duration_s#"] for r in rows)
        latest -= away_before(away, latest)
        depleted_at -= away_before(away, depleted_at)
        a.expect(lo <= depleted_at and hi >= latest, where, "partition",
                 "%s: its states' summed duration_s = its battery's depletion, between the "
                 "end of its last period and its first row with remaining_j 0%s" % (who, less),
                 "[%.9f, %.9f]" % (latest / 1e9, depleted_at / 1e9),
                 "%.9f" % (lo / 1e9) if lo == hi else "[%.9f, %.9f]" % (lo / 1e9, hi / 1e9))


def radio_may_sleep(a, energy):
    """{prefix: why} of the radios that may sleep (DRX, sleepWhileTraining,
    sleepBetweenIterations, a sleep or transition row): a sleep may last 0 ns (woken at the
    instant it fell asleep: D2dDrx::RequestWake), which writes no row yet splits an idle
    period in two."""
    p = a.params
    why = {}
    for key, value in sorted(p.items()):
        low = key.lower()
        if low == "drx" or low == "d2sdrx":
            if value not in ("", None):
                why.setdefault("d2s" if low == "d2sdrx" else "radio", "%s=%s" % (key, value))
        elif "drx" in low and value not in ("", None, False, 0):
            for prefix in RADIO_PREFIXES:
                why.setdefault(prefix, "%s=%s" % (key, value))
        elif ("sleepwhiletraining" in low or "sleepbetween" in low) and value is True:
            for prefix in RADIO_PREFIXES:
                why.setdefault(prefix, "%s true" % key)
    for r in energy:
        state = radio_state(r["component"])
        if state is not None and state[1] in ("sleep", "transition"):
            why.setdefault(state[0], "%s rows" % r["component"])
    return why


def busy_joins(a, messages, sp):
    """({(node, prefix): sorted instants (ns)}, prefixes with an air time of 0 ns on record):
    the instants at which a radio is busy just before and just after and its draw changes,
    from its transmissions and receptions on record, whose times are exact: a transmission
    that ran to its end (a row of ON_AIR_REASONS) from t_start_s to t_start_s + airtime_s
    at its sender (BeginTx, TxEnd); a delivered reception from t_recv_s - airtime_s to
    t_recv_s at its receiver (D2dChannel::RxStart and RxEnd, one propagation delay after
    them); a reception that began but was lost (loss, retry_limit) one propagation delay
    after its transmission too, where that delay is known: devices that do not move, ns-3's
    delay model not set on the command line (a constant speed: one delay per link), and
    the link's delivered rows all giving the same one. Such an instant is where one of them begins or ends, and either another ends or
    begins there too or one of them is under way across it. Each begin and end changes the
    radio's draw (D2dRadioEnergyModel: tx on / off, rx draw +- one reception's), so each
    such instant ends a period of draw and begins another, both not idle."""
    spans, seen, zero, delays, lost = {}, set(), set(), {}, []
    for r in messages:
        start, air = r.get("t_start_ns"), r.get("airtime_ns")
        if start is None or air is None or r["reason"] not in ON_AIR_REASONS \
                or r.get("src#") is None or r.get("dst#") is None:
            continue
        prefix = "d2s" if sp.channel(r) == "D2S" else "radio"
        if air <= 0:
            zero.add(prefix)
            continue
        if (r.get("msg_id#"), start, air) not in seen:  # one transmission, a row per receiver
            seen.add((r.get("msg_id#"), start, air))
            spans.setdefault((r["src#"], prefix), []).append((start, start + air))
        recv = r.get("t_recv_ns")
        if r["delivered"] == "1" and recv is not None:
            spans.setdefault((r["dst#"], prefix), []).append((recv - air, recv))
            delays.setdefault((r["src#"], r["dst#"]), set()).add(recv - start - air)
        elif r["reason"] in RECEIVED_REASONS:
            lost.append((r["src#"], r["dst#"], prefix, start, air))
    fixed = not moves(a) and "delaymodel" not in str(a.params.get("commandLine", "")).lower()
    for src, dst, prefix, start, air in lost if fixed else []:
        delay = delays.get((src, dst), ())
        if len(delay) == 1:
            (d,) = delay
            spans.setdefault((dst, prefix), []).append((start + d, start + air + d))
    joins = {}
    for key, intervals in spans.items():
        begins = sorted(s for s, _ in intervals)
        ends = sorted(e for _, e in intervals)
        both = set(begins) & set(ends)
        # under way across t: begun before t and not ended by t (every span lasts > 0 ns)
        joins[key] = sorted(t for t in set(begins) | set(ends) if t in both or
                            bisect.bisect_left(begins, t) - bisect.bisect_right(ends, t) > 0)
    return joins, zero


def check_periods(a, energy, messages, sp):
    """--traces=standard: each radio_idle / d2s_idle row's periods against its radio's other
    rows of the same flush (and the transmissions and receptions on record)."""
    if a.run.get("traces") != "standard":
        return  # --traces=full: periods = 1 (check partition)
    p = a.params
    powers = RadioPowers(a)
    why = None
    if p.get("backend", "channel") != "channel":
        why = ("--backend=wifi: a radio's idle rows hold ns-3's IDLE, CCA_BUSY and SWITCHING, "
               "periods that may follow each other")
    elif powers.zero:
        why = "; ".join(powers.zero)
    elif any(r.get("remaining_j#") == 0.0 for r in energy):
        why = ("a battery depleted: its radio, switched off, ends the receptions of its "
               "transmission, maybe at the instant they began")
    if why is not None:
        a.skip("energy.csv", "periods", why)
        return
    sleeps = radio_may_sleep(a, energy)
    for prefix, reason in sorted(sleeps.items()):
        a.skip("energy.csv", "periods", "%s_idle: the radio may sleep (%s), maybe for 0 ns, "
               "between two idle periods" % (prefix, reason))
    rate_key = {"radio": "linkRateBps", "d2s": "d2sLinkRateBps"}
    fast = {}
    for prefix in RADIO_PREFIXES:
        rate = p.get(rate_key[prefix])
        # A message has at least one byte (D2dMessage): 8 bits take >= 1 ns up to 8 Gb/s.
        fast[prefix] = not isinstance(rate, (int, float)) or isinstance(rate, bool) \
            or not 0 < rate <= 8e9
    joins, zero = busy_joins(a, messages, sp)
    duplex = p.get("ns3::D2dRadio::HalfDuplex") is False
    groups = {}  # (sim_time_ns, node, prefix) -> rows, in file order
    for r in energy:
        state = radio_state(r["component"])
        if state is None:
            continue
        groups.setdefault((r.get("sim_time_ns"), r.get("node#"), state[0]), []).append(r)
    for (t, node, prefix), rows in groups.items():
        idle = [r for r in rows if radio_state(r["component"])[1] == "idle"]
        if not idle or prefix in sleeps or t is None or node is None:
            continue
        if fast[prefix] or prefix in zero:
            a.skip("energy.csv", "periods", "%s_idle: an air time may round to 0 ns (%s)"
                   % (prefix, "one on record" if prefix in zero else
                      "%s above 8e9 b/s or not recorded" % rate_key[prefix]))
            continue
        if any(r.get(c) is None for r in rows for c in ("start_s#", "duration_s#",
                                                         "periods#")):
            continue  # (a violation of its own)
        row = idle[-1]
        n = sum(r["periods#"] for r in idle)
        t0 = min(r["start_s#"] for r in rows)
        # Its device's away intervals (availability.csv) within the flush: no period there,
        # and each leave may part two idle periods as a busy one does.
        away = (a.away or {}).get(node, [])
        gaps = sum(1 for lo, _ in away if t0 < lo < t)
        # The end of the flush's last period (half-duplex: the states follow each other, as
        # check partition checks, but over the away intervals), or a time not after it (tx
        # and rx may overlap).
        t1 = max(r["start_s#"] + r["duration_s#"] for r in rows) if duplex else \
            on_until(away, t0, sum(r["duration_s#"] for r in rows))
        first = any(r["start_s#"] == t0 for r in idle)
        last = radio_state(rows[-1]["component"])[1] == "idle"
        busy = sum(r["periods#"] for r in rows if radio_state(r["component"])[1] != "idle")
        where = "energy.csv:%d" % row["_line"]
        who = "node %d's %s radio" % (node, "D2D" if prefix == "radio" else "D2S")
        parted = "; leaves (availability.csv) within it: %d" % gaps if gaps else ""
        if busy == 0:
            a.expect(1 <= n <= 1 + gaps, where, "periods", "%s idle through its flush: one "
                     "period%s" % (who, parted), "1" if not gaps else "[1, %d]" % (1 + gaps),
                     n)
            continue
        instants = joins.get((node, prefix), [])
        joined = bisect.bisect_left(instants, t1) - bisect.bisect_right(instants, t0)
        lo = int(first) + int(last)
        hi = busy - joined + int(first) + int(last) - 1 + gaps
        a.expect(lo <= n <= hi, where, "periods",
                 "%s: its idle periods alternate with its %d other periods of the flush "
                 "(%s with idle, %s with idle; instants on record where its draw changes "
                 "while it stays busy: %d%s)"
                 % (who, busy, "begins" if first else "does not begin",
                    "ends" if last else "does not end", joined, parted),
                 "%d" % lo if lo == hi else "[%d, %d]" % (lo, hi), n)


def check_round_energy(a, energy, rounds):
    """rounds.csv's energy rows (node -1, `energy_j` and `energy_j.COMPONENT`, after the
    first row of each (round, sim_time_s)): each within its bounds from energy.csv, the
    total the sum of its components, one set per (round, time). The energy drawn up to t
    (open periods of draw included) is at least the rows stamped up to t (a row holds
    periods that ended by its stamp, at both trace levels) and at most those plus, per
    (node, component), the first row after t (--traces=full: the row that closes the
    period open at t) or plus all later rows (standard: a row sums the periods of a
    second)."""
    if not rounds:
        return
    standard = a.run.get("traces") == "standard"
    points = {}   # (round, t) -> {metric: (value, line)}
    keys = []     # the (round, t) of every row, in order
    for r in rounds:
        if r.get("round#") is None or r.get("sim_time_ns") is None or r.get("value#") is None:
            continue
        key = (r["round#"], r["sim_time_ns"])
        if not keys or keys[-1] != key:
            keys.append(key)
        if r.get("node#") == -1 and (r["metric"] == "energy_j"
                                     or r["metric"].startswith("energy_j.")):
            points.setdefault(key, {})[r["metric"]] = (r["value#"], r["_line"])
    if not points:
        a.expect(not energy, "rounds.csv", "round-energy",
                 "energy_j rows (node -1) at each (round, time), energy being traced",
                 "energy_j rows", "none")
        return
    every_metric = set()
    for got in points.values():
        every_metric |= set(got)
    for key in dict.fromkeys(keys):
        a.expect("energy_j" in points.get(key, {}), "rounds.csv", "round-energy",
                 "an energy_j row at round %d, t = %.9f s" % (key[0], key[1] / 1e9),
                 "a row", "none")
        # Each set of energy rows has every component (the writer writes them all, 0 too).
        missing = sorted(every_metric - set(points.get(key, {})))
        if key in points:
            a.expect(not missing, "rounds.csv", "round-energy",
                     "the energy rows of every component at round %d, t = %.9f s (as at the "
                     "other times)" % (key[0], key[1] / 1e9), "all", "none of "
                     + ",".join(missing))
    # energy.csv per component: times sorted with cumulative sums; per (node, component)
    # its rows' times and energies (the first row after t).
    by_comp, by_key = {}, {}
    for r in energy:
        t, e = r.get("sim_time_ns"), r.get("energy_j#")
        if t is None or e is None:
            continue
        by_comp.setdefault(r["component"], []).append((t, e))
        by_key.setdefault((r["node"], r["component"]), []).append((t, e))
    cum = {}
    for comp, rows in by_comp.items():
        rows.sort(key=lambda x: x[0])
        sums = [0.0]
        for _, e in rows:
            sums.append(sums[-1] + e)
        cum[comp] = ([t for t, _ in rows], sums)
    keyed = {k: ([t for t, _ in v], [e for _, e in v]) for k, v in by_key.items()}

    def bounds(comps, t):
        lo = hi = 0.0
        for c in comps:
            if c not in cum:
                continue
            times, sums = cum[c]
            i = bisect.bisect_right(times, t)
            lo += sums[i]
            hi += sums[-1] if standard else sums[i]
        if not standard:
            for (node, c), (times, es) in keyed.items():
                if c in comps:
                    i = bisect.bisect_right(times, t)
                    if i < len(times):
                        hi += es[i]
        return lo, hi

    every = sorted(set(by_comp) | {m[len("energy_j."):] for p in points.values() for m in p
                                   if m != "energy_j"})
    for (rnd, t), got in sorted(points.items()):
        parts = 0.0
        for metric, (value, line) in sorted(got.items()):
            comps = every if metric == "energy_j" else [metric[len("energy_j."):]]
            lo, hi = bounds(comps, t)
            tol = 1e-8 * max(abs(hi), abs(value)) + 1e-12
            a.expect(lo - tol <= value <= hi + tol, "rounds.csv:%d" % line, "round-energy",
                     "%s at round %d, t = %.9f s within energy.csv's bounds" % (
                         metric, rnd, t / 1e9), "[%r, %r]" % (lo, hi), value)
            if metric != "energy_j":
                parts += value
        if "energy_j" in got and len(got) > 1:
            total, line = got["energy_j"]
            a.expect_close("rounds.csv:%d" % line, "round-energy",
                           "energy_j = the sum of its energy_j.COMPONENT rows", parts, total,
                           rel=1e-8, abs_tol=1e-12)


def check_rounds(a, rounds, messages):
    """rounds.csv: each (round, node, metric) exactly once (a row written twice, or a round's
    row under another round's number, is found); node -1's bytes_sent rows sum to the bytes
    of the distinct messages of the learning protocol in messages.csv (every kind but graph
    discovery's gd_* and pca_*: results.bytesSent), exactly."""
    if not rounds:
        return
    seen = {}
    for r in rounds:
        if None in (r.get("round#"), r.get("node#")):
            continue
        key = (r["round#"], r["node#"], r["metric"])
        a.expect(key not in seen, "rounds.csv:%d" % r["_line"], "rounds",
                 "(round %d, node %d, metric %s) written once" % key, "one row",
                 "another at line %s" % seen.get(key))
        seen.setdefault(key, r["_line"])
    sent = [r for r in rounds if r.get("node#") == -1 and r["metric"] == "bytes_sent"
            and r.get("value#") is not None]
    # The round-based protocols with a server or a committee write bytes_sent with each
    # round's round_time_s; the peer-to-peer algorithms (decentralized, semi-decentralized,
    # local) do not.
    timed = [r for r in rounds if r.get("node#") == -1 and r["metric"] == "round_time_s"]
    # (graph-discovery: the protocol is --downstream's.)
    protocol = a.params.get("algorithm", a.params.get("downstream"))
    peer = protocol in ("decentralized", "semi-decentralized", "local")
    a.expect(bool(sent) or not timed or peer, "rounds.csv", "rounds", "node -1's bytes_sent "
             "rows, written with its round_time_s rows (messages.csv's learning bytes; "
             "algorithm %s)" % (protocol or "of the program"), "rows", "none")
    if sent:
        total = sum(r["value#"] for r in sent)
        learning = lambda k: not k.startswith(("gd_", "pca_"))  # noqa: E731
        rounds_wanted = a.params.get("rounds")
        done = a.summary.get("rounds_completed")
        if isinstance(rounds_wanted, int) and isinstance(done, int) and done < rounds_wanted:
            # Stopped mid-round (--maxSimTime): the unfinished round's messages have no row.
            # Those sent before the last row count, those sent at its instant may (the next
            # round's first messages leave then).
            t = sent[-1].get("sim_time_ns")
            lo = distinct_bytes([m for m in messages if m["t_send_ns"] is not None
                                 and t is not None and m["t_send_ns"] < t], learning)
            hi = distinct_bytes([m for m in messages if m["t_send_ns"] is not None
                                 and t is not None and m["t_send_ns"] <= t], learning)
            a.expect(lo <= total <= hi, "rounds.csv:%d" % sent[-1]["_line"], "rounds",
                     "node -1's bytes_sent rows (%d) sum to the bytes of messages.csv's "
                     "distinct messages of the learning protocol sent by the last row (the "
                     "run stopped after %d of %d rounds)" % (len(sent), done, rounds_wanted),
                     "%d to %d" % (lo, hi), int(total) if total == int(total) else total)
            return
        want = distinct_bytes(messages, learning)
        a.expect(total == want, "rounds.csv:%d" % sent[-1]["_line"], "rounds",
                 "node -1's bytes_sent rows (%d) sum to the bytes of messages.csv's distinct "
                 "messages of the learning protocol" % len(sent), want,
                 int(total) if total == int(total) else total)


def check_fl_rounds(a, rounds, messages):
    """Check fl-round: the FedAvg family's participants and stragglers against the round's
    downlink and uplink rows, and why each round ended when it did."""
    p = a.params
    if p.get("algorithm") not in FEDAVG_FAMILY or not rounds:
        return
    if a.run.get("untraced_message_rows"):
        a.skip("rounds.csv", "fl-round", "--traces=standard leaves message rows out")
        return
    k, c = p.get("nDevices"), p.get("clientFraction")
    if not isinstance(k, int) or not is_number(c):
        a.skip("rounds.csv", "fl-round", "run.json has no nDevices or clientFraction")
        return
    target = max(1, math.floor(c * k + 0.5))
    over = p.get("overSelection", 1)
    over_n = math.floor((over if is_number(over) else 1) * target + 0.5)
    unicast = p.get("ns3::D2dFedAvg::Downlink") == "unicast"
    deadline = p.get("roundDeadline_s")
    deadline_ns = round(deadline * 1e9) if is_number(deadline) else 0
    # Known failures: a reliable global_model not delivered, or a "busy" reply (both only
    # with --waitForFailed=false; busy replies also on unreliable links), a sampled device
    # that leaves (availability.csv) or whose battery depletes during the round.
    fail_known = p.get("waitForFailed") is not True
    server = k  # the server's index: the last transport
    rows = {}
    for r in rounds:
        if r.get("node#") == -1 and r["metric"] in ("round_time_s", "participants",
                                                   "stragglers", "available"):
            rows.setdefault(r["round#"], {})[r["metric"]] = r
    start = 0
    for rnd in sorted(x for x in rows if x is not None):
        got = rows[rnd]
        if not all(m in got for m in ("round_time_s", "participants", "stragglers")):
            continue
        end = got["round_time_s"]["sim_time_ns"]
        where = "rounds.csv:%d" % got["participants"]["_line"]
        part, strag = got["participants"]["value#"], got["stragglers"]["value#"]
        if end is None or part is None or strag is None:
            continue
        # Devices that come and go: the server samples among those available (rounds.csv's
        # `available`, check availability), when one is (the round may wait for one).
        there = (got.get("available") or {}).get("value#")
        sampled_n = min(k if there is None else int(there), over_n)
        start = round_begin(a, start)
        down = [m for m in messages if m["kind"] == "global_model" and m["t_send_ns"] is not
                None and abs(m["t_send_ns"] - start) <= 1]
        sampled = {m["dst#"] for m in down}
        # (A device away when the server samples is not sampled: its row of a broadcast to
        # every device is no failure; one that leaves at that instant may have been.)
        away = {d for d, ivs in (a.away or {}).items()
                if any(lo < start < hi or lo == start == 0 < hi for lo, hi in ivs)}
        failed = {m["dst#"] for m in down if m["mode"] == "reliable" and m["delivered"] != "1"
                  and m["reason"] != "unfinished" and m["dst#"] not in away}
        # A sampled device still on an earlier round's job answers "busy".
        failed |= {m["src#"] for m in messages if m["kind"] == "busy" and m["dst#"] == server
                   and m["complete"] == "1" and m["t_recv_ns"] is not None
                   and start < m["t_recv_ns"] <= end}
        arrived = {m["src#"] for m in messages if m["kind"] == "update" and m["dst#"] == server
                   and m["complete"] == "1" and m["t_recv_ns"] is not None
                   and start < m["t_recv_ns"] <= end and m["src#"] in sampled}
        # A sampled device that left or was depleted during the round, before it answered
        # (D2dFedAvg::GiveUp: not once its answer is in).
        failed |= sampled & ({d for d, ivs in (a.away or {}).items()
                              if any(start < lo <= end for lo, _ in ivs)}
                             | {d for d, (lo, hi) in a.depleted.items()
                                if lo <= end and hi > start}) - arrived
        n = part + strag
        a.expect(n == sampled_n, where, "fl-round", "round %d: participants + stragglers = "
                 "min(%s, round(overSelection x m)) sampled" % (
                     rnd, "nDevices" if there is None else "available"), sampled_n, n)
        if unicast or sampled_n == k:
            # One row per sampled device (a broadcast to all: none for one out of range).
            a.expect(len(sampled) == n if unicast else len(sampled) <= n, where, "fl-round",
                     "round %d: devices sent w^t at its start" % rnd,
                     n if unicast else "<= %d" % n, len(sampled))
        else:
            # A broadcast naming the sampled devices reaches every device in range: a row each.
            a.expect(len(sampled) >= n, where, "fl-round", "round %d: devices sent w^t at its "
                     "start" % rnd, ">= %d" % n, len(sampled))
        a.expect(part <= target, where, "fl-round", "round %d: participants <= m = max(1, "
                 "round(clientFraction x nDevices))" % rnd, "<= %d" % target, part)
        a.expect(part <= len(arrived), where, "fl-round", "round %d: participants <= sampled "
                 "devices whose update arrived complete in the round" % rnd,
                 "<= %d" % len(arrived), part)
        if deadline_ns == 0 or end - start < deadline_ns - 1:
            done = part == target or part == n or (
                fail_known and part + len(failed) >= n)
            a.expect(done, where, "fl-round", "round %d ended before --roundDeadline: m "
                     "answers, or every sampled device answered%s" % (
                         rnd, " or known failed (its global_model not delivered, it "
                         "answered busy, left or its battery depleted)" if fail_known else ""),
                     "%d answers, or %d with %d failed or busy" % (target, n, len(failed)),
                     part)
        start = end
    return


def check_async_rounds(a, rounds, messages):
    """Check async-round: fedasync's and fedbuff's updates per version and their count
    against the complete updates that reached the server."""
    p = a.params
    algorithm = p.get("algorithm")
    if algorithm not in ("fedasync", "fedbuff") or not rounds:
        return
    want = 1 if algorithm == "fedasync" else p.get("bufferSize", 10)
    applied = 0
    last = None
    for r in rounds:
        if r.get("node#") != -1 or r["metric"] not in ("updates", "staleness_mean",
                                                       "staleness_max"):
            continue
        where = "rounds.csv:%d" % r["_line"]
        v = r.get("value#")
        if r["metric"] == "updates":
            a.expect(v == want, where, "async-round", "round %s: updates per version (%s)"
                     % (r["round"], "1 for fedasync" if want == 1 else "--bufferSize"),
                     want, v)
            applied += v or 0
            last = r
        elif v is not None:
            a.expect(v >= 0, where, "async-round", "%s >= 0" % r["metric"], ">= 0", v)
    if last is None or a.run.get("untraced_message_rows"):
        return
    server = p.get("nDevices")
    arrived = sum(1 for m in messages if m["kind"] == "update" and m["dst#"] == server
                  and m["complete"] == "1" and m["t_recv_ns"] is not None
                  and m["t_recv_ns"] <= last["sim_time_ns"])
    a.expect(applied <= arrived, "rounds.csv:%d" % last["_line"], "async-round",
             "the updates applied <= the complete updates that reached the server by then",
             "<= %d" % arrived, applied)


def check_beliefs(a, rounds):
    """beliefs.csv (bayes-consensus: step, node, estimate, belief_true, log_belief_true,
    error): one row per (step, node); belief_true = exp(log_belief_true) (relative 1e-12);
    error 0 or 1; and rounds.csv's belief_true and error rows of each (round = step, node)
    are its values, belief_true as printed with 9 significant digits (exactly), one each."""
    rows = a.read_csv("beliefs.csv")
    if rows is None:
        return
    # --mode=discrete's columns; gaussian-linear (mean_k, var_k) and variational (mean_l2,
    # sigma_*, train_loss) write others: only their (step, node) rows are checked.
    discrete = {"belief_true", "log_belief_true", "error"} <= set(rows[0] if rows else ())
    columns = [("step", int), ("node", int)]
    if discrete:
        columns += [("belief_true", float), ("log_belief_true", float), ("error", int)]
    for col, kind in columns:
        a.number(rows, "beliefs.csv", col, kind, "beliefs")
    seen = {}
    for r in rows:
        where = "beliefs.csv:%d" % r["_line"]
        key = (r["step#"], r["node#"])
        a.expect(key not in seen, where, "beliefs", "(step %s, node %s) once" % key,
                 "one row", "another at line %s" % seen.get(key))
        seen.setdefault(key, r)
        if not discrete:
            continue
        b, log_b = r["belief_true#"], r["log_belief_true#"]
        if b is not None and log_b is not None:
            a.expect_close(where, "beliefs", "belief_true = exp(log_belief_true)",
                           math.exp(log_b), b, rel=1e-12)
        a.expect(r["error"] in ("0", "1"), where, "beliefs", "error 0 or 1", "0|1",
                 r["error"])
    if rounds is None or not discrete:
        return
    mirrored = {}
    for r in rounds:
        if r["metric"] not in ("belief_true", "error") or r.get("node#") is None \
                or r["node#"] < 0:
            continue
        key = (r.get("round#"), r["node#"])
        mirrored.setdefault(key, set()).add(r["metric"])
        b = seen.get(key)
        where = "rounds.csv:%d" % r["_line"]
        if not a.expect(b is not None, where, "beliefs", "round %s node %s: a row of "
                        "beliefs.csv" % key, "a row", "none"):
            continue
        if r["metric"] == "belief_true" and b["belief_true#"] is not None:
            want = float("%.9g" % b["belief_true#"])
            what = "beliefs.csv:%d's belief_true (9 significant digits)" % b["_line"]
        elif r["metric"] == "error" and b["error#"] is not None:
            want, what = float(b["error#"]), "beliefs.csv:%d's error" % b["_line"]
        else:
            continue
        a.expect(r.get("value#") == want, where, "beliefs", what, want, r.get("value#"))
    if mirrored:
        for key, r in sorted(seen.items(), key=lambda kv: kv[1]["_line"]):
            a.expect(mirrored.get(key) == {"belief_true", "error"},
                     "beliefs.csv:%d" % r["_line"], "beliefs",
                     "step %s node %s: rounds.csv's belief_true and error rows" % key,
                     "both", ",".join(sorted(mirrored.get(key, ()))) or "none")


def check_trust(a):
    """consensus: trust.csv's rows (round, node, peer, w, received) against consensus.csv's
    row of that (round, node): received one of fresh, reused, missing, counted as its fresh,
    reused and missing; the row of peer = node its self_trust (the same text); a
    (round, node) in one file is in the other. bayes-consensus: consensus.csv has one row
    per (step, node) of beliefs.csv."""
    summary = a.read_csv("consensus.csv")
    if summary is None:
        return
    if "step" in (summary[0] if summary else {}):
        beliefs = a.read_csv("beliefs.csv")
        if beliefs is not None:
            want = sorted((r["step"], r["node"]) for r in beliefs)
            got = sorted((r["step"], r["node"]) for r in summary)
            a.expect(want == got, "consensus.csv", "consensus", "one row per (step, node) of "
                     "beliefs.csv", "%d rows" % len(want), "%d rows" % len(got))
        return
    trust = a.read_csv("trust.csv")
    if trust is None or not summary or "self_trust" not in summary[0]:
        return
    by = {}
    for t in trust:
        by.setdefault((t["round"], t["node"]), []).append(t)
        a.expect(t["received"] in ("fresh", "reused", "missing"),
                 "trust.csv:%d" % t["_line"], "consensus", "received: fresh, reused or missing",
                 "fresh|reused|missing", t["received"])
    for c in summary:
        where = "consensus.csv:%d" % c["_line"]
        key = (c["round"], c["node"])
        rows = by.pop(key, [])
        for col in ("fresh", "reused", "missing"):
            n = sum(t["received"] == col for t in rows)
            a.expect(str(n) == c[col], where, "consensus", "%s = trust.csv's rows of round %s "
                     "node %s received %s" % ((col,) + key + (col,)), n, c[col])
        own = [t["w"] for t in rows if t["peer"] == t["node"]]
        a.expect(own == [c["self_trust"]], where, "consensus", "self_trust = trust.csv's w of "
                 "round %s node %s's own row" % key, ",".join(own) or "none", c["self_trust"])
    for key, rows in sorted(by.items(), key=lambda kv: kv[1][0]["_line"]):
        a.expect(False, "trust.csv:%d" % rows[0]["_line"], "consensus", "round %s node %s: a "
                 "row of consensus.csv" % key, "a row", "none")


def check_group_rounds(a, rounds):
    """gd_energy.csv (graph discovery, a row per round): its rounds and times those of
    rounds.csv's node -1 energy_j rows, and its accuracy (rounds >= 1) rounds.csv's node -1
    accuracy of that round (relative 1e-8, 9 significant digits)."""
    groups = a.read_csv("gd_energy.csv")
    if groups is None or rounds is None:
        return
    a.number(groups, "gd_energy.csv", "round", int, "energy")
    a.number(groups, "gd_energy.csv", "accuracy", float, "energy")
    parse_times(a, groups, "gd_energy.csv", ("sim_time_s",))
    energy = {(r.get("round#"), r.get("sim_time_ns")) for r in rounds
              if r.get("node#") == -1 and r["metric"] == "energy_j"}
    accuracy = {r.get("round#"): r.get("value#") for r in rounds
                if r.get("node#") == -1 and r["metric"] == "accuracy"}
    keys = [(g.get("round#"), g.get("sim_time_ns")) for g in groups]
    if energy:
        a.expect(sorted(keys) == sorted(energy) and len(set(keys)) == len(keys),
                 "gd_energy.csv", "energy", "one row per (round, time) of rounds.csv's node -1 "
                 "energy_j rows", len(energy), len(keys))
    for g in groups:
        if g.get("round#") and g.get("accuracy#") is not None and g["round#"] in accuracy:
            a.expect_close("gd_energy.csv:%d" % g["_line"], "energy",
                           "accuracy = rounds.csv's node -1 accuracy at round %d" % g["round#"],
                           accuracy[g["round#"]], g["accuracy#"], rel=PRINTED, abs_tol=1e-15)


# -- cmfl's committee.csv and aggregation.csv, consensus.csv's matrix, graph discovery -----
def printed_tol(*values):
    """The rounding of values printed with 9 significant digits: half a unit of the 9th
    digit of each, at most 5e-9 of its size."""
    return sum(5e-9 * abs(v) for v in values) + 1e-15


def ints(a, rows, name, columns, check):
    for col in columns:
        a.number(rows, name, col, int, check)


def check_committee(a, rounds):
    """cmfl: committee.csv (round, sim_time_s, training, committee, aggregation, n1, n2, n3,
    next_committee, next_n2) one row per round of rounds.csv's node -1 training_clients,
    at its time, its training, committee and aggregation those of rounds.csv's
    training_clients, committee_clients and aggregated, exactly; n1 <= training, n2 <=
    committee, n3 <= aggregation, each and next_n2 at most run.json's maliciousDevices;
    next_committee elected, drawn or kept; next_n2 (the malicious members of the next
    committee) is n2 of the next row, and n2 itself when kept. aggregation.csv (device,
    malicious, training, committee, aggregated): one row per device 0..N-1 in order,
    malicious = 1 exactly for maliciousDevices; each column's sum over the devices the sum
    of committee.csv's training, committee and aggregation, and over the malicious devices
    the sum of n1, n2 and n3."""
    rows = a.read_csv("committee.csv")
    if rows is None:
        return
    name = "committee.csv"
    cols = ("round", "training", "committee", "aggregation", "n1", "n2", "n3", "next_n2")
    ints(a, rows, name, cols, "committee")
    parse_times(a, rows, name, ("sim_time_s",))
    malicious = a.params.get("maliciousDevices")
    malicious = set(malicious) if isinstance(malicious, list) else None
    per_round = {}
    for r in rounds or []:
        if r.get("node#") == -1 and r["metric"] in ("training_clients", "committee_clients",
                                                    "aggregated"):
            per_round.setdefault(r.get("round#"), {})[r["metric"]] = r
    seen = set()
    for k, r in enumerate(rows):
        where = "%s:%d" % (name, r["_line"])
        if None in (r.get(c + "#") for c in cols):
            continue
        seen.add(r["round#"])
        got = per_round.get(r["round#"])
        if rounds is not None and a.expect(got is not None, where, "committee",
                                           "round %d: rounds.csv's node -1 rows of the round"
                                           % r["round#"], "rows", "none"):
            for col, metric in (("training", "training_clients"),
                                ("committee", "committee_clients"),
                                ("aggregation", "aggregated")):
                m = got.get(metric)
                if m is None:
                    continue
                a.expect(m.get("value#") == r[col + "#"], where, "committee",
                         "%s = rounds.csv:%d's %s" % (col, m["_line"], metric),
                         m.get("value#"), r[col + "#"])
                a.expect(m.get("sim_time_ns") == r.get("sim_time_ns"), where, "committee",
                         "sim_time_s = rounds.csv:%d's (written at the round's end)"
                         % m["_line"], m["sim_time_s"], r["sim_time_s"])
        for n, col in (("n1", "training"), ("n2", "committee"), ("n3", "aggregation")):
            a.expect(0 <= r[n + "#"] <= r[col + "#"], where, "committee",
                     "%s (malicious) at most %s" % (n, col), "0..%d" % r[col + "#"], r[n])
        for n in ("n1", "n2", "n3", "next_n2"):
            if malicious is not None:
                a.expect(r[n + "#"] <= len(malicious), where, "committee",
                         "%s at most the %d malicious devices (run.json's maliciousDevices)"
                         % (n, len(malicious)), "<= %d" % len(malicious), r[n])
        a.expect(r["next_committee"] in ("elected", "drawn", "kept"), where, "committee",
                 "next_committee elected, drawn or kept", "elected|drawn|kept",
                 r["next_committee"])
        if r["next_committee"] == "kept":
            a.expect(r["next_n2#"] == r["n2#"], where, "committee", "next_n2 = n2 (the "
                     "committee kept)", r["n2"], r["next_n2"])
        following = rows[k + 1] if k + 1 < len(rows) else None
        if following is not None and following.get("n2#") is not None:
            a.expect(r["next_n2#"] == following["n2#"], where, "committee",
                     "next_n2 = the next round's n2 (%s:%d)" % (name, following["_line"]),
                     following["n2"], r["next_n2"])
    # The vote that ends a round (the election, or a failed aggregation vote with
    # keep-committee) calls FinishRound at its last step: ccp.csv's last row of each round
    # is at committee.csv's time of that round.
    ccp = a.read_csv("ccp.csv") or []
    parse_times(a, ccp, "ccp.csv", ("sim_time_s",))
    last = {}
    for c in ccp:
        last[c.get("round")] = c
    for r in rows:
        c = last.get(r.get("round"))
        if c is not None and r.get("sim_time_ns") is not None:
            a.expect(c.get("sim_time_ns") == r["sim_time_ns"], "ccp.csv:%d" % c["_line"],
                     "committee", "the round's last vote step at its end (%s:%d)"
                     % (name, r["_line"]), r["sim_time_s"], c.get("sim_time_s"))
    for rnd, got in sorted(per_round.items(), key=lambda kv: kv[0] or 0):
        if "training_clients" in got:
            a.expect(rnd in seen, name, "committee", "a row for round %s (rounds.csv:%d)"
                     % (rnd, got["training_clients"]["_line"]), "a row", "none")
    check_aggregation(a, rows, malicious)


def check_aggregation(a, committee, malicious):
    rows = a.read_csv("aggregation.csv")
    if rows is None:
        return
    name = "aggregation.csv"
    ints(a, rows, name, ("device", "malicious", "training", "committee", "aggregated"),
         "committee")
    n = a.params.get("nDevices")
    if isinstance(n, int):
        a.expect([r.get("device#") for r in rows] == list(range(n)), name, "committee",
                 "one row per device 0..%d in order" % (n - 1), "%d rows" % n,
                 "%d rows" % len(rows))
    for r in rows:
        if malicious is not None and r.get("device#") is not None:
            a.expect(r.get("malicious#") == (1 if r["device#"] in malicious else 0),
                     "%s:%d" % (name, r["_line"]), "committee", "malicious = device %d in "
                     "run.json's maliciousDevices" % r["device#"],
                     int(r["device#"] in malicious), r["malicious"])
    done = [c for c in committee if c.get("training#") is not None]
    for col, total, bad in (("training", "training", "n1"), ("committee", "committee", "n2"),
                            ("aggregated", "aggregation", "n3")):
        values = [r.get(col + "#") for r in rows]
        if None in values or any(c.get(bad + "#") is None for c in done):
            continue
        want = sum(c[total + "#"] for c in done)
        a.expect(sum(values) == want, name, "committee", "the devices' %s sum to "
                 "committee.csv's %s over its %d rounds" % (col, total, len(done)), want,
                 sum(values))
        if malicious is not None:
            want = sum(c[bad + "#"] for c in done)
            got = sum(r[col + "#"] for r in rows if r.get("device#") in malicious)
            a.expect(got == want, name, "committee", "the malicious devices' %s sum to "
                     "committee.csv's %s" % (col, bad), want, got)


ROUND_WIDE = ("trace", "delta", "lambda", "product_delta", "disagreement")


def check_trust_matrix(a):
    """consensus: consensus.csv's matrix columns recomputed from trust.csv's W of the round
    (w printed with 9 significant digits; a node without trust rows keeps its own
    predictions: its row of W is e_i): column_sum / column_sum_offdiag W's column sums with
    and without the diagonal, trace the sum of the diagonal, delta max_j (max_i - min_i
    w_ij), lambda 1 - min over row pairs of sum_j min(w_aj, w_bj), product_delta delta of
    the product of the rounds' W so far; each within the 9 digits' rounding of the terms;
    consensus_weight >= 0, summing to 1 over the round; trace, delta, lambda,
    product_delta and disagreement (a spread of predictions no trace records) the same on
    every row of a round."""
    summary = a.read_csv("consensus.csv")
    if not summary or "column_sum" not in summary[0]:
        return
    trust = a.read_csv("trust.csv") or []
    n = a.params.get("nDevices")
    if not isinstance(n, int) or n < 1:
        return
    w_rows = {}
    for t in trust:
        try:
            key = (int(t["round"]), int(t["node"]))
            w_rows.setdefault(key, {})[int(t["peer"])] = float(t["w"])
        except (TypeError, ValueError):
            continue
    by_round = {}
    for c in summary:
        by_round.setdefault(c["round"], []).append(c)
    product = None
    for rnd_text, crs in sorted(by_round.items(), key=lambda kv: int(kv[0])
                                if kv[0].lstrip("-").isdigit() else 0):
        first = crs[0]
        for c in crs[1:]:
            for col in ROUND_WIDE:
                a.expect(c[col] == first[col], "consensus.csv:%d" % c["_line"], "consensus",
                         "%s the same on every row of round %s (consensus.csv:%d)"
                         % (col, rnd_text, first["_line"]), first[col], c[col])
        try:
            rnd = int(rnd_text)
            values = [{col: float(c[col]) for col in ("column_sum", "column_sum_offdiag",
                                                      "consensus_weight", "trace", "delta",
                                                      "lambda", "product_delta")}
                      for c in crs]
            nodes = [int(c["node"]) for c in crs]
        except (TypeError, ValueError):
            product = None
            continue
        w = [[0.0] * n for _ in range(n)]
        for i in range(n):
            row = w_rows.get((rnd, i))
            if row is None:
                w[i][i] = 1.0
            else:
                for j, v in row.items():
                    if 0 <= j < n:
                        w[i][j] = v
        weights = [v["consensus_weight"] for v in values]
        a.expect(all(x >= 0 for x in weights) and abs(sum(weights) - 1) <= printed_tol(
                 *weights) + 1e-12, "consensus.csv:%d" % first["_line"], "consensus",
                 "round %s's consensus_weight >= 0, summing to 1" % rnd_text, 1, sum(weights))
        for c, v, i in zip(crs, values, nodes):
            if not 0 <= i < n:
                continue
            where = "consensus.csv:%d" % c["_line"]
            col = [w[k][i] for k in range(n)]
            for key, want, terms in (
                    ("column_sum", sum(col), col),
                    ("column_sum_offdiag", sum(col) - w[i][i],
                     [x for k, x in enumerate(col) if k != i])):
                a.expect(abs(want - v[key]) <= printed_tol(v[key], *terms), where,
                         "consensus", "%s of W's column %d (trust.csv, round %s)"
                         % (key, i, rnd_text), want, v[key])
        v = values[0]
        where = "consensus.csv:%d" % first["_line"]
        diag = [w[i][i] for i in range(n)]
        a.expect(abs(sum(diag) - v["trace"]) <= printed_tol(v["trace"], *diag), where,
                 "consensus", "trace = the sum of W's diagonal (trust.csv, round %s)"
                 % rnd_text, sum(diag), v["trace"])
        delta = row_difference(w)
        spread = max((max(abs(w[i][j]) for i in range(n)) for j in range(n)), default=0.0)
        a.expect(abs(delta - v["delta"]) <= printed_tol(v["delta"], spread, spread), where,
                 "consensus", "delta = max_j (max_i - min_i w_ij) (trust.csv, round %s)"
                 % rnd_text, delta, v["delta"])
        least, terms = 1.0, 2.0
        for x in range(n):
            for y in range(x + 1, n):
                overlap = sum(min(p, q) for p, q in zip(w[x], w[y]))
                least = min(least, overlap)
        lam = 1.0 - (least if n >= 2 else 1.0)
        a.expect(abs(lam - v["lambda"]) <= printed_tol(v["lambda"], terms), where,
                 "consensus", "lambda = 1 - min over row pairs of sum_j min (trust.csv, "
                 "round %s)" % rnd_text, lam, v["lambda"])
        # W's product over the rounds: each round's rounding of W adds at most 5e-9 of a row.
        product = w if product is None else [[sum(w[i][k] * product[k][j] for k in range(n))
                                              for j in range(n)] for i in range(n)]
        steps = rnd
        a.expect(abs(row_difference(product) - v["product_delta"])
                 <= printed_tol(v["product_delta"]) + 2e-8 * max(steps, 1), where, "consensus",
                 "product_delta = delta of the product of the rounds' W (trust.csv, rounds up "
                 "to %s)" % rnd_text, row_difference(product), v["product_delta"])


def row_difference(w):
    n = len(w[0]) if w else 0
    return max((max(r[j] for r in w) - min(r[j] for r in w) for j in range(n)), default=0.0)


def check_belief_consensus(a):
    """bayes-consensus: consensus.csv (step, node, fresh, reused, renormalized_out): per
    node, fresh + reused + renormalized_out (its in-neighbours in W) the same at every step
    (beliefs are broadcast: messages.csv's senders are not the in-neighbours);
    --lossRule=reuse renormalizes nothing (renormalized_out 0), renormalize reuses nothing
    (reused 0)."""
    rows = a.read_csv("consensus.csv")
    if not rows or "renormalized_out" not in rows[0]:
        return
    name = "consensus.csv"
    ints(a, rows, name, ("step", "node", "fresh", "reused", "renormalized_out"), "consensus")
    rule = str(a.params.get("lossRule", "")).lower()
    first = {}
    for r in rows:
        where = "%s:%d" % (name, r["_line"])
        parts = [r.get(c + "#") for c in ("fresh", "reused", "renormalized_out")]
        if None in parts or r.get("node#") is None:
            continue
        total = sum(parts)
        node = r["node#"]
        if node in first:
            a.expect(total == first[node][0], where, "consensus", "fresh + reused + "
                     "renormalized_out of node %d = its in-neighbours, as at %s:%d"
                     % (node, name, first[node][1]), first[node][0], total)
        else:
            first[node] = (total, r["_line"])
        if rule == "reuse":
            a.expect(parts[2] == 0, where, "consensus", "renormalized_out 0 (lossRule reuse)",
                     0, parts[2])
        elif rule == "renormalize":
            a.expect(parts[1] == 0, where, "consensus", "reused 0 (lossRule renormalize)",
                     0, parts[1])


def traced_iterations(iterations, every):
    every = max(1, every)
    return [i for i in range(iterations) if i % every == 0 or i + 1 == iterations]


def check_discovery(a):
    """graph-discovery: gd_iterations.csv one row per (edge, traced iteration, node) in
    order (iterations i % traceEvery = 0 and the last, edges 0..E-1 that ran: those of
    gd_graph.csv), reward = local_reward + gamma x global_reward (9 significant digits
    each), exchanged 0 or 1; gd_policy.csv's chosen = 1 exactly where its transmitter is
    gd_graph.csv's for (edge, node), value = total_reward / count; with per-action buffers
    no shorter than the iterations, a node's counts over its states and transmitters sum to
    the iterations where gd_graph.csv gives it a transmitter; gd_nodes.csv one row per
    device in order, at its positions.csv position (static devices, the same text) and
    (supervised) min_labels = minLabels if > 0, else min(labels, satisfied_before + 1);
    gd_links.csv (check_links)."""
    graph = a.read_csv("gd_graph.csv")
    if graph is None:
        return
    check_links(a, graph)
    p = a.params
    n = p.get("nDevices")
    chosen = {}
    for g in graph:
        try:
            chosen[(int(g["edge"]), int(g["receiver"]))] = int(g["transmitter"])
        except (TypeError, ValueError):
            pass
    edges = sorted({e for e, _ in chosen})
    iterations, every, gamma = p.get("iterations"), run_flags.trace_every(p), p.get("gamma")
    rows = a.read_csv("gd_iterations.csv")
    if rows is not None:
        name = "gd_iterations.csv"
        ints(a, rows, name, ("edge", "iteration", "node", "transmitter", "exchanged"),
             "discovery")
        for col in ("local_reward", "global_reward", "reward"):
            a.number(rows, name, col, float, "discovery")
        if isinstance(iterations, int) and isinstance(every, int) and isinstance(n, int):
            want = [(e, i, k) for e in edges for i in traced_iterations(iterations, every)
                    for k in range(n)]
            got = [(r.get("edge#"), r.get("iteration#"), r.get("node#")) for r in rows]
            bad = next((k for k, (x, y) in enumerate(zip(want, got)) if x != y), None)
            if bad is None and len(want) != len(got):
                bad = min(len(want), len(got))
            a.expect(bad is None, "%s:%d" % (name, rows[bad]["_line"]) if bad is not None
                     and bad < len(rows) else name, "discovery",
                     "one row per (edge, iteration, node): edges %s, iterations %s "
                     "(traceEvery %d), nodes 0..%d" % (edges, "i %% %d = 0 and the last"
                                                       % max(1, every), every, n - 1),
                     "%d rows" % len(want), "%d rows" % len(got) if bad is None or
                     bad >= len(want) or bad >= len(got)
                     else "(%s, %s, %s) at row %d" % (got[bad] + (bad + 1,)))
        for r in rows:
            where = "%s:%d" % (name, r["_line"])
            a.expect(r.get("exchanged") in ("0", "1"), where, "discovery", "exchanged 0 or 1",
                     "0|1", r.get("exchanged"))
            lo, gl, rw = r.get("local_reward#"), r.get("global_reward#"), r.get("reward#")
            if isinstance(gamma, (int, float)) and None not in (lo, gl, rw):
                want = lo + gamma * gl
                a.expect(abs(want - rw) <= printed_tol(lo, gamma * gl, rw), where,
                         "discovery", "reward = local_reward + gamma x global_reward (gamma "
                         "%s)" % gamma, want, rw)
    policy = a.read_csv("gd_policy.csv")
    if policy is not None:
        name = "gd_policy.csv"
        ints(a, policy, name, ("edge", "node", "state", "transmitter", "chosen"), "discovery")
        for col in ("total_reward", "count", "value"):
            a.number(policy, name, col, float, "discovery")
        counts = {}
        for r in policy:
            where = "%s:%d" % (name, r["_line"])
            key = (r.get("edge#"), r.get("node#"))
            if key in chosen and r.get("transmitter#") is not None:
                want = int(chosen[key] == r["transmitter#"])
                a.expect(r.get("chosen#") == want, where, "discovery", "chosen = transmitter "
                         "%s is gd_graph.csv's of edge %s node %s (%s)" % (
                             r["transmitter"], key[0], key[1], chosen[key]), want,
                         r.get("chosen"))
            total, count, value = r.get("total_reward#"), r.get("count#"), r.get("value#")
            if None not in (total, count, value) and count > 0:
                a.expect(abs(total / count - value) <= printed_tol(value, total / count),
                         where, "discovery", "value = total_reward / count", total / count,
                         value)
            if count is not None:
                counts[key] = counts.get(key, 0.0) + count
        size = p.get("bufferSize")
        if p.get("graph", "rl") == "rl" and p.get("bufferMode") == "per-action" and \
                isinstance(size, int) and isinstance(iterations, int) and iterations <= size:
            for key, j in sorted(chosen.items()):
                if j < 0:
                    continue
                a.expect(counts.get(key, 0.0) == iterations, name, "discovery",
                         "edge %d node %d's counts sum to its %d iterations (a transmitter "
                         "in gd_graph.csv; buffers of %d)" % (key + (iterations, size)),
                         iterations, counts.get(key, 0.0))
    nodes = a.read_csv("gd_nodes.csv")
    if nodes is None:
        return
    name = "gd_nodes.csv"
    ints(a, nodes, name, ("node", "satisfied_before", "satisfied_after", "min_labels"),
         "discovery")
    if isinstance(n, int):
        a.expect([r.get("node#") for r in nodes] == list(range(n)), name, "discovery",
                 "one row per device 0..%d in order" % (n - 1), "%d rows" % n,
                 "%d rows" % len(nodes))
    at = getattr(a, "position_text", None) or {}
    labels = None
    diversity = a.read_csv("gd_diversity.csv") or []
    try:
        labels = max(int(d["label"]) for d in diversity) + 1 if diversity else None
    except (TypeError, ValueError):
        labels = None
    given = p.get("minLabels")
    for r in nodes:
        where = "%s:%d" % (name, r["_line"])
        xy = at.get(r.get("node#"))
        if xy is not None:
            a.expect((r["x_m"], r["y_m"]) == xy, where, "discovery", "node %s at positions.csv"
                     "'s position" % r["node"], "(%s, %s)" % xy,
                     "(%s, %s)" % (r["x_m"], r["y_m"]))
        before, ml = r.get("satisfied_before#"), r.get("min_labels#")
        if p.get("paradigm") == "supervised" and None not in (before, ml) and \
                isinstance(given, int):
            if given > 0:
                want, what = given, "minLabels"
            elif labels is not None:
                want, what = min(labels, before + 1), "min(labels %d, satisfied_before + 1)" \
                    % labels
            else:
                continue
            a.expect(ml == want, where, "discovery", "min_labels = " + what, want, ml)


def paradigm_parameter(p, name, classes):
    """run.json's parameter name (the scenario's flag), else its attribute of the first of
    classes that run.json records."""
    value = p.get(name[0].lower() + name[1:])
    for cls in classes:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            break
        value = p.get("ns3::%s::%s" % (cls, name))
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def check_links(a, graph):
    """graph-discovery, gd_links.csv (edge, receiver, transmitter, p_drop, requested,
    allocated, sent, received, trust, shareable; one row per link of an exchange, traced
    before the paradigm's counts change): transmitter is gd_graph.csv's of (edge,
    receiver); sent = allocated, exactly (the writer writes the allocation twice); on
    static links (mobility constant, no --dynamicRssLevels) p_drop is gd_graph.csv's of
    that link (9 significant digits against 17: 5e-9 relative). trust is empty exactly for
    the unsupervised paradigm, else the trust matrices' row of the link (transmitter j,
    receiver i), one 0/1 a label of gd_diversity.csv. shareable, from j's gd_diversity.csv
    "before" counts c_j of that edge:
      supervised, semi-supervised (D2dSupervisedParadigm::Offer, D2dMessagePassing::
        Available): sum_l trust[l] x 1[c_j[l] > b_j], b_j = floor(thresholdFraction x |D_j|
        + 1e-9) (Prepare), |D_j| the sum of j's edge-0 "before" counts; an integer, exact
        (the counts are whole numbers: shard label counts, whole requests, allocations
        rounded down and whole apportioned receptions, printed exactly below 1e9);
      unsupervised (D2dUnsupervisedParadigm::Offer): sum_l max(0, c_j[l] - ceil(r x
        c_j[l])), r = RetainFraction, the receiver playing no part; within 5e-9 of the
        value and of each count (exact for whole counts)."""
    links = a.read_csv("gd_links.csv")
    if links is None:
        return
    name, check = "gd_links.csv", "discovery"
    p = a.params
    ints(a, links, name, ("edge", "receiver", "transmitter"), check)
    for col in ("p_drop", "requested", "allocated", "sent", "received", "shareable"):
        a.number(links, name, col, float, check)
    arcs = {}
    for g in graph:
        try:
            j = int(g["transmitter"])
            arcs[(int(g["edge"]), int(g["receiver"]))] = (
                j, float(g["p_drop"]) if j >= 0 else None)
        except (TypeError, ValueError):
            pass
    before, labels = {}, None
    diversity = a.read_csv("gd_diversity.csv")
    if diversity is not None:
        for d in diversity:
            try:
                key = (int(d["edge"]), int(d["node"]))
                label, count = int(d["label"]), float(d["count"])
            except (TypeError, ValueError):
                continue
            if d.get("phase") == "before":
                before.setdefault(key, {})[label] = count
            labels = label + 1 if labels is None else max(labels, label + 1)
    size = {k[1]: sum(c.values()) for k, c in before.items() if k[0] == 0}
    d2d_held, d2d_why = held(a, "D2D")
    static = not moves(a) and not p.get("dynamicRssLevels") and d2d_held
    if not static:
        a.skip(name, check, "p_drop: %s (gd_graph.csv's is the link's at the end of the run)"
               % ("the devices move (mobility %s)" % p.get("mobility") if moves(a)
                  else "--dynamicRssLevels: each link's RSS changes over time"
                  if p.get("dynamicRssLevels") else d2d_why))
    paradigm = p.get("paradigm")
    supervised = paradigm in ("supervised", "semi-supervised")
    if supervised:
        fraction = paradigm_parameter(p, "ThresholdFraction",
                                      ("D2dSemiSupervisedParadigm", "D2dSupervisedParadigm")
                                      if paradigm == "semi-supervised"
                                      else ("D2dSupervisedParadigm",))
        what = "thresholdFraction"
    else:
        fraction = paradigm_parameter(p, "RetainFraction", ("D2dUnsupervisedParadigm",))
        what = "RetainFraction"
    why = None
    if paradigm not in ("supervised", "semi-supervised", "unsupervised"):
        why = "run.json's paradigm %r is none of supervised, semi-supervised, unsupervised" \
            % (paradigm,)
    elif diversity is None:
        why = "no gd_diversity.csv: no label counts"
    elif fraction is None:
        why = "run.json records no %s" % what
    elif links and "trust" not in links[0] and supervised:
        why = "no trust column (a run before it)"
    if why is not None:
        a.skip(name, check, "shareable: " + why)
    for r in links:
        where = "%s:%d" % (name, r["_line"])
        e, i, j = r.get("edge#"), r.get("receiver#"), r.get("transmitter#")
        sent, allocated = r.get("sent#"), r.get("allocated#")
        if None not in (sent, allocated):
            a.expect(sent == allocated, where, check, "sent = allocated (the points the "
                     "transmitter sent are those it allocated)", allocated, sent)
        arc = arcs.get((e, i))
        if None not in (e, i, j):
            a.expect(arc is not None and arc[0] == j, where, check, "transmitter is "
                     "gd_graph.csv's of edge %s receiver %s" % (e, i),
                     arc[0] if arc is not None else "a row", j)
        if static and arc is not None and arc[0] == j and arc[1] is not None \
                and r.get("p_drop#") is not None:
            a.expect(abs(arc[1] - r["p_drop#"]) <= printed_tol(arc[1]), where, check,
                     "p_drop is gd_graph.csv's of link %s->%s (static devices; 9 "
                     "significant digits)" % (j, i), arc[1], r["p_drop#"])
        trust = r.get("trust")
        if paradigm == "unsupervised" and trust is not None:
            a.expect(trust == "", where, check, "trust empty (the unsupervised paradigm has "
                     "no trust matrices)", "", trust)
        elif supervised and trust is not None:
            a.expect(trust != "" and set(trust) <= {"0", "1"} and
                     (labels is None or len(trust) == labels), where, check,
                     "trust the link's row of the trust matrices, one 0/1 a label (%s "
                     "labels in gd_diversity.csv)" % labels,
                     "%s characters 0|1" % labels, trust or "empty")
        got = r.get("shareable#")
        if why is not None or None in (e, j, got):
            continue
        c = before.get((e, j))
        if c is None or (labels is not None and sorted(c) != list(range(labels))):
            a.expect(False, where, check, "gd_diversity.csv's \"before\" counts of edge %s "
                     "node %s (transmitter), one a label" % (e, j), "%s labels" % labels,
                     "%d" % len(c or {}))
            continue
        if supervised:
            if len(trust) != len(c) or not set(trust) <= {"0", "1"} or j not in size:
                continue
            b = math.floor(fraction * size[j] + 1e-9)
            want = sum(1 for l, t in enumerate(trust) if t == "1" and c[l] > b)
            a.expect(got == want, where, check,
                     "shareable = the labels the transmitter trusts the receiver with and "
                     "holds more than b_j = floor(%s x %s + 1e-9) = %d of (gd_diversity.csv "
                     "\"before\" counts of edge %s node %s)" % (fraction, "%.9g" % size[j], b,
                                                               e, j),
                     want, r["shareable"])
        else:
            want = sum(max(0.0, x - math.ceil(fraction * x)) for x in c.values())
            a.expect(abs(want - got) <= printed_tol(got, *c.values()), where, check,
                     "shareable = sum over the clusters of max(0, c - ceil(%s x c)) "
                     "(RetainFraction; gd_diversity.csv \"before\" counts of edge %s node %s)"
                     % (fraction, e, j), want, got)


def battery_tolerance(initial_j, rows):
    """The battery's rounding after rows of a device: its float rounding (1e-14 of the
    initial energy a row) and one nanosecond of a 1 W draw a row (the source and the rows
    see the periods rounded to the simulator's nanosecond)."""
    return (1e-14 * initial_j + 1e-9) * (rows + 10)


def group_of(component):
    if component.startswith("d2s_"):
        return "d2s_j"
    return "compute_j" if component == "compute" else "d2d_j"


def check_group_energy(a, energy, groups, name="gd_energy.csv",
                       columns=("d2d_j", "d2s_j", "compute_j")):
    """gd_energy.csv: total = sum of the groups; each group = energy.csv up to that time
    (gd_stages.csv: its d2d_j only)."""
    if groups is None:
        return
    ordered = sorted(energy, key=lambda r: r["sim_time_ns"] or 0)
    for g in groups:
        where = "%s:%d" % (name, g["_line"])
        parts = [g.get(k + "#") for k in columns]
        if None in parts or g.get("sim_time_ns") is None:
            continue
        if "total_j" in g:
            if g.get("total_j#") is None:
                continue
            a.expect_close(where, "energy", "total_j = d2d_j + d2s_j + compute_j", sum(parts),
                           g["total_j#"], rel=PRINTED, abs_tol=1e-15)
        sums = {"d2d_j": 0.0, "d2s_j": 0.0, "compute_j": 0.0}
        for r in ordered:
            if (r["sim_time_ns"] or 0) > g["sim_time_ns"]:
                break
            sums[group_of(r["component"])] += r["energy_j#"] or 0.0
        for key, value in sums.items():
            if key not in columns:
                continue
            a.expect_close(where, "energy", "%s = energy.csv's %s rows up to sim_time_s"
                           % (key, key[:-2]), value, g[key + "#"], rel=PRINTED, abs_tol=1e-15)


def left_out_agents(a):
    """The agents node -1 leaves out, or None where node -1 is no mean over device rows.

    Node -1 means the regular agents in every program (README, rounds.csv): the flipped
    (low-quality) agents run.json lists in flippedDevices are left out:
    consensus (its flipList), every algorithm, as the paper's Table 1;
    fedavg's decentralized and local algorithms (its flipDevices);
    bayes-consensus with --cooperation=network: none left out (the mean over the live
    devices)."""
    p = a.params
    flipped = p.get("flippedDevices")
    if "flipList" in p and isinstance(flipped, list):
        return set(flipped)
    if p.get("cooperation") == "network":
        return set()
    if p.get("algorithm") in ("decentralized", "local") and "flipDevices" in p:
        return set(flipped) if isinstance(flipped, list) else set()
    return None


def check_network_mean(a, rounds):
    flipped = left_out_agents(a)
    if rounds is None or flipped is None:
        return
    devices = {}
    network = {}
    for r in rounds:
        if r["node#"] is None or r["value#"] is None or r["round#"] is None:
            continue
        key = (r["round#"], r["metric"])
        if r["node#"] == -1:
            network[key] = r
        elif r["node#"] >= 0 and r["node#"] not in flipped:
            devices.setdefault(key, []).append(r["value#"])
    for key, row in sorted(network.items(), key=lambda kv: kv[1]["_line"]):
        values = devices.get(key)
        if not values:
            continue
        what = "round %d %s: node -1 = mean over the %d regular agents" % (key[0], key[1],
                                                                         len(values))
        if flipped:
            what += " (flipped %s left out)" % ",".join(str(i) for i in sorted(flipped))
        scale = max(abs(v) for v in values + [row["value#"]])
        mean = sum(values) / len(values)
        ok = a.expect_close("rounds.csv:%d" % row["_line"], "network-mean", what, mean,
                            row["value#"], rel=0.0, abs_tol=PRINTED * max(scale, 1e-300))
        final = "final_" + key[1]
        if not ok and a.summary.get("metric") == key[1] and a.summary.get("metric_from") \
                == "node -1" and a.summary.get("rounds_completed") == key[0]:
            a.expect(False, "run.json:summary." + final, "network-mean",
                     "%s, from node -1 of rounds.csv:%d" % (final, row["_line"]), mean,
                     a.summary.get(final))


# -- driver ---------------------------------------------------------------------------
def load_run_json(run_dir):
    """(run.json parsed, [violation lines]). A folder or run.json missing, or a run.json of
    UTF-8 text that is not a JSON object: AnalysisError (exit status 2, as every analysis
    script). A run.json with bytes that are not UTF-8 is a violation naming it ("format"),
    then read with those bytes replaced (U+FFFD); if it is no JSON object even so, the run
    cannot be audited (doc None) and that is a violation too, never a codec error."""
    path = os.path.join(run_dir, "run.json")
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        data.decode("utf-8")
    except OSError:
        return read_run_json(run_dir), []  # its one-line error (missing folder or file)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        problems = ["%s: run.json:%d: format: UTF-8 text (%s), expected UTF-8 got byte 0x%02x "
                    "at offset %d" % (run_dir, line, " ".join(str(e).split()),
                                      data[e.start], e.start)]
        try:
            doc = json.loads(data.decode("utf-8", errors="replace"))
        except ValueError as err:
            doc = None
            problems.append("%s: run.json: format: a JSON object once its bytes that are not "
                            "UTF-8 are replaced (%s): the run cannot be audited, expected JSON "
                            "got unparsable" % (run_dir, " ".join(str(err).split())))
        if doc is not None and not isinstance(doc, dict):
            problems.append("%s: run.json: format: a JSON object: the run cannot be audited, "
                            "expected an object got %s" % (run_dir, type(doc).__name__))
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("parameters"), dict):
            doc["parameters"] = current_shares(doc["parameters"])
        return doc, problems
    return read_run_json(run_dir), []


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


def parse_times(a, rows, name, columns):
    for r in rows:
        for col in columns:
            try:
                r[col + "#"] = seconds_ns(r.get(col))
            except ValueError:
                r[col + "#"] = None
                a.expect(False, "%s:%d" % (name, r["_line"]), "time-order",
                         "%s is not a time with 9 decimals" % col, "s.nnnnnnnnn", r.get(col))
        r["sim_time_ns"] = r.get("sim_time_s#")


def audit(run_dir, run=None):
    """The Audit of a run folder (run: its parsed run.json, read here if None)."""
    a = Audit(run_dir, read_run_json(run_dir) if run is None else run)
    a.env = Environment(a.params)  # the RSS: --propagation, --shadowing, --nakagamiM
    a.noise = noise_in_force(a.params)  # sigma^2 of each channel, recomputed
    sp = Spectrum(a)
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
    spectrum = parse_messages(a, messages)
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
    check_summary(a, messages, energy, rounds)
    check_run_json(a, messages, energy)
    check_noise(a)
    check_trace_files(a)
    check_resolution(a, messages)
    check_complete(a, messages)
    check_fragments(a, messages)
    check_p_drop(a, messages)
    check_message_times(a, messages)
    if spectrum:
        check_spectrum(a, messages, sp)
        check_sub_channel_use(a, messages, sp)
        check_airtime(a, messages, sp)
        check_spectrum_times(a, messages, sp)
        check_sinr(a, messages, sp)
    check_receive_chains(a, messages, sp)  # (rx_busy: with or without the columns)
    check_energy(a, energy)
    check_power(a, energy)
    check_partition(a, energy, messages)
    check_periods(a, energy, messages, sp)
    check_round_energy(a, energy, rounds)
    check_network_mean(a, rounds)
    check_rounds(a, rounds, messages)
    check_fl_rounds(a, rounds, messages)  # (after check_partition: a.depleted)
    check_async_rounds(a, rounds, messages)
    check_availability(a, availability, messages, energy)
    check_available_rows(a, rounds)
    check_beliefs(a, rounds)
    check_trust(a)
    check_group_rounds(a, rounds)
    a.energy_d2s = any(r["component"].startswith("d2s_") for r in energy)
    check_positions(a, messages)
    check_committee(a, rounds)
    check_trust_matrix(a)
    check_belief_consensus(a)
    check_discovery(a)  # (after check_positions: the devices' positions)
    rss = LinkRss(a, sp, messages)  # (after check_positions: the devices' positions)
    check_rss(a, messages, sp, rss)
    if messages and "rss_w" in messages[0]:
        check_link_columns(a, messages, sp, rss)
    if spectrum:
        check_interference(a, messages, sp, rss)
    for name in sorted(os.listdir(run_dir)):
        if not name.endswith(".csv") or name in ("messages.csv", "positions.csv",
                                                 "availability.csv"):
            continue  # (availability.csv's times: check availability)
        rows = {"energy.csv": energy, "rounds.csv": rounds}.get(name)
        if rows is None:
            rows = a.read_csv(name) or []
            if rows and "sim_time_s" in rows[0]:
                parse_times(a, rows, name, ("sim_time_s",))
                if "round" in rows[0]:
                    a.number(rows, name, "round", int)
            if name == "gd_energy.csv":
                for col in ("d2d_j", "d2s_j", "compute_j", "total_j"):
                    a.number(rows, name, col)
                check_group_energy(a, energy, rows)
        check_csv_times(a, name, rows)
    return a


def main(argv):
    parser = ArgumentParser(
        prog="audit.py", description=__doc__,
        epilog="Each violation is one line (RUN_DIR: FILE:ROW: CHECK: what, expected X got Y); "
               "exit status 1 if any, else 0 with one line \"audit: N runs, M checks, 0 "
               "violations\". The checks are listed at the top of analysis/audit.py.")
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR",
                        help="a run's folder (its --outDir), holding run.json and the traces")
    parser.add_argument("--skipped", action="store_true",
                        help="also print, before the last line, one line per check left out "
                             "on purpose (RUN_DIR: skipped: FILE: CHECK: why)")
    args = parser.parse_args(argv)
    docs = []
    for run_dir in args.runs:  # every run.json read before any run is audited
        try:
            docs.append(load_run_json(run_dir))
        except AnalysisError as e:
            return report(parser.prog, "RUN_DIR: %s" % e)
    checks = 0
    violations = []
    skipped = []
    for run_dir, (doc, problems) in zip(args.runs, docs):
        if doc is None:  # a run.json that is not UTF-8 nor JSON once its bytes are replaced
            violations += problems
            continue
        try:
            a = audit(run_dir, doc)
        except OSError as e:  # an unreadable file (permissions): the folder, not its numbers
            return report(parser.prog, "RUN_DIR: '%s': %s" % (run_dir, e))
        except Exception as e:  # noqa: BLE001 - a trace the checks did not foresee
            # One line, never a traceback: the run cannot be audited, which is a violation.
            violations.append("%s: (audit): could not be audited: %s: %s"
                              % (run_dir, type(e).__name__, " ".join(str(e).split())))
            continue
        checks += a.checks + len(problems)
        violations += problems + a.violations
        skipped += ["%s: skipped: %s: %s: %s" % (run_dir, where, check, why)
                    for where, check, why in a.skipped]
    for line in violations:
        print(line)
    if args.skipped:
        for line in skipped:
            print(line)
    print("audit: %d runs, %d checks, %d violations" % (len(args.runs), checks, len(violations)))
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
