# d2dlearn's sources, headers and test suites, in lists (paths relative to this folder), one
# list per folder in the order of the layers, each file listed once; and the check that each
# library's files lie in its folder. Included by this folder's CMakeLists.txt (standalone
# build) and by the repository's top-level CMakeLists.txt inside an ns-3 source tree
# (cmake/d2dlearnInTree.cmake), so both build the same files.
#
#   core/      libd2dlearn            model, data, bayes, helper (torch-free)
#   learning/  libd2dlearn-learning   learner, fl, cmfl, consensus, discovery, helper
#   scenario/  libd2dlearn-scenario   the scenario layer, on both
#
# d2dlearn_<folder>_sources / _headers: a folder's sources and published headers (a
# header not listed is internal). d2dlearn_<folder>_rules_sources: the learning folders'
# torch-free rules, part of the folder's sources (compiled once, into the learning library
# and the torch-free GoogleTest program). d2dlearn_scenario_core_sources: the scenario
# layer's sources that need core/ only (also compiled into the torch-free GoogleTest
# program).

# core/model/: the network: messages, delivery, transports, energy sources and models, the
# radio profiles, the compute model, RSS models, radios, spectrum and channel access, link
# quality, the D2D channel (eq. (18) of Wagle, Das, Love and Brinton 2025), Wi-Fi transport and energy meter; D2dShare
# (the count a share in [0, 1] of n items gives); D2dText (how every layer's messages write a
# list of names and quote an error's first line).
set(d2dlearn_model_sources
    core/model/d2d-message.cc
    core/model/d2d-delivery.cc
    core/model/d2d-message-registry.cc
    core/model/d2d-transport.cc
    core/model/d2d-energy-source.cc
    core/model/d2d-energy-model.cc
    core/model/d2d-draw-ledger.cc
    core/model/d2d-radio-energy-model.cc
    core/model/d2d-radio-profile.cc
    core/model/d2d-compute-model.cc
    core/model/d2d-rss-model.cc
    core/model/propagation-rss-model.cc
    core/model/d2d-shadowing-loss-model.cc
    core/model/d2d-thermal-noise.cc
    core/model/d2d-b1-channel-condition-model.cc
    core/model/d2d-winner-b1-propagation-loss-model.cc
    core/model/d2d-random-walk-mobility-model.cc
    core/model/matrix-rss-model.cc
    core/model/constant-rss-model.cc
    core/model/d2d-matrix-csv.cc
    core/model/dynamic-rss-model.cc
    core/model/d2d-radio.cc
    core/model/d2d-drx.cc
    core/model/d2d-availability-model.cc
    core/model/d2d-spectrum.cc
    core/model/d2d-channel-access.cc
    core/model/d2d-link-quality.cc
    core/model/d2d-rss-link-quality.cc
    core/model/d2d-channel.cc
    core/model/d2d-fragment-rounds.cc
    core/model/d2d-wifi-transport.cc
    core/model/d2d-wifi-energy-meter.cc
    core/model/d2d-share.cc
    core/model/d2d-text.cc
    core/model/d2d-input-file.cc
)
set(d2dlearn_model_headers
    core/model/d2d-ns3-compat.h
    core/model/d2d-message.h
    core/model/d2d-delivery.h
    core/model/d2d-message-registry.h
    core/model/d2d-transport.h
    core/model/d2d-energy-source.h
    core/model/d2d-energy-model.h
    core/model/d2d-draw-ledger.h
    core/model/d2d-radio-energy-model.h
    core/model/d2d-radio-profile.h
    core/model/d2d-compute-model.h
    core/model/d2d-rss-model.h
    core/model/propagation-rss-model.h
    core/model/d2d-shadowing-loss-model.h
    core/model/d2d-thermal-noise.h
    core/model/d2d-b1-channel-condition-model.h
    core/model/d2d-winner-b1-propagation-loss-model.h
    core/model/d2d-random-walk-mobility-model.h
    core/model/matrix-rss-model.h
    core/model/constant-rss-model.h
    core/model/d2d-matrix-csv.h
    core/model/dynamic-rss-model.h
    core/model/d2d-radio.h
    core/model/d2d-drx.h
    core/model/d2d-availability-model.h
    core/model/d2d-spectrum.h
    core/model/d2d-channel-access.h
    core/model/d2d-link-quality.h
    core/model/d2d-rss-link-quality.h
    core/model/d2d-channel.h
    core/model/d2d-fragment-rounds.h
    core/model/d2d-wifi-transport.h
    core/model/d2d-wifi-energy-meter.h
    core/model/d2d-share.h
    core/model/d2d-text.h
    core/model/d2d-input-file.h
)

