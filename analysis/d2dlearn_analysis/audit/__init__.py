"""d2dlearn_analysis.audit: the independent auditor of a run's numbers (analysis/audit.py is
its command line; its docstring lists every check and its tolerance, and doc/howto/analysis.md
describes them). Standard library only: every number recomputed from the traces here.

Modules, one per trace file or family of files (and the pieces they share):
    core          the Audit of one run (violation lines, checks left out), CSV reading
                  (checks format and header of every CSV file read), tolerances, times
    checks        the registry of the checks (CHECKS, in the order they run) and the audit
                  of one run folder
    cli           the command line: run.json of every folder read first, then each audited
    run_json      run.json read, and checked (run-json, trace-files)
    summary       run.json's summary recomputed (summary)
    results       run.json's summary.results recomputed (results)
    environment   the radio environment and sigma^2 from run.json (no file of its own)
    messages      messages.csv (resolution, complete, fragments, p_drop, time-order)
    spectrum      messages.csv's spectrum columns (spectrum, airtime, time-order,
                  receive-chains)
    link_rss      the RSS of each link recomputed (LinkRss, for module rss)
    rss           messages.csv's rss_w, sinr and interference_w (sinr, rss, interference)
    positions     positions.csv (positions)
    energy        energy.csv (energy)
    power         energy.csv's power_w (power)
    partition     energy.csv's periods of draw partition the run (partition)
    periods       energy.csv's idle periods per flush at --traces=standard (periods)
    availability  availability.csv (availability)
    rounds        rounds.csv (round-energy, network-mean, rounds, fl-round, async-round)
    consensus     trust.csv, consensus.csv, beliefs.csv (beliefs, consensus)
    committee     cmfl's committee.csv, aggregation.csv, ccp.csv (committee)
    discovery     graph-discovery's gd_graph.csv, gd_iterations.csv, gd_policy.csv,
                  gd_nodes.csv, gd_links.csv (discovery)
    gd_energy     graph-discovery's gd_energy.csv and gd_stages.csv (energy)
    times         every CSV file's sim_time_s (time-order); every CSV file read (format)
"""