# core/data/: data sets and partitions (torch-free: features are float arrays, labels integers).
set(d2dlearn_data_sources
    core/data/d2d-dataset.cc
    core/data/d2d-data-rng.cc
    core/data/d2d-idx-cache.cc
    core/data/d2d-fashion-mnist.cc
    core/data/d2d-idx-folder.cc
    core/data/d2d-cifar.cc
    core/data/d2d-npy.cc
    core/data/d2d-leaf.cc
    core/data/d2d-synthetic-data.cc
    core/data/d2d-partitioner.cc
)
set(d2dlearn_data_headers
    core/data/d2d-dataset.h
    core/data/d2d-data-rng.h
    core/data/d2d-idx-cache.h
    core/data/d2d-fashion-mnist.h
    core/data/d2d-idx-folder.h
    core/data/d2d-cifar.h
    core/data/d2d-npy.h
    core/data/d2d-leaf.h
    core/data/d2d-synthetic-data.h
    core/data/d2d-partitioner.h
)

# core/bayes/: Lalitha, Javidi and Sarwate 2018, Bayesian belief consensus (discrete and
# Gaussian beliefs).
set(d2dlearn_bayes_sources
    core/bayes/d2d-belief-consensus-matrix.cc
    core/bayes/d2d-discrete-belief.cc
    core/bayes/d2d-gaussian-belief.cc
    core/bayes/d2d-belief-learner.cc
    core/bayes/d2d-coordinate-belief-learner.cc
    core/bayes/d2d-gaussian-linear-learner.cc
    core/bayes/d2d-belief-consensus.cc
)
set(d2dlearn_bayes_headers
    core/bayes/d2d-belief-consensus-matrix.h
    core/bayes/d2d-discrete-belief.h
    core/bayes/d2d-gaussian-belief.h
    core/bayes/d2d-belief-payload.h
    core/bayes/d2d-belief-learner.h
    core/bayes/d2d-coordinate-belief-learner.h
    core/bayes/d2d-gaussian-linear-learner.h
    core/bayes/d2d-belief-consensus.h
)

# core/helper/: assembly (D2dHelper, D2dWifiHelper, D2dNetwork) and the trace writers
# (D2dTraceHelper with its run summary, atomic files and stop signals, positions, beliefs).
set(d2dlearn_core_helper_sources
    core/helper/d2d-helper.cc
    core/helper/d2d-wifi-helper.cc
    core/helper/d2d-propagation-helper.cc
    core/helper/d2d-run-summary.cc
    core/helper/d2d-streaming-quantile.cc
    core/helper/d2d-json.cc
    core/helper/d2d-attribute-path.cc
    core/helper/d2d-stop-signals.cc
    core/helper/d2d-trace-file.cc
    core/helper/d2d-trace-folder.cc
    core/helper/d2d-run-record.cc
    core/helper/d2d-trace-helper.cc
    core/helper/d2d-network.cc
    core/helper/d2d-position-trace-writer.cc
    core/helper/d2d-belief-trace-writer.cc
)
set(d2dlearn_core_helper_headers
    core/helper/d2d-helper.h
    core/helper/d2d-wifi-helper.h
    core/helper/d2d-propagation-helper.h
    core/helper/d2d-run-summary.h
    core/helper/d2d-streaming-quantile.h
    core/helper/d2d-json.h
    core/helper/d2d-attribute-path.h
    core/helper/d2d-stop-signals.h
    core/helper/d2d-trace-file.h
    core/helper/d2d-trace-folder.h
    core/helper/d2d-run-record.h
    core/helper/d2d-trace-helper.h
    core/helper/d2d-network.h
    core/helper/d2d-position-trace-writer.h
    core/helper/d2d-belief-trace-writer.h
)

# learning/learner/: the learners. Only learning/'s sources include LibTorch, built into a
# library of their own (d2dlearn-learning) so that core/ compiles without torch headers.
set(d2dlearn_learner_rules_sources
    learning/learner/d2d-polynomial-fit.cc
)
set(d2dlearn_learner_sources
    learning/learner/d2d-torch-runtime.cc
    learning/learner/d2d-net.cc
    learning/learner/d2d-flop-counter.cc
    learning/learner/d2d-script-model.cc
    learning/learner/d2d-job-watchdog.cc
    learning/learner/d2d-triplet-encoder.cc
    learning/learner/d2d-triplet-encoding.cc
    learning/learner/d2d-optimizer-state.cc
    learning/learner/d2d-local-shard.cc
    learning/learner/d2d-device-generator.cc
    learning/learner/d2d-pending-work.cc
    learning/learner/d2d-running-job.cc
    learning/learner/d2d-learner.cc
    learning/learner/d2d-model-payload.cc
    learning/learner/d2d-deferred-job.cc
    learning/learner/d2d-variational-learner.cc
    ${d2dlearn_learner_rules_sources}
)
set(d2dlearn_learner_headers
    learning/learner/d2d-torch-runtime.h
    learning/learner/d2d-job-watchdog.h
    learning/learner/d2d-running-job.h
    learning/learner/d2d-learner.h
    learning/learner/d2d-triplet-encoding.h
    learning/learner/d2d-model-payload.h
    learning/learner/d2d-deferred-job.h
    learning/learner/d2d-variational-learner.h
    learning/learner/d2d-polynomial-fit.h
)

# learning/fl/: FedAvg, FedProx, FedSGD, decentralized and semi-decentralized FL, local training,
# BrainTorrent, segmented gossip, the server aggregation strategies (mean and the robust
# rules) and upload with retry.
set(d2dlearn_fl_rules_sources
    learning/fl/d2d-robust-aggregation.cc
    learning/fl/d2d-aggregation-strategy.cc
    learning/fl/d2d-mean-aggregation.cc
    learning/fl/d2d-median-aggregation.cc
    learning/fl/d2d-trimmed-mean-aggregation.cc
    learning/fl/d2d-krum-aggregation.cc
    learning/fl/d2d-multi-krum-aggregation.cc
    learning/fl/d2d-locality-order.cc
    learning/fl/d2d-staleness.cc
)
set(d2dlearn_fl_sources
    learning/fl/d2d-fl-protocol.cc
    learning/fl/d2d-local-jobs.cc
    learning/fl/d2d-round-count.cc
    learning/fl/d2d-round-recorder.cc
    learning/fl/d2d-fed-avg.cc
    learning/fl/d2d-client-sample.cc
    learning/fl/d2d-model-exchange.cc
    learning/fl/d2d-decentralized-fl.cc
    learning/fl/d2d-semi-decentralized-fl.cc
    learning/fl/d2d-local-training.cc
    learning/fl/d2d-brain-torrent.cc
    learning/fl/d2d-segmented-gossip.cc
    learning/fl/d2d-peer-protocol.cc
    learning/fl/d2d-sent-messages.cc
    learning/fl/d2d-upload-retry.cc
    learning/fl/d2d-async-fl.cc
    learning/fl/d2d-fed-async.cc
    learning/fl/d2d-fed-buff.cc
    ${d2dlearn_fl_rules_sources}
)
set(d2dlearn_fl_headers
    learning/fl/d2d-fl-protocol.h
    learning/fl/d2d-local-jobs.h
    learning/fl/d2d-round-count.h
    learning/fl/d2d-round-recorder.h
    learning/fl/d2d-fed-avg.h
    learning/fl/d2d-client-sample.h
    learning/fl/d2d-async-fl.h
    learning/fl/d2d-fed-async.h
    learning/fl/d2d-fed-buff.h
    learning/fl/d2d-staleness.h
    learning/fl/d2d-model-exchange.h
    learning/fl/d2d-locality-order.h
    learning/fl/d2d-decentralized-fl.h
    learning/fl/d2d-semi-decentralized-fl.h
    learning/fl/d2d-local-training.h
    learning/fl/d2d-brain-torrent.h
    learning/fl/d2d-segmented-gossip.h
    learning/fl/d2d-peer-protocol.h
    learning/fl/d2d-sent-messages.h
    learning/fl/d2d-step-progress.h
    learning/fl/d2d-robust-aggregation.h
    learning/fl/d2d-aggregation-strategy.h
    learning/fl/d2d-mean-aggregation.h
    learning/fl/d2d-median-aggregation.h
    learning/fl/d2d-trimmed-mean-aggregation.h
    learning/fl/d2d-krum-aggregation.h
    learning/fl/d2d-multi-krum-aggregation.h
    learning/fl/d2d-upload-retry.h
)

# learning/cmfl/: Che et al. 2022, Committee Mechanism based FL: scoring, selection and election
# rules and Byzantine attacks (rules), the committee consensus protocol (ccp) and the CMFL
# protocol itself (its robust-aggregation baselines are fl/'s aggregation strategies).
set(d2dlearn_cmfl_rules_sources
    learning/cmfl/d2d-committee-rules.cc
    learning/cmfl/d2d-byzantine-attack.cc
    learning/cmfl/d2d-committee-consensus.cc
)
set(d2dlearn_cmfl_sources
    learning/cmfl/d2d-cmfl.cc
    learning/cmfl/d2d-malicious-clients.cc
    learning/cmfl/d2d-cmfl-roles.cc
    learning/cmfl/d2d-cmfl-votes.cc
    ${d2dlearn_cmfl_rules_sources}
)
set(d2dlearn_cmfl_headers
    learning/cmfl/d2d-committee-rules.h
    learning/cmfl/d2d-byzantine-attack.h
    learning/cmfl/d2d-ccp-payload.h
    learning/cmfl/d2d-committee-consensus.h
    learning/cmfl/d2d-cmfl.h
    learning/cmfl/d2d-malicious-clients.h
    learning/cmfl/d2d-cmfl-roles.h
    learning/cmfl/d2d-cmfl-votes.h
)

# learning/consensus/: Fan, Mendler-Dünner and Jaggi 2023, prediction consensus.
set(d2dlearn_consensus_rules_sources
    learning/consensus/d2d-trust-rules.cc
)
set(d2dlearn_consensus_sources
    learning/consensus/d2d-prediction-consensus.cc
    learning/consensus/d2d-trust-matrix.cc
    ${d2dlearn_consensus_rules_sources}
)
set(d2dlearn_consensus_headers
    learning/consensus/d2d-trust-rules.h
    learning/consensus/d2d-prediction-payload.h
    learning/consensus/d2d-prediction-consensus.h
    learning/consensus/d2d-trust-matrix.h
)

# learning/discovery/: Wagle, Das, Love and Brinton 2025, D2D graph discovery by multi-agent RL:
# trust matrices, message passing, rewards, policies, baseline graphs, the paradigms
# (supervised; semi-supervised with distributed PCA, Liang et al. 2014; unsupervised), GCN
# baselines. Their headers are torch-free but d2d-gcn-modules.h, which is internal.
set(d2dlearn_discovery_rules_sources
    learning/discovery/d2d-trust-matrices.cc
    learning/discovery/d2d-message-passing.cc
    learning/discovery/d2d-diversity-rewards.cc
    learning/discovery/d2d-link-policy.cc
    learning/discovery/d2d-baseline-graphs.cc
    learning/discovery/d2d-gap-partition.cc
    learning/discovery/d2d-shard-exchange.cc
    learning/discovery/d2d-label-propagation.cc
    learning/discovery/d2d-agreement-cache.cc
    learning/discovery/d2d-kl-blocks.cc
    learning/discovery/d2d-gaussian-clusters.cc
)
set(d2dlearn_discovery_sources
    learning/discovery/d2d-best-links.cc
    learning/discovery/d2d-label-counts.cc
    learning/discovery/d2d-discovery-messages.cc
    learning/discovery/d2d-discovery-scoring.cc
    learning/discovery/d2d-discovery-paradigm.cc
    learning/discovery/d2d-supervised-paradigm.cc
    learning/discovery/d2d-graph-discovery.cc
    learning/discovery/d2d-discovery-policies.cc
    learning/discovery/d2d-datapoint-exchange.cc
    learning/discovery/d2d-link-scorer.cc
    learning/discovery/d2d-distributed-pca.cc
    learning/discovery/d2d-pca-exchange.cc
    learning/discovery/d2d-mlp-labeller.cc
    learning/discovery/d2d-semi-supervised-paradigm.cc
    learning/discovery/d2d-unsupervised-paradigm.cc
    learning/discovery/d2d-gcn-graph-scorer.cc
    learning/discovery/d2d-gcn-link-scorer.cc
    ${d2dlearn_discovery_rules_sources}
)
set(d2dlearn_discovery_headers
    learning/discovery/d2d-trust-matrices.h
    learning/discovery/d2d-message-passing.h
    learning/discovery/d2d-diversity-rewards.h
    learning/discovery/d2d-link-policy.h
    learning/discovery/d2d-baseline-graphs.h
    learning/discovery/d2d-best-links.h
    learning/discovery/d2d-gap-partition.h
    learning/discovery/d2d-discovery-payload.h
    learning/discovery/d2d-discovery-iteration.h
    learning/discovery/d2d-label-counts.h
    learning/discovery/d2d-discovery-messages.h
    learning/discovery/d2d-discovery-scoring.h
    learning/discovery/d2d-discovery-paradigm.h
    learning/discovery/d2d-supervised-paradigm.h
    learning/discovery/d2d-discovery-modes.h
    learning/discovery/d2d-discovery-policies.h
    learning/discovery/d2d-datapoint-exchange.h
    learning/discovery/d2d-graph-discovery.h
    learning/discovery/d2d-link-scorer.h
    learning/discovery/d2d-shard-exchange.h
    learning/discovery/d2d-label-propagation.h
    learning/discovery/d2d-agreement-cache.h
    learning/discovery/d2d-kl-blocks.h
    learning/discovery/d2d-gaussian-clusters.h
    learning/discovery/d2d-distributed-pca.h
    learning/discovery/d2d-pca-exchange.h
    learning/discovery/d2d-mlp-labeller.h
    learning/discovery/d2d-semi-supervised-paradigm.h
    learning/discovery/d2d-unsupervised-paradigm.h
    learning/discovery/d2d-gcn-graph-scorer.h
    learning/discovery/d2d-gcn-link-scorer.h
)

# learning/helper/: the protocol registry, D2dLearningHelper and the protocols' trace writers.
set(d2dlearn_learning_helper_sources
    learning/helper/d2d-learning-helper.cc
    learning/helper/d2d-protocol-registry.cc
    learning/helper/d2d-discovery-trace-writer.cc
    learning/helper/d2d-cmfl-trace-writer.cc
    learning/helper/d2d-consensus-trace-writer.cc
)
set(d2dlearn_learning_helper_headers
    learning/helper/d2d-learning-helper.h
    learning/helper/d2d-protocol-registry.h
    learning/helper/d2d-discovery-trace-writer.h
    learning/helper/d2d-cmfl-trace-writer.h
    learning/helper/d2d-consensus-trace-writer.h
)

# scenario/: the scenario layer (libd2dlearn-scenario), above both libraries' helpers:
# command-line flags and their checks, the network and learning options, the memory budget,
# graph discovery's scenario assembly and calculator.
set(d2dlearn_scenario_core_sources
    scenario/d2d-scenario-support.cc
    scenario/d2d-flag-scope.cc
    scenario/d2d-scenario-flags.cc
    scenario/d2d-case-batch.cc
    scenario/d2d-list-flag.cc
    scenario/d2d-network-options.cc
    scenario/d2d-network-option-groups.cc
    scenario/d2d-mobility-options.cc
    scenario/d2d-propagation-options.cc
    scenario/d2d-device-profile-options.cc
    scenario/d2d-availability-options.cc
    scenario/d2d-csv-file.cc
    scenario/d2d-memory-budget.cc
    scenario/d2d-type-choices.cc
)
set(d2dlearn_scenario_sources
    ${d2dlearn_scenario_core_sources}
    scenario/d2d-learning-options.cc
    scenario/d2d-learning-option-groups.cc
    scenario/d2d-discovery-calculator.cc
    scenario/d2d-discovery-recorder.cc
    scenario/d2d-graph-discovery-helper.cc
    scenario/d2d-protocol-choice.cc
)
set(d2dlearn_scenario_headers
    scenario/d2d-scenario-support.h
    scenario/d2d-flag-scope.h
    scenario/d2d-scenario-flags.h
    scenario/d2d-case-batch.h
    scenario/d2d-list-flag.h
    scenario/d2d-network-option-groups.h
    scenario/d2d-network-options.h
    scenario/d2d-mobility-options.h
    scenario/d2d-propagation-options.h
    scenario/d2d-device-profile-options.h
    scenario/d2d-availability-options.h
    scenario/d2d-csv-file.h
    scenario/d2d-memory-budget.h
    scenario/d2d-type-choices.h
    scenario/d2d-learning-option-groups.h
    scenario/d2d-learning-options.h
    scenario/d2d-discovery-calculator.h
    scenario/d2d-discovery-recorder.h
    scenario/d2d-graph-discovery-helper.h
    scenario/d2d-protocol-choice.h
)

# The libraries' lists.
set(d2dlearn_sources ${d2dlearn_model_sources} ${d2dlearn_data_sources} ${d2dlearn_bayes_sources}
                     ${d2dlearn_core_helper_sources})
set(d2dlearn_headers ${d2dlearn_model_headers} ${d2dlearn_data_headers} ${d2dlearn_bayes_headers}
                     ${d2dlearn_core_helper_headers})
set(d2dlearn_learning_sources ${d2dlearn_learner_sources} ${d2dlearn_fl_sources}
    ${d2dlearn_cmfl_sources} ${d2dlearn_consensus_sources} ${d2dlearn_discovery_sources}
    ${d2dlearn_learning_helper_sources})
set(d2dlearn_learning_headers ${d2dlearn_learner_headers} ${d2dlearn_fl_headers}
    ${d2dlearn_cmfl_headers} ${d2dlearn_consensus_headers} ${d2dlearn_discovery_headers}
    ${d2dlearn_learning_helper_headers})
set(d2dlearn_learning_rules_sources ${d2dlearn_learner_rules_sources} ${d2dlearn_fl_rules_sources}
    ${d2dlearn_cmfl_rules_sources} ${d2dlearn_consensus_rules_sources}
    ${d2dlearn_discovery_rules_sources})

# The ns-3 TestSuites of core/ and graph discovery, one CTest test per suite name.
set(d2dlearn_test_sources
    test/d2d-channel-test-suite.cc
    test/d2d-channel-access-test-suite.cc
    test/d2d-energy-test-suite.cc
    test/d2d-idle-energy-test-suite.cc
    test/d2d-drx-test-suite.cc
    test/d2d-rss-test-suite.cc
    test/d2d-propagation-test-suite.cc
    test/d2d-mobility-test-suite.cc
    test/d2d-server-position-test-suite.cc
    test/d2d-spectrum-test-suite.cc
    test/d2d-wifi-test-suite.cc
    test/d2d-bayes-test-suite.cc
    test/d2d-test-observer.cc
    test/d2d-graph-discovery-test-suite.cc
    test/d2d-unsupervised-discovery-test-suite.cc
    test/d2d-pca-exchange-test-suite.cc
)
set(d2dlearn_test_suites d2d-channel d2d-channel-access d2d-energy d2d-idle-energy d2d-drx d2d-rss
    d2d-propagation d2d-mobility d2d-server-position d2d-spectrum d2d-wifi d2d-bayes d2d-graph-discovery
    d2d-unsupervised-discovery d2d-pca-exchange)
# Suites of the learners, the protocols and the scenario layer (linked with LibTorch).
set(d2dlearn_learning_test_sources
    test/d2d-fl-test-suite.cc
    test/d2d-learner-test-suite.cc
    test/d2d-variational-test-suite.cc
    test/d2d-fl-decentralized-test-suite.cc
    test/d2d-ccp-test-suite.cc
    test/d2d-cmfl-rules-test-suite.cc
    test/d2d-fl-p2p-test-suite.cc
    test/d2d-cmfl-test-suite.cc
    test/d2d-fl-backend-test-suite.cc
    test/d2d-fl-async-test-suite.cc
    test/d2d-learning-helper-test-suite.cc
    test/d2d-test-fixtures.cc
    test/d2d-consensus-test-suite.cc
)
set(d2dlearn_learning_test_suites d2d-variational d2d-fl d2d-fl-decentralized d2d-fl-p2p
    d2d-learner d2d-cmfl-rules d2d-ccp d2d-cmfl d2d-fl-backend d2d-fl-async d2d-learning-helper
    d2d-consensus)

# One folder per library: core/ is libd2dlearn, learning/ libd2dlearn-learning, scenario/
# libd2dlearn-scenario.
foreach(library "core;d2dlearn" "learning;d2dlearn_learning" "scenario;d2dlearn_scenario")
  list(GET library 0 folder)
  list(GET library 1 prefix)
  foreach(f ${${prefix}_sources} ${${prefix}_headers})
    if(NOT f MATCHES "^${folder}/")
      message(FATAL_ERROR "d2dlearn: ${f}, in ${prefix}_sources or _headers, lies outside ${folder}/")
    endif()
  endforeach()
endforeach()
